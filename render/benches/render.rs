//! Time to draw and encode one board, and its PNG size:
//! `cargo bench -p kodex-render --bench render`.
//!
//! The encoder remembers the compressed ranks of boards it drew (see
//! `deflate.rs`), so a board is measured three ways: drawn again (every rank
//! remembered), from scratch (nothing remembered), and the positions of a game
//! in order from scratch (what a game costs: a move changes a few ranks).

use criterion::{criterion_group, criterion_main, Criterion};
use kodex_engine::{Audience, Game, Registry, Side, Start, View};
use kodex_render::{forget_remembered_bands, render_png, samples, Decor};
use std::hint::black_box;

fn decor(bottom: Side) -> Decor {
    Decor {
        bottom,
        names: vec!["Alice".into(), "Bob".into()],
        clocks: vec![Some("4:12".into()), Some("3:58".into())],
        status: None,
        to_move: None,
        ..Decor::default()
    }
}

fn bench_board(c: &mut Criterion, name: &str, view: View, decor: Decor) {
    // The first image builds the shared renderer and its tiles; the bench measures the rest.
    let png = render_png(&view, &decor);
    println!("{name}: {} bytes", png.len());
    c.bench_function(name, |b| {
        b.iter(|| render_png(black_box(&view), black_box(&decor)))
    });
    c.bench_function(&format!("{name}, from scratch"), |b| {
        b.iter(|| {
            forget_remembered_bands();
            render_png(black_box(&view), black_box(&decor))
        })
    });
}

/// A Ruy Lopez and a middle game: 40 half-moves.
const GAME: &str = "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Nb8 d4 Nbd7 \
                    c4 c6 cxb5 axb5 Nc3 Bb7 Bg5 b4 Nb1 h6 Bh4 c5 dxe5 Nxe4 Bxe7 Qxe7 exd6 Qf6 Nbd2 Nxd6";

/// Every position of [`GAME`] in order, from scratch each time round.
fn game(c: &mut Criterion) {
    let registry = Registry::builtin();
    let chess = registry.get("chess").expect("chess");
    let mut game = Game::new(chess, Start::Standard).expect("start");
    let mut views = vec![game.view(Audience::Full)];
    for mv in GAME.split_whitespace() {
        game.play_text(mv).expect("the game is legal");
        views.push(game.view(Audience::Full));
    }
    let decor = decor(Side::WHITE);
    c.bench_function(&format!("8x8 game of {} positions", views.len()), |b| {
        b.iter(|| {
            forget_remembered_bands();
            for view in &views {
                black_box(render_png(black_box(view), &decor));
            }
        })
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
    // What the chat's board carries besides: material in a strip, the last move.
    bench_board(
        c,
        "8x8 middlegame, material and last move",
        samples::middlegame(),
        Decor {
            material: vec![
                kodex_render::Material {
                    pieces: vec![
                        samples::glyph('p'),
                        samples::glyph('p'),
                        samples::glyph('n'),
                    ],
                    advantage: Some(5),
                },
                kodex_render::Material::default(),
            ],
            last_move: Some("23… Nxd6".into()),
            ..decor(Side::WHITE)
        },
    );
    bench_board(c, "10x10", samples::ten_by_ten(), decor(Side::WHITE));
    bench_board(c, "8x8 fog", samples::fog(), decor(Side::BLACK));
}

criterion_group!(benches, boards, game);
criterion_main!(benches);
