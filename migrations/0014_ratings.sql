-- Rated games (`/play … rated|casual`): 1 when the game changes its players'
-- ratings at its end, 0 for a casual game. Rows stored before this column
-- existed were all casual.
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;

-- Glicko-2 ratings (see `bot/src/rating.rs`), one per platform, person and
-- variant: a Discord user and a Telegram user are different people.
-- `rated_at` is when the last rated game ended (the deviation grows from
-- then on); `best` the highest rating reached once no longer provisional
-- (NULL until then); `user_name` the name last played under, for `/rating
-- @name` and the leaderboards.
CREATE TABLE ratings (
    platform   TEXT NOT NULL,
    user_id    TEXT NOT NULL,
    variant    TEXT NOT NULL,
    user_name  TEXT NOT NULL,
    rating     REAL NOT NULL,
    rd         REAL NOT NULL,
    volatility REAL NOT NULL,
    games      INTEGER NOT NULL,
    wins       INTEGER NOT NULL,
    draws      INTEGER NOT NULL,
    losses     INTEGER NOT NULL,
    best       REAL,
    rated_at   INTEGER NOT NULL,
    PRIMARY KEY (platform, user_id, variant)
);

CREATE INDEX ratings_by_variant ON ratings (platform, variant, rating);

-- One row per player of each rated game, written in the transaction that
-- ends the game: the rating before and after it. `chat_id` is the chat the
-- game belongs to (its home chat when it moved to a thread): whose
-- leaderboard the player is on.
CREATE TABLE rating_history (
    platform      TEXT NOT NULL,
    game_id       TEXT NOT NULL,
    user_id       TEXT NOT NULL,
    variant       TEXT NOT NULL,
    chat_id       TEXT NOT NULL,
    opponent_id   TEXT NOT NULL,
    score         REAL NOT NULL,
    rating_before REAL NOT NULL,
    rd_before     REAL NOT NULL,
    rating_after  REAL NOT NULL,
    rd_after      REAL NOT NULL,
    played_at     INTEGER NOT NULL,
    PRIMARY KEY (platform, game_id, user_id)
);

CREATE INDEX rating_history_by_chat ON rating_history (platform, chat_id, variant, user_id);
CREATE INDEX rating_history_by_user ON rating_history (platform, user_id, played_at);
