//! A clean stop: the real `kodex` binary against the fake Telegram Bot API
//! on a temporary SQLite file, stopped by SIGTERM in the middle of a game
//! (an update just sent), then started again: the game and its clock are
//! there, every update was handled once, and the process said so by exiting
//! successfully.
#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::Duration;

use kodex_bot::store::{GameRow, Store};
use kodex_tests::fake_telegram::{Call, FakeTelegram, TOKEN};

const GROUP: i64 = -100_500;
const ALICE: i64 = 11;
const BOB: i64 = 22;

fn temp_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "kodex-shutdown-{}-{}",
        std::process::id(),
        unique_suffix()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn unique_suffix() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_nanos())
}

fn database_url(dir: &Path) -> String {
    format!("sqlite://{}", dir.join("kodex.db").display())
}

/// Starts `kodex` (no subcommand: the platforms) against the fake.
fn kodex(dir: &Path, fake: &FakeTelegram) -> Child {
    Command::new(env!("CARGO_BIN_EXE_kodex"))
        .current_dir(dir)
        .env_remove("KODEX_DISCORD_TOKEN")
        .env("KODEX_TELEGRAM_TOKEN", TOKEN)
        .env("KODEX_TELEGRAM_API_URL", fake.url().as_str())
        .env("KODEX_DATABASE_URL", database_url(dir))
        .env("KODEX_BOARDS_DIR", dir.join("boards"))
        .env("KODEX_LOG", "warn")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("kodex starts")
}

/// Sends SIGTERM, as a service manager or `docker stop` does.
fn terminate(child: &Child) {
    let sent = Command::new("kill")
        .arg("-TERM")
        .arg(child.id().to_string())
        .status()
        .expect("kill runs");
    assert!(sent.success(), "SIGTERM sent");
}

/// Waits for the process to end, without blocking the fake's runtime.
async fn exit_of(child: &mut Child) -> ExitStatus {
    for _ in 0..600 {
        if let Some(status) = child.try_wait().expect("the child can be waited for") {
            return status;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let _ = child.kill();
    panic!("kodex did not stop within a minute of SIGTERM");
}

fn is_board(call: &Call) -> bool {
    call.upload
        .as_ref()
        .is_some_and(|upload| upload.bytes.starts_with(b"\x89PNG"))
}

fn challenge_id(call: &Call) -> Option<String> {
    call.button_data()
        .iter()
        .find_map(|data| data.strip_prefix("acc:").map(str::to_owned))
}

/// The group boards whose caption names `san`.
fn boards_naming(fake: &FakeTelegram, san: &str) -> usize {
    fake.calls()
        .iter()
        .filter(|call| call.delivered_to(GROUP) && is_board(call) && call.text().contains(san))
        .count()
}

async fn stored(dir: &Path, game: &str) -> GameRow {
    let store = Store::open(&database_url(dir))
        .await
        .expect("the database opens");
    let row = store
        .get("telegram", game)
        .await
        .expect("the store answers")
        .expect("the game is stored");
    store.close().await;
    row
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_mid_game_loses_nothing_and_handles_nothing_twice() {
    let dir = temp_dir();
    let fake = FakeTelegram::start().await;
    fake.add_group(GROUP, "Chess club");
    fake.add_person(ALICE, "alice", "en", true);
    fake.add_person(BOB, "bob", "en", true);

    let mut first = kodex(&dir, &fake);
    fake.say(GROUP, BOB, "hello");
    fake.say(GROUP, ALICE, "/play chess @bob white 5+0");
    let (at, challenge) = fake
        .wait_for(0, "the challenge", |call| {
            call.delivered_to(GROUP) && challenge_id(call).is_some()
        })
        .await;
    let game = challenge_id(&challenge).expect("a game id");
    fake.say(GROUP, BOB, "/accept");
    let (at, _) = fake
        .wait_for(at, "the first board", |call| {
            call.delivered_to(GROUP) && is_board(call)
        })
        .await;
    fake.say(GROUP, ALICE, "/m e4");
    fake.wait_for(at + 1, "the board after e4", |call| {
        call.delivered_to(GROUP) && is_board(call) && call.text().contains("e4")
    })
    .await;

    // Bob's move is on its way when the stop comes.
    fake.say(GROUP, BOB, "/m e5");
    terminate(&first);
    let status = exit_of(&mut first).await;
    assert!(
        status.success(),
        "a clean stop exits with success: {status:?}"
    );
    let handled_before_stop = boards_naming(&fake, "e5");
    // What the stopped process took, it handled, answered and confirmed;
    // what it did not take is still waiting for the next start.
    assert!(handled_before_stop <= 1, "{}", fake.describe_calls());
    assert_eq!(
        fake.unconfirmed_updates(),
        1 - handled_before_stop,
        "every handled update is confirmed to Telegram, no other is\n{}",
        fake.describe_calls()
    );
    let row = stored(&dir, &game).await;
    let moves_before_restart = row.moves.len();
    assert_eq!(
        moves_before_restart,
        1 + handled_before_stop,
        "{}",
        row.moves
    );
    let clocks: Vec<Option<i64>> = (0..2).map(|seat| row.remaining(seat)).collect();
    assert!(
        clocks.iter().all(Option::is_some),
        "a clocked game: {clocks:?}"
    );

    let restarted_from = fake.calls().len();
    let mut second = kodex(&dir, &fake);
    if handled_before_stop == 0 {
        fake.wait_for(restarted_from, "the board after e5", |call| {
            call.delivered_to(GROUP) && is_board(call) && call.text().contains("e5")
        })
        .await;
    }
    fake.say(GROUP, ALICE, "/m Nf3");
    fake.wait_for(restarted_from, "the board after Nf3", |call| {
        call.delivered_to(GROUP) && is_board(call) && call.text().contains("Nf3")
    })
    .await;
    terminate(&second);
    assert!(exit_of(&mut second).await.success());

    assert_eq!(boards_naming(&fake, "e4"), 1, "{}", fake.describe_calls());
    assert_eq!(boards_naming(&fake, "e5"), 1, "{}", fake.describe_calls());
    // Nobody was told off for a move made twice.
    let refusals: Vec<String> = fake.calls()[restarted_from..]
        .iter()
        .filter(|call| call.is_send() && !is_board(call))
        .map(Call::text)
        .collect();
    assert!(refusals.is_empty(), "{refusals:#?}");
    assert_eq!(fake.unconfirmed_updates(), 0);
    let row = stored(&dir, &game).await;
    assert_eq!(row.moves, "e2e4 e7e5 g1f3");
    assert!(row.result.is_none(), "the game runs on");
    assert!(
        (0..2).all(|seat| row.remaining(seat).is_some_and(|left| left > 0)),
        "the clock is still there"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
