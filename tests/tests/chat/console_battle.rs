//! Battle chess through the console chat: a whole game — one player sets up
//! by a FEN fragment, the other piece by piece, a refused setup names its
//! rule (in English and Russian), ready, reveal, moves, mate — and the leak
//! test: what alice and the chat see during setup does not depend on bob's
//! secret setup, byte for byte.

use crate::console_support::{assert_revealed, assert_setup_hides_bobs_half, has, to, Chat};
use kodex_bot::store::{EndReason, Status};
use kodex_engine::Registry;

#[tokio::test]
async fn a_whole_battle_chess_game() {
    let mut chat = Chat::new("battle-game").await;
    let (id, out) = chat.accepted("alice", "bob", "battle").await;
    assert!(has(&out, "Battle chess"), "{out:#?}");
    assert!(has(&out, "is being set up"), "{out:#?}");
    assert_eq!(chat.row(&id).await.status, Status::Setup);

    // alice: her half as a FEN fragment from her side, her e-pawn already on
    // e4 and her h-pawn on the first rank — both only battle chess allows.
    let out = chat.say("alice (dm): RNBQKBNP/PPPP1PP1/8/4P3").await;
    assert!(has(&out, "still to place R"), "{out:#?}");
    let out = chat.say("alice (dm): Rh2").await;
    assert!(
        has(&out, "[@alice]") && has(&out, "is complete"),
        "{out:#?}"
    );
    assert!(!has(&out, "[#local]"), "{out:#?}");

    // bob: piece by piece; first a refusal that names the rule broken.
    let out = chat.say("bob (dm): Ke8 Qd4").await;
    assert!(
        has(&out, "[@bob] d4 is outside your setup zone (ranks 5–8)"),
        "{out:#?}"
    );
    assert!(!has(&out, "[#local]"), "{out:#?}");
    assert_eq!(chat.row(&id).await.seats[1].setup, None, "nothing kept");
    chat.say("bob: /lang ru").await;
    let out = chat.say("bob (dm): Крe4").await;
    assert!(
        has(
            &out,
            "[@bob] e4 вне вашей зоны расстановки (горизонтали 5–8)"
        ),
        "{out:#?}"
    );
    chat.say("bob: /lang en").await;
    let out = chat.say("bob (dm): Ke8 Qd8 Ra8 Rh8 Bc8 Bf8 Nb8 Ng8").await;
    assert!(has(&out, "still to place P P P P P P P P"), "{out:#?}");
    let out = chat.say("bob (dm): a7 b7 c7 d7 e7 f7 g7 h7").await;
    assert!(has(&out, "[@bob]") && has(&out, "is complete"), "{out:#?}");

    // Ready: the chat hears only who is ready.
    let out = chat.say("alice (dm): ready").await;
    let public = to(&out, "[#local]");
    assert_eq!(public.len(), 1, "{out:#?}");
    assert!(public[0].contains("alice is ready"), "{out:#?}");
    let out = chat.say("bob (dm): ready").await;
    // alice's h-pawn stands on h1.
    assert_revealed(&out, "R N B Q K B N P");
    let row = chat.row(&id).await;
    assert_eq!(row.status, Status::Active);
    assert_eq!(
        row.start_fen.as_deref(),
        Some("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPR/RNBQKBNP w Qkq - 0 1")
    );

    // The h1 pawn may only step; then a quick mate.
    let out = chat.say("alice: h3").await;
    assert!(has(&out, "“h3” is not legal"), "{out:#?}");
    chat.script(&["alice: Bc4", "bob: Nc6", "alice: Qh5", "bob: Nf6"])
        .await;
    let out = chat.say("alice: Qxf7#").await;
    assert!(
        has(&out, "alice (white) wins") && has(&out, "checkmate"),
        "{out:#?}"
    );
    let row = chat.row(&id).await;
    assert_eq!(row.status, Status::Finished);
    assert_eq!(
        row.reason.as_ref().map(EndReason::to_text),
        Some("checkmate")
    );
    assert_eq!(row.moves, "f1c4 b8c6 d1h5 g8f6 h5f7");
    // The record starts from the revealed setups.
    let out = chat.say(&format!("alice: /pgn {id}")).await;
    assert!(
        has(
            &out,
            "[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPR/RNBQKBNP w Qkq - 0 1\"]"
        ),
        "{out:#?}"
    );
}

#[tokio::test]
async fn what_alice_and_the_chat_see_does_not_depend_on_bobs_secret_setup() {
    assert_setup_hides_bobs_half(
        Registry::builtin(),
        "battle",
        "PPPPPPPP/RNBQKBNR",
        [
            "rnbqkbnr/pppppppp",
            "Kh5 Qa5 Ra8 Rh8 Bc6 Bd6 Nd5 Ne5 a7 a6 g6 b7 c7 d7 e7 f5",
        ],
    )
    .await;
}

/// Both players press *Random* (typed `random`) and get ready: the setup a
/// person is given never loses before the first move (a plain random
/// setup leaves black in check about one game in five).
#[tokio::test]
async fn random_setups_of_people_never_lose_at_the_reveal() {
    let mut chat = Chat::new("battle-random").await;
    for _ in 0..24 {
        let (id, _) = chat.accepted("alice", "bob", "battle").await;
        chat.say("alice (dm): random").await;
        chat.say("alice (dm): ready").await;
        chat.say("bob (dm): random").await;
        let out = chat.say("bob (dm): ready").await;
        assert!(!has(&out, "before the first move"), "{out:#?}");
        let row = chat.row(&id).await;
        assert_eq!(row.status, Status::Active, "{out:#?}");
        chat.say("alice: /abort").await;
    }
}

/// A Russian player is told the pieces left in Russian letters, the ones
/// they type back (Кр Ф Л С К), and what they type is read.
#[tokio::test]
async fn russian_setup_prompts_name_pieces_in_russian_letters() {
    let mut chat = Chat::new("battle-russian").await;
    chat.say("alice: /lang ru").await;
    let (_id, _) = chat.accepted("alice", "bob", "battle").await;
    let out = chat.say("alice (dm): Крe1").await;
    let line = out
        .iter()
        .find(|line| line.contains("ещё поставить"))
        .unwrap_or_else(|| panic!("{out:#?}"));
    assert!(line.contains("Ф Л Л С С К К и 8 пешек"), "{line}");
    assert!(!line.contains(" Q ") && !line.contains(" K"), "{line}");
    assert!(
        !line.contains(" P"),
        "pawns are counted, not lettered: {line}"
    );
    // Pawns are placed by their square alone; the count follows.
    let out = chat.say("alice (dm): a2").await;
    assert!(has(&out, "и 7 пешек"), "{out:#?}");
}
