//! Check counting (three-check): checks given are counted, and the side that
//! gives the variant's limit wins.

use crate::bitboard::Bits;
use crate::outcome::{Outcome, Reason};
use crate::rules::{Position, Rules};
use crate::side::Side;
use crate::tables::SIDES;

impl<'a, B: Bits> Rules<'a, B> {
    /// Three-check: counts a check `us`'s move (made into `pos`) gave `them`.
    #[inline]
    pub(crate) fn count_check(&self, pos: &mut Position<B>, us: usize, them: usize) {
        if self.def.check_limit > 0 && self.in_check(pos, them) {
            pos.checks[us] = pos.checks[us].saturating_add(1);
        }
    }

    /// Three-check: the side that gave `check_limit` checks wins.
    #[inline]
    pub(crate) fn check_limit_outcome(&self, pos: &Position<B>) -> Option<Outcome> {
        let def = self.def;
        if def.check_limit > 0 {
            for side in 0..SIDES {
                if pos.checks[side] >= def.check_limit {
                    return Some(self.win(Side(side as u8), Reason::ThreeChecks));
                }
            }
        }
        None
    }
}
