//! Sides (players) as indices, with teams for games of more than two players.

use std::fmt;

/// A side (a player's army) as an index: 0 moves first. Two-player games use
/// [`Side::WHITE`] and [`Side::BLACK`]; four-player games use 0–3.
///
/// ```
/// use kodex_engine::Side;
/// assert_eq!(Side::WHITE.opponent(), Side::BLACK);
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
pub struct Side(pub u8);

impl Side {
    /// The first player (white).
    pub const WHITE: Side = Side(0);
    /// The second player (black).
    pub const BLACK: Side = Side(1);

    /// The index as `usize`, for arrays indexed by side.
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The other side of a two-player game.
    pub fn opponent(self) -> Side {
        Side(self.0 ^ 1)
    }

    /// The conventional colour name of a two-player side (`"white"`, `"black"`).
    pub fn color_name(self) -> &'static str {
        match self.0 {
            0 => "white",
            1 => "black",
            2 => "red",
            _ => "blue",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.color_name())
    }
}
