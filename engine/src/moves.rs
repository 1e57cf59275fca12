//! The internal move encoding.

/// A move: origin, destination, promotion or dropped piece, and its kind.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Move {}
