//! Prints time-travel games as PGN for `tests/pgn_check.py`:
//! `cargo run -p kodex-engine --example timetravel_pgn -- [random games]`.
//!
//! First a scripted game with two jumps (one capturing), then random games
//! (a quarter of the turns jump when they can), separated by blank lines.

use kodex_engine::{Game, Registry, Start};

fn main() {
    let count: u64 = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(20);
    let registry = Registry::builtin();
    let Some(variant) = registry.get("timetravel") else {
        eprintln!("timetravel is not built in");
        std::process::exit(1);
    };
    let Ok(mut game) = Game::new(variant, Start::Standard) else {
        eprintln!("the start position does not load");
        std::process::exit(1);
    };
    for turn in [
        "e4",
        "e5",
        "Nf3",
        "Nc6",
        "Bc4",
        "Nf6",
        "T-2:Bc4 d4",
        "exd4",
        "c3",
        "T-1:d4 Nf6",
        "Nf3",
    ] {
        if let Err(e) = game.play_turn(turn) {
            eprintln!("{turn}: {e}");
            std::process::exit(1);
        }
    }
    let tags = [
        ("Event", "Kodex time travel check"),
        ("Variant", "Time travel"),
    ];
    print!("{}", game.pgn(&tags, "*"));
    let mut below = kodex_engine::setup::picker(0x2545_F491_4F6C_DD1D);
    for _ in 0..count {
        let Ok(mut game) = Game::new(variant, Start::Standard) else {
            continue;
        };
        for _ in 0..80 {
            if game.outcome().is_some() {
                break;
            }
            let jumps = game.legal_jumps();
            if !jumps.is_empty() && below(4) == 0 {
                let _ = game.jump(jumps[below(jumps.len())]);
            }
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            game.play(moves[below(moves.len())]);
        }
        let result = game.outcome().map_or("*", |o| match o.winner() {
            Some(team) if team.0 == 0 => "1-0",
            Some(_) => "0-1",
            None => "1/2-1/2",
        });
        println!();
        print!("{}", game.pgn(&tags, result));
    }
}
