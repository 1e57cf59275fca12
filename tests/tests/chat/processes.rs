//! Three `kodex run` processes (the real binary) on one PostgreSQL
//! database, behind the fake Telegram (webhook updates to each in turn, as
//! a load balancer sends them) and the fake Discord (four gateway shards,
//! two in each of two processes), with a couple of hundred games at once:
//! people's games, games on a one-minute clock that run out, games against
//! the computer, fog of war, and challenges nobody takes. One process is
//! killed with SIGKILL while it searches for the computer and restarted.
//!
//! Afterwards every move is applied once, every flag falls once, every
//! reminder and every expiry comes once, every computer move is made and
//! posted once, no announcement is posted twice, the groups of fog games
//! hear nothing of the moves, and the games the killed process served go
//! on after its restart.
//!
//! The process is killed between updates: every move typed so far is
//! stored and announced, and what is in flight are the computer's searches
//! and the clocks. A process killed while it handles an update, or with
//! announcements still queued in its memory (Telegram's flood limits hold
//! boards back for seconds), loses those announcements: the move is stored
//! and the game goes on, but its chat is not told. Deliveries kept in the
//! database until they are sent would close that; they are not built.
//!
//! The binary is `target/<profile>/kodex`, which `cargo test --workspace`
//! builds; the test says that it skips without it or without PostgreSQL.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use kodex_bot::store::{GameRow, Status, Store};
use kodex_tests::fake_discord::payloads::{integer_option, string_option, user_option};
use kodex_tests::fake_discord::{FakeDiscord, FakeUser, Place, SentMessage};
use kodex_tests::fake_telegram::{Call, FakeTelegram, TOKEN};

/// Telegram groups with one game (or challenge) each, and as many Discord
/// channels with one game each, spread over the four shards;
/// `KODEX_TEST_PROCESS_GAMES` sets another number.
fn games_per_platform() -> usize {
    std::env::var("KODEX_TEST_PROCESS_GAMES")
        .ok()
        .and_then(|games| games.parse().ok())
        .unwrap_or(100)
        .max(DEEP_GAMES + UNANSWERED + 4)
}
/// Games against the computer's slowest level (it thinks 4 s a move):
/// what the killed process is searching for when it dies.
const DEEP_GAMES: usize = 3;
/// Telegram challenges that nobody accepts.
const UNANSWERED: usize = 3;
/// How long a challenge waits (s).
const EXPIRY_SECS: u64 = 45;
const SECRET: &str = "one-secret-for-three-processes";
const SHARDS: u32 = 4;

/// What a game is for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    /// Two people, no clock: two moves each.
    People,
    /// Two people on 1+0: one move each, then white's flag falls.
    Clock,
    /// A person against the computer, level 1: two moves each.
    Computer,
    /// Fog of war between two people, moved in private: two moves each.
    Fog,
    /// Against level 8: one move each, searched while a process dies.
    Deep,
    /// An open challenge nobody takes: it expires.
    Unanswered,
}

/// A Telegram game: its group and players.
struct TelegramGame {
    kind: Kind,
    group: i64,
    white: i64,
    black: i64,
    white_name: String,
    black_name: String,
    id: String,
}

/// A Discord game: its guild, channel and players.
struct DiscordGame {
    kind: Kind,
    guild: u64,
    channel: u64,
    white: FakeUser,
    black: FakeUser,
    id: String,
}

/// The `kodex` binary beside this test binary (`target/debug/deps/..`).
fn kodex_binary() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let profile = exe.parent()?.parent()?;
    let binary = profile.join(format!("kodex{}", std::env::consts::EXE_SUFFIX));
    binary.exists().then_some(binary)
}

/// One `kodex run` process and how to start it again.
struct Process {
    name: &'static str,
    command: Vec<(String, String)>,
    binary: PathBuf,
    dir: PathBuf,
    child: Option<Child>,
    starts: usize,
}

impl Process {
    fn start(&mut self) {
        self.starts += 1;
        let log =
            std::fs::File::create(self.dir.join(format!("{}-{}.log", self.name, self.starts)))
                .expect("a log file");
        let mut command = Command::new(&self.binary);
        command
            .arg("run")
            .current_dir(&self.dir)
            .env_remove("KODEX_DISCORD_TOKEN")
            .env_remove("KODEX_TELEGRAM_TOKEN")
            .env_remove("KODEX_DISCORD_SHARDS")
            .env_remove("KODEX_CONFIG")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log);
        for (name, value) in &self.command {
            command.env(name, value);
        }
        self.child = Some(command.spawn().expect("kodex starts"));
    }

    fn pid(&self) -> u32 {
        self.child.as_ref().expect("running").id()
    }

    /// SIGKILL: no shutdown code runs.
    fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// The process's log so far (for failure messages).
    fn logs(&self) -> String {
        (1..=self.starts)
            .map(|start| {
                let file = self.dir.join(format!("{}-{start}.log", self.name));
                let text = std::fs::read_to_string(file).unwrap_or_default();
                let tail: Vec<&str> = text.lines().rev().take(30).collect();
                format!(
                    "--- {} (start {start}) ---\n{}",
                    self.name,
                    tail.into_iter().rev().collect::<Vec<_>>().join("\n")
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.kill();
    }
}

fn free_port() -> std::net::SocketAddr {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free local port")
}

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// Polls `done` every 200 ms until it holds; panics after `secs` with
/// `what` and the processes' logs.
async fn until(what: &str, secs: u64, processes: &[&Process], done: impl Fn() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(secs);
    while !done() {
        if Instant::now() > deadline {
            let logs: Vec<String> = processes.iter().map(|p| p.logs()).collect();
            panic!("not within {secs} s: {what}\n{}", logs.join("\n"));
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Like [`until`], with an asynchronous check.
async fn until_async<F, Fut>(what: &str, secs: u64, processes: &[&Process], done: F)
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    until_missing(what, secs, processes, || async {
        if done().await {
            None
        } else {
            Some(String::new())
        }
    })
    .await;
}

/// Polls `missing` every 200 ms until it finds nothing missing (`None`);
/// panics after `secs` with what it still misses and the logs.
async fn until_missing<F, Fut>(what: &str, secs: u64, processes: &[&Process], missing: F)
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = Option<String>>,
{
    let started = Instant::now();
    let deadline = started + Duration::from_secs(secs);
    loop {
        let Some(left) = missing().await else {
            eprintln!(
                "three_processes: {what}: {:.1} s",
                started.elapsed().as_secs_f64()
            );
            return;
        };
        if Instant::now() > deadline {
            let logs: Vec<String> = processes.iter().map(|p| p.logs()).collect();
            panic!(
                "not within {secs} s: {what}\nmissing: {left}\n{}",
                logs.join("\n")
            );
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

fn telegram_kind(index: usize) -> Kind {
    if index < DEEP_GAMES {
        return Kind::Deep;
    }
    if index < DEEP_GAMES + UNANSWERED {
        return Kind::Unanswered;
    }
    [Kind::People, Kind::Clock, Kind::Computer, Kind::Fog][index % 4]
}

fn discord_kind(index: usize) -> Kind {
    if index < DEEP_GAMES {
        return Kind::Deep;
    }
    [Kind::People, Kind::Clock, Kind::Computer, Kind::People][index % 4]
}

/// How many moves the stored game holds when a phase is over.
/// Checks a finished run's game of `kind` (played by `names`, white
/// first) against its stored `row` and what its chat was `told`: every move
/// stored as typed and announced once, the start once, a flag once, each of
/// the computer's moves once. Returns the stored moves; `context` goes
/// with a failure.
fn played_once(
    kind: Kind,
    row: &GameRow,
    names: [&str; 2],
    told: &[String],
    context: &[String],
) -> usize {
    let id = &row.id;
    let count = |text: &str| told.iter().filter(|line| line.contains(text)).count();
    assert_eq!(count("starts:"), 1, "{id}: {context:#?}");
    let moves = row.moves.len();
    match kind {
        Kind::People | Kind::Fog => {
            assert_eq!(row.moves.texts(), ["e2e4", "e7e5", "g1f3", "b8c6"], "{id}");
            if kind == Kind::People {
                for (ply, text) in LINES.iter().enumerate() {
                    let played = format!("{} played {text}", names[ply % 2]);
                    assert_eq!(count(&played), 1, "{id}: {context:#?}");
                }
            }
        }
        Kind::Clock => {
            assert_eq!(row.moves.texts(), ["e2e4", "e7e5"], "{id}");
            assert_eq!(count("ran out of time"), 1, "{id}: {context:#?}");
        }
        Kind::Computer | Kind::Deep => {
            let expected = if kind == Kind::Deep { 2 } else { 4 };
            assert_eq!(moves, expected, "{id}");
            let computer = count(computer_played(kind));
            assert_eq!(
                computer,
                moves / 2,
                "{id}: the computer's moves: {context:#?}"
            );
        }
        Kind::Unanswered => unreachable!("no game"),
    }
    moves
}

/// Counts a checked game of `kind` with `moves` in the run's tally.
fn tally_game(tally: &mut BTreeMap<&'static str, usize>, kind: Kind, moves: usize) {
    *tally.entry("moves").or_default() += moves;
    match kind {
        Kind::Clock => *tally.entry("flags").or_default() += 1,
        Kind::Computer | Kind::Deep => *tally.entry("computer moves").or_default() += moves / 2,
        _ => {}
    }
}

fn telegram_play(kind: Kind) -> &'static str {
    match kind {
        Kind::People | Kind::Unanswered => "/play chess white",
        Kind::Clock => "/play chess 1+0 white",
        Kind::Computer => "/play chess computer level 1 white",
        Kind::Deep => "/play chess computer level 8 white",
        Kind::Fog => "/play fogofwar white",
    }
}

/// The moves of a game, in order (the computer's are its own).
const LINES: [&str; 4] = ["e4", "e5", "Nf3", "Nc6"];
/// What a person plays against the computer: legal whatever it answers.
const AGAINST_THE_COMPUTER: [&str; 2] = ["e4", "a3"];

/// How the computer's moves are announced in a game of `kind`.
fn computer_played(kind: Kind) -> &'static str {
    if kind == Kind::Deep {
        "Kodex L8 played"
    } else {
        "Kodex L1 played"
    }
}

fn challenge_of(call: &Call) -> Option<String> {
    call.button_data()
        .iter()
        .find_map(|data| data.strip_prefix("acc:").map(str::to_owned))
}

/// The id in "Game k7m2 starts: …".
fn started_id(text: &str) -> Option<String> {
    let rest = text.split("Game ").nth(1)?;
    let (id, rest) = rest.split_once(' ')?;
    rest.starts_with("starts").then(|| id.to_owned())
}

/// How many moves of `game` its group was told of (a move and the
/// computer's quick answer come in one message).
fn telegram_announced(calls: &[Call], game: &TelegramGame) -> usize {
    let count = |told: &str| {
        calls
            .iter()
            .filter(|call| call.delivered_to(game.group))
            .map(|call| call.text().matches(told).count())
            .sum::<usize>()
    };
    if game.kind == Kind::Fog {
        // The group hears whose turn it is, first with the start.
        count(" to move").saturating_sub(1)
    } else {
        count(" played ")
    }
}

/// How many moves of `game` its channel was told of.
fn discord_announced(sent: &[SentMessage], game: &DiscordGame) -> usize {
    sent.iter()
        .filter(|m| m.place == Place::Channel(game.channel) && m.text().contains(" played "))
        .count()
}

async fn stored(store: &Store, platform: &str, id: &str) -> Option<GameRow> {
    store.get(platform, id).await.ok().flatten()
}

/// How many stored moves each game has (by id).
async fn move_counts(store: &Store, platform: &str, ids: &[String]) -> HashMap<String, usize> {
    let mut counts = HashMap::new();
    for id in ids {
        if let Some(row) = stored(store, platform, id).await {
            counts.insert(id.clone(), row.moves.len());
        }
    }
    counts
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn three_processes_on_postgres_with_one_killed_midway_apply_everything_once() {
    if std::env::var("KODEX_TEST_STORE").as_deref() == Ok("postgres") {
        eprintln!(
            "three_processes: skipped in the PostgreSQL rerun (it runs on PostgreSQL always)"
        );
        return;
    }
    let Some(binary) = kodex_binary() else {
        eprintln!(
            "three_processes: skipped: no kodex binary beside the tests (`cargo test --workspace` builds it)"
        );
        return;
    };
    let Some(url) = kodex_bot::store::test_postgres_url()
        .await
        .expect("a PostgreSQL test schema")
    else {
        eprintln!(
            "three_processes: PostgreSQL skipped ({} is not set)",
            kodex_bot::store::TEST_POSTGRES_URL
        );
        return;
    };
    let dir = std::env::temp_dir().join(format!("kodex-processes-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");

    let telegram = FakeTelegram::start().await;
    let discord = FakeDiscord::start().await;
    let mut telegram_games: Vec<TelegramGame> = (0..games_per_platform())
        .map(|index| {
            let offset = i64::try_from(index).expect("small");
            let game = TelegramGame {
                kind: telegram_kind(index),
                group: -1_000_000 - offset,
                white: 10_000 + offset,
                black: 20_000 + offset,
                white_name: format!("ta{index}"),
                black_name: format!("tb{index}"),
                id: String::new(),
            };
            telegram.add_group(game.group, &format!("Club {index}"));
            telegram.add_person(game.white, &game.white_name, "en", true);
            telegram.add_person(game.black, &game.black_name, "en", true);
            game
        })
        .collect();
    let mut discord_games: Vec<DiscordGame> = (0..games_per_platform())
        .map(|index| {
            let shard = u64::try_from(index).expect("small") % u64::from(SHARDS);
            let offset = u64::try_from(index).expect("small");
            let game = DiscordGame {
                kind: discord_kind(index),
                guild: (shard << 22) | 7,
                channel: 50_000 + offset,
                white: FakeUser::new(300_000 + offset, &format!("da{index}")),
                black: FakeUser::new(400_000 + offset, &format!("db{index}")),
                id: String::new(),
            };
            discord.add_user(&game.white);
            discord.add_user(&game.black);
            game
        })
        .collect();

    // The three processes: Telegram by webhook in each, the Discord shards
    // split over the first two, the computer's searches in all three.
    let mut hooks = Vec::new();
    let mut processes: Vec<Process> = ["first", "second", "third"]
        .into_iter()
        .enumerate()
        .map(|(index, name)| {
            let listen = free_port();
            let hook = format!("http://{listen}/telegram/hook");
            hooks.push(hook.clone());
            let mut env = vec![
                ("KODEX_DATABASE_URL", url.clone()),
                ("KODEX_BOARDS_DIR", dir.join("boards").display().to_string()),
                (
                    "KODEX_LOG",
                    std::env::var("KODEX_TEST_PROCESS_LOG").unwrap_or_else(|_| "warn".to_owned()),
                ),
                ("KODEX_COMPUTER_SEARCHERS", "1".to_owned()),
                ("KODEX_CHALLENGE_EXPIRY_SECS", EXPIRY_SECS.to_string()),
                ("KODEX_TELEGRAM_TOKEN", TOKEN.to_owned()),
                ("KODEX_TELEGRAM_API_URL", telegram.url().to_string()),
                ("KODEX_TELEGRAM_WEBHOOK_URL", hook),
                ("KODEX_TELEGRAM_WEBHOOK_LISTEN", listen.to_string()),
                ("KODEX_TELEGRAM_WEBHOOK_SECRET", SECRET.to_owned()),
            ];
            if index < 2 {
                env.push(("KODEX_DISCORD_TOKEN", "fake-token".to_owned()));
                env.push(("KODEX_DISCORD_API_URL", discord.rest_url().to_owned()));
                let shards = if index == 0 { "0-1/4" } else { "2-3/4" };
                env.push(("KODEX_DISCORD_SHARDS", shards.to_owned()));
            }
            Process {
                name,
                command: env
                    .into_iter()
                    .map(|(name, value)| (name.to_owned(), value))
                    .collect(),
                binary: binary.clone(),
                dir: dir.clone(),
                child: None,
                starts: 0,
            }
        })
        .collect();
    for process in &mut processes {
        process.start();
    }
    {
        let refs: Vec<&Process> = processes.iter().collect();
        until("three webhooks set and four shards", 120, &refs, || {
            let set = telegram
                .calls()
                .iter()
                .filter(|call| call.method == "setWebhook")
                .count();
            let mut shards = discord.identified_shards();
            shards.sort_unstable();
            shards.dedup();
            set >= 3 && shards.len() == 4
        })
        .await;
    }
    telegram.balance_webhook(hooks.clone(), false);
    let store = Store::open(&url).await.expect("the test's own store");

    // Phase 0: every game is offered and accepted (or starts at once).
    for game in &telegram_games {
        telegram.say(game.group, game.white, telegram_play(game.kind));
    }
    {
        let refs: Vec<&Process> = processes.iter().collect();
        until("every Telegram challenge or start", 120, &refs, || {
            let calls = telegram.calls();
            telegram_games.iter().all(|game| {
                calls.iter().any(|call| {
                    call.delivered_to(game.group)
                        && (challenge_of(call).is_some() || started_id(&call.text()).is_some())
                })
            })
        })
        .await;
    }
    let calls = telegram.calls();
    for game in &mut telegram_games {
        let posted = calls
            .iter()
            .find(|call| {
                call.delivered_to(game.group)
                    && (challenge_of(call).is_some() || started_id(&call.text()).is_some())
            })
            .expect("seen");
        if let Some(id) = challenge_of(posted) {
            game.id = id;
            if game.kind != Kind::Unanswered {
                telegram.press(
                    game.group,
                    game.black,
                    posted.message_id.expect("an id"),
                    &format!("acc:{}", game.id),
                );
            }
        } else {
            game.id = started_id(&posted.text()).expect("an id");
        }
    }
    for (index, game) in discord_games.iter().enumerate() {
        let mut options = vec![
            string_option("variant", "chess"),
            integer_option("colour", 0),
        ];
        let mut resolved = Vec::new();
        match game.kind {
            Kind::Computer | Kind::Deep => {
                options.push(user_option("opponent", &FakeUser::bot()));
                let level = if game.kind == Kind::Deep { 8 } else { 1 };
                options.push(integer_option("level", level));
                resolved.push(FakeUser::bot());
            }
            Kind::Clock => options.push(string_option("clock", "1+0")),
            _ => {}
        }
        discord
            .slash(
                &game.white,
                game.channel,
                Some(game.guild),
                "play",
                options,
                &resolved,
            )
            .await;
        if index % 10 == 9 {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    {
        let refs: Vec<&Process> = processes.iter().collect();
        until("every Discord challenge or start", 120, &refs, || {
            let sent = discord.sent_messages();
            discord_games.iter().all(|game| {
                sent.iter().any(|m| {
                    m.place == Place::Channel(game.channel)
                        && (m.button("acc:").is_some() || started_id(&m.text()).is_some())
                })
            })
        })
        .await;
    }
    for (index, game) in discord_games.iter().enumerate() {
        if matches!(game.kind, Kind::People | Kind::Clock) {
            discord
                .slash(
                    &game.black,
                    game.channel,
                    Some(game.guild),
                    "accept",
                    vec![],
                    &[],
                )
                .await;
            if index % 10 == 9 {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
    {
        let refs: Vec<&Process> = processes.iter().collect();
        until("every game started", 120, &refs, || {
            let calls = telegram.calls();
            let sent = discord.sent_messages();
            telegram_games
                .iter()
                .filter(|game| game.kind != Kind::Unanswered)
                .all(|game| {
                    calls.iter().any(|call| {
                        call.delivered_to(game.group) && started_id(&call.text()).is_some()
                    })
                })
                && discord_games.iter().all(|game| {
                    sent.iter().any(|m| {
                        m.place == Place::Channel(game.channel) && started_id(&m.text()).is_some()
                    })
                })
        })
        .await;
    }
    let sent = discord.sent_messages();
    for game in &mut discord_games {
        game.id = sent
            .iter()
            .find_map(|m| {
                (m.place == Place::Channel(game.channel))
                    .then(|| started_id(&m.text()))
                    .flatten()
            })
            .expect("started");
    }
    let telegram_ids: Vec<String> = telegram_games
        .iter()
        .filter(|game| game.kind != Kind::Unanswered)
        .map(|game| game.id.clone())
        .collect();
    let discord_ids: Vec<String> = discord_games.iter().map(|game| game.id.clone()).collect();

    // Four half-moves in every game that goes on (each typed once the one
    // before is stored and announced), the clock games stopping after two.
    // Between the second and the third, the deep games: the second process
    // dies while it searches for one of them, and starts again.
    let phase = |telegram: &FakeTelegram,
                 telegram_games: &[TelegramGame],
                 discord_games: &[DiscordGame],
                 ply: usize| {
        let mut typed = Vec::new();
        for game in telegram_games {
            let (mover, text) = match (game.kind, ply) {
                (Kind::People | Kind::Clock | Kind::Fog, _) => {
                    let mover = if ply % 2 == 0 { game.white } else { game.black };
                    (mover, LINES[ply])
                }
                (Kind::Computer, 0 | 2) => (game.white, AGAINST_THE_COMPUTER[ply / 2]),
                _ => continue,
            };
            if game.kind == Kind::Clock && ply >= 2 {
                continue;
            }
            let chat = if game.kind == Kind::Fog {
                mover
            } else {
                game.group
            };
            telegram.say(chat, mover, text);
        }
        for game in discord_games {
            let (mover, text) = match (game.kind, ply) {
                (Kind::People | Kind::Clock, _) => {
                    let mover = if ply % 2 == 0 {
                        &game.white
                    } else {
                        &game.black
                    };
                    (mover, LINES[ply])
                }
                (Kind::Computer, 0 | 2) => (&game.white, AGAINST_THE_COMPUTER[ply / 2]),
                _ => continue,
            };
            if game.kind == Kind::Clock && ply >= 2 {
                continue;
            }
            typed.push((mover.clone(), game.channel, game.guild, text));
        }
        typed
    };
    for ply in 0..4 {
        if ply == 2 {
            // The deep games: the person moves, and the second process is killed
            // while it searches one of the computer's answers.
            let deep_from = Instant::now();
            for game in telegram_games.iter().filter(|game| game.kind == Kind::Deep) {
                telegram.say(game.group, game.white, "e4");
            }
            for game in discord_games.iter().filter(|game| game.kind == Kind::Deep) {
                discord
                    .say(&game.white, game.channel, Some(game.guild), "e4")
                    .await;
            }
            let deep_telegram: Vec<String> = telegram_games
                .iter()
                .filter(|game| game.kind == Kind::Deep)
                .map(|game| game.id.clone())
                .collect();
            let deep_discord: Vec<String> = discord_games
                .iter()
                .filter(|game| game.kind == Kind::Deep)
                .map(|game| game.id.clone())
                .collect();
            {
                // Every deep move taken and answered (no update is in flight when
                // the process dies; see the module's note), the searches begun.
                let refs: Vec<&Process> = processes.iter().collect();
                until_async("the deep moves stored", 60, &refs, || async {
                    let tg = move_counts(&store, "telegram", &deep_telegram).await;
                    let dc = move_counts(&store, "discord", &deep_discord).await;
                    tg.values()
                        .chain(dc.values())
                        .filter(|moves| **moves >= 1)
                        .count()
                        == deep_telegram.len() + deep_discord.len()
                })
                .await;
                until("the deep moves announced", 60, &refs, || {
                    let calls = telegram.calls();
                    let sent = discord.sent_messages();
                    telegram_games
                        .iter()
                        .filter(|game| game.kind == Kind::Deep)
                        .all(|game| {
                            calls.iter().any(|call| {
                                call.delivered_to(game.group)
                                    && call
                                        .text()
                                        .contains(&format!("{} played e4", game.white_name))
                            })
                        })
                        && discord_games
                            .iter()
                            .filter(|game| game.kind == Kind::Deep)
                            .all(|game| {
                                sent.iter().any(|m| {
                                    m.place == Place::Channel(game.channel)
                                        && m.text()
                                            .contains(&format!("{} played e4", game.white.name))
                                })
                            })
                })
                .await;
            }
            let victim = processes[1].pid().to_string();
            {
                let refs: Vec<&Process> = processes.iter().collect();
                until_async("the second process searching", 60, &refs, || async {
                    store
                        .search_claimants(now_ms())
                        .await
                        .is_ok_and(|claimants| {
                            claimants
                                .iter()
                                .any(|by| by.split('-').next() == Some(victim.as_str()))
                        })
                })
                .await;
            }
            processes[1].kill();
            let killed_at = Instant::now();
            eprintln!(
                "three_processes: the second process killed {:.1} s after the deep moves",
                deep_from.elapsed().as_secs_f64()
            );
            // While it is down, the others go on: its claim runs out and another
            // process searches that move again; the Telegram updates go to the
            // two that answer.
            tokio::time::sleep(Duration::from_secs(2)).await;
            processes[1].start();
            {
                let refs: Vec<&Process> = processes.iter().collect();
                until("the second process back on its shards", 120, &refs, || {
                    let identified = discord.identified_shards();
                    identified.iter().filter(|(shard, _)| *shard == 2).count() >= 2
                        && identified.iter().filter(|(shard, _)| *shard == 3).count() >= 2
                })
                .await;
            }
            eprintln!(
                "three_processes: the second process back {:.1} s after the kill",
                killed_at.elapsed().as_secs_f64()
            );
        }
        let typed = phase(&telegram, &telegram_games, &discord_games, ply);
        for (index, (mover, channel, guild, text)) in typed.into_iter().enumerate() {
            discord.say(&mover, channel, Some(guild), text).await;
            if index % 20 == 19 {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
        let refs: Vec<&Process> = processes.iter().collect();
        let want = |kind: Kind| match kind {
            Kind::Unanswered => 0,
            Kind::Deep if ply < 2 => 0,
            Kind::Clock | Kind::Deep => (ply + 1).min(2),
            Kind::Computer if ply < 2 => 2,
            Kind::Computer => 4,
            _ => ply + 1,
        };
        until_missing(
            &format!("the moves of ply {}", ply + 1),
            120,
            &refs,
            || async {
                let tg = move_counts(&store, "telegram", &telegram_ids).await;
                let dc = move_counts(&store, "discord", &discord_ids).await;
                let calls = telegram.calls();
                let sent = discord.sent_messages();
                // Stored and announced in the game's chat: nothing of the
                // phase waits in a process's memory any more.
                let missing: Vec<String> = telegram_games
                    .iter()
                    .filter(|game| game.kind != Kind::Unanswered)
                    .map(|game| {
                        let told = telegram_announced(&calls, game);
                        ("telegram", game.kind, &game.id, tg.get(&game.id), told)
                    })
                    .chain(discord_games.iter().map(|game| {
                        let told = discord_announced(&sent, game);
                        ("discord", game.kind, &game.id, dc.get(&game.id), told)
                    }))
                    .filter(|(_, kind, _, moves, told)| {
                        moves.copied().unwrap_or(0) < want(*kind) || *told < want(*kind)
                    })
                    .map(|(platform, kind, id, moves, told)| {
                        format!("{platform} {kind:?} {id}: {moves:?} stored, {told} told")
                    })
                    .collect();
                (!missing.is_empty()).then(|| missing.join(", "))
            },
        )
        .await;
    }

    // The flags of the clock games fall, and the challenges expire.
    {
        let refs: Vec<&Process> = processes.iter().collect();
        let clocks: Vec<(&str, &String)> = telegram_games
            .iter()
            .filter(|game| game.kind == Kind::Clock)
            .map(|game| ("telegram", &game.id))
            .chain(
                discord_games
                    .iter()
                    .filter(|game| game.kind == Kind::Clock)
                    .map(|game| ("discord", &game.id)),
            )
            .collect();
        until_async("every flag fallen", 150, &refs, || async {
            for (platform, id) in &clocks {
                if stored(&store, platform, id)
                    .await
                    .is_none_or(|row| row.status == Status::Active)
                {
                    return false;
                }
            }
            true
        })
        .await;
        until("every challenge expired", 120, &refs, || {
            let calls = telegram.calls();
            telegram_games
                .iter()
                .filter(|game| game.kind == Kind::Unanswered)
                .all(|game| {
                    calls.iter().any(|call| {
                        call.delivered_to(game.group) && call.text().contains("expired unanswered")
                    })
                })
        })
        .await;
    }
    // Time for anything done twice to show.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let calls = telegram.calls();
    let sent = discord.sent_messages();
    for process in &mut processes {
        process.kill();
    }

    // Every game: its moves once, its announcements once.
    let mut tally: BTreeMap<&str, usize> = BTreeMap::new();
    for game in &telegram_games {
        let told: Vec<String> = calls
            .iter()
            .filter(|call| call.delivered_to(game.group))
            .map(Call::text)
            .collect();
        let count = |text: &str| told.iter().filter(|line| line.contains(text)).count();
        // Everything the bot asked of that chat, with the fake's answers.
        let asked: Vec<String> = calls
            .iter()
            .filter(|call| call.chat_id() == Some(game.group))
            .map(|call| format!("{} {:?}: {}", call.method, call.outcome, call.text()))
            .collect();
        if game.kind == Kind::Unanswered {
            assert_eq!(count("expired unanswered"), 1, "{}: {asked:#?}", game.group);
            *tally.entry("expired").or_default() += 1;
            continue;
        }
        let row = stored(&store, "telegram", &game.id).await.expect("stored");
        let names = [game.white_name.as_str(), game.black_name.as_str()];
        let moves = played_once(game.kind, &row, names, &told, &asked);
        match game.kind {
            Kind::Clock => {
                let reminders = calls
                    .iter()
                    .filter(|call| call.delivered_to(game.white) && call.text().contains('⏰'))
                    .count();
                assert_eq!(reminders, 1, "{}: white's reminders", game.id);
            }
            Kind::Fog => {
                // The group hears whose turn it is, nothing of the board.
                for call in calls.iter().filter(|call| call.delivered_to(game.group)) {
                    assert!(call.upload.is_none(), "{}: an image in the group", game.id);
                    let text = call.text().replace(&game.id, "ID");
                    for typed in ["e4", "e5", "f3", "c6"] {
                        assert!(!text.contains(typed), "{}: {text}", game.id);
                    }
                }
            }
            _ => {}
        }
        tally_game(&mut tally, game.kind, moves);
    }
    for game in &discord_games {
        let told: Vec<String> = sent
            .iter()
            .filter(|m| m.place == Place::Channel(game.channel))
            .map(SentMessage::text)
            .collect();
        let row = stored(&store, "discord", &game.id).await.expect("stored");
        let names = [game.white.name.as_str(), game.black.name.as_str()];
        let moves = played_once(game.kind, &row, names, &told, &told);
        tally_game(&mut tally, game.kind, moves);
    }
    // Nothing refused as out of turn or unreadable: no update was handled
    // twice.
    let refusals: Vec<String> = calls
        .iter()
        .filter(|call| call.is_send())
        .map(Call::text)
        .chain(sent.iter().map(SentMessage::text))
        .filter(|text| text.contains("not your turn") || text.contains("not legal"))
        .collect();
    assert!(refusals.is_empty(), "{refusals:#?}");
    // Every job done: nothing left to search or to play.
    assert_eq!(
        store.search_counts(now_ms()).await.expect("counts"),
        (0, 0, 0)
    );
    eprintln!(
        "three_processes: {} Telegram and {} Discord games: {tally:?}",
        telegram_games.len(),
        discord_games.len()
    );
    store.close().await;
    let _ = std::fs::remove_dir_all(&dir);
}
