//! Legality: which pseudo-legal moves are legal — by playing them, or on the
//! fast path from checkers and pins — and perft's bulk count.

use super::movegen::VisitTargets;
use super::{pieces_of_types, Position, Rules};
use crate::bitboard::Bits;
use crate::moves::{Move, MoveKind, MoveList};
use crate::tables::{shift, CountGroups, PieceTables};

/// Checkers and pins of the side to move (see [`Rules::count_legal`]). Kept
/// small, since it is built for every position counted: the line a pinned
/// piece may move along is worked out only when asked ([`Rules::pin_line`]).
struct Pins<B> {
    king: usize,
    double_check: bool,
    /// Where a non-royal move must land to resolve a check (everything when not in check).
    evasion: B,
    pinned: B,
}

impl<'a, B: Bits> Rules<'a, B> {
    /// Whether the position after `mv` (already made into `after`) is legal for the mover.
    fn legal_after(&self, after: &Position<B>, us: usize) -> bool {
        if self.def.atomic {
            return self.atomic_legal_after(after, us);
        }
        if self.royals(after, us).any() && self.in_check(after, us) {
            return false;
        }
        !self.gives_forbidden_check(after, us)
    }

    /// Checkers and pins of the side to move, for the plain leaper/rider fast path.
    /// `None` when the side to move does not have exactly one royal piece.
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
        let theirs = pos.by_side[them];
        let mut pins = Pins {
            king,
            double_check: false,
            evasion: t.board,
            pinned: B::EMPTY,
        };
        // Checkers by leaps, then one walk over the rider lines from the king
        // finds both checkers (an enemy rider of the line first) and pins (our
        // piece first, an enemy rider of the line behind it).
        let mut checkers = B::EMPTY;
        let mut leapers = t.leap_attack_types[them];
        while leapers != 0 {
            let ty = leapers.trailing_zeros() as usize;
            leapers &= leapers - 1;
            let pieces = pos.by_type[ty] & theirs;
            if pieces.any() {
                checkers |= t.pieces[ty][them].attacked_from[king] & pieces;
            }
        }
        if let Some(m) = t.magic {
            // Whole sets of four lines: an enemy rider on a line from the king
            // checks with nothing between, and pins one piece of ours between.
            let (orth, diag) = t.magic_attackers[them];
            let mut snipers = B::EMPTY;
            if orth != 0 {
                snipers |= B::from_low_u64(m.rook(king, 0)) & pieces_of_types(pos, orth);
            }
            if diag != 0 {
                snipers |= B::from_low_u64(m.bishop(king, 0)) & pieces_of_types(pos, diag);
            }
            for sniper in (snipers & theirs).squares() {
                let between = B::from_low_u64(m.between(king, sniper)) & occupied;
                if between.is_empty() {
                    checkers.set(sniper);
                } else if !between.more_than_one() && (between & ours).any() {
                    pins.pinned |= between;
                }
            }
        }
        for &(ray, mask, _) in &t.rider_attacks_rest[them] {
            // Only a line holding an enemy rider of that line can check or pin.
            let snipers = pieces_of_types(pos, mask) & theirs & t.rays[ray][king];
            if snipers.is_empty() {
                continue;
            }
            let Some(first) = t.first_blocker(ray, king, occupied) else {
                continue;
            };
            if snipers.has(first) {
                checkers.set(first);
                continue;
            }
            if !ours.has(first) {
                continue;
            }
            let Some(second) = t.first_blocker(ray, first, occupied) else {
                continue;
            };
            if !snipers.has(second) {
                continue;
            }
            pins.pinned.set(first);
        }
        // Squares that resolve a single check: the checker and, for a rider, the squares between.
        if checkers.any() {
            pins.double_check = checkers.more_than_one();
            pins.evasion = checkers;
            if !pins.double_check {
                let checker = checkers.lowest();
                for &(ray, _, _) in &t.rider_attacks[them] {
                    if t.rays[ray][king].has(checker) {
                        pins.evasion |= t.rays[ray][king] & !t.rays[ray][checker];
                        break;
                    }
                }
            }
        }
        Some(pins)
    }

    /// The line the pinned piece of the side to move on `square` may move
    /// along (the intersection, should it be pinned twice): as [`Rules::pins`]
    /// found the pin, between the king and the pinner, the pinner included.
    fn pin_line(&self, pos: &Position<B>, king: usize, square: usize) -> B {
        let t = self.t;
        let them = 1 - pos.side as usize;
        let occupied = pos.occupied();
        let mut line = !B::EMPTY;
        for &(ray, mask, _) in &t.rider_attacks[them] {
            let from_king = t.rays[ray][king];
            if !from_king.has(square) || t.first_blocker(ray, king, occupied) != Some(square) {
                continue;
            }
            let snipers = pieces_of_types(pos, mask) & pos.by_side[them] & from_king;
            if let Some(second) = t.first_blocker(ray, square, occupied) {
                if snipers.has(second) {
                    line &= from_king & !t.rays[ray][second];
                }
            }
        }
        line
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
        let royal = self.royal_type().unwrap_or(usize::MAX);
        let without_king = pos.occupied() & !B::bit(pins.king);
        list.retain(|&mv| {
            let (from, to) = (mv.from as usize, mv.to as usize);
            match mv.kind {
                MoveKind::Castle | MoveKind::EnPassant => self.is_legal(pos, mv),
                MoveKind::Drop => !pins.double_check && pins.evasion.has(to),
                _ if mv.piece as usize == royal => !self.attacked(pos, to, them, without_king),
                _ => {
                    !pins.double_check
                        && pins.evasion.has(to)
                        && (!pins.pinned.has(from) || self.pin_line(pos, pins.king, from).has(to))
                }
            }
        });
    }

    /// Atomic: keeps the legal moves of `list`. Captures explode and king
    /// moves may touch the enemy king, so those are played out; but when the
    /// king is not attacked and does not touch the enemy king, a quiet move of
    /// a piece that is not pinned leaves it unattacked, hence is legal.
    fn retain_legal_atomic(&self, pos: &Position<B>, list: &mut MoveList) {
        let us = pos.side as usize;
        let royals = self.royals(pos, us);
        let fast = royals.any()
            && !royals.more_than_one()
            && self.royals(pos, 1 - us).any()
            && !self.touches_king_atomic(pos, royals.lowest(), 1 - us);
        let pins = if fast { self.pins(pos) } else { None };
        let Some(pins) = pins.filter(|p| p.evasion == self.t.board) else {
            list.retain(|&mv| self.is_legal(pos, mv));
            return;
        };
        let royal = self.royal_type().unwrap_or(usize::MAX);
        list.retain(|&mv| {
            let quiet = matches!(mv.kind, MoveKind::Quiet | MoveKind::DoubleStep);
            (quiet && mv.piece as usize != royal && !pins.pinned.has(mv.from as usize))
                || self.is_legal(pos, mv)
        });
    }

    /// Counts the legal moves without listing them (perft's last ply), where
    /// the plain leaper/rider fast path applies; `None` elsewhere.
    pub fn count_legal(&self, pos: &Position<B>) -> Option<u64> {
        let def = self.def;
        if !self.t.bulk_count {
            return None;
        }
        let pins = self.pins(pos)?;
        if self.t.variant_outcomes && self.variant_outcome(pos).is_some() {
            return Some(0);
        }
        let us = pos.side as usize;
        let them = 1 - us;
        let royal = self.royal_type().unwrap_or(usize::MAX);
        let without_king = pos.occupied() & !B::bit(pins.king);
        let groups = self.t.count_groups[us];
        let mut counter = LegalCounter {
            rules: self,
            pos,
            pins: &pins,
            them,
            royal,
            without_king,
            grouped: groups.all(),
            count: self.count_groups(pos, &pins, &groups),
        };
        self.visit_targets(pos, &mut counter);
        let mut count = counter.count;
        if def.castling {
            self.visit_castling_moves(pos, |mv| count += self.is_legal(pos, mv) as u64);
        }
        if def.drops && !pins.double_check {
            count += self.count_drops(pos, pins.evasion);
        }
        Some(count)
    }

    /// The legal moves of the side to move's pieces of `groups`
    /// ([`crate::tables::CountGroups`]), counted group by group.
    #[inline(always)]
    fn count_groups(&self, pos: &Position<B>, pins: &Pins<B>, groups: &CountGroups) -> u64 {
        if pins.double_check || groups.all() == 0 {
            return 0;
        }
        let t = self.t;
        let us = pos.side as usize;
        let ours = pos.by_side[us];
        let occupied = pos.occupied();
        let reach = t.board & !ours & pins.evasion;
        let mut count = 0u64;
        let mut add = |from: usize, targets: B| {
            let mut legal = targets & reach;
            if pins.pinned.has(from) {
                legal &= self.pin_line(pos, pins.king, from);
            }
            count += count_set(legal);
        };
        let mut leapers = groups.leapers;
        while leapers != 0 {
            let ty = leapers.trailing_zeros() as usize;
            leapers &= leapers - 1;
            let pt = &t.pieces[ty][us];
            for from in (pos.by_type[ty] & ours).squares() {
                add(from, pt.leap_quiet[from]);
            }
        }
        if let Some(m) = t.magic {
            let occupied = occupied.low_u64();
            for from in (pieces_of_types(pos, groups.orthogonal) & ours).squares() {
                add(from, B::from_low_u64(m.rook(from, occupied)));
            }
            for from in (pieces_of_types(pos, groups.diagonal) & ours).squares() {
                add(from, B::from_low_u64(m.bishop(from, occupied)));
            }
        }
        count
    }

    /// Whether `side`'s royal pieces are of the first royal type (not a
    /// crowned piece of Frankfurt chess), which the fast path knows how to move.
    fn royal_is_first_type(&self, pos: &Position<B>, side: usize) -> bool {
        let royals = self.royals(pos, side);
        match self.royal_type() {
            Some(ty) => (royals & !pos.by_type[ty]).is_empty(),
            None => royals.is_empty(),
        }
    }

    /// Whether the pseudo-legal `mv` is legal.
    pub fn is_legal(&self, pos: &Position<B>, mv: Move) -> bool {
        self.is_legal_facing(pos, mv, self.royals_facing_rule(pos))
    }

    /// [`Rules::is_legal`], told whether the royals face each other under
    /// the bikjang rule in `pos` (the same for every move of a position).
    fn is_legal_facing(&self, pos: &Position<B>, mv: Move, facing: bool) -> bool {
        let mut after = *pos;
        self.make(&mut after, mv);
        if let Some(legal) = self.facing_legality(mv, &after, facing) {
            return legal;
        }
        self.legal_after(&after, pos.side as usize)
    }

    /// Keeps the legal moves of `list` by playing them out, where checkers
    /// and pins do not say enough (hoppers, lame leapers, facing royals) —
    /// but for the moves that provably cannot expose the royal: when the
    /// side to move has one royal, is not in check and its royal does not
    /// face the other, a move of another piece that neither leaves nor
    /// enters a square on an enemy attack path to the royal
    /// ([`crate::tables::Tables::attack_paths`]) changes nothing any enemy
    /// attack on it depends on.
    fn retain_legal_played(&self, pos: &Position<B>, list: &mut MoveList) {
        let facing = self.royals_facing_rule(pos);
        let us = pos.side as usize;
        let royals = self.royals(pos, us);
        let sensitive = match &self.t.attack_paths {
            Some(paths)
                if self.t.legality_gate
                    && !facing
                    && royals.any()
                    && !royals.more_than_one()
                    && !self.in_check(pos, us) =>
            {
                paths[1 - us][royals.lowest()]
            }
            _ => !B::EMPTY,
        };
        let royal_types = self.def.royal_mask();
        list.retain(|&mv| {
            let plain = matches!(
                mv.kind,
                MoveKind::Quiet | MoveKind::Capture | MoveKind::DoubleStep
            ) && royal_types & (1 << mv.piece) == 0;
            (plain && !sensitive.has(mv.from as usize) && !sensitive.has(mv.to as usize))
                || self.is_legal_facing(pos, mv, facing)
        });
    }

    /// All legal moves; none when the game is over by a rule of the variant.
    pub fn legal_moves(&self, pos: &Position<B>, list: &mut MoveList) {
        self.legal_moves_on_board(pos, list);
        if self.def.drops {
            self.remove_forbidden_drop_mates(pos, list);
            self.remove_mating_drops(pos, list);
        }
    }

    /// The legal moves by the position alone, before rules about what a move
    /// leads to (drops that may not mate: [`crate::mechanics`]).
    pub(crate) fn legal_moves_on_board(&self, pos: &Position<B>, list: &mut MoveList) {
        list.clear();
        if self.t.variant_outcomes && self.variant_outcome(pos).is_some() {
            return;
        }
        self.pseudo_moves(pos, list);
        let us = pos.side as usize;
        if self.def.king_capture {
            // The seat rules decide (see `keep_seat_moves`).
        } else if self.def.atomic && self.t.simple_attacks {
            self.retain_legal_atomic(pos, list);
        } else if self.def.atomic
            || !self.t.simple_attacks
            || self.def.palace.bikjang
            || self.t.slow_legality
            || (self.t.crowned_royals && !self.royal_is_first_type(pos, us))
        {
            self.retain_legal_played(pos, list);
        } else {
            if self.royals(pos, us).any() {
                self.retain_legal_with_pins(pos, list);
            }
            if self.def.checks_forbidden {
                self.retain_not_giving_check(pos, list);
            }
        }
        // Without a royal piece (antichess, the horde) every pseudo-legal move is legal.
        self.keep_compulsory_captures(list);
        if self.t.seats.is_some() {
            self.keep_seat_moves(pos, list);
        }
    }
}

/// Counts legal moves target set by target set for [`Rules::count_legal`]: a
/// visitor rather than a closure so that it is inlined into the generator.
struct LegalCounter<'r, 'a, B: Bits> {
    rules: &'r Rules<'a, B>,
    pos: &'r Position<B>,
    pins: &'r Pins<B>,
    them: usize,
    royal: usize,
    without_king: B,
    /// The types [`Rules::count_groups`] counted, which are not visited.
    grouped: u32,
    /// Moves counted one by one.
    count: u64,
}

/// The number of squares in `set`, without a popcount for the empty and
/// single-square sets, which are most of them (no popcount instruction
/// without a target CPU).
#[inline(always)]
fn count_set<B: Bits>(set: B) -> u64 {
    if set.more_than_one() {
        set.count() as u64
    } else {
        set.any() as u64
    }
}

impl<B: Bits> VisitTargets<B> for LegalCounter<'_, '_, B> {
    const MERGE_KINDS: bool = true;

    #[inline(always)]
    fn types(&self) -> u32 {
        !self.grouped
    }

    /// Pieces whose moves are a few translations (pawns) are counted all at
    /// once, but for pinned ones, and in en-passant positions those that take
    /// en passant.
    #[inline(always)]
    fn pieces(&mut self, ty: usize, pt: &PieceTables<B>, ours: B) -> B {
        let Some(sh) = &pt.shifts else {
            return ours;
        };
        if ty == self.royal || (sh.en_passant && self.pos.ep.is_some()) {
            return ours;
        }
        if self.pins.double_check {
            return B::EMPTY;
        }
        let movers = (ours & !self.pins.pinned).low_u64();
        if movers == 0 {
            return ours;
        }
        let pos = self.pos;
        let occupied = pos.occupied().low_u64();
        let empty = self.rules.t.board.low_u64() & !occupied;
        let enemy = pos.by_side[self.them].low_u64();
        let evasion = self.pins.evasion.low_u64();
        let zone = pt.promotion_zone.low_u64();
        let choices = pt.promotion_choices as u64;
        let mut count = 0u64;
        let mut add = |targets: u64| {
            let targets = targets & evasion;
            if targets != 0 {
                let promoting = targets & zone;
                count += (targets & !zone).count_ones() as u64;
                if promoting != 0 {
                    count += promoting.count_ones() as u64 * choices;
                }
            }
        };
        for &(offset, from) in &sh.quiet {
            add(shift(movers & from, offset) & empty);
        }
        for &(offset, from) in &sh.capture {
            add(shift(movers & from, offset) & enemy);
        }
        for leap in &sh.special {
            let mut from = movers & leap.from;
            for &p in &leap.path {
                from &= shift(empty, -p);
            }
            let mut to = 0u64;
            if leap.quiet {
                to |= empty;
            }
            if leap.capture {
                to |= enemy;
            }
            add(shift(from, leap.offset) & to);
        }
        self.count += count;
        ours & self.pins.pinned
    }

    #[inline(always)]
    fn visit(&mut self, ty: usize, pt: &PieceTables<B>, from: usize, targets: B, kind: MoveKind) {
        let (rules, pos, pins) = (self.rules, self.pos, self.pins);
        if ty == self.royal {
            self.count += targets
                .squares()
                .filter(|&to| !rules.attacked(pos, to, self.them, self.without_king))
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
            self.count += rules.is_legal(pos, mv) as u64;
            return;
        }
        if pins.double_check {
            return;
        }
        let mut legal = targets & pins.evasion;
        if pins.pinned.has(from) {
            legal &= rules.pin_line(pos, pins.king, from);
        }
        let zone = pt.promotion_zone;
        let promoting = legal & zone;
        if promoting.any() {
            legal &= !zone;
            self.count += promoting.count() as u64 * pt.promotion_choices as u64;
        }
        self.count += count_set(legal);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::U256;
    use crate::tables::Tables;
    use crate::variant::Registry;
    use crate::variant::VariantDef;

    /// Plays pseudo-random games and compares, in every position, the legal
    /// moves (with the attack-path gate of [`Rules::retain_legal_played`])
    /// with every pseudo-legal move played out by [`Rules::is_legal`].
    fn gate_agrees_with_playing_out<B: Bits>(def: &VariantDef) -> usize {
        let tables = Tables::<B>::build(def);
        let rules = Rules { def, t: &tables };
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut positions = 0;
        let (mut legal, mut reference) = (MoveList::new(), MoveList::new());
        for _ in 0..12 {
            let mut pos = crate::fen::parse::<B>(def, &def.start_fen).expect("start position");
            for _ in 0..120 {
                rules.legal_moves_on_board(&pos, &mut legal);
                reference.clear();
                rules.pseudo_moves(&pos, &mut reference);
                if rules.variant_outcome(&pos).is_some() {
                    reference.clear();
                }
                reference.retain(|&mv| rules.is_legal(&pos, mv));
                rules.keep_compulsory_captures(&mut reference);
                assert_eq!(legal, reference, "{} at {:?}", def.id, pos);
                positions += 1;
                if legal.is_empty() {
                    break;
                }
                seed = seed
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                let mv = legal[(seed >> 33) as usize % legal.len()];
                rules.make(&mut pos, mv);
            }
        }
        positions
    }

    #[test]
    fn the_attack_path_gate_keeps_exactly_the_legal_moves() {
        let registry = Registry::builtin();
        for id in [
            "janggi",
            "semedo",
            "citadel",
            "whaleshogi",
            "chaturanga",
            "shatranj",
        ] {
            let def = registry.get(id).expect("built in").definition();
            let size = def.geometry.size();
            let positions = if size <= 64 {
                gate_agrees_with_playing_out::<u64>(def)
            } else if size <= 128 {
                gate_agrees_with_playing_out::<u128>(def)
            } else {
                gate_agrees_with_playing_out::<U256>(def)
            };
            assert!(positions > 100, "{id}: {positions} positions");
        }
    }
}
