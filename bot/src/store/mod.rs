//! Storage (sqlx): game and challenge rows, seats, ratings, language
//! choices — in an embedded SQLite file (WAL), or in PostgreSQL for
//! several processes. Every query is written once and runs on both (see
//! `db`'s `on_pool!` and `Dialect`).
//!
//! Every write of a game goes through [`Store::save`], which applies only if
//! the row still has the version it was read with: two processes (or two
//! requests that slipped past the in-process lock) cannot both apply a move.
//!
//! The folder: [`db`](self) opens the connections and applies the
//! migrations; `columns` holds the typed values of the columns, each parsed
//! and written in one place; `rows` the game and seat rows they make up;
//! then one module per table: `games` (games with their seats), `watchers`,
//! `prefs` (languages and notations), `memory` (what adapters remember) and
//! `ratings` (ratings and their history, changed with a rated game's end)
//! `people` (where each person last wrote, for the personal ticker) and
//! `tournaments` (a tournament's whole state, and which games are its).
//! A row is parsed once, when it is read: a column that does not parse is a
//! [`StoreError`], never a silent default.

mod columns;
mod copy;
mod db;
mod games;
mod jobs;
mod memory;
mod people;
mod prefs;
mod ratings;
mod rows;
mod tournaments;
mod updates;
mod watchers;

pub use columns::{
    Color, ColumnError, DrawOffer, EndReason, Entry, GameResult, MoveRecord, MoveTime, MoveTimes,
    PairOffer, SeatSet, Status,
};
pub use jobs::{ClaimedJob, DecidedJob};
pub use people::Presence;
pub use prefs::LangOwner;
pub use ratings::{PlayedGame, RatingChange, RatingRow};
pub use rows::{GameRow, SeatRow};
pub use tournaments::{
    Board, BoardResult, Entrant, Round, TournamentFormat, TournamentRow, TournamentState,
    TournamentStatus,
};
pub use updates::UpdateClaim;
pub use watchers::Watcher;

pub use copy::{migrate_db, Column, Copied, CopyError, Kind};
pub use db::{test_postgres_url, Backend, RawValue, TEST_POSTGRES_URL};

/// A storage failure (the database is unreachable, full, or corrupt).
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// An error from SQLite.
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    /// The migrations could not be applied.
    #[error("database migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// A stored row holds a value its column cannot mean (see [`ColumnError`]).
    #[error("game {game}: column {} holds {:?}", .error.column, .error.value)]
    Column {
        /// The game's id.
        game: String,
        /// What does not parse.
        error: ColumnError,
    },
    /// A stored tournament's state does not parse.
    #[error("tournament {id}: the stored state does not parse: {error}")]
    Tournament {
        /// The tournament's id.
        id: String,
        /// What the parser said.
        error: String,
    },
}

/// The database: an embedded SQLite file, or a PostgreSQL server that any
/// number of processes share.
#[derive(Clone, Debug)]
pub struct Store {
    /// Connections that read.
    pool: db::Pool,
    /// The connections that write. SQLite takes one writer at a time: its
    /// writers queue here, on one connection, without SQLite's busy
    /// handler, whose sleeps of milliseconds made the slowest moves many
    /// times slower than the rest. On PostgreSQL this is `pool`.
    writer: db::Pool,
}

#[cfg(test)]
pub(crate) mod tests {
    use super::db::migrator;
    use super::games::{games_query, ACTIVE_GAMES_OF, OPEN_GAMES_OF};
    use super::*;
    use crate::time::Millis;

    #[tokio::test]
    async fn the_embedded_migrations_are_the_folder_s() {
        let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../migrations");
        let read = sqlx::migrate::Migrator::new(folder).await.expect("folder");
        let embedded = migrator(Backend::Sqlite);
        let summary = |m: &sqlx::migrate::Migrator| -> Vec<(i64, String, Vec<u8>)> {
            m.iter()
                .map(|m| (m.version, m.description.to_string(), m.checksum.to_vec()))
                .collect()
        };
        assert_eq!(summary(&embedded), summary(&read));
    }

    #[tokio::test]
    async fn a_users_games_are_found_from_the_user_not_by_reading_every_game() {
        let store = Store::open(&temp_url("plans")).await.expect("open");
        for (filter, binds) in [(ACTIVE_GAMES_OF, 5), (OPEN_GAMES_OF, 7)] {
            let sql = format!(
                "EXPLAIN QUERY PLAN {}",
                games_query(filter, "g.created_at, g.id")
            );
            let mut query = sqlx::query_as::<_, (i64, i64, i64, String)>(sqlx::AssertSqlSafe(sql));
            for _ in 0..binds {
                query = query.bind("x");
            }
            let db::Pool::Sqlite(pool) = &store.pool else {
                unreachable!("a SQLite store");
            };
            let plan = query.fetch_all(pool).await.expect("plan");
            let steps: Vec<&str> = plan.iter().map(|step| step.3.as_str()).collect();
            assert!(
                steps
                    .iter()
                    .all(|step| !step.starts_with("SCAN") && !step.contains("games_by_chat")),
                "{filter}: {steps:?}"
            );
            assert!(
                steps.iter().any(|step| step.contains("seats_by_user")),
                "{steps:?}"
            );
        }
    }

    /// The databases a storage test runs on: a fresh SQLite file always,
    /// and a fresh PostgreSQL schema when `KODEX_TEST_POSTGRES_URL` names
    /// a server (the test says when it skips PostgreSQL).
    pub(crate) async fn test_urls(name: &str) -> Vec<String> {
        let mut urls = vec![temp_url(name)];
        match db::test_postgres_url()
            .await
            .expect("a PostgreSQL test schema")
        {
            Some(url) => urls.push(url),
            None => eprintln!(
                "{name}: PostgreSQL skipped ({} is not set)",
                db::TEST_POSTGRES_URL
            ),
        }
        urls
    }

    impl Store {
        /// Runs `sql` on whichever backend (for tests that write what the
        /// store never would).
        pub(crate) async fn raw_execute(&self, sql: &str) -> Result<u64, StoreError> {
            self.execute_raw(sql, &[]).await
        }

        /// The first row of `sql`, as it is, on whichever backend.
        pub(crate) async fn raw_one<T>(&self, sql: &str) -> Result<T, sqlx::Error>
        where
            T: for<'r> sqlx::FromRow<'r, sqlx::sqlite::SqliteRow>
                + for<'r> sqlx::FromRow<'r, sqlx::postgres::PgRow>
                + Send
                + Unpin,
        {
            let sql = sqlx::AssertSqlSafe(sql.to_owned());
            db::on_pool!(&self.pool, db => sqlx::query_as::<_, T>(sql).fetch_one(db).await)
        }
    }

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

    /// A stored-looking challenge by alice in the console's chat.
    pub(crate) fn challenge(id: &str, deadline: Option<i64>) -> GameRow {
        GameRow {
            id: id.to_owned(),
            platform: "console".to_owned(),
            chat_id: "local".to_owned(),
            home_chat_id: None,
            variant: "chess".to_owned(),
            variant_fingerprint: None,
            status: Status::Challenge,
            challenger_id: "alice".to_owned(),
            challenger_name: "alice".to_owned(),
            opponent_id: None,
            opponent_name: None,
            color: Color::Random,
            seats: Vec::new(),
            stored_seats: Vec::new(),
            time_control: crate::clock::TimeControl::Unlimited,
            start_fen: None,
            from_fen: None,
            moves: MoveRecord::default(),
            turn_started_at: None,
            deadline,
            draw_offer: None,
            takeback_offer: None,
            exchange_offer: None,
            reminder_at: None,
            reminded: SeatSet::EMPTY,
            no_increment: SeatSet::EMPTY,
            result: None,
            reason: None,
            created_at: 1,
            updated_at: 1,
            version: 0,
            linked_id: None,
            board: 0,
            move_times: MoveTimes::default(),
            rated: false,
            public: false,
            guest_chat_id: None,
            invite_code: None,
            rating_changes: Vec::new(),
        }
    }

    #[tokio::test]
    async fn adapter_memory_survives_reopening_and_is_kept_per_platform_and_kind() {
        for url in test_urls("memory").await {
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
    }

    #[tokio::test]
    async fn rows_round_trip_and_ids_are_unique() {
        for url in test_urls("roundtrip").await {
            let store = Store::open(&url).await.expect("opens");
            let row = challenge("k7m2", Some(50));
            assert!(store.insert(&row).await.expect("insert"));
            assert!(!store.insert(&row).await.expect("insert again"));
            let read = store.get("console", "#K7M2").await.expect("get");
            assert_eq!(read, Some(row));
            assert_eq!(store.get("discord", "k7m2").await.expect("get"), None);
        }
    }

    #[tokio::test]
    async fn typed_columns_round_trip_through_the_database() {
        for url in test_urls("typed").await {
            let store = Store::open(&url).await.expect("opens");
            let mut row = challenge("k7m2", None);
            row.color = Color::Side(kodex_engine::Side::BLACK);
            row.time_control = crate::clock::TimeControl::parse("3+2").expect("clock");
            row.moves = MoveRecord::parse("g2g3 &r1 +n e2e4? &03").expect("record");
            row.draw_offer = Some(DrawOffer::Team {
                offerer: 2,
                agreed: SeatSet::EMPTY.with(1),
            });
            row.takeback_offer = Some(1);
            row.exchange_offer = Some(3);
            row.reminded = SeatSet::EMPTY.with(0).with(2);
            row.reason = Some(EndReason::Rules(kodex_engine::Reason::Checkmate));
            row.move_times = MoveTimes::parse("10:500 20:-").expect("times");
            assert!(store.insert(&row).await.expect("insert"));
            assert_eq!(store.get("console", "k7m2").await.expect("get"), Some(row));
            let stored: (String, String, i64, i64, String, String) = store.raw_one("SELECT color, time_control, draw_offer, reminded, reason, move_times FROM games").await
        .expect("raw read");
            assert_eq!(
                stored,
                (
                    "black".to_owned(),
                    "3+2".to_owned(),
                    (1 << 16) | (2 << 8) | 0b10,
                    0b101,
                    "checkmate".to_owned(),
                    "10:500 20:-".to_owned()
                )
            );
            // On linked boards the same column holds a bughouse offer.
            let mut board = challenge("p3x9", None);
            board.linked_id = Some("q4w5".to_owned());
            board.draw_offer = Some(DrawOffer::Pair(PairOffer::first(1, 0)));
            assert!(store.insert(&board).await.expect("insert"));
            assert_eq!(
                store.get("console", "p3x9").await.expect("get"),
                Some(board)
            );
        }
    }

    #[tokio::test]
    async fn a_column_that_does_not_parse_is_an_error_never_a_default() {
        for url in test_urls("garbage").await {
            let store = Store::open(&url).await.expect("opens");
            let garbage = [
                ("time_control", "'3+'"),
                ("color", "'mauve'"),
                ("moves", "'e2e4 +'"),
                ("move_times", "'1'"),
                ("draw_offer", "-1"),
                ("takeback_offer", "7"),
                ("exchange_offer", "-2"),
                ("reminded", "999"),
                ("board", "-1"),
            ];
            for (index, (column, value)) in garbage.into_iter().enumerate() {
                let id = format!("g{index}");
                store.insert(&challenge(&id, None)).await.expect("insert");
                store
                    .raw_execute(&format!(
                        "UPDATE games SET {column} = {value} WHERE id = '{id}'"
                    ))
                    .await
                    .expect("raw update");
                match store.get("console", &id).await {
                    Err(StoreError::Column { game, error }) => {
                        assert_eq!((game.as_str(), error.column), (id.as_str(), column));
                    }
                    other => panic!("{column}: {other:?}"),
                }
            }
            // A list of games holding one refuses the list, not only the row.
            assert!(matches!(
                store.challenges_in("console", "local").await,
                Err(StoreError::Column { .. })
            ));
        }
    }

    #[tokio::test]
    async fn a_stale_version_does_not_overwrite() {
        for url in test_urls("version").await {
            let store = Store::open(&url).await.expect("opens");
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
            first.moves.push(Entry::Move("e2e4"));
            second.moves.push(Entry::Move("d2d4"));
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
    }

    #[tokio::test]
    async fn deadlines_survive_reopening() {
        for url in test_urls("deadlines").await {
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
            let per_platform = store.next_deadlines().await.expect("next of each");
            assert_eq!(per_platform.iter().map(|(_, at)| *at).min(), Some(100));
            let due = store.due(499).await.expect("due");
            assert_eq!(due, vec![("console".to_owned(), "p3x9".to_owned())]);
            assert_eq!(store.due(500).await.expect("due").len(), 2);
        }
    }

    fn seat(seat: usize, user: &str, remaining_ms: Option<Millis>) -> SeatRow {
        SeatRow {
            seat,
            user_id: user.to_owned(),
            user_name: user.to_uppercase(),
            side: kodex_engine::Side(seat as u8),
            team: kodex_engine::Team(seat as u8),
            remaining_ms,
            setup: None,
            ready: false,
        }
    }

    #[tokio::test]
    async fn seats_are_saved_with_the_game_and_found_by_player() {
        for url in test_urls("seats").await {
            let store = Store::open(&url).await.expect("opens");
            store
                .insert(&challenge("k7m2", None))
                .await
                .expect("insert");
            store
                .insert(&challenge("p3x9", None))
                .await
                .expect("insert");
            let mut row = store
                .get("console", "k7m2")
                .await
                .expect("get")
                .expect("row");
            row.status = Status::Active;
            row.start_fen = Some("startpos".to_owned());
            row.seats = vec![seat(0, "bob", Some(60_000)), seat(1, "alice", Some(50_000))];
            assert!(store.save(&mut row).await.expect("save"));
            let read = store
                .get("console", "k7m2")
                .await
                .expect("get")
                .expect("row");
            assert_eq!(read, row);
            assert_eq!(
                (
                    read.side_of("alice"),
                    read.player_id(0),
                    read.player_name(1)
                ),
                (Some(kodex_engine::Side(1)), Some("bob"), "ALICE")
            );
            assert_eq!(
                (read.remaining(0), read.remaining(1)),
                (Some(60_000), Some(50_000))
            );

            // A stale write changes neither the game nor its seats.
            let mut stale = row.clone();
            stale.version -= 1;
            stale.set_remaining(0, Some(1));
            assert!(!store.save(&mut stale).await.expect("save"));
            let mut later = row.clone();
            later.set_remaining(0, Some(55_000));
            later.seats.truncate(1);
            assert!(store.save(&mut later).await.expect("save"));
            let read = store
                .get("console", "k7m2")
                .await
                .expect("get")
                .expect("row");
            assert_eq!(read.seats, vec![seat(0, "bob", Some(55_000))]);

            let mine = store
                .active_games_of("console", "bob", None)
                .await
                .expect("list");
            assert_eq!(mine, vec![read.clone()]);
            let open = store.open_games_of("console", "alice").await.expect("list");
            // alice challenged both; k7m2 is active without her seat now.
            assert_eq!(
                open.iter().map(|g| g.id.as_str()).collect::<Vec<_>>(),
                vec!["p3x9"]
            );
            assert_eq!(
                store
                    .latest_game_in("console", "local")
                    .await
                    .expect("latest"),
                Some(read)
            );
        }
    }

    #[tokio::test]
    async fn unknown_statuses_and_results_fail_closed_and_are_kept() {
        for url in test_urls("unknown").await {
            let store = Store::open(&url).await.expect("opens");
            store
                .insert(&challenge("k7m2", None))
                .await
                .expect("insert");
            store
                .raw_execute(
                    "UPDATE games SET status = 'paused-by-v3', result = '2-0-1' WHERE id = 'k7m2'",
                )
                .await
                .expect("raw update");
            let mut row = store
                .get("console", "k7m2")
                .await
                .expect("get")
                .expect("row");
            assert_eq!(row.status, Status::Unknown("paused-by-v3".to_owned()));
            assert!(!row.status.is_over());
            assert_eq!(row.result, Some(GameResult::Unknown("2-0-1".to_owned())));
            assert_eq!(row.result.as_ref().map(GameResult::pgn), Some("*"));
            row.deadline = Some(5);
            assert!(store.save(&mut row).await.expect("save"));
            let stored: (String, String) = store
                .raw_one("SELECT status, result FROM games WHERE id = 'k7m2'")
                .await
                .expect("raw read");
            assert_eq!(stored, ("paused-by-v3".to_owned(), "2-0-1".to_owned()));
        }
    }

    #[test]
    fn results_keep_their_stored_text() {
        for text in [
            "1-0", "0-1", "1/2-1/2", "*", "team:2", "team:3", "team:9", "½",
        ] {
            assert_eq!(GameResult::parse(text).to_text(), text);
        }
        assert_eq!(
            GameResult::parse("team:3").winner(),
            Some(kodex_engine::Team(3))
        );
        assert_eq!(GameResult::parse("team:9").winner(), None);
        assert_eq!(GameResult::parse("1/2-1/2").pgn(), "1/2-1/2");
    }

    #[tokio::test]
    async fn languages_are_remembered() {
        for url in test_urls("langs").await {
            let store = Store::open(&url).await.expect("opens");
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
}
