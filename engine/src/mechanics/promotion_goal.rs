//! The teaching ladder's goal: the first pawn to reach its promotion rank
//! wins (`promotion_wins = true`).

use crate::bitboard::Bits;
use crate::outcome::{Outcome, Reason};
use crate::rules::{Position, Rules};
use crate::side::Side;
use crate::tables::SIDES;

impl<'a, B: Bits> Rules<'a, B> {
    /// A side with a pawn on its promotion rank (or beyond) has won.
    pub(crate) fn promotion_goal_outcome(&self, pos: &Position<B>) -> Option<Outcome> {
        if !self.def.promotion_wins {
            return None;
        }
        for side in 0..SIDES {
            for (ty, piece) in self.def.pieces.iter().enumerate() {
                if !piece.pawn {
                    continue;
                }
                let reached = (pos.by_type[ty] & pos.by_side[side])
                    .squares()
                    .any(|sq| self.relative_rank(side, sq) >= self.def.promotion_rank);
                if reached {
                    return Some(self.win(Side(side as u8), Reason::PromotionGoal));
                }
            }
        }
        None
    }
}
