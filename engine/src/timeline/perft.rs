//! Perft for time travel: whole turns, a jump and its follow-up being one.

use crate::game::{Game, PerftCount};
use std::sync::atomic::{AtomicBool, Ordering};

impl Game {
    /// Perft counting whole turns, jumps included (a jump and its follow-up
    /// are one turn): per first action (a move in UCI, or a jump `t2f3` with
    /// all its follow-ups), the leaves `depth` turns deep. Game ends
    /// (repetition, fifty moves, material) stop the count as in play.
    pub fn perft_turns(&self, depth: u32) -> Vec<(String, u64)> {
        self.perft_turns_stoppable(depth, &AtomicBool::new(false))
            .divide
    }

    /// [`Game::perft_turns`] that ends early once `stop` is raised, as
    /// [`Game::perft_stoppable`] does: read before every turn with turns
    /// below it, so a count of depth 1 always finishes.
    pub fn perft_turns_stoppable(&self, depth: u32, stop: &AtomicBool) -> PerftCount {
        let mut count = PerftCount::default();
        if depth == 0 {
            return count;
        }
        let moves = self.legal_moves();
        let jumps = self.legal_jumps();
        count.roots = moves.len() + jumps.len();
        for mv in moves {
            let mut next = self.clone();
            let played = next.play(mv);
            match turns_below(&next, depth - 1, stop) {
                Ok(n) => count.divide.push((played.uci, n)),
                Err(n) => {
                    count.partial = n;
                    count.stopped = true;
                    return count;
                }
            }
        }
        for request in jumps {
            let mut jumped = self.clone();
            let Ok(jump) = jumped.jump(request) else {
                count.roots -= 1;
                continue;
            };
            let mut total = 0;
            for mv in jumped.legal_moves() {
                let mut next = jumped.clone();
                next.play(mv);
                match turns_below(&next, depth - 1, stop) {
                    Ok(n) => total += n,
                    Err(n) => {
                        count.partial = total + n;
                        count.stopped = true;
                        return count;
                    }
                }
            }
            count.divide.push((jump.uci, total));
        }
        count
    }
}

/// The leaves `depth` turns below `game`; once `stop` is raised, those
/// counted until then (`Err`).
fn turns_below(game: &Game, depth: u32, stop: &AtomicBool) -> Result<u64, u64> {
    if depth == 0 {
        return Ok(1);
    }
    if stop.load(Ordering::Relaxed) {
        return Err(0);
    }
    let below = game.perft_turns_stoppable(depth, stop);
    if below.stopped {
        Err(below.nodes())
    } else {
        Ok(below.nodes())
    }
}
