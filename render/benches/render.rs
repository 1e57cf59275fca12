//! Time to draw and encode one board, and its PNG size:
//! `cargo bench -p kodex-render --bench render`.

use criterion::{criterion_group, criterion_main, Criterion};
use kodex_engine::{Side, View};
use kodex_render::{render_png, samples, Decor};
use std::hint::black_box;

fn decor(bottom: Side) -> Decor {
    Decor {
        bottom,
        names: vec!["Alice".into(), "Bob".into()],
        clocks: vec![Some("4:12".into()), Some("3:58".into())],
        status: None,
    }
}

fn bench_board(c: &mut Criterion, name: &str, view: View, decor: Decor) {
    // The first image builds the shared renderer and its tiles; the bench measures the rest.
    let png = render_png(&view, &decor);
    println!("{name}: {} bytes", png.len());
    c.bench_function(name, |b| {
        b.iter(|| render_png(black_box(&view), black_box(&decor)))
    });
}

fn boards(c: &mut Criterion) {
    bench_board(
        c,
        "8x8 middlegame",
        samples::middlegame(),
        decor(Side::WHITE),
    );
    bench_board(
        c,
        "8x8 crazyhouse",
        samples::crazyhouse(),
        decor(Side::BLACK),
    );
    bench_board(c, "10x10", samples::ten_by_ten(), decor(Side::WHITE));
    bench_board(c, "8x8 fog", samples::fog(), decor(Side::BLACK));
}

criterion_group!(benches, boards);
criterion_main!(benches);
