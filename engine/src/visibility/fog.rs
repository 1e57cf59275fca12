//! Fog of war (VARIANTS.md, row `fogofwar`): a side sees the squares of its
//! own pieces, the destinations of all its pseudo-legal moves (pawn diagonals
//! only where a capture is possible, including en passant, whose captured
//! pawn is then visible too; castling destinations only when castling is
//! legal) and enemy pieces giving check.

use crate::bitboard::Bits;
use crate::moves::MoveKind;
use crate::rules::{Position, Rules};

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
