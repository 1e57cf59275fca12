//! Kodex's Discord adapter running against a [`FakeDiscord`], for tests.

use std::sync::Arc;

use kodex_bot::api::{Delivery, Handler};
use kodex_bot::discord::{run_until, DiscordConfig, VariantChoice};
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;

use crate::fake_discord::FakeDiscord;

/// A running adapter; [`RunningBot::stop`] disconnects it like a shutdown.
pub struct RunningBot {
    stop: oneshot::Sender<()>,
    task: JoinHandle<Result<(), String>>,
    /// Feeds the adapter's outbox, when [`RunningBot::start`] made it.
    pub outbox: Option<mpsc::UnboundedSender<Delivery>>,
}

impl RunningBot {
    /// The configuration that points the adapter at the fake.
    pub fn config(fake: &FakeDiscord, variants: Vec<VariantChoice>) -> DiscordConfig {
        DiscordConfig {
            token: "fake-token".into(),
            api_base: Some(fake.rest_url().to_string()),
            disable_rate_limiter: true,
            message_content: true,
            variants,
            ..DiscordConfig::default()
        }
    }

    /// Starts the adapter with an outbox of its own (see [`RunningBot::outbox`]).
    pub fn start(
        fake: &FakeDiscord,
        handler: Arc<dyn Handler>,
        variants: Vec<VariantChoice>,
    ) -> RunningBot {
        let (sender, outbox) = mpsc::unbounded_channel();
        let mut bot = RunningBot::start_with_outbox(fake, handler, outbox, variants);
        bot.outbox = Some(sender);
        bot
    }

    /// Starts the adapter on a given outbox (a real service's).
    pub fn start_with_outbox(
        fake: &FakeDiscord,
        handler: Arc<dyn Handler>,
        outbox: mpsc::UnboundedReceiver<Delivery>,
        variants: Vec<VariantChoice>,
    ) -> RunningBot {
        RunningBot::start_configured(RunningBot::config(fake, variants), handler, outbox)
    }

    /// Starts the adapter with a configuration of the test's own (made with
    /// [`RunningBot::config`], then changed).
    pub fn start_configured(
        config: DiscordConfig,
        handler: Arc<dyn Handler>,
        outbox: mpsc::UnboundedReceiver<Delivery>,
    ) -> RunningBot {
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            run_until(config, handler, outbox, async {
                let _ = stopped.await;
            })
            .await
            .map_err(|error| error.to_string())
        });
        RunningBot {
            stop,
            task,
            outbox: None,
        }
    }

    /// Stops the adapter and checks that it stopped cleanly.
    pub async fn stop(self) {
        let _ = self.stop.send(());
        let result = self.task.await.expect("the adapter task does not panic");
        assert!(result.is_ok(), "the adapter stops cleanly: {result:?}");
    }
}
