//! Extinction: what a side that has lost all its pieces gets (antichess: it
//! wins; horde: it loses).

use crate::bitboard::Bits;
use crate::outcome::{Outcome, Reason};
use crate::rules::{Position, Rules};
use crate::side::Side;
use crate::tables::SIDES;
use crate::variant::Verdict;

impl<'a, B: Bits> Rules<'a, B> {
    /// Extinction (antichess, horde): a side with no pieces left wins, loses or
    /// draws, as the variant says.
    #[inline]
    pub(crate) fn extinction_outcome(&self, pos: &Position<B>) -> Option<Outcome> {
        let def = self.def;
        if let Some(verdict) = def.extinction {
            for side in 0..SIDES {
                if pos.by_side[side].is_empty() {
                    let side = Side(side as u8);
                    return Some(match verdict {
                        Verdict::Win => self.win(side, Reason::NoPieces),
                        Verdict::Loss => self.win(side.opponent(), Reason::NoPieces),
                        Verdict::Draw => Outcome::draw(Reason::NoPieces),
                    });
                }
            }
        }
        None
    }
}
