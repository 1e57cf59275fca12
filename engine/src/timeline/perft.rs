//! Perft for time travel: whole turns, a jump and its follow-up being one.

use crate::game::Game;

impl Game {
    /// Perft counting whole turns, jumps included (a jump and its follow-up
    /// are one turn): per first action (a move in UCI, or a jump `t2f3` with
    /// all its follow-ups), the leaves `depth` turns deep. Game ends
    /// (repetition, fifty moves, material) stop the count as in play.
    pub fn perft_turns(&self, depth: u32) -> Vec<(String, u64)> {
        let mut out = Vec::new();
        if depth == 0 {
            return out;
        }
        for mv in self.legal_moves() {
            let mut next = self.clone();
            let played = next.play(mv);
            out.push((played.uci, turns_below(&next, depth - 1)));
        }
        for request in self.legal_jumps() {
            let mut jumped = self.clone();
            let Ok(jump) = jumped.jump(request) else {
                continue;
            };
            let mut total = 0;
            for mv in jumped.legal_moves() {
                let mut next = jumped.clone();
                next.play(mv);
                total += turns_below(&next, depth - 1);
            }
            out.push((jump.uci, total));
        }
        out
    }
}

fn turns_below(game: &Game, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    game.perft_turns(depth).iter().map(|(_, n)| n).sum()
}
