//! Perft speed against shakmaty on a shared, loaded machine:
//! `cargo run --profile bench -p kodex-engine --example perft_vs_shakmaty -- [runs] [variant]`.
//!
//! Criterion's means wander with the load of other processes; here both
//! engines count the same start position at depth 4 in turns, `runs` times
//! (30 by default), and the fastest run of each is compared, so a busy
//! neighbour slows both alike and rarely the best run. Node counts must agree.

use kodex_engine::{Game, Registry, Start};
use shakmaty::variant::{Variant, VariantPosition};
use std::hint::black_box;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let runs: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(30);
    let only = args.get(2).cloned();
    let registry = Registry::builtin();
    for (name, variant) in [
        ("chess", Variant::Chess),
        ("atomic", Variant::Atomic),
        ("crazyhouse", Variant::Crazyhouse),
        ("racingkings", Variant::RacingKings),
        ("antichess", Variant::Antichess),
    ] {
        if only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        let game = Game::new(registry.get(name).expect(name), Start::Standard).expect(name);
        let position = VariantPosition::new(variant);
        let (mut ours, mut theirs) = (f64::MAX, f64::MAX);
        for _ in 0..runs {
            let start = Instant::now();
            let a = black_box(game.perft_total(black_box(4)));
            ours = ours.min(start.elapsed().as_secs_f64());
            let start = Instant::now();
            let b = black_box(shakmaty::perft(&position, black_box(4)));
            theirs = theirs.min(start.elapsed().as_secs_f64());
            assert_eq!(a, b, "{name}: node counts differ");
        }
        println!(
            "{name:12} kodex {:7.3} ms  shakmaty {:7.3} ms  ratio {:.2}",
            ours * 1e3,
            theirs * 1e3,
            ours / theirs
        );
    }
}
