//! A console chat on a temporary SQLite file with a hand-moved clock, for
//! end-to-end tests that drive Kodex the way a person at the console does.

#![allow(dead_code)]

use kodex_bot::api::{Delivery, Platform};
use kodex_bot::config::Config;
use kodex_bot::console::Console;
use kodex_bot::store::GameRow;
use kodex_bot::time::ManualTime;
use kodex_bot::Service;
use kodex_engine::{Game, Registry};
use std::path::PathBuf;
use std::sync::Arc;
use tokio::sync::mpsc::UnboundedReceiver;

/// A moment to start test clocks at (2023-11-14).
pub const EPOCH: i64 = 1_700_000_000_000;

/// A console chat under test.
pub struct Chat {
    pub console: Console,
    pub service: Service,
    pub time: Arc<ManualTime>,
    pub config: Config,
    pub dir: PathBuf,
    registry: Registry,
    outbox: UnboundedReceiver<Delivery>,
}

/// A fresh temporary folder.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "kodex-test-{name}-{}-{}",
        std::process::id(),
        fastrand::u64(..)
    ));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

impl Chat {
    /// A new chat on a new database.
    pub async fn new(name: &str) -> Chat {
        Chat::in_dir(temp_dir(name)).await
    }

    /// A chat on the database [`database_url`] of `dir`, created when missing.
    pub async fn in_dir(dir: PathBuf) -> Chat {
        Chat::with_registry(dir, Registry::builtin()).await
    }

    /// A chat offering the variants of `registry` (test variants added with
    /// `Registry::add_definition`), on the database of `dir`.
    pub async fn with_registry(dir: PathBuf, registry: Registry) -> Chat {
        let mut config = Config::defaults();
        config.database.url = database_url(&dir);
        config.boards.dir = dir.join("boards");
        config.boards.text = true;
        Chat::open(config, dir, ManualTime::new(EPOCH), registry).await
    }

    async fn open(config: Config, dir: PathBuf, time: Arc<ManualTime>, registry: Registry) -> Chat {
        let service = Service::open(&config, registry.clone(), time.clone())
            .await
            .expect("service opens");
        let outbox = service.outbox(Platform::Console);
        Chat {
            console: Console::new(service.clone(), config.boards.dir.clone()),
            service,
            time,
            config,
            dir,
            registry,
            outbox,
        }
    }

    /// Drops the service and starts a new one on the same database and clock,
    /// as a restarted process would.
    pub async fn restart(self) -> Chat {
        let Chat {
            console,
            service,
            time,
            config,
            dir,
            registry,
            outbox,
        } = self;
        drop((console, service, outbox));
        Chat::open(config, dir, time, registry).await
    }

    /// Another service on the same database and clock, as a second process would have.
    pub async fn second_service(&self) -> Service {
        Service::open(&self.config, self.registry.clone(), self.time.clone())
            .await
            .expect("second service opens")
    }

    /// Says `line` at the console; returns the output lines.
    pub async fn say(&mut self, line: &str) -> Vec<String> {
        self.console.line(line).await
    }

    /// Says every line, returning all output.
    pub async fn script(&mut self, lines: &[&str]) -> Vec<String> {
        let mut out = Vec::new();
        for line in lines {
            out.extend(self.say(line).await);
        }
        out
    }

    /// Moves the clock forward and lets due deadlines fire; returns what the
    /// outbox printed.
    pub async fn advance(&mut self, millis: i64) -> Vec<String> {
        self.time.advance(millis);
        self.service.tick().await;
        let mut out = Vec::new();
        while let Ok(delivery) = self.outbox.try_recv() {
            out.extend(self.console.show(&delivery));
        }
        out
    }

    /// The stored row of game `id`.
    pub async fn row(&self, id: &str) -> GameRow {
        self.service
            .store()
            .get("console", id)
            .await
            .expect("store")
            .expect("game exists")
    }

    /// The stored result of game `id` as text (`"1-0"`, `"1/2-1/2"`), if any.
    pub async fn result(&self, id: &str) -> Option<String> {
        self.row(id).await.result.as_ref().map(|r| r.to_text())
    }

    /// The position of game `id`.
    pub async fn position(&self, id: &str) -> Game {
        let row = self.row(id).await;
        let variant = self
            .service
            .registry()
            .get(&row.variant)
            .expect("variant")
            .clone();
        Game::replay(
            &variant,
            row.start_fen.as_deref().unwrap_or(""),
            &row.move_list(),
        )
        .expect("replays")
    }

    /// Challenges `opponent` as `challenger` (who plays white) and accepts;
    /// returns the game id.
    pub async fn start(&mut self, challenger: &str, opponent: &str, args: &str) -> String {
        let (id, accepted) = self.accepted(challenger, opponent, args).await;
        assert!(
            accepted.iter().any(|l| l.contains("starts")),
            "not started: {accepted:#?}"
        );
        id
    }

    /// Challenges `opponent` as `challenger` (who plays white) with `args`
    /// (variant, clock), and the opponent accepts: the game id and what the
    /// accept printed.
    pub async fn accepted(
        &mut self,
        challenger: &str,
        opponent: &str,
        args: &str,
    ) -> (String, Vec<String>) {
        let out = self
            .say(&format!("{challenger}: /play {args} @{opponent} white"))
            .await;
        let id = game_id(&out);
        let accepted = self.say(&format!("{opponent}: /accept {id}")).await;
        (id, accepted)
    }
}

/// The database of a chat in `dir`.
pub fn database_url(dir: &std::path::Path) -> String {
    format!("sqlite://{}", dir.join("kodex.db").display())
}

/// The game id named by an accept button in `lines`.
pub fn game_id(lines: &[String]) -> String {
    lines
        .iter()
        .find_map(|line| {
            let (_, rest) = line.split_once("/press acc:")?;
            Some(rest.split(']').next()?.to_owned())
        })
        .unwrap_or_else(|| panic!("no challenge in {lines:#?}"))
}

/// Whether any line contains `text`.
pub fn has(lines: &[String], text: &str) -> bool {
    lines.iter().any(|l| l.contains(text))
}

/// Lines for one audience (`"[#local]"`, `"[@bob]"`).
pub fn to<'a>(lines: &'a [String], audience: &str) -> Vec<&'a String> {
    lines.iter().filter(|l| l.starts_with(audience)).collect()
}

/// What `audience` was told: the lines with the game id and the test's
/// folder replaced, and the
/// bytes of every image they were sent.
pub fn told(chat: &Chat, id: &str, out: &[String], audience: &str) -> Vec<(String, Vec<u8>)> {
    to(out, audience)
        .into_iter()
        .map(|line| {
            let image = line
                .split_once("image: ")
                .map(|(_, path)| {
                    let path = chat.dir.join("boards").join(
                        std::path::Path::new(path.trim())
                            .file_name()
                            .expect("an image file name"),
                    );
                    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
                })
                .unwrap_or_default();
            let dir = chat.dir.display().to_string();
            (line.replace(&dir, "DIR").replace(id, "ID"), image)
        })
        .collect()
}

/// A game of `args` between alice and bob in which alice plays her turns
/// (each a list of lines: attempts, then her move) and bob then says his
/// lines; returns all that bob and the chat were told. Two games whose
/// alice differs only in what bob may not know must return the same.
pub async fn told_bob_and_chat(
    name: &str,
    args: &str,
    alice: &[&[&str]],
    bob: &[Vec<&str>],
) -> Vec<(String, Vec<u8>)> {
    let mut chat = Chat::new(name).await;
    let id = chat.start("alice", "bob", args).await;
    let mut seen = Vec::new();
    for (alice_lines, bob_lines) in alice.iter().zip(bob) {
        let mut out = Vec::new();
        for line in alice_lines.iter() {
            chat.time.advance(1_500);
            out = chat.say(&format!("alice (dm): {line}")).await;
            seen.extend(told(&chat, &id, &out, "[@bob]"));
            seen.extend(told(&chat, &id, &out, "[#local]"));
        }
        assert!(has(&out, "you played"), "{alice_lines:?}: {out:#?}");
        for line in bob_lines {
            chat.time.advance(2_000);
            let out = chat.say(line).await;
            seen.extend(told(&chat, &id, &out, "[@bob]"));
            seen.extend(told(&chat, &id, &out, "[#local]"));
        }
    }
    assert!(
        seen.iter().filter(|(_, image)| !image.is_empty()).count() >= 4,
        "bob must have been sent boards: {:#?}",
        seen.iter().map(|(line, _)| line).collect::<Vec<_>>()
    );
    seen
}
