//! Move generation: pseudo-legal moves of every piece, castling, and (through
//! [`crate::mechanics`]) drops.

use super::{Position, Rules};
use crate::bitboard::Bits;
use crate::moves::{Move, MoveKind, MoveList};
use crate::tables::PieceTables;
use crate::variant::PromotionChoice;

/// Receives the target sets of [`Rules::visit_targets`]: the piece type and
/// its tables for the side to move, its square, the targets and their kind.
/// A visitor with `#[inline(always)]` methods is inlined at every call site.
pub(crate) trait VisitTargets<B> {
    /// One target set.
    fn visit(&mut self, ty: usize, pt: &PieceTables<B>, from: usize, targets: B, kind: MoveKind);

    /// Whether quiet moves, captures and double steps may come as one target
    /// set (of kind [`MoveKind::Quiet`]): for visitors that only count. En
    /// passant always comes alone.
    const MERGE_KINDS: bool = false;

    /// The piece types to visit (a mask; all by default).
    #[inline(always)]
    fn types(&self) -> u32 {
        !0
    }

    /// Takes the pieces `ours` of type `ty` before they are visited one by
    /// one, and returns those still to visit (a counter may count some at once).
    #[inline(always)]
    fn pieces(&mut self, ty: usize, pt: &PieceTables<B>, ours: B) -> B {
        let _ = (ty, pt);
        ours
    }
}

/// Lists the moves of each target set for [`Rules::pseudo_moves`], inlined
/// into the generator.
struct MovePusher<'r, 'a, B: Bits> {
    rules: &'r Rules<'a, B>,
    pos: &'r Position<B>,
    list: &'r mut MoveList,
}

impl<B: Bits> VisitTargets<B> for MovePusher<'_, '_, B> {
    #[inline(always)]
    fn visit(&mut self, ty: usize, pt: &PieceTables<B>, from: usize, targets: B, kind: MoveKind) {
        self.rules
            .push_targets(self.pos, self.list, ty, pt, from, targets, kind)
    }
}

impl<'a, B: Bits> Rules<'a, B> {
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn push_targets(
        &self,
        pos: &Position<B>,
        list: &mut MoveList,
        ty: usize,
        pt: &PieceTables<B>,
        from: usize,
        targets: B,
        kind: MoveKind,
    ) {
        let zone = pt.promotion_zone;
        let base = Move {
            from: from as u8,
            to: 0,
            piece: ty as u8,
            promotion: 0,
            kind,
        };
        for to in (targets & !zone).squares() {
            list.push(Move {
                to: to as u8,
                ..base
            });
        }
        let mut promoting = targets & zone;
        if kind == MoveKind::Capture && promoting.any() && !self.capture_promotes() {
            for to in promoting.squares() {
                list.push(Move {
                    to: to as u8,
                    ..base
                });
            }
            promoting = B::EMPTY;
        }
        if promoting.any() && self.def.promotion != PromotionChoice::Any {
            for to in promoting.squares() {
                self.push_restricted_promotions(pos, ty, base, to, &mut |mv| list.push(mv));
            }
        } else if promoting.any() {
            for to in promoting.squares() {
                for &p in &self.def.pieces[ty].promotes_to {
                    list.push(Move {
                        to: to as u8,
                        promotion: p as u8 + 1,
                        ..base
                    });
                }
            }
        }
    }

    /// Visits, for every piece of the side to move, its pseudo-legal target
    /// sets by kind (captures, quiet moves, double steps, en passant; see
    /// [`VisitTargets::MERGE_KINDS`] and [`VisitTargets::pieces`]).
    /// Castling and drops are not included.
    #[inline(always)]
    pub(crate) fn visit_targets<V: VisitTargets<B>>(&self, pos: &Position<B>, visitor: &mut V) {
        let t = self.t;
        let us = pos.side as usize;
        let them = 1 - us;
        let occupied = pos.occupied();
        let empty = t.board & !occupied;
        let enemy = pos.by_side[them] & !self.waiting_pawn(pos, them);
        let mut types = visitor.types() & (u32::MAX >> (32 - self.types()));
        while types != 0 {
            let ty = types.trailing_zeros() as usize;
            types &= types - 1;
            let ours = pos.by_type[ty] & pos.by_side[us];
            if ours.is_empty() {
                continue;
            }
            let pt = &t.pieces[ty][us];
            let ours = visitor.pieces(ty, pt, ours);
            let pawn = t.pawn_types & (1 << ty) != 0;
            for from in ours.squares() {
                let mut quiet = pt.leap_quiet[from] & empty;
                let mut capture = pt.leap_capture[from] & enemy;
                let mut double = B::EMPTY;
                if pt.plain_riders {
                    let mut reach = B::EMPTY;
                    if let Some(m) = t.magic {
                        if pt.magic_rook {
                            reach |= B::from_low_u64(m.rook(from, occupied.low_u64()));
                        }
                        if pt.magic_bishop {
                            reach |= B::from_low_u64(m.bishop(from, occupied.low_u64()));
                        }
                    }
                    for &ray in &pt.slide_rays {
                        reach |= t.slide(ray, from, occupied);
                    }
                    quiet |= reach & empty;
                    capture |= reach & enemy;
                } else {
                    let (rider_quiet, rider_capture) =
                        self.rider_targets(pos, pt, from, occupied, empty, enemy);
                    quiet |= rider_quiet;
                    capture |= rider_capture;
                }
                if pt.special_from.has(from) {
                    for sp in &pt.special[from] {
                        if (sp.initial && !pt.initial_zone.has(from)) || (sp.path & occupied).any()
                        {
                            continue;
                        }
                        if sp.quiet && empty.has(sp.to) {
                            if pawn && sp.initial {
                                if V::MERGE_KINDS {
                                    double.set(sp.to);
                                } else {
                                    visitor.visit(
                                        ty,
                                        pt,
                                        from,
                                        B::bit(sp.to),
                                        MoveKind::DoubleStep,
                                    );
                                }
                            } else {
                                quiet.set(sp.to);
                            }
                        }
                        if sp.capture && enemy.has(sp.to) {
                            capture.set(sp.to);
                        }
                    }
                }
                if !pt.bent.is_empty() {
                    let reach = self.bent_targets(ty, us, from, occupied);
                    quiet |= reach & empty;
                    capture |= reach & enemy;
                }
                if let Some(ep) = pos.ep {
                    if pt.ep_capture[from].has(ep as usize) && empty.has(ep as usize) {
                        visitor.visit(ty, pt, from, B::bit(ep as usize), MoveKind::EnPassant);
                    }
                }
                if self.t.slow_legality {
                    let closed = self.closed_to(ty, us);
                    quiet &= !closed;
                    capture &= !closed;
                }
                if V::MERGE_KINDS {
                    // A double step to a square also reached otherwise is a
                    // move of its own, as in the listing.
                    let targets = capture | quiet | double;
                    if targets.any() {
                        visitor.visit(ty, pt, from, targets, MoveKind::Quiet);
                    }
                    if (double & quiet).any() {
                        visitor.visit(ty, pt, from, double & quiet, MoveKind::DoubleStep);
                    }
                    continue;
                }
                if capture.any() {
                    visitor.visit(ty, pt, from, capture, MoveKind::Capture);
                }
                if quiet.any() {
                    visitor.visit(ty, pt, from, quiet, MoveKind::Quiet);
                }
            }
        }
    }

    /// The quiet and capturing targets of the riders of a piece on `from`
    /// (hoppers, minimum ranges, initial-only rides).
    #[inline]
    fn rider_targets(
        &self,
        pos: &Position<B>,
        pt: &PieceTables<B>,
        from: usize,
        occupied: B,
        empty: B,
        enemy: B,
    ) -> (B, B) {
        let (mut quiet, mut capture) = (B::EMPTY, B::EMPTY);
        for r in &pt.riders {
            if r.initial && !pt.initial_zone.has(from) {
                continue;
            }
            let reach = self.hopper_reach(pos, pt, r, from, occupied);
            if r.quiet {
                quiet |= reach & empty;
            }
            if r.capture {
                capture |= reach & enemy;
            }
        }
        (quiet, capture)
    }

    /// All pseudo-legal moves (own-royal safety not checked) of the side to move.
    pub fn pseudo_moves(&self, pos: &Position<B>, list: &mut MoveList) {
        let start = list.len();
        self.visit_targets(
            pos,
            &mut MovePusher {
                rules: self,
                pos,
                list,
            },
        );
        if self.def.castling {
            self.castling_moves(pos, list);
        }
        if self.def.drops {
            self.push_drops(pos, list);
        }
        self.push_pass(pos, list);
        if self.def.royal_leap.is_some() {
            self.push_royal_leaps(pos, list);
        }
        if self.def.royal_swap {
            self.push_royal_swaps(pos, list);
        }
        if self.def.pawn_of_pawns.is_some() {
            self.push_placements(pos, list);
            self.place_adventitious_king(pos, list, start);
        }
    }

    /// Where the king and rook end up when castling with the rook on `rook`.
    pub fn castling_destinations(&self, king: usize, rook: usize) -> (usize, usize) {
        if self.def.castling_swap || self.def.royal_swap {
            return (rook, king);
        }
        let files = self.t.files as usize;
        let rank_start = king - king % files;
        if rook > king {
            (rank_start + files - 2, rank_start + files - 3)
        } else {
            (rank_start + 2, rank_start + 3)
        }
    }

    /// Castling moves (king takes own rook) of the side to move: rights, an
    /// empty way, and a king that neither starts on, passes nor lands on an
    /// attacked square (passed squares judged before the move, the landing
    /// square after it).
    pub(crate) fn castling_moves(&self, pos: &Position<B>, list: &mut MoveList) {
        self.visit_castling_moves(pos, |mv| list.push(mv));
    }

    /// Visits the castling moves of [`Rules::castling_moves`] without a list.
    pub(crate) fn visit_castling_moves(&self, pos: &Position<B>, mut visit: impl FnMut(Move)) {
        let us = pos.side as usize;
        let rights = pos.castling & pos.by_side[us] & self.t.first_rank[us];
        if rights.is_empty() {
            return;
        }
        let Some(royal) = self.royal_type() else {
            return;
        };
        let kings = pos.by_type[royal] & pos.by_side[us] & self.t.first_rank[us];
        if kings.is_empty() || kings.more_than_one() {
            return;
        }
        let king = kings.lowest();
        let occupied = pos.occupied();
        // The cheap test first: most of the time every way is blocked, and
        // then whether the king is attacked does not matter.
        let mut free = B::EMPTY;
        for rook in rights.squares() {
            // Usually a piece stands between king and rook: no need to work out
            // where they would land (which divides by the board's width).
            let (near, far) = (king.min(rook), king.max(rook));
            if (near + 1..far).any(|sq| occupied.has(sq)) {
                continue;
            }
            let (king_to, rook_to) = self.castling_destinations(king, rook);
            let lo = king.min(rook).min(king_to).min(rook_to);
            let hi = king.max(rook).max(king_to).max(rook_to);
            if !(lo..=hi).any(|sq| sq != king && sq != rook && occupied.has(sq)) {
                free.set(rook);
            }
        }
        if free.is_empty() || self.attacked_for_king(pos, king, 1 - us, occupied) {
            return;
        }
        // The squares the king passes are judged in the position before the move, where the
        // castling rook still stands (in Chess960 it may shield them); the square it lands on in
        // the position after it, the rook on its new square (which may shield that square).
        let passing = occupied & !B::bit(king);
        for rook in free.squares() {
            let (king_to, rook_to) = self.castling_destinations(king, rook);
            let (a, b) = (king.min(king_to), king.max(king_to));
            let landed = (passing & !B::bit(rook)) | B::bit(rook_to);
            if (a..=b).any(|sq| {
                sq != king && sq != king_to && self.attacked_for_king(pos, sq, 1 - us, passing)
            }) || self.attacked_for_king(pos, king_to, 1 - us, landed)
            {
                continue;
            }
            visit(Move {
                from: king as u8,
                to: rook as u8,
                piece: royal as u8,
                promotion: 0,
                kind: MoveKind::Castle,
            });
        }
    }
}
