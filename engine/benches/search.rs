//! Search speed: `cargo bench -p kodex-engine --bench search`. A fixed node
//! budget from a middlegame of chess and the start of a few variants; the
//! time per iteration gives nodes per second (budget / time).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use kodex_engine::search::{think, Limits, Searcher};
use kodex_engine::{Game, Registry, Start};
use std::hint::black_box;

const NODES: u64 = 50_000;

fn search(c: &mut Criterion) {
    let registry = Registry::builtin();
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    group.throughput(Throughput::Elements(NODES));
    let positions = [
        (
            "chess",
            Some("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8"),
        ),
        ("atomic", None),
        ("crazyhouse", None),
        ("antichess", None),
        ("racingkings", None),
    ];
    for (id, fen) in positions {
        let variant = registry.get(id).expect(id);
        let start = fen
            .map(|f| Start::Fen(f.to_string()))
            .unwrap_or(Start::Standard);
        let game = Game::new(variant, start).expect("position");
        let limits = Limits {
            nodes: Some(NODES),
            ..Limits::default()
        };
        group.bench_with_input(BenchmarkId::new(id, NODES), &limits, |b, limits| {
            b.iter(|| {
                let mut searcher = Searcher::new(4);
                black_box(think(&game.search_board(), limits, &mut searcher))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, search);
criterion_main!(benches);
