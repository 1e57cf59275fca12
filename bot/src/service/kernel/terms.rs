//! The terms of a new game, as a challenge asks for them (`/play`, team
//! challenges, rematches): the variant, the clock, the colour.

use super::{Msg, Outcome};
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

/// The options of a two-player `/play` beyond its variant, as typed.
pub(crate) struct PlayTerms {
    /// The challenged person (or the computer); `None`: an open challenge.
    pub(crate) opponent: Option<crate::api::UserRef>,
    /// The clock as typed.
    pub(crate) clock: Option<String>,
    /// The colour asked for.
    pub(crate) color: Option<ColorChoice>,
    /// The start position as typed.
    pub(crate) fen: Option<String>,
    /// `rated` or `casual` as asked.
    pub(crate) rated: Option<bool>,
    /// Published in the platform's lobby (`public`).
    pub(crate) public: bool,
}

/// Whether `variant` is played by more than two people (a team challenge).
pub(crate) fn is_team_variant(variant: &Variant) -> bool {
    variant.definition().seating().len() > 2
}

/// Whether a two-player `/play` is rated: as asked (`rated`), else rated
/// when it has a clock. A game against the computer, from a position or
/// without a clock is never rated; asking for one is refused, saying why.
pub(crate) fn rated_choice(
    asked: Option<bool>,
    computer: bool,
    from_position: bool,
    clock: TimeControl,
) -> Outcome<bool> {
    let refusal = if computer {
        Some("error-rated-computer")
    } else if from_position {
        Some("error-rated-position")
    } else if clock == TimeControl::Unlimited {
        Some("error-rated-no-clock")
    } else {
        None
    };
    match (asked, refusal) {
        (Some(true), Some(key)) => Err(Msg::new(key).into()),
        (Some(asked), None) => Ok(asked),
        (None, None) => Ok(true),
        (_, Some(_)) => Ok(false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_of_two_with_a_clock_are_rated_unless_casual_and_some_never_are() {
        let blitz = TimeControl::parse("3+2").expect("clock");
        let rated = |asked, computer, position, clock| {
            rated_choice(asked, computer, position, clock).map_err(|e| format!("{e:?}"))
        };
        assert_eq!(rated(None, false, false, blitz), Ok(true));
        assert_eq!(rated(Some(false), false, false, blitz), Ok(false));
        assert_eq!(rated(Some(true), false, false, blitz), Ok(true));
        // Without a clock, against the computer, from a position: casual,
        // and asking for rated is refused.
        for (computer, position, clock) in [
            (false, false, TimeControl::Unlimited),
            (true, false, blitz),
            (false, true, blitz),
        ] {
            assert_eq!(rated(None, computer, position, clock), Ok(false));
            assert_eq!(rated(Some(false), computer, position, clock), Ok(false));
            assert!(rated(Some(true), computer, position, clock).is_err());
        }
        assert!(rated(Some(true), true, false, blitz)
            .is_err_and(|e| e.contains("error-rated-computer")));
    }
}
