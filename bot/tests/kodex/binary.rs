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
