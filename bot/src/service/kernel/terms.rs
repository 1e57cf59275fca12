//! The terms of a new game, as a challenge asks for them (`/play`, team
//! challenges, rematches): the variant, the clock, the colour.

pub(crate) use crate::api::ColorChoice;
use crate::clock::TimeControl;
use crate::store::Color;
use kodex_engine::{Side, Variant};

impl ColorChoice {
    /// The stored colour.
    pub(crate) fn color(self) -> Color {
        match self {
            ColorChoice::White => Color::Side(Side::WHITE),
            ColorChoice::Black => Color::Side(Side::BLACK),
            ColorChoice::Random => Color::Random,
        }
    }
}

/// What a `/play` asked for, checked.
pub(crate) struct Terms {
    pub(crate) variant: Variant,
    pub(crate) time_control: TimeControl,
    pub(crate) color: ColorChoice,
}

/// Whether `variant` is played by more than two people (a team challenge).
pub(crate) fn is_team_variant(variant: &Variant) -> bool {
    variant.definition().seating().len() > 2
}
