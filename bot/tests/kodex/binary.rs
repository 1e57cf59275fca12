//! The real `kodex` binary: piped console scripts, and a hard kill in the
//! middle of a game followed by a restart that finishes it.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, Stdio};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kodex-bin-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn kodex(dir: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_kodex"));
    command
        .arg("console")
        .current_dir(dir)
        .env_remove("KODEX_DISCORD_TOKEN")
        .env_remove("KODEX_TELEGRAM_TOKEN")
        .env("KODEX_DATABASE_URL", "sqlite://game.db")
        .env("KODEX_BOARDS_DIR", dir.join("boards"))
        .env("KODEX_LOG", "warn")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    command
}

/// Runs a whole script through a pipe; the process exits at end of input.
fn run_script(dir: &Path, script: &str) -> Vec<String> {
    let mut child = kodex(dir).spawn().expect("kodex starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(script.as_bytes())
        .expect("script written");
    let output = child
        .wait_with_output()
        .expect("kodex exits at end of input");
    assert!(output.status.success(), "{:?}", output.status);
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(str::to_owned)
        .collect()
}

/// Reads stdout until a line containing `text`; panics at end of output.
fn wait_for(lines: &mut std::io::Lines<BufReader<ChildStdout>>, text: &str) -> String {
    for line in lines.by_ref() {
        let line = line.expect("stdout readable");
        if line.contains(text) {
            return line;
        }
    }
    panic!("kodex ended before printing {text:?}");
}

#[test]
fn a_piped_script_runs_and_exits_at_end_of_input() {
    let dir = temp_dir("piped");
    let out = run_script(
        &dir,
        "# comments and blank lines are skipped\n\nalice: /play chess @bob white\n\
         bob: /accept\nalice: e4\n/as bob\ne5\nbob (dm): /games\nalice: /frob\n",
    );
    assert!(
        out.iter()
            .any(|l| l.starts_with("[#local] ") && l.contains("alice played e4")),
        "{out:#?}"
    );
    assert!(
        out.iter().any(|l| l == "[console] speaking as bob"),
        "{out:#?}"
    );
    assert!(out.iter().any(|l| l.contains("bob played e5")), "{out:#?}");
    assert!(
        out.iter().any(|l| l.starts_with("[@bob] ")
            && (l.contains("your move") || l.contains("opponent's move"))),
        "{out:#?}"
    );
    assert!(
        out.iter()
            .any(|l| l.starts_with("[@alice] ") && l.contains("/frob")),
        "{out:#?}"
    );
    assert!(dir.join("game.db").exists());
}

#[test]
fn a_hard_kill_mid_game_loses_nothing() {
    let dir = temp_dir("kill");
    let mut child: Child = kodex(&dir).spawn().expect("kodex starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    writeln!(stdin, "alice: /play chess @bob white").expect("write");
    let challenge = wait_for(&mut lines, "/press acc:");
    let id = challenge
        .split("/press acc:")
        .nth(1)
        .and_then(|rest| rest.split(']').next())
        .expect("game id")
        .to_owned();
    for line in [
        "bob: /accept",
        "alice: e4",
        "bob: e5",
        "alice: Bc4",
        "bob: Nc6",
    ] {
        writeln!(stdin, "{line}").expect("write");
    }
    stdin.flush().expect("flush");
    wait_for(&mut lines, "bob played Nc6");
    // SIGKILL: no shutdown code runs.
    child.kill().expect("killed");
    child.wait().expect("reaped");

    let out = run_script(&dir, "alice: Qh5\nbob: Nf6\nalice: Qxf7#\nalice: /pgn\n");
    assert!(
        out.iter()
            .any(|l| l.contains(&format!("{id}: 1-0 — alice (white) wins: checkmate"))),
        "{out:#?}"
    );
    assert!(
        out.iter()
            .any(|l| l.contains("1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0")),
        "{out:#?}"
    );
}

/// SIGTERM stops the console chat even while it waits for input, cleanly.
#[cfg(unix)]
#[test]
fn sigterm_stops_the_console_while_it_waits_for_input() {
    let dir = temp_dir("sigterm");
    let mut child = kodex(&dir).spawn().expect("kodex starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    writeln!(stdin, "alice: /play chess @bob white").expect("write");
    wait_for(&mut lines, "/press acc:");
    let sent = Command::new("kill")
        .arg("-TERM")
        .arg(child.id().to_string())
        .status()
        .expect("kill runs");
    assert!(sent.success());
    // Standard input stays open: only the signal can end it.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let status = loop {
        if let Some(status) = child.try_wait().expect("waitable") {
            break status;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "kodex ignored SIGTERM"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    assert!(status.success(), "{status:?}");
    drop(stdin);
    // The challenge was stored before the stop.
    let out = run_script(&dir, "bob: /accept\n");
    assert!(
        out.iter()
            .any(|line| line.contains("alice") && line.contains("bob")),
        "{out:#?}"
    );
}

/// At the end of its input the console shows the computer's reply to the
/// last line before it stops, and a clean stop logs no error.
#[test]
fn a_piped_script_ends_after_the_computer_replied_and_without_errors() {
    let dir = temp_dir("computer-reply");
    let mut child = kodex(&dir)
        .env("KODEX_LOG", "error")
        .stderr(Stdio::piped())
        .spawn()
        .expect("kodex starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"alice: /play chess computer black\n")
        .expect("script written");
    let output = child.wait_with_output().expect("kodex exits");
    assert!(output.status.success(), "{:?}", output.status);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("Kodex L3 played"), "{stdout}");
    assert!(stdout.contains("alice (black) to move"), "{stdout}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.trim().is_empty(), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `kodex migrate-db` copies a console game into an empty database, where
/// the console picks it up; a second copy into it is refused, with a
/// failing exit status and nothing changed.
#[test]
fn migrate_db_copies_a_game_into_an_empty_database_and_refuses_a_full_one() {
    let dir = temp_dir("migrate");
    let out = run_script(
        &dir,
        "alice: /play chess @bob white\nbob: /accept\nalice: e4\n",
    );
    assert!(
        out.iter().any(|l| l.contains("alice played e4")),
        "{out:#?}"
    );
    let migrate = || {
        Command::new(env!("CARGO_BIN_EXE_kodex"))
            .args(["migrate-db", "--from", "sqlite://game.db", "--to"])
            .arg("sqlite://copy.db")
            .current_dir(&dir)
            .env("KODEX_LOG", "warn")
            .output()
            .expect("kodex migrate-db runs")
    };
    let first = migrate();
    assert!(first.status.success(), "{first:?}");
    let printed = String::from_utf8_lossy(&first.stdout);
    assert!(printed.contains("games: 1 rows"), "{printed}");
    assert!(printed.contains("seats: 2 rows"), "{printed}");
    let second = migrate();
    assert_eq!(second.status.code(), Some(1), "{second:?}");
    assert!(
        String::from_utf8_lossy(&second.stderr).contains("not empty"),
        "{second:?}"
    );
    // The copy is a database the bot runs on: bob answers there.
    let mut command = kodex(&dir);
    command.env("KODEX_DATABASE_URL", "sqlite://copy.db");
    let mut child = command.spawn().expect("kodex starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"bob: e5\n")
        .expect("script written");
    let output = child.wait_with_output().expect("kodex exits");
    let lines = String::from_utf8_lossy(&output.stdout);
    assert!(lines.contains("bob played e5"), "{lines}");
}

/// Two `kodex` processes started together on a fresh database both start
/// (one migrates, the other waits for it), twenty times: on a SQLite file,
/// and on a fresh PostgreSQL schema when `KODEX_TEST_POSTGRES_URL` names a
/// server.
#[test]
fn two_processes_started_together_on_a_fresh_database_both_start() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    for round in 0..20 {
        let dir = temp_dir(&format!("together-{round}"));
        let mut urls = vec!["sqlite://game.db".to_owned()];
        match runtime
            .block_on(kodex_bot::store::test_postgres_url())
            .expect("a PostgreSQL test schema")
        {
            Some(url) => urls.push(url),
            None if round == 0 => eprintln!(
                "two_processes_started_together: PostgreSQL skipped ({} is not set)",
                kodex_bot::store::TEST_POSTGRES_URL
            ),
            None => {}
        }
        for url in urls {
            let children: Vec<Child> = (0..2)
                .map(|_| {
                    let mut command = kodex(&dir);
                    command
                        .env("KODEX_DATABASE_URL", &url)
                        .stdin(Stdio::null())
                        .stderr(Stdio::piped());
                    command.spawn().expect("kodex starts")
                })
                .collect();
            for child in children {
                let output = child.wait_with_output().expect("kodex exits");
                assert!(
                    output.status.success(),
                    "round {round}, {url}: {:?} {}",
                    output.status,
                    String::from_utf8_lossy(&output.stderr)
                );
            }
        }
    }
}

/// A child's standard output, line by line, read on a thread of its own so
/// that a wait can time out.
struct Output(std::sync::mpsc::Receiver<String>);

impl Output {
    fn of(child: &mut Child) -> Output {
        let stdout = child.stdout.take().expect("stdout");
        let (sender, receiver) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if sender.send(line).is_err() {
                    return;
                }
            }
        });
        Output(receiver)
    }

    /// The lines up to and including the first one containing `text`,
    /// within `secs` seconds.
    fn until(&self, text: &str, secs: u64) -> Vec<String> {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(secs);
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match self.0.recv_timeout(left) {
                Ok(line) => {
                    let found = line.contains(text);
                    seen.push(line);
                    if found {
                        return seen;
                    }
                }
                Err(_) => panic!("no line with {text:?} within {secs} s: {seen:#?}"),
            }
        }
    }

    /// Every line printed within `secs` seconds.
    fn for_secs(&self, secs: u64) -> Vec<String> {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(secs);
        let mut seen = Vec::new();
        while let Ok(line) = self
            .0
            .recv_timeout(deadline.saturating_duration_since(std::time::Instant::now()))
        {
            seen.push(line);
        }
        seen
    }
}

/// `kodex worker` on the database of a bot that does not search itself.
fn worker(dir: &Path, url: &str) -> Child {
    Command::new(env!("CARGO_BIN_EXE_kodex"))
        .arg("worker")
        .current_dir(dir)
        .env_remove("KODEX_DISCORD_TOKEN")
        .env_remove("KODEX_TELEGRAM_TOKEN")
        .env("KODEX_DATABASE_URL", url)
        .env("KODEX_COMPUTER_SEARCHERS", "1")
        .env("KODEX_LOG", "warn")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("kodex worker starts")
}

/// The computer's searches as shared work: a console bot that does not
/// search (`KODEX_COMPUTER_SEARCHES=false`) gets its computer's moves from
/// `kodex worker` processes on the same database. A worker killed with
/// SIGKILL in the middle of a search loses nothing: once its claim has run
/// out, the next worker searches again, and each of the computer's turns
/// is played exactly once.
#[test]
fn a_worker_searches_for_the_bot_and_one_killed_mid_search_loses_nothing() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let dir = temp_dir("worker");
    let mut urls = vec![format!("sqlite://{}", dir.join("game.db").display())];
    match runtime
        .block_on(kodex_bot::store::test_postgres_url())
        .expect("a PostgreSQL test schema")
    {
        Some(url) => urls.push(url),
        None => eprintln!(
            "a_worker_searches_for_the_bot: PostgreSQL skipped ({} is not set)",
            kodex_bot::store::TEST_POSTGRES_URL
        ),
    }
    let now = || {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as i64)
    };
    for url in urls {
        let _ = std::fs::remove_file(dir.join("game.db"));
        let mut first = worker(&dir, &url);
        let mut bot = kodex(&dir)
            .env("KODEX_DATABASE_URL", &url)
            .env("KODEX_COMPUTER_SEARCHES", "false")
            .spawn()
            .expect("kodex starts");
        let mut stdin = bot.stdin.take().expect("stdin");
        let out = Output::of(&mut bot);
        // Level 8 thinks 4 s a move without a clock: time to kill it.
        writeln!(stdin, "alice: /play chess computer level 8 white").expect("write");
        out.until("alice (white) to move", 30);
        let store = runtime
            .block_on(kodex_bot::store::Store::open(&url))
            .expect("the store opens");
        writeln!(stdin, "alice: e4").expect("write");
        // The worker claims the search; it is killed while it thinks.
        let claimed = std::time::Instant::now();
        loop {
            let (_, searching, _) = runtime
                .block_on(store.search_counts(now()))
                .expect("counts");
            if searching == 1 {
                break;
            }
            assert!(
                claimed.elapsed() < std::time::Duration::from_secs(20),
                "{url}: no worker claimed the search"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        first.kill().expect("SIGKILL");
        first.wait().expect("reaped");
        // Nobody else searches: the bot does not, and no move comes.
        let meanwhile = out.for_secs(2);
        assert!(
            !meanwhile.iter().any(|l| l.contains("Kodex L8 played")),
            "{url}: {meanwhile:#?}"
        );
        // A second worker takes the search again once the claim ran out.
        let mut second = worker(&dir, &url);
        let lines = [meanwhile, out.until("Kodex L8 played", 40)].concat();
        assert!(
            lines.iter().any(|l| l.contains("alice played e4")),
            "{url}: {lines:#?}"
        );
        // And the next one at once.
        writeln!(stdin, "alice: d4").expect("write");
        let lines = out.until("Kodex L8 played", 40);
        assert!(
            lines.iter().any(|l| l.contains("alice played d4")),
            "{url}: {lines:#?}"
        );
        drop(stdin);
        let later = out.for_secs(3);
        assert!(
            !later.iter().any(|l| l.contains("Kodex L8 played")),
            "{url}: a turn played twice: {later:#?}"
        );
        bot.wait().expect("the console ends with its input");
        second.kill().expect("killed");
        second.wait().expect("reaped");
        // Each of the computer's turns once: four plies, no job left.
        let games = runtime
            .block_on(store.open_games_of("console", "alice"))
            .expect("games");
        assert_eq!(games.len(), 1, "{url}");
        assert_eq!(games[0].moves.len(), 4, "{url}: {:?}", games[0].moves);
        assert_eq!(
            runtime
                .block_on(store.search_counts(now()))
                .expect("counts"),
            (0, 0, 0),
            "{url}"
        );
        runtime.block_on(store.close());
    }
    let _ = std::fs::remove_dir_all(&dir);
}
