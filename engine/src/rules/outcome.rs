//! The end of the game by the rules: the variants' own ends (through
//! [`crate::mechanics`]), then mate and stalemate.

use super::{Position, Rules};
use crate::bitboard::Bits;
use crate::moves::Move;
use crate::outcome::{Outcome, Reason};
use crate::side::Side;
use crate::variant::Verdict;

impl<'a, B: Bits> Rules<'a, B> {
    /// The end of the game by a rule checked before moves: exploded king,
    /// three checks, the hill, the race, no pieces left, a side left in check
    /// by the setups.
    pub fn variant_outcome(&self, pos: &Position<B>) -> Option<Outcome> {
        self.setup_check_outcome(pos)
            .or_else(|| self.exploded_king_outcome(pos))
            .or_else(|| self.check_limit_outcome(pos))
            .or_else(|| self.flag_outcome(pos))
            .or_else(|| self.extinction_outcome(pos))
            .or_else(|| self.palace_outcome(pos))
            .or_else(|| self.bare_king_outcome(pos))
            .or_else(|| self.promotion_goal_outcome(pos))
            .or_else(|| self.citadel_outcome(pos))
            .or_else(|| self.king_capture_outcome(pos))
    }

    /// `side`'s team wins for `reason`.
    pub fn win(&self, side: Side, reason: Reason) -> Outcome {
        Outcome::win(self.def.team_of(side), reason)
    }

    /// The outcome of the position by the rules (not counting repetition,
    /// fifty moves or material, which the game layer adds).
    pub fn outcome(&self, pos: &Position<B>, legal: &[Move]) -> Option<Outcome> {
        if let Some(o) = self.variant_outcome(pos) {
            return Some(o);
        }
        if !legal.is_empty() || self.waits_for_pieces(pos) {
            return None;
        }
        if self.def.king_capture {
            // Kings taken: a seat without a move passes, but for a stalemate
            // with the partner out of play (see `keep_seat_moves`).
            return Some(Outcome::draw(Reason::TeamStalemated));
        }
        let us = pos.side as usize;
        let mover = pos.turn();
        let royal = self.royals(pos, us).any();
        if royal && self.in_check(pos, us) {
            return Some(self.win(mover.opponent(), Reason::Checkmate));
        }
        let verdict = match self.def.kingless_stalemate {
            Some(verdict) if !royal => verdict,
            _ => self.def.stalemate,
        };
        Some(match verdict {
            Verdict::Draw => Outcome::draw(Reason::Stalemate),
            Verdict::Win => self.win(mover, Reason::NoMoves),
            Verdict::Loss if royal => self.win(mover.opponent(), Reason::Stalemate),
            Verdict::Loss => self.win(mover.opponent(), Reason::NoMoves),
        })
    }
}
