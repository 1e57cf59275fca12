//! Kriegspiel: what a player may try and what the referee says.
//!
//! A player sees only their own pieces, so the moves they may *try* are read
//! from their own pieces alone: the moves of a board on which every enemy
//! piece is removed ([`own_view`]), plus every pawn capture onto a square not
//! held by an own piece (the pawn may find something there, or not). A try
//! that is also legal in the real position is played; any other try is an
//! impossible attempt, which the referee announces and which does not pass
//! the turn. What a try is, how text names it and how ambiguity is resolved
//! thus depends on nothing the player cannot see.

use crate::bitboard::Bits;
use crate::error::MoveError;
use crate::moves::{Move, MoveKind};
use crate::notation;
use crate::rules::{Position, Rules};

/// The direction of one check, as the referee announces it.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum CheckDirection {
    /// Along the king's rank.
    Rank,
    /// Along the king's file.
    File,
    /// Along the longer of the two diagonals through the king's square.
    LongDiagonal,
    /// Along the shorter of the two diagonals through the king's square.
    ShortDiagonal,
    /// By a knight (any checker not on a line with the king).
    Knight,
}

/// `pos` as its side to move knows it: own pieces only, no en-passant right
/// (which would tell that the opponent just made a double step).
pub(crate) fn own_view<B: Bits>(pos: &Position<B>) -> Position<B> {
    let us = pos.side as usize;
    let mut seen = *pos;
    for square in pos.by_side[1 - us].squares() {
        seen.remove(square);
    }
    seen.ep = None;
    seen.ep_victim = None;
    seen
}

/// The moves the side to move of `pos` may try: the pseudo-legal moves of
/// its own pieces on a board without enemy pieces, plus every pawn capture
/// onto a square it does not occupy itself (en passant included: it is such
/// a capture).
pub(crate) fn tries<B: Bits>(r: &Rules<B>, pos: &Position<B>) -> Vec<Move> {
    let seen = own_view(pos);
    let us = seen.side as usize;
    let mut list = Vec::new();
    r.pseudo_moves(&seen, &mut list);
    let Some(pawn) = r.def.pieces.iter().position(|p| p.pawn) else {
        return list;
    };
    // A stand-in enemy piece on each square a pawn attacks makes the move
    // generator produce that capture with the variant's own promotions.
    let Some(stand_in) =
        (0..r.def.pieces.len()).find(|&ty| ty != pawn && Some(ty) != r.royal_type())
    else {
        return list;
    };
    let captures_from = &r.t.pieces[pawn][us].leap_capture;
    for from in (seen.by_type[pawn] & seen.by_side[us]).squares() {
        for to in (captures_from[from] & !seen.by_side[us]).squares() {
            let mut probe = seen;
            probe.put(to, 1 - us, stand_in);
            let mut captures = Vec::new();
            r.pseudo_moves(&probe, &mut captures);
            list.extend(
                captures
                    .into_iter()
                    .filter(|m| m.from as usize == from && m.to as usize == to),
            );
        }
    }
    list
}

/// Reads `text` as a try of the side to move of `pos` (see [`tries`]).
///
/// UCI (`e2e4`) names a try exactly. SAN names it from the player's own
/// pieces; `x` is never required. A pawn move written without its file
/// (`d5`) means the step forward when one of the player's pawns can step
/// there, else a capture by the one pawn that could take there.
pub(crate) fn parse_try<B: Bits>(
    r: &Rules<B>,
    pos: &Position<B>,
    text: &str,
    chess960: bool,
) -> Result<Move, MoveError> {
    let all = tries(r, pos);
    let is_pawn_capture =
        |m: &Move| m.kind == MoveKind::Capture && r.def.pieces[m.piece as usize].pawn;
    let steps: Vec<Move> = all
        .iter()
        .copied()
        .filter(|m| !is_pawn_capture(m))
        .collect();
    match notation::parse(r, text, &steps, chess960) {
        Err(MoveError::Illegal) => notation::parse(r, text, &all, chess960),
        read => read,
    }
}

/// The real legal move `attempt` stands for, if it is legal in `legal`.
pub(crate) fn resolve(attempt: Move, legal: &[Move]) -> Option<Move> {
    legal
        .iter()
        .copied()
        .find(|m| m.from == attempt.from && m.to == attempt.to && m.promotion == attempt.promotion)
}

/// The SAN the mover may be told of their own move `mv`, played in `pos`:
/// written from their own pieces (so its disambiguation cannot reveal an
/// enemy piece pinning one of them).
pub(crate) fn own_san<B: Bits>(r: &Rules<B>, pos: &Position<B>, mv: Move) -> String {
    let all = tries(r, pos);
    match resolve(mv, &all) {
        Some(own) => notation::san_body(r, own, &all),
        None => notation::uci(r, mv, r.def.chess960),
    }
}

/// The square of the piece `mv` captured in `before`, if it captured: the
/// destination, or for en passant the captured pawn's own square.
pub(crate) fn captured_square<B: Bits>(before: &Position<B>, mv: Move) -> Option<usize> {
    match mv.kind {
        MoveKind::EnPassant => before.ep_victim.map(usize::from),
        MoveKind::Capture => Some(mv.to as usize),
        _ => None,
    }
}

/// The directions of the checks to the side to move of `pos`, one per
/// checking piece (two in a double check), in a stable order.
pub(crate) fn check_directions<B: Bits>(r: &Rules<B>, pos: &Position<B>) -> Vec<CheckDirection> {
    let us = pos.side as usize;
    let them = 1 - us;
    let Some(king) = r.royals(pos, us).squares().next() else {
        return Vec::new();
    };
    let occupied = pos.occupied();
    let g = &r.def.geometry;
    let mut directions: Vec<CheckDirection> = pos.by_side[them]
        .squares()
        .filter(|&checker| {
            // The checker alone on its side, every square still occupied:
            // whether this one piece attacks the king.
            let mut alone = *pos;
            alone.by_side[them] = B::bit(checker);
            r.attacked(&alone, king, them, occupied)
        })
        .map(|checker| {
            let (file, rank) = (g.file_of(checker), g.rank_of(checker));
            let (king_file, king_rank) = (g.file_of(king), g.rank_of(king));
            let (df, dr) = (file - king_file, rank - king_rank);
            if df == 0 {
                CheckDirection::File
            } else if dr == 0 {
                CheckDirection::Rank
            } else if df.abs() == dr.abs() {
                let rising = df.signum() == dr.signum();
                let (files, ranks) = (g.files as i32, g.ranks as i32);
                // Squares on each diagonal through the king.
                let rising_len = diagonal_length(king_file, king_rank, files, ranks, 1);
                let falling_len = diagonal_length(king_file, king_rank, files, ranks, -1);
                let (this, other) = if rising {
                    (rising_len, falling_len)
                } else {
                    (falling_len, rising_len)
                };
                if this >= other {
                    CheckDirection::LongDiagonal
                } else {
                    CheckDirection::ShortDiagonal
                }
            } else {
                CheckDirection::Knight
            }
        })
        .collect();
    directions.sort_by_key(|d| *d as u8);
    directions
}

/// The number of squares on the diagonal through (`file`, `rank`) going up
/// by `step` files per rank.
fn diagonal_length(file: i32, rank: i32, files: i32, ranks: i32, step: i32) -> i32 {
    let inside = |f: i32, r: i32| (0..files).contains(&f) && (0..ranks).contains(&r);
    let mut count = 1;
    for direction in [1, -1] {
        let (mut f, mut r) = (file + step * direction, rank + direction);
        while inside(f, r) {
            count += 1;
            f += step * direction;
            r += direction;
        }
    }
    count
}

/// The pawn tries of the side to move: its legal pawn captures (en passant
/// included), each origin and destination counted once whatever it promotes to.
pub(crate) fn pawn_tries<B: Bits>(r: &Rules<B>, legal: &[Move]) -> u32 {
    let mut seen: Vec<(u8, u8)> = legal
        .iter()
        .filter(|m| m.is_capture() && r.def.pieces[m.piece as usize].pawn)
        .map(|m| (m.from, m.to))
        .collect();
    seen.sort_unstable();
    seen.dedup();
    seen.len() as u32
}
