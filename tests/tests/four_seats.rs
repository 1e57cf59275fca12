//! A game of four seats in two teams through the console: seats take turns in
//! order (white-1, black-1, white-2, black-2), each seat only on its own turn,
//! a clock and a strip per seat, and the result is the team's.
//!
//! The test variant has two armies of two rooks on the 14×14 cross; partners
//! take turns commanding their army. Games for four are challenged seat by
//! seat in a later step (team challenges); here the two extra seats are added
//! to a started game in the store.

mod console_support;

use console_support::{game_id, has, temp_dir, to, EPOCH};
use kodex_bot::config::Config;
use kodex_bot::console::Console;
use kodex_bot::store::{GameResult, SeatRow, Status};
use kodex_bot::time::ManualTime;
use kodex_bot::Service;
use kodex_engine::Registry;

const CROSS: &str = include_str!("../variants/crosstest.toml");

#[tokio::test]
async fn four_seats_take_turns_in_order_and_a_team_wins() {
    let dir = temp_dir("four-seats");
    let mut config = Config::defaults();
    config.database.url = format!("sqlite://{}", dir.join("kodex.db").display());
    config.boards.dir = dir.join("boards");
    config.boards.text = true;
    let mut registry = Registry::builtin();
    registry
        .add_definition("crosstest.toml", CROSS)
        .expect("the test variant");
    let service = Service::open(&config, registry, ManualTime::new(EPOCH))
        .await
        .expect("service opens");
    let mut console = Console::new(service.clone(), config.boards.dir.clone());

    let out = console.line("alice: /play crosstest @bob 5+0 white").await;
    let id = game_id(&out);
    let out = console.line(&format!("bob: /accept {id}")).await;
    assert!(has(&out, "starts"), "{out:#?}");
    // Carol joins alice's team (white, seat 2), dave bob's (black, seat 3).
    let store = service.store();
    let mut row = store
        .get("console", &id)
        .await
        .expect("store")
        .expect("game");
    assert_eq!(row.status, Status::Active);
    let clock = row.seats[0].remaining_ms;
    for (seat, name) in [(2, "carol"), (3, "dave")] {
        row.seats.push(SeatRow {
            seat,
            user_id: name.into(),
            user_name: name.into(),
            side: seat % 2,
            team: seat % 2,
            remaining_ms: clock,
            setup: None,
            ready: false,
        });
    }
    assert!(store.save(&mut row).await.expect("store"));

    // Seat 0 (alice) moves first; nobody else may.
    for (who, line) in [("dave", "d14d13"), ("carol", "d1d13"), ("bob", "d14d13")] {
        let out = console.line(&format!("{who}: /move {line}")).await;
        assert!(has(&out, "not your turn"), "{who}: {out:#?}");
    }
    let out = console.line("alice: /move d1d14").await;
    assert!(has(&out, "alice played Rxd14"), "{out:#?}");
    // Four strips: every seat's clock is on the board's line of clocks.
    assert!(
        has(&out, "⏱ alice 5:00 · bob 5:00 · carol 5:00 · dave 5:00"),
        "{out:#?}"
    );
    assert!(has(&out, "bob (black) to move"), "{out:#?}");
    // White moved; now black's first player, not carol and not dave.
    let out = console.line("dave: /move k14k13").await;
    assert!(has(&out, "not your turn"), "{out:#?}");
    let out = console.line("bob: /move k14k13").await;
    assert!(has(&out, "carol (white) to move"), "{out:#?}");
    // Alice's army, but carol's turn.
    let out = console.line("alice: /move k1k13").await;
    assert!(has(&out, "not your turn"), "{out:#?}");
    let out = console.line("carol: /move k1k13").await;
    assert!(has(&out, "carol played Rxk13"), "{out:#?}");
    // Black has no rook left: the white team wins, named by both players.
    let public = to(&out, "[#local]");
    assert!(
        public
            .iter()
            .any(|l| l.contains("alice & carol (white) wins")),
        "{out:#?}"
    );
    let row = store
        .get("console", &id)
        .await
        .expect("store")
        .expect("game");
    assert_eq!(row.status, Status::Finished);
    assert_eq!(row.result, Some(GameResult::Win { team: 0 }));
    let out = console.line(&format!("dave: /pgn {id}")).await;
    assert!(has(&out, "[White \"alice & carol\"]"), "{out:#?}");
    assert!(has(&out, "[Black \"bob & dave\"]"), "{out:#?}");
    let _ = std::fs::remove_dir_all(&dir);
}
