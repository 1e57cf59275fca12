//! Running the platforms a configuration names, side by side on one game
//! service: what `kodex` does when a Discord or Telegram token is set.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;

use crate::api::{
    ActivityWatcher, Handler, HandlerFuture, Platform, Reader, Request, SuggestionFuture,
    SuggestionRequest, TextFuture,
};
use crate::config::Config;
use crate::Service;

/// Why the platforms stopped.
pub type AppError = Box<dyn std::error::Error + Send + Sync>;

/// How long a stop waits for requests the service is still handling.
const IN_FLIGHT_GRACE: Duration = Duration::from_secs(20);

/// Starts every platform whose token `config` holds (Telegram, Discord, or
/// both at once) in front of `service`, and runs until one of them fails.
/// The adapters' optional settings (`KODEX_TELEGRAM_API_URL`,
/// `KODEX_DISCORD_GUILD`, …) come from `env` (the process environment in
/// production) and, where it has none, from `config`'s file.
pub async fn run_platforms(
    service: &Service,
    config: &Config,
    env: &(dyn Fn(&str) -> Option<String> + Sync),
) -> Result<(), AppError> {
    run_platforms_until(service, config, env, std::future::pending()).await
}

/// Like [`run_platforms`], but stops cleanly when `stop` completes (SIGTERM,
/// Ctrl-C): no new updates are taken, Telegram is told which updates were
/// handled, the updates already taken are handled and what they answered
/// is sent, and requests still inside the service are waited for.
pub async fn run_platforms_until(
    service: &Service,
    config: &Config,
    env: &(dyn Fn(&str) -> Option<String> + Sync),
    stop: impl Future<Output = ()> + Send,
) -> Result<(), AppError> {
    let env = |name: &str| env(name).or_else(|| config.adapter_setting(name));
    let env = &env;
    let (stopping, stopped) = watch::channel(false);
    let stop_signal = move || {
        let mut stopped = stopped.clone();
        async move {
            let _ = stopped.wait_for(|stop| *stop).await;
        }
    };
    let mut platforms = tokio::task::JoinSet::new();
    let in_flight = platform_handler(service);
    let handler: Arc<dyn Handler> = in_flight.clone();
    if let Some(token) = config.telegram.token() {
        let mut telegram = crate::telegram::TelegramConfig::new(token)
            .with_options_from(env)?
            .with_variants_of(service.registry());
        telegram.store = Some(service.store().clone());
        let outbox = service.outbox(Platform::Telegram);
        let handler = handler.clone();
        let stop = stop_signal();
        platforms.spawn(async move {
            crate::telegram::run_until(telegram, handler, outbox, stop)
                .await
                .map_err(|e| format!("telegram: {e}"))
        });
        tracing::info!("telegram adapter started");
    }
    if let Some(token) = config.discord.token() {
        let mut discord = crate::discord::DiscordConfig::new(
            token,
            crate::discord::variant_choices(service.registry()),
        )
        .with_options_from(env)?;
        discord.game_threads = config.discord.threads;
        let outbox = service.outbox(Platform::Discord);
        let handler = handler.clone();
        let stop = stop_signal();
        platforms.spawn(async move {
            crate::discord::run_until(discord, handler, outbox, stop)
                .await
                .map_err(|e| format!("discord: {e}"))
        });
        tracing::info!("discord adapter started");
    }
    if platforms.is_empty() {
        return Err("no platform token is set; run `kodex console`".into());
    }
    tokio::pin!(stop);
    let mut result = Ok(());
    loop {
        let finished = tokio::select! {
            finished = platforms.join_next() => finished,
            () = &mut stop, if !*stopping.borrow() => {
                tracing::info!("stopping: no new updates, finishing the ones taken");
                stopping.send_replace(true);
                continue;
            }
        };
        let failure: Option<AppError> = match finished {
            None => break,
            Some(Ok(Ok(()))) => None,
            Some(Ok(Err(e))) => Some(e.into()),
            Some(Err(e)) => Some(format!("a platform task failed: {e}").into()),
        };
        if let Some(failure) = failure {
            // One platform failed: the others stop cleanly too.
            stopping.send_replace(true);
            if result.is_ok() {
                result = Err(failure);
            }
        }
    }
    if !in_flight.settled(IN_FLIGHT_GRACE).await {
        tracing::warn!("stopped with requests still being handled");
    }
    result
}

/// What the platforms of `kodex run` talk to: `service` behind the request
/// counter a clean stop waits on. Tests of the adapters start them on this,
/// so they test the wiring the binary runs.
pub fn platform_handler(service: &Service) -> Arc<InFlight> {
    Arc::new(InFlight::new(Arc::new(service.clone())))
}

/// A handler counting the requests it is handling, so a stop can wait for
/// them; every [`Handler`] method goes to the handler behind it.
pub struct InFlight {
    service: Arc<dyn Handler>,
    count: Arc<watch::Sender<usize>>,
}

impl InFlight {
    fn new(service: Arc<dyn Handler>) -> Self {
        InFlight {
            service,
            count: Arc::new(watch::channel(0).0),
        }
    }

    /// Waits until no request is being handled, at most `grace`; false if
    /// some still were.
    pub async fn settled(&self, grace: Duration) -> bool {
        let mut count = self.count.subscribe();
        let idle = tokio::time::timeout(grace, count.wait_for(|count| *count == 0)).await;
        idle.is_ok()
    }

    /// Counts one request until the returned guard is dropped.
    fn count(&self) -> Counted {
        self.count.send_modify(|count| *count += 1);
        Counted(Arc::clone(&self.count))
    }
}

/// Counts one request until dropped (also when its future is dropped).
struct Counted(Arc<watch::Sender<usize>>);

impl Drop for Counted {
    fn drop(&mut self) {
        self.0.send_modify(|count| *count = count.saturating_sub(1));
    }
}

impl Handler for InFlight {
    fn handle(&self, request: Request) -> HandlerFuture<'_> {
        let counted = self.count();
        Box::pin(async move {
            let deliveries = self.service.handle(request).await;
            drop(counted);
            deliveries
        })
    }

    fn handle_watched(&self, request: Request, watcher: ActivityWatcher) -> HandlerFuture<'_> {
        let counted = self.count();
        Box::pin(async move {
            let deliveries = self.service.handle_watched(request, watcher).await;
            drop(counted);
            deliveries
        })
    }

    fn text(
        &self,
        reader: Reader,
        key: &'static str,
        args: Vec<(&'static str, String)>,
    ) -> TextFuture<'_> {
        self.service.text(reader, key, args)
    }

    fn suggest(&self, request: SuggestionRequest) -> SuggestionFuture<'_> {
        self.service.suggest(request)
    }

    fn introduce(&self, platform: crate::api::Platform, handle: &str) {
        self.service.introduce(platform, handle);
    }
}
