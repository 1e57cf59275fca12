//! `kodex-uci`: a small UCI front-end for perft, line-compatible with
//! Fairy-Stockfish so the same scripts drive both.
//!
//! ```text
//! uci | isready | ucinewgame | quit
//! setoption name UCI_Variant value <variant>
//! setoption name UCI_Chess960 value true|false
//! position startpos|fen <fen> [moves <uci>…]
//! go perft <depth>
//! ```
//!
//! Time travel: `position … moves` takes jumps (`t2f3`) among the moves, and
//! `go perft` counts whole turns, a jump and its follow-up being one turn
//! (divide lines name the jump: `t2f3: <nodes>`).

use kodex_engine::{Game, Registry, Start, Variant};
use std::io::{self, BufRead, Write};
use std::time::Instant;

struct Session {
    registry: Registry,
    variant: Variant,
    chess960: bool,
    game: Game,
}

impl Session {
    fn uci_variant(&self) -> Variant {
        // `chess` with UCI_Chess960 plays Chess960 castling.
        if self.chess960 && self.variant.id() == "chess" {
            if let Some(v) = self.registry.get("chess960") {
                return v.clone();
            }
        }
        self.variant.clone()
    }

    fn handle(&mut self, line: &str, out: &mut impl Write) -> io::Result<bool> {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            [] => {}
            ["quit"] => return Ok(false),
            ["uci"] => {
                writeln!(out, "id name kodex-uci {}", env!("CARGO_PKG_VERSION"))?;
                writeln!(out, "id author the Kodex team")?;
                let names: Vec<&str> = self.registry.all().iter().map(|v| v.uci_name()).collect();
                let mut vars = String::new();
                for name in &names {
                    vars.push_str(" var ");
                    vars.push_str(name);
                }
                writeln!(
                    out,
                    "option name UCI_Variant type combo default chess{vars}"
                )?;
                writeln!(out, "option name UCI_Chess960 type check default false")?;
                writeln!(out, "uciok")?;
            }
            ["isready"] => writeln!(out, "readyok")?,
            ["ucinewgame"] => self.reset(None),
            ["setoption", "name", name, "value", value] => {
                match (name.to_ascii_lowercase().as_str(), *value) {
                    ("uci_variant", v) => match self.registry.get(v) {
                        Some(variant) => {
                            self.variant = variant.clone();
                            self.reset(None);
                        }
                        None => writeln!(out, "info string unknown variant {v}")?,
                    },
                    ("uci_chess960", v) => {
                        self.chess960 = v.eq_ignore_ascii_case("true");
                        self.reset(None);
                    }
                    _ => writeln!(out, "info string unknown option {name}")?,
                }
            }
            ["position", rest @ ..] => {
                if let Err(e) = self.position(rest) {
                    writeln!(out, "info string {e}")?;
                }
            }
            ["go", "perft", depth] => match depth.parse::<u32>() {
                Ok(depth) if depth >= 1 => {
                    let start = Instant::now();
                    let chess960 = self.chess960 || self.variant.is_chess960();
                    let divide = if self.game.has_time_travel() {
                        self.game.perft_turns(depth)
                    } else {
                        self.game.perft(depth, chess960)
                    };
                    let total: u64 = divide.iter().map(|(_, n)| n).sum();
                    for (mv, n) in &divide {
                        writeln!(out, "{mv}: {n}")?;
                    }
                    writeln!(out)?;
                    writeln!(out, "Nodes searched: {total}")?;
                    let ms = start.elapsed().as_millis();
                    writeln!(out, "info string time {ms} ms")?;
                }
                _ => writeln!(out, "info string perft needs a depth of at least 1")?,
            },
            _ => writeln!(
                out,
                "info string unknown command: {}",
                line.chars().take(80).collect::<String>()
            )?,
        }
        out.flush()?;
        Ok(true)
    }

    fn reset(&mut self, fen: Option<String>) {
        let variant = self.uci_variant();
        let start = fen.map(Start::Fen).unwrap_or(Start::Standard);
        if let Ok(game) = Game::new(&variant, start) {
            self.game = game;
        }
    }

    fn position(&mut self, words: &[&str]) -> Result<(), String> {
        let moves_at = words.iter().position(|w| *w == "moves");
        let (setup, moves) = match moves_at {
            Some(i) => (&words[..i], &words[i + 1..]),
            None => (words, &[][..]),
        };
        let variant = self.uci_variant();
        let mut game = match setup {
            ["startpos"] => Game::new(&variant, Start::Standard).map_err(|e| e.to_string())?,
            ["fen", fen @ ..] if !fen.is_empty() => {
                Game::new(&variant, Start::Fen(fen.join(" "))).map_err(|e| e.to_string())?
            }
            _ => return Err("expected `position startpos` or `position fen <fen>`".into()),
        };
        let chess960 = self.chess960 || variant.is_chess960();
        for mv in moves {
            if game.has_time_travel() && kodex_engine::timeline::looks_like_jump(mv) {
                game.jump_text(mv)
                    .map_err(|e| format!("illegal jump {mv}: {e}"))?;
                continue;
            }
            let found = game
                .legal_moves()
                .into_iter()
                .find(|&m| game.uci_with(m, chess960) == *mv);
            match found {
                Some(m) => {
                    game.play(m);
                }
                None => return Err(format!("illegal move {mv}")),
            }
        }
        self.game = game;
        Ok(())
    }
}

fn main() -> io::Result<()> {
    let registry = Registry::builtin();
    let Some(variant) = registry.get("chess").cloned() else {
        eprintln!("the built-in variants are missing");
        std::process::exit(1);
    };
    let Ok(game) = Game::new(&variant, Start::Standard) else {
        eprintln!("the chess start position does not load");
        std::process::exit(1);
    };
    let mut session = Session {
        registry,
        variant,
        chess960: false,
        game,
    };
    let stdin = io::stdin();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    for line in stdin.lock().lines() {
        let line = match line {
            Ok(line) => line,
            Err(_) => {
                writeln!(out, "info string input is not UTF-8")?;
                continue;
            }
        };
        if !session.handle(&line, &mut out)? {
            break;
        }
    }
    Ok(())
}
