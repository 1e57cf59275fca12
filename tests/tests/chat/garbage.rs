//! Whatever arrives from a chat platform, the service answers without a
//! panic, and nobody but a game's players changes it: thousands of random
//! requests of every kind (random text in every field: control characters,
//! right-to-left marks, emoji, huge strings, look-alike ids and button data)
//! from strangers, and random button presses and relocations from the
//! players, against a running game.

use crate::console_support::Chat;
use kodex_bot::api::{Action, ChatRef, ColorChoice, Handler, Platform, Request, UserRef};

use kodex_tests::garbage::random_text;

fn maybe_text() -> Option<String> {
    fastrand::bool().then(random_text)
}

fn random_user() -> UserRef {
    let id = random_text();
    UserRef {
        platform: Platform::Console,
        name: random_text(),
        handle: maybe_text(),
        id,
    }
}

/// A random action; `game` is sometimes used as the id so that requests
/// name the real game.
fn random_action(game: &str) -> Action {
    let id = || match fastrand::u8(..3) {
        0 => Some(game.to_owned()),
        1 => None,
        _ => Some(random_text()),
    };
    match fastrand::u8(..34) {
        0 => Action::Play {
            variant: random_text(),
            opponent: fastrand::bool().then(random_user),
            clock: maybe_text(),
            color: [ColorChoice::White, ColorChoice::Black, ColorChoice::Random]
                .get(fastrand::usize(..4))
                .copied(),
            fen: maybe_text(),
            rated: fastrand::bool().then(fastrand::bool),
            public: fastrand::bool(),
        },
        1 => Action::Accept { game: id() },
        2 => Action::Decline { game: id() },
        3 => Action::Move {
            text: random_text(),
            game: id(),
        },
        4 => Action::Text {
            text: random_text(),
        },
        5 => Action::Resign { game: id() },
        6 => Action::Draw { game: id() },
        7 => Action::DeclineDraw { game: id() },
        8 => Action::Takeback { game: id() },
        9 => Action::RefuseTakeback { game: id() },
        10 => Action::Abort { game: id() },
        11 => Action::Board { game: id() },
        12 => Action::Games,
        13 => Action::Pgn { game: id() },
        14 => Action::Rules {
            variant: random_text(),
        },
        15 => Action::Variants,
        16 => Action::Help {
            topic: maybe_text(),
        },
        17 => Action::Lang {
            choice: kodex_bot::api::LangChoice::parse(&random_text()),
            chat_admin: fastrand::bool(),
        },
        18 => Action::Relocate {
            game: id().unwrap_or_default(),
            chat: random_text(),
        },
        19 => Action::Unknown {
            command: random_text(),
        },
        20 => Action::Rematch { game: id() },
        21 => Action::Watch { game: id() },
        22 => Action::Unwatch { game: id() },
        23 => Action::Notation {
            notation: kodex_bot::api::NotationChoice::parse(&random_text()),
        },
        24 => Action::Rating {
            user: fastrand::bool().then(random_user),
        },
        25 => Action::Leaderboard {
            variant: maybe_text(),
            global: fastrand::bool(),
            page: fastrand::u32(..),
        },
        26 => Action::Stats {
            user: fastrand::bool().then(random_user),
        },
        27 => Action::Lobby {
            variant: maybe_text(),
        },
        28 => Action::PlayNow {
            variant: maybe_text(),
            clock: maybe_text(),
        },
        29 => Action::Invite {
            variant: maybe_text(),
            clock: maybe_text(),
            color: None,
            rated: fastrand::bool().then(fastrand::bool),
        },
        30 => Action::Join {
            code: random_text(),
        },
        31 => Action::Notify {
            on: fastrand::bool().then(fastrand::bool),
        },
        32 => Action::Settings {
            choice: kodex_bot::api::SettingsChoice::parse(&random_text()),
            chat_admin: fastrand::bool(),
        },
        _ => Action::Button {
            data: format!(
                "{}{}{}",
                ["acc:", "rsg:", "keep:", "draw:", "tb:", "board:", "again:", "watch:", ""]
                    [fastrand::usize(..9)],
                id().unwrap_or_default(),
                [":w", ":b", "", ":"][fastrand::usize(..4)]
            ),
        },
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn random_requests_never_panic_and_only_players_change_a_game() {
    let seed = kodex_tests::garbage::seed();
    let requests: usize = std::env::var("KODEX_GARBAGE_REQUESTS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3_000);
    let mut chat = Chat::new("garbage").await;
    let game = chat.start("alice", "bob", "chess").await;
    chat.say("alice: e4").await;
    let before = chat.row(&game).await;

    for _ in 0..requests {
        // Strangers, with random ids and names (some of them empty, some
        // look-alikes of the players' names and handles), in random chats.
        let request = Request {
            chat: ChatRef {
                platform: Platform::Console,
                id: if fastrand::bool() {
                    "local".to_owned()
                } else {
                    random_text()
                },
            },
            private: fastrand::bool(),
            actor: random_user(),
            locale: maybe_text(),
            chat_locale: maybe_text(),
            action: random_action(&game),
        };
        let asked: String = format!("{:?}", request.action).chars().take(300).collect();
        let deliveries = chat.service.handle(request).await;
        for delivery in &deliveries {
            // Nothing echoes a huge input back whole.
            assert!(
                delivery.text.chars().count() <= 4_000,
                "seed {seed}: an answer of {} characters to {asked}: {}",
                delivery.text.chars().count(),
                delivery.text.chars().take(300).collect::<String>()
            );
        }
    }
    assert_eq!(
        chat.row(&game).await,
        before,
        "seed {seed}: strangers changed the game"
    );

    // The players themselves, pressing random buttons and asking for random
    // relocations from other chats: nothing but a real button of theirs acts.
    for _ in 0..requests / 3 {
        let player = if fastrand::bool() { "alice" } else { "bob" };
        let action = match fastrand::u8(..2) {
            0 => Action::Relocate {
                game: game.clone(),
                chat: random_text(),
            },
            _ => Action::Button {
                // Unknown kinds, or answers to challenges there are none of.
                data: format!(
                    "{}{}",
                    ["zz:", "acc:", "dec:"][fastrand::usize(..3)],
                    random_text()
                ),
            },
        };
        let request = Request {
            chat: ChatRef {
                platform: Platform::Console,
                id: format!("elsewhere-{}", fastrand::u8(..4)),
            },
            private: fastrand::bool(),
            actor: kodex_bot::console::console_user(player),
            locale: None,
            chat_locale: None,
            action,
        };
        chat.service.handle(request).await;
    }
    assert_eq!(
        chat.row(&game).await,
        before,
        "seed {seed}: random presses changed the game"
    );
    // And the game still plays.
    chat.say("bob: e5").await;
    assert_eq!(chat.row(&game).await.moves, "e2e4 e7e5", "seed {seed}");
}
