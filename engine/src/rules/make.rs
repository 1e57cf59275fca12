//! Making moves: a pseudo-legal move applied to a position, with the
//! mechanics' hooks (drops, explosions, check counting).

use super::{Position, Rules};
use crate::bitboard::Bits;
use crate::moves::{Move, MoveKind};
use crate::tables::{relative_line, SIDES};
use crate::variant::PromotionChoice;

impl<'a, B: Bits> Rules<'a, B> {
    /// Plays `mv` (which must be pseudo-legal) on `pos`.
    pub fn make(&self, pos: &mut Position<B>, mv: Move) {
        if self.t.plain_make {
            self.make_plain(pos, mv);
        } else if self.t.seats.is_some() && crate::mechanics::palace::is_pass(mv) {
            Self::pass_turn(pos);
        } else if let Some(note) = self.throne_note(pos, mv) {
            let us = pos.side as usize;
            self.make_board(pos, mv);
            self.after_throne_move(pos, us, note, mv);
        } else if self.def.palace.pass || self.def.palace.bikjang {
            let before = *pos;
            self.make_board(pos, mv);
            self.remember_palace(&before, pos, mv);
        } else {
            self.make_board(pos, mv);
        }
    }

    /// The square a double step `mv` of `us` passes, when that step gives the
    /// right to take the pawn en passant on the next move (whether or not an
    /// enemy piece could use it). The pawn to be taken stands on `mv.to`.
    pub(crate) fn en_passant_right(&self, mv: Move, us: usize) -> Option<usize> {
        let piece = self.def.pieces.get(mv.piece as usize)?;
        let from = mv.from as usize;
        (mv.kind == MoveKind::DoubleStep
            && piece
                .en_passant_ranks
                .contains(&relative_line(self.def, piece, us, from)))
        .then_some((from + mv.to as usize) / 2)
    }

    /// Whether a piece of `them` could take en passant on `passed` in `pos`.
    pub(crate) fn en_passant_possible(
        &self,
        pos: &Position<B>,
        passed: usize,
        them: usize,
    ) -> bool {
        let mut takers = self.t.en_passant_types[them];
        while takers != 0 {
            let ety = takers.trailing_zeros() as usize;
            takers &= takers - 1;
            let origins = self.t.pieces[ety][them].ep_capture_from[passed];
            if (origins & pos.by_type[ety] & pos.by_side[them]).any() {
                return true;
            }
        }
        false
    }

    /// [`Rules::make_board`] where no mechanics act on a move
    /// ([`crate::tables::Tables::plain_make`]): it moves, takes, promotes,
    /// castles and takes en passant, and keeps the counters and rights.
    #[inline]
    fn make_plain(&self, pos: &mut Position<B>, mv: Move) {
        let us = pos.side as usize;
        let them = 1 - us;
        let from = mv.from as usize;
        let to = mv.to as usize;
        let ty = mv.piece as usize;
        let ep_victim = pos.ep_victim;
        pos.ep = None;
        pos.ep_victim = None;
        pos.halfmove = pos.halfmove.saturating_add(1);
        let pawn = self.t.pawn_types & (1 << ty) != 0;
        match mv.kind {
            MoveKind::Castle => {
                let (king_to, rook_to) = self.castling_destinations(from, to);
                let rook_ty = self.type_at(pos, to).unwrap_or(ty);
                pos.remove_piece(from, us, ty);
                pos.remove_piece(to, us, rook_ty);
                pos.put(king_to, us, ty);
                pos.put(rook_to, us, rook_ty);
            }
            MoveKind::EnPassant => {
                let was_promoted = pos.promoted.has(from);
                pos.remove_piece(from, us, ty);
                if let Some(victim) = ep_victim {
                    let victim = victim as usize;
                    match self.type_at(pos, victim) {
                        Some(vty) => pos.remove_piece(victim, them, vty),
                        None => pos.remove(victim),
                    }
                }
                pos.put(to, us, ty);
                if was_promoted {
                    pos.promoted.set(to);
                }
                pos.halfmove = 0;
            }
            _ => {
                if mv.kind == MoveKind::Capture {
                    match self.type_at(pos, to) {
                        Some(vty) => pos.remove_piece(to, them, vty),
                        None => pos.remove(to),
                    }
                    pos.halfmove = 0;
                }
                let was_promoted = pos.promoted.has(from);
                pos.remove_piece(from, us, ty);
                match mv.promotion() {
                    Some(p) => {
                        pos.put(to, us, p);
                        pos.promoted.set(to);
                    }
                    None => {
                        pos.put(to, us, ty);
                        if was_promoted {
                            pos.promoted.set(to);
                        }
                    }
                }
                if pawn {
                    pos.halfmove = 0;
                    if let Some(passed) = self.en_passant_right(mv, us) {
                        // Only record en passant when an enemy piece could take it.
                        if self.en_passant_possible(pos, passed, them) {
                            pos.ep = Some(passed as u8);
                            pos.ep_victim = Some(to as u8);
                        }
                    }
                }
            }
        }
        self.update_castling(pos, mv, us);
        pos.side = them as u8;
        if us == 1 {
            pos.fullmove = pos.fullmove.saturating_add(1);
        }
    }

    /// Castling rights after `mv` of `us`: the rook must still stand there
    /// and its king must not have moved.
    #[inline(always)]
    fn update_castling(&self, pos: &mut Position<B>, mv: Move, us: usize) {
        if pos.castling.is_empty() {
            return;
        }
        let (from, to, ty) = (mv.from as usize, mv.to as usize, mv.piece as usize);
        let mut castlers = B::EMPTY;
        let mut types = self.t.castling_types;
        while types != 0 {
            let i = types.trailing_zeros() as usize;
            types &= types - 1;
            castlers |= pos.by_type[i];
        }
        pos.castling &= castlers & !B::bit(from) & !B::bit(to);
        if let Some(royal) = self.royal_type() {
            if ty == royal && mv.kind != MoveKind::Drop {
                pos.castling &= !self.t.first_rank[us];
            }
            for side in 0..SIDES {
                if (pos.by_type[royal] & pos.by_side[side] & self.t.first_rank[side]).is_empty() {
                    pos.castling &= !self.t.first_rank[side];
                }
            }
        }
    }

    /// Plays `mv` on the board and counters (see [`Rules::make`]).
    #[inline]
    fn make_board(&self, pos: &mut Position<B>, mv: Move) {
        let us = pos.side as usize;
        let them = 1 - us;
        let from = mv.from as usize;
        let to = mv.to as usize;
        let ty = mv.piece as usize;
        let ep_victim = pos.ep_victim;
        pos.ep = None;
        pos.ep_victim = None;
        pos.halfmove = pos.halfmove.saturating_add(1);
        let pawn = self.def.pieces.get(ty).is_some_and(|p| p.pawn);
        let privileged = self.def.privileged_pawn
            && mv.promotion().is_some()
            && self.privileged(pos, us, self.def.pieces[ty].seat);
        self.note_royal_leap(pos, mv);
        self.note_royal_swap(pos, mv);
        let pawn_taken = if self.def.promotion == PromotionChoice::AfterPawnLost
            && mv.kind == MoveKind::Capture
        {
            self.type_at(pos, to).filter(|&v| self.def.pieces[v].pawn)
        } else {
            None
        };
        let mut exploded_at = None;
        match mv.kind {
            MoveKind::Drop => {
                self.make_drop(pos, us, ty, to);
                if pawn {
                    pos.halfmove = 0;
                }
            }
            MoveKind::Castle => {
                let (king_to, rook_to) = self.castling_destinations(from, to);
                let rook_ty = self.type_at(pos, to).unwrap_or(ty);
                pos.remove(from);
                pos.remove(to);
                pos.put(king_to, us, ty);
                pos.put(rook_to, us, rook_ty);
            }
            MoveKind::EnPassant => {
                let was_promoted = pos.promoted.has(from);
                pos.remove_piece(from, us, ty);
                let mut captured = None;
                if let Some(victim) = ep_victim {
                    let victim = victim as usize;
                    match self.type_at(pos, victim) {
                        Some(vty) => {
                            self.capture_to_pocket(pos, us, victim, vty);
                            pos.remove_piece(victim, them, vty);
                            captured = Some(vty);
                        }
                        None => pos.remove(victim),
                    }
                }
                let arrives = self.arriving_type(ty, captured);
                pos.put(to, us, arrives);
                if was_promoted && arrives == ty {
                    pos.promoted.set(to);
                }
                pos.halfmove = 0;
                exploded_at = Some(to);
            }
            MoveKind::Quiet | MoveKind::DoubleStep | MoveKind::Capture => {
                let mut captured = None;
                if mv.kind == MoveKind::Capture {
                    match self.type_at(pos, to) {
                        Some(vty) => {
                            self.capture_to_pocket(pos, us, to, vty);
                            pos.remove_piece(to, them, vty);
                            if !self.def.thrones.is_empty() {
                                // A doubled throne (Enochian chess): both its pieces are taken.
                                pos.remove(to);
                            }
                            captured = Some(vty);
                        }
                        None => pos.remove(to),
                    }
                    pos.halfmove = 0;
                    exploded_at = Some(to);
                }
                let was_promoted = pos.promoted.has(from);
                pos.remove_piece(from, us, ty);
                if !self.def.thrones.is_empty() && self.type_at(pos, from).is_some() {
                    // One piece of a doubled throne left it: the other stays.
                    pos.by_side[us].set(from);
                }
                match mv.promotion() {
                    Some(p) => {
                        pos.put(to, us, p);
                        pos.promoted.set(to);
                    }
                    None => {
                        let arrives = self.arriving_type(ty, captured);
                        pos.put(to, us, arrives);
                        if was_promoted && arrives == ty {
                            pos.promoted.set(to);
                        }
                    }
                }
                if pawn {
                    pos.halfmove = 0;
                }
                if let Some(passed) = self.en_passant_right(mv, us) {
                    // Only record en passant when an enemy piece could take it.
                    if self.en_passant_possible(pos, passed, them) {
                        pos.ep = Some(passed as u8);
                        pos.ep_victim = Some(to as u8);
                    }
                }
            }
        }
        if let Some(center) = exploded_at {
            self.explode(pos, center);
        }
        if let (true, Some(promoted)) = (privileged, mv.promotion()) {
            self.demote_after_privilege(pos, us, promoted, to);
        }
        if !self.def.crossings.is_empty() && mv.kind != MoveKind::Drop {
            self.cross(pos, to, ty);
        }
        if let Some(victim) = pawn_taken {
            self.promote_waiting_pawns(pos, them, self.def.pieces[victim].seat);
        }
        self.update_castling(pos, mv, us);
        self.advance_pawn_of_pawns(pos, mv);
        self.age_promotions(pos, mv);
        self.count_check(pos, us, them);
        pos.side = them as u8;
        if us == 1 {
            pos.fullmove = pos.fullmove.saturating_add(1);
        }
    }
}
