//! Insufficient mating material, per variant, following lichess/shakmaty.

use crate::bitboard::Bits;
use crate::position::{Position, Rules};
use crate::view::Art;

/// Whether `side` can never win by the rules (it lacks mating material).
pub fn insufficient<B: Bits>(r: &Rules<B>, pos: &Position<B>, side: usize) -> bool {
    let def = r.def;
    let them = 1 - side;
    let ours = pos.by_side[side];
    let with_art = |art: Art| -> B {
        let mut b = B::EMPTY;
        for (ty, p) in def.pieces.iter().enumerate() {
            if p.art == art {
                b |= pos.by_type[ty];
            }
        }
        b
    };
    let kings = with_art(Art::King);
    if r.t.flag.any() {
        // The king alone can walk to the hill or the goal.
        return false;
    }
    if def.drops && pos.pockets.iter().flatten().any(|&n| n > 0) {
        return false;
    }
    if def.must_capture || def.extinction.is_some() {
        // Antichess and horde: losing all pieces or being stalemated can still happen.
        return false;
    }
    if def.check_limit > 0 {
        // Any piece can give checks; a lone king cannot.
        return (ours & !kings).is_empty();
    }
    if def.pieces.iter().any(|p| p.art == Art::Token) {
        return false;
    }
    let knights = with_art(Art::Knight);
    let bishops = with_art(Art::Bishop);
    let heavy = with_art(Art::Pawn) | with_art(Art::Rook) | with_art(Art::Queen);
    if def.atomic {
        // Atomic: a lone king cannot win; neither can a single minor piece
        // against a bare king.
        if (ours & !kings).is_empty() {
            return true;
        }
        if (ours & heavy).any() {
            return false;
        }
        if (pos.by_side[them] & !kings).any() {
            return false;
        }
        return (ours & !kings).count() == 1;
    }
    if (ours & heavy).any() {
        return false;
    }
    if (ours & knights).any() {
        return ours.count() <= 2
            && (pos.by_side[them] & !kings & !with_art(Art::Queen)).is_empty();
    }
    if (ours & bishops).any() {
        let g = &def.geometry;
        let mut light = false;
        let mut dark = false;
        for sq in bishops.squares() {
            if (g.file_of(sq) + g.rank_of(sq)) % 2 == 0 {
                dark = true;
            } else {
                light = true;
            }
        }
        let same_colour = !(light && dark);
        return same_colour && (with_art(Art::Pawn) | knights).is_empty();
    }
    true
}
