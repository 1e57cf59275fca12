//! The HTTP side of the fake: `POST /bot<token>/<method>` with a JSON or
//! multipart body, answered with Telegram's `{"ok": …}` envelopes.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::{FromRequest, Multipart, Path, Request, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use serde_json::{json, Map, Value};

use super::rules::{self, Refusal};
use super::{bot_json, new_message, Call, Failure, Outcome, Shared, Upload, Webhook, World};

pub(super) async fn serve(listener: tokio::net::TcpListener, shared: Arc<Shared>) {
    // Telegram takes uploads up to 50 MB (axum's own limit is 2 MB); a bit
    // more gets through, so that the fake can refuse it as Telegram does.
    let app = Router::new()
        .route("/{token}/{method}", post(answer))
        .layer(axum::extract::DefaultBodyLimit::max(
            rules::FILE_BYTES_LIMIT + 1_000_000,
        ))
        .with_state(shared);
    // The server runs until the test drops the fake; an error only ends it early.
    let _ = axum::serve(listener, app).await;
}

async fn answer(
    State(shared): State<Arc<Shared>>,
    Path((token, method)): Path<(String, String)>,
    request: Request,
) -> Response {
    // Telegram's method names are case-insensitive (teloxide sends `GetMe`):
    // record them as documented (`getMe`).
    let mut chars = method.chars();
    let method: String = chars
        .next()
        .map(|first| first.to_ascii_lowercase())
        .into_iter()
        .chain(chars)
        .collect();
    let (params, upload) = match read_body(request, &shared).await {
        Ok(body) => body,
        Err(problem) => return error(StatusCode::BAD_REQUEST, &problem, None),
    };
    shared
        .world()
        .tokens_seen
        .push(token.trim_start_matches("bot").to_owned());
    match method.as_str() {
        "getUpdates" => {
            shared.world().get_updates_calls += 1;
            get_updates(&shared, &params).await
        }
        "getMe" => ok(json!({
            "id": super::BOT_ID,
            "is_bot": true,
            "first_name": "Kodex",
            "username": super::BOT_USERNAME,
            "can_join_groups": true,
            "can_read_all_group_messages": false,
            "supports_inline_queries": false,
            "can_connect_to_business": false,
            "has_main_web_app": false,
        })),
        "getWebhookInfo" => ok(json!({
            "url": "",
            "has_custom_certificate": false,
            "pending_update_count": 0,
        })),
        "setWebhook" => {
            shared.world().webhook_allowed_updates = params.get("allowed_updates").cloned();
            shared.world().webhook = params["url"].as_str().map(|url| Webhook {
                url: url.to_owned(),
                secret_token: params["secret_token"].as_str().map(str::to_owned),
            });
            record(&shared, method, params, upload, Outcome::Ok, None);
            shared.updates_changed.notify_waiters();
            ok(json!(true))
        }
        "deleteWebhook" => {
            shared.world().webhook = None;
            record(&shared, method, params, upload, Outcome::Ok, None);
            ok(json!(true))
        }
        "setMyCommands" => {
            let checked = rules::check_commands(&params);
            answer_true(&shared, method, params, checked)
        }
        "answerCallbackQuery" => {
            let checked = rules::check_callback_answer(&params).and_then(|()| {
                let id = params["callback_query_id"].as_str().unwrap_or_default();
                let mut world = shared.world();
                let deadline = world.callback_deadline;
                match world.unanswered_callbacks.remove(id) {
                    Some(pressed) if pressed.elapsed() <= deadline => Ok(()),
                    _ => Err(rules::query_too_old()),
                }
            });
            answer_true(&shared, method, params, checked)
        }
        "sendMessage" | "sendPhoto" | "sendAnimation" | "sendDocument" => {
            send(&shared, method, params, upload)
        }
        "sendChatAction" => chat_action(&shared, method, params),
        "editMessageReplyMarkup" => edit_reply_markup(&shared, method, params),
        "editMessageMedia" => edit_media(&shared, method, params, upload),
        "getChatMember" => chat_member(&shared, method, params),
        "deleteMessage" => {
            let checked = delete_message(&mut shared.world(), &params);
            answer_true(&shared, method, params, checked)
        }
        _ => error(StatusCode::NOT_FOUND, "Not Found: method not found", None),
    }
}

/// Webhook mode: while the bot has a webhook set, scripted updates are
/// posted to it one at a time, in order, as Telegram does. Ends with the fake.
pub(super) async fn push_to_webhook(shared: std::sync::Weak<Shared>) {
    let client = reqwest::Client::new();
    loop {
        let Some(strong) = shared.upgrade() else {
            return;
        };
        let changed = strong.updates_changed.notified();
        tokio::pin!(changed);
        changed.as_mut().enable();
        let next = {
            let mut world = strong.world();
            match world.webhook.clone() {
                Some(webhook) if !world.pending_updates.is_empty() => {
                    let update = world.pending_updates.remove(0);
                    let targets = if world.webhook_targets.is_empty() {
                        vec![webhook.url.clone()]
                    } else {
                        let count = world.webhook_targets.len();
                        let first = world.next_target % count;
                        world.next_target += 1;
                        let mut targets = vec![world.webhook_targets[first].clone()];
                        if world.duplicate_deliveries && count > 1 {
                            targets.push(world.webhook_targets[(first + 1) % count].clone());
                        }
                        targets
                    };
                    Some((webhook, targets, update))
                }
                _ => None,
            }
        };
        let Some((webhook, targets, update)) = next else {
            // Wake up now and then to notice the fake is gone.
            let _ = tokio::time::timeout(Duration::from_secs(1), changed).await;
            continue;
        };
        let posts = targets.iter().map(|target| {
            let mut request = client
                .post(target)
                .header(header::CONTENT_TYPE, "application/json")
                .body(update.to_string());
            if let Some(secret) = &webhook.secret_token {
                request = request.header("X-Telegram-Bot-Api-Secret-Token", secret);
            }
            async move {
                request
                    .send()
                    .await
                    .is_ok_and(|response| response.status().is_success())
            }
        });
        let delivered = futures_util::future::join_all(posts)
            .await
            .into_iter()
            .any(|taken| taken);
        if !delivered {
            // Telegram keeps an update until the webhook takes it.
            strong.world().pending_updates.insert(0, update);
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

/// Long polling: answers at once when updates are waiting, else when the test
/// scripts one or the client's `timeout` runs out.
async fn get_updates(shared: &Shared, params: &Value) -> Response {
    let offset = params["offset"].as_i64().unwrap_or(0);
    let timeout = params["timeout"].as_u64().unwrap_or(0);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(timeout);
    loop {
        let changed = shared.updates_changed.notified();
        tokio::pin!(changed);
        changed.as_mut().enable();
        {
            let mut world = shared.world();
            world
                .pending_updates
                .retain(|update| update["update_id"].as_i64().unwrap_or(0) >= offset);
            if !world.pending_updates.is_empty() {
                let body = json!({"ok": true, "result": world.pending_updates.clone()});
                let body = body.to_string().replace(super::LONE_SURROGATE, "\\ud83d");
                return ([(header::CONTENT_TYPE, "application/json")], body).into_response();
            }
        }
        if tokio::time::timeout_at(deadline, changed).await.is_err() {
            return ok(json!([]));
        }
    }
}

fn send(shared: &Shared, method: String, params: Value, upload: Option<Upload>) -> Response {
    let mut world = shared.world();
    let Some(chat) = chat_of(&params) else {
        drop(world);
        return error(
            StatusCode::BAD_REQUEST,
            "Bad Request: chat_id is empty",
            None,
        );
    };
    let scripted = world
        .failures
        .iter()
        .position(|(failing, _)| *failing == method || failing == super::ANY_SEND)
        .and_then(|index| world.failures.remove(index))
        .map(|(_, failure)| failure);
    if let Some(failure) = scripted {
        push_call(
            &mut world,
            method,
            params,
            upload,
            Outcome::Failed(failure.clone()),
            None,
        );
        drop(world);
        shared.calls_changed.notify_waiters();
        return failed(&failure);
    }
    if let Some(seconds) = flood_wait(&mut world, chat) {
        let failure = Failure::RetryAfter(seconds);
        push_call(
            &mut world,
            method,
            params,
            upload,
            Outcome::Failed(failure),
            None,
        );
        drop(world);
        shared.calls_changed.notify_waiters();
        return error(
            StatusCode::TOO_MANY_REQUESTS,
            &format!("Too Many Requests: retry after {seconds}"),
            Some(json!({ "retry_after": seconds })),
        );
    }
    let checked = chat_state(&world, chat)
        .and_then(|()| rules::check_send(&method, &params, upload.as_ref()));
    if let Err((refusal, parameters)) = checked.map_err(|refusal| {
        let parameters = (refusal == rules::group_migrated())
            .then(|| {
                world
                    .migrated
                    .get(&chat)
                    .map(|to| json!({ "migrate_to_chat_id": to }))
            })
            .flatten();
        (refusal, parameters)
    }) {
        let outcome = Outcome::Rejected(refusal.description.clone());
        push_call(&mut world, method, params, upload, outcome, None);
        drop(world);
        shared.calls_changed.notify_waiters();
        return refuse(&refusal, parameters);
    }
    let closed = chat > 0 && world.people.get(&chat).is_none_or(|person| !person.started);
    if closed {
        push_call(&mut world, method, params, upload, Outcome::Forbidden, None);
        drop(world);
        shared.calls_changed.notify_waiters();
        return error(
            StatusCode::FORBIDDEN,
            "Forbidden: bot can't initiate conversation with a user",
            None,
        );
    }
    let text = params["text"]
        .as_str()
        .or(params["caption"].as_str())
        .unwrap_or_default();
    let (message_id, mut message) = new_message(&mut world, chat, bot_json(), text);
    if let Some(upload) = &upload {
        media_shape(&mut message, &method, upload, message_id);
        world
            .message_files
            .insert(message_id, file_hash(&upload.bytes));
    }
    if !params["reply_markup"].is_null() {
        message["reply_markup"] = params["reply_markup"].clone();
    }
    world.messages.insert(message_id, message.clone());
    if chat < 0 && world.group_flood_limit.is_some() {
        world
            .group_sent
            .entry(chat)
            .or_default()
            .push_back(Instant::now());
    }
    push_call(
        &mut world,
        method,
        params,
        upload,
        Outcome::Ok,
        Some(message_id),
    );
    drop(world);
    shared.calls_changed.notify_waiters();
    ok(message)
}

/// Where the group flood limit is enforced and `chat` (a group) took as
/// many messages as it takes in a minute: the seconds until it takes one
/// again, as Telegram's `retry_after` says them (rounded up).
fn flood_wait(world: &mut World, chat: i64) -> Option<u32> {
    const MINUTE: Duration = Duration::from_secs(60);
    let limit = world.group_flood_limit.filter(|_| chat < 0)?;
    let sent = world.group_sent.entry(chat).or_default();
    let now = Instant::now();
    while sent.front().is_some_and(|first| now - *first >= MINUTE) {
        sent.pop_front();
    }
    let oldest = *sent.get(sent.len().checked_sub(limit)?)?;
    let wait = (oldest + MINUTE).saturating_duration_since(now);
    Some(
        u32::try_from(wait.as_millis().div_ceil(1000))
            .unwrap_or(u32::MAX)
            .max(1),
    )
}

/// `sendChatAction`: one of Telegram's actions, in a chat the bot may
/// write to (a group it is in, a private chat the person opened — 403
/// otherwise). Answers `true`.
fn chat_action(shared: &Shared, method: String, params: Value) -> Response {
    let Some(chat) = chat_of(&params) else {
        return error(
            StatusCode::BAD_REQUEST,
            "Bad Request: chat_id is empty",
            None,
        );
    };
    let checked = {
        let world = shared.world();
        chat_state(&world, chat).and_then(|()| rules::check_chat_action(&params))
    };
    if checked.is_ok()
        && chat > 0
        && shared
            .world()
            .people
            .get(&chat)
            .is_none_or(|person| !person.started)
    {
        record(shared, method, params, None, Outcome::Forbidden, None);
        return error(
            StatusCode::FORBIDDEN,
            "Forbidden: bot can't initiate conversation with a user",
            None,
        );
    }
    answer_true(shared, method, params, checked)
}

/// Replaces (or, without `reply_markup`, removes) the keyboard of a message.
fn edit_reply_markup(shared: &Shared, method: String, params: Value) -> Response {
    let id = params["message_id"].as_i64().unwrap_or_default();
    let new_markup = params
        .get("reply_markup")
        .filter(|markup| !markup.is_null())
        .cloned()
        .unwrap_or(Value::Null);
    let unchanged = shared
        .world()
        .messages
        .get(&id)
        .is_some_and(|message| message["reply_markup"] == new_markup);
    if let Err(refusal) = rules::check_keyboard(&new_markup).and_then(|()| {
        if unchanged {
            Err(rules::not_modified())
        } else {
            Ok(())
        }
    }) {
        let outcome = Outcome::Rejected(refusal.description.clone());
        record(shared, method, params, None, outcome, Some(id));
        return refuse(&refusal, None);
    }
    let edited = {
        let mut world = shared.world();
        world.messages.get_mut(&id).map(|message| {
            match params
                .get("reply_markup")
                .filter(|markup| !markup.is_null())
            {
                Some(markup) => message["reply_markup"] = markup.clone(),
                None => {
                    if let Some(fields) = message.as_object_mut() {
                        fields.remove("reply_markup");
                    }
                }
            }
            message.clone()
        })
    };
    match edited {
        Some(message) => {
            record(shared, method, params, None, Outcome::Ok, Some(id));
            ok(message)
        }
        None => {
            let description = "Bad Request: message to edit not found";
            let outcome = Outcome::Rejected(description.to_owned());
            record(shared, method, params, None, outcome, Some(id));
            error(StatusCode::BAD_REQUEST, description, None)
        }
    }
}

/// `editMessageMedia`: the bot's own message in the chat shows the new
/// file and caption from now on, with the keyboard given (none without
/// one), as Telegram edits it; the edited message is answered. A scripted
/// failure for it, or for any send, is served first.
fn edit_media(shared: &Shared, method: String, params: Value, upload: Option<Upload>) -> Response {
    let mut world = shared.world();
    let scripted = world
        .failures
        .iter()
        .position(|(failing, _)| *failing == method || failing == super::ANY_SEND)
        .and_then(|index| world.failures.remove(index))
        .map(|(_, failure)| failure);
    if let Some(failure) = scripted {
        let outcome = Outcome::Failed(failure.clone());
        push_call(&mut world, method, params, upload, outcome, None);
        drop(world);
        shared.calls_changed.notify_waiters();
        return failed(&failure);
    }
    let chat = chat_of(&params).unwrap_or_default();
    let id = params["message_id"].as_i64().unwrap_or_default();
    let checked = rules::check_edit_media(&params, upload.as_ref())
        .and_then(|()| chat_state(&world, chat))
        .and_then(|()| {
            let message = world
                .messages
                .get(&id)
                .filter(|message| message["chat"]["id"].as_i64() == Some(chat))
                .ok_or_else(rules::message_to_edit_not_found)?;
            if message["from"]["id"].as_i64() != Some(super::BOT_ID) {
                return Err(rules::message_cant_be_edited());
            }
            let caption = params["media"]["caption"].as_str().unwrap_or_default();
            let markup = params.get("reply_markup").cloned().unwrap_or(Value::Null);
            let same_file = upload.as_ref().map(|upload| file_hash(&upload.bytes))
                == world.message_files.get(&id).copied();
            let same_caption = message["caption"].as_str().unwrap_or_default() == caption;
            let same_markup = message.get("reply_markup").cloned().unwrap_or(Value::Null) == markup;
            if same_file && same_caption && same_markup {
                return Err(rules::not_modified());
            }
            Ok(())
        });
    if let Err(refusal) = checked {
        let outcome = Outcome::Rejected(refusal.description.clone());
        push_call(&mut world, method, params, upload, outcome, Some(id));
        drop(world);
        shared.calls_changed.notify_waiters();
        return refuse(&refusal, None);
    }
    let Some(upload) = upload else {
        return error(
            StatusCode::BAD_REQUEST,
            "Bad Request: there is no file in the request",
            None,
        );
    };
    let kind = params["media"]["type"]
        .as_str()
        .unwrap_or("photo")
        .to_owned();
    let shaped_as = match kind.as_str() {
        "photo" => "sendPhoto",
        "animation" => "sendAnimation",
        _ => "sendDocument",
    };
    let caption = params["media"]["caption"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let markup = params
        .get("reply_markup")
        .filter(|markup| !markup.is_null())
        .cloned();
    let mut message = world.messages.get(&id).cloned().unwrap_or(Value::Null);
    if let Some(fields) = message.as_object_mut() {
        for old in [
            "text",
            "caption",
            "photo",
            "animation",
            "document",
            "reply_markup",
        ] {
            fields.remove(old);
        }
    }
    message["text"] = json!(caption);
    media_shape(&mut message, shaped_as, &upload, id);
    message["edit_date"] = json!(1_700_000_001);
    if let Some(markup) = markup {
        message["reply_markup"] = markup;
    }
    world.messages.insert(id, message.clone());
    world.message_files.insert(id, file_hash(&upload.bytes));
    let mut upload = upload;
    upload.field = kind;
    push_call(
        &mut world,
        method,
        params,
        Some(upload),
        Outcome::Ok,
        Some(id),
    );
    drop(world);
    shared.calls_changed.notify_waiters();
    ok(message)
}

/// A file's bytes in short, to tell whether an edit changes it.
fn file_hash(bytes: &[u8]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    bytes.hash(&mut hasher);
    hasher.finish()
}

/// The answer to a call a scripted `failure` fails.
fn failed(failure: &Failure) -> Response {
    match failure {
        Failure::RetryAfter(seconds) => error(
            StatusCode::TOO_MANY_REQUESTS,
            &format!("Too Many Requests: retry after {seconds}"),
            Some(json!({ "retry_after": seconds })),
        ),
        Failure::BadGateway => (
            StatusCode::BAD_GATEWAY,
            [(header::CONTENT_TYPE, "text/html")],
            "<html><body>502 Bad Gateway</body></html>",
        )
            .into_response(),
        Failure::ServerError => error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "Internal Server Error",
            None,
        ),
    }
}

/// `getChatMember`: the person's status in the group, shaped as Telegram
/// answers it (an administrator comes with their rights).
fn chat_member(shared: &Shared, method: String, params: Value) -> Response {
    let chat = chat_of(&params).unwrap_or_default();
    let person = params["user_id"].as_i64().unwrap_or_default();
    let answer = {
        let world = shared.world();
        chat_state(&world, chat).and_then(|()| {
            if !world.people.contains_key(&person) {
                return Err(rules::user_not_found());
            }
            let status = world
                .statuses
                .get(&(chat, person))
                .map_or("member", String::as_str);
            let mut member = json!({
                "user": super::person_json(&world, person),
                "status": status,
            });
            match status {
                "creator" => member["is_anonymous"] = json!(false),
                "administrator" => {
                    for right in [
                        "can_be_edited",
                        "is_anonymous",
                        "can_manage_chat",
                        "can_change_info",
                        "can_delete_messages",
                        "can_manage_video_chats",
                        "can_invite_users",
                        "can_restrict_members",
                        "can_promote_members",
                        "can_pin_messages",
                    ] {
                        member[right] = json!(!matches!(right, "can_be_edited" | "is_anonymous"));
                    }
                }
                "kicked" => member["until_date"] = json!(0),
                _ => {}
            }
            Ok(member)
        })
    };
    match answer {
        Ok(member) => {
            record(shared, method, params, None, Outcome::Ok, None);
            ok(member)
        }
        Err(refusal) => {
            let outcome = Outcome::Rejected(refusal.description.clone());
            record(shared, method, params, None, outcome, None);
            refuse(&refusal, None)
        }
    }
}

/// `deleteMessage`: the bot's own messages, anything in a private chat, and
/// others' messages in a group where it is an administrator.
fn delete_message(world: &mut World, params: &Value) -> Result<(), Refusal> {
    let chat = chat_of(params).unwrap_or_default();
    let id = params["message_id"].as_i64().unwrap_or_default();
    chat_state(world, chat)?;
    let message = world
        .messages
        .get(&id)
        .filter(|message| message["chat"]["id"].as_i64() == Some(chat))
        .ok_or_else(rules::message_to_delete_not_found)?;
    let own = message["from"]["id"].as_i64() == Some(super::BOT_ID);
    if chat < 0 && !own && !world.bot_admin_in.contains(&chat) {
        return Err(rules::message_cant_be_deleted());
    }
    world.messages.remove(&id);
    Ok(())
}

/// `chat_id` as a number.
fn chat_of(params: &Value) -> Option<i64> {
    match &params["chat_id"] {
        Value::Number(number) => number.as_i64(),
        Value::String(text) => text.parse().ok(),
        _ => None,
    }
}

/// Answers `true`, or the refusal, and records the call either way.
fn answer_true(
    shared: &Shared,
    method: String,
    params: Value,
    checked: Result<(), Refusal>,
) -> Response {
    match checked {
        Ok(()) => {
            record(shared, method, params, None, Outcome::Ok, None);
            ok(json!(true))
        }
        Err(refusal) => {
            let outcome = Outcome::Rejected(refusal.description.clone());
            record(shared, method, params, None, outcome, None);
            refuse(&refusal, None)
        }
    }
}

/// Whether the bot may post in `chat`: a group it is in (not kicked, not
/// migrated away), or any private chat (refused later if never opened).
fn chat_state(world: &World, chat: i64) -> Result<(), Refusal> {
    if chat > 0 {
        return Ok(());
    }
    if world.migrated.contains_key(&chat) {
        return Err(rules::group_migrated());
    }
    if world.kicked_from.contains(&chat) {
        return Err(rules::kicked());
    }
    if !world.groups.contains_key(&chat) {
        return Err(rules::chat_not_found());
    }
    Ok(())
}

/// Adds what Telegram answers about an uploaded file: `photo` (sizes),
/// `animation` (with its `document` twin) or `document`; the text is the
/// caption then.
fn media_shape(message: &mut Value, method: &str, upload: &Upload, message_id: i64) {
    let (width, height) = rules::image_size(&upload.bytes).unwrap_or((0, 0));
    let size = upload.bytes.len();
    let file_name = upload.file_name.clone().unwrap_or_default();
    let file = |kind: &str| {
        json!({
            "file_id": format!("{kind}-{message_id}"),
            "file_unique_id": format!("u{kind}{message_id}"),
            "file_size": size,
        })
    };
    if let Some(fields) = message.as_object_mut() {
        if let Some(text) = fields.remove("text") {
            if text.as_str().is_some_and(|text| !text.is_empty()) {
                fields.insert("caption".to_owned(), text);
            }
        }
    }
    match method {
        "sendPhoto" => {
            let mut photo = file("photo");
            photo["width"] = json!(width);
            photo["height"] = json!(height);
            message["photo"] = json!([photo]);
        }
        "sendAnimation" => {
            let mut animation = file("animation");
            animation["width"] = json!(width);
            animation["height"] = json!(height);
            animation["duration"] = json!(1);
            animation["file_name"] = json!(file_name);
            animation["mime_type"] = json!("image/gif");
            let mut document = file("animation");
            document["file_name"] = json!(file_name);
            document["mime_type"] = json!("image/gif");
            message["animation"] = animation;
            message["document"] = document;
        }
        _ => {
            let mut document = file("document");
            document["file_name"] = json!(file_name);
            message["document"] = document;
        }
    }
}

fn refuse(refusal: &Refusal, parameters: Option<Value>) -> Response {
    let status = StatusCode::from_u16(refusal.status).unwrap_or(StatusCode::BAD_REQUEST);
    error(status, &refusal.description, parameters)
}

fn record(
    shared: &Shared,
    method: String,
    params: Value,
    upload: Option<Upload>,
    outcome: Outcome,
    message_id: Option<i64>,
) {
    push_call(
        &mut shared.world(),
        method,
        params,
        upload,
        outcome,
        message_id,
    );
    shared.calls_changed.notify_waiters();
}

fn push_call(
    world: &mut World,
    method: String,
    params: Value,
    upload: Option<Upload>,
    outcome: Outcome,
    message_id: Option<i64>,
) {
    world.calls.push(Call {
        method,
        params,
        upload,
        outcome,
        message_id,
        at: Instant::now(),
    });
}

/// Reads a JSON or multipart body into parameters and at most one file.
async fn read_body(
    request: Request,
    shared: &Arc<Shared>,
) -> Result<(Value, Option<Upload>), String> {
    let is_multipart = request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.starts_with("multipart/form-data"));
    if !is_multipart {
        let body = Bytes::from_request(request, shared)
            .await
            .map_err(|error| error.to_string())?;
        if body.is_empty() {
            return Ok((json!({}), None));
        }
        let params = serde_json::from_slice(&body).map_err(|error| error.to_string())?;
        return Ok((params, None));
    }
    let mut multipart = Multipart::from_request(request, shared)
        .await
        .map_err(|error| error.to_string())?;
    let mut params = Map::new();
    let mut upload: Option<Upload> = None;
    while let Some(field) = multipart
        .next_field()
        .await
        .map_err(|error| error.to_string())?
    {
        let name = field.name().unwrap_or_default().to_owned();
        let file_name = field.file_name().map(str::to_owned);
        let bytes = field.bytes().await.map_err(|error| error.to_string())?;
        if file_name.is_some() {
            upload = Some(Upload {
                part: name.clone(),
                field: name,
                file_name,
                bytes: bytes.to_vec(),
            });
            continue;
        }
        let text = String::from_utf8_lossy(&bytes).into_owned();
        // Telegram's multipart fields are text; structured ones hold JSON.
        let value = match name.as_str() {
            "chat_id" | "message_id" => text
                .parse::<i64>()
                .map(Value::from)
                .unwrap_or(Value::String(text)),
            "reply_markup" | "reply_parameters" | "allowed_updates" | "media" => {
                serde_json::from_str(&text).unwrap_or(Value::String(text))
            }
            _ => Value::String(text),
        };
        params.insert(name, value);
    }
    // teloxide names file parts at random and refers to them as
    // `"photo": "attach://<part>"`; report the parameter that refers to it.
    if let Some(upload) = upload.as_mut() {
        let reference = format!("attach://{}", upload.field);
        if let Some((parameter, _)) = params.iter().find(|(_, value)| **value == reference) {
            upload.field = parameter.clone();
        }
    }
    Ok((Value::Object(params), upload))
}

fn ok(result: Value) -> Response {
    Json(json!({"ok": true, "result": result})).into_response()
}

fn error(status: StatusCode, description: &str, parameters: Option<Value>) -> Response {
    let mut body = json!({
        "ok": false,
        "error_code": status.as_u16(),
        "description": description,
    });
    if let Some(parameters) = parameters {
        body["parameters"] = parameters;
    }
    (status, Json(body)).into_response()
}
