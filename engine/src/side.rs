//! Sides (players) as indices, and teams: the sides that win or lose together.

use std::fmt;

/// Sides a position holds today (arrays indexed by side); four-player games are a later step.
pub const SIDES: usize = 2;

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
            4 => "yellow",
            _ => "blue",
        }
    }

    /// The colour index named `name` (`"red"` → 2), the inverse of
    /// [`Side::color_name`].
    pub fn from_color_name(name: &str) -> Option<Side> {
        (0..5).map(Side).find(|side| side.color_name() == name)
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.color_name())
    }
}

/// A team: the sides that win or lose together. A variant says which team a
/// side plays for ([`crate::variant::VariantDef::team_of`]); in two-player
/// games each side is its own team (side 0 plays for team 0, side 1 for team 1).
///
/// ```
/// use kodex_engine::{Registry, Side, Team};
/// let chess = Registry::builtin().get("chess").unwrap().clone();
/// assert_eq!(chess.definition().team_of(Side::BLACK), Team(1));
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
pub struct Team(pub u8);

impl Team {
    /// The index as `usize`, for arrays indexed by team.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}
