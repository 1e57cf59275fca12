//! What decides a game with a setup phase before its first move.
//!
//! - Battle chess's rule, the default: two armies set up blind may leave a
//!   king in check. If the side not to move is in check before the first
//!   move, it loses at once (Mironov's rule: "the player whose king is in
//!   check, while the right to move belongs to the opponent, loses"). The
//!   side to move being in check is ordinary chess: it must answer the check
//!   (and is mated if it cannot).
//! - Frolov's rule (`first_move = "frolov"`): after the public placement the
//!   first side to move wins at once if it can take the enemy king — with a
//!   move after which its own king is not in check — or mate at once.
//!   Otherwise play starts; a side in check answers it as in chess, so a
//!   defended king next to the enemy king can "mate by the king".
//! - Maharajah's rule (`first_move = "checked-moves-first"`): nothing is
//!   decided; the composed position lets a side placed in check move first
//!   ([`crate::setup::start_fen`]), so it answers the check as in chess.
//!
//! Legal play never leaves the side that just moved in check, so the battle
//! rule can only ever apply to the start position; Frolov's rule asks for
//! the first side's first move (move 1, side 0 to move), which only the
//! start position is.

use crate::bitboard::Bits;
use crate::moves::{Move, MoveList};
use crate::outcome::{Outcome, Reason};
use crate::rules::{Position, Rules};
use crate::setup::FirstMove;

impl<'a, B: Bits> Rules<'a, B> {
    /// The game decided by the setups, before the first move.
    #[inline]
    pub(crate) fn setup_check_outcome(&self, pos: &Position<B>) -> Option<Outcome> {
        let setup = self.def.setup.as_ref()?;
        if self.def.atomic {
            return None;
        }
        match setup.first_move {
            FirstMove::CheckLoses => {
                let waiting = 1 - pos.side as usize;
                (self.royals(pos, waiting).any() && self.in_check(pos, waiting))
                    .then(|| self.win(pos.turn(), Reason::CheckAtStart))
            }
            FirstMove::Frolov if pos.fullmove == 1 && pos.side == 0 => self.frolov_outcome(pos),
            FirstMove::Frolov | FirstMove::CheckedMovesFirst => None,
        }
    }

    /// Frolov's rule at the start position: the side to move takes the king
    /// or mates at once, and wins.
    #[cold]
    fn frolov_outcome(&self, pos: &Position<B>) -> Option<Outcome> {
        let us = pos.side as usize;
        let them = 1 - us;
        let kings = self.royals(pos, them);
        if kings.is_empty() {
            return None;
        }
        let mut moves = MoveList::new();
        self.pseudo_moves(pos, &mut moves);
        moves.retain(|&mv| self.is_legal(pos, mv));
        let takes_king = |mv: &Move| mv.is_capture() && kings.has(mv.to as usize);
        if moves.iter().any(takes_king) {
            return Some(self.win(pos.turn(), Reason::KingCapture));
        }
        let mut replies = MoveList::new();
        let mates = moves.iter().any(|&mv| {
            let mut after = *pos;
            self.make(&mut after, mv);
            if !self.in_check(&after, them) {
                return false;
            }
            self.legal_moves(&after, &mut replies);
            replies.is_empty() && self.variant_outcome(&after).is_none()
        });
        mates.then(|| self.win(pos.turn(), Reason::MateAtOnce))
    }
}
