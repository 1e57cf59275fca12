//! A position and the rules that act on it: move generation, making moves,
//! legality, attacks and the end of the game. Generic over the bit-set width.

use crate::betza::Hop;
use crate::bitboard::Bits;
use crate::moves::{Move, MoveKind, MoveList};
use crate::outcome::{Outcome, Reason};
use crate::side::Side;
use crate::tables::{relative_rank, Tables, MAX_TYPES, SIDES};
use crate::variant::{FlagRule, VariantDef, Verdict};

/// A position: pieces, side to move, castling rights, en passant, counters,
/// pockets. Plain data, cheap to copy; the rules live in [`Rules`].
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Position<B: Bits> {
    /// Squares of each piece type (both sides).
    pub by_type: [B; MAX_TYPES],
    /// Squares of each side's pieces.
    pub by_side: [B; SIDES],
    /// Pieces that were promoted (they return to the pocket as pawns).
    pub promoted: B,
    /// Squares of rooks that may still castle (both sides).
    pub castling: B,
    /// The square a double-stepping pawn passed, if it may be taken en passant.
    pub ep: Option<u8>,
    /// The square of the pawn that may be taken en passant.
    pub ep_victim: Option<u8>,
    /// Side to move.
    pub side: u8,
    /// Half-moves since the last capture or pawn move.
    pub halfmove: u16,
    /// Full-move number.
    pub fullmove: u32,
    /// Pocket counts `[side][type]`.
    pub pockets: [[u8; MAX_TYPES]; SIDES],
    /// Checks given by each side (three-check).
    pub checks: [u8; SIDES],
}

impl<B: Bits> Default for Position<B> {
    fn default() -> Self {
        Position {
            by_type: [B::EMPTY; MAX_TYPES],
            by_side: [B::EMPTY; SIDES],
            promoted: B::EMPTY,
            castling: B::EMPTY,
            ep: None,
            ep_victim: None,
            side: 0,
            halfmove: 0,
            fullmove: 1,
            pockets: [[0; MAX_TYPES]; SIDES],
            checks: [0; SIDES],
        }
    }
}

impl<B: Bits> Position<B> {
    /// All occupied squares.
    #[inline]
    pub fn occupied(&self) -> B {
        self.by_side[0] | self.by_side[1]
    }

    /// The side owning the piece on `square`, and its type.
    #[inline]
    pub fn piece_at(&self, square: usize) -> Option<(usize, usize)> {
        let side = if self.by_side[0].has(square) {
            0
        } else if self.by_side[1].has(square) {
            1
        } else {
            return None;
        };
        let ty = self.by_type.iter().position(|b| b.has(square))?;
        Some((side, ty))
    }

    /// Puts a piece on an empty square.
    #[inline]
    pub fn put(&mut self, square: usize, side: usize, ty: usize) {
        self.by_type[ty].set(square);
        self.by_side[side].set(square);
    }

    /// Removes whatever stands on `square`.
    #[inline]
    pub fn remove(&mut self, square: usize) {
        let bit = !B::bit(square);
        for b in self.by_type.iter_mut() {
            *b &= bit;
        }
        self.by_side[0] &= bit;
        self.by_side[1] &= bit;
        self.promoted &= bit;
    }

    /// The side to move.
    pub fn turn(&self) -> Side {
        Side(self.side)
    }
}

/// Checkers and pins of the side to move (see [`Rules::count_legal`]).
struct Pins<B> {
    king: usize,
    double_check: bool,
    /// Where a non-royal move must land to resolve a check (everything when not in check).
    evasion: B,
    pinned: B,
    lines: [(usize, B); 16],
    count: usize,
}

impl<B: Bits> Pins<B> {
    /// The line a pinned piece on `square` may move along.
    fn line(&self, square: usize) -> B {
        self.lines[..self.count]
            .iter()
            .filter(|(sq, _)| *sq == square)
            .fold(!B::EMPTY, |acc, (_, line)| acc & *line)
    }

    /// Whether a piece on `from` may go to `to` as far as pins are concerned.
    fn allows(&self, from: usize, to: usize) -> bool {
        !self.pinned.has(from) || self.line(from).has(to)
    }
}

/// The squares of every piece whose type is in `mask` (bit `t` for type `t`).
#[inline]
fn pieces_of_types<B: Bits>(pos: &Position<B>, mut mask: u32) -> B {
    let mut pieces = B::EMPTY;
    while mask != 0 {
        let ty = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        pieces |= pos.by_type[ty];
    }
    pieces
}

/// A variant's definition and compiled tables, acting on positions.
#[derive(Copy, Clone)]
pub struct Rules<'a, B: Bits> {
    /// The definition.
    pub def: &'a VariantDef,
    /// The compiled tables.
    pub t: &'a Tables<B>,
}

impl<'a, B: Bits> Rules<'a, B> {
    /// Number of piece types.
    #[inline]
    fn types(&self) -> usize {
        self.def.pieces.len()
    }

    /// The type of the piece on `square`, looking only at this variant's types.
    #[inline]
    fn type_at(&self, pos: &Position<B>, square: usize) -> Option<usize> {
        pos.by_type[..self.types()]
            .iter()
            .position(|b| b.has(square))
    }

    /// The royal pieces of `side`.
    #[inline]
    pub fn royals(&self, pos: &Position<B>, side: usize) -> B {
        match self.def.royal_type() {
            Some(ty) => pos.by_type[ty] & pos.by_side[side],
            None => B::EMPTY,
        }
    }

    /// Whether `square` is attacked by `side` with the given occupancy.
    pub fn attacked(&self, pos: &Position<B>, square: usize, side: usize, occupied: B) -> bool {
        let t = self.t;
        let theirs = pos.by_side[side] & occupied;
        // Atomic kings cannot capture, so they attack nothing.
        let excluded = match self.def.royal_type() {
            Some(royal) if self.def.atomic => 1u32 << royal,
            _ => 0,
        };
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
                while pieces.any() {
                    let from = pieces.lowest();
                    pieces.clear(from);
                    if self.exotic_attacks(pos, ty, side, from, square, occupied) {
                        return true;
                    }
                }
            }
        }
        for &(ray, mask, min) in &t.rider_attacks[side] {
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
            if !r.capture || (r.initial && !pt.initial_zone.has(from)) {
                continue;
            }
            let reach = match r.hop {
                Hop::None => t.slide(r.ray, from, occupied) & !t.too_near(r.ray, from, r.min),
                Hop::Cannon => match t.first_blocker(r.ray, from, occupied) {
                    Some(screen) => t.slide(r.ray, screen, occupied),
                    None => B::EMPTY,
                },
                Hop::Grasshopper => match t.first_blocker(r.ray, from, occupied) {
                    Some(screen) => t.ray_near[r.ray][1][screen],
                    None => B::EMPTY,
                },
            };
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
        let _ = pos;
        self.bent_targets(ty, side, from, occupied).has(target)
    }

    /// Destinations of bent riders (Tamerlane giraffe): one step of the first
    /// atom onto an empty square, then outward along the second.
    fn bent_targets(&self, ty: usize, side: usize, from: usize, occupied: B) -> B {
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
    /// square touching `side`'s king is safe, since kings that touch give no check.
    fn attacked_for_king(
        &self,
        pos: &Position<B>,
        square: usize,
        side: usize,
        occupied: B,
    ) -> bool {
        if self.def.atomic && (self.t.adjacent[square] & self.royals(pos, side)).any() {
            return false;
        }
        self.attacked(pos, square, side, occupied)
    }

    /// Whether `side`'s royal piece is attacked (in check). Atomic: adjacent kings give no check.
    pub fn in_check(&self, pos: &Position<B>, side: usize) -> bool {
        let royals = self.royals(pos, side);
        if royals.is_empty() {
            return false;
        }
        let occupied = pos.occupied();
        if self.def.atomic {
            let theirs = self.royals(pos, 1 - side);
            let king = royals.lowest();
            if (self.t.adjacent[king] & theirs).any() {
                return false;
            }
        }
        royals
            .squares()
            .any(|sq| self.attacked(pos, sq, 1 - side, occupied))
    }

    #[inline]
    fn push_targets(
        &self,
        pos: &Position<B>,
        list: &mut MoveList,
        ty: usize,
        from: usize,
        targets: B,
        kind: MoveKind,
    ) {
        let us = pos.side as usize;
        let zone = self.t.pieces[ty][us].promotion_zone;
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
        let promoting = targets & zone;
        if promoting.any() {
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
    /// sets by kind (captures, quiet moves, double steps, en passant).
    /// Castling and drops are not included.
    #[inline(always)]
    fn visit_targets(&self, pos: &Position<B>, mut visit: impl FnMut(usize, usize, B, MoveKind)) {
        let t = self.t;
        let us = pos.side as usize;
        let them = 1 - us;
        let occupied = pos.occupied();
        let empty = t.board & !occupied;
        let enemy = pos.by_side[them];
        for ty in 0..self.types() {
            let ours = pos.by_type[ty] & pos.by_side[us];
            if ours.is_empty() {
                continue;
            }
            let pt = &t.pieces[ty][us];
            let pawn = self.def.pieces[ty].pawn;
            for from in ours.squares() {
                let mut quiet = pt.leap_quiet[from] & empty;
                let mut capture = pt.leap_capture[from] & enemy;
                for r in &pt.riders {
                    if r.initial && !pt.initial_zone.has(from) {
                        continue;
                    }
                    let reach = match r.hop {
                        Hop::None => {
                            t.slide(r.ray, from, occupied) & !t.too_near(r.ray, from, r.min)
                        }
                        Hop::Cannon => match t.first_blocker(r.ray, from, occupied) {
                            Some(screen) => t.slide(r.ray, screen, occupied),
                            None => B::EMPTY,
                        },
                        Hop::Grasshopper => match t.first_blocker(r.ray, from, occupied) {
                            Some(screen) => t.ray_near[r.ray][1][screen],
                            None => B::EMPTY,
                        },
                    };
                    if r.quiet {
                        quiet |= reach & empty;
                    }
                    if r.capture {
                        capture |= reach & enemy;
                    }
                }
                for sp in &pt.special[from] {
                    if (sp.initial && !pt.initial_zone.has(from)) || (sp.path & occupied).any() {
                        continue;
                    }
                    if sp.quiet && empty.has(sp.to) {
                        if pawn && sp.initial {
                            visit(ty, from, B::bit(sp.to), MoveKind::DoubleStep);
                        } else {
                            quiet.set(sp.to);
                        }
                    }
                    if sp.capture && enemy.has(sp.to) {
                        capture.set(sp.to);
                    }
                }
                if !pt.bent.is_empty() {
                    let reach = self.bent_targets(ty, us, from, occupied);
                    quiet |= reach & empty;
                    capture |= reach & enemy;
                }
                if let Some(ep) = pos.ep {
                    if pt.ep_capture[from].has(ep as usize) && empty.has(ep as usize) {
                        visit(ty, from, B::bit(ep as usize), MoveKind::EnPassant);
                    }
                }
                if capture.any() {
                    visit(ty, from, capture, MoveKind::Capture);
                }
                if quiet.any() {
                    visit(ty, from, quiet, MoveKind::Quiet);
                }
            }
        }
    }

    /// All pseudo-legal moves (own-royal safety not checked) of the side to move.
    pub fn pseudo_moves(&self, pos: &Position<B>, list: &mut MoveList) {
        let t = self.t;
        let us = pos.side as usize;
        let empty = t.board & !pos.occupied();
        self.visit_targets(pos, |ty, from, targets, kind| {
            self.push_targets(pos, list, ty, from, targets, kind)
        });
        if self.def.castling {
            self.castling_moves(pos, list);
        }
        if self.def.drops {
            for ty in 0..self.types() {
                if pos.pockets[us][ty] == 0 {
                    continue;
                }
                let targets = empty & t.pieces[ty][us].drop_zone;
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
    }

    /// Where the king and rook end up when castling with the rook on `rook`.
    pub fn castling_destinations(&self, king: usize, rook: usize) -> (usize, usize) {
        let files = self.t.files as usize;
        let rank_start = king - king % files;
        if rook > king {
            (rank_start + files - 2, rank_start + files - 3)
        } else {
            (rank_start + 2, rank_start + 3)
        }
    }

    fn castling_moves(&self, pos: &Position<B>, list: &mut MoveList) {
        let us = pos.side as usize;
        let rights = pos.castling & pos.by_side[us] & self.t.first_rank[us];
        if rights.is_empty() {
            return;
        }
        let Some(royal) = self.def.royal_type() else {
            return;
        };
        let kings = pos.by_type[royal] & pos.by_side[us] & self.t.first_rank[us];
        if kings.is_empty() || kings.more_than_one() {
            return;
        }
        let king = kings.lowest();
        let occupied = pos.occupied();
        if self.attacked_for_king(pos, king, 1 - us, occupied) {
            return;
        }
        for rook in rights.squares() {
            let (king_to, rook_to) = self.castling_destinations(king, rook);
            let lo = king.min(rook).min(king_to).min(rook_to);
            let hi = king.max(rook).max(king_to).max(rook_to);
            let mut blocked = false;
            for sq in lo..=hi {
                if sq != king && sq != rook && occupied.has(sq) {
                    blocked = true;
                    break;
                }
            }
            if blocked {
                continue;
            }
            let (a, b) = (king.min(king_to), king.max(king_to));
            let without_king = occupied & !B::bit(king) & !B::bit(rook);
            if (a..=b).any(|sq| sq != king && self.attacked_for_king(pos, sq, 1 - us, without_king))
            {
                continue;
            }
            list.push(Move {
                from: king as u8,
                to: rook as u8,
                piece: royal as u8,
                promotion: 0,
                kind: MoveKind::Castle,
            });
        }
    }

    /// The pawn type pieces demote to when captured in drop variants.
    fn pawn_type(&self) -> Option<usize> {
        self.def.pieces.iter().position(|p| p.pawn)
    }

    fn capture_to_pocket(&self, pos: &mut Position<B>, captor: usize, square: usize, ty: usize) {
        if self.def.drops {
            let ty = if pos.promoted.has(square) {
                self.pawn_type().unwrap_or(ty)
            } else {
                ty
            };
            let count = &mut pos.pockets[captor][ty];
            *count = count.saturating_add(1);
        }
    }

    /// Plays `mv` (which must be pseudo-legal) on `pos`.
    pub fn make(&self, pos: &mut Position<B>, mv: Move) {
        let us = pos.side as usize;
        let them = 1 - us;
        let from = mv.from as usize;
        let to = mv.to as usize;
        let ty = mv.piece as usize;
        let ep_victim = pos.ep_victim;
        pos.ep = None;
        pos.ep_victim = None;
        pos.halfmove = pos.halfmove.saturating_add(1);
        let pawn = self.def.pieces.get(ty).is_some_and(|p| p.pawn);
        let mut exploded_at = None;
        match mv.kind {
            MoveKind::Drop => {
                pos.put(to, us, ty);
                pos.pockets[us][ty] = pos.pockets[us][ty].saturating_sub(1);
                if pawn {
                    pos.halfmove = 0;
                }
            }
            MoveKind::Castle => {
                let (king_to, rook_to) = self.castling_destinations(from, to);
                let rook_ty = self.type_at(pos, to).unwrap_or(ty);
                pos.remove(from);
                pos.remove(to);
                pos.put(king_to, us, ty);
                pos.put(rook_to, us, rook_ty);
            }
            MoveKind::EnPassant => {
                let was_promoted = pos.promoted.has(from);
                pos.remove(from);
                pos.put(to, us, ty);
                if was_promoted {
                    pos.promoted.set(to);
                }
                if let Some(victim) = ep_victim {
                    let victim = victim as usize;
                    if let Some(vty) = self.type_at(pos, victim) {
                        self.capture_to_pocket(pos, us, victim, vty);
                    }
                    pos.remove(victim);
                }
                pos.halfmove = 0;
                exploded_at = Some(to);
            }
            MoveKind::Quiet | MoveKind::DoubleStep | MoveKind::Capture => {
                if mv.kind == MoveKind::Capture {
                    if let Some(vty) = self.type_at(pos, to) {
                        self.capture_to_pocket(pos, us, to, vty);
                    }
                    pos.remove(to);
                    pos.halfmove = 0;
                    exploded_at = Some(to);
                }
                let was_promoted = pos.promoted.has(from);
                pos.remove(from);
                match mv.promotion() {
                    Some(p) => {
                        pos.put(to, us, p);
                        pos.promoted.set(to);
                    }
                    None => {
                        pos.put(to, us, ty);
                        if was_promoted {
                            pos.promoted.set(to);
                        }
                    }
                }
                if pawn {
                    pos.halfmove = 0;
                }
                if mv.kind == MoveKind::DoubleStep
                    && self.def.pieces[ty]
                        .en_passant_ranks
                        .contains(&relative_rank(self.def, us, from))
                {
                    let passed = (from + to) / 2;
                    // Only record en passant when an enemy piece could take it.
                    let mut possible = false;
                    for (ety, per_side) in self.t.pieces.iter().enumerate() {
                        let ep_from = &per_side[them].ep_capture;
                        let enemies = pos.by_type[ety] & pos.by_side[them];
                        if enemies.squares().any(|sq| ep_from[sq].has(passed)) {
                            possible = true;
                            break;
                        }
                    }
                    if possible {
                        pos.ep = Some(passed as u8);
                        pos.ep_victim = Some(to as u8);
                    }
                }
            }
        }
        if let Some(center) = exploded_at {
            if self.def.atomic {
                pos.remove(center);
                let mut immune = B::EMPTY;
                for &ty in &self.def.explosion_immune {
                    immune |= pos.by_type[ty];
                }
                for sq in (self.t.adjacent[center] & pos.occupied() & !immune).squares() {
                    pos.remove(sq);
                }
            }
        }
        // Castling rights: the rook must still stand there and its king must not have moved.
        if pos.castling.any() {
            let mut castlers = B::EMPTY;
            let mut types = self.t.castling_types;
            while types != 0 {
                let i = types.trailing_zeros() as usize;
                types &= types - 1;
                castlers |= pos.by_type[i];
            }
            pos.castling &= castlers & !B::bit(from) & !B::bit(to);
            if let Some(royal) = self.def.royal_type() {
                if ty == royal && mv.kind != MoveKind::Drop {
                    pos.castling &= !self.t.first_rank[us];
                }
                for side in 0..SIDES {
                    if (pos.by_type[royal] & pos.by_side[side] & self.t.first_rank[side]).is_empty()
                    {
                        pos.castling &= !self.t.first_rank[side];
                    }
                }
            }
        }
        if self.def.check_limit > 0 && self.in_check(pos, them) {
            pos.checks[us] = pos.checks[us].saturating_add(1);
        }
        pos.side = them as u8;
        if us == 1 {
            pos.fullmove = pos.fullmove.saturating_add(1);
        }
    }

    /// Whether the position after `mv` (already made into `after`) is legal for the mover.
    fn legal_after(&self, after: &Position<B>, us: usize) -> bool {
        let them = 1 - us;
        if self.def.atomic {
            let ours = self.royals(after, us);
            if ours.is_empty() {
                return false;
            }
            if self.royals(after, them).is_empty() {
                return true;
            }
            return !self.in_check(after, us);
        }
        if self.royals(after, us).any() && self.in_check(after, us) {
            return false;
        }
        if self.def.checks_forbidden && self.in_check(after, them) {
            return false;
        }
        true
    }

    /// The pieces of `side` attacking `square` (leapers and plain riders only:
    /// used where [`Tables::simple_attacks`] holds).
    fn attackers(&self, pos: &Position<B>, square: usize, side: usize, occupied: B) -> B {
        let t = self.t;
        let theirs = pos.by_side[side] & occupied;
        let mut found = B::EMPTY;
        for ty in 0..self.types() {
            let pieces = pos.by_type[ty] & theirs;
            if pieces.any() {
                found |= t.pieces[ty][side].attacked_from[square] & pieces;
            }
        }
        for &(ray, mask, _) in &t.rider_attacks[side] {
            let attackers = pieces_of_types(pos, mask) & theirs;
            if (t.rays[ray][square] & attackers).any() {
                found |= t.slide(ray, square, occupied) & attackers;
            }
        }
        found
    }

    /// Checkers and pins of the side to move, for the plain leaper/rider fast path.
    /// `None` when the side to move does not have exactly one royal piece or
    /// has more pins than are tracked.
    fn pins(&self, pos: &Position<B>) -> Option<Pins<B>> {
        let t = self.t;
        let us = pos.side as usize;
        let them = 1 - us;
        let royals = self.royals(pos, us);
        if royals.is_empty() || royals.more_than_one() {
            return None;
        }
        let king = royals.lowest();
        let occupied = pos.occupied();
        let ours = pos.by_side[us];
        let checkers = self.attackers(pos, king, them, occupied);
        // Squares that resolve a single check: the checker and, for a rider, the squares between.
        let mut evasion = t.board;
        if checkers.any() {
            evasion = checkers;
            if !checkers.more_than_one() {
                let checker = checkers.lowest();
                for &(ray, _, _) in &t.rider_attacks[them] {
                    if t.rays[ray][king].has(checker) {
                        evasion |= t.rays[ray][king] & !t.rays[ray][checker];
                        break;
                    }
                }
            }
        }
        // Pins: our piece first on a ray from the king, an enemy rider of that line behind it.
        let mut pins = Pins {
            king,
            double_check: checkers.more_than_one(),
            evasion,
            pinned: B::EMPTY,
            lines: [(usize::MAX, B::EMPTY); 16],
            count: 0,
        };
        for &(ray, mask, _) in &t.rider_attacks[them] {
            let Some(first) = t.first_blocker(ray, king, occupied) else {
                continue;
            };
            if !ours.has(first) {
                continue;
            }
            let Some(second) = t.first_blocker(ray, first, occupied) else {
                continue;
            };
            if !t.rays[ray][king].has(second) || !pos.by_side[them].has(second) {
                continue;
            }
            let pinner = self.type_at(pos, second).unwrap_or(usize::MAX);
            if pinner >= 32 || mask & (1 << pinner) == 0 {
                continue;
            }
            if pins.count == pins.lines.len() {
                return None;
            }
            pins.pinned.set(first);
            pins.lines[pins.count] = (first, t.rays[ray][king] & !t.rays[ray][second]);
            pins.count += 1;
        }
        Some(pins)
    }

    /// Keeps the legal moves of `list` using checkers and pins instead of
    /// playing each move: the fast path for variants whose pieces are plain
    /// leapers and riders and whose side to move has one royal piece.
    fn retain_legal_with_pins(&self, pos: &Position<B>, list: &mut MoveList) {
        let Some(pins) = self.pins(pos) else {
            list.retain(|&mv| self.is_legal(pos, mv));
            return;
        };
        let them = 1 - pos.side as usize;
        let royal = self.def.royal_type().unwrap_or(usize::MAX);
        let without_king = pos.occupied() & !B::bit(pins.king);
        list.retain(|&mv| {
            let (from, to) = (mv.from as usize, mv.to as usize);
            match mv.kind {
                MoveKind::Castle | MoveKind::EnPassant => self.is_legal(pos, mv),
                MoveKind::Drop => !pins.double_check && pins.evasion.has(to),
                _ if mv.piece as usize == royal => !self.attacked(pos, to, them, without_king),
                _ => !pins.double_check && pins.evasion.has(to) && pins.allows(from, to),
            }
        });
    }

    /// Counts the legal moves without listing them (perft's last ply), where
    /// the plain leaper/rider fast path applies; `None` elsewhere.
    pub fn count_legal(&self, pos: &Position<B>) -> Option<u64> {
        let def = self.def;
        if def.atomic || def.checks_forbidden || def.must_capture || !self.t.simple_attacks {
            return None;
        }
        let pins = self.pins(pos)?;
        if self.variant_outcome(pos).is_some() {
            return Some(0);
        }
        let us = pos.side as usize;
        let them = 1 - us;
        let royal = def.royal_type().unwrap_or(usize::MAX);
        let without_king = pos.occupied() & !B::bit(pins.king);
        let mut count = 0u64;
        self.visit_targets(pos, |ty, from, targets, kind| {
            if ty == royal {
                count += targets
                    .squares()
                    .filter(|&to| !self.attacked(pos, to, them, without_king))
                    .count() as u64;
                return;
            }
            if kind == MoveKind::EnPassant {
                let mv = Move {
                    from: from as u8,
                    to: targets.lowest() as u8,
                    piece: ty as u8,
                    promotion: 0,
                    kind,
                };
                count += self.is_legal(pos, mv) as u64;
                return;
            }
            if pins.double_check {
                return;
            }
            let mut legal = targets & pins.evasion;
            if pins.pinned.has(from) {
                legal &= pins.line(from);
            }
            let zone = self.t.pieces[ty][us].promotion_zone;
            count += (legal & !zone).count() as u64;
            count += (legal & zone).count() as u64 * def.pieces[ty].promotes_to.len() as u64;
        });
        if def.castling {
            let mut castles = MoveList::new();
            self.castling_moves(pos, &mut castles);
            count += castles.iter().filter(|&&mv| self.is_legal(pos, mv)).count() as u64;
        }
        if def.drops && !pins.double_check {
            let empty = self.t.board & !pos.occupied() & pins.evasion;
            for ty in 0..self.types() {
                if pos.pockets[us][ty] > 0 {
                    count += (empty & self.t.pieces[ty][us].drop_zone).count() as u64;
                }
            }
        }
        Some(count)
    }

    /// Drops the moves that would check the enemy royal piece (racing kings),
    /// from check squares and discovered-check lines instead of playing each move.
    fn retain_not_giving_check(&self, pos: &Position<B>, list: &mut MoveList) {
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

    /// Whether the pseudo-legal `mv` is legal.
    pub fn is_legal(&self, pos: &Position<B>, mv: Move) -> bool {
        let mut after = *pos;
        self.make(&mut after, mv);
        self.legal_after(&after, pos.side as usize)
    }

    /// All legal moves; none when the game is over by a rule of the variant.
    pub fn legal_moves(&self, pos: &Position<B>, list: &mut MoveList) {
        list.clear();
        if self.variant_outcome(pos).is_some() {
            return;
        }
        self.pseudo_moves(pos, list);
        let us = pos.side as usize;
        if self.def.atomic || !self.t.simple_attacks {
            list.retain(|&mv| self.is_legal(pos, mv));
        } else {
            if self.royals(pos, us).any() {
                self.retain_legal_with_pins(pos, list);
            }
            if self.def.checks_forbidden {
                self.retain_not_giving_check(pos, list);
            }
        }
        // Without a royal piece (antichess, the horde) every pseudo-legal move is legal.
        if self.def.must_capture && list.iter().any(|m| m.is_capture()) {
            list.retain(|m| m.is_capture());
        }
    }

    /// The end of the game by a rule checked before moves: exploded king,
    /// three checks, the hill, the race, no pieces left.
    pub fn variant_outcome(&self, pos: &Position<B>) -> Option<Outcome> {
        let def = self.def;
        if def.atomic {
            for side in 0..SIDES {
                if self.royals(pos, side).is_empty() {
                    return Some(self.win(Side(side as u8).opponent(), Reason::ExplodedKing));
                }
            }
        }
        if def.check_limit > 0 {
            for side in 0..SIDES {
                if pos.checks[side] >= def.check_limit {
                    return Some(self.win(Side(side as u8), Reason::ThreeChecks));
                }
            }
        }
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
        if let Some(verdict) = def.extinction {
            for side in 0..SIDES {
                if pos.by_side[side].is_empty() {
                    let side = Side(side as u8);
                    return Some(match verdict {
                        Verdict::Win => self.win(side, Reason::NoPieces),
                        Verdict::Loss => self.win(side.opponent(), Reason::NoPieces),
                        Verdict::Draw => Outcome::draw(Reason::NoPieces),
                    });
                }
            }
        }
        None
    }

    /// `side`'s team wins for `reason`.
    pub fn win(&self, side: Side, reason: Reason) -> Outcome {
        Outcome::win(self.def.team_of(side), reason)
    }

    /// Racing kings: whether black, to move, can put its king on the goal now.
    fn black_can_reach_flag(&self, pos: &Position<B>) -> bool {
        let Some(royal) = self.def.royal_type() else {
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

    /// The outcome of the position by the rules (not counting repetition,
    /// fifty moves or material, which the game layer adds).
    pub fn outcome(&self, pos: &Position<B>, legal: &[Move]) -> Option<Outcome> {
        if let Some(o) = self.variant_outcome(pos) {
            return Some(o);
        }
        if !legal.is_empty() {
            return None;
        }
        let us = pos.side as usize;
        let mover = pos.turn();
        if self.royals(pos, us).any() && self.in_check(pos, us) {
            return Some(self.win(mover.opponent(), Reason::Checkmate));
        }
        Some(match self.def.stalemate {
            Verdict::Draw => Outcome::draw(Reason::Stalemate),
            Verdict::Win => self.win(mover, Reason::NoMoves),
            Verdict::Loss => self.win(mover.opponent(), Reason::Stalemate),
        })
    }

    /// Counts leaf nodes `depth` plies deep (perft), with bulk counting at depth 1.
    pub fn perft(&self, pos: &Position<B>, depth: u32, buffers: &mut Vec<MoveList>) -> u64 {
        if depth == 0 {
            return 1;
        }
        if depth == 1 {
            if let Some(n) = self.count_legal(pos) {
                return n;
            }
        }
        let level = depth as usize;
        while buffers.len() <= level {
            buffers.push(MoveList::with_capacity(64));
        }
        let mut list = std::mem::take(&mut buffers[level]);
        self.legal_moves(pos, &mut list);
        let nodes = if depth == 1 {
            list.len() as u64
        } else {
            let mut total = 0;
            for &mv in &list {
                let mut next = *pos;
                self.make(&mut next, mv);
                total += self.perft(&next, depth - 1, buffers);
            }
            total
        };
        buffers[level] = list;
        nodes
    }

    /// The relative rank of `square` for `side` (1 = own first rank).
    pub fn relative_rank(&self, side: usize, square: usize) -> u8 {
        relative_rank(self.def, side, square)
    }

    /// A hash of the position for repetition detection.
    pub fn hash(&self, pos: &Position<B>) -> u64 {
        let z = &self.t.zobrist;
        let mut h = 0u64;
        for side in 0..SIDES {
            for ty in 0..self.types() {
                for sq in (pos.by_type[ty] & pos.by_side[side]).squares() {
                    h ^= z.piece[side * MAX_TYPES + ty][sq];
                }
                h ^= z.pocket[side * MAX_TYPES + ty].wrapping_mul(pos.pockets[side][ty] as u64);
            }
            h ^= z.checks[side].wrapping_mul(pos.checks[side] as u64);
        }
        for sq in pos.promoted.squares() {
            h ^= z.promoted[sq];
        }
        for sq in pos.castling.squares() {
            h ^= z.castling[sq];
        }
        if let Some(ep) = pos.ep {
            h ^= z.ep[ep as usize];
        }
        if pos.side == 1 {
            h ^= z.black;
        }
        h
    }
}
