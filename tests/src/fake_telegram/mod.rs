//! A fake Telegram Bot API for end-to-end tests: a real HTTP server on
//! localhost that the real teloxide client talks to (`Bot::set_api_url`).
//!
//! It serves scripted updates by genuine long polling (`getUpdates` waits until
//! the test scripts something), answers the sending methods like Telegram
//! (including 403 "bot can't initiate conversation" for people who never
//! pressed Start, and scripted failures such as 429 `retry_after`), and records
//! every call the bot makes so a test can assert on it.

pub mod rules;
mod server;

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use kodex_bot::telegram::{Limits, TelegramConfig};
use serde_json::{json, Value};
use tokio::sync::Notify;

/// The fake bot's user id.
pub const BOT_ID: i64 = 1_000;
/// The fake bot's username.
pub const BOT_USERNAME: &str = "KodexBot";
/// The token the fake expects (any token works; it is recorded for checks).
pub const TOKEN: &str = "123456:TEST-TOKEN";

/// How long a test waits for the bot before failing with the record so far.
/// A guard against hangs, not a timing assertion.
const PATIENCE: Duration = Duration::from_secs(60);

/// How long the fake waits for the answer to a button press before it
/// answers "query is too old". Telegram does not document the figure;
/// clients give up after about 15 seconds, and answers later than that fail.
pub const CALLBACK_DEADLINE: Duration = Duration::from_secs(15);

/// A failure to serve instead of the next successful answer to a method.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// HTTP 429 "Too Many Requests: retry after N" with `parameters.retry_after`.
    RetryAfter(u32),
    /// HTTP 502 with an HTML page, as a proxy in front of Telegram would answer.
    BadGateway,
    /// HTTP 500 `{"ok": false, "error_code": 500, "description":
    /// "Internal Server Error"}`, as the Bot API answers when it fails.
    ServerError,
}

/// How the fake answered a call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Accepted (for sending methods: the message exists now).
    Ok,
    /// 403: the person never started the bot.
    Forbidden,
    /// A scripted failure.
    Failed(Failure),
    /// Refused as the real Bot API refuses it (the `description`).
    Rejected(String),
}

/// A file the bot uploaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Upload {
    /// The parameter it is (`photo`, `animation`, `document`; for an
    /// edited message, the kind of its new media).
    pub field: String,
    /// The multipart part that held it.
    pub part: String,
    /// The file name the bot gave.
    pub file_name: Option<String>,
    /// The bytes.
    pub bytes: Vec<u8>,
}

/// One call the bot made.
#[derive(Clone, Debug)]
pub struct Call {
    /// The Bot API method (`sendPhoto`).
    pub method: String,
    /// All parameters (JSON body, or multipart text fields), files left out.
    pub params: Value,
    /// The uploaded file, if any.
    pub upload: Option<Upload>,
    /// How the fake answered.
    pub outcome: Outcome,
    /// The id of the message created, for successful sends.
    pub message_id: Option<i64>,
    /// When the fake answered it.
    pub at: Instant,
}

impl Call {
    /// `chat_id` as a number.
    pub fn chat_id(&self) -> Option<i64> {
        match &self.params["chat_id"] {
            Value::Number(number) => number.as_i64(),
            Value::String(text) => text.parse().ok(),
            _ => None,
        }
    }

    /// The message text or media caption (an edited message's new one).
    pub fn text(&self) -> String {
        self.params["text"]
            .as_str()
            .or_else(|| self.params["caption"].as_str())
            .or_else(|| self.params["media"]["caption"].as_str())
            .unwrap_or_default()
            .to_owned()
    }

    /// Whether the text or caption is sent as HTML.
    fn html(&self) -> bool {
        self.params["parse_mode"].as_str() == Some("HTML")
            || self.params["media"]["parse_mode"].as_str() == Some("HTML")
    }

    /// The text or caption as a reader sees it (HTML parsed when sent as HTML).
    pub fn visible_text(&self) -> String {
        rules::visible_text(&self.text(), self.html()).unwrap_or_default()
    }

    /// The people the text or caption mentions as Telegram parses it (and
    /// notifies): `@username`s, and text mentions (`<a href="tg://user?id=…">`
    /// in HTML), in order.
    pub fn mentions(&self) -> Vec<rules::Mentioned> {
        rules::mentions(&self.text(), self.html())
    }

    /// A successful edit of a message's media in `chat` (`editMessageMedia`).
    pub fn edited_in(&self, chat: i64) -> bool {
        self.method == "editMessageMedia"
            && self.outcome == Outcome::Ok
            && self.chat_id() == Some(chat)
    }

    /// Whether the call sent something into a chat (message, photo, animation, document).
    pub fn is_send(&self) -> bool {
        matches!(
            self.method.as_str(),
            "sendMessage" | "sendPhoto" | "sendAnimation" | "sendDocument"
        )
    }

    /// A successful send into `chat`.
    pub fn delivered_to(&self, chat: i64) -> bool {
        self.is_send() && self.outcome == Outcome::Ok && self.chat_id() == Some(chat)
    }

    /// The callback data of every inline button, row by row.
    pub fn button_data(&self) -> Vec<String> {
        self.buttons("callback_data")
    }

    /// The URLs of every URL button.
    pub fn button_urls(&self) -> Vec<String> {
        self.buttons("url")
    }

    fn buttons(&self, key: &str) -> Vec<String> {
        self.params["reply_markup"]["inline_keyboard"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_array)
            .flatten()
            .filter_map(|button| button[key].as_str().map(str::to_owned))
            .collect()
    }
}

/// A person in the fake Telegram.
#[derive(Clone, Debug)]
struct Person {
    username: String,
    first_name: String,
    language_code: String,
    /// Whether they pressed Start in their private chat with the bot.
    started: bool,
}

#[derive(Default)]
struct World {
    people: HashMap<i64, Person>,
    groups: HashMap<i64, String>,
    next_update_id: i64,
    next_message_id: i64,
    next_callback_id: i64,
    pending_updates: Vec<Value>,
    messages: HashMap<i64, Value>,
    failures: VecDeque<(String, Failure)>,
    calls: Vec<Call>,
    tokens_seen: Vec<String>,
    get_updates_calls: usize,
    /// Set by `setWebhook`: where to post updates, and the secret header.
    webhook: Option<Webhook>,
    /// The `allowed_updates` of the last `setWebhook`.
    webhook_allowed_updates: Option<Value>,
    /// A load balancer in front of several bot processes: updates go to
    /// these addresses in turn instead of the webhook's own (see
    /// [`FakeTelegram::balance_webhook`]).
    webhook_targets: Vec<String>,
    /// The next of `webhook_targets`.
    next_target: usize,
    /// Every update is posted to two targets at once, as Telegram's second
    /// delivery of an update whose first request went unanswered would be.
    duplicate_deliveries: bool,
    /// Button presses not answered yet, and when they were made.
    unanswered_callbacks: HashMap<String, Instant>,
    /// How long Telegram waits for the answer to a button press.
    callback_deadline: Duration,
    /// Groups the bot was removed from.
    kicked_from: HashSet<i64>,
    /// Groups that became supergroups: old id → new id.
    migrated: HashMap<i64, i64>,
    /// Members' statuses other than "member": (group, person) → `creator`,
    /// `administrator`, `left`, `kicked`.
    statuses: HashMap<(i64, i64), String>,
    /// Groups where the bot is an administrator allowed to delete messages.
    bot_admin_in: HashSet<i64>,
    /// How many messages a group takes from the bot in a minute (`None`:
    /// any number, to keep tests fast).
    group_flood_limit: Option<usize>,
    /// When each group took the bot's messages, in the last minute.
    group_sent: HashMap<i64, VecDeque<Instant>>,
    /// The file each message with one shows (a hash of its bytes).
    message_files: HashMap<i64, u64>,
}

/// A webhook the bot asked for.
#[derive(Clone, Debug)]
struct Webhook {
    url: String,
    secret_token: Option<String>,
}

struct Shared {
    world: Mutex<World>,
    updates_changed: Notify,
    calls_changed: Notify,
}

impl Shared {
    fn world(&self) -> MutexGuard<'_, World> {
        self.world
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// The running fake Bot API server.
pub struct FakeTelegram {
    shared: Arc<Shared>,
    url: String,
    server: tokio::task::JoinHandle<()>,
}

impl Drop for FakeTelegram {
    fn drop(&mut self) {
        self.server.abort();
    }
}

impl FakeTelegram {
    /// Starts the server on a free localhost port.
    pub async fn start() -> FakeTelegram {
        let shared = Arc::new(Shared {
            world: Mutex::new(World {
                next_update_id: 1,
                next_message_id: 1,
                next_callback_id: 1,
                callback_deadline: CALLBACK_DEADLINE,
                ..World::default()
            }),
            updates_changed: Notify::new(),
            calls_changed: Notify::new(),
        });
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind a localhost port for the fake Bot API");
        let address = listener.local_addr().expect("the fake's address");
        let server = tokio::spawn(server::serve(listener, Arc::clone(&shared)));
        tokio::spawn(server::push_to_webhook(Arc::downgrade(&shared)));
        FakeTelegram {
            shared,
            url: format!("http://{address}/"),
            server,
        }
    }

    /// The base URL to give the bot (`TelegramConfig::api_url`).
    pub fn url(&self) -> url::Url {
        url::Url::parse(&self.url).expect("the fake's URL")
    }

    /// Adds a person; `started` says whether they have pressed Start in a
    /// private chat with the bot (else private messages to them get a 403).
    /// An empty `username` is a person without one.
    pub fn add_person(&self, id: i64, username: &str, language_code: &str, started: bool) {
        self.shared.world().people.insert(
            id,
            Person {
                username: username.to_owned(),
                first_name: username.to_owned(),
                language_code: language_code.to_owned(),
                started,
            },
        );
    }

    /// Changes the first name a person shows (anyone may call themselves
    /// `@carol`; only the username is unique).
    pub fn set_first_name(&self, id: i64, first_name: &str) {
        if let Some(person) = self.shared.world().people.get_mut(&id) {
            person.first_name = first_name.to_owned();
        }
    }

    /// A configuration of the real adapter that talks to this fake, with
    /// flood limits high enough not to slow tests down (Telegram's real ones
    /// allow one message a second per chat).
    pub fn adapter_config(&self) -> TelegramConfig {
        let mut config = TelegramConfig::new(TOKEN);
        config.api_url = Some(self.url());
        config.limits = Limits {
            messages_per_sec_chat: 1_000,
            messages_per_min_chat: 10_000,
            messages_per_min_channel_or_supergroup: 10_000,
            messages_per_sec_overall: 1_000,
        };
        config
    }

    /// The adapter's configuration with the flood limits of production
    /// ([`TelegramConfig::new`]), talking to this fake.
    pub fn production_adapter_config(&self) -> TelegramConfig {
        let mut config = TelegramConfig::new(TOKEN);
        config.api_url = Some(self.url());
        config
    }

    /// From now on, a group takes at most `per_minute` messages from the
    /// bot in any minute, as Telegram's groups take about 20: beyond that,
    /// `sendMessage`, `sendPhoto`, `sendAnimation` and `sendDocument` answer
    /// 429 "Too Many Requests: retry after N", N being the seconds until
    /// the group takes one again.
    pub fn enforce_group_flood_limit(&self, per_minute: usize) {
        self.shared.world().group_flood_limit = Some(per_minute);
    }

    /// Adds a group chat (a negative id).
    pub fn add_group(&self, id: i64, title: &str) {
        self.shared.world().groups.insert(id, title.to_owned());
    }

    /// `person` writes `text` in `chat` (a group id, or their own id for the
    /// private chat). Returns the message id. `/start` in the private chat
    /// opens it, as pressing Start does.
    pub fn say(&self, chat: i64, person: i64, text: &str) -> i64 {
        self.post_message(chat, person, text, None)
    }

    /// `person` writes `text` in `chat` with a lone UTF-16 surrogate escape
    /// (`\ud83d`, half an emoji, as buggy clients send) after it: a body
    /// JSON parsers refuse. Returns the message id.
    pub fn say_with_lone_surrogate(&self, chat: i64, person: i64, text: &str) -> i64 {
        self.post_message(chat, person, &format!("{text}{LONE_SURROGATE}"), None)
    }

    /// `person` replies with `text` to message `to` in `chat`.
    pub fn reply(&self, chat: i64, person: i64, text: &str, to: i64) -> i64 {
        self.post_message(chat, person, text, Some(to))
    }

    /// `person` presses the inline button carrying `data` under message `on`.
    pub fn press(&self, chat: i64, person: i64, on: i64, data: &str) -> String {
        let mut world = self.shared.world();
        let id = format!("cq{}", world.next_callback_id);
        world.next_callback_id += 1;
        let message = world.messages.get(&on).cloned().unwrap_or_else(
            || json!({"message_id": on, "date": 0, "chat": chat_json(&world, chat)}),
        );
        let update = json!({
            "callback_query": {
                "id": id,
                "from": person_json(&world, person),
                "message": message,
                "chat_instance": format!("ci{chat}"),
                "data": data,
            }
        });
        push_update(&mut world, update);
        world
            .unanswered_callbacks
            .insert(id.clone(), Instant::now());
        drop(world);
        self.shared.updates_changed.notify_waiters();
        id
    }

    /// From now on, button presses must be answered within `deadline`.
    pub fn set_callback_deadline(&self, deadline: Duration) {
        self.shared.world().callback_deadline = deadline;
    }

    /// Sets a person's status in a group (`creator`, `administrator`,
    /// `member`, `left`, `kicked`), as `getChatMember` reports it; everyone
    /// else known to the fake is a `member`.
    pub fn set_status(&self, group: i64, person: i64, status: &str) {
        self.shared
            .world()
            .statuses
            .insert((group, person), status.to_owned());
    }

    /// Makes the bot an administrator of `group` with the right to delete
    /// messages (else it may delete only its own).
    pub fn make_bot_admin(&self, group: i64) {
        self.shared.world().bot_admin_in.insert(group);
    }

    /// The callback data of the buttons message `id` carries now (after
    /// the bot's edits); empty when it has none or does not exist.
    pub fn buttons_now(&self, id: i64) -> Vec<String> {
        let world = self.shared.world();
        let Some(message) = world.messages.get(&id) else {
            return Vec::new();
        };
        message["reply_markup"]["inline_keyboard"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_array)
            .flatten()
            .filter_map(|button| button["callback_data"].as_str().map(str::to_owned))
            .collect()
    }

    /// Whether message `id` still exists (was not deleted).
    pub fn message_exists(&self, id: i64) -> bool {
        self.shared.world().messages.contains_key(&id)
    }

    /// Removes the bot from a group: sends there fail with 403.
    pub fn kick_bot_from(&self, group: i64) {
        self.shared.world().kicked_from.insert(group);
    }

    /// Turns a group into a supergroup with a new id: sends to the old id
    /// fail with `migrate_to_chat_id`.
    pub fn migrate_group(&self, old: i64, new: i64) {
        let mut world = self.shared.world();
        let title = world.groups.remove(&old).unwrap_or_default();
        world.groups.insert(new, title);
        world.migrated.insert(old, new);
    }

    /// The `allowed_updates` the bot gave with its last `setWebhook`.
    /// Puts a load balancer before the webhook: updates are posted to
    /// `targets` in turn (each bot process's own address), and with
    /// `duplicate` each to two of them at once; an update counts as
    /// delivered once any of them took it (a 2xx).
    pub fn balance_webhook(&self, targets: Vec<String>, duplicate: bool) {
        let mut world = self.shared.world();
        world.webhook_targets = targets;
        world.duplicate_deliveries = duplicate;
    }

    pub fn webhook_allowed_updates(&self) -> Option<Value> {
        self.shared.world().webhook_allowed_updates.clone()
    }

    /// The next call to `method` fails with `failure` (then calls succeed again).
    pub fn fail_next(&self, method: &str, failure: Failure) {
        self.shared
            .world()
            .failures
            .push_back((method.to_owned(), failure));
    }

    /// The next `count` calls of any sending method (`sendMessage`,
    /// `sendPhoto`, `sendAnimation`, `sendDocument`, `editMessageMedia`)
    /// fail with `failure`, whatever chat they are for.
    pub fn fail_next_sends(&self, count: usize, failure: Failure) {
        let mut world = self.shared.world();
        for _ in 0..count {
            world
                .failures
                .push_back((ANY_SEND.to_owned(), failure.clone()));
        }
    }

    /// Everything the bot called so far, in order.
    pub fn calls(&self) -> Vec<Call> {
        self.shared.world().calls.clone()
    }

    /// How many updates the bot has not confirmed yet (by asking `getUpdates`
    /// for a later offset): what Telegram would send again after a crash.
    pub fn unconfirmed_updates(&self) -> usize {
        self.shared.world().pending_updates.len()
    }

    /// How many `getUpdates` (long polling) calls the bot made.
    pub fn get_updates_calls(&self) -> usize {
        self.shared.world().get_updates_calls
    }

    /// The tokens the bot presented.
    pub fn tokens_seen(&self) -> Vec<String> {
        self.shared.world().tokens_seen.clone()
    }

    /// Waits until a call at index `from` or later satisfies `matches`, and
    /// returns its index and the call. Panics with the record after a long
    /// time, so a broken bot fails the test instead of hanging it.
    pub async fn wait_for(
        &self,
        from: usize,
        what: &str,
        matches: impl Fn(&Call) -> bool,
    ) -> (usize, Call) {
        let deadline = tokio::time::Instant::now() + PATIENCE;
        loop {
            let changed = self.shared.calls_changed.notified();
            tokio::pin!(changed);
            changed.as_mut().enable();
            {
                let world = self.shared.world();
                if let Some((index, call)) = world
                    .calls
                    .iter()
                    .enumerate()
                    .skip(from)
                    .find(|(_, call)| matches(call))
                {
                    return (index, call.clone());
                }
            }
            if tokio::time::timeout_at(deadline, changed).await.is_err() {
                panic!(
                    "the bot never made the expected call: {what}\ncalls so far:\n{}",
                    self.describe_calls()
                );
            }
        }
    }

    /// Waits for the bot's answer to the button press `press` (the id
    /// [`FakeTelegram::press`] returned), from call `from` on. Returns its
    /// index and the note shown only to the presser, if any.
    pub async fn press_answer(&self, from: usize, press: &str) -> (usize, Option<String>) {
        let (index, answer) = self
            .wait_for(from, "the answer to a button press", |call| {
                call.method == "answerCallbackQuery" && call.params["callback_query_id"] == press
            })
            .await;
        (index, answer.params["text"].as_str().map(str::to_owned))
    }

    /// A readable dump of the record, for failure messages.
    pub fn describe_calls(&self) -> String {
        self.calls()
            .iter()
            .enumerate()
            .map(|(index, call)| {
                format!(
                    "{index}: {} chat={:?} {:?} text={:?} buttons={:?} {:?}",
                    call.method,
                    call.chat_id(),
                    call.outcome,
                    call.text(),
                    call.button_data(),
                    call.upload.as_ref().map(|upload| &upload.file_name),
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn post_message(&self, chat: i64, person: i64, text: &str, reply_to: Option<i64>) -> i64 {
        let mut world = self.shared.world();
        if chat == person && text.starts_with("/start") {
            if let Some(someone) = world.people.get_mut(&person) {
                someone.started = true;
            }
        }
        let from = person_json(&world, person);
        let (message_id, mut message) = new_message(&mut world, chat, from, text);
        if text.starts_with('/') {
            let length = text
                .split_whitespace()
                .next()
                .map_or(0, |word| word.encode_utf16().count());
            message["entities"] = json!([{"type": "bot_command", "offset": 0, "length": length}]);
        }
        if let Some(to) = reply_to {
            if let Some(original) = world.messages.get(&to) {
                message["reply_to_message"] = original.clone();
            }
        }
        world.messages.insert(message_id, message.clone());
        push_update(&mut world, json!({ "message": message }));
        drop(world);
        self.shared.updates_changed.notify_waiters();
        message_id
    }
}

/// A new message with the next message id, in `chat`, from `from`.
fn new_message(world: &mut World, chat: i64, from: Value, text: &str) -> (i64, Value) {
    let message_id = world.next_message_id;
    world.next_message_id += 1;
    let message = json!({
        "message_id": message_id,
        "date": 1_700_000_000,
        "chat": chat_json(world, chat),
        "from": from,
        "text": text,
    });
    (message_id, message)
}

/// The method of a scripted failure that fails the next call of any
/// sending method.
pub(crate) const ANY_SEND: &str = "*";

/// Stands for a lone surrogate in an update's text until the update is sent:
/// a JSON value cannot hold one, Telegram's bodies can.
pub(crate) const LONE_SURROGATE: &str = "<lone-surrogate-ud83d>";

fn push_update(world: &mut World, mut update: Value) {
    update["update_id"] = json!(world.next_update_id);
    world.next_update_id += 1;
    world.pending_updates.push(update);
}

fn bot_json() -> Value {
    json!({"id": BOT_ID, "is_bot": true, "first_name": "Kodex", "username": BOT_USERNAME})
}

fn person_json(world: &World, id: i64) -> Value {
    match world.people.get(&id) {
        Some(person) => {
            let mut user = json!({
                "id": id,
                "is_bot": false,
                "first_name": person.first_name,
                "language_code": person.language_code,
            });
            if !person.username.is_empty() {
                user["username"] = json!(person.username);
            }
            user
        }
        None => json!({"id": id, "is_bot": false, "first_name": format!("user{id}")}),
    }
}

fn chat_json(world: &World, id: i64) -> Value {
    if id < 0 {
        let title = world
            .groups
            .get(&id)
            .cloned()
            .unwrap_or_else(|| "Group".to_owned());
        json!({"id": id, "type": "supergroup", "title": title})
    } else {
        let person = person_json(world, id);
        json!({
            "id": id,
            "type": "private",
            "first_name": person["first_name"],
            "username": person["username"],
        })
    }
}
