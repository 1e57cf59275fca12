//! Racing: flag squares (king of the hill, racing kings' last rank) and the
//! racing kings rule that no move may give check.

use crate::bitboard::Bits;
use crate::moves::{MoveKind, MoveList};
use crate::outcome::{Outcome, Reason};
use crate::rules::{Position, Rules};
use crate::side::Side;
use crate::tables::{MAX_TYPES, SIDES};
use crate::variant::FlagRule;

impl<'a, B: Bits> Rules<'a, B> {
    /// Flag squares: a royal piece on one wins at once (king of the hill), or
    /// — racing kings — black may answer white's arrival by arriving too, which draws.
    #[inline]
    pub(crate) fn flag_outcome(&self, pos: &Position<B>) -> Option<Outcome> {
        let def = self.def;
        if self.t.flag.any() {
            let on_flag = |side: usize| (self.royals(pos, side) & self.t.flag).any();
            match def.flag_rule {
                FlagRule::Win => {
                    for side in 0..SIDES {
                        if on_flag(side) {
                            return Some(self.win(Side(side as u8), Reason::Hill));
                        }
                    }
                }
                FlagRule::Race => {
                    let (white, black) = (on_flag(0), on_flag(1));
                    if white && black {
                        return Some(Outcome::draw(Reason::Race));
                    }
                    if black {
                        return Some(self.win(Side::BLACK, Reason::Race));
                    }
                    if white && (pos.side == 0 || !self.black_can_reach_flag(pos)) {
                        return Some(self.win(Side::WHITE, Reason::Race));
                    }
                }
            }
        }
        None
    }

    /// Racing kings: whether black, to move, can put its king on the goal now.
    fn black_can_reach_flag(&self, pos: &Position<B>) -> bool {
        let Some(royal) = self.royal_type() else {
            return false;
        };
        let mut list = MoveList::new();
        self.pseudo_moves(pos, &mut list);
        list.iter().any(|&mv| {
            mv.piece as usize == royal
                && self.t.flag.has(mv.to as usize)
                && mv.kind != MoveKind::Drop
                && self.is_legal(pos, mv)
        })
    }

    /// Drops the moves that would check the enemy royal piece (racing kings),
    /// from check squares and discovered-check lines instead of playing each move.
    pub(crate) fn retain_not_giving_check(&self, pos: &Position<B>, list: &mut MoveList) {
        let t = self.t;
        let us = pos.side as usize;
        let them = 1 - us;
        let kings = self.royals(pos, them);
        if kings.is_empty() {
            return;
        }
        let king = kings.lowest();
        let occupied = pos.occupied();
        let ours = pos.by_side[us];
        let mut check_squares = [B::EMPTY; MAX_TYPES];
        for (ty, squares) in check_squares.iter_mut().enumerate().take(self.types()) {
            *squares = t.pieces[ty][us].attacked_from[king];
        }
        let mut discoverers = B::EMPTY;
        let mut lines: [(usize, B); 16] = [(usize::MAX, B::EMPTY); 16];
        let mut count = 0;
        for &(ray, mask, min) in &t.rider_attacks[us] {
            let reach = t.slide(ray, king, occupied) & !t.too_near(ray, king, min);
            let mut m = mask;
            while m != 0 {
                let ty = m.trailing_zeros() as usize;
                m &= m - 1;
                check_squares[ty] |= reach;
            }
            let Some(first) = t.first_blocker(ray, king, occupied) else {
                continue;
            };
            let Some(second) = t.first_blocker(ray, first, occupied) else {
                continue;
            };
            if !ours.has(first) || !ours.has(second) || !t.rays[ray][king].has(second) {
                continue;
            }
            let behind = pos
                .by_type
                .iter()
                .position(|b| b.has(second))
                .unwrap_or(usize::MAX);
            if behind < 32 && mask & (1 << behind) != 0 && count < lines.len() {
                discoverers.set(first);
                lines[count] = (first, t.rays[ray][king] & !t.rays[ray][second]);
                count += 1;
            }
        }
        list.retain(|&mv| {
            if mv.promotion > 0 || !matches!(mv.kind, MoveKind::Quiet | MoveKind::Capture) {
                let mut after = *pos;
                self.make(&mut after, mv);
                return !self.in_check(&after, them);
            }
            let (from, to) = (mv.from as usize, mv.to as usize);
            if check_squares[mv.piece as usize].has(to) {
                return false;
            }
            if discoverers.has(from) {
                return lines[..count]
                    .iter()
                    .all(|&(sq, line)| sq != from || line.has(to));
            }
            true
        });
    }

    /// Racing kings: whether `us`'s move, made into `after`, checks the enemy
    /// (such moves are illegal).
    #[inline]
    pub(crate) fn gives_forbidden_check(&self, after: &Position<B>, us: usize) -> bool {
        let them = 1 - us;
        self.def.checks_forbidden && self.in_check(after, them)
    }
}
