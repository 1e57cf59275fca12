//! The evaluation: what a position is worth to the side to move, in
//! centipawns, built from the variant's own definition.
//!
//! Piece values come from mobility: the average number of squares a piece
//! reaches on the variant's empty board, mapped onto a curve that gives the
//! classical values to the classical pieces (knight 300, bishop 320, rook
//! 500, queen 900), so a piece an operator defines gets a sensible value too.
//! Pawns (pieces marked `pawn`) are the unit, 100. Terms for the variants'
//! own rules read the rule flags (drops, atomic, check limit, flag squares,
//! extinction), never the variant's id.

use super::board::Board;
use crate::bitboard::Bits;
use crate::rules::{Position, Rules};
use crate::tables::SIDES;
use crate::variant::{FlagRule, Verdict};

/// A pawn's value, the unit of every score.
pub const PAWN: i32 = 100;

/// Bonus for a pawn by how many ranks it still has to go (index) before it promotes.
const PAWN_TO_GO: [i16; 6] = [0, 90, 45, 20, 8, 3];

/// King of the hill: bonus for a king with a free path of this many steps
/// to the hill (see `Evaluator::hill_path`); one step is a threat to win
/// that the opponent must answer at once. Longer paths measured so (with
/// 45 and 20 for two and three steps) played worse: the king walked out early.
const HILL_PATH: [i32; 2] = [0, 80];

/// The per-variant tables of the evaluation, computed once per variant.
#[derive(Clone, Debug)]
pub struct Evaluator {
    /// Material value of each piece type (0 for the royal piece).
    values: Vec<i32>,
    /// Average empty-board mobility of each type, for tests and tuning.
    mobility: Vec<f32>,
    /// Positional bonus `[type][side][square]`, material excluded.
    placement: Vec<[Vec<i16>; SIDES]>,
    /// The royal piece's bonus by square when material is still on the board.
    king_opening: [Vec<i16>; SIDES],
    /// The royal piece's bonus by square in the endgame (centralisation).
    king_endgame: [Vec<i16>; SIDES],
    /// King steps from each square to the nearest flag square (hill, goal).
    flag_distance: Vec<u8>,
    /// Bonus per step nearer the flag squares.
    flag_weight: i32,
    /// The squares a king step away from each square.
    neighbours: Vec<Vec<u16>>,
    /// Losing a piece is good (antichess, giveaway): material counts negatively.
    losing: bool,
    royal: Option<usize>,
    /// Non-pawn material of both sides at the start, for the game phase.
    phase_total: i32,
    check_limit: u8,
    drops: bool,
    atomic: bool,
    /// The first royal piece on a flag square wins (king of the hill).
    hill: bool,
}

impl Evaluator {
    /// The evaluation tables for the variant of `rules`.
    pub fn new<B: Bits>(rules: Rules<'_, B>) -> Evaluator {
        let def = rules.def;
        let g = &def.geometry;
        let size = rules.t.size;
        let types = def.pieces.len();
        let exists: Vec<bool> = (0..size).map(|sq| rules.t.board.has(sq)).collect();
        let square_count = exists.iter().filter(|&&e| e).count().max(1);

        // Empty-board reach of each type from each square, for white.
        let mut mobility = Vec::with_capacity(types);
        let mut values = Vec::with_capacity(types);
        let mut moves = Vec::new();
        for ty in 0..types {
            let mut reach: Vec<B> = vec![B::EMPTY; size];
            for (from, reach) in reach.iter_mut().enumerate() {
                if !exists[from] {
                    continue;
                }
                let mut pos = Position::<B>::default();
                pos.put(from, 0, ty);
                moves.clear();
                rules.pseudo_moves(&pos, &mut moves);
                let mut targets = rules.t.pieces[ty][0].leap_capture[from];
                for mv in moves.iter().filter(|mv| mv.from as usize == from) {
                    targets.set(mv.to as usize);
                }
                *reach = targets & rules.t.board;
            }
            let total: u32 = reach.iter().map(|b| b.count()).sum();
            let average = total as f32 / square_count as f32;
            mobility.push(average);
            let piece = &def.pieces[ty];
            let value = if piece.royal {
                0
            } else if piece.pawn {
                PAWN
            } else {
                let mut v = value_of_mobility(average);
                if colour_bound(&reach, &exists) {
                    v = v * 9 / 10;
                }
                v
            };
            values.push(value);
        }

        let files = g.files as i32;
        let ranks = g.ranks as i32;
        // Distance from the centre in half-steps, so even boards have a centre of four squares.
        let centre = |sq: usize| -> i32 {
            let (f, r) = (g.file_of(sq), g.rank_of(sq));
            let df = (2 * f - (files - 1)).abs();
            let dr = (2 * r - (ranks - 1)).abs();
            df.max(dr) / 2
        };
        let max_centre = (files.max(ranks) - 1) / 2;
        let mut placement = Vec::with_capacity(types);
        for (piece, mobility) in def.pieces.iter().zip(&mobility) {
            let mut per_side: [Vec<i16>; SIDES] = [vec![0; size], vec![0; size]];
            for (side, table) in per_side.iter_mut().enumerate() {
                for sq in (0..size).filter(|&sq| exists[sq]) {
                    let closeness = max_centre - centre(sq);
                    table[sq] = if piece.pawn {
                        // Its own lines: files for a sideways pawn (four-handed chess).
                        let rank = crate::tables::relative_line(def, piece, side, sq) as i32;
                        let to_go = (def.promotion_rank as i32 - rank).max(0) as usize;
                        let advance = PAWN_TO_GO.get(to_go).copied().unwrap_or(0);
                        // A little centre for pawns: the central files are worth pushing.
                        advance + (closeness as i16) * 3
                    } else if piece.royal {
                        0
                    } else {
                        // Short-range pieces gain most from the centre.
                        let per_step = (36.0 / mobility.max(2.0)) as i32;
                        (closeness * per_step) as i16
                    };
                }
            }
            placement.push(per_side);
        }

        let mut king_opening: [Vec<i16>; SIDES] = [vec![0; size], vec![0; size]];
        let mut king_endgame: [Vec<i16>; SIDES] = [vec![0; size], vec![0; size]];
        for side in 0..SIDES {
            for sq in (0..size).filter(|&sq| exists[sq]) {
                let rank = rules.relative_rank(side, sq) as i32;
                king_opening[side][sq] = (if rank == 1 { 20 } else { -25 * (rank - 1) }) as i16;
                king_endgame[side][sq] = ((max_centre - centre(sq)) * 10) as i16;
            }
        }

        let mut flag_distance = vec![0u8; size];
        let flag_weight = if def.flag_squares.is_empty() {
            0
        } else {
            for (sq, distance) in flag_distance.iter_mut().enumerate() {
                *distance = def
                    .flag_squares
                    .iter()
                    .map(|&flag| {
                        let df = (g.file_of(sq) - g.file_of(flag)).abs();
                        let dr = (g.rank_of(sq) - g.rank_of(flag)).abs();
                        df.max(dr)
                    })
                    .min()
                    .unwrap_or(0) as u8;
            }
            match def.flag_rule {
                FlagRule::Win => 30,
                FlagRule::Race => 90,
            }
        };

        let neighbours = (0..size)
            .map(|sq| {
                let mut around = Vec::new();
                if exists[sq] {
                    for df in -1..=1 {
                        for dr in -1..=1 {
                            if (df, dr) == (0, 0) {
                                continue;
                            }
                            if let Some(n) = g.offset(sq, df, dr) {
                                if exists.get(n).copied().unwrap_or(false) {
                                    around.push(n as u16);
                                }
                            }
                        }
                    }
                }
                around
            })
            .collect();

        let start: Position<B> = crate::fen::parse(def, &def.start_fen).unwrap_or_default();
        let mut phase_total = 0;
        for (ty, value) in values.iter().enumerate() {
            if !def.pieces[ty].pawn {
                phase_total += start.by_type[ty].count() as i32 * value;
            }
        }

        Evaluator {
            values,
            mobility,
            placement,
            king_opening,
            king_endgame,
            flag_distance,
            flag_weight,
            neighbours,
            losing: def.extinction == Some(Verdict::Win),
            royal: def.royal_type(),
            phase_total: phase_total.max(1),
            check_limit: def.check_limit,
            drops: def.drops,
            atomic: def.atomic,
            hill: !def.flag_squares.is_empty() && def.flag_rule == FlagRule::Win,
        }
    }

    /// The material value of piece type `ty` (0 for the royal piece).
    pub fn value(&self, ty: usize) -> i32 {
        self.values.get(ty).copied().unwrap_or(0)
    }

    /// The average number of squares piece type `ty` reaches on the empty board.
    pub fn mobility(&self, ty: usize) -> f32 {
        self.mobility.get(ty).copied().unwrap_or(0.0)
    }

    /// Whether material counts against its owner (antichess).
    pub fn losing(&self) -> bool {
        self.losing
    }

    /// What the position is worth to the side to move, in centipawns.
    pub fn evaluate<B: Bits>(&self, board: &Board<'_, B>) -> i32 {
        let pos = board.position();
        let rules = board.rules();
        let us = pos.side as usize;
        let mut white = self.side_score(pos, 0) - self.side_score(pos, 1);
        if let Some(royal) = self.royal {
            if self.drops && !self.losing {
                white -=
                    self.drop_danger(rules, pos, royal, 0) - self.drop_danger(rules, pos, royal, 1);
            }
            if self.hill {
                white +=
                    self.hill_path(rules, pos, royal, 0) - self.hill_path(rules, pos, royal, 1);
            }
        }
        let score = if us == 0 { white } else { -white };
        score + 10
    }

    /// Everything `side` has, from its own point of view (not yet netted
    /// against the opponent).
    fn side_score<B: Bits>(&self, pos: &Position<B>, side: usize) -> i32 {
        let them = 1 - side;
        let ours = pos.by_side[side];
        let mut material = 0;
        let mut placement = 0;
        for (ty, value) in self.values.iter().enumerate() {
            let pieces = pos.by_type[ty] & ours;
            if pieces.is_empty() {
                continue;
            }
            material += value * pieces.count() as i32;
            let table = &self.placement[ty][side];
            for sq in pieces.squares() {
                placement += table[sq] as i32;
            }
        }
        let mut pocket = 0;
        let mut enemy_pocket = 0;
        if self.drops {
            for (ty, value) in self.values.iter().enumerate() {
                // In hand a piece may go anywhere: a little more than on the board.
                pocket += pos.pockets[side][ty] as i32 * (value + value / 8);
                enemy_pocket += pos.pockets[them][ty] as i32;
            }
        }
        if self.losing {
            // Fewer pieces is better; placement still breaks ties.
            return -(material + pocket) + placement / 4;
        }
        let mut score = material + pocket + placement;

        if let Some(royal) = self.royal {
            if let Some(king) = king_of(pos, royal, side) {
                let enemy_material = self.non_pawn_material(pos, them);
                let opening = enemy_material.min(self.phase_total / 2);
                let weight = opening * 256 / (self.phase_total / 2).max(1);
                let mg = self.king_opening[side][king] as i32;
                let eg = self.king_endgame[side][king] as i32;
                score += (mg * weight + eg * (256 - weight)) / 256;

                let shelter = self.neighbours[king]
                    .iter()
                    .filter(|&&n| ours.has(n as usize))
                    .count() as i32;
                let holes = self.neighbours[king].len() as i32 - shelter;
                if self.drops {
                    score -= holes * (6 + 5 * enemy_pocket.min(10));
                } else if self.atomic {
                    // Each of our pieces next to our king is a fuse: capture it and the king goes too.
                    score -= shelter * 12;
                } else {
                    score += shelter.min(3) * weight / 32;
                }
                if self.flag_weight > 0 {
                    let to_go = self.flag_distance[king] as i32;
                    score += (8 - to_go).max(0) * self.flag_weight;
                    if to_go == 1 {
                        score += self.flag_weight * 2;
                    }
                }
            }
        }
        if self.check_limit > 0 {
            let given = pos.checks[side] as i32;
            let remaining = self.check_limit as i32 - given;
            score += given * 80
                + match remaining {
                    1 => 400,
                    2 => 100,
                    _ => 0,
                };
        }
        score
    }

    /// How much danger `side`'s king is in where captured pieces come back
    /// as drops: enemy attacks on the squares around it, and the checks the
    /// opponent can drop safely, weighed by what the opponent holds. Grows
    /// faster than linearly, as attacks on a king add up to mate.
    fn drop_danger<B: Bits>(
        &self,
        rules: Rules<'_, B>,
        pos: &Position<B>,
        royal: usize,
        side: usize,
    ) -> i32 {
        let Some(king) = king_of(pos, royal, side) else {
            return 0;
        };
        let them = 1 - side;
        let occupied = pos.occupied();
        let t = rules.t;
        let mut units = 0;
        for &n in &self.neighbours[king] {
            let n = n as usize;
            if !pos.by_side[side].has(n) && rules.attacked(pos, n, them, occupied) {
                units += 200;
            }
        }
        let held: i32 = (0..self.values.len())
            .map(|ty| pos.pockets[them][ty] as i32)
            .sum();
        if held > 0 {
            let empty = !occupied & t.board;
            for ty in 0..self.values.len() {
                if pos.pockets[them][ty] == 0 || self.values[ty] == 0 {
                    continue;
                }
                let checks = drop_checks(rules, occupied, ty, them, king) & empty;
                if checks.is_empty() {
                    continue;
                }
                let safe = checks
                    .squares()
                    .any(|sq| !rules.attacked(pos, sq, side, occupied));
                let weight = 250 + self.values[ty].min(900) / 2;
                units += if safe { weight } else { weight / 4 };
            }
            units += 60 * held.min(12);
        }
        if units <= 100 {
            return 0;
        }
        units.min(3500) * units / 4096
    }

    /// Whether reaching a flag square wins at once (king of the hill).
    pub fn hill(&self) -> bool {
        self.hill
    }

    /// Whether the variant has drops.
    pub fn drops(&self) -> bool {
        self.drops
    }

    /// King of the hill: a king near the hill with a path to it, each step
    /// one nearer, over squares the opponent does not attack, is that many
    /// moves from winning unless stopped.
    fn hill_path<B: Bits>(
        &self,
        rules: Rules<'_, B>,
        pos: &Position<B>,
        royal: usize,
        side: usize,
    ) -> i32 {
        let Some(king) = king_of(pos, royal, side) else {
            return 0;
        };
        let distance = self.flag_distance[king] as usize;
        if distance == 0 || distance >= HILL_PATH.len() {
            return 0;
        }
        let occupied = pos.occupied();
        let mut reached = B::bit(king);
        for step in (0..distance).rev() {
            let mut next = B::EMPTY;
            for sq in reached.squares() {
                for &n in &self.neighbours[sq] {
                    let n = n as usize;
                    if self.flag_distance[n] as usize == step
                        && !pos.by_side[side].has(n)
                        && !next.has(n)
                        && !rules.attacked(pos, n, 1 - side, occupied)
                    {
                        next.set(n);
                    }
                }
            }
            if next.is_empty() {
                return 0;
            }
            reached = next;
        }
        HILL_PATH[distance]
    }

    fn non_pawn_material<B: Bits>(&self, pos: &Position<B>, side: usize) -> i32 {
        let mut total = 0;
        for (ty, value) in self.values.iter().enumerate() {
            if *value > PAWN {
                total += value * (pos.by_type[ty] & pos.by_side[side]).count() as i32;
            }
        }
        total
    }
}

/// The squares where `side` may drop a piece of type `ty` to attack `king`
/// (empty or not): its leaps, and its rook or bishop lines where the board
/// has magic lookups; other riders are not counted.
pub(crate) fn drop_checks<B: Bits>(
    rules: Rules<'_, B>,
    occupied: B,
    ty: usize,
    side: usize,
    king: usize,
) -> B {
    let t = rules.t;
    let pt = &t.pieces[ty][side];
    let mut from = B::EMPTY;
    if t.leap_attack_types[side] & (1 << ty) != 0 {
        from |= pt.attacked_from[king];
    }
    if let Some(m) = t.magic {
        let (orth, diag) = t.magic_attackers[side];
        if orth & (1 << ty) != 0 {
            from |= B::from_low_u64(m.rook(king, occupied.low_u64()));
        }
        if diag & (1 << ty) != 0 {
            from |= B::from_low_u64(m.bishop(king, occupied.low_u64()));
        }
    }
    from & pt.drop_zone
}

/// A piece's value from its average empty-board mobility: a curve through the
/// classical pieces' mobility on 8×8 (knight 5.25 → 300, rook 14 → 500,
/// queen 22.75 → 900), straight to zero below the knight.
fn value_of_mobility(mobility: f32) -> i32 {
    let m = mobility;
    let v = if m >= 5.0 {
        276.0 - 2.29 * m + 1.306 * m * m
    } else {
        59.4 * m
    };
    (v as i32).clamp(30, 3000)
}

/// Whether a piece walking from any square reaches fewer than three quarters
/// of the board (a bishop reaches half): such a piece is worth a little less.
fn colour_bound<B: Bits>(reach: &[B], exists: &[bool]) -> bool {
    let Some(start) = exists.iter().position(|&e| e) else {
        return false;
    };
    let mut seen = vec![false; reach.len()];
    let mut stack = vec![start];
    seen[start] = true;
    let mut count = 0usize;
    while let Some(sq) = stack.pop() {
        count += 1;
        for next in reach[sq].squares() {
            if next < seen.len() && !seen[next] {
                seen[next] = true;
                stack.push(next);
            }
        }
    }
    let total = exists.iter().filter(|&&e| e).count();
    count * 4 < total * 3
}

/// The square of `side`'s piece of the royal type `royal` (the lowest, if
/// there are several), if it has one.
pub(super) fn king_of<B: Bits>(pos: &Position<B>, royal: usize, side: usize) -> Option<usize> {
    let kings = pos.by_type[royal] & pos.by_side[side];
    (!kings.is_empty()).then(|| kings.lowest())
}
