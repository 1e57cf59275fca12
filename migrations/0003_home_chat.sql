-- A game an adapter moved into a thread of its own (Discord) remembers the
-- chat it started in, which still hears how it ended.
ALTER TABLE games ADD COLUMN home_chat_id TEXT;
