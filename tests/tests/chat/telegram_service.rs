//! The Telegram adapter in front of the real game service (SQLite in a
//! temporary folder, a hand-moved clock), talking to the fake Bot API.

use std::sync::Arc;

use kodex_bot::api::Platform;
use kodex_bot::config::Config;
use kodex_bot::store::{GameResult, GameRow, Status};
use kodex_bot::telegram::run;
use kodex_bot::time::ManualTime;
use kodex_bot::Service;
use kodex_engine::{Registry, Team};
use kodex_tests::fake_telegram::{Call, Failure, FakeTelegram, Outcome, CALLBACK_DEADLINE};
use kodex_tests::image_header::PNG_SIGNATURE;

const GROUP: i64 = -100_300;
const ALICE: i64 = 11;
const BOB: i64 = 22;
const CAROL: i64 = 33;
const DAVE: i64 = 44;
const EVE: i64 = 55;

struct Harness {
    fake: FakeTelegram,
    service: Service,
    time: Arc<ManualTime>,
    bot: tokio::task::JoinHandle<()>,
    dir: std::path::PathBuf,
}

impl Drop for Harness {
    fn drop(&mut self) {
        self.bot.abort();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

async fn start(name: &str, bob_started: bool) -> Harness {
    start_with(name, bob_started, false).await
}

/// A harness whose fake takes at most 20 messages a minute in a group, as
/// Telegram does, and whose adapter keeps the production flood limits.
async fn start_strict(name: &str) -> Harness {
    start_with(name, true, true).await
}

/// A fresh folder for test `name` and the configuration of a service
/// whose database and boards live in it.
async fn test_config(name: &str) -> (std::path::PathBuf, Config) {
    let dir = std::env::temp_dir().join(format!(
        "kodex-telegram-{name}-{}-{}",
        std::process::id(),
        fastrand::u64(..)
    ));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let mut config = Config::defaults();
    config.database.url = crate::console_support::chat_database(&dir).await;
    config.boards.dir = dir.join("boards");
    (dir, config)
}

async fn start_with(name: &str, bob_started: bool, strict: bool) -> Harness {
    let (dir, config) = test_config(name).await;
    let time = ManualTime::new(1_700_000_000_000);
    let service = Service::open(&config, Registry::builtin(), time.clone())
        .await
        .expect("the service opens");

    let fake = FakeTelegram::start().await;
    fake.add_group(GROUP, "Chess club");
    fake.add_person(ALICE, "alice", "en", true);
    fake.add_person(BOB, "bob", "en", bob_started);
    fake.add_person(CAROL, "carol", "en", true);
    let bot = if strict {
        fake.enforce_group_flood_limit(20);
        spawn_adapter_with(fake.production_adapter_config(), &service)
    } else {
        spawn_adapter(&fake, &service)
    };
    Harness {
        fake,
        service,
        time,
        bot,
        dir,
    }
}

/// The adapter in front of `service`, against `fake`, until aborted.
fn spawn_adapter(fake: &FakeTelegram, service: &Service) -> tokio::task::JoinHandle<()> {
    spawn_adapter_with(fake.adapter_config(), service)
}

/// The adapter in front of `service`, configured as `telegram`, until aborted.
fn spawn_adapter_with(
    mut telegram: kodex_bot::telegram::TelegramConfig,
    service: &Service,
) -> tokio::task::JoinHandle<()> {
    telegram.store = Some(service.store().clone());
    let outbox = service.outbox(Platform::Telegram);
    // Exactly what `kodex run` puts in front of the service.
    let handler = kodex_bot::app::platform_handler(service);
    tokio::spawn(async move {
        if let Err(error) = run(telegram, handler, outbox).await {
            panic!("the Telegram adapter stopped: {error}");
        }
    })
}

impl Harness {
    /// Waits until the adapter has recorded `board` as a board of `game` in
    /// the group (in its memory in the database): a person cannot answer a
    /// message faster than the bot learns it was posted.
    async fn board_recorded(&self, game: &str, board: i64) {
        let key = format!("{GROUP}/{game}");
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        loop {
            let record = self
                .service
                .store()
                .recall("telegram", "boards", &key)
                .await
                .expect("the store answers");
            if record.is_some_and(|record| record.split(' ').any(|id| id == board.to_string())) {
                return;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "the board is never recorded"
            );
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    }

    /// The adapter dies (as with the process) and starts again on the same
    /// database, once what it learnt about `game`'s `board` is stored.
    async fn restart_adapter(&mut self, game: &str, board: i64) {
        self.board_recorded(game, board).await;
        self.bot.abort();
        let _ = (&mut self.bot).await;
        self.bot = spawn_adapter(&self.fake, &self.service);
    }
}

/// The game as stored.
async fn stored(harness: &Harness, game: &str) -> GameRow {
    harness
        .service
        .store()
        .get("telegram", game)
        .await
        .expect("the store answers")
        .expect("the game exists")
}

/// Game `game` as stored once `done` says so (polled; at most 30 s).
async fn row_when(
    harness: &Harness,
    game: &str,
    what: &str,
    done: impl Fn(&GameRow) -> bool,
) -> GameRow {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let row = stored(harness, game).await;
        if done(&row) {
            return row;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "never happened: {what}\n{}",
            harness.fake.describe_calls()
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

/// Who plays white in a game between Alice and Bob.
fn white_of(row: &GameRow) -> i64 {
    if row.player_id(0) == Some(&*ALICE.to_string()) {
        ALICE
    } else {
        BOB
    }
}

/// The Telegram ids of the game's white and black player (alice or bob).
fn white_and_black(row: &GameRow) -> (i64, i64) {
    if row.player_id(0) == Some(&*ALICE.to_string()) {
        (ALICE, BOB)
    } else {
        (BOB, ALICE)
    }
}

/// A board: a PNG sent as a photo (or a file). A text board is not one: the
/// service draws every board.
fn is_board(call: &Call) -> bool {
    call.upload.as_ref().is_some_and(|upload| {
        upload.bytes.starts_with(PNG_SIGNATURE)
            && matches!(upload.field.as_str(), "photo" | "document")
    })
}

/// The game a message names ("Game k7m2 starts: …").
fn game_named_in(call: &Call) -> String {
    call.text()
        .split_whitespace()
        .skip_while(|word| *word != "Game")
        .nth(1)
        .expect("the game id")
        .trim_end_matches(':')
        .to_owned()
}

fn challenge_id(call: &Call) -> Option<String> {
    call.button_data()
        .iter()
        .find_map(|data| data.strip_prefix("acc:").map(str::to_owned))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_real_game_is_accepted_by_button_and_played_by_replies_and_m_to_mate() {
    let harness = start("mate", true).await;
    let fake = &harness.fake;
    // Bob writes first, so `@bob` resolves to his Telegram id.
    fake.say(GROUP, BOB, "hi all");
    let (at, challenge) = challenge_posted(fake, "/play chess @bob", 0).await;
    let game = challenge_id(&challenge).expect("a game id");
    let challenge_message = challenge.message_id.expect("challenge id");

    let carol_press = fake.press(GROUP, CAROL, challenge_message, &format!("acc:{game}"));
    let (at, answer) = fake.press_answer(at, &carol_press).await;
    assert!(
        answer.as_ref().is_some_and(|text| !text.is_empty()),
        "the stranger is told why: {answer:?}"
    );

    fake.press(GROUP, BOB, challenge_message, &format!("acc:{game}"));
    let (at, board) = fake
        .wait_for(at, "the first board", |call| {
            call.delivered_to(GROUP) && is_board(call)
        })
        .await;

    let (white, black) = white_and_black(&stored(&harness, &game).await);

    // Fool's mate: by a reply to the board, by /m, by /move, by a reply again.
    fake.reply(GROUP, white, "f3", board.message_id.expect("board id"));
    let (at, after_f3) = fake
        .wait_for(at + 1, "the board after f3", |call| {
            call.delivered_to(GROUP) && is_board(call)
        })
        .await;
    assert!(after_f3.text().contains("f3"), "{}", after_f3.text());

    // Bad input changes nothing and is told to the typer only.
    fake.say(GROUP, black, "/m zz9");
    fake.wait_for(at, "the bad move explained privately", |call| {
        call.delivered_to(black) && !call.text().is_empty()
    })
    .await;

    fake.say(GROUP, black, "/m e5");
    let (at, _) = fake
        .wait_for(at + 1, "the board after e5", |call| {
            call.delivered_to(GROUP) && is_board(call) && call.text().contains("e5")
        })
        .await;
    fake.say(GROUP, white, "/move g4");
    let (at, after_g4) = fake
        .wait_for(at + 1, "the board after g4", |call| {
            call.delivered_to(GROUP) && is_board(call) && call.text().contains("g4")
        })
        .await;
    fake.reply(GROUP, black, "Qh4", after_g4.message_id.expect("id"));
    fake.wait_for(at + 1, "the result", |call| {
        call.delivered_to(GROUP) && (call.text().contains("0–1") || call.text().contains("0-1"))
    })
    .await;

    let row = stored(&harness, &game).await;
    assert!(row.result.is_some(), "the game is over");
    assert_eq!(
        row.moves.as_str().split_whitespace().count(),
        4,
        "{}",
        row.moves
    );
    // The start and every move were answered with a board in the group.
    let boards = fake
        .calls()
        .iter()
        .filter(|call| call.delivered_to(GROUP) && is_board(call))
        .count();
    assert!(boards >= 5, "{}", fake.describe_calls());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_real_fog_game_sends_boards_privately_and_a_deep_link_to_a_new_player() {
    let harness = start("fog", false).await;
    let fake = &harness.fake;
    let (game, _) = alice_challenges_bob(fake, "fog").await;
    fake.wait_for(0, "Alice's private board", |call| {
        call.delivered_to(ALICE) && is_board(call)
    })
    .await;
    let (_, link) = fake
        .wait_for(0, "Bob's deep link", |call| {
            call.delivered_to(GROUP) && !call.button_urls().is_empty()
        })
        .await;
    // The link names the game the delivery is about.
    let payload = format!("b_{game}");
    assert_eq!(
        link.button_urls(),
        vec![format!("https://t.me/KodexBot?start={payload}")]
    );
    assert!(link.text().starts_with("@bob"));

    fake.say(BOB, BOB, &format!("/start {payload}"));
    let (_, board) = fake
        .wait_for(0, "Bob's board after Start", |call| {
            call.delivered_to(BOB) && is_board(call)
        })
        .await;
    assert!(board.text().contains(&game));

    // White moves privately; the group hears that a move was made.
    let white = white_of(&stored(&harness, &game).await);
    let before = fake.calls().len();
    fake.say(white, white, "e4");
    fake.wait_for(before, "the group told of the move", |call| {
        call.delivered_to(GROUP)
    })
    .await;
    fake.wait_for(before, "white's private board after e4", |call| {
        call.delivered_to(white) && is_board(call)
    })
    .await;

    // While the game runs the group gets no image at all (a public board
    // of a fog game would show what a side sees) and no private board.
    let calls = fake.calls();
    let refused = calls
        .iter()
        .filter(|call| call.chat_id() == Some(BOB) && call.outcome == Outcome::Forbidden)
        .count();
    assert!(refused >= 1, "{}", fake.describe_calls());
    let private_boards = calls
        .iter()
        .filter(|call| (call.delivered_to(ALICE) || call.delivered_to(BOB)) && is_board(call))
        .count();
    assert!(private_boards >= 3, "{}", fake.describe_calls());
    let group_images: Vec<String> = calls
        .iter()
        .filter(|call| call.delivered_to(GROUP) && call.upload.is_some())
        .map(|call| format!("{} {:?}", call.method, call.text()))
        .collect();
    assert!(
        group_images.is_empty(),
        "images reached the group of a running fog game: {group_images:?}"
    );
    for call in calls.iter().filter(|call| call.delivered_to(GROUP)) {
        let text = call.text();
        assert!(
            !text.contains("<pre>"),
            "a text board reached the group: {text}"
        );
    }
}

/// Alice challenges Bob (who wrote first, so `@bob` is known) to `variant`
/// in the group and Bob accepts by button. Returns the game id and the index
/// of the challenge among the calls.
async fn alice_challenges_bob(fake: &FakeTelegram, variant: &str) -> (String, usize) {
    fake.say(GROUP, BOB, "hi all");
    alice_challenges(fake, &format!("/play {variant} @bob"), BOB, 0).await
}

/// Alice sends `play` in the group; the challenge it posts (looked for from
/// call `from` on) and its index among the calls.
async fn challenge_posted(fake: &FakeTelegram, play: &str, from: usize) -> (usize, Call) {
    fake.say(GROUP, ALICE, play);
    fake.wait_for(from, "the challenge", |call| {
        call.delivered_to(GROUP) && challenge_id(call).is_some()
    })
    .await
}

/// Alice sends `play` in the group (a challenge to `opponent`), looked for
/// from call `from` on, and `opponent` accepts by button. Returns the game id
/// and the index of the challenge among the calls.
async fn alice_challenges(
    fake: &FakeTelegram,
    play: &str,
    opponent: i64,
    from: usize,
) -> (String, usize) {
    let (at, challenge) = challenge_posted(fake, play, from).await;
    let game = challenge_id(&challenge).expect("a game id");
    fake.press(
        GROUP,
        opponent,
        challenge.message_id.expect("challenge id"),
        &format!("acc:{game}"),
    );
    (game, at)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resigning_asks_in_the_group_and_only_the_player_can_confirm() {
    let harness = start("resign", true).await;
    let fake = &harness.fake;
    let (game, at) = alice_challenges_bob(fake, "chess").await;
    let (at, _) = fake
        .wait_for(at, "the first board", |call| {
            call.delivered_to(GROUP) && is_board(call)
        })
        .await;

    // The question answers Alice's /resign in the group, with its buttons.
    let resign_command = fake.say(GROUP, ALICE, "/resign");
    let (at, question) = fake
        .wait_for(at, "the resign question", |call| {
            call.is_send()
                && call
                    .button_data()
                    .iter()
                    .any(|data| data.starts_with("rsg:"))
        })
        .await;
    assert!(question.delivered_to(GROUP), "{}", fake.describe_calls());
    assert_eq!(
        question.text(),
        format!("Resign game {game} against @bob? This cannot be undone.")
    );
    assert_eq!(
        question.params["reply_parameters"]["message_id"],
        resign_command
    );
    let buttons = question.button_data();
    let resign = buttons
        .iter()
        .find(|data| data.starts_with("rsg:"))
        .expect("the resign button")
        .clone();
    assert!(resign.starts_with(&format!("rsg:{game}:")), "{resign}");
    assert_eq!(buttons, vec![resign.clone(), format!("keep:{game}")]);
    let question_id = question.message_id.expect("question id");
    let group_before = group_sends(&fake.calls()).len();

    // Bob (the opponent) and Carol (no player) press "Resign": each is told
    // privately in the press's answer, and the game goes on.
    let bob_press = fake.press(GROUP, BOB, question_id, &resign);
    assert_eq!(
        fake.press_answer(at, &bob_press).await.1,
        Some("This button is for someone else.".to_owned())
    );
    let carol_press = fake.press(GROUP, CAROL, question_id, &resign);
    assert_eq!(
        fake.press_answer(at, &carol_press).await.1,
        Some(format!("You are not playing in game {game}."))
    );
    // Alice thinks again: "Play on" changes nothing, and the question's
    // buttons go with it (the refused presses left them).
    let keep = fake.press(GROUP, ALICE, question_id, &format!("keep:{game}"));
    assert_eq!(
        fake.press_answer(at, &keep).await.1,
        Some(format!("Game {game} goes on."))
    );
    let (_, removal) = fake
        .wait_for(at, "the question's buttons removed after Play on", |call| {
            call.method == "editMessageReplyMarkup" && call.params["message_id"] == question_id
        })
        .await;
    assert!(removal.params["reply_markup"].is_null());
    assert!(fake.buttons_now(question_id).is_empty());
    let row = stored(&harness, &game).await;
    assert!(row.result.is_none(), "the game goes on");

    // Alice asks again and confirms: the result is announced in the group,
    // and nothing said to the others reached it before.
    fake.say(GROUP, ALICE, "/resign");
    let (at, again) = fake
        .wait_for(at, "the second resign question", |call| {
            call.is_send() && call.button_data().contains(&resign)
        })
        .await;
    let again_id = again.message_id.expect("question id");
    fake.press(GROUP, ALICE, again_id, &resign);
    let (result, _) = fake
        .wait_for(at, "the result in the group", |call| {
            call.delivered_to(GROUP) && call.text().contains("resigned")
        })
        .await;
    // The answered question loses its buttons, once.
    fake.wait_for(at, "the question's buttons removed", |call| {
        call.method == "editMessageReplyMarkup" && call.params["message_id"] == again_id
    })
    .await;
    let calls = fake.calls();
    let removals = calls
        .iter()
        .filter(|call| {
            call.method == "editMessageReplyMarkup"
                && [question_id, again_id]
                    .contains(&call.params["message_id"].as_i64().unwrap_or(0))
        })
        .count();
    assert_eq!(removals, 2);
    assert_eq!(
        group_sends(&calls[..result]).len(),
        group_before + 1,
        "only the second question reached the group before the result\n{}",
        fake.describe_calls()
    );
    let row = stored(&harness, &game).await;
    let bob_won = if row.player_id(0) == Some(&*BOB.to_string()) {
        "1-0"
    } else {
        "0-1"
    };
    assert_eq!(
        row.result.as_ref().map(GameResult::to_text).as_deref(),
        Some(bob_won)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resign_question_lapses_with_the_next_move_and_a_strangers_board_press_stays_private() {
    let harness = start("resign-lapse", true).await;
    let fake = &harness.fake;
    let (game, at) = alice_challenges_bob(fake, "chess").await;
    let (at, first) = fake
        .wait_for(at, "the first board", |call| {
            call.delivered_to(GROUP) && is_board(call)
        })
        .await;
    let (white, black) = white_and_black(&stored(&harness, &game).await);
    fake.say(GROUP, white, "/resign");
    let (at, question) = fake
        .wait_for(at, "the resign question", |call| {
            call.is_send() && call.button_data().iter().any(|d| d.starts_with("rsg:"))
        })
        .await;
    let resign = question
        .button_data()
        .into_iter()
        .find(|data| data.starts_with("rsg:"))
        .expect("the resign button");
    // White plays on without answering; two moves later the old button
    // resigns nothing.
    fake.reply(GROUP, white, "e4", first.message_id.expect("id"));
    fake.say(GROUP, black, "/m e5");
    row_when(&harness, &game, "two moves", |row| {
        row.moves.as_str().split_whitespace().count() == 2
    })
    .await;
    let press = fake.press(GROUP, white, question.message_id.expect("id"), &resign);
    let (at, answer) = fake.press_answer(at, &press).await;
    assert_eq!(
        answer,
        Some(format!(
            "That question about game {game} has lapsed: you have moved since. Send /resign again if you mean it."
        ))
    );
    assert!(
        stored(&harness, &game).await.result.is_none(),
        "the game goes on"
    );

    // Carol, who does not play, presses Show board: she gets the board in
    // her private chat, and the group gets nothing.
    let (latest_at, latest) = fake
        .wait_for(0, "the board after e5", |call| {
            call.delivered_to(GROUP) && is_board(call) && call.text().contains("e5")
        })
        .await;
    let group_before = group_sends(&fake.calls()).len();
    let press = fake.press(
        GROUP,
        CAROL,
        latest.message_id.expect("id"),
        &format!("board:{game}"),
    );
    fake.press_answer(at.max(latest_at), &press).await;
    fake.wait_for(at, "Carol's private board", |call| {
        call.delivered_to(CAROL) && is_board(call)
    })
    .await;
    assert_eq!(
        group_sends(&fake.calls()).len(),
        group_before,
        "{}",
        fake.describe_calls()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_accepted_by_a_typed_accept_loses_its_buttons() {
    let harness = start("typed-accept", true).await;
    let fake = &harness.fake;
    fake.say(GROUP, BOB, "hi all");
    let (at, challenge) = challenge_posted(fake, "/play chess @bob", 0).await;
    let challenge_message = challenge.message_id.expect("challenge id");
    assert!(!fake.buttons_now(challenge_message).is_empty());
    fake.say(GROUP, BOB, "/accept");
    let (at, _) = fake
        .wait_for(at, "the first board", |call| {
            call.delivered_to(GROUP) && is_board(call)
        })
        .await;
    fake.wait_for(at, "the challenge's buttons removed", |call| {
        call.method == "editMessageReplyMarkup" && call.params["message_id"] == challenge_message
    })
    .await;
    assert!(fake.buttons_now(challenge_message).is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_to_an_unseen_username_is_accepted_only_by_its_holder() {
    let harness = start("handle", true).await;
    let fake = &harness.fake;
    // Two people who call themselves "@carol": Dave has another username,
    // Eve none. Neither is Carol, who has never written where the bot reads.
    fake.add_person(DAVE, "dave", "en", true);
    fake.set_first_name(DAVE, "@carol");
    fake.add_person(EVE, "", "en", true);
    fake.set_first_name(EVE, "@carol");

    fake.say(GROUP, ALICE, "/play chess @Carol");
    let (at, challenge) = fake
        .wait_for(0, "the challenge", |call| {
            call.delivered_to(GROUP) && challenge_id(call).is_some()
        })
        .await;
    let game = challenge_id(&challenge).expect("a game id");
    let accept = format!("acc:{game}");
    let challenge_message = challenge.message_id.expect("challenge id");

    for impostor in [DAVE, EVE] {
        let press = fake.press(GROUP, impostor, challenge_message, &accept);
        assert_eq!(
            fake.press_answer(at, &press).await.1,
            Some(format!("Challenge {game} is meant for someone else."))
        );
    }
    fake.say(GROUP, EVE, &format!("/accept {game}"));
    fake.wait_for(at, "Eve's /accept refused privately", |call| {
        call.delivered_to(EVE) && call.text().contains("meant for someone else")
    })
    .await;
    let row = stored(&harness, &game).await;
    assert!(row.seats.is_empty(), "not started");

    // Carol's press carries her username: the game starts.
    fake.press(GROUP, CAROL, challenge_message, &accept);
    fake.wait_for(at, "the first board", |call| {
        call.delivered_to(GROUP) && is_board(call)
    })
    .await;
    let row = stored(&harness, &game).await;
    let players = [0, 1].map(|side| row.player_id(side).map(str::to_owned));
    assert!(
        players.contains(&Some(CAROL.to_string())) && players.contains(&Some(ALICE.to_string())),
        "{players:?}"
    );
}

fn group_sends(calls: &[Call]) -> Vec<&Call> {
    calls
        .iter()
        .filter(|call| call.delivered_to(GROUP))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn random_updates_change_nothing_and_the_game_plays_on_after_them() {
    use kodex_tests::garbage::random_text;
    const OTHER_GROUP: i64 = -100_301;
    let seed = kodex_tests::garbage::seed();
    let harness = start("garbage", true).await;
    let fake = &harness.fake;
    fake.add_person(DAVE, "dave", "ru", false);
    fake.add_group(OTHER_GROUP, "Off-topic");
    let (game, at) = alice_challenges_bob(fake, "chess").await;
    let (at, board) = fake
        .wait_for(at, "the first board", |call| {
            call.delivered_to(GROUP) && is_board(call)
        })
        .await;
    let before = stored(&harness, &game).await;
    let known = board.message_id.expect("board id");

    for round in 0..200 {
        // Telegram fails now and then, as it does: flood control, a proxy's
        // error page, presses answered too late, a group that removed the bot.
        match round {
            40 => fake.fail_next("sendMessage", Failure::RetryAfter(1)),
            80 => fake.fail_next("sendPhoto", Failure::BadGateway),
            100 => fake.set_callback_deadline(std::time::Duration::ZERO),
            120 => fake.kick_bot_from(OTHER_GROUP),
            150 => fake.set_callback_deadline(CALLBACK_DEADLINE),
            _ => {}
        }
        let stranger = if fastrand::bool() { CAROL } else { DAVE };
        let chat = match fastrand::u8(..3) {
            0 => GROUP,
            1 => OTHER_GROUP,
            _ => stranger,
        };
        let on = if fastrand::bool() {
            known
        } else {
            fastrand::i64(-5..1_000)
        };
        match fastrand::u8(..4) {
            0 => {
                fake.say(chat, stranger, &random_text());
            }
            1 => {
                fake.reply(chat, stranger, &random_text(), on);
            }
            2 => {
                fake.press(chat, stranger, on, &random_text());
            }
            _ => {
                // The players press buttons that mean nothing.
                let player = if fastrand::bool() { ALICE } else { BOB };
                let data = format!("zz:{}", random_text());
                fake.press(GROUP, player, on, &data);
            }
        }
    }
    // Every update fetched (and so confirmed) by the bot.
    for _ in 0..1_200 {
        if fake.unconfirmed_updates() == 0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(fake.unconfirmed_updates(), 0, "seed {seed}: updates left");
    assert!(
        !harness.bot.is_finished(),
        "seed {seed}: the adapter stopped"
    );
    let answered = fake.calls()[at..]
        .iter()
        .filter(|call| call.method == "answerCallbackQuery")
        .count();
    assert!(answered > 0, "seed {seed}: presses were answered");
    // Refused only for what the test made Telegram refuse: nothing the bot
    // built was malformed (too long, empty, bad HTML, bad button data).
    for call in fake.calls() {
        if let Outcome::Rejected(why) = &call.outcome {
            assert!(
                why.contains("query is too old") || why.contains("kicked"),
                "seed {seed}: Telegram refused {}: {why}",
                call.method
            );
        }
    }
    assert_eq!(
        stored(&harness, &game).await,
        before,
        "seed {seed}: strangers changed the game"
    );

    let (white, black) = white_and_black(&before);
    let at = fake.calls().len();
    fake.say(GROUP, white, "/m e4");
    fake.wait_for(at, "the board after e4", |call| {
        call.delivered_to(GROUP) && is_board(call) && call.text().contains("e4")
    })
    .await;
    assert_eq!(stored(&harness, &game).await.moves, "e2e4", "seed {seed}");
    // And to its end, with Telegram still failing now and then: nothing is
    // lost and the mate is announced.
    fake.fail_next("sendPhoto", Failure::BadGateway);
    for (player, san) in [(black, "f6"), (white, "d4"), (black, "g5"), (white, "Qh5#")] {
        let at = fake.calls().len();
        fake.say(GROUP, player, &format!("/m {san}"));
        fake.wait_for(at, &format!("the board after {san}"), |call| {
            call.delivered_to(GROUP) && is_board(call) && call.text().contains(san)
        })
        .await;
    }
    let ended = stored(&harness, &game).await;
    assert_eq!(
        ended.moves.as_str().split_whitespace().count(),
        5,
        "seed {seed}"
    );
    assert_ne!(ended.status, before.status, "seed {seed}: the game ended");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_battle_game_is_set_up_with_the_inline_keyboard_of_the_private_board() {
    let harness = start("battle-setup", true).await;
    let fake = &harness.fake;
    let (game, _) = alice_challenges_bob(fake, "battle").await;
    for player in [ALICE, BOB] {
        let (at, board) = fake
            .wait_for(0, "a private setup board", |call| {
                call.delivered_to(player) && is_board(call)
            })
            .await;
        assert_eq!(
            board.button_data(),
            vec![
                format!("sr:{game}"),
                format!("sy:{game}"),
                format!("board:{game}"),
            ]
        );
        let at = set_up_at_random_and_ready(fake, player, &game, &board, at).await;
        fake.wait_for(at + 1, "ready", |call| {
            call.delivered_to(GROUP) && call.text().contains("is ready")
        })
        .await;
    }
    fake.wait_for(0, "the reveal", |call| {
        call.delivered_to(GROUP) && call.text().contains("both setups are revealed")
    })
    .await;
    let row = stored(&harness, &game).await;
    assert!(row.start_fen.is_some(), "play started");
    assert!(row.seats.iter().all(|seat| seat.ready));
}

/// Presses "random setup" under `player`'s private setup `board` of
/// `game` (sent at call `at`), then "ready" under the answer; returns the
/// answer's call index.
async fn set_up_at_random_and_ready(
    fake: &FakeTelegram,
    player: i64,
    game: &str,
    board: &Call,
    at: usize,
) -> usize {
    let message = board.message_id.expect("the board's message id");
    fake.press(player, player, message, &format!("sr:{game}"));
    let (at, placed) = fake
        .wait_for(at + 1, "the random setup", |call| {
            call.delivered_to(player) && call.text().contains("random setup was placed")
        })
        .await;
    assert!(placed.text().contains("is complete"), "{}", placed.text());
    let message = placed.message_id.expect("the answer's message id");
    fake.press(player, player, message, &format!("sy:{game}"));
    at
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_kriegspiel_game_is_played_in_private_and_refereed_in_the_group() {
    let harness = start("kriegspiel", true).await;
    let fake = &harness.fake;
    let (game, _) = alice_challenges_bob(fake, "kriegspiel").await;
    for player in [ALICE, BOB] {
        fake.wait_for(0, "a private board", |call| {
            call.delivered_to(player) && is_board(call)
        })
        .await;
    }
    let (white, black) = white_and_black(&stored(&harness, &game).await);
    let (w, b) = if white == ALICE {
        ("alice (white)", "bob (black)")
    } else {
        ("bob (white)", "alice (black)")
    };
    let heard =
        |text: String| move |call: &Call| call.delivered_to(GROUP) && call.text().contains(&text);

    fake.say(white, white, "e4");
    let (at, _) = fake
        .wait_for(
            0,
            "the referee: white has moved",
            heard(format!("{w} has moved")),
        )
        .await;
    let (_, told) = fake
        .wait_for(0, "black hears it", |call| {
            call.delivered_to(black) && call.text().contains(&format!("{w} has moved"))
        })
        .await;
    assert!(!told.text().replace(&game, "ID").contains("e4"));
    fake.say(black, black, "e5");
    let (at, _) = fake
        .wait_for(
            at + 1,
            "the referee: black has moved",
            heard(format!("{b} has moved")),
        )
        .await;
    fake.say(white, white, "e5");
    fake.wait_for(at + 1, "impossible, to white", |call| {
        call.delivered_to(white) && call.text().contains("is impossible")
    })
    .await;
    let (at, _) = fake
        .wait_for(
            at + 1,
            "the attempt, to all",
            heard(format!("{w} tried an impossible move")),
        )
        .await;
    fake.say(white, white, "d4");
    let (at, _) = fake
        .wait_for(
            at + 1,
            "white's second move",
            heard(format!("{w} has moved")),
        )
        .await;
    fake.say(black, black, "exd4");
    fake.wait_for(
        at + 1,
        "the capture square",
        heard(format!("{b} captures on d4")),
    )
    .await;
    assert_eq!(
        stored(&harness, &game).await.moves,
        "e2e4 e7e5 e4e5? d2d4 e5d4"
    );

    // The group heard the referee: no move, no board of a player.
    let calls = fake.calls();
    let private: Vec<&Vec<u8>> = calls
        .iter()
        .filter(|call| call.delivered_to(ALICE) || call.delivered_to(BOB))
        .filter_map(|call| call.upload.as_ref().map(|upload| &upload.bytes))
        .collect();
    assert!(private.len() >= 4, "{}", fake.describe_calls());
    for call in calls.iter().filter(|call| call.delivered_to(GROUP)) {
        if let Some(upload) = &call.upload {
            assert!(
                !private.contains(&&upload.bytes),
                "a private board reached the group"
            );
        }
        let text = call.text().replace(&game, "ID");
        for secret in ["e4", "e5", "exd4", "you played"] {
            assert!(!text.contains(secret), "the group saw {secret}: {text}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_against_the_computer_in_a_group() {
    let harness = start("computer", true).await;
    let fake = &harness.fake;
    fake.say(GROUP, ALICE, "/play chess computer level 2 white");
    let (at, board) = fake
        .wait_for(0, "the first board", |call| {
            call.delivered_to(GROUP) && is_board(call)
        })
        .await;
    assert!(board.text().contains("Kodex L2"), "{}", board.text());
    let game = game_named_in(&board);
    let mut at = at;
    for (ply, mv) in ["e4", "d4", "Nc3"].into_iter().enumerate() {
        fake.say(GROUP, ALICE, mv);
        let (next, _) = fake
            .wait_for(at + 1, "the computer's answer", |call| {
                call.delivered_to(GROUP) && call.text().contains("Kodex L2 played")
            })
            .await;
        at = next;
        assert_eq!(stored(&harness, &game).await.move_list().len(), 2 * ply + 2);
    }
}

/// Whole games against the computer in a group, to their end: chess,
/// fog of war (alice moves in her private chat; the group never hears the
/// computer's moves) and battle chess (alice sets up with the private
/// board's keyboard, the computer on its own). Alice plays seeded random
/// legal moves; the computer (level 4) wins, the game ends by the rules,
/// or alice resigns after sixty moves.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn whole_games_against_the_computer_in_a_group_end() {
    for variant in ["chess", "fogofwar", "battle"] {
        let harness = start(&format!("computer-{variant}"), true).await;
        let fake = &harness.fake;
        fake.say(
            GROUP,
            ALICE,
            &format!("/play {variant} computer level 4 white"),
        );
        let (_, started) = fake
            .wait_for(0, "the start", |call| {
                call.delivered_to(GROUP)
                    && (call.text().contains("starts") || call.text().contains("set up"))
            })
            .await;
        let game = game_named_in(&started);
        if variant == "battle" {
            let (at, board) = fake
                .wait_for(0, "the private setup board", |call| {
                    call.delivered_to(ALICE) && is_board(call)
                })
                .await;
            set_up_at_random_and_ready(fake, ALICE, &game, &board, at).await;
        }
        let hidden = variant == "fogofwar";
        let mut rng = fastrand::Rng::with_seed(7);
        let mut row = stored(&harness, &game).await;
        // Alice plays on for sixty moves at most, then resigns.
        for _ in 0..60 {
            // Wait for alice's turn (white: an even number of moves) or the end.
            row = row_when(&harness, &game, "the computer's answer", |row| {
                row.status.is_over() || (row.start_fen.is_some() && row.move_list().len() % 2 == 0)
            })
            .await;
            if row.status.is_over() {
                break;
            }
            let mv = a_legal_move(&harness, &game, &mut rng).await;
            let chat = if hidden { ALICE } else { GROUP };
            let before = row.move_list().len();
            fake.say(chat, ALICE, &mv);
            row = row_when(&harness, &game, &mv, |row| {
                row.move_list().len() != before || row.status.is_over()
            })
            .await;
        }
        if !row.status.is_over() {
            fake.say(GROUP, ALICE, "/resign");
            let (_, question) = fake
                .wait_for(0, "the resign question", |call| {
                    call.button_data().iter().any(|d| d.starts_with("rsg:"))
                })
                .await;
            let resign = question
                .button_data()
                .into_iter()
                .find(|d| d.starts_with("rsg:"))
                .expect("the resign button");
            let on = question.message_id.expect("the question's message id");
            let chat = question.chat_id().unwrap_or(GROUP);
            fake.press(chat, ALICE, on, &resign);
            row = row_when(&harness, &game, "the resignation", |row| {
                row.status.is_over()
            })
            .await;
        }
        assert!(row.result.is_some(), "{variant}");
        let told = format!("{game}: ");
        fake.wait_for(0, "the result in the group", |call| {
            call.delivered_to(GROUP) && call.text().contains(&told) && call.text().contains(" — ")
        })
        .await;
        let group: Vec<String> = fake
            .calls()
            .iter()
            .filter(|call| call.delivered_to(GROUP))
            .map(|call| call.text().to_owned())
            .collect();
        let computer_moves = group
            .iter()
            .filter(|t| t.contains("Kodex L4 played"))
            .count();
        if hidden {
            assert_eq!(
                computer_moves, 0,
                "{variant}: the group heard a hidden move"
            );
        } else if row.move_list().len() >= 2 {
            // (A battle game may end before the first move: a king in check
            // from the revealed setups loses at once.)
            assert!(
                computer_moves > 0,
                "{variant}: the group heard the computer: {} {:?} {:?}\n{}",
                row.moves,
                row.result,
                row.reason,
                fake.describe_calls()
            );
        }
        if variant == "battle" {
            assert!(
                group.iter().any(|t| t.contains("both setups are revealed")),
                "{variant}"
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_time_travel_game_with_a_jump_each_in_a_group() {
    let harness = start("timetravel", true).await;
    let fake = &harness.fake;
    let (game, at) = alice_challenges_bob(fake, "timetravel").await;
    let (_, _) = fake
        .wait_for(at, "the first board", |call| {
            call.delivered_to(GROUP) && is_board(call)
        })
        .await;
    let (white, black) = white_and_black(&stored(&harness, &game).await);
    let mut at = at;
    for (player, text) in [
        (white, "e4"),
        (black, "e5"),
        (white, "Nf3"),
        (black, "Nc6"),
        (white, "T-1:Nf3 d4"),
        (black, "T-1:e5 d6"),
    ] {
        fake.say(GROUP, player, text);
        let expected = if text.starts_with('T') {
            "travels in time"
        } else {
            "played"
        };
        let (next, _) = fake
            .wait_for(at + 1, text, |call| {
                call.delivered_to(GROUP) && call.text().contains(expected) && is_board(call)
            })
            .await;
        at = next;
    }
    let row = stored(&harness, &game).await;
    assert_eq!(row.moves, "e2e4 e7e5 g1f3 b8c6 t1f3 d2d4 t1e5 d7d6");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_timeline_of_a_time_travel_game_comes_as_one_photo() {
    let harness = start("timetravel", true).await;
    let fake = &harness.fake;
    let (game, at) = alice_challenges_bob(fake, "timetravel").await;
    let (mut at, _) = fake
        .wait_for(at, "the first board", |call| {
            call.delivered_to(GROUP) && is_board(call)
        })
        .await;
    let (white, black) = white_and_black(&stored(&harness, &game).await);
    for (player, text) in [(white, "e4"), (black, "e5"), (white, "T-1:e4 d4")] {
        fake.say(GROUP, player, text);
        let (next, _) = fake
            .wait_for(at + 1, text, |call| {
                call.delivered_to(GROUP) && is_board(call)
            })
            .await;
        at = next;
    }
    fake.say(GROUP, CAROL, &format!("/timeline {game}"));
    let (_, call) = fake
        .wait_for(at + 1, "the timeline picture", |call| {
            call.delivered_to(GROUP) && is_board(call) && call.text().contains("abandoned")
        })
        .await;
    let upload = call.upload.as_ref().expect("an image");
    assert_eq!(upload.field, "photo", "within Telegram's photo limits");
    let (width, height) = kodex_tests::image_header::image_size(&upload.bytes).expect("a PNG size");
    assert!(
        height > width,
        "the small board under the big one: {width}×{height}"
    );
    assert!(width + height <= 10_000);
    assert!(
        call.text().contains("the abandoned timeline"),
        "{}",
        call.text()
    );
}

/// `/lang chat ru` in a group: only its creator or an administrator (as
/// `getChatMember` says) changes the group's language; a member is told so
/// and nothing changes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_a_groups_admins_set_its_language() {
    let harness = start("lang-admin", true).await;
    let fake = &harness.fake;
    let group_lang = || async {
        harness
            .service
            .store()
            .lang(
                kodex_bot::store::LangOwner::Chat,
                "telegram",
                &GROUP.to_string(),
            )
            .await
            .expect("the store answers")
    };
    fake.say(GROUP, ALICE, "/lang chat ru");
    let (at, refusal) = fake
        .wait_for(0, "the refusal", |call| {
            call.delivered_to(ALICE) && call.text().contains("Only the chat's admins")
        })
        .await;
    assert!(
        fake.calls()[..at]
            .iter()
            .any(|call| call.method == "getChatMember" && call.chat_id() == Some(GROUP)),
        "Telegram was asked: {}",
        fake.describe_calls()
    );
    assert!(!refusal.text().is_empty());
    assert_eq!(group_lang().await, None, "nothing changed");

    for (person, status, lang) in [(ALICE, "administrator", "ru"), (BOB, "creator", "en")] {
        fake.set_status(GROUP, person, status);
        fake.say(GROUP, person, &format!("/lang chat {lang}"));
        fake.wait_for(at, "the confirmation", |call| {
            call.delivered_to(person) && call.text().contains("This chat's language is now")
        })
        .await;
        assert_eq!(group_lang().await.as_deref(), Some(lang), "{status}");
    }
    // In their private chat a person needs nobody's leave for their own language.
    fake.say(CAROL, CAROL, "/lang ru");
    fake.wait_for(at, "carol's own language", |call| {
        call.delivered_to(CAROL) && !call.text().is_empty()
    })
    .await;
}

/// `/settings board white` in a group: only its administrators change the
/// chat's board orientation; a member is told so and nothing changes, while
/// anyone may read the settings.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_a_groups_admins_change_its_settings() {
    let harness = start("settings-admin", true).await;
    let fake = &harness.fake;
    let orientation = || async {
        harness
            .service
            .store()
            .chat_setting("telegram", &GROUP.to_string(), "board-orientation")
            .await
            .expect("the store answers")
    };
    fake.say(GROUP, ALICE, "/settings board white");
    let (at, _) = fake
        .wait_for(0, "the refusal", |call| {
            call.delivered_to(ALICE)
                && call
                    .text()
                    .contains("Only the chat's admins can change its settings")
        })
        .await;
    assert_eq!(orientation().await, None, "nothing changed");
    fake.say(GROUP, BOB, "/settings");
    fake.wait_for(at, "the settings", |call| {
        call.delivered_to(BOB)
            && call
                .text()
                .contains("board: the player to move at the bottom")
    })
    .await;

    fake.set_status(GROUP, ALICE, "administrator");
    fake.say(GROUP, ALICE, "/settings board white");
    fake.wait_for(at, "the confirmation", |call| {
        call.delivered_to(ALICE) && call.text().contains("now have white always at the bottom")
    })
    .await;
    assert_eq!(orientation().await.as_deref(), Some("white"));
}

/// A fog-of-war move typed in the group is refused privately, and then
/// deleted where the bot is an administrator; elsewhere Telegram's refusal
/// ("message can't be deleted") is taken quietly and the game goes on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fog_move_typed_in_the_group_is_deleted_where_the_bot_is_admin() {
    let harness = start("fog-delete", true).await;
    let fake = &harness.fake;
    let (game, at) = alice_challenges_bob(fake, "fog").await;
    fake.wait_for(at, "a private board", |call| {
        call.delivered_to(ALICE) && is_board(call)
    })
    .await;
    let white = white_of(&stored(&harness, &game).await);
    let deletions = |message: i64| {
        fake.calls()
            .into_iter()
            .filter(|call| {
                call.method == "deleteMessage"
                    && call.params["message_id"].as_i64() == Some(message)
            })
            .map(|call| call.outcome)
            .collect::<Vec<Outcome>>()
    };

    let kept = fake.say(GROUP, white, "/m e4");
    fake.wait_for(at, "the refusal", |call| {
        call.delivered_to(white) && call.text().contains("private chat")
    })
    .await;
    fake.wait_for(at, "the attempt", |call| {
        call.method == "deleteMessage" && call.params["message_id"].as_i64() == Some(kept)
    })
    .await;
    assert!(
        matches!(deletions(kept).as_slice(), [Outcome::Rejected(why)] if why.contains("can't be deleted")),
        "{:?}",
        deletions(kept)
    );
    assert!(fake.message_exists(kept));

    fake.make_bot_admin(GROUP);
    let removed = fake.say(GROUP, white, "/m d4");
    fake.wait_for(at, "the deletion", |call| {
        call.method == "deleteMessage"
            && call.params["message_id"].as_i64() == Some(removed)
            && call.outcome == Outcome::Ok
    })
    .await;
    assert!(!fake.message_exists(removed));
    assert_eq!(stored(&harness, &game).await.moves, "", "no move was made");

    // The game goes on in private.
    fake.say(white, white, "e4");
    fake.wait_for(at, "white's board after e4", |call| {
        call.delivered_to(white) && is_board(call) && call.text().contains("e4")
    })
    .await;
}

/// A private answer Telegram will not deliver (the person never pressed
/// Start) is not posted in the group: the group gets a notice naming only
/// the person, with a deep link that opens the private chat, once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_private_answer_becomes_a_link_never_a_group_message() {
    let harness = start("note-link", false).await;
    let fake = &harness.fake;
    fake.say(GROUP, BOB, "/m e4");
    fake.say(GROUP, BOB, "/resign");
    let (at, notice) = fake
        .wait_for(0, "the notice", |call| {
            call.delivered_to(GROUP) && !call.button_urls().is_empty()
        })
        .await;
    assert_eq!(
        notice.button_urls(),
        vec!["https://t.me/KodexBot?start=hello".to_owned()]
    );
    assert!(notice.text().starts_with("@bob"), "{}", notice.text());
    // Both answers were tried privately and refused.
    let is_refused =
        |call: &Call| call.chat_id() == Some(BOB) && call.outcome == Outcome::Forbidden;
    let (first, _) = fake.wait_for(0, "the first refusal", is_refused).await;
    fake.wait_for(first + 1, "the second refusal", is_refused)
        .await;
    let refused: Vec<String> = fake
        .calls()
        .iter()
        .filter(|call| call.chat_id() == Some(BOB) && call.outcome == Outcome::Forbidden)
        .map(Call::text)
        .collect();
    assert_eq!(refused.len(), 2, "{}", fake.describe_calls());
    // Give a wrongly re-posted answer time to show up, then check none did.
    fake.say(GROUP, ALICE, "/variants");
    fake.wait_for(at, "alice's answer", |call| call.delivered_to(ALICE))
        .await;
    let group_texts: Vec<String> = fake
        .calls()
        .iter()
        .filter(|call| call.delivered_to(GROUP))
        .map(Call::text)
        .collect();
    assert_eq!(group_texts.len(), 1, "one notice only: {group_texts:#?}");
    for answer in &refused {
        assert!(
            !group_texts
                .iter()
                .any(|text| text.contains(answer.as_str())),
            "{answer:?} was posted in the group"
        );
    }
    // Following the link opens the chat; later answers arrive there.
    fake.say(BOB, BOB, "/start hello");
    fake.wait_for(at, "the help in bob's private chat", |call| {
        call.delivered_to(BOB)
    })
    .await;
}

/// The index of the first `sendChatAction` to `chat` with `action` at or
/// after call `from`.
fn chat_action_at(fake: &FakeTelegram, from: usize, chat: i64, action: &str) -> Option<usize> {
    fake.calls()
        .iter()
        .enumerate()
        .skip(from)
        .find(|(_, call)| {
            call.method == "sendChatAction"
                && call.chat_id() == Some(chat)
                && call.params["action"] == action
                && call.outcome == Outcome::Ok
        })
        .map(|(index, _)| index)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_latest_board_carries_the_games_keyboard_and_a_photo_is_announced_first() {
    let harness = start("keyboard", true).await;
    let fake = &harness.fake;
    let (game, at) = alice_challenges_bob(fake, "chess").await;
    let (first_at, first) = fake
        .wait_for(at, "the first board", |call| {
            call.delivered_to(GROUP) && is_board(call)
        })
        .await;
    // "Sending a photo…" shows while the board is drawn, before it is sent.
    let action = chat_action_at(fake, at, GROUP, "upload_photo").expect("a chat action");
    assert!(action < first_at, "{}", fake.describe_calls());
    // The keyboard of what applies now: no takeback before a move.
    let first_id = first.message_id.expect("the board's id");
    let keys = first.button_data();
    for data in [
        format!("draw:{game}"),
        format!("quit:{game}"),
        format!("board:{game}"),
    ] {
        assert!(keys.contains(&data), "{keys:?}");
    }
    assert!(!keys.iter().any(|data| data.starts_with("tb:")), "{keys:?}");

    let (white, black) = white_and_black(&stored(&harness, &game).await);
    fake.reply(GROUP, white, "e4", first_id);
    let (at, second) = fake
        .wait_for(first_at + 1, "the board after e4", |call| {
            call.delivered_to(GROUP) && is_board(call)
        })
        .await;
    let second_id = second.message_id.expect("the board's id");
    assert!(second.button_data().contains(&format!("tb:{game}")));
    // Only the latest board keeps the keyboard.
    fake.wait_for(at, "the old board's keyboard removed", |call| {
        call.method == "editMessageReplyMarkup" && call.params["message_id"] == first_id
    })
    .await;
    assert!(fake.buttons_now(first_id).is_empty());
    assert!(!fake.buttons_now(second_id).is_empty());

    // Black offers a draw from the board: the offer is posted, the
    // board keeps its keyboard.
    let offer = fake.press(GROUP, black, second_id, &format!("draw:{game}"));
    let (at, _) = fake.press_answer(at, &offer).await;
    fake.wait_for(at.saturating_sub(3), "the draw offer", |call| {
        call.delivered_to(GROUP) && call.button_data().contains(&format!("nodraw:{game}"))
    })
    .await;
    assert!(!fake.buttons_now(second_id).is_empty());

    // White resigns from the board: asked, confirmed; the game is over
    // and the last board has no keyboard left.
    resigns_from_the_board(fake, white, &game, second_id, at).await;
    assert!(fake.buttons_now(second_id).is_empty());
    // The game's animation is announced as a video on its way.
    fake.wait_for(at, "the animation", |call| {
        call.delivered_to(GROUP) && call.method == "sendAnimation"
    })
    .await;
    assert!(chat_action_at(fake, at, GROUP, "upload_video").is_some());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_restart_only_the_latest_board_keeps_the_keyboard_and_none_after_the_end() {
    let mut harness = start("keyboard-restart", true).await;
    let (game, at) = alice_challenges_bob(&harness.fake, "chess").await;
    let (first_at, first) = harness
        .fake
        .wait_for(at, "the first board", |call| {
            call.delivered_to(GROUP) && is_board(call)
        })
        .await;
    let first_id = first.message_id.expect("the board's id");
    assert!(!harness.fake.buttons_now(first_id).is_empty());
    harness.restart_adapter(&game, first_id).await;

    let fake = &harness.fake;
    let (white, _) = white_and_black(&stored(&harness, &game).await);
    fake.reply(GROUP, white, "e4", first_id);
    let (at, second) = fake
        .wait_for(first_at + 1, "the board after e4", |call| {
            call.delivered_to(GROUP) && is_board(call)
        })
        .await;
    let second_id = second.message_id.expect("the board's id");
    fake.wait_for(
        at,
        "the board from before the restart loses its keyboard",
        |call| call.method == "editMessageReplyMarkup" && call.params["message_id"] == first_id,
    )
    .await;
    assert!(fake.buttons_now(first_id).is_empty());
    assert!(!fake.buttons_now(second_id).is_empty());
    harness.restart_adapter(&game, second_id).await;

    // The game ends after another restart: no board keeps its keyboard.
    let fake = &harness.fake;
    let (_, black) = white_and_black(&stored(&harness, &game).await);
    resigns_from_the_board(fake, black, &game, second_id, at).await;
    let keyed: Vec<i64> = fake
        .calls()
        .iter()
        .filter(|call| call.delivered_to(GROUP) && is_board(call))
        .filter_map(|call| call.message_id)
        .filter(|id| {
            fake.buttons_now(*id)
                .iter()
                .any(|data| data.starts_with("draw:") || data.starts_with("quit:"))
        })
        .collect();
    assert!(
        keyed.is_empty(),
        "boards still offering draw or resign: {keyed:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reply_to_a_board_is_a_move_in_that_game_when_two_games_are_on_move() {
    let harness = start("reply-board", true).await;
    let fake = &harness.fake;
    fake.say(GROUP, BOB, "hi all");
    fake.say(GROUP, CAROL, "hello");
    let mut at = 0;
    let mut games = Vec::new();
    for opponent in [BOB, CAROL] {
        let name = if opponent == BOB { "bob" } else { "carol" };
        let play = format!("/play chess @{name} white");
        let (game, asked) = alice_challenges(fake, &play, opponent, at).await;
        let (shown, board) = fake
            .wait_for(asked, "the first board", |call| {
                call.delivered_to(GROUP) && is_board(call)
            })
            .await;
        assert_eq!(white_of(&stored(&harness, &game).await), ALICE);
        let board = board.message_id.expect("the board's id");
        harness.board_recorded(&game, board).await;
        games.push((game, board));
        at = shown + 1;
    }
    // Alice is on move in both games; each reply goes to its board's game.
    let (second_game, second_board) = games[1].clone();
    fake.reply(GROUP, ALICE, "e4", second_board);
    let plies = |row: &GameRow| row.moves.as_str().split_whitespace().count();
    row_when(&harness, &second_game, "e4 in the second game", |row| {
        plies(row) == 1
    })
    .await;
    assert_eq!(plies(&stored(&harness, &games[0].0).await), 0);
    let (first_game, first_board) = games[0].clone();
    fake.reply(GROUP, ALICE, "d4", first_board);
    row_when(&harness, &first_game, "d4 in the first game", |row| {
        plies(row) == 1
    })
    .await;
    assert_eq!(plies(&stored(&harness, &second_game).await), 1);
    assert!(
        !fake
            .calls()
            .iter()
            .any(|call| call.text().contains("several games")),
        "{}",
        fake.describe_calls()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_deep_link_prompt_is_in_the_groups_language() {
    let harness = start("group-lang", false).await;
    let fake = &harness.fake;
    fake.set_status(GROUP, ALICE, "administrator");
    fake.say(GROUP, ALICE, "/lang chat ru");
    fake.wait_for(0, "the group's language set", |call| {
        call.delivered_to(GROUP) || call.delivered_to(ALICE)
    })
    .await;
    alice_challenges_bob(fake, "fog").await;
    let (_, link) = fake
        .wait_for(0, "Bob's deep link", |call| {
            call.delivered_to(GROUP) && !call.button_urls().is_empty()
        })
        .await;
    assert!(link.text().starts_with("@bob"), "{}", link.text());
    assert!(
        link.text().contains("ваша доска видна только вам"),
        "{}",
        link.text()
    );
    let labels: Vec<String> = link.params["reply_markup"]["inline_keyboard"][0]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|button| button["text"].as_str().map(str::to_owned))
        .collect();
    assert_eq!(labels, ["Открыть мою доску"]);
}

/// Waits from call `at` for the question "Resign game …?" in the group and
/// lets `player` press its confirmation; returns the question's index.
async fn confirms_resignation(fake: &FakeTelegram, player: i64, at: usize) -> usize {
    let (at, question) = fake
        .wait_for(at, "the resignation question", |call| {
            call.delivered_to(GROUP) && call.button_data().iter().any(|d| d.starts_with("rsg:"))
        })
        .await;
    let confirm = question
        .button_data()
        .into_iter()
        .find(|data| data.starts_with("rsg:"))
        .expect("the confirmation");
    fake.press(GROUP, player, question.message_id.expect("id"), &confirm);
    at
}

/// Alice (whoever has white) resigns the game by the confirm button: the
/// result message, with its buttons.
/// `player` presses Resign on `board` of `game` and confirms; returns once the
/// result is posted and `board` has lost its keyboard.
async fn resigns_from_the_board(
    fake: &FakeTelegram,
    player: i64,
    game: &str,
    board: i64,
    at: usize,
) {
    fake.press(GROUP, player, board, &format!("quit:{game}"));
    let at = confirms_resignation(fake, player, at).await;
    fake.wait_for(at, "the result", |call| {
        call.delivered_to(GROUP) && call.text().contains("resign")
    })
    .await;
    fake.wait_for(at, "the last keyboard removed", |call| {
        call.method == "editMessageReplyMarkup" && call.params["message_id"] == board
    })
    .await;
}

async fn white_resigns(harness: &Harness, game: &str, at: usize) -> (usize, Call) {
    let fake = &harness.fake;
    let white = white_of(&stored(harness, game).await);
    let (at, question) = {
        fake.say(GROUP, white, "/resign");
        fake.wait_for(at, "the resign question", |call| {
            call.is_send() && call.button_data().iter().any(|d| d.starts_with("rsg:"))
        })
        .await
    };
    let resign = question
        .button_data()
        .into_iter()
        .find(|data| data.starts_with("rsg:"))
        .expect("the resign button");
    fake.press(GROUP, white, question.message_id.expect("id"), &resign);
    fake.wait_for(at, "the result", |call| {
        call.delivered_to(GROUP) && call.text().contains("resigned")
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_button_offers_the_other_colours_and_the_opponent_accepts() {
    let harness = start("rematch", true).await;
    let fake = &harness.fake;
    let (game, at) = alice_challenges_bob(fake, "chess").await;
    let (at, _) = fake
        .wait_for(at, "the first board", |call| {
            call.delivered_to(GROUP) && is_board(call)
        })
        .await;
    let (white, black) = white_and_black(&stored(&harness, &game).await);
    let (at, result) = white_resigns(&harness, &game, at).await;
    let again = format!("again:{game}");
    assert!(
        result.button_data().contains(&again),
        "{}",
        fake.describe_calls()
    );
    fake.press(GROUP, white, result.message_id.expect("id"), &again);
    let (at, offer) = fake
        .wait_for(at, "the rematch offer", |call| {
            call.delivered_to(GROUP)
                && call.text().contains("rematch")
                && challenge_id(call).is_some()
        })
        .await;
    let rematch = challenge_id(&offer).expect("the rematch id");
    assert_ne!(rematch, game);
    // The one who asked cannot accept for the other.
    let own = fake.press(
        GROUP,
        white,
        offer.message_id.expect("id"),
        &format!("acc:{rematch}"),
    );
    let (at, answer) = fake.press_answer(at, &own).await;
    assert!(answer.is_some_and(|text| !text.is_empty()));
    fake.press(
        GROUP,
        black,
        offer.message_id.expect("id"),
        &format!("acc:{rematch}"),
    );
    fake.wait_for(at, "the rematch's first board", |call| {
        call.delivered_to(GROUP) && is_board(call) && call.text().contains(&rematch)
    })
    .await;
    let row = stored(&harness, &rematch).await;
    assert_eq!(
        (row.player_id(0), row.player_id(1)),
        (Some(&*black.to_string()), Some(&*white.to_string())),
        "colours swapped"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_group_and_a_private_chat_watch_a_game() {
    const OTHER_GROUP: i64 = -100_400;
    let harness = start("watch", true).await;
    let fake = &harness.fake;
    fake.add_group(OTHER_GROUP, "Spectators");
    let (game, at) = alice_challenges_bob(fake, "chess").await;
    let (at, start_board) = fake
        .wait_for(at, "the first board", |call| {
            call.delivered_to(GROUP) && is_board(call)
        })
        .await;
    fake.say(OTHER_GROUP, CAROL, &format!("/watch {game}"));
    let (at, _) = fake
        .wait_for(at, "the watch confirmation", |call| {
            call.delivered_to(OTHER_GROUP) && call.text().contains("Watching game")
        })
        .await;
    // The Watch button of the start message: carol privately.
    let watch = format!("watch:{game}");
    assert!(
        start_board.button_data().contains(&watch),
        "{}",
        fake.describe_calls()
    );
    fake.press(GROUP, CAROL, start_board.message_id.expect("id"), &watch);
    fake.wait_for(at, "carol's confirmation, privately", |call| {
        call.delivered_to(CAROL) && call.text().contains(&format!("Watching game {game}"))
    })
    .await;

    let white = white_of(&stored(&harness, &game).await);
    fake.say(GROUP, white, "/m e4");
    fake.wait_for(at, "the move in the other group", |call| {
        call.delivered_to(OTHER_GROUP) && is_board(call) && call.text().contains("e4")
    })
    .await;
    fake.wait_for(at, "the move in carol's private chat", |call| {
        call.delivered_to(CAROL) && is_board(call) && call.text().contains("e4")
    })
    .await;
    fake.say(OTHER_GROUP, CAROL, &format!("/unwatch {game}"));
    fake.wait_for(at, "the unwatch confirmation", |call| {
        call.delivered_to(OTHER_GROUP) && call.text().contains("No longer watching")
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_correspondence_player_is_reminded_in_their_private_chat() {
    let harness = start("reminder", true).await;
    let fake = &harness.fake;
    let (game, at) = alice_challenges_bob(fake, "chess 1d").await;
    let (at, _) = fake
        .wait_for(at, "the first board", |call| {
            call.delivered_to(GROUP) && is_board(call)
        })
        .await;
    let (white, black) = white_and_black(&stored(&harness, &game).await);
    // 19 hours of a day per move: a quarter is left.
    harness.time.advance(19 * 3_600_000);
    assert_eq!(harness.service.tick().await, 1);
    fake.wait_for(at, "the reminder", |call| {
        call.delivered_to(white) && call.text().contains(&format!("⏰ Game {game}"))
    })
    .await;
    harness.time.advance(3_600_000);
    assert_eq!(harness.service.tick().await, 0, "once");
    assert!(
        !fake
            .calls()
            .iter()
            .any(|call| call.delivered_to(black) && call.text().contains("⏰")),
        "{}",
        fake.describe_calls()
    );
    assert!(
        !fake
            .calls()
            .iter()
            .any(|call| call.delivered_to(GROUP) && call.text().contains("⏰")),
        "never in the group"
    );
}

/// Width of a board photo, decoded from its PNG header.
fn photo_width(call: &Call) -> u32 {
    let upload = call.upload.as_ref().expect("a photo");
    kodex_tests::image_header::image_size(&upload.bytes)
        .expect("a PNG size")
        .0
}

/// The width of one board of `variant` in a game alice starts and aborts;
/// and the index of the last call.
async fn one_board_width(fake: &FakeTelegram, variant: &str) -> (u32, usize) {
    let (single, at) = alice_challenges_bob(fake, variant).await;
    let (at, board) = fake
        .wait_for(at, "one board", |call| {
            call.delivered_to(GROUP) && is_board(call)
        })
        .await;
    fake.say(GROUP, ALICE, &format!("/abort {single}"));
    let (at, _) = fake
        .wait_for(at + 1, "the abort", |call| {
            call.delivered_to(GROUP) && call.text().contains("aborted")
        })
        .await;
    (photo_width(&board), at)
}

/// Alice says `play` (a team challenge with open seats, she on seat 1);
/// bob, carol and dave take seats 2, 3 and 4 with the inline keyboard.
/// The game id and the index of the last call.
async fn seats_taken_by_keyboard(fake: &FakeTelegram, play: &str, at: usize) -> (String, usize) {
    fake.say(GROUP, ALICE, play);
    let (mut at, seats) = fake
        .wait_for(at + 1, "the seats", |call| {
            call.delivered_to(GROUP) && call.button_data().iter().any(|d| d.starts_with("seat:"))
        })
        .await;
    let game = seats
        .button_data()
        .iter()
        .find_map(|data| {
            data.strip_prefix("seat:")?
                .split(':')
                .next()
                .map(str::to_owned)
        })
        .expect("a game id");
    let message = seats.message_id.expect("the seats message");
    for (person, seat, name) in [(BOB, 1, "bob"), (CAROL, 2, "carol"), (DAVE, 3, "dave")] {
        fake.press(GROUP, person, message, &format!("seat:{game}:{seat}"));
        let (next, _) = fake
            .wait_for(at + 1, name, |call| {
                call.delivered_to(GROUP) && call.text().contains(name)
            })
            .await;
        at = next;
    }
    (game, at)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bughouse_game_is_played_to_a_drop_mate_with_both_boards_in_every_photo() {
    let harness = start("bughouse", true).await;
    let fake = &harness.fake;
    fake.add_person(DAVE, "dave", "en", true);
    // One crazyhouse board alone, to measure the pair against.
    let (one_board, at) = one_board_width(fake, "crazyhouse").await;

    // Open seats, taken with the inline keyboard.
    let (game, at) = seats_taken_by_keyboard(fake, "/play bughouse 5+0 white", at).await;
    let (mut at, start) = fake
        .wait_for(at, "the start", |call| {
            call.delivered_to(GROUP) && is_board(call) && call.text().contains("Bughouse game")
        })
        .await;
    let pair = photo_width(&start);
    assert!(
        pair > 2 * one_board && pair <= 2 * one_board + one_board / 4,
        "two boards side by side: {pair} px, one board {one_board} px"
    );
    // Dave takes carol's queen on board B; alice drops it on board A.
    for (person, mv, told) in [
        (ALICE, "e4", "alice played e4"),
        (CAROL, "e4", "carol played e4"),
        (BOB, "f5", "bob played f5"),
        (DAVE, "d5", "dave played d5"),
        (CAROL, "Qg4", "carol played Qg4"),
        (ALICE, "Bc4", "alice played Bc4"),
        (BOB, "a6", "bob played a6"),
        (DAVE, "Bxg4", "alice gets a queen"),
        // (Telegram names people by their @username.)
        (ALICE, "Q@f7", "@alice & @dave win"),
    ] {
        fake.say(GROUP, person, mv);
        let (next, photo) = fake
            .wait_for(at + 1, told, |call| {
                call.delivered_to(GROUP) && is_board(call) && call.text().contains(told)
            })
            .await;
        assert_eq!(photo_width(&photo), pair, "{mv}: both boards");
        at = next;
    }
    let board_a = stored(&harness, &game).await;
    let board_b = stored(&harness, board_a.linked_id.as_deref().expect("board B")).await;
    for row in [&board_a, &board_b] {
        assert_eq!(
            row.result,
            Some(GameResult::Win { team: Team(0) }),
            "{}",
            row.id
        );
    }
}

/// Bughouse in a group on a one-minute clock: bob's flag on board A ends
/// board B too, for the teams, and the group sees it with both boards.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flag_on_one_bughouse_board_ends_both_boards_in_the_group() {
    let harness = start("bughouse-flag", true).await;
    let fake = &harness.fake;
    fake.add_person(DAVE, "dave", "en", true);
    let (game, at) = seats_taken_by_keyboard(fake, "/play bughouse 1+0 white", 0).await;
    let (mut at, start) = fake
        .wait_for(at, "the start", |call| {
            call.delivered_to(GROUP) && is_board(call) && call.text().contains("Bughouse game")
        })
        .await;
    let pair = photo_width(&start);
    // Bob's clock on board A starts 10 s before dave's on board B.
    for (person, mv, told) in [
        (ALICE, "e4", "alice played e4"),
        (CAROL, "e4", "carol played e4"),
    ] {
        fake.say(GROUP, person, mv);
        let (next, _) = fake
            .wait_for(at + 1, told, |call| {
                call.delivered_to(GROUP) && call.text().contains(told)
            })
            .await;
        at = next;
        if person == ALICE {
            harness.time.advance(10_000);
        }
    }
    // A minute after alice's move: bob's flag falls, dave has 9 s left.
    harness.time.advance(51_000);
    harness.service.tick().await;
    let (at, flag) = fake
        .wait_for(at + 1, "the flag", |call| {
            call.delivered_to(GROUP)
                && is_board(call)
                && call.text().contains("ran out of time on board A")
        })
        .await;
    assert!(
        flag.text().contains("@alice & @dave win"),
        "{}",
        flag.text()
    );
    assert_eq!(photo_width(&flag), pair, "both boards");
    let board_a = stored(&harness, &game).await;
    let board_b = stored(&harness, board_a.linked_id.as_deref().expect("board B")).await;
    for row in [&board_a, &board_b] {
        assert_eq!(row.status, Status::Finished, "{}", row.id);
        assert_eq!(
            row.result,
            Some(GameResult::Win { team: Team(0) }),
            "{}",
            row.id
        );
    }
    // Dave's board is over too: his move is not played.
    fake.say(GROUP, DAVE, "/move e5");
    fake.wait_for(at + 1, "the refusal", |call| {
        call.delivered_to(GROUP) || call.delivered_to(DAVE)
    })
    .await;
    assert!(
        !fake
            .calls()
            .iter()
            .any(|call| call.text().contains("dave played")),
        "{}",
        fake.describe_calls()
    );
}

/// Four-handed chess in a group: four people take the seats with the inline
/// keyboard, type their moves, and every move posts the 14×14 cross; black-1,
/// mated, passes without typing and the king is taken, and the white team
/// wins by mating the second black king.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_four_handed_game_is_played_by_four_people_to_a_team_win() {
    let harness = start("fourplayer", true).await;
    let fake = &harness.fake;
    fake.add_person(DAVE, "dave", "en", true);
    // One ordinary board, to measure the cross against.
    let (eight, at) = one_board_width(fake, "chess").await;

    let (game, at) = seats_taken_by_keyboard(fake, "/play fourplayer 5+0 white", at).await;
    let (mut at, start) = fake
        .wait_for(at, "the start", |call| {
            call.delivered_to(GROUP) && is_board(call)
        })
        .await;
    let cross =
        kodex_tests::image_header::image_size(&start.upload.as_ref().expect("a photo").bytes)
            .expect("a PNG size");
    // The 14×14 cross: 14 squares of 48 px where chess has 8 of 80 px
    // (kodex_render::square_size_for), each with a margin of coordinates,
    // and taller than wide, for the strips of four players.
    let margin = |width: u32, squares: u32| width.checked_sub(squares).filter(|m| *m < 60);
    assert!(margin(eight, 8 * 80).is_some(), "a chess board {eight} px");
    assert!(
        margin(cross.0, 14 * 48).is_some(),
        "the cross {} px, a chess board {eight} px",
        cross.0
    );
    assert!(cross.1 > cross.0, "{cross:?}");
    for (person, mv, told) in [
        (ALICE, "h3", "alice played h3"),
        (BOB, "i12", "bob played i12"),
        (CAROL, "d7", "carol played d7"),
        (DAVE, "m4", "dave played m4"),
        (ALICE, "Ql5", "alice played Ql5"),
        (BOB, "k11", "bob played k11"),
        (CAROL, "Qad5", "carol played Qad5"),
        (DAVE, "m6", "dave played m6"),
        (ALICE, "Ql11", "bob (black) is checkmated and passes"),
        (CAROL, "Qxh14", "carol played Qxh14"),
        (DAVE, "m11", "dave played m11"),
        (ALICE, "Kh2", "alice played Kh2"),
        (BOB, "g12", "bob played g12"),
        (CAROL, "Qm5", "(white) wins"),
    ] {
        fake.say(GROUP, person, mv);
        let (next, photo) = fake
            .wait_for(at + 1, told, |call| {
                call.delivered_to(GROUP) && is_board(call) && call.text().contains(told)
            })
            .await;
        assert_eq!(photo_width(&photo), cross.0, "{mv}: the cross");
        at = next;
    }
    let row = stored(&harness, &game).await;
    assert_eq!(row.result, Some(GameResult::Win { team: Team(0) }));
    assert!(row.move_list().contains(&"k11h14"), "the mated king taken");
}

/// `call` ends with a line mentioning `who` (the one it asks to act), and
/// its only text mention (a mention by id) is theirs, if any: names with
/// an `@username` in the text mention their holders already.
fn asks(call: &Call, who: kodex_tests::fake_telegram::rules::Mentioned) {
    use kodex_tests::fake_telegram::rules::{mentions, Mentioned};
    let text = call.text();
    let html = call.params["parse_mode"].as_str() == Some("HTML");
    let last_line = text.lines().last().unwrap_or_default();
    assert_eq!(mentions(last_line, html), vec![who.clone()], "{text}");
    let by_id: Vec<Mentioned> = call
        .mentions()
        .into_iter()
        .filter(|m| matches!(m, Mentioned::User(_)))
        .collect();
    let expected: Vec<Mentioned> = match who {
        Mentioned::User(_) => vec![who],
        Mentioned::Username(_) => Vec::new(),
    };
    assert_eq!(by_id, expected, "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn group_messages_mention_who_must_act_by_username_or_by_a_text_mention() {
    use kodex_tests::fake_telegram::rules::Mentioned;
    let harness = start("mentions", true).await;
    let fake = &harness.fake;
    // Dave has no username: only a text mention notifies him.
    fake.add_person(DAVE, "", "en", true);
    fake.set_first_name(DAVE, "Dave <D&D>");
    let hello = fake.say(GROUP, DAVE, "hi all");
    // Alice challenges him by replying to his message, playing white.
    fake.reply(GROUP, ALICE, "/play chess white", hello);
    let (at, challenge) = fake
        .wait_for(0, "the challenge", |call| {
            call.delivered_to(GROUP) && challenge_id(call).is_some()
        })
        .await;
    asks(&challenge, Mentioned::User(DAVE));
    assert!(
        challenge.visible_text().contains("Dave <D&D>"),
        "the name shows, escaped: {}",
        challenge.text()
    );
    let game = challenge_id(&challenge).expect("a game id");
    fake.press(
        GROUP,
        DAVE,
        challenge.message_id.expect("challenge id"),
        &format!("acc:{game}"),
    );
    // The start: Alice (white, with a username) is to move.
    let (at, start) = fake
        .wait_for(at + 1, "the first board", |call| {
            call.delivered_to(GROUP) && is_board(call)
        })
        .await;
    asks(&start, Mentioned::Username("alice".into()));
    fake.say(GROUP, ALICE, "/m e4");
    let (at, after_e4) = fake
        .wait_for(at + 1, "the board after e4", |call| {
            call.delivered_to(GROUP) && is_board(call) && call.visible_text().contains("e4")
        })
        .await;
    asks(&after_e4, Mentioned::User(DAVE));
    // Dave offers a draw: Alice is asked, and mentioned.
    fake.say(GROUP, DAVE, "/draw");
    let (_, offer) = fake
        .wait_for(at + 1, "the draw offer", |call| {
            call.delivered_to(GROUP) && call.button_data().iter().any(|d| d.starts_with("nodraw:"))
        })
        .await;
    asks(&offer, Mentioned::Username("alice".into()));
    // Nobody is mentioned in a private chat.
    for call in fake.calls().iter().filter(|call| call.is_send()) {
        if call.chat_id().is_some_and(|chat| chat > 0) {
            assert!(call.mentions().is_empty(), "{}", call.text());
        }
    }
}

/// A legal move (seeded random) for the side to move in `game` as stored.
async fn a_legal_move(harness: &Harness, game: &str, rng: &mut fastrand::Rng) -> String {
    let row = stored(harness, game).await;
    let variant = harness
        .service
        .registry()
        .get(&row.variant)
        .expect("the variant")
        .clone();
    let position = kodex_engine::Game::replay(
        &variant,
        row.start_fen.as_deref().unwrap_or(""),
        &row.move_list(),
    )
    .expect("the game replays");
    let moves = position.legal_moves();
    position.uci(moves[rng.usize(..moves.len())])
}

/// Every 429 the fake answered was waited out: the group got nothing more
/// before the time it asked for, and what it refused arrived later.
fn every_flood_refusal_was_waited_out(fake: &FakeTelegram) -> usize {
    let calls = fake.calls();
    let mut refusals = 0;
    for (index, call) in calls.iter().enumerate() {
        let Outcome::Failed(Failure::RetryAfter(seconds)) = call.outcome else {
            continue;
        };
        refusals += 1;
        let chat = call.chat_id();
        let wait = std::time::Duration::from_secs(u64::from(seconds));
        if let Some(next) = calls[index + 1..]
            .iter()
            .find(|later| later.is_send() && later.chat_id() == chat)
        {
            assert!(
                next.at + std::time::Duration::from_millis(20) >= call.at + wait,
                "sent {:?} after a 429 asking for {seconds} s\n{}",
                next.at - call.at,
                fake.describe_calls()
            );
        }
        assert!(
            calls[index + 1..]
                .iter()
                .any(|later| later.method == call.method
                    && later.outcome == Outcome::Ok
                    && later.chat_id() == chat
                    && later.text() == call.text()),
            "a message refused with 429 was lost: {:?}\n{}",
            call.text(),
            fake.describe_calls()
        );
    }
    refusals
}

/// How long after `since` the group got the first message `matches`
/// picks, from call `from` on.
async fn group_answer_within(
    fake: &FakeTelegram,
    from: usize,
    since: std::time::Instant,
    what: &str,
    matches: impl Fn(&Call) -> bool,
) -> (usize, Call, std::time::Duration) {
    let (index, call) = fake
        .wait_for(from, what, |call| call.delivered_to(GROUP) && matches(call))
        .await;
    let waited = call.at.saturating_duration_since(since);
    (index, call, waited)
}

/// How many messages the group got from call `from` on.
fn group_messages_since(fake: &FakeTelegram, from: usize) -> usize {
    fake.calls()[from..]
        .iter()
        .filter(|call| call.delivered_to(GROUP))
        .count()
}

/// Plays alice's moves against the computer (level 6) in the group as fast
/// as the bot answers (her next move once the group has the computer's),
/// for `turns` turns; returns the call index after the last answer.
async fn play_fast(
    harness: &Harness,
    game: &str,
    turns: usize,
    rng: &mut fastrand::Rng,
    from: usize,
    per_turn: &mut Vec<usize>,
) -> usize {
    let fake = &harness.fake;
    let mut at = from;
    for _ in 0..turns {
        let row = stored(harness, game).await;
        if row.status.is_over() {
            break;
        }
        let before = row.move_list().len();
        let mv = a_legal_move(harness, game, rng).await;
        fake.say(GROUP, ALICE, &mv);
        let (next, _) = fake
            .wait_for(at, "the computer's move in the group", |call| {
                call.delivered_to(GROUP)
                    && (call.text().contains("Kodex L6 played") || call.text().contains(" — "))
            })
            .await;
        per_turn.push(group_messages_since(fake, at));
        at = next + 1;
        let row = stored(harness, game).await;
        assert!(row.move_list().len() > before || row.status.is_over());
    }
    at
}

/// Telegram takes about 20 messages a minute in a group; against the
/// computer the bot reaches that within a few moves. Here the computer is
/// level 6, which thinks 0.8 s a move: too long for alice's move to wait
/// for it (see `a_move_and_the_computers_quick_answer_…`), so its boards come
/// on their own, as messages nobody waits for. The fake is as strict
/// (429 beyond it) and the adapter keeps the production limits: every 429
/// is waited out and nothing is lost, and the answers to alice's own
/// actions (the /resign question, then the result of her resignation)
/// reach the group within 2 s, though the computer's boards are queued.
/// Alice plays `turns` turns, asking /resign after every eighth (and
/// playing on), and resigns at the end; returns how many questions she
/// asked and how many of them overtook the computer's board queued before
/// them.
async fn resign_within_two_seconds_in_a_flooded_group(turns: usize) -> (usize, usize) {
    let harness = start_strict(&format!("flood-{turns}")).await;
    let fake = &harness.fake;
    fake.say(GROUP, ALICE, "/play chess computer level 6 white");
    let (at, board) = fake
        .wait_for(0, "the first board", |call| {
            call.delivered_to(GROUP) && is_board(call)
        })
        .await;
    let game = game_named_in(&board);
    let mut rng = fastrand::Rng::with_seed(30);
    let mut per_turn = Vec::new();
    let mut longest = std::time::Duration::ZERO;
    let mut at = at + 1;
    let mut played = 0;
    let mut asked_questions = 0;
    let mut overtook = 0;
    while played < turns {
        let stretch = (turns - played).min(8);
        at = play_fast(&harness, &game, stretch, &mut rng, at, &mut per_turn).await;
        played += stretch;
        if stored(&harness, &game).await.status.is_over() {
            break;
        }
        // A move; once its board is in the group and the computer has
        // answered, /resign: the computer's board is on its way (or held
        // while the group's minute is full) as the question is asked.
        let mv = a_legal_move(&harness, &game, &mut rng).await;
        fake.say(GROUP, ALICE, &mv);
        fake.wait_for(at, "alice's move in the group", |call| {
            call.delivered_to(GROUP) && call.text().contains("@alice played")
        })
        .await;
        let row = row_when(&harness, &game, "the computer's answer", |row| {
            row.move_list().len() % 2 == 0 || row.status.is_over()
        })
        .await;
        if row.status.is_over() {
            // Mated by the computer's answer: nothing to resign.
            break;
        }
        let asked = std::time::Instant::now();
        fake.say(GROUP, ALICE, "/resign");
        asked_questions += 1;
        let (index, question, waited) =
            group_answer_within(fake, at, asked, "the resign question", |call| {
                call.button_data()
                    .iter()
                    .any(|data| data.starts_with("rsg:"))
            })
            .await;
        longest = longest.max(waited);
        assert!(
            waited <= std::time::Duration::from_secs(2),
            "the question waited {waited:?}\n{}",
            timeline(fake, asked)
        );
        // The computer's last board, queued before the question, came after it.
        let ply = stored(&harness, &game).await.move_list().len();
        let computers = format!("{game}-{ply}.png");
        if fake.calls()[..index].iter().all(|call| {
            !call.delivered_to(GROUP)
                || call
                    .upload
                    .as_ref()
                    .and_then(|upload| upload.file_name.as_deref())
                    != Some(computers.as_str())
        }) {
            overtook += 1;
        }
        if played >= turns {
            let resign = question
                .button_data()
                .into_iter()
                .find(|data| data.starts_with("rsg:"))
                .expect("the resign button");
            let pressed = std::time::Instant::now();
            fake.press(GROUP, ALICE, question.message_id.expect("its id"), &resign);
            let (_, _, waited) =
                group_answer_within(fake, index, pressed, "the resignation", |call| {
                    call.text().contains("resigned")
                })
                .await;
            longest = longest.max(waited);
            assert!(
                waited <= std::time::Duration::from_secs(2),
                "the result waited {waited:?}\n{}",
                timeline(fake, pressed)
            );
        } else {
            let keep = format!("keep:{game}");
            fake.press(GROUP, ALICE, question.message_id.expect("its id"), &keep);
            // Wait for the computer's board to reach the group again.
            let (next, _) = fake
                .wait_for(at, "the computer's move in the group", |call| {
                    call.delivered_to(GROUP) && call.text().contains("Kodex L6 played")
                })
                .await;
            at = next.max(index) + 1;
        }
    }
    let row = row_when(&harness, &game, "the end", |row| row.status.is_over()).await;
    assert!(row.result.is_some());
    // (Alice may have been mated before she could resign.)
    let (result, _) = fake
        .wait_for(0, "the result", |call| {
            call.delivered_to(GROUP) && call.text().contains(" — ")
        })
        .await;
    // No board after the result offers the game's buttons.
    let calls = fake.calls();
    for call in calls[result..]
        .iter()
        .filter(|call| call.delivered_to(GROUP))
    {
        assert!(
            !call
                .button_data()
                .iter()
                .any(|data| data.starts_with("draw:") || data.starts_with("quit:")),
            "{}",
            fake.describe_calls()
        );
    }
    let refusals = every_flood_refusal_was_waited_out(fake);
    let sends = fake
        .calls()
        .iter()
        .filter(|call| call.delivered_to(GROUP))
        .count();
    eprintln!(
        "flood test: {} turns, group messages per turn {per_turn:?}, {sends} group messages, \
         {refusals} answered 429, longest wait of an answer {longest:?}, \
         {overtook} questions overtook the computer's board",
        per_turn.len()
    );
    (asked_questions, overtook)
}

/// A few turns (about 10 s): the question and the result come at once
/// while the computer's board waits for the group's second.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answers_overtake_the_computers_boards_in_a_flood_limited_group() {
    resign_within_two_seconds_in_a_flooded_group(3).await;
}

/// Sixteen turns (a minute or two: the group's minute fills), a question
/// every eighth turn (unless the game ended first); each overtakes the
/// computer's board.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a minute or two of Telegram's flood limits; run with --ignored"]
async fn a_long_game_in_a_flood_limited_group_keeps_answers_at_once() {
    let (asked, overtook) = resign_within_two_seconds_in_a_flooded_group(16).await;
    assert!(asked >= 1 && overtook == asked, "{overtook} of {asked}");
}

/// A game against the computer (level 1) in a group that takes 20
/// messages a minute, as Telegram's do, with the adapter's production
/// limits: each of alice's moves and the computer's quick answer come as
/// one photo, whose caption says both moves and that it is alice's turn
/// again, under 2 s after her move; then her resignation is asked about and
/// answered within 2 s each, and nothing is ever refused with a 429.
/// Alice plays `turns` turns, each at least `pace` after the last (a
/// person reading the board), and resigns; returns the seconds each turn's
/// board took.
async fn one_photo_a_turn_against_the_computer(
    turns: usize,
    pace: std::time::Duration,
) -> Vec<f64> {
    let harness = start_strict(&format!("joined-{turns}")).await;
    let fake = &harness.fake;
    fake.say(GROUP, ALICE, "/play chess computer level 1 white");
    let (at, board) = fake
        .wait_for(0, "the first board", |call| {
            call.delivered_to(GROUP) && is_board(call)
        })
        .await;
    let game = game_named_in(&board);
    let mut rng = fastrand::Rng::with_seed(6);
    let mut at = at + 1;
    let mut waits = Vec::new();
    for _ in 0..turns {
        let row = stored(&harness, &game).await;
        if row.status.is_over() {
            break;
        }
        let before = row.move_list().len();
        let mv = a_legal_move(&harness, &game, &mut rng).await;
        let moved = std::time::Instant::now();
        fake.say(GROUP, ALICE, &mv);
        let (index, turn, waited) =
            group_answer_within(fake, at, moved, "alice's move in the group", |call| {
                call.text().contains("@alice played")
            })
            .await;
        waits.push(waited.as_secs_f64());
        assert!(
            waited <= std::time::Duration::from_secs(2),
            "alice's move waited {waited:?}\n{}",
            timeline(fake, moved)
        );
        let row = row_when(&harness, &game, "the computer's answer", |row| {
            row.move_list().len() >= before + 2 || row.status.is_over()
        })
        .await;
        if row.status.is_over() {
            break;
        }
        // One photo: both moves, and alice to move, on the board after the computer's.
        assert!(is_board(&turn), "{}", fake.describe_calls());
        let text = turn.text();
        assert!(
            text.contains("Kodex L1 played") && text.contains("@alice (white) to move"),
            "{text}"
        );
        let ply = row.move_list().len();
        assert_eq!(
            turn.upload
                .as_ref()
                .and_then(|upload| upload.file_name.clone()),
            Some(format!("{game}-{ply}.png"))
        );
        assert_eq!(
            group_messages_since(fake, at),
            1,
            "one message a turn\n{}",
            timeline(fake, moved)
        );
        at = index + 1;
        let next = moved + pace;
        tokio::time::sleep(next.saturating_duration_since(std::time::Instant::now())).await;
    }
    let asked = std::time::Instant::now();
    fake.say(GROUP, ALICE, "/resign");
    let (index, question, waited) =
        group_answer_within(fake, at, asked, "the resign question", |call| {
            call.button_data()
                .iter()
                .any(|data| data.starts_with("rsg:"))
        })
        .await;
    assert!(
        waited <= std::time::Duration::from_secs(2),
        "the question waited {waited:?}\n{}",
        timeline(fake, asked)
    );
    let resign = question
        .button_data()
        .into_iter()
        .find(|data| data.starts_with("rsg:"))
        .expect("the resign button");
    let pressed = std::time::Instant::now();
    fake.press(GROUP, ALICE, question.message_id.expect("its id"), &resign);
    let (_, _, waited) = group_answer_within(fake, index, pressed, "the resignation", |call| {
        call.text().contains("resigned")
    })
    .await;
    assert!(
        waited <= std::time::Duration::from_secs(2),
        "the result waited {waited:?}\n{}",
        timeline(fake, pressed)
    );
    let row = row_when(&harness, &game, "the end", |row| row.status.is_over()).await;
    assert!(row.result.is_some());
    assert_eq!(
        every_flood_refusal_was_waited_out(fake),
        0,
        "within the group's limit, nothing is refused\n{}",
        fake.describe_calls()
    );
    eprintln!(
        "joined turns: {} turns, board after alice's move in seconds {waits:?}",
        waits.len()
    );
    waits
}

/// Five turns, alice reading each board for a second and a half (about
/// 8 s): one photo a turn. (Faster, her boards would wait for the chat's
/// one message a second.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_and_the_computers_quick_answer_come_as_one_photo_in_a_flood_limited_group() {
    let pace = std::time::Duration::from_millis(1_500);
    let waits = one_photo_a_turn_against_the_computer(5, pace).await;
    assert_eq!(waits.len(), 5);
}

/// Forty turns, one every three and a half seconds (some seventeen
/// messages a minute, within a group's twenty): a whole game of a couple
/// of minutes, every board at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a couple of minutes at Telegram's pace; run with --ignored"]
async fn a_whole_game_against_the_computer_stays_within_the_groups_limit() {
    one_photo_a_turn_against_the_computer(40, std::time::Duration::from_millis(3_500)).await;
}

/// Telegram fails now and then (a 500, a proxy's 502): the board of a
/// move, refused so, is sent again within a second (teloxide alone waits
/// ten), in the production limits; a second failure in a row waits a
/// little longer, and the board still comes, once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_board_refused_with_a_server_error_is_sent_again_within_a_second() {
    let harness = start_strict("server-error").await;
    let fake = &harness.fake;
    let (game, at) = alice_challenges_bob(fake, "chess").await;
    let (mut at, _) = fake
        .wait_for(at, "the first board", |call| {
            call.delivered_to(GROUP) && is_board(call)
        })
        .await;
    let white = white_of(&stored(&harness, &game).await);
    let black = if white == ALICE { BOB } else { ALICE };
    for (mv, failures) in [("e4", 1), ("e5", 2)] {
        // (Past the group's one message a second.)
        tokio::time::sleep(std::time::Duration::from_millis(1_100)).await;
        fake.fail_next_sends(failures, Failure::ServerError);
        let moved = std::time::Instant::now();
        let player = if mv == "e4" { white } else { black };
        fake.say(GROUP, player, &format!("/m {mv}"));
        let (index, board, waited) =
            group_answer_within(fake, at, moved, "the board after a 500", |call| {
                is_board(call) && call.text().contains(&format!("played {mv}"))
            })
            .await;
        let calls = fake.calls();
        let refused: Vec<&Call> = calls[at..index]
            .iter()
            .filter(|call| call.outcome == Outcome::Failed(Failure::ServerError))
            .collect();
        assert_eq!(refused.len(), failures, "{}", timeline(fake, moved));
        let retried = board.at - refused[0].at;
        let within = std::time::Duration::from_millis(if failures == 1 { 1_000 } else { 1_500 });
        assert!(
            retried <= within,
            "sent again {retried:?} after a 500\n{}",
            timeline(fake, moved)
        );
        assert!(refused.iter().all(|call| call.text() == board.text()));
        eprintln!("server error: {failures} refusals, the board {retried:?} after the first, {waited:?} after the move");
        assert_eq!(
            calls[index + 1..]
                .iter()
                .filter(|call| call.delivered_to(GROUP) && call.text() == board.text())
                .count(),
            0,
            "sent once"
        );
        at = index + 1;
    }
}

/// A group that keeps one board message per game (`/settings boards
/// edit`, as Group Chess does): against the computer, each turn edits the
/// game's board message (photo and caption, both moves in it) instead of
/// posting one, as `editMessageMedia` per the Bot API; the end edits it
/// into the result without the game's buttons, and the animation comes as a
/// new message. `/settings` tells the choice, and `new` brings new boards
/// back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_group_that_keeps_one_board_per_game_sees_it_edited_each_turn() {
    let harness = start("edited-boards", true).await;
    let fake = &harness.fake;
    fake.set_status(GROUP, ALICE, "administrator");
    fake.say(GROUP, ALICE, "/settings доски править");
    fake.wait_for(0, "the confirmation", |call| {
        call.delivered_to(ALICE) && call.text().contains("now one message per game")
    })
    .await;
    fake.say(GROUP, BOB, "/settings");
    fake.wait_for(0, "the settings", |call| {
        call.delivered_to(BOB) && call.text().contains("boards: one message per game")
    })
    .await;
    fake.say(GROUP, ALICE, "/play chess computer level 1 white");
    let (at, board) = fake
        .wait_for(0, "the first board", |call| {
            call.delivered_to(GROUP) && is_board(call)
        })
        .await;
    let game = game_named_in(&board);
    let board_id = board.message_id.expect("the board's id");
    let mut rng = fastrand::Rng::with_seed(11);
    let mut at = at + 1;
    for _ in 0..3 {
        let before = stored(&harness, &game).await.move_list().len();
        let mv = a_legal_move(&harness, &game, &mut rng).await;
        fake.say(GROUP, ALICE, &mv);
        let (index, edit) = fake
            .wait_for(at, "the board edited", |call| {
                call.edited_in(GROUP) && call.text().contains("Kodex L1 played")
            })
            .await;
        let row = row_when(&harness, &game, "both moves", |row| {
            row.move_list().len() >= before + 2
        })
        .await;
        assert_eq!(edit.message_id, Some(board_id), "the game's one board");
        assert!(edit.text().contains("@alice played"), "{}", edit.text());
        let upload = edit.upload.as_ref().expect("the new board");
        assert_eq!(upload.field, "photo");
        assert!(upload.bytes.starts_with(PNG_SIGNATURE));
        assert_eq!(
            upload.file_name.clone(),
            Some(format!("{game}-{}.png", row.move_list().len()))
        );
        assert_eq!(
            group_messages_since(fake, at),
            0,
            "{}",
            fake.describe_calls()
        );
        assert!(fake
            .buttons_now(board_id)
            .iter()
            .any(|data| data.starts_with("draw:")));
        at = index + 1;
    }
    fake.say(GROUP, ALICE, "/resign");
    confirms_resignation(fake, ALICE, at).await;
    let (_, result) = fake
        .wait_for(at, "the result on the board", |call| {
            call.edited_in(GROUP) && call.text().contains("resigned")
        })
        .await;
    assert_eq!(result.message_id, Some(board_id));
    fake.wait_for(at, "the game's animation", |call| {
        call.delivered_to(GROUP) && call.method == "sendAnimation"
    })
    .await;
    assert!(
        !fake
            .buttons_now(board_id)
            .iter()
            .any(|data| data.starts_with("draw:") || data.starts_with("quit:")),
        "{:?}",
        fake.buttons_now(board_id)
    );
    // Every edit was served as Telegram serves it.
    assert!(fake
        .calls()
        .iter()
        .filter(|call| call.method == "editMessageMedia")
        .all(|call| call.outcome == Outcome::Ok));

    // New boards again: the next game's turns are new messages.
    fake.say(GROUP, ALICE, "/settings boards new");
    fake.wait_for(0, "the confirmation", |call| {
        call.delivered_to(ALICE) && call.text().contains("now a new message each turn")
    })
    .await;
    let from = fake.calls().len();
    fake.say(GROUP, ALICE, "/play chess computer level 1 white");
    let (at, board) = fake
        .wait_for(from, "the next game's board", |call| {
            call.delivered_to(GROUP) && is_board(call)
        })
        .await;
    let game = game_named_in(&board);
    let mv = a_legal_move(&harness, &game, &mut rng).await;
    fake.say(GROUP, ALICE, &mv);
    fake.wait_for(at + 1, "a new board", |call| {
        call.delivered_to(GROUP) && is_board(call) && call.text().contains("Kodex L1 played")
    })
    .await;
    assert!(!fake.calls()[from..]
        .iter()
        .any(|call| call.method == "editMessageMedia"));
}

/// The calls with their times relative to `since`, for failure messages.
fn timeline(fake: &FakeTelegram, since: std::time::Instant) -> String {
    fake.calls()
        .iter()
        .enumerate()
        .map(|(index, call)| {
            let at = if call.at >= since {
                format!("+{:?}", call.at - since)
            } else {
                format!("-{:?}", since - call.at)
            };
            format!(
                "{index}: {at} {} {:?} {:?} {:?}",
                call.method,
                call.outcome,
                call.text().lines().next(),
                call.upload.as_ref().map(|upload| &upload.file_name)
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `/invite` answers privately with a deep link naming the bot; a person
/// new to the bot opens it (Telegram sends `/start join_<code>` in their
/// private chat) and the game starts there and in the inviter's group.
#[tokio::test]
async fn an_invitation_link_opened_by_a_new_user_starts_the_game_in_their_private_chat() {
    let harness = start("invite-link", true).await;
    let fake = &harness.fake;
    fake.say(GROUP, ALICE, "/invite chess 5+3 white");
    let (at, answer) = fake
        .wait_for(0, "the invitation, to alice privately", |call| {
            call.delivered_to(ALICE) && call.text().contains("?start=join_")
        })
        .await;
    let link_start = format!(
        "https://t.me/{}?start=join_",
        kodex_tests::fake_telegram::BOT_USERNAME
    );
    let text = answer.text();
    let code: String = text
        .split(&link_start)
        .nth(1)
        .unwrap_or_else(|| panic!("a link naming the bot in {text}"))
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect();
    assert!(code.len() >= 10, "{text}");
    // Nothing of it in the group.
    assert!(!fake
        .calls()
        .iter()
        .any(|call| call.delivered_to(GROUP) && call.text().contains(&code)));
    // Dave, who never wrote to the bot, opens the link and presses Start.
    fake.add_person(DAVE, "dave", "en", true);
    fake.say(DAVE, DAVE, &format!("/start join_{code}"));
    let (_, started) = fake
        .wait_for(at, "the start, in dave's private chat", |call| {
            call.delivered_to(DAVE) && call.text().contains("starts")
        })
        .await;
    assert!(started.text().contains("alice"), "{}", started.text());
    fake.wait_for(at, "the start, in the group", |call| {
        call.delivered_to(GROUP) && call.text().contains("starts")
    })
    .await;
    let row = harness
        .service
        .store()
        .invitation("telegram", &code.to_lowercase())
        .await
        .expect("the store answers")
        .expect("the invitation");
    assert_eq!(row.status, Status::Active);
    assert_eq!(row.guest_chat_id.as_deref(), Some(&*DAVE.to_string()));
    assert_eq!(row.player_id(1), Some(&*DAVE.to_string()));
    // Dave moves from his private chat; the group sees it.
    fake.say(GROUP, ALICE, "e4");
    fake.wait_for(at, "alice's move, in dave's chat", |call| {
        call.delivered_to(DAVE) && call.text().contains("e4")
    })
    .await;
    fake.say(DAVE, DAVE, "e5");
    fake.wait_for(at, "dave's move, in the group", |call| {
        call.delivered_to(GROUP) && call.text().contains("e5")
    })
    .await;
}

/// The ticker writes privately only to people who wrote to the bot
/// privately once (Telegram lets a bot write to no one else): bob, last
/// seen in another group, hears of a challenge privately only after that.
#[tokio::test]
async fn the_ticker_writes_only_to_people_who_started_the_bot() {
    const OTHER_GROUP: i64 = -100_301;
    let harness = start("ticker", true).await;
    let fake = &harness.fake;
    fake.add_group(OTHER_GROUP, "Another club");
    fake.say(OTHER_GROUP, BOB, "/lobby");
    fake.wait_for(0, "the lobby, in the other group", |call| {
        call.delivered_to(OTHER_GROUP)
    })
    .await;
    fake.say(GROUP, ALICE, "/play chess @bob");
    let (at, _) = fake
        .wait_for(0, "alice's challenge", |call| {
            call.delivered_to(GROUP) && call.text().contains("challenges")
        })
        .await;
    // bob wrote to the bot privately never: no private note.
    fake.say(GROUP, ALICE, "/games");
    let (at, _) = fake
        .wait_for(at, "alice's games", |call| call.text().contains("Your"))
        .await;
    assert!(
        !fake
            .calls()
            .iter()
            .any(|call| call.delivered_to(BOB) && call.text().contains("another chat")),
        "{}",
        fake.describe_calls()
    );
    // bob writes to the bot privately; carol's challenge then reaches him
    // there, with its buttons.
    fake.say(BOB, BOB, "/notify");
    let (at, _) = fake
        .wait_for(at, "the ticker's state, to bob", |call| {
            call.delivered_to(BOB) && call.text().contains("ticker is on")
        })
        .await;
    fake.say(GROUP, CAROL, "/play chess @bob");
    let (_, note) = fake
        .wait_for(at, "carol's challenge, to bob privately", |call| {
            call.delivered_to(BOB) && call.text().contains("another chat")
        })
        .await;
    assert!(note.text().contains("carol"), "{}", note.text());
    assert!(
        note.button_data()
            .iter()
            .any(|data| data.starts_with("acc:")),
        "{:?}",
        note.button_data()
    );
    // The only note bob had is carol's: alice's challenge, made before he
    // wrote privately (and queued before carol's if at all), sent none.
    let notes: Vec<String> = fake
        .calls()
        .iter()
        .filter(|call| call.delivered_to(BOB) && call.text().contains("another chat"))
        .map(|call| call.text())
        .collect();
    assert_eq!(notes.len(), 1, "{notes:#?}");
}

/// The webhook listener answers a load balancer's `GET /healthz`: 200 while
/// the database answers, 503 once it does not.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_webhook_listener_answers_health_checks_by_the_database() {
    let harness = start("healthz", true).await;
    // A second adapter of the same service, in webhook mode.
    let address = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free local port");
    let mut telegram = harness.fake.adapter_config();
    telegram.mode = kodex_bot::telegram::Mode::Webhook {
        listen: address,
        url: url::Url::parse(&format!("http://{address}/telegram/hook")).expect("a URL"),
        secret: None,
    };
    let webhook = spawn_adapter_with(telegram, &harness.service);
    harness
        .fake
        .wait_for(0, "the webhook set", |call| call.method == "setWebhook")
        .await;
    let health = format!("http://{address}/healthz");
    let client = reqwest::Client::new();
    let answer = client.get(&health).send().await.expect("an answer");
    assert_eq!(answer.status().as_u16(), 200);
    assert_eq!(answer.text().await.expect("a body"), "ok");
    // The database goes away: the process is no longer healthy.
    harness.service.store().close().await;
    let answer = client.get(&health).send().await.expect("an answer");
    assert_eq!(answer.status().as_u16(), 503);
    webhook.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_is_announced_joined_by_button_and_played_in_the_group() {
    let harness = start("tournament", true).await;
    let fake = &harness.fake;
    fake.say(GROUP, ALICE, "/tournament new swiss chess 3+2 1");
    let (at, announcement) = fake
        .wait_for(0, "the announcement", |call| {
            call.delivered_to(GROUP) && call.text().contains("announces tournament")
        })
        .await;
    let live = harness
        .service
        .store()
        .live_tournaments_in("telegram", &GROUP.to_string())
        .await
        .expect("the store answers");
    let id = live.first().expect("a tournament").id.clone();
    // Bob joins by the button, alice by the command.
    fake.press(
        GROUP,
        BOB,
        announcement.message_id.expect("announcement id"),
        &format!("tjoin:{id}"),
    );
    let (at, _) = fake
        .wait_for(at, "bob's entry", |call| {
            call.delivered_to(GROUP) && call.text().contains("bob is in tournament")
        })
        .await;
    fake.say(GROUP, ALICE, "/tournament join");
    let (at, _) = fake
        .wait_for(at, "alice's entry", |call| {
            call.delivered_to(GROUP) && call.text().contains("alice is in tournament")
        })
        .await;
    fake.say(GROUP, ALICE, "/tournament start");
    let (at, round) = fake
        .wait_for(at, "round 1", |call| {
            call.delivered_to(GROUP) && call.text().contains("Round 1 of 1")
        })
        .await;
    let row = harness
        .service
        .store()
        .tournament("telegram", &id)
        .await
        .expect("the store answers")
        .expect("the tournament");
    let game = row.state.played[0].boards[0].game.clone();
    assert!(round.text().contains(&game), "{}", round.text());
    let (white, _) = white_and_black(&stored(&harness, &game).await);
    // White aborts before moving: a forfeit, and the one-round Swiss is over.
    fake.say(GROUP, white, "/abort");
    let (_, end) = fake
        .wait_for(at, "the final standings", |call| {
            call.delivered_to(GROUP) && call.text().contains("final standings")
        })
        .await;
    assert!(end.text().contains("The winner"), "{}", end.text());
}

/// Two processes behind one webhook URL (a load balancer), on one
/// database, sharing the webhook's secret: Telegram's updates reach either,
/// and every update is delivered to both at once (as a second delivery of
/// an update whose first request went unanswered would be). Each update is
/// handled once: every move is played and announced once, in order, and
/// nothing is refused as out of turn.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_behind_one_webhook_handle_each_update_once() {
    let (dir, config) = test_config("webhooks").await;
    let fake = FakeTelegram::start().await;
    fake.add_group(GROUP, "Chess club");
    fake.add_person(ALICE, "alice", "en", true);
    fake.add_person(BOB, "bob", "en", true);
    let mut services = Vec::new();
    let mut adapters = Vec::new();
    let mut targets = Vec::new();
    for _ in 0..2 {
        let service = Service::open(
            &config,
            Registry::builtin(),
            ManualTime::new(1_700_000_000_000),
        )
        .await
        .expect("the service opens");
        let address = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .expect("a free local port");
        let url = format!("http://{address}/telegram/hook");
        let mut telegram = fake.adapter_config();
        telegram.mode = kodex_bot::telegram::Mode::Webhook {
            listen: address,
            url: url::Url::parse(&url).expect("a URL"),
            secret: Some("one-secret-behind-the-balancer".to_owned()),
        };
        adapters.push(spawn_adapter_with(telegram, &service));
        services.push(service);
        targets.push(url);
    }
    let (set, _) = fake
        .wait_for(0, "the first webhook set", |call| {
            call.method == "setWebhook"
        })
        .await;
    fake.wait_for(set + 1, "the second webhook set", |call| {
        call.method == "setWebhook"
    })
    .await;
    fake.balance_webhook(targets, true);

    let (game, at) = alice_challenges(&fake, "/play chess white", BOB, 0).await;
    let (mut at, _) = fake
        .wait_for(at, "the first board", |call| {
            call.delivered_to(GROUP) && is_board(call)
        })
        .await;
    let moves = [
        (ALICE, "e4", "alice played e4"),
        (BOB, "e5", "bob played e5"),
        (ALICE, "Nf3", "alice played Nf3"),
        (BOB, "Nc6", "bob played Nc6"),
        (ALICE, "Bb5", "alice played Bb5"),
        (BOB, "a6", "bob played a6"),
    ];
    for (person, text, said) in moves {
        fake.say(GROUP, person, text);
        (at, _) = fake
            .wait_for(at, said, |call| {
                call.delivered_to(GROUP) && call.text().contains(said)
            })
            .await;
    }
    // Both processes have had time to handle any second delivery.
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    let calls = fake.calls();
    for (_, _, said) in moves {
        let times = calls
            .iter()
            .filter(|call| call.delivered_to(GROUP) && call.text().contains(said))
            .count();
        assert_eq!(times, 1, "“{said}” said {times} times");
    }
    let refusals: Vec<String> = calls
        .iter()
        .filter(|call| call.is_send())
        .map(|call| call.text())
        .filter(|text| text.contains("not your turn") || text.contains("not legal"))
        .collect();
    assert!(refusals.is_empty(), "{refusals:#?}");
    let row = services[0]
        .store()
        .get("telegram", &game)
        .await
        .expect("the store answers")
        .expect("the game");
    assert_eq!(
        row.moves.texts(),
        ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"]
    );
    for adapter in adapters {
        adapter.abort();
    }
    let _ = std::fs::remove_dir_all(&dir);
}
