//! Where people last wrote and whether they want the personal ticker
//! (`people`; see `migrations/0015_lobby.sql`).

use super::db::{on_pool, Dialect};
use super::{Store, StoreError};

/// What the ticker knows of one person.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Presence {
    /// The chat they last wrote in (a group, or their private chat).
    pub last_chat: Option<String>,
    /// Whether they wrote to the bot privately once (on Telegram, the bot
    /// may write only to people who started it).
    pub private_ok: bool,
    /// Whether they want news of their games from other chats (`/notify`).
    pub notify: bool,
}

impl Store {
    /// What is known of `user`; a person never seen wants the ticker and
    /// wrote nowhere yet.
    pub async fn presence(&self, platform: &str, user: &str) -> Result<Presence, StoreError> {
        let row = on_pool!(&self.pool, db => sqlx::query_as::<_, (Option<String>, i64, i64)>(db.sql(
            "SELECT last_chat_id, private_ok, notify FROM people \
             WHERE platform = ? AND user_id = ?",
        ))
        .bind(platform.to_owned())
        .bind(user.to_owned())
        .fetch_optional(db)
        .await?);
        Ok(match row {
            Some((last_chat, private_ok, notify)) => Presence {
                last_chat,
                private_ok: private_ok != 0,
                notify: notify != 0,
            },
            None => Presence {
                notify: true,
                ..Presence::default()
            },
        })
    }

    /// `user` wrote in `chat` at `now` (`private`: their private chat with
    /// the bot, which stays open to the bot from then on).
    pub async fn seen_in(
        &self,
        platform: &str,
        user: &str,
        chat: &str,
        private: bool,
        now: i64,
    ) -> Result<(), StoreError> {
        on_pool!(&self.writer, db => sqlx::query(db.sql(
            "INSERT INTO people (platform, user_id, last_chat_id, last_seen, private_ok) \
             VALUES (?, ?, ?, ?, ?) ON CONFLICT (platform, user_id) DO UPDATE SET \
             last_chat_id = excluded.last_chat_id, last_seen = excluded.last_seen, \
             private_ok = CASE WHEN excluded.private_ok > people.private_ok \
             THEN excluded.private_ok ELSE people.private_ok END",
        ))
        .bind(platform.to_owned())
        .bind(user.to_owned())
        .bind(chat.to_owned())
        .bind(now)
        .bind(i64::from(private))
        .execute(db)
        .await?
        .rows_affected());
        Ok(())
    }

    /// Turns `user`'s ticker on or off.
    pub async fn set_notify(
        &self,
        platform: &str,
        user: &str,
        on: bool,
        now: i64,
    ) -> Result<(), StoreError> {
        on_pool!(&self.writer, db => sqlx::query(db.sql(
            "INSERT INTO people (platform, user_id, last_seen, notify) VALUES (?, ?, ?, ?) \
             ON CONFLICT (platform, user_id) DO UPDATE SET notify = excluded.notify",
        ))
        .bind(platform.to_owned())
        .bind(user.to_owned())
        .bind(now)
        .bind(i64::from(on))
        .execute(db)
        .await?
        .rows_affected());
        Ok(())
    }
}
