//! Promotion only into a piece the side has lost (`promotion = "captured"`,
//! grand chess; `promotion = "captured-start-square"`, chaturanga), or only
//! once a pawn was lost (`promotion = "after-pawn-lost"`, Enochian chess).

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
                if self.has_lost_a_pawn(pos, side, piece.seat) {
                    for &p in &piece.promotes_to {
                        push(Move {
                            promotion: p as u8 + 1,
                            ..at
                        });
                    }
                } else {
                    push(at);
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
