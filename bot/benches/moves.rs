//! Load bench: end-to-end move handling (parse, validate, persist, render)
//! with many concurrent games on one SQLite file (or the database
//! `KODEX_BENCH_DATABASE_URL` names, e.g. an empty PostgreSQL database).
//!
//! `cargo bench -p kodex-bot --bench moves [-- <games> <plies> <rate>
//! <computer games>]` prints p50 / p99 latency per move and the throughput:
//! first with every game moving as fast as it can, then with the games
//! together offering `rate` moves per second, and then (when `<computer
//! games>` is not 0, default 100) the same paced moves again while that many
//! games against the computer (level 5) are played at the same time.
//! `benches/processes.sh` runs it in one to three processes at once on one
//! PostgreSQL database, beside one on SQLite.

use kodex_bot::api::{Action, ChatRef, Handler, Platform, Request, UserRef};
use kodex_bot::config::Config;
use kodex_bot::time::SystemTime;
use kodex_bot::Service;
use kodex_engine::{Audience, Game, Registry, Start};
use kodex_render::Decor;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A Ruy Lopez (Breyer) that repeats no position: 20 half-moves.
const OPENING: [&str; 20] = [
    "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5", "Bb3", "d6",
    "c3", "O-O", "h3", "Nb8", "d4", "Nbd7",
];

/// What this process's players and chats are named with
/// (`KODEX_BENCH_TAG`): several bench processes on one database
/// (`benches/processes.sh`) each play their own games.
fn tag() -> &'static str {
    static TAG: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TAG.get_or_init(|| std::env::var("KODEX_BENCH_TAG").unwrap_or_default())
}

fn user(name: String) -> UserRef {
    let name = format!("{}{name}", tag());
    UserRef {
        platform: Platform::Console,
        id: name.clone(),
        name,
        handle: None,
    }
}

fn request(chat: &str, actor: &UserRef, action: Action) -> Request {
    Request {
        chat: ChatRef {
            platform: Platform::Console,
            id: format!("{}{chat}", tag()),
        },
        private: false,
        actor: actor.clone(),
        locale: None,
        chat_locale: None,
        action,
    }
}

#[tokio::main]
async fn main() {
    let mut args = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse::<usize>().ok());
    let games = args.next().unwrap_or(1_000);
    let plies = args.next().unwrap_or(OPENING.len()).min(OPENING.len());
    let rate = args.next().unwrap_or(500).max(1);
    let computer_games = args.next().unwrap_or(100);

    let dir = std::env::temp_dir().join(format!("kodex-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut config = Config::defaults();
    // KODEX_BENCH_DATABASE_URL (a fresh PostgreSQL database, say) instead
    // of a SQLite file.
    config.database.url = std::env::var("KODEX_BENCH_DATABASE_URL")
        .unwrap_or_else(|_| format!("sqlite://{}", dir.join("bench.db").display()));
    let service = Service::open(&config, Registry::builtin(), Arc::new(SystemTime))
        .await
        .expect("service opens");
    // The console's outbox, emptied as the console would: the computer
    // plays its decisions in a process that serves its games' platform.
    let mut outbox = service.outbox(Platform::Console);
    tokio::spawn(async move { while outbox.recv().await.is_some() {} });

    // Set up the games: one chat per pair, so no move is ambiguous.
    for i in 0..games {
        let players = [user(format!("w{i}")), user(format!("b{i}"))];
        start_game(&service, &format!("chat{i}"), &players).await;
    }

    // The renderer's share: one board image of a middle-game position.
    {
        let variant = Registry::builtin().get("chess").cloned().expect("chess");
        let mut game = Game::new(&variant, Start::Standard).expect("start");
        for mv in OPENING {
            game.play_text(mv).expect("opening is legal");
        }
        let view = game.view(Audience::Full);
        let decor = Decor::default();
        let rounds = 50;
        let t = Instant::now();
        let mut bytes = 0;
        for _ in 0..rounds {
            bytes = kodex_render::render_png(&view, &decor).len();
        }
        println!(
            "render_png alone: {:.2} ms per board ({bytes} bytes)",
            t.elapsed().as_secs_f64() * 1e3 / rounds as f64
        );
    }

    // Phase 1, saturation: every game moves as fast as it can (closed loop).
    let half = plies / 2;
    let started = Instant::now();
    let latencies = run_phase(&service, games, 0..half, None, "").await;
    report("saturated", games, started.elapsed(), latencies);

    // Phase 2, paced: the games together offer `rate` moves per second, as
    // many people playing at once would; latency without queueing behind
    // an artificial burst.
    let interval = Duration::from_secs_f64(games as f64 / rate as f64);
    let started = Instant::now();
    let latencies = run_phase(&service, games, half..plies, Some(interval), "").await;
    report(
        &format!("paced at {rate} moves/s"),
        games,
        started.elapsed(),
        latencies,
    );

    if computer_games > 0 {
        // Phase 3: the same paced moves (the games start afresh) while
        // people play the computer in `computer_games` other chats.
        for i in 0..games {
            let players = [user(format!("p3w{i}")), user(format!("p3b{i}"))];
            start_game(&service, &format!("p3chat{i}"), &players).await;
        }
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let mut humans = Vec::new();
        for i in 0..computer_games {
            humans.push(tokio::spawn(play_the_computer(
                service.clone(),
                i,
                stop.clone(),
            )));
        }
        // Let the computer games get going.
        tokio::time::sleep(Duration::from_secs(2)).await;
        let started = Instant::now();
        let latencies = run_phase(&service, games, 0..plies, Some(interval), "p3").await;
        report(
            &format!("paced at {rate} moves/s, {computer_games} games against the computer"),
            games,
            started.elapsed(),
            latencies,
        );
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        let mut computer_moves = 0;
        for human in humans {
            computer_moves += human.await.unwrap_or(0);
        }
        println!("meanwhile the computer made {computer_moves} moves in {computer_games} games");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A chess game between `players` (white first) in `chat`, 10+0.
async fn start_game(service: &Service, chat: &str, players: &[UserRef; 2]) {
    let play = Action::Play {
        variant: "chess".into(),
        opponent: Some(players[1].clone()),
        clock: Some("10+0".into()),
        color: Some(kodex_bot::api::ColorChoice::White),
        fen: None,
        rated: None,
        public: false,
    };
    service.handle(request(chat, &players[0], play)).await;
    service
        .handle(request(chat, &players[1], Action::Accept { game: None }))
        .await;
}

/// A person who plays black against the computer (level 5) in chat
/// `comp<i>`, answering each of its moves after 0.5–2 s with a random legal
/// move, until `stop`; returns how many moves the computer made.
async fn play_the_computer(
    service: Service,
    i: usize,
    stop: Arc<std::sync::atomic::AtomicBool>,
) -> usize {
    let human = user(format!("h{i}"));
    let chat = format!("comp{i}");
    let play = Action::Play {
        variant: "chess".into(),
        opponent: Some(UserRef::computer(Platform::Console, 5)),
        clock: None,
        color: Some(kodex_bot::api::ColorChoice::Black),
        fen: None,
        rated: None,
        public: false,
    };
    let out = service.handle(request(&chat, &human, play)).await;
    let Some(id) = out
        .iter()
        .find_map(|d| d.game.as_ref().map(|g| g.id.clone()))
    else {
        return 0;
    };
    let variant = Registry::builtin().get("chess").cloned().expect("chess");
    let mut answered = 0;
    while !stop.load(std::sync::atomic::Ordering::Relaxed) {
        // A person looks at the board now and then, and takes a moment.
        tokio::time::sleep(Duration::from_millis(500 + fastrand::u64(..1_500))).await;
        let Ok(Some(row)) = service.store().get("console", &id).await else {
            break;
        };
        if row.status.is_over() {
            break;
        }
        let start = row.start_fen.clone().unwrap_or_default();
        let Ok(game) = Game::replay(&variant, &start, &row.move_list()) else {
            break;
        };
        if game.side_to_move().index() != 1 {
            continue;
        }
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = game.uci(moves[fastrand::usize(..moves.len())]);
        answered += 1;
        service
            .handle(request(
                &chat,
                &human,
                Action::Move {
                    text: mv,
                    game: Some(id.clone()),
                },
            ))
            .await;
    }
    answered
}

/// Plays half-moves `plies` of the opening in every game at once; with
/// `interval`, each game waits that long between its moves (starting at a
/// random offset). Players and chats are named with `prefix`. Returns every
/// move's latency.
async fn run_phase(
    service: &Service,
    games: usize,
    plies: std::ops::Range<usize>,
    interval: Option<Duration>,
    prefix: &'static str,
) -> Vec<Duration> {
    let mut tasks = Vec::with_capacity(games);
    for i in 0..games {
        let service = service.clone();
        let plies = plies.clone();
        tasks.push(tokio::spawn(async move {
            let players = [user(format!("{prefix}w{i}")), user(format!("{prefix}b{i}"))];
            let chat = format!("{prefix}chat{i}");
            let mut latencies = Vec::with_capacity(plies.len());
            let start = tokio::time::Instant::now()
                + interval.map_or(Duration::ZERO, |d| d.mul_f64(fastrand::f64()));
            for (k, ply) in plies.enumerate() {
                if let Some(interval) = interval {
                    tokio::time::sleep_until(start + interval * k as u32).await;
                }
                let text = OPENING[ply];
                let action = Action::Move {
                    text: text.to_owned(),
                    game: None,
                };
                let t = Instant::now();
                let out = service
                    .handle(request(&chat, &players[ply % 2], action))
                    .await;
                latencies.push(t.elapsed());
                assert!(
                    out.iter().any(|d| d.text.contains(text)),
                    "move {text} in game {i} was not played: {out:?}"
                );
            }
            latencies
        }));
    }
    let mut latencies = Vec::new();
    for task in tasks {
        latencies.extend(task.await.expect("task"));
    }
    latencies
}

fn report(phase: &str, games: usize, elapsed: Duration, mut latencies: Vec<Duration>) {
    latencies.sort();
    if latencies.is_empty() {
        return;
    }
    let pick = |q: f64| latencies[((latencies.len() as f64 - 1.0) * q).round() as usize];
    let moves = latencies.len();
    println!(
        "{phase}: {games} games, {moves} moves in {:.2} s = {:.0} moves/s; \
         latency p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        elapsed.as_secs_f64(),
        moves as f64 / elapsed.as_secs_f64(),
        pick(0.50).as_secs_f64() * 1e3,
        pick(0.99).as_secs_f64() * 1e3,
        pick(1.0).as_secs_f64() * 1e3,
    );
}
