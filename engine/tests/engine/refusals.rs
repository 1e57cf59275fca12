//! Why a typed move is refused (`Game::why_illegal`): one test per reason.

use kodex_engine::{Game, Refusal, Registry, Start, Why};

/// Why `text` is refused in `variant` from `fen` (which must refuse it).
fn why(variant: &str, fen: &str, text: &str) -> Refusal {
    let registry = Registry::builtin();
    let start = if fen.is_empty() {
        Start::Standard
    } else {
        Start::Fen(fen.to_owned())
    };
    let game = Game::new(registry.get(variant).expect("built in"), start).expect("position");
    assert!(game.parse_move(text).is_err(), "{variant} {text} is legal");
    game.why_illegal(text).expect("a reason")
}

#[test]
fn no_piece_of_that_type_reaches_the_square() {
    let refusal = why("chess", "", "Nd4");
    assert_eq!(refusal.why, Why::NoneReaches);
    assert_eq!(refusal.piece, Some(("knight".to_owned(), 'N')));
    assert_eq!(refusal.square.as_deref(), Some("d4"));
    assert_eq!(refusal.legal, ["Na3", "Nc3", "Nf3", "Nh3"]);
    // From square to square: the piece standing there.
    let refusal = why("chess", "", "g1g3");
    assert_eq!(refusal.why, Why::NoneReaches);
    assert_eq!(refusal.legal, ["Nf3", "Nh3"]);
    let refusal = why("chess", "", "e3e4");
    assert_eq!(refusal.why, Why::NoPieceOn);
    assert_eq!(refusal.square.as_deref(), Some("e3"));
    let refusal = why("chess", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "Nf3");
    assert_eq!(refusal.why, Why::NoPiece);
    // A pawn: no letter; the moves of the pawns on that file are listed.
    let refusal = why("chess", "", "e5");
    assert_eq!(refusal.why, Why::NoneReaches);
    assert_eq!(refusal.piece, Some(("pawn".to_owned(), 'P')));
    assert_eq!(refusal.legal, ["e3", "e4"]);
}

#[test]
fn a_pinned_knight_is_named_pinned() {
    let refusal = why("chess", "4k3/8/8/8/4r3/8/4N3/4K3 w - - 0 1", "Nc3");
    assert_eq!(refusal.why, Why::Pinned);
    assert!(refusal.legal.is_empty());
}

#[test]
fn a_check_not_answered_and_a_king_stepping_into_check() {
    let fen = "4k3/8/8/8/8/8/4r3/R3K3 w - - 0 1";
    let refusal = why("chess", fen, "Ra2");
    assert_eq!(refusal.why, Why::InCheck);
    assert!(refusal.legal.is_empty());
    let refusal = why("chess", "4k3/8/8/8/8/8/3r4/4K3 w - - 0 1", "Kf2");
    assert_eq!(refusal.why, Why::IntoCheck);
    assert_eq!(refusal.legal, ["Kf1", "Kxd2"]);
}

#[test]
fn castling_through_or_out_of_check_without_the_right_or_blocked() {
    let through = "4k3/8/8/8/8/8/5r2/4K2R w K - 0 1";
    assert_eq!(why("chess", through, "O-O").why, Why::CastleThroughCheck);
    let out_of = "4k3/8/8/4r3/8/8/8/4K2R w K - 0 1";
    assert_eq!(why("chess", out_of, "O-O").why, Why::CastleInCheck);
    let lost = "4k3/8/8/8/8/8/8/4K2R w - - 0 1";
    assert_eq!(why("chess", lost, "0-0").why, Why::CastleNoRight);
    assert_eq!(why("chess", through, "O-O-O").why, Why::CastleNoRight);
    assert_eq!(why("chess", "", "O-O").why, Why::CastleBlocked);
}

#[test]
fn a_drop_of_nothing_in_hand() {
    let refusal = why("crazyhouse", "", "N@f3");
    assert_eq!(refusal.why, Why::NotInHand);
    assert_eq!(refusal.piece, Some(("knight".to_owned(), 'N')));
    assert_eq!(why("chess", "", "N@f3").why, Why::NoDrops);
}

#[test]
fn the_janggi_general_stays_in_its_palace() {
    let fen = "3k5/9/9/9/9/9/9/4K4/9/9 w - - 0 1";
    let refusal = why("janggi", fen, "Ke4");
    assert_eq!(refusal.why, Why::Palace);
    assert_eq!(refusal.piece, Some(("general".to_owned(), 'K')));
    assert!(refusal.legal.contains(&"Kd3".to_owned()), "{refusal:?}");
    // Out of check by passing: no.
    let check = "3k5/9/9/9/9/9/9/9/4K4/4r4 w - - 0 1";
    assert_eq!(why("janggi", check, "pass").why, Why::InCheck);
}

#[test]
fn capturing_is_compulsory_in_antichess() {
    let refusal = why("antichess", "8/8/8/8/8/8/8/nR6 w - - 0 1", "Rb2");
    assert_eq!(refusal.why, Why::MustCapture);
    assert_eq!(refusal.legal, ["Rxa1"]);
}

#[test]
fn kriegspiel_keeps_its_plain_impossible() {
    let registry = Registry::builtin();
    let game = Game::new(
        registry.get("kriegspiel").expect("built in"),
        Start::Standard,
    )
    .expect("start");
    assert_eq!(game.why_illegal("Nd4"), None);
}

#[test]
fn tamerlane_pawns_are_named_pawns_and_its_pieces_by_their_names() {
    let refusal = why("tamerlane", "", "e5");
    assert_eq!(refusal.why, Why::NoneReaches);
    assert_eq!(refusal.piece, Some(("pawn".to_owned(), 'P')));
    let refusal = why("tamerlane", "", "Ze5");
    assert_eq!(refusal.why, Why::NoneReaches);
    assert_eq!(
        refusal.piece.map(|(name, _)| name).as_deref(),
        Some("giraffe")
    );
}

#[test]
fn fog_of_war_refusals_read_the_players_own_moves() {
    // The knight on e2 is pinned by a rook in the fog only if it is there:
    // fog of war knows its legal moves, and so the pin.
    let refusal = why("fogofwar", "4k3/8/8/8/4r3/8/4N3/4K3 w - - 0 1", "Nc3");
    assert_eq!(refusal.why, Why::Pinned);
    let refusal = why("fogofwar", "", "Nd4");
    assert_eq!(refusal.why, Why::NoneReaches);
    assert_eq!(refusal.legal, ["Na3", "Nc3", "Nf3", "Nh3"]);
}

#[test]
fn an_own_piece_on_the_square_and_a_promotion_not_allowed() {
    let refusal = why("chess", "", "Nd2");
    assert_eq!(refusal.why, Why::OwnPieceThere);
    assert_eq!(refusal.square.as_deref(), Some("d2"));
    assert_eq!(refusal.legal, ["Na3", "Nc3", "Nf3", "Nh3"]);
    let fen = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1";
    let refusal = why("chess", fen, "a8=K");
    assert_eq!(refusal.why, Why::Promotion);
    assert!(refusal.legal.contains(&"a8=Q".to_owned()), "{refusal:?}");
    let refusal = why("chess", fen, "a7a8k");
    assert_eq!(refusal.why, Why::Promotion);
}

#[test]
fn a_blocked_way_is_named_but_not_in_the_fog() {
    // The janggi horse on b1 would go to d2 over c1, where the elephant stands.
    let refusal = why("janggi", "", "Nd2");
    assert_eq!(refusal.why, Why::Blocked);
    assert_eq!(
        refusal.piece.map(|(name, _)| name).as_deref(),
        Some("horse")
    );
    // The rook behind its own pawn; a pawn before an enemy pawn.
    assert_eq!(why("chess", "", "Ra4").why, Why::Blocked);
    let fen = "4k3/8/8/4p3/4P3/8/8/4K3 w - - 0 1";
    assert_eq!(why("chess", fen, "e5").why, Why::Blocked);
    // In the fog what blocks may be unseen: no reaching there, no more.
    assert_eq!(why("fogofwar", fen, "e5").why, Why::NoneReaches);
    // A knight's leap is never blocked.
    assert_eq!(why("chess", "", "Nd4").why, Why::NoneReaches);
}

#[test]
fn a_tamerlane_rook_may_not_enter_a_citadel() {
    let refusal = why("tamerlane", "", "Rm2");
    assert_eq!(refusal.why, Why::Citadel);
    assert_eq!(refusal.square.as_deref(), Some("m2"));
}

#[test]
fn a_check_is_refused_where_checks_are_not_allowed() {
    // Racing kings: the rook on a1 would check the black king on b3.
    let refusal = why("racingkings", "8/8/8/8/8/1k6/8/R6K w - - 0 1", "Rb1");
    assert_eq!(refusal.why, Why::GivesCheck);
    assert_eq!(refusal.piece, Some(("rook".to_owned(), 'R')));
    assert!(refusal.legal.contains(&"Rc1".to_owned()), "{refusal:?}");
    assert!(!refusal.legal.contains(&"Ra3".to_owned()), "{refusal:?}");
}

#[test]
fn facing_generals_must_be_parted_in_janggi() {
    // Bikjang: the generals face each other on the e-file; a chariot's
    // move elsewhere leaves them facing.
    let fen = "9/4k4/9/9/9/9/R8/9/4K4/9 w - - 0 1";
    let refusal = why("janggi", fen, "Ra5");
    assert_eq!(refusal.why, Why::Facing);
    assert_eq!(refusal.piece, Some(("chariot".to_owned(), 'R')));
    // Stepping along the file keeps the facing too.
    assert_eq!(why("janggi", fen, "Ke3").why, Why::Facing);
}

#[test]
fn a_dolphin_drop_may_not_mate_in_whale_shogi() {
    // A dolphin on a5 would mate the white whale of black on a6.
    let refusal = why("whaleshogi", "kh4/6/1O4/6/6/5K[D] w - - 0 1", "D@a5");
    assert_eq!(refusal.why, Why::DropMate);
    assert_eq!(refusal.square.as_deref(), Some("a5"));
}

#[test]
fn a_janggi_cannon_needs_a_screen() {
    // A lone cannon on b3 with nothing to jump over goes nowhere.
    let fen = "4k4/9/9/9/9/9/9/1C7/9/4K4 w - - 0 1";
    let refusal = why("janggi", fen, "Cb5");
    assert_eq!(refusal.why, Why::NeedsScreen);
    assert_eq!(
        refusal.piece.map(|(name, _)| name),
        Some("cannon".to_owned())
    );
    // With a screen it jumps, but only over one piece.
    let screened = "4k4/9/9/9/9/1P7/9/1C7/9/4K4 w - - 0 1";
    assert_eq!(why("janggi", screened, "Cb4").why, Why::NeedsScreen);
}
