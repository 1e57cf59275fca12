//! The per-board rules core: a [`Position`] and the [`Rules`] of a variant
//! acting on it, split by concept as shakmaty splits its own — attacks and
//! check (`attacks`), move generation (`movegen`), making moves (`make`),
//! legality (`legality`), the end of the game (`outcome`), hashing (`hash`)
//! and `perft`. Variant mechanics (atomic, drops, check counting, racing,
//! compulsory captures, extinction) are hooks in [`crate::mechanics`], one
//! module each. Generic over the bit-set width.

mod attacks;
mod hash;
mod legality;
mod make;
mod movegen;
pub(crate) use movegen::VisitTargets;
mod outcome;
mod perft;

use crate::bitboard::Bits;
use crate::side::Side;
use crate::tables::{relative_rank, Tables, MAX_TYPES, SIDES};
use crate::variant::VariantDef;

/// A position: pieces, side to move, castling rights, en passant, counters,
/// pockets. Plain data, cheap to copy; the rules live in [`Rules`].
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Position<B: Bits> {
    /// Squares of each piece type (both sides).
    pub by_type: [B; MAX_TYPES],
    /// Squares of each side's pieces.
    pub by_side: [B; SIDES],
    /// Pieces that were promoted (they return to the pocket as pawns).
    pub promoted: B,
    /// Squares of rooks that may still castle (both sides).
    pub castling: B,
    /// The square a double-stepping pawn passed, if it may be taken en passant.
    pub ep: Option<u8>,
    /// The square of the pawn that may be taken en passant.
    pub ep_victim: Option<u8>,
    /// Side to move.
    pub side: u8,
    /// Half-moves since the last capture or pawn move.
    pub halfmove: u16,
    /// Full-move number.
    pub fullmove: u32,
    /// Pocket counts `[side][type]`.
    pub pockets: [[u8; MAX_TYPES]; SIDES],
    /// Checks given by each side (three-check).
    pub checks: [u8; SIDES],
    /// Bit `s` set: side `s` has made its once-per-game royal leap
    /// (chaturanga) or king's swap (Tamerlane).
    pub royal_leaps_used: u8,
    /// The pawn of pawns' career, per side (Tamerlane; see
    /// [`crate::variant::PawnOfPawns`]): 0 not yet on the last rank, 1
    /// waiting there, 2 placed, 3 sent back, 4 crowned.
    pub pawn_stages: [u8; SIDES],
    /// Palace rules' memory of the last move (Janggi): whether the royals
    /// faced each other before it, and how many passes in a row it ends.
    pub palace: PalaceMemory,
    /// Thrones and prisoners (Enochian chess; see [`ThroneMemory`]).
    pub thrones: ThroneMemory,
}

/// What throne capture and prisoner exchange remember (Enochian chess, the
/// `thrones` key): which seat of a side took control of its partner's army
/// by stepping onto its throne, and which enemy seat took each king. Part of
/// the FEN (the castling field: `T2` seat 2 controls its partner's army,
/// `X30` seat 3's king was taken by seat 0, `R1` seat 1 retired and its
/// partner moves its army on its turns, `U1` seat 1 retired with a bare
/// king and its partner moves either army on both turns; seats numbered in
/// turn order).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default, Hash)]
pub struct ThroneMemory {
    /// Per side: 0, or 1 + the seat (of the side: 0 first, 1 second) that
    /// controls its partner's army.
    pub control: [u8; SIDES],
    /// Per seat in turn order (side + 2 × seat of the side): 0, or 1 + the
    /// seat of the other side whose army took this seat's king.
    pub taken_by: [u8; 4],
    /// Per side: 0, or which seat of the side retired from the game (see
    /// `mechanics::thrones`): 1 + the seat whose army its partner moves on
    /// its own turns, or 3 + the seat that left a bare king, which its
    /// partner moves (or the partner's own army) on both seats' turns.
    pub retired: [u8; SIDES],
}

impl ThroneMemory {
    /// The seat of `side` whose army its partner controls, if one is.
    #[inline]
    pub fn controlled(&self, side: usize) -> Option<usize> {
        match self.control[side] {
            0 => None,
            usurper => Some(2 - usurper as usize),
        }
    }

    /// The indices of the hash keys of what is remembered
    /// ([`crate::tables::Zobrist::thrones`]).
    pub(crate) fn keys(&self) -> impl Iterator<Item = usize> + '_ {
        let control = (0..SIDES)
            .filter(|&side| self.control[side] != 0)
            .map(|side| side * 2 + (self.control[side] as usize - 1) % 2);
        let taken = (0..4)
            .filter(|&seat| self.taken_by[seat] != 0)
            .map(|seat| 4 + seat * 2 + (self.taken_by[seat] as usize - 1) % 2);
        let retired = (0..SIDES)
            .filter(|&side| self.retired[side] != 0)
            .map(|side| 12 + side * 4 + (self.retired[side] as usize - 1) % 4);
        control.chain(taken).chain(retired)
    }

    /// The seat of `side` that retired from the game, if one did.
    #[inline]
    pub fn retired(&self, side: usize) -> Option<usize> {
        match self.retired[side] {
            0 => None,
            mark => Some((mark as usize - 1) % 2),
        }
    }

    /// Whether the seat of `side` that retired left a bare king, so that its
    /// partner moves either army on both seats' turns.
    #[inline]
    pub fn shares_turns(&self, side: usize) -> bool {
        self.retired[side] > 2
    }
}

/// What the palace rules remember of the moves before a position (not part
/// of FEN: a position read from FEN remembers nothing, as in Fairy-Stockfish).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct PalaceMemory {
    /// The royals faced each other before the last move (bikjang).
    pub facing_before: bool,
    /// Passes in a row that ended with the last move.
    pub passes: u8,
}

impl<B: Bits> Default for Position<B> {
    fn default() -> Self {
        Position {
            by_type: [B::EMPTY; MAX_TYPES],
            by_side: [B::EMPTY; SIDES],
            promoted: B::EMPTY,
            castling: B::EMPTY,
            ep: None,
            ep_victim: None,
            side: 0,
            halfmove: 0,
            fullmove: 1,
            pockets: [[0; MAX_TYPES]; SIDES],
            checks: [0; SIDES],
            palace: PalaceMemory::default(),
            royal_leaps_used: 0,
            pawn_stages: [0; SIDES],
            thrones: ThroneMemory::default(),
        }
    }
}

impl<B: Bits> Position<B> {
    /// All occupied squares.
    #[inline]
    pub fn occupied(&self) -> B {
        self.by_side[0] | self.by_side[1]
    }

    /// The side owning the piece on `square`, and its type.
    #[inline]
    pub fn piece_at(&self, square: usize) -> Option<(usize, usize)> {
        let side = if self.by_side[0].has(square) {
            0
        } else if self.by_side[1].has(square) {
            1
        } else {
            return None;
        };
        let ty = self.by_type.iter().position(|b| b.has(square))?;
        Some((side, ty))
    }

    /// The type of a second piece on `square`, where two stand there (a
    /// doubled throne of Enochian chess: [`Position::piece_at`] names the
    /// king, this the other piece of its seat).
    #[inline]
    pub fn second_at(&self, square: usize) -> Option<usize> {
        let first = self.by_type.iter().position(|b| b.has(square))?;
        let rest = self.by_type[first + 1..]
            .iter()
            .position(|b| b.has(square))?;
        Some(first + 1 + rest)
    }

    /// Puts a piece on an empty square.
    #[inline]
    pub fn put(&mut self, square: usize, side: usize, ty: usize) {
        self.by_type[ty].set(square);
        self.by_side[side].set(square);
    }

    /// Removes the piece of `side` and type `ty` known to stand on `square`
    /// (cheaper than [`Position::remove`], which looks at every type).
    #[inline]
    pub fn remove_piece(&mut self, square: usize, side: usize, ty: usize) {
        let bit = !B::bit(square);
        self.by_type[ty] &= bit;
        self.by_side[side] &= bit;
        self.promoted &= bit;
    }

    /// Removes whatever stands on `square`.
    #[inline]
    pub fn remove(&mut self, square: usize) {
        let bit = !B::bit(square);
        for b in self.by_type.iter_mut() {
            *b &= bit;
        }
        self.by_side[0] &= bit;
        self.by_side[1] &= bit;
        self.promoted &= bit;
    }

    /// The side to move.
    pub fn turn(&self) -> Side {
        Side(self.side)
    }
}

/// The squares of every piece whose type is in `mask` (bit `t` for type `t`).
#[inline]
pub(crate) fn pieces_of_types<B: Bits>(pos: &Position<B>, mut mask: u32) -> B {
    let mut pieces = B::EMPTY;
    while mask != 0 {
        let ty = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        pieces |= pos.by_type[ty];
    }
    pieces
}

/// A variant's definition and compiled tables, acting on positions.
#[derive(Copy, Clone)]
pub struct Rules<'a, B: Bits> {
    /// The definition.
    pub def: &'a VariantDef,
    /// The compiled tables.
    pub t: &'a Tables<B>,
}

impl<'a, B: Bits> Rules<'a, B> {
    /// Number of piece types.
    #[inline]
    pub(crate) fn types(&self) -> usize {
        self.def.pieces.len()
    }

    /// The type of the piece on `square`, looking only at this variant's types.
    #[inline]
    pub(crate) fn type_at(&self, pos: &Position<B>, square: usize) -> Option<usize> {
        pos.by_type[..self.types()]
            .iter()
            .position(|b| b.has(square))
    }

    /// The royal piece type, if the variant has one.
    #[inline]
    pub fn royal_type(&self) -> Option<usize> {
        self.t.royal_type
    }

    /// The royal pieces of `side`.
    #[inline]
    pub fn royals(&self, pos: &Position<B>, side: usize) -> B {
        if self.t.extra_royals != 0 {
            // Kings owned by seats: only the king of the seat on turn counts.
            let types = match &self.t.seats {
                Some(seats) => seats.royal_types[seat_on_turn(pos, side)],
                None => self.t.extra_royals,
            };
            return pieces_of_types(pos, types) & pos.by_side[side];
        }
        match self.royal_type() {
            Some(ty) => pos.by_type[ty] & pos.by_side[side],
            None => B::EMPTY,
        }
    }

    /// The relative rank of `square` for `side` (1 = own first rank).
    pub fn relative_rank(&self, side: usize, square: usize) -> u8 {
        relative_rank(self.def, side, square)
    }
}

/// The seat (0: the side's first, 1: its second) of `side` on turn in
/// `pos` or, for the side that just moved, the seat that made that move.
/// The first seats move in odd-numbered full moves, the second in even ones.
#[inline]
pub(crate) fn seat_on_turn<B: Bits>(pos: &Position<B>, side: usize) -> usize {
    let round = pos.fullmove.max(1) as usize - 1;
    if side == 1 && pos.side == 0 {
        // Black moved in the full move before this one.
        (round + 1) % 2
    } else {
        round % 2
    }
}
