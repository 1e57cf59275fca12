//! The terms of a new game, as a challenge asks for them (`/play`, team
//! challenges, rematches): the variant, the clock, the colour.

use crate::clock::TimeControl;
use crate::store::Color;
use kodex_engine::{Side, Variant};

/// The colour a challenger asked for.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum ColorChoice {
    White,
    Black,
    Random,
}

impl ColorChoice {
    pub(crate) fn parse(text: &str) -> Option<ColorChoice> {
        match text.trim().to_lowercase().as_str() {
            "white" | "w" | "белые" | "белыми" => Some(ColorChoice::White),
            "black" | "b" | "черные" | "чёрные" | "черными" | "чёрными" => {
                Some(ColorChoice::Black)
            }
            "random" | "r" | "" | "случайно" | "случайный" | "случайным" => {
                Some(ColorChoice::Random)
            }
            _ => None,
        }
    }

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
