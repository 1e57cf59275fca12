//! Promotion: the rank pawns promote on, and the pawn of pawns (Tamerlane),
//! which becomes a royal piece.

use super::Context;
use crate::side::SIDES;
use crate::variant::raw::RawVariant;
use crate::variant::{PawnOfPawns, PieceDef, VariantError};

/// The promotion rank, a rank of the board (the last one unless given).
pub(super) fn rank(cx: &Context, raw: &RawVariant) -> Result<u8, VariantError> {
    let promotion_rank = raw.promotion_rank.unwrap_or(raw.ranks);
    if promotion_rank == 0 || promotion_rank > raw.ranks {
        return Err(cx.err("promotion_rank", "must be a rank of the board".into()));
    }
    Ok(promotion_rank)
}

/// The `[pawn_of_pawns]` table: a pawn that does not promote, the squares
/// it returns to, and the royal piece it becomes.
pub(super) fn pawn_of_pawns(
    cx: &Context,
    raw: &RawVariant,
    pieces: &[PieceDef],
) -> Result<Option<PawnOfPawns>, VariantError> {
    let Some(raw_pp) = &raw.pawn_of_pawns else {
        return Ok(None);
    };
    let key = "pawn_of_pawns";
    let piece = cx
        .index_of(&raw_pp.piece)
        .filter(|&i| pieces[i].pawn && pieces[i].promotes_to.is_empty())
        .ok_or_else(|| cx.err(key, "`piece` must name a pawn that does not promote".into()))?;
    let becomes = cx
        .index_of(&raw_pp.becomes)
        .filter(|&i| pieces[i].royal && raw.spare_royals)
        .ok_or_else(|| {
            cx.err(
                key,
                "`becomes` must name a royal piece (with `spare_royals`)".into(),
            )
        })?;
    let mut returns = [0; SIDES];
    for (side, name) in raw_pp.returns.iter().enumerate() {
        returns[side] = match cx.geometry.parse(name) {
            Some(sq) => sq,
            None => return Err(cx.err(key, format!("`{name}` is not a square"))),
        };
    }
    Ok(Some(PawnOfPawns {
        piece,
        returns,
        becomes,
    }))
}
