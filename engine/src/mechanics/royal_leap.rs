//! The royal leap (chaturanga): once per game a royal piece that is not in
//! check may make one move of another kind (`royal_leap = "mN"`, the king's
//! knight move). Whether each side has spent it is part of the position
//! ([`Position::royal_leaps_used`]). A leap is never counted as an attack.

use crate::bitboard::Bits;
use crate::moves::{Move, MoveKind, MoveList};
use crate::rules::{Position, Rules};
use crate::tables::orient;

impl<'a, B: Bits> Rules<'a, B> {
    /// The leaps the side to move may still make (pseudo-legal: the royal
    /// piece's safety on landing is checked with every other move).
    pub(crate) fn push_royal_leaps(&self, pos: &Position<B>, list: &mut MoveList) {
        let (Some(atoms), Some(royal)) = (&self.def.royal_leap, self.royal_type()) else {
            return;
        };
        let us = pos.side as usize;
        if pos.royal_leaps_used & (1 << us) != 0 || self.in_check(pos, us) {
            return;
        }
        let g = &self.def.geometry;
        let occupied = pos.occupied();
        let enemy = pos.by_side[1 - us] & !self.royals(pos, 1 - us);
        for from in self.royals(pos, us).squares() {
            for atom in atoms {
                for &step in &atom.steps {
                    let (dx, dy) = orient(us, step);
                    let Some(to) = g.square(g.file_of(from) + dx, g.rank_of(from) + dy) else {
                        continue;
                    };
                    if !g.exists(to) || self.is_plain_move(pos, royal, from, to) {
                        continue;
                    }
                    let kind = if atom.moves && !occupied.has(to) {
                        MoveKind::Quiet
                    } else if atom.captures && enemy.has(to) {
                        MoveKind::Capture
                    } else {
                        continue;
                    };
                    list.push(Move {
                        from: from as u8,
                        to: to as u8,
                        piece: royal as u8,
                        promotion: 0,
                        kind,
                    });
                }
            }
        }
    }

    /// Whether the royal piece reaches `to` from `from` by its own moves.
    fn is_plain_move(&self, pos: &Position<B>, royal: usize, from: usize, to: usize) -> bool {
        let pt = &self.t.pieces[royal][pos.side as usize];
        pt.leap_quiet[from].has(to) || pt.leap_capture[from].has(to)
    }

    /// Records a spent leap when `mv` (about to be made on `pos`) is one.
    #[inline]
    pub(crate) fn note_royal_leap(&self, pos: &mut Position<B>, mv: Move) {
        if self.def.royal_leap.is_none()
            || mv.kind == MoveKind::Drop
            || Some(mv.piece as usize) != self.royal_type()
        {
            return;
        }
        let (from, to) = (mv.from as usize, mv.to as usize);
        if !self.is_plain_move(pos, mv.piece as usize, from, to) {
            pos.royal_leaps_used |= 1 << pos.side;
        }
    }
}
