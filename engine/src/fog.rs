//! Views: what an audience may see. Fog of war (VARIANTS.md, row `fogofwar`):
//! a side sees the squares of its own pieces, the destinations of all its
//! pseudo-legal moves (pawn diagonals only where a capture is possible,
//! including en passant, whose captured pawn is then visible too; castling
//! destinations only when castling is legal) and enemy pieces giving check.

use crate::bitboard::Bits;
use crate::moves::{Move, MoveKind};
use crate::position::{Position, Rules};
use crate::side::Side;
use crate::tables::SIDES;
use crate::view::{Audience, PieceGlyph, PocketView, SquareView, View};

/// The squares `side` may see in a fog-of-war game.
pub fn visible<B: Bits>(r: &Rules<B>, pos: &Position<B>, side: usize) -> B {
    let mut seen = pos.by_side[side];
    let mut as_mover = *pos;
    if pos.side as usize != side {
        // En passant belongs to the side to move only.
        as_mover.ep = None;
        as_mover.ep_victim = None;
        as_mover.side = side as u8;
    }
    let mut moves = Vec::new();
    r.pseudo_moves(&as_mover, &mut moves);
    for mv in &moves {
        match mv.kind {
            MoveKind::Drop => {}
            MoveKind::Castle => {
                if r.is_legal(&as_mover, *mv) {
                    let (king_to, rook_to) =
                        r.castling_destinations(mv.from as usize, mv.to as usize);
                    seen.set(king_to);
                    seen.set(rook_to);
                }
            }
            MoveKind::EnPassant => {
                seen.set(mv.to as usize);
                if let Some(victim) = as_mover.ep_victim {
                    seen.set(victim as usize);
                }
            }
            _ => seen.set(mv.to as usize),
        }
    }
    // Enemy pieces giving check are revealed.
    let occupied = pos.occupied();
    for king in r.royals(pos, side).squares() {
        for sq in pos.by_side[1 - side].squares() {
            let mut lone = *pos;
            lone.by_side[1 - side] = B::bit(sq);
            if r.attacked(&lone, king, 1 - side, occupied) {
                seen.set(sq);
            }
        }
    }
    seen
}

fn glyph<B: Bits>(r: &Rules<B>, pos: &Position<B>, square: usize) -> Option<PieceGlyph> {
    let (side, ty) = pos.piece_at(square)?;
    let piece = &r.def.pieces[ty];
    Some(PieceGlyph {
        side: Side(side as u8),
        art: piece.art,
        letter: piece.letter.to_ascii_uppercase(),
        promoted: pos.promoted.has(square),
    })
}

/// What `audience` may see of `pos`; `last` is the move that led to it.
pub fn view<B: Bits>(
    r: &Rules<B>,
    pos: &Position<B>,
    last: Option<Move>,
    audience: Audience,
) -> View {
    let def = r.def;
    let g = &def.geometry;
    let mask: Option<B> = match audience {
        Audience::Full => None,
        _ if !def.fog => None,
        Audience::Side(side) => Some(visible(r, pos, side.index() & 1)),
        Audience::Public => Some(visible(r, pos, 0) & visible(r, pos, 1)),
    };
    let sees = |sq: usize| mask.is_none_or(|m| m.has(sq));
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
    let mut last_move = Vec::new();
    if let Some(mv) = last {
        let (from, to) = match mv.kind {
            MoveKind::Castle => (
                mv.from as usize,
                r.castling_destinations(mv.from as usize, mv.to as usize).0,
            ),
            _ => (mv.from as usize, mv.to as usize),
        };
        for sq in [from, to] {
            if sees(sq)
                && !last_move.contains(&(sq as u16))
                && (mv.kind != MoveKind::Drop || sq == to)
            {
                last_move.push(sq as u16);
            }
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
                pieces: def
                    .pieces
                    .iter()
                    .enumerate()
                    .filter(|(ty, _)| pos.pockets[side][*ty] > 0)
                    .map(|(ty, p)| {
                        (
                            PieceGlyph {
                                side: Side(side as u8),
                                art: p.art,
                                letter: p.letter.to_ascii_uppercase(),
                                promoted: false,
                            },
                            pos.pockets[side][ty],
                        )
                    })
                    .collect(),
            })
            .collect()
    } else {
        Vec::new()
    };
    View {
        files: g.files,
        ranks: g.ranks,
        squares,
        style: def.style,
        audience,
        side_to_move: pos.turn(),
        move_number: pos.fullmove,
        last_move,
        checked,
        marked: def.marked.iter().map(|&s| s as u16).collect(),
        pockets,
        remaining_checks: (def.check_limit > 0).then(|| {
            (0..SIDES)
                .map(|s| def.check_limit.saturating_sub(pos.checks[s]))
                .collect()
        }),
    }
}
