//! Helpers shared by the engine's rule tests.

use kodex_engine::Game;

/// The legal moves of `game` as UCI, sorted.
pub fn legal(game: &Game) -> Vec<String> {
    let mut moves: Vec<String> = game
        .legal_moves()
        .into_iter()
        .map(|m| game.uci(m))
        .collect();
    moves.sort();
    moves
}
