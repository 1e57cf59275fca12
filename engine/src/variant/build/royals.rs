//! Royal pieces' squares and moves: squares only royals may stand on, the
//! squares that draw, the entries, a royal leap and the royal swap.

use super::Context;
use crate::betza::{self, Atom};
use crate::variant::raw::RawVariant;
use crate::variant::{PieceDef, VariantError};

/// The royal squares of a definition.
pub(super) struct RoyalSquares {
    /// Squares only royal pieces may stand on.
    pub(super) only: Vec<usize>,
    /// Per side, the squares on which its royal piece draws.
    pub(super) draw: [Vec<usize>; 2],
    /// Per side, the squares of `only` its royal piece enters by.
    pub(super) entry: [Vec<usize>; 2],
}

/// Reads `royal_only`, `royal_draw` and `royal_entry` (within `royal_only`).
pub(super) fn squares(cx: &Context, raw: &RawVariant) -> Result<RoyalSquares, VariantError> {
    let only = cx.squares("royal_only", &raw.royal_only)?;
    let draw = [
        cx.squares("royal_draw", &raw.royal_draw[0])?,
        cx.squares("royal_draw", &raw.royal_draw[1])?,
    ];
    let entry = [
        cx.squares("royal_entry", &raw.royal_entry[0])?,
        cx.squares("royal_entry", &raw.royal_entry[1])?,
    ];
    if entry.iter().flatten().any(|sq| !only.contains(sq)) {
        return Err(cx.err(
            "royal_entry",
            "lists a square that is not in `royal_only`".into(),
        ));
    }
    Ok(RoyalSquares { only, draw, entry })
}

/// The royal leap (a Betza move of the royal piece), and whether the royal
/// swap may be played.
pub(super) fn leap(
    cx: &Context,
    raw: &RawVariant,
    pieces: &[PieceDef],
) -> Result<Option<Vec<Atom>>, VariantError> {
    let royal_leap = raw
        .royal_leap
        .as_deref()
        .map(|text| betza::parse_on(text, cx.geometry.is_hex()))
        .transpose()
        .map_err(|e| cx.err("royal_leap", e.to_string()))?;
    if royal_leap.is_some() && !pieces.iter().any(|p| p.royal) {
        return Err(cx.err("royal_leap", "needs a royal piece".into()));
    }
    if raw.royal_swap && (!pieces.iter().any(|p| p.royal) || raw.castling || royal_leap.is_some()) {
        return Err(cx.err(
            "royal_swap",
            "needs a royal piece, and goes with neither castling nor a royal leap".into(),
        ));
    }
    Ok(royal_leap)
}
