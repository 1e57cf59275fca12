//! Frolov chess and Maharajah and the Sepoys through the console chat: their
//! public placement phases, the refusals only they have, and the ends only
//! they have (Frolov's first-move rule; the maharajah taken).

use crate::console_support::{has, to, Chat};
use kodex_bot::store::Status;

/// White's and black's sixteen Frolov placements: the white queen on h1
/// sees the black king on h8 up the empty h-file, and no black piece
/// attacks the white king on a1.
const WHITE: [&str; 16] = [
    "Ka1", "Qh1", "Rb1", "Rc1", "Bd1", "Be1", "Nf1", "Ng1", "a2", "b2", "c2", "d2", "e2", "f2",
    "g2", "a3",
];
const BLACK: [&str; 16] = [
    "Kh8", "Qd8", "Ra8", "Rb8", "Bc8", "Be8", "Nf8", "Ng8", "a7", "b7", "c7", "d7", "e7", "f7",
    "g7", "a6",
];

#[tokio::test]
async fn a_frolov_game_won_by_the_first_move_rule() {
    let mut chat = Chat::new("frolov-game").await;
    let (id, out) = chat.accepted("alice", "bob", "frolov").await;
    assert!(has(&out, "Frolov chess"), "{out:#?}");
    assert!(
        has(
            &out,
            "alice (white) places next: K Q R R B B N N P P P P P P P P"
        ),
        "{out:#?}"
    );
    // Frolov's zones: pawns on ranks 2–4 (white), 7–5 (black).
    let out = chat.say("alice: h5").await;
    assert!(has(&out, "A pawn may not stand on h5"), "{out:#?}");
    let mut last = Vec::new();
    for (white, black) in WHITE.iter().zip(BLACK) {
        let out = chat.say(&format!("alice: {white}")).await;
        assert!(has(&out, "alice placed"), "{white}: {out:#?}");
        last = chat.say(&format!("bob: {black}")).await;
        assert!(has(&last, "bob placed"), "{black}: {last:#?}");
    }
    // The last placement ends the game: white could take the king at once.
    let public = to(&last, "[#local]");
    assert!(
        public
            .iter()
            .any(|l| l.contains("the king could be taken at once after the placement")),
        "{last:#?}"
    );
    assert_eq!(chat.result(&id).await.as_deref(), Some("1-0"));
    let row = chat.row(&id).await;
    assert_eq!(row.status, Status::Finished);
    assert_eq!(row.moves, "");
}

#[tokio::test]
async fn a_frolov_game_in_russian_names_the_rule() {
    let mut chat = Chat::new("frolov-ru").await;
    // Placements are told in the chat's language.
    chat.say("bob: /lang chat ru").await;
    let (_, out) = chat.accepted("alice", "bob", "frolov").await;
    assert!(has(&out, "Шахматы Фролова"), "{out:#?}");
    let mut last = Vec::new();
    for (white, black) in WHITE.iter().zip(BLACK) {
        chat.say(&format!("alice: {white}")).await;
        last = chat.say(&format!("bob: {black}")).await;
    }
    assert!(
        has(&last, "после расстановки короля можно было сразу взять"),
        "{last:#?}"
    );
}

#[tokio::test]
async fn a_maharajah_game_placed_played_and_lost() {
    let mut chat = Chat::new("maharajah-game").await;
    let (id, out) = chat.accepted("alice", "bob", "maharajah").await;
    assert!(has(&out, "Maharajah and the Sepoys"), "{out:#?}");
    assert!(has(&out, "alice (white) places next: M"), "{out:#?}");
    // Black places nothing.
    let out = chat.say("bob: Ke4").await;
    assert!(has(&out, "it is alice's turn"), "{out:#?}");
    let out = chat.say("alice: Ke1").await;
    assert!(has(&out, "There is no piece K in your army"), "{out:#?}");
    let out = chat.say("alice: Me4").await;
    assert!(has(&out, "alice placed Me4"), "{out:#?}");
    assert!(has(&out, "every piece stands; play begins"), "{out:#?}");
    let row = chat.row(&id).await;
    assert_eq!(row.status, Status::Active);
    assert_eq!(
        row.start_fen.as_deref(),
        Some("rnbqkbnr/pppppppp/8/8/4M3/8/8/8 w kq - 0 1")
    );
    // The maharajah takes on e7 with check; the king takes it back.
    let out = chat.say("alice: Mxe7+").await;
    assert!(has(&out, "Mxe7+"), "{out:#?}");
    let out = chat.say("bob: Kxe7").await;
    assert!(has(&out, "no pieces left"), "{out:#?}");
    assert_eq!(chat.result(&id).await.as_deref(), Some("0-1"));
}

/// Seed 002: the maharajah stands "on any free square". Placed where it attacks the black king, it
/// gives check: black moves first and answers it.
#[tokio::test]
async fn a_maharajah_placed_giving_check_lets_black_answer_first() {
    let mut chat = Chat::new("maharajah-check").await;
    let (id, _) = chat.accepted("alice", "bob", "maharajah").await;
    let out = chat.say("alice: Md6").await;
    assert!(has(&out, "alice placed Md6"), "{out:#?}");
    assert!(has(&out, "every piece stands; play begins"), "{out:#?}");
    let row = chat.row(&id).await;
    assert_eq!(row.status, Status::Active);
    assert_eq!(
        row.start_fen.as_deref(),
        Some("rnbqkbnr/pppppppp/3M4/8/8/8/8/8 b kq - 0 1")
    );
    let out = chat.say("bob: exd6").await;
    assert!(has(&out, "no pieces left"), "{out:#?}");
    assert_eq!(chat.result(&id).await.as_deref(), Some("0-1"));
}
