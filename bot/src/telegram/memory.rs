//! The adapter's records in the database (the store's `adapter_memory` table,
//! platform `"telegram"`), so a restart forgets nobody: loaded once at start,
//! then written through by one task in the order the changes were made — a
//! record remembered and then forgotten never ends up stored.
//!
//! Without a store every call is a no-op and the adapter keeps its memory in
//! process only, as in tests of the adapter alone.

use tokio::sync::mpsc::{unbounded_channel, UnboundedSender};
use tokio::sync::oneshot;

use crate::store::Store;
use crate::time::{Millis, SystemTime, TimeSource as _};

/// The `platform` column of every record.
const PLATFORM: &str = "telegram";
/// A day in milliseconds.
pub(super) const DAY: Millis = 24 * 60 * 60 * 1000;

/// One change, in the order it was made.
enum Change {
    Remember {
        kind: &'static str,
        key: String,
        value: String,
        at: Millis,
    },
    Forget {
        kind: &'static str,
        key: String,
    },
    /// Answered once every change queued before it is stored.
    Flush(oneshot::Sender<()>),
}

/// The write-through side: cheap to call while holding an in-memory lock (it
/// only queues), so the order of calls is the order of writes.
#[derive(Clone, Default)]
pub(super) struct Journal {
    changes: Option<UnboundedSender<Change>>,
}

impl Journal {
    /// A journal writing to `store` through one background task, or one that
    /// writes nothing without a store.
    pub fn new(store: Option<Store>) -> Self {
        let Some(store) = store else {
            return Journal::default();
        };
        let (changes, mut queue) = unbounded_channel();
        tokio::spawn(async move {
            while let Some(change) = queue.recv().await {
                let result = match change {
                    Change::Remember {
                        kind,
                        key,
                        value,
                        at,
                    } => store.remember(PLATFORM, kind, &key, &value, at).await,
                    Change::Forget { kind, key } => store.forget(PLATFORM, kind, &key).await,
                    Change::Flush(done) => {
                        let _ = done.send(());
                        Ok(())
                    }
                };
                if let Err(error) = result {
                    // Only a restart's memory is at stake; the adapter goes on.
                    tracing::warn!(%error, "could not store the Telegram adapter's memory");
                }
            }
        });
        Journal {
            changes: Some(changes),
        }
    }

    /// Stores (or replaces) record `kind`/`key`.
    pub fn remember(&self, kind: &'static str, key: String, value: String) {
        self.send(Change::Remember {
            kind,
            key,
            value,
            at: SystemTime.now(),
        });
    }

    /// Forgets record `kind`/`key`.
    pub fn forget(&self, kind: &'static str, key: String) {
        self.send(Change::Forget { kind, key });
    }

    /// Waits until every change made so far is stored (before a shutdown).
    pub async fn flush(&self) {
        let (done, stored) = oneshot::channel();
        self.send(Change::Flush(done));
        let _ = stored.await;
    }

    fn send(&self, change: Change) {
        if let Some(changes) = &self.changes {
            // The writer only stops with the runtime; nothing to do then.
            let _ = changes.send(change);
        }
    }
}

/// Reads every record of `kind` (oldest first) after forgetting those not
/// written for `kept_days`; nothing without a store or when the database fails.
pub(super) async fn load(
    store: Option<&Store>,
    kind: &str,
    kept_days: i64,
) -> Vec<(String, String)> {
    let Some(store) = store else {
        return Vec::new();
    };
    let cutoff = SystemTime.now() - kept_days * DAY;
    if let Err(error) = store.forget_older(PLATFORM, kind, cutoff).await {
        tracing::warn!(%error, kind, "could not forget old Telegram adapter records");
    }
    match store.recall_all(PLATFORM, kind).await {
        Ok(records) => records,
        Err(error) => {
            tracing::warn!(%error, kind, "could not load the Telegram adapter's memory");
            Vec::new()
        }
    }
}

/// One record, if stored (`None` also when the database fails).
pub(super) async fn recall(store: Option<&Store>, kind: &str, key: &str) -> Option<String> {
    match store?.recall(PLATFORM, kind, key).await {
        Ok(value) => value,
        Err(error) => {
            tracing::warn!(%error, kind, "could not load the Telegram adapter's memory");
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn changes_are_stored_in_the_order_they_were_made() {
        let folder = std::env::temp_dir().join(format!(
            "kodex-telegram-journal-{}-{}",
            std::process::id(),
            fastrand::u64(..)
        ));
        std::fs::create_dir_all(&folder).expect("a temporary folder");
        let url = format!("sqlite://{}", folder.join("kodex.db").display());
        let store = Store::open(&url).await.expect("the database opens");
        let journal = Journal::new(Some(store.clone()));
        for round in 0..50 {
            journal.remember("link", "bob".into(), round.to_string());
            journal.forget("link", "bob".into());
            journal.remember("link", "carol".into(), round.to_string());
        }
        journal.flush().await;
        let stored = load(Some(&store), "link", 30).await;
        assert_eq!(stored, vec![("carol".to_owned(), "49".to_owned())]);
        assert_eq!(recall(Some(&store), "link", "bob").await, None);
        assert!(load(None, "link", 30).await.is_empty());
        let _ = std::fs::remove_dir_all(folder);
    }
}
