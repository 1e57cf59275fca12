//! Messages typed in a channel, answered in the order they were typed.
//!
//! Serenity runs the event handler for each gateway event in a task of its
//! own, so two messages typed a moment apart ("e4", then "resign") can
//! reach the handler in either order. Each channel gets a small queue
//! ordered by message id (Discord's ids grow with time): a message waits a
//! few milliseconds for earlier ones still on their way, then the oldest
//! is answered, one at a time. A channel's queue is bounded (a flood beyond
//! it is dropped and logged) and removed as soon as it is empty.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use poise::serenity_prelude::{ChannelId, MessageId};

use super::deliver::Origin;
use super::Answerer;
use crate::api::Request;

/// How many messages one channel may have waiting for an answer.
const PER_CHANNEL: usize = 64;

/// How long the oldest waiting message waits for earlier ones in flight.
const SETTLE: Duration = Duration::from_millis(15);

/// One channel's waiting messages, oldest first.
type Waiting = BTreeMap<MessageId, (Request, Origin)>;

/// The typed messages of every channel.
#[derive(Clone)]
pub(crate) struct TypedMessages {
    channels: Arc<Mutex<HashMap<ChannelId, Waiting>>>,
    answerer: Answerer,
}

/// Why a message was not taken.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Flooded;

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl TypedMessages {
    pub(crate) fn new(answerer: Answerer) -> TypedMessages {
        TypedMessages {
            channels: Arc::new(Mutex::new(HashMap::new())),
            answerer,
        }
    }

    /// Queues a message typed in `channel`; starts answering the channel if
    /// nothing is being answered there.
    pub(crate) fn push(
        &self,
        channel: ChannelId,
        message: MessageId,
        request: Request,
        origin: Origin,
    ) -> Result<(), Flooded> {
        let mut channels = lock(&self.channels);
        let start = !channels.contains_key(&channel);
        let waiting = channels.entry(channel).or_default();
        if waiting.len() >= PER_CHANNEL {
            return Err(Flooded);
        }
        waiting.insert(message, (request, origin));
        if start {
            let this = self.clone();
            tokio::spawn(async move { this.answer_channel(channel).await });
        }
        Ok(())
    }

    /// Answers the channel's messages oldest first until none is left, then
    /// forgets the channel.
    async fn answer_channel(self, channel: ChannelId) {
        loop {
            tokio::time::sleep(SETTLE).await;
            let next = {
                let mut channels = lock(&self.channels);
                let next = channels
                    .get_mut(&channel)
                    .and_then(BTreeMap::pop_first)
                    .map(|(_, job)| job);
                if next.is_none() {
                    channels.remove(&channel);
                }
                next
            };
            let Some((request, origin)) = next else {
                return;
            };
            self.answerer.answer(request, origin).await;
        }
    }

    /// How many channels have messages waiting or being answered.
    fn busy(&self) -> usize {
        lock(&self.channels).len()
    }

    /// Returns once every message taken so far has been answered.
    pub(crate) async fn idle(&self) {
        while self.busy() > 0 {
            tokio::time::sleep(SETTLE).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{Action, ChatRef, Delivery, Handler, HandlerFuture, Platform, UserRef};

    /// Records the text of every request, in the order handled.
    struct Recorder(Mutex<Vec<String>>);

    impl Handler for Recorder {
        fn handle(&self, request: Request) -> HandlerFuture<'_> {
            Box::pin(async move {
                if let Action::Text { text } = request.action {
                    lock(&self.0).push(text);
                }
                Vec::<Delivery>::new()
            })
        }

        fn handle_watched(
            &self,
            request: Request,
            _watcher: crate::api::ActivityWatcher,
        ) -> HandlerFuture<'_> {
            self.handle(request)
        }

        fn text(
            &self,
            reader: crate::api::Reader,
            key: &'static str,
            args: Vec<(&'static str, String)>,
        ) -> crate::api::TextFuture<'_> {
            let text = crate::api::text_without_service(&reader, key, &args);
            Box::pin(async move { text })
        }

        fn suggest(
            &self,
            _request: crate::api::SuggestionRequest,
        ) -> crate::api::SuggestionFuture<'_> {
            Box::pin(async { Vec::new() })
        }
    }

    fn request(text: &str) -> Request {
        Request {
            chat: ChatRef {
                platform: Platform::Discord,
                id: "7".to_owned(),
            },
            private: false,
            actor: UserRef {
                platform: Platform::Discord,
                id: "2".to_owned(),
                name: "alice".to_owned(),
                handle: None,
            },
            locale: None,
            chat_locale: None,
            action: Action::Text {
                text: text.to_owned(),
            },
        }
    }

    #[tokio::test]
    async fn messages_arriving_out_of_order_are_answered_in_id_order_and_the_queue_goes() {
        let recorder = Arc::new(Recorder(Mutex::new(Vec::new())));
        let answerer = Answerer::for_tests(recorder.clone());
        let typed = TypedMessages::new(answerer);
        let channel = ChannelId::new(7);
        // Handed over as the gateway's tasks happened to run: 3, 1, 2.
        for (id, text) in [(3, "third"), (1, "first"), (2, "second")] {
            let origin = Origin::Message {
                channel,
                private: false,
                message: None,
            };
            typed
                .push(channel, MessageId::new(id), request(text), origin)
                .expect("room");
        }
        for _ in 0..200 {
            if typed.busy() == 0 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        assert_eq!(typed.busy(), 0, "an empty channel's queue is removed");
        assert_eq!(*lock(&recorder.0), ["first", "second", "third"]);
    }
}
