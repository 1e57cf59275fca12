//! Drops (crazyhouse): captured pieces go to the captor's pocket, promoted
//! pieces as pawns, and may be put back on the board as a move. Whale
//! shogi's restrictions too: pieces going to hand as another type, pieces
//! that may not be dropped to mate, at most so many of a type on a file.

use crate::bitboard::Bits;
use crate::moves::{Move, MoveKind, MoveList};
use crate::rules::{Position, Rules};

impl<'a, B: Bits> Rules<'a, B> {
    /// The pawn type pieces demote to when captured in drop variants.
    fn pawn_type(&self) -> Option<usize> {
        self.def.pieces.iter().position(|p| p.pawn)
    }

    /// A capture on `square` of a piece of type `ty` goes to the captor's
    /// pocket (a promoted piece as a pawn) — unless pockets are filled by a
    /// partner (bughouse), who receives it through [`Rules::demoted`].
    pub(crate) fn capture_to_pocket(
        &self,
        pos: &mut Position<B>,
        captor: usize,
        square: usize,
        ty: usize,
    ) {
        if self.def.drops && !self.def.partner_pockets {
            let ty = self.demoted(pos, square, ty);
            let count = &mut pos.pockets[captor][ty];
            *count = count.saturating_add(1);
        }
    }

    /// What a piece of type `ty` captured on `square` of `pos` counts as in
    /// a pocket: a promoted piece as a pawn, and a type going to hand as
    /// another (`in_hand`: the whale shogi porpoise as a killer whale) as that.
    pub(crate) fn demoted(&self, pos: &Position<B>, square: usize, ty: usize) -> usize {
        let ty = if pos.promoted.has(square) {
            self.pawn_type().unwrap_or(ty)
        } else {
            ty
        };
        self.def.pieces[ty].in_hand.unwrap_or(ty)
    }

    /// The squares of `targets` on files where `side` already has as many
    /// pieces of type `ty` (or of types turning back into it) as its
    /// `drop_file_limit` allows: no drop there (whale shogi dolphins).
    fn crowded_files(&self, pos: &Position<B>, side: usize, ty: usize, targets: B) -> B {
        let Some(limit) = self.def.pieces[ty].drop_file_limit else {
            return B::EMPTY;
        };
        let g = &self.def.geometry;
        let mut kin = pos.by_type[ty];
        for (other, piece) in self.def.pieces.iter().enumerate() {
            if piece.reverts_to == Some(ty) {
                kin |= pos.by_type[other];
            }
        }
        let mut per_file = [0u8; 16];
        for sq in (kin & pos.by_side[side]).squares() {
            if let Some(n) = per_file.get_mut(g.file_of(sq) as usize) {
                *n = n.saturating_add(1);
            }
        }
        let mut crowded = B::EMPTY;
        for sq in targets.squares() {
            if per_file
                .get(g.file_of(sq) as usize)
                .is_some_and(|&n| n >= limit)
            {
                crowded.set(sq);
            }
        }
        crowded
    }

    /// Removes from the legal moves `list` of `pos` the drops of pieces that
    /// may not be dropped to mate (`mating_drop = false`) which mate.
    pub(crate) fn remove_mating_drops(&self, pos: &Position<B>, list: &mut MoveList) {
        if self.def.pieces.iter().all(|p| p.mating_drop) {
            return;
        }
        let them = 1 - pos.side as usize;
        list.retain(|&mv| {
            if mv.kind != MoveKind::Drop || self.def.pieces[mv.piece as usize].mating_drop {
                return true;
            }
            let mut after = *pos;
            self.make(&mut after, mv);
            if !self.in_check(&after, them) {
                return true;
            }
            let mut replies = MoveList::new();
            self.legal_moves_on_board(&after, &mut replies);
            !replies.is_empty()
        });
    }

    /// Drops of the side to move: every piece in its pocket on every empty
    /// square of that piece's drop zone.
    pub(crate) fn push_drops(&self, pos: &Position<B>, list: &mut MoveList) {
        let t = self.t;
        let us = pos.side as usize;
        let empty = t.board & !pos.occupied();
        for ty in 0..self.types() {
            if pos.pockets[us][ty] == 0 {
                continue;
            }
            let mut targets = empty & t.pieces[ty][us].drop_zone;
            targets &= !self.crowded_files(pos, us, ty, targets);
            for to in targets.squares() {
                list.push(Move {
                    from: to as u8,
                    to: to as u8,
                    piece: ty as u8,
                    promotion: 0,
                    kind: MoveKind::Drop,
                });
            }
        }
    }

    /// How many drops of the side to move land on `allowed` (perft's bulk count).
    pub(crate) fn count_drops(&self, pos: &Position<B>, allowed: B) -> u64 {
        let us = pos.side as usize;
        let empty = self.t.board & !pos.occupied() & allowed;
        let mut count = 0;
        for ty in 0..self.types() {
            if pos.pockets[us][ty] > 0 {
                count += (empty & self.t.pieces[ty][us].drop_zone).count() as u64;
            }
        }
        count
    }

    /// Puts a piece of type `ty` from `side`'s pocket on `to`.
    #[inline]
    pub(crate) fn make_drop(&self, pos: &mut Position<B>, side: usize, ty: usize, to: usize) {
        pos.put(to, side, ty);
        pos.pockets[side][ty] = pos.pockets[side][ty].saturating_sub(1);
    }
}
