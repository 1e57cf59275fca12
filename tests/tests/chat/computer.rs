//! Games against the computer through the console: it accepts at once,
//! moves when it is its turn (also first, and after a restart), sets up in
//! battle chess and places in Frolov chess, plays from its view in fog of
//! war and by attempts in Kriegspiel, approves takebacks, and every game it
//! plays is an ordinary game.

use crate::console_support::{game_id_of_start, has, Chat};
use kodex_bot::store::Status;
use kodex_engine::setup::{start_fen, Placement};
use kodex_engine::{Game, Side, Start};

/// Whether the computer (`Kodex L<level>`) has played a move in `lines`.
fn computer_played(lines: &[String]) -> bool {
    lines
        .iter()
        .any(|l| l.contains("Kodex L") && l.contains("played"))
}

#[tokio::test]
async fn the_computer_accepts_at_once_and_answers_every_move() {
    let mut chat = Chat::new("computer-chess").await;
    let out = chat
        .say("alice: /play chess computer level 2 white 5+3")
        .await;
    assert!(has(&out, "starts"), "{out:#?}");
    assert!(has(&out, "Kodex L2"), "{out:#?}");
    let id = game_id_of_start(&out);
    let row = chat.row(&id).await;
    assert_eq!(row.status, Status::Active);
    assert_eq!(row.player_id(1), Some("computer:2"));
    for ply in 0..3 {
        // Whatever the computer played, a legal move of hers.
        let game = chat.position(&id).await;
        let mv = game.uci(game.legal_moves()[0]);
        let out = chat.say(&format!("alice: {mv}")).await;
        assert!(has(&out, "alice played"), "{out:#?}");
        chat.wait_for("the computer's move", computer_played).await;
        assert_eq!(chat.row(&id).await.move_list().len(), 2 * ply + 2);
    }
    // It approves a takeback.
    // The row is read before asking: the computer may approve at once.
    let row = chat.row(&id).await;
    chat.say("alice: /takeback").await;
    let out = chat
        .wait_for("the takeback", |out| has(out, "taken back"))
        .await;
    assert!(has(&out, "taken back"), "{out:#?}");
    let after = chat.row(&id).await;
    assert!(after.move_list().len() < row.move_list().len(), "{out:#?}");
}

#[tokio::test]
async fn the_computer_moves_first_as_white_and_again_after_a_restart() {
    let mut chat = Chat::new("computer-white").await;
    let out = chat.say("alice: /play chess computer black").await;
    let id = game_id_of_start(&out);
    chat.wait_for("the computer's first move", computer_played)
        .await;
    assert_eq!(chat.row(&id).await.move_list().len(), 1);
    chat.say("alice: e5").await;
    // Restarted before it answered: the new process picks the game up.
    let mut chat = chat.restart().await;
    chat.service.resume_computers().await;
    chat.wait_for("the computer's move after the restart", computer_played)
        .await;
    assert_eq!(chat.row(&id).await.move_list().len(), 3);
}

#[tokio::test]
async fn the_computer_sets_up_in_battle_chess_and_places_in_frolov_chess() {
    let mut chat = Chat::new("computer-setups").await;
    let out = chat.say("alice: /play battle computer white").await;
    assert!(has(&out, "is being set up"), "{out:#?}");
    let id = game_id_of_start(&out);
    chat.say("alice (dm): random").await;
    let mut out = chat.say("alice (dm): ready").await;
    // The computer gets ready on its own time: before alice (then her
    // ready reveals), or after (then its ready does).
    if !has(&out, "both setups are revealed") {
        out = chat
            .wait_for("the reveal", |out| has(out, "both setups are revealed"))
            .await;
    }
    assert!(has(&out, "starts") || has(&out, "wins"), "{out:#?}");
    let row = chat.row(&id).await;
    assert!(row.status != Status::Setup);
    // Its setup shields its king: against random White setups it never
    // saw, none puts its king in check at the start (a random Black setup
    // loses about half of such starts).
    let battle = kodex_engine::Registry::builtin()
        .get("battle")
        .unwrap()
        .clone();
    let mut black = Placement::default();
    black
        .apply(&battle, Side::BLACK, row.seats[1].setup.as_deref().unwrap())
        .unwrap();
    for seed in 0..20 {
        let white = Placement::random(&battle, Side::WHITE, 700 + seed).unwrap();
        let fen = start_fen(&battle, [&white, &black]).unwrap();
        let game = Game::new(&battle, Start::Fen(fen)).unwrap();
        let black_team = battle.definition().team_of(Side::BLACK);
        assert!(
            game.outcome()
                .and_then(|o| o.winner())
                .is_none_or(|winner| winner == black_team),
            "the computer's setup {:?} loses at once against {}",
            row.seats[1].setup,
            white.to_text(&battle)
        );
    }

    let out = chat.say("alice: /play frolov @kodex white").await;
    let id = game_id_of_start(&out);
    for _ in 0..16 {
        let out = chat.say("alice: random").await;
        if chat.row(&id).await.status != Status::Setup {
            break;
        }
        assert!(has(&out, "alice placed"), "{out:#?}");
        chat.wait_for("the computer's placement", |out| {
            has(out, "Kodex L3 placed")
        })
        .await;
    }
    let row = chat.row(&id).await;
    assert_ne!(row.status, Status::Setup, "every piece stands");
    assert_eq!(
        row.seats[1].setup.as_deref().map(|s| s.split(' ').count()),
        Some(16)
    );
}

#[tokio::test]
async fn the_computer_plays_fog_of_war_from_its_view() {
    let mut chat = Chat::new("computer-fog").await;
    let out = chat.say("alice: /play fogofwar computer l4 white").await;
    let id = game_id_of_start(&out);
    for _ in 0..3 {
        let game = chat.position(&id).await;
        let Some(&first) = game.legal_moves().first() else {
            break;
        };
        let mv = game.uci(first);
        let out = chat.say(&format!("alice (dm): {mv}")).await;
        if chat.row(&id).await.status != Status::Active {
            break;
        }
        assert!(has(&out, "you played"), "{out:#?}");
        let out = chat
            .wait_for("the computer's move", |out| has(out, "your move"))
            .await;
        // The chat hears whose turn it is, never the computer's move.
        assert!(!has(&out, "Kodex L4 played"), "{out:#?}");
    }
    assert!(chat.row(&id).await.move_list().len() >= 2);
}

#[tokio::test]
async fn the_computer_plays_kriegspiel_by_attempts() {
    let mut chat = Chat::new("computer-krieg").await;
    let out = chat.say("alice: /play kriegspiel computer white").await;
    let id = game_id_of_start(&out);
    for mv in ["e4", "d4", "Nc3", "Nf3"] {
        let out = chat.say(&format!("alice (dm): {mv}")).await;
        if chat.row(&id).await.status != Status::Active {
            break;
        }
        if !has(&out, "you played") {
            // Her attempt was impossible (a black piece in the way): fine.
            continue;
        }
        let out = chat
            .wait_for("the computer's move", |out| {
                has(out, "Kodex L3 (black) has moved")
            })
            .await;
        // She hears the referee, never the move.
        assert!(!has(&out, "Kodex L3 played"), "{out:#?}");
    }
    // Both sides have moved in the real position.
    let game = chat.position(&id).await;
    assert!(game.ply() >= 2, "{}", chat.row(&id).await.moves);
}

#[tokio::test]
async fn a_time_travel_game_against_the_computer_ends_with_legal_turns() {
    let mut chat = Chat::new("computer-timetravel").await;
    let out = chat.say("alice: /play timetravel computer l5 black").await;
    let id = game_id_of_start(&out);
    let mut heard = chat
        .wait_for("the computer's first move", computer_played)
        .await;
    for _ in 0..80 {
        if chat.row(&id).await.status != Status::Active {
            break;
        }
        // Alice plays badly: the first of her legal moves.
        let game = chat.position(&id).await;
        let Some(&first) = game.legal_moves().first() else {
            break;
        };
        let out = chat.say(&format!("alice: {}", game.uci(first))).await;
        assert!(has(&out, "alice played"), "{out:#?}");
        if chat.row(&id).await.status != Status::Active {
            break;
        }
        heard.extend(
            chat.wait_for("the computer's turn", |out| {
                computer_played(out) || has(out, "wins")
            })
            .await,
        );
    }
    let row = chat.row(&id).await;
    assert_eq!(row.status, Status::Finished, "{}", row.moves);
    // The record replays: every turn it played was legal, its jumps too,
    // and the chat heard each of its jumps as it would a person's.
    let game = chat.position(&id).await;
    let computer_jumps = game
        .jumps()
        .iter()
        .filter(|jump| jump.side == kodex_engine::Side::WHITE)
        .count();
    let announced = heard
        .iter()
        .filter(|line| line.contains("Kodex L5 travels in time"))
        .count();
    assert_eq!(announced, computer_jumps, "{}", row.moves);
}
