//! Full games through the console: a scripted game to a known result in the
//! variants where one is short, and a seeded random game to its end in every
//! variant the engine has.

use crate::console_support::{self, game_id, has, Chat};
use kodex_bot::store::{EndReason, GameResult, Status};

/// Plays `moves` alternately as alice (white) and bob (black) in `variant`
/// and returns the output of the last move.
async fn scripted(variant: &str, moves: &[&str]) -> (Chat, String, Vec<String>) {
    let mut chat = Chat::new(variant).await;
    let id = chat.start("alice", "bob", variant).await;
    let mut last = Vec::new();
    for (ply, mv) in moves.iter().enumerate() {
        let player = if ply % 2 == 0 { "alice" } else { "bob" };
        last = chat.say(&format!("{player}: /move {mv}")).await;
        assert!(
            has(&last, &format!("{player} played {mv}")),
            "{variant}: {mv} was not played: {last:#?}"
        );
    }
    (chat, id, last)
}

async fn assert_result(chat: &Chat, id: &str, result: &str, reason: &str) {
    let row = chat.row(id).await;
    assert_eq!(row.status, Status::Finished, "{id}");
    assert_eq!(
        row.result.as_ref().map(GameResult::to_text).as_deref(),
        Some(result),
        "{id}"
    );
    assert_eq!(
        row.reason.as_ref().map(EndReason::to_text),
        Some(reason),
        "{id}"
    );
}

#[tokio::test]
async fn chess_fools_mate() {
    let (chat, id, out) = scripted("chess", &["f3", "e5", "g4", "Qh4#"]).await;
    assert!(has(&out, "0-1 — bob (black) wins: checkmate"), "{out:#?}");
    assert_result(&chat, &id, "0-1", "checkmate").await;
}

#[tokio::test]
async fn atomic_explosion_next_to_the_king() {
    let (chat, id, out) = scripted("atomic", &["Nf3", "a6", "Ne5", "a5", "Nxf7"]).await;
    assert!(has(&out, "the king exploded"), "{out:#?}");
    assert_result(&chat, &id, "1-0", "exploded-king").await;
}

#[tokio::test]
async fn king_of_the_hill_reaches_the_centre() {
    let (chat, id, out) = scripted(
        "kingofthehill",
        &["e3", "a6", "Ke2", "a5", "Kd3", "a4", "Kd4"],
    )
    .await;
    assert!(has(&out, "the king reached the hill"), "{out:#?}");
    assert_result(&chat, &id, "1-0", "hill").await;
}

#[tokio::test]
async fn three_check_third_check_wins() {
    let moves = [
        "e4", "e5", "Qh5", "Nc6", "Qxf7+", "Kxf7", "Bc4+", "d5", "Bxd5+",
    ];
    let (chat, id, out) = scripted("threecheck", &moves).await;
    assert!(has(&out, "third check"), "{out:#?}");
    assert_result(&chat, &id, "1-0", "three-checks").await;
}

#[tokio::test]
async fn crazyhouse_drops_and_mates() {
    let (mut chat, id, _) = scripted("crazyhouse", &["e4", "d5", "exd5", "Qxd5"]).await;
    let out = chat.say("alice: P@e6").await;
    assert!(has(&out, "alice played"), "{out:#?}");
    assert!(chat.row(&id).await.moves.as_str().ends_with("P@e6"));
    assert!(has(&out, "in hand: white - · black p"), "{out:#?}");
    let (chat, id, _) = scripted("crazyhouse", &["f3", "e5", "g4", "Qh4#"]).await;
    assert_result(&chat, &id, "0-1", "checkmate").await;
}

#[tokio::test]
async fn antichess_captures_are_compulsory() {
    let (mut chat, id, _) = scripted("antichess", &["e3", "b5"]).await;
    let out = chat.say("alice: /move Nf3").await;
    assert!(has(&out, "not legal"), "{out:#?}");
    let out = chat.say("alice: /move Bxb5").await;
    assert!(has(&out, "alice played Bxb5"), "{out:#?}");
    assert_eq!(chat.row(&id).await.moves, "e2e3 b7b5 f1b5");
}

#[tokio::test]
async fn a_janggi_pass_is_typed_and_never_played_for_a_player_who_may_move() {
    // Alice passes by typing it; bob has moves of his own, so the service
    // does not pass for him (it does only where the pass is the only move).
    let (mut chat, id, out) = scripted("janggi", &["pass"]).await;
    assert!(has(&out, "bob (red) to move"), "{out:#?}");
    assert!(!has(&out, "passes"), "{out:#?}");
    assert_eq!(chat.row(&id).await.move_list().len(), 1);
    let out = chat.say("bob: /move пас").await;
    assert!(has(&out, "bob played pass"), "{out:#?}");
}

/// Janggi's sides are blue (moving first) and red, in its texts and in
/// `/play`, in both languages; chess still has no red.
#[tokio::test]
async fn janggi_speaks_of_blue_and_red() {
    let mut chat = Chat::new("janggi-colours").await;
    let out = chat.say("alice: /play janggi @bob red 5+3").await;
    assert!(has(&out, "alice plays red"), "{out:#?}");
    let id = console_support::game_id(&out);
    let out = chat.say("bob: /accept").await;
    assert!(has(&out, "bob (blue)"), "{out:#?}");
    assert!(has(&out, "alice (red)"), "{out:#?}");
    assert!(has(&out, "clock: 5+3"), "{out:#?}");
    assert!(!has(&out, "white") && !has(&out, "black"), "{out:#?}");
    let out = chat.say(&format!("alice: /abort {id}")).await;
    assert!(has(&out, "aborted"), "{out:#?}");
    chat.say("alice: /lang chat ru").await;
    let out = chat.say("alice: /play janggi @bob синими").await;
    assert!(has(&out, "alice играет синими"), "{out:#?}");
    let out = chat.say("bob: /accept").await;
    assert!(has(&out, "alice (синие)"), "{out:#?}");
    let out = chat.say("alice: /play chess @bob red").await;
    assert!(has(&out, "нет цвета «red»"), "{out:#?}");
}

/// Enochian's four army colours are `/play`'s colour words: red and
/// yellow take the first team's seats, black and blue the second's (in
/// Russian too); a colour it lacks is told the four it has.
#[tokio::test]
async fn enochian_play_takes_its_four_army_colours() {
    let mut chat = Chat::new("enochian-colours").await;
    for (word, seat) in [
        ("red", "seat 1 (red) alice"),
        ("yellow", "seat 1 (red) alice"),
        ("black", "seat 2 (black) alice"),
        ("blue", "seat 2 (black) alice"),
    ] {
        let out = chat
            .say(&format!(
                "alice: /play enochian @bob vs @carol @dave {word}"
            ))
            .await;
        assert!(has(&out, seat), "{word}: {out:#?}");
        let id = console_support::team_game_id(&out);
        chat.say(&format!("alice: /decline {id}")).await;
    }
    let out = chat
        .say("alice: /play enochian @bob vs @carol @dave green")
        .await;
    assert!(
        has(
            &out,
            "“green” is not a colour of Enochian chess: choose red, yellow, black, blue or random."
        ),
        "{out:#?}"
    );
    chat.say("alice: /lang ru").await;
    let out = chat
        .say("alice: /play enochian @bob vs @carol @dave синими")
        .await;
    assert!(has(&out, "(black) alice"), "{out:#?}");
    let out = chat.say("alice: /play janggi @bob green").await;
    assert!(
        has(&out, "выберите синие, красные или случайно"),
        "{out:#?}"
    );
}

#[tokio::test]
async fn chess960_shows_its_start_position_number() {
    let mut chat = Chat::new("chess960").await;
    let out = chat.say("alice: /play chess960 @bob white").await;
    let id = console_support::game_id(&out);
    let out = chat.say("bob: /accept").await;
    assert!(has(&out, "Start position number"), "{out:#?}");
    let game = chat.position(&id).await;
    assert!(game.chess960_number().is_some());
}

/// Plays seeded random legal moves until the game ends (or resigns after
/// `limit` half-moves) and checks the announced result against the engine.
async fn random_game(variant_id: &str, seed: u64, limit: usize) {
    let mut chat = Chat::new(&format!("random-{variant_id}")).await;
    let (id, mut last) = chat.start_set_up("alice", "bob", variant_id).await;
    let mut rng = fastrand::Rng::with_seed(seed);
    for _ in 0..limit {
        let game = chat.position(&id).await;
        if game.outcome().is_some() {
            break;
        }
        let moves = game.legal_moves();
        assert!(!moves.is_empty(), "{variant_id}: no moves but no outcome");
        let mv = game.uci(moves[rng.usize(..moves.len())]);
        let (player, place) = match (
            game.side_to_move().index(),
            game.variant().hidden_information(),
        ) {
            (0, false) => ("alice", ""),
            (_, false) => ("bob", ""),
            (0, true) => ("alice", " (dm)"),
            (_, true) => ("bob", " (dm)"),
        };
        let before = chat.row(&id).await.move_list().len();
        last = chat.say(&format!("{player}{place}: /move {mv}")).await;
        assert_eq!(
            chat.row(&id).await.move_list().len(),
            before + 1,
            "{variant_id}: {mv} not applied: {last:#?}"
        );
        if chat.row(&id).await.status != Status::Active {
            break;
        }
    }
    let game = chat.position(&id).await;
    let row = chat.row(&id).await;
    match game.outcome() {
        Some(outcome) => {
            assert_eq!(row.status, Status::Finished, "{variant_id}");
            assert_eq!(
                row.reason.as_ref().map(EndReason::to_text),
                Some(outcome.reason.key()),
                "{variant_id}"
            );
            let expected = match outcome.winner().map(|team| team.index()) {
                Some(0) => "1-0",
                Some(_) => "0-1",
                None => "1/2-1/2",
            };
            assert_eq!(
                row.result.as_ref().map(GameResult::to_text).as_deref(),
                Some(expected),
                "{variant_id}"
            );
            assert!(
                has(&last, "[#local]") && (has(&last, "wins") || has(&last, "draw")),
                "{last:#?}"
            );
        }
        None => {
            let player = if game.side_to_move().index() == 0 {
                "alice"
            } else {
                "bob"
            };
            let side = if player == "alice" { "w" } else { "b" };
            let out = chat.say(&format!("{player}: /press rsg:{id}:{side}")).await;
            assert!(has(&out, "resigned"), "{out:#?}");
            assert_eq!(chat.row(&id).await.status, Status::Finished);
        }
    }
}

#[tokio::test]
async fn every_variant_plays_a_random_game_to_its_end() {
    let registry = kodex_engine::Registry::builtin();
    // Games on two boards (bughouse) are not hosted yet; games for four
    // (four-handed chess) are played by four people in four_seats.rs.
    let ids: Vec<String> = registry
        .all()
        .iter()
        .filter(|v| v.definition().boards == 1 && v.players() == 2)
        .map(|v| v.id().to_owned())
        .collect();
    assert!(ids.len() >= 10, "{ids:?}");
    for (seed, id) in ids.iter().enumerate() {
        random_game(id, seed as u64 + 7, 300).await;
    }
}

#[tokio::test]
async fn learn_lists_the_lessons_and_each_ends_with_the_next() {
    let mut chat = Chat::new("learn").await;
    let out = chat.say("alice: /learn").await;
    for n in 1..=6 {
        assert!(has(&out, &format!("{n}. Lesson {n}")), "{out:#?}");
    }
    assert!(has(&out, "/learn 1 computer"), "{out:#?}");
    // `/learn 1 @bob` challenges bob to lesson 1, as `/play lesson1 @bob` would.
    let out = chat.say("alice: /learn 1 @bob white").await;
    let id = console_support::game_id(&out);
    chat.say(&format!("bob: /accept {id}")).await;
    assert_eq!(chat.row(&id).await.variant, "lesson1");
    let mut last = Vec::new();
    for (ply, mv) in ["a4", "h5", "a5", "h4", "a6", "h3", "axb7", "hxg2", "b8"]
        .iter()
        .enumerate()
    {
        let player = if ply % 2 == 0 { "alice" } else { "bob" };
        last = chat.say(&format!("{player}: /move {mv}")).await;
    }
    assert_result(&chat, &id, "1-0", "promotion-goal").await;
    assert!(has(&last, "Lesson 1 done"), "{last:#?}");
    assert!(has(&last, "/learn 2"), "{last:#?}");
    // In Russian, the same.
    chat.say("alice: /lang ru").await;
    let out = chat.say("alice: /learn").await;
    assert!(has(&out, "1. Урок 1"), "{out:#?}");
    // A lesson that does not exist shows the list.
    let out = chat.say("alice: /learn 9").await;
    assert!(has(&out, "6. Урок 6"), "{out:#?}");
}

#[tokio::test]
async fn shatranj_bare_king_is_announced() {
    // 1. e4?? is no double step in shatranj: refused; then a short game.
    let mut chat = Chat::new("shatranj").await;
    let id = chat.start("alice", "bob", "shatranj").await;
    let out = chat.say("alice: /move e4").await;
    assert!(has(&out, "illegal") || has(&out, "not legal"), "{out:#?}");
    assert_eq!(chat.row(&id).await.move_list().len(), 0);
    let out = chat.say("alice: /move e3").await;
    assert!(has(&out, "alice played e3"), "{out:#?}");
}

/// Types `text` as `player` and checks the move was applied; returns the output.
async fn typed(chat: &mut Chat, id: &str, player: &str, text: &str) -> Vec<String> {
    let before = chat.row(id).await.move_list().len();
    let out = chat.say(&format!("{player}: /move {text}")).await;
    assert_eq!(
        chat.row(id).await.move_list().len(),
        before + 1,
        "{text} was not applied: {out:#?}"
    );
    out
}

#[tokio::test]
async fn frankfurt_capturers_change_type_in_chat() {
    // The seed's line: 3.Nxe5 leaves a pawn; then the king takes on f7 and
    // is a crowned pawn, checked like a king.
    let (mut chat, id, _) = scripted(
        "frankfurt",
        &["e4", "e5", "Nf3", "Nf6", "Nxe5", "d6", "Bc4", "dxe5"],
    )
    .await;
    typed(&mut chat, &id, "alice", "Bxf7").await;
    typed(&mut chat, &id, "bob", "Kxf7").await;
    let fen = chat.position(&id).await.fen();
    assert!(fen.starts_with("rnbq1b1r/ppp2ypp/5n2/4p3/4P3"), "{fen}");
    typed(&mut chat, &id, "alice", "Qh5").await;
    assert!(
        chat.position(&id).await.in_check(),
        "the crowned pawn is in check"
    );
    // Moving anything that leaves it in check is refused.
    let out = chat.say("bob: /move a6").await;
    assert!(has(&out, "illegal") || has(&out, "not legal"), "{out:#?}");
}

#[tokio::test]
async fn whale_shogi_captures_go_to_hand_and_are_dropped_in_chat() {
    let mut chat = Chat::new("whaleshogi").await;
    let id = chat.start("alice", "bob", "whaleshogi").await;
    typed(&mut chat, &id, "alice", "c3").await;
    typed(&mut chat, &id, "bob", "c4").await;
    // The dolphin takes straight ahead and goes to hand.
    typed(&mut chat, &id, "alice", "c3c4").await;
    assert!(chat.position(&id).await.fen().contains("[D]"));
    typed(&mut chat, &id, "bob", "a4").await;
    typed(&mut chat, &id, "alice", "D@e4").await;
    assert!(chat.position(&id).await.fen().contains("[]"));
    // No dolphin drop on the last rank is possible for anyone.
    let out = chat.say("bob: /move D@a1").await;
    assert_eq!(chat.row(&id).await.move_list().len(), 5, "{out:#?}");
}

#[tokio::test]
async fn rules_of_the_new_historical_games_in_english_and_russian() {
    let mut chat = Chat::new("rules-historical").await;
    for (id, en) in [
        ("frankfurt", "crowned"),
        ("whaleshogi", "Killer whale"),
        ("citadel", "citadel"),
        ("tamerlane", "Giraffe"),
    ] {
        let out = chat.say(&format!("alice: /rules {id}")).await;
        assert!(has(&out, en), "{id}: {out:#?}");
    }
    chat.say("alice: /lang ru").await;
    for (id, ru) in [
        ("frankfurt", "коронованные"),
        ("whaleshogi", "Кит-убийца"),
        ("citadel", "цитадел"),
        ("tamerlane", "Жираф"),
    ] {
        let out = chat.say(&format!("alice: /rules {id}")).await;
        assert!(has(&out, ru), "{id}: {out:#?}");
    }
}

#[tokio::test]
async fn citadel_king_entering_the_opponents_citadel_draws_in_chat() {
    let mut chat = Chat::new("citadel-draw").await;
    let fen = "12/10K1/3p8/12/12/12/12/12/12/3P8/1k10/12 w - - 0 1";
    let out = chat
        .say(&format!("alice: /play citadel @bob white fen:{fen}"))
        .await;
    let id = game_id(&out);
    chat.say(&format!("bob: /accept {id}")).await;
    let out = chat.say("alice: /move Kl12").await;
    assert!(has(&out, "draw"), "{out:#?}");
    assert_result(&chat, &id, "1/2-1/2", "citadel").await;
    // A non-king on a citadel is refused with the reason.
    let out = chat
        .say("alice: /play citadel @bob white fen:12/1k10/12/12/12/12/12/12/12/12/1K10/R11 w - - 0 1")
        .await;
    assert!(has(&out, "citadel"), "{out:#?}");
}

#[tokio::test]
async fn hexagonal_plays_in_chat_and_stalemate_wins() {
    // Pawn steps in Gliński's names: e4 → e5, e7 → e6.
    let (mut chat, id, out) = scripted("hexagonal", &["e5", "e6"]).await;
    assert!(has(&out, "bob played e6"), "{out:#?}");
    assert_eq!(chat.row(&id).await.move_list().len(), 2);
    // A cell that is not on the hexagon (file j, or a7 past the a-file's six cells) is refused.
    for bad in ["j5", "a7"] {
        let out = chat.say(&format!("alice: /move {bad}")).await;
        assert_eq!(chat.row(&id).await.move_list().len(), 2, "{bad}: {out:#?}");
    }
    // Black's lone king on a6; the queen's move d2–d8 stalemates it: white wins.
    let fen = "k10/11/11/K10/11/11/11/3Q7/11/11/11 w - - 0 1";
    let out = chat
        .say(&format!("alice: /play hexagonal @bob white fen:{fen}"))
        .await;
    let id = game_id(&out);
    chat.say(&format!("bob: /accept {id}")).await;
    let out = chat.say(&format!("alice: /move Qd8 {id}")).await;
    assert!(has(&out, "stalemate"), "{out:#?}");
    assert_result(&chat, &id, "1-0", "stalemate").await;
}

#[tokio::test]
async fn hexagonal_rules_in_english_and_russian() {
    let mut chat = Chat::new("rules-hexagonal").await;
    let out = chat.say("alice: /rules hexagonal").await;
    assert!(has(&out, "Gliński") && has(&out, "91"), "{out:#?}");
    let out = chat.say("alice: /rules glinski").await;
    assert!(has(&out, "stalemating"), "{out:#?}");
    chat.say("alice: /lang ru").await;
    let out = chat.say("alice: /rules гексагональные").await;
    assert!(has(&out, "Глинского") && has(&out, "пат"), "{out:#?}");
}

#[tokio::test]
async fn tamerlane_plays_in_chat_and_a_king_in_the_opponents_citadel_draws() {
    // Typed pawns step by their square alone; the camel by its letter; the
    // black king swaps places with its pawn on g7 (once per game).
    let (chat, id, _) = scripted("tamerlane", &["g4", "g7", "Cc4", "Kg7"]).await;
    assert_eq!(chat.row(&id).await.moves, "g3g4 g8g7 d1c4 g9g7");
    assert!(chat.position(&id).await.fen().contains(" w K - "));
    // A rook may not enter black's citadel a9; the white king may, and draws.
    let fen = "1K9k1/13/13/13/13/4R8/13/13/13/13 w - - 0 1";
    let mut chat = Chat::new("tamerlane-citadel").await;
    let out = chat
        .say(&format!("alice: /play tamerlane @bob white fen:{fen}"))
        .await;
    let id = game_id(&out);
    chat.say(&format!("bob: /accept {id}")).await;
    let out = chat.say("alice: /move Re9").await;
    assert!(has(&out, "alice played Re9"), "{out:#?}");
    chat.say("bob: /move Kk10").await;
    let out = chat.say("alice: /move Ra9").await;
    assert!(has(&out, "not legal"), "{out:#?}");
    let out = chat.say("alice: /move Ka9").await;
    assert!(has(&out, "draw"), "{out:#?}");
    assert_result(&chat, &id, "1/2-1/2", "citadel").await;
    // The pawn of pawns waiting on f10 (P1) is placed on c9, where the
    // black picket on b10 it attacks can no longer move.
    let fen = "1t3P5k1/13/13/13/13/13/13/13/13/11K1 w P1 - 0 1";
    let mut chat = Chat::new("tamerlane-pawn-of-pawns").await;
    let out = chat
        .say(&format!("alice: /play tamerlane @bob white fen:{fen}"))
        .await;
    let id = game_id(&out);
    chat.say(&format!("bob: /accept {id}")).await;
    let out = chat.say("alice: /move f10c9").await;
    assert!(has(&out, "alice played f10c9"), "{out:#?}");
    assert!(chat.position(&id).await.fen().contains(" b P2 - "));
}

/// `/rules` speaks to players (issue 32, item 8): no internal words ("seed
/// 002", "Kodex's decisions where the seed is silent", "a king whose owner
/// is in check"), and the Russian rules write in Russian letters every piece
/// that Russian notation letters (Кр, Ф, К@f3), never the Latin one.
#[test]
fn rules_texts_have_no_internal_words_and_russian_rules_russian_letters() {
    let registry = kodex_engine::Registry::builtin();
    const INTERNAL: [&str; 8] = [
        "seed 0",
        "источник 0",
        "the seed",
        "Kodex's decisions",
        "Решения Kodex",
        "whose owner",
        "Our decision",
        "Наше решение",
    ];
    for variant in registry.all() {
        for lang in ["en", "ru"] {
            let text = variant.rules_text(lang);
            for word in INTERNAL {
                assert!(!text.contains(word), "{} ({lang}): «{word}»", variant.id());
            }
        }
        // A Latin capital standing for a piece: "(N)", "(C:", "N@f3", "Ke2".
        let ru: Vec<char> = variant.rules_text("ru").chars().collect();
        for (at, &letter) in ru.iter().enumerate() {
            let before = at.checked_sub(1).map(|i| ru[i]);
            let next = ru.get(at + 1).copied().unwrap_or(' ');
            let after = ru.get(at + 2).copied().unwrap_or(' ');
            let file = |c: char| ('a'..='o').contains(&c);
            let as_piece = letter.is_ascii_uppercase()
                && !before.is_some_and(|c| c.is_alphabetic() || c == '-')
                && (")@,:".contains(next)
                    || (file(next) && after.is_ascii_digit())
                    || (next == 'x' && file(after)));
            if as_piece {
                let letter = letter.to_string();
                let context: String = ru[at.saturating_sub(20)..(at + 6).min(ru.len())]
                    .iter()
                    .collect();
                assert_eq!(
                    variant.russian_san(&letter),
                    letter,
                    "{}: a Latin piece letter in the Russian rules: …{context}…",
                    variant.id()
                );
            }
        }
    }
}
