//! A fake Discord for end-to-end tests of the real serenity/poise client:
//! a REST server (reach it with `HttpBuilder::proxy`) and a `ws://` gateway,
//! both on 127.0.0.1. It records every request the bot makes, so tests can
//! assert on what people would have seen, and sends the events a test asks
//! for (`INTERACTION_CREATE`, `MESSAGE_CREATE`) built from [`payloads`].
//!
//! Serenity turns `https://discord.com/api/v10/…` into `<proxy>/api/v10/…`
//! (a plain string replacement in `Request::build`), so the REST server
//! serves Discord's paths under `/api/v10`.

mod gateway;
pub mod multipart;
pub mod payloads;
mod rest;
pub mod rules;

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::net::TcpListener;
use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;

pub use payloads::{FakeUser, APPLICATION_ID, GUILD_ID};

/// How long a test waits for the bot before failing (a guard against hangs,
/// not a measurement: everything normally arrives within milliseconds).
const PATIENCE: Duration = Duration::from_secs(30);

/// One request the bot made.
#[derive(Clone, Debug)]
pub struct RecordedRequest {
    /// `GET`, `POST`, …
    pub method: String,
    /// The path after `/api/v10` (`/channels/300/messages`).
    pub path: String,
    /// The status the fake answered.
    pub status: u16,
    /// The JSON body (or the multipart `payload_json`); `Null` if none.
    pub json: Value,
    /// Uploaded files.
    pub files: Vec<RecordedFile>,
    /// The object the fake answered with (a message for message routes).
    pub response: Value,
    /// The status the bot got instead of `status` when a test made Discord
    /// fail after doing what was asked ([`Outage::ServerErrorAfterDoing`]).
    pub outage: Option<u16>,
    /// Discord recognised the message's nonce (`enforce_nonce`): it answered
    /// with the message created earlier and created nothing.
    pub duplicate: bool,
}

/// A passing failure of Discord's that a test fires ([`FakeDiscord::fail_next`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outage {
    /// 429 with `retry_after`, before doing anything.
    RateLimited,
    /// A 5xx page from Discord's edge (not JSON), before doing anything.
    ServerError(u16),
    /// Done, but the answer lost: the bot gets a 5xx page.
    ServerErrorAfterDoing(u16),
}

/// A file the bot uploaded.
#[derive(Clone, Debug)]
pub struct RecordedFile {
    /// The file name.
    pub name: String,
    /// The content type serenity declared.
    pub content_type: Option<String>,
    /// The bytes.
    pub bytes: Vec<u8>,
}

/// Where a message the bot sent appeared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// A channel or DM channel (`POST /channels/{id}/messages`).
    Channel(u64),
    /// The original response of the interaction with this token.
    Original(String),
    /// A followup of the interaction with this token.
    Followup(String),
}

/// A button on a message the bot sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SentButton {
    /// What it says.
    pub label: String,
    /// Its custom id.
    pub custom_id: String,
    /// Its style: 1 primary, 2 secondary, 3 success, 4 danger.
    pub style: u64,
}

/// A message the bot sent successfully.
#[derive(Clone, Debug)]
pub struct SentMessage {
    /// Where.
    pub place: Place,
    /// Its text.
    pub content: String,
    /// Whether only the interaction's user sees it.
    pub ephemeral: bool,
    /// Its buttons.
    pub buttons: Vec<SentButton>,
    /// Its attachments.
    pub files: Vec<RecordedFile>,
    /// Its embeds, as the bot sent them.
    pub embeds: Vec<Value>,
    /// The message object the fake answered with (press buttons on it).
    pub message: Value,
    /// The `allowed_mentions` it was sent with (`null` when left out).
    pub allowed_mentions: Value,
}

impl SentMessage {
    /// Everything a reader sees written: the content, then each embed's
    /// title, description and fields (`name: value`), one per line.
    pub fn text(&self) -> String {
        let mut lines = vec![self.content.clone()];
        for embed in &self.embeds {
            for part in ["title", "description"] {
                if let Some(text) = embed[part].as_str() {
                    lines.push(text.to_owned());
                }
            }
            for field in embed["fields"].as_array().into_iter().flatten() {
                lines.push(format!(
                    "{}: {}",
                    field["name"].as_str().unwrap_or_default(),
                    field["value"].as_str().unwrap_or_default()
                ));
            }
        }
        lines.retain(|line| !line.is_empty());
        lines.join("\n")
    }

    /// The file an embed's image refers to (`attachment://<name>`), when
    /// the message carries it.
    pub fn embedded_image(&self) -> Option<&RecordedFile> {
        let url = self.embeds.first()?["image"]["url"].as_str()?;
        let name = url.strip_prefix("attachment://")?;
        self.files.iter().find(|file| file.name == name)
    }

    /// The button with this custom id prefix, if any.
    pub fn button(&self, custom_id_prefix: &str) -> Option<&SentButton> {
        self.buttons
            .iter()
            .find(|button| button.custom_id.starts_with(custom_id_prefix))
    }

    /// The users Discord notifies for this message: those mentioned in its
    /// content (`<@id>`, `<@!id>`) whom its allowed mentions let through
    /// (all of them when it sets none; embeds never ping). In order, each once.
    pub fn pinged_users(&self) -> Vec<u64> {
        let allowed = &self.allowed_mentions;
        let listed: Vec<u64> = allowed["users"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|id| id.as_str().and_then(|id| id.parse().ok()).or(id.as_u64()))
            .collect();
        let parse_users = allowed.is_null()
            || allowed["parse"]
                .as_array()
                .is_some_and(|kinds| kinds.iter().any(|kind| kind == "users"));
        let mut pinged = Vec::new();
        for user in mentioned_users(&self.content) {
            if (parse_users || listed.contains(&user)) && !pinged.contains(&user) {
                pinged.push(user);
            }
        }
        pinged
    }

    /// Whether it could ping everyone or a role (`@everyone`, `@here`,
    /// `<@&role>` let through by its allowed mentions).
    pub fn may_ping_everyone_or_roles(&self) -> bool {
        let allowed = &self.allowed_mentions;
        let parses = |kind: &str| {
            allowed.is_null()
                || allowed["parse"]
                    .as_array()
                    .is_some_and(|kinds| kinds.iter().any(|k| k == kind))
        };
        let roles = allowed["roles"].as_array().is_some_and(|r| !r.is_empty());
        parses("everyone") || parses("roles") || roles
    }

    /// Whether it carries a PNG image.
    pub fn has_png(&self) -> bool {
        self.files
            .iter()
            .any(|file| file.bytes.starts_with(crate::image_header::PNG_SIGNATURE))
    }
}

/// A thread the bot created.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FakeThread {
    /// Its channel id.
    pub id: u64,
    /// The channel it was created in.
    pub parent: u64,
    /// Its name.
    pub name: String,
    /// The type the bot asked for (11: public thread).
    pub kind: u64,
    /// The auto-archive duration the bot asked for, in minutes.
    pub auto_archive_minutes: Option<u64>,
    /// The users the bot added to it (`PUT /channels/{id}/thread-members/{user}`).
    pub members: Vec<u64>,
}

/// How long Discord waits for the first response to an interaction.
pub const INITIAL_RESPONSE_WINDOW: Duration = Duration::from_secs(3);
/// How long an interaction token may be used for followups and edits.
pub const TOKEN_LIFETIME: Duration = Duration::from_secs(15 * 60);

/// A gateway connection that has identified.
struct Session {
    dispatch: mpsc::UnboundedSender<(String, Value)>,
    /// The shard count it identified with (`shard: [id, total]`).
    total: u32,
    /// Whether it asked for (and got) the Message Content intent.
    message_content: bool,
}

/// An interaction the fake sent, as Discord tracks it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct InteractionState {
    /// When it was created.
    pub(crate) created: Instant,
    /// Whether it has been responded to (callback).
    pub(crate) acknowledged: bool,
}

/// Channels and users that refuse the bot, and other limits a test sets.
#[derive(Default)]
pub(crate) struct Refusals {
    /// Channels that do not exist (10003).
    pub(crate) unknown_channels: HashSet<u64>,
    /// Channels the bot cannot see (50001).
    pub(crate) hidden_channels: HashSet<u64>,
    /// Users who share no server with the bot (50278).
    pub(crate) no_mutual_guild: HashSet<u64>,
    /// The most threads the bot may have open (160006 beyond).
    pub(crate) max_active_threads: Option<usize>,
    /// How long the first response to an interaction may take.
    pub(crate) initial_response_window: Option<Duration>,
    /// Server channels where the bot has Manage Messages (it may delete
    /// others' messages there).
    pub(crate) manage_messages_in: HashSet<u64>,
    /// Messages people typed: id → (channel, whether in a server).
    pub(crate) typed: HashMap<u64, (u64, bool)>,
    /// Typed messages the bot deleted.
    pub(crate) deleted: HashSet<u64>,
    /// Channels whose posts take this long to answer (a slow route).
    pub(crate) slow_channels: HashMap<u64, Duration>,
    /// How long registering commands (`PUT …/commands`) takes.
    pub(crate) slow_registration: Option<Duration>,
    /// Failures to fire on the next matching request: method, path pattern
    /// (`*` for one segment), what happens.
    pub(crate) outages: Vec<(String, String, Outage)>,
    /// Message nonces seen with `enforce_nonce`: (channel, nonce) → the
    /// message created then.
    pub(crate) nonces: HashMap<(u64, String), Value>,
}

/// Everything the fake knows, shared by its servers.
pub(crate) struct State {
    requests: Mutex<Vec<RecordedRequest>>,
    /// Bumped on every change, so waiters wake up.
    version: watch::Sender<u64>,
    next_id: AtomicU64,
    refused_dm_users: Mutex<HashSet<u64>>,
    /// Channels where the bot lacks permission to post.
    forbidden_channels: Mutex<HashSet<u64>>,
    /// Channels where the bot may not create threads.
    threadless_channels: Mutex<HashSet<u64>>,
    /// Threads the bot created, in order.
    threads: Mutex<Vec<FakeThread>>,
    /// DM channel id → user id.
    dm_channels: Mutex<HashMap<u64, u64>>,
    users: Mutex<HashMap<u64, FakeUser>>,
    deny_message_content: AtomicBool,
    /// The open sessions by shard id (one of one unless the bot shards).
    sessions: Mutex<HashMap<u32, Session>>,
    /// Each session id's shard (id, total), for Resume.
    session_shards: Mutex<HashMap<String, (u32, u32)>>,
    identifies: Mutex<Vec<Value>>,
    resumes: Mutex<Vec<Value>>,
    registered_commands: Mutex<Vec<Value>>,
    /// The commands as Discord lists them, by where they are registered
    /// (`/applications/100/commands`, `/applications/100/guilds/1/commands`):
    /// they outlive a bot's restart, as Discord's do.
    pub(crate) command_listings: Mutex<HashMap<String, Vec<Value>>>,
    /// Interaction token → where it was used (channel id, guild id if any),
    /// for the messages answering it.
    interaction_places: Mutex<HashMap<String, (u64, Option<u64>)>>,
    /// Button press token → the id of the message pressed on: editing the
    /// press's original response edits that message.
    pressed_messages: Mutex<HashMap<String, String>>,
    gateway_url: Mutex<String>,
    /// Interaction token → its state.
    interactions: Mutex<HashMap<String, InteractionState>>,
    /// The messages the bot posted in channels, by id, as they are now
    /// (edits applied).
    pub(crate) posted: Mutex<HashMap<u64, Value>>,
    refusals: Mutex<Refusals>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl State {
    fn changed(&self) {
        self.version.send_modify(|version| *version += 1);
    }

    pub(crate) fn next_id(&self) -> u64 {
        self.next_id.fetch_add(1, Ordering::SeqCst)
    }

    fn record(&self, request: RecordedRequest) {
        lock(&self.requests).push(request);
        self.changed();
    }

    fn user(&self, id: u64) -> FakeUser {
        lock(&self.users)
            .get(&id)
            .cloned()
            .unwrap_or_else(|| FakeUser::new(id, &format!("user{id}")))
    }
}

/// The fake Discord; its servers stop when it is dropped.
pub struct FakeDiscord {
    state: Arc<State>,
    rest_url: String,
    tasks: Vec<JoinHandle<()>>,
}

impl Drop for FakeDiscord {
    fn drop(&mut self) {
        for task in &self.tasks {
            task.abort();
        }
    }
}

impl FakeDiscord {
    /// Starts the REST server and the gateway on free local ports.
    pub async fn start() -> FakeDiscord {
        let rest = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind the fake REST server");
        let gateway = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind the fake gateway");
        let rest_url = format!("http://{}", rest.local_addr().expect("REST address"));
        let gateway_url = format!("ws://{}", gateway.local_addr().expect("gateway address"));
        let state = Arc::new(State {
            requests: Mutex::new(Vec::new()),
            version: watch::channel(0).0,
            next_id: AtomicU64::new(10_000),
            refused_dm_users: Mutex::new(HashSet::new()),
            forbidden_channels: Mutex::new(HashSet::new()),
            threadless_channels: Mutex::new(HashSet::new()),
            threads: Mutex::new(Vec::new()),
            dm_channels: Mutex::new(HashMap::new()),
            users: Mutex::new(HashMap::new()),
            deny_message_content: AtomicBool::new(false),
            sessions: Mutex::new(HashMap::new()),
            session_shards: Mutex::new(HashMap::new()),
            identifies: Mutex::new(Vec::new()),
            resumes: Mutex::new(Vec::new()),
            registered_commands: Mutex::new(Vec::new()),
            command_listings: Mutex::new(HashMap::new()),
            interaction_places: Mutex::new(HashMap::new()),
            pressed_messages: Mutex::new(HashMap::new()),
            gateway_url: Mutex::new(gateway_url),
            interactions: Mutex::new(HashMap::new()),
            posted: Mutex::new(HashMap::new()),
            refusals: Mutex::new(Refusals::default()),
        });
        let tasks = vec![
            tokio::spawn(rest::serve(rest, Arc::clone(&state))),
            tokio::spawn(gateway::serve(gateway, Arc::clone(&state))),
        ];
        FakeDiscord {
            state,
            rest_url,
            tasks,
        }
    }

    /// The base URL to give `HttpBuilder::proxy`.
    pub fn rest_url(&self) -> &str {
        &self.rest_url
    }

    /// A fresh snowflake.
    pub fn next_id(&self) -> u64 {
        self.state.next_id()
    }

    /// Makes the user known (so DM channels name them).
    pub fn add_user(&self, user: &FakeUser) {
        lock(&self.state.users).insert(user.id, user.clone());
    }

    /// From now on, messages to this user's DM channel fail with 50007.
    pub fn refuse_dms_from(&self, user_id: u64) {
        lock(&self.state.refused_dm_users).insert(user_id);
    }

    /// From now on, DMs to this user fail with 50278 (no mutual guilds).
    pub fn share_no_guild_with(&self, user_id: u64) {
        lock(&self.state.refusals).no_mutual_guild.insert(user_id);
    }

    /// From now on, this channel does not exist (10003 Unknown Channel).
    pub fn delete_channel(&self, channel_id: u64) {
        lock(&self.state.refusals)
            .unknown_channels
            .insert(channel_id);
    }

    /// From now on, the bot cannot see this channel (50001 Missing Access).
    pub fn hide_channel(&self, channel_id: u64) {
        lock(&self.state.refusals)
            .hidden_channels
            .insert(channel_id);
    }

    /// The bot may have at most `count` active threads (160006 beyond).
    pub fn limit_active_threads(&self, count: usize) {
        lock(&self.state.refusals).max_active_threads = Some(count);
    }

    /// Interactions must get their first response within `window` (10062
    /// after), instead of Discord's three seconds.
    pub fn set_initial_response_window(&self, window: Duration) {
        lock(&self.state.refusals).initial_response_window = Some(window);
    }

    /// Makes an interaction `by` older, as if time had passed (its token
    /// expires 15 minutes after creation).
    pub fn age_interaction(&self, token: &str, by: Duration) {
        if let Some(interaction) = lock(&self.state.interactions).get_mut(token) {
            interaction.created = interaction
                .created
                .checked_sub(by)
                .unwrap_or(interaction.created);
        }
    }

    /// From now on, posting in this channel fails with 50013 (Missing Permissions).
    pub fn forbid_channel(&self, channel_id: u64) {
        lock(&self.state.forbidden_channels).insert(channel_id);
    }

    /// From now on, creating a thread in this channel fails with 50013
    /// (Missing Permissions: no Create Public Threads).
    pub fn forbid_threads_in(&self, channel_id: u64) {
        lock(&self.state.threadless_channels).insert(channel_id);
    }

    /// The threads the bot created, in order.
    pub fn threads(&self) -> Vec<FakeThread> {
        lock(&self.state.threads).clone()
    }

    /// Closes connections that ask for Message Content with 4014, as Discord
    /// does when the intent is not enabled in the Developer Portal.
    pub fn deny_message_content_intent(&self) {
        self.state
            .deny_message_content
            .store(true, Ordering::SeqCst);
    }

    /// Every request so far.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        lock(&self.state.requests).clone()
    }

    /// The Identify payloads received, in order.
    pub fn identifies(&self) -> Vec<Value> {
        lock(&self.state.identifies).clone()
    }

    /// The Resume payloads received, in order.
    pub fn resumes(&self) -> Vec<Value> {
        lock(&self.state.resumes).clone()
    }

    /// Closes the bot's gateway connection as Discord does when it wants a
    /// reconnect (close code 4000).
    pub async fn drop_gateway_connection(&self) {
        self.dispatch(gateway::DROP_CONNECTION, Value::Null).await;
    }

    /// The commands of the last registration.
    pub fn registered_commands(&self) -> Vec<Value> {
        lock(&self.state.registered_commands).clone()
    }

    /// The DM channel created for a user, if any.
    pub fn dm_channel_of(&self, user_id: u64) -> Option<u64> {
        lock(&self.state.dm_channels)
            .iter()
            .find(|(_, user)| **user == user_id)
            .map(|(channel, _)| *channel)
    }

    /// Every message the bot sent successfully, in order.
    pub fn sent_messages(&self) -> Vec<SentMessage> {
        let mut ephemeral_tokens = HashSet::new();
        self.requests()
            .iter()
            .filter_map(|request| sent_message(request, &mut ephemeral_tokens))
            .collect()
    }

    /// The buttons `message` carries now: the ones it was sent with, or what
    /// the bot left after editing it (the original response of a press on
    /// it, or an edit of the message itself).
    pub fn buttons_now(&self, message: &SentMessage) -> Vec<SentButton> {
        let Some(id) = message.message["id"].as_str() else {
            return message.buttons.clone();
        };
        let tokens: HashSet<String> = lock(&self.state.pressed_messages)
            .iter()
            .filter(|(_, pressed)| pressed.as_str() == id)
            .map(|(token, _)| token.clone())
            .collect();
        self.requests()
            .iter()
            .filter(|request| request.method == "PATCH" && (200..300).contains(&request.status))
            .filter(|request| {
                let segments: Vec<&str> = request.path.trim_start_matches('/').split('/').collect();
                match segments.as_slice() {
                    ["webhooks", _, token, "messages", "@original"] => tokens.contains(*token),
                    // The bot edited the message itself (a board losing its buttons).
                    ["channels", _, "messages", edited] => *edited == id,
                    _ => false,
                }
            })
            .rfind(|request| request.json.get("components").is_some())
            .map_or_else(
                || message.buttons.clone(),
                |edit| buttons(&edit.json["components"]),
            )
    }

    /// Messages in one channel.
    pub fn messages_in(&self, channel_id: u64) -> Vec<SentMessage> {
        self.sent_messages()
            .into_iter()
            .filter(|message| message.place == Place::Channel(channel_id))
            .collect()
    }

    /// Messages that reached a user by DM.
    pub fn dms_to(&self, user_id: u64) -> Vec<SentMessage> {
        match self.dm_channel_of(user_id) {
            Some(channel) => self.messages_in(channel),
            None => Vec::new(),
        }
    }

    /// Ephemeral answers (edited original or followups) to an interaction.
    pub fn ephemeral_answers(&self, token: &str) -> Vec<SentMessage> {
        self.sent_messages()
            .into_iter()
            .filter(|message| match &message.place {
                Place::Original(t) | Place::Followup(t) => t == token && message.ephemeral,
                Place::Channel(_) => false,
            })
            .collect()
    }

    /// The interaction callbacks (`{"type": …, "data": …}`) sent for a token.
    pub fn callbacks(&self, token: &str) -> Vec<Value> {
        self.requests()
            .into_iter()
            .filter(|request| {
                request.method == "POST"
                    && request.path.starts_with("/interactions/")
                    && request.path.ends_with(&format!("/{token}/callback"))
            })
            .map(|request| request.json)
            .collect()
    }

    /// Waits until `check` finds something, and returns it. Panics (failing
    /// the test) if the bot never does it.
    pub async fn wait_for<T>(&self, what: &str, check: impl Fn(&FakeDiscord) -> Option<T>) -> T {
        let mut version = self.state.version.subscribe();
        let waiting = async {
            loop {
                if let Some(found) = check(self) {
                    return found;
                }
                if version.changed().await.is_err() {
                    // The fake is shutting down; keep polling the last state.
                    tokio::task::yield_now().await;
                }
            }
        };
        match tokio::time::timeout(PATIENCE, waiting).await {
            Ok(found) => found,
            Err(_) => {
                let summary: Vec<String> = self
                    .requests()
                    .iter()
                    .map(|r| format!("{} {} → {} {}", r.method, r.path, r.status, r.json))
                    .collect();
                panic!(
                    "the bot never did this: {what}\nrequests:\n{}",
                    summary.join("\n")
                )
            }
        }
    }

    /// Waits until `count` gateway sessions have started (identified or
    /// resumed) and one is open.
    pub async fn wait_for_sessions(&self, count: usize) {
        self.wait_for(&format!("{count} gateway sessions"), |fake| {
            let started = fake.identifies().len() + fake.resumes().len();
            (started >= count && !lock(&fake.state.sessions).is_empty()).then_some(())
        })
        .await;
    }

    /// Waits until `count` sent messages exist and returns the newest.
    pub async fn wait_for_message(
        &self,
        what: &str,
        matches: impl Fn(&SentMessage) -> bool,
    ) -> SentMessage {
        self.wait_for(what, |fake| {
            fake.sent_messages().into_iter().rev().find(|m| matches(m))
        })
        .await
    }

    /// Waits for the first ephemeral answer to the interaction with `token`.
    pub async fn wait_for_ephemeral(&self, what: &str, token: &str) -> SentMessage {
        self.wait_for(what, |fake| {
            fake.ephemeral_answers(token).into_iter().next()
        })
        .await
    }

    /// Makes an interaction token known, as if Discord had just sent the
    /// interaction (used in `channel`, of `guild` if any): its first
    /// response is due within three seconds, its token lasts 15 minutes.
    pub fn open_interaction(&self, token: &str, channel: u64, guild: Option<u64>) {
        lock(&self.state.interaction_places).insert(token.to_string(), (channel, guild));
        let fresh = InteractionState {
            created: Instant::now(),
            acknowledged: false,
        };
        lock(&self.state.interactions).insert(token.to_string(), fresh);
    }

    /// Sends a gateway event to the connected bot (waiting for a session).
    pub async fn dispatch(&self, event: &str, data: Value) {
        if let (Some(token), Some(channel)) = (
            data["token"].as_str(),
            data["channel_id"]
                .as_str()
                .and_then(|id| id.parse::<u64>().ok()),
        ) {
            let guild = data["guild_id"]
                .as_str()
                .and_then(|id| id.parse::<u64>().ok());
            self.open_interaction(token, channel, guild);
        }
        // Discord sends a guild's events to shard (guild_id >> 22) % total,
        // direct messages to shard 0.
        let guild = data["guild_id"]
            .as_str()
            .and_then(|id| id.parse::<u64>().ok());
        loop {
            self.wait_for_sessions(1).await;
            let shard = {
                let sessions = lock(&self.state.sessions);
                let total = sessions.values().map(|s| s.total).max().unwrap_or(1).max(1);
                guild.map_or(0, |guild| ((guild >> 22) % u64::from(total)) as u32)
            };
            self.wait_for(&format!("the session of shard {shard}"), |fake| {
                lock(&fake.state.sessions)
                    .contains_key(&shard)
                    .then_some(())
            })
            .await;
            let mut sessions = lock(&self.state.sessions);
            if let Some(current) = sessions.get(&shard) {
                let data = if event == "MESSAGE_CREATE" && !current.message_content {
                    without_content(data.clone())
                } else {
                    data.clone()
                };
                if current.dispatch.send((event.to_string(), data)).is_ok() {
                    return;
                }
                // That connection just closed; wait for the next one.
                sessions.remove(&shard);
            }
        }
    }

    /// The shards that identified, as `[id, total]` (`[0, 1]` for a bot
    /// that does not shard), in order.
    pub fn identified_shards(&self) -> Vec<(u32, u32)> {
        self.identifies().iter().map(shard_of).collect()
    }

    /// Sends a slash command used in `channel` (a guild channel when `guild`
    /// is set, else a DM) and returns the interaction token.
    #[allow(clippy::too_many_arguments)]
    pub async fn slash(
        &self,
        user: &FakeUser,
        channel: u64,
        guild: Option<u64>,
        command: &str,
        options: Vec<Value>,
        resolved: &[FakeUser],
    ) -> String {
        let id = self.next_id();
        let token = format!("token-{id}");
        let interaction = payloads::slash_command(
            id, &token, channel, guild, user, "en-US", command, options, resolved,
        );
        self.dispatch("INTERACTION_CREATE", interaction).await;
        token
    }

    /// Presses a button on a message the bot sent; returns the interaction token.
    pub async fn press(&self, user: &FakeUser, message: &SentMessage, custom_id: &str) -> String {
        let id = self.next_id();
        let token = format!("token-{id}");
        let channel = message.message["channel_id"]
            .as_str()
            .and_then(|channel| channel.parse().ok())
            .unwrap_or(1);
        let guild = message.message.get("guild_id").map(|_| GUILD_ID);
        if let Some(pressed) = message.message["id"].as_str() {
            lock(&self.state.pressed_messages).insert(token.clone(), pressed.to_owned());
        }
        let interaction = payloads::button_press(
            id,
            &token,
            channel,
            guild,
            user,
            "en-US",
            custom_id,
            message.message.clone(),
        );
        self.dispatch("INTERACTION_CREATE", interaction).await;
        token
    }

    /// Presses the button whose custom id starts with `custom_id_prefix`
    /// (`"acc:"`) on a message the bot sent; returns the interaction token.
    /// Panics (failing the test) when the message has no such button.
    pub async fn press_button(
        &self,
        user: &FakeUser,
        message: &SentMessage,
        custom_id_prefix: &str,
    ) -> String {
        let button = message
            .button(custom_id_prefix)
            .unwrap_or_else(|| panic!("a {custom_id_prefix} button on {message:?}"));
        self.press(user, message, &button.custom_id).await
    }

    /// Makes the next request matching `method` and `path` (after
    /// `/api/v10`; `*` matches one segment: `/channels/*/messages`) fail as
    /// `outage` says. Several may wait; each fires once.
    pub fn fail_next(&self, method: &str, path: &str, outage: Outage) {
        lock(&self.state.refusals)
            .outages
            .push((method.to_owned(), path.to_owned(), outage));
    }

    /// Makes posting in `channel` take `delay` (Discord under load).
    pub fn slow_channel(&self, channel: u64, delay: Duration) {
        lock(&self.state.refusals)
            .slow_channels
            .insert(channel, delay);
    }

    /// Makes registering commands take `delay` (Discord checks each one).
    pub fn slow_command_registration(&self, delay: Duration) {
        lock(&self.state.refusals).slow_registration = Some(delay);
    }

    /// Gives the bot Manage Messages in a server channel.
    pub fn grant_manage_messages(&self, channel: u64) {
        lock(&self.state.refusals)
            .manage_messages_in
            .insert(channel);
    }

    /// Whether the bot deleted the typed message `id`.
    pub fn was_deleted(&self, id: u64) -> bool {
        lock(&self.state.refusals).deleted.contains(&id)
    }

    /// `user` types `typed` into `option` of `/command` in `channel` of the
    /// guild (`INTERACTION_CREATE` type 4); returns the choices the bot
    /// answered with (type 8, checked against Discord's limits).
    pub async fn autocomplete(
        &self,
        user: &FakeUser,
        channel: u64,
        command: &str,
        option: &str,
        typed: &str,
    ) -> Vec<Value> {
        let id = self.next_id();
        let token = format!("token-{id}");
        let interaction =
            payloads::autocomplete(id, &token, channel, user, "en-US", command, option, typed);
        self.dispatch("INTERACTION_CREATE", interaction).await;
        let answer = self
            .wait_for("an autocomplete answer", |fake| {
                fake.requests()
                    .into_iter()
                    .find(|request| request.path.ends_with(&format!("/{token}/callback")))
            })
            .await;
        assert_eq!(
            answer.status / 100,
            2,
            "Discord refused: {}",
            answer.response
        );
        assert_eq!(answer.json["type"], 8, "{}", answer.json);
        answer.json["data"]["choices"]
            .as_array()
            .cloned()
            .unwrap_or_default()
    }

    /// Types a message in a channel (a guild channel when `guild` is set,
    /// else a DM channel); returns its id.
    pub async fn say(&self, user: &FakeUser, channel: u64, guild: Option<u64>, text: &str) -> u64 {
        let id = self.next_id();
        lock(&self.state.refusals)
            .typed
            .insert(id, (channel, guild.is_some()));
        let message =
            payloads::message_json(id, channel, guild, user, text, Value::Array(Vec::new()));
        self.dispatch("MESSAGE_CREATE", message).await;
        id
    }

    /// Waits until no gateway session is open (the bot disconnected).
    pub async fn wait_for_disconnect(&self) {
        self.wait_for("the bot to disconnect", |fake| {
            lock(&fake.state.sessions).is_empty().then_some(())
        })
        .await;
    }
}

/// The shard an Identify asks for (`shard: [id, total]`, else one of one).
pub(crate) fn shard_of(identify: &Value) -> (u32, u32) {
    let part = |at: usize| identify["shard"][at].as_u64().map(|n| n as u32);
    match (part(0), part(1)) {
        (Some(id), Some(total)) if total > 0 => (id, total),
        _ => (0, 1),
    }
}

/// A guild message as a bot without the Message Content intent receives
/// it: content, embeds, attachments and components empty, unless the bot is
/// mentioned (DMs always keep them).
fn without_content(mut message: Value) -> Value {
    let bot = FakeUser::bot().id.to_string();
    let in_guild = message
        .get("guild_id")
        .is_some_and(|guild| !guild.is_null());
    let content = message["content"].as_str().unwrap_or_default();
    let mentioned = content.contains(&format!("<@{bot}>"))
        || content.contains(&format!("<@!{bot}>"))
        || message["mentions"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|user| user["id"] == bot.as_str());
    if in_guild && !mentioned {
        message["content"] = Value::String(String::new());
        for field in ["embeds", "attachments", "components"] {
            message[field] = Value::Array(Vec::new());
        }
    }
    message
}

/// Reads a successful message-creating request as a [`SentMessage`].
/// `ephemeral_tokens` collects the interactions answered or deferred
/// ephemerally, whose original response is then ephemeral too.
fn sent_message(
    request: &RecordedRequest,
    ephemeral_tokens: &mut HashSet<String>,
) -> Option<SentMessage> {
    if !(200..300).contains(&request.status) || request.duplicate {
        return None;
    }
    let segments: Vec<&str> = request.path.trim_start_matches('/').split('/').collect();
    let mut json = &request.json;
    let place = match (request.method.as_str(), segments.as_slice()) {
        ("POST", ["channels", channel, "messages"]) => Place::Channel(channel.parse().ok()?),
        ("POST", ["interactions", _, token, "callback"]) => {
            let flags = request.json["data"]["flags"].as_u64().unwrap_or(0);
            if flags & 64 != 0 {
                ephemeral_tokens.insert(token.to_string());
            }
            // Type 4 answers with a message; deferrals and acknowledgements do not.
            if request.json["type"] != 4 {
                return None;
            }
            json = &request.json["data"];
            Place::Original(token.to_string())
        }
        // An edit that only changes the buttons is no new message (see
        // `FakeDiscord::buttons_now`).
        ("PATCH", ["webhooks", _, _, "messages", "@original"])
            if request.json.get("content").is_none() =>
        {
            return None
        }
        ("PATCH", ["webhooks", _, token, "messages", "@original"]) => {
            Place::Original(token.to_string())
        }
        ("POST", ["webhooks", _, token]) => Place::Followup(token.to_string()),
        _ => return None,
    };
    let flags = json["flags"].as_u64().unwrap_or(0);
    let ephemeral = match &place {
        Place::Original(token) => ephemeral_tokens.contains(token),
        _ => flags & 64 != 0,
    };
    Some(SentMessage {
        place,
        content: json["content"].as_str().unwrap_or_default().to_string(),
        ephemeral,
        buttons: buttons(&json["components"]),
        files: request.files.clone(),
        embeds: json["embeds"].as_array().cloned().unwrap_or_default(),
        message: request.response.clone(),
        allowed_mentions: json["allowed_mentions"].clone(),
    })
}

/// The user ids mentioned in `content` as `<@id>` or `<@!id>`.
fn mentioned_users(content: &str) -> Vec<u64> {
    let mut users = Vec::new();
    let mut rest = content;
    while let Some(at) = rest.find("<@") {
        rest = &rest[at + 2..];
        let id = rest.strip_prefix('!').unwrap_or(rest);
        let Some(end) = id.find('>') else { break };
        if let Ok(user) = id[..end].parse::<u64>() {
            users.push(user);
        }
    }
    users
}

/// The buttons in a `components` array of action rows.
fn buttons(components: &Value) -> Vec<SentButton> {
    components
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
        .filter(|component| component["type"] == 2)
        .map(|button| SentButton {
            label: button["label"].as_str().unwrap_or_default().to_string(),
            custom_id: button["custom_id"].as_str().unwrap_or_default().to_string(),
            style: button["style"].as_u64().unwrap_or_default(),
        })
        .collect()
}
