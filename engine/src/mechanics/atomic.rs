//! Atomic chess: every capture explodes; kings cannot capture; kings that
//! touch give no check; a side whose king explodes loses. Everything atomic
//! is here, called from the rules core.

use crate::bitboard::Bits;
use crate::outcome::{Outcome, Reason};
use crate::rules::{Position, Rules};
use crate::side::Side;
use crate::tables::SIDES;

impl<'a, B: Bits> Rules<'a, B> {
    /// Piece types that attack nothing, bit `t` for type `t`: atomic kings
    /// cannot capture.
    #[inline]
    pub(crate) fn harmless_types(&self) -> u32 {
        match self.royal_type() {
            Some(royal) if self.def.atomic => 1u32 << royal,
            _ => 0,
        }
    }

    /// Atomic: whether `square` touches a royal piece of `side`. Kings that
    /// touch give no check, so a king there is safe from `side` (in check, when
    /// castling, when moving).
    #[inline]
    pub(crate) fn touches_king_atomic(
        &self,
        pos: &Position<B>,
        square: usize,
        side: usize,
    ) -> bool {
        self.def.atomic && (self.t.adjacent[square] & self.royals(pos, side)).any()
    }

    /// Atomic: a capture on `center` explodes — the capturing piece and every
    /// piece on the surrounding squares vanish, except the immune (pawns).
    #[inline]
    pub(crate) fn explode(&self, pos: &mut Position<B>, center: usize) {
        if self.def.atomic {
            pos.remove(center);
            let mut immune = B::EMPTY;
            for &ty in &self.def.explosion_immune {
                immune |= pos.by_type[ty];
            }
            for sq in (self.t.adjacent[center] & pos.occupied() & !immune).squares() {
                pos.remove(sq);
            }
        }
    }

    /// Atomic: whether the position after `us`'s move is legal for `us`. Its
    /// own king must survive; exploding the enemy king wins even from check;
    /// otherwise it may not be left in check.
    pub(crate) fn atomic_legal_after(&self, after: &Position<B>, us: usize) -> bool {
        let them = 1 - us;
        let ours = self.royals(after, us);
        if ours.is_empty() {
            return false;
        }
        if self.royals(after, them).is_empty() {
            return true;
        }
        !self.in_check(after, us)
    }

    /// Atomic: a side whose king exploded has lost.
    #[inline]
    pub(crate) fn exploded_king_outcome(&self, pos: &Position<B>) -> Option<Outcome> {
        if self.def.atomic {
            for side in 0..SIDES {
                if self.royals(pos, side).is_empty() {
                    return Some(self.win(Side(side as u8).opponent(), Reason::ExplodedKing));
                }
            }
        }
        None
    }
}
