//! The computer's searches under way, which the service holds for it: one
//! search at a time per game, the games with a computer seat, and the
//! questions it already thought about; and how long it thinks.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::api::UserRef;
use crate::store::{GameRow, Status};
use kodex_engine::search::Level;

/// What the service keeps about the computer's thinking: one search at a
/// time per game, each with a flag that cancels it.
#[derive(Default)]
pub(crate) struct Thinking {
    games: std::sync::Mutex<HashMap<String, Arc<AtomicBool>>>,
    /// The open games with a computer seat (made here, or found after a
    /// restart): only these are looked at after a change, so games between
    /// people cost no extra read.
    playing: std::sync::Mutex<std::collections::HashSet<String>>,
    /// Games read and found to have no computer seat. Another process may
    /// start a game with one (a Telegram update taken through a webhook by
    /// any process, a tournament's round): a game neither here nor in
    /// `playing` is read once to know. Seats never change after a game's
    /// row is made, so what was found holds; the set is emptied when it
    /// grows large (the games are read again as they come).
    without: std::sync::Mutex<std::collections::HashSet<String>>,
    /// Questions already thought about (offers it chose not to make again).
    thoughts: std::sync::Mutex<std::collections::HashSet<String>>,
    /// The service is closing: no search starts, none under way is played.
    stopped: AtomicBool,
    /// The computer's turns asked for and not finished (spawned, thinking
    /// or delivering).
    pending: Arc<std::sync::atomic::AtomicUsize>,
    /// The searches this process asked for (see `commands/computer/searches.rs`),
    /// counted as turns in flight until they are played or dropped here.
    asked: std::sync::Mutex<HashMap<(String, i64), Pending>>,
}

/// One of the computer's turns in flight, counted while it lives.
pub(crate) struct Pending(Arc<std::sync::atomic::AtomicUsize>);

impl Drop for Pending {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Thinking {
    /// Counts a turn of the computer in flight until the guard drops.
    pub(crate) fn pending(&self) -> Pending {
        self.pending.fetch_add(1, Ordering::SeqCst);
        Pending(self.pending.clone())
    }

    /// A search of `game` in `state` was asked for: a turn in flight until
    /// [`Thinking::answered`].
    pub(crate) fn asked(&self, game: &str, state: i64) {
        if let Ok(mut asked) = self.asked.lock() {
            asked
                .entry((game.to_owned(), state))
                .or_insert_with(|| self.pending());
        }
    }

    /// The search of `game` in `state` (in any state: `None`) asked for
    /// here was played or dropped.
    pub(crate) fn answered(&self, game: &str, state: Option<i64>) {
        if let Ok(mut asked) = self.asked.lock() {
            asked.retain(|(id, at), _| id != game || state.is_some_and(|state| state != *at));
        }
    }

    /// Whether a turn of the computer is in flight.
    pub(crate) fn busy(&self) -> bool {
        self.pending.load(Ordering::SeqCst) > 0
    }

    /// `game` has a computer seat.
    pub(crate) fn plays(&self, game: &str) {
        if let Ok(mut playing) = self.playing.lock() {
            playing.insert(game.to_owned());
        }
    }

    /// `game` is over for the computer.
    pub(crate) fn stops_playing(&self, game: &str) {
        if let Ok(mut playing) = self.playing.lock() {
            playing.remove(game);
        }
        if let Ok(mut thoughts) = self.thoughts.lock() {
            let prefix = format!("{game}:");
            thoughts.retain(|thought| !thought.starts_with(&prefix));
        }
    }

    /// Whether `thought` (a question about a game) is new; it is not any
    /// more after this.
    pub(crate) fn first_thought(&self, thought: &str) -> bool {
        self.thoughts
            .lock()
            .is_ok_and(|mut thoughts| thoughts.insert(thought.to_owned()))
    }

    /// `game` was read and has no computer seat.
    pub(crate) fn plays_not(&self, game: &str) {
        /// How many games without a computer are remembered.
        const REMEMBERED: usize = 100_000;
        if let Ok(mut without) = self.without.lock() {
            if without.len() >= REMEMBERED {
                without.clear();
            }
            without.insert(game.to_owned());
        }
    }

    /// Whether `game` may have a computer seat: it has one, or it was never
    /// read here to know.
    pub(crate) fn may_play(&self, game: &str) -> bool {
        self.is_playing(game)
            || !self
                .without
                .lock()
                .is_ok_and(|without| without.contains(game))
    }

    /// Whether `game` has a computer seat.
    pub(crate) fn is_playing(&self, game: &str) -> bool {
        self.playing
            .lock()
            .is_ok_and(|playing| playing.contains(game))
    }

    /// Marks `game` as being thought about, `stop` cancelling the search;
    /// `false` if it already is.
    pub(crate) fn start(&self, game: &str, stop: Arc<AtomicBool>) -> bool {
        let Ok(mut games) = self.games.lock() else {
            return false;
        };
        if self.is_stopped() {
            return false;
        }
        if games.contains_key(game) {
            return false;
        }
        games.insert(game.to_owned(), stop);
        true
    }

    pub(crate) fn finish(&self, game: &str) {
        if let Ok(mut games) = self.games.lock() {
            games.remove(game);
        }
    }

    /// The service is closing: every search under way is cancelled and its
    /// result dropped, and the computer does nothing more in this process
    /// (the next one resumes every game where it was).
    pub(crate) fn stop_all(&self) {
        self.stopped.store(true, Ordering::SeqCst);
        if let Ok(games) = self.games.lock() {
            for stop in games.values() {
                stop.store(true, Ordering::Relaxed);
            }
        }
    }

    /// Whether [`Thinking::stop_all`] was called.
    pub(crate) fn is_stopped(&self) -> bool {
        self.stopped.load(Ordering::SeqCst)
    }

    /// Stops the search of `game`, if one runs.
    pub(crate) fn cancel(&self, game: &str) {
        if let Ok(games) = self.games.lock() {
            if let Some(stop) = games.get(game) {
                stop.store(true, Ordering::Relaxed);
            }
        }
    }
}

/// How long the computer of `seat` in `row`, at `level`, thinks about a
/// move: its level's time in a live game; by correspondence, where there is
/// no hurry, a little longer, not much.
pub(crate) fn think_time(row: &GameRow, seat: usize, level: Level) -> Duration {
    let think = level.strength().think_time;
    if row.remaining(seat).is_some() {
        think
    } else {
        (think * 2).min(Duration::from_secs(4))
    }
}

/// How long until the computer's move comes in `row`, when it is the
/// computer's turn in a running game: its thinking time (the search, the
/// move and its board take a little longer).
pub(crate) fn reply_within(row: &GameRow, game: &kodex_engine::Game) -> Option<Duration> {
    if row.status != Status::Active || game.outcome().is_some() {
        return None;
    }
    let seat = game.controller(game.seat_to_move());
    let level = UserRef::level_of(&row.seat(seat)?.user_id)?;
    Some(think_time(row, seat, Level::new(level).unwrap_or_default()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stopping_cancels_the_searches_under_way_and_starts_no_more() {
        let thinking = Thinking::default();
        let running = Arc::new(AtomicBool::new(false));
        assert!(thinking.start("k7m2", running.clone()));
        assert!(!thinking.start("k7m2", Arc::new(AtomicBool::new(false))));
        thinking.stop_all();
        assert!(running.load(Ordering::Relaxed), "the search is cancelled");
        assert!(thinking.is_stopped());
        thinking.finish("k7m2");
        assert!(!thinking.start("k7m2", Arc::new(AtomicBool::new(false))));
        assert!(!thinking.start("other", Arc::new(AtomicBool::new(false))));
    }
}
