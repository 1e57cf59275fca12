//! Hashing positions (Zobrist) for repetition detection.

use super::{Position, Rules};
use crate::bitboard::Bits;
use crate::tables::{MAX_TYPES, SIDES};

impl<'a, B: Bits> Rules<'a, B> {
    /// A hash of the position for repetition detection.
    pub fn hash(&self, pos: &Position<B>) -> u64 {
        let z = &self.t.zobrist;
        let mut h = 0u64;
        for side in 0..SIDES {
            for ty in 0..self.types() {
                for sq in (pos.by_type[ty] & pos.by_side[side]).squares() {
                    h ^= z.piece[side * MAX_TYPES + ty][sq];
                }
                h ^= z.pocket[side * MAX_TYPES + ty].wrapping_mul(pos.pockets[side][ty] as u64);
            }
            h ^= z.checks[side].wrapping_mul(pos.checks[side] as u64);
        }
        for sq in pos.promoted.squares() {
            h ^= z.promoted[sq];
        }
        for sq in pos.castling.squares() {
            h ^= z.castling[sq];
        }
        if let Some(ep) = pos.ep {
            h ^= z.ep[ep as usize];
        }
        if pos.side == 1 {
            h ^= z.black;
        }
        h
    }
}
