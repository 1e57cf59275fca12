//! Pockets filled by a partner (bughouse): captures leave the board without
//! going to the captor's pocket (the game layer passes them on, see
//! [`crate::Game::captured_for_partner`]), and a side without a legal move
//! that a drop of some piece would save is not mated: it waits for its
//! partner to send that piece ("mate on the board" only).

use crate::bitboard::Bits;
use crate::moves::MoveList;
use crate::rules::{Position, Rules};

impl<'a, B: Bits> Rules<'a, B> {
    /// `pos` with one of every droppable piece added to `side`'s pocket
    /// (where it held none): any drop that side then has is one its pocket
    /// could come to hold.
    pub(crate) fn stocked(&self, pos: &Position<B>, side: usize) -> Position<B> {
        let mut stocked = *pos;
        for ty in 0..self.types() {
            if Some(ty) != self.royal_type() {
                let count = &mut stocked.pockets[side][ty];
                *count = (*count).max(1);
            }
        }
        stocked
    }

    /// Whether the side to move of `pos`, which has no legal move, waits for
    /// a piece from its partner instead of being mated or stalemated: in a
    /// variant with partner pockets, some drop would give it a legal move.
    pub(crate) fn waits_for_pieces(&self, pos: &Position<B>) -> bool {
        if !self.def.partner_pockets {
            return false;
        }
        let mut replies = MoveList::new();
        self.legal_moves_on_board(&self.stocked(pos, pos.side as usize), &mut replies);
        !replies.is_empty()
    }
}
