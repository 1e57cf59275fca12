//! The fakes refuse what the real services refuse, with the real codes:
//! each failure mode asked for by hand over HTTP, as a client would.

use std::time::Duration;

use kodex_tests::fake_discord::{FakeDiscord, GUILD_ID};
use kodex_tests::fake_telegram::{FakeTelegram, TOKEN};
use serde_json::{json, Value};

const GROUP: i64 = -100_300;
const ALICE: i64 = 11;

/// A PNG header claiming `width` × `height`, padded to `size` bytes.
fn png(width: u32, height: u32, size: usize) -> Vec<u8> {
    let mut bytes = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    bytes.extend(width.to_be_bytes());
    bytes.extend(height.to_be_bytes());
    bytes.resize(size.max(bytes.len()), 0);
    bytes
}

/// A multipart body with text `fields` and one file; returns the content type too.
fn multipart(fields: &[(&str, String)], file: (&str, &str, &[u8])) -> (String, Vec<u8>) {
    let boundary = "kodex-boundary-7f3a";
    let mut body = Vec::new();
    for (name, value) in fields {
        body.extend(
            format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n")
                .into_bytes(),
        );
    }
    let (name, file_name, bytes) = file;
    body.extend(
        format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"; filename=\"{file_name}\"\r\nContent-Type: application/octet-stream\r\n\r\n"
        )
        .into_bytes(),
    );
    body.extend_from_slice(bytes);
    body.extend(format!("\r\n--{boundary}--\r\n").into_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

async fn send(request: reqwest::RequestBuilder) -> (u16, Value) {
    let response = request.send().await.expect("the fake answers");
    let status = response.status().as_u16();
    let bytes = response.bytes().await.expect("a body");
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

// ---------------------------------------------------------------------------
// Telegram

struct Telegram {
    fake: FakeTelegram,
    client: reqwest::Client,
}

impl Telegram {
    async fn start() -> Telegram {
        let fake = FakeTelegram::start().await;
        fake.add_group(GROUP, "Chess club");
        fake.add_person(ALICE, "alice", "en", true);
        Telegram {
            fake,
            client: reqwest::Client::new(),
        }
    }

    fn url(&self, method: &str) -> String {
        format!("{}bot{TOKEN}/{method}", self.fake.url())
    }

    async fn call(&self, method: &str, params: Value) -> (u16, Value) {
        send(
            self.client
                .post(self.url(method))
                .header("content-type", "application/json")
                .body(params.to_string()),
        )
        .await
    }

    async fn upload(
        &self,
        method: &str,
        fields: &[(&str, String)],
        field: &str,
        bytes: &[u8],
    ) -> (u16, Value) {
        let (content_type, body) = multipart(fields, (field, "board.png", bytes));
        send(
            self.client
                .post(self.url(method))
                .header("content-type", content_type)
                .body(body),
        )
        .await
    }
}

/// Asserts a Telegram refusal: status and the start of the description.
fn refused(answer: &(u16, Value), status: u16, description: &str) {
    assert_eq!(answer.0, status, "{answer:?}");
    assert_eq!(answer.1["ok"], false, "{answer:?}");
    assert_eq!(answer.1["error_code"], status, "{answer:?}");
    let said = answer.1["description"].as_str().unwrap_or_default();
    assert!(
        said.starts_with(description),
        "{said:?} is not {description:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn telegram_refuses_empty_long_and_badly_formatted_texts() {
    let telegram = Telegram::start().await;
    let text = |text: &str| json!({"chat_id": GROUP, "text": text});
    refused(
        &telegram.call("sendMessage", text("")).await,
        400,
        "Bad Request: message text is empty",
    );
    refused(
        &telegram.call("sendMessage", text(" \n")).await,
        400,
        "Bad Request: message text is empty",
    );
    let longest = "я".repeat(4096);
    assert_eq!(telegram.call("sendMessage", text(&longest)).await.0, 200);
    refused(
        &telegram
            .call("sendMessage", text(&format!("{longest}!")))
            .await,
        400,
        "Bad Request: message is too long",
    );
    // Counted after entity parsing: tags and entities are not characters.
    let html = json!({"chat_id": GROUP, "parse_mode": "HTML",
        "text": format!("<pre>{}</pre>&amp;", "x".repeat(4095))});
    assert_eq!(telegram.call("sendMessage", html).await.0, 200);
    for broken in ["<div>x</div>", "<b>x", "a &nbsp; b", "<b>x</i>"] {
        let html = json!({"chat_id": GROUP, "parse_mode": "HTML", "text": broken});
        refused(
            &telegram.call("sendMessage", html).await,
            400,
            "Bad Request: can't parse entities",
        );
    }
    // Without a parse mode the same text is just text.
    assert_eq!(
        telegram.call("sendMessage", text("<div>x</div>")).await.0,
        200
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn telegram_refuses_bad_callback_data_commands_and_callback_answers() {
    let telegram = Telegram::start().await;
    let keyboard = |data: &str| {
        json!({"chat_id": GROUP, "text": "pick",
            "reply_markup": {"inline_keyboard": [[{"text": "A", "callback_data": data}]]}})
    };
    assert_eq!(
        telegram
            .call("sendMessage", keyboard(&"d".repeat(64)))
            .await
            .0,
        200
    );
    for data in [String::new(), "d".repeat(65), "я".repeat(33)] {
        refused(
            &telegram.call("sendMessage", keyboard(&data)).await,
            400,
            "Bad Request: BUTTON_DATA_INVALID",
        );
    }

    let commands = |name: &str, description: &str| json!({"commands": [{"command": name, "description": description}]});
    assert_eq!(
        telegram
            .call("setMyCommands", commands("play_2", "Play"))
            .await
            .0,
        200
    );
    for name in ["Play", "play-now", "", &"p".repeat(33), "ход"] {
        refused(
            &telegram.call("setMyCommands", commands(name, "Play")).await,
            400,
            "Bad Request: BOT_COMMAND_INVALID",
        );
    }
    for description in [String::new(), "d".repeat(257)] {
        refused(
            &telegram
                .call("setMyCommands", commands("play", &description))
                .await,
            400,
            "Bad Request: BOT_COMMAND_DESCRIPTION_INVALID",
        );
    }

    // Callback answers: at most 200 characters, once, within the deadline.
    let (_, sent) = telegram.call("sendMessage", keyboard("acc:1")).await;
    let message = sent["result"]["message_id"].as_i64().expect("a message id");
    let answer = |id: &str, text: &str| json!({"callback_query_id": id, "text": text});
    let press = telegram.fake.press(GROUP, ALICE, message, "acc:1");
    refused(
        &telegram
            .call("answerCallbackQuery", answer(&press, &"n".repeat(201)))
            .await,
        400,
        "Bad Request: MESSAGE_TOO_LONG",
    );
    assert_eq!(
        telegram
            .call("answerCallbackQuery", answer(&press, &"n".repeat(200)))
            .await
            .0,
        200
    );
    refused(
        &telegram
            .call("answerCallbackQuery", answer(&press, ""))
            .await,
        400,
        "Bad Request: query is too old",
    );
    telegram
        .fake
        .set_callback_deadline(Duration::from_millis(50));
    let late = telegram.fake.press(GROUP, ALICE, message, "acc:1");
    tokio::time::sleep(Duration::from_millis(100)).await;
    refused(
        &telegram
            .call("answerCallbackQuery", answer(&late, ""))
            .await,
        400,
        "Bad Request: query is too old",
    );

    // An edit that changes nothing.
    let edit = json!({"chat_id": GROUP, "message_id": message,
        "reply_markup": {"inline_keyboard": [[{"text": "A", "callback_data": "acc:1"}]]}});
    refused(
        &telegram.call("editMessageReplyMarkup", edit).await,
        400,
        "Bad Request: message is not modified",
    );
    let remove = json!({"chat_id": GROUP, "message_id": message});
    assert_eq!(
        telegram
            .call("editMessageReplyMarkup", remove.clone())
            .await
            .0,
        200
    );
    refused(
        &telegram.call("editMessageReplyMarkup", remove).await,
        400,
        "Bad Request: message is not modified",
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn telegram_refuses_oversized_photos_and_long_captions_and_answers_media_shapes() {
    let telegram = Telegram::start().await;
    let chat = [("chat_id", GROUP.to_string())];
    let (status, photo) = telegram
        .upload("sendPhoto", &chat, "photo", &png(640, 480, 2000))
        .await;
    assert_eq!(status, 200, "{photo}");
    let sizes = &photo["result"]["photo"];
    assert_eq!(sizes[0]["width"], 640, "{photo}");
    assert_eq!(sizes[0]["height"], 480, "{photo}");
    assert!(
        photo["result"].get("text").is_none(),
        "media carry captions, not text"
    );

    refused(
        &telegram
            .upload("sendPhoto", &chat, "photo", &png(640, 480, 10_000_001))
            .await,
        400,
        "Bad Request: PHOTO_SAVE_FILE_INVALID",
    );
    refused(
        &telegram
            .upload("sendPhoto", &chat, "photo", &png(6000, 4001, 100))
            .await,
        400,
        "Bad Request: PHOTO_INVALID_DIMENSIONS",
    );
    refused(
        &telegram
            .upload("sendPhoto", &chat, "photo", &png(4200, 200, 100))
            .await,
        400,
        "Bad Request: PHOTO_INVALID_DIMENSIONS",
    );
    // The same large image goes as a document.
    let (status, document) = telegram
        .upload(
            "sendDocument",
            &chat,
            "document",
            &png(640, 480, 10_000_001),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(document["result"]["document"]["file_name"], "board.png");
    refused(
        &telegram
            .upload("sendDocument", &chat, "document", &png(1, 1, 50_000_001))
            .await,
        413,
        "Request Entity Too Large",
    );

    let captioned = [
        ("chat_id", GROUP.to_string()),
        ("caption", "c".repeat(1025)),
    ];
    refused(
        &telegram
            .upload("sendPhoto", &captioned, "photo", &png(64, 64, 100))
            .await,
        400,
        "Bad Request: message caption is too long",
    );
    let gif = {
        let mut gif = b"GIF89a".to_vec();
        gif.extend([0x40, 0x01, 0xf0, 0x00]);
        gif.resize(200, 0);
        gif
    };
    let captioned = [
        ("chat_id", GROUP.to_string()),
        ("caption", "Game".to_owned()),
    ];
    let (status, animation) = telegram
        .upload("sendAnimation", &captioned, "animation", &gif)
        .await;
    assert_eq!(status, 200);
    assert_eq!(animation["result"]["animation"]["width"], 320);
    assert_eq!(animation["result"]["animation"]["height"], 240);
    assert_eq!(animation["result"]["caption"], "Game");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn telegram_refuses_groups_the_bot_left_does_not_know_or_that_migrated() {
    let telegram = Telegram::start().await;
    let text = |chat: i64| json!({"chat_id": chat, "text": "hello"});
    refused(
        &telegram.call("sendMessage", text(-999)).await,
        400,
        "Bad Request: chat not found",
    );
    telegram.fake.migrate_group(GROUP, -100_777);
    let migrated = telegram.call("sendMessage", text(GROUP)).await;
    refused(
        &migrated,
        400,
        "Bad Request: group chat was upgraded to a supergroup chat",
    );
    assert_eq!(migrated.1["parameters"]["migrate_to_chat_id"], -100_777);
    assert_eq!(telegram.call("sendMessage", text(-100_777)).await.0, 200);
    telegram.fake.kick_bot_from(-100_777);
    refused(
        &telegram.call("sendMessage", text(-100_777)).await,
        403,
        "Forbidden: bot was kicked from the supergroup chat",
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn telegram_refuses_a_groups_twenty_first_message_in_a_minute_when_strict() {
    let telegram = Telegram::start().await;
    let text = |chat: i64| json!({"chat_id": chat, "text": "hello"});
    // Lenient by default: fast tests.
    for _ in 0..25 {
        assert_eq!(telegram.call("sendMessage", text(GROUP)).await.0, 200);
    }
    let telegram = Telegram::start().await;
    telegram.fake.enforce_group_flood_limit(20);
    for _ in 0..19 {
        assert_eq!(telegram.call("sendMessage", text(GROUP)).await.0, 200);
    }
    let (status, _) = telegram
        .upload(
            "sendPhoto",
            &[("chat_id", GROUP.to_string())],
            "photo",
            &png(64, 64, 100),
        )
        .await;
    assert_eq!(status, 200, "the twentieth");
    for method in ["sendMessage", "sendPhoto", "sendAnimation", "sendDocument"] {
        let answer = if method == "sendMessage" {
            telegram.call(method, text(GROUP)).await
        } else {
            let field = method.trim_start_matches("send").to_lowercase();
            telegram
                .upload(
                    method,
                    &[("chat_id", GROUP.to_string())],
                    &field,
                    &png(64, 64, 100),
                )
                .await
        };
        refused(&answer, 429, "Too Many Requests: retry after 60");
        assert_eq!(answer.1["parameters"]["retry_after"], 60, "{method}");
    }
    // Private chats and edits are not counted.
    assert_eq!(telegram.call("sendMessage", text(ALICE)).await.0, 200);
    let first = telegram.fake.calls()[0].message_id.expect("sent");
    let edit = json!({"chat_id": GROUP, "message_id": first,
        "reply_markup": {"inline_keyboard": [[{"text": "x", "callback_data": "x"}]]}});
    assert_eq!(telegram.call("editMessageReplyMarkup", edit).await.0, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn telegram_refuses_unknown_chat_actions_closed_chats_and_edits_of_missing_messages() {
    let telegram = Telegram::start().await;
    let action = |chat: i64, action: &str| json!({"chat_id": chat, "action": action});
    let fine = telegram
        .call("sendChatAction", action(GROUP, "upload_photo"))
        .await;
    assert_eq!((fine.0, &fine.1["result"]), (200, &json!(true)), "{fine:?}");
    assert_eq!(
        telegram
            .call("sendChatAction", action(ALICE, "upload_video"))
            .await
            .0,
        200
    );
    refused(
        &telegram
            .call("sendChatAction", action(GROUP, "drawing"))
            .await,
        400,
        "Bad Request: wrong parameter action in request",
    );
    refused(
        &telegram
            .call("sendChatAction", action(-999, "typing"))
            .await,
        400,
        "Bad Request: chat not found",
    );
    telegram.fake.add_person(12, "bob", "en", false);
    refused(
        &telegram.call("sendChatAction", action(12, "typing")).await,
        403,
        "Forbidden: bot can't initiate conversation with a user",
    );
    // A keyboard edit of a message that does not exist, or that changes
    // nothing.
    refused(
        &telegram
            .call(
                "editMessageReplyMarkup",
                json!({"chat_id": GROUP, "message_id": 999_999}),
            )
            .await,
        400,
        "Bad Request: message to edit not found",
    );
    let sent = telegram
        .call("sendMessage", json!({"chat_id": GROUP, "text": "board"}))
        .await;
    let id = sent.1["result"]["message_id"].clone();
    refused(
        &telegram
            .call(
                "editMessageReplyMarkup",
                json!({"chat_id": GROUP, "message_id": id}),
            )
            .await,
        400,
        "Bad Request: message is not modified",
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn telegram_edits_a_messages_media_only_as_the_bot_api_allows() {
    let telegram = Telegram::start().await;
    let chat = [("chat_id", GROUP.to_string())];
    let (_, photo) = telegram
        .upload("sendPhoto", &chat, "photo", &png(640, 480, 2000))
        .await;
    let id = photo["result"]["message_id"].as_i64().expect("an id");
    let media =
        |caption: &str| json!({"type": "photo", "media": "attach://board", "caption": caption});
    let edit = |id: i64, media: Value| {
        vec![
            ("chat_id", GROUP.to_string()),
            ("message_id", id.to_string()),
            ("media", media.to_string()),
        ]
    };
    let (status, edited) = telegram
        .upload(
            "editMessageMedia",
            &edit(id, media("1. e4")),
            "board",
            &png(640, 480, 3000),
        )
        .await;
    assert_eq!(status, 200, "{edited}");
    assert_eq!(edited["result"]["message_id"], id);
    assert_eq!(edited["result"]["caption"], "1. e4");
    assert_eq!(edited["result"]["photo"][0]["width"], 640);
    assert!(edited["result"]["edit_date"].is_number(), "{edited}");
    // The same file, caption and (no) keyboard again: nothing to change.
    refused(
        &telegram
            .upload(
                "editMessageMedia",
                &edit(id, media("1. e4")),
                "board",
                &png(640, 480, 3000),
            )
            .await,
        400,
        "Bad Request: message is not modified",
    );
    refused(
        &telegram
            .upload(
                "editMessageMedia",
                &edit(999_999, media("1. e4")),
                "board",
                &png(640, 480, 3000),
            )
            .await,
        400,
        "Bad Request: message to edit not found",
    );
    // The file must be the one the media attaches.
    refused(
        &telegram
            .upload(
                "editMessageMedia",
                &edit(id, media("2. d4")),
                "other",
                &png(640, 480, 3000),
            )
            .await,
        400,
        "Bad Request: there is no file in the request",
    );
    refused(
        &telegram
            .upload(
                "editMessageMedia",
                &edit(id, json!({"type": "sticker", "media": "attach://board"})),
                "board",
                &png(640, 480, 3000),
            )
            .await,
        400,
        "Bad Request: can't parse InputMedia",
    );
    refused(
        &telegram
            .upload(
                "editMessageMedia",
                &edit(id, media(&"c".repeat(1025))),
                "board",
                &png(64, 64, 100),
            )
            .await,
        400,
        "Bad Request: message caption is too long",
    );
    refused(
        &telegram
            .upload(
                "editMessageMedia",
                &edit(id, media("3. c4")),
                "board",
                &png(6000, 4001, 100),
            )
            .await,
        400,
        "Bad Request: PHOTO_INVALID_DIMENSIONS",
    );
    let no_message = [
        ("chat_id", GROUP.to_string()),
        ("media", media("x").to_string()),
    ];
    refused(
        &telegram
            .upload("editMessageMedia", &no_message, "board", &png(64, 64, 100))
            .await,
        400,
        "Bad Request: message identifier is not specified",
    );
    // Someone else's message is not the bot's to edit.
    let said = telegram.fake.say(GROUP, ALICE, "hello");
    refused(
        &telegram
            .upload(
                "editMessageMedia",
                &edit(said, media("x")),
                "board",
                &png(64, 64, 100),
            )
            .await,
        400,
        "Bad Request: message can't be edited",
    );
}

// ---------------------------------------------------------------------------
// Discord

const CHANNEL: u64 = 300;

struct Discord {
    fake: FakeDiscord,
    client: reqwest::Client,
}

impl Discord {
    async fn start() -> Discord {
        Discord {
            fake: FakeDiscord::start().await,
            client: reqwest::Client::new(),
        }
    }

    async fn call(&self, method: reqwest::Method, path: &str, body: Value) -> (u16, Value) {
        send(
            self.client
                .request(method, format!("{}/api/v10{path}", self.fake.rest_url()))
                .header("content-type", "application/json")
                .body(body.to_string()),
        )
        .await
    }

    async fn post(&self, path: &str, body: Value) -> (u16, Value) {
        self.call(reqwest::Method::POST, path, body).await
    }

    /// Opens a DM channel with `user` and says hello there.
    async fn dm(&self, user: u64) -> (u16, Value) {
        let opened = json!({"recipient_id": user.to_string()});
        let (_, channel) = self.post("/users/@me/channels", opened).await;
        let id = channel["id"].as_str().expect("a DM channel").to_owned();
        self.post(
            &format!("/channels/{id}/messages"),
            json!({"content": "hello"}),
        )
        .await
    }
}

/// Asserts a Discord refusal: status and JSON error code.
fn code(answer: &(u16, Value), status: u16, code: u64) {
    assert_eq!(
        (answer.0, answer.1["code"].as_u64()),
        (status, Some(code)),
        "{answer:?}"
    );
}

fn buttons(count: usize, prefix: &str) -> Value {
    let buttons: Vec<Value> = (0..count)
        .map(|index| json!({"type": 2, "style": 1, "label": "B", "custom_id": format!("{prefix}{index}")}))
        .collect();
    json!({"type": 1, "components": buttons})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn discord_refuses_bad_command_registrations() {
    let discord = Discord::start().await;
    let path = "/applications/100/commands";
    let put = |commands: Value| discord.call(reqwest::Method::PUT, path, commands);
    let option = |name: &str, required: bool| json!({"type": 3, "name": name, "description": "d", "required": required});
    let good = json!([{"name": "play", "description": "Start a game",
        "name_localizations": {"ru": "играть"},
        "options": [option("variant", true), option("clock", false)]}]);
    assert_eq!(put(good).await.0, 200);
    for name in ["Play", "play now", "", &"p".repeat(33)] {
        code(
            &put(json!([{"name": name, "description": "d"}])).await,
            400,
            50035,
        );
    }
    code(
        &put(json!([{"name": "play", "description": "d", "name_localizations": {"ru": "Играть"}}]))
            .await,
        400,
        50035,
    );
    code(
        &put(json!([{"name": "play", "description": ""}])).await,
        400,
        50035,
    );
    code(
        &put(json!([{"name": "play", "description": "d".repeat(101)}])).await,
        400,
        50035,
    );
    let many: Vec<Value> = (0..26).map(|i| option(&format!("o{i}"), false)).collect();
    code(
        &put(json!([{"name": "play", "description": "d", "options": many}])).await,
        400,
        50035,
    );
    let order = json!([{"name": "play", "description": "d",
        "options": [option("clock", false), option("variant", true)]}]);
    let refused = put(order).await;
    code(&refused, 400, 50035);
    assert!(refused
        .1
        .to_string()
        .contains("APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID"));
    let choices: Vec<Value> = (0..26)
        .map(|i| json!({"name": format!("c{i}"), "value": i}))
        .collect();
    let mut with_choices = option("variant", true);
    with_choices["choices"] = json!(choices);
    code(
        &put(json!([{"name": "play", "description": "d", "options": [with_choices]}])).await,
        400,
        50035,
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn discord_refuses_empty_long_and_overfull_messages() {
    let discord = Discord::start().await;
    let path = format!("/channels/{CHANNEL}/messages");
    code(
        &discord.post(&path, json!({"content": ""})).await,
        400,
        50006,
    );
    code(
        &discord.post(&path, json!({"content": "  "})).await,
        400,
        50006,
    );
    code(
        &discord
            .post(&path, json!({"content": "x".repeat(2001)}))
            .await,
        400,
        50035,
    );
    assert_eq!(
        discord
            .post(&path, json!({"content": "x".repeat(2000)}))
            .await
            .0,
        200
    );
    // Components alone make a message.
    assert_eq!(
        discord
            .post(&path, json!({"components": [buttons(5, "a")]}))
            .await
            .0,
        200
    );
    let rows: Vec<Value> = (0..6).map(|row| buttons(1, &format!("r{row}-"))).collect();
    code(
        &discord
            .post(&path, json!({"content": "x", "components": rows}))
            .await,
        400,
        50035,
    );
    code(
        &discord
            .post(
                &path,
                json!({"content": "x", "components": [buttons(6, "a")]}),
            )
            .await,
        400,
        50035,
    );
    let twice = json!({"content": "x", "components": [buttons(2, "same"), buttons(1, "same")]});
    let duplicated = discord.post(&path, twice).await;
    code(&duplicated, 400, 50035);
    assert!(duplicated
        .1
        .to_string()
        .contains("COMPONENT_CUSTOM_ID_DUPLICATED"));
    let long_id = json!({"content": "x", "components": [
        {"type": 1, "components": [{"type": 2, "style": 1, "label": "B", "custom_id": "c".repeat(101)}]}]});
    code(&discord.post(&path, long_id).await, 400, 50035);
    let no_id = json!({"content": "x", "components": [
        {"type": 1, "components": [{"type": 2, "style": 1, "label": "B", "custom_id": ""}]}]});
    code(&discord.post(&path, no_id).await, 400, 50035);

    // Files: up to 10 MiB; the message answers with its attachment.
    let upload = |size: usize| {
        let (content_type, body) = multipart(
            &[("payload_json", json!({"content": "board"}).to_string())],
            ("files[0]", "board.png", &png(80, 60, size)),
        );
        discord
            .client
            .post(format!("{}/api/v10{path}", discord.fake.rest_url()))
            .header("content-type", content_type)
            .body(body)
    };
    let (status, message) = send(upload(1000)).await;
    assert_eq!(status, 200);
    let attachment = &message["attachments"][0];
    assert_eq!(attachment["filename"], "board.png");
    assert_eq!(attachment["size"], 1000);
    assert_eq!(
        (attachment["width"].as_u64(), attachment["height"].as_u64()),
        (Some(80), Some(60))
    );
    code(&send(upload(10 * 1024 * 1024 + 1)).await, 413, 40005);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn discord_refuses_unknown_hidden_and_closed_channels() {
    let discord = Discord::start().await;
    let fake = &discord.fake;
    let message = json!({"content": "hello"});
    fake.delete_channel(301);
    code(
        &discord
            .post("/channels/301/messages", message.clone())
            .await,
        404,
        10003,
    );
    fake.hide_channel(302);
    code(
        &discord
            .post("/channels/302/messages", message.clone())
            .await,
        403,
        50001,
    );
    fake.refuse_dms_from(7);
    code(&discord.dm(7).await, 403, 50007);
    fake.share_no_guild_with(8);
    code(&discord.dm(8).await, 403, 50278);
    assert_eq!(discord.dm(9).await.0, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn discord_refuses_late_repeated_and_expired_interaction_responses() {
    let discord = Discord::start().await;
    let fake = &discord.fake;
    let callback = |token: &str| format!("/interactions/1/{token}/callback");
    let followup = |token: &str| format!("/webhooks/100/{token}");
    let deferred = json!({"type": 5, "data": {"flags": 64}});

    fake.open_interaction("early", CHANNEL, Some(GUILD_ID));
    code(
        &discord
            .post(&followup("early"), json!({"content": "x"}))
            .await,
        404,
        10015,
    );
    assert_eq!(
        discord.post(&callback("early"), deferred.clone()).await.0,
        204
    );
    code(
        &discord.post(&callback("early"), deferred.clone()).await,
        400,
        40060,
    );
    assert_eq!(
        discord
            .post(&followup("early"), json!({"content": "x"}))
            .await
            .0,
        200
    );
    code(
        &discord
            .post(&followup("early"), json!({"content": ""}))
            .await,
        400,
        50006,
    );
    fake.age_interaction("early", Duration::from_secs(15 * 60 + 1));
    code(
        &discord
            .post(&followup("early"), json!({"content": "x"}))
            .await,
        401,
        50027,
    );

    fake.open_interaction("late", CHANNEL, Some(GUILD_ID));
    fake.age_interaction("late", Duration::from_millis(3100));
    code(
        &discord.post(&callback("late"), deferred.clone()).await,
        404,
        10062,
    );
    code(
        &discord.post(&callback("never-sent"), deferred).await,
        404,
        10062,
    );

    // An answer with a message is checked like any message.
    fake.open_interaction("empty", CHANNEL, Some(GUILD_ID));
    code(
        &discord
            .post(
                &callback("empty"),
                json!({"type": 4, "data": {"content": ""}}),
            )
            .await,
        400,
        50006,
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn discord_refuses_bad_thread_names_and_too_many_threads() {
    let discord = Discord::start().await;
    let path = format!("/channels/{CHANNEL}/threads");
    let thread = |name: &str| json!({"name": name, "type": 11, "auto_archive_duration": 1440});
    code(&discord.post(&path, thread("")).await, 400, 50035);
    code(
        &discord.post(&path, thread(&"t".repeat(101))).await,
        400,
        50035,
    );
    assert_eq!(discord.post(&path, thread(&"t".repeat(100))).await.0, 201);
    discord.fake.limit_active_threads(1);
    code(&discord.post(&path, thread("second")).await, 400, 160_006);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn discord_refuses_oversized_embeds_and_autocomplete_answers() {
    let discord = Discord::start().await;
    let path = format!("/channels/{CHANNEL}/messages");
    let embed = |embed: Value| discord.post(&path, json!({ "embeds": [embed] }));
    // An embed alone makes a message.
    assert_eq!(
        embed(json!({"title": "t", "description": "d"})).await.0,
        200
    );
    let field = |name: String, value: String| json!({"name": name, "value": value});
    for oversized in [
        json!({"title": "t".repeat(257)}),
        json!({"description": "d".repeat(4097)}),
        json!({"fields": vec![field("n".into(), "v".into()); 26]}),
        json!({"fields": [field("n".repeat(257), "v".into())]}),
        json!({"fields": [field("n".into(), "v".repeat(1025))]}),
        json!({"fields": [field(String::new(), "v".into())]}),
        json!({"fields": [field("n".into(), String::new())]}),
        // Each part within its limit, 6001 characters together.
        json!({"title": "t".repeat(256), "description": "d".repeat(4096),
               "fields": [field("n".into(), "v".repeat(1024)), field("n".repeat(256), "v".repeat(368))]}),
    ] {
        let answer = embed(oversized).await;
        code(&answer, 400, 50035);
        assert!(answer.1["errors"].is_object(), "{answer:?}");
    }
    assert_eq!(
        embed(json!({"title": "t".repeat(256), "description": "d".repeat(4096),
                     "fields": [field("n".into(), "v".repeat(1024)), field("n".repeat(256), "v".repeat(367))]}))
        .await
        .0,
        200
    );

    let fake = &discord.fake;
    let callback = |token: &str| format!("/interactions/1/{token}/callback");
    let choices = |choices: Vec<Value>| json!({"type": 8, "data": {"choices": choices}});
    let choice = |name: String, value: String| json!({"name": name, "value": value});
    for (token, answer) in [
        ("many", choices(vec![choice("e4".into(), "e4".into()); 26])),
        ("unnamed", choices(vec![choice(String::new(), "e4".into())])),
        (
            "long-name",
            choices(vec![choice("n".repeat(101), "e4".into())]),
        ),
        (
            "long-value",
            choices(vec![choice("e4".into(), "v".repeat(101))]),
        ),
    ] {
        fake.open_interaction(token, CHANNEL, Some(GUILD_ID));
        code(&discord.post(&callback(token), answer).await, 400, 50035);
    }
    fake.open_interaction("fine", CHANNEL, Some(GUILD_ID));
    let fine = choices(vec![choice("n".repeat(100), "v".repeat(100)); 25]);
    assert_eq!(discord.post(&callback("fine"), fine).await.0, 204);
}

#[tokio::test]
async fn discord_refuses_bad_allowed_mentions_and_pings_only_whom_they_allow() {
    let discord = Discord::start().await;
    let path = format!("/channels/{CHANNEL}/messages");
    let with = |allowed: Value| json!({"content": "<@1001> <@1002> @everyone", "allowed_mentions": allowed});
    // `parse: ["users"]` and a list of users are mutually exclusive.
    code(
        &discord
            .post(&path, with(json!({"parse": ["users"], "users": ["1001"]})))
            .await,
        400,
        50035,
    );
    // At most 100 users, each once, real snowflakes, known parse values.
    let many: Vec<String> = (1..=101).map(|id| id.to_string()).collect();
    for allowed in [
        json!({"users": many}),
        json!({"users": ["1001", "1001"]}),
        json!({"users": ["bob"]}),
        json!({"parse": ["friends"]}),
        json!({"parse": ["users", "users"]}),
        json!("everyone"),
    ] {
        code(
            &discord.post(&path, with(allowed.clone())).await,
            400,
            50035,
        );
    }
    let hundred: Vec<String> = (1001..=1100).map(|id| id.to_string()).collect();
    assert_eq!(
        discord.post(&path, with(json!({"users": hundred}))).await.0,
        200
    );
    assert_eq!(
        discord
            .post(&path, with(json!({"parse": ["roles"], "users": ["1002"]})))
            .await
            .0,
        200
    );
    assert_eq!(discord.post(&path, with(json!({"parse": []}))).await.0, 200);
    assert_eq!(discord.post(&path, with(Value::Null)).await.0, 200);
    let sent = discord.fake.messages_in(CHANNEL);
    let pinged: Vec<Vec<u64>> = sent.iter().map(|m| m.pinged_users()).collect();
    assert_eq!(
        pinged,
        [vec![1001, 1002], vec![1002], vec![], vec![1001, 1002]],
        "the listed users, nobody when nothing is allowed, all without allowed mentions"
    );
    let wide: Vec<bool> = sent
        .iter()
        .map(|m| m.may_ping_everyone_or_roles())
        .collect();
    assert_eq!(wide, [false, true, false, true]);
}

#[tokio::test]
async fn discord_lets_the_bot_edit_only_its_own_messages_in_their_channel() {
    let discord = Discord::start().await;
    let path = format!("/channels/{CHANNEL}/messages");
    let (_, posted) = discord
        .post(
            &path,
            json!({"content": "board", "components": [buttons(2, "b")]}),
        )
        .await;
    let id = posted["id"].as_str().expect("a message id").to_owned();
    let edit = |channel: u64, message: String| {
        let path = format!("/channels/{channel}/messages/{message}");
        let discord = &discord;
        async move {
            discord
                .call(reqwest::Method::PATCH, &path, json!({"components": []}))
                .await
        }
    };
    code(&edit(CHANNEL + 1, id.clone()).await, 404, 10008);
    code(&edit(CHANNEL, "123456".into()).await, 404, 10008);
    let (status, edited) = edit(CHANNEL, id.clone()).await;
    assert_eq!(status, 200);
    assert_eq!(edited["components"], json!([]));
    assert_eq!(edited["content"], "board", "what the edit leaves out stays");
    let message = &discord.fake.messages_in(CHANNEL)[0];
    assert_eq!(message.buttons.len(), 2, "as sent");
    assert!(discord.fake.buttons_now(message).is_empty(), "as edited");
}
