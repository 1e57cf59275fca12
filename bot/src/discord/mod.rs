//! The Discord adapter: serenity + poise.
//!
//! It turns slash commands, button presses, channel messages and DMs into
//! [`Request`]s for a [`Handler`] and sends the
//! [`Delivery`]s it gets back as Discord messages (PNG/GIF attachments,
//! buttons, DMs, ephemeral replies). Like every adapter it knows nothing about
//! chess: variant names for autocomplete come in through [`DiscordConfig`].
//!
//! Entry point: [`run`] (or [`run_until`] to stop it from outside, as tests do).
//!
//! Buttons carry the service's [`Button::data`](crate::api::Button::data) as
//! their custom id and are handled in the event handler, not by in-memory
//! collectors, so a button on a message sent before a restart still works.
//!
//! Optionally each game started in a channel gets a thread of its own
//! ([`DiscordConfig::game_threads`]).

mod caller;
mod commands;
mod deliver;
mod events;
mod registration;
mod retry;
mod texts;
mod threads;
mod typed;

use std::future::Future;
use std::sync::Arc;

use poise::serenity_prelude as serenity;
use tokio::sync::mpsc::UnboundedReceiver;
use tokio::sync::Mutex;

use crate::api::{Delivery, Handler, Request};
use deliver::{Deliverer, Origin, SharedState};

/// How to reach Discord.
#[derive(Clone, Debug, Default)]
pub struct DiscordConfig {
    /// The bot token (Developer Portal → your application → Bot → Reset Token).
    pub token: String,
    /// Register the slash commands in this guild only (instant, for development)
    /// instead of globally (can take up to an hour to appear everywhere).
    pub dev_guild: Option<u64>,
    /// Send REST requests to this base URL (`http://127.0.0.1:3000`) instead of
    /// `https://discord.com`: an API proxy, or a fake Discord in tests.
    pub api_base: Option<String>,
    /// Turn off serenity's rate limiter: only when `api_base` points at a proxy
    /// that limits requests itself, or at a fake.
    pub disable_rate_limiter: bool,
    /// Connect the gateway to this URL instead of the one Discord's
    /// `GET /gateway` answers.
    pub gateway_url: Option<String>,
    /// Ask for the privileged Message Content intent so that moves typed in
    /// chat are read. If Discord refuses it (not enabled in the Developer
    /// Portal), the adapter logs how to enable it and runs without it: `/move`
    /// still works.
    pub message_content: bool,
    /// Variants offered by `/play` and `/rules` autocomplete.
    pub variants: Vec<VariantChoice>,
    /// Give each game started in a guild text channel a public thread of its
    /// own (needs the Create Public Threads and Send Messages in Threads
    /// permissions; without them games stay in the channel).
    pub game_threads: bool,
    /// The gateway shards this process runs: `(first, last, total)`, the
    /// last included (`KODEX_DISCORD_SHARDS=0-1/4`); `None`: one shard of one.
    /// Discord sends each guild's events to shard `(guild_id >> 22) % total`
    /// and direct messages to shard 0.
    pub shards: Option<(u32, u32, u32)>,
}

/// Reads a shard range: `first-last/total` or `shard/total` (`0-3/8`,
/// `2/4`), the last included.
pub fn parse_shards(text: &str) -> Result<(u32, u32, u32), String> {
    let wrong = || {
        format!("KODEX_DISCORD_SHARDS is not a shard range like 0-3/8 (first-last/total): {text}")
    };
    let (range, total) = text.trim().split_once('/').ok_or_else(wrong)?;
    let total: u32 = total.trim().parse().map_err(|_| wrong())?;
    let (first, last) = match range.split_once('-') {
        Some((first, last)) => (first.trim(), last.trim()),
        None => (range.trim(), range.trim()),
    };
    let first: u32 = first.parse().map_err(|_| wrong())?;
    let last: u32 = last.parse().map_err(|_| wrong())?;
    if total == 0 || first > last || last >= total {
        return Err(wrong());
    }
    Ok((first, last, total))
}

impl DiscordConfig {
    /// A production configuration: the token, the Message Content intent,
    /// the given variants, everything else default.
    pub fn new(token: impl Into<String>, variants: Vec<VariantChoice>) -> DiscordConfig {
        DiscordConfig {
            token: token.into(),
            message_content: true,
            variants,
            ..DiscordConfig::default()
        }
    }

    /// Applies the optional settings `env` gives (the process environment in
    /// production, a map in tests); empty values count as unset:
    ///
    /// - `KODEX_DISCORD_GUILD`: a guild id to register the commands in
    ///   (development);
    /// - `KODEX_DISCORD_API_URL`: send REST requests to this base URL (an API
    ///   proxy) instead of `https://discord.com`;
    /// - `KODEX_DISCORD_SHARDS`: the shard range this process runs
    ///   (`0-3/8`, see [`DiscordConfig::shards`]);
    /// - `KODEX_DISCORD_RATE_LIMITER`: `auto` (the default: serenity's rate
    ///   limiter, or none behind a proxy, which serenity's would bypass),
    ///   `on` (no proxy) or `off` (leave rate limits to that proxy).
    ///
    /// A value that cannot be used is an error naming the variable.
    pub fn with_options_from(
        mut self,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<DiscordConfig, String> {
        let env_variable = |name: &str| {
            env(name)
                .map(|value| value.trim().to_owned())
                .filter(|value| !value.is_empty())
        };
        if let Some(guild) = env_variable("KODEX_DISCORD_GUILD") {
            let id = guild.parse::<u64>().ok().filter(|id| *id != 0);
            self.dev_guild =
                Some(id.ok_or_else(|| format!("KODEX_DISCORD_GUILD is not a guild id: {guild}"))?);
        }
        if let Some(shards) = env_variable("KODEX_DISCORD_SHARDS") {
            self.shards = Some(parse_shards(&shards)?);
        }
        if let Some(url) = env_variable("KODEX_DISCORD_API_URL") {
            if !(url.starts_with("http://") || url.starts_with("https://")) {
                return Err(format!(
                    "KODEX_DISCORD_API_URL is not an http(s) URL: {url}"
                ));
            }
            self.api_base = Some(url);
        }
        // serenity's rate limiter sends requests to discord.com whatever the
        // base URL: behind a proxy only the proxy limits.
        let proxied = self.api_base.is_some();
        match env_variable("KODEX_DISCORD_RATE_LIMITER").as_deref() {
            None | Some("auto") => self.disable_rate_limiter = proxied,
            Some("on") if proxied => {
                return Err(
                    "KODEX_DISCORD_RATE_LIMITER=on cannot go with KODEX_DISCORD_API_URL: \
                     serenity's rate limiter would send requests to discord.com past the \
                     proxy (use auto or off; the proxy limits requests)"
                        .to_owned(),
                )
            }
            Some("on") => {}
            Some("off") if proxied => self.disable_rate_limiter = true,
            Some("off") => {
                return Err(
                    "KODEX_DISCORD_RATE_LIMITER=off needs KODEX_DISCORD_API_URL \
                            (a proxy that limits requests itself)"
                        .to_owned(),
                )
            }
            Some(other) => {
                return Err(format!(
                    "KODEX_DISCORD_RATE_LIMITER is auto, on or off, not {other}"
                ))
            }
        }
        Ok(self)
    }
}

pub use crate::api::{variant_choices, VariantChoice};

/// Errors of commands and event handlers inside poise.
type Error = Box<dyn std::error::Error + Send + Sync>;

/// What every poise command and event handler can reach.
pub(crate) struct Data {
    answerer: Answerer,
    variants: Arc<[VariantChoice]>,
    /// Messages typed in channels and DMs, answered in the order they were
    /// typed, one queue per channel.
    typed: typed::TypedMessages,
}

impl std::ops::Deref for Data {
    type Target = Answerer;
    fn deref(&self) -> &Answerer {
        &self.answerer
    }
}

/// Asks the service and sends its answers.
#[derive(Clone)]
pub(crate) struct Answerer {
    handler: Arc<dyn Handler>,
    deliverer: Deliverer,
    /// See [`DiscordConfig::game_threads`].
    game_threads: bool,
}

impl Answerer {
    /// Asks the service and sends what it answers (moving games that just
    /// started into their own threads first, when configured). Returns
    /// whether the press settled what its buttons asked: something went to a
    /// channel (a challenge accepted, an offer answered, a game ended) or the
    /// answer says so ("Play on" under a resignation question).
    async fn answer(&self, request: Request, mut origin: Origin) -> bool {
        let deliveries = self.handler.handle(request.clone()).await;
        let deliveries = if self.game_threads {
            threads::move_new_games(
                self.deliverer.http(),
                self.handler.as_ref(),
                &request,
                deliveries,
            )
            .await
        } else {
            deliveries
        };
        let public = deliveries.iter().any(|delivery| {
            matches!(delivery.target, crate::api::Target::Chat(_))
                || delivery.game.as_ref().is_some_and(|game| game.settles)
        });
        self.deliverer.deliver(deliveries, &mut origin).await;
        public
    }
}

#[cfg(test)]
impl Answerer {
    /// An answerer around `handler` whose Discord is nowhere (nothing it
    /// sends leaves the process).
    fn for_tests(handler: Arc<dyn Handler>) -> Answerer {
        Answerer {
            deliverer: Deliverer::new(
                Arc::new(serenity::Http::new("")),
                Arc::new(SharedState::default()),
                Arc::clone(&handler),
            ),
            handler,
            game_threads: false,
        }
    }
}

/// The poise context of our commands.
type Context<'a> = poise::Context<'a, Data, Error>;

/// Connects to Discord and serves until the connection fails for good.
///
/// `outbox` carries deliveries no request caused (a flag falling, a challenge
/// expiring); they are sent as they arrive. Call it from `main` when
/// `KODEX_DISCORD_TOKEN` is set:
///
/// ```no_run
/// # async fn example(handler: std::sync::Arc<dyn kodex_bot::api::Handler>,
/// #     outbox: tokio::sync::mpsc::UnboundedReceiver<kodex_bot::api::Delivery>) {
/// let token = std::env::var("KODEX_DISCORD_TOKEN").unwrap_or_default();
/// let config = kodex_bot::discord::DiscordConfig::new(token, Vec::new());
/// if let Err(error) = kodex_bot::discord::run(config, handler, outbox).await {
///     eprintln!("Discord stopped: {error}");
/// }
/// # }
/// ```
pub async fn run(
    config: DiscordConfig,
    handler: Arc<dyn Handler>,
    outbox: UnboundedReceiver<Delivery>,
) -> Result<(), serenity::Error> {
    run_until(config, handler, outbox, std::future::pending()).await
}

/// Like [`run`], but disconnects cleanly and returns `Ok` when `shutdown`
/// completes.
pub async fn run_until(
    config: DiscordConfig,
    handler: Arc<dyn Handler>,
    outbox: UnboundedReceiver<Delivery>,
    shutdown: impl Future<Output = ()> + Send,
) -> Result<(), serenity::Error> {
    // Shared by every client this function builds (see the intents fallback below).
    let outbox = Arc::new(Mutex::new(outbox));
    let state = Arc::new(SharedState::default());
    let variants: Arc<[VariantChoice]> = config.variants.clone().into();
    let mut intents =
        serenity::GatewayIntents::GUILD_MESSAGES | serenity::GatewayIntents::DIRECT_MESSAGES;
    if config.message_content {
        intents |= serenity::GatewayIntents::MESSAGE_CONTENT;
    }
    tokio::pin!(shutdown);
    loop {
        let typed_slot = Arc::new(std::sync::Mutex::new(None));
        let mut client =
            build_client(&config, &handler, &state, &variants, intents, &typed_slot).await?;
        if let Some(url) = &config.gateway_url {
            *client.ws_url.lock().await = url.clone();
        }
        let (stopping, stop_signal) = tokio::sync::watch::channel(false);
        let mut outbox_task = tokio::spawn(forward_outbox(
            Arc::clone(&outbox),
            Deliverer::new(
                Arc::clone(&client.http),
                Arc::clone(&state),
                Arc::clone(&handler),
            ),
            stop_signal,
        ));
        let shard_manager = Arc::clone(&client.shard_manager);
        let shards = config.shards;
        let result = tokio::select! {
            // serenity's range runs from its start up to and including its end.
            result = async {
                match shards {
                    Some((first, last, total)) => client.start_shard_range(first..last, total).await,
                    None => client.start().await,
                }
            } => Some(result),
            () = &mut shutdown => {
                shard_manager.shutdown_all().await;
                None
            }
        };
        if result.is_none() {
            // A clean stop: messages already typed are answered, and what
            // the service already handed over is sent.
            let typed = typed_slot
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .clone();
            if let Some(typed) = typed {
                if tokio::time::timeout(OUTBOX_GRACE, typed.idle())
                    .await
                    .is_err()
                {
                    tracing::warn!("typed messages were still unanswered after {OUTBOX_GRACE:?}");
                }
            }
            let _ = stopping.send(true);
            if tokio::time::timeout(OUTBOX_GRACE, &mut outbox_task)
                .await
                .is_err()
            {
                tracing::warn!("Discord messages were still queued after {OUTBOX_GRACE:?}");
            }
        }
        outbox_task.abort();
        match result {
            None => return Ok(()),
            Some(Err(serenity::Error::Gateway(
                serenity::GatewayError::DisallowedGatewayIntents,
            ))) if intents.contains(serenity::GatewayIntents::MESSAGE_CONTENT) => {
                tracing::warn!(
                    "Discord refused the Message Content intent: moves typed in chat will not \
                     be read, /move still works. Enable it under Developer Portal → your \
                     application → Bot → Privileged Gateway Intents → Message Content Intent."
                );
                intents.remove(serenity::GatewayIntents::MESSAGE_CONTENT);
            }
            Some(result) => return result,
        }
    }
}

/// Builds a serenity client with the poise framework and our event handler.
async fn build_client(
    config: &DiscordConfig,
    handler: &Arc<dyn Handler>,
    state: &Arc<SharedState>,
    variants: &Arc<[VariantChoice]>,
    intents: serenity::GatewayIntents,
    typed_slot: &Arc<std::sync::Mutex<Option<typed::TypedMessages>>>,
) -> Result<serenity::Client, serenity::Error> {
    let typed_slot = Arc::clone(typed_slot);
    let mut http =
        serenity::HttpBuilder::new(&config.token).ratelimiter_disabled(config.disable_rate_limiter);
    if let Some(base) = &config.api_base {
        http = http.proxy(base.clone());
    }
    let handler = Arc::clone(handler);
    let state = Arc::clone(state);
    let variants = Arc::clone(variants);
    let dev_guild = config.dev_guild;
    let game_threads = config.game_threads;
    let framework = poise::Framework::builder()
        .options(poise::FrameworkOptions {
            commands: commands::all(),
            event_handler: |framework, event| Box::pin(events::on_event(framework, event)),
            on_error: |error| Box::pin(commands::on_error(error)),
            ..Default::default()
        })
        // Owners are not used; skip the extra request at start-up.
        .initialize_owners(false)
        .setup(move |ctx, _ready, framework| {
            Box::pin(async move {
                // Registered in a task of its own, and only when they
                // changed: poise holds every event until this setup returns.
                let wanted =
                    poise::builtins::create_application_commands(&framework.options().commands);
                let guild = dev_guild.map(|guild| serenity::GuildId::new(guild.max(1)));
                tokio::spawn(registration::register(Arc::clone(&ctx.http), wanted, guild));
                let answerer = Answerer {
                    deliverer: Deliverer::new(Arc::clone(&ctx.http), state, Arc::clone(&handler)),
                    handler,
                    game_threads,
                };
                let typed = typed::TypedMessages::new(answerer.clone());
                *typed_slot
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(typed.clone());
                Ok(Data {
                    typed,
                    answerer,
                    variants,
                })
            })
        })
        .build();
    serenity::ClientBuilder::new_with_http(http.build(), intents)
        .framework(framework)
        .await
}

/// How many unsolicited deliveries one channel (or person) may have
/// waiting; more are dropped and logged.
const DELIVERIES_PER_CHANNEL: usize = 500;
/// How long a channel's queue waits for its next delivery before it closes.
const QUEUE_IDLE: std::time::Duration = std::time::Duration::from_secs(60);

/// How long a clean stop waits for queued messages to be sent.
const OUTBOX_GRACE: std::time::Duration = std::time::Duration::from_secs(20);

/// Sends the service's unsolicited deliveries as they arrive, one ordered
/// queue per channel (or person), so a slow channel (rate limits, a large
/// animation) never holds up another. When `stop` turns true it takes what
/// is waiting in the outbox, sends it and everything queued, and returns.
async fn forward_outbox(
    outbox: Arc<Mutex<UnboundedReceiver<Delivery>>>,
    deliverer: Deliverer,
    mut stop: tokio::sync::watch::Receiver<bool>,
) {
    let queues = crate::lanes::Lanes::new(
        DELIVERIES_PER_CHANNEL,
        QUEUE_IDLE,
        Arc::new(move |delivery: Delivery| {
            let deliverer = deliverer.clone();
            Box::pin(async move {
                deliverer.deliver(vec![delivery], &mut Origin::Outbox).await;
            })
        }),
    );
    let mut outbox = outbox.lock().await;
    let push = |delivery: Delivery| {
        if queues.push(queue_of(&delivery), delivery).is_err() {
            tracing::error!("a Discord channel's queue is full; a message was dropped");
        }
    };
    loop {
        tokio::select! {
            delivery = outbox.recv() => match delivery {
                Some(delivery) => push(delivery),
                None => break,
            },
            _ = stop.wait_for(|stopping| *stopping) => {
                while let Ok(delivery) = outbox.try_recv() {
                    push(delivery);
                }
                break;
            }
        }
    }
    queues.finish().await;
}

/// The queue of a delivery: its channel, or the person it is for.
fn queue_of(delivery: &Delivery) -> String {
    match &delivery.target {
        crate::api::Target::Chat(chat) | crate::api::Target::DeleteRequest(chat) => {
            format!("channel:{}", chat.id)
        }
        crate::api::Target::Private(user) | crate::api::Target::Ephemeral(user) => {
            format!("user:{}", user.id)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_ranges_read_as_first_last_and_total() {
        assert_eq!(parse_shards("0-3/8"), Ok((0, 3, 8)));
        assert_eq!(parse_shards(" 2/4 "), Ok((2, 2, 4)));
        for wrong in ["", "4", "3-1/8", "0-8/8", "0-1/0", "a-b/c", "1/1"] {
            assert!(parse_shards(wrong).is_err(), "{wrong}");
        }
    }

    #[test]
    fn every_builtin_variant_is_offered_with_english_and_russian_names() {
        let registry = kodex_engine::Registry::builtin();
        let choices = variant_choices(&registry);
        assert_eq!(choices.len(), registry.all().len());
        let chess = choices
            .iter()
            .find(|choice| choice.id == "chess")
            .expect("chess");
        assert_eq!(chess.name("en-US"), chess.name_en);
        assert_eq!(chess.name("ru"), chess.name_ru);
        assert!(choices
            .iter()
            .all(|c| !c.name_en.is_empty() && !c.name_ru.is_empty()));
    }

    fn options(pairs: &[(&str, &str)]) -> Result<DiscordConfig, String> {
        let env: std::collections::HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        DiscordConfig::new("token", Vec::new()).with_options_from(&|name| env.get(name).cloned())
    }

    #[test]
    fn options_from_the_environment_are_read_and_bad_values_named() {
        let plain = options(&[]).expect("no options");
        assert_eq!(plain.dev_guild, None);
        assert!(!plain.disable_rate_limiter && plain.api_base.is_none());
        let set = options(&[
            ("KODEX_DISCORD_GUILD", " 123456789012345678 "),
            ("KODEX_DISCORD_API_URL", "http://127.0.0.1:3000"),
            ("KODEX_DISCORD_RATE_LIMITER", "off"),
        ])
        .expect("valid options");
        assert_eq!(set.dev_guild, Some(123_456_789_012_345_678));
        assert_eq!(set.api_base.as_deref(), Some("http://127.0.0.1:3000"));
        assert!(set.disable_rate_limiter);
        // Behind a proxy serenity's limiter would bypass it: off by default,
        // and refused when asked for.
        let proxied =
            options(&[("KODEX_DISCORD_API_URL", "http://127.0.0.1:3000")]).expect("a proxy alone");
        assert!(proxied.disable_rate_limiter);
        let auto = options(&[("KODEX_DISCORD_RATE_LIMITER", "auto")]).expect("auto");
        assert!(!auto.disable_rate_limiter, "no proxy: serenity limits");
        let both = options(&[
            ("KODEX_DISCORD_API_URL", "http://127.0.0.1:3000"),
            ("KODEX_DISCORD_RATE_LIMITER", "on"),
        ]);
        assert!(both.is_err_and(|error| error.contains("past the proxy")));
        let empty = options(&[("KODEX_DISCORD_GUILD", "")]).expect("empty is unset");
        assert_eq!(empty.dev_guild, None);
        for (pairs, named) in [
            (
                &[("KODEX_DISCORD_GUILD", "my server")][..],
                "KODEX_DISCORD_GUILD",
            ),
            (
                &[("KODEX_DISCORD_API_URL", "discord.com")][..],
                "KODEX_DISCORD_API_URL",
            ),
            (
                &[("KODEX_DISCORD_RATE_LIMITER", "off")][..],
                "KODEX_DISCORD_API_URL",
            ),
            (
                &[("KODEX_DISCORD_RATE_LIMITER", "maybe")][..],
                "KODEX_DISCORD_RATE_LIMITER",
            ),
        ] {
            let error = options(pairs).expect_err("a bad value");
            assert!(error.contains(named), "{error}");
        }
    }
}
