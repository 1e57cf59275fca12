//! Time travel (Codex 03) through the console: a jump with its move in one
//! message, a jump alone and its move after it, refusals that name the rule
//! (in English and Russian), charges running out, and the record that
//! replays the whole tree.

use crate::console_support::{has, last_image, to, Chat};

#[tokio::test]
async fn a_game_with_two_jumps() {
    let mut chat = Chat::new("time-travel").await;
    let id = chat.start("alice", "bob", "timetravel 5+3").await;
    chat.script(&["alice: e4", "bob: e5", "alice: Nf3", "bob: Nc6"])
        .await;

    // Back one of her moves with the knight, and d4 in the new timeline.
    let out = chat.say("alice: T-1:Nf3 d4").await;
    let public = to(&out, "[#local]");
    assert!(
        public
            .iter()
            .any(|l| l.contains("alice travels in time: T-1:Nf3 (1 time charge left).")),
        "{out:#?}"
    );
    assert!(has(&out, "alice played d4"), "{out:#?}");
    assert!(public.iter().any(|l| l.contains("image:")), "{out:#?}");
    // The strips show the charges left.
    let game = chat.position(&id).await;
    assert_eq!(game.charges(kodex_engine::Side::WHITE), Some(1));
    let jump = game.last_turn_jump().expect("the jump");
    assert_eq!(jump.vanished, Some(6), "from g1");
    assert_eq!(jump.appeared, 21, "to f3");
    assert_eq!(chat.row(&id).await.moves, "e2e4 e7e5 g1f3 b8c6 t1f3 d2d4");
    chat.say("bob: exd4").await;

    // A jump back one move with a piece that stood there then: refused.
    let out = chat.say("alice: T-1:Nf3").await;
    assert!(
        has(
            &out,
            "The jump T-1:Nf3 is not possible: the piece stood on that square then already."
        ),
        "{out:#?}"
    );
    // A jump alone: the turn stays hers, then her move.
    let out = chat.say("alice: T-2:e4").await;
    assert!(
        has(&out, "alice travels in time: T-2:e4 (0 time charges left)."),
        "{out:#?}"
    );
    assert!(has(&out, "alice (white) to move"), "{out:#?}");
    let out = chat.say("bob: /move Nc6").await;
    assert!(has(&out, "not your turn"), "{out:#?}");
    let out = chat.say("alice: T-1:e4").await;
    assert!(has(&out, "You have jumped: now make your move"), "{out:#?}");
    let out = chat.say("alice: d4").await;
    assert!(has(&out, "alice played d4"), "{out:#?}");
    chat.say("bob: Nc6").await;

    // No charges left, said in Russian.
    chat.say("alice: /lang ru").await;
    let out = chat.say("alice: T-1:d4 Nf3").await;
    assert!(has(&out, "у вас не осталось зарядов времени"), "{out:#?}");

    let row = chat.row(&id).await;
    assert_eq!(
        row.moves,
        "e2e4 e7e5 g1f3 b8c6 t1f3 d2d4 e5d4 t2e4 d2d4 b8c6"
    );
    // The record rebuilds the game, timelines included.
    let game = chat.position(&id).await;
    assert_eq!(game.timelines().len(), 2);
    assert_eq!(game.charges(kodex_engine::Side::WHITE), Some(0));
    assert_eq!(game.charges(kodex_engine::Side::BLACK), Some(2));
    // The PGN keeps every line, and the animation every action: the start
    // and the ten entries of the record, jumps included (the present line
    // alone would be three frames). Each frame has its graphic control block.
    let out = chat.say("carol: /pgn").await;
    assert!(has(&out, "[TimeTravel"), "{out:#?}");
    let gif = chat.dir.join("boards").join(format!("{id}.gif"));
    let bytes = std::fs::read(&gif).unwrap_or_else(|e| panic!("{}: {e}", gif.display()));
    let frames = bytes.windows(3).filter(|w| w == b"\x21\xf9\x04").count();
    assert!(frames >= 11, "{frames} frames");
}

/// Width and height of a PNG, from its header.
fn png_size(bytes: &[u8]) -> (u32, u32) {
    kodex_tests::image_header::image_size(bytes).expect("a PNG")
}

#[tokio::test]
async fn the_timeline_shows_the_present_board_over_every_abandoned_line() {
    let mut chat = Chat::new("time-travel-timeline").await;
    let id = chat.start("alice", "bob", "timetravel").await;
    chat.script(&["alice: e4", "bob: e5", "alice: Nf3", "bob: Nc6"])
        .await;

    // No jump yet: the present board and a note.
    let out = chat.say("carol: /timeline").await;
    assert!(
        has(&out, &format!("Game {id} has no abandoned timeline yet")),
        "{out:#?}"
    );
    let alone = png_size(&last_image(&chat, &out));
    let out = chat.say("carol: /board").await;
    assert_eq!(png_size(&last_image(&chat, &out)), alone);

    // Two jumps, one each: two small boards under the present one.
    chat.script(&["alice: T-1:Nf3 d4", "bob: T-1:e5 d6"]).await;
    let out = chat.say(&format!("carol: /timeline {id}")).await;
    assert!(has(&out, "2 abandoned timelines"), "{out:#?}");
    let (width, height) = png_size(&last_image(&chat, &out));
    assert_eq!(width, alone.0, "two small boards side by side");
    assert!(height > alone.1 + alone.1 / 3, "{height} vs {}", alone.1);
    assert!(width + height <= 10_000 && height <= 20 * width);
    // Showing changes nothing.
    assert_eq!(
        chat.row(&id).await.moves,
        "e2e4 e7e5 g1f3 b8c6 t1f3 d2d4 t1e5 d7d6"
    );

    // A game without time travel is refused, and nothing is drawn.
    let chess = chat.start("dave", "erin", "chess").await;
    let out = chat.say(&format!("dave: /timeline {chess}")).await;
    assert!(
        has(&out, &format!("Game {chess} is not a time-travel game")),
        "{out:#?}"
    );
    assert!(!out.iter().any(|l| l.contains("image:")), "{out:#?}");
    // In a Russian chat, in Russian.
    chat.say("carol: /lang chat ru").await;
    let out = chat.say(&format!("carol: /timeline {id}")).await;
    assert!(has(&out, "2 оставленные линии времени"), "{out:#?}");
    let out = chat.say(&format!("carol: /timeline {chess}")).await;
    assert!(
        has(&out, &format!("Партия {chess} — не путешествие во времени")),
        "{out:#?}"
    );
}

#[tokio::test]
async fn a_takeback_undoes_a_whole_jump_turn_or_a_pending_jump() {
    let mut chat = Chat::new("time-travel-takeback").await;
    let id = chat.start("alice", "bob", "timetravel").await;
    chat.script(&["alice: e4", "bob: e5", "alice: T-1:e4 d4"])
        .await;
    assert_eq!(chat.row(&id).await.moves, "e2e4 e7e5 t1e4 d2d4");

    // The jump and its move go together: charge back, timeline gone.
    let out = chat.script(&["alice: /takeback", "bob: /takeback"]).await;
    assert!(has(&out, "taken back"), "{out:#?}");
    assert_eq!(chat.row(&id).await.moves, "e2e4 e7e5");
    let game = chat.position(&id).await;
    assert_eq!(game.charges(kodex_engine::Side::WHITE), Some(2));
    assert!(game.timelines().is_empty());
    assert_eq!(game.side_to_move(), kodex_engine::Side::WHITE);

    // A jump alone, taken back by the jumper before the move.
    chat.say("alice: T-1:e4").await;
    assert!(chat.position(&id).await.pending_jump().is_some());
    chat.script(&["alice: /takeback", "bob: /takeback"]).await;
    assert_eq!(chat.row(&id).await.moves, "e2e4 e7e5");
    let game = chat.position(&id).await;
    assert!(game.pending_jump().is_none());
    assert_eq!(game.charges(kodex_engine::Side::WHITE), Some(2));

    // Bob takes back his move while alice's jump waits: both go.
    chat.say("alice: T-1:e4").await;
    chat.script(&["bob: /takeback", "alice: /takeback"]).await;
    assert_eq!(chat.row(&id).await.moves, "e2e4");
    let game = chat.position(&id).await;
    assert_eq!(game.side_to_move(), kodex_engine::Side::BLACK);
    assert_eq!(game.charges(kodex_engine::Side::WHITE), Some(2));
    let out = chat.say("bob: e5").await;
    assert!(has(&out, "bob played e5"), "{out:#?}");
}
