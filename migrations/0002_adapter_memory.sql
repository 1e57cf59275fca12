-- What platform adapters remember between restarts, as small text records:
-- the Telegram adapter's ids behind @usernames, groups players last wrote in,
-- deep links waiting to be followed, open variant pickers; the Discord
-- adapter's per-game threads. `kind` names the record type, `key` the record.
CREATE TABLE adapter_memory (
    platform   TEXT NOT NULL,
    kind       TEXT NOT NULL,
    key        TEXT NOT NULL,
    value      TEXT NOT NULL,
    updated_at INTEGER NOT NULL,  -- ms since the epoch, to forget old records
    PRIMARY KEY (platform, kind, key)
);
