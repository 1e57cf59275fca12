//! What processes sharing one database tell each other: a language chosen
//! or a person seen in another chat through one process clears what the
//! others keep of it in memory (PostgreSQL's `LISTEN`/`NOTIFY`, see
//! [`crate::store::Store::listen_changes`]; nothing to tell on SQLite).

use super::lang::LangOwner;
use super::service::{Inner, Service};
use std::sync::Weak;

/// Something a process keeps in memory that changed in the database.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) enum Change {
    /// A user's or chat's language choice (`/lang`).
    Lang(LangOwner, String, String),
    /// Where a person (platform, user id) last wrote.
    Presence(String, String),
    /// A search for the computer was asked for or decided (see
    /// `commands/computer/searches.rs`): idle searchers and players of decisions look.
    Searches,
}

impl Change {
    /// The announcement's text (after the announcing service's origin):
    /// fields separated by tabs (ids hold none).
    fn payload(&self) -> String {
        match self {
            Change::Lang(owner, platform, id) => {
                let owner = match owner {
                    LangOwner::User => "user",
                    LangOwner::Chat => "chat",
                };
                format!("lang\t{owner}\t{platform}\t{id}")
            }
            Change::Presence(platform, user) => format!("presence\t{platform}\t{user}"),
            Change::Searches => "searches".to_owned(),
        }
    }

    /// The change an announcement names; `None` for everything (`*`, or
    /// one this version does not know).
    fn parse(payload: &str) -> Option<Change> {
        let fields: Vec<&str> = payload.split('\t').collect();
        match fields.as_slice() {
            ["lang", owner, platform, id] => {
                let owner = match *owner {
                    "user" => LangOwner::User,
                    "chat" => LangOwner::Chat,
                    _ => return None,
                };
                Some(Change::Lang(
                    owner,
                    (*platform).to_owned(),
                    (*id).to_owned(),
                ))
            }
            ["presence", platform, user] => {
                Some(Change::Presence((*platform).to_owned(), (*user).to_owned()))
            }
            ["searches"] => Some(Change::Searches),
            _ => None,
        }
    }
}

/// Forgets what `change` names (everything for `None`) in `inner`'s memory.
fn forget(inner: &Inner, change: Option<Change>) {
    match change {
        Some(Change::Lang(owner, platform, id)) => {
            if let Ok(mut cache) = inner.lang_choices.lock() {
                cache.remove(&(owner, platform, id));
            }
        }
        Some(Change::Presence(platform, user)) => {
            if let Ok(mut cache) = inner.presence.lock() {
                cache.remove(&(platform, user));
            }
        }
        Some(Change::Searches) => {
            inner.searches_wake.notify_one();
            inner.decisions_wake.notify_one();
        }
        None => {
            inner.searches_wake.notify_one();
            inner.decisions_wake.notify_one();
            if let Ok(mut cache) = inner.lang_choices.lock() {
                cache.clear();
            }
            if let Ok(mut cache) = inner.presence.lock() {
                cache.clear();
            }
        }
    }
}

impl Service {
    /// Starts hearing the changes other processes on this database
    /// announce (on PostgreSQL): each clears what it names here. Ends with
    /// the service.
    pub(in crate::service) async fn hear_changes(&self) {
        let mut changes = match self.inner.store.listen_changes().await {
            Ok(Some(changes)) => changes,
            Ok(None) => return,
            Err(e) => {
                tracing::error!(error = %e, "cannot hear other processes' changes");
                return;
            }
        };
        let weak: Weak<Inner> = std::sync::Arc::downgrade(&self.inner);
        tokio::spawn(async move {
            while let Some(payload) = changes.recv().await {
                let Some(inner) = weak.upgrade() else { return };
                // What this service told the others it knows already.
                let (origin, change) = payload.split_once('\t').unwrap_or(("", &payload));
                if origin != inner.origin.to_string() {
                    forget(&inner, Change::parse(change));
                }
            }
        });
    }

    /// Tells the other processes on this database that `change` happened
    /// (a failure only logs: they read it again at their next restart).
    pub(crate) async fn tell_processes(&self, change: Change) {
        let payload = format!("{}\t{}", self.inner.origin, change.payload());
        if let Err(e) = self.inner.store.announce_change(&payload).await {
            tracing::warn!(error = %e, "cannot tell other processes of a change");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn announcements_read_back_and_unknown_ones_mean_everything() {
        for change in [
            Change::Lang(LangOwner::Chat, "telegram".into(), "-100123".into()),
            Change::Lang(LangOwner::User, "discord".into(), "42".into()),
            Change::Presence("console".into(), "bob".into()),
            Change::Searches,
        ] {
            assert_eq!(Change::parse(&change.payload()), Some(change));
        }
        assert_eq!(Change::parse("*"), None);
        assert_eq!(Change::parse("ratings\tconsole"), None);
    }
}
