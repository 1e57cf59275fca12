//! The battle family (VARIANTS.md, "Hidden information"): battle chess,
//! chess battle behind a screen and battle crazyhouse — each setup constraint
//! accepted and refused, random setups always legal, the first-move rules,
//! castling rights from the setup, and battle crazyhouse's house rules.

use kodex_engine::setup::{start_fen, Placement, SetupError};
use kodex_engine::{Game, MoveError, Reason, Registry, Side, Start, Team, Variant};

fn variant(id: &str) -> Variant {
    Registry::builtin()
        .get(id)
        .unwrap_or_else(|| panic!("{id} is built in"))
        .clone()
}

/// `text` applied to an empty placement of `side`.
fn try_place(variant: &Variant, side: Side, text: &str) -> Result<Placement, SetupError> {
    let mut placement = Placement::default();
    placement.apply(variant, side, text)?;
    Ok(placement)
}

fn placed(variant: &Variant, side: Side, text: &str) -> Placement {
    try_place(variant, side, text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// `text` placed for `side` and checked as a complete setup.
fn complete(variant: &Variant, side: Side, text: &str) -> Result<(), SetupError> {
    try_place(variant, side, text)?.validate(variant, side)
}

/// The game the two setups start.
fn game_of(variant: &Variant, white: &str, black: &str) -> Game {
    let white = placed(variant, Side::WHITE, white);
    let black = placed(variant, Side::BLACK, black);
    let fen = start_fen(variant, [&white, &black]).expect("setups compose");
    Game::new(variant, Start::Fen(fen.clone())).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

const CLASSICAL_WHITE: &str = "RNBQKBNR/PPPPPPPP";
const CLASSICAL_BLACK: &str = "rnbqkbnr/pppppppp";

#[test]
fn the_family_is_built_in_with_names_and_rules_in_both_languages() {
    for (id, en, ru) in [
        ("battle", "Battle chess", "Боевые шахматы"),
        (
            "chessbattle",
            "Chess battle behind a screen",
            "Шахматное сражение",
        ),
        ("battlehouse", "Battle crazyhouse", "Боевой крейзихаус"),
    ] {
        let variant = variant(id);
        assert_eq!((variant.name("en"), variant.name("ru")), (en, ru));
        assert!(variant.rules_text("en").len() > 200, "{id}");
        assert!(variant.rules_text("ru").len() > 200, "{id}");
        assert!(variant.setup().is_some(), "{id} has a setup phase");
        // Setups are secret, but once revealed play is open.
        assert!(!variant.hidden_information(), "{id}");
    }
    assert!(variant("battlehouse").has_drops());
    // From the classical setups, each plays as its parent from the start.
    for id in ["battle", "chessbattle", "battlehouse"] {
        let game = game_of(&variant(id), CLASSICAL_WHITE, CLASSICAL_BLACK);
        assert_eq!(game.perft_total(3), 8_902, "{id}");
    }
    assert_eq!(variant("боевые").id(), "battle");
}

#[test]
fn battle_setups_may_use_the_whole_half() {
    let battle = variant("battle");
    // Pawns on the first rank, several on one file, bishops on one colour,
    // pieces on the fourth rank.
    for text in [
        CLASSICAL_WHITE,
        "PPPPPPPP/RNBQKBNR",
        "RNBQKBNR/8/8/PPPPPPPP",
        "Ke1 Qd4 Ra4 Rh4 Bc1 Ba3 Nb1 Ng1 e2 e3 e4 a1 b2 c2 d2 h1",
    ] {
        assert_eq!(complete(&battle, Side::WHITE, text), Ok(()), "{text}");
    }
    // Black sets up on ranks 5–8, written from its own side.
    assert_eq!(complete(&battle, Side::BLACK, "pppppppp/rnbqkbnr"), Ok(()));
    let black = placed(&battle, Side::BLACK, "pppppppp/rnbqkbnr");
    assert!(black.pieces(&battle).contains(&("a8".to_string(), 'P')));
    // Refused: the other half, a square taken twice, an incomplete army.
    assert_eq!(
        try_place(&battle, Side::WHITE, "Ke5"),
        Err(SetupError::OutsideZone {
            square: "e5".into(),
            from: 1,
            to: 4
        })
    );
    // Black's zone is named by the board's ranks.
    assert_eq!(
        try_place(&battle, Side::BLACK, "Ke4"),
        Err(SetupError::OutsideZone {
            square: "e4".into(),
            from: 5,
            to: 8
        })
    );
    assert_eq!(
        try_place(&battle, Side::WHITE, "Ke1 Qe1"),
        Err(SetupError::Occupied("e1".into()))
    );
    assert_eq!(
        complete(&battle, Side::WHITE, "RNBQKBNR/PPPPPPP"),
        Err(SetupError::Missing("P".into()))
    );
    assert_eq!(
        try_place(&battle, Side::WHITE, "a1 a2 a3 a4 b1 b2 b3 b4 c1"),
        Err(SetupError::AllPlaced('P'))
    );
}

#[test]
fn chess_battle_setups_keep_the_screen_rules() {
    let screen = variant("chessbattle");
    for text in [
        CLASSICAL_WHITE,
        "RNBQKBNR/PPPP1PPP/4P3",
        "Ke1 Qd3 Ra1 Rh1 Bc1 Bc2 Nb1 Ng1 a2 b2 c3 d2 e3 f2 g2 h3",
    ] {
        assert_eq!(complete(&screen, Side::WHITE, text), Ok(()), "{text}");
    }
    for (text, error) in [
        (
            "Ke4",
            SetupError::OutsideZone {
                square: "e4".into(),
                from: 1,
                to: 3,
            },
        ),
        (
            "e1",
            SetupError::PawnRank {
                square: "e1".into(),
                from: 2,
                to: 3,
            },
        ),
        ("e2 e3", SetupError::PawnsShareFile('e')),
        ("Bc1 Be3", SetupError::BishopsSameColour),
    ] {
        assert_eq!(try_place(&screen, Side::WHITE, text), Err(error), "{text}");
    }
    // Black: pawns on ranks 7–6, pieces on ranks 8–6.
    assert_eq!(
        try_place(&screen, Side::BLACK, "e8"),
        Err(SetupError::PawnRank {
            square: "e8".into(),
            from: 6,
            to: 7
        })
    );
    assert_eq!(
        complete(&screen, Side::WHITE, "RNBQKBNR/PPPPPPP1"),
        Err(SetupError::Missing("P".into()))
    );
    assert_eq!(
        SetupError::PawnRank {
            square: "e8".into(),
            from: 6,
            to: 7
        }
        .to_string(),
        "a pawn may not stand on e8 (pawns: ranks 6–7)"
    );
}

#[test]
fn battle_crazyhouse_sets_up_as_battle_chess() {
    let house = variant("battlehouse");
    assert_eq!(complete(&house, Side::WHITE, "PPPPPPPP/RNBQKBNR"), Ok(()));
    assert_eq!(
        complete(&house, Side::WHITE, "Ke1 Qd1 Ra1 Rh1 Bc1 Be1x"),
        Err(SetupError::Unreadable("Be1x".into()))
    );
    assert!(matches!(
        try_place(&house, Side::WHITE, "Kd5"),
        Err(SetupError::OutsideZone { .. })
    ));
    let game = game_of(&house, CLASSICAL_WHITE, CLASSICAL_BLACK);
    assert_eq!(
        game.start_fen(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"
    );
}

/// Random setups of both sides of `id`, `count` of them: each complete and
/// valid, reading back from its text, composing a start position that
/// starts a game — over at once only by the first-move rule, mate or
/// stalemate of white.
fn random_setups_start_games(id: &str, count: u64) {
    let variant = variant(id);
    let mut over_at_once = 0;
    for seed in 0..count {
        let white = Placement::random(&variant, Side::WHITE, seed).expect("white");
        let black = Placement::random(&variant, Side::BLACK, seed ^ 0x5eed).expect("black");
        for (side, placement) in [(Side::WHITE, &white), (Side::BLACK, &black)] {
            assert_eq!(placement.validate(&variant, side), Ok(()), "{id} {seed}");
            let again = placed(&variant, side, &placement.to_text(&variant));
            assert_eq!(&again, placement, "{id} {seed}");
        }
        let fen = start_fen(&variant, [&white, &black]).expect("composes");
        let game = Game::new(&variant, Start::Fen(fen.clone()))
            .unwrap_or_else(|e| panic!("{id} {seed}: {fen}: {e}"));
        assert_eq!(game.start_fen(), fen, "{id} {seed}");
        match game.outcome() {
            None => assert!(!game.legal_moves().is_empty(), "{fen}"),
            Some(outcome) => {
                over_at_once += 1;
                assert!(
                    matches!(
                        outcome.reason,
                        Reason::CheckAtStart | Reason::Checkmate | Reason::Stalemate
                    ),
                    "{fen}: {outcome:?}"
                );
            }
        }
    }
    assert!(
        over_at_once * 2 < count,
        "{id}: {over_at_once} of {count} random games over at once"
    );
}

#[test]
fn random_setups_are_always_legal() {
    for id in ["battle", "chessbattle", "battlehouse"] {
        random_setups_start_games(id, 700);
    }
    let battle = variant("battle");
    assert_ne!(
        Placement::random(&battle, Side::WHITE, 1),
        Placement::random(&battle, Side::WHITE, 2)
    );
}

#[test]
#[ignore = "many thousands: cargo test --release -p kodex-engine --test engine battle:: -- --ignored"]
fn many_random_setups_are_always_legal() {
    for id in ["battle", "chessbattle", "battlehouse"] {
        random_setups_start_games(id, 20_000);
    }
}

#[test]
fn black_in_check_before_whites_first_move_loses_at_once() {
    let battle = variant("battle");
    // White's queen on d4 looks up the open d-file at black's king on d6.
    let game = game_of(&battle, "RNB1KBNR/PPPPPPPP/8/3Q4", "rnbq1bnr/pppppppp/3k4");
    let outcome = game.outcome().expect("over before the first move");
    assert_eq!(outcome.reason, Reason::CheckAtStart);
    assert_eq!(outcome.winner(), Some(Team(0)));
    assert!(game.legal_moves().is_empty());
    assert_eq!(game.perft_total(1), 0);
    // Both kings in check: black, not to move, loses all the same.
    let both = game_of(
        &battle,
        "RNBR1BN1/PPPPPPPP/4K3/3Q4",
        "rnb2bnr/pppppppp/3k4/4q3",
    );
    assert!(both.in_check());
    assert_eq!(
        both.outcome().map(|o| (o.reason, o.winner())),
        Some((Reason::CheckAtStart, Some(Team(0))))
    );
    // The same rule in chess battle (our decision).
    let screen = variant("chessbattle");
    let game = game_of(&screen, "RNB1KBNR/PPPPPPPP/3Q4", "rnbq1bnr/pppppppp/3k4");
    assert_eq!(game.outcome().map(|o| o.reason), Some(Reason::CheckAtStart));
}

#[test]
fn white_in_check_at_the_start_must_answer_it() {
    let battle = variant("battle");
    // Black's queen on e5 checks white's king on e3 (the e4 square empty).
    let game = game_of(&battle, "RNBQ1BNR/PPPPPPPP/4K3", "rnb1kbnr/pppppppp/8/4q3");
    assert!(game.in_check());
    assert_eq!(game.outcome(), None);
    let mut answers: Vec<String> = game
        .legal_moves()
        .into_iter()
        .map(|mv| game.uci(mv))
        .collect();
    answers.sort();
    // The king steps aside, or a piece blocks on e4; nothing else.
    assert!(answers.contains(&"e3d3".to_string()), "{answers:?}");
    assert!(
        answers.iter().all(|uci| uci.starts_with("e3")),
        "{answers:?}"
    );
}

#[test]
fn a_pawn_on_the_first_rank_steps_to_the_second_then_may_double_step() {
    let battle = variant("battle");
    // White's f-pawn on f1 (f2 and f3 free); black's g-pawn on g5.
    let mut game = game_of(&battle, "RNBQKPNR/PPPPP1PP/1B6", "rnbqkbnr/pppppp1p/8/6p1");
    let from_f1: Vec<String> = game
        .legal_moves()
        .into_iter()
        .map(|mv| game.uci(mv))
        .filter(|uci| uci.starts_with("f1"))
        .collect();
    assert_eq!(from_f1, vec!["f1f2".to_string()], "one step, never two");
    assert_eq!(game.play_text("f1f3"), Err(MoveError::Illegal));
    game.play_text("f2").expect("the step to rank 2");
    game.play_text("g4").expect("black's pawn comes to g4");
    // From the second rank the same pawn may double-step…
    game.play_text("f4").expect("double step");
    // …and en passant applies to it.
    let played = game.play_text("gxf3").expect("en passant");
    assert_eq!(played.uci, "g4f3");
    let fen = game.fen();
    let rows: Vec<&str> = fen.split('/').collect();
    assert_eq!((rows[4], rows[5]), ("8", "1B3p2"), "{fen}");
}

#[test]
fn castling_rights_come_from_king_and_rooks_on_their_classical_squares() {
    let battle = variant("battle");
    for (white, black, rights) in [
        (CLASSICAL_WHITE, CLASSICAL_BLACK, "KQkq"),
        // King on e1, rook on h1 only; black's king off e8.
        ("1NBQKBNR/PPPPPPPP/R7", "rnbkqbnr/pppppppp", "K"),
        // Rooks in the corners, king on d1: no castling.
        ("RNBKQBNR/PPPPPPPP", "rnbqkbnr/pppppppp", "kq"),
        // A rook on the fourth rank does not count.
        ("1NBQKBNR/PPPPPPPP/8/R7", "1nbqkbnr/pppppppp/8/r7", "Kk"),
        ("PPPPPPPP/RNBQKBNR", "pppppppp/rnbqkbnr", "-"),
    ] {
        let game = game_of(&battle, white, black);
        let fen = game.start_fen();
        assert_eq!(fen.split_whitespace().nth(2), Some(rights), "{fen}");
        // The FEN reads back to the same game.
        let again = Game::new(&battle, Start::Fen(fen.clone())).expect("reads back");
        assert_eq!(again.start_fen(), fen);
        assert_eq!(again.legal_moves().len(), game.legal_moves().len());
    }
    // Castling is played as usual once the way is free.
    let mut game = game_of(
        &battle,
        "R3K2R/PPPPPPPP/1NBQ1BN1",
        "r3k2r/pppppppp/1nbq1bn1",
    );
    game.play_text("O-O").expect("white castles");
    game.play_text("O-O-O").expect("black castles");
    assert!(game.fen().starts_with("2kr3r/"), "{}", game.fen());
    // Chess battle has no castling at all.
    let screen = variant("chessbattle");
    let game = game_of(&screen, CLASSICAL_WHITE, CLASSICAL_BLACK);
    assert_eq!(
        game.start_fen(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
    );
}

/// A battle-crazyhouse game from `fen` (the house rules apply from any position).
fn house(fen: &str) -> Game {
    Game::new(&variant("battlehouse"), Start::Fen(fen.to_string()))
        .unwrap_or_else(|e| panic!("{fen}: {e}"))
}

#[test]
fn a_drop_may_mate_only_on_the_board() {
    // Black: king g8 behind its pawns, nothing in the pocket. White's bishop
    // on a3 covers f8.
    let fen = "6k1/5ppp/8/8/8/B7/8/K7[R] w - - 0 1";
    let game = house(fen);
    // R@d8 would mate only because black's pocket is empty: e8 and f8 could
    // have been blocked. Not allowed.
    assert_eq!(game.parse_move("R@d8"), Err(MoveError::Illegal));
    assert_eq!(game.parse_move("R@e8"), Err(MoveError::Illegal));
    // R@f8, in contact and covered by the bishop, no drop could block: allowed.
    let mut mate = house(fen);
    let played = mate.play_text("R@f8").expect("mate on the board");
    assert_eq!(played.san, "R@f8#");
    assert_eq!(
        mate.outcome().map(|o| (o.reason, o.winner())),
        Some((Reason::Checkmate, Some(Team(0))))
    );
    // With a knight in black's pocket, R@d8 is just a check (N@e8 or N@f8 blocks).
    let mut check = house("6k1/5ppp/8/8/8/B7/8/K7[Rn] w - - 0 1");
    assert_eq!(check.play_text("R@d8").expect("a check").san, "R@d8+");
    check.play_text("N@f8").expect("the block");
    // In crazyhouse every drop-mate is allowed.
    let mut zh = Game::new(
        &variant("crazyhouse"),
        Start::Fen("6k1/5ppp/8/8/8/B7/8/K7[R] w - - 0 1".into()),
    )
    .expect("crazyhouse");
    assert_eq!(zh.play_text("R@d8").expect("mate").san, "R@d8#");
    // Perft agrees with the move list.
    let game = house(fen);
    assert_eq!(game.perft_total(1), game.legal_moves().len() as u64);
}

#[test]
fn a_knight_drop_mate_is_on_the_board() {
    // Smothered: black's king h8 walled in by its own rook and pawns; a knight
    // check cannot be blocked.
    let mut game = house("6rk/6pp/8/8/8/8/8/K7[N] w - - 0 1");
    assert_eq!(game.play_text("N@f7").expect("smothered mate").san, "N@f7#");
    assert_eq!(game.outcome().map(|o| o.reason), Some(Reason::Checkmate));
}

#[test]
fn a_promoted_pawn_returns_as_a_pawn_only_when_taken_at_once() {
    let fen = "k6r/6P1/8/8/8/8/8/K7[] w - - 0 1";
    // Taken on the very next move: a pawn for black's pocket.
    let mut game = house(fen);
    game.play_text("g8=N").expect("promotes");
    assert!(game.fen().contains("N~"), "{}", game.fen());
    game.play_text("Rxg8").expect("takes at once");
    assert!(game.fen().contains("[p]"), "{}", game.fen());
    // Taken later: the knight it became.
    let mut game = house(fen);
    for mv in ["g8=N", "Kb8", "Kb1"] {
        game.play_text(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    }
    assert!(!game.fen().contains('~'), "{}", game.fen());
    game.play_text("Rxg8").expect("takes later");
    assert!(game.fen().contains("[n]"), "{}", game.fen());
    // Crazyhouse: a pawn either way.
    let mut zh = Game::new(&variant("crazyhouse"), Start::Fen(fen.into())).expect("zh");
    for mv in ["g8=N", "Kb8", "Kb1", "Rxg8"] {
        zh.play_text(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    }
    assert!(zh.fen().contains("[p]"), "{}", zh.fen());
    // A FEN written after the promotion reads back with its mark.
    let mut game = house(fen);
    game.play_text("g8=Q+").expect("promotes with check");
    let again = house(&game.fen());
    assert_eq!(again.fen(), game.fen());
}

#[test]
fn pawns_are_not_dropped_on_the_first_or_last_rank() {
    let game = house("4k3/8/8/8/8/8/8/4K3[P] w - - 0 1");
    assert_eq!(game.parse_move("P@a1"), Err(MoveError::Illegal));
    assert_eq!(game.parse_move("P@a8"), Err(MoveError::Illegal));
    assert!(game.parse_move("P@e2").is_ok());
}
