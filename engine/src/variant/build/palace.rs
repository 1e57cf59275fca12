//! The palace keys (Janggi): marked lines, river, passing, bikjang,
//! counting, and each piece's line moves, confinement and hopping limits.

use crate::betza;
use crate::geometry::Geometry;
use crate::side::SIDES;
use crate::variant::raw::RawVariant;
use crate::variant::{Counting, PalaceRules, PieceDef};
use std::collections::BTreeMap;

/// A piece's palace keys, kept apart from the rest of its table.
pub(super) struct RawPalacePiece {
    pub(super) lines: Option<String>,
    pub(super) confined: Option<[String; 2]>,
    pub(super) hops_not_over: Vec<String>,
    pub(super) captures_not: Vec<String>,
}

/// Compiles the palace keys (Janggi): marked lines, river, passing, bikjang,
/// counting, and each piece's line moves, confinement and hopping limits.
/// Errors are (key, problem).
pub(super) fn build_palace(
    raw: &RawVariant,
    raw_pieces: &[RawPalacePiece],
    letters: &[char],
    geometry: &Geometry,
    zones: &BTreeMap<String, Vec<usize>>,
    pieces: &mut [PieceDef],
) -> Result<PalaceRules, (String, String)> {
    let type_of = |key: &str, text: &str| -> Result<usize, (String, String)> {
        let mut chars = text.chars();
        let found = match (chars.next(), chars.next()) {
            (Some(c), None) => letters.iter().position(|l| *l == c.to_ascii_lowercase()),
            _ => None,
        };
        found.ok_or_else(|| {
            (
                key.to_string(),
                format!("`{text}` is not a piece of this variant"),
            )
        })
    };
    let mut lines = Vec::new();
    for text in &raw.lines {
        let ends = text
            .split_once('-')
            .and_then(|(a, b)| Some((geometry.parse(a)?, geometry.parse(b)?)));
        let Some((a, b)) = ends else {
            return Err((
                "lines".into(),
                format!("`{text}` is not a line like d1-f3 between two squares of the board"),
            ));
        };
        let (df, dr) = (
            geometry.file_of(b) - geometry.file_of(a),
            geometry.rank_of(b) - geometry.rank_of(a),
        );
        let straight = (df == 0 || dr == 0 || df.abs() == dr.abs()) && a != b;
        let steps = df.abs().max(dr.abs());
        let squares: Vec<usize> = (0..=steps)
            .filter_map(|k| geometry.offset(a, df.signum() * k, dr.signum() * k))
            .collect();
        if !straight || squares.len() != steps as usize + 1 {
            return Err((
                "lines".into(),
                format!("`{text}` is not a straight line over existing squares"),
            ));
        }
        lines.push(squares);
    }
    if raw.river.is_some_and(|r| r == 0 || r >= raw.ranks) {
        return Err(("river".into(), "must be a rank below the last one".into()));
    }
    let counting = match &raw.counting {
        None => None,
        Some(c) => {
            let mut values = vec![0.0; pieces.len()];
            for (letter, value) in &c.values {
                values[type_of("counting.values", letter)?] = *value;
            }
            Some(Counting {
                values,
                bonus: c.bonus,
            })
        }
    };
    for ((letter, rp), piece) in letters.iter().zip(raw_pieces).zip(pieces.iter_mut()) {
        let key = format!("pieces.{letter}");
        if let Some(text) = &rp.lines {
            piece.palace.line_atoms =
                betza::parse(text).map_err(|e| (format!("{key}.lines"), e.to_string()))?;
            if lines.is_empty() {
                return Err((
                    format!("{key}.lines"),
                    "the variant marks no `lines` to move along".into(),
                ));
            }
        }
        if let Some(names) = &rp.confined {
            let mut sets: [Vec<usize>; SIDES] = Default::default();
            for (side, name) in names.iter().enumerate() {
                sets[side] = zones.get(name).cloned().ok_or_else(|| {
                    (
                        format!("{key}.confined"),
                        format!("`{name}` is not a zone of this variant"),
                    )
                })?;
            }
            piece.palace.confined = Some(sets);
        }
        for text in &rp.hops_not_over {
            piece.palace.not_screens |= 1 << type_of(&format!("{key}.hops_not_over"), text)?;
        }
        for text in &rp.captures_not {
            piece.palace.not_captured |= 1 << type_of(&format!("{key}.captures_not"), text)?;
        }
    }
    Ok(PalaceRules {
        lines,
        river: raw.river,
        pass: raw.pass,
        bikjang: raw.bikjang,
        counting,
    })
}
