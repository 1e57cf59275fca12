//! Compulsory captures (antichess): a side that can capture must.

use crate::bitboard::Bits;
use crate::moves::MoveList;
use crate::rules::Rules;

impl<'a, B: Bits> Rules<'a, B> {
    /// Compulsory captures (antichess): when a capture is possible, only
    /// captures are legal.
    #[inline]
    pub(crate) fn keep_compulsory_captures(&self, list: &mut MoveList) {
        if self.def.must_capture && list.iter().any(|m| m.is_capture()) {
            list.retain(|m| m.is_capture());
        }
    }
}
