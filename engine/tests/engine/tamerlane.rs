//! Tamerlane chess (VARIANTS.md, seed 000): each piece's move, the typed
//! pawns' promotions, the citadels (only kings, only the opponent's, a draw
//! on entry), stalemate losing, and random games that end without a panic.
//! Positions are made by hand; expected moves are worked out from the rules.

use crate::common::{legal, SplitMix};
use kodex_engine::{Game, Reason, Registry, Start, Team};

fn game(fen: &str) -> Game {
    let registry = Registry::builtin();
    let variant = registry.get("tamerlane").expect("tamerlane is built in");
    Game::new(variant, Start::Fen(fen.to_string())).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The destinations of the piece on `from`, sorted.
fn targets(game: &Game, from: &str) -> Vec<String> {
    legal(game)
        .into_iter()
        .filter_map(|m| m.strip_prefix(from).map(str::to_string))
        .collect()
}

/// A position with the white king on l1 and the black king on l10 (both out
/// of the way), white to move, and the given rows in between: a FEN of
/// ranks 9 down to 2 for the middle of the board.
fn with_kings(middle: &str) -> String {
    format!("11k1/{middle}/11K1 w - - 0 1")
}

#[test]
fn the_start_position_has_its_51_moves() {
    let registry = Registry::builtin();
    let g = Game::new(registry.get("tamerlane").unwrap(), Start::Standard).unwrap();
    // Eleven pawn steps; knights c2 and k2 three each (b4 d4 e1, i1 j4 l4);
    // camels d1 and j1 two each (c4 e4, i4 k4); the general f2 to e1 and g1;
    // the king g2 to g1. Everything else is blocked. And the king's swap
    // with any of the other 27 pieces (6 + 10 + 11 on ranks 1–3; none puts
    // the king in check).
    assert_eq!(legal(&g).len(), 24 + 27);
    assert_eq!(targets(&g, "d1"), ["c4", "e4"]);
    assert!(targets(&g, "g2").contains(&"g1".to_string()));
}

#[test]
fn the_giraffe_steps_diagonally_then_rides_three_or_more_straight_on() {
    // Giraffe on c2: via d3 up the d-file from d6 on, via d3 right along
    // rank 3 from g3 on; via b3 up the b-file from b6 and (left) nothing
    // beyond the main board; via d1 / b1 down: the board ends.
    let g = game(&with_kings("13/13/13/13/13/13/13/2Z10"));
    let moves = targets(&g, "c2");
    for expected in ["d6", "d10", "g3", "l3", "b6", "b10"] {
        assert!(
            moves.contains(&expected.to_string()),
            "{expected}: {moves:?}"
        );
    }
    for never in ["d3", "d4", "d5", "e3", "f3", "b3", "c3", "c6"] {
        assert!(!moves.contains(&never.to_string()), "{never}: {moves:?}");
    }
    // A piece on the diagonal step blocks that way; one on the straight
    // ride stops it there (taking it if it is an enemy).
    let g = game(&with_kings("13/13/13/3p9/13/13/3P9/2Z10"));
    let moves = targets(&g, "c2");
    assert!(!moves.iter().any(|m| m.starts_with('d')), "{moves:?}");
    let g = game(&with_kings("13/3p9/13/13/13/13/13/2Z10"));
    let moves = targets(&g, "c2");
    assert!(moves.contains(&"d8".to_string()), "{moves:?}");
    assert!(!moves.contains(&"d9".to_string()), "{moves:?}");
}

#[test]
fn the_picket_rides_diagonally_but_never_one_square() {
    let g = game(&with_kings("13/13/13/13/13/13/13/6T6"));
    let moves = targets(&g, "g2");
    assert!(moves.contains(&"e4".to_string()), "{moves:?}");
    assert!(moves.contains(&"i4".to_string()), "{moves:?}");
    for never in ["f3", "h3", "f1", "h1"] {
        assert!(!moves.contains(&never.to_string()), "{never}: {moves:?}");
    }
    // It does not jump: a piece on f3 closes the whole f3–b7 line.
    let g = game(&with_kings("13/13/13/13/13/13/5P7/6T6"));
    assert!(!targets(&g, "g2").contains(&"e4".to_string()));
}

#[test]
fn the_leapers_vizier_general_elephant_camel_and_war_engine() {
    // Vizier f5, general h5, elephant d4, camel j4, war engine f8.
    let g = game(&with_kings("13/5W7/13/13/5V1G5/3E5C3/13/13"));
    assert_eq!(targets(&g, "f5"), ["e5", "f4", "f6", "g5"]);
    assert_eq!(targets(&g, "h5"), ["g4", "g6", "i4", "i6"]);
    assert_eq!(targets(&g, "d4"), ["b2", "b6", "f2", "f6"]);
    assert_eq!(targets(&g, "j4"), ["g3", "g5", "i1", "i7", "k1", "k7"]);
    assert_eq!(targets(&g, "f8"), ["d8", "f10", "f6", "h8"]);
    // The elephant is blocked by a piece on the square it passes; the camel
    // and the war engine jump.
    let g = game(&with_kings("13/13/13/13/13/3E1C7/4P8/13"));
    assert!(!targets(&g, "d4").contains(&"f2".to_string()));
    let g = game(&with_kings("13/5W7/5P7/13/13/13/13/13"));
    assert!(targets(&g, "f8").contains(&"f6".to_string()));
}

#[test]
fn typed_pawns_promote_into_their_own_piece() {
    // Pawn of rooks c9, pawn of kings e9, pawn of camels g9.
    let fen = with_kings("2U1Q1M6/13/13/13/13/13/13/13");
    let mut g = game(&fen);
    assert_eq!(targets(&g, "c9"), ["c10r"]);
    assert_eq!(targets(&g, "e9"), ["e10i"]);
    assert_eq!(targets(&g, "g9"), ["g10c"]);
    // Moves typed as a pawn's SAN find the pawn whatever its type.
    g.play_text("c10").unwrap();
    assert!(g.fen().starts_with("2R8k1/"), "{}", g.fen());
    // The pawn of pawns is not promoted: it reaches the last rank as a pawn
    // and waits there (its career: the next test).
    let mut g = game(&with_kings("2P10/13/13/13/13/13/13/13"));
    assert_eq!(targets(&g, "c9"), ["c10"]);
    g.play_text("c10").unwrap();
    assert!(g.fen().starts_with("2P8k1/"), "{}", g.fen());
    assert!(g.fen().contains(" b P1 - "), "{}", g.fen());
}

#[test]
fn only_kings_enter_a_citadel_and_only_the_opponents() {
    // White king b10 next to black's citadel a9 may enter it; a white rook
    // on e9 rides to b9 but not on into a9.
    let g = game("1K9k1/4R8/13/13/13/13/13/13/13/13 w - - 0 1");
    let moves = legal(&g);
    assert!(moves.contains(&"b10a9".to_string()), "{moves:?}");
    assert!(moves.contains(&"e9b9".to_string()), "{moves:?}");
    assert!(!moves.contains(&"e9a9".to_string()), "{moves:?}");
    // Black's king next to its own citadel may not enter it.
    let g = game("13/1k11/13/13/13/13/13/13/13/11K1 b - - 0 1");
    assert!(!legal(&g).contains(&"b9a9".to_string()));
    // Entering the opponent's citadel draws at once (a rook on e5 keeps
    // the material sufficient, so the game is on until then).
    let mut g = game("11k1/1K11/13/13/13/4R8/13/13/13/13 w - - 0 1");
    assert!(g.outcome().is_none());
    g.play_text("b9a9").unwrap();
    let outcome = g.outcome().expect("the game ends");
    assert_eq!((outcome.winner(), outcome.reason), (None, Reason::Citadel));
    // Likewise black's king in m2.
    let mut g = game("13/1K11/13/13/13/4R8/13/13/11k1/13 b - - 0 1");
    g.play_text("l2m2").unwrap();
    assert_eq!(g.outcome().map(|o| o.reason), Some(Reason::Citadel));
}

#[test]
fn stalemating_the_opponent_wins() {
    // Black king b10; white rooks c8 and k8. After Rk9 the king has no
    // move (a10 is a hole, a9 its own citadel, c10 and c9 on the c-file, b9
    // on rank 9) and is not in check: the stalemated side loses.
    let mut g = game("1k11/13/2R7R2/13/13/13/13/13/13/11K1 w - - 0 1");
    g.play_text("Rk9").unwrap();
    let outcome = g.outcome().expect("stalemate ends the game");
    assert_eq!(outcome.winner(), Some(Team(0)));
    assert_eq!(outcome.reason, Reason::Stalemate);
}

#[test]
fn random_games_end_without_a_panic_and_read_back_from_fen() {
    let registry = Registry::builtin();
    let variant = registry.get("tamerlane").unwrap();
    let mut rng = SplitMix(0x2545_F491_4F6C_DD1D);
    let mut ended = 0;
    for _ in 0..16 {
        let mut g = Game::new(variant, Start::Standard).unwrap();
        for _ in 0..400 {
            if g.outcome().is_some() {
                ended += 1;
                break;
            }
            let moves = legal(&g);
            assert!(!moves.is_empty(), "no moves, no outcome: {}", g.fen());
            assert_eq!(legal(&game(&g.fen())), moves, "{}", g.fen());
            // Played by its SAN, which must name it among all the typed pawns.
            let mv = g.legal_moves()[rng.below(moves.len())];
            let (san, uci) = (g.san(mv), g.uci(mv));
            let played = g.play_text(&san).unwrap_or_else(|e| panic!("{san}: {e}"));
            assert_eq!(played.uci, uci, "{san} in {}", g.fen());
        }
    }
    assert!(ended > 0, "no random game ended in 400 plies");
}

#[test]
fn with_king_and_prince_neither_is_protected_and_the_last_is_a_king() {
    // White: king g1, prince c1, a pawn of rooks b3 to keep material; black:
    // rook g8 attacking the king on the g-file, king l10.
    let mut g = game("11k1/13/6r6/13/13/13/13/1U11/13/2I3K6 w - - 0 1");
    assert!(!g.in_check(), "two royals: neither is in check");
    // White may leave the king attacked (a pawn move), and black takes it.
    assert!(legal(&g).contains(&"b3b4".to_string()));
    g.play_text("b4").unwrap();
    g.play_text("Rxg1").unwrap();
    assert!(g.outcome().is_none(), "the prince plays on");
    // Now the prince is the last royal: the rook on g1 checks it along
    // rank 1, and it must step off the rank.
    assert!(g.in_check());
    let moves = legal(&g);
    assert!(!moves.is_empty());
    assert!(
        moves
            .iter()
            .all(|m| m.starts_with("c1") && !m.ends_with('1')),
        "{moves:?}"
    );
    // With the king alone the usual rule holds: no move leaves it attacked.
    let g = game("11k1/13/6r6/13/13/13/13/1U11/13/6K6 w - - 0 1");
    assert!(g.in_check());
    assert!(!legal(&g).contains(&"b3b4".to_string()));
}

#[test]
fn a_prince_may_not_enter_a_citadel() {
    // The white prince on l3 next to its own citadel m2; the white king on
    // b10 next to black's a9. Only the king goes in.
    let g = game("1K9k1/13/13/13/13/13/13/11I1/13/13 w - - 0 1");
    let moves = legal(&g);
    assert!(moves.contains(&"b10a9".to_string()), "{moves:?}");
    assert!(!moves.iter().any(|m| m.ends_with("m2")), "{moves:?}");
}

#[test]
fn the_king_swaps_places_with_an_own_piece_once_per_game() {
    // White king g1, rook b1, pawn of rooks e3, general k5; black king l10, rook j8.
    let fen = "11k1/13/9r3/13/10G2/13/4U8/13/13/1R4K6 w Kk - 0 1";
    let mut g = game(fen);
    let moves = legal(&g);
    assert!(moves.contains(&"g1b1".to_string()), "{moves:?}");
    assert!(moves.contains(&"g1e4".to_string()), "{moves:?}");
    // Onto k6 the king stands off the black rook's lines: allowed too.
    assert!(moves.contains(&"g1k6".to_string()), "{moves:?}");
    // Typed as the king onto the piece: the two trade squares.
    let played = g.play_text("Kb1").unwrap();
    assert_eq!((played.uci.as_str(), played.san.as_str()), ("g1b1", "Kb1"));
    // The FEN's castling field keeps who may still swap: black only.
    assert!(g.fen().ends_with("1K4R6 b k - 1 1"), "{}", g.fen());
    g.play_text("Rj7").unwrap();
    // Spent: no second swap.
    assert!(!legal(&g).iter().any(|m| m == "b1g1"), "{:?}", legal(&g));
    // Not out of check, and not into check: a black rook on j1 checks the
    // king on g1; with it on j2, the swap onto e2's pawn stands on rank 2.
    let g = game("11k1/13/13/13/13/13/13/4U8/13/1R4K2r3 w K - 0 1");
    assert!(g.in_check());
    assert!(!legal(&g).contains(&"g1b1".to_string()));
    let g = game("11k1/13/13/13/13/13/13/13/4U4r3/1R4K6 w K - 0 1");
    let moves = legal(&g);
    assert!(!moves.contains(&"g1e2".to_string()), "{moves:?}");
    assert!(moves.contains(&"g1b1".to_string()), "{moves:?}");
    // A pawn is never swapped onto its last rank.
    let g = game("2K8k1/13/13/13/4U8/13/13/13/13/13 w K - 0 1");
    let moves = legal(&g);
    assert!(!moves.contains(&"c10e6".to_string()), "{moves:?}");
    // Without the right in the FEN (`-`), no swap at all.
    let g = game("11k1/13/9r3/13/10G2/13/4U8/13/13/1R4K6 w - - 0 1");
    assert!(!legal(&g).contains(&"g1b1".to_string()));
}

#[test]
fn the_pawn_of_pawns_waits_immune_is_placed_is_sent_back_and_is_crowned() {
    // Waiting on f10 (stage 1, `P1` in the FEN): a black picket b10, rook
    // h10, knights h6 and j6.
    let waiting = "1t3P1r3k1/13/13/13/7n1n3/13/13/13/13/11K1";
    // Black's rook may not take it.
    let g = game(&format!("{waiting} b P1 - 0 1"));
    assert!(!legal(&g).contains(&"h10f10".to_string()));
    assert!(legal(&g).contains(&"h10g10".to_string()));
    // White may place it where it attacks two pieces (i5: h6 and j6), or
    // one that then cannot move (c9: the picket on b10, whose only line
    // the placed pawn closes), not where it attacks one that can (g5: h6).
    let mut g = game(&format!("{waiting} w P1 - 0 1"));
    let placements = targets(&g, "f10");
    assert!(placements.contains(&"i5".to_string()), "{placements:?}");
    assert!(placements.contains(&"c9".to_string()), "{placements:?}");
    assert!(!placements.contains(&"g5".to_string()), "{placements:?}");
    assert_eq!(placements.len(), 2, "{placements:?}");
    // Typed with its square; it then moves as a pawn (stage 2).
    let played = g.play_text("f10c9").unwrap();
    assert_eq!(played.san, "f10c9");
    // Placed on its own file it is written with its square too (f5 alone
    // would be a pawn's step); black knights e6 and g6 are both attacked.
    let mut placed = game("5P5k1/13/13/13/4n1n6/13/13/13/13/11K1 w P1 - 0 1");
    let mv = placed.parse_move("f10f5").unwrap();
    assert_eq!(placed.san(mv), "f10f5");
    placed.play_text("f10f5").unwrap();
    assert!(g.fen().contains(" b P2 - "), "{}", g.fen());
    // Without the stage in the FEN it is an ordinary pawn on the last rank.
    let g = game(&format!("{waiting} w - - 0 1"));
    assert!(targets(&g, "f10").is_empty());

    // Second arrival: sent back to g3 (the black knight there is removed).
    let mut g = game("11k1/4P8/13/13/13/13/13/6n6/13/11K1 w P2 - 0 1");
    g.play_text("e10").unwrap();
    let fen = g.fen();
    assert!(fen.starts_with("11k1/13/"), "{fen}");
    assert!(fen.contains("/6P6/") && fen.contains(" b P3 - "), "{fen}");
    // Third arrival: the adventitious king, a second royal piece.
    let mut g = game("11k1/4P8/13/13/13/13/13/13/13/11K1 w P3 - 0 1");
    g.play_text("e10").unwrap();
    assert!(
        g.fen().starts_with("4A6k1/") && g.fen().contains(" b P4 - "),
        "{}",
        g.fen()
    );
}

/// Seed 000: when the king is taken «роль короля берет принц или добавочный король (если
/// добавочный король находится в цитадели, он должен быть помещен на любое не занятое поле)».
/// The adventitious king in its citadel that becomes the last royal is placed, as its side's
/// move, on any empty square of the board where it is not attacked (it is the king now).
#[test]
fn an_adventitious_king_in_its_citadel_taking_the_kings_role_is_placed_on_a_free_square() {
    // White: king g1, adventitious king in its citadel m2, a pawn of rooks b3; black: rook g8
    // on the king's file, king l10. Black takes the king.
    let start = "11k1/13/6r6/13/13/13/13/1U11/12A/6K6 b - - 0 1";
    let mut g = game(start);
    g.play_text("Rxg1").unwrap();
    assert!(g.outcome().is_none(), "the adventitious king plays on");
    let moves = legal(&g);
    // Every move is the adventitious king leaving m2: to the 107 empty squares of the main
    // board (110 less l10, g1, b3) but the 19 the rook on g1 attacks (rank 1, the g-file)
    // and the 3 by the black king (k10, k9, l9); never into black's citadel a9.
    assert!(moves.iter().all(|m| m.starts_with("m2")), "{moves:?}");
    assert_eq!(moves.len(), 107 - 19 - 3, "{moves:?}");
    for square in ["e5", "b10", "l2", "k8"] {
        assert!(
            moves.contains(&format!("m2{square}")),
            "{square}: {moves:?}"
        );
    }
    for never in ["a9", "b3", "l1", "g5", "k9", "m2"] {
        assert!(!moves.contains(&format!("m2{never}")), "{never}: {moves:?}");
    }
    // Typed and shown as the piece's move to the square.
    let mv = g.parse_move("Ae5").unwrap();
    assert_eq!(
        (g.san(mv), g.uci(mv)),
        ("Ae5".to_string(), "m2e5".to_string())
    );
    let played = g.play_text("Ae5").unwrap();
    assert_eq!((played.uci.as_str(), played.san.as_str()), ("m2e5", "Ae5"));
    assert!(g.fen().contains("/4A8/"), "{}", g.fen());
    // Replayed from the record, the same positions and hashes.
    let record: Vec<String> = g.history().iter().map(|m| m.uci.clone()).collect();
    let variant = Registry::builtin();
    let replayed = Game::replay(variant.get("tamerlane").unwrap(), start, &record).unwrap();
    assert_eq!(replayed.fen(), g.fen());
    assert_eq!(replayed.position_hashes(), g.position_hashes());
    // The hash after the placement, kept move by move, is the one worked out from its FEN.
    let mut from_fen = game(&g.fen());
    let mut g = g;
    g.play_text("Rg2").unwrap();
    from_fen.play_text("Rg2").unwrap();
    assert_eq!(
        from_fen.position_hashes().last(),
        g.position_hashes().last()
    );
    // Now the king, it no longer enters its citadel: from l3, m2 is closed (a white rook on
    // e5 keeps the material).
    let g = game("11k1/13/13/13/4R8/13/13/11A1/13/13 w - - 0 1");
    let moves = targets(&g, "l3");
    assert!(!moves.contains(&"m2".to_string()), "{moves:?}");
    assert!(moves.contains(&"l2".to_string()), "{moves:?}");
    // While the king lives, the adventitious king keeps its citadel: it enters it, and in it
    // moves as a king.
    let g = game("11k1/13/13/13/4R8/13/13/11A1/13/6K6 w - - 0 1");
    assert!(targets(&g, "l3").contains(&"m2".to_string()));
    let g = game("11k1/13/13/13/4R8/13/13/13/12A/6K6 w - - 0 1");
    assert_eq!(targets(&g, "m2"), ["l1", "l2", "l3"]);
}
