//! A refused move says why (issue 32): the plain refusal first, then the
//! reason and the legal moves of the piece named, in the player's language
//! and piece letters.

use crate::console_support::{has, Chat};

/// The refusal of `Nd2` (`Кd2`) at the start of a game on the chess board.
const OWN_PIECE_EN: &str = "“Nd2” is not legal in this position: your own piece stands on d2. \
                            Legal knight moves: Na3, Nc3, Nf3, Nh3.";
const OWN_PIECE_RU: &str = "«Кd2» — недопустимый ход в этой позиции: на d2 стоит ваша же фигура. \
                            Возможные ходы («конь»): Кa3, Кc3, Кf3, Кh3.";

#[tokio::test]
async fn a_refused_move_says_why_in_english_and_russian() {
    let mut chat = Chat::new("refusal-reasons").await;
    let id = chat.start("alice", "bob", "chess").await;
    let out = chat.say(&format!("alice: /move Nd4 {id}")).await;
    assert!(
        has(
            &out,
            "“Nd4” is not legal in this position: no knight of yours can reach d4. \
             Legal knight moves: Na3, Nc3, Nf3, Nh3."
        ),
        "{out:#?}"
    );
    let out = chat.say("alice: /move Nd2").await;
    assert!(has(&out, OWN_PIECE_EN), "{out:#?}");
    let out = chat.say("alice: /move O-O").await;
    assert!(
        has(
            &out,
            "“O-O” is not legal in this position: pieces stand between your king and rook, \
             or where they go."
        ),
        "{out:#?}"
    );
    chat.say("alice: /lang ru").await;
    let out = chat.say("alice: /move Кd4").await;
    assert!(
        has(
            &out,
            "«Кd4» — недопустимый ход в этой позиции: ни одна ваша фигура «конь» не может \
             пойти на d4. Возможные ходы («конь»): Кa3, Кc3, Кf3, Кh3."
        ),
        "{out:#?}"
    );
    let out = chat.say("alice: /move Кd2").await;
    assert!(has(&out, OWN_PIECE_RU), "{out:#?}");
    // Nothing was played.
    assert_eq!(chat.position(&id).await.ply(), 0);
}

#[tokio::test]
async fn a_pinned_piece_and_a_check_not_answered_are_named() {
    let mut chat = Chat::new("refusal-pinned").await;
    let id = chat
        .start(
            "alice",
            "bob",
            "chess fen:4k3/8/8/8/4r3/8/4N3/4K3 w - - 0 1",
        )
        .await;
    let out = chat.say("alice: /move Nc3").await;
    assert!(
        has(
            &out,
            "“Nc3” is not legal in this position: your knight is pinned: moving it would \
             expose your king."
        ),
        "{out:#?}"
    );
    chat.say("alice: /lang ru").await;
    let out = chat.say("alice: /move Кc3").await;
    assert!(
        has(
            &out,
            "«Кc3» — недопустимый ход в этой позиции: фигура «конь» связана: её ход открыл \
             бы вашего короля."
        ),
        "{out:#?}"
    );
    assert_eq!(chat.position(&id).await.ply(), 0);
}

#[tokio::test]
async fn janggi_and_crazyhouse_refusals_name_the_palace_and_the_hand() {
    let mut chat = Chat::new("refusal-janggi").await;
    chat.start(
        "alice",
        "bob",
        "janggi fen:3k5/9/9/9/9/9/9/4K4/9/9 w - - 0 1",
    )
    .await;
    let out = chat.say("alice: /move Ke4").await;
    assert!(
        has(
            &out,
            "“Ke4” is not legal in this position: the general may not leave its palace. \
             Legal general moves:"
        ),
        "{out:#?}"
    );
    let out = chat.say("alice: /move Ne2").await;
    assert!(
        has(
            &out,
            "“Ne2” is not legal in this position: you have no horse."
        ),
        "{out:#?}"
    );
    chat.say("alice: /lang ru").await;
    let out = chat.say("alice: /move Гe4").await;
    assert!(
        has(
            &out,
            "«Гe4» — недопустимый ход в этой позиции: фигура «генерал» не может покинуть дворец."
        ),
        "{out:#?}"
    );

    let mut chat = Chat::new("refusal-crazyhouse").await;
    chat.start("alice", "bob", "crazyhouse").await;
    let out = chat.say("alice: /move N@f3").await;
    assert!(
        has(
            &out,
            "“N@f3” is not legal in this position: you have no knight in hand."
        ),
        "{out:#?}"
    );
    chat.say("alice: /lang ru").await;
    let out = chat.say("alice: /move К@f3").await;
    assert!(
        has(
            &out,
            "«К@f3» — недопустимый ход в этой позиции: у вас в запасе нет фигуры «конь»."
        ),
        "{out:#?}"
    );
}

#[tokio::test]
async fn a_janggi_horse_whose_way_is_blocked_is_told_so() {
    let mut chat = Chat::new("refusal-blocked").await;
    chat.start("alice", "bob", "janggi").await;
    let out = chat.say("alice: /move Nd2").await;
    assert!(
        has(
            &out,
            "“Nd2” is not legal in this position: pieces stand in the way of your horse to d2. \
             Legal horse moves: Na3, Nc3, Ng3, Ni3."
        ),
        "{out:#?}"
    );
    chat.say("alice: /lang ru").await;
    let out = chat.say("alice: /move Кd2").await;
    assert!(
        has(
            &out,
            "«Кd2» — недопустимый ход в этой позиции: путь фигуры «конь» на d2 преграждён."
        ),
        "{out:#?}"
    );
}

#[tokio::test]
async fn a_tamerlane_rook_is_told_the_citadel_is_closed_to_it() {
    let mut chat = Chat::new("refusal-citadel").await;
    chat.start("alice", "bob", "tamerlane").await;
    let out = chat.say("alice: /move Rm2").await;
    assert!(
        has(
            &out,
            "“Rm2” is not legal in this position: your rook may not enter the citadel on m2."
        ),
        "{out:#?}"
    );
    chat.say("alice: /lang ru").await;
    let out = chat.say("alice: /move Rm2").await;
    assert!(
        has(
            &out,
            "«Rm2» — недопустимый ход в этой позиции: фигура «ладья» не может войти в цитадель m2."
        ),
        "{out:#?}"
    );
}

/// The reason is given in every variant of the standard board, in the
/// variant's own piece letters (shatranj's knight is a knight there too),
/// in English and Russian.
#[tokio::test]
async fn refusals_say_why_in_the_other_games_of_the_chess_board() {
    for variant in [
        "atomic",
        "kingofthehill",
        "threecheck",
        "antichess",
        "shatranj",
    ] {
        let mut chat = Chat::new(&format!("refusal-{variant}")).await;
        let id = chat.start("alice", "bob", variant).await;
        let out = chat.say("alice: /move Nd2").await;
        assert!(has(&out, OWN_PIECE_EN), "{variant}: {out:#?}");
        chat.say("alice: /lang ru").await;
        let out = chat.say("alice: /move Кd2").await;
        assert!(has(&out, OWN_PIECE_RU), "{variant}: {out:#?}");
        assert_eq!(chat.position(&id).await.ply(), 0, "{variant}");
    }
}

/// The rules that forbid where a move leads, and the janggi cannon's
/// screen, are named in both languages.
#[tokio::test]
async fn a_cannon_without_a_screen_and_a_check_where_none_may_be_given() {
    let mut chat = Chat::new("refusal-screen").await;
    let id = chat.start("alice", "bob", "janggi").await;
    let out = chat.say(&format!("alice: /move Cb5 {id}")).await;
    assert!(
        has(
            &out,
            "your cannon moves only by jumping over exactly one piece, and none stands on its way \
             to b5"
        ),
        "{out:#?}"
    );
    chat.say("alice: /lang ru").await;
    let out = chat.say(&format!("alice: /move Cb5 {id}")).await;
    assert!(
        has(&out, "ходит, только перепрыгивая ровно через одну фигуру"),
        "{out:#?}"
    );
    assert_eq!(chat.position(&id).await.ply(), 0);

    let id = chat
        .start(
            "carol",
            "dave",
            "racingkings fen:8/8/8/8/8/1k6/8/R6K w - - 0 1",
        )
        .await;
    let out = chat.say(&format!("carol: /move Rb1 {id}")).await;
    assert!(
        has(
            &out,
            "that move would give check, and checks are not allowed in this game"
        ),
        "{out:#?}"
    );
    chat.say("carol: /lang ru").await;
    let out = chat.say(&format!("carol: /move Лb1 {id}")).await;
    assert!(has(&out, "шахи в этой игре запрещены"), "{out:#?}");
}
