//! Long polling that confirms an update to Telegram only once it is handled.
//!
//! `getUpdates` with an `offset` confirms every update below it, and Telegram
//! sends a confirmed update never again. teloxide's own listener confirms an
//! update as soon as it yields it, so a process killed while a move was being
//! handled lost that move. Here the offset asked for is the lowest update still
//! being handled: until its chat's lane is done with it (the service has
//! answered, so the move is stored), a restart gets it again. Updates that
//! come back while being handled are recognised by their id and skipped.
//!
//! The body is read leniently: a lone UTF-16 surrogate escape (`\ud800`, which
//! Telegram forwards from clients and serde refuses) becomes U+FFFD, and an
//! update that still cannot be read is skipped past with a warning, instead of
//! failing the whole batch and every later update with it.

use std::collections::BTreeSet;
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;
use teloxide::types::{AllowedUpdate, Update};
use teloxide::Bot;
use tokio::sync::Notify;

/// How long to wait before polling again while every update Telegram sent
/// back is still being handled (Telegram answers at once then).
const BUSY_POLL: Duration = Duration::from_millis(250);
/// The first wait after a failed `getUpdates`; it doubles up to [`MAX_BACKOFF`].
const FIRST_BACKOFF: Duration = Duration::from_millis(250);
/// The longest wait between failed `getUpdates` calls.
const MAX_BACKOFF: Duration = Duration::from_secs(30);

/// Which updates are being handled and the highest one taken.
#[derive(Default)]
struct Ledger {
    handling: BTreeSet<i64>,
    highest: Option<i64>,
}

impl Ledger {
    /// The offset that confirms exactly the updates done with: the lowest
    /// one still being handled, else the one after the highest taken.
    fn offset(&self) -> Option<i64> {
        self.handling
            .first()
            .copied()
            .or_else(|| self.highest.map(|highest| highest.saturating_add(1)))
    }
}

/// Shared between the poller and the lanes handling its updates.
#[derive(Clone, Default)]
pub(super) struct Tracker {
    ledger: Arc<Mutex<Ledger>>,
    finished: Arc<Notify>,
}

impl Tracker {
    fn ledger(&self) -> std::sync::MutexGuard<'_, Ledger> {
        self.ledger
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Takes update `id` if it is new: `Some` with the guard that marks it
    /// handled when dropped, `None` for an update taken before.
    fn take(&self, id: i64, handle: bool) -> Option<Option<Handling>> {
        let mut ledger = self.ledger();
        if ledger.highest.is_some_and(|highest| id <= highest) {
            return None;
        }
        ledger.highest = Some(id);
        if !handle {
            return Some(None);
        }
        ledger.handling.insert(id);
        Some(Some(Handling {
            tracker: self.clone(),
            id,
        }))
    }
}

/// An update being handled; dropping it (the work is done, or it panicked,
/// or the update was refused) lets the next poll confirm it.
pub(super) struct Handling {
    tracker: Tracker,
    id: i64,
}

impl Drop for Handling {
    fn drop(&mut self) {
        self.tracker.ledger().handling.remove(&self.id);
        self.tracker.finished.notify_one();
    }
}

/// One update as read from a `getUpdates` answer.
enum Fetched {
    Update(Box<Update>),
    /// An update the bot cannot read: skipped (its id is confirmed).
    Unreadable {
        id: i64,
        error: String,
    },
}

impl Fetched {
    fn id(&self) -> i64 {
        match self {
            Fetched::Update(update) => i64::from(update.id.0),
            Fetched::Unreadable { id, .. } => *id,
        }
    }
}

/// Why a `getUpdates` call gave nothing.
#[derive(Debug)]
enum PollError {
    /// Telegram asked to wait (flood control).
    RetryAfter(Duration),
    /// Anything else: a network error, a 5xx, an unreadable answer, a
    /// conflict with another poller.
    Failed(String),
}

/// Polls until `stop` completes, handing each new update to `take` with the
/// guard that confirms it once dropped. After `stop`, waits for `drained`
/// (the updates taken are handled), then confirms them with one last call.
pub(super) async fn poll<D>(
    bot: &Bot,
    timeout: Duration,
    allowed: &[AllowedUpdate],
    take: impl Fn(Update, Handling),
    stop: impl Future<Output = ()>,
    drained: impl FnOnce() -> D,
) where
    D: Future<Output = ()>,
{
    let tracker = Tracker::default();
    let allowed = serde_json::to_value(allowed).unwrap_or(Value::Null);
    let mut backoff = FIRST_BACKOFF;
    tokio::pin!(stop);
    loop {
        let offset = tracker.ledger().offset();
        let busy = !tracker.ledger().handling.is_empty();
        // While an update is being handled Telegram answers at once with it:
        // a short wait is enough then.
        let wait = if busy { Duration::ZERO } else { timeout };
        let fetched = tokio::select! {
            fetched = get_updates(bot, offset, wait, &allowed) => fetched,
            () = &mut stop => break,
        };
        let pause = match fetched {
            Ok(batch) => {
                backoff = FIRST_BACKOFF;
                let mut new = 0;
                for item in batch {
                    let id = item.id();
                    let readable = matches!(item, Fetched::Update(_));
                    let Some(handling) = tracker.take(id, readable) else {
                        continue;
                    };
                    new += 1;
                    match (item, handling) {
                        (Fetched::Update(update), Some(handling)) => take(*update, handling),
                        (Fetched::Unreadable { error, .. }, _) => tracing::warn!(
                            update = id,
                            error,
                            "skipped a Telegram update the bot cannot read"
                        ),
                        (Fetched::Update(_), None) => {}
                    }
                }
                // Nothing new, only updates still being handled: wait for
                // one to finish (or a moment, for news from other chats).
                (new == 0 && busy).then_some(BUSY_POLL)
            }
            Err(PollError::RetryAfter(after)) => {
                tracing::warn!(
                    seconds = after.as_secs(),
                    "Telegram asked to wait before polling again"
                );
                Some(after)
            }
            Err(PollError::Failed(error)) => {
                tracing::warn!(error, "could not get Telegram updates");
                let pause = backoff;
                backoff = (backoff * 2).min(MAX_BACKOFF);
                Some(pause)
            }
        };
        if let Some(pause) = pause {
            let finished = tracker.finished.notified();
            tokio::select! {
                () = tokio::time::sleep(pause) => {}
                () = finished, if busy => {}
                () = &mut stop => break,
            }
        }
    }
    // Updates already taken are handled, then confirmed, so that a restart
    // does not get them again.
    drained().await;
    let last = tracker.ledger().offset();
    if let Some(offset) = last {
        if let Err(error) = get_updates(bot, Some(offset), Duration::ZERO, &allowed).await {
            tracing::warn!(?error, "could not confirm the last Telegram updates");
        }
    }
}

/// One `getUpdates` call, read leniently (see the module documentation).
async fn get_updates(
    bot: &Bot,
    offset: Option<i64>,
    timeout: Duration,
    allowed: &Value,
) -> Result<Vec<Fetched>, PollError> {
    let mut params = serde_json::json!({
        "timeout": timeout.as_secs(),
        "allowed_updates": allowed,
    });
    if let Some(offset) = offset {
        params["offset"] = offset.into();
    }
    let mut url = bot.api_url();
    url.path_segments_mut()
        .map_err(|()| PollError::Failed("the Bot API URL cannot take a path".to_owned()))?
        .push(&format!("bot{}", bot.token()))
        .push("getUpdates");
    let response = bot
        .client()
        .post(url)
        .header("content-type", "application/json")
        .body(params.to_string())
        // The long poll itself, and a margin for the network.
        .timeout(timeout + Duration::from_secs(10))
        .send()
        .await
        // Without the URL: it holds the token.
        .map_err(|error| PollError::Failed(error.without_url().to_string()))?;
    let status = response.status();
    let body = response
        .bytes()
        .await
        .map_err(|error| PollError::Failed(error.without_url().to_string()))?;
    read_answer(status.as_u16(), &body)
}

/// Reads a `getUpdates` answer: its updates, each on its own.
fn read_answer(status: u16, body: &[u8]) -> Result<Vec<Fetched>, PollError> {
    let mut answer: Value =
        serde_json::from_slice(&without_lone_surrogates(body)).map_err(|error| {
            PollError::Failed(format!("an unreadable answer (HTTP {status}): {error}"))
        })?;
    if answer["ok"] != Value::Bool(true) {
        if let Some(seconds) = answer["parameters"]["retry_after"].as_u64() {
            return Err(PollError::RetryAfter(Duration::from_secs(seconds)));
        }
        let description = answer["description"].as_str().unwrap_or("no description");
        return Err(PollError::Failed(format!("HTTP {status}: {description}")));
    }
    let Some(Value::Array(updates)) = answer.get_mut("result").map(Value::take) else {
        return Err(PollError::Failed("an answer without updates".to_owned()));
    };
    Ok(updates
        .into_iter()
        .filter_map(|update| {
            let id = update["update_id"].as_i64();
            // Read from text: teloxide's `Update` does not read from a
            // `Value` (every kind comes out as `UpdateKind::Error`), and the
            // body is a `Value` first so that one bad update spoils no other.
            match serde_json::from_str::<Update>(&update.to_string()) {
                Ok(update) => Some(Fetched::Update(Box::new(update))),
                Err(error) => match id {
                    Some(id) => Some(Fetched::Unreadable {
                        id,
                        error: error.to_string(),
                    }),
                    None => {
                        tracing::warn!(%error, "a Telegram update without an id");
                        None
                    }
                },
            }
        })
        .collect())
}

/// `body` with every `\uXXXX` escape of a lone UTF-16 surrogate (one not in a
/// high-low pair) replaced by `\ufffd`. Outside strings JSON has no
/// backslashes, and inside them `\\` is one escaped backslash, so escapes are
/// found by reading backslash pairs from the start.
pub(super) fn without_lone_surrogates(body: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    fn escaped_unit(body: &[u8], at: usize) -> Option<u16> {
        let hex = body.get(at + 2..at + 6)?;
        (body.get(at..at + 2)? == b"\\u")
            .then(|| u16::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok())
            .flatten()
    }
    let is_high = |unit: u16| (0xD800..0xDC00).contains(&unit);
    let is_low = |unit: u16| (0xDC00..0xE000).contains(&unit);
    if !body
        .windows(3)
        .any(|window| window[0] == b'\\' && window[1] == b'u' && matches!(window[2], b'd' | b'D'))
    {
        return std::borrow::Cow::Borrowed(body);
    }
    let mut out = Vec::with_capacity(body.len());
    let mut at = 0;
    while at < body.len() {
        if body[at] != b'\\' {
            out.push(body[at]);
            at += 1;
            continue;
        }
        match escaped_unit(body, at) {
            Some(unit) if is_high(unit) && escaped_unit(body, at + 6).is_some_and(is_low) => {
                out.extend_from_slice(&body[at..at + 12]);
                at += 12;
            }
            Some(unit) if is_high(unit) || is_low(unit) => {
                out.extend_from_slice(b"\\ufffd");
                at += 6;
            }
            _ => {
                // Any other escape: the backslash and the character it escapes.
                out.extend_from_slice(&body[at..(at + 2).min(body.len())]);
                at += 2;
            }
        }
    }
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(id: i64, text: &str) -> String {
        format!(
            r#"{{"update_id":{id},"message":{{"message_id":{id},"date":1700000000,
            "chat":{{"id":5,"type":"private","first_name":"A"}},
            "from":{{"id":5,"is_bot":false,"first_name":"A"}},"text":"{text}"}}}}"#
        )
    }

    fn texts(batch: &[Fetched]) -> Vec<(i64, Option<String>)> {
        batch
            .iter()
            .map(|item| match item {
                Fetched::Update(update) => match &update.kind {
                    teloxide::types::UpdateKind::Message(message) => {
                        (item.id(), message.text().map(str::to_owned))
                    }
                    _ => (item.id(), None),
                },
                Fetched::Unreadable { id, .. } => (*id, None),
            })
            .collect()
    }

    #[test]
    fn a_lone_surrogate_is_read_as_a_replacement_character_and_the_batch_survives() {
        let body = format!(
            r#"{{"ok":true,"result":[{},{},{}]}}"#,
            message(7, r"e4 \ud83d"),
            message(8, r"\ud83d\ude00 pair and \\ud83d escaped"),
            message(9, r"\udc00 low"),
        );
        assert!(
            serde_json::from_str::<Value>(&body).is_err(),
            "serde refuses it"
        );
        let batch = read_answer(200, body.as_bytes()).expect("the batch is read");
        assert_eq!(
            texts(&batch),
            [
                (7, Some("e4 \u{fffd}".to_owned())),
                (8, Some("\u{1f600} pair and \\ud83d escaped".to_owned())),
                (9, Some("\u{fffd} low".to_owned())),
            ]
        );
    }

    #[test]
    fn an_update_of_an_unreadable_shape_leaves_the_rest_of_the_batch() {
        let body = format!(
            r#"{{"ok":true,"result":[{{"update_id":3,"message":{{"chat":17}}}},{}]}}"#,
            message(4, "d4")
        );
        let batch = read_answer(200, body.as_bytes()).expect("the batch is read");
        assert_eq!(texts(&batch), [(3, None), (4, Some("d4".to_owned()))]);
    }

    #[test]
    fn errors_say_when_to_retry() {
        let flood = br#"{"ok":false,"error_code":429,"description":"Too Many Requests: retry after 3","parameters":{"retry_after":3}}"#;
        assert!(matches!(
            read_answer(429, flood),
            Err(PollError::RetryAfter(after)) if after == Duration::from_secs(3)
        ));
        assert!(matches!(
            read_answer(502, b"<html>502 Bad Gateway</html>"),
            Err(PollError::Failed(_))
        ));
    }

    #[test]
    fn the_offset_confirms_only_what_is_done() {
        let tracker = Tracker::default();
        assert_eq!(tracker.ledger().offset(), None);
        let first = tracker.take(10, true).expect("new").expect("handled");
        let second = tracker.take(11, true).expect("new").expect("handled");
        assert!(tracker.take(10, true).is_none(), "taken before");
        assert_eq!(tracker.ledger().offset(), Some(10));
        drop(second);
        assert_eq!(tracker.ledger().offset(), Some(10), "10 is still handled");
        drop(first);
        assert_eq!(tracker.ledger().offset(), Some(12));
        assert!(tracker.take(12, false).expect("new").is_none());
        assert_eq!(tracker.ledger().offset(), Some(13), "skipped past");
    }
}
