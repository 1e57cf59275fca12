-- Games on two linked boards (bughouse): each board is a game row of its
-- own, an ordinary two-player game with its own clock and record, linked
-- to the other board's row. A capture on one board is recorded in the
-- other board's record as a gift (`+n`), and a result on one board ends
-- both. `board` is the board's place in the pair (0: board A, 1: board B);
-- `move_times` holds, for each move of the board's record (gifts aside),
-- `<when>:<time left>` in milliseconds, so that the pair's record (BPGN)
-- interleaves the two boards' moves in the order they were played.
ALTER TABLE games ADD COLUMN linked_id TEXT;
ALTER TABLE games ADD COLUMN board INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN move_times TEXT NOT NULL DEFAULT '';
