//! Hashing positions (Zobrist): from scratch for repetition detection, and
//! incrementally from the previous position for search.

use super::{Position, Rules};
use crate::bitboard::Bits;
use crate::moves::Move;
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
        h ^= z.royal_leaps[pos.royal_leaps_used as usize & 3];
        for (side, &stage) in pos.pawn_stages.iter().enumerate() {
            h ^= z.pawn_stages[side][stage as usize % 5];
        }
        if self.second_seat_on_turn(pos) {
            h ^= z.second_seat;
        }
        for key in pos.thrones.keys() {
            h ^= z.thrones[key];
        }
        h
    }

    /// Whether the seat on turn is its side's second (pieces owned by seats).
    #[inline]
    fn second_seat_on_turn(&self, pos: &Position<B>) -> bool {
        self.t.seats.is_some() && super::seat_on_turn(pos, pos.side as usize) == 1
    }
}

impl<'a, B: Bits> Rules<'a, B> {
    /// The hash of `after`, given `before` and its hash `hash`: only what
    /// changed between the two positions is touched, so updating costs a few
    /// XORs instead of a walk over every piece. Correct for any pair of
    /// positions, whichever mechanics moved pieces (explosions, drops, pockets).
    pub fn hash_after(&self, before: &Position<B>, after: &Position<B>, hash: u64) -> u64 {
        let z = &self.t.zobrist;
        let mut h = hash;
        for side in 0..SIDES {
            for ty in 0..self.types() {
                let changed = (before.by_type[ty] & before.by_side[side])
                    ^ (after.by_type[ty] & after.by_side[side]);
                for sq in changed.squares() {
                    h ^= z.piece[side * MAX_TYPES + ty][sq];
                }
                let (old, new) = (before.pockets[side][ty], after.pockets[side][ty]);
                if old != new {
                    let key = z.pocket[side * MAX_TYPES + ty];
                    h ^= key.wrapping_mul(old as u64) ^ key.wrapping_mul(new as u64);
                }
            }
            let (old, new) = (before.checks[side], after.checks[side]);
            if old != new {
                h ^= z.checks[side].wrapping_mul(old as u64)
                    ^ z.checks[side].wrapping_mul(new as u64);
            }
        }
        for sq in (before.promoted ^ after.promoted).squares() {
            h ^= z.promoted[sq];
        }
        for sq in (before.castling ^ after.castling).squares() {
            h ^= z.castling[sq];
        }
        if before.ep != after.ep {
            if let Some(ep) = before.ep {
                h ^= z.ep[ep as usize];
            }
            if let Some(ep) = after.ep {
                h ^= z.ep[ep as usize];
            }
        }
        if before.royal_leaps_used != after.royal_leaps_used {
            h ^= z.royal_leaps[before.royal_leaps_used as usize & 3]
                ^ z.royal_leaps[after.royal_leaps_used as usize & 3];
        }
        for side in 0..SIDES {
            let (old, new) = (before.pawn_stages[side], after.pawn_stages[side]);
            if old != new {
                h ^= z.pawn_stages[side][old as usize % 5] ^ z.pawn_stages[side][new as usize % 5];
            }
        }
        if before.side != after.side {
            h ^= z.black;
        }
        if before.thrones != after.thrones {
            for key in before.thrones.keys().chain(after.thrones.keys()) {
                h ^= z.thrones[key];
            }
        }
        if self.t.seats.is_some()
            && self.second_seat_on_turn(before) != self.second_seat_on_turn(after)
        {
            h ^= z.second_seat;
        }
        h
    }

    /// Plays `mv` (pseudo-legal) on `pos` like [`Rules::make`] and returns the
    /// new hash from the old one (`hash` must be `self.hash(pos)` before the
    /// move); the result equals [`Rules::hash`] of the new position.
    pub fn make_hashed(&self, pos: &mut Position<B>, mv: Move, hash: u64) -> u64 {
        let before = *pos;
        self.make(pos, mv);
        self.hash_after(&before, pos, hash)
    }
}
