//! Attacks: whether a square is attacked, by which pieces, and check.

use super::{pieces_of_types, Position, Rules};
use crate::bitboard::Bits;

impl<'a, B: Bits> Rules<'a, B> {
    /// Whether `square` is attacked by `side` with the given occupancy.
    pub fn attacked(&self, pos: &Position<B>, square: usize, side: usize, occupied: B) -> bool {
        let t = self.t;
        let theirs = pos.by_side[side] & occupied;
        let excluded = self.harmless_types() | self.locked_out_types(square);
        let mut leapers = t.leap_attack_types[side] & !excluded;
        while leapers != 0 {
            let ty = leapers.trailing_zeros() as usize;
            leapers &= leapers - 1;
            let mut pieces = pos.by_type[ty] & theirs;
            if pieces.is_empty() {
                continue;
            }
            let pt = &t.pieces[ty][side];
            if (pt.attacked_from[square] & pieces).any() {
                return true;
            }
            if pt.exotic {
                // Slow path: generate this piece's captures as if `square` held an enemy.
                pieces &= pt.exotic_from[square];
                while pieces.any() {
                    let from = pieces.lowest();
                    pieces.clear(from);
                    if self.exotic_attacks(pos, ty, side, from, square, occupied) {
                        return true;
                    }
                }
            }
        }
        if let Some(m) = t.magic {
            let (orth, diag) = t.magic_attackers[side];
            let (orth, diag) = (orth & !excluded, diag & !excluded);
            if orth != 0 {
                let attackers = pieces_of_types(pos, orth) & theirs;
                if attackers.any()
                    && (B::from_low_u64(m.rook(square, occupied.low_u64())) & attackers).any()
                {
                    return true;
                }
            }
            if diag != 0 {
                let attackers = pieces_of_types(pos, diag) & theirs;
                if attackers.any()
                    && (B::from_low_u64(m.bishop(square, occupied.low_u64())) & attackers).any()
                {
                    return true;
                }
            }
        }
        for &(ray, mask, min) in &t.rider_attacks_rest[side] {
            if (t.rays[ray][square] & theirs).is_empty() {
                continue;
            }
            let attackers = pieces_of_types(pos, mask & !excluded) & theirs;
            if (t.rays[ray][square] & attackers).is_empty() {
                continue;
            }
            let reach = t.slide(ray, square, occupied) & !t.too_near(ray, square, min);
            if (reach & attackers).any() {
                return true;
            }
        }
        false
    }

    /// Whether the piece of type `ty` of `side` on `from` captures on `target` by
    /// one of its special movements (hoppers, lame leaps, bent riders).
    fn exotic_attacks(
        &self,
        pos: &Position<B>,
        ty: usize,
        side: usize,
        from: usize,
        target: usize,
        occupied: B,
    ) -> bool {
        let t = self.t;
        let pt = &t.pieces[ty][side];
        let occupied = occupied | B::bit(target);
        for r in &pt.riders {
            if !r.capture
                || (r.initial && !pt.initial_zone.has(from))
                || !t.rays[r.ray][from].has(target)
            {
                continue;
            }
            let reach = self.hopper_reach(pos, pt, r, from, occupied);
            if reach.has(target) {
                return true;
            }
        }
        for sp in &pt.special[from] {
            if sp.capture
                && sp.to == target
                && (sp.path & occupied).is_empty()
                && (!sp.initial || pt.initial_zone.has(from))
            {
                return true;
            }
        }
        !pt.bent.is_empty() && self.bent_targets(ty, side, from, occupied).has(target)
    }

    /// Destinations of bent riders (Tamerlane giraffe): one step of the first
    /// atom onto an empty square, then outward along the second.
    pub(crate) fn bent_targets(&self, ty: usize, side: usize, from: usize, occupied: B) -> B {
        let g = &self.def.geometry;
        let mut out = B::EMPTY;
        for (first, second) in &self.t.pieces[ty][side].bent {
            for &step in &first.steps {
                let (dx, dy) = crate::tables::orient(side, step);
                let Some(mid) = g.offset(from, dx, dy) else {
                    continue;
                };
                if occupied.has(mid) {
                    continue;
                }
                for &leg in &second.steps {
                    let (lx, ly) = crate::tables::orient(side, leg);
                    let outward = (lx == 0 || lx.signum() == dx.signum())
                        && (ly == 0 || ly.signum() == dy.signum());
                    if !outward {
                        continue;
                    }
                    let mut cur = mid;
                    let mut n = 0u8;
                    while let Some(next) = g.offset(cur, lx, ly) {
                        n += 1;
                        if second.max_range != 0 && n > second.max_range {
                            break;
                        }
                        if n >= second.min_range {
                            out.set(next);
                        }
                        if occupied.has(next) {
                            break;
                        }
                        cur = next;
                    }
                }
            }
        }
        out
    }

    /// Whether a king of the other side standing on `square` would be attacked by
    /// `side` (castling: the king's square, path and destination). Atomic: a
    /// square touching `side`'s king is safe ([`Rules::touches_king_atomic`]).
    pub(crate) fn attacked_for_king(
        &self,
        pos: &Position<B>,
        square: usize,
        side: usize,
        occupied: B,
    ) -> bool {
        if self.touches_king_atomic(pos, square, side) {
            return false;
        }
        self.attacked(pos, square, side, occupied)
    }

    /// Whether `side`'s royal piece is attacked (in check). Atomic: adjacent
    /// kings give no check. With spare royals, only a side's last royal is
    /// ever in check.
    pub fn in_check(&self, pos: &Position<B>, side: usize) -> bool {
        let royals = self.royals(pos, side);
        if royals.is_empty() || (self.def.spare_royals && royals.more_than_one()) {
            return false;
        }
        let occupied = pos.occupied();
        if self.touches_king_atomic(pos, royals.lowest(), 1 - side) {
            return false;
        }
        royals
            .squares()
            .any(|sq| self.attacked(pos, sq, 1 - side, occupied))
    }
}
