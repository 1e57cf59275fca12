//! The texts the Discord adapter writes itself (a refused DM, a thread
//! pointer, an error) come from the locale files (`adapter-*` keys) through
//! the handler, in the reader's language: the person's `/lang` (else their
//! Discord locale) for what only they see, the channel's language for what
//! is posted there.

use poise::serenity_prelude::{ChannelId, UserId};

use crate::api::{ChatRef, Handler, Platform, Reader, UserRef};

/// One person, with their Discord locale if known.
pub(crate) fn person(user: UserId, locale: Option<&str>) -> Reader {
    Reader::Person {
        user: UserRef {
            platform: Platform::Discord,
            id: user.to_string(),
            // Not needed to choose a language.
            name: String::new(),
            handle: None,
        },
        locale: locale.map(str::to_owned),
    }
}

/// Everyone in a channel.
pub(crate) fn channel(channel: ChannelId) -> Reader {
    Reader::Chat(ChatRef {
        platform: Platform::Discord,
        id: channel.to_string(),
    })
}

/// The message `key` for `reader`, without arguments.
pub(crate) async fn say(handler: &dyn Handler, reader: Reader, key: &'static str) -> String {
    handler.text(reader, key, Vec::new()).await
}
