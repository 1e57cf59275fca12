//! The Telegram adapter: updates in (long polling, or a webhook), Bot API calls out.
//!
//! Messages, commands and inline-button presses become [`Request`]s for the game
//! service; the [`Delivery`]s it answers with, and the ones it pushes through its
//! outbox, become messages, board photos, game animations and inline keyboards.
//! The adapter knows nothing about chess.
//!
//! ```no_run
//! # async fn example(
//! #     handler: std::sync::Arc<dyn kodex_bot::api::Handler>,
//! #     outbox: tokio::sync::mpsc::UnboundedReceiver<kodex_bot::api::Delivery>,
//! # ) -> Result<(), kodex_bot::telegram::TelegramError> {
//! use kodex_bot::telegram::{run, TelegramConfig};
//! if let Some(config) = TelegramConfig::from_env()? {
//!     run(config, handler, outbox).await?;
//! }
//! # Ok(())
//! # }
//! ```
//!
//! [`Request`]: crate::api::Request

mod boards;
mod commands;
mod courier;
mod directory;
mod flood;
mod joined;
mod memory;
mod picker;
mod polling;
mod posting;
mod texts;
mod updates;
mod webhook;

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use teloxide::payloads::setters::*;
use teloxide::requests::{Request as _, Requester};
use teloxide::types::{AllowedUpdate, BotCommand, Update};
use teloxide::Bot;
use tokio::sync::mpsc::UnboundedReceiver;

use crate::api::{Delivery, Handler};
use crate::lanes::Lanes;
use crate::store::Store;
use directory::Directory;
use memory::Journal;
use picker::Picker;
use updates::Adapter;

pub use crate::api::VariantChoice;
pub use teloxide::adaptors::throttle::Limits;

/// How the adapter receives updates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// `getUpdates` long polling: works anywhere, one process per bot token.
    Polling,
    /// Telegram calls us: an HTTP server (axum) on `listen` behind the public
    /// HTTPS `url`, e.g. for several instances behind a load balancer.
    Webhook {
        /// The local address to listen on.
        listen: SocketAddr,
        /// The public HTTPS address Telegram posts updates to.
        url: url::Url,
        /// The secret token shared by every process behind `url`; `None`:
        /// a random one, and the webhook removed at a clean stop.
        secret: Option<String>,
    },
}

/// Everything the Telegram adapter needs to run.
#[derive(Clone, Debug)]
pub struct TelegramConfig {
    /// The bot token from @BotFather.
    pub token: String,
    /// A Bot API server other than `https://api.telegram.org/` (a local Bot API
    /// server, or a fake one in tests).
    pub api_url: Option<url::Url>,
    /// Long polling or webhook.
    pub mode: Mode,
    /// Send boards as files (pixel-exact, no recompression) instead of photos.
    pub boards_as_documents: bool,
    /// Telegram's flood limits the Throttle adaptor keeps within.
    pub limits: Limits,
    /// How long one `getUpdates` call waits for news.
    pub poll_timeout: Duration,
    /// The variants `/play` without a variant offers as buttons. Empty: such a
    /// `/play` goes to the service as is.
    pub variants: Vec<VariantChoice>,
    /// Where the adapter keeps what it learnt (ids behind @usernames, pending
    /// deep links, open variant pickers) across restarts: usually the game
    /// service's store ([`Service::store`]). `None`: in memory only.
    ///
    /// [`Service::store`]: crate::Service::store
    pub store: Option<Store>,
}

impl TelegramConfig {
    /// Long polling against the real Bot API with Telegram's documented limits.
    pub fn new(token: impl Into<String>) -> Self {
        TelegramConfig {
            token: token.into(),
            api_url: None,
            mode: Mode::Polling,
            boards_as_documents: false,
            // teloxide's default allows 10 messages a minute in a supergroup;
            // Telegram documents 20 per group, and every move is a message.
            limits: Limits {
                messages_per_min_channel_or_supergroup: 20,
                ..Limits::default()
            },
            poll_timeout: Duration::from_secs(10),
            variants: Vec::new(),
            store: None,
        }
    }

    /// Reads the environment: `None` without `KODEX_TELEGRAM_TOKEN`, else the
    /// token with [`TelegramConfig::with_env_options`].
    pub fn from_env() -> Result<Option<Self>, TelegramError> {
        match process_env("KODEX_TELEGRAM_TOKEN") {
            Some(token) => TelegramConfig::new(token).with_env_options().map(Some),
            None => Ok(None),
        }
    }

    /// Applies the optional settings from the process environment; see
    /// [`TelegramConfig::with_options_from`].
    pub fn with_env_options(self) -> Result<Self, TelegramError> {
        self.with_options_from(&process_env)
    }

    /// Applies the optional settings `env` gives (the process environment in
    /// production, a map in tests); empty values count as unset:
    ///
    /// - `KODEX_TELEGRAM_API_URL`: another Bot API server;
    /// - `KODEX_TELEGRAM_WEBHOOK_URL` and `KODEX_TELEGRAM_WEBHOOK_LISTEN`
    ///   (default `0.0.0.0:8443`): webhook mode instead of long polling;
    /// - `KODEX_TELEGRAM_BOARDS_AS_FILES=1`: boards as documents.
    pub fn with_options_from(
        mut self,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Self, TelegramError> {
        let env_variable = |name: &str| env(name).filter(|value| !value.is_empty());
        if let Some(api_url) = env_variable("KODEX_TELEGRAM_API_URL") {
            self.api_url = Some(parse_url("KODEX_TELEGRAM_API_URL", &api_url)?);
        }
        if let Some(webhook_url) = env_variable("KODEX_TELEGRAM_WEBHOOK_URL") {
            let listen = env_variable("KODEX_TELEGRAM_WEBHOOK_LISTEN")
                .unwrap_or_else(|| "0.0.0.0:8443".to_owned());
            self.mode = Mode::Webhook {
                listen: listen.parse().map_err(|_| {
                    TelegramError::Config(format!(
                        "KODEX_TELEGRAM_WEBHOOK_LISTEN is not an address like 0.0.0.0:8443: {listen}"
                    ))
                })?,
                url: parse_url("KODEX_TELEGRAM_WEBHOOK_URL", &webhook_url)?,
                secret: match env_variable("KODEX_TELEGRAM_WEBHOOK_SECRET") {
                    Some(secret) if webhook::valid_secret(&secret) => Some(secret),
                    Some(_) => {
                        return Err(TelegramError::Config(
                            "KODEX_TELEGRAM_WEBHOOK_SECRET must be 1-256 characters of A-Z, a-z, 0-9, _ and -"
                                .to_owned(),
                        ))
                    }
                    None => None,
                },
            };
        }
        self.boards_as_documents = env_variable("KODEX_TELEGRAM_BOARDS_AS_FILES")
            .is_some_and(|value| matches!(value.as_str(), "1" | "true" | "yes"));
        Ok(self)
    }

    /// Offers every variant of `registry` in the `/play` picker.
    pub fn with_variants_of(mut self, registry: &kodex_engine::Registry) -> Self {
        self.variants = crate::api::variant_choices(registry);
        self
    }
}

fn process_env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|value| !value.is_empty())
}

fn parse_url(variable: &str, value: &str) -> Result<url::Url, TelegramError> {
    url::Url::parse(value)
        .map_err(|error| TelegramError::Config(format!("{variable} is not a URL ({error})")))
}

/// Why the adapter could not start or stopped.
#[derive(Debug, thiserror::Error)]
pub enum TelegramError {
    /// The configuration is unusable.
    #[error("Telegram configuration: {0}")]
    Config(String),
    /// `getMe` failed: usually a wrong token or no way to reach Telegram.
    #[error("could not reach the Telegram bot (is KODEX_TELEGRAM_TOKEN right?): {0}")]
    GetMe(String),
    /// Telegram refused the webhook.
    #[error("could not set the Telegram webhook: {0}")]
    Webhook(String),
    /// The webhook's local address could not be bound.
    #[error("could not listen on {address} for the Telegram webhook: {source}")]
    Bind {
        /// The address.
        address: SocketAddr,
        /// Why.
        source: std::io::Error,
    },
}

/// Runs the Telegram bot until the process ends. See [`run_until`].
pub async fn run(
    config: TelegramConfig,
    handler: Arc<dyn Handler>,
    outbox: UnboundedReceiver<Delivery>,
) -> Result<(), TelegramError> {
    run_until(config, handler, outbox, std::future::pending()).await
}

/// How many updates one chat may have waiting (a flood beyond it is dropped).
const UPDATES_PER_LANE: usize = 256;
/// How long a chat's lane waits for its next update before it closes.
const LANE_IDLE: Duration = Duration::from_secs(60);

/// The updates the adapter handles; Telegram sends no others (and would
/// otherwise send every kind but a few, with polling and webhooks alike).
const ALLOWED_UPDATES: [AllowedUpdate; 2] = [AllowedUpdate::Message, AllowedUpdate::CallbackQuery];

/// Runs the Telegram bot until `stop` completes: checks the token (`getMe`),
/// registers the command menus in English and Russian, then handles updates,
/// each chat's in arrival order and different chats side by side, while
/// deliveries go out through per-chat queues.
/// Deliveries arriving on `outbox` (a flag fell, a challenge expired) are sent
/// the same way.
pub async fn run_until(
    config: TelegramConfig,
    handler: Arc<dyn Handler>,
    mut outbox: UnboundedReceiver<Delivery>,
    stop: impl Future<Output = ()> + Send,
) -> Result<(), TelegramError> {
    let mut bot = Bot::new(config.token.clone());
    if let Some(api_url) = config.api_url.clone() {
        bot = bot.set_api_url(api_url);
    }
    let me = bot
        .get_me()
        .send()
        .await
        .map_err(|error| TelegramError::GetMe(courier::describe(&error)))?;
    register_commands(&bot).await;
    // The invitation links the service writes name the bot.
    handler.introduce(crate::api::Platform::Telegram, me.username());

    let journal = Journal::new(config.store.clone());
    let directory = Directory::load(config.store.as_ref(), journal.clone()).await;
    let picker = Picker::load(config.variants, config.store.as_ref(), journal.clone()).await;
    let boards = boards::Boards::load(config.store.as_ref(), journal.clone()).await;
    let sending = courier::Sending {
        bot: bot.clone(),
        limits: config.limits,
        boards_as_documents: config.boards_as_documents,
    };
    let adapter = Adapter::new(sending, &me, directory, boards, picker, handler);
    let outbox_adapter = Arc::clone(&adapter);
    let outbox_task = tokio::spawn(async move {
        while let Some(delivery) = outbox.recv().await {
            outbox_adapter.dispatch_unsolicited(delivery);
        }
    });
    tracing::info!(bot = me.username(), "Telegram bot started");

    let result = match config.mode {
        Mode::Polling => {
            if let Err(error) = bot.delete_webhook().send().await {
                tracing::warn!(
                    error = courier::describe(&error),
                    "could not remove an old webhook"
                );
            }
            let lanes = update_lanes(&adapter);
            polling::poll(
                &bot,
                config.poll_timeout,
                &ALLOWED_UPDATES,
                |update, handling| push(&lanes, update, Some(Confirm::Polling(handling))),
                stop,
                || lanes.finish(),
            )
            .await;
            Ok(())
        }
        Mode::Webhook {
            listen,
            url,
            secret,
        } => {
            let store = config.store.clone();
            let lanes = update_lanes(&adapter);
            webhook::serve(bot, listen, url, secret, lanes, store, stop).await
        }
    };
    outbox_task.abort();
    // Messages already queued go out before the adapter stops.
    adapter.finish_sending().await;
    // What was learnt last is stored before the next start reads it.
    journal.flush().await;
    result
}

/// Registers the command menus (English as the default, Russian for Russian
/// clients). A failure only costs the menu, so it is logged, not fatal.
async fn register_commands(bot: &Bot) {
    for language in ["en", "ru"] {
        let commands: Vec<BotCommand> = commands::menu(language)
            .into_iter()
            .map(|(name, description)| BotCommand::new(name, description))
            .collect();
        let mut request = bot.set_my_commands(commands);
        if language != "en" {
            request = request.language_code(language);
        }
        if let Err(error) = request.send().await {
            tracing::warn!(
                language,
                error = courier::describe(&error),
                "could not register the command menu"
            );
        }
    }
}

/// An update on its way through its chat's lane, with what confirms it to
/// Telegram once handled.
type Taken = (Update, Option<Confirm>);

/// How a handled update is confirmed.
enum Confirm {
    /// Long polling: dropping the guard lets the next offset pass it.
    Polling(polling::Handling),
    /// A webhook: the request that brought it is answered.
    Webhook(tokio::sync::oneshot::Sender<()>),
}

/// The lanes updates are handled in: each chat's in arrival order, different
/// chats side by side.
fn update_lanes(adapter: &Arc<Adapter>) -> Lanes<i64, Taken> {
    let handling = Arc::clone(adapter);
    Lanes::new(
        UPDATES_PER_LANE,
        LANE_IDLE,
        Arc::new(move |(update, taken): Taken| {
            let adapter = Arc::clone(&handling);
            Box::pin(async move {
                adapter.on_update(update).await;
                // Handled (the service has stored what it changed): the
                // update may be confirmed now.
                match taken {
                    Some(Confirm::Webhook(handled)) => {
                        let _ = handled.send(());
                    }
                    Some(Confirm::Polling(handling)) => drop(handling),
                    None => {}
                }
            })
        }),
    )
}

/// Hands an update to its chat's lane.
fn push(lanes: &Lanes<i64, Taken>, update: Update, confirm: Option<Confirm>) {
    if lanes
        .push(updates::lane_of(&update), (update, confirm))
        .is_err()
    {
        tracing::warn!("a chat sent more updates than the bot keeps up with; one was dropped");
    }
}
