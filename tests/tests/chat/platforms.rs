//! Both platforms at once, the way `kodex` runs them when both tokens are
//! set: the configuration read from (test) environment variables, one game
//! service and one SQLite file behind the Discord and the Telegram adapter,
//! each against its fake. A game is started on each; then the platforms are
//! stopped as a killed process would be, and a new service on the same file
//! carries both games on.

use std::collections::HashMap;
use std::sync::Arc;

use kodex_bot::app::run_platforms;
use kodex_bot::config::Config;
use kodex_bot::time::SystemTime;
use kodex_bot::Service;
use kodex_engine::Registry;
use kodex_tests::fake_discord::payloads::{integer_option, string_option, user_option};
use kodex_tests::fake_discord::{FakeDiscord, FakeUser, Place, GUILD_ID};
use kodex_tests::fake_telegram::{self, FakeTelegram};

/// The Discord channel of the test's game.
const CHANNEL: u64 = 300;
/// The Telegram group of the test's game.
const GROUP: i64 = -100_300;
const ALICE: i64 = 11;
const BOB: i64 = 22;
const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";

fn alice() -> FakeUser {
    FakeUser::new(1001, "alice")
}
fn bob() -> FakeUser {
    FakeUser::new(1002, "bob")
}

/// `kodex`'s platform part on `env`: the configuration, a service on its
/// database, and both adapters running in a task.
async fn start(
    env: &Arc<HashMap<&'static str, String>>,
) -> (Service, tokio::task::JoinHandle<Result<(), String>>) {
    let lookup = {
        let env = env.clone();
        move |name: &str| env.get(name).cloned()
    };
    let config = Config::load(None, &lookup).expect("the configuration loads");
    let service = Service::open(&config, Registry::builtin(), Arc::new(SystemTime))
        .await
        .expect("the service opens");
    let running = service.clone();
    let task = tokio::spawn(async move {
        run_platforms(&running, &config, &lookup)
            .await
            .map_err(|e| e.to_string())
    });
    (service, task)
}

fn is_board(call: &fake_telegram::Call) -> bool {
    call.upload
        .as_ref()
        .is_some_and(|upload| upload.bytes.starts_with(PNG_SIGNATURE))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn discord_and_telegram_run_side_by_side_and_survive_a_restart() {
    let discord = FakeDiscord::start().await;
    discord.add_user(&alice());
    discord.add_user(&bob());
    let telegram = FakeTelegram::start().await;
    telegram.add_group(GROUP, "Chess club");
    telegram.add_person(ALICE, "alice", "en", true);
    telegram.add_person(BOB, "bob", "en", true);

    let dir = std::env::temp_dir().join(format!(
        "kodex-platforms-{}-{}",
        std::process::id(),
        fastrand::u64(..)
    ));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let env = Arc::new(HashMap::from([
        (
            "KODEX_DATABASE_URL",
            format!("sqlite://{}", dir.join("kodex.db").display()),
        ),
        ("KODEX_BOARDS_DIR", dir.join("boards").display().to_string()),
        ("KODEX_DISCORD_TOKEN", "fake-discord-token".to_owned()),
        ("KODEX_DISCORD_API_URL", discord.rest_url().to_owned()),
        ("KODEX_DISCORD_RATE_LIMITER", "off".to_owned()),
        ("KODEX_TELEGRAM_TOKEN", fake_telegram::TOKEN.to_owned()),
        ("KODEX_TELEGRAM_API_URL", telegram.url().to_string()),
    ]));
    let (service, platforms) = start(&env).await;
    discord.wait_for_sessions(1).await;

    // Discord: Alice challenges Bob with /play, Bob accepts by button, e4 typed.
    discord
        .slash(
            &alice(),
            CHANNEL,
            Some(GUILD_ID),
            "play",
            vec![
                string_option("variant", "chess"),
                user_option("opponent", &bob()),
                integer_option("colour", 0),
            ],
            &[bob()],
        )
        .await;
    let challenge = discord
        .wait_for_message("the Discord challenge", |m| {
            m.place == Place::Channel(CHANNEL) && m.button("acc:").is_some()
        })
        .await;
    let discord_game = challenge
        .button("acc:")
        .and_then(|b| b.custom_id.strip_prefix("acc:").map(str::to_owned))
        .expect("the game id");
    discord.press_button(&bob(), &challenge, "acc:").await;
    discord
        .wait_for_message("the Discord game starts", |m| m.text().contains("starts"))
        .await;
    discord.say(&alice(), CHANNEL, Some(GUILD_ID), "e4").await;
    discord
        .wait_for_message("the Discord board after e4", |m| {
            m.place == Place::Channel(CHANNEL) && m.has_png() && m.text().contains("e4")
        })
        .await;
    // What `run_platforms` puts in front of the service answers
    // autocomplete too: Bob is offered his moves as he types.
    let choices = discord
        .autocomplete(&bob(), CHANNEL, "move", "move", "e")
        .await;
    let mut names: Vec<&str> = choices
        .iter()
        .filter_map(|choice| choice["name"].as_str())
        .collect();
    names.sort_unstable();
    assert_eq!(names, ["e5", "e6"], "{choices:?}");

    // Telegram, at the same time: the same in the group.
    telegram.say(GROUP, BOB, "hi all");
    telegram.say(GROUP, ALICE, "/play chess @bob white");
    let (at, challenge) = telegram
        .wait_for(0, "the Telegram challenge", |call| {
            call.delivered_to(GROUP) && call.button_data().iter().any(|d| d.starts_with("acc:"))
        })
        .await;
    let data = challenge
        .button_data()
        .into_iter()
        .find(|d| d.starts_with("acc:"))
        .expect("accept button");
    let telegram_game = data["acc:".len()..].to_owned();
    telegram.press(
        GROUP,
        BOB,
        challenge.message_id.expect("challenge id"),
        &data,
    );
    let (board_at, _) = telegram
        .wait_for(at, "the Telegram start board", |call| {
            call.delivered_to(GROUP) && is_board(call)
        })
        .await;
    // The service tells the adapter what it draws ("sending a photo…")
    // through the same wiring.
    let drawing = telegram.calls()[at..board_at].iter().any(|call| {
        call.method == "sendChatAction"
            && call.chat_id() == Some(GROUP)
            && call.params["action"] == "upload_photo"
    });
    assert!(drawing, "{}", telegram.describe_calls());
    let at = board_at;
    telegram.say(GROUP, ALICE, "/m e4");
    telegram
        .wait_for(at + 1, "the Telegram board after e4", |call| {
            call.delivered_to(GROUP) && is_board(call) && call.text().contains("e4")
        })
        .await;

    let row = |service: Service, platform: &'static str, id: String| async move {
        service
            .store()
            .get(platform, &id)
            .await
            .expect("the store answers")
            .expect("the game exists")
    };
    assert_eq!(
        row(service.clone(), "discord", discord_game.clone())
            .await
            .moves,
        "e2e4"
    );
    assert_eq!(
        row(service.clone(), "telegram", telegram_game.clone())
            .await
            .moves,
        "e2e4"
    );

    // Let Telegram learn that the updates were handled (the next poll's
    // offset), then stop everything the hard way and start again on the
    // same file.
    discord
        .wait_for("Telegram updates confirmed", |_| {
            (telegram.unconfirmed_updates() == 0).then_some(())
        })
        .await;
    platforms.abort();
    let _ = platforms.await;
    drop(service);
    let (service, platforms) = start(&env).await;
    discord.wait_for_sessions(2).await;

    // Both games go on: Bob answers on each platform.
    let before = discord.sent_messages().len();
    discord.say(&bob(), CHANNEL, Some(GUILD_ID), "e5").await;
    discord
        .wait_for("the Discord board after e5", |fake| {
            fake.sent_messages()[before..]
                .iter()
                .find(|m| {
                    m.place == Place::Channel(CHANNEL) && m.has_png() && m.text().contains("e5")
                })
                .cloned()
        })
        .await;
    let at = telegram.calls().len();
    telegram.say(GROUP, BOB, "/m e5");
    telegram
        .wait_for(at, "the Telegram board after e5", |call| {
            call.delivered_to(GROUP) && is_board(call) && call.text().contains("e5")
        })
        .await;
    assert_eq!(
        row(service.clone(), "discord", discord_game).await.moves,
        "e2e4 e7e5"
    );
    assert_eq!(
        row(service.clone(), "telegram", telegram_game).await.moves,
        "e2e4 e7e5"
    );
    // Nothing said before the restart was handled twice.
    let challenges = telegram
        .calls()
        .iter()
        .filter(|call| {
            call.delivered_to(GROUP) && call.button_data().iter().any(|d| d.starts_with("acc:"))
        })
        .count();
    assert_eq!(challenges, 1, "{}", telegram.describe_calls());
    assert!(!platforms.is_finished(), "both adapters keep running");
    platforms.abort();
    let _ = std::fs::remove_dir_all(&dir);
}
