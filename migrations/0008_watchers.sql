-- Spectators (`/watch <game>`): who hears a game's public messages besides
-- its own chat. `kind` is `chat` (a group or channel, by chat id) or `user`
-- (a person privately, by user id, e.g. /watch in a private chat or the
-- Watch button). Removed when the game ends (after its last message) or on
-- `/unwatch`.
CREATE TABLE watchers (
    platform   TEXT NOT NULL,
    game_id    TEXT NOT NULL,
    kind       TEXT NOT NULL,
    target_id  TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (platform, game_id, kind, target_id)
);

-- How many games one chat or person watches (a limit per watcher).
CREATE INDEX watchers_by_target ON watchers (platform, kind, target_id);
