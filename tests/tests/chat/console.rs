//! End-to-end tests through the console chat: bad input, offers, takebacks,
//! aborts, disambiguation, fog of war, clocks, restarts and concurrency.

use crate::console_support::{game_id, game_id_of_start, has, to, Chat};
use kodex_bot::api::{Action, ChatRef, Handler, Platform, Request, UserRef};
use kodex_bot::store::{DrawOffer, EndReason, GameResult, GameRow, MoveRecord, Status};

fn user(name: &str) -> UserRef {
    UserRef {
        platform: Platform::Console,
        id: name.to_owned(),
        name: name.to_owned(),
        handle: None,
    }
}

fn move_request(actor: &str, text: &str) -> Request {
    Request {
        chat: ChatRef {
            platform: Platform::Console,
            id: "local".to_owned(),
        },
        private: false,
        actor: user(actor),
        locale: None,
        chat_locale: None,
        action: Action::Move {
            text: text.to_owned(),
            game: None,
        },
    }
}

/// Asserts that `line` got an answer for `who` containing `expected`, and
/// that the game did not change.
async fn refused(chat: &mut Chat, id: &str, line: &str, who: &str, expected: &str) {
    let before = chat.row(id).await;
    let out = chat.say(line).await;
    assert!(
        to(&out, &format!("[@{who}]"))
            .iter()
            .any(|l| l.contains(expected)),
        "{line:?}: expected {expected:?} for {who}, got {out:#?}"
    );
    assert!(
        to(&out, "[#local]").is_empty(),
        "{line:?} said something publicly: {out:#?}"
    );
    assert_eq!(chat.row(id).await, before, "{line:?} changed the game");
}

#[tokio::test]
async fn bad_input_of_every_kind_is_answered_and_changes_nothing() {
    let mut chat = Chat::new("bad-input").await;
    // Before any game exists.
    let out = chat.say("alice: /frobnicate now").await;
    assert!(
        has(&out, "[@alice] I don't know the command /frobnicate"),
        "{out:#?}"
    );
    let out = chat.say("alice: /play xyzzy @bob").await;
    assert!(has(&out, "I don't know the variant “xyzzy”"), "{out:#?}");
    let out = chat.say("alice: /play chess @bob 7+").await;
    assert!(has(&out, "“7+” is not a clock"), "{out:#?}");
    let out = chat.say("alice: /play chess @alice").await;
    assert!(has(&out, "You cannot challenge yourself"), "{out:#?}");
    let out = chat.say("alice: /play").await;
    assert!(has(&out, "Usage: /play"), "{out:#?}");
    let out = chat.say("alice: /move e4").await;
    assert!(has(&out, "You have no game running here"), "{out:#?}");
    let out = chat.say("alice: hello everyone").await;
    assert!(out.is_empty(), "chatter must be ignored: {out:#?}");

    let out = chat.say("alice: /play chess @bob white").await;
    let id = game_id(&out);
    refused(
        &mut chat,
        &id,
        "alice: /accept",
        "alice",
        "cannot accept your own",
    )
    .await;
    refused(
        &mut chat,
        &id,
        &format!("carol: /accept {id}"),
        "carol",
        "meant for someone else",
    )
    .await;
    refused(
        &mut chat,
        &id,
        "carol: /accept zzzz",
        "carol",
        "There is no game “zzzz”",
    )
    .await;
    chat.say("bob: /accept").await;
    assert_eq!(chat.row(&id).await.status, Status::Active);

    refused(
        &mut chat,
        &id,
        "alice: /move zz9",
        "alice",
        "is not a move I can read",
    )
    .await;
    refused(
        &mut chat,
        &id,
        "alice: /move e5",
        "alice",
        "“e5” is not legal",
    )
    .await;
    refused(&mut chat, &id, "alice: /move Ke2", "alice", "not legal").await;
    refused(&mut chat, &id, "bob: /move e5", "bob", "not your turn").await;
    refused(
        &mut chat,
        &id,
        &format!("carol: /move e4 {id}"),
        "carol",
        "not playing in game",
    )
    .await;
    refused(
        &mut chat,
        &id,
        "carol: /resign",
        "carol",
        "no game running here",
    )
    .await;
    refused(&mut chat, &id, "alice: /move", "alice", "Usage: /move").await;
    refused(
        &mut chat,
        &id,
        "alice: /move e2e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4e4",
        "alice",
        "too long",
    )
    .await;
    let long = format!("alice: {}", "x".repeat(5_000));
    refused(&mut chat, &id, &long, "alice", "too long").await;
    refused(
        &mut chat,
        &id,
        "alice: /press zap:1234",
        "alice",
        "no longer valid",
    )
    .await;
    refused(&mut chat, &id, "alice: /nodraw", "alice", "no draw offer").await;
    refused(
        &mut chat,
        &id,
        "alice: /takeback",
        "alice",
        "no move to take back",
    )
    .await;
    // A move typed out of turn, or one that cannot be read, is answered;
    // chatter is not; nothing changes.
    let before = chat.row(&id).await;
    let out = chat.say("bob: e5").await;
    assert!(has(&out, "[@bob] It is not your turn in game"), "{out:#?}");
    for typo in ["e9", "Nz3", "Kf"] {
        let out = chat.say(&format!("alice: {typo}")).await;
        assert!(
            has(&out, &format!("[@alice] “{typo}” is not a move I can read")),
            "{out:#?}"
        );
    }
    for chatter in ["nice weather", "No", "ok", "gg"] {
        let out = chat.say(&format!("alice: {chatter}")).await;
        assert!(out.is_empty(), "{chatter}: {out:#?}");
    }
    // People with no game here are never answered.
    assert!(chat.say("carol: e4").await.is_empty());
    assert_eq!(chat.row(&id).await, before);

    // Ambiguous moves list the candidates.
    chat.script(&[
        "alice: e4",
        "bob: Nf6",
        "alice: d3",
        "bob: d6",
        "alice: Nc3",
    ])
    .await;
    refused(&mut chat, &id, "bob: Nd7", "bob", "ambiguous").await;
    let out = chat.say("bob: Nd7").await;
    assert!(has(&out, "Nbd7") && has(&out, "Nfd7"), "{out:#?}");
    // In Russian too, after /lang ru.
    chat.say("bob: /lang ru").await;
    refused(&mut chat, &id, "bob: /move e9", "bob", "не ход").await;
}

#[tokio::test]
async fn draw_offers_cannot_be_withdrawn_and_are_accepted_by_the_opponent() {
    let mut chat = Chat::new("draw").await;
    let id = chat.start("alice", "bob", "chess").await;
    chat.script(&["alice: e4", "bob: e5"]).await;
    let out = chat.say("alice: /draw").await;
    assert!(has(&out, "[#local] alice offers a draw"), "{out:#?}");
    assert!(has(&out, &format!("/press draw:{id}")), "{out:#?}");
    assert_eq!(chat.row(&id).await.draw_offer, Some(DrawOffer::Seat(0)));
    refused(&mut chat, &id, "alice: /draw", "alice", "already offered").await;
    refused(
        &mut chat,
        &id,
        "alice: /nodraw",
        "alice",
        "cannot be withdrawn",
    )
    .await;
    // Declining by button.
    let out = chat.say(&format!("bob: /press nodraw:{id}")).await;
    assert!(has(&out, "bob declined the draw"), "{out:#?}");
    assert_eq!(chat.row(&id).await.draw_offer, None);
    // An offer survives the offerer's own move and lapses when the opponent plays on.
    chat.say("alice: /draw").await;
    chat.say("alice: Nf3").await;
    assert_eq!(chat.row(&id).await.draw_offer, Some(DrawOffer::Seat(0)));
    chat.say("bob: Nc6").await;
    assert_eq!(chat.row(&id).await.draw_offer, None);
    // bob offers, alice accepts.
    chat.say("bob: /draw").await;
    let out = chat.say("alice: /draw").await;
    assert!(has(&out, "draw: agreed"), "{out:#?}");
    let row = chat.row(&id).await;
    assert_eq!(row.status, Status::Finished);
    assert_eq!(
        row.result.as_ref().map(GameResult::to_text).as_deref(),
        Some("1/2-1/2")
    );
    assert_eq!(
        row.reason.as_ref().map(EndReason::to_text),
        Some("agreement")
    );
}

#[tokio::test]
async fn resigning_ends_the_game_for_the_opponent() {
    let mut chat = Chat::new("resign").await;
    let id = chat.start("alice", "bob", "atomic").await;
    chat.say("alice: e4").await;
    // /resign only asks, privately, with a button that resigns and one that does not.
    let out = chat.say("bob: /resign").await;
    assert!(
        has(&out, &format!("[@bob] Resign game {id} against alice?"))
            && has(&out, &format!("/press rsg:{id}:b"))
            && has(&out, &format!("/press keep:{id}"))
            && !has(&out, "[#local]"),
        "{out:#?}"
    );
    assert_eq!(chat.row(&id).await.status, Status::Active);
    let out = chat.say(&format!("bob: /press keep:{id}")).await;
    assert!(has(&out, &format!("Game {id} goes on.")), "{out:#?}");
    assert_eq!(chat.row(&id).await.status, Status::Active);
    // The opponent cannot press the resign button for bob.
    let out = chat.say(&format!("carol: /press rsg:{id}:b")).await;
    assert!(has(&out, "[@carol]") && !has(&out, "resigned"), "{out:#?}");
    let out = chat.say(&format!("alice: /press rsg:{id}:b")).await;
    assert!(has(&out, "This button is for someone else."), "{out:#?}");
    assert_eq!(chat.row(&id).await.status, Status::Active);
    let out = chat.say(&format!("bob: /press rsg:{id}:b")).await;
    assert!(
        has(&out, "[#local] ") && has(&out, "1-0 — alice (white) wins: bob resigned"),
        "{out:#?}"
    );
    // The game-end summary carries the whole game as an animated GIF.
    assert!(
        has(&out, &format!("Game {id}, move by move.")) && has(&out, ".gif"),
        "{out:#?}"
    );
    refused(
        &mut chat,
        &id,
        "bob: /move e5",
        "bob",
        "no game running here",
    )
    .await;
    refused(
        &mut chat,
        &id,
        &format!("bob: /move e5 {id}"),
        "bob",
        "is over",
    )
    .await;
    // A move typed in the chat soon after the end is told so; later, and
    // from someone who did not play, it is chatter.
    let out = chat.say("bob: e5").await;
    assert!(has(&out, &format!("[@bob] Game {id} is over.")), "{out:#?}");
    assert!(chat.say("carol: e5").await.is_empty());
    chat.advance(11 * 60 * 1000).await;
    assert!(chat.say("bob: e5").await.is_empty());
}

#[tokio::test]
async fn takebacks_need_the_opponents_approval() {
    let mut chat = Chat::new("takeback").await;
    let id = chat.start("alice", "bob", "chess").await;
    chat.script(&["alice: e4", "bob: e5", "alice: Nf3"]).await;
    // bob asks; alice refuses.
    let out = chat.say("bob: /takeback").await;
    assert!(has(&out, "bob asks to take back"), "{out:#?}");
    refused(&mut chat, &id, "bob: /takeback", "bob", "already asked").await;
    let out = chat.say("alice: /notakeback").await;
    assert!(has(&out, "alice refused the takeback"), "{out:#?}");
    assert_eq!(chat.row(&id).await.moves, "e2e4 e7e5 g1f3");
    // alice asks for her last move back (it is bob's turn): one half-move.
    chat.say("alice: /takeback").await;
    let out = chat.say("bob: /takeback").await;
    assert!(has(&out, "the move was taken back"), "{out:#?}");
    assert_eq!(chat.row(&id).await.moves, "e2e4 e7e5");
    // bob asks while it is his turn again after alice answered: two half-moves.
    chat.say("alice: Bc4").await;
    chat.say("bob: /takeback").await;
    chat.say(&format!("alice: /press tb:{id}")).await;
    assert_eq!(chat.row(&id).await.moves, "e2e4");
    chat.say("bob: c5").await;
    assert_eq!(chat.row(&id).await.moves, "e2e4 c7c5");
}

#[tokio::test]
async fn abort_only_before_both_sides_have_moved() {
    let mut chat = Chat::new("abort").await;
    let id = chat.start("alice", "bob", "chess").await;
    chat.say("alice: e4").await;
    let out = chat.say("bob: /abort").await;
    assert!(has(&out, "[#local] bob aborted game"), "{out:#?}");
    assert_eq!(chat.row(&id).await.status, Status::Aborted);
    let id = chat.start("alice", "bob", "chess").await;
    chat.script(&["alice: e4", "bob: e5"]).await;
    refused(
        &mut chat,
        &id,
        "alice: /abort",
        "alice",
        "can no longer be aborted",
    )
    .await;
}

#[tokio::test]
async fn a_move_with_several_games_asks_which_one() {
    let mut chat = Chat::new("ambiguous").await;
    let first = chat.start("alice", "bob", "chess").await;
    let second = chat.start("alice", "carol", "kingofthehill").await;
    let out = chat.say("alice: e4").await;
    assert!(
        has(&out, "[@alice] You have several games here"),
        "{out:#?}"
    );
    assert!(has(&out, &first) && has(&out, &second), "{out:#?}");
    assert!(has(&out, "for example /move e4 <id>"), "{out:#?}");
    assert_eq!(chat.row(&first).await.moves, "");
    assert_eq!(chat.row(&second).await.moves, "");
    let out = chat.say(&format!("alice: /move e4 {first}")).await;
    assert!(has(&out, "alice played e4"), "{out:#?}");
    // Now only the second game waits for alice: the move goes there.
    let out = chat.say("alice: d4").await;
    assert!(has(&out, &format!("{second}: alice played d4")), "{out:#?}");
    // Plain text naming the game works too.
    chat.say(&format!("bob: e5 {first}")).await;
    assert_eq!(chat.row(&first).await.moves, "e2e4 e7e5");
    // Other commands ask too, and act on the game named.
    let out = chat.say("alice: /resign").await;
    assert!(has(&out, "several games") && has(&out, &first), "{out:#?}");
    // The example is the command typed, not a move.
    assert!(has(&out, "for example /resign <id>"), "{out:#?}");
    assert!(!has(&out, "/move e4"), "{out:#?}");
    // A Russian reader is shown the Russian name (issue 32, item 8).
    chat.say("alice: /lang ru").await;
    let out = chat.say("alice: /ничья").await;
    assert!(has(&out, "например, /ничья <id>"), "{out:#?}");
    let out = chat.say("alice: /сдаться").await;
    assert!(has(&out, "например, /сдаться <id>"), "{out:#?}");
    chat.say("alice: /lang en").await;
    assert_eq!(chat.row(&first).await.status, Status::Active);
    assert_eq!(chat.row(&second).await.status, Status::Active);
    let out = chat.say("alice: /games").await;
    assert!(
        has(&out, &first) && has(&out, &second) && has(&out, "your move"),
        "{out:#?}"
    );
}

/// Whether `text` names a square (`e4`, `h8`).
fn names_a_square(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes
        .windows(2)
        .any(|w| (b'a'..=b'h').contains(&w[0]) && (b'1'..=b'8').contains(&w[1]))
}

#[tokio::test]
async fn fog_of_war_leaks_nothing_in_public() {
    let mut chat = Chat::new("fog").await;
    let id = chat.start("alice", "bob", "fogofwar").await;
    let mut public = Vec::new();
    let mut to_bob = Vec::new();
    let mut to_alice = Vec::new();
    let collect = |out: &[String],
                   public: &mut Vec<String>,
                   alice: &mut Vec<String>,
                   bob: &mut Vec<String>| {
        for line in out {
            if line.starts_with("[#local]") {
                public.push(line.clone());
            } else if line.starts_with("[@alice]") {
                alice.push(line.clone());
            } else if line.starts_with("[@bob]") {
                bob.push(line.clone());
            }
        }
    };
    // A public move is refused with a hint that does not depend on the position.
    let legal = chat.say("alice: e4").await;
    let illegal = chat.say("alice: /move Qxf7").await;
    let nonsense = chat.say("alice: /move e9").await;
    assert!(
        has(&legal, "[@alice]") && has(&legal, "private chat"),
        "{legal:#?}"
    );
    assert_eq!(legal, illegal);
    assert_eq!(legal, nonsense);
    assert_eq!(chat.row(&id).await.moves, "");

    let alice_moves = ["e4", "Bc4", "Qh5"];
    let bob_moves = ["e5", "Nc6", "Nf6"];
    for (a, b) in alice_moves.iter().zip(bob_moves) {
        let out = chat.say(&format!("alice (dm): {a}")).await;
        assert!(
            has(&out, &format!("[@alice] {id}: you played {a}")),
            "{out:#?}"
        );
        collect(&out, &mut public, &mut to_alice, &mut to_bob);
        let out = chat.say(&format!("bob (dm): {b}")).await;
        collect(&out, &mut public, &mut to_alice, &mut to_bob);
        // A board and a spectator's look reveal nothing either.
        let out = chat.say("carol: /board").await;
        assert!(!has(&out, "[#local]"), "{out:#?}");
        collect(&out, &mut public, &mut to_alice, &mut to_bob);
    }
    let out = chat.say("carol: /pgn").await;
    assert!(has(&out, "stays hidden"), "{out:#?}");
    // Each player gets their own fogged board privately after every turn.
    assert!(to_alice
        .iter()
        .any(|l| l.contains("image:") && l.ends_with("-white.png")));
    assert!(to_bob
        .iter()
        .any(|l| l.contains("image:") && l.ends_with("-black.png")));
    assert!(to_alice.iter().any(|l| l.contains('?')), "alice sees fog");
    assert!(to_bob.iter().any(|l| l.contains('?')), "bob sees fog");
    assert!(public.iter().any(|l| l.contains("move 4")), "{public:#?}");
    for line in &public {
        assert!(!names_a_square(line), "public line names a square: {line}");
        assert!(
            !line.contains("image:"),
            "public image during a fog game: {line}"
        );
        assert!(
            !line.contains('?'),
            "public board during a fog game: {line}"
        );
    }
    for line in &to_bob {
        for mv in alice_moves {
            assert!(!line.contains(mv), "bob was told alice's move {mv}: {line}");
        }
    }
    for line in &to_alice {
        for mv in bob_moves {
            assert!(!line.contains(mv), "alice was told bob's move {mv}: {line}");
        }
    }
    // No takebacks in the fog.
    refused(
        &mut chat,
        &id,
        "alice (dm): /takeback",
        "alice",
        "no takebacks",
    )
    .await;
    // The end makes the whole game public.
    let out = chat.say("alice (dm): Qxf7#").await;
    assert!(has(&out, "[#local]") && has(&out, "checkmate"), "{out:#?}");
    assert!(
        has(&out, "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0"),
        "{out:#?}"
    );
    assert!(
        to(&out, "[#local]").iter().any(|l| l.contains("image:")),
        "{out:#?}"
    );
    // Now the record and the game's animation are public.
    let out = chat.say("carol: /pgn").await;
    assert!(has(&out, "4. Qxf7# 1-0"), "{out:#?}");
    assert!(
        has(&out, "image: ") && has(&out, &format!("{id}.gif")),
        "{out:#?}"
    );
}

#[tokio::test]
async fn the_flag_falls_by_itself() {
    let mut chat = Chat::new("flag").await;
    let id = chat.start("alice", "bob", "chess 1+0").await;
    chat.say("alice: e4").await;
    assert!(chat.advance(10_000).await.is_empty());
    chat.say("bob: e5").await;
    // alice has 60 s from bob's move on; at 6 s left (a tenth of her
    // clock) she alone is reminded, once.
    let out = chat.advance(59_000).await;
    assert!(
        out.iter().all(|l| l.starts_with("[@alice]")) && has(&out, "0:01 left on your clock"),
        "{out:#?}"
    );
    let out = chat.advance(1_500).await;
    assert!(
        has(&out, "[#local] ") && has(&out, "bob (black) wins: alice ran out of time"),
        "{out:#?}"
    );
    let row = chat.row(&id).await;
    assert_eq!(
        (
            row.result.as_ref().map(GameResult::to_text).as_deref(),
            row.reason.as_ref().map(EndReason::to_text)
        ),
        (Some("0-1"), Some("timeout"))
    );
    assert_eq!(row.deadline, None);
}

#[tokio::test]
async fn a_late_move_loses_on_time_instead_of_being_played() {
    let mut chat = Chat::new("late-move").await;
    let id = chat.start("alice", "bob", "chess 3+2").await;
    chat.say("alice: e4").await;
    chat.time.advance(181_000);
    let out = chat.say("bob: e5").await;
    assert!(has(&out, "bob ran out of time"), "{out:#?}");
    assert_eq!(chat.row(&id).await.moves, "e2e4");
}

#[tokio::test]
async fn a_flag_against_a_bare_king_is_a_draw() {
    let mut chat = Chat::new("flag-draw").await;
    let id = chat.start("alice", "bob", "chess 1+0").await;
    // Rewrite the stored game: white (alice) has a rook, black only a king.
    let mut row: GameRow = chat.row(&id).await;
    row.start_fen = Some("4k3/8/8/8/8/8/8/R3K3 w - - 0 1".to_owned());
    assert!(chat.service.store().save(&mut row).await.expect("save"));
    let out = chat.advance(61_000).await;
    assert!(
        has(
            &out,
            "draw: time ran out, but the opponent has no mating material"
        ),
        "{out:#?}"
    );
    assert_eq!(chat.result(&id).await.as_deref(), Some("1/2-1/2"));
}

#[tokio::test]
async fn the_scheduler_task_ends_games_without_anyone_asking() {
    let mut chat = Chat::new("scheduler").await;
    let mut outbox = chat.service.outbox(Platform::Console);
    let _task = chat.service.spawn_scheduler();
    let id = chat.start("alice", "bob", "chess 1+0").await;
    chat.time.advance(61_000);
    let delivery = tokio::time::timeout(std::time::Duration::from_secs(30), outbox.recv())
        .await
        .expect("the scheduler delivered the flag fall")
        .expect("outbox open");
    assert!(
        delivery.text.contains("alice ran out of time"),
        "{delivery:?}"
    );
    assert_eq!(chat.row(&id).await.status, Status::Finished);
}

#[tokio::test]
async fn challenges_expire() {
    let mut chat = Chat::new("expiry").await;
    let out = chat.say("alice: /play chess").await;
    assert!(has(&out, "anyone may /accept"), "{out:#?}");
    let id = game_id(&out);
    assert!(chat.advance(3_599_000).await.is_empty());
    let out = chat.advance(2_000).await;
    assert!(
        has(&out, &format!("[#local] Challenge {id} by alice expired")),
        "{out:#?}"
    );
    let out = chat.say("bob: /accept").await;
    assert!(has(&out, "no challenge here"), "{out:#?}");
}

#[tokio::test]
async fn a_restart_resumes_games_and_running_clocks() {
    let mut chat = Chat::new("restart").await;
    let id = chat.start("alice", "bob", "chess").await;
    let timed = chat.start("carol", "dave", "chess 3+2").await;
    chat.script(&[
        "alice: e4",
        "bob: e5",
        "alice: Bc4",
        "bob: Nc6",
        "carol: d4",
    ])
    .await;
    let mut chat = chat.restart().await;
    chat.script(&["alice: Qh5", "bob: Nf6"]).await;
    let out = chat.say("alice: Qxf7#").await;
    assert!(has(&out, "alice (white) wins: checkmate"), "{out:#?}");
    assert_eq!(chat.result(&id).await.as_deref(), Some("1-0"));
    // dave's clock kept running while the process was down.
    chat.time.advance(200_000);
    let mut chat = chat.restart().await;
    let out = chat.advance(0).await;
    assert!(has(&out, "dave ran out of time"), "{out:#?}");
    assert_eq!(
        chat.row(&timed)
            .await
            .result
            .as_ref()
            .map(GameResult::to_text)
            .as_deref(),
        Some("1-0")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn simultaneous_moves_apply_exactly_one_per_turn() {
    let mut chat = Chat::new("concurrency").await;
    let id = chat.start("alice", "bob", "chess").await;
    // A second service on the same file stands for a second process: only
    // the version column keeps the two apart.
    let other = chat.second_service().await;
    let turns: [(&str, &[&str]); 2] = [
        ("alice", &["e4", "d4", "c4", "Nf3", "Nc3", "g3", "b3", "f4"]),
        ("bob", &["e5", "d5", "c5", "Nf6", "Nc6", "g6", "b6", "f5"]),
    ];
    for (ply, (player, moves)) in turns.iter().enumerate() {
        let mut tasks = Vec::new();
        for round in 0..4 {
            for (i, mv) in moves.iter().enumerate() {
                let service = if (i + round) % 2 == 0 {
                    chat.service.clone()
                } else {
                    other.clone()
                };
                let request = move_request(player, mv);
                tasks.push(tokio::spawn(async move { service.handle(request).await }));
            }
        }
        let mut applied = 0;
        for task in tasks {
            let out = task.await.expect("task");
            applied += out.iter().filter(|d| d.text.contains(" played ")).count();
        }
        assert_eq!(applied, 1, "turn {ply}");
        assert_eq!(chat.row(&id).await.move_list().len(), ply + 1);
    }
}

/// Two processes on one database (two services here, on SQLite or
/// PostgreSQL) both look when a reminder is due, a flag falls and a
/// challenge expires: each happens once, said by one of them only.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_flag_a_reminder_and_a_challenge_expiry_come_once_with_two_processes_looking() {
    let mut chat = Chat::new("two-schedulers").await;
    let other = chat.second_service().await;
    let mut mine = chat.service.outbox(Platform::Console);
    let mut theirs = other.outbox(Platform::Console);
    let id = chat.start("alice", "bob", "chess 1+0").await;
    let open = game_id(&chat.say("carol: /play chess").await);
    // A reminder is due too: dave has a tenth of his minute left.
    let reminded = chat.start("dave", "erin", "chess 1+0").await;
    chat.say("dave: e4").await;
    chat.say("erin: e5").await;
    chat.time.advance(55_000);
    for _ in 0..3 {
        tokio::join!(chat.service.tick(), other.tick());
    }
    let reminder = format!("Game {reminded} against erin: your move");
    chat.time.advance(3_601_000);
    for _ in 0..3 {
        tokio::join!(chat.service.tick(), other.tick());
    }
    let expired = format!("Challenge {open} by carol expired");
    let count = |outbox: &mut tokio::sync::mpsc::UnboundedReceiver<kodex_bot::api::Delivery>| {
        let (mut flags, mut expiries, mut reminders) = (0, 0, 0);
        while let Ok(delivery) = outbox.try_recv() {
            flags += usize::from(delivery.text.contains("alice ran out of time"));
            expiries += usize::from(delivery.text.contains(&expired));
            reminders += usize::from(delivery.text.contains(&reminder));
        }
        (flags, expiries, reminders)
    };
    let (mine, theirs) = (count(&mut mine), count(&mut theirs));
    assert_eq!(mine.2 + theirs.2, 1, "one reminder: {mine:?} {theirs:?}");
    assert!(
        (mine.0 > 0) != (theirs.0 > 0),
        "one process announces the flag: {mine:?} {theirs:?}"
    );
    assert!(
        (mine.1 > 0) != (theirs.1 > 0),
        "one process announces the expiry: {mine:?} {theirs:?}"
    );
    assert_eq!(chat.row(&id).await.status, Status::Finished);
    assert_eq!(chat.row(&open).await.status, Status::Expired);
}

/// A language chosen through one process is the language another process
/// on the same PostgreSQL database answers in at once, though it had read
/// the old one into its memory (it hears the change). SQLite's file has
/// one process: the test runs on PostgreSQL only.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_language_chosen_through_one_process_is_the_others_at_once() {
    if !crate::console_support::on_postgres() {
        eprintln!(
            "a_language_chosen_through_one_process: skipped, it needs KODEX_TEST_STORE=postgres"
        );
        return;
    }
    let mut chat = Chat::new("two-langs").await;
    let other = chat.second_service().await;
    let mut elsewhere = kodex_bot::console::Console::new(other, chat.dir.join("other-boards"));
    let out = elsewhere.line("bob: /rules chess").await;
    assert!(has(&out, "[@bob] "), "{out:#?}");
    let english = out.join("\n");
    chat.say("bob: /lang ru").await;
    let mut answered = Vec::new();
    for _ in 0..50 {
        answered = elsewhere.line("bob: /rules chess").await;
        if answered.join("\n") != english {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(
        answered
            .iter()
            .any(|l| l.contains("Классика") || l.contains("Шахматы")),
        "{answered:#?}"
    );
}

#[tokio::test]
async fn help_is_short_and_each_topic_it_names_comes_in_full() {
    let mut chat = Chat::new("help-topics").await;
    for (who, lang) in [("alice", "en"), ("bob", "ru")] {
        chat.say(&format!("{who}: /lang {lang}")).await;
        let first = chat.say(&format!("{who}: /help")).await.join("\n");
        assert!(
            first.chars().count() < 1_600,
            "{lang}: the first steps are short: {}",
            first.chars().count()
        );
        // Every topic the first steps name is there, in full, and not in them.
        let topics: Vec<String> = first
            .split("/help ")
            .skip(1)
            .filter_map(|rest| rest.split_whitespace().next())
            .map(|word| word.trim_matches(|c: char| !c.is_alphanumeric()).to_owned())
            .collect();
        assert_eq!(topics.len(), 5, "{lang}: {first}");
        let mut texts = Vec::new();
        for topic in &topics {
            let text = chat.say(&format!("{who}: /help {topic}")).await.join("\n");
            assert!(
                !text.contains("/help play ·"),
                "{lang} {topic}: a topic, not the overview: {text}"
            );
            assert!(text.chars().count() <= 4_000, "{lang} {topic}");
            texts.push(text);
        }
        texts.dedup();
        assert_eq!(texts.len(), 5, "{lang}: five different topics");
        // An unknown topic gets the first steps, which name the topics.
        let unknown = chat.say(&format!("{who}: /help zzz")).await.join("\n");
        assert_eq!(unknown, first);
    }
    let moves = chat.say("bob: /помощь ходы").await.join("\n");
    assert!(moves.contains("Как играть"), "{moves}");
}

#[tokio::test]
async fn language_follows_the_user_then_the_platform_locale_then_the_chat() {
    let mut chat = Chat::new("languages").await;
    let help = |locale: Option<&str>, actor: &str| Request {
        chat: ChatRef {
            platform: Platform::Console,
            id: "local".to_owned(),
        },
        private: false,
        actor: user(actor),
        locale: locale.map(str::to_owned),
        chat_locale: None,
        action: Action::Help { topic: None },
    };
    let english = chat.service.handle(help(None, "alice")).await;
    assert!(
        english[0].text.contains("chess variants in chat"),
        "{english:?}"
    );
    let russian = chat.service.handle(help(Some("ru-RU"), "alice")).await;
    assert!(
        russian[0].text.contains("шахматные варианты"),
        "{russian:?}"
    );
    // Each fits one Telegram message (4096 characters) with room to spare.
    for text in [&english[0].text, &russian[0].text] {
        assert!(text.chars().count() <= 4_000, "{}", text.chars().count());
    }
    // Both name every command's Russian name, from the command table.
    for command in kodex_bot::command::COMMANDS {
        if let Some(name) = command.russian.first() {
            for text in [&english[0].text, &russian[0].text] {
                assert!(text.contains(&format!("/{name}")), "/{name}: {text}");
            }
        }
    }
    // And what it names is typed: `/сдаться` is `/resign`.
    assert!(
        matches!(
            kodex_bot::command::parse("/сдаться", |_| None),
            Some(Action::Resign { .. })
        ),
        "/сдаться"
    );
    // The user's own choice beats the platform locale.
    chat.say("alice: /lang en").await;
    let chosen = chat.service.handle(help(Some("ru"), "alice")).await;
    assert!(
        chosen[0].text.contains("chess variants in chat"),
        "{chosen:?}"
    );
    // The chat's language is the fallback for users without either.
    let out = chat.say("bob: /lang chat ru").await;
    // Confirmed to bob in his language, naming the chat's new one.
    assert!(
        has(&out, "[@bob] This chat's language is now Russian."),
        "{out:#?}"
    );
    let fallback = chat.service.handle(help(None, "carol")).await;
    assert!(
        fallback[0].text.contains("шахматные варианты"),
        "{fallback:?}"
    );
    let out = chat.say("carol: /play шашки").await;
    assert!(has(&out, "Я не знаю варианта «шашки»"), "{out:#?}");
    let out = chat.say("dave: /lang de").await;
    assert!(has(&out, "/lang en"), "{out:#?}");
}

#[tokio::test]
async fn a_game_that_cannot_be_replayed_stops_its_clock_and_spares_the_others() {
    let mut chat = Chat::new("corrupt").await;
    let broken = chat.start("alice", "bob", "chess 1+0").await;
    let fine = chat.start("carol", "dave", "chess 1+0").await;
    let mut row = chat.row(&broken).await;
    row.moves = MoveRecord::parse("e2e5").expect("a record");
    assert!(chat.service.store().save(&mut row).await.expect("save"));
    let out = chat.advance(61_000).await;
    assert!(has(&out, "carol ran out of time"), "{out:#?}");
    assert_eq!(chat.row(&fine).await.status, Status::Finished);
    let row = chat.row(&broken).await;
    assert_eq!((row.status, row.deadline), (Status::Active, None));
    let out = chat.say(&format!("alice: /move e4 {broken}")).await;
    assert!(has(&out, "cannot be loaded"), "{out:#?}");
}

#[tokio::test]
async fn play_reads_russian_colours_and_names_a_level_out_of_range() {
    let mut chat = Chat::new("play-words").await;
    let out = chat.say("alice: /play chess computer level 9").await;
    assert!(
        has(&out, "level is a number from 1 to 8, not “9”"),
        "{out:#?}"
    );
    assert!(!has(&out, "not a clock"), "{out:#?}");
    // A colour of other games is told which colours there are.
    let out = chat.say("alice: /play chess @bob red").await;
    assert!(
        has(
            &out,
            "“red” is not a colour of Standard: choose white, black or random."
        ),
        "{out:#?}"
    );
    chat.say("alice: /lang ru").await;
    let out = chat.say("alice: /play chess @bob синими").await;
    assert!(has(&out, "нет цвета «синими»"), "{out:#?}");
    chat.say("alice: /lang en").await;
    // A start says "no clock", never "clock: no clock"; a clock is named.
    for (clock, said) in [("", "(black), no clock."), ("3+2", "(black), clock: 3+2.")] {
        let out = chat
            .say(&format!("alice: /play chess @bob white {clock}"))
            .await;
        let id = game_id(&out);
        let out = chat.say(&format!("bob: /accept {id}")).await;
        assert!(has(&out, said), "{out:#?}");
        assert!(!has(&out, "clock: no clock"), "{out:#?}");
        let out = chat.say(&format!("alice: /abort {id}")).await;
        assert!(has(&out, "aborted"), "{out:#?}");
    }
    for (word, said) in [
        ("белые", "alice plays white"),
        ("чёрными", "alice plays black"),
        ("черные", "alice plays black"),
        ("случайно", "colours drawn at random"),
    ] {
        let out = chat.say(&format!("alice: /play chess @bob {word}")).await;
        assert!(has(&out, said), "{word}: {out:#?}");
        assert!(!has(&out, "plays random"), "{word}: {out:#?}");
        let id = game_id(&out);
        chat.say(&format!("alice: /decline {id}")).await;
    }
    chat.say("alice: /lang ru").await;
    // In Russian the colour is said naturally: "alice играет белыми".
    chat.say("alice: /lang chat ru").await;
    let out = chat.say("alice: /play chess @bob белыми").await;
    assert!(has(&out, "alice играет белыми"), "{out:#?}");
    chat.say(&format!("alice: /decline {}", game_id(&out)))
        .await;
    let out = chat.say("alice: /play chess computer уровень 12").await;
    assert!(has(&out, "Уровень компьютера"), "{out:#?}");
}

/// The lichess analysis link in `lines`, decoded, if any.
fn analysis_link(lines: &[String]) -> Option<String> {
    let line = lines
        .iter()
        .find(|l| l.contains("https://lichess.org/analysis/"))?;
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("https://"))?;
    let bytes = url.as_bytes();
    let mut decoded = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] == b'%' && at + 2 < bytes.len() {
            let hex = std::str::from_utf8(&bytes[at + 1..at + 3]).ok()?;
            decoded.push(u8::from_str_radix(hex, 16).ok()?);
            at += 3;
        } else {
            decoded.push(bytes[at]);
            at += 1;
        }
    }
    String::from_utf8(decoded).ok()
}

#[tokio::test]
async fn a_finished_game_lichess_plays_links_to_its_analysis_board() {
    let mut chat = Chat::new("analysis-link").await;
    // Fool's mate in chess and in crazyhouse (nothing in hand to drop).
    for (variant, tag) in [
        ("chess", None),
        ("crazyhouse", Some("[Variant \"Crazyhouse\"]")),
    ] {
        chat.accepted("alice", "bob", variant).await;
        let out = chat
            .script(&["alice: f3", "bob: e5", "alice: g4", "bob: Qh4#"])
            .await;
        let pgn = analysis_link(&out).unwrap_or_else(|| panic!("{variant}: {out:#?}"));
        let pgn = pgn
            .strip_prefix("https://lichess.org/analysis/pgn/")
            .unwrap_or_else(|| panic!("{pgn}"));
        assert!(pgn.contains("1. f3 e5 2. g4 Qh4#"), "{variant}: {pgn}");
        assert_eq!(
            tag.is_some_and(|tag| pgn.starts_with(tag)),
            tag.is_some(),
            "{pgn}"
        );
        assert!(!pgn.contains("[White"), "only what lichess needs: {pgn}");
    }
    // Shatranj, which lichess does not play: no link.
    let (id, _) = chat.accepted("alice", "bob", "shatranj").await;
    let asked = chat.say("alice: /resign").await;
    let confirm = asked
        .iter()
        .find_map(|l| l.split_whitespace().find(|w| w.starts_with("rsg:")))
        .unwrap_or_else(|| panic!("{asked:#?}"))
        .trim_end_matches(']')
        .to_owned();
    let out = chat.say(&format!("alice: /press {confirm}")).await;
    assert!(chat.result(&id).await.is_some(), "{out:#?}");
    assert!(analysis_link(&out).is_none(), "{out:#?}");
}

/// Answers that used to read wrong (issue 32, item 8): *Decline* on a
/// challenge open to anyone says there is nothing to decline (not "meant
/// for someone else"); a late *Accept* names who took the seat; a draw
/// offered to the computer asks nobody to type /draw or press a button.
#[tokio::test]
async fn late_answers_and_offers_to_the_computer_say_what_happened() {
    let mut chat = Chat::new("late-answers").await;
    let out = chat.say("alice: /play chess").await;
    let id = game_id(&out);
    let out = chat.say(&format!("bob: /press dec:{id}")).await;
    assert!(
        has(
            &out,
            &format!("Challenge {id} is open to anyone: there is nothing for you to decline, and only alice can withdraw it.")
        ),
        "{out:#?}"
    );
    assert!(!has(&out, "meant for someone else"), "{out:#?}");
    let out = chat.say(&format!("carol: /press acc:{id}")).await;
    assert!(has(&out, "starts"), "{out:#?}");
    let out = chat.say(&format!("dave: /press acc:{id}")).await;
    assert!(
        has(
            &out,
            &format!("Challenge {id} was already taken by carol; the game is under way.")
        ),
        "{out:#?}"
    );
    let out = chat.say(&format!("dave: /accept {id}")).await;
    assert!(has(&out, "already taken by carol"), "{out:#?}");

    let out = chat.say("erin: /play chess computer level 1 white").await;
    let computer_game = game_id_of_start(&out);
    let out = chat.say(&format!("erin: /draw {computer_game}")).await;
    assert!(
        has(&out, "erin offers Kodex L1 a draw in game")
            && has(&out, "the computer answers by itself"),
        "{out:#?}"
    );
    assert!(
        !has(&out, "/press draw:") && !has(&out, "Kodex L1: /draw"),
        "{out:#?}"
    );
}

/// Russian results read naturally (issue 32, item 8): "победа чёрных
/// (bob): мат", the winner's colour declined, janggi's colours too.
#[tokio::test]
async fn a_russian_result_names_the_winning_colour_first() {
    let mut chat = Chat::new("russian-result").await;
    chat.say("alice: /lang chat ru").await;
    let out = chat.say("alice: /play chess @bob белыми").await;
    let id = game_id(&out);
    chat.say(&format!("bob: /accept {id}")).await;
    let out = chat
        .script(&["alice: f3", "bob: e5", "alice: g4", "bob: Фh4"])
        .await;
    assert!(has(&out, "0-1 — победа чёрных (bob): мат."), "{out:#?}");
    let out = chat.say("alice: /play janggi @bob синими").await;
    let id = game_id(&out);
    chat.say(&format!("bob: /accept {id}")).await;
    let out = chat.say(&format!("bob: /resign {id}")).await;
    let confirm = out
        .iter()
        .find_map(|l| l.split_whitespace().find(|w| w.starts_with("rsg:")))
        .map(|w| w.trim_end_matches(']').to_owned())
        .unwrap_or_else(|| panic!("no confirmation in {out:#?}"));
    let out = chat.say(&format!("bob: /press {confirm}")).await;
    assert!(
        has(&out, "— победа синих (alice): bob сдаётся."),
        "{out:#?}"
    );
}
