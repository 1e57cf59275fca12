//! Seed 004's crazyhouse house rules, used by battle crazyhouse: a drop may
//! mate only "on the board" ([`DropMate::OnTheBoard`]), and a promoted piece
//! goes back to the pocket as a pawn only when it is captured on the very next
//! move after its promotion ([`PromotedCapture::PawnOnlyNextMove`]).

use crate::bitboard::Bits;
use crate::moves::{Move, MoveKind, MoveList};
use crate::rules::{Position, Rules};
use crate::variant::{DropMate, PromotedCapture};

impl<'a, B: Bits> Rules<'a, B> {
    /// After `mv` (made on `pos`): where promoted pieces demote only on the
    /// next move, only the piece promoted by `mv` itself keeps its mark, so a
    /// capture on the next move returns it as a pawn and a later one as what
    /// it became.
    #[inline]
    pub(crate) fn age_promotions(&self, pos: &mut Position<B>, mv: Move) {
        if self.def.promoted_capture == PromotedCapture::PawnOnlyNextMove {
            pos.promoted = if mv.promotion().is_some() {
                pos.promoted & B::bit(mv.to as usize)
            } else {
                B::EMPTY
            };
        }
    }

    /// Removes from the legal moves `list` of `pos` the drops that mate
    /// other than on the board, where the variant forbids them.
    pub(crate) fn remove_forbidden_drop_mates(&self, pos: &Position<B>, list: &mut MoveList) {
        if self.def.drop_mate == DropMate::Allowed {
            return;
        }
        list.retain(|&mv| mv.kind != MoveKind::Drop || !self.forbidden_drop_mate(pos, mv));
    }

    /// Whether the legal drop `mv` mates, and the mated side could have
    /// blocked the check by dropping some piece had its pocket held one: a
    /// mate that is not "on the board".
    fn forbidden_drop_mate(&self, pos: &Position<B>, mv: Move) -> bool {
        let them = 1 - pos.side as usize;
        let mut after = *pos;
        self.make(&mut after, mv);
        if !self.in_check(&after, them) || self.has_legal_reply(&after) {
            return false;
        }
        // Mate. Give the mated side one of every droppable piece: any legal
        // move it then has is a drop that blocks.
        let stocked = self.stocked(&after, them);
        let mut replies = MoveList::new();
        self.legal_moves_on_board(&stocked, &mut replies);
        !replies.is_empty()
    }

    /// Whether the side to move in `pos` has a legal move, counting its own
    /// drops that mate only if they are allowed.
    fn has_legal_reply(&self, pos: &Position<B>) -> bool {
        let mut replies = MoveList::new();
        self.legal_moves_on_board(pos, &mut replies);
        let them = 1 - pos.side as usize;
        let (checking_drops, others): (Vec<Move>, Vec<Move>) =
            replies.into_iter().partition(|&reply| {
                reply.kind == MoveKind::Drop && {
                    let mut after = *pos;
                    self.make(&mut after, reply);
                    self.in_check(&after, them)
                }
            });
        !others.is_empty()
            || checking_drops
                .into_iter()
                .any(|reply| !self.forbidden_drop_mate(pos, reply))
    }
}
