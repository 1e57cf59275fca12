//! Whole UCI scripts piped to `kodex-uci`: perft and options as
//! Fairy-Stockfish speaks them, bughouse, time travel jumps, and moves a GUI
//! sends after a repetition nobody claimed.

use std::io::Write;
use std::process::{Command, Stdio};

/// What `kodex-uci` prints for the whole `script`; it must exit cleanly.
fn run(script: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kodex-uci"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("kodex-uci starts");
    let mut input = child.stdin.take().expect("stdin");
    input.write_all(script.as_bytes()).expect("script written");
    drop(input);
    let out = child.wait_with_output().expect("kodex-uci ends");
    assert!(out.status.success(), "kodex-uci failed");
    String::from_utf8(out.stdout).expect("UTF-8")
}

#[test]
fn kodex_uci_speaks_perft_like_fairy_stockfish() {
    let script = "uci\nisready\nnonsense here\nsetoption name UCI_Variant value nosuchvariant\n\
                  position fen garbage\nsetoption name UCI_Variant value crazyhouse\n\
                  position fen 2k5/8/8/8/8/8/8/4K3[Qn] w - - 0 1\ngo perft 2\n\
                  setoption name UCI_Variant value chess\nsetoption name UCI_Chess960 value true\n\
                  position fen 4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1 moves e1h1\ngo perft 1\nquit\n";
    let text = run(script);
    assert!(
        text.contains("option name UCI_Variant type combo"),
        "{text}"
    );
    assert!(
        text.contains("var 3check") && text.contains("var fischerandom"),
        "{text}"
    );
    assert!(text.contains("uciok") && text.contains("readyok"));
    assert!(text.matches("info string").count() >= 3, "{text}");
    let perfts: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("Nodes searched"))
        .collect();
    assert_eq!(perfts[0], "Nodes searched: 3083", "{text}");
    // After Chess960 castling (king takes rook, landing on g1 with the rook on f1)
    // black's king has three moves: the f-file is now covered.
    assert_eq!(perfts[1], "Nodes searched: 3", "{text}");
    assert!(
        text.contains("\n\nNodes searched"),
        "a blank line precedes the total"
    );
}

#[test]
fn kodex_uci_plays_bughouse_like_fairy_stockfish() {
    let script = "uci\nsetoption name UCI_Variant value bughouse\n\
                  position fen 4k3/8/8/3p4/4P3/8/8/4K3[] w - - 0 1\ngo perft 3\n\
                  position fen 4k3/8/8/3p4/4P3/8/8/4K3[] w - - 0 1 moves e4d5 e8d7\ngo perft 1\nquit\n";
    let text = run(script);
    assert!(text.contains("var bughouse"), "{text}");
    let totals: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("Nodes searched"))
        .collect();
    // The pawn taken on d5 went to nobody's pocket here: five king moves and d5-d6.
    assert_eq!(
        totals,
        ["Nodes searched: 351", "Nodes searched: 6"],
        "{text}"
    );
    assert!(!text.contains("P@"), "{text}");
}

#[test]
fn kodex_uci_goes_on_after_a_repetition_nobody_claimed() {
    // The start position a third time, then 1.e4: a GUI sends this when
    // nobody claimed the draw.
    let shuffle = "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8";
    let input = format!(
        "position startpos moves {shuffle}\n\
         go perft 1\n\
         position startpos moves {shuffle} e2e4\n\
         go perft 1\n\
         go depth 2\n\
         isready\n\
         quit\n"
    );
    let out = run(&input);
    assert!(!out.contains("illegal"), "{out}");
    let counts: Vec<&str> = out
        .lines()
        .filter(|line| line.starts_with("Nodes searched"))
        .collect();
    assert_eq!(
        counts,
        ["Nodes searched: 20", "Nodes searched: 20"],
        "{out}"
    );
    let best = out
        .lines()
        .find_map(|line| line.strip_prefix("bestmove "))
        .expect("a best move");
    assert_ne!(best, "(none)", "{out}");
}

#[test]
fn kodex_uci_takes_jumps_and_counts_them_in_perft() {
    let input = "setoption name UCI_Variant value timetravel\n\
                 position startpos moves e2e4 e7e5\n\
                 go perft 1\n\
                 position startpos moves e2e4 e7e5 t1e4 d2d4\n\
                 go perft 1\n\
                 position startpos moves e2e4 e7e5 t1e5\n\
                 quit\n";
    let out = run(input);
    assert!(out.contains("t1e4: 30\n"), "{out}");
    assert!(out.contains("Nodes searched: 59\n"), "{out}");
    // After T-1:e4 d4 black has the 20 moves of the start, nothing to jump with yet.
    assert!(out.contains("Nodes searched: 20\n"), "{out}");
    assert!(out.contains("info string illegal jump t1e5"), "{out}");
}
