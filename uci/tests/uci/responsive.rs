//! `kodex-uci` stays responsive: absurd perft depths are refused with an
//! `info string`, and `stop` and `quit` end a running perft as they end a
//! search. The timeouts here only keep a broken build from hanging the test
//! run; nothing is timed.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// Long enough for any slow machine; only reached when the tool hangs.
const PATIENCE: Duration = Duration::from_secs(120);

/// A running `kodex-uci`, its input, and its output line by line.
struct Uci {
    child: Child,
    input: Option<ChildStdin>,
    lines: Receiver<String>,
    seen: Vec<String>,
}

impl Uci {
    fn start() -> Uci {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kodex-uci"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("kodex-uci starts");
        let stdout = child.stdout.take().expect("stdout");
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        let input = child.stdin.take();
        Uci {
            child,
            input,
            lines,
            seen: Vec::new(),
        }
    }

    fn send(&mut self, text: &str) {
        let input = self.input.as_mut().expect("input open");
        input.write_all(text.as_bytes()).expect("written");
        input.flush().expect("flushed");
    }

    /// Reads lines up to the first `wanted` accepts, and returns it.
    fn until(&mut self, wanted: impl Fn(&str) -> bool, what: &str) -> String {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if wanted(&line) {
                        return line;
                    }
                }
                Err(_) => {
                    let _ = self.child.kill();
                    panic!("no {what}; the tool said:\n{}", self.seen.join("\n"));
                }
            }
        }
    }

    /// `isready` answers `readyok`.
    fn ready(&mut self) {
        self.send("isready\n");
        self.until(|l| l == "readyok", "readyok");
    }

    /// Waits for the tool to exit by itself; its status and its last lines.
    fn exits(mut self) -> (bool, Vec<String>) {
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Some(status) = self.child.try_wait().expect("waits") {
                // The rest of the output, now that the tool is gone.
                while let Ok(line) = self.lines.recv_timeout(Duration::from_secs(5)) {
                    self.seen.push(line);
                }
                return (status.success(), self.seen);
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("the tool did not exit; it said:\n{}", self.seen.join("\n"));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

#[test]
fn absurd_perft_depths_are_refused_and_the_tool_keeps_answering() {
    let mut uci = Uci::start();
    for depth in ["20000", "99", "21", "0", "-3", "99999999999999999999", "x"] {
        uci.send(&format!("go perft {depth}\n"));
        let said = uci.until(|l| l.starts_with("info string"), "refusal");
        assert!(
            said.contains("perft needs a depth from 1 to 20"),
            "{depth}: {said}"
        );
        uci.ready();
    }
    // The deepest depth taken is counted (and stopped here).
    uci.send("go perft 20\n");
    uci.ready();
    uci.send("stop\n");
    uci.until(|l| l.starts_with("info string perft stopped"), "stop");
    // A perft of a sane depth still counts.
    uci.send("go perft 3\n");
    let total = uci.until(|l| l.starts_with("Nodes searched"), "perft 3");
    assert_eq!(total, "Nodes searched: 8902");
    uci.send("quit\n");
    let (ok, said) = uci.exits();
    assert!(ok, "{said:?}");
}

#[test]
fn stop_ends_a_running_perft_and_the_tool_answers() {
    let mut uci = Uci::start();
    uci.send("go perft 20\n");
    // Answered while the count runs.
    uci.ready();
    uci.send("stop\n");
    let stopped = uci.until(|l| l.starts_with("info string perft stopped"), "stop");
    assert!(stopped.contains("nodes counted"), "{stopped}");
    uci.ready();
    // Nothing counted to the end, so no total.
    assert!(
        !uci.seen.iter().any(|l| l.starts_with("Nodes searched")),
        "{:?}",
        uci.seen
    );
    // The tool goes on as before: a search, then a perft.
    uci.send("go depth 2\n");
    uci.until(|l| l.starts_with("bestmove "), "bestmove");
    uci.send("position startpos moves e2e4\ngo perft 1\n");
    let total = uci.until(|l| l.starts_with("Nodes searched"), "perft 1");
    assert_eq!(total, "Nodes searched: 20");
    uci.send("quit\n");
    let (ok, said) = uci.exits();
    assert!(ok, "{said:?}");
}

#[test]
fn quit_ends_a_running_perft() {
    let mut uci = Uci::start();
    uci.send("go perft 20\n");
    uci.ready();
    uci.send("quit\n");
    let (ok, said) = uci.exits();
    assert!(ok, "{said:?}");
    assert!(
        said.iter()
            .any(|l| l.starts_with("info string perft stopped")),
        "{said:?}"
    );
}

#[test]
fn stop_reaches_a_perft_behind_which_a_go_waits() {
    let mut uci = Uci::start();
    // The second count waits for the first; `stop` ends the first at once.
    uci.send("go perft 20\ngo perft 2\n");
    uci.ready();
    uci.send("stop\n");
    uci.until(|l| l.starts_with("info string perft stopped"), "stop");
    let total = uci.until(|l| l.starts_with("Nodes searched"), "perft 2");
    assert_eq!(total, "Nodes searched: 400");
    uci.send("quit\n");
    assert!(uci.exits().0);
}

#[test]
fn a_deep_perft_overflows_no_stack_on_the_largest_boards() {
    for variant in [
        "fourplayer",
        "tamerlane",
        "enochian",
        "hexagonal",
        "timetravel",
    ] {
        let mut uci = Uci::start();
        uci.send(&format!(
            "setoption name UCI_Variant value {variant}\ngo perft 20\n"
        ));
        uci.ready();
        // Depth first, the count is 20 plies down long before this.
        std::thread::sleep(Duration::from_millis(300));
        uci.send("stop\n");
        uci.until(
            |l| l.starts_with("info string perft stopped"),
            &format!("{variant} stopped"),
        );
        uci.ready();
        uci.send("quit\n");
        let (ok, said) = uci.exits();
        assert!(ok, "{variant}: {said:?}");
    }
}

#[test]
fn a_script_of_perfts_prints_every_count_in_order() {
    // All at once, as a pipe gives it: each `go` waits for the count before
    // it, and the last `quit` comes after a perft of depth 1, which always
    // finishes.
    let mut uci = Uci::start();
    uci.send(
        "go perft 3\nposition startpos moves e2e4\ngo perft 3\nsetoption name UCI_Variant value crazyhouse\n\
         go perft 2\nposition startpos moves e2e4\ngo perft 1\nquit\n",
    );
    let (ok, said) = uci.exits();
    assert!(ok, "{said:?}");
    let totals: Vec<&str> = said
        .iter()
        .filter(|l| l.starts_with("Nodes searched"))
        .map(String::as_str)
        .collect();
    assert_eq!(
        totals,
        [
            "Nodes searched: 8902",
            "Nodes searched: 13160",
            "Nodes searched: 400",
            "Nodes searched: 20"
        ],
        "{said:?}"
    );
}

#[test]
fn the_end_of_input_lets_a_perft_finish() {
    let mut uci = Uci::start();
    uci.send("go perft 4\n");
    // Closing the input is the end of the script.
    drop(uci.input.take());
    let (ok, said) = uci.exits();
    assert!(ok, "{said:?}");
    assert!(
        said.iter().any(|l| l == "Nodes searched: 197281"),
        "{said:?}"
    );
}
