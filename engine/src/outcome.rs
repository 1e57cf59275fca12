//! How a game ends by the rules. A leaf module: it imports nothing from the
//! crate but [`crate::side`].

use crate::side::Side;

/// Why a game ended by the rules (resignation, time-out and agreement are the
/// service's business).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Reason {
    /// Checkmate.
    Checkmate,
    /// Stalemate (a draw, or a win where the variant says so).
    Stalemate,
    /// Threefold repetition.
    Repetition,
    /// Fifty moves without capture or pawn move.
    FiftyMoves,
    /// Neither side can mate.
    InsufficientMaterial,
    /// A king exploded (atomic).
    ExplodedKing,
    /// The third check (three-check).
    ThreeChecks,
    /// A king reached the hill (king of the hill).
    Hill,
    /// A king reached the last rank (racing kings).
    Race,
    /// A side has no pieces left (antichess, horde).
    NoPieces,
    /// A side has no legal move and wins or loses by the variant (antichess).
    NoMoves,
}

impl Reason {
    /// A stable key for i18n (`"checkmate"`, `"three-checks"`, …).
    pub fn key(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::Repetition => "repetition",
            Reason::FiftyMoves => "fifty-moves",
            Reason::InsufficientMaterial => "insufficient-material",
            Reason::ExplodedKing => "exploded-king",
            Reason::ThreeChecks => "three-checks",
            Reason::Hill => "hill",
            Reason::Race => "race",
            Reason::NoPieces => "no-pieces",
            Reason::NoMoves => "no-moves",
        }
    }
}

/// How a game ended by the rules.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Outcome {
    /// The winner, `None` for a draw.
    pub winner: Option<Side>,
    /// Why.
    pub reason: Reason,
}
