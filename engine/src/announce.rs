//! What a referee tells each audience about a move: typed values, so the bot
//! only puts them into words and never decides itself what an audience may
//! learn. Full-information games tell everyone everything; hidden-information
//! games tell the mover their own move and the others only that a move was made.
//! Kriegspiel's referee also says aloud, to everyone, the square of each
//! capture, the direction of each check, the pawn tries of the side to move
//! and every impossible attempt.

use crate::side::Side;
pub use crate::visibility::kriegspiel::CheckDirection;

/// One thing an audience is told about the last move.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Announcement {
    /// `side` moved; the move in SAN when the audience may know it.
    Moved {
        /// Who moved.
        side: Side,
        /// The move, or `None` when it is hidden from this audience.
        san: Option<String>,
    },
    /// `side` (now to move) is in check.
    Check {
        /// The side in check.
        side: Side,
        /// Kriegspiel: the direction of each check (two in a double check);
        /// empty in other variants.
        directions: Vec<CheckDirection>,
    },
    /// Kriegspiel: `side` captured on `square` (not what, not with what).
    /// En passant names the square of the captured pawn.
    Capture {
        /// Who captured.
        side: Side,
        /// The square's name (`e5`).
        square: String,
    },
    /// Kriegspiel: `side` (now to move) has `count` legal pawn captures.
    PawnTries {
        /// The side to move.
        side: Side,
        /// How many pawn captures it may make (more than zero).
        count: u32,
    },
    /// Kriegspiel: `side` tried a move that is impossible in the real
    /// position; it is still `side`'s turn and nothing else changed.
    Impossible {
        /// Who tried.
        side: Side,
    },
}
