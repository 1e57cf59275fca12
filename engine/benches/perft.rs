//! Perft speed: `cargo bench -p kodex-engine --bench perft`.
//! Chess start position (d5 is measured by `kodex-uci`; criterion samples d4)
//! and Kiwipete, plus the start position of every built-in variant.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use kodex_engine::{Game, Registry, Start};
use std::hint::black_box;

fn perft(c: &mut Criterion) {
    let registry = Registry::builtin();
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    let chess = registry.get("chess").expect("chess");
    let kiwipete = Game::new(
        chess,
        Start::Fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1".into()),
    )
    .expect("kiwipete");
    group.bench_function("chess/kiwipete/d3", |b| {
        b.iter(|| black_box(kiwipete.perft_total(3)))
    });
    for variant in registry.all() {
        let game = Game::new(variant, Start::Standard).expect("start");
        let depth = if variant.id() == "horde" { 5 } else { 4 };
        group.bench_with_input(
            BenchmarkId::new(variant.id(), format!("d{depth}")),
            &depth,
            |b, &d| b.iter(|| black_box(game.perft_total(d))),
        );
    }
    group.finish();

    // The same start positions in shakmaty, side by side.
    let mut reference = c.benchmark_group("shakmaty");
    reference.sample_size(10);
    use shakmaty::variant::{Variant, VariantPosition};
    for (name, variant) in [
        ("chess", Variant::Chess),
        ("atomic", Variant::Atomic),
        ("crazyhouse", Variant::Crazyhouse),
        ("racingkings", Variant::RacingKings),
        ("antichess", Variant::Antichess),
    ] {
        let pos = VariantPosition::new(variant);
        reference.bench_function(format!("{name}/d4"), |b| {
            b.iter(|| black_box(shakmaty::perft(&pos, 4)))
        });
    }
    reference.finish();
}

criterion_group!(benches, perft);
criterion_main!(benches);
