//! Move input and output, FEN round trips, views and robustness.

use kodex_engine::{
    Audience, FenError, Game, MoveError, Reason, Registry, ReplayError, Side, SquareView, Start,
    Team,
};

use crate::common::SplitMix;

fn game(variant: &str) -> Game {
    Game::new(
        Registry::builtin().get(variant).expect("variant"),
        Start::Standard,
    )
    .expect("start")
}

fn fen_game(variant: &str, fen: &str) -> Game {
    Game::new(
        Registry::builtin().get(variant).expect("variant"),
        Start::Fen(fen.into()),
    )
    .expect("fen")
}

#[test]
fn every_spelling_of_a_move_is_read() {
    for text in [
        "Nf3", "Ngf3", "Ng1f3", "g1f3", "Ng1-f3", "N:f3", "Кf3", "Кg1f3", "Nf3+", "Nf3!?",
    ] {
        let mut g = game("chess");
        let played = g.play_text(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(played.uci, "g1f3", "{text}");
        assert_eq!(played.san, "Nf3");
    }
    let mut g = game("chess");
    for mv in ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5"] {
        g.play_text(mv).unwrap();
    }
    for castle in ["O-O", "0-0", "o-o", "e1g1", "Крg1"] {
        let mut g2 = g.clone();
        assert_eq!(
            g2.play_text(castle).map(|p| p.san),
            Ok("O-O".to_string()),
            "{castle}"
        );
    }
}

#[test]
fn a_chess960_king_step_and_a_castle_to_the_same_square_are_told_apart() {
    // King f1, rook h1, g1 empty: `f1g1` steps, `f1h1` and `O-O` castle.
    let fen = "1b1r2br/1pp1ppk1/q2n4/p3n2p/2PpB3/PP5P/N2PPPPB/2NR1K1R w H - 9 13";
    let g = fen_game("chess960", fen);
    let step = g.parse_move("f1g1").expect("the king's step");
    assert_eq!(g.san(step), "Kg1");
    let castle = g.parse_move("f1h1").expect("castling");
    assert_eq!(g.san(castle), "O-O");
    assert_eq!(g.parse_move("O-O"), Ok(castle));
    // Every legal move reads back from its own UCI.
    for mv in g.legal_moves() {
        assert_eq!(g.parse_move(&g.uci(mv)), Ok(mv), "{}", g.uci(mv));
    }
}

#[test]
fn errors_say_which_kind() {
    let g = game("chess");
    assert_eq!(g.parse_move("hello"), Err(MoveError::Unparseable));
    assert_eq!(g.parse_move(""), Err(MoveError::Unparseable));
    assert_eq!(g.parse_move("e5"), Err(MoveError::Illegal));
    assert_eq!(g.parse_move("Qh5"), Err(MoveError::Illegal));
    let mut g = fen_game("chess", "4k3/8/8/8/8/8/4K3/R6R w - - 0 1");
    match g.parse_move("Rd1") {
        Err(MoveError::Ambiguous(c)) => assert_eq!(c, vec!["Rad1".to_string(), "Rhd1".to_string()]),
        other => panic!("expected ambiguity, got {other:?}"),
    }
    assert_eq!(g.play_text("Rhd1").map(|p| p.uci), Ok("h1d1".to_string()));
    let g = fen_game("chess", "8/4P1k1/8/8/8/8/8/4K3 w - - 0 1");
    assert!(matches!(g.parse_move("e8"), Err(MoveError::Ambiguous(c)) if c.len() == 4));
    assert_eq!(
        g.parse_move("e8=Ф").map(|m| g.uci(m)),
        Ok("e7e8q".to_string())
    );
    assert_eq!(
        g.parse_move("e8N").map(|m| g.san(m)),
        Ok("e8=N+".to_string())
    );
}

#[test]
fn fen_errors_say_which_kind() {
    let registry = Registry::builtin();
    let fen_error = |variant: &str, fen: &str| {
        Game::new(
            registry.get(variant).expect("variant"),
            Start::Fen(fen.into()),
        )
        .unwrap_err()
    };
    let cases = [
        ("", FenError::Empty),
        (
            "8/8/8 w - - 0 1",
            FenError::RankCount {
                expected: 8,
                found: 3,
            },
        ),
        (
            "4k3/8/8/8/8/8/8/4K3X w - - 0 1",
            FenError::UnknownPiece('X'),
        ),
        (
            "4k3/8/8/8/8/8/8/4K4 w - - 0 1",
            FenError::RankTooLong { rank: 1 },
        ),
        (
            "4k3/8/8/8/8/8/8/4K2 w - - 0 1",
            FenError::RankTooShort {
                rank: 1,
                found: 7,
                expected: 8,
            },
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 x - - 0 1",
            FenError::BadSide("x".into()),
        ),
        ("4k3/8/8/8/8/8/8/4K3 w Z - 0 1", FenError::BadCastling('Z')),
        (
            "4k3/8/8/8/8/8/8/4K3 w - z9 0 1",
            FenError::BadEnPassant("z9".into()),
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - - x 1",
            FenError::BadCounter("x".into()),
        ),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 2", FenError::TooManyFields),
        (
            "4k3/8/8/8/8/8/8/3KK3 w - - 0 1",
            FenError::TooManyKings(Side::WHITE),
        ),
        (
            "4k2P/8/8/8/8/8/8/4K3 w - - 0 1",
            FenError::PawnOnPromotionRank,
        ),
        ("4k2R/8/8/8/8/8/8/4K3 w - - 0 1", FenError::OpponentInCheck),
        ("4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1", FenError::NoPockets),
    ];
    for (fen, expected) in cases {
        assert_eq!(fen_error("chess", fen), expected, "{fen}");
    }
    assert_eq!(
        fen_error("crazyhouse", "4k3/8/8/8/8/8/8/4K3[X] w - - 0 1"),
        FenError::UnknownPocketPiece('X')
    );
    assert_eq!(
        fen_error("threecheck", "4k3/8/8/8/8/8/8/4K3 w - - 3+x 0 1"),
        FenError::BadCheckCounter("3+x".into())
    );
    assert_eq!(
        FenError::RankTooLong { rank: 1 }.to_string(),
        "invalid FEN: rank 1 is too long"
    );
    let chess = registry.get("chess").expect("chess");
    assert!(matches!(
        Game::replay(chess, "8/8 w - - 0 1", &["e2e4"]),
        Err(ReplayError::Fen(FenError::RankCount { .. }))
    ));
}

#[test]
fn san_marks_check_and_mate() {
    let mut g = game("chess");
    let sans: Vec<String> = ["f3", "e5", "g4", "Qh4"]
        .iter()
        .map(|m| g.play_text(m).unwrap().san)
        .collect();
    assert_eq!(sans, ["f3", "e5", "g4", "Qh4#"]);
    let outcome = g.outcome().unwrap();
    assert_eq!(
        (outcome.winner(), outcome.reason),
        (Some(Team(1)), Reason::Checkmate)
    );
    assert!(g.legal_moves().is_empty());
    assert!(g
        .pgn(&[("White", "a"), ("Black", "b")], "0-1")
        .contains("1. f3 e5 2. g4 Qh4# 0-1"));
}

#[test]
fn drops_and_pockets() {
    let mut g = fen_game(
        "crazyhouse",
        "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR[] w KQkq - 0 2",
    );
    g.play_text("exd5").unwrap();
    g.play_text("Qxd5").unwrap();
    assert!(g.fen().contains("[Pp]"), "{}", g.fen());
    assert_eq!(g.play_text("@e6").map(|p| p.uci), Ok("P@e6".to_string()));
    let view = g.view(Audience::Public);
    assert_eq!(view.pockets.len(), 2);
    assert!(view.pockets[1]
        .pieces
        .iter()
        .any(|(p, n)| p.letter == 'P' && *n == 1));
}

#[test]
fn fen_round_trips() {
    let cases = [
        (
            "chess",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        ),
        (
            "crazyhouse",
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R~[Pp] w KQkq - 0 1",
        ),
        (
            "threecheck",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 2+3 0 1",
        ),
        (
            "horde",
            "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1",
        ),
        (
            "chess960",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        ),
    ];
    for (variant, fen) in cases {
        assert_eq!(fen_game(variant, fen).fen(), fen, "{variant}");
    }
    // lichess's checks-given form is read too.
    let g = fen_game(
        "threecheck",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 +1+0",
    );
    assert!(g.fen().contains(" 2+3 "), "{}", g.fen());
}

#[test]
fn chess960_numbers_and_castling() {
    let v = Registry::builtin()
        .get("fischerandom")
        .cloned()
        .expect("alias");
    let g = Game::new(&v, Start::Chess960(0)).unwrap();
    assert_eq!(g.chess960_number(), Some(0));
    assert!(g.fen().starts_with("bbqnnrkr/"), "{}", g.fen());
    assert!(Game::new(&v, Start::Chess960(960)).is_err());
    // King takes rook in UCI; O-O in SAN.
    let mut g = fen_game("chess960", "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert_eq!(
        g.play_text("O-O").map(|p| (p.uci, p.san)),
        Ok(("e1h1".into(), "O-O".into()))
    );
}

#[test]
fn fog_views_hide_what_the_side_cannot_see() {
    let mut g = game("fogofwar");
    g.play_text("e4").unwrap();
    let white = g.view(Audience::Side(Side::WHITE));
    let black = g.view(Audience::Side(Side::BLACK));
    let sq = |name: &str| {
        let b = name.as_bytes();
        (b[1] - b'1') as usize * 8 + (b[0] - b'a') as usize
    };
    // White sees its pawn on e4 and the squares its pieces reach, not black's back rank.
    assert!(matches!(white.squares[sq("e4")], SquareView::Piece(_)));
    assert_eq!(white.squares[sq("e8")], SquareView::Fog);
    assert_eq!(white.squares[sq("e5")], SquareView::Empty);
    // Black cannot see the pawn on e4 (no black piece reaches it) …
    assert_eq!(black.squares[sq("e4")], SquareView::Fog);
    // … nor where it came from: the last-move highlight shows only visible squares.
    assert!(black
        .last_move
        .iter()
        .all(|&s| black.squares[s as usize] != SquareView::Fog));
    // The public sees only what both sides see.
    let public = g.view(Audience::Public);
    for (i, s) in public.squares.iter().enumerate() {
        if *s != SquareView::Fog {
            assert_ne!(white.squares[i], SquareView::Fog);
            assert_ne!(black.squares[i], SquareView::Fog);
        }
    }
    // Two fog views that differ only in hidden content are identical.
    let mut a = game("fogofwar");
    let mut b = game("fogofwar");
    a.play_text("e4").unwrap();
    b.play_text("d4").unwrap();
    a.play_text("h6").unwrap();
    b.play_text("h6").unwrap();
    // Whole views, highlights included: a partial leak must fail.
    assert_eq!(
        a.view(Audience::Side(Side::BLACK)),
        b.view(Audience::Side(Side::BLACK))
    );
    assert!(
        !format!("{:?}", a).contains("e4"),
        "Debug of a game must not show the position"
    );
}

#[test]
fn garbage_never_panics() {
    let registry = Registry::builtin();
    let mut rng = SplitMix(0x1234_5678_9abc_def0);
    let alphabet: Vec<char> = "rnbqkpRNBQKP12345678/ -+[]~@=#xOo0абвКрФЛС\u{0}\u{ffff}w"
        .chars()
        .collect();
    for _ in 0..3000 {
        let len = rng.below(90);
        let text: String = (0..len)
            .map(|_| alphabet[rng.below(alphabet.len())])
            .collect();
        for v in registry.all() {
            if let Ok(g) = Game::new(v, Start::Fen(text.clone())) {
                let _ = g.legal_moves();
                let _ = g.fen();
                let _ = g.outcome();
            }
            let g = Game::new(v, Start::Standard).unwrap();
            let _ = g.parse_move(&text);
        }
        let _ = registry.clone().add_definition("fuzz.toml", &text);
        // The same garbage as a piece's movement (Betza).
        let betza: String = text
            .chars()
            .map(|c| match c {
                '"' | '\\' => format!("\\{c}"),
                c if c.is_control() => format!("\\u{:04X}", c as u32),
                c => c.to_string(),
            })
            .collect();
        let piece =
            format!("id = \"fuzz\"\nextends = \"chess\"\n[pieces.a]\nbetza = \"{betza}\"\n");
        if let Err(e) = registry.clone().add_definition("fuzz.toml", &piece) {
            assert_eq!(e.key, "pieces.a.betza", "{e}");
        }
    }
    // Structured garbage: valid-looking FENs with broken fields.
    for fen in [
        "8/8/8/8/8/8/8/8 w - - 0 1",
        "k7/8/8/8/8/8/8/7K w KQkq e3 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 99999999999 1",
        "K7/8/8/8/8/8/8/7k[QQQQQQQQ] w - - 0 1",
        "4k3/8/8/8/8/8/8/4K2R w KQkqABCDEFGH - 0 1",
    ] {
        for v in registry.all() {
            if let Ok(g) = Game::new(v, Start::Fen(fen.into())) {
                let _ = (g.legal_moves(), g.outcome(), g.view(Audience::Public));
            }
        }
    }
}

#[test]
fn pieces_keep_their_identity() {
    let sq = |name: &str| {
        let b = name.as_bytes();
        ((b[1] - b'1') as usize * 8 + (b[0] - b'a') as usize) as u16
    };
    let mut g = fen_game("chess", "4k3/1P6/8/8/8/8/8/R3K2R w KQ - 0 1");
    let pawn = g.piece_id_at(0, sq("b7")).expect("pawn has an id");
    let rook = g.piece_id_at(0, sq("h1")).expect("rook has an id");
    g.play_text("O-O").unwrap();
    assert_eq!(
        g.piece_id_at(1, sq("f1")),
        Some(rook),
        "the rook keeps its id when castling"
    );
    g.play_text("Kd7").unwrap();
    g.play_text("b8=Q").unwrap();
    assert_eq!(
        g.piece_id_at(3, sq("b8")),
        Some(pawn),
        "the queen is the promoted pawn"
    );
    assert_eq!(g.square_of_piece(0, pawn), Some(sq("b7")));
    g.play_text("Kc6").unwrap();
    g.play_text("Qb7").unwrap();
    g.play_text("Kxb7").unwrap();
    assert_eq!(g.square_of_piece(6, pawn), None, "a captured piece is gone");
    let king = g.piece_id_at(0, sq("e8")).unwrap();
    assert_eq!(g.piece_id_at(6, sq("b7")), Some(king));
    // Drops get fresh identities.
    let mut z = fen_game("crazyhouse", "4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1");
    z.play_text("Q@f3").unwrap();
    let queen = z.piece_id_at(1, sq("f3")).expect("dropped queen has an id");
    assert!(queen > 2);
}

/// Russian SAN is what a Russian audience reads: every legal move of
/// pseudo-random games written with Russian letters reads back as the same
/// move, and the letters are the Russian ones.
#[test]
fn russian_san_reads_back_as_the_same_move() {
    let mut seen = std::collections::BTreeSet::new();
    for variant in ["chess", "crazyhouse", "antichess", "horde"] {
        let mut g = game(variant);
        let mut rng = SplitMix(7);
        for _ in 0..80 {
            let moves = g.legal_moves();
            if moves.is_empty() {
                break;
            }
            for &mv in &moves {
                let russian = g.variant().russian_san(&g.san(mv));
                assert!(!russian.chars().any(|c| "NBRQK".contains(c)), "{russian}");
                seen.extend(russian.chars().filter(|c| !c.is_ascii()));
                assert_eq!(g.parse_move(&russian), Ok(mv), "{variant}: {russian}");
            }
            g.play(moves[rng.below(moves.len())]);
        }
    }
    assert_eq!(
        Game::new(Registry::builtin().get("chess").unwrap(), Start::Standard)
            .unwrap()
            .variant()
            .russian_san("exd8=Q+"),
        "exd8=Ф+"
    );
    assert!(["К", "С"]
        .iter()
        .all(|l| seen.contains(&l.chars().next().unwrap())));
}
