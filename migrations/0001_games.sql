-- Games and challenges share one table: a challenge is a game row in status
-- 'challenge' that becomes 'active' when accepted, keeping its short id.
CREATE TABLE games (
    id              TEXT PRIMARY KEY NOT NULL,  -- short id shown to people (`k7m2`)
    platform        TEXT NOT NULL,              -- console | discord | telegram
    chat_id         TEXT NOT NULL,              -- the chat the game belongs to
    variant         TEXT NOT NULL,              -- variant id
    status          TEXT NOT NULL,              -- challenge | active | finished | declined | expired | aborted
    challenger_id   TEXT NOT NULL,
    challenger_name TEXT NOT NULL,
    opponent_id     TEXT,                       -- NULL: an open challenge anyone may accept
    opponent_name   TEXT,
    color           TEXT NOT NULL,              -- the challenger's colour: white | black | random
    white_id        TEXT,                       -- set when the game starts
    white_name      TEXT,
    black_id        TEXT,
    black_name      TEXT,
    time_control    TEXT NOT NULL,              -- `-`, `3+2`, `1d`
    start_fen       TEXT,                       -- set when the game starts
    moves           TEXT NOT NULL DEFAULT '',   -- UCI moves separated by spaces
    white_ms        INTEGER,                    -- time left when the current turn began
    black_ms        INTEGER,
    turn_started_at INTEGER,                    -- ms since the epoch
    deadline        INTEGER,                    -- absolute: flag fall, or challenge expiry
    draw_offer      INTEGER,                    -- side index of a standing draw offer
    takeback_offer  INTEGER,                    -- side index of a standing takeback request
    result          TEXT,                       -- 1-0 | 0-1 | 1/2-1/2 | *
    reason          TEXT,                       -- i18n key of why it ended
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL,
    version         INTEGER NOT NULL DEFAULT 0  -- optimistic concurrency
);

CREATE INDEX games_by_chat ON games (platform, chat_id, status);
CREATE INDEX games_by_white ON games (platform, white_id, status);
CREATE INDEX games_by_black ON games (platform, black_id, status);
CREATE INDEX games_by_deadline ON games (deadline) WHERE deadline IS NOT NULL;

-- Language choices (`/lang`). Button presses need no table: a button's data
-- (`acc:k7m2`) names the game, and the game row holds the offer it answers.
CREATE TABLE user_langs (
    platform TEXT NOT NULL,
    user_id  TEXT NOT NULL,
    lang     TEXT NOT NULL,
    PRIMARY KEY (platform, user_id)
);

CREATE TABLE chat_langs (
    platform TEXT NOT NULL,
    chat_id  TEXT NOT NULL,
    lang     TEXT NOT NULL,
    PRIMARY KEY (platform, chat_id)
);
