//! Tamerlane's pawn of pawns ([`crate::variant::PawnOfPawns`]): reaching its
//! last rank the first time it waits there, immovable and immune to capture,
//! until its owner places it — a move from its square to any square not
//! holding an own piece or a royal one, where it attacks two enemy pieces,
//! or one enemy piece that then has no legal move; reaching the last rank
//! again it is sent back to its side's return square (the pawn of kings'
//! start square; a piece there other than a royal one is removed); the third
//! time it becomes the adventitious king. The stage is part of the position
//! ([`Position::pawn_stages`]).

use crate::bitboard::Bits;
use crate::moves::{Move, MoveKind, MoveList};
use crate::rules::{pieces_of_types, Position, Rules};

/// Stage: on the last rank, waiting to be placed.
const WAITING: u8 = 1;
/// Stage: placed, moving as a pawn.
const PLACED: u8 = 2;
/// Stage: sent back, moving as a pawn.
const SENT_BACK: u8 = 3;
/// Stage: crowned (the adventitious king).
const CROWNED: u8 = 4;

impl<'a, B: Bits> Rules<'a, B> {
    /// Whether `square` is on `side`'s last rank.
    fn on_last_rank(&self, side: usize, square: usize) -> bool {
        self.relative_rank(side, square) >= self.def.geometry.ranks
    }

    /// The square of `side`'s pawn of pawns while it waits on the last rank
    /// (immune to capture), as a set; empty otherwise.
    #[inline]
    pub(crate) fn waiting_pawn(&self, pos: &Position<B>, side: usize) -> B {
        match &self.def.pawn_of_pawns {
            Some(pp) if pos.pawn_stages[side] == WAITING => {
                pos.by_type[pp.piece] & pos.by_side[side]
            }
            _ => B::EMPTY,
        }
    }

    /// The placements of the side to move's waiting pawn of pawns.
    pub(crate) fn push_placements(&self, pos: &Position<B>, list: &mut MoveList) {
        let Some(pp) = &self.def.pawn_of_pawns else {
            return;
        };
        let us = pos.side as usize;
        let them = 1 - us;
        let waiting = self.waiting_pawn(pos, us);
        if waiting.is_empty() {
            return;
        }
        let from = waiting.lowest();
        let royals = pieces_of_types(pos, self.def.royal_mask());
        let attacks = &self.t.pieces[pp.piece][us].leap_capture;
        let targets = self.t.board & !self.t.royal_only & !pos.by_side[us] & !royals;
        let mut replies = MoveList::new();
        for to in targets.squares() {
            if self.on_last_rank(us, to) {
                continue;
            }
            let kind = if pos.by_side[them].has(to) {
                MoveKind::Capture
            } else {
                MoveKind::Quiet
            };
            let mv = Move {
                from: from as u8,
                to: to as u8,
                piece: pp.piece as u8,
                promotion: 0,
                kind,
            };
            let attacked = attacks[to] & pos.by_side[them] & !B::bit(to);
            let allowed = if attacked.more_than_one() {
                true
            } else if attacked.any() {
                // One enemy piece attacked: it must have no legal move then.
                let target = attacked.lowest();
                let mut after = *pos;
                self.make(&mut after, mv);
                self.legal_moves_on_board(&after, &mut replies);
                !replies
                    .iter()
                    .any(|m| m.from as usize == target && m.kind != MoveKind::Drop)
            } else {
                false
            };
            if allowed {
                list.push(mv);
            }
        }
    }

    /// Moves the pawn of pawns of the side making `mv` (already on the
    /// board) along its career: waiting, placed, sent back, crowned.
    pub(crate) fn advance_pawn_of_pawns(&self, pos: &mut Position<B>, mv: Move) {
        let Some(pp) = &self.def.pawn_of_pawns else {
            return;
        };
        if mv.piece as usize != pp.piece || matches!(mv.kind, MoveKind::Drop | MoveKind::Castle) {
            return;
        }
        let us = pos.side as usize;
        let (from, to) = (mv.from as usize, mv.to as usize);
        let stage = pos.pawn_stages[us];
        if self.on_last_rank(us, from) {
            if stage == WAITING {
                pos.pawn_stages[us] = PLACED;
            }
            return;
        }
        if !self.on_last_rank(us, to) {
            return;
        }
        pos.pawn_stages[us] = match stage {
            0 => WAITING,
            PLACED => {
                let back = pp.returns[us];
                let royals = pieces_of_types(pos, self.def.royal_mask());
                if back != to && !royals.has(back) {
                    pos.remove(back);
                    pos.remove_piece(to, us, pp.piece);
                    pos.put(back, us, pp.piece);
                }
                SENT_BACK
            }
            SENT_BACK => {
                pos.remove_piece(to, us, pp.piece);
                pos.put(to, us, pp.becomes);
                CROWNED
            }
            other => other,
        };
    }
}
