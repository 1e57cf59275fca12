//! Capturers that change type (Frankfurt chess, `capture_transforms = true`):
//! a capturing piece becomes the type it captured; a royal capturer becomes
//! the captured type's royal twin (`royal_twin`), so it stays royal. Also the
//! pieces that turn back into another type once they move (`reverts_to`: the
//! whale shogi dolphin after its bishop move back from the far rank).

use crate::bitboard::Bits;
use crate::rules::Rules;

impl<'a, B: Bits> Rules<'a, B> {
    /// The type a piece of type `ty` has on arrival, having captured a piece
    /// of type `captured` (if any), when it does not promote.
    #[inline]
    pub(crate) fn arriving_type(&self, ty: usize, captured: Option<usize>) -> usize {
        let piece = &self.def.pieces[ty];
        if let (true, Some(victim)) = (self.def.capture_transforms, captured) {
            return if piece.royal {
                self.def.pieces[victim].royal_twin.unwrap_or(ty)
            } else {
                victim
            };
        }
        piece.reverts_to.unwrap_or(ty)
    }

    /// Whether a capture into the promotion zone promotes: not where the
    /// capturer becomes what it took (Frankfurt: a pawn taking a rook on the
    /// last rank becomes a rook, with no further promotion).
    #[inline]
    pub(crate) fn capture_promotes(&self) -> bool {
        !self.def.capture_transforms
    }
}
