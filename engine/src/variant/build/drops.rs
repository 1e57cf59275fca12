//! Drops: the keys that need them, and the second board of bughouse.

use super::Context;
use crate::side::SIDES;
use crate::variant::raw::RawVariant;
use crate::variant::{DropMate, PromotedCapture, VariantError};

/// The drop keys need `drops = true`.
pub(super) fn check(cx: &Context, raw: &RawVariant) -> Result<(), VariantError> {
    if !raw.drops && raw.drop_mate != DropMate::Allowed {
        return Err(cx.err("drop_mate", "needs `drops = true`".into()));
    }
    if !raw.drops && raw.partner_pockets {
        return Err(cx.err("partner_pockets", "needs `drops = true`".into()));
    }
    if !raw.drops && raw.promoted_capture != PromotedCapture::Pawn {
        return Err(cx.err("promoted_capture", "needs `drops = true`".into()));
    }
    Ok(())
}

/// How many boards: two only with drops and two players a board (bughouse).
pub(super) fn boards(cx: &Context, raw: &RawVariant) -> Result<u8, VariantError> {
    match raw.boards {
        None | Some(1) => Ok(1),
        Some(2) if raw.drops && raw.seats.is_none_or(|s| s == SIDES as u8) => Ok(2),
        Some(2) => Err(cx.err(
            "boards",
            "two boards need drops and two players a board (bughouse)".into(),
        )),
        Some(other) => Err(cx.err("boards", format!("{other} boards: 1 or 2"))),
    }
}
