-- Telegram updates taken through a webhook (`KODEX_TELEGRAM_WEBHOOK_URL`),
-- so that each is handled once by one of the processes behind it: a
-- process claims an update for `claimed_until` (ms) before handling it and
-- marks it `done_at` after; Telegram's second delivery of it (its request
-- went unanswered, perhaps to another process) finds it done, or claimed
-- and answered later. Kept two days, then forgotten.
CREATE TABLE telegram_updates (
    update_id     INTEGER NOT NULL PRIMARY KEY,
    claimed_by    TEXT,
    claimed_until INTEGER,
    done_at       INTEGER
);

CREATE INDEX telegram_updates_done ON telegram_updates (done_at);
