//! Piece identities: every piece keeps a number for the whole game, across
//! moves, castling and promotion (time travel needs "the same piece" in the
//! past). Tracked by the game layer after each played move, never inside move
//! generation, so perft and search pay nothing for it.

use crate::bitboard::Bits;
use crate::moves::{Move, MoveKind};
use crate::rules::{Position, Rules};

/// The identity of the piece on each square (0 = empty), for one position.
pub type IdBoard = Vec<u32>;

/// Numbers the pieces of a start position, in square order from 1.
pub fn number_start<B: Bits>(pos: &Position<B>, size: usize) -> (IdBoard, u32) {
    let mut ids = vec![0; size];
    let mut next = 1;
    for sq in pos.occupied().squares() {
        if sq < size {
            ids[sq] = next;
            next += 1;
        }
    }
    (ids, next)
}

/// The identities after `mv` turned `before` into `after`. New pieces (drops)
/// get fresh numbers from `next`.
pub fn advance<B: Bits>(
    r: &Rules<B>,
    ids: &IdBoard,
    mv: Move,
    after: &Position<B>,
    next: &mut u32,
) -> IdBoard {
    let mut out = ids.clone();
    let (from, to) = (mv.from as usize, mv.to as usize);
    match mv.kind {
        MoveKind::Drop => {}
        MoveKind::Castle => {
            let (king_to, rook_to) = r.castling_destinations(from, to);
            let (king, rook) = (ids[from], ids[to]);
            out[from] = 0;
            out[to] = 0;
            out[king_to] = king;
            out[rook_to] = rook;
        }
        _ => {
            out[to] = ids[from];
            out[from] = 0;
        }
    }
    // Whatever the move removed (captures, en passant, explosions) loses its number;
    // whatever appeared without one (drops) gets a new one.
    let occupied = after.occupied();
    for (sq, id) in out.iter_mut().enumerate() {
        if !occupied.has(sq) {
            *id = 0;
        } else if *id == 0 {
            *id = *next;
            *next += 1;
        }
    }
    out
}
