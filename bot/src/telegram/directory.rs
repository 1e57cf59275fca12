//! What the adapter remembers about people it has seen: ids behind @usernames,
//! their language, the group they last played in, and which deep links are
//! waiting for them. In memory only: after a restart a player who had not
//! started the bot simply gets a fresh deep link.

use std::collections::{HashMap, HashSet};
use std::sync::{Mutex, MutexGuard};

use teloxide::types::{ChatId, User, UserId};

use crate::api::UserRef;

#[derive(Default)]
struct Memory {
    ids_by_username: HashMap<String, UserId>,
    locales: HashMap<UserId, String>,
    last_group: HashMap<UserId, ChatId>,
    /// Deep links already posted and not yet followed: one per player and payload.
    posted_links: HashSet<(UserId, String)>,
    /// People who wrote in their private chat since their last refused message.
    opened_private: HashSet<UserId>,
}

/// The adapter's memory of people, shared by the update loop and the couriers.
#[derive(Default)]
pub(super) struct Directory {
    memory: Mutex<Memory>,
}

impl Directory {
    fn memory(&self) -> MutexGuard<'_, Memory> {
        // A panic while holding the lock cannot leave the maps inconsistent
        // (each update is one insert), so a poisoned lock is still usable.
        self.memory
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Notes a person who wrote in `chat` (a group, or their private chat).
    pub fn remember(&self, user: &User, chat: ChatId, chat_is_private: bool) {
        let mut memory = self.memory();
        if let Some(username) = &user.username {
            memory
                .ids_by_username
                .insert(username.to_lowercase(), user.id);
        }
        if let Some(code) = &user.language_code {
            memory.locales.insert(user.id, code.clone());
        }
        if chat_is_private {
            memory.opened_private.insert(user.id);
        } else {
            memory.last_group.insert(user.id, chat);
        }
    }

    /// The Telegram id of a person: the numeric id the service got from us, or
    /// one learnt for an `@username` typed in `/play`.
    pub fn user_id(&self, user: &UserRef) -> Option<UserId> {
        if let Ok(id) = user.id.parse::<u64>() {
            return Some(UserId(id));
        }
        let username = user.id.trim_start_matches('@').to_lowercase();
        self.memory().ids_by_username.get(&username).copied()
    }

    /// The known id behind a username, if that person has written where the bot reads.
    pub fn id_for_username(&self, username: &str) -> Option<UserId> {
        self.memory()
            .ids_by_username
            .get(&username.to_lowercase())
            .copied()
    }

    /// The person's Telegram language code, if seen.
    pub fn locale(&self, user: UserId) -> Option<String> {
        self.memory().locales.get(&user).cloned()
    }

    /// The group the person last wrote in, for deep links from the outbox.
    pub fn last_group(&self, user: UserId) -> Option<ChatId> {
        self.memory().last_group.get(&user).copied()
    }

    /// Records that a deep link was posted; `false` if it already was and the
    /// player has not followed it yet (so the group is not spammed every turn).
    pub fn mark_link_posted(&self, user: UserId, payload: &str) -> bool {
        self.memory()
            .posted_links
            .insert((user, payload.to_owned()))
    }

    /// Whether the person wrote in their private chat since the last time
    /// this was asked: a message refused just before they pressed Start
    /// needs no new link (the `/start` itself brings their board).
    pub fn take_opened_private(&self, user: UserId) -> bool {
        self.memory().opened_private.remove(&user)
    }

    /// The player opened the private chat: their links are no longer pending.
    pub fn forget_links(&self, user: UserId) {
        self.memory().posted_links.retain(|(id, _)| *id != user);
    }
}
