//! The piece types: classical letters first, then the rest alphabetically;
//! each one's movement, art, promotion, drop ranks and links to other types
//! (royal twin, what it reverts to, what it goes to the hand as).

use super::palace::RawPalacePiece;
use super::Context;
use crate::betza;
use crate::variant::raw::{RawPiece, RawVariant};
use crate::variant::{Forward, PalacePiece, PieceDef, VariantError, MAX_TYPES};
use crate::view::Art;

/// The classical pieces' letters, which come first, in this order.
const CLASSICAL_ORDER: &str = "kqrbnp";

/// Reads the pieces (and sets the context's letters); each one's palace
/// keys are kept apart for [`super::palace`].
pub(super) fn pieces(
    cx: &mut Context,
    raw: &RawVariant,
) -> Result<(Vec<PieceDef>, Vec<RawPalacePiece>), VariantError> {
    let mut letters: Vec<(char, &toml::Value)> = Vec::new();
    for (key, value) in &raw.pieces {
        let mut chars = key.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) if c.is_ascii_lowercase() => letters.push((c, value)),
            _ => {
                return Err(cx.err(
                    &format!("pieces.{key}"),
                    "a piece key must be one lower-case letter".into(),
                ))
            }
        }
    }
    letters.sort_by_key(|(c, _)| (CLASSICAL_ORDER.find(*c).unwrap_or(99), *c));
    if letters.len() > MAX_TYPES {
        return Err(cx.err("pieces", format!("at most {} piece types", MAX_TYPES)));
    }
    cx.letters = letters.iter().map(|(c, _)| *c).collect();
    let mut raw_pieces = Vec::new();
    let mut raw_palace = Vec::new();
    for (letter, value) in &letters {
        let key = format!("pieces.{letter}");
        let piece: RawPiece = (*value)
            .clone()
            .try_into()
            .map_err(|e: toml::de::Error| cx.err(&key, e.message().to_string()))?;
        raw_palace.push(RawPalacePiece {
            lines: piece.lines.clone(),
            confined: piece.confined.clone(),
            hops_not_over: piece.hops_not_over.clone(),
            captures_not: piece.captures_not.clone(),
        });
        raw_pieces.push((*letter, piece));
    }
    let mut pieces = Vec::new();
    let mut links = Vec::new();
    for (letter, p) in raw_pieces {
        links.push([
            p.royal_twin.clone(),
            p.reverts_to.clone(),
            p.in_hand.clone(),
        ]);
        pieces.push(piece(cx, raw, letter, p)?);
    }
    link(cx, &mut pieces, links)?;
    Ok((pieces, raw_palace))
}

/// One piece type from its table.
fn piece(
    cx: &Context,
    raw: &RawVariant,
    letter: char,
    p: RawPiece,
) -> Result<PieceDef, VariantError> {
    let key = format!("pieces.{letter}");
    let atoms = betza::parse_on(&p.betza, cx.geometry.is_hex())
        .map_err(|e| cx.err(&format!("{key}.betza"), e.to_string()))?;
    let art = art(cx, &key, p.art.as_deref())?;
    let promotes_to = cx.types_of(&format!("{key}.promotes_to"), &p.promotes_to)?;
    let promotion_squares = promotion_squares(cx, &key, &p)?;
    let drop_ranks = match p.drop_ranks {
        Some([lo, hi]) if lo >= 1 && lo <= hi && hi <= raw.ranks => (lo, hi),
        Some(_) => {
            return Err(cx.err(
                &format!("{key}.drop_ranks"),
                "must be [lowest, highest] relative ranks on the board".into(),
            ))
        }
        None => (1, raw.ranks),
    };
    Ok(PieceDef {
        letter,
        name: p.name.unwrap_or_else(|| letter.to_string()),
        betza: p.betza,
        atoms,
        royal: p.royal,
        art,
        pawn: p.pawn,
        promotes_to,
        en_passant_ranks: p
            .en_passant_ranks
            .or_else(|| p.initial_ranks.clone())
            .unwrap_or_else(|| vec![2]),
        initial_ranks: p.initial_ranks.unwrap_or_else(|| vec![2]),
        drop_ranks,
        russian: p.ru,
        castles: p.castles,
        palace: PalacePiece::default(),
        royal_twin: None,
        reverts_to: None,
        in_hand: None,
        mating_drop: p.mating_drop,
        drop_file_limit: p.drop_file_limit,
        seat: match p.seat {
            None => None,
            Some(seat @ (1 | 2)) if raw.seats == Some(4) => Some(seat),
            Some(_) => {
                return Err(cx.err(
                    &format!("{key}.seat"),
                    "must be 1 or 2, in a game of four seats".into(),
                ))
            }
        },
        san_letter: match p.san.as_deref().map(|s| s.chars().collect::<Vec<_>>()) {
            None => letter,
            Some(chars) => match chars.as_slice() {
                [c] if c.is_ascii_alphabetic() => c.to_ascii_lowercase(),
                _ => return Err(cx.err(&format!("{key}.san"), "must be one letter".into())),
            },
        },
        sideways: p.sideways,
        forward: match &p.forward {
            None => None,
            Some([a, b]) => match (Forward::parse(a), Forward::parse(b)) {
                (Some(a), Some(b)) if !p.sideways => Some([a, b]),
                _ => {
                    return Err(cx.err(
                        &format!("{key}.forward"),
                        "must be two of up, down, right, left (and no `sideways`)".into(),
                    ))
                }
            },
        },
        promotion_squares,
    })
}

/// A piece's `promotion_squares`: the first side's as named, the second
/// side's the same turned half round the board.
fn promotion_squares(
    cx: &Context,
    key: &str,
    p: &RawPiece,
) -> Result<Option<[Vec<usize>; 2]>, VariantError> {
    let Some(names) = &p.promotion_squares else {
        return Ok(None);
    };
    let key = format!("{key}.promotion_squares");
    if p.promotes_to.is_empty() {
        return Err(cx.err(&key, "needs `promotes_to`".into()));
    }
    let first = cx.squares(&key, names)?;
    let g = &cx.geometry;
    let turned = |sq: usize| {
        g.square(
            i32::from(g.files) - 1 - g.file_of(sq),
            i32::from(g.ranks) - 1 - g.rank_of(sq),
        )
    };
    let second: Option<Vec<usize>> = first.iter().map(|&sq| turned(sq)).collect();
    match second {
        Some(second) => Ok(Some([first, second])),
        None => Err(cx.err(&key, "the board turned half round lacks one of them".into())),
    }
}

/// How a piece is drawn, by its `art` name.
fn art(cx: &Context, key: &str, name: Option<&str>) -> Result<Art, VariantError> {
    Ok(match name {
        None | Some("token") => Art::Token,
        Some("king") => Art::King,
        Some("queen") => Art::Queen,
        Some("rook") => Art::Rook,
        Some("bishop") => Art::Bishop,
        Some("knight") => Art::Knight,
        Some("pawn") => Art::Pawn,
        Some("ferz") => Art::Ferz,
        Some("alfil") => Art::Alfil,
        Some("marshal") => Art::Marshal,
        Some("cardinal") => Art::Cardinal,
        Some("amazon") => Art::Amazon,
        Some("rocket") => Art::Rocket,
        Some(other) => {
            if let Some(janggi) = crate::view::JanggiArt::named(other) {
                Art::Janggi(janggi)
            } else if let Some(crowned) = crate::view::CrownedArt::named(other) {
                Art::Crowned(crowned)
            } else if let Some(whale) = crate::view::WhaleArt::named(other) {
                Art::Whale(whale)
            } else if let Some(piece) = crate::view::TamerlaneArt::named(other) {
                Art::Tamerlane(piece)
            } else if let Some(pawn) = crate::view::PawnOfArt::named(other) {
                Art::PawnOf(pawn)
            } else {
                return Err(cx.err(&format!("{key}.art"), format!("unknown art `{other}`")));
            }
        }
    })
}

/// Resolves each piece's `royal_twin`, `reverts_to` and `in_hand` letters.
fn link(
    cx: &Context,
    pieces: &mut [PieceDef],
    links: Vec<[Option<String>; 3]>,
) -> Result<(), VariantError> {
    for (i, link) in links.into_iter().enumerate() {
        let key = format!("pieces.{}", pieces[i].letter);
        let mut found = [None; 3];
        for (slot, (name, text)) in ["royal_twin", "reverts_to", "in_hand"]
            .iter()
            .zip(link)
            .enumerate()
        {
            if let Some(text) = text {
                found[slot] = Some(cx.index_of(&text).ok_or_else(|| {
                    cx.err(
                        &format!("{key}.{name}"),
                        format!("`{text}` is not a piece of this variant"),
                    )
                })?);
            }
        }
        let [twin, revert, hand] = found;
        if twin.is_some_and(|t| !pieces[t].royal) {
            return Err(cx.err(
                &format!("{key}.royal_twin"),
                "must name a royal piece".into(),
            ));
        }
        pieces[i].royal_twin = twin;
        pieces[i].reverts_to = revert;
        pieces[i].in_hand = hand;
    }
    Ok(())
}

/// Several royal types need a mechanic that tells them apart.
pub(super) fn check_royals(
    cx: &Context,
    raw: &RawVariant,
    pieces: &[PieceDef],
) -> Result<(), VariantError> {
    let royals_by_seat = pieces.iter().all(|p| !p.royal || p.seat.is_some());
    if pieces.iter().filter(|p| p.royal).count() > 1
        && !raw.capture_transforms
        && !raw.spare_royals
        && !royals_by_seat
    {
        return Err(cx.err(
            "pieces",
            "at most one royal piece type (several need `capture_transforms`, `spare_royals`, or a `seat` each)"
                .into(),
        ));
    }
    Ok(())
}
