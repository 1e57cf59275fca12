//! Kriegspiel through the console: moves by private message, the referee's
//! announcements to both players and the chat, impossible attempts that keep
//! the turn, a game to mate with the whole record public after it — and the
//! information rule: two games that differ only in what bob cannot know give
//! bob and the chat identical texts and images.

use crate::console_support::{has, to, told, told_bob_and_chat, Chat};

#[tokio::test]
async fn a_kriegspiel_game_to_mate_with_an_impossible_attempt_each() {
    let mut chat = Chat::new("kriegspiel-game").await;
    let id = chat.start("alice", "bob", "kriegspiel").await;
    // Moves are taken only in private, before they are read.
    let out = chat.say("alice: e4").await;
    assert!(
        has(&out, "[@alice]") && has(&out, "private chat"),
        "{out:#?}"
    );
    assert_eq!(chat.row(&id).await.moves, "");

    let out = chat.say("alice (dm): e4").await;
    assert!(
        has(&out, &format!("[@alice] {id}: you played e4")),
        "{out:#?}"
    );
    assert!(
        has(&out, &format!("[#local] {id}: alice (white) has moved.")),
        "{out:#?}"
    );
    assert!(
        has(&out, &format!("[@bob] {id}: alice (white) has moved.")),
        "{out:#?}"
    );
    assert!(
        !to(&out, "[@bob]")
            .iter()
            .any(|l| l.replace(&id, "ID").contains("e4")),
        "{out:#?}"
    );
    assert!(
        !to(&out, "[#local]").iter().any(|l| l.contains("image:")),
        "{out:#?}"
    );
    assert!(
        to(&out, "[@bob]").iter().any(|l| l.contains("image:")),
        "{out:#?}"
    );
    chat.say("bob (dm): e5").await;

    // What her own pieces cannot do is an error, and nobody else hears of it.
    let before = chat.row(&id).await;
    let out = chat.say("alice (dm): Qd8").await;
    assert!(has(&out, "not a move your pieces can make"), "{out:#?}");
    assert!(to(&out, "[#local]").is_empty() && to(&out, "[@bob]").is_empty());
    assert_eq!(chat.row(&id).await.moves, before.moves);

    // An impossible attempt: "impossible" to her, announced to all, her turn still.
    let out = chat.say("alice (dm): e5").await;
    assert!(
        has(&out, &format!("[@alice] {id}: “e5” is impossible")),
        "{out:#?}"
    );
    let announced = format!("{id}: alice (white) tried an impossible move.");
    assert!(has(&out, &format!("[#local] {announced}")), "{out:#?}");
    assert!(has(&out, &format!("[@bob] {announced}")), "{out:#?}");
    assert!(!out.iter().any(|l| l.contains("image:")), "{out:#?}");
    assert!(
        !to(&out, "[@bob]")
            .iter()
            .any(|l| l.replace(&id, "ID").contains("e5")),
        "{out:#?}"
    );
    assert_eq!(chat.row(&id).await.moves, "e2e4 e7e5 e4e5?");
    let out = chat.say("bob (dm): /move Nc6").await;
    assert!(has(&out, "not your turn"), "{out:#?}");

    chat.say("alice (dm): Bc4").await;
    let out = chat.say("bob (dm): exd4").await;
    assert!(
        has(&out, "bob (black) tried an impossible move"),
        "{out:#?}"
    );
    chat.say("bob (dm): Nc6").await;
    chat.say("alice (dm): Qh5").await;
    chat.say("bob (dm): Nf6").await;

    // Mate: the capture square, the check's direction, then the whole game.
    let out = chat.say("alice (dm): Qf7").await;
    let public: Vec<&String> = to(&out, "[#local]");
    assert!(
        has(
            &out,
            &format!("[#local] {id}: alice (white) captures on f7.")
        ),
        "{out:#?}"
    );
    assert!(
        has(
            &out,
            &format!("[#local] {id}: check on the short diagonal.")
        ),
        "{out:#?}"
    );
    assert!(has(&out, "checkmate"), "{out:#?}");
    let record =
        "1. e4 e5 {impossible e4e5} 2. Bc4 {impossible e5d4} 2... Nc6 3. Qh5 Nf6 4. Qxf7# 1-0";
    let flat = |lines: &[&String]| {
        lines
            .iter()
            .map(|l| l.split_once("] ").map_or(l.as_str(), |(_, text)| text))
            .collect::<Vec<_>>()
            .join(" ")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert!(flat(&public).contains(record), "{public:#?}");
    assert!(public.iter().any(|l| l.contains("image:")), "{public:#?}");
    let out = chat.say("carol: /pgn").await;
    assert!(
        flat(&out.iter().collect::<Vec<_>>()).contains(record),
        "{out:#?}"
    );
    assert_eq!(chat.result(&id).await.as_deref(), Some("1-0"));
}

#[tokio::test]
async fn the_referee_speaks_russian_to_a_russian_chat() {
    let mut chat = Chat::new("kriegspiel-ru").await;
    let id = chat.start("alice", "bob", "kriegspiel").await;
    chat.say("bob (dm): /lang ru").await;
    let out = chat.say("alice (dm): e4").await;
    assert!(
        has(&out, &format!("[@bob] {id}: ход alice (белые) сделан.")),
        "{out:#?}"
    );
    let out = chat.say("bob (dm): d5").await;
    assert!(
        has(
            &out,
            &format!("[@bob] {id}: у alice (белые) 1 пешечная попытка.")
        ),
        "{out:#?}"
    );
    assert!(
        has(
            &out,
            &format!("[@alice] {id}: alice (white) has 1 pawn try.")
        ),
        "{out:#?}"
    );
}

/// Plays alice's turns (each a list of lines: impossible attempts, then her
/// move) against the same input from bob; returns all that bob and the chat
/// were told.
async fn play(name: &str, alice: &[&[&str]]) -> Vec<(String, Vec<u8>)> {
    // Bob answers the same whatever alice did, and tries input of every kind:
    // an impossible attempt, what his pieces cannot do, nonsense, boards.
    let bob = [
        vec!["bob (dm): h6"],
        vec![
            "bob (dm): hxg5",
            "bob (dm): Qxh2",
            "bob (dm): e9",
            "bob (dm): exd4",
            "bob (dm): a6",
        ],
        vec!["bob: /board", "bob (dm): /board", "bob (dm): a5"],
        vec!["carol: /board", "carol: /pgn", "bob (dm): h5"],
    ];
    let seen = told_bob_and_chat(name, "kriegspiel 5+3", alice, &bob).await;
    for who in ["alice (white)", "bob (black)"] {
        let attempt = format!("{who} tried an impossible move");
        assert!(
            seen.iter().any(|(line, _)| line.contains(&attempt)),
            "{seen:#?}"
        );
    }
    seen
}

#[tokio::test]
async fn two_kriegspiel_games_that_differ_only_in_alices_pieces_tell_bob_the_same() {
    let first = play(
        "krieg-identity-a",
        &[&["e4"], &["exd5", "Nf3"], &["Nc3"], &["a3"]],
    )
    .await;
    let second = play(
        "krieg-identity-b",
        &[&["d4"], &["dxe5", "Nh3"], &["Na3"], &["b3"]],
    )
    .await;
    assert_eq!(first.len(), second.len());
    for ((line_a, image_a), (line_b, image_b)) in first.iter().zip(&second) {
        assert_eq!(line_a, line_b);
        assert!(image_a == image_b, "the images differ after {line_a}");
    }
}

#[tokio::test]
async fn an_impossible_attempt_leaves_the_clock_running() {
    let mut chat = Chat::new("kriegspiel-clock").await;
    let id = chat.start("alice", "bob", "kriegspiel 5+3").await;
    chat.say("alice (dm): e4").await;
    chat.say("bob (dm): e5").await;
    let before = chat.row(&id).await;
    chat.time.advance(10_000);
    let out = chat.say("alice (dm): e5").await;
    assert!(has(&out, "is impossible"), "{out:#?}");
    let after = chat.row(&id).await;
    // The turn is still hers: her clock runs on from when it started.
    assert_eq!(after.deadline, before.deadline);
    assert_eq!(after.turn_started_at, before.turn_started_at);
    assert_eq!(after.remaining(0), before.remaining(0));
}

/// A Kriegspiel game from a secret setup in which alice sets up `alice_setup`
/// and plays `alice_moves`, bob the same setup and moves every time; returns
/// all that bob and the chat were told, from the accept on.
async fn from_setup(name: &str, alice_setup: &str, alice_moves: &[&str]) -> Vec<(String, Vec<u8>)> {
    let mut chat = Chat::new(name).await;
    let (id, out) = chat.accepted("alice", "bob", "kriegspielbattle 5+3").await;
    let mut seen = told(&chat, &id, &out, "[@bob]");
    seen.extend(told(&chat, &id, &out, "[#local]"));
    for line in ["bob (dm): rnbqkbnr/pppppppp", "bob (dm): ready"] {
        let out = chat.say(line).await;
        seen.extend(told(&chat, &id, &out, "[@bob]"));
        seen.extend(told(&chat, &id, &out, "[#local]"));
    }
    chat.say(&format!("alice (dm): {alice_setup}")).await;
    let out = chat.say("alice (dm): ready").await;
    // Play starts without revealing anything: bob's board holds his pieces.
    assert!(
        has(&out, "each keeps seeing only their own pieces"),
        "{out:#?}"
    );
    assert!(!has(&out, "revealed"), "{out:#?}");
    seen.extend(told(&chat, &id, &out, "[@bob]"));
    seen.extend(told(&chat, &id, &out, "[#local]"));
    for (alice, bob) in alice_moves.iter().zip(["h6", "h5", "g6"]) {
        chat.time.advance(1_500);
        let out = chat.say(&format!("alice (dm): {alice}")).await;
        assert!(has(&out, "you played"), "{alice}: {out:#?}");
        seen.extend(told(&chat, &id, &out, "[@bob]"));
        seen.extend(told(&chat, &id, &out, "[#local]"));
        chat.time.advance(2_000);
        for line in ["bob: /board".to_string(), format!("bob (dm): {bob}")] {
            let out = chat.say(&line).await;
            seen.extend(told(&chat, &id, &out, "[@bob]"));
            seen.extend(told(&chat, &id, &out, "[#local]"));
        }
    }
    assert!(
        seen.iter().filter(|(_, image)| !image.is_empty()).count() >= 4,
        "bob must have been sent boards"
    );
    seen
}

#[tokio::test]
async fn two_kriegspiel_games_from_different_secret_setups_tell_bob_the_same() {
    let first = from_setup("krieg-setup-a", "RNBQKBNR/PPPPPPPP", &["Nc3", "a3", "Nb1"]).await;
    let second = from_setup(
        "krieg-setup-b",
        "RNBKQBNR/PPP1PPPP/3P4",
        &["Nf3", "h3", "Ng1"],
    )
    .await;
    assert_eq!(first.len(), second.len());
    for ((line_a, image_a), (line_b, image_b)) in first.iter().zip(&second) {
        assert_eq!(line_a, line_b);
        assert!(image_a == image_b, "the images differ after {line_a}");
    }
}
