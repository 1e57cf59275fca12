-- Reminders: the player to move is told privately once when a quarter of a
-- correspondence move's time is left (once per move), or 10 % of a live
-- clock's starting time (once per game). `reminder_at` is when the next one
-- is due (the scheduler wakes for it as for a deadline); `reminded` the
-- seats already reminded in a live game, one bit per seat, so a restart
-- never reminds twice.
ALTER TABLE games ADD COLUMN reminder_at INTEGER;
ALTER TABLE games ADD COLUMN reminded INTEGER NOT NULL DEFAULT 0;
CREATE INDEX games_by_reminder ON games (reminder_at) WHERE reminder_at IS NOT NULL;
