//! The texts the Telegram adapter writes itself (a deep link's prompt, the
//! variant picker, an image too large) come from the locale files
//! (`adapter-*` keys) through the handler, in the reader's language: the
//! person's `/lang` (else their Telegram language) for what only they see,
//! the group's language for what is posted there.

use teloxide::types::{ChatId, UserId};

use crate::api::{ChatRef, Handler, Platform, Reader, UserRef};

/// One person, with their Telegram `language_code` if known.
pub(super) fn person(user: UserId, locale: Option<String>) -> Reader {
    Reader::Person {
        user: UserRef {
            platform: Platform::Telegram,
            id: user.0.to_string(),
            // Not needed to choose a language.
            name: String::new(),
            handle: None,
        },
        locale,
    }
}

/// Everyone in a group.
pub(super) fn group(chat: ChatId) -> Reader {
    Reader::Chat(ChatRef {
        platform: Platform::Telegram,
        id: chat.0.to_string(),
    })
}

/// The message `key` for `reader`, without arguments.
pub(super) async fn say(handler: &dyn Handler, reader: Reader, key: &'static str) -> String {
    handler.text(reader, key, Vec::new()).await
}
