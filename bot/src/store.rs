//! SQLite storage (sqlx, WAL): game and challenge rows, language choices.
//!
//! Every write of a game goes through [`Store::save`], which applies only if
//! the row still has the version it was read with: two processes (or two
//! requests that slipped past the in-process lock) cannot both apply a move.

use crate::time::Millis;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{FromRow, SqlitePool};
use std::str::FromStr;
use std::time::Duration;

/// A storage failure (the database is unreachable, full, or corrupt).
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// An error from SQLite.
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    /// The migrations could not be applied.
    #[error("database migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
}

/// Where a game is in its life.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Status {
    /// A challenge waiting for an answer.
    Challenge,
    /// Being played.
    Active,
    /// Ended with a result.
    Finished,
    /// The challenge was declined (or withdrawn).
    Declined,
    /// The challenge expired unanswered.
    Expired,
    /// The game was aborted before both sides moved.
    Aborted,
}

impl Status {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Challenge => "challenge",
            Status::Active => "active",
            Status::Finished => "finished",
            Status::Declined => "declined",
            Status::Expired => "expired",
            Status::Aborted => "aborted",
        }
    }

    /// Reads a stored name; unknown names read as finished, so a row written by
    /// a newer version is left alone rather than played on.
    pub fn parse(text: &str) -> Status {
        match text {
            "challenge" => Status::Challenge,
            "active" => Status::Active,
            "declined" => Status::Declined,
            "expired" => Status::Expired,
            "aborted" => Status::Aborted,
            _ => Status::Finished,
        }
    }
}

/// One row of the `games` table (see `migrations/0001_games.sql`).
#[derive(Clone, PartialEq, Eq, Debug, FromRow)]
pub struct GameRow {
    /// The short id.
    pub id: String,
    /// The platform key.
    pub platform: String,
    /// The chat the game belongs to.
    pub chat_id: String,
    /// The chat it started in, when an adapter has since moved it into a
    /// thread of its own (see `migrations/0003_home_chat.sql`).
    pub home_chat_id: Option<String>,
    /// The variant id.
    pub variant: String,
    /// The stored [`Status`] name.
    pub status: String,
    /// Who challenged.
    pub challenger_id: String,
    /// Their display name.
    pub challenger_name: String,
    /// Who was challenged; `None` for an open challenge.
    pub opponent_id: Option<String>,
    /// Their display name.
    pub opponent_name: Option<String>,
    /// The challenger's wished colour.
    pub color: String,
    /// White's user id once started.
    pub white_id: Option<String>,
    /// White's name.
    pub white_name: Option<String>,
    /// Black's user id once started.
    pub black_id: Option<String>,
    /// Black's name.
    pub black_name: Option<String>,
    /// The time control code.
    pub time_control: String,
    /// The start position once started.
    pub start_fen: Option<String>,
    /// UCI moves separated by spaces.
    pub moves: String,
    /// White's time when the current turn began.
    pub white_ms: Option<i64>,
    /// Black's time when the current turn began.
    pub black_ms: Option<i64>,
    /// When the current turn began.
    pub turn_started_at: Option<i64>,
    /// The next absolute deadline (flag or expiry).
    pub deadline: Option<i64>,
    /// The side with a standing draw offer.
    pub draw_offer: Option<i64>,
    /// The side with a standing takeback request.
    pub takeback_offer: Option<i64>,
    /// The result once finished.
    pub result: Option<String>,
    /// Why it ended (an i18n key suffix).
    pub reason: Option<String>,
    /// Created.
    pub created_at: i64,
    /// Last change.
    pub updated_at: i64,
    /// Optimistic concurrency counter.
    pub version: i64,
}

impl GameRow {
    /// The status.
    pub fn status(&self) -> Status {
        Status::parse(&self.status)
    }

    /// The moves as a list.
    pub fn move_list(&self) -> Vec<&str> {
        self.moves.split_whitespace().collect()
    }

    /// The side index `user` plays, if any.
    pub fn side_of(&self, user: &str) -> Option<usize> {
        if self.white_id.as_deref() == Some(user) {
            Some(0)
        } else if self.black_id.as_deref() == Some(user) {
            Some(1)
        } else {
            None
        }
    }

    /// The user id of side `index`.
    pub fn player_id(&self, index: usize) -> Option<&str> {
        match index {
            0 => self.white_id.as_deref(),
            1 => self.black_id.as_deref(),
            _ => None,
        }
    }

    /// The name of side `index`.
    pub fn player_name(&self, index: usize) -> &str {
        match index {
            0 => self.white_name.as_deref().unwrap_or("?"),
            _ => self.black_name.as_deref().unwrap_or("?"),
        }
    }

    /// The time left of side `index` at the start of the current turn.
    pub fn remaining(&self, index: usize) -> Option<Millis> {
        match index {
            0 => self.white_ms,
            _ => self.black_ms,
        }
    }

    /// Sets the time left of side `index`.
    pub fn set_remaining(&mut self, index: usize, millis: Option<Millis>) {
        match index {
            0 => self.white_ms = millis,
            _ => self.black_ms = millis,
        }
    }
}

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

/// The database.
#[derive(Clone, Debug)]
pub struct Store {
    pool: SqlitePool,
}

const COLUMNS: &str =
    "id, platform, chat_id, home_chat_id, variant, status, challenger_id, challenger_name, \
    opponent_id, opponent_name, color, white_id, white_name, black_id, black_name, time_control, \
    start_fen, moves, white_ms, black_ms, turn_started_at, deadline, draw_offer, takeback_offer, \
    result, reason, created_at, updated_at, version";

/// The columns a game changes over its life, in the order [`bind_mutable`] binds them.
const MUTABLE: [&str; 20] = [
    "chat_id",
    "home_chat_id",
    "status",
    "opponent_id",
    "opponent_name",
    "white_id",
    "white_name",
    "black_id",
    "black_name",
    "start_fen",
    "moves",
    "white_ms",
    "black_ms",
    "turn_started_at",
    "deadline",
    "draw_offer",
    "takeback_offer",
    "result",
    "reason",
    "updated_at",
];

type Query<'q> = sqlx::query::Query<'q, sqlx::Sqlite, sqlx::sqlite::SqliteArguments>;

/// Binds `row`'s values of the [`MUTABLE`] columns, in order.
fn bind_mutable<'q>(query: Query<'q>, row: &GameRow) -> Query<'q> {
    query
        .bind(row.chat_id.clone())
        .bind(row.home_chat_id.clone())
        .bind(row.status.clone())
        .bind(row.opponent_id.clone())
        .bind(row.opponent_name.clone())
        .bind(row.white_id.clone())
        .bind(row.white_name.clone())
        .bind(row.black_id.clone())
        .bind(row.black_name.clone())
        .bind(row.start_fen.clone())
        .bind(row.moves.clone())
        .bind(row.white_ms)
        .bind(row.black_ms)
        .bind(row.turn_started_at)
        .bind(row.deadline)
        .bind(row.draw_offer)
        .bind(row.takeback_offer)
        .bind(row.result.clone())
        .bind(row.reason.clone())
        .bind(row.updated_at)
}

impl Store {
    /// Opens (creating if missing) the database at `url` in WAL mode and
    /// applies the migrations.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        let options = SqliteConnectOptions::from_str(url)?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            // WAL + NORMAL survives a process kill (only an OS crash may lose
            // the last commits).
            .synchronous(SqliteSynchronous::Normal)
            .busy_timeout(Duration::from_secs(10))
            .foreign_keys(true);
        let pool = SqlitePoolOptions::new()
            .max_connections(4)
            .connect_with(options)
            .await?;
        sqlx::migrate!("../migrations").run(&pool).await?;
        Ok(Store { pool })
    }

    /// Inserts a new row; false when the id is taken.
    pub async fn insert(&self, row: &GameRow) -> Result<bool, StoreError> {
        let sql = format!(
            "INSERT OR IGNORE INTO games (id, platform, variant, challenger_id, challenger_name, \
             color, time_control, created_at, version, {}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?{})",
            MUTABLE.join(", "),
            ", ?".repeat(MUTABLE.len()),
        );
        let query = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(row.id.clone())
            .bind(row.platform.clone())
            .bind(row.variant.clone())
            .bind(row.challenger_id.clone())
            .bind(row.challenger_name.clone())
            .bind(row.color.clone())
            .bind(row.time_control.clone())
            .bind(row.created_at)
            .bind(row.version);
        let result = bind_mutable(query, row).execute(&self.pool).await?;
        Ok(result.rows_affected() == 1)
    }

    /// Writes every mutable column of `row` if the stored version is still
    /// `row.version`, and bumps the version. False when someone else wrote first.
    pub async fn save(&self, row: &mut GameRow) -> Result<bool, StoreError> {
        let sql = format!(
            "UPDATE games SET {} = ?, version = version + 1 WHERE id = ? AND version = ?",
            MUTABLE.join(" = ?, "),
        );
        let result = bind_mutable(sqlx::query(sqlx::AssertSqlSafe(sql)), row)
            .bind(row.id.clone())
            .bind(row.version)
            .execute(&self.pool)
            .await?;
        let applied = result.rows_affected() == 1;
        if applied {
            row.version += 1;
        }
        Ok(applied)
    }

    /// A game by id (case-insensitive, `#` allowed) on `platform`.
    pub async fn get(&self, platform: &str, id: &str) -> Result<Option<GameRow>, StoreError> {
        let id = id.trim().trim_start_matches('#').to_lowercase();
        let sql = format!("SELECT {COLUMNS} FROM games WHERE id = ? AND platform = ?");
        Ok(sqlx::query_as::<_, GameRow>(sqlx::AssertSqlSafe(sql))
            .bind(id)
            .bind(platform.to_owned())
            .fetch_optional(&self.pool)
            .await?)
    }

    /// Active games `user` plays on `platform`, in `chat` when given, oldest first.
    pub async fn active_games_of(
        &self,
        platform: &str,
        user: &str,
        chat: Option<&str>,
    ) -> Result<Vec<GameRow>, StoreError> {
        let sql = format!(
            "SELECT {COLUMNS} FROM games WHERE platform = ? AND status = 'active' \
             AND (white_id = ? OR black_id = ?) AND (? IS NULL OR chat_id = ?) \
             ORDER BY created_at, id"
        );
        Ok(sqlx::query_as::<_, GameRow>(sqlx::AssertSqlSafe(sql))
            .bind(platform.to_owned())
            .bind(user.to_owned())
            .bind(user.to_owned())
            .bind(chat.map(str::to_owned))
            .bind(chat.map(str::to_owned))
            .fetch_all(&self.pool)
            .await?)
    }

    /// Pending challenges in `chat`, oldest first.
    pub async fn challenges_in(
        &self,
        platform: &str,
        chat: &str,
    ) -> Result<Vec<GameRow>, StoreError> {
        let sql = format!(
            "SELECT {COLUMNS} FROM games WHERE platform = ? AND chat_id = ? \
             AND status = 'challenge' ORDER BY created_at, id"
        );
        Ok(sqlx::query_as::<_, GameRow>(sqlx::AssertSqlSafe(sql))
            .bind(platform.to_owned())
            .bind(chat.to_owned())
            .fetch_all(&self.pool)
            .await?)
    }

    /// Challenges and active games involving `user` on `platform`, oldest first.
    pub async fn open_games_of(
        &self,
        platform: &str,
        user: &str,
    ) -> Result<Vec<GameRow>, StoreError> {
        let sql = format!(
            "SELECT {COLUMNS} FROM games WHERE platform = ? AND ( \
             (status = 'active' AND (white_id = ? OR black_id = ?)) OR \
             (status = 'challenge' AND (challenger_id = ? OR opponent_id = ?))) \
             ORDER BY created_at, id"
        );
        Ok(sqlx::query_as::<_, GameRow>(sqlx::AssertSqlSafe(sql))
            .bind(platform.to_owned())
            .bind(user.to_owned())
            .bind(user.to_owned())
            .bind(user.to_owned())
            .bind(user.to_owned())
            .fetch_all(&self.pool)
            .await?)
    }

    /// The most recently started game in `chat` (active or ended), for `/pgn` without an id.
    pub async fn latest_game_in(
        &self,
        platform: &str,
        chat: &str,
    ) -> Result<Option<GameRow>, StoreError> {
        let sql = format!(
            "SELECT {COLUMNS} FROM games WHERE platform = ? AND chat_id = ? \
             AND start_fen IS NOT NULL ORDER BY updated_at DESC, id LIMIT 1"
        );
        Ok(sqlx::query_as::<_, GameRow>(sqlx::AssertSqlSafe(sql))
            .bind(platform.to_owned())
            .bind(chat.to_owned())
            .fetch_optional(&self.pool)
            .await?)
    }

    /// Ids of rows whose deadline is at or before `now`.
    pub async fn due(&self, now: Millis) -> Result<Vec<(String, String)>, StoreError> {
        Ok(sqlx::query_as::<_, (String, String)>(
            "SELECT platform, id FROM games WHERE deadline IS NOT NULL AND deadline <= ? \
             ORDER BY deadline",
        )
        .bind(now)
        .fetch_all(&self.pool)
        .await?)
    }

    /// The earliest pending deadline.
    pub async fn next_deadline(&self) -> Result<Option<Millis>, StoreError> {
        Ok(
            sqlx::query_scalar::<_, Option<i64>>("SELECT MIN(deadline) FROM games")
                .fetch_one(&self.pool)
                .await?,
        )
    }

    /// The language code `owner` `id` chose with `/lang`, if any.
    pub async fn lang(
        &self,
        owner: LangOwner,
        platform: &str,
        id: &str,
    ) -> Result<Option<String>, StoreError> {
        Ok(sqlx::query_scalar::<_, String>(owner.queries().0)
            .bind(platform.to_owned())
            .bind(id.to_owned())
            .fetch_optional(&self.pool)
            .await?)
    }

    /// Stores the language `owner` `id` chose.
    pub async fn set_lang(
        &self,
        owner: LangOwner,
        platform: &str,
        id: &str,
        lang: &str,
    ) -> Result<(), StoreError> {
        sqlx::query(owner.queries().1)
            .bind(platform.to_owned())
            .bind(id.to_owned())
            .bind(lang.to_owned())
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Stores (or replaces) an adapter's record `kind`/`key` on `platform`.
    pub async fn remember(
        &self,
        platform: &str,
        kind: &str,
        key: &str,
        value: &str,
        now: Millis,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO adapter_memory (platform, kind, key, value, updated_at) \
             VALUES (?, ?, ?, ?, ?) ON CONFLICT (platform, kind, key) \
             DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
        )
        .bind(platform.to_owned())
        .bind(kind.to_owned())
        .bind(key.to_owned())
        .bind(value.to_owned())
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// An adapter's record, if stored.
    pub async fn recall(
        &self,
        platform: &str,
        kind: &str,
        key: &str,
    ) -> Result<Option<String>, StoreError> {
        Ok(sqlx::query_scalar::<_, String>(
            "SELECT value FROM adapter_memory WHERE platform = ? AND kind = ? AND key = ?",
        )
        .bind(platform.to_owned())
        .bind(kind.to_owned())
        .bind(key.to_owned())
        .fetch_optional(&self.pool)
        .await?)
    }

    /// Every record of `kind` on `platform` as `(key, value)`, oldest first
    /// (an adapter loads its memory at start).
    pub async fn recall_all(
        &self,
        platform: &str,
        kind: &str,
    ) -> Result<Vec<(String, String)>, StoreError> {
        Ok(sqlx::query_as::<_, (String, String)>(
            "SELECT key, value FROM adapter_memory WHERE platform = ? AND kind = ? \
             ORDER BY updated_at, key",
        )
        .bind(platform.to_owned())
        .bind(kind.to_owned())
        .fetch_all(&self.pool)
        .await?)
    }

    /// Forgets one record (nothing happens when it is not stored).
    pub async fn forget(&self, platform: &str, kind: &str, key: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM adapter_memory WHERE platform = ? AND kind = ? AND key = ?")
            .bind(platform.to_owned())
            .bind(kind.to_owned())
            .bind(key.to_owned())
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Forgets the records of `kind` last written before `cutoff`; returns how many.
    pub async fn forget_older(
        &self,
        platform: &str,
        kind: &str,
        cutoff: Millis,
    ) -> Result<u64, StoreError> {
        let result = sqlx::query(
            "DELETE FROM adapter_memory WHERE platform = ? AND kind = ? AND updated_at < ?",
        )
        .bind(platform.to_owned())
        .bind(kind.to_owned())
        .bind(cutoff)
        .execute(&self.pool)
        .await?;
        Ok(result.rows_affected())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A database file in a fresh temporary folder.
    pub(crate) fn temp_url(name: &str) -> String {
        let dir = std::env::temp_dir().join(format!(
            "kodex-store-{name}-{}-{}",
            std::process::id(),
            fastrand::u64(..)
        ));
        std::fs::create_dir_all(&dir).expect("temp dir");
        format!("sqlite://{}", dir.join("kodex.db").display())
    }

    fn challenge(id: &str, deadline: Option<i64>) -> GameRow {
        GameRow {
            id: id.to_owned(),
            platform: "console".to_owned(),
            chat_id: "local".to_owned(),
            home_chat_id: None,
            variant: "chess".to_owned(),
            status: Status::Challenge.as_str().to_owned(),
            challenger_id: "alice".to_owned(),
            challenger_name: "alice".to_owned(),
            opponent_id: None,
            opponent_name: None,
            color: "random".to_owned(),
            white_id: None,
            white_name: None,
            black_id: None,
            black_name: None,
            time_control: "-".to_owned(),
            start_fen: None,
            moves: String::new(),
            white_ms: None,
            black_ms: None,
            turn_started_at: None,
            deadline,
            draw_offer: None,
            takeback_offer: None,
            result: None,
            reason: None,
            created_at: 1,
            updated_at: 1,
            version: 0,
        }
    }

    #[tokio::test]
    async fn adapter_memory_survives_reopening_and_is_kept_per_platform_and_kind() {
        let url = temp_url("memory");
        let store = Store::open(&url).await.expect("opens");
        store
            .remember("telegram", "user", "bob", "42", 10)
            .await
            .expect("put");
        store
            .remember("telegram", "user", "bob", "43", 20)
            .await
            .expect("replace");
        store
            .remember("telegram", "user", "amy", "7", 5)
            .await
            .expect("put");
        store
            .remember("telegram", "link", "bob", "b_k7m2", 30)
            .await
            .expect("put");
        store
            .remember("discord", "user", "bob", "99", 30)
            .await
            .expect("put");
        drop(store);
        let store = Store::open(&url).await.expect("reopens");
        assert_eq!(
            store.recall("telegram", "user", "bob").await.expect("get"),
            Some("43".to_owned())
        );
        assert_eq!(
            store.recall_all("telegram", "user").await.expect("all"),
            vec![
                ("amy".to_owned(), "7".to_owned()),
                ("bob".to_owned(), "43".to_owned())
            ]
        );
        assert_eq!(
            store
                .forget_older("telegram", "user", 10)
                .await
                .expect("old"),
            1
        );
        store
            .forget("telegram", "link", "bob")
            .await
            .expect("forget");
        assert_eq!(
            store.recall("telegram", "link", "bob").await.expect("get"),
            None
        );
        assert_eq!(
            store.recall("telegram", "user", "amy").await.expect("get"),
            None
        );
        assert_eq!(
            store.recall("discord", "user", "bob").await.expect("get"),
            Some("99".to_owned())
        );
    }

    #[tokio::test]
    async fn rows_round_trip_and_ids_are_unique() {
        let store = Store::open(&temp_url("roundtrip")).await.expect("opens");
        let row = challenge("k7m2", Some(50));
        assert!(store.insert(&row).await.expect("insert"));
        assert!(!store.insert(&row).await.expect("insert again"));
        let read = store.get("console", "#K7M2").await.expect("get");
        assert_eq!(read, Some(row));
        assert_eq!(store.get("discord", "k7m2").await.expect("get"), None);
    }

    #[tokio::test]
    async fn a_stale_version_does_not_overwrite() {
        let store = Store::open(&temp_url("version")).await.expect("opens");
        store
            .insert(&challenge("k7m2", None))
            .await
            .expect("insert");
        let mut first = store
            .get("console", "k7m2")
            .await
            .expect("get")
            .expect("row");
        let mut second = first.clone();
        first.moves = "e2e4".to_owned();
        second.moves = "d2d4".to_owned();
        assert!(store.save(&mut first).await.expect("save"));
        assert!(!store.save(&mut second).await.expect("save"));
        let stored = store
            .get("console", "k7m2")
            .await
            .expect("get")
            .expect("row");
        assert_eq!(stored.moves, "e2e4");
        assert_eq!(stored.version, 1);
    }

    #[tokio::test]
    async fn deadlines_survive_reopening() {
        let url = temp_url("deadlines");
        {
            let store = Store::open(&url).await.expect("opens");
            store
                .insert(&challenge("k7m2", Some(500)))
                .await
                .expect("insert");
            store
                .insert(&challenge("p3x9", Some(100)))
                .await
                .expect("insert");
            store
                .insert(&challenge("q4w5", None))
                .await
                .expect("insert");
        }
        let store = Store::open(&url).await.expect("reopens");
        assert_eq!(store.next_deadline().await.expect("next"), Some(100));
        let due = store.due(499).await.expect("due");
        assert_eq!(due, vec![("console".to_owned(), "p3x9".to_owned())]);
        assert_eq!(store.due(500).await.expect("due").len(), 2);
    }

    #[tokio::test]
    async fn languages_are_remembered() {
        let store = Store::open(&temp_url("langs")).await.expect("opens");
        assert_eq!(
            store
                .lang(LangOwner::User, "console", "bob")
                .await
                .expect("read"),
            None
        );
        store
            .set_lang(LangOwner::User, "console", "bob", "ru")
            .await
            .expect("set");
        store
            .set_lang(LangOwner::User, "console", "bob", "en")
            .await
            .expect("set");
        assert_eq!(
            store
                .lang(LangOwner::User, "console", "bob")
                .await
                .expect("read"),
            Some("en".to_owned())
        );
        store
            .set_lang(LangOwner::Chat, "console", "local", "ru")
            .await
            .expect("set");
        assert_eq!(
            store
                .lang(LangOwner::Chat, "console", "local")
                .await
                .expect("read"),
            Some("ru".to_owned())
        );
    }
}
