//! Language and notation choices (`user_langs`, `chat_langs`,
//! `user_notations`; see `migrations/0001_games.sql` and
//! `migrations/0010_notation.sql`), and a chat's settings (`chat_settings`,
//! `migrations/0017_chat_settings.sql`).

use super::db::{on_pool, Dialect};
use super::{Store, StoreError};

/// Whose language choice.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum LangOwner {
    /// A user's (`/lang ru`).
    User,
    /// A chat's (`/lang chat ru`).
    Chat,
}

impl LangOwner {
    /// The queries reading and storing this owner's choice.
    fn queries(self) -> (&'static str, &'static str) {
        match self {
            LangOwner::User => (
                "SELECT lang FROM user_langs WHERE platform = ? AND user_id = ?",
                "INSERT INTO user_langs (platform, user_id, lang) VALUES (?, ?, ?) \
                 ON CONFLICT (platform, user_id) DO UPDATE SET lang = excluded.lang",
            ),
            LangOwner::Chat => (
                "SELECT lang FROM chat_langs WHERE platform = ? AND chat_id = ?",
                "INSERT INTO chat_langs (platform, chat_id, lang) VALUES (?, ?, ?) \
                 ON CONFLICT (platform, chat_id) DO UPDATE SET lang = excluded.lang",
            ),
        }
    }
}

impl Store {
    /// How `user` chose to read moves (`/notation`), if they chose.
    pub async fn notation(&self, platform: &str, user: &str) -> Result<Option<String>, StoreError> {
        Ok(
            on_pool!(&self.pool, db => sqlx::query_scalar::<_, String>(db.sql(
            "SELECT notation FROM user_notations WHERE platform = ? AND user_id = ?",
        ))
        .bind(platform.to_owned())
        .bind(user.to_owned())
        .fetch_optional(db)
        .await?),
        )
    }

    /// Stores `user`'s notation choice; `None` forgets it (by their language).
    pub async fn set_notation(
        &self,
        platform: &str,
        user: &str,
        notation: Option<&str>,
    ) -> Result<(), StoreError> {
        on_pool!(&self.writer, db => {
            let query = match notation {
                Some(notation) => sqlx::query(db.sql(
                    "INSERT INTO user_notations (platform, user_id, notation) VALUES (?, ?, ?) \
                     ON CONFLICT (platform, user_id) DO UPDATE SET notation = excluded.notation",
                ))
                .bind(platform.to_owned())
                .bind(user.to_owned())
                .bind(notation.to_owned()),
                None => sqlx::query(db.sql(
                    "DELETE FROM user_notations WHERE platform = ? AND user_id = ?",
                ))
                .bind(platform.to_owned())
                .bind(user.to_owned()),
            };
            query.execute(db).await?;
        });
        Ok(())
    }

    /// The language code `owner` `id` chose with `/lang`, if any.
    pub async fn lang(
        &self,
        owner: LangOwner,
        platform: &str,
        id: &str,
    ) -> Result<Option<String>, StoreError> {
        Ok(
            on_pool!(&self.pool, db => sqlx::query_scalar::<_, String>(db.sql(owner.queries().0))
            .bind(platform.to_owned())
            .bind(id.to_owned())
            .fetch_optional(db)
            .await?),
        )
    }

    /// Stores the language `owner` `id` chose.
    pub async fn set_lang(
        &self,
        owner: LangOwner,
        platform: &str,
        id: &str,
        lang: &str,
    ) -> Result<(), StoreError> {
        on_pool!(&self.writer, db => sqlx::query(db.sql(owner.queries().1))
            .bind(platform.to_owned())
            .bind(id.to_owned())
            .bind(lang.to_owned())
            .execute(db)
            .await?
            .rows_affected());
        Ok(())
    }

    /// The value chat `chat` chose for its setting `name` (`/settings`), if
    /// it chose one.
    pub async fn chat_setting(
        &self,
        platform: &str,
        chat: &str,
        name: &str,
    ) -> Result<Option<String>, StoreError> {
        Ok(
            on_pool!(&self.pool, db => sqlx::query_scalar::<_, String>(db.sql(
            "SELECT value FROM chat_settings WHERE platform = ? AND chat_id = ? AND name = ?",
        ))
        .bind(platform.to_owned())
        .bind(chat.to_owned())
        .bind(name.to_owned())
        .fetch_optional(db)
        .await?),
        )
    }

    /// Stores chat `chat`'s choice `value` for its setting `name`.
    pub async fn set_chat_setting(
        &self,
        platform: &str,
        chat: &str,
        name: &str,
        value: &str,
    ) -> Result<(), StoreError> {
        on_pool!(&self.writer, db => sqlx::query(db.sql(
            "INSERT INTO chat_settings (platform, chat_id, name, value) VALUES (?, ?, ?, ?) \
             ON CONFLICT (platform, chat_id, name) DO UPDATE SET value = excluded.value",
        ))
        .bind(platform.to_owned())
        .bind(chat.to_owned())
        .bind(name.to_owned())
        .bind(value.to_owned())
        .execute(db)
        .await?
        .rows_affected());
        Ok(())
    }
}
