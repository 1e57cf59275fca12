//! FEN in and out, in Fairy-Stockfish conventions.

use std::fmt;

/// Why a FEN was rejected.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct FenError(pub String);

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid FEN: {}", self.0)
    }
}

impl std::error::Error for FenError {}
