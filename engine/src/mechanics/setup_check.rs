//! Battle chess's first-move rule, for every variant with a setup phase: two
//! armies set up blind may leave a king in check. If the side not to move is
//! in check before the first move, it loses at once (Mironov's rule: "the
//! player whose king is in check, while the right to move belongs to the
//! opponent, loses"). The side to move being in check is ordinary chess: it
//! must answer the check (and is mated if it cannot).
//!
//! Legal play never leaves the side that just moved in check, so the rule can
//! only ever apply to the start position: no ply count is needed.

use crate::bitboard::Bits;
use crate::outcome::{Outcome, Reason};
use crate::rules::{Position, Rules};

impl<'a, B: Bits> Rules<'a, B> {
    /// The side not to move is in check after a setup phase: it loses.
    #[inline]
    pub(crate) fn setup_check_outcome(&self, pos: &Position<B>) -> Option<Outcome> {
        if self.def.setup.is_none() || self.def.atomic {
            return None;
        }
        let waiting = 1 - pos.side as usize;
        (self.royals(pos, waiting).any() && self.in_check(pos, waiting))
            .then(|| self.win(pos.turn(), Reason::CheckAtStart))
    }
}
