//! Writes the example images in `docs/`: `cargo run -p kodex-render --example gallery`.

use kodex_engine::{Audience, BoardStyle, Game, Registry, Side, Start};
use kodex_render::{render_png, samples, Decor, Renderer};

fn main() -> std::io::Result<()> {
    let out = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs");
    std::fs::create_dir_all(&out)?;
    let names = |white: &str, black: &str| vec![white.to_string(), black.to_string()];
    let clocks = |white: &str, black: &str| vec![Some(white.to_string()), Some(black.to_string())];
    let images = [
        (
            "start.png",
            samples::start_position(),
            Decor {
                bottom: Side::WHITE,
                names: names("Alice", "Борис"),
                clocks: clocks("5:00", "5:00"),
                status: None,
                to_move: None,
                ..Decor::default()
            },
        ),
        (
            "middlegame-black.png",
            samples::middlegame(),
            Decor {
                bottom: Side::BLACK,
                names: names("Magnus", "Hikaru"),
                clocks: clocks("2:41", "3:07"),
                status: None,
                to_move: None,
                ..Decor::default()
            },
        ),
        (
            "crazyhouse.png",
            samples::crazyhouse(),
            Decor {
                bottom: Side::WHITE,
                names: names("zh_fan", "dropmaster"),
                clocks: clocks("1:12", "0:58"),
                status: None,
                to_move: None,
                ..Decor::default()
            },
        ),
        (
            "fog.png",
            samples::fog(),
            Decor {
                bottom: Side::BLACK,
                names: names("Alice", "Bob"),
                clocks: vec![],
                status: None,
                to_move: None,
                ..Decor::default()
            },
        ),
        (
            "10x10.png",
            samples::ten_by_ten(),
            Decor {
                bottom: Side::WHITE,
                names: names("Capablanca fan", "Grand player"),
                clocks: vec![],
                status: None,
                to_move: None,
                ..Decor::default()
            },
        ),
        (
            "threecheck.png",
            samples::three_check(),
            Decor {
                bottom: Side::WHITE,
                names: names("Alice", "Bob"),
                clocks: clocks("0:31", "1:02"),
                status: Some("1–0 · three checks".to_string()),
                to_move: None,
                ..Decor::default()
            },
        ),
        ("cross.png", samples::cross(), Decor::default()),
        ("points.png", points_board(), Decor::default()),
        (
            "janggi.png",
            janggi_board(),
            Decor {
                bottom: Side::WHITE,
                names: names("Cho", "Han"),
                clocks: clocks("4:12", "3:55"),
                status: None,
                to_move: None,
                ..Decor::default()
            },
        ),
    ];
    // The smallest squares the shared renderers use (boards of 15 × 15 and more).
    let small = Renderer::new(40).png(
        &samples::crazyhouse(),
        &Decor {
            bottom: Side::WHITE,
            names: names("zh_fan", "dropmaster"),
            clocks: clocks("1:12", "0:58"),
            status: None,
            to_move: None,
            ..Decor::default()
        },
    );
    println!("crazyhouse-40px.png: {} bytes", small.len());
    std::fs::write(out.join("crazyhouse-40px.png"), small)?;
    for (file, view, decor) in images {
        let png = render_png(&view, &decor);
        println!("{file}: {} bytes", png.len());
        std::fs::write(out.join(file), png)?;
    }
    historical_boards(&out)
}

/// The start positions of the historical games and a lesson, drawn from the
/// engine's own definitions: `docs/<id>.png`.
fn historical_boards(out: &std::path::Path) -> std::io::Result<()> {
    let registry = Registry::builtin();
    for id in [
        "shatranj",
        "chaturanga",
        "grand",
        "greatchess",
        "semedo",
        "diana",
        "lesson6",
        "citadel",
        "whaleshogi",
        "tamerlane",
        "fourplayer",
        "enochian",
    ] {
        let Some(variant) = registry.get(id) else {
            eprintln!("{id}: not a built-in variant");
            continue;
        };
        let Ok(game) = Game::new(variant, Start::Standard) else {
            eprintln!("{id}: the start position does not read");
            continue;
        };
        write_named_board(out, &format!("{id}.png"), variant, &game)?;
    }
    played_boards(&registry, out)
}

/// Games under way that show what their start positions cannot: Frankfurt's
/// crowned king (it took a pawn on f7), whale shogi's hands, killer whale
/// and dolphin on the far rank, Tamerlane's prince and adventitious king,
/// four-handed chess after black-1's mated king was taken.
/// `docs/<id>-game.png`.
fn played_boards(registry: &Registry, out: &std::path::Path) -> std::io::Result<()> {
    let games: [(&str, Start, &[&str]); 4] = [
        (
            "frankfurt",
            Start::Standard,
            &[
                "e2e4", "e7e5", "g1f3", "g8f6", "f3e5", "d7d6", "f1c4", "d6e5", "c4f7", "e8f7",
            ],
        ),
        (
            "whaleshogi",
            Start::Fen("bnFkgh/dd1ddd/2d3/3O2/DD2DD/HGK1NB[od] b - - 0 1".into()),
            &["o@c5"],
        ),
        (
            // A prince on f5 (the pawn of kings promoted), an adventitious
            // king in white's own citadel m2, and the king's swap just made.
            "tamerlane",
            Start::Fen(
                "1e1c1w3c1e1/1r1tzgkvz1nr1/1p1mbf1yjd1u1/3n3q5/13/5I7/13/1PHMBF1YJDS2/1RNTZG1VZTNRA/1E1C1W1W1C1K1 w KkP4 - 0 1"
                    .into(),
            ),
            &["Kj1"],
        ),
        (
            "fourplayer",
            Start::Standard,
            &[
                "h2h3", "i13i12", "b7d7", "n4m4", "g1l5", "k13k11", "a8d5", "n6m6", "l5l11",
                "pass", "l11h14",
            ],
        ),
    ];
    for (id, start, moves) in games {
        let Some(variant) = registry.get(id) else {
            eprintln!("{id}: not a built-in variant");
            continue;
        };
        let mut game = match Game::new(variant, start) {
            Ok(game) => game,
            Err(e) => {
                eprintln!("{id}: {e}");
                continue;
            }
        };
        for mv in moves {
            if let Err(e) = game.play_text(mv) {
                eprintln!("{id}: {mv}: {e}");
            }
        }
        write_named_board(out, &format!("{id}-game.png"), variant, &game)?;
    }
    Ok(())
}

/// Writes `game`'s board as `out/<file>`, the variant's English and Russian
/// names in the strips.
fn write_named_board(
    out: &std::path::Path,
    file: &str,
    variant: &kodex_engine::Variant,
    game: &Game,
) -> std::io::Result<()> {
    let decor = Decor {
        bottom: Side::WHITE,
        names: vec![
            variant.name("en").to_string(),
            variant.name("ru").to_string(),
        ],
        clocks: vec![],
        status: None,
        to_move: None,
        ..Decor::default()
    };
    let png = render_png(&game.view(Audience::Full), &decor);
    println!("{file}: {} bytes", png.len());
    std::fs::write(out.join(file), png)
}

/// A 9 × 10 point board (the shape of xiangqi: palaces and a river), fairy pieces as tokens.
fn points_board() -> kodex_engine::View {
    let mut view = samples::view("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR");
    view.style = BoardStyle::Points;
    view.last_move = vec![samples::square(&view, "b3"), samples::square(&view, "e3")];
    let mut palaces = kodex_engine::variant::PalaceRules {
        river: Some(5),
        ..Default::default()
    };
    for (from, to) in [("d1", "f3"), ("f1", "d3"), ("d8", "f10"), ("f8", "d10")] {
        let (a, b) = (samples::square(&view, from), samples::square(&view, to));
        palaces
            .lines
            .push(vec![a as usize, ((a + b) / 2) as usize, b as usize]);
    }
    (view.lines, view.river) = palaces.marks();
    view
}

/// A Janggi game in the middle, as the bot draws it.
fn janggi_board() -> kodex_engine::View {
    let registry = kodex_engine::Registry::builtin();
    let janggi = registry.get("janggi").expect("janggi is built in");
    let mut game = kodex_engine::Game::new(janggi, kodex_engine::Start::Standard).expect("start");
    for mv in [
        "c4c5", "i7h7", "b1c3", "h10g8", "h1g3", "b10c8", "c3d5", "b8e8", "pass", "a10a9", "h3f3",
        "g7g6",
    ] {
        game.play_text(mv).expect("a legal move");
    }
    game.view(kodex_engine::Audience::Full)
}
