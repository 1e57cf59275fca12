//! Webhook mode: Telegram posts each update to `KODEX_TELEGRAM_WEBHOOK_URL`
//! and waits for the answer. The answer is given only once the update is
//! handled (the service has stored what it changed): `200` then, `503` when
//! it could not be (Telegram delivers it again later). An update is thus
//! never confirmed before it is stored, and a process that dies while
//! handling one loses nothing.
//!
//! Several processes may stand behind one webhook URL (a load balancer),
//! sharing its secret token (`KODEX_TELEGRAM_WEBHOOK_SECRET`) and one
//! database: each update is claimed there before it is handled (see
//! [`Store::claim_update`]), so a second delivery of it, to any process,
//! is answered without handling it again. Within a process each chat's
//! updates are handled in the order they arrive (its lane).

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use teloxide::payloads::setters::*;
use teloxide::requests::{Request as _, Requester};
use teloxide::types::Update;
use teloxide::Bot;

use super::{courier, polling, push, Confirm, Taken, TelegramError, ALLOWED_UPDATES};
use crate::lanes::Lanes;
use crate::store::{Store, UpdateClaim};

/// How long a process's claim of an update lasts (ms) unless renewed: the
/// longest a process that died handling an update holds it (and, since
/// Telegram delivers again the update it is waiting on, the chat's later
/// updates) back from the others.
const CLAIM: i64 = 10_000;
/// How often a claim is renewed while its update is handled.
const RENEW: std::time::Duration = std::time::Duration::from_secs(3);
/// The header Telegram sends the secret token in.
const SECRET_HEADER: &str = "x-telegram-bot-api-secret-token";

/// Whether `secret` is a token Telegram takes (1-256 of `A-Za-z0-9_-`).
pub(super) fn valid_secret(secret: &str) -> bool {
    (1..=256).contains(&secret.len())
        && secret
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// What the webhook's requests share.
#[derive(Clone)]
struct Webhook {
    lanes: Arc<Lanes<i64, Taken>>,
    secret: Arc<str>,
    store: Option<Store>,
    /// This process's name in its claims.
    name: Arc<str>,
}

/// Sets the webhook and serves it (and `GET /healthz`) on `listen` until
/// `stop`; then the updates taken are handled before it returns. With a
/// shared `secret` the webhook stays set for the other processes behind
/// `url`; without, it is removed.
pub(super) async fn serve(
    bot: Bot,
    listen: SocketAddr,
    url: url::Url,
    secret: Option<String>,
    lanes: Lanes<i64, Taken>,
    store: Option<Store>,
    stop: impl Future<Output = ()> + Send,
) -> Result<(), TelegramError> {
    let tcp = tokio::net::TcpListener::bind(listen)
        .await
        .map_err(|source| TelegramError::Bind {
            address: listen,
            source,
        })?;
    let shared = secret.is_some();
    let secret = secret.unwrap_or_else(|| {
        const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";
        (0..48)
            .map(|_| char::from(ALPHABET[fastrand::usize(..ALPHABET.len())]))
            .collect()
    });
    bot.set_webhook(url.clone())
        .secret_token(secret.clone())
        .allowed_updates(ALLOWED_UPDATES.to_vec())
        .send()
        .await
        .map_err(|error| TelegramError::Webhook(courier::describe(&error)))?;
    let lanes = Arc::new(lanes);
    let state = Webhook {
        lanes: Arc::clone(&lanes),
        secret: secret.into(),
        store: store.clone(),
        name: format!("{}-{:016x}", std::process::id(), fastrand::u64(..)).into(),
    };
    let path = match url.path() {
        "" => "/".to_owned(),
        path => path.to_owned(),
    };
    let router = axum::Router::new()
        .route(&path, axum::routing::post(take))
        .route(
            "/healthz",
            axum::routing::get(move || health(store.clone())),
        )
        .with_state(state);
    let (stopping, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(async move {
        let shutdown = async move {
            let _ = stopped.await;
        };
        if let Err(error) = axum::serve(tcp, router)
            .with_graceful_shutdown(shutdown)
            .await
        {
            tracing::error!(%error, "the Telegram webhook server stopped");
        }
    });
    stop.await;
    // Requests under way are answered (their updates handled) first.
    let _ = stopping.send(());
    let _ = server.await;
    // Updates already taken are handled (and their requests answered)
    // before the adapter stops.
    lanes.finish().await;
    if !shared {
        if let Err(error) = bot.delete_webhook().send().await {
            tracing::warn!(
                error = courier::describe(&error),
                "could not remove the webhook"
            );
        }
    }
    Ok(())
}

/// `GET /healthz` on the webhook listener: 200 `ok` while the database
/// answers, 503 otherwise (a load balancer's health and readiness probe; a
/// process without a database checks nothing more).
async fn health(store: Option<Store>) -> (StatusCode, &'static str) {
    match store {
        Some(store) if !store.answers().await => (
            StatusCode::SERVICE_UNAVAILABLE,
            "the database does not answer",
        ),
        _ => (StatusCode::OK, "ok"),
    }
}

/// One update posted by Telegram: answered once handled.
async fn take(State(hook): State<Webhook>, headers: HeaderMap, body: Bytes) -> StatusCode {
    let secret = headers
        .get(SECRET_HEADER)
        .and_then(|value| value.to_str().ok());
    if secret != Some(&*hook.secret) {
        return StatusCode::UNAUTHORIZED;
    }
    let update: Update = match serde_json::from_slice(&polling::without_lone_surrogates(&body)) {
        Ok(update) => update,
        Err(error) => {
            // Never handled: taking it spares every later update its retries.
            tracing::warn!(%error, "an unreadable Telegram update was skipped");
            return StatusCode::OK;
        }
    };
    let id = i64::from(update.id.0);
    let now = crate::time::TimeSource::now(&crate::time::SystemTime);
    if let Some(store) = &hook.store {
        match store.claim_update(id, &hook.name, now, now + CLAIM).await {
            Ok(UpdateClaim::Mine) => {}
            Ok(UpdateClaim::Done) => return StatusCode::OK,
            // Delivered again later, it finds the other process's answer.
            Ok(UpdateClaim::Busy) => return StatusCode::SERVICE_UNAVAILABLE,
            Err(error) => {
                tracing::warn!(%error, "cannot claim a Telegram update; Telegram will send it again");
                return StatusCode::SERVICE_UNAVAILABLE;
            }
        }
    }
    let (handled, answered) = tokio::sync::oneshot::channel();
    push(&hook.lanes, update, Some(Confirm::Webhook(handled)));
    let done = match &hook.store {
        Some(store) => renewing(store, id, &hook.name, answered).await,
        None => answered.await.is_ok(),
    };
    if let Some(store) = &hook.store {
        let now = crate::time::TimeSource::now(&crate::time::SystemTime);
        if let Err(error) = store.update_handled(id, done, now).await {
            tracing::warn!(%error, "cannot mark a Telegram update handled");
        }
    }
    if done {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    }
}

/// Waits for the update's `answered`, renewing this process's claim of it
/// every [`RENEW`] meanwhile; whether it was handled.
async fn renewing(
    store: &Store,
    id: i64,
    name: &str,
    answered: tokio::sync::oneshot::Receiver<()>,
) -> bool {
    tokio::pin!(answered);
    loop {
        match tokio::time::timeout(RENEW, &mut answered).await {
            Ok(handled) => return handled.is_ok(),
            Err(_) => {
                let until = crate::time::TimeSource::now(&crate::time::SystemTime) + CLAIM;
                if let Err(error) = store.renew_update(id, name, until).await {
                    tracing::warn!(%error, "cannot renew the claim of a Telegram update");
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_what_telegram_takes() {
        assert!(valid_secret("abc_DEF-123"));
        assert!(!valid_secret(""));
        assert!(!valid_secret("with space"));
        assert!(!valid_secret(&"a".repeat(257)));
    }
}
