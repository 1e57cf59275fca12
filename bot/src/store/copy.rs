//! Moving a database to another backend (`kodex migrate-db`): every row of
//! every table — games with their seats and clocks, ratings and their
//! history, languages, notations, spectators, what adapters remember —
//! copied into an empty database of the same schema.

use super::db::{on_pool, Dialect};
use super::rows::Fetched;
use super::{Store, StoreError};

/// The kind of a column, as both backends store it.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Kind {
    /// `TEXT`.
    Text,
    /// SQLite's `INTEGER`, PostgreSQL's `BIGINT`.
    Integer,
    /// SQLite's `REAL`, PostgreSQL's `DOUBLE PRECISION`.
    Real,
}

impl Kind {
    /// The kind of a declared column type; `None` for a type our
    /// migrations never declare.
    fn of_declared(declared: &str) -> Option<Kind> {
        match declared.to_ascii_lowercase().as_str() {
            "text" => Some(Kind::Text),
            "integer" | "bigint" => Some(Kind::Integer),
            "real" | "double precision" => Some(Kind::Real),
            _ => None,
        }
    }
}

/// One column of the schema.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Column {
    /// Its table.
    pub table: String,
    /// Its name.
    pub name: String,
    /// What it holds.
    pub kind: Option<Kind>,
    /// Whether it refuses `NULL`.
    pub not_null: bool,
}

/// One value read from a column.
#[derive(Clone, Debug)]
enum Value {
    Text(Option<String>),
    Integer(Option<i64>),
    Real(Option<f64>),
}

/// Reads column `name` of `kind` from `row`.
fn read(row: &impl Fetched, name: &str, kind: Kind) -> Result<Value, sqlx::Error> {
    Ok(match kind {
        Kind::Text => Value::Text(row.get(name)?),
        Kind::Integer => Value::Integer(row.get(name)?),
        Kind::Real => Value::Real(row.get(name)?),
    })
}

/// Rows written by one statement (well under both backends' limits on
/// bound values: 32,766 in SQLite, 65,535 in PostgreSQL).
const ROWS_PER_INSERT: usize = 200;

/// How many rows of each table a copy carried over.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Copied {
    /// `(table, rows)`, in the order they were copied.
    pub tables: Vec<(String, u64)>,
}

/// Why a copy did not happen.
#[derive(Debug, thiserror::Error)]
pub enum CopyError {
    /// A database failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The target already holds rows: a copy never mixes two databases.
    #[error("the target database is not empty: its table {0} holds rows")]
    NotEmpty(String),
    /// The two schemas differ (two versions of Kodex).
    #[error("the two databases have different schemas: {0}")]
    Schema(String),
}

impl From<sqlx::Error> for CopyError {
    fn from(error: sqlx::Error) -> CopyError {
        CopyError::Store(StoreError::Database(error))
    }
}

impl Store {
    /// The columns of every table of ours (not sqlx's own), by table and
    /// position.
    pub async fn columns(&self) -> Result<Vec<Column>, StoreError> {
        let rows: Vec<(String, String, String, bool)> = on_pool!(&self.pool, db => {
            let sql = db.pick(
                "SELECT m.name, p.name, p.type, (p.\"notnull\" = 1 OR p.pk > 0) FROM sqlite_master m \
                 JOIN pragma_table_info(m.name) p WHERE m.type = 'table' \
                 AND m.name NOT LIKE '\\_%' ESCAPE '\\' AND m.name NOT LIKE 'sqlite%' \
                 ORDER BY m.name, p.cid",
                "SELECT table_name::text, column_name::text, data_type::text, is_nullable = 'NO' \
                 FROM information_schema.columns WHERE table_schema = current_schema() \
                 AND table_name NOT LIKE '\\_%' ORDER BY table_name, ordinal_position",
            );
            sqlx::query_as(sqlx::AssertSqlSafe(sql.to_owned())).fetch_all(db).await?
        });
        Ok(rows
            .into_iter()
            .map(|(table, name, declared, not_null)| Column {
                table,
                name,
                kind: Kind::of_declared(&declared),
                not_null,
            })
            .collect())
    }

    /// Copies every row of this database into `to`, which must be empty
    /// and of the same schema (both opened by this version, so both
    /// migrated to its last migration). The copy is one transaction on
    /// `to`: it is all there or not at all. Games are copied before the
    /// tables that refer to them.
    pub async fn copy_into(&self, to: &Store) -> Result<Copied, CopyError> {
        let columns = self.columns().await?;
        let theirs = to.columns().await?;
        if columns != theirs {
            let ours: Vec<String> = columns
                .iter()
                .map(|c| format!("{}.{}", c.table, c.name))
                .collect();
            let other: Vec<String> = theirs
                .iter()
                .map(|c| format!("{}.{}", c.table, c.name))
                .collect();
            return Err(CopyError::Schema(format!("{ours:?} and {other:?}")));
        }
        let mut tables: Vec<(String, Vec<(String, Kind)>)> = Vec::new();
        for column in &columns {
            let kind = column.kind.ok_or_else(|| {
                CopyError::Schema(format!(
                    "{}.{} has a type of its own",
                    column.table, column.name
                ))
            })?;
            match tables.last_mut() {
                Some((table, list)) if *table == column.table => {
                    list.push((column.name.clone(), kind))
                }
                _ => tables.push((column.table.clone(), vec![(column.name.clone(), kind)])),
            }
        }
        // `seats` refer to `games`.
        tables.sort_by_key(|(table, _)| table != "games");
        for (table, _) in &tables {
            let sql = format!("SELECT COUNT(*) FROM {table}");
            let count: i64 = on_pool!(&to.pool, db => sqlx::query_scalar(sqlx::AssertSqlSafe(sql)).fetch_one(db).await?);
            if count > 0 {
                return Err(CopyError::NotEmpty(table.clone()));
            }
        }
        let mut copied = Copied::default();
        let mut tables_read = Vec::new();
        for (table, list) in &tables {
            let names: Vec<&str> = list.iter().map(|(name, _)| name.as_str()).collect();
            let sql = format!("SELECT {} FROM {table}", names.join(", "));
            let rows: Vec<Vec<Value>> = on_pool!(&self.pool, db => {
                let rows = sqlx::query(sqlx::AssertSqlSafe(sql)).fetch_all(db).await?;
                let mut values = Vec::with_capacity(rows.len());
                for row in &rows {
                    values.push(
                        list.iter()
                            .map(|(name, kind)| read(row, name, *kind))
                            .collect::<Result<Vec<_>, _>>()?,
                    );
                }
                values
            });
            copied.tables.push((table.clone(), rows.len() as u64));
            tables_read.push((table.clone(), names.join(", "), list.len(), rows));
        }
        on_pool!(&to.writer, db => {
            let mut tx = db.begin().await?;
            for (table, names, width, rows) in &tables_read {
                for chunk in rows.chunks(ROWS_PER_INSERT) {
                    let row = format!("({})", vec!["?"; *width].join(", "));
                    let sql = format!(
                        "INSERT INTO {table} ({names}) VALUES {}",
                        vec![row; chunk.len()].join(", ")
                    );
                    let mut query = sqlx::query(tx.sql(&sql));
                    for values in chunk {
                        for value in values {
                            query = match value {
                                Value::Text(text) => query.bind(text.clone()),
                                Value::Integer(int) => query.bind(int.to_owned()),
                                Value::Real(real) => query.bind(real.to_owned()),
                            };
                        }
                    }
                    query.execute(&mut *tx).await?;
                }
            }
            tx.commit().await?;
        });
        Ok(copied)
    }
}

/// `kodex migrate-db --from <url> --to <url>`: opens both databases
/// (migrating each to this version) and copies every row of `from` into
/// `to`, which must be empty. Run it with the bot stopped: rows written
/// meanwhile would not be copied.
pub async fn migrate_db(from: &str, to: &str) -> Result<Copied, CopyError> {
    let source = Store::open(from).await?;
    let target = Store::open(to).await?;
    let copied = source.copy_into(&target).await;
    source.close().await;
    target.close().await;
    copied
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::tests::{challenge, temp_url, test_urls};
    use crate::store::{Entry, GameResult, LangOwner, SeatRow, Status, Watcher};
    use kodex_engine::{Side, Team};

    /// A database with something in every table: a running timed game with
    /// seats and clocks, a rated game that ended, a challenge, languages,
    /// a notation, a spectator, adapter memory and a person's ticker.
    async fn filled(url: &str) -> Store {
        let store = Store::open(url).await.expect("opens");
        let mut running = challenge("k7m2", Some(9_000));
        running.status = Status::Active;
        running.start_fen = Some("startpos".to_owned());
        running.seats = ["alice", "bob"]
            .iter()
            .enumerate()
            .map(|(seat, name)| SeatRow {
                seat,
                user_id: (*name).to_owned(),
                user_name: name.to_uppercase(),
                side: Side(seat as u8),
                team: Team(seat as u8),
                remaining_ms: Some(60_000 - seat as i64),
                setup: None,
                ready: true,
            })
            .collect();
        running.moves.push(Entry::Move("e2e4"));
        assert!(store.insert(&running).await.expect("insert"));
        let mut rated = running.clone();
        rated.id = "p3x9".to_owned();
        rated.rated = true;
        rated.deadline = None;
        assert!(store.insert(&rated).await.expect("insert"));
        rated.moves.push(Entry::Move("e7e5"));
        rated.status = Status::Finished;
        rated.result = Some(GameResult::Win { team: Team(1) });
        rated.updated_at = 7_000;
        assert!(store.save(&mut rated).await.expect("ends"));
        assert_eq!(rated.rating_changes.len(), 2);
        assert!(store
            .insert(&challenge("q4w5", Some(3_000)))
            .await
            .expect("insert"));
        store
            .set_lang(LangOwner::User, "console", "bob", "ru")
            .await
            .expect("lang");
        store
            .set_lang(LangOwner::Chat, "console", "local", "en")
            .await
            .expect("lang");
        store
            .set_notation("console", "bob", Some("figurine"))
            .await
            .expect("notation");
        store
            .add_watcher("console", "k7m2", &Watcher::User("carol".to_owned()), 5)
            .await
            .expect("watcher");
        store
            .remember("telegram", "user", "bob", "42", 10)
            .await
            .expect("memory");
        store
            .seen_in("console", "bob", "local", true, 11)
            .await
            .expect("seen");
        store
    }

    /// Everything a copy must carry, as the store reads it.
    async fn contents(store: &Store) -> Vec<String> {
        let mut seen = Vec::new();
        for id in ["k7m2", "p3x9", "q4w5"] {
            seen.push(format!(
                "{:?}",
                store.get("console", id).await.expect("game")
            ));
        }
        for user in ["alice", "bob"] {
            seen.push(format!(
                "{:?}",
                store.ratings_of("console", user).await.expect("ratings")
            ));
            seen.push(format!(
                "{:?}",
                store
                    .finished_games_of("console", user)
                    .await
                    .expect("games")
            ));
            seen.push(format!(
                "{:?}",
                store.presence("console", user).await.expect("presence")
            ));
        }
        seen.push(format!(
            "{:?} {:?} {:?}",
            store
                .lang(LangOwner::User, "console", "bob")
                .await
                .expect("lang"),
            store
                .lang(LangOwner::Chat, "console", "local")
                .await
                .expect("lang"),
            store.notation("console", "bob").await.expect("notation"),
        ));
        seen.push(format!(
            "{:?}",
            store
                .watchers_of("console", "k7m2")
                .await
                .expect("watchers")
        ));
        seen.push(format!(
            "{:?}",
            store.recall_all("telegram", "user").await.expect("memory")
        ));
        seen.push(format!(
            "{:?} {:?}",
            store.next_deadline().await.expect("deadline"),
            store.due(10_000).await.expect("due")
        ));
        seen
    }

    /// A SQLite database copied into another, and into PostgreSQL when a
    /// server is named, reads the same there: every game with its seats
    /// and clocks, every rating and its history, every setting. A second
    /// copy into a database that holds rows is refused and changes nothing.
    #[tokio::test]
    async fn a_copy_carries_every_game_clock_rating_and_setting() {
        let from = temp_url("copy-from");
        let source = filled(&from).await;
        let expected = contents(&source).await;
        source.close().await;
        for to in test_urls("copy-to").await {
            let copied = migrate_db(&from, &to).await.expect("copies");
            let rows = |table: &str| {
                copied
                    .tables
                    .iter()
                    .find(|(name, _)| name == table)
                    .map(|(_, rows)| *rows)
            };
            assert_eq!(copied.tables[0].0, "games");
            assert_eq!((rows("games"), rows("seats")), (Some(3), Some(4)));
            assert_eq!(
                (rows("ratings"), rows("rating_history")),
                (Some(2), Some(2))
            );
            let target = Store::open(&to).await.expect("opens");
            assert_eq!(contents(&target).await, expected, "{to}");
            // Moves go on there as anywhere.
            let mut game = target
                .get("console", "k7m2")
                .await
                .expect("get")
                .expect("row");
            game.moves.push(Entry::Move("e7e5"));
            assert!(target.save(&mut game).await.expect("save"));
            target.close().await;
            match migrate_db(&from, &to).await {
                Err(CopyError::NotEmpty(table)) => assert_eq!(table, "games"),
                other => panic!("{other:?}"),
            }
        }
    }
}
