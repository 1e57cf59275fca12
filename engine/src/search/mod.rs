//! The computer player. The low-level board a search walks ([`Board`],
//! [`SearchBoard`]: copy-make with an incremental hash, legal moves into a
//! reused buffer, no strings), the search itself ([`think`]: iterative
//! deepening alpha-beta with quiescence and a transposition table), the
//! evaluation built from each variant's definition ([`Evaluator`]), playing
//! levels ([`Level`], [`pick_move`]) and play from a fog-of-war view
//! ([`pick_move_from_view`]), turns that begin with a time-travel jump
//! ([`pick_turn_with`]) and secret setups ([`pick_setup`]). Pure: time comes in as a deadline, randomness
//! as a seed, cancellation as a flag ([`Searcher::stop_flag`]).
//!
//! The friendly path for people stays [`crate::Game::play`].

mod alphabeta;
mod belief;
mod board;
mod eval;
mod hidden;
mod level;
mod seat;
mod setup;
mod travel;
mod tt;

pub use alphabeta::{
    mate_in, think, think_with, Limits, Progress, SearchResult, Searcher, MATE, MATE_BOUND, MAX_PLY,
};
pub use belief::believed_positions;
pub use board::{Board, SearchBoard};
pub use eval::{Evaluator, PAWN};
pub use hidden::{
    believed_enemy_army, evaluate_from_view, pick_move_from_view, sample_positions, DEFAULT_SAMPLES,
};
pub use level::{choose, pick_move, pick_move_with, Level, Strength};
pub use seat::pick_move_for_seat;
pub use setup::pick_setup;
pub use travel::{pick_turn_with, PlannedTurn, CHARGE_VALUE};

use crate::game::Game;
use crate::side::Side;

/// How good `game`'s position is for `side`, in centipawns (beyond
/// [`MATE_BOUND`]: a forced win, below `-MATE_BOUND`: a forced loss), from a
/// short deterministic search: for draw offers and resignations. A finished
/// game scores by its outcome.
///
/// ```
/// use kodex_engine::search::evaluate;
/// use kodex_engine::{Game, Registry, Side, Start};
/// let registry = Registry::builtin();
/// let fen = "4k3/8/8/8/8/8/8/QQQ1K3 w - - 0 1".to_string();
/// let game = Game::new(registry.get("chess").unwrap(), Start::Fen(fen)).unwrap();
/// assert!(evaluate(&game, Side::WHITE) > 1000);
/// assert!(evaluate(&game, Side::BLACK) < -1000);
/// ```
pub fn evaluate(game: &Game, side: Side) -> i32 {
    let mover = game.side_to_move();
    let from_mover = if let Some(outcome) = game.outcome() {
        let team = game.variant().definition().team_of(mover);
        match outcome.winner() {
            Some(winner) if winner == team => MATE,
            Some(_) => -MATE,
            None => 0,
        }
    } else {
        let limits = Limits {
            depth: Some(3),
            nodes: Some(20_000),
            ..Limits::default()
        };
        let mut searcher = Searcher::new(1);
        let history = game.position_hashes();
        match think_with(
            &game.search_board(),
            &history,
            &limits,
            &mut searcher,
            &mut |_| {},
        ) {
            Some(result) => result.score,
            None => 0,
        }
    };
    let same_team =
        game.variant().definition().team_of(side) == game.variant().definition().team_of(mover);
    if same_team {
        from_mover
    } else {
        -from_mover
    }
}
