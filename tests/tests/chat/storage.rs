//! Storage seen through the console: a database written by an older Kodex
//! upgrades in place, and a status this version does not know fails closed.

use crate::console_support::{database_url, has, temp_dir, Chat, EPOCH};
use kodex_bot::store::{DrawOffer, GameResult, SeatRow, Status, StoreError};
use kodex_engine::{Game, Registry, Side, Start, Team};
use sqlx::sqlite::{SqliteConnectOptions, SqlitePool};
use std::path::Path;
use std::str::FromStr;

/// The migrations of the schema before seats were rows of their own.
const OLD_MIGRATIONS: [(&str, &str); 3] = [
    (
        "0001_games.sql",
        include_str!("../../../migrations/0001_games.sql"),
    ),
    (
        "0002_adapter_memory.sql",
        include_str!("../../../migrations/0002_adapter_memory.sql"),
    ),
    (
        "0003_home_chat.sql",
        include_str!("../../../migrations/0003_home_chat.sql"),
    ),
];

/// A connection of its own to the chat database in `dir`, as another
/// program (or an older Kodex) would have.
async fn raw_pool(dir: &Path) -> SqlitePool {
    let options = SqliteConnectOptions::from_str(&database_url(dir))
        .expect("url")
        .create_if_missing(true);
    SqlitePool::connect_with(options).await.expect("connects")
}

/// Writes the database an older Kodex left in `dir`: only the old
/// migrations, recorded by sqlx as that version recorded them.
async fn old_database(dir: &Path) -> SqlitePool {
    let migrations = dir.join("old-migrations");
    std::fs::create_dir_all(&migrations).expect("migrations dir");
    for (name, sql) in OLD_MIGRATIONS {
        std::fs::write(migrations.join(name), sql).expect("migration file");
    }
    let pool = raw_pool(dir).await;
    sqlx::migrate::Migrator::new(migrations.as_path())
        .await
        .expect("old migrations")
        .run(&pool)
        .await
        .expect("old migrations applied");
    pool
}

/// Inserts a started timed game in the old layout: players and clocks in
/// `white_*` / `black_*` columns.
async fn insert_old_game(
    pool: &SqlitePool,
    id: &str,
    (white, black): (&str, &str),
    moves: &str,
    (white_ms, black_ms): (i64, i64),
    deadline: i64,
) {
    let start = Game::new(
        Registry::builtin().get("chess").expect("chess"),
        Start::Standard,
    )
    .expect("start")
    .start_fen();
    sqlx::query(
        "INSERT INTO games (id, platform, chat_id, variant, status, challenger_id, \
         challenger_name, opponent_id, opponent_name, color, white_id, white_name, black_id, \
         black_name, time_control, start_fen, moves, white_ms, black_ms, turn_started_at, \
         deadline, created_at, updated_at, version) \
         VALUES (?, 'console', 'local', 'chess', 'active', ?, ?, ?, ?, 'white', ?, ?, ?, ?, \
         '3+2', ?, ?, ?, ?, ?, ?, ?, ?, 4)",
    )
    .bind(id.to_owned())
    .bind(white.to_owned())
    .bind(white.to_owned())
    .bind(black.to_owned())
    .bind(black.to_owned())
    .bind(white.to_owned())
    .bind(white.to_owned())
    .bind(black.to_owned())
    .bind(black.to_owned())
    .bind(start)
    .bind(moves.to_owned())
    .bind(white_ms)
    .bind(black_ms)
    .bind(EPOCH)
    .bind(deadline)
    .bind(EPOCH - 60_000)
    .bind(EPOCH)
    .execute(pool)
    .await
    .expect("old game inserted");
}

/// The two started games of an old database: k7m2, alice (white) to move,
/// her clock running since EPOCH; q4w5, frank (black) to move with 30 s
/// left, his flag falling at EPOCH + 30 s.
async fn insert_old_games(pool: &SqlitePool) {
    insert_old_game(
        pool,
        "k7m2",
        ("alice", "bob"),
        "e2e4 e7e5 f1c4 b8c6",
        (170_000, 175_000),
        EPOCH + 170_000,
    )
    .await;
    insert_old_game(
        pool,
        "q4w5",
        ("erin", "frank"),
        "d2d4",
        (178_000, 30_000),
        EPOCH + 30_000,
    )
    .await;
}

#[tokio::test]
async fn a_database_of_the_old_layout_upgrades_with_its_games_challenges_and_clocks() {
    if crate::console_support::sqlite_only(
        "a_database_of_the_old_layout_upgrades_with_its_games_challenges_and_clocks",
    ) {
        return;
    }
    let dir = temp_dir("upgrade");
    let pool = old_database(&dir).await;
    insert_old_games(&pool).await;
    sqlx::query(
        "INSERT INTO games (id, platform, chat_id, variant, status, challenger_id, \
         challenger_name, color, time_control, deadline, created_at, updated_at) \
         VALUES ('p3x9', 'console', 'local', 'chess', 'challenge', 'carol', 'carol', 'white', \
         '-', ?, ?, ?)",
    )
    .bind(EPOCH + 3_600_000)
    .bind(EPOCH - 1_000)
    .bind(EPOCH - 1_000)
    .execute(&pool)
    .await
    .expect("old challenge inserted");
    pool.close().await;

    // Today's service opens it and applies only the migrations after 0003.
    let mut chat = Chat::in_dir(dir.clone()).await;
    let pool = raw_pool(&dir).await;
    let applied: Vec<i64> =
        sqlx::query_scalar("SELECT version FROM _sqlx_migrations ORDER BY version")
            .fetch_all(&pool)
            .await
            .expect("migrations");
    // Every migration in the folder, in order (counted, so that one more
    // changes nothing here).
    let migrations = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../migrations"))
        .expect("the migrations folder")
        .filter(|entry| {
            entry
                .as_ref()
                .is_ok_and(|e| e.path().extension().is_some_and(|ext| ext == "sql"))
        })
        .count() as i64;
    assert_eq!(applied, (1..=migrations).collect::<Vec<i64>>());
    let row = chat.row("k7m2").await;
    assert_eq!(row.status, Status::Active);
    assert_eq!(
        row.seats,
        vec![
            SeatRow {
                seat: 0,
                user_id: "alice".to_owned(),
                user_name: "alice".to_owned(),
                side: Side(0),
                team: Team(0),
                remaining_ms: Some(170_000),
                setup: None,
                ready: false,
            },
            SeatRow {
                seat: 1,
                user_id: "bob".to_owned(),
                user_name: "bob".to_owned(),
                side: Side(1),
                team: Team(1),
                remaining_ms: Some(175_000),
                setup: None,
                ready: false,
            },
        ]
    );
    assert_eq!(chat.row("q4w5").await.remaining(1), Some(30_000));
    let out = chat.say("alice: /games").await;
    assert!(has(&out, "k7m2") && has(&out, "alice – bob"), "{out:#?}");

    // The flag falls at the stored deadline, not before.
    assert!(chat.advance(29_000).await.is_empty());
    let out = chat.advance(2_000).await;
    assert!(has(&out, "frank ran out of time"), "{out:#?}");
    let row = chat.row("q4w5").await;
    assert_eq!(
        (row.remaining(1), row.status, row.result),
        (
            Some(0),
            Status::Finished,
            Some(GameResult::Win { team: Team(0) })
        )
    );

    // The other game plays on with the clocks it had: alice thought 31 s
    // and gains the 2 s increment.
    let out = chat.say("alice: Qh5").await;
    assert!(has(&out, "alice played Qh5"), "{out:#?}");
    let row = chat.row("k7m2").await;
    assert_eq!(
        (row.remaining(0), row.remaining(1), row.deadline),
        (
            Some(170_000 - 31_000 + 2_000),
            Some(175_000),
            Some(EPOCH + 31_000 + 175_000)
        )
    );
    chat.say("bob: Nf6").await;
    let out = chat.say("alice: Qxf7#").await;
    assert!(has(&out, "alice (white) wins: checkmate"), "{out:#?}");
    let row = chat.row("k7m2").await;
    assert_eq!(
        (row.status, row.result, row.deadline),
        (
            Status::Finished,
            Some(GameResult::Win { team: Team(0) }),
            None
        )
    );
    let stored: String = sqlx::query_scalar("SELECT result FROM games WHERE id = 'k7m2'")
        .fetch_one(&pool)
        .await
        .expect("result");
    assert_eq!(stored, "1-0");

    // The old open challenge can still be accepted, and the game starts.
    let out = chat.say("dave: /accept p3x9").await;
    assert!(has(&out, "carol (white) against dave (black)"), "{out:#?}");
    let row = chat.row("p3x9").await;
    assert_eq!(row.status, Status::Active);
    assert_eq!(
        (row.player_id(0), row.player_id(1)),
        (Some("carol"), Some("dave"))
    );
    chat.script(&["carol: e4", "dave: e5"]).await;
    assert_eq!(chat.row("p3x9").await.moves, "e2e4 e7e5");
}

#[tokio::test]
async fn offers_stored_by_an_older_version_read_as_they_meant_and_a_broken_clock_is_an_error() {
    if crate::console_support::sqlite_only(
        "offers_stored_by_an_older_version_read_as_they_meant_and_a_broken_clock_is_an_error",
    ) {
        return;
    }
    let dir = temp_dir("old-columns");
    let pool = old_database(&dir).await;
    insert_old_games(&pool).await;
    // As the old layout stored offers: the side that made them.
    sqlx::query("UPDATE games SET draw_offer = 1, takeback_offer = 0 WHERE id = 'k7m2'")
        .execute(&pool)
        .await
        .expect("old offers");
    // A clock no version writes: read, it would have been no clock at all.
    sqlx::query("UPDATE games SET time_control = 'forever' WHERE id = 'q4w5'")
        .execute(&pool)
        .await
        .expect("broken clock");
    pool.close().await;

    let chat = Chat::in_dir(dir).await;
    let row = chat.row("k7m2").await;
    assert_eq!(
        (row.draw_offer, row.takeback_offer, row.time_control.code()),
        (Some(DrawOffer::Seat(1)), Some(0), "3+2".to_owned())
    );
    match chat.service.store().get("console", "q4w5").await {
        Err(StoreError::Column { game, error }) => {
            assert_eq!((game.as_str(), error.column), ("q4w5", "time_control"));
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn a_fog_game_in_an_unknown_status_stays_hidden_and_nobody_moves_in_it() {
    if crate::console_support::sqlite_only(
        "a_fog_game_in_an_unknown_status_stays_hidden_and_nobody_moves_in_it",
    ) {
        return;
    }
    let mut chat = Chat::new("unknown-status").await;
    let id = chat.start("alice", "bob", "fogofwar").await;
    chat.script(&["alice (dm): e4", "bob (dm): e5"]).await;
    // A newer Kodex paused the game with a status this one does not know.
    let pool = raw_pool(&chat.dir).await;
    sqlx::query("UPDATE games SET status = 'paused-by-v3' WHERE id = ?")
        .bind(id.clone())
        .execute(&pool)
        .await
        .expect("raw update");
    assert_eq!(
        chat.row(&id).await.status,
        Status::Unknown("paused-by-v3".to_owned())
    );

    for board in [format!("carol: /board {id}"), "carol: /board".to_owned()] {
        let out = chat.say(&board).await;
        assert!(!out.is_empty(), "{out:#?}");
        for line in &out {
            assert!(!line.contains("image:"), "{board}: a board image: {line}");
            assert!(!line.contains("```"), "{board}: a text board: {line}");
            assert!(!line.contains("e4") && !line.contains("e5"), "{line}");
        }
    }
    for pgn in [format!("carol: /pgn {id}"), "carol: /pgn".to_owned()] {
        let out = chat.say(&pgn).await;
        assert!(has(&out, "stays hidden"), "{pgn}: {out:#?}");
        assert!(!has(&out, "e4") && !has(&out, "image:"), "{out:#?}");
    }

    // A player still sees only their own fogged board.
    let out = chat.say(&format!("alice (dm): /board {id}")).await;
    assert!(has(&out, "[@alice]") && has(&out, "?"), "{out:#?}");
    assert!(!has(&out, "[#local]"), "{out:#?}");

    // Nobody can move in it, and the stored status stays as it was.
    chat.say(&format!("alice (dm): /move Bc4 {id}")).await;
    let row = chat.row(&id).await;
    assert_eq!(row.moves, "e2e4 e7e5");
    let stored: String = sqlx::query_scalar("SELECT status FROM games WHERE id = ?")
        .bind(id.clone())
        .fetch_one(&pool)
        .await
        .expect("status");
    assert_eq!(stored, "paused-by-v3");
}
