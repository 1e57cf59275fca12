//! Seats and teams: four seats (partners taking turns), pieces owned by a
//! seat, the command zone, thrones, crossings, each seat's army colour and
//! the teams sides play for.

use super::Context;
use crate::outcome::Ranking;
use crate::side::{Side, Team, SIDES};
use crate::variant::raw::RawVariant;
use crate::variant::{PieceDef, VariantError};

/// The command zone; the keys that need pieces owned by seats, and what
/// such pieces do not go with.
pub(super) fn command_zone(
    cx: &Context,
    raw: &RawVariant,
    pieces: &[PieceDef],
) -> Result<Vec<usize>, VariantError> {
    let seated = pieces.iter().any(|p| p.seat.is_some());
    let needs_seats = !raw.command_zone.is_empty()
        || !raw.command_regions.is_empty()
        || raw.captured_mates
        || raw.king_capture;
    if needs_seats && !seated {
        return Err(cx.err(
            "command_zone",
            "`command_zone`, `command_regions`, `captured_mates` and `king_capture` need pieces owned by seats (`seat`)".into(),
        ));
    }
    if seated && (raw.castling || raw.drops || raw.atomic || raw.capture_transforms) {
        return Err(cx.err(
            "seat",
            "pieces owned by seats do not go with castling, drops, explosions or transforms".into(),
        ));
    }
    cx.squares("command_zone", &raw.command_zone)
}

/// Each seat's command region (`command_regions`), in seat order: none, or
/// one for each of four seats, in a game where pieces are owned by seats.
pub(super) fn command_regions(
    cx: &Context,
    raw: &RawVariant,
) -> Result<Vec<Vec<usize>>, VariantError> {
    if raw.command_regions.is_empty() {
        return Ok(Vec::new());
    }
    if raw.command_regions.len() != 4 || raw.seats != Some(4) {
        return Err(cx.err(
            "command_regions",
            "needs four seats and one region for each of them, in seat order".into(),
        ));
    }
    raw.command_regions
        .iter()
        .map(|name| cx.squares("command_regions", std::slice::from_ref(name)))
        .collect()
}

/// The four thrones, one a seat, in a game where kings are captured.
pub(super) fn thrones(cx: &Context, raw: &RawVariant) -> Result<Vec<usize>, VariantError> {
    let thrones = cx.squares("thrones", &raw.thrones)?;
    if !thrones.is_empty() && (!raw.king_capture || thrones.len() != 4) {
        return Err(cx.err(
            "thrones",
            "needs `king_capture = true` and one square for each of four seats".into(),
        ));
    }
    Ok(thrones)
}

/// The crossings (2×2 squares) and the groups of piece types (a mask each)
/// that cross them.
pub(super) fn crossings(
    cx: &Context,
    raw: &RawVariant,
) -> Result<(Vec<[usize; 4]>, Vec<u32>), VariantError> {
    let mut crossings = Vec::new();
    for name in &raw.crossings {
        let cells = cx.squares("crossings", std::slice::from_ref(name))?;
        let square: [usize; 4] = cells
            .try_into()
            .map_err(|_| cx.err("crossings", format!("`{name}` is not a 2×2 square")))?;
        crossings.push(square);
    }
    let mut groups = Vec::new();
    for group in &raw.crossing_pieces {
        let types = cx.types_of("crossing_pieces", group)?;
        groups.push(types.iter().fold(0u32, |mask, ty| mask | 1 << ty));
    }
    Ok((crossings, groups))
}

/// Each seat's army colour, in a game of four seats.
pub(super) fn armies(cx: &Context, raw: &RawVariant) -> Result<Vec<u8>, VariantError> {
    raw.armies
        .iter()
        .map(|name| Side::from_color_name(name).map(|side| side.0))
        .collect::<Option<Vec<u8>>>()
        .filter(|armies| {
            armies.is_empty()
                || (armies.len() == 4
                    && raw.seats == Some(4)
                    && armies.iter().enumerate().all(|(seat, c)| *c as usize % 2 == seat % 2))
        })
        .ok_or_else(|| {
            cx.err(
                "armies",
                "must name four colours, one a seat, in a game of four seats: the first side's (seats 1 and 3) white, red or yellow, the second's black or blue".into(),
            )
        })
}

/// The names of the two sides' colours in texts (`colors = ["blue",
/// "red"]`, janggi), as colour indices; empty: white and black.
pub(super) fn colors(cx: &Context, raw: &RawVariant) -> Result<Vec<u8>, VariantError> {
    raw.colors
        .iter()
        .map(|name| Side::from_color_name(name).map(|side| side.0))
        .collect::<Option<Vec<u8>>>()
        .filter(|colors| colors.is_empty() || (colors.len() == 2 && colors[0] != colors[1]))
        .ok_or_else(|| {
            cx.err(
                "colors",
                "must name two different colours, the first side's then the second's: white, black, red, yellow or blue".into(),
            )
        })
}

/// How many seats: 2, or 4 (partners taking turns).
pub(super) fn seats(cx: &Context, raw: &RawVariant) -> Result<u8, VariantError> {
    match raw.seats {
        None => Ok(SIDES as u8),
        Some(seats @ (2 | 4)) => Ok(seats),
        Some(other) => Err(cx.err(
            "seats",
            format!("{other} seats: a game has 2 or 4 (partners taking turns)"),
        )),
    }
}

/// The team each side plays for (none given: each its own).
pub(super) fn teams(cx: &Context, raw: &RawVariant) -> Result<Vec<Team>, VariantError> {
    let Some(teams) = &raw.teams else {
        return Ok(Vec::new());
    };
    if teams.len() != SIDES {
        return Err(cx.err("teams", format!("one team per side: {SIDES} entries")));
    }
    if let Some(bad) = teams.iter().find(|&&t| t as usize >= Ranking::MAX_TEAMS) {
        return Err(cx.err(
            "teams",
            format!(
                "team {bad}: teams are numbered 0–{}",
                Ranking::MAX_TEAMS - 1
            ),
        ));
    }
    if teams.iter().all(|&t| t == teams[0]) {
        return Err(cx.err("teams", "at least two teams must play".into()));
    }
    Ok(teams.iter().copied().map(Team).collect())
}
