//! The `watchers` table (see `migrations/0008_watchers.sql`).

use super::db::{on_pool, Dialect};
use super::{Store, StoreError};
use crate::time::Millis;

/// Who watches a game (see `migrations/0008_watchers.sql`).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Watcher {
    /// Everyone in a chat, by chat id.
    Chat(String),
    /// One person privately, by user id.
    User(String),
}

impl Watcher {
    /// The stored kind.
    fn kind(&self) -> &'static str {
        match self {
            Watcher::Chat(_) => "chat",
            Watcher::User(_) => "user",
        }
    }

    /// The chat or user id.
    pub fn id(&self) -> &str {
        match self {
            Watcher::Chat(id) | Watcher::User(id) => id,
        }
    }

    /// The watcher stored as `kind` and `id`; `None` for a kind this
    /// version does not know.
    fn from_parts(kind: &str, id: String) -> Option<Watcher> {
        match kind {
            "chat" => Some(Watcher::Chat(id)),
            "user" => Some(Watcher::User(id)),
            _ => None,
        }
    }
}

impl Store {
    /// The ids of the games `user` or `chat` (on `platform`) watches.
    pub async fn watched_games(
        &self,
        platform: &str,
        user: &str,
        chat: &str,
    ) -> Result<Vec<String>, StoreError> {
        Ok(
            on_pool!(&self.pool, db => sqlx::query_scalar::<_, String>(db.sql(
            "SELECT game_id FROM watchers WHERE platform = ? \
             AND ((kind = 'user' AND target_id = ?) OR (kind = 'chat' AND target_id = ?))",
        ))
        .bind(platform.to_owned())
        .bind(user.to_owned())
        .bind(chat.to_owned())
        .fetch_all(db)
        .await?),
        )
    }

    /// Adds `watcher` to game `game`'s spectators; false if it was one already.
    pub async fn add_watcher(
        &self,
        platform: &str,
        game: &str,
        watcher: &Watcher,
        now: Millis,
    ) -> Result<bool, StoreError> {
        let done = on_pool!(&self.writer, db => sqlx::query(db.sql(
            "INSERT INTO watchers (platform, game_id, kind, target_id, created_at) \
             VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
        ))
        .bind(platform.to_owned())
        .bind(game.to_owned())
        .bind(watcher.kind().to_owned())
        .bind(watcher.id().to_owned())
        .bind(now)
        .execute(db)
        .await?
        .rows_affected());
        Ok(done == 1)
    }

    /// Removes `watcher` from game `game`'s spectators; false if it was none.
    pub async fn remove_watcher(
        &self,
        platform: &str,
        game: &str,
        watcher: &Watcher,
    ) -> Result<bool, StoreError> {
        let done = on_pool!(&self.writer, db => sqlx::query(db.sql(
            "DELETE FROM watchers WHERE platform = ? AND game_id = ? AND kind = ? \
             AND target_id = ?",
        ))
        .bind(platform.to_owned())
        .bind(game.to_owned())
        .bind(watcher.kind().to_owned())
        .bind(watcher.id().to_owned())
        .execute(db)
        .await?
        .rows_affected());
        Ok(done == 1)
    }

    /// Game `game`'s spectators, oldest first.
    pub async fn watchers_of(
        &self,
        platform: &str,
        game: &str,
    ) -> Result<Vec<Watcher>, StoreError> {
        let rows = on_pool!(&self.pool, db => sqlx::query_as::<_, (String, String)>(db.sql(
            "SELECT kind, target_id FROM watchers WHERE platform = ? AND game_id = ? \
             ORDER BY created_at, kind, target_id",
        ))
        .bind(platform.to_owned())
        .bind(game.to_owned())
        .fetch_all(db)
        .await?);
        Ok(rows
            .into_iter()
            .filter_map(|(kind, id)| Watcher::from_parts(&kind, id))
            .collect())
    }

    /// How many games not yet over `watcher` watches (a game that ended
    /// without a last message to its spectators, an expired challenge,
    /// counts no more).
    pub async fn watched_by(&self, platform: &str, watcher: &Watcher) -> Result<usize, StoreError> {
        let count = on_pool!(&self.pool, db => sqlx::query_scalar::<_, i64>(db.sql(
            "SELECT COUNT(*) FROM watchers w JOIN games g \
             ON g.platform = w.platform AND g.id = w.game_id \
             WHERE w.platform = ? AND w.kind = ? AND w.target_id = ? \
             AND g.status IN ('challenge', 'setup', 'active')",
        ))
        .bind(platform.to_owned())
        .bind(watcher.kind().to_owned())
        .bind(watcher.id().to_owned())
        .fetch_one(db)
        .await?);
        Ok(usize::try_from(count).unwrap_or(0))
    }

    /// Forgets every spectator of game `game` (it ended).
    pub async fn forget_watchers(&self, platform: &str, game: &str) -> Result<(), StoreError> {
        on_pool!(&self.writer, db => sqlx::query(db.sql("DELETE FROM watchers WHERE platform = ? AND game_id = ?"))
            .bind(platform.to_owned())
            .bind(game.to_owned())
            .execute(db)
            .await?
            .rows_affected());
        Ok(())
    }
}
