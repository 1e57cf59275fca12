//! Perft vectors for every variant: published numbers (chessprogramming wiki,
//! Fairy-Stockfish `tests/perft.sh`, python-chess and shakmaty perft files),
//! each also confirmed here with Stockfish, Fairy-Stockfish or python-chess.
//! The deep ones are `#[ignore]`d: `cargo test --release -p kodex-engine --test engine perft:: -- --ignored`.

use kodex_engine::{Game, Registry, Start};

fn perft(variant: &str, fen: Option<&str>, depth: u32) -> u64 {
    let registry = Registry::builtin();
    let variant = registry.get(variant).expect("variant");
    let start = fen
        .map(|f| Start::Fen(f.to_string()))
        .unwrap_or(Start::Standard);
    let game = Game::new(variant, start).expect("position");
    game.perft_total(depth)
}

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

#[test]
fn chess_start_position() {
    assert_eq!(perft("chess", None, 1), 20);
    assert_eq!(perft("chess", None, 2), 400);
    assert_eq!(perft("chess", None, 3), 8_902);
    assert_eq!(perft("chess", None, 4), 197_281);
}

#[test]
fn chess_classic_test_positions() {
    assert_eq!(perft("chess", Some(KIWIPETE), 3), 97_862);
    assert_eq!(
        perft(
            "chess",
            Some("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
            5
        ),
        674_624
    );
    assert_eq!(
        perft(
            "chess",
            Some("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"),
            4
        ),
        422_333
    );
    assert_eq!(
        perft(
            "chess",
            Some("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"),
            3
        ),
        62_379
    );
    assert_eq!(
        perft(
            "chess",
            Some("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P3/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"),
            3
        ),
        81_467
    );
}

#[test]
#[ignore = "deep: run with --ignored in release"]
fn chess_deep() {
    assert_eq!(perft("chess", None, 5), 4_865_609);
    assert_eq!(perft("chess", Some(KIWIPETE), 4), 4_085_603);
    assert_eq!(perft("chess", Some(KIWIPETE), 5), 193_690_690);
}

#[test]
fn chess960_positions() {
    assert_eq!(
        perft(
            "chess960",
            Some("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"),
            3
        ),
        12_189
    );
    assert_eq!(
        perft(
            "chess960",
            Some("2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9"),
            3
        ),
        18_002
    );
    assert_eq!(
        perft(
            "chess960",
            Some("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"),
            4
        ),
        326_672
    );
}

#[test]
fn atomic() {
    assert_eq!(perft("atomic", None, 4), 197_326);
    // lichess rules (python-chess agrees; Fairy-Stockfish's atomic differs here).
    assert_eq!(
        perft(
            "atomic",
            Some("rn2kb1r/1pp1p2p/p2q1pp1/3P4/2P3b1/4PN2/PP3PPP/R2QKB1R b KQkq - 0 1"),
            3
        ),
        45_237
    );
}

/// Atomic castling: kings that touch give no check, so the king may start on,
/// pass through and land on a square attacked by the enemy when that square
/// touches the enemy king. Numbers from python-chess's `AtomicBoard`.
#[test]
fn atomic_castling_next_to_the_enemy_king() {
    // c1 and d1 are attacked by the rook on c8/the king's path, but touch the black king on b2.
    let fen = "2r5/8/8/8/8/8/1k6/R3K3 w Q - 0 1";
    let registry = Registry::builtin();
    let game = Game::new(
        registry.get("atomic").expect("atomic"),
        Start::Fen(fen.into()),
    )
    .expect("position");
    let moves: Vec<String> = game
        .legal_moves()
        .into_iter()
        .map(|m| game.uci(m))
        .collect();
    assert_eq!(moves.len(), 16, "{moves:?}");
    assert!(moves.iter().any(|m| m == "e1c1"), "{moves:?}");
    assert_eq!(perft("atomic", Some(fen), 2), 262);
    assert_eq!(perft("atomic", Some(fen), 3), 4_092);
    // The king on e1 is attacked by the rook on e8 but touches the black king: not in check,
    // so it may castle.
    assert_eq!(
        perft("atomic", Some("4r3/8/8/8/8/8/3k4/R3K2R w KQ - 0 1"), 3),
        10_809
    );
    // Black: d8 and c8 touch the white king on d7 (allowed); f8 is attacked and does not (no O-O).
    assert_eq!(
        perft("atomic", Some("r3k2r/3K4/8/8/8/8/8/5R2 b kq - 0 1"), 3),
        10_692
    );
}

/// The same exception with Chess960 castling (king-takes-rook), in an atomic960 variant.
#[test]
fn atomic960_castling_next_to_the_enemy_king() {
    let mut registry = Registry::builtin();
    let variant = registry
        .add_definition(
            "atomic960.toml",
            "id = \"atomic960\"\nextends = \"atomic\"\nchess960 = true\n",
        )
        .expect("definition")
        .clone();
    let perft960 = |fen: &str, depth| {
        Game::new(&variant, Start::Fen(fen.into()))
            .expect("position")
            .perft_total(depth)
    };
    let fen = "2r5/8/8/8/8/8/1k6/1R3K2 w B - 0 1";
    let game = Game::new(&variant, Start::Fen(fen.into())).expect("position");
    let moves: Vec<String> = game
        .legal_moves()
        .into_iter()
        .map(|m| game.uci_with(m, true))
        .collect();
    assert!(moves.iter().any(|m| m == "f1b1"), "{moves:?}");
    assert_eq!(perft960(fen, 1), 11);
    assert_eq!(perft960(fen, 3), 1_618);
    assert_eq!(perft960("1r3k2/3K4/8/8/8/8/8/3RR3 b b - 0 1", 3), 5_774);
    assert_eq!(perft960("1r3k2/3K4/8/8/8/8/8/2RRR3 b b - 0 1", 3), 7_082);
}

/// Atomic960 castling judged as VARIANTS.md says — "the king may not pass through, start in or
/// land in check" (Codex 02) and "kings standing adjacent give no check" (Codex 04): the squares
/// the king passes are judged in the position before the move, where the castling rook still
/// stands and may shield them; the square it lands on in the position after it, with the rook on
/// its new square (shakmaty's rule too). Numbers from Fairy-Stockfish
/// (`pyffish.legal_moves("atomic", fen, moves, True)`, counted by hand to depth 4).
#[test]
fn atomic960_castling_squares_judged_before_and_after_the_move() {
    let mut registry = Registry::builtin();
    let variant = registry
        .add_definition(
            "atomic960.toml",
            "id = \"atomic960\"\nextends = \"atomic\"\nchess960 = true\n",
        )
        .expect("definition")
        .clone();
    let game = |fen: &str| Game::new(&variant, Start::Fen(fen.into())).expect("position");
    let moves = |fen: &str| -> Vec<String> {
        let game = game(fen);
        game.legal_moves()
            .into_iter()
            .map(|m| game.uci_with(m, true))
            .collect()
    };
    // The rook on a1 "attacks" e1 and f1 only through the castling rook on b1: the king passes
    // them unattacked; c1 and d1, where the rook's fire reaches once it has moved, touch the
    // black king on c2.
    let fen = "8/8/8/8/8/8/2k5/rR4KR w KQ - 0 1";
    let listed = moves(fen);
    assert!(listed.iter().any(|m| m == "g1b1"), "{listed:?}");
    assert_eq!(listed.len(), 18, "{listed:?}");
    assert_eq!(game(fen).perft_total(2), 180);
    assert_eq!(game(fen).perft_total(3), 4_364);
    assert_eq!(game(fen).perft_total(4), 61_401);
    // The king on b1 touches the black king on a2 (no check from the rook on h1); it lands on
    // c1, where the castled rook on d1 stands between it and the rook on h1.
    let fen = "8/8/8/8/8/8/k7/RK5r w A - 0 1";
    let listed = moves(fen);
    assert!(listed.iter().any(|m| m == "b1a1"), "{listed:?}");
    assert_eq!(listed.len(), 3, "{listed:?}");
    assert_eq!(game(fen).perft_total(2), 35);
    assert_eq!(game(fen).perft_total(3), 402);
}

#[test]
fn crazyhouse() {
    assert_eq!(
        perft("crazyhouse", Some("2k5/8/8/8/8/8/8/4K3[Qn] w - - 0 1"), 3),
        88_634
    );
    assert_eq!(perft("crazyhouse", None, 4), 197_281);
}

#[test]
#[ignore = "deep: run with --ignored in release"]
fn crazyhouse_deep() {
    assert_eq!(perft("crazyhouse", None, 5), 4_888_832);
}

#[test]
fn horde() {
    assert_eq!(perft("horde", None, 4), 23_310);
    assert_eq!(perft("horde", None, 5), 265_223);
}

#[test]
fn racing_kings() {
    assert_eq!(perft("racingkings", None, 4), 296_242);
    // Black king already on the goal: the race is over.
    assert_eq!(
        perft("racingkings", Some("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), 2),
        0
    );
}

#[test]
fn antichess() {
    assert_eq!(perft("antichess", None, 3), 8_067);
    assert_eq!(perft("antichess", None, 4), 153_299);
}

#[test]
fn three_check() {
    assert_eq!(perft("threecheck", None, 4), 197_281);
    assert_eq!(
        perft(
            "threecheck",
            Some("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2+3 2 3"),
            4
        ),
        750_862
    );
}

#[test]
fn king_of_the_hill() {
    assert_eq!(perft("kingofthehill", None, 4), 197_281);
    // Black's king stands on the hill: the game is over.
    assert_eq!(
        perft("kingofthehill", Some("8/8/8/3k4/8/8/8/4K3 w - - 0 1"), 2),
        0
    );
}

#[test]
fn fog_of_war_moves_like_chess() {
    assert_eq!(perft("fogofwar", None, 4), 197_281);
}

/// Perft's last ply counts moves without listing them (pawns all at once,
/// sliders by magic on 8×8): on random games of every variant, and of
/// variants with other boards and pawns, the count equals the listing.
#[test]
fn the_last_ply_count_equals_the_listing() {
    let mut registry = Registry::builtin();
    let extra = [
        (
            "minichess.toml",
            "id = \"minichess\"\nextends = \"chess\"\nfiles = 6\nranks = 6\ncastling = false\n\
             start = \"rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1\"\n\
             [pieces.p]\ndrop_ranks = [2, 5]\n",
        ),
        (
            "berolina.toml",
            "id = \"berolina\"\nextends = \"chess\"\n[pieces.p]\nbetza = \"fmFfcWifmnA\"\n",
        ),
        (
            "wide.toml",
            "id = \"wide\"\nextends = \"chess\"\nfiles = 10\ncastling = false\n\
             start = \"rnbqkbbqnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQKBBQNR w - - 0 1\"\n",
        ),
        (
            "sidestep.toml",
            "id = \"sidestep\"\nextends = \"chess\"\n[pieces.p]\nbetza = \"fsmWfceFifmnDfcW\"\n\
             [pieces.q]\nbetza = \"RN\"\n",
        ),
    ];
    let mut extra_ids = Vec::new();
    for (file, text) in extra {
        let variant = registry.add_definition(file, text).expect(file);
        extra_ids.push(variant.id().to_string());
    }
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut below = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    for variant in registry.all() {
        for game_number in 0..8 {
            let mut game = Game::new(variant, Start::Standard).expect("start");
            for ply in 0..150 {
                if game.outcome().is_some() {
                    break;
                }
                let moves = game.legal_moves();
                assert_eq!(
                    game.perft_total(1),
                    moves.len() as u64,
                    "{} game {game_number} ply {ply}",
                    variant.id()
                );
                if moves.is_empty() {
                    break;
                }
                game.play(moves[below(moves.len())]);
            }
        }
    }
    for id in extra_ids {
        assert!(registry.get(&id).is_some(), "{id}");
    }
}
