//! Telegram updates taken through a webhook, claimed by one process each
//! (`telegram_updates`; see `migrations/0019_telegram_updates.sql`).

use super::db::{on_pool, Dialect};
use super::{Store, StoreError};

/// How long a handled update is remembered (ms): far longer than Telegram
/// tries to deliver one.
const KEPT: i64 = 2 * 24 * 3_600_000;

/// What a claim of an update found.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum UpdateClaim {
    /// This process handles it now.
    Mine,
    /// It was handled already (a second delivery).
    Done,
    /// Another process handles it now.
    Busy,
}

impl Store {
    /// Claims update `id` for `by` until `until` (ms): [`UpdateClaim::Mine`]
    /// unless it was handled, or another live claim holds it.
    pub async fn claim_update(
        &self,
        id: i64,
        by: &str,
        now: i64,
        until: i64,
    ) -> Result<UpdateClaim, StoreError> {
        let claimed = on_pool!(&self.writer, db => sqlx::query(db.sql(
            "INSERT INTO telegram_updates (update_id, claimed_by, claimed_until) VALUES (?, ?, ?) \
             ON CONFLICT (update_id) DO UPDATE SET claimed_by = excluded.claimed_by, \
             claimed_until = excluded.claimed_until \
             WHERE telegram_updates.done_at IS NULL AND (telegram_updates.claimed_until IS NULL \
             OR telegram_updates.claimed_until < ?)",
        ))
        .bind(id)
        .bind(by.to_owned())
        .bind(until)
        .bind(now)
        .execute(db)
        .await?
        .rows_affected());
        if claimed == 1 {
            return Ok(UpdateClaim::Mine);
        }
        let done = on_pool!(&self.writer, db => sqlx::query_as::<_, (Option<i64>,)>(db.sql(
            "SELECT done_at FROM telegram_updates WHERE update_id = ?",
        ))
        .bind(id)
        .fetch_optional(db)
        .await?);
        Ok(match done {
            Some((Some(_),)) => UpdateClaim::Done,
            _ => UpdateClaim::Busy,
        })
    }

    /// Extends `by`'s claim of update `id` to `until` (ms) while it is
    /// still being handled; `false` when the claim was lost (it ran out
    /// and another process took the update).
    pub async fn renew_update(&self, id: i64, by: &str, until: i64) -> Result<bool, StoreError> {
        let renewed = on_pool!(&self.writer, db => sqlx::query(db.sql(
            "UPDATE telegram_updates SET claimed_until = ? \
             WHERE update_id = ? AND claimed_by = ? AND done_at IS NULL",
        ))
        .bind(until)
        .bind(id)
        .bind(by.to_owned())
        .execute(db)
        .await?
        .rows_affected());
        Ok(renewed == 1)
    }

    /// Update `id` was handled (`done`) or gave up on (`!done`: the next
    /// delivery takes it again at once). Updates handled long ago are
    /// forgotten now and then.
    pub async fn update_handled(&self, id: i64, done: bool, now: i64) -> Result<(), StoreError> {
        let done_at = done.then_some(now);
        on_pool!(&self.writer, db => sqlx::query(db.sql(
            "UPDATE telegram_updates SET done_at = ?, claimed_by = NULL, claimed_until = NULL \
             WHERE update_id = ?",
        ))
        .bind(done_at)
        .bind(id)
        .execute(db)
        .await?
        .rows_affected());
        if id % 1_000 == 0 {
            on_pool!(&self.writer, db => sqlx::query(db.sql(
                "DELETE FROM telegram_updates WHERE done_at < ?",
            ))
            .bind(now - KEPT)
            .execute(db)
            .await?
            .rows_affected());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::tests::test_urls;

    #[tokio::test]
    async fn an_update_is_handled_by_one_process_once() {
        for url in test_urls("updates").await {
            let store = Store::open(&url).await.expect("opens");
            let claim = |id, by: &'static str, now| {
                let store = store.clone();
                async move { store.claim_update(id, by, now, now + 1_000).await.unwrap() }
            };
            assert_eq!(claim(7, "a", 0).await, UpdateClaim::Mine);
            // A second delivery to another process while the first works.
            assert_eq!(claim(7, "b", 10).await, UpdateClaim::Busy);
            store.update_handled(7, true, 20).await.unwrap();
            assert_eq!(claim(7, "b", 30).await, UpdateClaim::Done);
            // A process that died mid-update: after its claim, another.
            assert_eq!(claim(8, "a", 0).await, UpdateClaim::Mine);
            assert_eq!(claim(8, "b", 1_001).await, UpdateClaim::Mine);
            // One that gave up: the next delivery takes it at once.
            store.update_handled(8, false, 1_002).await.unwrap();
            assert_eq!(claim(8, "c", 1_003).await, UpdateClaim::Mine);
            // A claim renewed while its update is handled keeps it.
            assert!(store.renew_update(8, "c", 5_000).await.unwrap());
            assert_eq!(claim(8, "d", 2_004).await, UpdateClaim::Busy);
            assert!(!store.renew_update(8, "d", 9_000).await.unwrap());
            assert_eq!(claim(8, "d", 5_001).await, UpdateClaim::Mine);
            // Long handled updates are forgotten (at every thousandth).
            store.update_handled(1_000, true, 0).await.unwrap();
            store.update_handled(2_000, true, KEPT + 30).await.unwrap();
            assert_eq!(claim(7, "d", KEPT + 40).await, UpdateClaim::Mine);
            store.close().await;
        }
    }
}
