//! The Telegram adapter end to end: the real teloxide client (real long
//! polling, real multipart uploads) against a fake Bot API server, with a toy
//! game service behind the adapter.

use std::path::PathBuf;
use std::sync::Arc;

use std::sync::Mutex;
use std::time::Duration;

use kodex_bot::api::{
    Action, ChatRef, Delivery, Handler, HandlerFuture, Image, Platform, Request, Target, UserRef,
};
use kodex_bot::store::Store;
use kodex_bot::telegram::{run_until, Mode, TelegramConfig};
use kodex_tests::fake_telegram::{Call, Failure, FakeTelegram, Outcome, TOKEN};
use kodex_tests::image_header::PNG_SIGNATURE;
use kodex_tests::toy_handler::{note, variants, Status, ToyHandler, BOARD_PNG};
use tokio::sync::mpsc::{unbounded_channel, UnboundedSender};
use tokio::sync::oneshot;

const GROUP: i64 = -100_200;
const ALICE: i64 = 11;
const BOB: i64 = 22;
const CAROL: i64 = 33;

struct Harness {
    fake: FakeTelegram,
    toy: Arc<ToyHandler>,
    outbox: UnboundedSender<Delivery>,
    adapter: Running,
    config: TelegramConfig,
    /// The folder of the adapter's database, when it has one.
    database: Option<PathBuf>,
}

/// One run of the adapter.
struct Running {
    task: tokio::task::JoinHandle<()>,
    stop: Option<oneshot::Sender<()>>,
}

impl Drop for Harness {
    fn drop(&mut self) {
        self.adapter.task.abort();
        if let Some(database) = &self.database {
            let _ = std::fs::remove_dir_all(database);
        }
    }
}

impl Harness {
    /// Stops the adapter as a shutdown would and starts a new one with the
    /// same configuration (and database), the same fake and the same toy service.
    async fn restart(&mut self) {
        if let Some(stop) = self.adapter.stop.take() {
            let _ = stop.send(());
        }
        (&mut self.adapter.task)
            .await
            .expect("the adapter stops cleanly");
        let (adapter, outbox) = launch(self.config.clone(), Arc::clone(&self.toy));
        self.adapter = adapter;
        self.outbox = outbox;
    }
}

fn launch(config: TelegramConfig, toy: Arc<ToyHandler>) -> (Running, UnboundedSender<Delivery>) {
    let (outbox, receiver) = unbounded_channel();
    let (stop, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(async move {
        let stopped = async {
            let _ = stopped.await;
        };
        if let Err(error) = run_until(config, toy, receiver, stopped).await {
            panic!("the Telegram adapter stopped: {error}");
        }
    });
    let running = Running {
        task,
        stop: Some(stop),
    };
    (running, outbox)
}

/// Alice and Carol have started the bot; Bob has only if `bob_started`.
async fn start(bob_started: bool) -> Harness {
    start_with(bob_started, |_| {}).await
}

/// [`start`] with the adapter's memory in a database of its own.
async fn start_with_database(bob_started: bool) -> Harness {
    let folder = std::env::temp_dir().join(format!(
        "kodex-telegram-memory-{}-{}",
        std::process::id(),
        fastrand::u64(..)
    ));
    std::fs::create_dir_all(&folder).expect("a temporary folder");
    let url = format!("sqlite://{}", folder.join("kodex.db").display());
    let store = Store::open(&url).await.expect("the database opens");
    let mut harness = start_with(bob_started, |config| config.store = Some(store)).await;
    harness.database = Some(folder);
    harness
}

/// [`start`] with changes to the adapter's configuration.
async fn start_with(bob_started: bool, adjust: impl FnOnce(&mut TelegramConfig)) -> Harness {
    let fake = FakeTelegram::start().await;
    fake.add_group(GROUP, "Chess club");
    fake.add_person(ALICE, "alice", "en", true);
    fake.add_person(BOB, "bob", "ru", bob_started);
    fake.add_person(CAROL, "carol", "en", true);
    let mut config = fake.adapter_config();
    config.variants = variants();
    adjust(&mut config);
    let toy = Arc::new(ToyHandler::default());
    let (adapter, outbox) = launch(config.clone(), Arc::clone(&toy));
    Harness {
        fake,
        toy,
        outbox,
        adapter,
        config,
        database: None,
    }
}

fn telegram_user(id: i64, username: &str) -> UserRef {
    UserRef {
        platform: Platform::Telegram,
        id: id.to_string(),
        name: format!("@{username}"),
        handle: Some(username.to_lowercase()),
    }
}

/// Alice challenges Bob to `variant` in the group (game `g1` for the toy) and
/// Bob accepts with the button.
async fn alice_challenges_bob(fake: &FakeTelegram, variant: &str) {
    fake.say(GROUP, ALICE, &format!("/play {variant} @bob"));
    let (_, challenge) = fake
        .wait_for(0, "the challenge", |call| {
            call.delivered_to(GROUP) && !call.button_data().is_empty()
        })
        .await;
    fake.press(GROUP, BOB, challenge.message_id.expect("id"), "acc:g1");
}

fn group_sends(calls: &[Call]) -> Vec<&Call> {
    calls
        .iter()
        .filter(|call| call.delivered_to(GROUP))
        .collect()
}

fn command_names(call: &Call) -> Vec<String> {
    call.params["commands"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|command| command["command"].as_str().map(str::to_owned))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_is_accepted_by_button_and_played_by_replies_and_m() {
    let harness = start(true).await;
    let fake = &harness.fake;

    // The command menus are registered in English (default) and Russian.
    let (_, english) = fake
        .wait_for(0, "English command menu", |call| {
            call.method == "setMyCommands" && call.params["language_code"].is_null()
        })
        .await;
    let (_, russian) = fake
        .wait_for(0, "Russian command menu", |call| {
            call.method == "setMyCommands" && call.params["language_code"] == "ru"
        })
        .await;
    for expected in [
        "play", "move", "m", "resign", "draw", "takeback", "abort", "board", "games", "pgn",
        "timeline", "rules", "variants", "learn", "exchange", "retire", "help", "lang",
    ] {
        assert!(
            command_names(&english).iter().any(|name| name == expected),
            "{expected} missing"
        );
    }
    assert_eq!(command_names(&english), command_names(&russian));
    assert!(russian.params["commands"][0]["description"]
        .as_str()
        .is_some_and(|text| text.contains("Вызвать")));

    fake.say(GROUP, ALICE, "/play chess @bob");
    let (at, challenge) = fake
        .wait_for(0, "the challenge with buttons", |call| {
            call.delivered_to(GROUP) && call.button_data().contains(&"acc:g1".to_owned())
        })
        .await;
    assert_eq!(challenge.method, "sendMessage");
    assert_eq!(challenge.button_data(), vec!["acc:g1", "dec:g1"]);
    let challenge_id = challenge.message_id.expect("the challenge message id");

    // A stranger's press is answered privately and changes nothing.
    let carol_press = fake.press(GROUP, CAROL, challenge_id, "acc:g1");
    let (at, answer) = fake.press_answer(at, &carol_press).await;
    assert_eq!(answer.as_deref(), Some("This challenge is not for you."));

    let bob_press = fake.press(GROUP, BOB, challenge_id, "acc:g1");
    let (_, answer) = fake.press_answer(at, &bob_press).await;
    assert_eq!(answer, None, "no note for a valid press");
    let (at, board) = fake
        .wait_for(at, "the first board", |call| {
            call.delivered_to(GROUP) && call.method == "sendPhoto"
        })
        .await;
    assert!(board.text().contains("White to move"), "{}", board.text());
    let upload = board.upload.clone().expect("a PNG upload");
    assert_eq!(upload.field, "photo");
    assert_eq!(upload.file_name.as_deref(), Some("board-g1-0.png"));
    assert!(upload.bytes.starts_with(PNG_SIGNATURE));
    let group_before_board = group_sends(&fake.calls()[..at]).len();
    assert_eq!(group_before_board, 1, "Carol's press reached only Carol");
    // Bob's acceptance settled the challenge: its buttons go (Carol's press did not).
    let removal = fake
        .wait_for(0, "the challenge's buttons removed", |call| {
            call.method == "editMessageReplyMarkup"
        })
        .await
        .1;
    assert_eq!(removal.params["message_id"], challenge_id);
    assert!(removal.params["reply_markup"].is_null());

    // Alice moves by replying to the board; Bob with /m.
    fake.reply(GROUP, ALICE, "e4", board.message_id.expect("board id"));
    let (at, first) = fake
        .wait_for(at + 1, "the board after e4", |call| {
            call.delivered_to(GROUP) && call.method == "sendPhoto"
        })
        .await;
    assert!(first.text().starts_with("1. e4"), "{}", first.text());

    fake.say(GROUP, BOB, "/m e5");
    let (at, second) = fake
        .wait_for(at + 1, "the board after e5", |call| {
            call.delivered_to(GROUP) && call.method == "sendPhoto"
        })
        .await;
    assert!(second.text().starts_with("2. e5"), "{}", second.text());

    // Out of turn: told privately (Bob has a private chat with the bot).
    fake.say(GROUP, BOB, "/move e6");
    fake.wait_for(at, "Bob told it is not his turn", |call| {
        call.delivered_to(BOB) && call.text() == "It is not your turn."
    })
    .await;

    // Chatter and commands for other bots are not moves and get no answer.
    fake.say(GROUP, ALICE, "what a game");
    fake.say(GROUP, ALICE, "/play@OtherBot chess");
    fake.say(GROUP, ALICE, "/m@KodexBot Nf3");
    let (at_third, third) = fake
        .wait_for(at + 1, "the board after Nf3", |call| {
            call.delivered_to(GROUP) && call.method == "sendPhoto"
        })
        .await;
    assert!(third.text().starts_with("3. Nf3"), "{}", third.text());
    let calls = fake.calls();
    assert!(
        calls[at + 1..at_third]
            .iter()
            .all(|call| !call.delivered_to(GROUP)),
        "nothing else reached the group:\n{}",
        fake.describe_calls()
    );
    let plays = harness
        .toy
        .requests()
        .iter()
        .filter(|request| matches!(request.action, Action::Play { .. }))
        .count();
    assert_eq!(plays, 1, "/play@OtherBot is not ours");
    assert!(harness.toy.requests().iter().any(|request| request.action
        == Action::Text {
            text: "what a game".into()
        }));

    // Bad input is explained to the typer only; the game is unchanged.
    fake.say(GROUP, BOB, "/m zz9");
    fake.wait_for(at_third, "Bob told zz9 is not a move", |call| {
        call.delivered_to(BOB) && call.text().contains("is not a move")
    })
    .await;
    assert_eq!(harness.toy.moves("g1"), vec!["e4", "e5", "Nf3"]);

    // Resigning asks first, under Bob's command in the group (Telegram has
    // no message only he sees); his press ends the game with the result and
    // the game animation.
    fake.say(GROUP, BOB, "/resign");
    let (at, question) = fake
        .wait_for(at_third + 1, "the resign question", |call| {
            call.delivered_to(GROUP) && !call.button_data().is_empty()
        })
        .await;
    assert_eq!(question.text(), "Resign game g1? This cannot be undone.");
    assert_eq!(question.button_data(), vec!["rsg:g1:b", "keep:g1"]);
    assert_eq!(harness.toy.status("g1"), Some(Status::Playing));
    let question_id = question.message_id.expect("the question's message id");
    fake.press(GROUP, BOB, question_id, "rsg:g1:b");
    let (_, end) = fake
        .wait_for(at, "the game end", |call| {
            call.delivered_to(GROUP) && call.method == "sendAnimation"
        })
        .await;
    assert_eq!(end.text(), "@bob resigns. @alice wins.");
    let gif = end.upload.expect("a GIF upload");
    assert_eq!(gif.field, "animation");
    assert!(gif.bytes.starts_with(b"GIF8"));

    // Every request carried the sender's Telegram identity and locale.
    let requests = harness.toy.requests();
    let bob_request = requests
        .iter()
        .find(|request| request.actor.id == BOB.to_string())
        .expect("a request from Bob");
    assert_eq!(bob_request.actor.name, "@bob");
    assert_eq!(bob_request.locale.as_deref(), Some("ru"));
    assert!(!bob_request.private);
    assert!(fake.tokens_seen().iter().all(|token| token == TOKEN));
    // (The settled question loses its buttons beside the game's end.)
    fake.wait_for(0, "the question's buttons removed", |call| {
        call.method == "editMessageReplyMarkup" && call.params["message_id"] == question_id
    })
    .await;
    let removals: Vec<serde_json::Value> = fake
        .calls()
        .iter()
        .filter(|call| call.method == "editMessageReplyMarkup")
        .map(|call| call.params["message_id"].clone())
        .collect();
    assert_eq!(
        removals,
        [challenge_id, question_id],
        "only the accepted challenge and the answered question lost their buttons"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_without_a_variant_offers_a_picker_and_a_reply_names_the_opponent() {
    let harness = start(true).await;
    let fake = &harness.fake;
    let bob_says = fake.say(GROUP, BOB, "anyone for a game?");
    fake.reply(GROUP, ALICE, "/play 5+3", bob_says);
    let (at, picker) = fake
        .wait_for(0, "the variant picker", |call| {
            call.delivered_to(GROUP) && !call.button_data().is_empty()
        })
        .await;
    assert_eq!(picker.text(), "Choose a variant:");
    assert_eq!(picker.button_data(), vec!["pv:0:0", "pv:0:1"]);
    let labels: Vec<&str> = picker.params["reply_markup"]["inline_keyboard"][0]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|button| button["text"].as_str())
        .collect();
    assert_eq!(labels, vec!["Chess", "Fog of war"]);
    let picker_id = picker.message_id.expect("picker id");

    // Only the person who typed /play may choose.
    let carol_press = fake.press(GROUP, CAROL, picker_id, "pv:0:1");
    let (at, answer) = fake.press_answer(at, &carol_press).await;
    assert_eq!(
        answer.as_deref(),
        Some("This menu is for whoever typed /play.")
    );
    assert!(harness
        .toy
        .requests()
        .iter()
        .all(|request| !matches!(request.action, Action::Play { .. })));

    fake.press(GROUP, ALICE, picker_id, "pv:0:0");
    let (_, challenge) = fake
        .wait_for(at, "the challenge from the picker", |call| {
            call.delivered_to(GROUP) && call.button_data().contains(&"acc:g1".to_owned())
        })
        .await;
    assert!(challenge.text().contains("chess"));
    fake.wait_for(at, "the picker's buttons removed", |call| {
        call.method == "editMessageReplyMarkup" && call.params["message_id"] == picker_id
    })
    .await;
    let played = harness
        .toy
        .requests()
        .into_iter()
        .find(|request| matches!(request.action, Action::Play { .. }))
        .expect("the /play request");
    assert_eq!(
        played.action,
        Action::Play {
            variant: "chess".into(),
            opponent: Some(telegram_user(BOB, "bob")),
            clock: Some("5+3".into()),
            color: None,
            fen: None,
            rated: None,
            public: false,
        }
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fog_boards_go_privately_and_a_player_without_a_private_chat_gets_a_deep_link() {
    let harness = start(false).await;
    let fake = &harness.fake;

    alice_challenges_bob(fake, "fog").await;

    fake.wait_for(0, "Alice's private board", |call| {
        call.delivered_to(ALICE) && call.method == "sendPhoto"
    })
    .await;
    fake.wait_for(0, "Telegram refusing Bob's private board", |call| {
        call.chat_id() == Some(BOB) && call.outcome == Outcome::Forbidden
    })
    .await;
    let (_, link) = fake
        .wait_for(0, "the deep link in the group", |call| {
            call.delivered_to(GROUP) && !call.button_urls().is_empty()
        })
        .await;
    assert_eq!(link.button_urls(), vec!["https://t.me/KodexBot?start=b_g1"]);
    assert!(link.text().starts_with("@bob"), "{}", link.text());
    // Posted in the group, the prompt is in the group's language (the
    // default here), not in Bob's Russian: everyone there reads it.
    assert!(link.text().contains("your board"), "{}", link.text());

    // Alice moves in her private chat (any text is a move there); Bob's board
    // is refused again, but the group is not spammed with a second link.
    fake.say(ALICE, ALICE, "e4");
    fake.wait_for(0, "the public note of Alice's move", |call| {
        call.delivered_to(GROUP) && call.text().contains("@alice moved")
    })
    .await;
    let is_refusal =
        |call: &Call| call.chat_id() == Some(BOB) && call.outcome == Outcome::Forbidden;
    let (first_refusal, _) = fake.wait_for(0, "first refusal", is_refusal).await;
    let (at, _) = fake
        .wait_for(first_refusal + 1, "Bob's second refusal", is_refusal)
        .await;

    // Bob follows the link: his board arrives in the private chat.
    fake.say(BOB, BOB, "/start b_g1");
    let (_, board) = fake
        .wait_for(at, "Bob's board after Start", |call| {
            call.delivered_to(BOB) && call.method == "sendPhoto"
        })
        .await;
    assert!(board.text().contains("game g1"));
    assert!(harness.toy.requests().iter().any(|request| request.private
        && request.actor.id == BOB.to_string()
        && request.action
            == Action::Board {
                game: Some("g1".into())
            }));

    // Bob answers privately; both boards arrive privately.
    fake.say(BOB, BOB, "e5");
    // Group and private chats have separate queues: no order between them.
    fake.wait_for(at, "the public note of Bob's move", |call| {
        call.delivered_to(GROUP) && call.text().contains("@bob moved")
    })
    .await;
    fake.wait_for(at, "Alice's board after e5", |call| {
        call.delivered_to(ALICE) && call.text().contains("after 2 moves")
    })
    .await;
    fake.wait_for(at, "Bob's board after e5", |call| {
        call.delivered_to(BOB) && call.text().contains("after 2 moves")
    })
    .await;
    assert_eq!(harness.toy.moves("g1"), vec!["e4", "e5"]);

    // Nothing hidden reached the group: no image, no move, one link only.
    let calls = fake.calls();
    let group = group_sends(&calls);
    assert!(
        group.iter().all(|call| call.upload.is_none()),
        "{}",
        fake.describe_calls()
    );
    assert!(group
        .iter()
        .all(|call| !call.text().contains("e4") && !call.text().contains("e5")));
    assert_eq!(
        group
            .iter()
            .filter(|call| !call.button_urls().is_empty())
            .count(),
        1
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn flood_control_and_failed_gateways_are_retried_and_nothing_is_lost() {
    let harness = start(true).await;
    let fake = &harness.fake;
    // (The adapter posts messages itself: a 5xx is retried at once, not
    // after the 10 s teloxide would wait.)
    fake.fail_next("sendMessage", Failure::BadGateway);
    fake.fail_next("sendPhoto", Failure::RetryAfter(1));

    alice_challenges_bob(fake, "chess").await;
    let (_, board) = fake
        .wait_for(0, "the board after a 429", |call| {
            call.delivered_to(GROUP) && call.method == "sendPhoto"
        })
        .await;
    // Moves keep coming while (and after) Telegram asks the bot to wait.
    fake.reply(GROUP, ALICE, "e4", board.message_id.expect("id"));
    fake.say(GROUP, BOB, "/m e5");
    fake.wait_for(0, "the board after e5", |call| {
        call.delivered_to(GROUP) && call.text().starts_with("2. e5")
    })
    .await;

    let calls = fake.calls();
    let failed: Vec<&Call> = calls
        .iter()
        .filter(|call| matches!(call.outcome, Outcome::Failed(_)))
        .collect();
    assert_eq!(failed.len(), 2, "{}", fake.describe_calls());
    assert_eq!(failed[0].method, "sendMessage");
    assert_eq!(failed[1].method, "sendPhoto");
    assert_eq!(failed[1].outcome, Outcome::Failed(Failure::RetryAfter(1)));
    let delivered: Vec<String> = group_sends(&calls).iter().map(|call| call.text()).collect();
    assert_eq!(delivered.len(), 4, "{}", fake.describe_calls());
    assert!(delivered[0].contains("challenges @bob"));
    assert!(delivered[1].contains("White to move"));
    assert!(delivered[2].starts_with("1. e4"));
    assert!(delivered[3].starts_with("2. e5"));
    assert_eq!(
        failed[1].text(),
        delivered[1],
        "the refused board was sent again"
    );
    assert_eq!(harness.toy.moves("g1"), vec!["e4", "e5"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn outbox_deliveries_reach_chats_and_private_chats() {
    let harness = start(false).await;
    let fake = &harness.fake;
    // Bob is seen in the group, so the adapter knows where to post his link.
    fake.say(GROUP, BOB, "/help");
    fake.wait_for(0, "help", |call| call.delivered_to(GROUP))
        .await;

    let group = ChatRef {
        platform: Platform::Telegram,
        id: GROUP.to_string(),
    };
    let sent = [
        note(Target::Chat(group), "The challenge expired."),
        note(
            Target::Private(telegram_user(ALICE, "alice")),
            "Your flag fell.",
        ),
        Delivery {
            image: Some(Image {
                file_name: "board-g7-3.png".into(),
                bytes: BOARD_PNG.to_vec(),
            }),
            ..note(
                Target::Private(telegram_user(BOB, "bob")),
                "Your hidden board.",
            )
        },
    ];
    for delivery in sent {
        harness.outbox.send(delivery).expect("the outbox is open");
    }

    fake.wait_for(0, "the expiry in the group", |call| {
        call.delivered_to(GROUP) && call.text() == "The challenge expired."
    })
    .await;
    fake.wait_for(0, "Alice's private note", |call| {
        call.delivered_to(ALICE) && call.text() == "Your flag fell."
    })
    .await;
    let (_, link) = fake
        .wait_for(0, "Bob's deep link", |call| {
            call.delivered_to(GROUP) && !call.button_urls().is_empty()
        })
        .await;
    assert_eq!(link.button_urls(), vec!["https://t.me/KodexBot?start=b_g7"]);
    assert!(!link.text().contains("hidden"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn webhook_mode_takes_updates_posted_by_telegram() {
    let address = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free local port");
    let url = url::Url::parse(&format!("http://{address}/telegram/hook")).expect("a URL");
    let webhook_url = url.clone();
    let mut harness = start_with(true, move |config| {
        config.mode = Mode::Webhook {
            listen: address,
            url: webhook_url,
            secret: None,
        };
    })
    .await;
    let fake = &harness.fake;
    let (_, set) = fake
        .wait_for(0, "the webhook set", |call| call.method == "setWebhook")
        .await;
    assert_eq!(set.params["url"], url.as_str());
    assert!(set.params["secret_token"]
        .as_str()
        .is_some_and(|secret| !secret.is_empty()));
    // Only the updates the adapter handles: Telegram would send every kind.
    assert_eq!(
        fake.webhook_allowed_updates(),
        Some(serde_json::json!(["message", "callback_query"]))
    );

    alice_challenges_bob(fake, "chess").await;
    fake.wait_for(0, "the first board", |call| {
        call.delivered_to(GROUP) && call.method == "sendPhoto"
    })
    .await;
    assert_eq!(
        fake.get_updates_calls(),
        0,
        "no long polling in webhook mode"
    );

    // A clean stop removes the webhook and frees the address for the next start.
    harness.restart().await;
    let fake = &harness.fake;
    let (removed, _) = fake
        .wait_for(0, "the webhook removed", |call| {
            call.method == "deleteWebhook"
        })
        .await;
    let (set_again, _) = fake
        .wait_for(removed, "the webhook set again", |call| {
            call.method == "setWebhook"
        })
        .await;
    fake.say(GROUP, CAROL, "/help");
    fake.wait_for(set_again, "the help after the restart", |call| {
        call.delivered_to(GROUP) && call.text() == "Kodex help."
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn boards_go_as_files_when_pixel_exact_boards_are_asked_for() {
    let harness = start_with(true, |config| config.boards_as_documents = true).await;
    let fake = &harness.fake;
    alice_challenges_bob(fake, "chess").await;
    let (_, board) = fake
        .wait_for(0, "the board as a file", |call| {
            call.delivered_to(GROUP) && call.upload.is_some()
        })
        .await;
    assert_eq!(board.method, "sendDocument");
    assert!(board.text().contains("White to move"));
    let upload = board.upload.expect("the board file");
    assert_eq!(upload.field, "document");
    assert_eq!(upload.file_name.as_deref(), Some("board-g1-0.png"));
    assert!(upload.bytes.starts_with(PNG_SIGNATURE));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_variant_picker_opened_before_a_restart_still_works_after_it() {
    let mut harness = start_with_database(true).await;
    let bob_says = harness.fake.say(GROUP, BOB, "anyone for a game?");
    harness
        .fake
        .reply(GROUP, ALICE, "/play 5+3 white", bob_says);
    let (_, picker) = harness
        .fake
        .wait_for(0, "the variant picker", |call| {
            call.delivered_to(GROUP) && !call.button_data().is_empty()
        })
        .await;
    assert_eq!(picker.button_data(), vec!["pv:0:0", "pv:0:1"]);
    let picker_id = picker.message_id.expect("picker id");

    // The new run offers the variants in another order: old buttons keep theirs.
    harness.config.variants.reverse();
    harness.restart().await;
    let fake = &harness.fake;
    let restarted = fake.calls().len();
    // A new menu after the restart gets a new number: the old buttons stay Alice's.
    fake.say(GROUP, CAROL, "/play");
    let (_, carol_picker) = fake
        .wait_for(restarted, "Carol's picker", |call| {
            call.delivered_to(GROUP) && !call.button_data().is_empty()
        })
        .await;
    // The variants, then "against the computer" (an open challenge).
    assert_eq!(
        carol_picker.button_data(),
        vec!["pv:1:0", "pv:1:1", "pv:1:c"]
    );

    fake.press(GROUP, ALICE, picker_id, "pv:0:1");
    fake.wait_for(restarted, "the challenge from the old picker", |call| {
        call.delivered_to(GROUP) && call.button_data().contains(&"acc:g1".to_owned())
    })
    .await;
    let played = harness
        .toy
        .requests()
        .into_iter()
        .find(|request| matches!(request.action, Action::Play { .. }))
        .expect("the /play request");
    assert_eq!(played.actor.id, ALICE.to_string());
    assert_eq!(
        played.action,
        Action::Play {
            variant: "fog".into(),
            opponent: Some(telegram_user(BOB, "bob")),
            clock: Some("5+3".into()),
            color: Some(kodex_bot::api::ColorChoice::White),
            fen: None,
            rated: None,
            public: false,
        }
    );

    // A menu is used once, before or after a restart.
    let again = fake.press(GROUP, ALICE, picker_id, "pv:0:0");
    let (_, answer) = fake.press_answer(restarted, &again).await;
    assert_eq!(
        answer.as_deref(),
        Some("This menu has expired; type /play again.")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deep_link_posted_before_a_restart_is_not_posted_again_and_still_brings_the_board() {
    let mut harness = start_with_database(false).await;
    alice_challenges_bob(&harness.fake, "fog").await;
    let (_, link) = harness
        .fake
        .wait_for(0, "the deep link in the group", |call| {
            call.delivered_to(GROUP) && !call.button_urls().is_empty()
        })
        .await;
    assert_eq!(link.button_urls(), vec!["https://t.me/KodexBot?start=b_g1"]);

    harness.restart().await;
    let fake = &harness.fake;
    let restarted = fake.calls().len();
    // Alice moves: Bob's board is refused again, and his link is still waiting.
    fake.say(GROUP, ALICE, "/m e4");
    let (refused, _) = fake
        .wait_for(restarted, "Bob's board refused after the restart", |call| {
            call.chat_id() == Some(BOB) && call.outcome == Outcome::Forbidden
        })
        .await;
    // A board from the outbox (no group to answer in) finds the group Bob
    // played in before the restart. Bob's queue handles his refused boards in
    // order, so a second link for g1 would have been queued before this one.
    let board = Delivery {
        notify: Vec::new(),
        target: Target::Private(telegram_user(BOB, "bob")),
        text: "Your board in game g7.".into(),
        image: Some(Image {
            file_name: "board-g7-3.png".into(),
            bytes: BOARD_PNG.to_vec(),
        }),
        buttons: Vec::new(),
        game: None,
    };
    harness.outbox.send(board).expect("the outbox is open");
    fake.wait_for(refused, "the deep link for g7", |call| {
        call.delivered_to(GROUP)
            && call.button_urls() == vec!["https://t.me/KodexBot?start=b_g7".to_owned()]
    })
    .await;
    let links: Vec<Vec<String>> = group_sends(&fake.calls())
        .iter()
        .map(|call| call.button_urls())
        .filter(|urls| !urls.is_empty())
        .collect();
    assert_eq!(links.len(), 2, "{}", fake.describe_calls());

    fake.say(BOB, BOB, "/start b_g1");
    let (_, board) = fake
        .wait_for(refused, "Bob's board after Start", |call| {
            call.delivered_to(BOB) && call.method == "sendPhoto"
        })
        .await;
    assert!(board.text().contains("game g1"), "{}", board.text());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_username_learnt_before_a_restart_still_names_its_holder() {
    let mut harness = start_with_database(true).await;
    harness.fake.say(GROUP, BOB, "hi all");
    harness.fake.say(GROUP, ALICE, "/help");
    harness
        .fake
        .wait_for(0, "the help", |call| call.delivered_to(GROUP))
        .await;

    harness.restart().await;
    let fake = &harness.fake;
    fake.say(GROUP, ALICE, "/play chess @Bob");
    fake.say(GROUP, ALICE, "/play chess @dave");
    fake.wait_for(0, "both challenges", |call| {
        call.delivered_to(GROUP) && call.button_data().contains(&"acc:g2".to_owned())
    })
    .await;
    let requests = harness.toy.requests();
    let opponents: Vec<Option<&UserRef>> = requests
        .iter()
        .filter_map(|request| match &request.action {
            Action::Play { opponent, .. } => Some(opponent.as_ref()),
            _ => None,
        })
        .collect();
    assert_eq!(opponents.len(), 2);
    assert_eq!(opponents[0].map(|bob| bob.id.as_str()), Some("22"));
    assert_eq!(
        opponents[1].map(|dave| dave.id.as_str()),
        Some("@dave"),
        "someone never seen stays a username"
    );
    // Bob was learnt before the restart, not by a repeat of his message.
    let greetings = requests
        .iter()
        .filter(|request| request.actor.id == BOB.to_string())
        .count();
    assert_eq!(greetings, 1);
}

/// The toy, slowed down: button presses and texts containing "slow" take
/// [`Slow::DELAY`]. Records the order in which requests finish.
#[derive(Default)]
struct Slow {
    toy: Arc<ToyHandler>,
    finished: Mutex<Vec<String>>,
}

impl Slow {
    const DELAY: Duration = Duration::from_secs(3);

    fn finished(&self) -> Vec<String> {
        self.finished.lock().map(|f| f.clone()).unwrap_or_default()
    }
}

impl Handler for Slow {
    fn handle(&self, request: Request) -> HandlerFuture<'_> {
        Box::pin(async move {
            let label = match &request.action {
                Action::Move { text, .. } | Action::Text { text } => text.clone(),
                Action::Button { data } => format!("slow press {data}"),
                other => format!("{other:?}"),
            };
            if label.contains("slow") {
                tokio::time::sleep(Self::DELAY).await;
            }
            let deliveries = self.toy.handle(request).await;
            if let Ok(mut finished) = self.finished.lock() {
                finished.push(label);
            }
            deliveries
        })
    }

    fn handle_watched(
        &self,
        request: Request,
        _watcher: kodex_bot::api::ActivityWatcher,
    ) -> HandlerFuture<'_> {
        self.handle(request)
    }

    fn text(
        &self,
        reader: kodex_bot::api::Reader,
        key: &'static str,
        args: Vec<(&'static str, String)>,
    ) -> kodex_bot::api::TextFuture<'_> {
        self.toy.text(reader, key, args)
    }

    fn suggest(
        &self,
        request: kodex_bot::api::SuggestionRequest,
    ) -> kodex_bot::api::SuggestionFuture<'_> {
        self.toy.suggest(request)
    }
}

/// The adapter with `handler` behind it, against a fake with the usual people.
async fn start_slow(handler: Arc<Slow>) -> (FakeTelegram, tokio::task::JoinHandle<()>) {
    let fake = FakeTelegram::start().await;
    fake.add_group(GROUP, "Chess club");
    fake.add_person(ALICE, "alice", "en", true);
    fake.add_person(BOB, "bob", "en", true);
    fake.add_person(CAROL, "carol", "en", true);
    let task = run_slow(&fake, handler);
    (fake, task)
}

/// Runs the adapter with `handler` behind it against `fake` until aborted.
fn run_slow(fake: &FakeTelegram, handler: Arc<Slow>) -> tokio::task::JoinHandle<()> {
    let config = fake.adapter_config();
    let (_outbox, receiver) = unbounded_channel();
    tokio::spawn(async move {
        let _keep_outbox_open = _outbox;
        if let Err(error) = run_until(config, handler, receiver, std::future::pending()).await {
            panic!("the Telegram adapter stopped: {error}");
        }
    })
}

/// Waits up to `within` for `done`.
async fn eventually(within: Duration, done: impl Fn() -> bool) -> bool {
    let deadline = tokio::time::Instant::now() + within;
    while !done() {
        if tokio::time::Instant::now() >= deadline {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    true
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_update_being_handled_when_the_process_dies_is_handled_after_the_restart() {
    let slow = Arc::new(Slow::default());
    let (fake, task) = start_slow(Arc::clone(&slow)).await;
    fake.say(GROUP, ALICE, "slow e4");
    // The bot fetched it and went on polling while the service works on it.
    let polls = fake.get_updates_calls();
    assert!(
        eventually(Slow::DELAY / 2, || fake.get_updates_calls() >= polls + 3).await,
        "the bot polls on"
    );
    assert!(slow.finished().is_empty(), "still being handled");
    assert_eq!(
        fake.unconfirmed_updates(),
        1,
        "an update being handled is not confirmed to Telegram"
    );
    // The process dies (as by SIGKILL) before the service has answered.
    task.abort();
    let _ = task.await;
    let after_restart = Arc::new(Slow::default());
    let task = run_slow(&fake, Arc::clone(&after_restart));
    assert!(
        eventually(Slow::DELAY * 3, || after_restart.finished() == ["slow e4"]).await,
        "the move is handled after the restart: {:?}",
        after_restart.finished()
    );
    assert!(
        eventually(Duration::from_secs(5), || fake.unconfirmed_updates() == 0).await,
        "and confirmed once handled"
    );
    task.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_update_with_a_lone_surrogate_blocks_no_later_update() {
    let slow = Arc::new(Slow::default());
    let (fake, task) = start_slow(Arc::clone(&slow)).await;
    fake.say_with_lone_surrogate(GROUP, ALICE, "e4 ");
    fake.say(GROUP, CAROL, "then this");
    fake.say(ALICE, ALICE, "and this");
    assert!(
        eventually(Duration::from_secs(5), || slow.finished().len() == 3).await,
        "every update is handled at once: {:?}",
        slow.finished()
    );
    let mut finished = slow.finished();
    finished.sort();
    assert_eq!(
        finished,
        ["and this", "e4 \u{fffd}", "then this"],
        "the lone surrogate is read as a replacement character"
    );
    assert!(
        eventually(Duration::from_secs(5), || fake.unconfirmed_updates() == 0).await,
        "all three are confirmed"
    );
    task.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_press_is_answered_before_telegram_gives_up_however_slow_the_service() {
    let slow = Arc::new(Slow::default());
    let (fake, task) = start_slow(Arc::clone(&slow)).await;
    // Telegram's deadline, shorter than the service takes.
    fake.set_callback_deadline(Slow::DELAY - Duration::from_millis(500));
    fake.say(GROUP, ALICE, "/play chess @bob");
    let (_, challenge) = fake
        .wait_for(0, "the challenge", |call| {
            call.delivered_to(GROUP) && !call.button_data().is_empty()
        })
        .await;
    let press = fake.press(GROUP, BOB, challenge.message_id.expect("id"), "acc:g1");
    let (index, _) = fake.press_answer(0, &press).await;
    assert_eq!(
        fake.calls()[index].outcome,
        Outcome::Ok,
        "answered in time:\n{}",
        fake.describe_calls()
    );
    // The service's answer still comes, after the press was answered.
    let (started, _) = fake
        .wait_for(0, "the game starts", |call| {
            call.delivered_to(GROUP) && call.upload.is_some()
        })
        .await;
    assert!(index < started);
    assert_eq!(slow.toy.status("g1"), Some(Status::Playing));
    task.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_chat_delays_no_other_chat_and_each_chat_keeps_its_order() {
    let slow = Arc::new(Slow::default());
    let (fake, task) = start_slow(Arc::clone(&slow)).await;
    fake.say(GROUP, ALICE, "slow one");
    fake.say(GROUP, CAROL, "then this");
    fake.say(ALICE, ALICE, "quick");
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    while slow.finished().len() < 3 && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(
        slow.finished(),
        ["quick", "slow one", "then this"],
        "the private chat went first; the group kept its order"
    );
    task.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_migrated_group_gets_its_message_and_a_kicked_one_stops_nothing() {
    let harness = start(true).await;
    let fake = &harness.fake;
    const SUPERGROUP: i64 = -100_900;
    let group = |id: i64| ChatRef {
        platform: Platform::Telegram,
        id: id.to_string(),
    };
    fake.migrate_group(GROUP, SUPERGROUP);
    harness
        .outbox
        .send(note(Target::Chat(group(GROUP)), "Flag fell in g1."))
        .expect("the outbox is open");
    let (at, _) = fake
        .wait_for(0, "the message in the new supergroup", |call| {
            call.delivered_to(SUPERGROUP) && call.text() == "Flag fell in g1."
        })
        .await;
    fake.kick_bot_from(SUPERGROUP);
    harness
        .outbox
        .send(note(Target::Chat(group(SUPERGROUP)), "Nobody reads this."))
        .expect("open");
    harness
        .outbox
        .send(note(
            Target::Private(telegram_user(ALICE, "alice")),
            "Still here.",
        ))
        .expect("open");
    fake.wait_for(at, "the private message after the kick", |call| {
        call.delivered_to(ALICE) && call.text() == "Still here."
    })
    .await;
    // Chats have lanes of their own: the kicked group's try may come after
    // the private message. Wait for it, then give a retry time to show.
    fake.wait_for(at, "the kicked group's refusal", |call| {
        call.chat_id() == Some(SUPERGROUP)
            && matches!(&call.outcome, Outcome::Rejected(text) if text.contains("kicked"))
    })
    .await;
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    let refused = fake
        .calls()
        .iter()
        .filter(|call| call.chat_id() == Some(SUPERGROUP))
        .filter(|call| matches!(&call.outcome, Outcome::Rejected(text) if text.contains("kicked")))
        .count();
    assert_eq!(
        refused,
        1,
        "tried once, not retried: {}",
        fake.describe_calls()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn images_are_checked_against_telegrams_limits_before_sending() {
    let harness = start(true).await;
    let fake = &harness.fake;
    let group = ChatRef {
        platform: Platform::Telegram,
        id: GROUP.to_string(),
    };
    // A board over the photo limit goes as a file at once.
    let mut big = note(Target::Chat(group.clone()), "A big board.");
    let mut bytes = BOARD_PNG.to_vec();
    bytes.resize(10_000_001, 0);
    big.image = Some(Image {
        file_name: "board-g1-1.png".into(),
        bytes,
    });
    harness.outbox.send(big).expect("open");
    let (at, sent) = fake
        .wait_for(0, "the big board", |call| call.text() == "A big board.")
        .await;
    assert_eq!(sent.method, "sendDocument", "{}", fake.describe_calls());
    assert_eq!(sent.outcome, Outcome::Ok);
    // Larger than any upload: the text goes, saying the image did not.
    let mut huge = note(Target::Chat(group), "The whole game.");
    huge.image = Some(Image {
        file_name: "g1.gif".into(),
        bytes: [b"GIF89a".as_slice(), &vec![0; 50_000_001]].concat(),
    });
    harness.outbox.send(huge).expect("open");
    let (_, sent) = fake
        .wait_for(at, "the text of the huge animation", |call| {
            call.text().starts_with("The whole game.")
        })
        .await;
    assert_eq!(sent.method, "sendMessage");
    assert!(sent.text().contains("too large"), "{}", sent.text());
    assert!(
        fake.calls()
            .iter()
            .all(|call| !matches!(call.outcome, Outcome::Rejected(_))),
        "{}",
        fake.describe_calls()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_display_name_that_looks_like_the_challenged_username_accepts_nothing() {
    let harness = start(true).await;
    let fake = &harness.fake;
    const MALLORY: i64 = 44;
    // No username, and a first name anyone may choose.
    fake.add_person(MALLORY, "", "en", true);
    fake.set_first_name(MALLORY, "@bob");
    fake.say(GROUP, ALICE, "/play chess @bob");
    let (at, challenge) = fake
        .wait_for(0, "the challenge", |call| {
            call.delivered_to(GROUP) && call.button_data().contains(&"acc:g1".to_owned())
        })
        .await;
    let message = challenge.message_id.expect("id");
    let press = fake.press(GROUP, MALLORY, message, "acc:g1");
    let (at, answer) = fake.press_answer(at, &press).await;
    assert_eq!(answer.as_deref(), Some("This challenge is not for you."));
    assert_eq!(harness.toy.status("g1"), Some(Status::Challenged));
    fake.press(GROUP, BOB, message, "acc:g1");
    fake.wait_for(at, "the game starts for the real @bob", |call| {
        call.delivered_to(GROUP) && call.upload.is_some()
    })
    .await;
    assert_eq!(harness.toy.status("g1"), Some(Status::Playing));
}
