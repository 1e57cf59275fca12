//! Setup phases through the console chat, on the test variant `screentest`
//! (a secret setup of the normal army within the first three ranks, pawns on
//! ranks 2–3 one per file, bishops on opposite colours): every input form,
//! refusals that name their constraint, secret views that do not depend on
//! the opponent's setup, a missed deadline, a restart, reveal and play.

use crate::console_support::{
    assert_revealed, assert_setup_hides_bobs_half, game_id, has, temp_dir, to, Chat, EPOCH,
};
use kodex_bot::store::{EndReason, Status};
use kodex_engine::Registry;

const SCREEN: &str = include_str!("../../variants/screentest.toml");

const CLASSICAL: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The pieces an answer says are still to place, sorted (`BBNN…`).
fn missing(out: &[String]) -> String {
    let line = out
        .iter()
        .find_map(|line| line.split_once("still to place ").map(|(_, rest)| rest))
        .unwrap_or_default();
    let mut letters: Vec<char> = line.chars().filter(char::is_ascii_uppercase).collect();
    letters.sort_unstable();
    letters.into_iter().collect()
}

fn registry() -> Registry {
    let mut registry = Registry::builtin();
    registry
        .add_definition("screentest.toml", SCREEN)
        .expect("test variant");
    registry
}

async fn chat(name: &str) -> Chat {
    Chat::with_registry(temp_dir(name), registry()).await
}

/// alice (white) challenges bob to `screentest` with `clock`; bob accepts.
/// Returns the game id and what the accept printed.
async fn start(chat: &mut Chat, clock: &str) -> (String, Vec<String>) {
    chat.accepted("alice", "bob", &format!("screentest {clock}"))
        .await
}

#[tokio::test]
async fn setup_by_every_input_form_then_reveal_and_play() {
    let mut chat = chat("setup-forms").await;
    let (id, out) = start(&mut chat, "").await;
    // The chat hears that the game is being set up; each player privately
    // gets instructions and their half of the board.
    assert!(has(&out, "[#local] Game"), "{out:#?}");
    assert!(has(&out, "is being set up"), "{out:#?}");
    assert!(
        !to(&out, "[#local]").iter().any(|l| l.contains("image:")),
        "{out:#?}"
    );
    for player in ["[@alice]", "[@bob]"] {
        let lines = to(&out, player);
        assert!(lines.iter().any(|l| l.contains("ready")), "{out:#?}");
        assert!(lines.iter().any(|l| l.contains("image:")), "{out:#?}");
    }
    let row = chat.row(&id).await;
    assert_eq!(row.status, Status::Setup);
    assert_eq!(
        (row.start_fen, row.deadline, row.turn_started_at),
        (None, None, None)
    );

    // Piece by piece, in plain text and with /move.
    let out = chat.say("alice (dm): Ke1 Qd1").await;
    assert!(
        has(&out, "[@alice]") && has(&out, "still to place"),
        "{out:#?}"
    );
    assert!(!has(&out, "[#local]"), "{out:#?}");
    let out = chat.say("alice (dm): /move Ra1 Rh1").await;
    assert_eq!(missing(&out), "BBNNPPPPPPPP", "{out:#?}");
    // Not ready while incomplete: the answer names what is missing.
    let out = chat.say("alice (dm): ready").await;
    assert!(has(&out, "Not ready yet: still to place"), "{out:#?}");
    assert!(!has(&out, "[#local]"), "{out:#?}");
    // Clear, then the half as a FEN fragment.
    let out = chat.say("alice (dm): clear").await;
    assert_eq!(missing(&out), "BBKNNPPPPPPPPQRR", "{out:#?}");
    let out = chat.say("alice (dm): RNBQKBNR/PPPPPPPP").await;
    assert!(has(&out, "is complete"), "{out:#?}");
    // Setup input in the group is refused without reading it.
    let out = chat.say("alice: ready").await;
    assert!(has(&out, "[@alice]") && has(&out, "in secret"), "{out:#?}");
    assert!(!chat.row(&id).await.seats[0].ready);
    // Ready: the chat learns only that.
    let out = chat.say("alice (dm): ready").await;
    let public = to(&out, "[#local]");
    assert_eq!(public.len(), 1, "{out:#?}");
    assert!(public[0].contains("alice is ready"), "{out:#?}");
    assert!(
        has(&out, "[@alice]") && has(&out, "waiting for your opponent"),
        "{out:#?}"
    );
    // A ready setup cannot change.
    let out = chat.say("alice (dm): Ke2").await;
    assert!(has(&out, "cannot be changed"), "{out:#?}");
    assert_eq!(
        chat.row(&id).await.seats[0]
            .setup
            .as_deref()
            .map(|s| s.contains("Ke1")),
        Some(true)
    );

    // bob: random, a look at the board, clear, then his half from his side.
    let out = chat.say("bob (dm): random").await;
    assert!(
        has(&out, "random setup was placed") && has(&out, "is complete"),
        "{out:#?}"
    );
    let out = chat.say("bob (dm): board").await;
    assert!(has(&out, "[@bob]") && has(&out, "image:"), "{out:#?}");
    chat.say("bob (dm): clear").await;
    let out = chat.say("bob (dm): rnbqkbnr/pppppppp").await;
    assert!(has(&out, "is complete"), "{out:#?}");
    let out = chat.say("bob (dm): ready").await;
    // Reveal: the full board in public, play starts.
    let public = to(&out, "[#local]");
    assert!(
        public.iter().any(|l| l.contains("bob is ready")),
        "{out:#?}"
    );
    assert_revealed(&out, "r n b q k b n r");
    let row = chat.row(&id).await;
    assert_eq!(row.status, Status::Active);
    assert_eq!(row.start_fen.as_deref(), Some(CLASSICAL));

    // A few moves of ordinary play.
    chat.script(&["alice: e4", "bob: e5", "alice: Nf3", "bob: Nc6"])
        .await;
    assert_eq!(chat.row(&id).await.moves, "e2e4 e7e5 g1f3 b8c6");

    // `last` repeats alice's setup in a new game, turned over to her new side.
    let out = chat.say("bob: /play screentest @alice white").await;
    let second = game_id(&out);
    chat.say(&format!("alice: /accept {second}")).await;
    let out = chat.say("alice (dm): last").await;
    assert!(
        has(&out, "last setup") && has(&out, "is complete"),
        "{out:#?}"
    );
    let row = chat.row(&second).await;
    let setup = row.seats[1].setup.clone().unwrap_or_default();
    assert!(setup.contains("Ke8") && setup.contains("Pa7"), "{setup}");
    // The first game goes on meanwhile.
    chat.say("alice: Bc4").await;
    assert_eq!(chat.row(&id).await.moves, "e2e4 e7e5 g1f3 b8c6 f1c4");
}

#[tokio::test]
async fn a_refused_setup_names_its_constraint() {
    let mut chat = chat("setup-refused").await;
    let (id, _) = start(&mut chat, "").await;
    for (text, expected) in [
        (
            "RNBQBKNR/PPPPPPPP",
            "Bishops must stand on squares of different colours",
        ),
        ("e2 e3", "Exactly one pawn per file (two on the e-file)"),
        ("Ke5", "e5 is outside your setup zone (ranks 1–3)"),
        ("e1", "A pawn may not stand on e1"),
        ("Xe2", "There is no piece X in your army"),
        ("Ke1 Qe1", "e1 is occupied"),
    ] {
        let out = chat.say(&format!("alice (dm): {text}")).await;
        assert!(
            has(&out, &format!("[@alice] {expected}")),
            "{text}: {out:#?}"
        );
        assert!(!has(&out, "[#local]"), "{out:#?}");
    }
    // Nothing of a refused input was kept (`Ke1` of the last line neither).
    assert_eq!(chat.row(&id).await.seats[0].setup, None);
    // In Russian.
    chat.say("bob: /lang ru").await;
    let out = chat.say("bob (dm): Сc8 Сe8").await;
    assert!(
        has(&out, "[@bob] Слоны должны стоять на полях разного цвета"),
        "{out:#?}"
    );
    let out = chat.say("bob (dm): готов").await;
    assert!(has(&out, "Ещё не готово"), "{out:#?}");
}

#[tokio::test]
async fn secret_views_do_not_depend_on_the_opponents_setup() {
    assert_setup_hides_bobs_half(
        registry(),
        "screentest",
        "RNBQKBNR/PPPPPPPP",
        [
            "rnbqkbnr/pppppppp",
            "Kh8 Qa8 Ra6 Rh6 Bc6 Bf6 Nd6 Ne6 a7 b7 c7 d7 e7 f7 g7 h7",
        ],
    )
    .await;
}

#[tokio::test]
async fn a_missed_deadline_gives_a_random_setup_and_starts_the_clocks() {
    let mut chat = chat("setup-deadline").await;
    let (id, out) = start(&mut chat, "3+2").await;
    assert!(has(&out, "Time to set up: 5:00"), "{out:#?}");
    let row = chat.row(&id).await;
    assert_eq!(row.deadline, Some(EPOCH + 300_000));
    assert_eq!(row.turn_started_at, None);
    chat.script(&["alice (dm): RNBQKBNR/PPPPPPPP", "alice (dm): ready"])
        .await;
    assert!(chat.advance(299_000).await.is_empty());
    let out = chat.advance(1_000).await;
    assert!(
        has(&out, "[@bob]") && has(&out, "you get a random setup"),
        "{out:#?}"
    );
    assert!(has(&out, "random setup for bob"), "{out:#?}");
    assert!(has(&out, "both setups are revealed"), "{out:#?}");
    let row = chat.row(&id).await;
    assert_eq!(row.status, Status::Active);
    assert!(row.seats[1].ready && row.seats[1].setup.is_some());
    // The clocks start as at an ordinary start: white's turn, full time.
    let now = EPOCH + 300_000;
    assert_eq!(row.turn_started_at, Some(now));
    assert_eq!(row.deadline, Some(now + 180_000));
    assert_eq!(row.remaining(0), Some(180_000));
    chat.say("alice: e4").await;
    assert_eq!(chat.row(&id).await.moves, "e2e4");
}

#[tokio::test]
async fn a_restart_during_setup_keeps_both_setups() {
    let mut chat = chat("setup-restart").await;
    let (id, _) = start(&mut chat, "3+2").await;
    chat.script(&[
        "alice (dm): Ke1 Qd1",
        "bob (dm): rnbqkbnr/pppppppp",
        "bob (dm): ready",
    ])
    .await;
    let mut chat = chat.restart().await;
    let out = chat.say("alice (dm): board").await;
    assert_eq!(missing(&out), "BBNNPPPPPPPPRR", "{out:#?}");
    let out = chat
        .say("alice (dm): Ra1 Nb1 Bc1 Bf1 Ng1 Rh1 a2 b2 c2 d2 e2 f2 g2 h2")
        .await;
    assert!(has(&out, "is complete"), "{out:#?}");
    // The scheduler of the new process still knows the setup deadline; bob's
    // ready setup stays as he made it.
    let out = chat.advance(300_000).await;
    assert!(has(&out, "random setup for alice"), "{out:#?}");
    let row = chat.row(&id).await;
    assert_eq!(row.status, Status::Active);
    let start_fen = row.start_fen.unwrap_or_default();
    assert!(start_fen.starts_with("rnbqkbnr/pppppppp/"), "{start_fen}");
}

#[tokio::test]
async fn a_side_in_check_before_the_first_move_loses() {
    let mut chat = chat("setup-check").await;
    let (id, _) = start(&mut chat, "").await;
    // White's queen on d3 looks up the open d-file at black's king on d6.
    chat.script(&[
        "alice (dm): RNB1KBNR/PPPPPPPP/3Q4",
        "alice (dm): ready",
        "bob (dm): rnbq1bnr/pppppppp/3k4",
    ])
    .await;
    let out = chat.say("bob (dm): ready").await;
    let public = to(&out, "[#local]");
    assert!(
        public
            .iter()
            .any(|l| l.contains("both setups are revealed")),
        "{out:#?}"
    );
    assert!(
        public.iter().any(|l| l.contains("alice (white) wins")
            && l.contains("bob was in check before the first move")),
        "{out:#?}"
    );
    assert!(public.iter().any(|l| l.contains("image:")), "{out:#?}");
    let row = chat.row(&id).await;
    assert_eq!(row.status, Status::Finished);
    assert_eq!(
        row.reason.as_ref().map(EndReason::to_text),
        Some("setup-check")
    );
}

#[tokio::test]
async fn board_and_abort_during_setup() {
    let mut chat = chat("setup-abort").await;
    let (id, _) = start(&mut chat, "").await;
    chat.say("alice (dm): Ke1 Qd1").await;
    // /board in the group: alice's own half, sent to her alone.
    let out = chat.say("alice: /board").await;
    assert!(!has(&out, "[#local]"), "{out:#?}");
    assert!(
        has(&out, "[@alice]") && has(&out, ". . . Q K . . ."),
        "{out:#?}"
    );
    // A game without a clock has no setup deadline: a player may abort it.
    let out = chat.say("bob: /abort").await;
    assert!(
        has(&out, "[#local]") && has(&out, "bob aborted game"),
        "{out:#?}"
    );
    assert_eq!(chat.row(&id).await.status, Status::Aborted);
    let out = chat.say("alice (dm): ready").await;
    assert!(!has(&out, "ready;"), "{out:#?}");
}
