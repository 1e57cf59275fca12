//! Playing strength: levels 1 to 8, each a search budget and a deliberate
//! weakness (a seeded choice among near-best moves), and [`pick_move`], the
//! one call a bot needs for a game whose position it may see.

use super::alphabeta::{think_with, Limits, SearchResult, Searcher, MATE_BOUND};
use crate::game::Game;
use crate::moves::Move;
use std::time::{Duration, Instant};

/// A playing level: 1 has just learned the moves, 8 plays as well as the
/// engine can.
///
/// ```
/// use kodex_engine::search::Level;
/// assert_eq!(Level::new(9), None);
/// assert_eq!(Level::clamped(12), Level::STRONGEST);
/// assert!(Level::new(3).unwrap().strength().nodes.is_some());
/// ```
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Level(u8);

/// What a level may spend and how it errs.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Strength {
    /// The deepest iteration.
    pub depth: Option<u32>,
    /// The most nodes per move (deterministic).
    pub nodes: Option<u64>,
    /// How long a move should take in a live game (the caller turns it into a deadline).
    pub think_time: Duration,
    /// Moves this many centipawns below the best may still be chosen.
    pub margin: i32,
    /// Each candidate's score is shaken by up to this many centipawns.
    pub noise: i32,
    /// Percent of moves played at random among all legal moves.
    pub random_percent: u32,
    /// Percent of the time a caller allows that this level uses.
    pub time_percent: u32,
}

impl Level {
    /// The weakest level.
    pub const WEAKEST: Level = Level(1);
    /// The strongest level.
    pub const STRONGEST: Level = Level(8);
    /// The node budget of a level without its own when no deadline is given.
    pub const NODES_WITHOUT_DEADLINE: u64 = 1_500_000;

    /// Level `n` (1–8).
    pub fn new(n: u8) -> Option<Level> {
        (1..=8).contains(&n).then_some(Level(n))
    }

    /// The level nearest `n`.
    pub fn clamped(n: i64) -> Level {
        Level(n.clamp(1, 8) as u8)
    }

    /// The level's number, 1–8.
    pub fn number(self) -> u8 {
        self.0
    }

    /// The budget and the weakness of this level.
    pub fn strength(self) -> Strength {
        let ms = Duration::from_millis;
        let (depth, nodes, think_time, margin, noise, random_percent, time_percent) = match self.0 {
            1 => (Some(1), Some(2_000), ms(100), 900, 400, 65, 100),
            2 => (Some(1), Some(5_000), ms(150), 350, 220, 15, 100),
            3 => (Some(2), Some(10_000), ms(200), 220, 140, 5, 100),
            4 => (Some(3), Some(25_000), ms(300), 140, 80, 0, 100),
            5 => (Some(4), Some(60_000), ms(500), 80, 45, 0, 100),
            6 => (Some(6), Some(150_000), ms(800), 40, 22, 0, 25),
            7 => (None, Some(400_000), ms(1_200), 25, 14, 0, 35),
            _ => (None, None, ms(2_000), 0, 0, 0, 100),
        };
        Strength {
            depth,
            nodes,
            think_time,
            margin,
            noise,
            random_percent,
            time_percent,
        }
    }

    /// This level's share of the time from `now` to `deadline`.
    pub fn share_of(self, now: Instant, deadline: Instant) -> Instant {
        let percent = self.strength().time_percent.min(100);
        now + deadline.saturating_duration_since(now) * percent / 100
    }

    /// The search limits of this level, stopping at `deadline` at the latest.
    /// Without a deadline the strongest level stops after
    /// [`Level::NODES_WITHOUT_DEADLINE`] nodes (about two seconds).
    pub fn limits(self, deadline: Option<Instant>) -> Limits {
        let s = self.strength();
        let nodes = match (s.nodes, deadline) {
            (None, None) => Some(Level::NODES_WITHOUT_DEADLINE),
            (nodes, _) => nodes,
        };
        Limits {
            depth: s.depth,
            nodes,
            deadline,
            root_margin: s.margin,
            ..Limits::default()
        }
    }
}

impl Default for Level {
    fn default() -> Level {
        Level::STRONGEST
    }
}

/// The move a computer player of `level` makes in `game`, or `None` when
/// the game is over. `seed` chooses among near-best moves (the same seed,
/// level and position give the same move unless the deadline cut the
/// search); `deadline` caps the thinking time (see
/// [`Strength::think_time`]).
///
/// The search sees the whole position: for hidden-information games use
/// [`super::hidden::pick_move_from_view`] instead.
///
/// ```
/// use kodex_engine::search::{pick_move, Level};
/// use kodex_engine::{Game, Registry, Start};
/// let registry = Registry::builtin();
/// let game = Game::new(registry.get("atomic").unwrap(), Start::Standard).unwrap();
/// let mv = pick_move(&game, Level::new(2).unwrap(), 7, None).unwrap();
/// assert!(game.legal_moves().contains(&mv));
/// ```
pub fn pick_move(game: &Game, level: Level, seed: u64, deadline: Option<Instant>) -> Option<Move> {
    let mut searcher = Searcher::new(8);
    pick_move_with(&mut searcher, game, level, seed, deadline)
}

/// [`pick_move`] with a caller's [`Searcher`] (its table and stop flag).
pub fn pick_move_with(
    searcher: &mut Searcher,
    game: &Game,
    level: Level,
    seed: u64,
    deadline: Option<Instant>,
) -> Option<Move> {
    if game.outcome().is_some() {
        return None;
    }
    let history = game.position_hashes();
    let deadline = deadline.map(|d| level.share_of(Instant::now(), d));
    let result = think_with(
        &game.search_board(),
        &history,
        &level.limits(deadline),
        searcher,
        &mut |_| {},
    )?;
    Some(choose(&result, level, seed))
}

/// The move a level plays from a finished search: the best one at level 8,
/// otherwise a seeded pick among the moves close to the best.
pub fn choose(result: &SearchResult, level: Level, seed: u64) -> Move {
    let strength = level.strength();
    let mut random = crate::setup::picker(seed ^ 0x5DEE_CE66_D1CE_4E5B);
    let moves = &result.root_scores;
    if moves.is_empty() {
        return result.best;
    }
    if strength.random_percent > 0 && (random(100) as u32) < strength.random_percent {
        return moves[random(moves.len())].0;
    }
    choose_near_best(moves, (result.best, result.score), level, &mut random)
}

/// A seeded pick among `scored` candidates within the level's margin of
/// `best` (its candidate and score), each score shaken by the level's noise;
/// `best` itself at level 8 or when it wins by force.
pub(crate) fn choose_near_best<T: Copy>(
    scored: &[(T, i32)],
    (best, best_score): (T, i32),
    level: Level,
    random: &mut impl FnMut(usize) -> usize,
) -> T {
    let strength = level.strength();
    if strength.noise == 0 || best_score > MATE_BOUND {
        return best;
    }
    let floor = best_score - strength.margin;
    let mut chosen = best;
    let mut chosen_value = i32::MIN;
    for &(candidate, score) in scored.iter().filter(|&&(_, s)| s >= floor) {
        let shake = random(2 * strength.noise as usize + 1) as i32 - strength.noise;
        let value = score + shake;
        if value > chosen_value {
            chosen_value = value;
            chosen = candidate;
        }
    }
    chosen
}
