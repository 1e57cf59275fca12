//! Kings taken rather than mated (Enochian chess, `king_capture = true`, with
//! pieces owned by seats): a move may not put the mover's own king where a
//! live enemy piece attacks it, but a king in check must move (into another
//! check if need be) unless friendly pieces hem it in; a seat that cannot
//! move passes (stalemate suspends it); a king is taken like any piece, and
//! the army of a seat without its king is frozen: it stays on the board, does
//! not move, attacks nothing and cannot be taken. The side whose two kings
//! are taken loses. Here too: crossings, a bishop or queen completing a
//! 2×2 square of its kind and taking the other three.

use crate::bitboard::Bits;
use crate::moves::{Move, MoveList};
use crate::outcome::{Outcome, Reason};
use crate::rules::{pieces_of_types, Position, Rules};
use crate::side::Side;
use crate::tables::SIDES;

impl<'a, B: Bits> Rules<'a, B> {
    /// The frozen pieces of `side`: the army of each of its seats whose king
    /// was taken. Empty but with `king_capture`.
    pub fn frozen(&self, pos: &Position<B>, side: usize) -> B {
        let Some(seats) = self.t.seats.as_ref().filter(|_| self.def.king_capture) else {
            return B::EMPTY;
        };
        let mut frozen = B::EMPTY;
        for seat in 0..2 {
            if (pieces_of_types(pos, seats.royal_types[seat]) & pos.by_side[side]).is_empty()
                && pos.thrones.controlled(side) != Some(seat)
            {
                frozen |= pieces_of_types(pos, seats.own_types[seat]) & pos.by_side[side];
            }
        }
        frozen
    }

    /// Whether the king of `side`'s seat (on turn, or that just moved) is
    /// attacked by an enemy piece that is not frozen. Frozen pieces still
    /// block lines: they are counted as `side`'s own for the test.
    pub fn live_check(&self, pos: &Position<B>, side: usize) -> bool {
        let frozen = self.frozen(pos, 1 - side);
        if frozen.is_empty() {
            return self.in_check(pos, side);
        }
        let mut seen = *pos;
        seen.by_side[1 - side] &= !frozen;
        seen.by_side[side] |= frozen;
        self.in_check(&seen, side)
    }

    /// The king-capture rules on the pseudo-legal moves of the seat on turn
    /// (already narrowed to the pieces it commands). Leaves the list empty
    /// only for a stalemate that ends the game: the seat cannot move and its
    /// partner's king is gone.
    pub(crate) fn keep_king_capture_moves(&self, pos: &Position<B>, list: &mut MoveList) {
        let us = pos.side as usize;
        let frozen = self.frozen(pos, 1 - us);
        let Some(king) = self.royals(pos, us).squares().next() else {
            if self.revived(pos, us, crate::rules::seat_on_turn(pos, us)) {
                // A kingless army its partner controls moves, with no king to keep.
                list.retain(|m| !frozen.has(m.to as usize));
            } else {
                // A frozen army passes.
                list.clear();
            }
            return;
        };
        list.retain(|m| !frozen.has(m.to as usize));
        if self.live_check(pos, us) {
            // The king's own moves (on a doubled throne the other piece
            // moves from the king's square too).
            let king_move =
                |m: &Move| m.from as usize == king && self.def.pieces[m.piece as usize].royal;
            if list.iter().any(king_move) {
                list.retain(king_move);
            }
            return;
        }
        list.retain(|&mv| {
            let mut after = *pos;
            self.make(&mut after, mv);
            !self.live_check(&after, us)
        });
    }

    /// A crossing (Enochian chess): the piece of type `ty` that arrived on
    /// `to` fills one of the variant's 2×2 crossing squares with pieces of
    /// its group (bishops, or queens) and takes the other three — partners'
    /// too, but no frozen piece.
    pub(crate) fn cross(&self, pos: &mut Position<B>, to: usize, ty: usize) {
        let Some(&group) = self
            .def
            .crossing_groups
            .iter()
            .find(|&&g| g & (1 << ty) != 0)
        else {
            return;
        };
        let frozen = self.frozen(pos, 0) | self.frozen(pos, 1);
        for square in self.def.crossings.iter().filter(|sq| sq.contains(&to)) {
            let others = square.iter().copied().filter(|&sq| sq != to);
            let full = others.clone().all(|sq| {
                !frozen.has(sq) && self.type_at(pos, sq).is_some_and(|t| group & (1 << t) != 0)
            });
            if full {
                for sq in others {
                    pos.remove(sq);
                }
                pos.halfmove = 0;
                return;
            }
        }
    }

    /// A side whose two kings were taken loses; a side left with two bare
    /// kings draws.
    pub(crate) fn king_capture_outcome(&self, pos: &Position<B>) -> Option<Outcome> {
        let seats = self.t.seats.as_ref().filter(|_| self.def.king_capture)?;
        let kings = pieces_of_types(pos, seats.royal_types[0] | seats.royal_types[1]);
        (0..SIDES)
            .find(|&side| (kings & pos.by_side[side]).is_empty())
            .map(|side| self.win(Side(1 - side as u8), Reason::KingsTaken))
            .or_else(|| self.bare_kings_outcome(pos))
    }
}
