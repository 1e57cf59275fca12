//! The computer's searches under way, which the service holds for it: one
//! search at a time per game, the games with a computer seat, and the
//! questions it already thought about.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// What the service keeps about the computer's thinking: one search at a
/// time per game, each with a flag that cancels it.
#[derive(Default)]
pub(crate) struct Thinking {
    games: std::sync::Mutex<HashMap<String, Arc<AtomicBool>>>,
    /// The open games with a computer seat (made here, or found after a
    /// restart): only these are looked at after a change, so games between
    /// people cost no extra read.
    playing: std::sync::Mutex<std::collections::HashSet<String>>,
    /// Questions already thought about (offers it chose not to make again).
    thoughts: std::sync::Mutex<std::collections::HashSet<String>>,
}

impl Thinking {
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

    /// Stops the search of `game`, if one runs.
    pub(crate) fn cancel(&self, game: &str) {
        if let Ok(games) = self.games.lock() {
            if let Some(stop) = games.get(game) {
                stop.store(true, Ordering::Relaxed);
            }
        }
    }
}
