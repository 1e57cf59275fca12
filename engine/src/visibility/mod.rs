//! Views: what an audience may see, by the variant's [`Visibility`] policy.
//!
//! This module is the only place that decides what a player or the public
//! sees of a position: [`view`] builds every [`View`] the renderer and the
//! bot receive, from the policy of the variant ([`fog`] for fog of war, own
//! pieces only for Kriegspiel, everything otherwise).

pub mod fog;
pub mod kriegspiel;

use crate::bitboard::Bits;
use crate::moves::{Move, MoveKind};
use crate::rules::{Position, Rules};
use crate::side::Side;
use crate::tables::SIDES;
use crate::variant::VariantDef;
use crate::view::{Audience, PieceGlyph, PocketView, SquareView, View, Visibility};

/// The squares `side` may see of `pos` by the variant's policy; `None` when
/// it sees everything.
pub fn visible_squares<B: Bits>(r: &Rules<B>, pos: &Position<B>, side: usize) -> Option<B> {
    match r.def.visibility {
        Visibility::Full => None,
        Visibility::Fog => Some(fog::visible(r, pos, side)),
        Visibility::OwnPiecesOnly => Some(pos.by_side[side]),
    }
}

/// How a piece of type `ty` of `side` is drawn.
pub(crate) fn piece_glyph(def: &VariantDef, side: usize, ty: usize, promoted: bool) -> PieceGlyph {
    let piece = &def.pieces[ty];
    // Armies of four seats in their own colours: the variant's (Enochian
    // chess), else each seat's own (white-1 white, black-1 black, white-2
    // red, black-2 blue: the colours of the seats' markers), parity kept.
    let color = match piece.seat {
        Some(seat) if !def.armies.is_empty() => def.armies[(seat as usize - 1) * 2 + side],
        Some(seat) if def.seats == 4 => (seat - 1) * 2 + side as u8,
        _ => side as u8,
    };
    PieceGlyph {
        side: Side(color),
        art: piece.art,
        letter: piece.san_letter.to_ascii_uppercase(),
        promoted,
    }
}

fn glyph<B: Bits>(r: &Rules<B>, pos: &Position<B>, square: usize) -> Option<PieceGlyph> {
    let (side, ty) = pos.piece_at(square)?;
    Some(piece_glyph(r.def, side, ty, pos.promoted.has(square)))
}

/// The squares `audience` may see of `pos`; `None` when it sees everything.
/// The public sees what every player sees.
fn mask<B: Bits>(r: &Rules<B>, pos: &Position<B>, audience: Audience) -> Option<B> {
    match audience {
        Audience::Full => None,
        Audience::Side(side) => visible_squares(r, pos, side.index() & 1),
        Audience::Public => (0..SIDES)
            .map(|side| visible_squares(r, pos, side))
            .reduce(|a, b| match (a, b) {
                (Some(a), Some(b)) => Some(a & b),
                (a, b) => a.or(b),
            })
            .flatten(),
    }
}

/// What `audience` may see of `pos`; `last` is the move that led to it from
/// `before`.
///
/// Every mark on the board depends only on the audience's information (the
/// sequence of its views, its own legal moves, the referee's announcements):
///
/// - The last move of the audience's own side lights its squares it sees
///   now: the mover knows their move. Another side's move lights a square
///   (origin or destination) only if the audience saw it both before and
///   after the move: a change it can see between its two views anyway.
///   (Lighting a destination seen only after the move told a fog player
///   where a rook came from when it left a line it had been blocking;
///   lighting an origin seen only before told which piece left a square the
///   fog then covered.)
/// - Checked royal pieces are marked where visible: a side's own king in
///   check has its checkers in view (fog of war reveals them; the Kriegspiel
///   referee announces the check), and an enemy king in check stands at the
///   end of a line of visible squares from the checking piece.
/// - Kriegspiel marks the square of the last capture, which the referee
///   announced to everyone, on every board, fogged there or not.
/// - Castling rights: a side knows its own (its own king and rooks tell it).
///   The en passant square: only the side to move in fog of war, whose view
///   already shows the pawn that passed and the square it passed. Pawn tries
///   are announced aloud. (See [`View::castling`], [`View::en_passant`].)
pub fn view<B: Bits>(
    r: &Rules<B>,
    pos: &Position<B>,
    last: Option<(Move, &Position<B>)>,
    audience: Audience,
) -> View {
    let def = r.def;
    let g = &def.geometry;
    let seen = mask(r, pos, audience);
    let sees = |sq: usize| seen.is_none_or(|m| m.has(sq));
    let squares = (0..g.size())
        .map(|sq| {
            if !g.exists(sq) {
                SquareView::Absent
            } else if !sees(sq) {
                SquareView::Fog
            } else {
                match glyph(r, pos, sq) {
                    Some(p) => SquareView::Piece(p),
                    None => SquareView::Empty,
                }
            }
        })
        .collect();
    // Two pieces stand together only on a throne (Enochian chess).
    let second_pieces = def
        .thrones
        .iter()
        .filter(|&&sq| sees(sq))
        .filter_map(|&sq| {
            let (side, _) = pos.piece_at(sq)?;
            let ty = pos.second_at(sq)?;
            Some((sq as u16, piece_glyph(def, side, ty, false)))
        })
        .collect();
    let mut last_move = Vec::new();
    if let Some((mv, before)) = last {
        let (from, to) = match mv.kind {
            MoveKind::Castle => (
                mv.from as usize,
                r.castling_destinations(mv.from as usize, mv.to as usize).0,
            ),
            _ => (mv.from as usize, mv.to as usize),
        };
        let own =
            matches!(audience, Audience::Side(side) if side.index() & 1 == before.side as usize);
        let mask_before = mask(r, before, audience);
        let lit = |sq: usize| sees(sq) && (own || mask_before.is_none_or(|m| m.has(sq)));
        if mv.kind != MoveKind::Drop && lit(from) {
            last_move.push(from as u16);
        }
        if lit(to) && !last_move.contains(&(to as u16)) {
            last_move.push(to as u16);
        }
    }
    let mut checked = Vec::new();
    for side in 0..SIDES {
        if r.in_check(pos, side) {
            for king in r.royals(pos, side).squares() {
                if sees(king) {
                    checked.push(king as u16);
                }
            }
        }
    }
    let pockets = if def.drops {
        (0..SIDES)
            .map(|side| PocketView {
                side: Side(side as u8),
                pieces: (0..def.pieces.len())
                    .filter(|&ty| pos.pockets[side][ty] > 0)
                    .map(|ty| (piece_glyph(def, side, ty, false), pos.pockets[side][ty]))
                    .collect(),
            })
            .collect()
    } else {
        Vec::new()
    };
    let mut view = def.board_view(audience, squares);
    if def.visibility == Visibility::OwnPiecesOnly {
        // The referee announced the square of the last capture to everyone.
        if let Some(square) = last.and_then(|(mv, before)| kriegspiel::captured_square(before, mv))
        {
            view.marked.push(square as u16);
        }
    }
    let (castling, en_passant) = known_castling_and_en_passant(r, pos, audience, seen.is_none());
    // Announced aloud: public whoever looks.
    let pawn_tries = (def.visibility == Visibility::OwnPiecesOnly).then(|| {
        let mut legal = crate::moves::MoveList::new();
        r.legal_moves(pos, &mut legal);
        kriegspiel::pawn_tries(r, &legal)
    });
    View {
        second_pieces,
        castling,
        en_passant,
        pawn_tries,
        side_to_move: pos.turn(),
        move_number: pos.fullmove,
        last_move,
        checked,
        pockets,
        remaining_checks: (def.check_limit > 0).then(|| {
            (0..SIDES)
                .map(|s| def.check_limit.saturating_sub(pos.checks[s]))
                .collect()
        }),
        ..view
    }
}

/// What [`View::castling`] and [`View::en_passant`] tell `audience`:
/// everything when it sees the whole board (`all_seen`); else a seat its own
/// rights, and the en passant square only to the side to move in fog of war
/// (Kriegspiel players learn it by trying); onlookers of hidden games nothing.
fn known_castling_and_en_passant<B: Bits>(
    r: &Rules<B>,
    pos: &Position<B>,
    audience: Audience,
    all_seen: bool,
) -> (String, Option<u16>) {
    let def = r.def;
    let castling = crate::fen::castling_field(def, pos, false);
    if all_seen {
        return (castling, pos.ep.map(u16::from));
    }
    let Audience::Side(side) = audience else {
        return (String::new(), None);
    };
    let first = side.index() & 1 == 0;
    let own: String = castling
        .chars()
        .filter(|c| c.is_ascii_uppercase() == first)
        .collect();
    let en_passant = pos
        .ep
        .filter(|_| {
            side.index() & 1 == pos.turn().index() & 1
                && def.visibility != Visibility::OwnPiecesOnly
        })
        .map(u16::from);
    (own, en_passant)
}
