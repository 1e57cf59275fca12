//! What a referee tells each audience about a move: typed values, so the bot
//! only puts them into words and never decides itself what an audience may
//! learn. Full-information games tell everyone everything; hidden-information
//! games tell the mover their own move and the others only that a move was made.

use crate::side::Side;

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
    },
}
