//! The Discord adapter with the real game service behind it, against the
//! fake Discord: a game played by button and chat moves, and a fog-of-war
//! game whose boards travel only by DM (or ephemerally when DMs are closed).

use std::sync::Arc;

use kodex_bot::api::{Handler, Platform};
use kodex_bot::config::Config;
use kodex_bot::discord::{variant_choices, DiscordConfig};
use kodex_bot::time::ManualTime;
use kodex_bot::Service;
use kodex_engine::Registry;
use kodex_tests::discord_bot::RunningBot;
use kodex_tests::fake_discord::payloads::{
    bool_option, integer_option, string_option, user_option,
};
use kodex_tests::fake_discord::{
    FakeDiscord, FakeUser, Outage, Place, SentMessage, GUILD_ID, INITIAL_RESPONSE_WINDOW,
};

/// The channel the games are played in.
const CHANNEL: u64 = 300;
/// A moment to start the service's clock at.
const EPOCH: i64 = 1_700_000_000_000;

fn alice() -> FakeUser {
    FakeUser::new(1001, "alice")
}
fn bob() -> FakeUser {
    FakeUser::new(1002, "bob")
}

/// A service on a fresh SQLite file, and the adapter in front of it.
async fn start(fake: &FakeDiscord, name: &str) -> (Service, RunningBot) {
    start_with(fake, name, |_| {}).await
}

/// Like [`start`], with the adapter's configuration changed by `configure`.
async fn start_with(
    fake: &FakeDiscord,
    name: &str,
    configure: impl FnOnce(&mut DiscordConfig),
) -> (Service, RunningBot) {
    let (service, bot, _time) = start_timed(fake, name, configure).await;
    (service, bot)
}

/// Like [`start_with`], also returning the service's clock (it moves only
/// when the test says).
async fn start_timed(
    fake: &FakeDiscord,
    name: &str,
    configure: impl FnOnce(&mut DiscordConfig),
) -> (Service, RunningBot, Arc<ManualTime>) {
    let time = ManualTime::new(EPOCH);
    let dir = std::env::temp_dir().join(format!("kodex-discord-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let mut config = Config::defaults();
    config.database.url = crate::console_support::chat_database(&dir).await;
    config.boards.dir = dir.join("boards");
    let service = Service::open(&config, Registry::builtin(), time.clone())
        .await
        .expect("the service opens");
    // Exactly what `kodex run` puts in front of the service.
    let handler: Arc<dyn Handler> = kodex_bot::app::platform_handler(&service);
    let mut discord = RunningBot::config(fake, variant_choices(service.registry()));
    configure(&mut discord);
    let bot = RunningBot::start_configured(discord, handler, service.outbox(Platform::Discord));
    (service, bot, time)
}

/// Alice challenges Bob (Alice plays white); Bob accepts with the button.
/// Returns the start message.
async fn accepted_game(fake: &FakeDiscord, variant: &str) -> SentMessage {
    accept_challenge(fake, variant).await;
    fake.wait_for_message("the game starts", |m| {
        m.place == Place::Channel(CHANNEL) && m.text().contains("starts")
    })
    .await
}

/// Alice challenges Bob in [`CHANNEL`] (Alice plays white); Bob presses Accept.
async fn accept_challenge(fake: &FakeDiscord, variant: &str) {
    let challenge = challenge(fake, CHANNEL, &bob(), variant).await;
    fake.press_button(&bob(), &challenge, "acc:").await;
}

/// Alice's `/play` with `options` in [`CHANNEL`] (`resolved`: the users
/// they name); returns the challenge it posts.
async fn challenge_with(
    fake: &FakeDiscord,
    options: Vec<serde_json::Value>,
    resolved: &[FakeUser],
) -> SentMessage {
    fake.slash(&alice(), CHANNEL, Some(GUILD_ID), "play", options, resolved)
        .await;
    fake.wait_for_message("the challenge", |m| {
        m.place == Place::Channel(CHANNEL) && m.button("acc:").is_some()
    })
    .await
}

/// Alice challenges `opponent` in `channel`, playing white so that the moves
/// below are hers to make first. Returns the challenge.
async fn challenge(
    fake: &FakeDiscord,
    channel: u64,
    opponent: &FakeUser,
    variant: &str,
) -> SentMessage {
    challenge_in(fake, GUILD_ID, channel, opponent, variant).await
}

/// Like [`challenge`], in `channel` of `guild`.
async fn challenge_in(
    fake: &FakeDiscord,
    guild: u64,
    channel: u64,
    opponent: &FakeUser,
    variant: &str,
) -> SentMessage {
    fake.slash(
        &alice(),
        channel,
        Some(guild),
        "play",
        vec![
            string_option("variant", variant),
            user_option("opponent", opponent),
            integer_option("colour", 0),
        ],
        std::slice::from_ref(opponent),
    )
    .await;
    fake.wait_for_message("the challenge", |m| {
        m.place == Place::Channel(channel) && m.button("acc:").is_some()
    })
    .await
}

/// Alice challenges Bob to chess on `clock` in [`CHANNEL`], playing white.
/// Returns the challenge.
async fn challenge_with_clock(fake: &FakeDiscord, clock: &str) -> SentMessage {
    fake.slash(
        &alice(),
        CHANNEL,
        Some(GUILD_ID),
        "play",
        vec![
            string_option("variant", "chess"),
            user_option("opponent", &bob()),
            string_option("clock", clock),
            integer_option("colour", 0),
        ],
        &[bob()],
    )
    .await;
    fake.wait_for_message("the challenge", |m| m.button("acc:").is_some())
        .await
}

fn leak_free(fake: &FakeDiscord, secrets: &[&str]) {
    for message in fake.messages_in(CHANNEL) {
        assert!(
            !message.has_png(),
            "no board in the channel: {}",
            message.text()
        );
        for secret in secrets {
            assert!(
                !message.text().contains(secret),
                "the channel saw {secret}: {}",
                message.text()
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fools_mate_by_button_and_moves_typed_in_chat() {
    let fake = FakeDiscord::start().await;
    let (_service, bot) = start(&fake, "fools-mate").await;
    let started = accepted_game(&fake, "chess").await;
    assert!(started.has_png(), "the start position comes as a PNG");
    // Accepted, the challenge loses its buttons.
    let challenge = fake
        .messages_in(CHANNEL)
        .into_iter()
        .find(|m| m.button("acc:").is_some())
        .expect("the challenge");
    fake.wait_for("the challenge's buttons removed", |fake| {
        fake.buttons_now(&challenge).is_empty().then_some(())
    })
    .await;
    for (player, san) in [(alice(), "f3"), (bob(), "e5"), (alice(), "g4")] {
        fake.say(&player, CHANNEL, Some(GUILD_ID), san).await;
        let board = fake
            .wait_for_message(&format!("the board after {san}"), |m| {
                m.text().contains(&format!("played {san}."))
            })
            .await;
        assert_eq!(board.place, Place::Channel(CHANNEL));
        assert!(board.has_png(), "each turn is answered with a PNG");
    }
    fake.say(&bob(), CHANNEL, Some(GUILD_ID), "Qh4#").await;
    let end = fake
        .wait_for_message("the result", |m| m.text().contains("checkmate"))
        .await;
    assert!(end.text().contains("0-1"), "{}", end.text());
    assert!(end.text().contains("bob"), "{}", end.text());
    assert!(fake.threads().is_empty(), "no threads unless configured");
    assert!(
        fake.requests()
            .iter()
            .all(|r| !(r.method == "GET" && r.path.starts_with("/channels/"))),
        "no channel lookups either"
    );
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fog_game_shows_boards_only_by_dm() {
    let fake = FakeDiscord::start().await;
    fake.add_user(&alice());
    fake.add_user(&bob());
    let (_service, bot) = start(&fake, "fog").await;
    let started = accepted_game(&fake, "fogofwar").await;
    assert!(!started.has_png(), "no public board in the fog");
    fake.wait_for("both private boards", |fake| {
        (fake.dms_to(alice().id).len() == 1 && fake.dms_to(bob().id).len() == 1).then_some(())
    })
    .await;
    assert!(fake.dms_to(alice().id)[0].has_png());

    // Alice moves in her DM, Bob with /move in the channel.
    let dm = fake.dm_channel_of(alice().id).expect("alice's DM channel");
    fake.say(&alice(), dm, None, "e4").await;
    fake.wait_for("boards after e4", |fake| {
        (fake.dms_to(alice().id).len() == 2 && fake.dms_to(bob().id).len() == 2).then_some(())
    })
    .await;
    assert!(fake.dms_to(alice().id)[1].text().contains("you played e4"));
    assert!(
        !fake.dms_to(bob().id)[1].text().contains("e4"),
        "bob does not see e4"
    );
    let pointer = bob_moves(&fake, "e5").await;
    assert!(
        !pointer.has_png(),
        "bob's board went by DM: {}",
        pointer.text()
    );
    fake.wait_for("bob's board after e5", |fake| {
        fake.dms_to(bob().id)
            .iter()
            .any(|m| m.text().contains("you played e5"))
            .then_some(())
    })
    .await;
    leak_free(&fake, &["e4", "e5", "you played"]);
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_dm_in_a_fog_game_falls_back_to_an_ephemeral_board() {
    let fake = FakeDiscord::start().await;
    let (bot, dm) = fog_game_refused_by_bob(&fake, "fog-refused").await;
    fake.say(&alice(), dm, None, "d4").await;
    let notice = fake
        .wait_for_message("the DM-refused notice", |m| m.button("board:").is_some())
        .await;
    assert_eq!(notice.place, Place::Channel(CHANNEL));
    let token = fake.press(&bob(), &notice, "board:").await;
    let shown = fake
        .wait_for("bob's board, ephemerally", |fake| {
            fake.ephemeral_answers(&token)
                .into_iter()
                .find(|m| m.has_png())
        })
        .await;
    assert!(matches!(shown.place, Place::Followup(_)));
    assert!(fake.dms_to(bob().id).is_empty());
    leak_free(&fake, &["d4", "you played"]);
    bot.stop().await;
}

/// A fog-of-war game of Alice's against Bob, whose DMs Discord refuses;
/// returns the bot and Alice's DM channel, once her first board is there.
async fn fog_game_refused_by_bob(fake: &FakeDiscord, name: &str) -> (RunningBot, u64) {
    fake.refuse_dms_from(bob().id);
    let (_service, bot) = start(fake, name).await;
    accepted_game(fake, "fogofwar").await;
    fake.wait_for("alice's board", |fake| {
        fake.dms_to(alice().id).into_iter().next()
    })
    .await;
    let dm = fake.dm_channel_of(alice().id).expect("alice's DM channel");
    (bot, dm)
}

/// `user`'s `/move mv` in `channel` of the guild; returns the interaction token.
async fn slash_move(fake: &FakeDiscord, user: &FakeUser, channel: u64, mv: &str) -> String {
    fake.slash(
        user,
        channel,
        Some(GUILD_ID),
        "move",
        vec![string_option("move", mv)],
        &[],
    )
    .await
}

/// Bob's `/move` in the channel; returns his (ephemeral) answer.
async fn bob_moves(fake: &FakeDiscord, mv: &str) -> SentMessage {
    let token = slash_move(fake, &bob(), CHANNEL, mv).await;
    fake.wait_for_ephemeral("bob's answer", &token).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_whose_dms_are_closed_is_told_once_a_game_and_not_asked_again() {
    let fake = FakeDiscord::start().await;
    let (bot, dm) = fog_game_refused_by_bob(&fake, "dm-once").await;
    // Three of alice's moves, each a private board for bob that Discord
    // would refuse; bob answers by slash command.
    for (mine, his) in [("d4", "e5"), ("e4", "d5"), ("Nf3", "Nc6")] {
        fake.say(&alice(), dm, None, mine).await;
        fake.wait_for("alice's board after her move", |fake| {
            fake.dms_to(alice().id)
                .iter()
                .any(|m| m.text().contains(&format!("you played {mine}")))
                .then_some(())
        })
        .await;
        let before = fake.dms_to(alice().id).len();
        let answer = bob_moves(&fake, his).await;
        assert!(!answer.text().is_empty());
        fake.wait_for("alice's board after bob's move", |fake| {
            (fake.dms_to(alice().id).len() > before).then_some(())
        })
        .await;
    }
    let notices = fake
        .messages_in(CHANNEL)
        .iter()
        .filter(|m| m.text().contains("can't send you direct messages"))
        .count();
    assert_eq!(notices, 1, "told once in the game");
    let bob_dm = fake
        .dm_channel_of(bob().id)
        .expect("bob's DM channel was opened");
    let attempts = fake
        .requests()
        .iter()
        .filter(|r| r.method == "POST" && r.path == format!("/channels/{bob_dm}/messages"))
        .count();
    assert_eq!(attempts, 1, "one refused DM, then no more for a while");
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_record_longer_than_a_message_is_posted_as_a_pgn_file() {
    let fake = FakeDiscord::start().await;
    let (service, bot) = start(&fake, "long-pgn").await;
    let started = accepted_game(&fake, "chess").await;
    let id = started_id(&started);
    crate::service_routing::lengthen(&service, Platform::Discord, &id, 400).await;
    let before = fake.messages_in(CHANNEL).len();
    fake.slash(
        &alice(),
        CHANNEL,
        Some(GUILD_ID),
        "pgn",
        vec![string_option("game", &id)],
        &[],
    )
    .await;
    let file = fake
        .wait_for("the record as a file", |fake| {
            fake.requests().into_iter().find(|r| {
                r.method == "POST" && r.files.iter().any(|f| f.name == format!("{id}.pgn"))
            })
        })
        .await;
    let pgn = &file
        .files
        .iter()
        .find(|f| f.name.ends_with(".pgn"))
        .expect("the file")
        .bytes;
    let pgn = String::from_utf8_lossy(pgn);
    assert!(pgn.chars().count() > 2000 && pgn.contains("100."), "{pgn}");
    fake.wait_for("the animation", |fake| {
        fake.requests()
            .into_iter()
            .find(|r| r.method == "POST" && r.files.iter().any(|f| f.name.ends_with(".gif")))
    })
    .await;
    // No part of the record went as text.
    assert!(
        fake.messages_in(CHANNEL)[before..]
            .iter()
            .all(|m| !m.text().contains("[Event ")),
        "{:#?}",
        fake.messages_in(CHANNEL)
    );
    bot.stop().await;
}

fn carol() -> FakeUser {
    FakeUser::new(1003, "carol")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resign_asks_ephemerally_and_only_the_player_can_confirm() {
    let fake = FakeDiscord::start().await;
    let (_service, bot) = start(&fake, "resign").await;
    accepted_game(&fake, "chess").await;

    let token = fake
        .slash(&bob(), CHANNEL, Some(GUILD_ID), "resign", vec![], &[])
        .await;
    let question = fake.wait_for_ephemeral("the question", &token).await;
    assert!(
        question.text().starts_with("Resign game") && question.text().contains("alice"),
        "{}",
        question.text()
    );
    assert_eq!(question.place, Place::Original(token));
    let resign = question.button("rsg:").expect("a resign button");
    assert_eq!(resign.style, 4, "resigning is red");
    assert!(question.button("keep:").is_some(), "a way out");
    assert!(
        fake.messages_in(CHANNEL)
            .iter()
            .all(|m| !m.text().contains("resigned")),
        "asking resigns nothing"
    );

    // Someone else pressing the button (a forged press) changes nothing.
    for other in [carol(), alice()] {
        let token = fake.press_button(&other, &question, "rsg:").await;
        let refusal = fake.wait_for_ephemeral("the refusal", &token).await;
        assert!(!refusal.text().contains("resigned"), "{}", refusal.text());
    }
    // Keeping the game says so, privately, changes nothing either, and
    // settles the question: its buttons go.
    let token = fake.press_button(&bob(), &question, "keep:").await;
    let kept = fake.wait_for_ephemeral("the game goes on", &token).await;
    assert!(kept.text().contains("goes on"), "{}", kept.text());
    fake.wait_for("the question loses its buttons after Play on", |fake| {
        fake.buttons_now(&question).is_empty().then_some(())
    })
    .await;
    fake.say(&alice(), CHANNEL, Some(GUILD_ID), "e4").await;
    fake.wait_for_message("the game goes on after the presses", |m| {
        m.text().contains("played e4.")
    })
    .await;
    // Bob plays on; a press of the old button (forged, or from a stale
    // client) after his move: the question has lapsed.
    fake.say(&bob(), CHANNEL, Some(GUILD_ID), "e5").await;
    fake.wait_for_message("bob's move", |m| m.text().contains("played e5."))
        .await;
    let token = fake.press_button(&bob(), &question, "rsg:").await;
    let lapsed = fake.wait_for_ephemeral("the lapsed question", &token).await;
    assert!(lapsed.text().contains("has lapsed"), "{}", lapsed.text());
    assert!(
        fake.messages_in(CHANNEL)
            .iter()
            .all(|m| !m.text().contains("resigned")),
        "a lapsed question resigns nothing"
    );

    // Asked again, and confirmed.
    let token = fake
        .slash(&bob(), CHANNEL, Some(GUILD_ID), "resign", vec![], &[])
        .await;
    let again = fake.wait_for_ephemeral("the question again", &token).await;
    fake.press_button(&bob(), &again, "rsg:").await;
    let end = fake
        .wait_for_message("the result", |m| m.text().contains("resigned"))
        .await;
    assert_eq!(end.place, Place::Channel(CHANNEL));
    assert!(end.text().contains("1-0"), "{}", end.text());
    fake.wait_for("the settled question loses its buttons", |fake| {
        fake.buttons_now(&again).is_empty().then_some(())
    })
    .await;
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_threads_on_a_game_moves_into_its_own_thread_and_ends_there() {
    let fake = FakeDiscord::start().await;
    let (_service, bot) = start_with(&fake, "threads", |discord| discord.game_threads = true).await;
    accept_challenge(&fake, "chess").await;
    let thread = fake
        .wait_for("a thread for the game", |fake| {
            fake.threads().into_iter().next()
        })
        .await;
    assert_eq!(thread.parent, CHANNEL);
    assert_eq!(thread.kind, 11, "a public thread");
    assert_eq!(thread.auto_archive_minutes, Some(10080));
    let id = thread
        .name
        .strip_prefix("Standard: alice vs bob · ")
        .unwrap_or_else(|| panic!("named after the game: {}", thread.name))
        .to_string();
    let started = fake
        .wait_for_message("the start in the thread", |m| {
            m.place == Place::Channel(thread.id) && m.text().contains("starts")
        })
        .await;
    assert!(started.has_png(), "the start position comes as a PNG");
    let pointer = fake
        .wait_for_message("the pointer in the channel", |m| {
            m.place == Place::Channel(CHANNEL) && m.text().contains("continues")
        })
        .await;
    assert_eq!(
        pointer.text(),
        format!("Game {id} continues in <#{}>.", thread.id)
    );

    // Both players are members of the thread.
    fake.wait_for("the players added to the thread", |fake| {
        let members = fake.threads().first()?.members.clone();
        [alice().id, bob().id]
            .iter()
            .all(|player| members.contains(player))
            .then_some(())
    })
    .await;

    // Moves typed in the thread, and one typed in the channel the game
    // started in: each answered in the thread.
    for (player, san, typed_in) in [
        (alice(), "f3", thread.id),
        (bob(), "e5", CHANNEL),
        (alice(), "g4", thread.id),
    ] {
        fake.say(&player, typed_in, Some(GUILD_ID), san).await;
        let board = fake
            .wait_for_message(&format!("the board after {san}"), |m| {
                m.text().contains(&format!("played {san}."))
            })
            .await;
        assert_eq!(board.place, Place::Channel(thread.id));
        assert!(board.has_png(), "each turn is answered with a PNG");
    }
    fake.say(&bob(), thread.id, Some(GUILD_ID), "Qh4#").await;
    let end = fake
        .wait_for_message("the result in the thread", |m| {
            m.place == Place::Channel(thread.id) && m.text().contains("checkmate")
        })
        .await;
    assert!(end.has_png(), "the final board");
    assert!(end.text().contains("0-1"), "{}", end.text());
    // The channel kept only the challenge, the pointer and the result line.
    let result = fake
        .wait_for_message("the result in the channel", |m| {
            m.place == Place::Channel(CHANNEL) && m.text().contains("checkmate")
        })
        .await;
    assert!(result.text().contains("0-1"), "{}", result.text());
    let channel = fake.messages_in(CHANNEL);
    assert_eq!(channel.len(), 3, "{channel:#?}");
    assert!(channel.iter().all(|m| !m.has_png()));
    assert_eq!(fake.threads().len(), 1);
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn when_discord_refuses_a_thread_the_game_stays_in_the_channel() {
    // 50013: no permission to create threads.
    a_refused_thread_keeps_the_game_in_the_channel("threads-forbidden", |fake| {
        fake.forbid_threads_in(CHANNEL)
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn when_the_server_has_too_many_threads_the_game_stays_in_the_channel() {
    // 160006: the server's active threads are at their maximum.
    a_refused_thread_keeps_the_game_in_the_channel("threads-full", |fake| {
        fake.limit_active_threads(0)
    })
    .await;
}

/// A game with threads on, where Discord refuses the thread as `refuse`
/// makes it: the game plays on in the channel. `name` names its database
/// (tests run at once must not share one).
async fn a_refused_thread_keeps_the_game_in_the_channel(name: &str, refuse: impl Fn(&FakeDiscord)) {
    let fake = FakeDiscord::start().await;
    refuse(&fake);
    let (_service, bot) = start_with(&fake, name, |discord| {
        discord.game_threads = true;
    })
    .await;
    let started = accepted_game(&fake, "chess").await;
    assert!(started.has_png());
    fake.say(&alice(), CHANNEL, Some(GUILD_ID), "e4").await;
    let board = fake
        .wait_for_message("the board after e4", |m| m.text().contains("played e4."))
        .await;
    assert_eq!(board.place, Place::Channel(CHANNEL));
    assert!(fake.threads().is_empty());
    assert!(
        fake.sent_messages()
            .iter()
            .all(|m| !m.text().contains("continues")),
        "no pointer to a thread that does not exist"
    );
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slash_move_plays_in_the_game_of_the_channel_it_is_used_in() {
    const OTHER: u64 = 301;
    let fake = FakeDiscord::start().await;
    let (_service, bot) = start(&fake, "two-channels").await;
    accepted_game(&fake, "chess").await;
    // A second game, against Carol in another channel, accepted by typing /accept.
    challenge(&fake, OTHER, &carol(), "chess").await;
    fake.slash(&carol(), OTHER, Some(GUILD_ID), "accept", vec![], &[])
        .await;
    fake.wait_for_message("the second game starts", |m| {
        m.place == Place::Channel(OTHER) && m.text().contains("starts")
    })
    .await;

    for (channel, san) in [(OTHER, "e4"), (CHANNEL, "d4")] {
        let token = slash_move(&fake, &alice(), channel, san).await;
        let board = fake
            .wait_for_message(&format!("the board after {san}"), |m| {
                m.text().contains(&format!("played {san}."))
            })
            .await;
        assert_eq!(board.place, Place::Channel(channel), "{san} in its channel");
        assert!(board.has_png());
        assert!(
            fake.ephemeral_answers(&token).is_empty(),
            "no question: {:?}",
            fake.ephemeral_answers(&token)
        );
    }
    assert!(
        fake.sent_messages()
            .iter()
            .all(|m| !m.text().contains("several games")),
        "never asked which game"
    );
    // Bob's game got d4 alone: it is his turn there.
    fake.slash(
        &bob(),
        CHANNEL,
        Some(GUILD_ID),
        "move",
        vec![string_option("move", "d5")],
        &[],
    )
    .await;
    fake.wait_for_message("bob answers d4", |m| m.text().contains("played d5."))
        .await;
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn random_messages_commands_and_presses_change_nothing_and_the_game_plays_on() {
    use kodex_tests::garbage::random_text;
    let seed = kodex_tests::garbage::seed();
    let fake = FakeDiscord::start().await;
    fake.add_user(&carol());
    let (service, bot) = start(&fake, "garbage").await;
    let started = accepted_game(&fake, "chess").await;
    let game = fake
        .messages_in(CHANNEL)
        .iter()
        .find_map(|m| {
            m.button("acc:")
                .and_then(|b| b.custom_id.strip_prefix("acc:").map(str::to_owned))
        })
        .expect("the game id");
    let before = service
        .store()
        .get("discord", &game)
        .await
        .expect("store")
        .expect("game");

    const COMMANDS: &[&str] = &[
        "move",
        "board",
        "pgn",
        "rules",
        "resign",
        "draw",
        "nodraw",
        "takeback",
        "notakeback",
        "abort",
        "accept",
        "decline",
        "lang",
        "play",
        "games",
        "nonexistent",
    ];
    const OPTIONS: &[&str] = &["move", "game", "variant", "language", "opponent"];
    let mut interactions = Vec::new();
    for round in 0..150 {
        // Mid-game, Carol's DMs stop working: no server in common any more
        // (50278), then closed DMs (50007). Discord itself fails now and
        // then, as it does: its edge loses answers (502 after posting) or
        // refuses (503), flood control (429), and from round 70 every
        // interaction is too old by the time it is answered (10062).
        match round {
            20 => fake.fail_next(
                "POST",
                "/channels/*/messages",
                Outage::ServerErrorAfterDoing(502),
            ),
            30 => fake.fail_next(
                "POST",
                "/interactions/*/*/callback",
                Outage::ServerError(503),
            ),
            40 => fake.fail_next("POST", "/channels/*/messages", Outage::RateLimited),
            50 => fake.share_no_guild_with(carol().id),
            60 => fake.fail_next("POST", "/webhooks/*/*", Outage::RateLimited),
            70 => fake.set_initial_response_window(std::time::Duration::ZERO),
            100 => fake.refuse_dms_from(carol().id),
            110 => fake.fail_next(
                "PATCH",
                "/webhooks/*/*/messages/@original",
                Outage::ServerError(502),
            ),
            _ => {}
        }
        match fastrand::u8(..5) {
            0 => {
                fake.say(&carol(), CHANNEL, Some(GUILD_ID), &random_text())
                    .await;
            }
            1 => {
                fake.say(&carol(), 900 + fastrand::u64(..3), None, &random_text())
                    .await;
            }
            2 => {
                let token = fake.press(&carol(), &started, &random_text()).await;
                interactions.push(("press".to_owned(), token));
            }
            3 => {
                let command = COMMANDS[fastrand::usize(..COMMANDS.len())];
                let options = (0..fastrand::usize(0..3))
                    .map(|_| {
                        string_option(OPTIONS[fastrand::usize(..OPTIONS.len())], &random_text())
                    })
                    .collect();
                let token = fake
                    .slash(&carol(), CHANNEL, Some(GUILD_ID), command, options, &[])
                    .await;
                interactions.push((command.to_owned(), token));
            }
            _ => {
                // The players press buttons that mean nothing.
                let player = if fastrand::bool() { alice() } else { bob() };
                let token = fake
                    .press(&player, &started, &format!("zz:{}", random_text()))
                    .await;
                interactions.push(("player press".to_owned(), token));
            }
        }
    }
    // Every interaction is answered, garbage or not (Discord shows "the
    // application did not respond" otherwise).
    for (what, token) in &interactions {
        fake.wait_for(&format!("an answer to {what} (seed {seed})"), |fake| {
            (!fake.callbacks(token).is_empty()).then_some(())
        })
        .await;
    }
    fake.set_initial_response_window(INITIAL_RESPONSE_WINDOW);
    // A command Discord still shows but the bot no longer has is answered too.
    let token = fake
        .slash(&carol(), CHANNEL, Some(GUILD_ID), "oldcommand", vec![], &[])
        .await;
    let answer = fake.wait_for_ephemeral("the unknown command", &token).await;
    assert!(
        answer.text().contains("no longer have this command"),
        "{}",
        answer.text()
    );
    // Alice (white) moves: the game plays on, on the same connection.
    fake.say(&alice(), CHANNEL, Some(GUILD_ID), "e4").await;
    fake.wait_for_message("the board after e4", |m| {
        m.place == Place::Channel(CHANNEL) && m.has_png() && m.text().contains("played e4.")
    })
    .await;
    let after = service
        .store()
        .get("discord", &game)
        .await
        .expect("store")
        .expect("game");
    assert_eq!(after.moves, "e2e4", "seed {seed}");
    assert_eq!(
        (
            &after.status,
            &after.chat_id,
            after.draw_offer,
            after.takeback_offer
        ),
        (&before.status, &before.chat_id, None, None),
        "seed {seed}: strangers changed the game"
    );
    assert_eq!(
        fake.identifies().len(),
        1,
        "seed {seed}: no reconnection was needed"
    );
    // The game plays on to its end (Alice mates): nothing was lost.
    for (player, san) in [
        (bob(), "f6"),
        (alice(), "d4"),
        (bob(), "g5"),
        (alice(), "Qh5#"),
    ] {
        fake.say(&player, CHANNEL, Some(GUILD_ID), san).await;
        fake.wait_for_message(&format!("the board after {san}"), |m| {
            m.place == Place::Channel(CHANNEL) && m.text().contains(&format!("played {san}."))
        })
        .await;
    }
    let ended = service
        .store()
        .get("discord", &game)
        .await
        .expect("store")
        .expect("game");
    assert_ne!(ended.status, before.status, "seed {seed}: the game ended");
    assert_eq!(
        ended.moves.as_str().split_whitespace().count(),
        5,
        "seed {seed}"
    );
    // Every failure the test fired reached the bot.
    let requests = fake.requests();
    for (what, fired) in [
        ("a lost answer", requests.iter().any(|r| r.outage.is_some())),
        ("a 503", requests.iter().any(|r| r.status == 503)),
        ("a 429", requests.iter().any(|r| r.status == 429)),
        (
            "an expired interaction",
            requests.iter().any(|r| r.response["code"] == 10062),
        ),
    ] {
        assert!(fired, "seed {seed}: {what} never happened");
    }
    // No message was posted twice, whatever Discord lost.
    let mut posted: Vec<String> = fake
        .messages_in(CHANNEL)
        .iter()
        .filter(|m| m.text().contains(" played "))
        .map(|m| m.text())
        .collect();
    let all = posted.len();
    posted.dedup();
    assert_eq!(posted.len(), all, "seed {seed}: a move was announced twice");
    // Discord refused only what the test made it refuse: the DMs it closed,
    // the outages it fired, the interactions it let expire. Nothing the bot
    // built was malformed (empty, too long, bad components).
    for request in fake.requests() {
        let code = request.response["code"].as_u64();
        let fired = request.status == 429 || request.status >= 500;
        assert!(
            request.status < 400 || fired || matches!(code, Some(50007 | 50278 | 10062)),
            "seed {seed}: Discord refused {} {}: {}",
            request.method,
            request.path,
            request.response
        );
    }
    bot.stop().await;
}

/// The paths of the bot's command registrations (`PUT …/commands`), in order.
fn command_registrations(fake: &FakeDiscord) -> Vec<String> {
    fake.requests()
        .into_iter()
        .filter(|r| r.method == "PUT" && r.path.ends_with("/commands"))
        .map(|r| r.path)
        .collect()
}

/// Registering the commands holds no event (poise waits for its setup), and a
/// restart of the same build does not send them again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn commands_are_registered_beside_the_events_and_only_when_they_changed() {
    let registrations = |fake: &FakeDiscord| command_registrations(fake).len();
    let fake = FakeDiscord::start().await;
    // Discord takes longer to register the commands than an interaction
    // may wait for its first answer.
    fake.slow_command_registration(std::time::Duration::from_secs(5));
    let (_service, bot) = start(&fake, "register-slowly").await;
    let token = fake
        .slash(&alice(), CHANNEL, Some(GUILD_ID), "help", vec![], &[])
        .await;
    let answer = fake.wait_for_ephemeral("the help at start", &token).await;
    assert!(answer.text().contains("/play"), "{}", answer.text());
    let callback_refusals: Vec<_> = fake
        .requests()
        .into_iter()
        .filter(|r| r.path.ends_with(&format!("/{token}/callback")) && r.status >= 400)
        .map(|r| r.response)
        .collect();
    assert!(
        callback_refusals.is_empty(),
        "answered in time: {callback_refusals:?}"
    );
    assert_eq!(
        registrations(&fake),
        0,
        "the answer did not wait for the registration"
    );
    fake.wait_for("the commands registered", |fake| {
        (registrations(fake) == 1).then_some(())
    })
    .await;
    bot.stop().await;

    // The same build starts again: the commands Discord lists are its own.
    let (_service, bot) = start(&fake, "register-again").await;
    let token = fake
        .slash(&alice(), CHANNEL, Some(GUILD_ID), "help", vec![], &[])
        .await;
    fake.wait_for_ephemeral("the help after the restart", &token)
        .await;
    fake.wait_for("the registered commands listed", |fake| {
        let listed = fake
            .requests()
            .into_iter()
            .filter(|r| r.method == "GET" && r.path.ends_with("/commands"))
            .count();
        (listed == 2).then_some(())
    })
    .await;
    // Give a registration that should not happen the time to happen.
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(registrations(&fake), 1, "nothing changed, nothing sent");
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn commands_go_to_one_guild_for_development_and_everywhere_otherwise() {
    let registrations = command_registrations;
    let fake = FakeDiscord::start().await;
    let (_service, bot) = start(&fake, "global").await;
    fake.wait_for("the commands registered", |fake| {
        (!registrations(fake).is_empty()).then_some(())
    })
    .await;
    assert!(
        registrations(&fake)
            .iter()
            .all(|path| !path.contains("/guilds/")),
        "{:?}",
        registrations(&fake)
    );
    bot.stop().await;

    let fake = FakeDiscord::start().await;
    let (_service, bot) = start_with(&fake, "guild", |discord| {
        discord.dev_guild = Some(GUILD_ID);
    })
    .await;
    fake.wait_for("the commands registered", |fake| {
        (!registrations(fake).is_empty()).then_some(())
    })
    .await;
    assert_eq!(
        registrations(&fake),
        vec![format!("/applications/100/guilds/{GUILD_ID}/commands")]
    );
    assert!(fake.registered_commands().len() >= 13);
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_battle_game_is_set_up_with_the_buttons_of_the_setup_dms() {
    let fake = FakeDiscord::start().await;
    fake.add_user(&alice());
    fake.add_user(&bob());
    let (_service, bot) = start(&fake, "battle-setup").await;
    accept_challenge(&fake, "battle").await;
    fake.wait_for_message("the setup notice", |m| {
        m.place == Place::Channel(CHANNEL) && m.text().contains("is being set up")
    })
    .await;
    let (alice_board, bob_board) = fake
        .wait_for("both setup boards", |fake| {
            Some((
                fake.dms_to(alice().id).into_iter().next()?,
                fake.dms_to(bob().id).into_iter().next()?,
            ))
        })
        .await;
    for board in [&alice_board, &bob_board] {
        assert!(board.has_png(), "{}", board.text());
        let labels: Vec<&str> = board.buttons.iter().map(|b| b.label.as_str()).collect();
        assert_eq!(labels, ["Random", "Ready", "Show board"]);
    }
    // Each player: Random, then Ready, by button in their DM.
    for (player, board) in [(alice(), &alice_board), (bob(), &bob_board)] {
        fake.press_button(&player, board, "sr:").await;
        let placed = fake
            .wait_for("the random setup", |fake| {
                fake.dms_to(player.id)
                    .into_iter()
                    .find(|m| m.text().contains("random setup was placed"))
            })
            .await;
        assert!(placed.text().contains("is complete"), "{}", placed.text());
        fake.press_button(&player, &placed, "sy:").await;
    }
    let revealed = fake
        .wait_for_message("the reveal", |m| {
            m.place == Place::Channel(CHANNEL) && m.text().contains("both setups are revealed")
        })
        .await;
    assert!(revealed.has_png());
    // Until then the channel saw no board and no square.
    for message in fake.messages_in(CHANNEL) {
        if message.text().contains("revealed") || message.text().contains("starts") {
            continue;
        }
        assert!(
            !message.has_png(),
            "a board in the channel: {}",
            message.text()
        );
    }
    // A ready setup's board has no buttons any more.
    let last = fake.dms_to(alice().id).into_iter().last().expect("a DM");
    assert!(last.buttons.is_empty(), "{last:?}");
    bot.stop().await;
}

/// The channel's messages with the game id `id` taken out (a random id may
/// spell a square).
fn channel_texts(fake: &FakeDiscord, id: &str) -> Vec<String> {
    fake.messages_in(CHANNEL)
        .iter()
        .map(|m| m.text().replace(id, "ID"))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_kriegspiel_game_is_played_by_dm_and_refereed_in_the_channel() {
    let fake = FakeDiscord::start().await;
    fake.add_user(&alice());
    fake.add_user(&bob());
    let (_service, bot) = start(&fake, "kriegspiel").await;
    let started = accepted_game(&fake, "kriegspiel").await;
    assert!(!started.has_png(), "no public board in Kriegspiel");
    fake.wait_for("both private boards", |fake| {
        (fake.dms_to(alice().id).len() == 1 && fake.dms_to(bob().id).len() == 1).then_some(())
    })
    .await;
    let alice_dm = fake.dm_channel_of(alice().id).expect("alice's DM channel");
    let bob_dm = fake.dm_channel_of(bob().id).expect("bob's DM channel");
    let heard = |fake: &FakeDiscord, text: &str| {
        fake.messages_in(CHANNEL)
            .iter()
            .filter(|m| m.text().contains(text))
            .count()
    };

    fake.say(&alice(), alice_dm, None, "e4").await;
    let moved = fake
        .wait_for_message("the referee: alice has moved", |m| {
            m.place == Place::Channel(CHANNEL) && m.text().contains("alice (white) has moved")
        })
        .await;
    let id = moved
        .text()
        .split(':')
        .next()
        .unwrap_or_default()
        .to_owned();
    let told_bob = fake
        .wait_for("bob hears it with his board", |fake| {
            fake.dms_to(bob().id)
                .into_iter()
                .find(|m| m.text().contains("alice (white) has moved"))
        })
        .await;
    assert!(told_bob.has_png());
    assert!(!told_bob.text().replace(&id, "ID").contains("e4"));

    fake.say(&bob(), bob_dm, None, "e5").await;
    fake.wait_for("the referee: bob has moved", |fake| {
        (heard(fake, "bob (black) has moved") == 1).then_some(())
    })
    .await;
    // An impossible attempt: "impossible" to alice, announced to all.
    fake.say(&alice(), alice_dm, None, "e5").await;
    fake.wait_for("impossible, to alice", |fake| {
        fake.dms_to(alice().id)
            .into_iter()
            .find(|m| m.text().contains("is impossible"))
    })
    .await;
    fake.wait_for("the attempt, to all", |fake| {
        (heard(fake, "alice (white) tried an impossible move") == 1).then_some(())
    })
    .await;
    // Still her turn: d4, then bob takes it.
    fake.say(&alice(), alice_dm, None, "d4").await;
    fake.wait_for("alice's second move", |fake| {
        (heard(fake, "alice (white) has moved") == 2).then_some(())
    })
    .await;
    fake.say(&bob(), bob_dm, None, "exd4").await;
    fake.wait_for("the capture square", |fake| {
        (heard(fake, "bob (black) captures on d4") == 1).then_some(())
    })
    .await;

    // The channel heard the referee, never a move or a board.
    for text in channel_texts(&fake, &id) {
        for secret in ["e4", "e5", "exd4", "you played"] {
            assert!(!text.contains(secret), "the channel saw {secret}: {text}");
        }
    }
    assert!(fake.messages_in(CHANNEL).iter().all(|m| !m.has_png()));
    bot.stop().await;
}

/// `/lang language channel:true`: the channel's language, set only by a
/// member with Manage Server; anyone else is told so and nothing changes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_a_server_manager_sets_the_channels_language() {
    let fake = FakeDiscord::start().await;
    let (service, bot) = start(&fake, "lang-admin").await;
    let member = bob().plain_member();
    fake.add_user(&member);
    let channel_lang = || async {
        service
            .store()
            .lang(
                kodex_bot::store::LangOwner::Chat,
                "discord",
                &CHANNEL.to_string(),
            )
            .await
            .expect("the store answers")
    };
    // Language 1 is Russian (poise sends a choice as its index).
    let options = || {
        vec![
            integer_option("language", 1),
            kodex_tests::fake_discord::payloads::option("channel", 5, serde_json::json!(true)),
        ]
    };
    let token = fake
        .slash(&member, CHANNEL, Some(GUILD_ID), "lang", options(), &[])
        .await;
    let refusal = fake.wait_for_ephemeral("the refusal", &token).await;
    assert!(
        refusal.text().contains("Only the chat's admins"),
        "{}",
        refusal.text()
    );
    assert_eq!(channel_lang().await, None, "nothing changed");

    let token = fake
        .slash(&alice(), CHANNEL, Some(GUILD_ID), "lang", options(), &[])
        .await;
    let confirmation = fake.wait_for_ephemeral("the confirmation", &token).await;
    assert!(
        confirmation.text().contains("Russian"),
        "{}",
        confirmation.text()
    );
    assert_eq!(channel_lang().await.as_deref(), Some("ru"));
    bot.stop().await;
}

/// A fog-of-war move typed in the game's channel is refused, and then
/// deleted where the bot has Manage Messages; where it has not, Discord's
/// refusal (50013) changes nothing else and the game goes on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fog_move_typed_in_the_channel_is_deleted_where_the_bot_may() {
    let fake = FakeDiscord::start().await;
    fake.add_user(&alice());
    fake.add_user(&bob());
    let (_service, bot) = start(&fake, "fog-delete").await;
    accepted_game(&fake, "fogofwar").await;
    fake.wait_for("both private boards", |fake| {
        (fake.dms_to(alice().id).len() == 1 && fake.dms_to(bob().id).len() == 1).then_some(())
    })
    .await;
    let delete_attempts = |fake: &FakeDiscord, message: u64| {
        fake.requests()
            .into_iter()
            .filter(|request| {
                request.method == "DELETE"
                    && request.path.ends_with(&format!("/messages/{message}"))
            })
            .map(|request| request.status)
            .collect::<Vec<u16>>()
    };

    // No Manage Messages: the bot tries, Discord refuses, the move stays.
    let kept = fake.say(&alice(), CHANNEL, Some(GUILD_ID), "e4").await;
    fake.wait_for("the refusal by DM", |fake| {
        fake.dms_to(alice().id)
            .iter()
            .any(|m| m.text().contains("private chat"))
            .then_some(())
    })
    .await;
    fake.wait_for("the attempt", |fake| {
        (!delete_attempts(fake, kept).is_empty()).then_some(())
    })
    .await;
    assert_eq!(delete_attempts(&fake, kept), vec![403]);
    assert!(!fake.was_deleted(kept));

    // With Manage Messages the move typed in public is gone.
    fake.grant_manage_messages(CHANNEL);
    let removed = fake.say(&alice(), CHANNEL, Some(GUILD_ID), "d4").await;
    fake.wait_for("the deletion", |fake| {
        fake.was_deleted(removed).then_some(())
    })
    .await;
    assert_eq!(delete_attempts(&fake, removed), vec![204]);

    // The game goes on from the private chat, and nothing leaked.
    let dm = fake.dm_channel_of(alice().id).expect("alice's DM channel");
    fake.say(&alice(), dm, None, "e4").await;
    fake.wait_for("alice's board after e4", |fake| {
        fake.dms_to(alice().id)
            .iter()
            .any(|m| m.text().contains("you played e4"))
            .then_some(())
    })
    .await;
    leak_free(&fake, &["you played"]);
    bot.stop().await;
}

/// The names of autocomplete choices.
fn names(choices: &[serde_json::Value]) -> Vec<String> {
    choices
        .iter()
        .map(|choice| choice["name"].as_str().unwrap_or_default().to_owned())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_turn_is_one_embed_with_the_board_inside_and_live_clocks() {
    let fake = FakeDiscord::start().await;
    let (_service, bot) = start(&fake, "embeds").await;
    let challenge = challenge_with_clock(&fake, "3+2").await;
    assert!(challenge.text().contains("3+2"), "{}", challenge.text());
    fake.press_button(&bob(), &challenge, "acc:").await;
    fake.wait_for_message("the start", |m| m.text().contains("starts"))
        .await;
    fake.say(&alice(), CHANNEL, Some(GUILD_ID), "e4").await;
    let turn = fake
        .wait_for_message("the turn after e4", |m| m.text().contains("played e4."))
        .await;
    assert_eq!(turn.place, Place::Channel(CHANNEL));
    // No loose text: the content is only the ping of the player to move.
    assert_eq!(turn.content, format!("<@{}>", bob().id));
    assert_eq!(turn.embeds.len(), 1, "one embed");
    let embed = &turn.embeds[0];
    let title = embed["title"].as_str().unwrap_or_default();
    for part in ["Standard", "alice", "bob"] {
        assert!(title.contains(part), "{title}");
    }
    let description = embed["description"].as_str().unwrap_or_default();
    assert!(description.contains("played e4."), "{description}");
    assert!(description.contains("bob (black) to move"), "{description}");
    // The board is the message's own attachment, shown inside the embed.
    let board = turn.embedded_image().expect("attachment://<the board>");
    assert!(board.bytes.starts_with(b"\x89PNG"));
    // Bob's clock runs: a live countdown to when his flag falls (the
    // service's clock stands at EPOCH). Alice's shows her time after the
    // increment.
    let deadline = (EPOCH + 180_000) / 1000;
    let text = turn.text();
    assert!(text.contains(&format!("⏱ bob: <t:{deadline}:R>")), "{text}");
    assert!(text.contains("⏱ alice: 3:02"), "{text}");
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fog_games_embed_shows_no_board_and_no_move() {
    let fake = FakeDiscord::start().await;
    let (_service, bot) = start(&fake, "fog-embed").await;
    accepted_game(&fake, "fogofwar").await;
    let dm = fake
        .wait_for("alice's private board", |fake| {
            fake.dm_channel_of(alice().id)
        })
        .await;
    fake.say(&alice(), dm, None, "e4").await;
    let turn = fake
        .wait_for_message("the public turn", |m| {
            m.place == Place::Channel(CHANNEL) && m.text().contains("bob (black) to move")
        })
        .await;
    assert_eq!(turn.embeds.len(), 1);
    assert!(turn.embeds[0]["image"].is_null(), "{:?}", turn.embeds[0]);
    assert!(turn.files.is_empty());
    leak_free(&fake, &["e4", "e2"]);
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn move_autocomplete_offers_the_callers_legal_moves_on_their_turn_only() {
    let fake = FakeDiscord::start().await;
    let (_service, bot) = start(&fake, "move-autocomplete").await;
    let started = accepted_game(&fake, "chess").await;
    let id = started.embeds[0]["title"]
        .as_str()
        .and_then(|title| title.rsplit(' ').next())
        .unwrap_or_default()
        .to_owned();
    let knights = fake
        .autocomplete(&alice(), CHANNEL, "move", "move", "N")
        .await;
    assert_eq!(names(&knights), ["Na3", "Nc3", "Nf3", "Nh3"]);
    assert_eq!(knights[2]["value"], "g1f3", "chosen, the move goes as UCI");
    let all = fake
        .autocomplete(&alice(), CHANNEL, "move", "move", "")
        .await;
    assert!(all.len() <= 25 && !all.is_empty());
    // Not Bob's turn; not Carol's game.
    assert!(fake
        .autocomplete(&bob(), CHANNEL, "move", "move", "")
        .await
        .is_empty());
    let carol = FakeUser::new(1003, "carol");
    assert!(fake
        .autocomplete(&carol, CHANNEL, "move", "move", "e")
        .await
        .is_empty());
    // Game ids: the caller's own games.
    let games = fake
        .autocomplete(&bob(), CHANNEL, "resign", "game", "")
        .await;
    assert_eq!(games.len(), 1);
    assert_eq!(games[0]["value"], id.as_str());
    assert!(fake
        .autocomplete(&carol, CHANNEL, "resign", "game", "")
        .await
        .is_empty());
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn move_autocomplete_in_fog_shows_only_what_the_player_sees() {
    let fake = FakeDiscord::start().await;
    let (_service, bot) = start(&fake, "fog-autocomplete").await;
    accepted_game(&fake, "fogofwar").await;
    let moves = fake
        .autocomplete(&alice(), CHANNEL, "move", "move", "")
        .await;
    // White's twenty first moves, all between squares White sees.
    let mut all = Vec::new();
    for typed in ["a", "b", "c", "d", "e", "f", "g", "h", "N"] {
        all.extend(names(
            &fake
                .autocomplete(&alice(), CHANNEL, "move", "move", typed)
                .await,
        ));
    }
    all.sort();
    all.dedup();
    assert_eq!(all.len(), 20, "{all:?}");
    assert!(moves.len() <= 25);
    assert!(all.iter().all(|name| !name.contains(['+', '#'])));
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clock_autocomplete_suggests_the_presets_and_what_was_typed() {
    let fake = FakeDiscord::start().await;
    let (_service, bot) = start(&fake, "clock-autocomplete").await;
    let all = fake
        .autocomplete(&alice(), CHANNEL, "play", "clock", "")
        .await;
    let values: Vec<&str> = all.iter().filter_map(|c| c["value"].as_str()).collect();
    for clock in ["1+0", "3+2", "10+5", "15+10", "1d"] {
        assert!(values.contains(&clock), "{values:?}");
    }
    assert!(
        names(&all).iter().any(|name| name == "3+2 · blitz"),
        "{all:?}"
    );
    let ones = fake
        .autocomplete(&alice(), CHANNEL, "play", "clock", "1")
        .await;
    let values: Vec<&str> = ones.iter().filter_map(|c| c["value"].as_str()).collect();
    assert!(values.contains(&"15+10") && values.contains(&"1d") && !values.contains(&"3+2"));
    let own = fake
        .autocomplete(&alice(), CHANNEL, "play", "clock", "4+4")
        .await;
    assert_eq!(own[0]["value"], "4+4");
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_adapters_own_notes_follow_the_users_lang() {
    let fake = FakeDiscord::start().await;
    let (_service, bot) = start(&fake, "adapter-lang").await;
    // Bob's Discord is in English; he chooses Russian.
    let token = fake
        .slash(
            &bob(),
            CHANNEL,
            Some(GUILD_ID),
            "lang",
            vec![integer_option("language", 1)],
            &[],
        )
        .await;
    fake.wait_for_ephemeral("the language set", &token).await;
    accepted_game(&fake, "fogofwar").await;
    let dm = fake
        .wait_for("alice's private board", |fake| {
            fake.dm_channel_of(alice().id)
        })
        .await;
    fake.say(&alice(), dm, None, "e4").await;
    fake.wait_for("bob's second board", |fake| {
        (fake.dms_to(bob().id).len() == 2).then_some(())
    })
    .await;
    // Bob's /move goes by DM; the note where he typed it is in his /lang.
    let token = fake
        .slash(
            &bob(),
            CHANNEL,
            Some(GUILD_ID),
            "move",
            vec![string_option("move", "e5")],
            &[],
        )
        .await;
    let pointer = fake
        .wait_for_ephemeral("the pointer to the DM", &token)
        .await;
    assert_eq!(pointer.text(), "Отправлено вам в личные сообщения.");
    bot.stop().await;
}

/// The knight moves `alice()` is offered in a fog game after 1.d3 e6
/// 2.Nd2 and Black's `second` move.
async fn fog_knight_suggestions(name: &str, second: &str) -> Vec<String> {
    let fake = FakeDiscord::start().await;
    let (_service, bot) = start(&fake, name).await;
    accepted_game(&fake, "fogofwar").await;
    let (alice_dm, bob_dm) = fake
        .wait_for("both private boards", |fake| {
            Some((
                fake.dm_channel_of(alice().id)?,
                fake.dm_channel_of(bob().id)?,
            ))
        })
        .await;
    for (index, (player, dm, san)) in [
        (alice(), alice_dm, "d3"),
        (bob(), bob_dm, "e6"),
        (alice(), alice_dm, "Nd2"),
        (bob(), bob_dm, second),
    ]
    .into_iter()
    .enumerate()
    {
        fake.say(&player, dm, None, san).await;
        fake.wait_for(&format!("the boards after {san}"), |fake| {
            (fake.dms_to(alice().id).len() >= index + 2).then_some(())
        })
        .await;
    }
    let knights = names(
        &fake
            .autocomplete(&alice(), CHANNEL, "move", "move", "N")
            .await,
    );
    bot.stop().await;
    knights
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fog_move_suggestions_do_not_tell_of_a_pin_in_the_fog() {
    // After 2...Bb4 the knight on d2 is pinned by a bishop White cannot
    // see; after 2...Be7 it is free. White is offered the same moves.
    let pinned = fog_knight_suggestions("fog-pinned", "Bb4").await;
    let free = fog_knight_suggestions("fog-free", "Be7").await;
    assert_eq!(pinned, free);
    assert!(pinned.contains(&"Ndf3".to_owned()), "{pinned:?}");
}

/// The game id in the file name of a board a message carries (`k7m2-0.png`).
fn board_game_id(message: &SentMessage) -> String {
    message
        .files
        .first()
        .and_then(|file| file.name.split('-').next())
        .expect("the game id in the board's file name")
        .to_owned()
}

/// Alice and Bob type `moves` in [`CHANNEL`] in turn (Alice first), without
/// waiting for answers.
async fn type_in_turn(fake: &FakeDiscord, moves: &[&str]) {
    for (index, san) in moves.iter().enumerate() {
        let player = if index % 2 == 0 { alice() } else { bob() };
        fake.say(&player, CHANNEL, Some(GUILD_ID), san).await;
    }
}

/// How many messages in [`CHANNEL`] contain `text`.
fn count_in_channel(fake: &FakeDiscord, text: &str) -> usize {
    fake.messages_in(CHANNEL)
        .iter()
        .filter(|m| m.text().contains(text))
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn passing_discord_failures_are_retried_and_nothing_is_posted_twice() {
    let fake = FakeDiscord::start().await;
    let (_service, bot) = start(&fake, "outages").await;
    let started = accepted_game(&fake, "chess").await;

    // Discord posts the board, then its edge loses the answer (502): the
    // adapter sends it again with the same nonce and Discord answers with
    // the message it already has.
    fake.fail_next(
        "POST",
        "/channels/*/messages",
        Outage::ServerErrorAfterDoing(502),
    );
    fake.say(&alice(), CHANNEL, Some(GUILD_ID), "e4").await;
    fake.wait_for_message("the board after e4", |m| m.text().contains("played e4."))
        .await;
    let posts = |fake: &FakeDiscord| -> Vec<kodex_tests::fake_discord::RecordedRequest> {
        fake.requests()
            .into_iter()
            .filter(|r| r.method == "POST" && r.path == format!("/channels/{CHANNEL}/messages"))
            .collect()
    };
    fake.wait_for("the repeated post", |fake| {
        posts(fake).iter().any(|r| r.duplicate).then_some(())
    })
    .await;
    let repeated = posts(&fake);
    let (first, second) = (&repeated[repeated.len() - 2], &repeated[repeated.len() - 1]);
    assert_eq!(first.outage, Some(502));
    assert!(second.duplicate, "the second post repeats the first");
    assert_eq!(
        first.json["nonce"], second.json["nonce"],
        "one nonce for both attempts"
    );
    assert_eq!(second.json["enforce_nonce"], true);
    assert_eq!(count_in_channel(&fake, "played e4."), 1, "posted once");

    // Refused before anything was done: a 503 page, then flood control.
    fake.fail_next("POST", "/channels/*/messages", Outage::ServerError(503));
    fake.say(&bob(), CHANNEL, Some(GUILD_ID), "e5").await;
    fake.wait_for_message("the board after e5", |m| m.text().contains("played e5."))
        .await;
    fake.fail_next("POST", "/channels/*/messages", Outage::RateLimited);
    fake.say(&alice(), CHANNEL, Some(GUILD_ID), "Nf3").await;
    fake.wait_for_message("the board after Nf3", |m| m.text().contains("played Nf3."))
        .await;
    assert_eq!(count_in_channel(&fake, "played e5."), 1);
    assert_eq!(count_in_channel(&fake, "played Nf3."), 1);

    // A slash command's deferral taken by Discord but answered with a 502:
    // repeated, it is "already acknowledged" (40060), and the answer still
    // comes.
    fake.fail_next(
        "POST",
        "/interactions/*/*/callback",
        Outage::ServerErrorAfterDoing(502),
    );
    let boards_before = fake.messages_in(CHANNEL).len();
    let token = fake
        .slash(&bob(), CHANNEL, Some(GUILD_ID), "board", vec![], &[])
        .await;
    fake.wait_for("the board, and the deferral closed", |fake| {
        fake.requests()
            .iter()
            .any(|r| r.method == "DELETE" && r.path.contains(&token) && r.status == 204)
            .then_some(())
    })
    .await;
    let shown = fake.messages_in(CHANNEL);
    assert_eq!(shown.len(), boards_before + 1);
    assert!(shown[boards_before].has_png());
    let callbacks: Vec<u64> = fake
        .requests()
        .iter()
        .filter(|r| r.path.ends_with(&format!("/{token}/callback")))
        .map(|r| r.response["code"].as_u64().unwrap_or(0))
        .collect();
    assert_eq!(callbacks, [0, 40_060], "deferred once, repeated once");

    // A button press whose acknowledgement first meets a 503.
    fake.fail_next(
        "POST",
        "/interactions/*/*/callback",
        Outage::ServerError(503),
    );
    let press = fake.press(&bob(), &started, "zz:nothing").await;
    fake.wait_for("the press acknowledged", |fake| {
        fake.requests()
            .iter()
            .any(|r| r.path.ends_with(&format!("/{press}/callback")) && r.status == 204)
            .then_some(())
    })
    .await;
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_typed_in_quick_succession_are_answered_in_their_order() {
    let fake = FakeDiscord::start().await;
    let (service, bot) = start(&fake, "typed-order").await;
    let started = accepted_game(&fake, "chess").await;
    let game = board_game_id(&started);
    // Discord is slow to take posts here, so answers pile up while the
    // players keep typing; the gateway hands the messages over at once.
    fake.slow_channel(CHANNEL, std::time::Duration::from_millis(150));
    let moves = [
        "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7",
    ];
    type_in_turn(&fake, &moves).await;
    fake.wait_for_message("the last board", |m| m.text().contains("played Be7."))
        .await;
    let answered: Vec<String> = fake
        .messages_in(CHANNEL)
        .iter()
        .filter_map(|m| {
            let text = m.text();
            let (_, rest) = text.split_once(" played ")?;
            Some(rest.split('.').next()?.to_owned())
        })
        .collect();
    assert_eq!(answered, moves, "every move answered, in order");
    let row = service
        .store()
        .get("discord", &game)
        .await
        .expect("store")
        .expect("game");
    assert_eq!(row.moves.as_str().split_whitespace().count(), moves.len());
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clean_stop_answers_the_moves_already_typed() {
    let fake = FakeDiscord::start().await;
    let (service, bot) = start(&fake, "stop-typed").await;
    let started = accepted_game(&fake, "chess").await;
    let game = board_game_id(&started);
    fake.slow_channel(CHANNEL, std::time::Duration::from_millis(100));
    let moves = ["e4", "e5", "Nf3", "Nc6"];
    type_in_turn(&fake, &moves).await;
    // The last message has reached the adapter (it is answered or queued).
    fake.wait_for("bob's Nc6 taken", |fake| {
        fake.requests()
            .iter()
            .any(|r| {
                // The turn is an embed: look anywhere in what was sent.
                r.json.to_string().contains("played e4.")
            })
            .then_some(())
    })
    .await;
    bot.stop().await;
    let row = service
        .store()
        .get("discord", &game)
        .await
        .expect("store")
        .expect("game");
    assert_eq!(
        row.moves.as_str().split_whitespace().count(),
        moves.len(),
        "every typed move played"
    );
    for san in moves {
        assert_eq!(
            count_in_channel(&fake, &format!("played {san}.")),
            1,
            "{san} answered before the stop"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fog_game_under_discord_outages_finishes_and_posts_nothing_hidden() {
    let fake = FakeDiscord::start().await;
    fake.add_user(&alice());
    fake.add_user(&bob());
    let (service, bot) = start(&fake, "fog-outages").await;
    let started = accepted_game(&fake, "fogofwar").await;
    let game = started
        .text()
        .split("Game ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .expect("Game <id> starts")
        .trim_end_matches(':')
        .to_owned();
    fake.wait_for("both private boards", |fake| {
        (fake.dms_to(alice().id).len() == 1 && fake.dms_to(bob().id).len() == 1).then_some(())
    })
    .await;
    let alice_dm = fake.dm_channel_of(alice().id).expect("alice's DM");
    let bob_dm = fake.dm_channel_of(bob().id).expect("bob's DM");
    // Each move meets one of Discord's passing failures; before the third,
    // Bob closes his DMs, so his board can only be shown to him on request.
    let turns: [(FakeUser, u64, &str, Option<Outage>); 4] = [
        (
            alice(),
            alice_dm,
            "e4",
            Some(Outage::ServerErrorAfterDoing(502)),
        ),
        (bob(), bob_dm, "f6", Some(Outage::ServerError(503))),
        (alice(), alice_dm, "d4", Some(Outage::RateLimited)),
        (bob(), bob_dm, "g5", None),
    ];
    for (index, (player, dm, san, outage)) in turns.into_iter().enumerate() {
        if let Some(outage) = outage {
            fake.fail_next("POST", "/channels/*/messages", outage);
        }
        if index == 2 {
            fake.refuse_dms_from(bob().id);
        }
        fake.say(&player, dm, None, san).await;
        // Played, and answered: the mover's board (Bob's by DM while his
        // DMs are open, else the channel's notice).
        let mut played = 0;
        for _ in 0..600 {
            let row = service.store().get("discord", &game).await.expect("store");
            played = row.map_or(0, |row| row.moves.as_str().split_whitespace().count());
            if played == index + 1 {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        assert_eq!(played, index + 1, "{san} played");
    }
    fake.wait_for("alice's board after g5", |fake| {
        (fake.dms_to(alice().id).len() == 5).then_some(())
    })
    .await;
    // Bob's board after d4 could not go by DM: the channel got a notice
    // with a button, never the board.
    fake.wait_for_message("the DM-refused notice", |m| m.button("board:").is_some())
        .await;
    for player in [alice(), bob()] {
        let boards: Vec<String> = fake
            .dms_to(player.id)
            .iter()
            .map(|m| m.text().clone())
            .collect();
        let mut unique = boards.clone();
        unique.dedup();
        assert_eq!(unique, boards, "{}: a board came twice", player.name);
    }
    leak_free(&fake, &["e4", "f6", "d4", "g5", "you played"]);

    // Alice mates: the game ends, whatever Discord lost on the way.
    fake.fail_next(
        "POST",
        "/channels/*/messages",
        Outage::ServerErrorAfterDoing(502),
    );
    fake.say(&alice(), alice_dm, None, "Qh5").await;
    fake.wait_for("the end", |fake| {
        let row = fake.messages_in(CHANNEL);
        row.iter()
            .any(|m| m.text().contains("1-0") || m.text().contains("wins"))
            .then_some(())
    })
    .await;
    let row = service
        .store()
        .get("discord", &game)
        .await
        .expect("store")
        .expect("game");
    assert_eq!(row.moves.as_str().split_whitespace().count(), 5);
    assert_eq!(row.status, kodex_bot::store::Status::Finished);
    bot.stop().await;
}

/// The game id a start message names ("Game k7m2 starts").
fn started_id(message: &SentMessage) -> String {
    message
        .text()
        .split_once("Game ")
        .and_then(|(_, rest)| rest.split_whitespace().next())
        .expect("a game id")
        .to_owned()
}

/// Fool's mate, typed in the channel: bob wins. Returns the result message.
async fn fools_mate(fake: &FakeDiscord) -> SentMessage {
    for (player, san) in [(alice(), "f3"), (bob(), "e5"), (alice(), "g4")] {
        fake.say(&player, CHANNEL, Some(GUILD_ID), san).await;
        fake.wait_for_message(&format!("the board after {san}"), |m| {
            m.text().contains(&format!("played {san}."))
        })
        .await;
    }
    fake.say(&bob(), CHANNEL, Some(GUILD_ID), "Qh4#").await;
    fake.wait_for_message("the result", |m| m.text().contains("checkmate"))
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_by_button_is_offered_with_colours_swapped_and_accepted_by_the_other() {
    let fake = FakeDiscord::start().await;
    let (service, bot) = start(&fake, "rematch").await;
    let started = accepted_game(&fake, "chess").await;
    let first = started_id(&started);
    let end = fools_mate(&fake).await;
    fake.press_button(&bob(), &end, "again:").await;
    let offer = fake
        .wait_for_message("the rematch offer", |m| {
            m.place == Place::Channel(CHANNEL) && m.text().contains("rematch")
        })
        .await;
    assert!(
        offer
            .text()
            .contains(&format!("bob offers alice a rematch of game {first}"))
            && offer.text().contains("bob plays white"),
        "{}",
        offer.text()
    );
    fake.press_button(&alice(), &offer, "acc:").await;
    let second = fake
        .wait_for_message("the rematch starts", |m| {
            m.text().contains("starts") && !m.text().contains(&first)
        })
        .await;
    assert!(
        second.text().contains("bob (white) against alice (black)"),
        "{}",
        second.text()
    );
    let row = service
        .store()
        .get("discord", &started_id(&second))
        .await
        .expect("the store answers")
        .expect("the rematch exists");
    assert_eq!(row.variant, "chess");
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_channel_and_a_dm_watch_a_game_and_see_its_public_boards() {
    const ELSEWHERE: u64 = 301;
    let carol = FakeUser::new(1003, "carol");
    let fake = FakeDiscord::start().await;
    fake.add_user(&carol);
    let (_service, bot) = start(&fake, "watch").await;
    let started = accepted_game(&fake, "chess").await;
    let id = started_id(&started);
    // carol makes another channel watch; the Watch button sends her DMs too.
    fake.slash(
        &carol,
        ELSEWHERE,
        Some(GUILD_ID),
        "watch",
        vec![string_option("game", &id)],
        &[],
    )
    .await;
    fake.wait_for_message("the watch confirmation", |m| {
        m.place == Place::Channel(ELSEWHERE) && m.text().contains("Watching game")
    })
    .await;
    // The channel shows the game: its start offers no Watch button, whose
    // DMs would only copy it; carol watches from her DMs with /watch.
    assert!(started.button("watch:").is_none(), "{:?}", started.buttons);
    const CAROLS_DM: u64 = 302;
    let token = fake
        .slash(
            &carol,
            CAROLS_DM,
            None,
            "watch",
            vec![string_option("game", &id)],
            &[],
        )
        .await;
    let confirmed = fake
        .wait_for_ephemeral("the DM watch's confirmation", &token)
        .await;
    assert!(
        confirmed.text().contains(&format!("Watching game {id}")),
        "{}",
        confirmed.text()
    );
    fake.say(&alice(), CHANNEL, Some(GUILD_ID), "e4").await;
    let there = fake
        .wait_for_message("the move in the other channel", |m| {
            m.place == Place::Channel(ELSEWHERE) && m.text().contains("alice played e4")
        })
        .await;
    assert!(there.has_png(), "a spectator sees the public board");
    assert!(there.buttons.is_empty(), "and no buttons");
    fake.wait_for("the move in carol's DM", |fake| {
        fake.dms_to(carol.id)
            .into_iter()
            .find(|m| m.text().contains("alice played e4") && m.has_png())
    })
    .await;
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_with_a_fen_option_starts_there_and_a_bad_one_is_refused_privately() {
    let fake = FakeDiscord::start().await;
    let (service, bot) = start(&fake, "fen").await;
    let fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
    let token = fake
        .slash(
            &alice(),
            CHANNEL,
            Some(GUILD_ID),
            "play",
            vec![
                string_option("variant", "chess"),
                string_option("fen", "4k3/8/8 w - - 0 1"),
            ],
            &[],
        )
        .await;
    let refusal = fake.wait_for_ephemeral("the refusal", &token).await;
    assert!(
        refusal
            .text()
            .contains("the board has 8 ranks, the position 3"),
        "{}",
        refusal.text()
    );
    let options = vec![
        string_option("variant", "chess"),
        user_option("opponent", &bob()),
        integer_option("colour", 0),
        string_option("fen", fen),
    ];
    let challenge = challenge_with(&fake, options, &[bob()]).await;
    assert!(
        challenge
            .text()
            .contains(&format!("Starts from the position {fen}")),
        "{}",
        challenge.text()
    );
    fake.press_button(&bob(), &challenge, "acc:").await;
    let started = fake
        .wait_for_message("the game starts", |m| m.text().contains("starts"))
        .await;
    let row = service
        .store()
        .get("discord", &started_id(&started))
        .await
        .expect("the store answers")
        .expect("the game exists");
    assert_eq!(row.start_fen.as_deref(), Some(fen));
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_live_player_is_reminded_by_dm_once_when_a_tenth_of_the_clock_is_left() {
    let fake = FakeDiscord::start().await;
    fake.add_user(&alice());
    fake.add_user(&bob());
    let (service, bot, time) = start_timed(&fake, "reminder", |_| {}).await;
    let challenge = challenge_with_clock(&fake, "3+2").await;
    fake.press_button(&bob(), &challenge, "acc:").await;
    fake.wait_for_message("the start", |m| m.text().contains("starts"))
        .await;
    let reminders = |fake: &FakeDiscord, user: u64| {
        fake.dms_to(user)
            .iter()
            .filter(|m| m.text().contains('⏰'))
            .count()
    };
    // Alice (white, to move) has used 165 of her 180 seconds: under a tenth left.
    time.advance(165_000);
    assert_eq!(service.tick().await, 1, "one reminder due");
    fake.wait_for("alice's reminder", |fake| {
        (reminders(fake, alice().id) == 1).then_some(())
    })
    .await;
    time.advance(5_000);
    assert_eq!(service.tick().await, 0, "reminded once");
    assert_eq!(reminders(&fake, alice().id), 1);
    assert_eq!(reminders(&fake, bob().id), 0, "bob is not to move");
    assert!(
        fake.messages_in(CHANNEL)
            .iter()
            .all(|m| !m.text().contains('⏰')),
        "never in the channel"
    );
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bughouse_game_moves_both_boards_into_one_thread() {
    let fake = FakeDiscord::start().await;
    let (service, bot) = start_with(&fake, "bughouse-thread", |discord| {
        discord.game_threads = true
    })
    .await;
    let dave = FakeUser::new(1004, "dave");
    fake.slash(
        &alice(),
        CHANNEL,
        Some(GUILD_ID),
        "play",
        vec![
            string_option("variant", "bughouse"),
            integer_option("colour", 0),
        ],
        &[],
    )
    .await;
    let seats = fake
        .wait_for_message("the seats", |m| m.button("seat:").is_some())
        .await;
    let game = seats
        .button("seat:")
        .and_then(|b| b.custom_id.split(':').nth(1).map(str::to_owned))
        .expect("the game id");
    // The last seat taker is on board B: the pair moves into the thread.
    for (user, seat) in [(bob(), 1), (carol(), 2), (dave.clone(), 3)] {
        fake.press_button(&user, &seats, &format!("seat:{game}:{seat}"))
            .await;
    }
    let thread = fake
        .wait_for("a thread for the game", |fake| {
            fake.threads().into_iter().next()
        })
        .await;
    fake.wait_for_message("the start in the thread", |m| {
        m.place == Place::Channel(thread.id) && m.text().contains("Bughouse game") && m.has_png()
    })
    .await;
    // Both boards are played in the thread, each move one picture of both.
    for (user, san) in [(alice(), "e4"), (carol(), "d4"), (dave, "d5")] {
        fake.say(&user, thread.id, Some(GUILD_ID), san).await;
        let board = fake
            .wait_for_message(&format!("the boards after {san}"), |m| {
                m.text().contains(&format!("{} played {san}.", user.name))
            })
            .await;
        assert_eq!(board.place, Place::Channel(thread.id));
        assert!(board.has_png(), "{san}");
    }
    let board_a = service
        .store()
        .get("discord", &game)
        .await
        .expect("the store")
        .expect("board A");
    let board_b = service
        .store()
        .get("discord", board_a.linked_id.as_deref().expect("board B"))
        .await
        .expect("the store")
        .expect("board B");
    assert_eq!(board_a.chat_id, thread.id.to_string());
    assert_eq!(board_b.chat_id, thread.id.to_string());
    assert_eq!(board_b.moves, "d2d4 d7d5");
    bot.stop().await;
}

/// `/play fourplayer` naming the bot itself as a partner seats the computer
/// there (at the level given), beside the people named.
#[tokio::test]
async fn the_bot_named_in_a_game_for_four_sits_as_the_computer() {
    let fake = FakeDiscord::start().await;
    let (_service, _bot) = start(&fake, "team-computer").await;
    let carol = FakeUser::new(1003, "carol");
    fake.slash(
        &alice(),
        CHANNEL,
        Some(GUILD_ID),
        "play",
        vec![
            string_option("variant", "fourplayer"),
            user_option("partner", &FakeUser::bot()),
            user_option("opponent", &bob()),
            user_option("opponent2", &carol),
            integer_option("level", 2),
            integer_option("colour", 0),
        ],
        &[FakeUser::bot(), bob(), carol.clone()],
    )
    .await;
    let seats = fake
        .wait_for_message("the seats", |m| {
            m.place == Place::Channel(CHANNEL) && m.button("seat:").is_some()
        })
        .await;
    assert!(
        seats.text().contains("(white) Kodex L2"),
        "{}",
        seats.text()
    );
}

/// The allowed mentions of a message that pings exactly `users`: those
/// ids and nothing to parse (no everyone, no roles).
fn allows_exactly(message: &SentMessage, users: &[u64]) {
    let listed: Vec<u64> = message.allowed_mentions["users"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|id| id.as_str().and_then(|id| id.parse().ok()))
        .collect();
    assert_eq!(listed, users, "allowed users of {}", message.text());
    assert!(
        message.allowed_mentions["parse"]
            .as_array()
            .is_none_or(|parse| parse.is_empty()),
        "nothing parsed: {}",
        message.allowed_mentions
    );
    assert!(!message.may_ping_everyone_or_roles(), "{}", message.text());
    assert_eq!(
        message.pinged_users(),
        users,
        "pinged by {}",
        message.text()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_challenged_the_player_to_move_and_the_asked_player_are_pinged_and_nobody_else() {
    let fake = FakeDiscord::start().await;
    let (_service, bot) = start(&fake, "pings").await;
    let (alice_id, bob_id) = (alice().id, bob().id);
    // The challenge pings Bob, and only him.
    let challenge = challenge(&fake, CHANNEL, &bob(), "chess").await;
    allows_exactly(&challenge, &[bob_id]);
    assert!(challenge.content.contains(&format!("<@{bob_id}>")));
    fake.press_button(&bob(), &challenge, "acc:").await;
    // The start: Alice plays white and is to move.
    let started = fake
        .wait_for_message("the game starts", |m| {
            m.place == Place::Channel(CHANNEL) && m.text().contains("starts")
        })
        .await;
    allows_exactly(&started, &[alice_id]);
    // Each turn pings the player to move.
    fake.say(&alice(), CHANNEL, Some(GUILD_ID), "e4").await;
    let after_e4 = fake
        .wait_for_message("the board after e4", |m| m.text().contains("played e4."))
        .await;
    allows_exactly(&after_e4, &[bob_id]);
    fake.say(&bob(), CHANNEL, Some(GUILD_ID), "e5").await;
    let after_e5 = fake
        .wait_for_message("the board after e5", |m| m.text().contains("played e5."))
        .await;
    allows_exactly(&after_e5, &[alice_id]);
    // An offer pings the one asked: Bob offers a draw, Alice is asked.
    fake.slash(&bob(), CHANNEL, Some(GUILD_ID), "draw", vec![], &[])
        .await;
    let offer = fake
        .wait_for_message("the draw offer", |m| {
            m.place == Place::Channel(CHANNEL) && m.button("nodraw:").is_some()
        })
        .await;
    allows_exactly(&offer, &[alice_id]);
    fake.press_button(&alice(), &offer, "nodraw:").await;
    let declined = fake
        .wait_for_message("the offer declined", |m| {
            m.text().contains("declined the draw offer")
        })
        .await;
    allows_exactly(&declined, &[]);
    // A takeback request pings the other player too.
    fake.slash(&alice(), CHANNEL, Some(GUILD_ID), "takeback", vec![], &[])
        .await;
    let request = fake
        .wait_for_message("the takeback request", |m| m.button("notb:").is_some())
        .await;
    allows_exactly(&request, &[bob_id]);
    // Nothing the bot posted could ping anyone else, or everyone, or a role.
    for message in fake.messages_in(CHANNEL) {
        assert!(!message.may_ping_everyone_or_roles(), "{}", message.text());
        assert!(
            message
                .pinged_users()
                .iter()
                .all(|user| [alice_id, bob_id].contains(user)),
            "{}",
            message.text()
        );
    }
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_against_the_computer_pings_only_the_person() {
    let fake = FakeDiscord::start().await;
    let (_service, bot) = start(&fake, "computer-pings").await;
    fake.slash(
        &alice(),
        CHANNEL,
        Some(GUILD_ID),
        "play",
        vec![
            string_option("variant", "chess"),
            user_option("opponent", &FakeUser::bot()),
            integer_option("level", 1),
            integer_option("colour", 1),
        ],
        &[FakeUser::bot()],
    )
    .await;
    // Alice plays black: the computer moves first, then it is her turn.
    let turn = fake
        .wait_for_message("the computer's first move", |m| {
            m.place == Place::Channel(CHANNEL) && m.text().contains("played")
        })
        .await;
    allows_exactly(&turn, &[alice().id]);
    for message in fake.messages_in(CHANNEL) {
        assert!(
            message
                .pinged_users()
                .iter()
                .all(|user| *user == alice().id),
            "{}",
            message.text()
        );
    }
    bot.stop().await;
}

/// The custom ids' kinds of `buttons` (`draw`, `quit`, `watch`, …).
fn kinds(buttons: &[kodex_tests::fake_discord::SentButton]) -> Vec<String> {
    buttons
        .iter()
        .map(|button| {
            button
                .custom_id
                .split(':')
                .next()
                .unwrap_or_default()
                .to_owned()
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_latest_board_carries_the_game_buttons_and_older_boards_lose_them() {
    let fake = FakeDiscord::start().await;
    let (_service, bot) = start(&fake, "board-buttons").await;
    let started = accepted_game(&fake, "chess").await;
    assert_eq!(
        kinds(&started.buttons),
        ["draw", "quit", "board"],
        "the first board: no takeback before a move (and no Watch: the channel shows it all)"
    );
    fake.say(&alice(), CHANNEL, Some(GUILD_ID), "e4").await;
    let after_e4 = fake
        .wait_for_message("the board after e4", |m| m.text().contains("played e4."))
        .await;
    assert_eq!(kinds(&after_e4.buttons), ["draw", "quit", "tb", "board"]);
    fake.wait_for("the first board loses its buttons", |fake| {
        fake.buttons_now(&started).is_empty().then_some(())
    })
    .await;

    // A draw offered by the board's button; the board keeps its buttons.
    let token = fake.press_button(&bob(), &after_e4, "draw:").await;
    let offer = fake
        .wait_for_message("the draw offer", |m| m.button("nodraw:").is_some())
        .await;
    assert!(offer.text().contains("offers a draw"), "{}", offer.text());
    allows_exactly(&offer, &[alice().id]);
    assert!(
        fake.ephemeral_answers(&token).is_empty(),
        "the offer is answered in the channel, not privately"
    );
    fake.press_button(&alice(), &offer, "nodraw:").await;
    fake.wait_for_message("the offer declined", |m| {
        m.text().contains("declined the draw offer")
    })
    .await;
    fake.wait_for("the declined offer loses its buttons", |fake| {
        fake.buttons_now(&offer).is_empty().then_some(())
    })
    .await;
    assert_eq!(
        kinds(&fake.buttons_now(&after_e4)),
        ["draw", "quit", "tb", "board"],
        "pressing the board's button leaves them on the latest board"
    );

    // Resign by the board's button asks first, only the presser.
    let token = fake.press_button(&bob(), &after_e4, "quit:").await;
    let question = fake.wait_for_ephemeral("the question", &token).await;
    assert!(
        question.text().starts_with("Resign game"),
        "{}",
        question.text()
    );
    assert!(
        fake.messages_in(CHANNEL)
            .iter()
            .all(|m| !m.text().contains("resigned")),
        "asking resigns nothing"
    );
    fake.press_button(&bob(), &question, "rsg:").await;
    let end = fake
        .wait_for_message("the result", |m| m.text().contains("resigned"))
        .await;
    assert!(end.text().contains("1-0"), "{}", end.text());
    assert_eq!(kinds(&end.buttons), ["again"], "the end: only Rematch");
    fake.wait_for("the last board loses the game's buttons", |fake| {
        fake.buttons_now(&after_e4).is_empty().then_some(())
    })
    .await;
    // Once it is over, no message in the channel offers a draw or resigning.
    for message in fake.messages_in(CHANNEL) {
        let now = kinds(&fake.buttons_now(&message));
        assert!(
            !now.iter()
                .any(|kind| ["draw", "quit", "tb"].contains(&kind.as_str())),
            "{now:?} on {}",
            message.text()
        );
    }
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_takes_rated_or_casual_and_rating_answers_privately() {
    let fake = FakeDiscord::start().await;
    let (_service, bot) = start(&fake, "rated").await;
    let play = |clock: Option<&str>, rated: bool| {
        let mut options = vec![
            string_option("variant", "chess"),
            user_option("opponent", &bob()),
            bool_option("rated", rated),
        ];
        options.extend(clock.map(|clock| string_option("clock", clock)));
        options
    };
    // Alice's `command` with `options`: her private answer holds `expected`.
    let answered =
        |command: &'static str, options: Vec<serde_json::Value>, expected: &'static str| {
            let fake = &fake;
            async move {
                let token = fake
                    .slash(
                        &alice(),
                        CHANNEL,
                        Some(GUILD_ID),
                        command,
                        options,
                        &[bob()],
                    )
                    .await;
                let answer = fake.wait_for_ephemeral(expected, &token).await;
                assert!(answer.text().contains(expected), "{}", answer.text());
            }
        };
    // Rated without a clock is refused, privately.
    answered(
        "play",
        play(None, true),
        "Only games with a clock are rated",
    )
    .await;
    // Casual although it has a clock.
    let challenge = challenge_with(&fake, play(Some("5+3"), false), &[bob()]).await;
    let text = challenge.text();
    assert!(
        text.contains("Casual game: ratings do not change."),
        "{text}"
    );
    let bob_named = vec![user_option("user", &bob())];
    answered("rating", bob_named, "bob has no rated games yet.").await;
    bot.stop().await;
}

/// Another channel of the server, where the second player is.
const OTHER_CHANNEL: u64 = 301;

#[tokio::test]
async fn an_invitation_code_is_joined_from_another_channel_and_the_game_is_played_in_both() {
    let fake = FakeDiscord::start().await;
    let (service, _bot) = start(&fake, "invite-join").await;
    let token = fake
        .slash(
            &alice(),
            CHANNEL,
            Some(GUILD_ID),
            "invite",
            vec![
                string_option("variant", "chess"),
                string_option("clock", "5+3"),
                integer_option("colour", 0),
            ],
            &[],
        )
        .await;
    let answer = fake.wait_for_ephemeral("the invitation", &token).await;
    let text = answer.text();
    let code: String = text
        .split("/join ")
        .nth(1)
        .unwrap_or_else(|| panic!("a code in {text}"))
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect();
    assert!(code.len() >= 10, "{text}");
    // The channel saw nothing of it.
    assert!(fake
        .messages_in(CHANNEL)
        .iter()
        .all(|m| !m.text().contains(&code)));
    // Bob joins from another channel: both channels hear the start.
    fake.slash(
        &bob(),
        OTHER_CHANNEL,
        Some(GUILD_ID),
        "join",
        vec![string_option("code", &code)],
        &[],
    )
    .await;
    for channel in [CHANNEL, OTHER_CHANNEL] {
        fake.wait_for_message("the start", |m| {
            m.place == Place::Channel(channel) && m.text().contains("starts")
        })
        .await;
    }
    let row = service
        .store()
        .invitation("discord", &code.to_lowercase())
        .await
        .expect("the store answers")
        .expect("the invitation");
    assert_eq!(row.guest_chat_id.as_deref(), Some("301"));
    // Alice (white) moves in her channel; bob answers in his; each channel
    // hears both moves.
    fake.say(&alice(), CHANNEL, Some(GUILD_ID), "e4").await;
    fake.wait_for_message("alice's move, in bob's channel", |m| {
        m.place == Place::Channel(OTHER_CHANNEL) && m.text().contains("e4")
    })
    .await;
    fake.say(&bob(), OTHER_CHANNEL, Some(GUILD_ID), "e5").await;
    fake.wait_for_message("bob's move, in alice's channel", |m| {
        m.place == Place::Channel(CHANNEL) && m.text().contains("e5")
    })
    .await;
    let row = service
        .store()
        .get("discord", &row.id)
        .await
        .expect("the store answers")
        .expect("the game");
    assert_eq!(row.move_list(), vec!["e2e4", "e7e5"]);
}

#[tokio::test]
async fn a_seek_is_taken_with_the_lobbys_accept_button_in_another_channel() {
    let fake = FakeDiscord::start().await;
    let (service, _bot) = start(&fake, "lobby-accept").await;
    fake.slash(&alice(), CHANNEL, Some(GUILD_ID), "playnow", vec![], &[])
        .await;
    let seek = fake
        .wait_for_message("the seek", |m| {
            m.place == Place::Channel(CHANNEL) && m.text().contains("now seeks one")
        })
        .await;
    let id = seek
        .button("acc:")
        .map(|b| b.custom_id.trim_start_matches("acc:").to_owned())
        .expect("an accept button");
    fake.slash(&bob(), OTHER_CHANNEL, Some(GUILD_ID), "lobby", vec![], &[])
        .await;
    let lobby = fake
        .wait_for_message("the lobby", |m| {
            m.place == Place::Channel(OTHER_CHANNEL) && m.text().contains(&id)
        })
        .await;
    assert!(lobby.text().contains("alice (1500?)"), "{}", lobby.text());
    fake.press_button(&bob(), &lobby, "acc:").await;
    fake.wait_for_message("the start in bob's channel", |m| {
        m.place == Place::Channel(OTHER_CHANNEL) && m.text().contains("starts")
    })
    .await;
    let start = fake
        .wait_for_message("the start in alice's channel", |m| {
            m.place == Place::Channel(CHANNEL) && m.text().contains("starts")
        })
        .await;
    // Alice, waiting in her channel, is pinged there whichever colour she has.
    assert!(
        start.content.contains(&format!("<@{}>", alice().id))
            && start
                .allowed_mentions
                .to_string()
                .contains(&alice().id.to_string()),
        "{} {}",
        start.content,
        start.allowed_mentions
    );
    let row = service
        .store()
        .get("discord", &id)
        .await
        .expect("the store answers")
        .expect("the game");
    assert_eq!(row.guest_chat_id.as_deref(), Some("301"));
    assert!(row.seats.iter().any(|s| s.user_name == "bob"), "{row:?}");
}

/// `user`'s `/tournament <what>` in [`CHANNEL`].
async fn tournament(fake: &FakeDiscord, user: &FakeUser, what: &str) {
    fake.slash(
        user,
        CHANNEL,
        Some(GUILD_ID),
        "tournament",
        vec![string_option("what", what)],
        &[],
    )
    .await;
}

/// A tournament through the fake Discord, with the service and handler
/// `kodex run` builds: announced with a Join button, joined by the button
/// and by the slash command, started, its round posted in one message, and
/// ended by a forfeit with the final standings, all in the channel.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_is_announced_joined_by_button_and_played_in_the_channel() {
    let fake = FakeDiscord::start().await;
    let (service, bot) = start(&fake, "tournament").await;
    tournament(&fake, &alice(), "new swiss chess 3+2 1").await;
    let announcement = fake
        .wait_for_message("the announcement", |m| {
            m.place == Place::Channel(CHANNEL)
                && m.text().contains("announces tournament")
                && m.button("tjoin:").is_some()
        })
        .await;
    fake.press_button(&bob(), &announcement, "tjoin:").await;
    fake.wait_for_message("bob's entry", |m| {
        m.place == Place::Channel(CHANNEL) && m.text().contains("bob is in tournament")
    })
    .await;
    tournament(&fake, &alice(), "join").await;
    fake.wait_for_message("alice's entry", |m| {
        m.place == Place::Channel(CHANNEL) && m.text().contains("alice is in tournament")
    })
    .await;
    tournament(&fake, &alice(), "start").await;
    let round = fake
        .wait_for_message("round 1", |m| {
            m.place == Place::Channel(CHANNEL) && m.text().contains("Round 1 of 1")
        })
        .await;
    let live = service
        .store()
        .live_tournaments_in("discord", &CHANNEL.to_string())
        .await
        .expect("the store answers");
    let row = live.first().expect("the tournament");
    let game = row.state.played[0].boards[0].game.clone();
    assert!(round.text().contains(&game), "{}", round.text());
    let stored = service
        .store()
        .get("discord", &game)
        .await
        .expect("the store answers")
        .expect("the game");
    assert_eq!(stored.chat_id, CHANNEL.to_string());
    // White aborts before moving: a forfeit, and the one-round Swiss is over.
    let white = if stored.seats[0].user_id == alice().id.to_string() {
        alice()
    } else {
        bob()
    };
    fake.slash(&white, CHANNEL, Some(GUILD_ID), "abort", vec![], &[])
        .await;
    let end = fake
        .wait_for_message("the final standings", |m| {
            m.place == Place::Channel(CHANNEL) && m.text().contains("final standings")
        })
        .await;
    assert!(end.text().contains("The winner"), "{}", end.text());
    bot.stop().await;
}

/// Four gateway shards split over two processes on one database
/// (`KODEX_DISCORD_SHARDS=0-1/4` and `2-3/4`, what `kodex run` reads): the
/// fake Discord sends each guild's events to its shard, `(guild_id >> 22) %
/// 4`, as Discord does, and a game in a guild of each process is played
/// there, every event answered once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn four_shards_over_two_processes_each_play_their_guilds_games() {
    let fake = FakeDiscord::start().await;
    fake.add_user(&alice());
    fake.add_user(&bob());
    let dir = std::env::temp_dir().join(format!("kodex-discord-shards-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let mut config = Config::defaults();
    config.database.url = crate::console_support::chat_database(&dir).await;
    config.boards.dir = dir.join("boards");
    let mut running = Vec::new();
    for range in ["0-1/4", "2-3/4"] {
        let service = Service::open(&config, Registry::builtin(), ManualTime::new(EPOCH))
            .await
            .expect("the service opens");
        let handler: Arc<dyn Handler> = kodex_bot::app::platform_handler(&service);
        let env = |name: &str| (name == "KODEX_DISCORD_SHARDS").then(|| range.to_owned());
        let discord = RunningBot::config(&fake, variant_choices(service.registry()))
            .with_options_from(&env)
            .expect("a shard range");
        let bot = RunningBot::start_configured(discord, handler, service.outbox(Platform::Discord));
        running.push((service, bot));
    }
    fake.wait_for("four shards", |fake| {
        let mut shards = fake.identified_shards();
        shards.sort_unstable();
        (shards == [(0, 4), (1, 4), (2, 4), (3, 4)]).then_some(())
    })
    .await;
    // A guild on shard 1 (the first process) and one on shard 3 (the second).
    for (guild, channel) in [((1u64 << 22) | 7, 401u64), ((3u64 << 22) | 7, 403u64)] {
        challenge_in(&fake, guild, channel, &bob(), "chess").await;
        fake.slash(&bob(), channel, Some(guild), "accept", vec![], &[])
            .await;
        fake.wait_for_message("the start", |m| {
            m.place == Place::Channel(channel) && m.text().contains("starts")
        })
        .await;
        fake.say(&alice(), channel, Some(guild), "e4").await;
        fake.wait_for_message("alice's move", |m| {
            m.place == Place::Channel(channel) && m.text().contains("alice played e4")
        })
        .await;
        fake.say(&bob(), channel, Some(guild), "e5").await;
        fake.wait_for_message("bob's move", |m| {
            m.place == Place::Channel(channel) && m.text().contains("bob played e5")
        })
        .await;
    }
    for channel in [401, 403] {
        for said in ["alice played e4", "bob played e5"] {
            let times = fake
                .sent_messages()
                .iter()
                .filter(|m| m.place == Place::Channel(channel) && m.text().contains(said))
                .count();
            assert_eq!(times, 1, "“{said}” in {channel}");
        }
    }
    for (_, bot) in running {
        bot.stop().await;
    }
    let _ = std::fs::remove_dir_all(&dir);
}
