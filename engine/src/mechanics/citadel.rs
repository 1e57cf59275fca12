//! Citadels (citadel chess, Tamerlane): squares only royal pieces may enter
//! (`royal_only`), so no other piece moves to or attacks them, and of those
//! only the ones listed for the royal's side where `royal_entry` lists
//! any (Tamerlane: the king enters the opponent's citadel, the adventitious
//! king its own); a royal piece
//! arriving on one of its side's `royal_draw` squares (the opponent's
//! citadel) draws the game.

use crate::bitboard::Bits;
use crate::outcome::{Outcome, Reason};
use crate::rules::{Position, Rules};

impl<'a, B: Bits> Rules<'a, B> {
    /// The squares a piece of type `ty` of `side` may not move to or attack:
    /// the citadels, but those the king (the first royal type) may enter,
    /// and for Tamerlane's adventitious king its own citadel (the one its
    /// king may not enter).
    #[inline(always)]
    pub(crate) fn closed_to(&self, ty: usize, side: usize) -> B {
        if self.royal_type() == Some(ty) {
            self.t.royal_closed[side]
        } else if self.keeps_citadel(ty) {
            self.t.royal_only & !self.t.royal_closed[side]
        } else {
            self.t.royal_only
        }
    }

    /// Whether pieces of type `ty` enter their own citadel (the adventitious king).
    #[inline]
    pub(crate) fn keeps_citadel(&self, ty: usize) -> bool {
        self.def
            .pawn_of_pawns
            .as_ref()
            .is_some_and(|pp| pp.becomes == ty)
    }

    /// The piece types that do not attack `square` because it is closed to
    /// them (bit `t` for type `t`).
    #[inline]
    pub(crate) fn locked_out_types(&self, square: usize) -> u32 {
        if !self.t.royal_only.has(square) {
            return 0;
        }
        match self.royal_type() {
            Some(king) => !(1 << king),
            None => !0,
        }
    }

    /// A royal piece on a square where its arrival draws.
    pub(crate) fn citadel_outcome(&self, pos: &Position<B>) -> Option<Outcome> {
        for side in 0..crate::tables::SIDES {
            let draw = self.t.royal_draw[side];
            if draw.any() && (self.royals(pos, side) & draw).any() {
                return Some(Outcome::draw(Reason::Citadel));
            }
        }
        None
    }
}
