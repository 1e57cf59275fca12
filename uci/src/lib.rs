//! The UCI front-end (`kodex uci`, alias `kodex-uci`) for perft and play, line-compatible with
//! Fairy-Stockfish so the same scripts drive both. A crate of its own: it reads stdin, writes
//! stdout and runs the search and perft on threads, which the pure engine never does; it uses
//! only the engine's public API.
//!
//! ```text
//! uci | isready | ucinewgame | stop | quit
//! setoption name UCI_Variant value <variant>
//! setoption name UCI_Chess960 value true|false
//! setoption name Skill Level value 1..8
//! setoption name Hash value <MB>
//! position startpos|fen <fen> [moves <uci>…]
//! go perft <depth 1–20>
//! go [depth N] [nodes N] [movetime MS] [wtime MS btime MS winc MS binc MS movestogo N] [infinite]
//! ```
//!
//! Moves name squares the machine's way ([`kodex_engine::Geometry::uci_name`]):
//! files `a`, `b`, … by index, even where people read the variant's own
//! letters (four-handed chess skips `j`, so people's `k1` is UCI `j1`).
//!
//! Time travel: `position … moves` takes jumps (`t2f3`) among the moves, and
//! `go perft` counts whole turns, a jump and its follow-up being one turn
//! (divide lines name the jump: `t2f3: <nodes>`).
//!
//! A search runs on its own thread; the input loop keeps reading, so `stop`
//! ends it at once with the best move so far.
//!
//! `go perft` runs on a thread too, up to [`MAX_PERFT_DEPTH`] plies. While it
//! counts, the input loop keeps reading: `isready` answers and `stop` ends
//! the count at once (it prints `info string perft stopped …` with what it
//! counted, never a total). Other commands keep their order: `position` and
//! `setoption` take effect for what comes next, `quit` ends the count and
//! the tool, but a `go` waits for the count to finish, and so does every
//! command read after it. So a script of several perfts and a last `quit`
//! prints every count but the last, which `quit` ends (depth 1 always
//! finishes); the end of input lets a perft finish.

use kodex_engine::search::{self, Level, Limits, SearchResult, Searcher};
use kodex_engine::{Game, PerftCount, Registry, Start, Variant};
use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

const DEFAULT_HASH_MB: usize = 16;

/// The deepest `go perft` counts. A perft recurses once per ply; deeper
/// trees than this never finish from a real position (chess has some 10^28
/// nodes at depth 20), so a bigger depth is refused with an `info string`.
pub const MAX_PERFT_DEPTH: u32 = 20;

/// The perft thread's stack: [`MAX_PERFT_DEPTH`] plies of the largest
/// boards (four-handed chess, Tamerlane, time travel) fit in 256 KiB even in
/// a debug build; this is many times that.
const PERFT_STACK: usize = 16 << 20;

/// How often the input loop looks whether a perft has finished.
const PERFT_POLL: Duration = Duration::from_millis(5);

/// What runs on the worker thread.
enum Job {
    /// A search: it hands the searcher back when done.
    Search(JoinHandle<Searcher>),
    /// A perft: it prints its own lines.
    Perft(JoinHandle<()>),
}

/// A search or a perft running on its thread.
struct Running {
    job: Job,
    stop: Arc<AtomicBool>,
    infinite: bool,
}

struct Session {
    registry: Registry,
    variant: Variant,
    chess960: bool,
    game: Game,
    /// The searcher, when no search holds it.
    searcher: Option<Searcher>,
    running: Option<Running>,
    level: Level,
    hash_mb: usize,
    /// Searches started, a seed for the weaker levels' choices.
    searches: u64,
}

/// What `go` asked for.
#[derive(Default)]
struct Go {
    depth: Option<u32>,
    nodes: Option<u64>,
    movetime: Option<u64>,
    time: [Option<u64>; 2],
    increment: [u64; 2],
    moves_to_go: Option<u64>,
    infinite: bool,
}

impl Go {
    /// Reads the words after `go`; numbers that do not parse are errors, negative times count as zero.
    fn parse(words: &[&str]) -> Result<Go, String> {
        let mut go = Go::default();
        let mut i = 0;
        let number = |i: usize| -> Result<u64, String> {
            let word = words
                .get(i + 1)
                .ok_or_else(|| format!("{} needs a number", words[i]))?;
            word.parse::<i64>()
                .map(|n| n.max(0) as u64)
                .map_err(|_| format!("{} needs a number, not {word}", words[i]))
        };
        while i < words.len() {
            match words[i] {
                "infinite" => go.infinite = true,
                "ponder" => {}
                "depth" => go.depth = Some(number(i)?.clamp(1, 90) as u32),
                "nodes" => go.nodes = Some(number(i)?.max(1)),
                "movetime" => go.movetime = Some(number(i)?),
                "wtime" => go.time[0] = Some(number(i)?),
                "btime" => go.time[1] = Some(number(i)?),
                "winc" => go.increment[0] = number(i)?,
                "binc" => go.increment[1] = number(i)?,
                "movestogo" => go.moves_to_go = Some(number(i)?.max(1)),
                "mate" => go.depth = Some((number(i)?.clamp(1, 40) * 2) as u32),
                other => return Err(format!("unknown go parameter {other}")),
            }
            i += if matches!(words[i], "infinite" | "ponder") {
                1
            } else {
                2
            };
        }
        Ok(go)
    }

    /// The limits of this `go` for `side` (0 white, 1 black), from `now`.
    fn limits(&self, side: usize, now: Instant) -> Limits {
        let mut limits = Limits {
            depth: self.depth,
            nodes: self.nodes,
            ..Limits::default()
        };
        if self.infinite {
            return limits;
        }
        if let Some(ms) = self.movetime {
            limits.deadline = Some(now + Duration::from_millis(ms.saturating_sub(10).max(1)));
        } else if let Some(left) = self.time[side & 1] {
            // Spend a share of the clock plus most of the increment; never more than a third.
            let increment = self.increment[side & 1];
            let share = left / self.moves_to_go.unwrap_or(30).clamp(1, 30) + increment * 3 / 4;
            let cap = (left / 3).saturating_sub(30);
            let target = share.min(cap).max(5);
            limits.soft_deadline = Some(now + Duration::from_millis(target / 2));
            limits.deadline = Some(now + Duration::from_millis((target * 2).min(cap.max(5))));
        }
        limits
    }
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
            ["quit"] => {
                self.stop_job();
                return Ok(false);
            }
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
                writeln!(
                    out,
                    "option name Hash type spin default {DEFAULT_HASH_MB} min 1 max 4096"
                )?;
                writeln!(
                    out,
                    "option name Skill Level type spin default 8 min 1 max 8"
                )?;
                writeln!(out, "uciok")?;
            }
            ["isready"] => writeln!(out, "readyok")?,
            ["stop"] => self.stop_job(),
            ["ponderhit"] => {}
            ["ucinewgame"] => {
                self.finish_search();
                if let Some(searcher) = &mut self.searcher {
                    searcher.clear();
                }
                self.reset(None)
            }
            ["setoption", "name", rest @ ..] => {
                self.finish_search();
                let value_at = rest.iter().position(|w| *w == "value");
                let (name, value) = match value_at {
                    Some(i) => (rest[..i].join(" "), rest[i + 1..].join(" ")),
                    None => (rest.join(" "), String::new()),
                };
                let name = name.as_str();
                match (name.to_ascii_lowercase().as_str(), value.as_str()) {
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
                    ("skill level", v) => match v.parse::<i64>() {
                        Ok(n) => self.level = Level::clamped(n),
                        Err(_) => writeln!(out, "info string Skill Level needs a number 1-8")?,
                    },
                    ("hash", v) => match v.parse::<i64>() {
                        Ok(mb) => {
                            self.hash_mb = mb.clamp(1, 4096) as usize;
                            self.searcher = Some(Searcher::new(self.hash_mb));
                        }
                        Err(_) => writeln!(out, "info string Hash needs a number of MB")?,
                    },
                    (
                        "uci_limitstrength" | "uci_elo" | "threads" | "ponder" | "move overhead",
                        _,
                    ) => {}
                    _ => writeln!(out, "info string unknown option {name}")?,
                }
            }
            ["position", rest @ ..] => {
                self.finish_search();
                if let Err(e) = self.position(rest) {
                    writeln!(out, "info string {e}")?;
                }
            }
            ["go", "perft", depth] => match depth.parse::<u32>() {
                Ok(depth @ 1..=MAX_PERFT_DEPTH) => self.start_perft(depth, out)?,
                _ => writeln!(
                    out,
                    "info string perft needs a depth from 1 to {MAX_PERFT_DEPTH}, not {}",
                    depth.chars().take(20).collect::<String>()
                )?,
            },
            ["go", rest @ ..] => match Go::parse(rest) {
                Ok(go) => self.start_search(&go, out)?,
                Err(e) => writeln!(out, "info string {e}")?,
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

    /// Starts a perft on its own thread; it prints the divide lines and
    /// `Nodes searched`, or `info string perft stopped …` when stopped.
    fn start_perft(&mut self, depth: u32, out: &mut impl Write) -> io::Result<()> {
        self.stop_job();
        let game = self.game.clone();
        let chess960 = self.chess960 || self.variant.is_chess960();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let spawned = std::thread::Builder::new()
            .name("perft".into())
            .stack_size(PERFT_STACK)
            .spawn(move || {
                let start = Instant::now();
                let count = if game.has_time_travel() {
                    game.perft_turns_stoppable(depth, &flag)
                } else {
                    game.perft_stoppable(depth, chess960, &flag)
                };
                print_line(&perft_report(&count, start.elapsed()));
            });
        match spawned {
            Ok(handle) => {
                self.running = Some(Running {
                    job: Job::Perft(handle),
                    stop,
                    infinite: false,
                });
            }
            Err(e) => writeln!(out, "info string perft cannot start: {e}")?,
        }
        Ok(())
    }

    /// Whether a perft is running.
    fn perft_running(&self) -> bool {
        matches!(
            self.running,
            Some(Running {
                job: Job::Perft(_),
                ..
            })
        )
    }

    /// Collects a perft that has finished by itself.
    fn reap_perft(&mut self) {
        if let Some(Running {
            job: Job::Perft(handle),
            ..
        }) = &self.running
        {
            if handle.is_finished() {
                self.join_search(false);
            }
        }
    }

    /// Starts a search on its own thread; it prints `info` lines and `bestmove`.
    fn start_search(&mut self, go: &Go, out: &mut impl Write) -> io::Result<()> {
        self.stop_job();
        let mut searcher = self
            .searcher
            .take()
            .unwrap_or_else(|| Searcher::new(self.hash_mb));
        let game = self.game.clone();
        let chess960 = self.chess960 || self.variant.is_chess960();
        let now = Instant::now();
        let mut limits = go.limits(game.side_to_move().index(), now);
        let level = self.level;
        if level < Level::STRONGEST {
            // A weaker level spends no more than its own budget.
            let own = level.limits(None);
            limits.depth = min_option(limits.depth, own.depth);
            limits.nodes = min_option(limits.nodes, own.nodes);
            limits.root_margin = own.root_margin;
            limits.deadline = limits.deadline.map(|d| level.share_of(now, d));
            limits.soft_deadline = limits.soft_deadline.map(|d| level.share_of(now, d));
        }
        if game.board_moves().is_empty() {
            writeln!(out, "bestmove (none)")?;
            self.searcher = Some(searcher);
            return Ok(());
        }
        self.searches += 1;
        let seed = self.searches ^ (game.ply() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let stop = searcher.stop_flag();
        // A `stop` that came after the last search ended must not cut this one.
        stop.store(false, Ordering::Relaxed);
        let handle = std::thread::spawn(move || {
            let history = game.position_hashes();
            let mut report = |result: &SearchResult| {
                let elapsed = now.elapsed();
                print_line(&info_line(&game, chess960, result, elapsed));
            };
            let result = search::think_with(
                &game.search_board(),
                &history,
                &limits,
                &mut searcher,
                &mut report,
            );
            let line = match result {
                Some(result) => {
                    let chosen = search::choose(&result, level, seed);
                    format!("bestmove {}", game.uci_with(chosen, chess960))
                }
                None => "bestmove (none)".to_string(),
            };
            print_line(&line);
            searcher
        });
        self.running = Some(Running {
            job: Job::Search(handle),
            stop,
            infinite: go.infinite
                || (go.depth.is_none()
                    && go.nodes.is_none()
                    && go.movetime.is_none()
                    && go.time.iter().all(Option::is_none)),
        });
        Ok(())
    }

    /// Stops a running search and waits for its `bestmove`; a perft goes
    /// on (it counts a copy of the position).
    fn finish_search(&mut self) {
        if !self.perft_running() {
            self.join_search(true);
        }
    }

    /// Stops whatever runs, a search or a perft, and waits for its last line.
    fn stop_job(&mut self) {
        self.join_search(true);
    }

    /// Waits for a running search's `bestmove` (or a perft's count),
    /// stopping it first if asked (an endless search is always stopped).
    fn join_search(&mut self, stop: bool) {
        if let Some(running) = self.running.take() {
            if stop || running.infinite {
                running.stop.store(true, Ordering::Relaxed);
            }
            match running.job {
                Job::Search(handle) => match handle.join() {
                    Ok(searcher) => self.searcher = Some(searcher),
                    Err(_) => print_line("info string the search failed"),
                },
                Job::Perft(handle) => {
                    if handle.join().is_err() {
                        print_line("info string perft failed");
                    }
                }
            }
        }
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
            if game.has_time_travel() && kodex_engine::looks_like_jump(mv) {
                game.jump_text(mv)
                    .map_err(|e| format!("illegal jump {mv}: {e}"))?;
                continue;
            }
            // A GUI goes on after a repetition nobody claimed: the board's
            // moves, not the game's (which end at the third repetition).
            let found = game
                .board_moves()
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

fn min_option<T: Ord>(a: Option<T>, b: Option<T>) -> Option<T> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// Whether `line` is a `go` (which waits for a running perft).
fn is_go(line: &str) -> bool {
    line.split_whitespace().next() == Some("go")
}

/// Prints one whole line (the search thread and the input loop share stdout).
fn print_line(line: &str) {
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// What a perft prints: `<move>: <count>` per root move, a blank line,
/// `Nodes searched: <n>` and the time; when stopped, only an `info string`
/// with what was counted (no total, which would be wrong).
fn perft_report(count: &PerftCount, elapsed: Duration) -> String {
    let ms = elapsed.as_millis();
    if count.stopped {
        return format!(
            "info string perft stopped: {} nodes counted, {} of {} root moves to the end, in {ms} ms",
            count.nodes(),
            count.divide.len(),
            count.roots,
        );
    }
    let mut text = String::new();
    for (mv, n) in &count.divide {
        text.push_str(&format!("{mv}: {n}\n"));
    }
    text.push_str(&format!(
        "\nNodes searched: {}\ninfo string time {ms} ms",
        count.nodes()
    ));
    text
}

/// `info depth … score … nodes … nps … time … pv …` for one finished iteration.
fn info_line(game: &Game, chess960: bool, result: &SearchResult, elapsed: Duration) -> String {
    let ms = elapsed.as_millis().max(1) as u64;
    let score = match result.mate_in() {
        Some(moves) => format!("mate {moves}"),
        None => format!("cp {}", result.score),
    };
    let mut line = format!(
        "info depth {} score {score} nodes {} nps {} time {ms} pv",
        result.depth,
        result.nodes,
        result.nodes * 1000 / ms
    );
    let mut walk = game.clone();
    for &mv in &result.pv {
        if !walk.board_moves().contains(&mv) {
            break;
        }
        line.push(' ');
        line.push_str(&walk.uci_with(mv, chess960));
        walk.play(mv);
    }
    line
}

/// Runs the UCI session on standard input and output until `quit` or the
/// end of input: `kodex uci` and its alias `kodex-uci`.
pub fn run() -> io::Result<()> {
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
        searcher: None,
        running: None,
        level: Level::STRONGEST,
        hash_mb: DEFAULT_HASH_MB,
        searches: 0,
    };
    // Lines are read on their own thread, so `stop` and `quit` reach a
    // running perft.
    let (lines, input) = mpsc::channel();
    std::thread::spawn(move || {
        for line in io::stdin().lock().lines() {
            let line = match line {
                Ok(line) => Some(line),
                Err(e) if e.kind() == io::ErrorKind::InvalidData => None,
                Err(_) => break,
            };
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    // Locked per write: the search thread prints too.
    let mut out = io::stdout();
    // Commands in order; a `go` waits while a perft runs, and so does
    // everything read after it.
    let mut queued: VecDeque<String> = VecDeque::new();
    let mut ended = false;
    loop {
        session.reap_perft();
        let counting = session.perft_running();
        if let Some(line) = queued.pop_front() {
            if !counting || !is_go(&line) {
                if !session.handle(&line, &mut out)? {
                    return Ok(());
                }
                continue;
            }
            queued.push_front(line);
        }
        let read = if counting {
            if ended {
                // End of input: the perft finishes, then what waits runs.
                session.join_search(false);
                continue;
            }
            match input.recv_timeout(PERFT_POLL) {
                Ok(read) => read,
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => {
                    ended = true;
                    continue;
                }
            }
        } else if ended {
            break;
        } else {
            match input.recv() {
                Ok(read) => read,
                Err(_) => {
                    ended = true;
                    continue;
                }
            }
        };
        match read {
            // While a perft counts, `isready` answers and `stop` ends it at
            // once, even behind a waiting `go`.
            Some(line) if counting && line.split_whitespace().eq(["isready"]) => {
                writeln!(out, "readyok")?;
                out.flush()?;
            }
            Some(line) if counting && line.split_whitespace().eq(["stop"]) => session.stop_job(),
            Some(line) => queued.push_back(line),
            None => {
                writeln!(out, "info string input is not UTF-8")?;
                out.flush()?;
            }
        }
    }
    // End of input: let a bounded search finish and print its move.
    session.join_search(false);
    Ok(())
}
