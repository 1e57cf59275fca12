//! Time travel: how far back a jump goes, and what it goes with.

use super::Context;
use crate::side::SIDES;
use crate::variant::raw::RawVariant;
use crate::variant::VariantError;
use crate::view::Visibility;

/// Time travel needs two players, full visibility, no drops and no explosions.
pub(super) fn check(cx: &Context, raw: &RawVariant) -> Result<(), VariantError> {
    let Some(travel) = &raw.time_travel else {
        return Ok(());
    };
    if !(1..=9).contains(&travel.max_back) {
        return Err(cx.err("time_travel.max_back", "must be 1 to 9 own moves".into()));
    }
    let hidden = raw.fog || raw.visibility.is_some_and(|v| v != Visibility::Full);
    if raw.seats.is_some_and(|s| s != SIDES as u8) || raw.drops || raw.atomic || hidden {
        return Err(cx.err(
            "time_travel",
            "time travel needs two players, full visibility, no drops and no explosions".into(),
        ));
    }
    Ok(())
}
