//! The computer's searches as shared work (`computer_jobs`; see
//! `migrations/0018_computer_jobs.sql`): asked for by whichever process
//! saw the game change, claimed by one free searcher of any process on the
//! database, decided, and played once.
//!
//! Every step is one conditional statement, so that processes racing for
//! a job never both get it: a claim holds only if the job is still waiting
//! (unclaimed, or its claim ran out), a decision is kept only by the
//! claimer of the same state, and a decision is taken (deleted) by one
//! process only.

use super::db::{on_pool, Dialect};
use super::{Store, StoreError};

/// A job claimed for searching.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ClaimedJob {
    /// The game's platform key.
    pub platform: String,
    /// The game.
    pub game_id: String,
    /// The game's state when the search was asked for.
    pub state: i64,
}

/// A decision that waits to be played.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct DecidedJob {
    /// The game's platform key.
    pub platform: String,
    /// The game.
    pub game_id: String,
    /// The game's state the decision is for.
    pub state: i64,
    /// What the search chose (the service's own text form).
    pub decision: String,
}

/// How many waiting jobs a claim looks at before giving up on a race.
const CLAIM_CANDIDATES: i64 = 8;

impl Store {
    /// Asks for a search of game `game` in `state`. With `claim` (a
    /// searcher's name and how long its claim lasts, until that time in
    /// ms) the asking process takes the job at once if nobody searches that
    /// state now; `true` when it did. A job of an older state is replaced
    /// (that search is not wanted any more); one of the same state already
    /// decided, or claimed by a live claim, is left as it is.
    pub async fn want_search(
        &self,
        platform: &str,
        game: &str,
        state: i64,
        now: i64,
        claim: Option<(&str, i64)>,
    ) -> Result<bool, StoreError> {
        let (by, until) = match claim {
            Some((by, until)) => (Some(by.to_owned()), Some(until)),
            None => (None, None),
        };
        let changed = on_pool!(&self.writer, db => sqlx::query(db.sql(
            "INSERT INTO computer_jobs (platform, game_id, state, created_at, claimed_by, \
             claimed_until, decision) VALUES (?, ?, ?, ?, ?, ?, NULL) \
             ON CONFLICT (platform, game_id) DO UPDATE SET state = excluded.state, \
             created_at = excluded.created_at, claimed_by = excluded.claimed_by, \
             claimed_until = excluded.claimed_until, decision = NULL \
             WHERE computer_jobs.state <> excluded.state \
             OR (excluded.claimed_by IS NOT NULL AND computer_jobs.decision IS NULL \
             AND (computer_jobs.claimed_until IS NULL OR computer_jobs.claimed_until < ?))",
        ))
        .bind(platform.to_owned())
        .bind(game.to_owned())
        .bind(state)
        .bind(now)
        .bind(by.clone())
        .bind(until)
        .bind(now)
        .execute(db)
        .await?
        .rows_affected());
        Ok(changed == 1 && by.is_some())
    }

    /// Claims the oldest waiting job (none decided, no live claim) for the
    /// searcher `by` until `until` (ms); `None` when none waits.
    pub async fn claim_search(
        &self,
        by: &str,
        now: i64,
        until: i64,
    ) -> Result<Option<ClaimedJob>, StoreError> {
        let waiting = on_pool!(&self.pool, db => sqlx::query_as::<_, (String, String, i64)>(db.sql(
            "SELECT platform, game_id, state FROM computer_jobs \
             WHERE decision IS NULL AND (claimed_until IS NULL OR claimed_until < ?) \
             ORDER BY created_at LIMIT ?",
        ))
        .bind(now)
        .bind(CLAIM_CANDIDATES)
        .fetch_all(db)
        .await?);
        for (platform, game_id, state) in waiting {
            let claimed = on_pool!(&self.writer, db => sqlx::query(db.sql(
                "UPDATE computer_jobs SET claimed_by = ?, claimed_until = ? \
                 WHERE platform = ? AND game_id = ? AND state = ? AND decision IS NULL \
                 AND (claimed_until IS NULL OR claimed_until < ?)",
            ))
            .bind(by.to_owned())
            .bind(until)
            .bind(platform.clone())
            .bind(game_id.clone())
            .bind(state)
            .bind(now)
            .execute(db)
            .await?
            .rows_affected());
            if claimed == 1 {
                return Ok(Some(ClaimedJob {
                    platform,
                    game_id,
                    state,
                }));
            }
        }
        Ok(None)
    }

    /// Makes `by`'s claim of `job` last until `until` (ms): its search goes
    /// on. `false` when the claim is not `by`'s any more.
    pub async fn renew_search(
        &self,
        job: &ClaimedJob,
        by: &str,
        until: i64,
    ) -> Result<bool, StoreError> {
        self.on_claim(job, by, None, Some(until)).await
    }

    /// Gives back every claim of `by` (a process that stops cleanly): the
    /// next free searcher takes those jobs at once.
    pub async fn release_searches(&self, by: &str) -> Result<u64, StoreError> {
        Ok(on_pool!(&self.writer, db => sqlx::query(db.sql(
            "UPDATE computer_jobs SET claimed_by = NULL, claimed_until = NULL \
             WHERE claimed_by = ? AND decision IS NULL",
        ))
        .bind(by.to_owned())
        .execute(db)
        .await?
        .rows_affected()))
    }

    /// Keeps `decision` for the job `job`, if `by` still holds its claim
    /// (the game did not move on meanwhile); `true` when it was kept.
    pub async fn decided(
        &self,
        job: &ClaimedJob,
        by: &str,
        decision: &str,
    ) -> Result<bool, StoreError> {
        self.on_claim(job, by, Some(decision), None).await
    }

    /// While `by` holds the claim of `job`: with a `decision`, keeps it and
    /// ends the claim; without, makes the claim last until `until`.
    async fn on_claim(
        &self,
        job: &ClaimedJob,
        by: &str,
        decision: Option<&str>,
        until: Option<i64>,
    ) -> Result<bool, StoreError> {
        let claimer = decision.is_none().then(|| by.to_owned());
        let changed = on_pool!(&self.writer, db => sqlx::query(db.sql(
            "UPDATE computer_jobs SET decision = ?, claimed_by = ?, claimed_until = ? \
             WHERE platform = ? AND game_id = ? AND state = ? AND claimed_by = ?",
        ))
        .bind(decision.map(str::to_owned))
        .bind(claimer.clone())
        .bind(until)
        .bind(job.platform.clone())
        .bind(job.game_id.clone())
        .bind(job.state)
        .bind(by.to_owned())
        .execute(db)
        .await?
        .rows_affected());
        Ok(changed == 1)
    }

    /// The decisions waiting to be played on `platform`, oldest first (at
    /// most `limit`); each is played by whoever [`Store::drop_search`]s it
    /// first.
    pub async fn decisions(
        &self,
        platform: &str,
        limit: i64,
    ) -> Result<Vec<DecidedJob>, StoreError> {
        let rows = on_pool!(&self.pool, db => sqlx::query_as::<_, (String, String, i64, String)>(db.sql(
            "SELECT platform, game_id, state, decision FROM computer_jobs \
             WHERE platform = ? AND decision IS NOT NULL ORDER BY created_at LIMIT ?",
        ))
        .bind(platform.to_owned())
        .bind(limit)
        .fetch_all(db)
        .await?);
        Ok(rows
            .into_iter()
            .map(|(platform, game_id, state, decision)| DecidedJob {
                platform,
                game_id,
                state,
                decision,
            })
            .collect())
    }

    /// Removes the job of `game` in `state` (any state for `None`): it was
    /// played, or is not wanted any more. `true` when this call removed it
    /// (of racing processes, one only).
    pub async fn drop_search(
        &self,
        platform: &str,
        game: &str,
        state: Option<i64>,
    ) -> Result<bool, StoreError> {
        let removed = on_pool!(&self.writer, db => sqlx::query(db.sql(
            "DELETE FROM computer_jobs WHERE platform = ? AND game_id = ? \
             AND (? IS NULL OR state = ?)",
        ))
        .bind(platform.to_owned())
        .bind(game.to_owned())
        .bind(state)
        .bind(state)
        .execute(db)
        .await?
        .rows_affected());
        Ok(removed == 1)
    }

    /// How many jobs there are: waiting, claimed and decided (for tests
    /// and the logs).
    pub async fn search_counts(&self, now: i64) -> Result<(i64, i64, i64), StoreError> {
        let counts = on_pool!(&self.pool, db => sqlx::query_as::<_, (i64, i64, i64)>(db.sql(
            "SELECT \
             CAST(COALESCE(SUM(CASE WHEN decision IS NULL AND (claimed_until IS NULL \
             OR claimed_until < ?) THEN 1 ELSE 0 END), 0) AS BIGINT), \
             CAST(COALESCE(SUM(CASE WHEN decision IS NULL AND claimed_until >= ? \
             THEN 1 ELSE 0 END), 0) AS BIGINT), \
             CAST(COALESCE(SUM(CASE WHEN decision IS NOT NULL THEN 1 ELSE 0 END), 0) AS BIGINT) \
             FROM computer_jobs",
        ))
        .bind(now)
        .bind(now)
        .fetch_one(db)
        .await?);
        Ok(counts)
    }

    /// The searchers holding a live claim at `now`, one per search they
    /// are making (`<pid>-<origin>`: which process searches what).
    pub async fn search_claimants(&self, now: i64) -> Result<Vec<String>, StoreError> {
        let claimants = on_pool!(&self.pool, db => sqlx::query_as::<_, (String,)>(db.sql(
            "SELECT claimed_by FROM computer_jobs WHERE decision IS NULL \
             AND claimed_by IS NOT NULL AND claimed_until >= ? ORDER BY claimed_by",
        ))
        .bind(now)
        .fetch_all(db)
        .await?);
        Ok(claimants.into_iter().map(|(by,)| by).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::tests::test_urls;

    #[tokio::test]
    async fn a_job_is_claimed_once_decided_by_its_claimer_and_taken_once() {
        for url in test_urls("jobs").await {
            let store = Store::open(&url).await.expect("opens");
            // Asked for without a claim: it waits.
            assert!(!store
                .want_search("console", "g1", 7, 1_000, None)
                .await
                .unwrap());
            assert_eq!(store.search_counts(1_000).await.unwrap(), (1, 0, 0));
            let job = store
                .claim_search("w1", 1_001, 5_000)
                .await
                .unwrap()
                .expect("claimed");
            assert_eq!((job.game_id.as_str(), job.state), ("g1", 7));
            assert_eq!(store.search_claimants(1_001).await.unwrap(), ["w1"]);
            assert!(store.search_claimants(5_001).await.unwrap().is_empty());
            // A second searcher finds nothing while the claim lives, and
            // asking again for the same state does not take it away.
            assert_eq!(store.claim_search("w2", 1_002, 5_000).await.unwrap(), None);
            assert!(!store
                .want_search("console", "g1", 7, 1_003, Some(("w2", 6_000)))
                .await
                .unwrap());
            // Only the claimer's decision is kept.
            assert!(!store.decided(&job, "w2", "m 1 e7e5").await.unwrap());
            assert!(store.decided(&job, "w1", "m 1 e7e5").await.unwrap());
            assert_eq!(store.search_counts(1_004).await.unwrap(), (0, 0, 1));
            let decided = store.decisions("console", 10).await.unwrap();
            assert_eq!(decided.len(), 1);
            assert_eq!(decided[0].decision, "m 1 e7e5");
            assert!(store.decisions("telegram", 10).await.unwrap().is_empty());
            // Taken by one process only.
            assert!(store.drop_search("console", "g1", Some(7)).await.unwrap());
            assert!(!store.drop_search("console", "g1", Some(7)).await.unwrap());
            assert_eq!(store.search_counts(1_005).await.unwrap(), (0, 0, 0));
            store.close().await;
        }
    }

    #[tokio::test]
    async fn a_claim_that_ran_out_is_taken_again_and_a_newer_state_replaces_the_job() {
        for url in test_urls("jobs-expiry").await {
            let store = Store::open(&url).await.expect("opens");
            // Claimed at once by the process that asked.
            assert!(store
                .want_search("console", "g2", 3, 1_000, Some(("w1", 2_000)))
                .await
                .unwrap());
            assert_eq!(store.claim_search("w2", 1_500, 9_000).await.unwrap(), None);
            // w1 died: after its claim ran out, w2 takes the job.
            let job = store
                .claim_search("w2", 2_001, 9_000)
                .await
                .unwrap()
                .expect("taken again");
            assert_eq!(job.state, 3);
            // w1's late decision is not kept; w2's is.
            let stale = ClaimedJob {
                state: 3,
                ..job.clone()
            };
            assert!(!store.decided(&stale, "w1", "r 1").await.unwrap());
            // The game moved on (a takeback): the job of state 3 is replaced,
            // and w2's decision for state 3 is not kept.
            assert!(!store
                .want_search("console", "g2", 4, 2_100, None)
                .await
                .unwrap());
            assert!(!store.decided(&job, "w2", "r 1").await.unwrap());
            let newer = store
                .claim_search("w3", 2_200, 9_000)
                .await
                .unwrap()
                .expect("the newer state waits");
            assert_eq!(newer.state, 4);
            // A job dropped whatever its state.
            assert!(store.drop_search("console", "g2", None).await.unwrap());
            assert_eq!(store.search_counts(2_300).await.unwrap(), (0, 0, 0));
            store.close().await;
        }
    }
}
