-- Seats are rows of their own: a game has 2–4 seats, each with a player, the
-- side they play (colour, orientation), their team, and their clock. The
-- games table no longer counts to two: white_* and black_* move here.
CREATE TABLE seats (
    platform     TEXT NOT NULL,
    game_id      TEXT NOT NULL REFERENCES games (id),
    seat         INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),  -- turn order
    user_id      TEXT NOT NULL,
    user_name    TEXT NOT NULL,
    side         INTEGER NOT NULL,  -- the engine's side index (0 white, 1 black)
    team         INTEGER NOT NULL,  -- seats of one team win or lose together
    remaining_ms INTEGER,           -- time left when the current turn began
    PRIMARY KEY (platform, game_id, seat)
);

-- "My games": the games a user sits in.
CREATE INDEX seats_by_user ON seats (platform, user_id);

-- Every started game keeps its two players and their clocks: white sits at
-- seat 0 (side 0, team 0), black at seat 1 (side 1, team 1).
INSERT INTO seats (platform, game_id, seat, user_id, user_name, side, team, remaining_ms)
SELECT platform, id, 0, white_id, COALESCE(white_name, '?'), 0, 0, white_ms
FROM games WHERE white_id IS NOT NULL;

INSERT INTO seats (platform, game_id, seat, user_id, user_name, side, team, remaining_ms)
SELECT platform, id, 1, black_id, COALESCE(black_name, '?'), 1, 1, black_ms
FROM games WHERE black_id IS NOT NULL;

DROP INDEX games_by_white;
DROP INDEX games_by_black;
ALTER TABLE games DROP COLUMN white_id;
ALTER TABLE games DROP COLUMN white_name;
ALTER TABLE games DROP COLUMN black_id;
ALTER TABLE games DROP COLUMN black_name;
ALTER TABLE games DROP COLUMN white_ms;
ALTER TABLE games DROP COLUMN black_ms;

-- games.result names the winning team: `1-0` (team 0), `0-1` (team 1),
-- `1/2-1/2`, `*` (no result) as before, and `team:N` when team N ≥ 2 wins.
