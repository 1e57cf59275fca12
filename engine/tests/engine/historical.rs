//! The historical games and the teaching ladder (issue 14): every built-in
//! loads, perft vectors of the start positions (Fairy-Stockfish's numbers
//! where it has our rules: tests/differential_fsf.py), and a rule test per
//! mechanic on hand-made positions.

use crate::common::legal;
use kodex_engine::{Game, Reason, Registry, Start, Team, VariantError};

/// Every built-in definition read again, one at a time (a broken built-in
/// is skipped by `Registry::builtin`; here it is an error). An operator's
/// files may not replace built-ins (`add_definitions`); `add_definition` may.
fn load_all() -> Vec<VariantError> {
    let mut registry = Registry::builtin();
    kodex_engine::variant::BUILTIN
        .iter()
        .filter_map(|(file, text)| registry.add_definition(file, text).err())
        .collect()
}

#[test]
fn every_new_builtin_loads() {
    assert_eq!(load_all(), Vec::new());
    let registry = Registry::builtin();
    for id in [
        "shatranj",
        "chaturanga",
        "giveaway",
        "lesson1",
        "lesson2",
        "lesson3",
        "lesson4",
        "lesson5",
        "lesson6",
        "grand",
        "greatchess",
        "semedo",
        "diana",
    ] {
        let variant = registry
            .get(id)
            .unwrap_or_else(|| panic!("{id} is missing"));
        Game::new(variant, Start::Standard).unwrap();
    }
}

fn game(variant: &str, fen: &str) -> Game {
    let registry = Registry::builtin();
    let variant = registry.get(variant).expect("variant");
    Game::new(variant, Start::Fen(fen.to_string())).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The legal moves (UCI) from `from` in `fen`.
fn moves_from(variant: &str, fen: &str, from: &str) -> Vec<String> {
    legal(&game(variant, fen))
        .into_iter()
        .filter(|m| m.starts_with(from))
        .collect()
}

fn play(game: &mut Game, moves: &[&str]) {
    for mv in moves {
        game.play_text(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    }
}

/// (winner, reason) of the game's outcome; the winner `None` for a draw.
fn result(game: &Game) -> Option<(Option<Team>, Reason)> {
    game.outcome().map(|o| (o.winner(), o.reason))
}

const WHITE: Option<Team> = Some(Team(0));

#[test]
fn shatranj_pieces_move_as_ferz_and_alfil() {
    let g = game("shatranj", "4k3/8/8/8/3q4/8/2P5/B2K4 w - - 0 1");
    let moves = legal(&g);
    // The alfil jumps two diagonally, over the c2... here over b2 to c3; never one step.
    assert!(moves.contains(&"a1c3".to_string()), "{moves:?}");
    assert!(!moves.contains(&"a1b2".to_string()), "{moves:?}");
    // No double step.
    assert!(moves.contains(&"c2c3".to_string()));
    assert!(!moves.contains(&"c2c4".to_string()));
    let mut g = g;
    play(&mut g, &["d1e1"]);
    let ferz: Vec<String> = legal(&g)
        .into_iter()
        .filter(|m| m.starts_with("d4"))
        .collect();
    assert_eq!(ferz, ["d4c3", "d4c5", "d4e3", "d4e5"]);
}

#[test]
fn shatranj_bare_king_loses_unless_it_bares_back() {
    // The rook takes the last black piece far from the black king: black is bared at once.
    let mut g = game("shatranj", "7k/8/8/3q4/8/8/8/K2R4 w - - 0 1");
    play(&mut g, &["Rxd5"]);
    assert_eq!(result(&g), Some((WHITE, Reason::BareKing)));
    assert!(g.legal_moves().is_empty(), "no moves once decided");

    // Next to the black king: black may take back and bare white too — a draw.
    let mut g = game("shatranj", "8/8/4k3/3q4/8/8/8/K2R4 w - - 0 1");
    play(&mut g, &["Rxd5"]);
    assert_eq!(result(&g), None, "black may still bare white");
    let mut drawn = g.clone();
    play(&mut drawn, &["Kxd5"]);
    assert_eq!(result(&drawn), Some((None, Reason::BareKing)));
    // Any other move leaves black bared: white wins.
    play(&mut g, &["Ke7"]);
    assert_eq!(result(&g), Some((WHITE, Reason::BareKing)));
}

#[test]
fn shatranj_stalemating_the_opponent_wins() {
    let mut g = game("shatranj", "k7/8/PK6/8/8/7p/7P/8 w - - 0 1");
    play(&mut g, &["a7"]);
    assert_eq!(result(&g), Some((WHITE, Reason::Stalemate)));
}

#[test]
fn shatranj_pawns_promote_to_a_general_only() {
    assert_eq!(
        moves_from("shatranj", "4k3/1P5p/8/8/8/8/8/4K2R w - - 0 1", "b7"),
        ["b7b8q"]
    );
}

#[test]
fn chaturanga_king_leaps_once_when_not_in_check() {
    let registry = Registry::builtin();
    let mut g = Game::new(registry.get("chaturanga").unwrap(), Start::Standard).unwrap();
    let moves = legal(&g);
    assert!(moves.contains(&"e1d3".to_string()) && moves.contains(&"e1f3".to_string()));
    assert_eq!(
        moves.len(),
        8 + 4 + 2,
        "pawn steps, knights and the two leaps"
    );
    play(&mut g, &["Kf3", "e6"]);
    let king: Vec<String> = legal(&g)
        .into_iter()
        .filter(|m| m.starts_with("f3"))
        .collect();
    // Only king steps now: the leap is spent (e5, g5, d4, h4, e1 are knight moves).
    assert_eq!(king, ["f3e3", "f3e4", "f3f4", "f3g3", "f3g4"]);
    // Black still has its own leap.
    play(&mut g, &["a3"]);
    assert!(legal(&g).contains(&"d8f6".to_string()) || legal(&g).contains(&"d8e7".to_string()));
    // The leap never captures, and not out of check.
    let g = game("chaturanga", "3k4/8/8/8/8/3n4/8/r3K3 w - - 0 1");
    assert!(g.in_check());
    let moves = legal(&g);
    assert!(
        !moves
            .iter()
            .any(|m| m == "e1d3" || m == "e1f3" || m == "e1c2" || m == "e1g2"),
        "{moves:?}"
    );
}

#[test]
fn chaturanga_promotes_only_into_a_lost_piece_of_the_square() {
    // White has both knights: a pawn reaching b8 stays a pawn.
    assert_eq!(
        moves_from("chaturanga", "3k4/1P6/8/8/8/8/8/1N2K1N1 w - - 0 1", "b7"),
        ["b7b8"]
    );
    // One knight lost: it becomes a knight, and only that.
    assert_eq!(
        moves_from("chaturanga", "3k4/1P6/8/8/8/8/8/4K1N1 w - - 0 1", "b7"),
        ["b7b8n"]
    );
    // On the black king's starting square it never promotes.
    assert_eq!(
        moves_from("chaturanga", "6k1/3P4/8/8/8/8/8/4K3 w - - 0 1", "d7"),
        ["d7d8"]
    );
    // A counsellor (lost: white has none) on e8, the black counsellor's square.
    assert_eq!(
        moves_from("chaturanga", "6k1/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7"),
        ["e7e8q"]
    );
}

#[test]
fn giveaway_promotes_to_a_queen_only_and_losing_everything_wins() {
    let g = game("giveaway", "8/1P6/8/8/8/8/8/k7 w - - 0 1");
    let moves = legal(&g);
    assert_eq!(moves, ["b7b8q"]);
    let mut g = game("giveaway", "8/8/8/8/8/8/1p6/R7 b - - 0 1");
    play(&mut g, &["b2xa1=Q"]);
    assert_eq!(result(&g), Some((WHITE, Reason::NoPieces)));
}

#[test]
fn lessons_are_won_by_the_first_pawn_through() {
    let mut g = game("lesson1", "8/1P6/8/8/8/8/6p1/8 w - - 0 1");
    assert_eq!(legal(&g), ["b7b8"], "the pawn does not promote");
    play(&mut g, &["b8"]);
    assert_eq!(result(&g), Some((WHITE, Reason::PromotionGoal)));
    // Losing every piece loses.
    let mut g = game("lesson2", "8/8/8/8/8/2p5/1B6/8 w - - 0 1");
    play(&mut g, &["Bxc3"]);
    assert_eq!(result(&g), Some((WHITE, Reason::NoPieces)));
    // Pawns stuck head on, nothing else to move: a draw.
    let g = game("lesson1", "8/8/8/3p4/3P4/8/8/8 w - - 0 1");
    assert_eq!(result(&g), Some((None, Reason::Stalemate)));
    // Lesson 6 is played for mate.
    let mut g = game("lesson6", "3k4/8/3K4/8/8/8/8/7Q w - - 0 1");
    play(&mut g, &["Qh8"]);
    assert_eq!(result(&g), Some((WHITE, Reason::Checkmate)));
}

#[test]
fn grand_promotes_only_into_captured_pieces() {
    let pawn_moves = |fen: &str, from: &str| moves_from("grand", fen, from);
    // Only one rook lost: on rank 10 the pawn must become a rook.
    let one_rook_lost = "7k2/4P5/10/10/10/10/10/10/1NBQKCABN1/R9 w - - 0 1";
    assert_eq!(pawn_moves(one_rook_lost, "e9"), ["e9e10r"]);
    // On ranks 8 and 9 promotion is optional.
    let on_eight = "7k2/10/4P5/10/10/10/10/10/1NBQKCABN1/R9 w - - 0 1";
    assert_eq!(pawn_moves(on_eight, "e8"), ["e8e9", "e8e9r"]);
    // Nothing lost: a pawn on rank 9 may not advance.
    let nothing_lost = "7k2/4P5/10/10/10/10/10/10/1NBQKCABN1/R8R w - - 0 1";
    assert_eq!(pawn_moves(nothing_lost, "e9"), Vec::<String>::new());
    // Everything lost: any of the six.
    let all_lost = "k9/4P5/10/10/10/10/10/10/10/4K5 w - - 0 1";
    assert_eq!(
        pawn_moves(all_lost, "e9"),
        ["e9e10a", "e9e10b", "e9e10c", "e9e10n", "e9e10q", "e9e10r"]
    );
}

#[test]
fn diana_castling_swaps_king_and_rook() {
    let mut g = game("diana", "r2k1r/pppppp/6/6/PPPPPP/R2K1R w KQkq - 0 1");
    let moves = legal(&g);
    assert!(moves.contains(&"d1f1".to_string()), "{moves:?}");
    play(&mut g, &["O-O"]);
    assert!(
        g.fen().starts_with("r2k1r/pppppp/6/6/PPPPPP/R2R1K b"),
        "{}",
        g.fen()
    );
}

#[test]
fn semedo_king_does_not_capture_and_the_rocket_jumps_to_capture() {
    // The white king next to an undefended black pawn cannot take it.
    let g = game("semedo", "k4/5/5/5/5/5/2p2/2K1R w - - 0 1");
    let moves = legal(&g);
    assert!(!moves.contains(&"c1c2".to_string()), "{moves:?}");
    // The rocket on e1 moves like a rook but takes only over a screen.
    assert!(moves.contains(&"e1e8".to_string()));
    let g = game("semedo", "k3p/5/5/4P/5/5/5/2K1R w - - 0 1");
    let moves = legal(&g);
    assert!(moves.contains(&"e1e8".to_string()), "{moves:?}");
    assert!(!moves.contains(&"e1e5".to_string()));
}

fn perft(variant: &str, depth: u32) -> u64 {
    let registry = Registry::builtin();
    let game = Game::new(registry.get(variant).expect("variant"), Start::Standard).unwrap();
    game.perft_total(depth)
}

/// Start-position perft: Fairy-Stockfish's numbers (its `shatranj` and
/// `grand`, and the definitions of tests/differential_fsf.py) where it can
/// express the variant; ours alone for chaturanga and Diana (the king's leap,
/// promotion into the start square's piece, castling by swapping).
#[test]
fn start_position_perft() {
    let vectors: [(&str, [u64; 3]); 13] = [
        ("shatranj", [16, 256, 4176]),
        ("giveaway", [20, 400, 8067]),
        ("lesson1", [16, 256, 3846]),
        ("lesson2", [16, 256, 4290]),
        ("lesson3", [18, 324, 6158]),
        ("lesson4", [20, 400, 7726]),
        ("lesson5", [20, 400, 8482]),
        ("lesson6", [12, 144, 2492]),
        ("grand", [65, 4225, 259514]),
        ("greatchess", [24, 576, 18705]),
        ("semedo", [9, 81, 944]),
        ("chaturanga", [14, 196, 3061]),
        ("diana", [8, 64, 0]),
    ];
    for (variant, counts) in vectors {
        for (depth, &expected) in counts.iter().enumerate() {
            if expected == 0 {
                continue;
            }
            assert_eq!(
                perft(variant, depth as u32 + 1),
                expected,
                "{variant} depth {}",
                depth + 1
            );
        }
    }
}

// Frankfurt chess, whale shogi and citadel chess (issue 14, second part).

/// The piece standing on `square` in the game's FEN (its letter), if any.
fn piece_on(game: &Game, square: &str) -> Option<char> {
    let fen = game.fen();
    let board = fen.split([' ', '[']).next().unwrap_or("");
    let rows: Vec<&str> = board.split('/').collect();
    let file = (square.as_bytes()[0] - b'a') as usize;
    let rank: usize = square[1..].parse().ok()?;
    let row = rows.get(rows.len().checked_sub(rank)?)?;
    let mut f = 0usize;
    let mut digits = String::new();
    for c in row.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        f += digits.parse::<usize>().unwrap_or(0);
        digits.clear();
        if c == '~' {
            continue;
        }
        if f == file {
            return Some(c);
        }
        f += 1;
    }
    None
}

#[test]
fn frankfurt_capturer_becomes_the_captured_type() {
    // The seed's example: 1.e4 e5 2.Nf3 Nf6 3.Nxe5 leaves a white pawn on e5.
    let registry = Registry::builtin();
    let mut g = Game::new(registry.get("frankfurt").unwrap(), Start::Standard).unwrap();
    play(&mut g, &["e4", "e5", "Nf3", "Nf6", "Nxe5"]);
    assert_eq!(piece_on(&g, "e5"), Some('P'), "{}", g.fen());
    // The new pawn moves as a pawn.
    play(&mut g, &["d6"]);
    let from_e5: Vec<String> = legal(&g)
        .into_iter()
        .filter(|m| m.starts_with("e5"))
        .collect();
    assert_eq!(from_e5, ["e5d6", "e5e6", "e5f6"]);
}

#[test]
fn frankfurt_king_that_captures_stays_royal() {
    // The king takes a knight and becomes a crowned knight.
    let mut g = game("frankfurt", "r3k3/8/8/8/8/8/3n4/4K3 w - - 0 1");
    play(&mut g, &["Kxd2"]);
    assert_eq!(piece_on(&g, "d2"), Some('H'), "{}", g.fen());
    // A rook on its rank checks it, and it escapes only by knight moves.
    play(&mut g, &["Ra2"]);
    assert!(g.in_check(), "the crowned knight is royal");
    assert_eq!(legal(&g), ["d2b1", "d2b3", "d2c4", "d2e4", "d2f1", "d2f3"]);
    // Mated like a king: the rooks on b8 and c8 guard b3 and c2, the
    // knight's only squares, and Rh1 checks it along the first rank.
    let mut g = game("frankfurt", "1rr1k2r/8/8/8/8/8/8/H7 b - - 0 1");
    play(&mut g, &["Rh1"]);
    assert_eq!(result(&g), Some((Some(Team(1)), Reason::Checkmate)));
}

#[test]
fn frankfurt_pawn_capturing_on_the_last_rank_becomes_that_piece() {
    let mut g = game("frankfurt", "r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(
        moves_from("frankfurt", "r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7"),
        ["b7a8", "b7b8b", "b7b8n", "b7b8q", "b7b8r"]
    );
    play(&mut g, &["b7a8"]);
    assert_eq!(piece_on(&g, "a8"), Some('R'), "{}", g.fen());
    assert!(g.in_check(), "the new rook checks along the rank");
}

#[test]
fn whale_shogi_pieces_move_as_the_rule_book_says() {
    let registry = Registry::builtin();
    let g = Game::new(registry.get("whaleshogi").unwrap(), Start::Standard).unwrap();
    // Six dolphin steps and the narwhal's jump over its own dolphin.
    let mut start = legal(&g);
    start.sort();
    assert_eq!(
        start,
        ["a2a3", "b2b3", "c2c3", "d2d3", "e1e3", "e2e3", "f2f3"]
    );
    // Humpback: forward like a rook, back diagonally like a bishop.
    let humpback = moves_from("whaleshogi", "k5/6/6/2H3/6/5K[] w - - 0 1", "c3");
    assert_eq!(
        humpback,
        ["c3a1", "c3b2", "c3c4", "c3c5", "c3c6", "c3d2", "c3e1"]
    );
    // Grey whale: forward rook, one step diagonally back.
    let grey = moves_from("whaleshogi", "k5/6/6/2G3/6/5K[] w - - 0 1", "c3");
    assert_eq!(grey, ["c3b2", "c3c4", "c3c5", "c3c6", "c3d2"]);
    // Narwhal: left, right, back, or two forward.
    let narwhal = moves_from("whaleshogi", "k5/6/6/2N3/6/5K[] w - - 0 1", "c3");
    assert_eq!(narwhal, ["c3b3", "c3c2", "c3c5", "c3d3"]);
    // Blue whale: forward, forward-diagonal, straight back.
    let blue = moves_from("whaleshogi", "k5/6/6/2B3/6/5K[] w - - 0 1", "c3");
    assert_eq!(blue, ["c3b4", "c3c2", "c3c4", "c3d4"]);
    // Porpoise: left or right only.
    let porpoise = moves_from("whaleshogi", "k5/6/6/2P3/6/5K[] w - - 0 1", "c3");
    assert_eq!(porpoise, ["c3b3", "c3d3"]);
    // Killer whale: rook plus one diagonal step.
    let killer = moves_from("whaleshogi", "5k/6/6/6/6/O4K[] w - - 0 1", "a1");
    assert_eq!(
        killer,
        ["a1a2", "a1a3", "a1a4", "a1a5", "a1a6", "a1b1", "a1b2", "a1c1", "a1d1", "a1e1"]
    );
}

#[test]
fn whale_shogi_dolphin_on_the_far_rank_makes_one_bishop_move_back() {
    let mut g = game("whaleshogi", "k5/2D3/6/6/6/5K[] w - - 0 1");
    assert_eq!(
        moves_from("whaleshogi", "k5/2D3/6/6/6/5K[] w - - 0 1", "c5"),
        ["c5c6f"]
    );
    // Typed as a plain step: the only promotion is taken.
    play(&mut g, &["c6", "a6a5"]);
    let back: Vec<String> = legal(&g)
        .into_iter()
        .filter(|m| m.starts_with("c6"))
        .collect();
    assert_eq!(back, ["c6a4", "c6b5", "c6d5", "c6e4", "c6f3"]);
    play(&mut g, &["c6e4", "a5a6"]);
    assert_eq!(
        piece_on(&g, "e4"),
        Some('D'),
        "a dolphin again: {}",
        g.fen()
    );
    let forward: Vec<String> = legal(&g)
        .into_iter()
        .filter(|m| m.starts_with("e4"))
        .collect();
    assert_eq!(forward, ["e4e5"]);
}

#[test]
fn whale_shogi_captured_porpoise_is_dropped_as_a_killer_whale() {
    let mut g = game("whaleshogi", "k5/6/6/6/2p3/2G2K[] w - - 0 1");
    play(&mut g, &["c1c2"]);
    assert!(g.fen().contains("[O]"), "{}", g.fen());
    play(&mut g, &["a6b6"]);
    let drops: Vec<String> = legal(&g).into_iter().filter(|m| m.contains('@')).collect();
    assert!(drops.iter().all(|m| m.starts_with("O@")), "{drops:?}");
    assert!(drops.contains(&"O@d4".to_string()));
}

#[test]
fn whale_shogi_dolphin_drop_restrictions() {
    // Never on the last rank.
    let drops: Vec<String> = legal(&game("whaleshogi", "k5/6/6/6/6/5K[D] w - - 0 1"))
        .into_iter()
        .filter(|m| m.starts_with("D@"))
        .collect();
    assert_eq!(drops.len(), 29, "every empty square of ranks 1-5");
    assert!(!drops.iter().any(|m| m.ends_with('6')), "{drops:?}");
    // Not on a file that already holds two own dolphins.
    let drops: Vec<String> = legal(&game("whaleshogi", "k5/6/D5/6/D5/5K[D] w - - 0 1"))
        .into_iter()
        .filter(|m| m.starts_with("D@a"))
        .collect();
    assert!(drops.is_empty(), "{drops:?}");
    // One own dolphin on the file: a second may come.
    let drops: Vec<String> = legal(&game("whaleshogi", "k5/6/D5/6/6/5K[D] w - - 0 1"))
        .into_iter()
        .filter(|m| m.starts_with("D@a"))
        .collect();
    assert_eq!(drops, ["D@a1", "D@a2", "D@a3", "D@a5"]);
    // Not to give mate: a dolphin on a5 would mate the whale on a6.
    let fen = "kh4/6/1O4/6/6/5K[D] w - - 0 1";
    let moves = legal(&game("whaleshogi", fen));
    assert!(!moves.contains(&"D@a5".to_string()), "drop-mate refused");
    // The same check without mate (the whale takes the dolphin) is allowed.
    let moves = legal(&game("whaleshogi", "k5/6/6/6/6/5K[D] w - - 0 1"));
    assert!(moves.contains(&"D@a5".to_string()));
}

#[test]
fn whale_shogi_mate_of_the_white_whale_wins() {
    // A killer whale dropped on a5 mates: guarded from b4, which also
    // covers b5; b6 holds the whale's own humpback.
    let mut g = game("whaleshogi", "kh4/6/1O4/6/6/5K[O] w - - 0 1");
    play(&mut g, &["O@a5"]);
    assert_eq!(result(&g), Some((WHITE, Reason::Checkmate)));
}

#[test]
fn citadel_only_kings_enter_the_citadels() {
    // A knight on b3 and an elephant on c3 may not land on a1; the king on b2 may.
    let fen = "12/1k10/12/12/12/12/12/12/12/1NB9/1K10/12 w - - 0 1";
    let moves = legal(&game("citadel", fen));
    assert!(!moves.contains(&"b3a1".to_string()), "{moves:?}");
    assert!(!moves.contains(&"c3a1".to_string()), "{moves:?}");
    assert!(moves.contains(&"b2a1".to_string()), "{moves:?}");
    // A king in a citadel is not attacked by pieces that may not enter it.
    let g = game(
        "citadel",
        "12/1k10/12/12/12/12/12/5w6/12/12/12/K11 w - - 0 1",
    );
    assert!(!g.in_check(), "the war machine cannot reach a1");
    // Only a king may stand on a citadel in a FEN.
    let registry = Registry::builtin();
    let bad = "12/1k10/12/12/12/12/12/12/12/12/1K10/R11 w - - 0 1";
    assert!(Game::new(registry.get("citadel").unwrap(), Start::Fen(bad.into())).is_err());
}

#[test]
fn citadel_king_entering_the_opponents_citadel_draws() {
    let mut g = game(
        "citadel",
        "12/10K1/3p8/12/12/12/12/12/12/3P8/1k10/12 w - - 0 1",
    );
    play(&mut g, &["k11l12"]);
    assert_eq!(result(&g), Some((None, Reason::Citadel)));
    // Its own citadel is no draw.
    let mut g = game(
        "citadel",
        "12/10k1/3p8/12/12/12/12/12/12/3P8/1K10/12 w - - 0 1",
    );
    play(&mut g, &["b2a1"]);
    assert_eq!(result(&g), None);
}

/// Start-position move counts worked out by hand from the rule books (see
/// each line), and chess's own for Frankfurt (no capture is possible before
/// the third ply, so its first three plies are chess's).
#[test]
fn new_start_positions_by_hand() {
    // Frankfurt: chess's 20, 400, 8902.
    assert_eq!(perft("frankfurt", 1), 20);
    assert_eq!(perft("frankfurt", 2), 400);
    assert_eq!(perft("frankfurt", 3), 8902);
    // At depth 4 chess's 197281 differs in four lines only, where a capture
    // on the third ply pins a black pawn in chess but leaves a white pawn in
    // Frankfurt, freeing that pawn's two steps: 1.e3/e4 b5 2.Bxb5 (the d7
    // pawn) and 1.e3/e4 h5 2.Qxh5 (the f7 pawn): 4 × 2 more.
    assert_eq!(perft("frankfurt", 4), 197281 + 8);
    // Whale shogi: six dolphin steps and the narwhal's jump, for each side,
    // neither side's first move touching the other's.
    assert_eq!(perft("whaleshogi", 1), 7);
    assert_eq!(perft("whaleshogi", 2), 7 * 7);
    // Citadel: ten pawn steps, two moves of each knight (b4, d4) and of
    // each elephant (c4/g4, g4/k4); everything else is walled in. The
    // armies are too far apart for a first move to change the other's.
    assert_eq!(perft("citadel", 1), 18);
    assert_eq!(perft("citadel", 2), 18 * 18);
}

/// Random games in the new variants: every position written as FEN reads
/// back to the same legal moves (hands, crowned pieces, dolphins on the far
/// rank, kings in citadels), and no game stalls without an outcome.
#[test]
fn new_variants_random_games_round_trip_through_fen() {
    let registry = Registry::builtin();
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    for variant in ["frankfurt", "whaleshogi", "citadel"] {
        for _ in 0..12 {
            let mut g = Game::new(registry.get(variant).unwrap(), Start::Standard).unwrap();
            for _ in 0..160 {
                if g.outcome().is_some() {
                    break;
                }
                let moves = legal(&g);
                assert!(
                    !moves.is_empty(),
                    "{variant}: no moves, no outcome: {}",
                    g.fen()
                );
                let again = game(variant, &g.fen());
                assert_eq!(legal(&again), moves, "{variant}: {}", g.fen());
                let mv = moves[next(moves.len())].clone();
                play(&mut g, &[&mv]);
            }
        }
    }
}
