//! Trying again when Discord fails for a passing reason: a 5xx from its
//! edge (502/503/504 happen in production), a 429 when the rate limiter is
//! left to a proxy, a dropped connection.
//!
//! Only requests that are safe to repeat are repeated:
//! - channel messages carry a nonce with `enforce_nonce`, so a message
//!   Discord created before failing is returned, not posted twice;
//! - opening a DM channel and editing an interaction's answer are idempotent;
//! - an interaction's first answer, repeated after Discord took it, is
//!   refused as already acknowledged (40060), which counts as success;
//! - anything else (follow-ups, threads) is repeated only after a 429, which
//!   Discord answers before doing anything.
//!
//! A permanent refusal (missing access, closed DMs, a bad form) is returned
//! at once: repeating it would only be refused again.

use std::future::Future;
use std::time::Duration;

use poise::serenity_prelude as serenity;
use serenity::{ChannelId, CreateMessage, Http, Message, Nonce};

/// How many times a request is sent in all.
const ATTEMPTS: u32 = 3;

/// Waits before the next attempt, growing with each one.
const BACKOFF: Duration = Duration::from_millis(300);

/// Discord's "Interaction has already been acknowledged".
const ALREADY_ACKNOWLEDGED: isize = 40_060;

/// How a request may be repeated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Repeat {
    /// Safe to send again whatever happened (idempotent or deduplicated).
    Always,
    /// Only after a 429: Discord may have acted before a 5xx.
    OnlyRateLimited,
}

/// What kind of failure an error is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Failure {
    RateLimited,
    Passing,
    Permanent,
}

fn failure(error: &serenity::Error) -> Failure {
    match error {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(response)) => {
            let status = response.status_code.as_u16();
            if status == 429 {
                Failure::RateLimited
            } else if (500..600).contains(&status) {
                Failure::Passing
            } else {
                Failure::Permanent
            }
        }
        serenity::Error::Http(serenity::HttpError::Request(error))
            if error.is_timeout() || error.is_connect() =>
        {
            Failure::Passing
        }
        _ => Failure::Permanent,
    }
}

/// Whether Discord refused an interaction's first answer because it already
/// has one.
pub(crate) fn is_already_acknowledged(error: &serenity::Error) -> bool {
    matches!(
        error,
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(response))
            if response.error.code == ALREADY_ACKNOWLEDGED
    )
}

/// Runs `call` until it succeeds, fails for good, or has been tried
/// [`ATTEMPTS`] times; `what` names it in the log.
pub(crate) async fn retrying<T, F, Fut>(
    what: &str,
    repeat: Repeat,
    mut call: F,
) -> Result<T, serenity::Error>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, serenity::Error>>,
{
    let mut attempt = 1;
    loop {
        let error = match call().await {
            Ok(value) => return Ok(value),
            Err(error) => error,
        };
        let again = match failure(&error) {
            Failure::RateLimited => true,
            Failure::Passing => repeat == Repeat::Always,
            Failure::Permanent => false,
        };
        if !again || attempt >= ATTEMPTS {
            return Err(error);
        }
        tracing::info!("{what} failed ({error}); trying again (attempt {attempt})");
        tokio::time::sleep(BACKOFF * attempt).await;
        attempt += 1;
    }
}

/// An interaction's first answer (an acknowledgement or a deferral), tried
/// again after a passing failure; "already acknowledged" means an earlier
/// attempt got through.
pub(crate) async fn acknowledge<F, Fut>(call: F) -> Result<(), serenity::Error>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<(), serenity::Error>>,
{
    match retrying("answering an interaction", Repeat::Always, call).await {
        Err(error) if is_already_acknowledged(&error) => Ok(()),
        other => other,
    }
}

/// A nonce Discord keeps for a few minutes to recognise a repeated message:
/// random, at most 25 characters as Discord requires.
pub(crate) fn new_nonce() -> Nonce {
    Nonce::String(format!("kx{:016x}", fastrand::u64(..)))
}

/// Posts a message in a channel, at most once however often it is sent.
pub(crate) async fn send_message(
    http: &Http,
    channel: ChannelId,
    message: CreateMessage,
) -> Result<Message, serenity::Error> {
    let message = message.nonce(new_nonce()).enforce_nonce(true);
    retrying("posting a message", Repeat::Always, || {
        channel.send_message(http, message.clone())
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nonces_fit_discord_and_differ() {
        let (Nonce::String(a), Nonce::String(b)) = (new_nonce(), new_nonce()) else {
            panic!("string nonces");
        };
        assert!(a.len() <= 25 && b.len() <= 25, "{a} {b}");
        assert_ne!(a, b);
    }

    /// Passing failures are repeated in the fake Discord tests
    /// (`tests/tests/chat/discord_service.rs`): serenity's error responses cannot
    /// be built outside it.
    #[tokio::test]
    async fn a_permanent_refusal_is_not_repeated() {
        use std::sync::atomic::{AtomicU32, Ordering};
        let calls = AtomicU32::new(0);
        let refused: Result<(), _> = retrying("test", Repeat::Always, || {
            calls.fetch_add(1, Ordering::SeqCst);
            async { Err(serenity::Error::Other("refused")) }
        })
        .await;
        assert!(refused.is_err());
        assert_eq!(calls.load(Ordering::SeqCst), 1);
    }
}
