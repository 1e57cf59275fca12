//! Time controls (`3+2`, `blitz`, `1d`) and the chess clock arithmetic.
//!
//! Clocks are stored as the time each side had left when the current turn
//! began plus the absolute deadline of the side to move, so a restart neither
//! loses nor freezes a clock.

use crate::time::Millis;
use std::fmt;

/// A second, in milliseconds.
pub const SECOND: Millis = 1_000;
/// A minute, in milliseconds.
pub const MINUTE: Millis = 60 * SECOND;
const HOUR: Millis = 60 * MINUTE;
const DAY: Millis = 24 * HOUR;

/// How a game is timed.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum TimeControl {
    /// No clock.
    Unlimited,
    /// Correspondence: a fixed time for every move.
    PerMove {
        /// Time for each move.
        per_move: Millis,
    },
    /// A running clock with a Fischer increment.
    Increment {
        /// Starting time for each side.
        base: Millis,
        /// Added after each move.
        increment: Millis,
    },
}

/// Why a typed time control was not understood.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TimeControlError(pub String);

impl fmt::Display for TimeControlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not a time control: {}", self.0)
    }
}

/// The named clocks, one table for every way of choosing them (typed
/// `/play chess rapid`, Discord's clock choices, help texts): name,
/// minutes, seconds of increment.
pub const PRESETS: [(&str, Millis, Millis); 4] = [
    ("bullet", 1, 0),
    ("blitz", 3, 2),
    ("rapid", 10, 5),
    ("classical", 30, 20),
];

/// Time controls suggested as people type a clock, in order after the
/// named [`PRESETS`]: more `<minutes>+<seconds>` pairs, then days per move.
pub const MORE_SUGGESTED: [&str; 6] = ["5+3", "15+10", "1d", "2d", "3d", "7d"];

/// Every suggested clock as its code (`1+0`, `3+2`, …, `7d`), each with the
/// preset's name where it has one: the [`PRESETS`] first, then
/// [`MORE_SUGGESTED`].
pub fn suggested() -> Vec<(String, Option<&'static str>)> {
    PRESETS
        .iter()
        .map(|&(name, minutes, seconds)| (format!("{minutes}+{seconds}"), Some(name)))
        .chain(MORE_SUGGESTED.iter().map(|code| ((*code).to_owned(), None)))
        .collect()
}

impl TimeControl {
    /// Reads a typed time control: `none`, `1d`…`14d` (per move), a preset
    /// of [`PRESETS`] (`bullet` 1+0, `blitz` 3+2, `rapid` 10+5, `classical`
    /// 30+20), or `<minutes>+<seconds>` with 1–180 minutes and 0–180 seconds.
    ///
    /// ```
    /// use kodex_bot::clock::TimeControl;
    /// assert_eq!(
    ///     TimeControl::parse("3+2"),
    ///     Ok(TimeControl::Increment { base: 180_000, increment: 2_000 })
    /// );
    /// ```
    pub fn parse(text: &str) -> Result<TimeControl, TimeControlError> {
        let lower = text.trim().to_lowercase();
        let fail = || TimeControlError(text.trim().to_owned());
        let increment = |minutes: Millis, seconds: Millis| TimeControl::Increment {
            base: minutes * MINUTE,
            increment: seconds * SECOND,
        };
        if matches!(lower.as_str(), "" | "none" | "no" | "-" | "unlimited") {
            return Ok(TimeControl::Unlimited);
        }
        if let Some(&(_, minutes, seconds)) = PRESETS.iter().find(|(name, ..)| *name == lower) {
            return Ok(increment(minutes, seconds));
        }
        if let Some(days) = lower.strip_suffix('d') {
            let days: Millis = days.parse().map_err(|_| fail())?;
            return if (1..=14).contains(&days) {
                Ok(TimeControl::PerMove {
                    per_move: days * DAY,
                })
            } else {
                Err(fail())
            };
        }
        let (minutes, seconds) = lower.split_once('+').ok_or_else(fail)?;
        let minutes: Millis = minutes.trim().parse().map_err(|_| fail())?;
        let seconds: Millis = seconds.trim().parse().map_err(|_| fail())?;
        if !(1..=180).contains(&minutes) || !(0..=180).contains(&seconds) {
            return Err(fail());
        }
        Ok(increment(minutes, seconds))
    }

    /// The short form (`3+2`, `1d`, `-`), also used in storage.
    pub fn code(self) -> String {
        match self {
            TimeControl::Unlimited => "-".to_owned(),
            TimeControl::PerMove { per_move } => format!("{}d", per_move / DAY),
            TimeControl::Increment { base, increment } => {
                format!("{}+{}", base / MINUTE, increment / SECOND)
            }
        }
    }

    /// Each side's time at the start of the game (`None` without a clock).
    pub fn initial(self) -> Option<Millis> {
        match self {
            TimeControl::Unlimited => None,
            TimeControl::PerMove { per_move } => Some(per_move),
            TimeControl::Increment { base, .. } => Some(base),
        }
    }

    /// The time for a phase before play (a setup, a placement): `live` with
    /// a running clock, the time per move by correspondence, none without
    /// a clock.
    ///
    /// ```
    /// use kodex_bot::clock::TimeControl;
    /// let blitz = TimeControl::Increment { base: 180_000, increment: 2_000 };
    /// assert_eq!(blitz.phase_time(60_000), Some(60_000));
    /// assert_eq!(TimeControl::PerMove { per_move: 86_400_000 }.phase_time(60_000), Some(86_400_000));
    /// assert_eq!(TimeControl::Unlimited.phase_time(60_000), None);
    /// ```
    pub fn phase_time(self, live: Millis) -> Option<Millis> {
        match self {
            TimeControl::Increment { .. } => Some(live),
            TimeControl::PerMove { per_move } => Some(per_move),
            TimeControl::Unlimited => None,
        }
    }

    /// The same clock without its increment (an arena player who berserked).
    pub fn without_increment(self) -> TimeControl {
        match self {
            TimeControl::Increment { base, .. } => TimeControl::Increment { base, increment: 0 },
            other => other,
        }
    }

    /// The mover's time after a move that took `elapsed` with `remaining` left
    /// at the start of the turn; `None` when the flag fell first.
    pub fn after_move(self, remaining: Millis, elapsed: Millis) -> Option<Millis> {
        match self {
            TimeControl::Unlimited => Some(0),
            TimeControl::PerMove { per_move } => (elapsed < remaining).then_some(per_move),
            TimeControl::Increment { increment, .. } => {
                (elapsed < remaining).then_some(remaining - elapsed + increment)
            }
        }
    }
}

/// A reading of a clock for people: `4:58`, `1:02:03`, `2d 03h`.
pub fn format_remaining(millis: Millis) -> String {
    let millis = millis.max(0);
    if millis >= DAY {
        return format!("{}d {:02}h", millis / DAY, (millis % DAY) / HOUR);
    }
    let seconds = (millis + SECOND - 1) / SECOND;
    let (h, m, s) = (seconds / 3600, (seconds % 3600) / 60, seconds % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_and_increment_syntax() {
        let inc = |m, s| TimeControl::Increment {
            base: m * MINUTE,
            increment: s * SECOND,
        };
        for (text, expected) in [
            ("1+0", inc(1, 0)),
            ("2+1", inc(2, 1)),
            ("3+2", inc(3, 2)),
            ("5+0", inc(5, 0)),
            ("10+0", inc(10, 0)),
            ("15+10", inc(15, 10)),
            ("Blitz", inc(3, 2)),
            ("bullet", inc(1, 0)),
            ("rapid", inc(10, 5)),
            ("classical", inc(30, 20)),
            ("1d", TimeControl::PerMove { per_move: DAY }),
            ("3d", TimeControl::PerMove { per_move: 3 * DAY }),
            ("none", TimeControl::Unlimited),
        ] {
            assert_eq!(TimeControl::parse(text), Ok(expected), "{text}");
            assert_eq!(TimeControl::parse(&expected.code()), Ok(expected));
        }
    }

    #[test]
    fn nonsense_is_refused() {
        for text in [
            "0+5", "3+", "+2", "999+0", "3+999", "0d", "15d", "xd", "fast", "3-2",
        ] {
            assert!(TimeControl::parse(text).is_err(), "{text}");
        }
    }

    #[test]
    fn increment_is_added_and_flags_fall() {
        let tc = TimeControl::parse("3+2").expect("valid");
        assert_eq!(tc.after_move(10 * SECOND, 4 * SECOND), Some(8 * SECOND));
        assert_eq!(tc.after_move(10 * SECOND, 10 * SECOND), None);
        let corr = TimeControl::parse("1d").expect("valid");
        assert_eq!(corr.after_move(DAY, DAY - 1), Some(DAY));
        assert_eq!(corr.after_move(DAY, DAY), None);
    }

    #[test]
    fn readings() {
        assert_eq!(format_remaining(178_001), "2:59");
        assert_eq!(format_remaining(180_000), "3:00");
        assert_eq!(format_remaining(3_723_000), "1:02:03");
        assert_eq!(format_remaining(DAY + 3 * HOUR), "1d 03h");
        assert_eq!(format_remaining(-5), "0:00");
        for (code, _) in suggested() {
            assert_eq!(TimeControl::parse(&code).map(TimeControl::code), Ok(code));
        }
    }
}
