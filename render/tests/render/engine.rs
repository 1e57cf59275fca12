//! The renderer with real engine views, and the `kodex-render` command line.

use kodex_engine::{Audience, Game, Registry, Side, Start};
use kodex_render::{render_gif, render_png, Decor};
use std::process::Command;

fn game(variant: &str, fen: &str) -> Game {
    let registry = Registry::builtin();
    let variant = registry.get(variant).expect("a built-in variant");
    Game::new(variant, Start::Fen(fen.to_string())).expect("a valid FEN")
}

#[test]
fn what_hides_in_the_fog_does_not_change_a_single_byte() {
    // The same white army; black's hidden pieces stand differently.
    let first = game(
        "fogofwar",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    );
    let second = game(
        "fogofwar",
        "r1bqkb1r/pppppppp/2n2n2/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    );
    let decor = Decor {
        bottom: Side::WHITE,
        ..Decor::default()
    };
    let white_first = render_png(&first.view(Audience::Side(Side::WHITE)), &decor);
    let white_second = render_png(&second.view(Audience::Side(Side::WHITE)), &decor);
    assert_eq!(white_first, white_second);
    // Black sees the difference.
    let black_first = render_png(&first.view(Audience::Side(Side::BLACK)), &decor);
    let black_second = render_png(&second.view(Audience::Side(Side::BLACK)), &decor);
    assert_ne!(black_first, black_second);
}

#[test]
fn a_forty_move_game_gif_stays_small() {
    let registry = Registry::builtin();
    let chess = registry.get("chess").expect("chess is built in");
    let mut game = Game::new(chess, Start::Standard).expect("the start position");
    // A deterministic walk through legal moves: 80 plies unless the game ends first.
    for ply in 0..80usize {
        let moves = game.legal_moves();
        if moves.is_empty() || game.outcome().is_some() {
            break;
        }
        game.play(moves[(ply * 7 + 3) % moves.len()]);
    }
    let decor = Decor {
        bottom: Side::WHITE,
        names: vec!["Alice".into(), "Bob".into()],
        clocks: vec![],
        status: None,
        to_move: None,
        ..Decor::default()
    };
    let frames: Vec<_> = (0..=game.ply())
        .map(|ply| (game.view_at(ply, Audience::Full), decor.clone()))
        .collect();
    let gif = render_gif(&frames);
    eprintln!(
        "{} plies: GIF of {} frames, {} bytes",
        game.ply(),
        frames.len(),
        gif.len()
    );
    assert!(
        game.ply() >= 40,
        "the walk lasted only {} plies",
        game.ply()
    );
    assert!(gif.len() < 2 * 1024 * 1024, "{} bytes", gif.len());
}

fn kodex_render(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_kodex-render"))
        .args(args)
        .output()
        .expect("the binary runs")
}

#[test]
fn the_command_line_writes_a_png_of_a_fen() {
    let out = std::env::temp_dir().join(format!("kodex-render-cli-{}.png", std::process::id()));
    let out_text = out.to_string_lossy().to_string();
    let result = kodex_render(&[
        "--variant",
        "crazyhouse",
        "--fen",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[] w KQkq - 2 3",
        "--pov",
        "black",
        "--lastmove",
        "b8c6",
        "--out",
        &out_text,
    ]);
    assert!(
        result.status.success(),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
    let bytes = std::fs::read(&out).expect("the PNG was written");
    let _ = std::fs::remove_file(&out);
    assert!(bytes.starts_with(b"\x89PNG"));
}

#[test]
fn the_command_line_rejects_a_bad_variant_or_fen() {
    let out = std::env::temp_dir().join("kodex-render-never-written.png");
    let out_text = out.to_string_lossy().to_string();
    let bad_variant = kodex_render(&[
        "--variant",
        "nochess",
        "--fen",
        "8/8/8/8/8/8/8/8 w - - 0 1",
        "--out",
        &out_text,
    ]);
    assert!(!bad_variant.status.success());
    assert!(String::from_utf8_lossy(&bad_variant.stderr).contains("unknown variant"));
    let bad_fen = kodex_render(&[
        "--variant",
        "chess",
        "--fen",
        "rnbqkbnr/pppppppp/8",
        "--out",
        &out_text,
    ]);
    assert!(!bad_fen.status.success());
    assert!(String::from_utf8_lossy(&bad_fen.stderr).contains("invalid FEN"));
    let bad_move = kodex_render(&[
        "--variant",
        "chess",
        "--fen",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        "--lastmove",
        "e2e9",
        "--out",
        &out_text,
    ]);
    assert!(!bad_move.status.success());
    assert!(!out.exists(), "nothing is written on an error");
}
