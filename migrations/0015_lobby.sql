-- The lobby (`/lobby`, `/playnow`, `/invite`, `/join`).
--
-- `public` is 1 for an open challenge published beyond its chat (`/play …
-- public`, or a seek of `/playnow`): anyone on the platform may take it
-- from any chat. `guest_chat_id` is the chat it was taken from when that is
-- not its own (`chat_id`): the game is played in both, each hearing its
-- public messages, moves typed in either. `invite_code` is the one-time
-- code of an invitation (`/invite`): the first person to use it plays.
ALTER TABLE games ADD COLUMN public INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN guest_chat_id TEXT;
ALTER TABLE games ADD COLUMN invite_code TEXT;

-- The platform's public seeks, oldest first.
CREATE INDEX games_public_seeks ON games (platform, created_at)
    WHERE status = 'challenge' AND public = 1;
-- An invitation by its code; a code is never given twice.
CREATE UNIQUE INDEX games_by_invite ON games (platform, invite_code)
    WHERE invite_code IS NOT NULL;

-- The personal ticker (`/notify on|off`): where each person last wrote, so
-- that news of their games said in another chat (a challenge to them, an
-- offer, an opponent's move in a correspondence game) reaches them
-- privately. `private_ok` is 1 once they wrote to the bot privately (on
-- Telegram the bot may write only to people who started it); `notify` is
-- 0 after `/notify off`.
CREATE TABLE people (
    platform     TEXT NOT NULL,
    user_id      TEXT NOT NULL,
    last_chat_id TEXT,
    last_seen    INTEGER NOT NULL,
    private_ok   INTEGER NOT NULL DEFAULT 0,
    notify       INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (platform, user_id)
);
