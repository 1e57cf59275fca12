//! The bare king (shatranj): a side left with nothing but its royal piece
//! loses, unless on its very next move it bares the opponent too, which
//! draws; two bare kings draw. When the bared side cannot bare the opponent
//! back at once, the game ends at once.

use crate::bitboard::Bits;
use crate::moves::MoveList;
use crate::outcome::{Outcome, Reason};
use crate::rules::{Position, Rules};
use crate::side::Side;

impl<'a, B: Bits> Rules<'a, B> {
    /// Whether `side` has nothing but royal pieces left.
    fn is_bare(&self, pos: &Position<B>, side: usize, royal: usize) -> bool {
        (pos.by_side[side] & !pos.by_type[royal]).is_empty()
    }

    /// The bare-king rule (`bare_king = true`), judged with `side` to move.
    pub(crate) fn bare_king_outcome(&self, pos: &Position<B>) -> Option<Outcome> {
        if !self.def.bare_king {
            return None;
        }
        let royal = self.royal_type()?;
        let us = pos.side as usize;
        let them = 1 - us;
        match (self.is_bare(pos, us, royal), self.is_bare(pos, them, royal)) {
            (true, true) => Some(Outcome::draw(Reason::BareKing)),
            // The opponent was bared and its move did not bare us back.
            (false, true) => Some(self.win(Side(us as u8), Reason::BareKing)),
            (true, false) if !self.can_bare_back(pos, royal) => {
                Some(self.win(Side(them as u8), Reason::BareKing))
            }
            _ => None,
        }
    }

    /// Whether the bared side to move can take the opponent's last
    /// non-royal piece with a legal move.
    fn can_bare_back(&self, pos: &Position<B>, royal: usize) -> bool {
        let them = 1 - pos.side as usize;
        let last = pos.by_side[them] & !pos.by_type[royal];
        if last.more_than_one() {
            return false;
        }
        let target = last.lowest();
        let mut list = MoveList::new();
        self.pseudo_moves(pos, &mut list);
        list.iter()
            .any(|&mv| mv.to as usize == target && mv.is_capture() && self.is_legal(pos, mv))
    }
}
