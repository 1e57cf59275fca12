-- How a person reads moves shown to them privately (`/notation`): `ru`
-- (Russian piece letters Кр Ф Л С К), `en` (K Q R B N); no row: by their
-- language.
CREATE TABLE user_notations (
    platform TEXT NOT NULL,
    user_id  TEXT NOT NULL,
    notation TEXT NOT NULL,
    PRIMARY KEY (platform, user_id)
);
