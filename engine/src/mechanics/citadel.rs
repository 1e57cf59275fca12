//! Citadels (citadel chess, Tamerlane): squares only royal pieces may enter
//! (`royal_only`), so no other piece moves to or attacks them, and of those
//! only the ones listed for the royal's side where `royal_entry` lists
//! any (Tamerlane: the king enters the opponent's citadel, the adventitious
//! king its own); a royal piece
//! arriving on one of its side's `royal_draw` squares (the opponent's
//! citadel) draws the game. An adventitious king that becomes its side's
//! last royal (the king: seed 000, «если добавочный король находится в
//! цитадели, он должен быть помещен на любое не занятое поле») while in its
//! citadel must be placed on any empty square of the board as its side's
//! move; once the last royal it does not go back in.

use crate::bitboard::Bits;
use crate::moves::{Move, MoveKind, MoveList};
use crate::outcome::{Outcome, Reason};
use crate::rules::{Position, Rules};

impl<'a, B: Bits> Rules<'a, B> {
    /// The squares a piece of type `ty` of `side` may not move to or attack:
    /// the citadels, but those the king (the first royal type) may enter,
    /// and for Tamerlane's adventitious king its own citadel (the one its
    /// king may not enter).
    #[inline(always)]
    pub(crate) fn closed_to(&self, ty: usize, side: usize) -> B {
        if self.royal_type() == Some(ty) {
            self.t.royal_closed[side]
        } else if self.keeps_citadel(ty) {
            self.t.royal_only & !self.t.royal_closed[side]
        } else {
            self.t.royal_only
        }
    }

    /// Whether pieces of type `ty` enter their own citadel (the adventitious king).
    #[inline]
    pub(crate) fn keeps_citadel(&self, ty: usize) -> bool {
        self.def
            .pawn_of_pawns
            .as_ref()
            .is_some_and(|pp| pp.becomes == ty)
    }

    /// The piece types that do not attack `square` because it is closed to
    /// them (bit `t` for type `t`).
    #[inline]
    pub(crate) fn locked_out_types(&self, square: usize) -> u32 {
        if !self.t.royal_only.has(square) {
            return 0;
        }
        match self.royal_type() {
            Some(king) => !(1 << king),
            None => !0,
        }
    }

    /// The adventitious king of the side to move when it is that side's last
    /// royal piece (it has taken the king's role), if any.
    fn adventitious_king_alone(&self, pos: &Position<B>) -> Option<(usize, usize)> {
        let ty = self.def.pawn_of_pawns.as_ref()?.becomes;
        let royals = self.royals(pos, pos.side as usize);
        (royals.any() && !royals.more_than_one() && pos.by_type[ty].has(royals.lowest()))
            .then(|| (royals.lowest(), ty))
    }

    /// The adventitious king as the last royal (Tamerlane), on the moves
    /// `list[start..]` of the side to move: standing in its own citadel it
    /// must be placed on an empty square of the board (not a citadel), one
    /// move per square, and those are the side's only moves; standing
    /// elsewhere it may no longer enter its citadel.
    pub(crate) fn place_adventitious_king(
        &self,
        pos: &Position<B>,
        list: &mut MoveList,
        start: usize,
    ) {
        let Some((from, ty)) = self.adventitious_king_alone(pos) else {
            return;
        };
        let own_citadel = self.t.royal_closed[pos.side as usize];
        if !own_citadel.has(from) {
            let mut kept = 0;
            for i in start..list.len() {
                let mv = list[i];
                if mv.from as usize != from || !own_citadel.has(mv.to as usize) {
                    list[start + kept] = mv;
                    kept += 1;
                }
            }
            list.truncate(start + kept);
            return;
        }
        list.truncate(start);
        let free = self.t.board & !self.t.royal_only & !pos.occupied();
        for to in free.squares() {
            list.push(Move {
                from: from as u8,
                to: to as u8,
                piece: ty as u8,
                promotion: 0,
                kind: MoveKind::Quiet,
            });
        }
    }

    /// A royal piece on a square where its arrival draws.
    pub(crate) fn citadel_outcome(&self, pos: &Position<B>) -> Option<Outcome> {
        for side in 0..crate::tables::SIDES {
            let draw = self.t.royal_draw[side];
            if draw.any() && (self.royals(pos, side) & draw).any() {
                return Some(Outcome::draw(Reason::Citadel));
            }
        }
        None
    }
}
