//! [`Move`], the one move type: the bot and the search hand it around, and
//! only the engine reads its encoding (the fields are the crate's).

/// What kind of move it is.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub(crate) enum MoveKind {
    /// A move to an empty square.
    Quiet,
    /// A capture on the destination square.
    Capture,
    /// A pawn's double step (may allow en passant).
    DoubleStep,
    /// An en-passant capture.
    EnPassant,
    /// Castling: `from` is the king, `to` the rook (king takes rook).
    Castle,
    /// A drop from the pocket: `piece` is dropped on `to`.
    Drop,
}

/// A legal move of a [`crate::Game`] or of the search: origin, destination,
/// moving (or dropped) piece type, promotion. Turn it into text with
/// [`crate::Game::uci`] or [`crate::Game::san`]; the encoding is the engine's.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    /// Origin square (the destination for drops).
    pub(crate) from: u8,
    /// Destination square (for castling: the rook's square).
    pub(crate) to: u8,
    /// The moving piece type (for drops: the dropped type).
    pub(crate) piece: u8,
    /// Promotion piece type + 1, or 0.
    pub(crate) promotion: u8,
    /// The kind of move.
    pub(crate) kind: MoveKind,
}

impl Move {
    /// The promotion piece type, if any.
    #[inline]
    pub(crate) fn promotion(self) -> Option<usize> {
        (self.promotion > 0).then(|| self.promotion as usize - 1)
    }

    /// Whether the move captures (including en passant).
    #[inline]
    pub(crate) fn is_capture(self) -> bool {
        matches!(self.kind, MoveKind::Capture | MoveKind::EnPassant)
    }
}

/// A reusable list of moves.
pub type MoveList = Vec<Move>;
