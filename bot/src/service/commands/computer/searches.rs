//! The computer's searches as shared work among the processes on one
//! database (`computer_jobs`, see [`crate::store::Store::want_search`]).
//!
//! When a game with a computer seat needs the computer to think (its turn,
//! or its secret setup), the process that saw the change asks for a search
//! in the database, keyed by the game's state. Any process that searches
//! (`kodex run` by default, `kodex worker` only that) claims waiting jobs
//! one at a time per searcher, oldest first, while a searcher of its own is
//! free (see [`Settings::searchers`]): searches never outnumber the cores
//! given to them, and people's moves never wait behind one (each search
//! also runs at the lowest CPU priority, see `kernel/background.rs`).
//!
//! A claim lasts [`LEASE`] and is renewed while the search runs; a process
//! that dies mid-search loses nothing: once its claim has run out the next
//! free searcher takes the job again. A process that serves the game's
//! platform plays the decision itself; a worker writes it down, and a
//! process of that platform plays it (each decision taken by one process
//! only). Whatever plays it, the game's own optimistic version makes the
//! move once; a decision for a state the game has left is never played.
//!
//! [`Settings::searchers`]: crate::service::Settings

use std::sync::{Arc, Weak};
use std::time::Duration;

use super::{Decided, Decision, Step};
use crate::api::Platform;
use crate::service::kernel::changes::Change;
use crate::service::kernel::service::Inner;
use crate::service::kernel::Service;
use crate::store::{ClaimedJob, DecidedJob, GameRow, StoreError};
use kodex_engine::search::PlannedTurn;

/// How long a claim lasts without being renewed (ms).
const LEASE: i64 = 10_000;
/// How often a running search renews its claim.
const RENEW_EVERY: Duration = Duration::from_secs(3);
/// How often an idle searcher, and the player of decisions, look at the
/// database without being woken (jobs asked for by another process on
/// SQLite, claims that ran out).
const POLL: Duration = Duration::from_secs(1);
/// Decisions read at once by the player of decisions.
const DECISIONS_AT_ONCE: i64 = 16;

/// The state of a game a search is for: its record and its status (a
/// takeback or anything else that changes what the computer faces changes
/// it; a clock or an offer does not).
pub(crate) fn state_of(row: &GameRow) -> i64 {
    let text = format!("{}|{:?}", row.moves.as_str(), row.status);
    let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    // The database keeps signed integers.
    hash as i64
}

impl Decided {
    /// The decision written down for another process: `m <seat> <uci>`,
    /// `t <seat> <turn>`, `a <seat> <uci>…`, `r <seat>`, `s <seat>
    /// [placement]`, or `n`. `game` is the game it was decided in.
    fn to_text(&self, game: Option<&kodex_engine::Game>) -> Option<String> {
        Some(match self {
            Decided::Nothing => "n".to_owned(),
            Decided::Play(seat, Decision::Move(mv)) => format!("m {seat} {}", game?.uci(*mv)),
            Decided::Play(seat, Decision::Turn(turn)) => format!("t {seat} {}", turn.text),
            Decided::Play(seat, Decision::Attempts(tries)) => {
                format!("a {seat} {}", tries.join(" "))
            }
            Decided::Play(seat, Decision::Resign) => format!("r {seat}"),
            Decided::Setup(seat, None) => format!("s {seat}"),
            Decided::Setup(seat, Some(placement)) => format!("s {seat} {placement}"),
        })
    }

    /// Reads [`Decided::to_text`] back in `game` (the game in the state it
    /// was decided in; `None` for a setup); `None` for what it cannot read.
    fn parse(text: &str, game: Option<&kodex_engine::Game>) -> Option<Decided> {
        let (kind, rest) = text.split_once(' ').unwrap_or((text, ""));
        if kind == "n" {
            return Some(Decided::Nothing);
        }
        let (seat, rest) = rest.split_once(' ').unwrap_or((rest, ""));
        let seat: usize = seat.parse().ok()?;
        let rest = rest.trim();
        Some(match kind {
            "m" => {
                let game = game?;
                let mv = game
                    .legal_moves()
                    .into_iter()
                    .find(|&mv| game.uci(mv) == rest)?;
                Decided::Play(seat, Decision::Move(mv))
            }
            "t" => {
                let game = game?;
                let (jump, move_text) = rest.split_once(' ')?;
                let request = game.parse_jump(jump).ok()?;
                let mut after = game.clone();
                after.jump(request).ok()?;
                let mv = after.parse_move(move_text).ok()?;
                Decided::Play(
                    seat,
                    Decision::Turn(PlannedTurn {
                        jump: Some(request),
                        mv,
                        text: rest.to_owned(),
                    }),
                )
            }
            "a" => Decided::Play(
                seat,
                Decision::Attempts(rest.split_whitespace().map(str::to_owned).collect()),
            ),
            "r" => Decided::Play(seat, Decision::Resign),
            "s" if rest.is_empty() => Decided::Setup(seat, None),
            "s" => Decided::Setup(seat, Some(rest.to_owned())),
            _ => return None,
        })
    }
}

impl Service {
    /// This process's name in the claims it makes.
    fn searcher_name(&self) -> String {
        format!("{}-{:016x}", std::process::id(), self.inner.origin)
    }

    /// [`Service::serves`] for a platform's key (`"telegram"`).
    pub(in crate::service) fn serves_key(&self, key: &str) -> bool {
        Platform::from_key(key).is_some_and(|platform| self.serves(platform))
    }

    /// Whether deliveries for `platform` have somewhere to go here (an
    /// adapter of it runs in this process).
    fn serves(&self, platform: Platform) -> bool {
        self.inner
            .outboxes
            .lock()
            .is_ok_and(|outboxes| outboxes.contains_key(&platform))
    }

    /// Asks for a search of `row` as it is now: a free searcher here or in
    /// another process takes it.
    pub(crate) async fn ask_search(&self, platform: Platform, row: &GameRow) {
        let state = state_of(row);
        self.inner.thinking.asked(&row.id, state);
        let asked = self
            .inner
            .store
            .want_search(platform.key(), &row.id, state, self.now(), None)
            .await;
        if let Err(e) = asked {
            tracing::error!(error = %e, game = %row.id, "cannot ask for the computer's search");
            self.inner.thinking.answered(&row.id, Some(state));
            return;
        }
        self.inner.searches_wake.notify_one();
        self.tell_processes(Change::Searches).await;
    }

    /// Starts this process's searchers (when it searches) and the player of
    /// decisions written down by other processes. Both end with the service.
    pub(in crate::service) fn spawn_searches(&self) {
        if self.inner.settings.searches {
            for _ in 0..self.inner.settings.searchers.max(1) {
                let weak = Arc::downgrade(&self.inner);
                tokio::spawn(searcher(
                    weak,
                    self.inner.searches_wake.clone(),
                    self.inner.computing.clone(),
                ));
            }
        }
        tokio::spawn(player_of_decisions(
            Arc::downgrade(&self.inner),
            self.inner.decisions_wake.clone(),
        ));
    }

    /// Gives back this process's claims (a clean stop): the others take
    /// them at once instead of after [`LEASE`].
    pub(in crate::service) async fn release_searches(&self) {
        if let Err(e) = self
            .inner
            .store
            .release_searches(&self.searcher_name())
            .await
        {
            tracing::debug!(error = %e, "cannot give back the computer's searches");
        }
    }

    /// Searches the claimed `job` and plays or writes down what it decided.
    async fn run_job(&self, job: ClaimedJob) {
        let name = self.searcher_name();
        let Some(platform) = Platform::from_key(&job.platform) else {
            let _ = self
                .inner
                .store
                .drop_search(&job.platform, &job.game_id, None)
                .await;
            return;
        };
        let id = job.game_id.clone();
        let row = match self.inner.store.get(&job.platform, &id).await {
            Ok(Some(row)) if !row.status.is_over() => row,
            Ok(_) => {
                let _ = self.inner.store.drop_search(&job.platform, &id, None).await;
                self.inner.thinking.answered(&id, None);
                return;
            }
            Err(e) => {
                tracing::warn!(error = %e, game = %id, "cannot read a game to search");
                return;
            }
        };
        let step = if state_of(&row) == job.state {
            self.search_step(&row).ok()
        } else {
            None
        };
        let search = match step {
            Some(Step::Move(seat, level)) => {
                self.renewing(&job, &name, self.search_move(&row, seat, level))
                    .await
            }
            Some(Step::SetUp(seat, level)) => {
                self.renewing(&job, &name, self.search_setup(&row, seat, level))
                    .await
            }
            // The game moved on (or needs no search now): whoever changed
            // it asked for what it needs.
            _ => {
                let _ = self
                    .inner
                    .store
                    .drop_search(&job.platform, &id, Some(job.state))
                    .await;
                if self.serves(platform) {
                    self.computer_follow(platform, &id);
                }
                self.inner.thinking.answered(&id, Some(job.state));
                return;
            }
        };
        let Some(decided) = search else {
            // Cancelled: the game ended, or the service stops (its claim is
            // given back or runs out).
            return;
        };
        if self.serves(platform) {
            self.play_decided(platform, &row, decided).await;
            let _ = self
                .inner
                .store
                .drop_search(&job.platform, &id, Some(job.state))
                .await;
            self.inner.thinking.answered(&id, Some(job.state));
            return;
        }
        let game = self.replay(&row).ok();
        let Some(text) = decided.to_text(game.as_ref()) else {
            return;
        };
        match self.inner.store.decided(&job, &name, &text).await {
            Ok(true) => self.tell_processes(Change::Searches).await,
            Ok(false) => {}
            Err(e) => {
                tracing::warn!(error = %e, game = %id, "cannot write the computer's decision")
            }
        }
    }

    /// Runs `search`, renewing the claim of `job` while it runs.
    async fn renewing<T>(
        &self,
        job: &ClaimedJob,
        name: &str,
        search: impl std::future::Future<Output = T>,
    ) -> T {
        let store = self.inner.store.clone();
        let time = self.inner.time.clone();
        let renew = async {
            loop {
                tokio::time::sleep(RENEW_EVERY).await;
                let until = time.now().saturating_add(LEASE);
                if !matches!(store.renew_search(job, name, until).await, Ok(true)) {
                    // The claim is gone (the game moved on): the search
                    // finishes anyway, and its decision is not kept.
                    std::future::pending::<()>().await;
                }
            }
        };
        tokio::select! {
            done = search => done,
            () = renew => unreachable!("renewing never ends"),
        }
    }

    /// Plays a decision another process wrote down, if the game is still as
    /// it was.
    async fn play_written(&self, platform: Platform, job: DecidedJob) {
        let id = job.game_id.clone();
        let row = match self.inner.store.get(&job.platform, &id).await {
            Ok(Some(row)) if !row.status.is_over() => row,
            _ => {
                self.inner.thinking.answered(&id, None);
                return;
            }
        };
        if state_of(&row) != job.state {
            self.computer_follow(platform, &id);
            self.inner.thinking.answered(&id, Some(job.state));
            return;
        }
        let game = self.replay(&row).ok();
        match Decided::parse(&job.decision, game.as_ref()) {
            Some(decided) => self.play_decided(platform, &row, decided).await,
            None => {
                tracing::warn!(game = %id, decision = %job.decision, "cannot read the computer's decision");
                // Thought about again here.
                self.computer_follow(platform, &id);
            }
        }
        self.inner.thinking.answered(&id, Some(job.state));
    }
}

/// Whether `error` means that the store closed (the service stops).
fn closed(error: &StoreError) -> bool {
    matches!(error, StoreError::Database(sqlx::Error::PoolClosed))
}

/// One searcher of a process: while a permit of `permits` is free, claims
/// the oldest waiting job and searches it; waits for `wake` (or [`POLL`])
/// when none waits.
async fn searcher(
    weak: Weak<Inner>,
    wake: Arc<tokio::sync::Notify>,
    permits: Arc<tokio::sync::Semaphore>,
) {
    loop {
        let Ok(permit) = permits.clone().acquire_owned().await else {
            return;
        };
        let Some(inner) = weak.upgrade() else {
            return;
        };
        let service = Service { inner };
        if service.inner.thinking.is_stopped() {
            return;
        }
        let now = service.now();
        let claimed = service
            .inner
            .store
            .claim_search(&service.searcher_name(), now, now.saturating_add(LEASE))
            .await;
        match claimed {
            Ok(Some(_)) if service.inner.thinking.is_stopped() => {
                // Claimed as the service stopped: given back at once.
                service.release_searches().await;
                return;
            }
            Ok(Some(job)) => {
                service.run_job(job).await;
                drop(permit);
                continue;
            }
            Ok(None) => {}
            Err(e) if closed(&e) => return,
            Err(e) => tracing::warn!(error = %e, "cannot look for the computer's searches"),
        }
        drop(permit);
        drop(service);
        tokio::select! {
            () = wake.notified() => {}
            () = tokio::time::sleep(POLL) => {}
        }
    }
}

/// Plays the decisions other processes wrote down for the platforms this
/// process serves, each taken by one process only.
async fn player_of_decisions(weak: Weak<Inner>, wake: Arc<tokio::sync::Notify>) {
    loop {
        let Some(inner) = weak.upgrade() else {
            return;
        };
        let service = Service { inner };
        if service.inner.thinking.is_stopped() {
            return;
        }
        for platform in [Platform::Console, Platform::Discord, Platform::Telegram] {
            if !service.serves(platform) {
                continue;
            }
            let written = match service
                .inner
                .store
                .decisions(platform.key(), DECISIONS_AT_ONCE)
                .await
            {
                Ok(written) => written,
                Err(e) if closed(&e) => return,
                Err(e) => {
                    tracing::warn!(error = %e, "cannot read the computer's decisions");
                    continue;
                }
            };
            for job in written {
                let taken = service
                    .inner
                    .store
                    .drop_search(&job.platform, &job.game_id, Some(job.state))
                    .await;
                if matches!(taken, Ok(true)) {
                    service.play_written(platform, job).await;
                }
            }
        }
        drop(service);
        tokio::select! {
            () = wake.notified() => {}
            () = tokio::time::sleep(POLL) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decisions_read_back_as_written() {
        let registry = kodex_engine::Registry::builtin();
        let chess = registry.get("chess").expect("chess");
        let game = kodex_engine::Game::new(chess, kodex_engine::Start::Standard).expect("a game");
        let e4 = game.parse_move("e4").expect("e4");
        for decided in [
            Decided::Nothing,
            Decided::Play(1, Decision::Move(e4)),
            Decided::Play(0, Decision::Resign),
            Decided::Play(1, Decision::Attempts(vec!["e2e4".into(), "d2d4".into()])),
            Decided::Setup(1, None),
            Decided::Setup(0, Some("Ke1 Qd1 Ra1".into())),
        ] {
            let text = decided.to_text(Some(&game)).expect("written");
            let back = Decided::parse(&text, Some(&game)).expect("read");
            assert_eq!(back.to_text(Some(&game)), Some(text));
        }
        assert!(Decided::parse("m 1 e2e5", Some(&game)).is_none());
        assert!(Decided::parse("x 1", Some(&game)).is_none());
        assert!(Decided::parse("m one e2e4", Some(&game)).is_none());
    }
}
