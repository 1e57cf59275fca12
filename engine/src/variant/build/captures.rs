//! Captures: explosions (atomic) and the pieces they spare, and capture
//! transforms, which go with neither drops nor explosions.

use super::Context;
use crate::variant::raw::RawVariant;
use crate::variant::VariantError;

/// Capture transforms go with neither drops nor explosions.
pub(super) fn check_transforms(cx: &Context, raw: &RawVariant) -> Result<(), VariantError> {
    if raw.capture_transforms && (raw.drops || raw.atomic) {
        return Err(cx.err(
            "capture_transforms",
            "does not go with drops or explosions".into(),
        ));
    }
    Ok(())
}

/// The piece types an explosion spares.
pub(super) fn explosion_immune(cx: &Context, raw: &RawVariant) -> Result<Vec<usize>, VariantError> {
    cx.types_of("explosion_immune", &raw.explosion_immune)
}
