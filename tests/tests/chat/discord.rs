//! The Discord adapter end to end: the real serenity/poise client against the
//! fake Discord, with the scripted toy game service behind it (the adapter
//! knows nothing about chess, so a toy shows every path it has).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use kodex_bot::api::{Action, ChatRef, Image, Platform, Target, UserRef};
use kodex_tests::discord_bot::RunningBot;
use kodex_tests::fake_discord::payloads::{autocomplete, string_option, user_option};
use kodex_tests::fake_discord::{
    FakeDiscord, FakeUser, Place, SentMessage, APPLICATION_ID, GUILD_ID,
};
use kodex_tests::toy_handler::{note, variants, Status, ToyHandler};
use serde_json::{json, Value};

/// The channel the games are played in.
const CHANNEL: u64 = 300;

fn alice() -> FakeUser {
    FakeUser::new(1001, "alice")
}
fn bob() -> FakeUser {
    FakeUser::new(1002, "bob")
}
fn carol() -> FakeUser {
    FakeUser::new(1003, "carol")
}

// ---------------------------------------------------------------------------
// Harness

/// The adapter under test against `fake`, with a fresh toy behind it.
fn start(fake: &FakeDiscord) -> (Arc<ToyHandler>, RunningBot) {
    let service = Arc::new(ToyHandler::default());
    let bot = RunningBot::start(fake, service.clone(), variants());
    (service, bot)
}

/// Sends a slash command in the game channel and returns its token.
async fn command(
    fake: &FakeDiscord,
    user: &FakeUser,
    name: &str,
    options: Vec<Value>,
    resolved: &[FakeUser],
) -> String {
    fake.slash(user, CHANNEL, Some(GUILD_ID), name, options, resolved)
        .await
}

/// `/move <san>` in the game channel; returns the interaction token.
async fn slash_move(fake: &FakeDiscord, user: &FakeUser, san: &str) -> String {
    command(fake, user, "move", vec![string_option("move", san)], &[]).await
}

/// Alice's `/play <variant>` against Bob in the game channel, with `more`
/// options; returns the interaction token.
async fn play(fake: &FakeDiscord, variant: &str, more: Vec<Value>) -> String {
    let mut options = vec![
        string_option("variant", variant),
        user_option("opponent", &bob()),
    ];
    options.extend(more);
    command(fake, &alice(), "play", options, &[bob()]).await
}

/// Alice challenges Bob to `variant` with a 3+2 clock; returns the challenge.
async fn challenge(fake: &FakeDiscord, variant: &str) -> SentMessage {
    play(fake, variant, vec![string_option("clock", "3+2")]).await;
    fake.wait_for_message("the challenge with buttons", |m| {
        m.place == Place::Channel(CHANNEL)
            && m.button("acc:").is_some()
            && m.content.contains(variant)
    })
    .await
}

/// Bob accepts `challenge` by its button; returns the game's first message.
async fn accept(fake: &FakeDiscord, challenge: &SentMessage) -> SentMessage {
    fake.press_button(&bob(), challenge, "acc:").await;
    fake.wait_for_message("the game starts", |m| m.content.contains("White to move"))
        .await
}

/// Alice challenges Bob to chess and he accepts: game `g1` runs.
async fn accepted_chess_game(fake: &FakeDiscord) -> SentMessage {
    let challenge = challenge(fake, "chess").await;
    accept(fake, &challenge).await
}

// ---------------------------------------------------------------------------
// Tests

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slash_commands_are_registered_with_options_and_russian_names() {
    let fake = FakeDiscord::start().await;
    let (_service, bot) = start(&fake);
    let commands = fake
        .wait_for("command registration", |fake| {
            let commands = fake.registered_commands();
            (!commands.is_empty()).then_some(commands)
        })
        .await;
    let by_name: HashMap<&str, &Value> = commands
        .iter()
        .map(|c| (c["name"].as_str().unwrap_or_default(), c))
        .collect();
    for name in [
        "play",
        "accept",
        "decline",
        "move",
        "resign",
        "draw",
        "nodraw",
        "takeback",
        "notakeback",
        "abort",
        "board",
        "timeline",
        "games",
        "pgn",
        "rules",
        "variants",
        "learn",
        "help",
        "lang",
        "settings",
        "rematch",
        "watch",
        "unwatch",
        "notation",
        "lobby",
        "playnow",
        "invite",
        "join",
        "notify",
    ] {
        let command = by_name
            .get(name)
            .unwrap_or_else(|| panic!("/{name} is registered"));
        assert!(
            command["name_localizations"]["ru"].is_string(),
            "/{name} has a Russian name"
        );
        assert!(
            command["description_localizations"]["ru"].is_string(),
            "/{name} has a Russian description"
        );
    }
    assert_eq!(by_name["move"]["name_localizations"]["ru"], "ход");
    // Described as Telegram's menu describes them, in both languages.
    assert_eq!(
        by_name["accept"]["description"],
        "Accept a challenge (the one here, or by game id)"
    );
    assert_eq!(
        by_name["draw"]["description_localizations"]["ru"],
        "Предложить ничью или принять предложение соперника"
    );
    assert_eq!(by_name["nodraw"]["name_localizations"]["ru"], "без-ничьей");
    // Everything a button does can be typed too, for a game named by id.
    for name in ["accept", "decline", "nodraw", "notakeback", "berserk"] {
        let options = by_name[name]["options"].as_array().expect("options");
        assert_eq!(options.len(), 1, "/{name} takes a game id");
        assert_eq!(options[0]["name"], "game");
        assert_eq!(options[0]["required"], false, "/{name} game is optional");
        assert_eq!(options[0]["name_localizations"]["ru"], "партия");
    }
    // Discord rejects a registration with a name it cannot use.
    for command in &commands {
        for name in std::iter::once(&command["name"]).chain(
            command["name_localizations"]
                .as_object()
                .into_iter()
                .flat_map(|n| n.values()),
        ) {
            let name = name.as_str().unwrap_or_default();
            assert!(
                (1..=32).contains(&name.chars().count())
                    && name
                        .chars()
                        .all(|c| c == '-' || c == '_' || c.is_alphanumeric())
                    && name.to_lowercase() == name,
                "a valid command name: {name:?}"
            );
        }
    }
    assert_eq!(commands.len(), 39, "each command registered once");
    // Rated or casual is a yes-or-no option of /play; /rating and /stats
    // take a user, /leaderboard a variant, global and a page.
    let rated = by_name["play"]["options"]
        .as_array()
        .and_then(|options| options.iter().find(|o| o["name"] == "rated"))
        .expect("/play rated");
    assert_eq!(
        (rated["type"].as_u64(), rated["required"].as_bool()),
        (Some(5), Some(false))
    );
    assert_eq!(rated["name_localizations"]["ru"], "рейтинговая");
    for name in ["rating", "stats"] {
        let options = by_name[name]["options"].as_array().expect("options");
        assert_eq!(options.len(), 1, "/{name}");
        assert_eq!(
            (options[0]["name"].as_str(), options[0]["type"].as_u64()),
            (Some("user"), Some(6))
        );
    }
    assert_eq!(by_name["rating"]["name_localizations"]["ru"], "рейтинг");
    let board: Vec<&str> = by_name["leaderboard"]["options"]
        .as_array()
        .expect("options")
        .iter()
        .filter_map(|o| o["name"].as_str())
        .collect();
    assert_eq!(board, ["variant", "global", "page"]);
    // Enochian chess: the exchange of prisoners, offered or answered.
    // And retiring from the game.
    for (name, russian) in [
        ("exchange", "обмен"),
        ("noexchange", "без-обмена"),
        ("retire", "выйти"),
    ] {
        assert_eq!(
            by_name[name]["name_localizations"]["ru"], russian,
            "/{name}"
        );
        assert_eq!(by_name[name]["options"][0]["name"], "game", "/{name}");
    }
    // /play takes a start position.
    let play_options = by_name["play"]["options"].as_array().expect("options");
    assert!(
        play_options
            .iter()
            .any(|option| option["name"] == "fen" && option["required"] == false),
        "{play_options:?}"
    );
    let play_options = by_name["play"]["options"]
        .as_array()
        .expect("/play has options");
    let option = |name: &str| {
        play_options
            .iter()
            .find(|o| o["name"] == name)
            .unwrap_or_else(|| panic!("option {name}"))
    };
    assert_eq!(option("variant")["autocomplete"], true);
    assert_eq!(
        option("opponent")["type"],
        6,
        "the opponent is a user option"
    );
    // The clock is typed freely, with suggestions (see discord_service.rs).
    assert_eq!(option("clock")["type"], 3, "the clock is text");
    assert_eq!(option("clock")["autocomplete"], true);
    assert!(option("colour")["choices"]
        .as_array()
        .is_some_and(|c| c.len() == 3));
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn variant_autocomplete_answers_in_the_users_language() {
    let fake = FakeDiscord::start().await;
    let (_service, bot) = start(&fake);
    let id = fake.next_id();
    let token = format!("token-{id}");
    fake.dispatch(
        "INTERACTION_CREATE",
        autocomplete(
            id,
            &token,
            CHANNEL,
            &alice(),
            "ru",
            "play",
            "variant",
            "тум",
        ),
    )
    .await;
    let callback = fake
        .wait_for("an autocomplete answer", |fake| {
            fake.callbacks(&token).into_iter().next()
        })
        .await;
    assert_eq!(callback["type"], 8);
    assert_eq!(
        callback["data"]["choices"],
        json!([{ "name": "Туман войны", "value": "fog" }])
    );
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_accepted_by_button_then_moves_typed_in_chat_get_boards() {
    let fake = FakeDiscord::start().await;
    let (service, bot) = start(&fake);

    let challenge = challenge(&fake, "chess").await;
    let play = service.requests()[0].clone();
    assert_eq!(
        play.action,
        Action::Play {
            variant: "chess".into(),
            opponent: Some(UserRef {
                platform: Platform::Discord,
                id: "1002".into(),
                name: "bob".into(),
                handle: None,
            }),
            // The clock as typed (or chosen from the suggestions).
            clock: Some("3+2".into()),
            color: None,
            fen: None,
            rated: None,
            public: false,
        }
    );
    assert_eq!(play.locale.as_deref(), Some("en-US"));
    assert!(!play.private);
    // The command was deferred at once, ephemerally, and the unused
    // "thinking…" response deleted.
    let play_token = fake
        .requests()
        .iter()
        .find(|r| r.path.ends_with("/callback"))
        .map(|r| r.path.split('/').nth(3).unwrap_or_default().to_string())
        .expect("a callback");
    assert_eq!(fake.callbacks(&play_token)[0]["type"], 5);
    assert_eq!(fake.callbacks(&play_token)[0]["data"]["flags"], 64);
    fake.wait_for("the thinking response deleted", |fake| {
        fake.requests()
            .iter()
            .any(|r| r.method == "DELETE" && r.path.contains(&play_token))
            .then_some(())
    })
    .await;

    let token = fake.press_button(&bob(), &challenge, "acc:").await;
    let started = fake
        .wait_for_message("the game starts", |m| m.content.contains("White to move"))
        .await;
    assert!(started.has_png(), "the start position comes as a PNG");
    assert_eq!(
        fake.callbacks(&token)[0]["type"],
        6,
        "the press is acknowledged"
    );

    fake.say(&alice(), CHANNEL, Some(GUILD_ID), "good luck!")
        .await;
    for (ply, (player, mv)) in [(alice(), "f3"), (bob(), "e5"), (alice(), "g4")]
        .into_iter()
        .enumerate()
    {
        fake.say(&player, CHANNEL, Some(GUILD_ID), mv).await;
        let answer = fake
            .wait_for_message(&format!("the board after {mv}"), |m| {
                m.content.starts_with(&format!("{}. {mv} ", ply + 1))
            })
            .await;
        assert_eq!(answer.place, Place::Channel(CHANNEL));
        assert!(answer.has_png(), "each turn is answered with a PNG");
        assert_eq!(
            answer.files[0].name,
            format!("board-g1-{}.png", service.moves("g1").len())
        );
    }
    fake.say(&bob(), CHANNEL, Some(GUILD_ID), "Qh4#").await;
    let end = fake
        .wait_for_message("the result", |m| m.content.contains("0-1"))
        .await;
    assert!(end.has_png());
    assert_eq!(service.moves("g1"), ["f3", "e5", "g4", "Qh4#"]);
    assert!(service.requests().iter().any(|request| request.action
        == Action::Text {
            text: "good luck!".into()
        }));
    assert!(
        fake.sent_messages()
            .iter()
            .all(|m| !m.content.contains("good luck")),
        "chatter is not answered"
    );
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_gets_a_clear_reply_and_changes_nothing() {
    let fake = FakeDiscord::start().await;
    let (service, bot) = start(&fake);

    // An unknown variant: answered only to the user, by replacing "thinking…".
    let token = play(&fake, "checkers", Vec::new()).await;
    let answer = fake
        .wait_for_ephemeral("the unknown-variant answer", &token)
        .await;
    assert!(answer.content.contains("Unknown variant"));
    assert_eq!(answer.place, Place::Original(token.clone()));
    assert!(fake.messages_in(CHANNEL).is_empty(), "nothing public");

    let challenge = challenge(&fake, "chess").await;
    // Carol presses Bob's accept button.
    let token = fake.press_button(&carol(), &challenge, "acc:").await;
    let answer = fake.wait_for_ephemeral("carol told off", &token).await;
    assert!(answer.content.contains("not for you"));
    assert!(matches!(answer.place, Place::Followup(_)));
    assert_eq!(service.status("g1"), Some(Status::Challenged));

    accept(&fake, &challenge).await;
    // A stranger's /move, a garbage move, a move out of turn.
    let token = slash_move(&fake, &carol(), "e4").await;
    let answer = fake
        .wait_for_ephemeral("the stranger's answer", &token)
        .await;
    assert!(answer.content.contains("not playing"));
    fake.say(&alice(), CHANNEL, Some(GUILD_ID), "e9").await;
    let illegal = fake
        .wait_for_message("the illegal move reply", |m| m.content.contains("Illegal"))
        .await;
    assert!(!illegal.has_png());
    let token = slash_move(&fake, &bob(), "e5").await;
    let answer = fake.wait_for_ephemeral("out of turn", &token).await;
    assert!(answer.content.contains("not your turn"));
    assert!(service.moves("g1").is_empty(), "nothing was played");
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn private_boards_go_by_dm_and_nothing_hidden_reaches_the_channel() {
    let fake = FakeDiscord::start().await;
    fake.add_user(&alice());
    fake.add_user(&bob());
    let (service, bot) = start(&fake);

    let challenge = challenge(&fake, "fog").await;
    fake.press_button(&bob(), &challenge, "acc:").await;
    let alice_board = fake
        .wait_for("alice's DM", |fake| {
            fake.dms_to(alice().id).into_iter().next()
        })
        .await;
    assert!(alice_board.has_png() && alice_board.content.contains("white"));
    let bob_board = fake
        .wait_for("bob's DM", |fake| fake.dms_to(bob().id).into_iter().next())
        .await;
    assert!(bob_board.has_png() && bob_board.content.contains("black"));

    // Alice moves by DM: it goes to her fog game.
    let dm = fake.dm_channel_of(alice().id).expect("alice's DM channel");
    fake.say(&alice(), dm, None, "e4").await;
    fake.wait_for("both boards after e4", |fake| {
        (fake.dms_to(alice().id).len() == 2 && fake.dms_to(bob().id).len() == 2).then_some(())
    })
    .await;
    let moved = fake
        .wait_for_message("the public notice", |m| {
            m.content == "alice moved in game g1."
        })
        .await;
    assert_eq!(moved.place, Place::Channel(CHANNEL));
    let request = service.requests().pop().expect("a request");
    assert!(request.private, "a DM is a private request");
    assert_eq!(service.moves("g1"), ["e4"]);
    assert_eq!(
        fake.dms_to(bob().id)[1].content,
        "Your board (black) in game g1 after 1 moves.",
        "bob's board does not say what alice played"
    );

    // Bob answers with /move in the channel: his board comes by DM, and his
    // "thinking…" response points there, visible to him only.
    let token = slash_move(&fake, &bob(), "e5").await;
    let pointer = fake
        .wait_for_ephemeral("the pointer to the DM", &token)
        .await;
    assert_eq!(pointer.content, "Sent to your direct messages.");
    assert_eq!(pointer.place, Place::Original(token));
    assert!(!pointer.has_png());
    fake.wait_for("bob's third board", |fake| {
        (fake.dms_to(bob().id).len() == 3).then_some(())
    })
    .await;
    assert_eq!(service.moves("g1"), ["e4", "e5"]);
    let request = service.requests().pop().expect("a request");
    assert!(request.private, "a /move is private: nobody else sees it");
    assert_eq!(request.chat.id, CHANNEL.to_string());

    for message in fake.messages_in(CHANNEL) {
        assert!(
            !message.has_png(),
            "no board in the channel: {}",
            message.content
        );
        for secret in ["e4", "e5", "Your board", "You played"] {
            assert!(
                !message.content.contains(secret),
                "the channel saw {secret}: {}",
                message.content
            );
        }
    }
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_dm_falls_back_to_a_button_and_an_ephemeral_board() {
    // 50007: Bob closed his DMs.
    a_refused_dm_reveals_nothing(|fake| fake.refuse_dms_from(bob().id)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dm_refused_for_want_of_a_mutual_server_is_handled_like_closed_dms() {
    // 50278: Bob shares no server with the bot any more.
    a_refused_dm_reveals_nothing(|fake| fake.share_no_guild_with(bob().id)).await;
}

/// A fog game where Discord refuses Bob's DMs as `refuse` makes it: his
/// boards reach him only ephemerally, and the channel sees no board.
async fn a_refused_dm_reveals_nothing(refuse: impl Fn(&FakeDiscord)) {
    let fake = FakeDiscord::start().await;
    refuse(&fake);
    let (_service, bot) = start(&fake);

    let challenge = challenge(&fake, "fog").await;
    let accept_token = fake.press_button(&bob(), &challenge, "acc:").await;
    // Bob accepted himself: his board answers him ephemerally at once.
    let own = fake
        .wait_for_ephemeral("bob's ephemeral board", &accept_token)
        .await;
    assert!(own.has_png() && own.content.contains("black"));
    fake.wait_for("alice's DM", |fake| {
        fake.dms_to(alice().id).into_iter().next()
    })
    .await;

    // Alice moves by DM; Bob's board cannot reach him: a notice with a button.
    let dm = fake.dm_channel_of(alice().id).expect("alice's DM channel");
    fake.say(&alice(), dm, None, "e4").await;
    let notice = fake
        .wait_for_message("the DM-refused notice", |m| m.button("board:").is_some())
        .await;
    assert_eq!(notice.place, Place::Channel(CHANNEL));
    assert!(notice.content.contains(&format!("<@{}>", bob().id)));
    assert!(!notice.has_png());
    assert!(!notice.content.contains("e4") && !notice.content.contains("Your board"));
    assert!(fake.dms_to(bob().id).is_empty());

    let token = fake.press(&bob(), &notice, "board:").await;
    let shown = fake
        .wait_for_ephemeral("bob's board shown ephemerally", &token)
        .await;
    assert!(shown.has_png());
    assert_eq!(
        shown.content,
        "Your board (black) in game g1 after 1 moves."
    );
    assert!(matches!(shown.place, Place::Followup(_)));
    for message in fake.messages_in(CHANNEL) {
        assert!(!message.has_png(), "no board in the channel");
    }
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_button_on_an_old_message_works_after_a_restart() {
    let fake = FakeDiscord::start().await;
    let (service, bot) = start(&fake);
    let challenge = challenge(&fake, "chess").await;
    bot.stop().await;
    fake.wait_for_disconnect().await;

    // A new adapter process; the service (and its games) stayed up.
    let bot = RunningBot::start(&fake, service.clone(), variants());
    fake.wait_for_sessions(2).await;
    let started = accept(&fake, &challenge).await;
    assert!(started.has_png());
    assert_eq!(service.status("g1"), Some(Status::Playing));
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resign_shows_the_services_question_with_its_buttons_ephemerally() {
    let fake = FakeDiscord::start().await;
    let (service, bot) = start(&fake);
    accepted_chess_game(&fake).await;

    let token = command(&fake, &bob(), "resign", vec![], &[]).await;
    let question = fake
        .wait_for_ephemeral("the service's question", &token)
        .await;
    assert_eq!(question.content, "Resign game g1? This cannot be undone.");
    assert_eq!(question.place, Place::Original(token));
    assert_eq!(
        service.status("g1"),
        Some(Status::Playing),
        "not resigned before confirming"
    );
    let resign = question.button("rsg:").expect("a resign button");
    assert_eq!(resign.style, 4, "resigning is shown as dangerous");
    assert_eq!(question.button("keep:").expect("a keep button").style, 2);
    let press_token = fake.press_button(&bob(), &question, "rsg:").await;
    fake.wait_for_message("the resignation", |m| {
        m.content == "bob resigns. alice wins."
    })
    .await;
    assert_eq!(service.status("g1"), Some(Status::Over));
    let handled = service.requests();
    let resigns: Vec<&Action> = handled
        .iter()
        .map(|request| &request.action)
        .filter(|action| matches!(action, Action::Resign { .. }))
        .collect();
    assert_eq!(
        resigns,
        [&Action::Resign { game: None }],
        "/resign goes to the service once, as it is"
    );
    assert_eq!(
        handled.last().map(|request| &request.action),
        Some(&Action::Button {
            data: "rsg:g1:b".into()
        }),
        "the press goes to the service as a button"
    );
    assert_eq!(fake.callbacks(&press_token)[0]["type"], 6);
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_the_message_content_intent_the_bot_runs_and_slash_moves_work() {
    let fake = FakeDiscord::start().await;
    fake.deny_message_content_intent();
    let (service, bot) = start(&fake);
    fake.wait_for_sessions(2).await;
    let identifies = fake.identifies();
    let intents = |i: usize| identifies[i]["intents"].as_u64().unwrap_or(0);
    assert_ne!(intents(0) & (1 << 15), 0, "first asks for Message Content");
    assert_eq!(intents(1) & (1 << 15), 0, "then runs without it");
    accepted_chess_game(&fake).await;
    // `/move` plays without the intent.
    let token = slash_move(&fake, &alice(), "e4").await;
    fake.wait_for("alice's move played", |_| {
        (service.moves("g1") == ["e4"]).then_some(())
    })
    .await;
    fake.wait_for_message("the board after e4", |m| {
        m.content.contains("1. e4") && m.has_png()
    })
    .await;
    assert!(
        !fake.callbacks(&token).is_empty(),
        "the command was answered"
    );
    // A move typed in the channel arrives empty without the intent …
    fake.say(&bob(), CHANNEL, Some(GUILD_ID), "e5").await;
    // … but one addressed to the bot keeps its text.
    fake.say(
        &bob(),
        CHANNEL,
        Some(GUILD_ID),
        &format!("<@{APPLICATION_ID}> d5"),
    )
    .await;
    fake.wait_for("bob's addressed move played", |_| {
        (service.moves("g1").len() == 2).then_some(())
    })
    .await;
    assert_eq!(
        service.moves("g1"),
        ["e4", "d5"],
        "the unaddressed e5 never arrived"
    );
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn outbox_deliveries_reach_the_channel_and_dms() {
    let fake = FakeDiscord::start().await;
    let (_service, bot) = start(&fake);
    fake.wait_for_sessions(1).await;
    let channel = ChatRef {
        platform: Platform::Discord,
        id: CHANNEL.to_string(),
    };
    let alice_ref = UserRef {
        platform: Platform::Discord,
        id: alice().id.to_string(),
        name: "alice".into(),
        handle: None,
    };
    let outbox = bot.outbox.as_ref().expect("the bot's own outbox");
    outbox
        .send(note(Target::Chat(channel), "alice lost on time. 0-1"))
        .expect("the outbox is open");
    outbox
        .send(note(Target::Private(alice_ref), "Your flag fell."))
        .expect("open");
    fake.wait_for_message("the flag notice", |m| m.content.contains("lost on time"))
        .await;
    let dm = fake
        .wait_for("alice's DM", |fake| {
            fake.dms_to(alice().id).into_iter().next()
        })
        .await;
    assert_eq!(dm.content, "Your flag fell.");
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clean_stop_sends_what_the_outbox_holds_first() {
    let fake = FakeDiscord::start().await;
    let (_service, bot) = start(&fake);
    fake.wait_for_sessions(1).await;
    // Discord is slow here: the notices are still queued when the stop comes.
    fake.slow_channel(CHANNEL, std::time::Duration::from_millis(200));
    let channel = ChatRef {
        platform: Platform::Discord,
        id: CHANNEL.to_string(),
    };
    let outbox = bot.outbox.clone().expect("the bot's own outbox");
    let notices: Vec<String> = (1..=5).map(|n| format!("notice {n}")).collect();
    for text in &notices {
        outbox
            .send(note(Target::Chat(channel.clone()), text))
            .expect("the outbox is open");
    }
    bot.stop().await;
    let sent: Vec<String> = fake
        .messages_in(CHANNEL)
        .into_iter()
        .map(|m| m.content)
        .collect();
    assert_eq!(
        sent, notices,
        "every queued notice, in order, before the stop"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bot_reconnects_when_discord_drops_the_gateway() {
    let fake = FakeDiscord::start().await;
    let (service, bot) = start(&fake);
    let challenge = challenge(&fake, "chess").await;
    fake.drop_gateway_connection().await;
    fake.wait_for_sessions(2).await;
    accept(&fake, &challenge).await;
    assert_eq!(service.status("g1"), Some(Status::Playing));
    assert_eq!(fake.resumes().len(), 1, "serenity resumed the session");
    assert_eq!(fake.identifies().len(), 1);
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_discord_rejects_becomes_a_short_notice_and_the_bot_carries_on() {
    let fake = FakeDiscord::start().await;
    fake.forbid_channel(CHANNEL);
    let (service, bot) = start(&fake);
    let token = play(&fake, "chess", Vec::new()).await;
    let notice = fake.wait_for_ephemeral("the failure notice", &token).await;
    assert!(notice.content.contains("Discord did not let me post"));
    // The challenge itself was made: nothing is lost, and the bot still answers.
    assert_eq!(service.status("g1"), Some(Status::Challenged));
    let token = slash_move(&fake, &carol(), "e4").await;
    fake.wait_for_ephemeral("the next answer", &token).await;
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_threads_on_a_started_game_is_relocated_in_the_accepting_players_name() {
    let fake = FakeDiscord::start().await;
    let service = Arc::new(ToyHandler::default());
    let mut config = RunningBot::config(&fake, variants());
    config.game_threads = true;
    let (_outbox, outbox_receiver) = tokio::sync::mpsc::unbounded_channel();
    let bot = RunningBot::start_configured(config, service.clone(), outbox_receiver);

    let challenge = challenge(&fake, "chess").await;
    fake.press_button(&bob(), &challenge, "acc:").await;
    let thread = fake
        .wait_for("the thread", |fake| fake.threads().into_iter().next())
        .await;
    assert_eq!(thread.name, "chess: alice vs bob · g1");
    let started = fake
        .wait_for_message("the start", |m| {
            m.content == "Game g1: alice vs bob. White to move."
        })
        .await;
    assert_eq!(started.place, Place::Channel(thread.id));
    let relocate = service
        .requests()
        .into_iter()
        .find(|request| matches!(request.action, Action::Relocate { .. }))
        .expect("a relocation");
    assert_eq!(
        relocate.action,
        Action::Relocate {
            game: "g1".into(),
            chat: thread.id.to_string(),
        }
    );
    assert_eq!(
        relocate.chat.id,
        CHANNEL.to_string(),
        "asked from the channel"
    );
    assert_eq!(
        relocate.actor.id,
        bob().id.to_string(),
        "by whoever accepted"
    );
    assert!(!relocate.private);
    assert_eq!(
        service.chat("g1").map(|chat| chat.id),
        Some(thread.id.to_string())
    );
    let pointer = fake
        .wait_for_message("the pointer", |m| m.content.contains("continues in"))
        .await;
    assert_eq!(pointer.place, Place::Channel(CHANNEL));
    assert_eq!(
        pointer.content,
        format!("Game g1 continues in <#{}>.", thread.id)
    );

    // A game started inside the thread stays there: no thread in a thread.
    fake.slash(
        &alice(),
        thread.id,
        Some(GUILD_ID),
        "play",
        vec![
            string_option("variant", "chess"),
            user_option("opponent", &carol()),
        ],
        &[carol()],
    )
    .await;
    let second = fake
        .wait_for_message("the second challenge", |m| {
            m.place == Place::Channel(thread.id) && m.content.contains("carol")
        })
        .await;
    fake.press_button(&carol(), &second, "acc:").await;
    let started = fake
        .wait_for_message("the second start", |m| {
            m.content == "Game g2: alice vs carol. White to move."
        })
        .await;
    assert_eq!(started.place, Place::Channel(thread.id));
    let nested = format!("/channels/{}/threads", thread.id);
    assert!(
        fake.requests().iter().all(|r| r.path != nested),
        "not even tried"
    );
    assert_eq!(fake.threads().len(), 1);
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_image_larger_than_discord_takes_is_left_out_and_the_text_says_so() {
    let fake = FakeDiscord::start().await;
    let (_service, bot) = start(&fake);
    fake.wait_for_sessions(1).await;
    let channel = ChatRef {
        platform: Platform::Discord,
        id: CHANNEL.to_string(),
    };
    let mut delivery = note(Target::Chat(channel), "Game over.");
    delivery.image = Some(Image {
        file_name: "g1.gif".into(),
        bytes: [b"GIF89a".as_slice(), &vec![0; 10 * 1024 * 1024]].concat(),
    });
    let outbox = bot.outbox.as_ref().expect("the bot's own outbox");
    outbox.send(delivery).expect("the outbox is open");
    let message = fake
        .wait_for_message("the text without the image", |m| {
            m.content.starts_with("Game over.")
        })
        .await;
    assert!(message.files.is_empty());
    assert!(message.content.contains("too large"), "{}", message.content);
    assert!(
        fake.requests().iter().all(|request| request.status != 413),
        "nothing was sent that Discord refuses"
    );
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_whose_interaction_discord_forgot_is_still_played() {
    let fake = FakeDiscord::start().await;
    let (service, bot) = start(&fake);
    accepted_chess_game(&fake).await;
    // The bot is too slow for Discord: every first response is refused (10062).
    fake.set_initial_response_window(Duration::ZERO);
    let token = slash_move(&fake, &alice(), "e4").await;
    fake.wait_for("the move played", |_| {
        (service.moves("g1") == ["e4"]).then_some(())
    })
    .await;
    fake.wait_for_message("the board posted in the channel", |m| {
        m.place == Place::Channel(CHANNEL) && m.content.contains("1. e4") && m.has_png()
    })
    .await;
    let refused = fake
        .requests()
        .into_iter()
        .find(|request| request.path.contains(&token) && request.path.ends_with("/callback"))
        .expect("the bot tried to answer");
    assert_eq!(
        (refused.status, refused.response["code"].as_u64()),
        (404, Some(10062))
    );
    bot.stop().await;
}

/// Unsolicited deliveries go out through one queue per channel: a channel
/// where Discord is slow does not hold up another.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_channel_does_not_hold_up_another() {
    const SLOW: u64 = 301;
    let fake = FakeDiscord::start().await;
    fake.slow_channel(SLOW, std::time::Duration::from_secs(3));
    let (_service, bot) = start(&fake);
    fake.wait_for_sessions(1).await;
    let chat = |id: u64| {
        Target::Chat(ChatRef {
            platform: Platform::Discord,
            id: id.to_string(),
        })
    };
    let outbox = bot.outbox.as_ref().expect("the bot's own outbox");
    outbox
        .send(note(chat(SLOW), "first, to the slow channel"))
        .expect("the outbox is open");
    outbox
        .send(note(chat(CHANNEL), "second, to the quick channel"))
        .expect("the outbox is open");
    fake.wait_for_message("the quick channel's message", |m| {
        m.content.contains("second")
    })
    .await;
    assert!(
        fake.messages_in(SLOW).is_empty(),
        "the quick channel did not wait for the slow one"
    );
    fake.wait_for_message("the slow channel's message", |m| {
        m.content.contains("first")
    })
    .await;
    bot.stop().await;
}
