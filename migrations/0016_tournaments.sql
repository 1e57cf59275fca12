-- Tournaments (`/tournament`): one row per tournament, its whole state —
-- format, variant, clock, entrants, rounds and their games' results — kept
-- as one serialized text (`state`, JSON) that the service reads and writes
-- whole, under an optimistic `version` as games are. `status` is `open`
-- (taking entries), `running`, `finished` or `cancelled`; `next_at` is
-- when the tournament wants looking at next (its start, or the first-move
-- time of a round's games), NULL when only a game's end moves it on.
CREATE TABLE tournaments (
    platform   TEXT NOT NULL,
    id         TEXT NOT NULL,
    chat_id    TEXT NOT NULL,
    status     TEXT NOT NULL,
    state      TEXT NOT NULL,
    version    INTEGER NOT NULL,
    next_at    INTEGER,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (platform, id)
);

CREATE INDEX tournaments_by_chat ON tournaments (platform, chat_id, status);
CREATE INDEX tournaments_next ON tournaments (next_at) WHERE next_at IS NOT NULL;

-- The tournament each of its games belongs to: a game's end moves its
-- tournament on (the games themselves are ordinary rows of `games`).
CREATE TABLE tournament_games (
    platform      TEXT NOT NULL,
    game_id       TEXT NOT NULL,
    tournament_id TEXT NOT NULL,
    PRIMARY KEY (platform, game_id)
);
