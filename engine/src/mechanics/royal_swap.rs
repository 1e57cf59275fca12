//! The king's swap (Tamerlane): once per game a king that is not in check
//! may change places with any other piece of its side. The move is a
//! [`MoveKind::Castle`] whose two pieces trade squares (as Diana's castling
//! does: [`Rules::castling_destinations`]), so notation, piece identities
//! and views treat it as they treat castling; it is spent like the royal
//! leap ([`Position::royal_leaps_used`]).

use crate::bitboard::Bits;
use crate::moves::{Move, MoveKind, MoveList};
use crate::rules::{Position, Rules};

impl<'a, B: Bits> Rules<'a, B> {
    /// The swaps the side to move may still make (pseudo-legal: the king's
    /// safety on its new square is checked with every other move). A pawn
    /// never lands on its promotion zone or last rank by a swap.
    pub(crate) fn push_royal_swaps(&self, pos: &Position<B>, list: &mut MoveList) {
        let Some(king_type) = self.royal_type() else {
            return;
        };
        let us = pos.side as usize;
        let kings = pos.by_type[king_type] & pos.by_side[us];
        if !self.def.royal_swap
            || pos.royal_leaps_used & (1 << us) != 0
            || kings.is_empty()
            || kings.more_than_one()
            || self.in_check(pos, us)
        {
            return;
        }
        let king = kings.lowest();
        for square in (pos.by_side[us] & !kings).squares() {
            let Some(ty) = self.type_at(pos, square) else {
                continue;
            };
            let last_rank = self.relative_rank(us, king) >= self.def.promotion_rank;
            if self.t.pieces[ty][us].promotion_zone.has(king)
                || (self.def.pieces[ty].pawn && last_rank)
            {
                continue;
            }
            list.push(Move {
                from: king as u8,
                to: square as u8,
                piece: king_type as u8,
                promotion: 0,
                kind: MoveKind::Castle,
            });
        }
    }

    /// Records a spent swap when `mv`, made by the side to move of `pos`, is one.
    #[inline]
    pub(crate) fn note_royal_swap(&self, pos: &mut Position<B>, mv: Move) {
        if self.def.royal_swap && mv.kind == MoveKind::Castle {
            pos.royal_leaps_used |= 1 << pos.side;
        }
    }
}
