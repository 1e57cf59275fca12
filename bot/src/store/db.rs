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
const MIGRATIONS: [(i64, &str, &str); 16] = [
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
    (
        15,
        "lobby",
        include_str!("../../../migrations/0015_lobby.sql"),
    ),
    (
        16,
        "tournaments",
        include_str!("../../../migrations/0016_tournaments.sql"),
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

/// Applies the migrations not yet applied, under SQLite's write lock:
/// processes that start together on a fresh database migrate one at a time
/// (the others wait, up to the busy timeout, and then find nothing left to
/// apply). sqlx's own migration lock does nothing on SQLite, and without
/// this two processes both applied a migration and one failed.
async fn migrate(writer: &sqlx::SqlitePool) -> Result<(), StoreError> {
    let mut locked = writer.begin_with("BEGIN EXCLUSIVE").await?;
    // Each migration runs in a savepoint of this transaction. `run_direct`
    // is `run` on a connection (sqlx's `run(&mut *locked)` makes the future
    // of `Store::open` not `Send`, a known sqlx limitation).
    migrator().run_direct(None, &mut *locked, false).await?;
    locked.commit().await?;
    Ok(())
}

/// A pool of `size` connections. A connection made while another process
/// switches a fresh file to WAL finds it locked before the busy timeout
/// applies (SQLITE_BUSY at connect): it is tried again, for up to 10 s.
async fn connect(
    size: u32,
    options: &SqliteConnectOptions,
) -> Result<sqlx::SqlitePool, StoreError> {
    let mut tries = 0;
    loop {
        let pool = SqlitePoolOptions::new()
            .max_connections(size)
            .connect_with(options.clone())
            .await;
        match pool {
            Err(sqlx::Error::Database(e))
                if (e.code().as_deref() == Some("5")
                    || e.message().contains("database is locked"))
                    && tries < 200 =>
            {
                tries += 1;
                tokio::time::sleep(Duration::from_millis(20 + fastrand::u64(..30))).await;
            }
            pool => return Ok(pool?),
        }
    }
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
        let writer = connect(1, &options).await?;
        migrate(&writer).await?;
        // An in-memory database exists once per connection: it is read where it is written.
        let pool = if url.contains(":memory:") || url.contains("mode=memory") {
            writer.clone()
        } else {
            connect(4, &options).await?
        };
        Ok(Store { pool, writer })
    }

    /// Whether the database answers a query now (for a health check).
    pub async fn answers(&self) -> bool {
        sqlx::query_scalar::<_, i64>("SELECT 1")
            .fetch_one(&self.pool)
            .await
            .is_ok()
    }

    /// Closes the connections, waiting for queries in progress: the last
    /// writes reach the database file (and its WAL is checkpointed) before
    /// the process ends. Later queries fail.
    pub async fn close(&self) {
        self.pool.close().await;
        self.writer.close().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::tests::temp_url;

    /// Processes that start together on a fresh database (here: eight
    /// `Store::open`s of one file on separate tasks) all open it: one
    /// migrates, the others wait for it and find nothing left to apply.
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn stores_opened_together_on_a_fresh_database_all_open() {
        for round in 0..5 {
            let url = temp_url(&format!("together-{round}"));
            let opens: Vec<_> = (0..8)
                .map(|_| {
                    let url = url.clone();
                    tokio::spawn(async move { Store::open(&url).await })
                })
                .collect();
            for open in opens {
                let store = open.await.expect("task").expect("every open succeeds");
                let applied: i64 =
                    sqlx::query_scalar("SELECT COUNT(*) FROM _sqlx_migrations WHERE success")
                        .fetch_one(&store.pool)
                        .await
                        .expect("count");
                assert_eq!(applied, MIGRATIONS.len() as i64);
                store.close().await;
            }
        }
    }
}
