//! Bughouse, one board of the pair: move generation against Fairy-Stockfish's
//! `bughouse` (perft numbers from pyffish 0.0.90, Fairy-Stockfish's Python
//! binding, and through `kodex uci`), and the rules of VARIANTS.md: captured
//! pieces passed to the partner (a promoted piece as a pawn), drop
//! restrictions, and "mate on the board".

use kodex_engine::{Game, Reason, Registry, Start};

fn game(fen: &str) -> Game {
    let registry = Registry::builtin();
    let variant = registry.get("bughouse").expect("bughouse is built in");
    Game::new(variant, Start::Fen(fen.to_owned())).expect("position")
}

fn legal(game: &Game) -> Vec<String> {
    game.legal_moves()
        .into_iter()
        .map(|m| game.uci(m))
        .collect()
}

#[test]
fn move_generation_matches_fairy_stockfish() {
    // (FEN, depth, Fairy-Stockfish bughouse perft)
    let vectors = [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
            3,
            8_902,
        ),
        (
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[QNpp] w KQkq - 2 3",
            2,
            5_215,
        ),
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R[RBNpq] w KQkq - 0 1",
            2,
            13_183,
        ),
        ("2k5/8/8/8/8/8/8/4K3[Qn] w - - 0 1", 3, 88_634),
        ("4k3/1P6/8/8/8/8/8/4K3[] w - - 0 1", 2, 40),
        // Captures stay out of the captor's pocket (crazyhouse: 583).
        ("4k3/8/8/3p4/4P3/8/8/4K3[] w - - 0 1", 3, 351),
        (
            // (crazyhouse: 265,884)
            "r3k3/8/8/3p4/4P3/8/8/R3K2R[Nn] w KQq - 0 1",
            3,
            262_348,
        ),
    ];
    for (fen, depth, expected) in vectors {
        assert_eq!(
            game(fen).perft_total(depth),
            expected,
            "{fen} depth {depth}"
        );
    }
}

#[test]
fn a_capture_passes_to_the_partner_and_a_promoted_piece_passes_as_a_pawn() {
    let mut board = game("4k3/8/8/3p4/4P3/8/8/4K3[] w - - 0 1");
    assert_eq!(board.captured_for_partner(), None);
    board.play_text("exd5").expect("legal");
    // A black pawn: the partner of white plays black on the other board.
    assert_eq!(board.captured_for_partner(), Some('p'));
    assert!(board.fen().contains("[]"), "{}", board.fen());
    board.play_text("Kd7").expect("legal");
    assert_eq!(board.captured_for_partner(), None);

    // The queen promoted on b8 is taken at once: passed on as a white pawn.
    let mut board = game("8/1Pk5/8/8/8/8/8/4K3[] w - - 0 1");
    board.play_text("b8=Q+").expect("legal");
    board.play_text("Kxb8").expect("legal");
    assert_eq!(board.captured_for_partner(), Some('P'));
    // A queen that was never promoted passes as a queen.
    let mut board = game("2k5/8/8/8/8/8/1q6/K7[] w - - 0 1");
    board.play_text("Kxb2").expect("legal");
    assert_eq!(board.captured_for_partner(), Some('q'));
}

#[test]
fn pieces_received_are_dropped_and_replay_from_the_record() {
    let mut board = game("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1");
    assert!(!legal(&board).iter().any(|m| m.contains('@')));
    // A knight for white arrives between moves.
    assert!(board.receive('N'));
    assert!(legal(&board).contains(&"N@e3".to_owned()));
    // Kings are never passed on; other variants' pockets are their own.
    assert!(!board.receive('k'));
    assert!(!board.receive('x'));
    let registry = Registry::builtin();
    let mut crazyhouse = Game::new(
        registry.get("crazyhouse").expect("crazyhouse"),
        Start::Standard,
    )
    .expect("start");
    assert!(!crazyhouse.receive('N'));

    board.play_text("N@e3").expect("legal");
    board.play_text("e5").expect("legal");
    let record = ["+N", "g1f3", "e7e5", "+q", "N@e3", "Q@h4"];
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";
    let replayed = Game::replay(board.variant(), start, &record).expect("replays");
    assert_eq!(replayed.ply(), 4, "gifts are not moves");
    assert!(replayed.fen().contains("[]"), "{}", replayed.fen());
    // A drop of a piece never received does not replay.
    assert!(Game::replay(board.variant(), start, &["N@e3"]).is_err());
    assert!(Game::replay(board.variant(), start, &["+K"]).is_err());
}

#[test]
fn drops_follow_the_fics_rules() {
    // Pawns never on the first or last rank.
    let board = game("4k3/8/8/8/8/8/8/4K3[P] w - - 0 1");
    let drops = legal(&board);
    assert!(drops.contains(&"P@a2".to_owned()) && drops.contains(&"P@h7".to_owned()));
    assert!(!drops
        .iter()
        .any(|m| m.starts_with("P@") && (m.ends_with('1') || m.ends_with('8'))));
    // A pawn dropped on the second rank may still advance two squares.
    let mut board = game("4k3/8/8/8/8/8/8/4K3[P] w - - 0 1");
    board.play_text("P@d2").expect("legal");
    board.play_text("Kd7").expect("legal");
    board.play_text("d4").expect("a double step");
    // A rook dropped on its corner may not castle.
    let mut board = game("4k3/8/8/8/8/8/8/4K3[R] w - - 0 1");
    board.play_text("R@h1").expect("legal");
    board.play_text("Kd7").expect("legal");
    assert!(!legal(&board).contains(&"e1g1".to_owned()));
    // Drops may check and mate: a queen dropped next to the king, guarded.
    let mut board = game("7k/8/6K1/8/8/8/8/8[Q] w - - 0 1");
    board.play_text("Q@g7").expect("legal");
    let outcome = board.outcome().expect("mate on the board");
    assert_eq!(outcome.reason, Reason::Checkmate);
}

#[test]
fn only_a_mate_no_drop_could_block_is_mate() {
    // The rook's check could be blocked by any piece dropped on b1–g1: white
    // has no legal move but waits for a piece from the partner.
    let mut board = game("k7/8/8/8/8/8/PP6/K6r[] w - - 0 1");
    assert!(board.in_check());
    assert!(board.legal_moves().is_empty());
    assert_eq!(board.outcome(), None);
    // The piece arrives: the check is blocked.
    assert!(board.receive('B'));
    assert!(legal(&board).contains(&"B@b1".to_owned()));
    // Crazyhouse on the same board: plain mate.
    let registry = Registry::builtin();
    let crazyhouse = Game::new(
        registry.get("crazyhouse").expect("crazyhouse"),
        Start::Fen("k7/8/8/8/8/8/PP6/K6r[] w - - 0 1".to_owned()),
    )
    .expect("position");
    assert_eq!(
        crazyhouse.outcome().map(|o| o.reason),
        Some(Reason::Checkmate)
    );
    // A knight's check cannot be blocked: mate, whatever a partner could send.
    let smothered = game("k7/8/8/8/8/8/PPn5/KR6[] w - - 0 1");
    assert_eq!(
        smothered.outcome().map(|o| o.reason),
        Some(Reason::Checkmate)
    );
    // Bare kings are no draw: pieces may still come.
    assert_eq!(game("k7/8/8/8/8/8/8/K7[] w - - 0 1").outcome(), None);
}
