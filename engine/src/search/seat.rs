//! The computer's move in a hidden-information game from everything its
//! seat was told (`belief`), searched as `hidden` searches positions that
//! agree with a view.

use super::hidden::{believed_enemy_army, pick_move_from_view, rank_moves};
use super::level::Level;
use crate::game::Game;
use crate::side::Side;
use crate::view::{Audience, SquareView, View};
use std::time::Instant;

/// The moves of the seat to move in `game`, `us`, in UCI, best first, from
/// everything it was told since the start of the game: positions that agree
/// with all of it (its views, its own moves and legal moves, its impossible
/// attempts, the referee's announcements; see `belief`) are searched as
/// [`pick_move_from_view`] searches its samples, which keep the opponent's
/// castling rights, en passant square and everything its earlier views and
/// the announcements told. When no followed position agrees (the seat lost
/// track), the positions come from its current view alone, with the army
/// [`believed_enemy_army`] gives. Empty when it is not `us`'s turn. The same
/// information, level and seed give the same moves (unless the deadline cut
/// a search).
///
/// ```
/// use kodex_engine::search::{pick_move_for_seat, Level};
/// use kodex_engine::{Game, Registry, Side, Start};
/// let registry = Registry::builtin();
/// let mut game = Game::new(registry.get("kriegspiel").unwrap(), Start::Standard).unwrap();
/// game.play_text("e4").unwrap();
/// let ranked = pick_move_for_seat(&game, Side::BLACK, Level::new(2).unwrap(), 1, 4, None);
/// assert!(!ranked.is_empty());
/// ```
pub fn pick_move_for_seat(
    game: &Game,
    us: Side,
    level: Level,
    seed: u64,
    samples: usize,
    deadline: Option<Instant>,
) -> Vec<String> {
    if game.side_to_move() != us {
        return Vec::new();
    }
    let positions = super::belief::believed_with_history(game, us, seed, samples.max(1));
    let mut ranked = if !positions.is_empty() {
        let mut scored = rank_moves(&positions, level, deadline);
        avoid_repeating(game, us, &positions, &mut scored);
        scored.into_iter().map(|(uci, _)| uci).collect()
    } else {
        let view = game.view(Audience::Side(us));
        let army = believed_enemy_army(game, us);
        pick_move_from_view(
            game.variant(),
            &view,
            Some(&army),
            level,
            seed,
            samples,
            deadline,
        )
    };
    if game.variant().visibility() == crate::view::Visibility::OwnPiecesOnly {
        // Every other move its pieces could make comes after, so that it
        // tries on rather than give up while it still has a legal move.
        for uci in super::belief::own_tries(game) {
            if !ranked.contains(&uci) {
                ranked.push(uci);
            }
        }
    }
    ranked
}

/// How much a move that brings the seat's own pieces back to where they
/// stood after an earlier move of its own loses, per time, when the seat is
/// winning: the opponent's pieces may well stand as then too, and a third
/// time is a draw. (Its believed positions cannot tell: the opponent's moves
/// in them are guesses.)
const REPEAT_PENALTY: i64 = 150;

/// Ranks down, when the best move scores as winning, the moves in `scored`
/// that put `us`'s own pieces as they stood after one of its earlier moves
/// (read from its own views), by [`REPEAT_PENALTY`] per earlier time.
fn avoid_repeating(
    game: &Game,
    us: Side,
    positions: &[(Game, Vec<u64>)],
    scored: &mut [(String, i64)],
) {
    if scored.first().is_none_or(|(_, score)| *score < 200) {
        return;
    }
    let own = |view: &View| -> Vec<(usize, char)> {
        view.squares
            .iter()
            .enumerate()
            .filter_map(|(square, seen)| match seen {
                SquareView::Piece(glyph) if glyph.side == us => Some((square, glyph.letter)),
                _ => None,
            })
            .collect()
    };
    let earlier: Vec<Vec<(usize, char)>> = (0..game.ply())
        .filter(|&ply| game.view_at(ply, Audience::Side(us)).side_to_move == us)
        .map(|ply| own(&game.view_at(ply + 1, Audience::Side(us))))
        .collect();
    if earlier.is_empty() {
        return;
    }
    for (uci, score) in scored.iter_mut().take(12) {
        let Some(after) = positions.iter().find_map(|(sample, _)| {
            let mv = sample.parse_move(uci).ok()?;
            let mut next = sample.clone();
            next.play(mv);
            Some(own(&next.view(Audience::Side(us))))
        }) else {
            continue;
        };
        let times = earlier.iter().filter(|e| **e == after).count() as i64;
        *score -= REPEAT_PENALTY * times;
    }
    scored.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
}
