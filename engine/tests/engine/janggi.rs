//! Janggi (VARIANTS.md, seed 000): the palace rules as variant keys, checked
//! rule by rule, and perft vectors produced by Fairy-Stockfish's `janggi`
//! (`engine/tests/fsf/janggi_check.py` compares legal-move sets on random
//! games and prints such numbers). Deep ones are `#[ignore]`d:
//! `cargo test --release -p kodex-engine --test engine janggi:: -- --ignored`.

use crate::common::legal;
use kodex_engine::{Game, MoveError, Reason, Registry, Standing, Start, Team};

fn game(fen: Option<&str>) -> Game {
    let registry = Registry::builtin();
    let variant = registry.get("janggi").expect("janggi is built in");
    let start = fen.map_or(Start::Standard, |f| Start::Fen(f.to_string()));
    Game::new(variant, start).expect("position")
}

/// Positions from random games, with Fairy-Stockfish's perft 1–3 (Kodex agrees).
const VECTORS: &[(&str, &str, [u64; 3])] = &[
    (
        "chariot in a palace",
        "1n1aa1bn1/4rk1r1/1c5c1/R1p1b1p1p/1C2p4/9/1PP1PP1P1/7CN/4KR3/1NBA1AB2 w - - 5 10",
        [49, 1_592, 77_623],
    ),
    (
        "cannon on a palace corner",
        "r1ba2b1r/5a3/2nck2cn/p1p1p1p1p/R8/9/1PPPB1PP1/1C5C1/4K4/1N1A1ABNR w - - 10 6",
        [56, 2_023, 108_578],
    ),
    (
        "generals facing (bikjang)",
        "R2r2bn1/3aa4/1cnk3cr/2p4p1/1C3N3/2P2P3/P3p3B/3K5/3A1C3/1NB2A2b w - - 17 45",
        [5, 150, 5_400],
    ),
    (
        "soldier in the enemy palace",
        "3aa1b2/9/n2rkPn2/b8/p1p3Pp1/cr7/PN5P1/1C3K3/7R1/2BAA2N1 b - - 5 55",
        [1, 4, 183],
    ),
    (
        "middlegame",
        "2b1a1bn1/3a3r1/1cn1kr1c1/R1p3p1p/1C2p4/9/1PP1PPP2/NC2R3N/3AK4/2B2AB2 w - - 17 16",
        [46, 1_840, 86_444],
    ),
];

#[test]
fn start_position_perft_matches_fairy_stockfish() {
    let start = game(None);
    assert_eq!(start.perft_total(1), 32);
    assert_eq!(start.perft_total(2), 1_024);
    assert_eq!(start.perft_total(3), 33_000);
}

#[test]
#[ignore]
fn start_position_perft_4() {
    assert_eq!(game(None).perft_total(4), 1_065_277);
}

#[test]
fn random_game_positions_perft_matches_fairy_stockfish() {
    for (name, fen, counts) in VECTORS {
        let g = game(Some(fen));
        for (depth, &count) in counts.iter().enumerate().take(2) {
            assert_eq!(
                g.perft_total(depth as u32 + 1),
                count,
                "{name} depth {}",
                depth + 1
            );
        }
    }
}

#[test]
#[ignore]
fn random_game_positions_perft_3() {
    for (name, fen, counts) in VECTORS {
        assert_eq!(game(Some(fen)).perft_total(3), counts[2], "{name}");
    }
}

#[test]
fn generals_and_guards_stay_in_the_palace_and_follow_its_lines() {
    // Blue general on d1 (a corner): e1, d2 and the diagonal to e2; never c1.
    let g = game(Some("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1"));
    let moves = legal(&g);
    for expected in ["d1d2", "d1e1", "d1e2", "d1d1"] {
        assert!(
            moves.contains(&expected.to_string()),
            "{expected} in {moves:?}"
        );
    }
    assert!(!moves.contains(&"d1c1".to_string()), "{moves:?}");
    // From d2 (an edge midpoint, off the diagonals) no diagonal step.
    let g = game(Some("4k4/9/9/9/9/9/9/9/3K5/9 w - - 0 1"));
    let moves = legal(&g);
    assert!(!moves.contains(&"d2e3".to_string()), "{moves:?}");
    assert!(!moves.contains(&"d2c2".to_string()), "{moves:?}");
    assert!(moves.contains(&"d2e2".to_string()), "{moves:?}");
}

#[test]
fn chariots_ride_the_palace_diagonals() {
    // A blue chariot on d8 rides d8-e9-f10 across the red palace.
    let g = game(Some("4k4/9/3R5/9/9/9/9/9/9/3K5 w - - 0 1"));
    let moves = legal(&g);
    assert!(moves.contains(&"d8e9".to_string()), "{moves:?}");
    assert!(moves.contains(&"d8f10".to_string()), "{moves:?}");
    // Off the marked lines, no diagonal ride (c7 is outside the palace).
    assert!(!moves.contains(&"d8c7".to_string()), "{moves:?}");
}

#[test]
fn the_cannon_needs_a_screen_and_never_jumps_or_takes_a_cannon() {
    let cannon_moves = |fen: &str| -> Vec<String> {
        legal(&game(Some(fen)))
            .into_iter()
            .filter(|m| m.starts_with("a1"))
            .collect()
    };
    // Screen a3 (a soldier), red chariot a6: a4, a5, or take a6; nothing
    // along the empty first rank.
    assert_eq!(
        cannon_moves("3k5/9/9/9/r8/9/9/P8/4K4/C8 w - - 0 1"),
        ["a1a4", "a1a5", "a1a6"]
    );
    // A cannon is no screen.
    assert!(cannon_moves("3k5/9/9/9/r8/9/9/c8/4K4/C8 w - - 0 1").is_empty());
    // A cannon is never taken by a cannon.
    assert_eq!(
        cannon_moves("3k5/9/9/9/c8/9/9/P8/4K4/C8 w - - 0 1"),
        ["a1a4", "a1a5"]
    );
}

#[test]
fn a_pass_is_typed_and_allowed_only_out_of_check() {
    let mut g = game(None);
    let played = g.play_text("pass").expect("a pass at the start");
    assert_eq!(played.uci, "e2e2");
    assert_eq!(played.san, "pass");
    g.play_text("пас").expect("Russian pass");
    // Two passes in a row end the game on points: red's 1.5 decides an even board.
    let outcome = g.outcome().expect("two passes end the game");
    assert_eq!(outcome.reason, Reason::Passes);
    assert_eq!(outcome.standing, Standing::Win(Team(1)));
    // In check (a red chariot on the e-file), no pass.
    let g = game(Some("4k4/9/9/9/9/9/4r4/9/4K4/9 w - - 0 1"));
    assert_eq!(g.parse_move("pass"), Err(MoveError::Illegal));
    assert!(!legal(&g).contains(&"e2e2".to_string()));
}

#[test]
fn bikjang_must_be_broken_or_it_ends_the_game_on_points() {
    // Blue moves its guard off the e-file: the generals now face each other.
    let mut g = game(Some("4k4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1"));
    g.play_text("e2d2").expect("opening the file is legal");
    assert!(g.outcome().is_none());
    // Red must break the facing or pass: every legal move does one or the other.
    for mv in legal(&g) {
        assert!(
            mv == "e10e10" || !mv.starts_with("e10e"),
            "{mv} keeps the facing"
        );
    }
    g.play_text("pass")
        .expect("a pass is always allowed in bikjang");
    let outcome = g.outcome().expect("the facing survived a move");
    assert_eq!(outcome.reason, Reason::Bikjang);
    // Blue 3 (a guard) against red 1.5: blue wins on points.
    assert_eq!(outcome.standing, Standing::Win(Team(0)));
}

#[test]
fn repetition_is_decided_by_points() {
    let mut g = game(Some("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1"));
    for mv in [
        "a1a2", "d10d9", "a2a1", "d9d10", "a1a2", "d10d9", "a2a1", "d9d10",
    ] {
        assert!(g.outcome().is_none(), "ended before {mv}");
        g.play_text(mv).expect(mv);
    }
    let outcome = g.outcome().expect("threefold repetition");
    assert_eq!(outcome.reason, Reason::Points);
    assert_eq!(outcome.standing, Standing::Win(Team(0)));
}

#[test]
fn palace_keys_are_checked() {
    let mut registry = Registry::builtin();
    let bad = [
        ("lines = [\"d1-e3\"]\n", "lines"),
        ("lines = [\"d1-z9\"]\n", "lines"),
        ("river = 10\n", "river"),
        (
            "[pieces.k]\nconfined = [\"nowhere\", \"palace_red\"]\n",
            "pieces.k.confined",
        ),
        (
            "[pieces.c]\nhops_not_over = [\"x\"]\n",
            "pieces.c.hops_not_over",
        ),
        ("[counting]\nvalues = { x = 1 }\n", "counting.values"),
    ];
    for (text, key) in bad {
        let definition = format!("id = \"bad\"\nextends = \"janggi\"\n{text}");
        let e = registry
            .add_definition("bad.toml", &definition)
            .err()
            .unwrap_or_else(|| panic!("{text} accepted"));
        assert_eq!(e.key, key, "{e}");
    }
}
