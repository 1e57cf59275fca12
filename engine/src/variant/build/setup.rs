//! The start: the census of the start position, and a `[setup]` table
//! (pieces placed before the game).

use crate::geometry::Geometry;
use crate::setup::rule::SetupDef;
use crate::side::SIDES;
use crate::variant::raw::RawSetup;
use crate::variant::{PieceDef, MAX_TYPES};

/// The pieces of the board part of a start FEN: how many of each type each
/// side has, and the type on each square. Unreadable parts are skipped (the
/// registry checks the FEN itself).
pub(super) fn start_census(
    fen: &str,
    geometry: &Geometry,
    pieces: &[PieceDef],
) -> ([[u8; MAX_TYPES]; SIDES], Vec<Option<usize>>) {
    let mut counts = [[0u8; MAX_TYPES]; SIDES];
    let mut types = vec![None; geometry.size()];
    let board = fen.split([' ', '[']).next().unwrap_or("");
    let ranks = geometry.ranks as usize;
    for (row, text) in board.split('/').enumerate() {
        let Some(rank) = ranks.checked_sub(row + 1) else {
            break;
        };
        let mut file = 0usize;
        let mut digits = String::new();
        for c in text.chars() {
            if c.is_ascii_digit() {
                digits.push(c);
                continue;
            }
            file += digits.parse::<usize>().unwrap_or(0);
            digits.clear();
            let Some(ty) = pieces
                .iter()
                .position(|p| p.letter == c.to_ascii_lowercase())
            else {
                continue;
            };
            let side = usize::from(c.is_ascii_lowercase());
            counts[side][ty] = counts[side][ty].saturating_add(1);
            if let Some(square) = geometry.square(file as i32, rank as i32) {
                types[square] = Some(ty);
            }
            file += 1;
        }
    }
    (counts, types)
}

/// Compiles a `[setup]` table against the variant's pieces.
pub(super) fn build_setup(
    raw: RawSetup,
    pieces: &[PieceDef],
    board_ranks: u8,
) -> Result<SetupDef, String> {
    let army = |text: &str| -> Result<Vec<usize>, String> {
        text.chars()
            .filter(|c| !c.is_whitespace())
            .map(|c| {
                let lower = c.to_ascii_lowercase();
                pieces
                    .iter()
                    .position(|p| p.letter == lower)
                    .ok_or_else(|| format!("`{c}` is not a piece of this variant"))
            })
            .collect()
    };
    let armies = match (&raw.army, &raw.armies) {
        (Some(both), None) => [army(both)?, army(both)?],
        (None, Some([white, black])) => [army(white)?, army(black)?],
        _ => return Err("give either `army` (both sides) or `armies` (one per side)".into()),
    };
    let range = |r: Option<[u8; 2]>, default: (u8, u8)| -> Result<(u8, u8), String> {
        let (from, to) = r.map_or(default, |[a, b]| (a, b));
        if from == 0 || from > to || to > board_ranks {
            return Err(format!("ranks {from}–{to} are not on the board"));
        }
        Ok((from, to))
    };
    let ranks = range(raw.ranks, (1, board_ranks / 2))?;
    Ok(SetupDef {
        mode: raw.mode,
        armies,
        ranks,
        pawn_ranks: range(raw.pawn_ranks, ranks)?,
        rules: raw.rules,
        first_move: raw.first_move,
    })
}
