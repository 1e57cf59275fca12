//! What the adapter remembers about people it has seen: ids behind @usernames,
//! their language, the group they last played in, and which deep links are
//! waiting for them. Kept in memory for speed and, with a store, in the
//! database ([`Journal`]) so a restart forgets none of it: a `/play @bob`
//! still finds Bob, and a player who has not followed their deep link yet is
//! not sent a second one.

use std::collections::{HashMap, HashSet};
use std::sync::{Mutex, MutexGuard};

use serde::{Deserialize, Serialize};
use teloxide::types::{ChatId, User, UserId};

use super::memory::{self, Journal, DAY};
use crate::api::UserRef;
use crate::store::Store;
use crate::time::{Millis, SystemTime, TimeSource as _};

/// Record kind of a person (key: their user id).
const PEOPLE: &str = "person";
/// Record kind of a posted deep link (key: `<user id>:<payload>`).
const LINKS: &str = "link";
/// People not seen for this long are forgotten at start (a `/play @name`
/// for them still works: the service lets whoever holds the handle accept).
const PEOPLE_KEPT_DAYS: i64 = 365;
/// Deep links older than this are forgotten at start: such a player gets a fresh one.
const LINKS_KEPT_DAYS: i64 = 30;
/// A person's unchanged record is rewritten at most this often, so its age
/// says when they were last seen without a write for every message.
const REFRESH: Millis = DAY;

/// What is stored about a person.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
struct Person {
    /// Their @username, lowercase.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    username: Option<String>,
    /// Their Telegram language code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    locale: Option<String>,
    /// The group they last wrote in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    group: Option<i64>,
}

#[derive(Default)]
struct Memory {
    people: HashMap<UserId, (Person, Millis)>,
    ids_by_username: HashMap<String, UserId>,
    /// Deep links already posted and not yet followed: one per player and payload.
    posted_links: HashSet<(UserId, String)>,
    /// People who wrote in their private chat since their last refused message.
    /// Not stored: it only bridges the moment between pressing Start and a
    /// message refused just before.
    opened_private: HashSet<UserId>,
}

impl Memory {
    fn learn(&mut self, id: UserId, person: Person, written_at: Millis) {
        if let Some(username) = &person.username {
            self.ids_by_username.insert(username.clone(), id);
        }
        self.people.insert(id, (person, written_at));
    }
}

/// The adapter's memory of people, shared by the update loop and the couriers.
#[derive(Default)]
pub(super) struct Directory {
    memory: Mutex<Memory>,
    journal: Journal,
}

impl Directory {
    /// The directory as stored in `store` (empty without one), writing
    /// changes through `journal`.
    pub async fn load(store: Option<&Store>, journal: Journal) -> Self {
        let mut memory = Memory::default();
        // Oldest first: when a username changed hands, its latest holder wins.
        for (key, value) in memory::load(store, PEOPLE, PEOPLE_KEPT_DAYS).await {
            match (key.parse::<u64>(), serde_json::from_str::<Person>(&value)) {
                // Written long enough ago that the next message refreshes it.
                (Ok(id), Ok(person)) => memory.learn(UserId(id), person, 0),
                _ => tracing::warn!("an unreadable person record was skipped"),
            }
        }
        for (key, _) in memory::load(store, LINKS, LINKS_KEPT_DAYS).await {
            match key
                .split_once(':')
                .map(|(id, payload)| (id.parse(), payload))
            {
                Some((Ok(id), payload)) => {
                    memory.posted_links.insert((UserId(id), payload.to_owned()));
                }
                _ => tracing::warn!("an unreadable deep-link record was skipped"),
            }
        }
        Directory {
            memory: Mutex::new(memory),
            journal,
        }
    }

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
        let (before, written_at) = memory.people.get(&user.id).cloned().unwrap_or_default();
        let mut person = before.clone();
        person.username = user.username.as_ref().map(|name| name.to_lowercase());
        if let Some(code) = &user.language_code {
            person.locale = Some(code.clone());
        }
        if chat_is_private {
            memory.opened_private.insert(user.id);
        } else {
            person.group = Some(chat.0);
        }
        // A username given up is no longer this person's.
        if let Some(old) = &before.username {
            if person.username.as_ref() != Some(old)
                && memory.ids_by_username.get(old) == Some(&user.id)
            {
                memory.ids_by_username.remove(old);
            }
        }
        let now = SystemTime.now();
        if person == before && now - written_at < REFRESH {
            return;
        }
        match serde_json::to_string(&person) {
            Ok(value) => self.journal.remember(PEOPLE, user.id.0.to_string(), value),
            Err(error) => tracing::warn!(%error, "could not write a person record"),
        }
        memory.learn(user.id, person, now);
    }

    /// The Telegram id of a person: the numeric id the service got from us, or
    /// one learnt for an `@username` typed in `/play`.
    pub fn user_id(&self, user: &UserRef) -> Option<UserId> {
        if let Ok(id) = user.id.parse::<u64>() {
            return Some(UserId(id));
        }
        self.id_for_username(user.id.trim_start_matches('@'))
    }

    /// The known id behind a username, if that person has written where the bot reads.
    pub fn id_for_username(&self, username: &str) -> Option<UserId> {
        self.memory()
            .ids_by_username
            .get(&username.to_lowercase())
            .copied()
    }

    /// The person's @username (lowercase, without `@`), if they have one.
    pub fn username(&self, user: UserId) -> Option<String> {
        self.memory()
            .people
            .get(&user)
            .and_then(|(person, _)| person.username.clone())
    }

    /// The person's Telegram language code, if seen.
    pub fn locale(&self, user: UserId) -> Option<String> {
        self.memory()
            .people
            .get(&user)
            .and_then(|(person, _)| person.locale.clone())
    }

    /// The group the person last wrote in, for deep links from the outbox.
    pub fn last_group(&self, user: UserId) -> Option<ChatId> {
        self.memory()
            .people
            .get(&user)
            .and_then(|(person, _)| person.group.map(ChatId))
    }

    /// Records that a deep link was posted; `false` if it already was and the
    /// player has not followed it yet (so the group is not spammed every turn).
    pub fn mark_link_posted(&self, user: UserId, payload: &str) -> bool {
        let mut memory = self.memory();
        let fresh = memory.posted_links.insert((user, payload.to_owned()));
        if fresh {
            self.journal
                .remember(LINKS, link_key(user, payload), String::new());
        }
        fresh
    }

    /// Whether the person wrote in their private chat since the last time
    /// this was asked: a message refused just before they pressed Start
    /// needs no new link (the `/start` itself brings their board).
    pub fn take_opened_private(&self, user: UserId) -> bool {
        self.memory().opened_private.remove(&user)
    }

    /// The player opened the private chat: their links are no longer pending.
    pub fn forget_links(&self, user: UserId) {
        let mut memory = self.memory();
        memory.posted_links.retain(|(id, payload)| {
            let theirs = *id == user;
            if theirs {
                self.journal.forget(LINKS, link_key(user, payload));
            }
            !theirs
        });
    }
}

/// The stored key of a posted link. Payloads hold no `:` (Telegram allows
/// only `A-Z a-z 0-9 _ -`), so the key splits back unambiguously.
fn link_key(user: UserId, payload: &str) -> String {
    format!("{}:{payload}", user.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user(id: u64, username: Option<&str>) -> User {
        User {
            id: UserId(id),
            is_bot: false,
            first_name: "Someone".into(),
            last_name: None,
            username: username.map(str::to_owned),
            language_code: Some("ru".into()),
            is_premium: false,
            added_to_attachment_menu: false,
        }
    }

    #[test]
    fn a_username_given_up_no_longer_finds_its_old_holder() {
        let directory = Directory::default();
        directory.remember(&user(1, Some("Bob")), ChatId(-5), false);
        assert_eq!(directory.id_for_username("bob"), Some(UserId(1)));
        assert_eq!(directory.last_group(UserId(1)), Some(ChatId(-5)));
        assert_eq!(directory.locale(UserId(1)).as_deref(), Some("ru"));
        directory.remember(&user(1, Some("robert")), ChatId(1), true);
        assert_eq!(directory.id_for_username("bob"), None);
        assert_eq!(directory.id_for_username("Robert"), Some(UserId(1)));
        assert_eq!(directory.last_group(UserId(1)), Some(ChatId(-5)));
    }

    #[test]
    fn a_link_is_posted_once_until_followed() {
        let directory = Directory::default();
        assert!(directory.mark_link_posted(UserId(1), "b_k3x9"));
        assert!(!directory.mark_link_posted(UserId(1), "b_k3x9"));
        directory.forget_links(UserId(1));
        assert!(directory.mark_link_posted(UserId(1), "b_k3x9"));
    }
}
