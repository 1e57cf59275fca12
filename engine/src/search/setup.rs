//! The computer's secret setup (battle chess and its kin): sensible, and
//! still random.
//!
//! A setup is chosen blind: the computer knows its own army and the rules,
//! never the other side's setup. So it plays the setup phase the way it
//! plays fog of war, by determinization. It draws random setups of its own
//! that keep the rules and imagines random enemy setups (the same for every
//! candidate, so the comparison is fair). First it counts, for each
//! candidate, the imagined starts it would lose at once (its king in check
//! while the other side is to move, or mated): composing a position is
//! cheap, so it imagines many. The safest few are then compared by a short
//! search of the composed starts from its side. The result: a king behind
//! its pawns and out of the lines, pieces not hanging, and still a
//! different setup each game, as the seed chooses.

use crate::game::{Game, Start};
use crate::setup::{start_fen, Placement, SetupError};
use crate::side::Side;
use crate::Variant;

use super::alphabeta::{think_with, Limits, Searcher, MATE_BOUND};
use super::level::Level;

/// What a lost start scores: below every position still to be played.
const LOST: i32 = -3_000;
/// Scores of positions still to be played are held within this.
const CAP: i32 = 2_000;

/// How a level sets up: how many setups of its own it draws, against how
/// many imagined enemy setups it checks each for a start lost at once
/// (cheap), and how many of the safest it then compares by a short search
/// against how many of those enemy setups, within how many nodes in all
/// (counted, so a seed always chooses the same setup; a candidate is
/// compared only when the nodes left reach for its searches).
struct Budget {
    candidates: usize,
    enemies: usize,
    searched: usize,
    searched_enemies: usize,
    nodes: u64,
}

fn budget(level: Level) -> Option<Budget> {
    let (candidates, enemies, searched, searched_enemies, nodes) = match level.number() {
        // The lowest level sets up at random.
        0..=1 => return None,
        2..=3 => (16, 32, 4, 6, 40_000),
        4..=5 => (32, 48, 6, 10, 100_000),
        _ => (48, 64, 8, 16, 160_000),
    };
    Some(Budget {
        candidates,
        enemies,
        searched,
        searched_enemies,
        nodes,
    })
}

/// A setup for `side` in `variant`, chosen at `level` from random setups
/// that keep the rules, `seed` choosing which. Errors only when the variant
/// has no setup for `side` (or no setup keeps its rules).
///
/// ```
/// use kodex_engine::search::{pick_setup, Level};
/// use kodex_engine::{Registry, Side};
/// let registry = Registry::builtin();
/// let battle = registry.get("battle").unwrap();
/// let placement = pick_setup(battle, Side::BLACK, Level::new(5).unwrap(), 7).unwrap();
/// assert!(placement.validate(battle, Side::BLACK).is_ok());
/// ```
pub fn pick_setup(
    variant: &Variant,
    side: Side,
    level: Level,
    seed: u64,
) -> Result<Placement, SetupError> {
    // Each draw its own seed, spread from `seed` (splitmix64), so that
    // neighbouring seeds choose unrelated setups.
    let draw = |salt: u64| {
        let mut z = seed
            .wrapping_add(salt.wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let first = Placement::random(variant, side, draw(0))?;
    let Some(budget) = budget(level) else {
        return Ok(first);
    };
    let enemy = side.opponent();
    let mut enemies: Vec<Placement> = (0..budget.enemies)
        .filter_map(|i| Placement::random(variant, enemy, draw(10_000 + i as u64)).ok())
        .collect();
    if enemies.is_empty() {
        // The other side sets nothing up: every candidate meets the same
        // fixed army, which the empty placement stands for.
        enemies.push(Placement::default());
    }
    let mut candidates = vec![first];
    candidates.extend(
        (1..budget.candidates)
            .filter_map(|i| Placement::random(variant, side, draw(i as u64)).ok()),
    );
    // The starts each candidate loses at once; the safest go on.
    let mut safety: Vec<(usize, usize)> = candidates
        .iter()
        .enumerate()
        .map(|(i, ours)| {
            let lost = enemies
                .iter()
                .filter(|theirs| start_score(variant, side, ours, theirs, None).0 == LOST)
                .count();
            (lost, i)
        })
        .collect();
    safety.sort();
    let mut searcher = Searcher::new(1);
    let searched_enemies = &enemies[..budget.searched_enemies.min(enemies.len())];
    let mut best: Option<(i64, usize)> = None;
    let mut spent = 0u64;
    for &(lost, i) in safety.iter().take(budget.searched) {
        // The safest is always compared; the others while nodes are left.
        if best.is_some() && spent >= budget.nodes {
            break;
        }
        let mut total = 0i64;
        for theirs in searched_enemies {
            let (score, nodes) =
                start_score(variant, side, &candidates[i], theirs, Some(&mut searcher));
            total += i64::from(score);
            spent += nodes;
        }
        // Losses weigh as in the cheap count; the search ranks the rest.
        let value = total / searched_enemies.len().max(1) as i64
            + i64::from(LOST) * lost as i64 / enemies.len() as i64;
        if best.is_none_or(|(b, _)| value > b) {
            best = Some((value, i));
        }
    }
    let chosen = best.map_or(0, |(_, i)| i);
    Ok(candidates.swap_remove(chosen))
}

/// How the composed start of `ours` against `theirs` is for `side`:
/// [`LOST`] (or its opposite) when the setups decide the game, else a short
/// search's score, or 0 without a searcher; with the nodes searched.
fn start_score(
    variant: &Variant,
    side: Side,
    ours: &Placement,
    theirs: &Placement,
    searcher: Option<&mut Searcher>,
) -> (i32, u64) {
    let placements = if side.index() & 1 == 0 {
        [ours, theirs]
    } else {
        [theirs, ours]
    };
    let Ok(fen) = start_fen(variant, placements) else {
        return (LOST, 0);
    };
    let Ok(game) = Game::new(variant, Start::Fen(fen)) else {
        return (LOST, 0);
    };
    let def = variant.definition();
    let ours = def.team_of(side);
    if let Some(outcome) = game.outcome() {
        let score = match outcome.winner() {
            Some(winner) if winner == ours => -LOST,
            Some(_) => LOST,
            None => 0,
        };
        return (score, 0);
    }
    let Some(searcher) = searcher else {
        return (0, 0);
    };
    let limits = Limits {
        depth: Some(2),
        nodes: Some(4_000),
        ..Limits::default()
    };
    let mover = game.side_to_move();
    let Some(result) = think_with(&game.search_board(), &[], &limits, searcher, &mut |_| {}) else {
        return (0, 0);
    };
    let from_mover = if result.score >= MATE_BOUND {
        -LOST
    } else if result.score <= -MATE_BOUND {
        LOST
    } else {
        result.score.clamp(-CAP, CAP)
    };
    let score = if def.team_of(mover) == ours {
        from_mover
    } else {
        -from_mover
    };
    (score, result.nodes)
}
