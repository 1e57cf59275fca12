//! Promotion only into a piece the side has lost (`promotion = "captured"`,
//! grand chess; `promotion = "captured-start-square"`, chaturanga), or only
//! once a pawn was lost (`promotion = "after-pawn-lost"`, Enochian chess,
//! with its privileged pawn). There a pawn that reached its edge before its
//! player lost a pawn waits on it unpromoted: «"Превращение" откладывается,
//! если ни одна из пешек игрока не взята» (seed 000) — and when a pawn of
//! that player is taken, the waiting pawns become the piece of their kind.

use crate::bitboard::Bits;
use crate::moves::Move;
use crate::rules::{Position, Rules};
use crate::variant::PromotionChoice;

impl<'a, B: Bits> Rules<'a, B> {
    /// Whether `side` has fewer pieces of type `ty` than it started with.
    fn has_lost(&self, pos: &Position<B>, side: usize, ty: usize) -> bool {
        (pos.by_type[ty] & pos.by_side[side]).count() < self.def.start_counts[side][ty] as u32
    }

    /// Whether `side` (the pawns of `seat`, where pieces are owned by seats)
    /// has fewer pawns than it started with.
    fn has_lost_a_pawn(&self, pos: &Position<B>, side: usize, seat: Option<u8>) -> bool {
        let (mut now, mut start) = (0, 0);
        for (ty, piece) in self.def.pieces.iter().enumerate() {
            if piece.pawn && piece.seat == seat {
                now += (pos.by_type[ty] & pos.by_side[side]).count();
                start += self.def.start_counts[side][ty] as u32;
            }
        }
        now < start
    }

    /// After a pawn of `side`'s `seat` was taken (`promotion = "after-pawn-lost"`):
    /// that player's pawns waiting unpromoted on their edge become the piece
    /// of their kind.
    pub(crate) fn promote_waiting_pawns(
        &self,
        pos: &mut Position<B>,
        side: usize,
        seat: Option<u8>,
    ) {
        if !self.has_lost_a_pawn(pos, side, seat) {
            return;
        }
        for (ty, piece) in self.def.pieces.iter().enumerate() {
            let Some(&kind) = piece.promotes_to.first() else {
                continue;
            };
            if !piece.pawn || piece.seat != seat {
                continue;
            }
            let waiting =
                pos.by_type[ty] & pos.by_side[side] & self.t.pieces[ty][side].promotion_zone;
            for sq in waiting.squares() {
                pos.remove_piece(sq, side, ty);
                pos.put(sq, side, kind);
                pos.promoted.set(sq);
            }
        }
    }

    /// The types of `seat` (all, without seats) neither royal nor pawns.
    fn officers(&self, seat: Option<u8>) -> Vec<usize> {
        (0..self.types())
            .filter(|&ty| {
                let piece = &self.def.pieces[ty];
                piece.seat == seat && !piece.royal && !piece.pawn
            })
            .collect()
    }

    /// Whether `side`'s pawns of `seat` are privileged (see
    /// [`crate::variant::VariantDef::privileged_pawn`]): the owner has a
    /// king, one pawn and at most one queen or bishop besides.
    pub(crate) fn privileged(&self, pos: &Position<B>, side: usize, seat: Option<u8>) -> bool {
        if !self.def.privileged_pawn {
            return false;
        }
        let (mut kings, mut pawns, mut others) = (0, 0, Vec::new());
        for (ty, piece) in self
            .def
            .pieces
            .iter()
            .enumerate()
            .filter(|(_, p)| p.seat == seat)
        {
            let n = (pos.by_type[ty] & pos.by_side[side]).count();
            if piece.royal {
                kings += n;
            } else if piece.pawn {
                pawns += n;
            } else if n > 0 {
                others.push((piece.san_letter, n));
            }
        }
        kings == 1
            && pawns == 1
            && match others.as_slice() {
                [] => true,
                [(letter, 1)] => matches!(letter, 'q' | 'b'),
                _ => false,
            }
    }

    /// After a privileged pawn of `side` became a `promoted` on `to`: the
    /// other pieces of that type turn into the pawn of their kind.
    pub(crate) fn demote_after_privilege(
        &self,
        pos: &mut Position<B>,
        side: usize,
        promoted: usize,
        to: usize,
    ) {
        let seat = self.def.pieces[promoted].seat;
        let Some(pawn) = (0..self.types()).find(|&ty| {
            let piece = &self.def.pieces[ty];
            piece.pawn && piece.seat == seat && piece.promotes_to == [promoted]
        }) else {
            return;
        };
        for sq in (pos.by_type[promoted] & pos.by_side[side]).squares() {
            if sq != to {
                pos.remove(sq);
                pos.put(sq, side, pawn);
            }
        }
    }

    /// The moves of a pawn of type `ty` from `base.from` into its promotion
    /// zone at `to`, under a restricted [`PromotionChoice`].
    pub(crate) fn push_restricted_promotions(
        &self,
        pos: &Position<B>,
        ty: usize,
        base: Move,
        to: usize,
        push: &mut impl FnMut(Move),
    ) {
        let side = pos.side as usize;
        let at = Move {
            to: to as u8,
            ..base
        };
        let piece = &self.def.pieces[ty];
        match self.def.promotion {
            PromotionChoice::Any => {
                for &p in &piece.promotes_to {
                    push(Move {
                        promotion: p as u8 + 1,
                        ..at
                    });
                }
            }
            PromotionChoice::Captured => {
                let last = self.relative_rank(side, to) == self.def.geometry.ranks;
                if !last {
                    push(at);
                }
                for &p in &piece.promotes_to {
                    if self.has_lost(pos, side, p) {
                        push(Move {
                            promotion: p as u8 + 1,
                            ..at
                        });
                    }
                }
            }
            PromotionChoice::AfterPawnLost => {
                let choices = if self.privileged(pos, side, piece.seat) {
                    self.officers(piece.seat)
                } else if self.has_lost_a_pawn(pos, side, piece.seat) {
                    piece.promotes_to.clone()
                } else {
                    Vec::new()
                };
                if choices.is_empty() {
                    push(at);
                }
                for p in choices {
                    push(Move {
                        promotion: p as u8 + 1,
                        ..at
                    });
                }
            }
            PromotionChoice::CapturedStartSquare => {
                match self.def.start_types.get(to).copied().flatten() {
                    Some(p) if piece.promotes_to.contains(&p) && self.has_lost(pos, side, p) => {
                        push(Move {
                            promotion: p as u8 + 1,
                            ..at
                        })
                    }
                    _ => push(at),
                }
            }
        }
    }
}
