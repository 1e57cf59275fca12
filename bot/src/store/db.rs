//! The connection and the migrations.

use super::{Store, StoreError};
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::SqlSafeStr;
use std::str::FromStr;
use std::time::Duration;

/// The migrations in `migrations/`, embedded: `(version, description, SQL)`.
/// Listed by hand rather than by `sqlx::migrate!`, whose macros would build
/// a second, host copy of SQLite with every build; a test checks the list
/// against the folder.
const MIGRATIONS: [(i64, &str, &str); 20] = [
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
    (
        17,
        "chat settings",
        include_str!("../../../migrations/0017_chat_settings.sql"),
    ),
    (
        18,
        "computer jobs",
        include_str!("../../../migrations/0018_computer_jobs.sql"),
    ),
    (
        19,
        "telegram updates",
        include_str!("../../../migrations/0019_telegram_updates.sql"),
    ),
    (
        20,
        "no increment",
        include_str!("../../../migrations/0020_no_increment.sql"),
    ),
];

/// Which database a store talks to.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Backend {
    /// An embedded SQLite file (`sqlite://kodex.db`), the default.
    Sqlite,
    /// A PostgreSQL server (`postgres://…`), for any number of processes.
    Postgres,
}

impl Backend {
    /// The backend a sqlx URL names: `postgres://` or `postgresql://`
    /// for PostgreSQL, anything else for SQLite.
    pub fn of_url(url: &str) -> Backend {
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Backend::Postgres
        } else {
            Backend::Sqlite
        }
    }
}

/// The connections of one backend (cheap to clone).
#[derive(Clone, Debug)]
pub(super) enum Pool {
    Sqlite(sqlx::SqlitePool),
    Postgres(sqlx::PgPool),
}

/// Runs `$body` with `$db` bound to the pool `$pool` holds, once for each
/// backend: the body is written once and compiled for SQLite and for
/// PostgreSQL, its SQL passed through [`Dialect::sql`].
macro_rules! on_pool {
    ($pool:expr, $db:ident => $body:expr) => {
        match $pool {
            $crate::store::db::Pool::Sqlite($db) => $body,
            $crate::store::db::Pool::Postgres($db) => $body,
        }
    };
}
pub(super) use on_pool;

/// What differs in the SQL of the two backends, known from the type of the
/// pool or connection a query runs on. Queries are written once, for
/// SQLite with `?` placeholders; [`translate`] makes PostgreSQL's text.
pub(super) trait Dialect {
    /// Whether this is PostgreSQL.
    const POSTGRES: bool;

    /// `text` in this backend's SQL.
    fn sql(&self, text: &str) -> sqlx::AssertSqlSafe<String> {
        sqlx::AssertSqlSafe(if Self::POSTGRES {
            translate(text)
        } else {
            text.to_owned()
        })
    }

    /// `sqlite` on SQLite, `postgres` on PostgreSQL (for the few places
    /// where the two need different text).
    fn pick<'a>(&self, sqlite: &'a str, postgres: &'a str) -> &'a str {
        if Self::POSTGRES {
            postgres
        } else {
            sqlite
        }
    }
}

impl Dialect for sqlx::SqlitePool {
    const POSTGRES: bool = false;
}
impl Dialect for sqlx::SqliteConnection {
    const POSTGRES: bool = false;
}
impl Dialect for sqlx::PgPool {
    const POSTGRES: bool = true;
}
impl Dialect for sqlx::PgConnection {
    const POSTGRES: bool = true;
}

/// SQLite's SQL as PostgreSQL's: each `?` outside a quoted string becomes
/// `$1`, `$2`, … in order, and SQLite's unary `+` that keeps its planner
/// off an index (`+g.platform`) is dropped (PostgreSQL has no `+` for
/// text). Everything else our queries use is common to both.
pub(super) fn translate(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    let mut quoted = false;
    let mut number = 0;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                quoted = !quoted;
                out.push(c);
            }
            '?' if !quoted => {
                number += 1;
                out.push('$');
                out.push_str(&number.to_string());
            }
            '+' if !quoted
                && chars.peek().is_some_and(|next| next.is_ascii_alphabetic())
                && out.ends_with([' ', '(']) =>
            {
                // `+g.platform`: the column itself.
            }
            c => out.push(c),
        }
    }
    out
}

/// A migration's SQL for `backend`. The migrations are written once, in
/// the SQL both backends read; only two column types differ: SQLite's
/// `INTEGER` is 64 bits, PostgreSQL's is `BIGINT`, and SQLite's `REAL` is
/// PostgreSQL's `DOUBLE PRECISION`. A test compares the schemas both make.
pub(super) fn migration_sql(sql: &str, backend: Backend) -> String {
    if backend == Backend::Sqlite {
        return sql.to_owned();
    }
    let mut out = String::with_capacity(sql.len() + 64);
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        out.push_str(match word.as_str() {
            "INTEGER" => "BIGINT",
            "REAL" => "DOUBLE PRECISION",
            other => other,
        });
        word.clear();
    };
    for c in sql.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// The migrator of [`MIGRATIONS`] for `backend`.
pub(super) fn migrator(backend: Backend) -> sqlx::migrate::Migrator {
    sqlx::migrate::Migrator::with_migrations(
        MIGRATIONS
            .iter()
            .map(|&(version, description, sql)| {
                sqlx::migrate::Migration::new(
                    version,
                    description.into(),
                    sqlx::migrate::MigrationType::Simple,
                    sqlx::AssertSqlSafe(migration_sql(sql, backend)).into_sql_str(),
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
async fn migrate_sqlite(writer: &sqlx::SqlitePool) -> Result<(), StoreError> {
    let mut locked = writer.begin_with("BEGIN EXCLUSIVE").await?;
    // Each migration runs in a savepoint of this transaction. `run_direct`
    // is `run` on a connection (sqlx's `run(&mut *locked)` makes the future
    // of `Store::open` not `Send`, a known sqlx limitation).
    migrator(Backend::Sqlite)
        .run_direct(None, &mut *locked, false)
        .await?;
    locked.commit().await?;
    Ok(())
}

/// Applies the migrations not yet applied on PostgreSQL, under sqlx's
/// advisory lock of the database (`pg_advisory_lock`): processes that
/// start together wait for the first, then find nothing left to apply.
/// Each migration runs in its own transaction.
async fn migrate_postgres(pool: &sqlx::PgPool) -> Result<(), StoreError> {
    let mut conn = pool.acquire().await?;
    migrator(Backend::Postgres)
        .run_direct(None, &mut *conn, false)
        .await?;
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

/// Connections to PostgreSQL at `url`: a server that does not answer yet
/// (starting, or a moment away) is tried again with a growing pause, for
/// about half a minute, before the error is the caller's.
async fn connect_postgres(url: &str) -> Result<sqlx::PgPool, StoreError> {
    let options = PgConnectOptions::from_str(url)?;
    let mut pause = Duration::from_millis(100);
    let mut waited = Duration::ZERO;
    loop {
        let pool = PgPoolOptions::new()
            .max_connections(POSTGRES_CONNECTIONS)
            .acquire_timeout(Duration::from_secs(10))
            .connect_with(options.clone())
            .await;
        match pool {
            Err(error @ (sqlx::Error::Io(_) | sqlx::Error::PoolTimedOut))
                if waited < Duration::from_secs(30) =>
            {
                tracing::warn!(%error, "PostgreSQL does not answer; trying again");
                tokio::time::sleep(pause).await;
                waited += pause;
                pause = (pause * 2).min(Duration::from_secs(5));
            }
            pool => return Ok(pool?),
        }
    }
}

/// Connections a process keeps to PostgreSQL (its server allows 100 by
/// default; a few processes fit).
const POSTGRES_CONNECTIONS: u32 = 10;

impl Store {
    /// Opens the database at `url` and applies the migrations: a SQLite
    /// file (created if missing, in WAL mode), or a PostgreSQL database
    /// when `url` starts with `postgres://`.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        if Backend::of_url(url) == Backend::Postgres {
            let pool = connect_postgres(url).await?;
            migrate_postgres(&pool).await?;
            let pool = Pool::Postgres(pool);
            return Ok(Store {
                writer: pool.clone(),
                pool,
            });
        }
        let options = SqliteConnectOptions::from_str(url)?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            // WAL + NORMAL survives a process kill (only an OS crash may lose
            // the last commits).
            .synchronous(SqliteSynchronous::Normal)
            .busy_timeout(Duration::from_secs(10))
            .foreign_keys(true);
        let writer = connect(1, &options).await?;
        migrate_sqlite(&writer).await?;
        // An in-memory database exists once per connection: it is read where it is written.
        let pool = if url.contains(":memory:") || url.contains("mode=memory") {
            writer.clone()
        } else {
            connect(4, &options).await?
        };
        Ok(Store {
            pool: Pool::Sqlite(pool),
            writer: Pool::Sqlite(writer),
        })
    }

    /// The backend this store talks to.
    pub fn backend(&self) -> Backend {
        match self.pool {
            Pool::Sqlite(_) => Backend::Sqlite,
            Pool::Postgres(_) => Backend::Postgres,
        }
    }

    /// Whether the database answers a query now (for a health check).
    pub async fn answers(&self) -> bool {
        on_pool!(&self.pool, db => sqlx::query_scalar::<_, i64>("SELECT CAST(1 AS BIGINT)")
            .fetch_one(db)
            .await
            .is_ok())
    }

    /// Closes the connections, waiting for queries in progress: the last
    /// writes reach the database (and a SQLite file's WAL is checkpointed)
    /// before the process ends. Later queries fail.
    pub async fn close(&self) {
        for pool in [&self.pool, &self.writer] {
            on_pool!(pool, db => db.close().await);
        }
    }
}

/// The PostgreSQL channel on which processes sharing a database tell each
/// other what changed (what each keeps in memory and must read again).
const CHANGES: &str = "kodex_changes";

impl Store {
    /// Tells every process on this database that `what` changed
    /// (PostgreSQL's `NOTIFY`, sent when the statement commits). Nothing on
    /// SQLite: one process uses its file.
    pub async fn announce_change(&self, what: &str) -> Result<(), StoreError> {
        if let Pool::Postgres(pool) = &self.pool {
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(CHANGES)
                .bind(what.to_owned())
                .execute(pool)
                .await?;
        }
        Ok(())
    }

    /// The changes processes on this database announce (this one's too),
    /// as they come; `None` on SQLite. A lost connection is made again;
    /// what was announced meanwhile is unknown, so `"*"` (everything
    /// changed) comes first after it. The listening ends when the
    /// receiver is dropped or the store closes.
    pub async fn listen_changes(
        &self,
    ) -> Result<Option<tokio::sync::mpsc::UnboundedReceiver<String>>, StoreError> {
        let Pool::Postgres(pool) = &self.pool else {
            return Ok(None);
        };
        let mut listener = sqlx::postgres::PgListener::connect_with(pool).await?;
        listener.listen(CHANGES).await?;
        let (sender, receiver) = tokio::sync::mpsc::unbounded_channel();
        tokio::spawn(async move {
            loop {
                let next = tokio::select! {
                    _ = sender.closed() => return,
                    next = listener.try_recv() => next,
                };
                let payload = match next {
                    Ok(Some(notification)) => notification.payload().to_owned(),
                    // The connection was lost; the next `try_recv` makes it again.
                    Ok(None) => "*".to_owned(),
                    // The store closes: the listener gives its connection back.
                    Err(sqlx::Error::PoolClosed) => return,
                    Err(error) => {
                        tracing::warn!(%error, "cannot hear other processes' changes; trying again");
                        tokio::time::sleep(Duration::from_secs(1)).await;
                        "*".to_owned()
                    }
                };
                if sender.send(payload).is_err() {
                    return;
                }
            }
        });
        Ok(Some(receiver))
    }
}

/// A value bound to a query of [`Store::execute_raw`].
#[doc(hidden)]
#[derive(Clone, Debug, PartialEq)]
pub enum RawValue {
    Text(String),
    Int(i64),
    Real(f64),
}

impl Store {
    /// For tests: runs `sql` (in the SQL the store's queries are written
    /// in, `?` placeholders) with `binds`, on whichever backend; the rows
    /// it changed. What a test writes that the store itself never would.
    #[doc(hidden)]
    pub async fn execute_raw(&self, sql: &str, binds: &[RawValue]) -> Result<u64, StoreError> {
        Ok(on_pool!(&self.writer, db => {
            let mut query = sqlx::query(db.sql(sql));
            for value in binds {
                query = match value {
                    RawValue::Text(text) => query.bind(text.clone()),
                    RawValue::Int(int) => query.bind(*int),
                    RawValue::Real(real) => query.bind(*real),
                };
            }
            query.execute(db).await?.rows_affected()
        }))
    }
}

/// The environment variable naming a PostgreSQL server for tests
/// (`postgres://postgres@127.0.0.1:5432/test`); `.ci/run` sets it.
pub const TEST_POSTGRES_URL: &str = "KODEX_TEST_POSTGRES_URL";

/// For tests: a fresh, empty schema on the PostgreSQL server that
/// [`TEST_POSTGRES_URL`] names, as a store URL whose connections use it
/// (`?options=-c search_path=…`); `None` when the variable is not set.
/// Schemas such tests left more than an hour ago are dropped.
#[doc(hidden)]
pub async fn test_postgres_url() -> Result<Option<String>, StoreError> {
    use sqlx::Connection;
    let Some(base) = std::env::var(TEST_POSTGRES_URL)
        .ok()
        .filter(|url| !url.trim().is_empty())
    else {
        return Ok(None);
    };
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_secs());
    let mut conn = sqlx::PgConnection::connect(&base).await?;
    let old: Vec<String> = sqlx::query_scalar(
        "SELECT nspname::text FROM pg_namespace WHERE nspname LIKE 'kodex\\_test\\_%'",
    )
    .fetch_all(&mut conn)
    .await?;
    for schema in old {
        let made = schema
            .split('_')
            .nth(2)
            .and_then(|secs| secs.parse::<u64>().ok());
        if made.is_some_and(|made| made + 3600 < now) {
            // Another run may drop it at the same moment.
            let _ = sqlx::query(sqlx::AssertSqlSafe(format!(
                "DROP SCHEMA IF EXISTS {schema} CASCADE"
            )))
            .execute(&mut conn)
            .await;
        }
    }
    let schema = format!("kodex_test_{now}_{}", fastrand::u64(..));
    sqlx::query(sqlx::AssertSqlSafe(format!("CREATE SCHEMA {schema}")))
        .execute(&mut conn)
        .await?;
    conn.close().await?;
    let separator = if base.contains('?') { '&' } else { '?' };
    Ok(Some(format!(
        "{base}{separator}options=-c%20search_path%3D{schema}"
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::tests::{temp_url, test_urls};

    /// Processes that start together on a fresh database (here: eight
    /// `Store::open`s of one SQLite file, or of one PostgreSQL schema, on
    /// separate tasks) all open it: one migrates, the others wait for it
    /// and find nothing left to apply.
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn stores_opened_together_on_a_fresh_database_all_open() {
        for round in 0..5 {
            for url in test_urls(&format!("together-{round}")).await {
                let opens: Vec<_> = (0..8)
                    .map(|_| {
                        let url = url.clone();
                        tokio::spawn(async move { Store::open(&url).await })
                    })
                    .collect();
                for open in opens {
                    let store = open.await.expect("task").expect("every open succeeds");
                    let (applied,) = store
                        .raw_one::<(i64,)>("SELECT COUNT(*) FROM _sqlx_migrations WHERE success")
                        .await
                        .expect("count");
                    assert_eq!(applied, MIGRATIONS.len() as i64);
                    store.close().await;
                }
            }
        }
    }

    #[test]
    fn postgres_reads_numbered_placeholders_and_no_unary_plus() {
        assert_eq!(
            translate("SELECT a FROM g WHERE +g.platform = ? AND (x = ? OR y = '?') AND z = ?"),
            "SELECT a FROM g WHERE g.platform = $1 AND (x = $2 OR y = '?') AND z = $3"
        );
        assert_eq!(translate("version = version + 1"), "version = version + 1");
        assert_eq!(
            migration_sql("x INTEGER NOT NULL, REALM TEXT, r REAL", Backend::Postgres),
            "x BIGINT NOT NULL, REALM TEXT, r DOUBLE PRECISION"
        );
        assert_eq!(Backend::of_url("postgresql://h/db"), Backend::Postgres);
        assert_eq!(Backend::of_url("sqlite://kodex.db"), Backend::Sqlite);
    }

    /// The migrations make one schema on both backends: the same tables,
    /// columns (in order, with their kind and whether they take `NULL`),
    /// and indexes. A migration written in SQL one backend reads
    /// differently fails here.
    #[tokio::test]
    async fn both_backends_make_the_same_schema() {
        let Some(url) = test_postgres_url().await.expect("a PostgreSQL test schema") else {
            eprintln!("both_backends_make_the_same_schema: PostgreSQL skipped ({TEST_POSTGRES_URL} is not set)");
            return;
        };
        let sqlite = Store::open(&temp_url("schema")).await.expect("SQLite");
        let postgres = Store::open(&url).await.expect("PostgreSQL");
        let lite = sqlite.columns().await.expect("SQLite columns");
        let pg = postgres.columns().await.expect("PostgreSQL columns");
        assert!(lite.len() > 50, "{lite:?}");
        assert!(lite.iter().all(|column| column.kind.is_some()), "{lite:?}");
        assert_eq!(lite, pg);
        let Pool::Sqlite(lite) = &sqlite.pool else {
            unreachable!()
        };
        let Pool::Postgres(pg) = &postgres.pool else {
            unreachable!()
        };
        let lite_indexes: Vec<(String,)> = sqlx::query_as(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name",
        )
        .fetch_all(lite)
        .await
        .expect("SQLite indexes");
        let pg_indexes: Vec<(String,)> = sqlx::query_as(
            "SELECT indexname::text FROM pg_indexes WHERE schemaname = current_schema() \
             AND indexname NOT LIKE '%\\_pkey' ORDER BY indexname",
        )
        .fetch_all(pg)
        .await
        .expect("PostgreSQL indexes");
        assert_eq!(lite_indexes, pg_indexes);
        sqlite.close().await;
        postgres.close().await;
    }
}
