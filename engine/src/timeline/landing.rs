//! The board after a jump: the rules a jump must pass, and cutting the
//! present line at the restored moment.

use super::JumpError;
use crate::bitboard::Bits;
use crate::game::State;
use crate::identity::IdBoard;
use crate::moves::Move;
use crate::rules::{Position, Rules};

/// What the board looks like after a jump, before it is committed.
pub(super) struct Landing<B: Bits> {
    pub(super) position: Position<B>,
    pub(super) ids: IdBoard,
    pub(super) legal: Vec<Move>,
    pub(super) to_ply: usize,
    pub(super) vanished: Option<usize>,
    pub(super) destroyed: bool,
    pub(super) piece: usize,
}

/// Checks a jump against the rules, without changing anything.
pub(super) fn prepare<B: Bits>(
    r: &Rules<B>,
    s: &State<B>,
    back: u8,
    square: usize,
) -> Result<Landing<B>, JumpError> {
    let present_ply = s.positions.len() - 1;
    let present = &s.positions[present_ply];
    let us = present.side as usize;
    let Some((side, piece)) = present.piece_at(square) else {
        return Err(JumpError::NotYourPiece);
    };
    if side != us {
        return Err(JumpError::NotYourPiece);
    }
    if Some(piece) == r.royal_type() {
        return Err(JumpError::KingCannotTravel);
    }
    let rank = r.def.geometry.rank_of(square);
    if r.def.pieces[piece].pawn && (rank == 0 || rank == r.def.geometry.ranks as i32 - 1) {
        return Err(JumpError::PawnOnEdgeRank);
    }
    let plies_back = back as usize * crate::side::SIDES;
    let Some(to_ply) = present_ply.checked_sub(plies_back) else {
        return Err(JumpError::NotThatManyMoves {
            made: present_ply / crate::side::SIDES,
        });
    };
    let past = &s.positions[to_ply];
    let past_ids = &s.ids[to_ply];
    let id = s.ids[present_ply].get(square).copied().unwrap_or(0);
    let vanished = past_ids.iter().position(|&i| i == id && id != 0);
    if vanished == Some(square) {
        return Err(JumpError::SameSquare);
    }
    let mut destroyed = false;
    if let Some((side_then, piece_then)) = past.piece_at(square) {
        if Some(piece_then) == r.royal_type() {
            return Err(JumpError::KingThere);
        }
        if side_then == us {
            return Err(JumpError::OwnPieceThere);
        }
        destroyed = true;
    }
    let mut position = *past;
    let mut ids = past_ids.clone();
    let mut changed = B::bit(square);
    if let Some(from) = vanished {
        position.remove(from);
        ids[from] = 0;
        changed |= B::bit(from);
    }
    position.remove(square);
    position.put(square, us, piece);
    if present.promoted.has(square) {
        position.promoted |= B::bit(square);
    }
    ids[square] = id;
    // A rook that left or was destroyed takes its castling right along.
    position.castling &= !changed;
    // The moment's en-passant right comes back with it (VARIANTS.md: the board
    // "with castling rights, en-passant, move counters of that moment"), even
    // when no pawn could use it then: the arrival may bring the one that can.
    // The arrival may also destroy the pawn that could be taken, or stand on
    // the square it passed: then the right lapses.
    position.ep = None;
    position.ep_victim = None;
    if let Some((passed, victim)) = en_passant_right(r, s, to_ply) {
        if !changed.has(passed)
            && !changed.has(victim)
            && r.en_passant_possible(&position, passed, us)
        {
            position.ep = Some(passed as u8);
            position.ep_victim = Some(victim as u8);
        }
    }
    if r.in_check(&position, 1 - us) {
        return Err(JumpError::GivesCheck);
    }
    let mut legal = Vec::new();
    r.legal_moves(&position, &mut legal);
    if legal.is_empty() {
        return Err(JumpError::NoMoveAfter);
    }
    Ok(Landing {
        position,
        ids,
        legal,
        to_ply,
        vanished,
        destroyed,
        piece,
    })
}

/// The en-passant right of the moment after `ply` half-moves, whether or not a
/// piece could use it: the square passed and the pawn to be taken. It comes
/// from the double step that led to the moment (the start position's from its
/// FEN), and lapses when that pawn is no longer there (an earlier jump to the
/// same moment destroyed it) or the square passed is taken.
fn en_passant_right<B: Bits>(r: &Rules<B>, s: &State<B>, ply: usize) -> Option<(usize, usize)> {
    let moment = &s.positions[ply];
    let Some(before) = ply.checked_sub(1) else {
        return moment
            .ep
            .zip(moment.ep_victim)
            .map(|(e, v)| (e as usize, v as usize));
    };
    let mv = s.moves[before];
    let mover = s.positions[before].side as usize;
    let passed = r.en_passant_right(mv, mover)?;
    let victim = mv.to as usize;
    let pawn_there = moment.piece_at(victim) == Some((mover, mv.piece as usize));
    (pawn_there && moment.piece_at(passed).is_none()).then_some((passed, victim))
}

/// Applies a checked jump: the present line is cut at the restored moment,
/// and its last position is kept for the timeline's board.
pub(super) fn commit<B: Bits>(r: &Rules<B>, s: &mut State<B>, landing: Landing<B>) {
    let present_ply = s.positions.len() - 1;
    let last = present_ply
        .checked_sub(1)
        .map(|i| (s.moves[i], s.positions[i]));
    s.left.push((s.positions[present_ply], last));
    let to = landing.to_ply;
    s.positions.truncate(to);
    s.ids.truncate(to);
    s.hashes.truncate(to);
    s.moves.truncate(to);
    s.hashes.push(r.hash(&landing.position));
    s.positions.push(landing.position);
    s.ids.push(landing.ids);
    s.legal = landing.legal;
}
