//! The fake REST API: the routes the adapter uses, answered like Discord and
//! recorded. Anything else gets Discord's 404 JSON.

use std::convert::Infallible;
use std::sync::Arc;

use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use serde_json::{json, Value};
use tokio::net::TcpListener;

use super::payloads::{
    dm_channel_json, message_json, text_channel_json, thread_json, FakeUser, APPLICATION_ID,
    GUILD_ID,
};
use super::rules::{self, Refusal};
use super::{
    lock, multipart, FakeThread, Outage, RecordedFile, RecordedRequest, State, TOKEN_LIFETIME,
};

/// Accepts connections until the task is aborted.
pub(crate) async fn serve(listener: TcpListener, state: Arc<State>) {
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            continue;
        };
        let state = Arc::clone(&state);
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |request| {
                let state = Arc::clone(&state);
                async move { Ok::<_, Infallible>(handle(&state, request).await) }
            });
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}

/// A JSON response.
fn reply(status: u16, body: &Value) -> (u16, Value, Response<Full<Bytes>>) {
    let bytes = if status == 204 {
        Vec::new()
    } else {
        body.to_string().into_bytes()
    };
    let response = Response::builder()
        .status(status)
        .header("content-type", "application/json")
        .body(Full::new(Bytes::from(bytes)))
        .unwrap_or_else(|_| Response::new(Full::new(Bytes::new())));
    (status, body.clone(), response)
}

async fn handle(state: &State, request: Request<Incoming>) -> Response<Full<Bytes>> {
    let method = request.method().to_string();
    let path = request
        .uri()
        .path()
        .trim_start_matches("/api/v10")
        .to_string();
    let query = request.uri().query().unwrap_or_default().to_string();
    let content_type = request
        .headers()
        .get("content-type")
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default()
        .to_string();
    let body = match request.into_body().collect().await {
        Ok(body) => body.to_bytes().to_vec(),
        Err(_) => Vec::new(),
    };
    let (json, files) = read_body(&content_type, &body);
    let slow = match path.trim_start_matches('/').split('/').collect::<Vec<_>>()[..] {
        ["channels", channel, "messages"] if method == "POST" => channel
            .parse::<u64>()
            .ok()
            .and_then(|channel| lock(&state.refusals).slow_channels.get(&channel).copied()),
        ["applications", _, "commands"] | ["applications", _, "guilds", _, "commands"]
            if method == "PUT" =>
        {
            lock(&state.refusals).slow_registration
        }
        _ => None,
    };
    if let Some(delay) = slow {
        tokio::time::sleep(delay).await;
    }
    let outage = take_outage(state, &method, &path);
    let (status, answer, response, outage) = match outage {
        Some(Outage::RateLimited) => {
            let (status, answer, response) = rate_limited();
            (status, answer, response, None)
        }
        Some(Outage::ServerError(status)) => {
            let (status, answer, response) = edge_error(status);
            (status, answer, response, None)
        }
        Some(Outage::ServerErrorAfterDoing(failed)) => {
            let (status, answer, _) = route(state, &method, &path, &query, &json, &files);
            let (_, _, response) = edge_error(failed);
            (status, answer, response, Some(failed))
        }
        None => {
            let (status, answer, response) = route(state, &method, &path, &query, &json, &files);
            (status, answer, response, None)
        }
    };
    // A message Discord answered with before: its nonce was recognised.
    let duplicate = method == "POST"
        && path.ends_with("/messages")
        && answer["id"].is_string()
        && lock(&state.requests)
            .iter()
            .any(|earlier| earlier.method == "POST" && earlier.response["id"] == answer["id"]);
    state.record(RecordedRequest {
        method,
        path,
        status,
        json,
        files,
        response: answer,
        outage,
        duplicate,
    });
    response
}

/// The failure a test set for this request, if any (each fires once).
fn take_outage(state: &State, method: &str, path: &str) -> Option<Outage> {
    let mut refusals = lock(&state.refusals);
    let index = refusals.outages.iter().position(|(m, pattern, _)| {
        m == method && {
            let wanted: Vec<&str> = pattern.trim_start_matches('/').split('/').collect();
            let got: Vec<&str> = path.trim_start_matches('/').split('/').collect();
            wanted.len() == got.len() && wanted.iter().zip(&got).all(|(w, g)| *w == "*" || w == g)
        }
    })?;
    Some(refusals.outages.remove(index).2)
}

/// Discord's 429 (the body and headers its rate limit sends).
fn rate_limited() -> (u16, Value, Response<Full<Bytes>>) {
    let body = json!({
        "message": "You are being rate limited.",
        "retry_after": 0.05,
        "global": false,
    });
    let response = Response::builder()
        .status(429)
        .header("content-type", "application/json")
        .header("retry-after", "0.05")
        .header("x-ratelimit-scope", "user")
        .body(Full::new(Bytes::from(body.to_string())))
        .unwrap_or_else(|_| Response::new(Full::new(Bytes::new())));
    (429, body, response)
}

/// An error page from Discord's edge (Cloudflare): HTML, not JSON.
fn edge_error(status: u16) -> (u16, Value, Response<Full<Bytes>>) {
    let page = format!("<html><head><title>{status}</title></head><body>{status}</body></html>");
    let response = Response::builder()
        .status(status)
        .header("content-type", "text/html")
        .body(Full::new(Bytes::from(page.clone())))
        .unwrap_or_else(|_| Response::new(Full::new(Bytes::new())));
    (status, Value::String(page), response)
}

/// The JSON body and the files of a request (JSON or multipart).
fn read_body(content_type: &str, body: &[u8]) -> (Value, Vec<RecordedFile>) {
    match multipart::boundary(content_type) {
        Some(boundary) => {
            let mut json = Value::Null;
            let mut files = Vec::new();
            for part in multipart::parse(body, &boundary) {
                if part.name == "payload_json" {
                    json = serde_json::from_slice(&part.data).unwrap_or(Value::Null);
                } else {
                    files.push(RecordedFile {
                        name: part.file_name.unwrap_or(part.name),
                        content_type: part.content_type,
                        bytes: part.data,
                    });
                }
            }
            (json, files)
        }
        None => (
            serde_json::from_slice(body).unwrap_or(Value::Null),
            Vec::new(),
        ),
    }
}

/// A refusal as a response.
fn refuse((status, body): Refusal) -> (u16, Value, Response<Full<Bytes>>) {
    reply(status, &body)
}

fn route(
    state: &State,
    method: &str,
    path: &str,
    query: &str,
    json: &Value,
    files: &[RecordedFile],
) -> (u16, Value, Response<Full<Bytes>>) {
    let segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    let sizes: Vec<usize> = files.iter().map(|file| file.bytes.len()).collect();
    let checked =
        match (method, segments.as_slice()) {
            ("POST", ["interactions", _, token, "callback"]) => {
                respond_to_interaction(state, token, json, &sizes)
            }
            ("PATCH", ["webhooks", _, token, "messages", "@original"]) => {
                use_token(state, token).and_then(|()| rules::check_message(json, &sizes, true))
            }
            ("DELETE", ["webhooks", _, token, "messages", "@original"]) => use_token(state, token),
            ("POST", ["webhooks", _, token]) => {
                use_token(state, token).and_then(|()| rules::check_message(json, &sizes, false))
            }
            ("POST", ["channels", channel, "messages"]) => channel_refusal(state, channel)
                .and_then(|()| rules::check_message(json, &sizes, false)),
            ("PATCH", ["channels", channel, "messages", _]) => channel_refusal(state, channel)
                .and_then(|()| rules::check_message(json, &sizes, true)),
            ("PUT", ["applications", _, "commands"])
            | ("PUT", ["applications", _, "guilds", _, "commands"]) => {
                rules::check_commands(json.as_array().map(Vec::as_slice).unwrap_or_default())
            }
            ("POST", ["channels", _, "threads"]) => rules::check_thread_name(json),
            _ => Ok(()),
        };
    if let Err(refusal) = checked {
        return refuse(refusal);
    }
    match (method, segments.as_slice()) {
        ("GET", ["gateway"]) => reply(200, &json!({ "url": *lock(&state.gateway_url) })),
        ("GET", ["gateway", "bot"]) => reply(
            200,
            &json!({
                "url": *lock(&state.gateway_url),
                "shards": 1,
                "session_start_limit": {
                    "total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1
                },
            }),
        ),
        ("PUT", ["applications", _, "commands"])
        | ("PUT", ["applications", _, "guilds", _, "commands"]) => {
            let commands = register_commands(state, json);
            lock(&state.command_listings).insert(path.to_owned(), commands.clone());
            reply(200, &Value::Array(commands))
        }
        ("GET", ["applications", _, "commands"])
        | ("GET", ["applications", _, "guilds", _, "commands"]) => {
            let listed = lock(&state.command_listings)
                .get(path)
                .cloned()
                .unwrap_or_default();
            // Discord leaves the localizations out unless asked for them.
            let listed: Vec<Value> = if query.contains("with_localizations=true") {
                listed
            } else {
                listed.into_iter().map(without_localizations).collect()
            };
            reply(200, &Value::Array(listed))
        }
        ("POST", ["interactions", _, token, "callback"]) => {
            // Type 4 answers with a message: remember it so tests can press its buttons.
            let message = if json["type"] == 4 {
                interaction_message(state, token, &json["data"], files)
            } else {
                Value::Null
            };
            reply(204, &message)
        }
        ("PATCH", ["webhooks", _, token, "messages", "@original"]) => {
            let message = interaction_message(state, token, json, files);
            reply(200, &message)
        }
        ("DELETE", ["webhooks", _, _, "messages", "@original"]) => reply(204, &Value::Null),
        ("POST", ["webhooks", _, token]) => {
            let message = interaction_message(state, token, json, files);
            reply(200, &message)
        }
        ("POST", ["users", "@me", "channels"]) => {
            let Some(user_id) = json["recipient_id"]
                .as_str()
                .and_then(|id| id.parse::<u64>().ok())
                .or_else(|| json["recipient_id"].as_u64())
            else {
                return reply(
                    400,
                    &json!({ "code": 50035, "message": "Invalid Form Body" }),
                );
            };
            let channel = existing_dm_channel(state, user_id).unwrap_or_else(|| {
                let channel = state.next_id();
                lock(&state.dm_channels).insert(channel, user_id);
                channel
            });
            reply(200, &dm_channel_json(channel, &state.user(user_id)))
        }
        ("GET", ["channels", channel]) => match channel.parse::<u64>() {
            Ok(channel) => reply(200, &channel_json(state, channel)),
            Err(_) => reply(404, &json!({ "code": 10003, "message": "Unknown Channel" })),
        },
        ("POST", ["channels", channel, "threads"]) => create_thread(state, channel, json),
        ("PUT", ["channels", channel, "thread-members", user]) => {
            add_thread_member(state, channel, user)
        }
        ("PATCH", ["channels", channel, "messages", message]) => {
            match edit_message(state, channel, message, json) {
                Ok(edited) => reply(200, &edited),
                Err(refusal) => refuse(refusal),
            }
        }
        ("DELETE", ["channels", channel, "messages", message]) => {
            match delete_message(state, channel, message) {
                Ok(()) => reply(204, &Value::Null),
                Err(refusal) => refuse(refusal),
            }
        }
        ("POST", ["channels", channel, "messages"]) => {
            let Ok(channel) = channel.parse::<u64>() else {
                return reply(404, &json!({ "code": 10003, "message": "Unknown Channel" }));
            };
            if lock(&state.forbidden_channels).contains(&channel) {
                return reply(
                    403,
                    &json!({ "code": 50013, "message": "Missing Permissions" }),
                );
            }
            let dm_user = lock(&state.dm_channels).get(&channel).copied();
            match dm_user {
                Some(user) if lock(&state.refused_dm_users).contains(&user) => reply(
                    403,
                    &json!({ "code": 50007, "message": "Cannot send messages to this user" }),
                ),
                Some(user) if lock(&state.refusals).no_mutual_guild.contains(&user) => reply(
                    403,
                    &json!({
                        "code": 50278,
                        "message": "Cannot send messages to this user due to having no mutual guilds"
                    }),
                ),
                Some(_) => reply(200, &new_message(state, channel, None, json, files)),
                None => reply(
                    200,
                    &new_message(state, channel, Some(GUILD_ID), json, files),
                ),
            }
        }
        _ => reply(404, &json!({ "code": 0, "message": "404: Not Found" })),
    }
}

/// A message posted in a channel, unless its nonce with `enforce_nonce`
/// names one posted in the last minutes: then that one again, and nothing is created.
fn new_message(
    state: &State,
    channel: u64,
    guild: Option<u64>,
    json: &Value,
    files: &[RecordedFile],
) -> Value {
    let nonce = match &json["nonce"] {
        Value::String(nonce) => Some(nonce.clone()),
        Value::Number(nonce) => Some(nonce.to_string()),
        _ => None,
    }
    .filter(|_| json["enforce_nonce"] == true);
    let Some(nonce) = nonce else {
        return bot_message(state, channel, guild, json, files);
    };
    if let Some(earlier) = lock(&state.refusals).nonces.get(&(channel, nonce.clone())) {
        return earlier.clone();
    }
    let mut message = bot_message(state, channel, guild, json, files);
    message["nonce"] = Value::String(nonce.clone());
    lock(&state.refusals)
        .nonces
        .insert((channel, nonce), message.clone());
    message
}

/// The channel object for an id: a DM channel, a thread the bot created,
/// or else a text channel of the test guild.
fn channel_json(state: &State, channel: u64) -> Value {
    if let Some(user) = lock(&state.dm_channels).get(&channel).copied() {
        return dm_channel_json(channel, &state.user(user));
    }
    match lock(&state.threads).iter().find(|t| t.id == channel) {
        Some(thread) => thread_json(thread.id, thread.parent, &thread.name),
        None => text_channel_json(channel),
    }
}

/// `POST /channels/{id}/threads` without a message: a thread in a text
/// channel, refused in DMs, in threads and where the bot may not.
fn create_thread(
    state: &State,
    channel: &str,
    json: &Value,
) -> (u16, Value, Response<Full<Bytes>>) {
    let Ok(parent) = channel.parse::<u64>() else {
        return reply(404, &json!({ "code": 10003, "message": "Unknown Channel" }));
    };
    if lock(&state.threadless_channels).contains(&parent) {
        return reply(
            403,
            &json!({ "code": 50013, "message": "Missing Permissions" }),
        );
    }
    if let Err(refusal) = channel_refusal(state, channel) {
        return refuse(refusal);
    }
    let in_dm = lock(&state.dm_channels).contains_key(&parent);
    let in_thread = lock(&state.threads).iter().any(|t| t.id == parent);
    let name = json["name"].as_str().unwrap_or_default();
    if in_dm || in_thread {
        return reply(
            400,
            &json!({ "code": 50024, "message": "Cannot execute action on this channel type" }),
        );
    }
    let limit = lock(&state.refusals).max_active_threads;
    if limit.is_some_and(|limit| lock(&state.threads).len() >= limit) {
        return refuse(rules::error(
            400,
            160_006,
            "Maximum number of active threads reached",
        ));
    }
    let thread = FakeThread {
        id: state.next_id(),
        parent,
        name: name.to_string(),
        kind: json["type"].as_u64().unwrap_or(11),
        auto_archive_minutes: json["auto_archive_duration"].as_u64(),
        members: Vec::new(),
    };
    let answer = thread_json(thread.id, parent, name);
    lock(&state.threads).push(thread);
    reply(201, &answer)
}

/// `PUT /channels/{id}/thread-members/{user}`: adds a user to a thread the
/// bot created (204); Discord refuses other channels (50024 for a channel
/// that is not a thread, 10003 for none) and the user id 0 (10013).
fn add_thread_member(
    state: &State,
    channel: &str,
    user: &str,
) -> (u16, Value, Response<Full<Bytes>>) {
    let (Ok(channel), Ok(user)) = (channel.parse::<u64>(), user.parse::<u64>()) else {
        return reply(404, &json!({ "code": 10003, "message": "Unknown Channel" }));
    };
    if user == 0 {
        return reply(404, &json!({ "code": 10013, "message": "Unknown User" }));
    }
    let mut threads = lock(&state.threads);
    match threads.iter_mut().find(|thread| thread.id == channel) {
        Some(thread) => {
            if !thread.members.contains(&user) {
                thread.members.push(user);
            }
            drop(threads);
            reply(204, &Value::Null)
        }
        None => reply(
            400,
            &json!({ "code": 50024, "message": "Cannot execute action on this channel type" }),
        ),
    }
}

/// The message object for something the bot posted answering the
/// interaction with this token, where that interaction was used (channel 1
/// if unknown: ids are never 0).
fn interaction_message(state: &State, token: &str, json: &Value, files: &[RecordedFile]) -> Value {
    let (channel, guild) = lock(&state.interaction_places)
        .get(token)
        .copied()
        .unwrap_or((1, None));
    bot_message(state, channel, guild, json, files)
}

/// The first response to an interaction: within the initial window (10062
/// after), and only once (40060).
fn respond_to_interaction(
    state: &State,
    token: &str,
    json: &Value,
    sizes: &[usize],
) -> Result<(), Refusal> {
    let window = lock(&state.refusals)
        .initial_response_window
        .unwrap_or(super::INITIAL_RESPONSE_WINDOW);
    let mut interactions = lock(&state.interactions);
    let Some(interaction) = interactions.get_mut(token) else {
        return Err(rules::error(404, 10062, "Unknown interaction"));
    };
    if interaction.acknowledged {
        return Err(rules::error(
            400,
            40060,
            "Interaction has already been acknowledged.",
        ));
    }
    if interaction.created.elapsed() > window {
        return Err(rules::error(404, 10062, "Unknown interaction"));
    }
    if json["type"] == 4 {
        rules::check_message(&json["data"], sizes, false)?;
    }
    if json["type"] == 8 {
        rules::check_autocomplete(&json["data"])?;
    }
    interaction.acknowledged = true;
    Ok(())
}

/// A followup or an edit with an interaction token: only after the first
/// response (10015 Unknown Webhook before) and for 15 minutes (50027 after).
fn use_token(state: &State, token: &str) -> Result<(), Refusal> {
    let interactions = lock(&state.interactions);
    let Some(interaction) = interactions.get(token) else {
        return Err(rules::error(404, 10015, "Unknown Webhook"));
    };
    if interaction.created.elapsed() > TOKEN_LIFETIME {
        return Err(rules::error(401, 50027, "Invalid Webhook Token"));
    }
    if !interaction.acknowledged {
        return Err(rules::error(404, 10015, "Unknown Webhook"));
    }
    Ok(())
}

/// Channels that do not exist (10003) or that the bot cannot see (50001).
fn channel_refusal(state: &State, channel: &str) -> Result<(), Refusal> {
    let Ok(channel) = channel.parse::<u64>() else {
        return Err(rules::error(404, 10003, "Unknown Channel"));
    };
    let refusals = lock(&state.refusals);
    if refusals.unknown_channels.contains(&channel) {
        return Err(rules::error(404, 10003, "Unknown Channel"));
    }
    if refusals.hidden_channels.contains(&channel) {
        return Err(rules::error(403, 50001, "Missing Access"));
    }
    Ok(())
}

/// `DELETE /channels/{channel}/messages/{message}`: someone's message in a
/// server channel needs Manage Messages (50013 without); in a DM the bot
/// deletes only its own (50003); an unknown message is 10008.
fn delete_message(state: &State, channel: &str, message: &str) -> Result<(), Refusal> {
    channel_refusal(state, channel)?;
    let (Ok(channel), Ok(message)) = (channel.parse::<u64>(), message.parse::<u64>()) else {
        return Err(rules::error(404, 10008, "Unknown Message"));
    };
    let mut refusals = lock(&state.refusals);
    match refusals.typed.get(&message).copied() {
        Some((typed_in, _)) if typed_in != channel || refusals.deleted.contains(&message) => {
            Err(rules::error(404, 10008, "Unknown Message"))
        }
        Some((_, false)) => Err(rules::error(
            403,
            50003,
            "Cannot execute action on a DM channel",
        )),
        Some(_) if !refusals.manage_messages_in.contains(&channel) => {
            Err(rules::error(403, 50013, "Missing Permissions"))
        }
        Some(_) => {
            refusals.deleted.insert(message);
            Ok(())
        }
        None => Err(rules::error(404, 10008, "Unknown Message")),
    }
}

/// `PATCH /channels/{channel}/messages/{message}`: the bot edits one of its
/// own messages in that channel (content, embeds, components); anything
/// else is an unknown message (10008) or not the bot's (50005).
fn edit_message(
    state: &State,
    channel: &str,
    message: &str,
    json: &Value,
) -> Result<Value, Refusal> {
    let unknown = || rules::error(404, 10008, "Unknown Message");
    let (Ok(channel), Ok(message)) = (channel.parse::<u64>(), message.parse::<u64>()) else {
        return Err(unknown());
    };
    if lock(&state.refusals).typed.contains_key(&message) {
        return Err(rules::error(
            403,
            50005,
            "Cannot edit a message authored by another user",
        ));
    }
    let mut posted = lock(&state.posted);
    let Some(stored) = posted
        .get_mut(&message)
        .filter(|stored| stored["channel_id"] == json!(channel.to_string()))
    else {
        return Err(unknown());
    };
    for field in ["content", "embeds", "components"] {
        if let Some(value) = json.get(field) {
            stored[field] = value.clone();
        }
    }
    Ok(stored.clone())
}

fn existing_dm_channel(state: &State, user_id: u64) -> Option<u64> {
    lock(&state.dm_channels)
        .iter()
        .find(|(_, user)| **user == user_id)
        .map(|(channel, _)| *channel)
}

/// The message object for something the bot posted, with its attachments
/// as Discord describes them.
fn bot_message(
    state: &State,
    channel: u64,
    guild: Option<u64>,
    json: &Value,
    files: &[RecordedFile],
) -> Value {
    let components = match &json["components"] {
        Value::Array(rows) => Value::Array(rows.clone()),
        _ => json!([]),
    };
    let id = state.next_id();
    let mut message = message_json(
        id,
        channel,
        guild,
        &FakeUser::bot(),
        json["content"].as_str().unwrap_or_default(),
        components,
    );
    if let Some(embeds) = json["embeds"].as_array() {
        message["embeds"] = Value::Array(embeds.clone());
    }
    message["attachments"] = files
        .iter()
        .map(|file| {
            let attachment_id = state.next_id();
            let url = format!(
                "https://cdn.discordapp.com/attachments/{channel}/{attachment_id}/{}",
                file.name
            );
            let mut attachment = json!({
                "id": attachment_id.to_string(),
                "filename": file.name,
                "size": file.bytes.len(),
                "url": url,
                "proxy_url": url,
            });
            if let Some(content_type) = &file.content_type {
                attachment["content_type"] = json!(content_type);
            }
            if let Some((width, height)) = crate::image_header::image_size(&file.bytes) {
                attachment["width"] = json!(width);
                attachment["height"] = json!(height);
            }
            attachment
        })
        .collect();
    lock(&state.posted).insert(id, message.clone());
    message
}

/// Stores a command registration and answers with the commands as Discord
/// would (ids and versions added).
fn register_commands(state: &State, json: &Value) -> Vec<Value> {
    let commands: Vec<Value> = json.as_array().cloned().unwrap_or_default();
    *lock(&state.registered_commands) = commands.clone();
    let registered: Vec<Value> = commands
        .into_iter()
        .map(|mut command| {
            command["id"] = json!(state.next_id().to_string());
            command["application_id"] = json!(APPLICATION_ID.to_string());
            command["version"] = json!("1");
            if command["type"].is_null() {
                command["type"] = json!(1);
            }
            if command.get("default_member_permissions").is_none() {
                command["default_member_permissions"] = Value::Null;
            }
            command
        })
        .collect();
    registered
}

/// A listed command without its (and its options' and choices')
/// localizations, as Discord lists commands by default.
fn without_localizations(mut value: Value) -> Value {
    match &mut value {
        Value::Object(map) => {
            map.remove("name_localizations");
            map.remove("description_localizations");
            for (_, inner) in map.iter_mut() {
                *inner = without_localizations(inner.take());
            }
        }
        Value::Array(items) => {
            for item in items.iter_mut() {
                *item = without_localizations(item.take());
            }
        }
        _ => {}
    }
    value
}
