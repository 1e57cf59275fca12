//! The command line that draws one position of any Kodex variant as a PNG:
//! `kodex render …` and its alias `kodex-render …`.
//!
//! ```text
//! kodex-render --variant <v> [--fen <fen>] [--pov white|black|red|blue] [--fog white|black]
//!              [--lastmove <uci>] --out <file.png>
//! ```
//!
//! Without `--fen` it draws the variant's start (a setup variant's empty
//! setup board).

use crate::{render_png, Decor};
use kodex_engine::{Audience, Game, Registry, Side, Start, Team, View};
use std::process::ExitCode;

/// How to call it, each option described.
pub const USAGE: &str = "\
usage: kodex render --variant <v> [--fen <fen>] [--pov white|black|red|blue] \
[--fog white|black] [--lastmove <uci>] --out <file.png>

Draws one position of a Kodex variant as a PNG board, as the bot posts it.

  --variant <v>      the variant: its id or any of its names (chess, janggi, fog, ...)
  --fen <fen>        the position in the variant's FEN; without it, the variant's start
                     (a setup variant: its empty setup board)
  --pov <side>       the side drawn at the bottom: white, black, or red, blue (0-3) for
                     the second players of the teams in games of four (default: white,
                     or the --fog side)
  --fog <side>       draw what only that side sees (fog of war, Kriegspiel); default:
                     everything
  --lastmove <uci>   highlight a move's squares (e2e4, e7e8q, N@f3)
  --out <file.png>   where to write the PNG
  --help, -h         this text";

/// The command line, read but not yet checked against the engine.
#[derive(Debug, Default)]
struct Arguments {
    variant: Option<String>,
    fen: Option<String>,
    pov: Option<Side>,
    fog: Option<Side>,
    last_move: Option<String>,
    out: Option<String>,
}

/// Runs the command line `args` (the words after `render`): draws and
/// writes the PNG, or prints the usage; what the process should exit with.
pub fn main(args: impl Iterator<Item = String>) -> ExitCode {
    let arguments = match read_arguments(args) {
        Ok(Some(arguments)) => arguments,
        Ok(None) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(problem) => {
            eprintln!("kodex render: {problem}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(arguments) {
        Ok(message) => {
            println!("{message}");
            ExitCode::SUCCESS
        }
        Err(problem) => {
            eprintln!("kodex render: {problem}");
            ExitCode::FAILURE
        }
    }
}

/// Reads the options; `None` when help was asked for.
fn read_arguments(mut args: impl Iterator<Item = String>) -> Result<Option<Arguments>, String> {
    let mut arguments = Arguments::default();
    while let Some(flag) = args.next() {
        if flag == "-h" || flag == "--help" {
            return Ok(None);
        }
        let mut value = || args.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--variant" => arguments.variant = Some(value()?),
            "--fen" => arguments.fen = Some(value()?),
            "--pov" => arguments.pov = Some(side(&value()?)?),
            "--fog" => arguments.fog = Some(side(&value()?)?),
            "--lastmove" => arguments.last_move = Some(value()?),
            "--out" => arguments.out = Some(value()?),
            other => return Err(format!("unknown option {other:?}")),
        }
    }
    Ok(Some(arguments))
}

fn side(text: &str) -> Result<Side, String> {
    match text.to_ascii_lowercase().as_str() {
        "white" | "w" | "0" => Ok(Side::WHITE),
        "black" | "b" | "1" => Ok(Side::BLACK),
        // The second player of each team in four-player games: drawn from the west and east.
        "red" | "2" => Ok(Side(2)),
        "blue" | "3" => Ok(Side(3)),
        other => Err(format!(
            "a side is white, black, red or blue (0–3), not {other:?}"
        )),
    }
}

/// Draws the position and writes the file; the message to print on success.
fn run(arguments: Arguments) -> Result<String, String> {
    let variant_name = arguments.variant.ok_or("--variant is required")?;
    let out = arguments.out.ok_or("--out is required")?;
    let registry = Registry::builtin();
    let variant = registry.get(&variant_name).ok_or_else(|| {
        let known: Vec<&str> = registry.all().iter().map(|v| v.id()).collect();
        format!(
            "unknown variant {variant_name:?}; known variants: {}",
            known.join(", ")
        )
    })?;
    let audience = arguments.fog.map_or(Audience::Full, Audience::Side);
    // A setup variant's start is its empty setup board: no game to end yet.
    let (mut view, status) = match (arguments.fen, variant.setup()) {
        (None, Some(_)) => {
            let empty = kodex_engine::setup::Placement::default();
            let view = kodex_engine::setup::setup_view(variant, [&empty, &empty], audience);
            (view, None)
        }
        (fen, _) => {
            let start = fen.map_or(Start::Standard, Start::Fen);
            let game = Game::new(variant, start).map_err(|e| e.to_string())?;
            (game.view(audience), game.outcome())
        }
    };
    if let Some(text) = &arguments.last_move {
        view.last_move = move_squares(text, &view)?;
    }
    let decor = Decor {
        bottom: arguments.pov.or(arguments.fog).unwrap_or(Side::WHITE),
        names: Vec::new(),
        clocks: Vec::new(),
        status: status.map(|outcome| {
            let result = match outcome.winner() {
                Some(Team(0)) => "1-0",
                Some(_) => "0-1",
                None => "½-½",
            };
            format!("{result} · {}", outcome.reason.key())
        }),
        to_move: None,
        ..Decor::default()
    };
    let png = render_png(&view, &decor);
    std::fs::write(&out, &png).map_err(|e| format!("cannot write {out}: {e}"))?;
    Ok(format!("wrote {out} ({} bytes)", png.len()))
}

/// The squares a UCI move touches on `view`'s board (`e2e4`, `e7e8q`, `a10b10`, a drop
/// `N@f3` only its destination), for the last-move highlight. The position is the one
/// after the move, so the move is read as text, not checked against the rules.
fn move_squares(text: &str, view: &View) -> Result<Vec<u16>, String> {
    let invalid = || {
        format!(
            "{text:?} is not a UCI move on this {}×{} board",
            view.files, view.ranks
        )
    };
    let (is_drop, squares_text) = match text.split_once('@') {
        Some((_, rest)) => (true, rest),
        None => (false, text),
    };
    let mut rest = squares_text;
    let mut squares = Vec::new();
    while squares.len() < 2 && !rest.is_empty() {
        let (square, after) = parse_square(rest, view).ok_or_else(invalid)?;
        squares.push(square);
        rest = after;
    }
    let expected = if is_drop { 1 } else { 2 };
    // What may follow is a promotion piece letter.
    let trailing_ok = rest.chars().count() <= 1 && rest.chars().all(|c| c.is_ascii_alphabetic());
    if squares.len() != expected || !trailing_ok {
        return Err(invalid());
    }
    Ok(squares)
}

/// Reads a square name (`e4`, `j10`; Gliński's `f11` on the hexagon) from the
/// start of `text`: its index and the rest.
fn parse_square<'a>(text: &'a str, view: &View) -> Option<(u16, &'a str)> {
    if view.style == kodex_engine::BoardStyle::Hexagonal {
        let (square, len) = kodex_engine::Geometry::hexagon().parse_prefix(text)?;
        return Some((square as u16, &text[len..]));
    }
    let file = view.file_index(text.chars().next()?)?;
    let digits_end = text[1..]
        .find(|c: char| !c.is_ascii_digit())
        .map_or(text.len(), |i| i + 1);
    let rank: u8 = text[1..digits_end].parse().ok()?;
    if file >= view.files || rank == 0 || rank > view.ranks {
        return None;
    }
    Some((view.index(file, rank - 1) as u16, &text[digits_end..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn last_moves_on_the_hexagon_use_glinski_names() {
        let mut view = board(11, 11);
        view.style = kodex_engine::BoardStyle::Hexagonal;
        // f1 is the bottom cell of the middle file (index 5), f11 its top (index 115);
        // a6 is file a's top cell (axial (-5, 5): index 110); j is no file.
        assert_eq!(move_squares("f1f11", &view), Ok(vec![5, 115]));
        assert_eq!(move_squares("a6b7q", &view), Ok(vec![110, 111]));
        assert!(move_squares("j1j2", &view).is_err());
        assert!(move_squares("a7a8", &view).is_err());
    }

    fn board(files: u8, ranks: u8) -> View {
        let mut view = crate::samples::start_position();
        view.files = files;
        view.ranks = ranks;
        view
    }

    #[test]
    fn reads_moves_promotions_drops_and_two_digit_ranks() {
        let chess = board(8, 8);
        assert_eq!(move_squares("e2e4", &chess), Ok(vec![12, 28]));
        assert_eq!(move_squares("e7e8q", &chess), Ok(vec![52, 60]));
        assert_eq!(move_squares("N@f3", &chess), Ok(vec![21]));
        let grand = board(10, 10);
        assert_eq!(move_squares("a10b10", &grand), Ok(vec![90, 91]));
    }

    #[test]
    fn rejects_moves_off_the_board_or_malformed() {
        let chess = board(8, 8);
        for bad in ["e2e9", "i2i4", "e2", "hello", "e2e4qq", "", "N@"] {
            assert!(move_squares(bad, &chess).is_err(), "{bad} accepted");
        }
    }
}
