//! A console chat on a temporary SQLite file with a hand-moved clock, for
//! end-to-end tests that drive Kodex the way a person at the console does.

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

/// The console's shared chat, where `Chat::say` speaks.
pub fn shared_chat() -> kodex_bot::api::ChatRef {
    kodex_bot::api::ChatRef {
        platform: Platform::Console,
        id: kodex_bot::console::SHARED_CHAT.to_owned(),
    }
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
        config.database.url = chat_database(&dir).await;
        config.boards.dir = dir.join("boards");
        config.boards.text = true;
        Chat::open(config, dir, ManualTime::new(EPOCH), registry).await
    }

    /// A new chat whose configuration `configure` changes first.
    pub async fn configured(name: &str, configure: impl FnOnce(&mut Config)) -> Chat {
        let dir = temp_dir(name);
        let mut config = Config::defaults();
        config.database.url = chat_database(&dir).await;
        config.boards.dir = dir.join("boards");
        config.boards.text = true;
        configure(&mut config);
        Chat::open(config, dir, ManualTime::new(EPOCH), Registry::builtin()).await
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
        // As the binary stops: the computer's searches under way end with
        // the process, and the database closes.
        service.close().await;
        drop((console, service, outbox));
        Chat::open(config, dir, time, registry).await
    }

    /// Like [`Chat::restart`], the new process offering the variants of
    /// `registry` (an operator changed the variants folder meanwhile).
    pub async fn restart_with(self, registry: Registry) -> Chat {
        let Chat {
            console,
            service,
            time,
            config,
            dir,
            outbox,
            ..
        } = self;
        service.close().await;
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

    /// Waits (up to a minute) for deliveries no request caused — the
    /// computer's moves — until `done` holds for all printed so far; returns
    /// those lines.
    pub async fn wait_for(&mut self, what: &str, done: impl Fn(&[String]) -> bool) -> Vec<String> {
        let mut out = Vec::new();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while !done(&out) {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match tokio::time::timeout(left, self.outbox.recv()).await {
                Ok(Some(delivery)) => out.extend(self.console.show(&delivery)),
                _ => panic!("no {what} within a minute: {out:#?}"),
            }
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
        self.row_and_position(id).await.1
    }

    /// The stored row of game `id` and its position, read at once (the
    /// computer may move between two reads).
    pub async fn row_and_position(&self, id: &str) -> (GameRow, Game) {
        let row = self.row(id).await;
        let variant = self
            .service
            .registry()
            .get(&row.variant)
            .expect("variant")
            .clone();
        let game = Game::replay(
            &variant,
            row.start_fen.as_deref().unwrap_or(""),
            &row.move_list(),
        )
        .expect("replays");
        (row, game)
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
    /// (variant, clock, and last a start position as `fen:…`), and the
    /// opponent accepts: the game id and what the accept printed.
    pub async fn accepted(
        &mut self,
        challenger: &str,
        opponent: &str,
        args: &str,
    ) -> (String, Vec<String>) {
        // The FEN has spaces, so `/play` reads it last.
        let (args, fen) = match args.find("fen:") {
            Some(at) => (args[..at].trim_end(), format!(" {}", &args[at..])),
            None => (args, String::new()),
        };
        let out = self
            .say(&format!(
                "{challenger}: /play {args} @{opponent} white{fen}"
            ))
            .await;
        let id = game_id(&out);
        let accepted = self.say(&format!("{opponent}: /accept {id}")).await;
        (id, accepted)
    }

    /// Like [`Chat::accepted`], and a game with a setup phase is set up at
    /// random by both players (secretly, or one piece at a time in turn). Returns the game id and what the accept
    /// (or the last `ready`) printed: the start of play, or the result of a
    /// game the setups decided.
    pub async fn start_set_up(
        &mut self,
        challenger: &str,
        opponent: &str,
        args: &str,
    ) -> (String, Vec<String>) {
        let (id, mut out) = self.accepted(challenger, opponent, args).await;
        if out.iter().any(|l| l.contains("one at a time, in turn")) {
            // A public setup: whoever's turn it is places a piece at random
            // (the other's attempt is refused and changes nothing).
            'placing: for _ in 0..200 {
                for player in [challenger, opponent] {
                    let said = self.say(&format!("{player}: random")).await;
                    if self.row(&id).await.status != kodex_bot::store::Status::Setup {
                        out = said;
                        break 'placing;
                    }
                }
            }
        } else if out.iter().any(|l| l.contains("is being set up")) {
            for player in [challenger, opponent] {
                self.say(&format!("{player} (dm): random")).await;
                out = self.say(&format!("{player} (dm): ready")).await;
            }
        }
        (id, out)
    }
}

/// Asserts that `out` reveals the setups in the chat: the note, the start
/// of play, and the whole board as an image and as text with the row
/// `board_row` (`r n b q k b n r`).
pub fn assert_revealed(out: &[String], board_row: &str) {
    let public = to(out, "[#local]");
    for expected in ["both setups are revealed", "starts", "image:", board_row] {
        assert!(
            public.iter().any(|l| l.contains(expected)),
            "{expected}: {out:#?}"
        );
    }
}

/// Whether this run keeps the chats' games in PostgreSQL, not in SQLite
/// files: `KODEX_TEST_STORE=postgres`, on the server that
/// `KODEX_TEST_POSTGRES_URL` names (`.ci/run` runs the suite both ways).
pub fn on_postgres() -> bool {
    std::env::var("KODEX_TEST_STORE").is_ok_and(|store| store == "postgres")
}

/// Whether a test that reads or writes SQLite's file itself must skip
/// this run (it says so).
pub fn sqlite_only(test: &str) -> bool {
    let skip = on_postgres();
    if skip {
        eprintln!("{test}: skipped, it reads a SQLite file and this run is on PostgreSQL");
    }
    skip
}

/// The database of a chat in `dir`, made when missing: a SQLite file in
/// `dir`, or with [`on_postgres`] a fresh PostgreSQL schema whose URL is
/// kept in `dir` (so a restart finds it again).
pub async fn chat_database(dir: &std::path::Path) -> String {
    if !on_postgres() {
        return database_url(dir);
    }
    let file = dir.join("postgres-url");
    if let Ok(url) = std::fs::read_to_string(&file) {
        return url;
    }
    let url = kodex_bot::store::test_postgres_url()
        .await
        .expect("a PostgreSQL test schema")
        .expect("KODEX_TEST_STORE=postgres needs KODEX_TEST_POSTGRES_URL");
    std::fs::write(&file, &url).expect("the schema's URL kept");
    url
}

/// The database of a chat in `dir` (see [`chat_database`]).
pub fn database_url(dir: &std::path::Path) -> String {
    match std::fs::read_to_string(dir.join("postgres-url")) {
        Ok(url) => url,
        Err(_) => format!("sqlite://{}", dir.join("kodex.db").display()),
    }
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

/// The id of the game whose start (or setup) `lines` announce: "Game k7m2
/// starts", "Game k7m2 is being set up".
pub fn game_id_of_start(lines: &[String]) -> String {
    lines
        .iter()
        .find_map(|line| {
            let (_, rest) = line.split_once("Game ")?;
            let id = rest.split_whitespace().next()?;
            (rest.contains(" starts") || rest.contains(" is being set up")).then(|| id.to_owned())
        })
        .unwrap_or_else(|| panic!("no game started in {lines:#?}"))
}

/// The game id named by the decline button of a team challenge in `lines`.
pub fn team_game_id(lines: &[String]) -> String {
    lines
        .iter()
        .find_map(|line| {
            let (_, rest) = line.split_once("/press dec:")?;
            Some(rest.split(']').next()?.to_owned())
        })
        .unwrap_or_else(|| panic!("no team challenge in {lines:#?}"))
}

/// The image written for the last `image:` line of `out` in `chat`.
pub fn last_image(chat: &Chat, out: &[String]) -> Vec<u8> {
    let line = out
        .iter()
        .rev()
        .find_map(|line| line.split_once("image: "))
        .map(|(_, path)| path.trim().to_owned())
        .unwrap_or_else(|| panic!("an image in {out:#?}"));
    let name = std::path::Path::new(&line)
        .file_name()
        .expect("an image file name");
    let path = chat.dir.join("boards").join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Whether any line contains `text`.
pub fn has(lines: &[String], text: &str) -> bool {
    lines.iter().any(|l| l.contains(text))
}

/// Lines for one audience (`"[#local]"`, `"[@bob]"`).
pub fn to<'a>(lines: &'a [String], audience: &str) -> Vec<&'a String> {
    lines.iter().filter(|l| l.starts_with(audience)).collect()
}

/// The setup leak test: two games of `variant` (from `registry`, with a
/// 3+2 clock) that differ only in bob's secret setup — the two of
/// `bob_setups` — show alice and the chat byte-identical texts and images
/// throughout the setup; alice gets her boards, the chat no board at all.
pub async fn assert_setup_hides_bobs_half(
    registry: Registry,
    variant: &str,
    alice_half: &str,
    bob_setups: [&str; 2],
) {
    let mut seen = Vec::new();
    for bob_setup in bob_setups {
        let mut chat = Chat::with_registry(temp_dir("setup-secret"), registry.clone()).await;
        let (id, accepted) = chat
            .accepted("alice", "bob", &format!("{variant} 3+2"))
            .await;
        seen.push(
            seen_by_alice_and_the_chat(&mut chat, &id, accepted, alice_half, bob_setup).await,
        );
    }
    let (alice_one, bob_one) = &seen[0];
    let (alice_two, bob_two) = &seen[1];
    assert_eq!(alice_one, alice_two);
    assert_ne!(bob_one, bob_two, "bob's own boards differ");
    assert!(
        alice_one.iter().any(|l| l.starts_with("[@alice] image of")),
        "{alice_one:#?}"
    );
    let public: Vec<&String> = alice_one
        .iter()
        .filter(|l| l.starts_with("[#local]"))
        .collect();
    assert!(
        public.iter().any(|l| l.contains("alice is ready")),
        "{public:#?}"
    );
    assert!(!public.iter().any(|l| l.contains("image")), "{public:#?}");
}

/// What alice and the chat are shown while game `id` (alice white, bob
/// black, just accepted: `accepted` is what the accept printed) is set up:
/// alice places some pieces, then `alice_half`, bob places `bob_setup`,
/// both look at their boards, alice gets ready, a spectator and alice ask
/// about the game. Returns (alice's and the chat's lines, bob's lines), with
/// the game id masked and each image replaced by its size and hash, so that
/// two games differing only in bob's secret setup compare byte for byte.
async fn seen_by_alice_and_the_chat(
    chat: &mut Chat,
    id: &str,
    accepted: Vec<String>,
    alice_half: &str,
    bob_setup: &str,
) -> (Vec<String>, Vec<String>) {
    let mut seen = Vec::new();
    let mut bob = Vec::new();
    let keep = |out: Vec<String>, seen: &mut Vec<String>, bob: &mut Vec<String>| {
        for line in out {
            let line = line.replace(id, "ID");
            if line.starts_with("[@bob]") {
                bob.push(line);
                continue;
            }
            if let Some((prefix, path)) = line.split_once(" image: ") {
                let bytes = std::fs::read(path.replace("ID", id)).expect("image");
                seen.push(format!(
                    "{prefix} image of {} bytes, hash {}",
                    bytes.len(),
                    fnv(&bytes)
                ));
            } else {
                seen.push(line);
            }
        }
    };
    keep(accepted, &mut seen, &mut bob);
    for line in [
        "alice (dm): Ke1 Qd1".to_owned(),
        format!("bob (dm): {bob_setup}"),
        "alice (dm): board".to_owned(),
        format!("alice (dm): {alice_half}"),
        "bob (dm): board".to_owned(),
        "alice (dm): ready".to_owned(),
        "alice (dm): board".to_owned(),
        "carol: /board".to_owned(),
        format!("carol: /board {id}"),
        "alice: /games".to_owned(),
    ] {
        let out = chat.say(&line).await;
        keep(out, &mut seen, &mut bob);
    }
    (seen, bob)
}

/// A 64-bit FNV-1a hash, to compare image bytes in a message.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
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
/// lines; returns all that bob, the chat and dave (watching the game from
/// his private chat) were told. Two games whose alice differs only in what
/// bob may not know must return the same.
pub async fn told_bob_and_chat(
    name: &str,
    args: &str,
    alice: &[&[&str]],
    bob: &[Vec<&str>],
) -> Vec<(String, Vec<u8>)> {
    told_watcher_and_chat(name, args, "alice", alice, "bob", bob).await
}

/// A game of `args` between alice (white) and bob in which `mover` (one of
/// them, the side to move at the start) plays their turns (each a list of
/// lines: attempts, then the move) and `watcher`, the other, then says
/// their lines (spoken as written, `"alice (dm): Kd1"`); returns all that
/// the watcher, the chat and dave (watching the game from his private chat)
/// were told. Two games whose mover differs only in what the watcher may not
/// know must return the same.
pub async fn told_watcher_and_chat(
    name: &str,
    args: &str,
    mover: &str,
    turns: &[&[&str]],
    watcher: &str,
    lines: &[Vec<&str>],
) -> Vec<(String, Vec<u8>)> {
    let mut chat = Chat::new(name).await;
    let id = chat.start("alice", "bob", args).await;
    let audiences = [
        format!("[@{watcher}]"),
        "[#local]".to_owned(),
        "[@dave]".to_owned(),
    ];
    // Dave watches from his private chat: a spectator hears what the chat
    // hears, so he too must be told the same in both games.
    let out = chat.say(&format!("dave (dm): /watch {id}")).await;
    let mut seen = told(&chat, &id, &out, "[@dave]");
    assert!(!seen.is_empty(), "dave watches: {out:#?}");
    for (turn, watcher_lines) in turns.iter().zip(lines) {
        let mut out = Vec::new();
        for line in turn.iter() {
            chat.time.advance(1_500);
            out = chat.say(&format!("{mover} (dm): {line}")).await;
            for audience in &audiences {
                seen.extend(told(&chat, &id, &out, audience));
            }
        }
        assert!(has(&out, "you played"), "{turn:?}: {out:#?}");
        for line in watcher_lines {
            chat.time.advance(2_000);
            let out = chat.say(line).await;
            for audience in &audiences {
                seen.extend(told(&chat, &id, &out, audience));
            }
        }
    }
    assert!(
        seen.iter()
            .filter(|(line, _)| line.contains("[@dave]"))
            .count()
            > 2,
        "dave must have heard the game: {:#?}",
        seen.iter().map(|(line, _)| line).collect::<Vec<_>>()
    );
    assert!(
        seen.iter().filter(|(_, image)| !image.is_empty()).count() >= 4,
        "{watcher} must have been sent boards: {:#?}",
        seen.iter().map(|(line, _)| line).collect::<Vec<_>>()
    );
    seen
}

/// An Enochian game of four (alice red, bob black, carol yellow, dave blue)
/// from its start to a throne taken, as (player, move): yellow's knight
/// checks black's king on its throne a1 (hemmed in by its own pieces, so
/// black moves a pawn instead), then takes the throne's two pieces, the
/// king and the bishop, at once; blue's king walks to black's throne (while
/// red's knight and yellow's rook wait, to and fro) and takes the knight
/// there, so taking control of black's frozen army (red, meanwhile, takes
/// its queen, rook and pawn out of a knight's reach from f3, where its king
/// will be taken). Black's turn comes after red's next move (its king may
/// step to g2).
pub fn enochian_throne_walk() -> Vec<(&'static str, &'static str)> {
    let mut moves = vec![
        ("alice", "g3"),
        ("bob", "Ra5"),
        ("carol", "Nb6"),
        ("dave", "f7"),
        ("alice", "Ne3"),
        ("bob", "Ra6"),
        ("carol", "Nc4"),
        ("dave", "Kg7"),
        ("alice", "Nf1"),
        ("bob", "Ra5"),
        ("carol", "Nd2"),
        ("dave", "Kf6"),
        ("alice", "Ne3"),
        ("bob", "Ra6"),
        ("carol", "Nxb3"),
        ("dave", "Ke5"),
        ("alice", "Nf1"),
        // Black's king in check cannot move: another piece may.
        ("bob", "c2"),
        ("carol", "Nxa1"),
    ];
    // (Black's frozen army passes by itself after red's move.)
    let walk = [
        ("Kd4", "h3", "Rf8"),
        ("Kc3", "Rd1", "Rd8"),
        ("Kb2", "Qe3", "Rf8"),
    ];
    for (blue, red, yellow) in walk {
        moves.extend([("dave", blue), ("alice", red), ("carol", yellow)]);
    }
    moves.push(("dave", "Kxa1"));
    moves
}

/// Enochian chess, after [`enochian_throne_walk`] and red's `Kg2`: dave
/// moves black's army (its throne his king took) and blue's, and blue's
/// knight takes red's king; yellow holds black's king, blue red's.
pub fn enochian_prisoners_walk() -> Vec<(&'static str, &'static str)> {
    vec![
        // Black's frozen rook moves again, under dave.
        ("dave", "Ra5"),
        ("carol", "Rd8"),
        ("dave", "Nf5"),
        ("alice", "Rc1"),
        ("dave", "Ra6"),
        ("carol", "Rf8"),
        ("dave", "Nh4+"),
        // Red's king in check must move: into another check.
        ("alice", "Kf3"),
        ("dave", "Ra5"),
        ("carol", "Rd8"),
        ("dave", "Nxf3"),
    ]
}

/// Plays `moves` (player, move) at the console; each must be played.
pub async fn play_moves(console: &mut Console, moves: &[(&str, &str)]) {
    for (who, mv) in moves {
        let out = console.line(&format!("{who}: /move {mv}")).await;
        assert!(
            has(&out, &format!("{who} played {mv}")),
            "{who} {mv}: {out:#?}"
        );
    }
}
