//! Running the platforms a configuration names, side by side on one game
//! service: what `kodex` does when a Discord or Telegram token is set.

use std::sync::Arc;

use crate::api::{Handler, Platform};
use crate::config::Config;
use crate::Service;

/// Why the platforms stopped.
pub type AppError = Box<dyn std::error::Error + Send + Sync>;

/// Starts every platform whose token `config` holds (Telegram, Discord, or
/// both at once) in front of `service`, and runs until one of them fails.
/// `env` supplies the adapters' optional settings (`KODEX_TELEGRAM_API_URL`,
/// `KODEX_DISCORD_GUILD`, …): the process environment in production.
pub async fn run_platforms(
    service: &Service,
    config: &Config,
    env: &(dyn Fn(&str) -> Option<String> + Sync),
) -> Result<(), AppError> {
    let mut platforms = tokio::task::JoinSet::new();
    let handler: Arc<dyn Handler> = Arc::new(service.clone());
    if let Some(token) = config.telegram.token() {
        let mut telegram = crate::telegram::TelegramConfig::new(token)
            .with_options_from(env)?
            .with_variants_of(service.registry());
        telegram.store = Some(service.store().clone());
        let outbox = service.outbox(Platform::Telegram);
        let handler = handler.clone();
        platforms.spawn(async move {
            crate::telegram::run(telegram, handler, outbox)
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
        platforms.spawn(async move {
            crate::discord::run(discord, handler, outbox)
                .await
                .map_err(|e| format!("discord: {e}"))
        });
        tracing::info!("discord adapter started");
    }
    if platforms.is_empty() {
        return Err("no platform token is set; run `kodex console`".into());
    }
    while let Some(finished) = platforms.join_next().await {
        match finished {
            Ok(Ok(())) => {}
            Ok(Err(e)) => return Err(e.into()),
            Err(e) => return Err(format!("a platform task failed: {e}").into()),
        }
    }
    Ok(())
}
