//! The connection and the migrations.

use super::{Store, StoreError};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::SqlSafeStr;
use std::str::FromStr;
use std::time::Duration;

/// The migrations in `migrations/`, embedded: `(version, description, SQL)`.
/// Listed by hand rather than by `sqlx::migrate!`, whose macros would build
/// a second, host copy of SQLite with every build; a test checks the list
/// against the folder.
const MIGRATIONS: [(i64, &str, &str); 14] = [
    (
        1,
        "games",
        include_str!("../../../migrations/0001_games.sql"),
    ),
    (
        2,
        "adapter memory",
        include_str!("../../../migrations/0002_adapter_memory.sql"),
    ),
    (
        3,
        "home chat",
        include_str!("../../../migrations/0003_home_chat.sql"),
    ),
    (
        4,
        "seats",
        include_str!("../../../migrations/0004_seats.sql"),
    ),
    (
        5,
        "setup",
        include_str!("../../../migrations/0005_setup.sql"),
    ),
    (
        6,
        "open game lookups",
        include_str!("../../../migrations/0006_open_game_lookups.sql"),
    ),
    (
        7,
        "start position",
        include_str!("../../../migrations/0007_start_position.sql"),
    ),
    (
        8,
        "watchers",
        include_str!("../../../migrations/0008_watchers.sql"),
    ),
    (
        9,
        "reminders",
        include_str!("../../../migrations/0009_reminders.sql"),
    ),
    (
        10,
        "notation",
        include_str!("../../../migrations/0010_notation.sql"),
    ),
    (
        11,
        "linked boards",
        include_str!("../../../migrations/0011_linked_boards.sql"),
    ),
    (
        12,
        "exchange offer",
        include_str!("../../../migrations/0012_exchange_offer.sql"),
    ),
    (
        13,
        "variant fingerprint",
        include_str!("../../../migrations/0013_variant_fingerprint.sql"),
    ),
    (
        14,
        "ratings",
        include_str!("../../../migrations/0014_ratings.sql"),
    ),
];

/// The migrator of [`MIGRATIONS`].
pub(super) fn migrator() -> sqlx::migrate::Migrator {
    sqlx::migrate::Migrator::with_migrations(
        MIGRATIONS
            .iter()
            .map(|&(version, description, sql)| {
                sqlx::migrate::Migration::new(
                    version,
                    description.into(),
                    sqlx::migrate::MigrationType::Simple,
                    sql.into_sql_str(),
                    false,
                )
            })
            .collect(),
    )
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
        let writer = SqlitePoolOptions::new()
            .max_connections(1)
            .connect_with(options.clone())
            .await?;
        migrator().run(&writer).await?;
        // An in-memory database exists once per connection: it is read where it is written.
        let pool = if url.contains(":memory:") || url.contains("mode=memory") {
            writer.clone()
        } else {
            SqlitePoolOptions::new()
                .max_connections(4)
                .connect_with(options)
                .await?
        };
        Ok(Store { pool, writer })
    }

    /// Closes the connections, waiting for queries in progress: the last
    /// writes reach the database file (and its WAL is checkpointed) before
    /// the process ends. Later queries fail.
    pub async fn close(&self) {
        self.pool.close().await;
        self.writer.close().await;
    }
}
