-- A chat's own settings (`/settings`), one row per setting a chat changed:
-- `name` is the setting (`board-orientation`), `value` its choice
-- (`white`, `side-to-move`). No row: the default.
CREATE TABLE chat_settings (
    platform TEXT NOT NULL,
    chat_id  TEXT NOT NULL,
    name     TEXT NOT NULL,
    value    TEXT NOT NULL,
    PRIMARY KEY (platform, chat_id, name)
);
