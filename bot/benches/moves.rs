//! Load bench: end-to-end move handling (parse, validate, persist, render)
//! with many concurrent games on one SQLite file.
//!
//! `cargo bench -p kodex-bot --bench moves [-- <games> <plies>]` prints p50 /
//! p99 latency per move and the throughput.

use kodex_bot::api::{Action, ChatRef, Handler, Platform, Request, UserRef};
use kodex_bot::config::Config;
use kodex_bot::time::SystemTime;
use kodex_bot::Service;
use kodex_engine::Registry;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A Ruy Lopez (Breyer) that repeats no position: 20 half-moves.
const OPENING: [&str; 20] = [
    "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5", "Bb3", "d6",
    "c3", "O-O", "h3", "Nb8", "d4", "Nbd7",
];

fn user(name: String) -> UserRef {
    UserRef {
        platform: Platform::Console,
        id: name.clone(),
        name,
    }
}

fn request(chat: &str, actor: &UserRef, action: Action) -> Request {
    Request {
        chat: ChatRef {
            platform: Platform::Console,
            id: chat.to_owned(),
        },
        private: false,
        actor: actor.clone(),
        locale: None,
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

    let dir = std::env::temp_dir().join(format!("kodex-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut config = Config::defaults();
    config.database.url = format!("sqlite://{}", dir.join("bench.db").display());
    let service = Service::open(&config, Registry::builtin(), Arc::new(SystemTime))
        .await
        .expect("service opens");

    // Set up the games: one chat per pair, so no move is ambiguous.
    for i in 0..games {
        let (white, black) = (user(format!("w{i}")), user(format!("b{i}")));
        let chat = format!("chat{i}");
        let play = Action::Play {
            variant: "chess".into(),
            opponent: Some(black.clone()),
            clock: Some("10+0".into()),
            color: Some("white".into()),
        };
        service.handle(request(&chat, &white, play)).await;
        service
            .handle(request(&chat, &black, Action::Accept { game: None }))
            .await;
    }

    let started = Instant::now();
    let mut tasks = Vec::with_capacity(games);
    for i in 0..games {
        let service = service.clone();
        tasks.push(tokio::spawn(async move {
            let players = [user(format!("w{i}")), user(format!("b{i}"))];
            let chat = format!("chat{i}");
            let mut latencies = Vec::with_capacity(plies);
            for (ply, text) in OPENING.iter().take(plies).enumerate() {
                let action = Action::Move {
                    text: (*text).to_owned(),
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
    let mut latencies: Vec<Duration> = Vec::new();
    for task in tasks {
        latencies.extend(task.await.expect("task"));
    }
    let elapsed = started.elapsed();
    latencies.sort();
    let pick = |q: f64| latencies[((latencies.len() as f64 - 1.0) * q).round() as usize];
    let moves = latencies.len();
    println!(
        "{games} concurrent games, {moves} moves in {:.2} s: {:.0} moves/s; \
         latency p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        elapsed.as_secs_f64(),
        moves as f64 / elapsed.as_secs_f64(),
        pick(0.50).as_secs_f64() * 1e3,
        pick(0.99).as_secs_f64() * 1e3,
        pick(1.0).as_secs_f64() * 1e3,
    );
    let _ = std::fs::remove_dir_all(&dir);
}
