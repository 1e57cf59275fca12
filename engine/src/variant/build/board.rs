//! The board: the id, the size, the geometry (square or Gliński's hexagon)
//! and its file letters, holes, zones, and how it is drawn.

use super::Context;
use crate::geometry::Geometry;
use crate::variant::raw::RawVariant;
use crate::variant::VariantError;
use crate::view::BoardStyle;
use std::collections::BTreeMap;

/// Checks the id and reads the board: the context every later part reads.
pub(super) fn context<'a>(file: &'a str, raw: &RawVariant) -> Result<Context<'a>, VariantError> {
    let mut cx = Context {
        file,
        geometry: Geometry::rectangle(1, 1),
        zones: BTreeMap::new(),
        letters: Vec::new(),
    };
    if raw.id.is_empty()
        || !raw
            .id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err(cx.err("id", "must be non-empty letters, digits, `-` or `_`".into()));
    }
    if !(1..=16).contains(&raw.files) || !(1..=16).contains(&raw.ranks) {
        return Err(cx.err("files", "the board must be 1 to 16 files and ranks".into()));
    }
    cx.geometry = match raw.geometry.as_deref() {
        None | Some("square") => Geometry::rectangle(raw.files, raw.ranks),
        Some("hex") if raw.files == 11 && raw.ranks == 11 => Geometry::hexagon(),
        Some("hex") => {
            return Err(cx.err(
                "geometry",
                "the hexagonal board is 11 files by 11 ranks".into(),
            ))
        }
        Some(other) => {
            return Err(cx.err(
                "geometry",
                format!("`{other}` is not a geometry (square, hex)"),
            ))
        }
    };
    if let Some(letters) = &raw.file_letters {
        cx.geometry = cx
            .geometry
            .clone()
            .with_file_letters(letters)
            .map_err(|why| cx.err("file_letters", why))?;
    }
    for hole in cx.squares("holes", &raw.holes)? {
        cx.geometry.remove(hole);
    }
    for (name, list) in &raw.zones {
        let set = cx.squares(&format!("zones.{name}"), list)?;
        cx.zones.insert(name.clone(), set);
    }
    Ok(cx)
}

/// How the board is drawn (a hexagonal board always as a hexagon).
pub(super) fn style(cx: &Context, raw: &RawVariant) -> Result<BoardStyle, VariantError> {
    Ok(match raw.style.as_deref() {
        _ if cx.geometry.is_hex() => BoardStyle::Hexagonal,
        None | Some("checkered") => BoardStyle::Checkered,
        Some("uniform") => BoardStyle::Uniform,
        Some("points") => BoardStyle::Points,
        Some(other) => {
            return Err(cx.err(
                "style",
                format!("unknown style `{other}` (checkered, uniform, points)"),
            ))
        }
    })
}
