//! Time travel for the computer: a turn may begin with a jump into its own
//! past. Every jump it could make is tried at the root — the board after
//! the jump is searched like any other, since the jumper moves again there —
//! and ranked with the normal evaluation against the best plain move. A
//! jump spends a charge, worth something kept: it must gain more than
//! [`CHARGE_VALUE`].

use super::alphabeta::{think_with, Limits, Searcher};
use super::level::{choose, choose_near_best, pick_move_with, Level};
use crate::game::Game;
use crate::moves::Move;
use crate::timeline::JumpRequest;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// What a time charge kept is worth, in centipawns: a jump is made only
/// when it gains more than this over the best move of the present.
pub const CHARGE_VALUE: i32 = 60;

/// The fewest nodes the search after one jump may visit.
const MIN_JUMP_NODES: u64 = 1_000;

/// A turn the computer chose: a jump or not, then a move.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PlannedTurn {
    /// The jump that begins the turn, if any.
    pub jump: Option<JumpRequest>,
    /// The move; after a jump, a move of the board the jump restored.
    pub mv: Move,
    /// The whole turn as [`Game::play_turn`] reads it, squares named as people
    /// type them ([`Game::coordinates`]): `t1c4 h5f7`, or `e2e4`.
    pub text: String,
}

/// The turn a computer player of `level` makes in `game` (see
/// [`pick_move_with`]), jumps included where the variant has time travel
/// and the side to move has a charge: the present's moves get half the
/// level's budget, the jumps share the other half. `None` when the game is over.
///
/// ```
/// use kodex_engine::search::{pick_turn_with, Level, Searcher};
/// use kodex_engine::{Game, Registry, Start};
/// let registry = Registry::builtin();
/// let mut game = Game::new(registry.get("timetravel").unwrap(), Start::Standard).unwrap();
/// for mv in ["e4", "e5", "Qh5", "Nc6", "Bc4", "g6"] {
///     game.play_text(mv).unwrap();
/// }
/// // Back one move with the bishop now on c4: scholar's mate after all.
/// let level = Level::new(5).unwrap();
/// let turn = pick_turn_with(&mut Searcher::new(1), &game, level, 1, None).unwrap();
/// assert_eq!(turn.text, "t1c4 h5f7");
/// ```
pub fn pick_turn_with(
    searcher: &mut Searcher,
    game: &Game,
    level: Level,
    seed: u64,
    deadline: Option<Instant>,
) -> Option<PlannedTurn> {
    let plain_turn = |mv: Move| PlannedTurn {
        jump: None,
        mv,
        text: game.coordinates(mv),
    };
    let jumps = game.legal_jumps();
    if jumps.is_empty() {
        return pick_move_with(searcher, game, level, seed, deadline).map(plain_turn);
    }
    let start = Instant::now();
    let deadline = deadline.map(|d| level.share_of(start, d));
    let half = deadline.map(|d| start + d.saturating_duration_since(start) / 2);
    let present_limits = level.limits(half);
    let budget = present_limits
        .nodes
        .unwrap_or(Level::NODES_WITHOUT_DEADLINE);
    let found = think_with(
        &game.search_board(),
        &game.position_hashes(),
        &present_limits,
        searcher,
        &mut |_| {},
    )?;
    let plain = choose(&found, level, seed);

    // Each jump: the board it restores, searched with an equal share.
    let per_jump_nodes = (budget / 2 / jumps.len() as u64).max(MIN_JUMP_NODES);
    let stop = searcher.stop_flag();
    let mut candidates: Vec<(Option<usize>, i32)> = vec![(None, found.score)];
    let mut jumped_turns: Vec<PlannedTurn> = Vec::new();
    for (index, &request) in jumps.iter().enumerate() {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let mut jumped = game.clone();
        let Ok(jump) = jumped.jump(request) else {
            continue;
        };
        let left = (jumps.len() - index) as u32;
        let limits = Limits {
            depth: present_limits.depth,
            nodes: Some(per_jump_nodes),
            deadline: deadline.map(|d| {
                let now = Instant::now();
                now + d.saturating_duration_since(now) / left
            }),
            ..Limits::default()
        };
        let Some(after) = think_with(
            &jumped.search_board(),
            &jumped.position_hashes(),
            &limits,
            searcher,
            &mut |_| {},
        ) else {
            continue;
        };
        let mv = after.best;
        candidates.push((Some(jumped_turns.len()), after.score - CHARGE_VALUE));
        jumped_turns.push(PlannedTurn {
            jump: Some(request),
            mv,
            text: format!("{} {}", jump.uci, jumped.coordinates(mv)),
        });
    }
    // The best candidate (the present's on a tie), then the level's weakness.
    let best =
        candidates.iter().copied().fold(
            (None, i32::MIN),
            |best, c| if c.1 > best.1 { c } else { best },
        );
    let mut random = crate::setup::picker(seed ^ 0x7153_7E11_0A5E_D00D);
    match choose_near_best(&candidates, best, level, &mut random) {
        Some(index) => jumped_turns.get(index).cloned(),
        None => Some(plain_turn(plain)),
    }
}
