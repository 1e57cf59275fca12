//! Public setups through the console chat, on the test variant `placetest`
//! (as in Frolov chess: king, rook and two pawns each, placed one at a time,
//! in turn, white first, anywhere; pawns on their ranks 2–4): turns, refusals,
//! random placements, a missed placement time, a restart, and play after.

use crate::console_support::{has, temp_dir, to, Chat, EPOCH};
use kodex_bot::store::Status;
use kodex_engine::Registry;

const PLACE: &str = include_str!("../../variants/placetest.toml");

async fn chat(name: &str) -> Chat {
    let mut registry = Registry::builtin();
    registry
        .add_definition("placetest.toml", PLACE)
        .expect("test variant");
    Chat::with_registry(temp_dir(name), registry).await
}

/// alice (white) challenges bob to `placetest` with `clock`; bob accepts.
async fn start(chat: &mut Chat, clock: &str) -> (String, Vec<String>) {
    chat.accepted("alice", "bob", &format!("placetest {clock}"))
        .await
}

#[tokio::test]
async fn pieces_are_placed_in_turn_in_the_chat_then_play_begins() {
    let mut chat = chat("placing-game").await;
    let (id, out) = start(&mut chat, "").await;
    // Everything happens in the chat: the empty board, who places first.
    let public = to(&out, "[#local]");
    assert!(has(&out, "one at a time, in turn"), "{out:#?}");
    assert!(
        public
            .iter()
            .any(|l| l.contains("alice (white) places next: K R P P")),
        "{out:#?}"
    );
    assert!(public.iter().any(|l| l.contains("image:")), "{out:#?}");
    assert!(!has(&out, "[@alice]") && !has(&out, "[@bob]"), "{out:#?}");
    assert_eq!(chat.row(&id).await.status, Status::Setup);

    // Out of turn, more than one piece, a taken square, a pawn off its
    // ranks: refused, nothing changes.
    let out = chat.say("bob: Ke8").await;
    assert!(has(&out, "it is alice's turn to place a piece"), "{out:#?}");
    let out = chat.say("alice: Ke1 Ra1").await;
    assert!(has(&out, "placed one at a time"), "{out:#?}");
    let out = chat.say("alice: RNBQKBNR/PPPPPPPP").await;
    assert!(has(&out, "placed one at a time"), "{out:#?}");
    let out = chat.say("alice: ready").await;
    assert!(has(&out, "placed one at a time"), "{out:#?}");
    let row = chat.row(&id).await;
    assert!(row.seats.iter().all(|seat| seat.setup.is_none()));

    let out = chat.say("alice: Ke1").await;
    let public = to(&out, "[#local]");
    assert!(
        public.iter().any(|l| l.contains("alice placed Ke1.")),
        "{out:#?}"
    );
    assert!(
        public
            .iter()
            .any(|l| l.contains("bob (black) places next: K R P P")),
        "{out:#?}"
    );
    // One board a round: after black's placement, not between.
    assert!(!public.iter().any(|l| l.contains("image:")), "{out:#?}");
    let out = chat.say("bob: Ke1").await;
    assert!(has(&out, "e1 is occupied"), "{out:#?}");
    let out = chat.say("bob: d3").await;
    assert!(has(&out, "A pawn may not stand on d3"), "{out:#?}");
    let out = chat.say("alice: Ra1").await;
    assert!(has(&out, "it is bob's turn"), "{out:#?}");

    // With /move too; a board to look at; a random placement.
    let out = chat.say("bob: /move Kc3").await;
    assert!(
        to(&out, "[#local]").iter().any(|l| l.contains("image:")),
        "the round's board: {out:#?}"
    );
    chat.script(&["alice: Ra1", "bob: d5", "alice: a2"]).await;
    let out = chat.say("bob: board").await;
    assert!(has(&out, "bob (black) places next: R P"), "{out:#?}");
    chat.script(&["bob: Rh8", "alice: b4"]).await;
    let out = chat.say("bob: random").await;
    assert!(has(&out, "at random"), "{out:#?}");
    // The last piece started play: white moves first, as in any game.
    assert!(has(&out, "every piece stands; play begins"), "{out:#?}");
    let row = chat.row(&id).await;
    assert_eq!(row.status, Status::Active);
    let start_fen = row.start_fen.clone().unwrap_or_default();
    // Black's random pawn stands somewhere on its ranks 7-5.
    assert!(start_fen.starts_with("7r/"), "{start_fen}");
    assert!(
        start_fen.ends_with("/1P6/2k5/P7/R3K3 w Q - 0 1"),
        "{start_fen}"
    );
    let out = chat.say("alice: Kf1").await;
    assert!(has(&out, "Kf1"), "{out:#?}");
    assert_eq!(chat.row(&id).await.moves, "e1f1");
}

#[tokio::test]
async fn a_whole_setup_shows_one_board_a_round() {
    let mut chat = chat("placing-rounds").await;
    let (id, out) = start(&mut chat, "").await;
    let images = |out: &[String]| {
        to(out, "[#local]")
            .iter()
            .filter(|line| line.contains("image:"))
            .count()
    };
    let mut shown = images(&out);
    assert_eq!(shown, 1, "the empty board: {out:#?}");
    // Four pieces each, placed at random in turn: eight placements.
    for round in 0..4 {
        let after_white = chat.say("alice: random").await;
        assert_eq!(images(&after_white), 0, "round {round}: {after_white:#?}");
        let after_black = chat.say("bob: random").await;
        assert_eq!(images(&after_black), 1, "round {round}: {after_black:#?}");
        shown += images(&after_black);
    }
    assert_ne!(chat.row(&id).await.status, Status::Setup, "play began");
    // The empty board, three rounds' boards and the start of play: five
    // boards for eight placements (nine before).
    assert_eq!(shown, 5);
}

#[tokio::test]
async fn a_missed_placement_time_places_the_rest_of_that_army_at_random() {
    let mut chat = chat("placing-deadline").await;
    let (id, out) = start(&mut chat, "3+2").await;
    assert!(has(&out, "Time for this placement: 1:00"), "{out:#?}");
    assert_eq!(chat.row(&id).await.deadline, Some(EPOCH + 60_000));
    // Each placement starts the next player's minute. (With black's king
    // on e8 out of reach, the random pieces cannot end the game at once.)
    chat.script(&["alice: Ke1", "bob: Ke8", "alice: Ra1"]).await;
    let row = chat.row(&id).await;
    assert_eq!(row.deadline, Some(EPOCH + 60_000));
    assert!(chat.advance(59_000).await.is_empty());
    let out = chat.advance(1_000).await;
    assert!(
        has(&out, "bob ran out of time to place") && has(&out, "at random"),
        "{out:#?}"
    );
    assert!(has(&out, "alice (white) places next: P P"), "{out:#?}");
    // From now on bob's turns are placed at once, after each of alice's.
    // (bob's random pieces may stand on a2: then h2.)
    let mut out = chat.say("alice: a2").await;
    if has(&out, "a2 is occupied") {
        out = chat.say("alice: h2").await;
    }
    assert!(has(&out, "alice placed P"), "{out:#?}");
    assert!(has(&out, "bob placed"), "{out:#?}");
    // (bob's random rook may stand on b3: then c3.)
    let mut out = chat.say("alice: b3").await;
    if has(&out, "b3 is occupied") {
        out = chat.say("alice: c3").await;
    }
    assert!(has(&out, "every piece stands; play begins"), "{out:#?}");
    let row = chat.row(&id).await;
    assert_eq!(row.status, Status::Active);
    assert_eq!(
        row.seats[1].setup.as_deref().map(|s| s.split(' ').count()),
        Some(4)
    );
    // The clocks start as at an ordinary start.
    let now = EPOCH + 60_000;
    assert_eq!(row.turn_started_at, Some(now));
    assert_eq!(row.remaining(0), Some(180_000));
}

#[tokio::test]
async fn a_restart_during_placement_keeps_the_pieces_and_the_turn() {
    let mut chat = chat("placing-restart").await;
    let (id, _) = start(&mut chat, "").await;
    chat.script(&["alice: Ke1", "bob: Ke8", "alice: Ra1"]).await;
    let mut chat = chat.restart().await;
    let out = chat.say("alice: a2").await;
    assert!(has(&out, "it is bob's turn"), "{out:#?}");
    let out = chat.say("bob: board").await;
    assert!(has(&out, "bob (black) places next: R P P"), "{out:#?}");
    chat.say("bob: Rh8").await;
    let row = chat.row(&id).await;
    assert_eq!(row.seats[0].setup.as_deref(), Some("Ke1 Ra1"));
    assert_eq!(row.seats[1].setup.as_deref(), Some("Ke8 Rh8"));
}

#[tokio::test]
async fn variants_are_listed_by_family_with_an_operators_own_under_others() {
    let mut chat = chat("placing-variants").await;
    let out = chat.say("alice: /variants").await;
    let text = out.join("\n");
    let headings = [
        "The Codex (our rule book):",
        "Hidden information and secret setups:",
        "Historical and fairy games:",
        "Games for four:",
        "Lessons (/learn):",
        "Others:",
    ];
    let at: Vec<usize> = headings
        .iter()
        .map(|heading| {
            text.find(heading)
                .unwrap_or_else(|| panic!("{heading}\n{text}"))
        })
        .collect();
    assert!(
        at.windows(2).all(|pair| pair[0] < pair[1]),
        "in order: {text}"
    );
    // Every variant once, the test variant (the operator's) last.
    for variant in chat.service.registry().all() {
        let line = format!("{} — ", variant.id());
        assert_eq!(
            out.iter()
                .filter(|l| l.contains(&line)
                    && l.split("] ")
                        .nth(1)
                        .is_some_and(|rest| rest.starts_with(&line)))
                .count(),
            1,
            "{line}\n{text}"
        );
    }
    assert!(text[at[5]..].contains("placetest — "), "{text}");
    assert!(text[at[1]..at[2]].contains("kriegspiel — "), "{text}");
    assert!(text[at[0]..at[1]].contains("fogofwar — "), "{text}");
    // The drop games are marked wherever their family lists them.
    for id in ["crazyhouse", "bughouse", "battlehouse", "whaleshogi"] {
        assert!(
            out.iter().any(|line| line.contains(&format!("] {id} — "))
                && line.ends_with("(drops: captured pieces come back into play)")),
            "{id}: {text}"
        );
    }
    assert!(!out
        .iter()
        .any(|line| line.contains("] chess — ") && line.contains("drops")));
}
