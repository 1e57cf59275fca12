//! A variant compiled into lookup tables for one bit-set width: leap targets
//! per piece, side and square; ray tables for riders; reverse tables for
//! attack detection. Built once per variant and shared by every game of it.

use crate::betza::{Atom, Hop};
use crate::bitboard::{Bits, U256};
use crate::magic::Magics;
pub use crate::side::SIDES;
pub use crate::variant::MAX_TYPES;
use crate::variant::{DropMate, Forward, PromotedCapture, PromotionChoice, VariantDef};
use std::sync::Arc;

/// A rider movement of one piece for one side.
#[derive(Clone, Debug)]
pub struct Rider {
    /// Index into [`Tables::rays`].
    pub ray: usize,
    /// Moves to empty squares.
    pub quiet: bool,
    /// Captures.
    pub capture: bool,
    /// Hopping behaviour.
    pub hop: Hop,
    /// Minimum distance in steps.
    pub min: u8,
    /// Only from the initial ranks.
    pub initial: bool,
}

/// A leap that can be blocked (lame leaper) or is special (initial, bent).
#[derive(Clone, Debug)]
pub struct SpecialLeap<B> {
    /// Destination.
    pub to: usize,
    /// Squares that must be empty.
    pub path: B,
    /// Moves to empty squares.
    pub quiet: bool,
    /// Captures.
    pub capture: bool,
    /// Only from the initial ranks.
    pub initial: bool,
}

/// Per piece type and side.
#[derive(Clone, Debug)]
pub struct PieceTables<B> {
    /// Unblockable leaps to empty squares, per square.
    pub leap_quiet: Vec<B>,
    /// Unblockable leaps that capture, per square.
    pub leap_capture: Vec<B>,
    /// Leaps that capture en passant, per square.
    pub ep_capture: Vec<B>,
    /// Reverse of `ep_capture`: squares from which this piece takes en passant onto a square.
    pub ep_capture_from: Vec<B>,
    /// Lame, initial-only and bent leaps, per square.
    pub special: Vec<Vec<SpecialLeap<B>>>,
    /// The squares whose `special` list is not empty.
    pub special_from: B,
    /// Riders.
    pub riders: Vec<Rider>,
    /// Bent riders (first leg atom, second leg atom), evaluated slowly.
    pub bent: Vec<(Atom, Atom)>,
    /// Squares from which `i` moves are allowed.
    pub initial_zone: B,
    /// Squares where the piece may be dropped.
    pub drop_zone: B,
    /// Squares where it promotes.
    pub promotion_zone: B,
    /// How many types it may promote to.
    pub promotion_choices: u32,
    /// Reverse of `leap_capture`: squares from which this piece captures a square.
    pub attacked_from: Vec<B>,
    /// Whether attack detection needs the slow path (hoppers, bent riders, lame or initial captures).
    pub exotic: bool,
    /// With `exotic`: per target square, the squares from which the slow
    /// path may find a capture on it (a prefilter; the whole board for bent riders).
    pub exotic_from: Vec<B>,
    /// Whether every rider both moves and captures, without hops, minimum
    /// ranges or initial-only moves: the generator then just unites slides.
    pub plain_riders: bool,
    /// With [`Tables::magic`] and plain riders: whether the riders include the
    /// four unlimited orthogonal lines (looked up by magic, not walked).
    pub magic_rook: bool,
    /// Likewise for the four unlimited diagonal lines.
    pub magic_bishop: bool,
    /// With plain riders: the rays walked by [`Tables::slide`] (those the
    /// magic lookups do not cover; every rider's ray without magic).
    pub slide_rays: Vec<usize>,
    /// The moves as a few translations of the whole set of pieces, for
    /// counting them all at once (pawns), on boards of up to 64 squares.
    pub shifts: Option<Shifts>,
    /// Piece types (mask) a hopper may not jump over (the Janggi cannon).
    pub not_screens: u32,
    /// Whether it has unblockable leaps at all ([`PieceTables::leap_quiet`]
    /// or [`PieceTables::leap_capture`] not empty somewhere).
    pub leaps: bool,
    /// Whether its unblockable leaps capture wherever they move (the two
    /// tables equal), so the generator reads one of them.
    pub leaps_capture_alike: bool,
    /// Whether it takes en passant from some square.
    pub takes_en_passant: bool,
    /// Piece types (mask) it may not capture.
    pub not_captured: u32,
}

/// A piece type's moves as translations by a square offset, each from a set
/// of squares: leaps with no riders, bent riders or overlapping targets
/// (pawns). Exact by construction: every leap of every square is one entry.
#[derive(Clone, Debug, Default)]
pub struct Shifts {
    /// Unblockable leaps to empty squares: (offset, squares they are made from).
    pub quiet: Vec<(i32, u64)>,
    /// Unblockable capturing leaps.
    pub capture: Vec<(i32, u64)>,
    /// Lame and initial-only leaps.
    pub special: Vec<ShiftedLeap>,
    /// Whether the piece takes en passant.
    pub en_passant: bool,
}

/// Lame or initial-only leaps of [`Shifts`] sharing an offset, a path and flags.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShiftedLeap {
    /// Offset from origin to destination.
    pub offset: i32,
    /// Offsets of the squares that must be empty.
    pub path: Vec<i32>,
    /// Moves to empty squares.
    pub quiet: bool,
    /// Captures.
    pub capture: bool,
    /// The squares it is made from.
    pub from: u64,
}

/// Translates `set` by `offset` squares (the caller keeps only origins whose
/// destination is `origin + offset`).
#[inline(always)]
pub fn shift(set: u64, offset: i32) -> u64 {
    if offset >= 0 {
        set << offset
    } else {
        set >> -offset
    }
}

/// The [`Shifts`] of a piece's tables when they apply: a board of up to 64
/// squares, leaps only, and at most `MAX_SHIFTS` translations.
fn shifts_of<B: Bits>(t: &PieceTables<B>, size: usize) -> Option<Shifts> {
    const MAX_SHIFTS: usize = 6;
    if size > 64 || !t.riders.is_empty() || !t.bent.is_empty() {
        return None;
    }
    let mut out = Shifts {
        en_passant: t.ep_capture.iter().any(|b| b.any()),
        ..Shifts::default()
    };
    let add = |list: &mut Vec<(i32, u64)>, from: usize, to: usize| {
        let offset = to as i32 - from as i32;
        match list.iter_mut().find(|e| e.0 == offset) {
            Some(e) => e.1 |= 1 << from,
            None => list.push((offset, 1 << from)),
        }
    };
    for from in 0..size {
        for to in t.leap_quiet[from].squares() {
            add(&mut out.quiet, from, to);
        }
        for to in t.leap_capture[from].squares() {
            add(&mut out.capture, from, to);
        }
        let leaps = t.leap_quiet[from] | t.leap_capture[from];
        let mut seen = B::EMPTY;
        for sp in &t.special[from] {
            // Targets must not overlap, or the listing (a set per piece) would count them once.
            if leaps.has(sp.to) || seen.has(sp.to) {
                return None;
            }
            seen.set(sp.to);
            if sp.initial && !t.initial_zone.has(from) {
                continue;
            }
            let mut path: Vec<i32> = sp.path.squares().map(|q| q as i32 - from as i32).collect();
            path.sort_unstable();
            let leap = ShiftedLeap {
                offset: sp.to as i32 - from as i32,
                path,
                quiet: sp.quiet,
                capture: sp.capture,
                from: 0,
            };
            match out.special.iter_mut().find(|e| {
                (e.offset, &e.path, e.quiet, e.capture)
                    == (leap.offset, &leap.path, leap.quiet, leap.capture)
            }) {
                Some(e) => e.from |= 1 << from,
                None => out.special.push(ShiftedLeap {
                    from: 1 << from,
                    ..leap
                }),
            }
        }
        if out.quiet.len() + out.capture.len() + out.special.len() > MAX_SHIFTS {
            return None;
        }
    }
    Some(out)
}

/// A variant compiled for bit sets of type `B`.
pub struct Tables<B> {
    /// Squares that exist.
    pub board: B,
    /// Number of square indices.
    pub size: usize,
    /// Files.
    pub files: i32,
    /// Piece tables, `[type][side]`.
    pub pieces: Vec<[PieceTables<B>; SIDES]>,
    /// Rays `[ray][square]`: the squares a rider passes, nearest first in index order.
    pub rays: Vec<Vec<B>>,
    /// Whether a ray's squares increase in index (the nearest blocker is the lowest bit).
    pub ray_increasing: Vec<bool>,
    /// The step vector of each ray.
    pub ray_step: Vec<(i32, i32)>,
    /// The first `k` squares of each ray, `[ray][k][square]`, for minimum ranges (k < 4).
    pub ray_near: Vec<Vec<Vec<B>>>,
    /// Reverse riders for attack detection, per attacking side: (ray from the target, piece types mask, min range).
    pub rider_attacks: [Vec<(usize, u32, u8)>; SIDES],
    /// Each side's first-rank squares (castling rank), relative rank 1.
    pub first_rank: [B; SIDES],
    /// Flag squares.
    pub flag: B,
    /// The piece types that castle (rooks), as a mask.
    pub castling_types: u32,
    /// Per attacking side, the piece types that attack by leaps or exotic moves
    /// (riders are found through `rider_attacks`).
    pub leap_attack_types: [u32; SIDES],
    /// Per side, the piece types that may capture en passant.
    pub en_passant_types: [u32; SIDES],
    /// Whether every piece attacks by plain leaps and riders (no hoppers, lame or
    /// bent moves, minimum ranges), so checks and pins can be computed from rays.
    pub simple_attacks: bool,
    /// Magic lookups for unlimited rook and bishop lines, on a full 8×8 board.
    pub magic: Option<&'static Magics>,
    /// Per attacking side, the piece types that capture along all four
    /// unlimited orthogonal lines and all four diagonal ones, found by magic
    /// lookups (only with [`Tables::magic`]).
    pub magic_attackers: [(u32, u32); SIDES],
    /// [`Tables::rider_attacks`] without what [`Tables::magic_attackers`] covers.
    pub rider_attacks_rest: [Vec<(usize, u32, u8)>; SIDES],
    /// The (up to eight) neighbours of each square, for explosions.
    pub adjacent: Vec<B>,
    /// The royal piece type ([`VariantDef::royal_type`], looked up once: it is
    /// asked for on every check test).
    pub royal_type: Option<usize>,
    /// Every royal type, where there are several (Frankfurt's royal twins);
    /// 0 where there is at most one.
    pub extra_royals: u32,
    /// Squares only royal pieces may enter (citadels).
    pub royal_only: B,
    /// Per side, the `royal_only` squares closed to that side's royal pieces
    /// too (those not in its `royal_entry`).
    pub royal_closed: [B; SIDES],
    /// Per side, the squares where its royal piece arriving draws.
    pub royal_draw: [B; SIDES],
    /// Legality and counting must play every move out (citadels, drop
    /// restrictions): the checks and pins fast path does not know these rules.
    pub slow_legality: bool,
    /// Several royal types and capturers that change type (Frankfurt): the
    /// checks and pins fast path holds while the side's royal piece is of
    /// the first royal type (the king moves as a king), and bulk counting
    /// never (a capture onto the last rank does not promote).
    pub crowned_royals: bool,
    /// Pieces owned by seats (four-handed chess), if the variant has them.
    pub seats: Option<SeatTables<B>>,
    /// Hash keys.
    pub zobrist: Zobrist,
    /// Per attacking side and target square: every square whose contents can
    /// decide whether that side attacks the target (the squares between a
    /// rider or hopper and the target, the paths of lame leaps onto it).
    /// `None` where attacks hang on more than that (bent riders), so that
    /// legality may not be judged from it.
    pub attack_paths: Option<[Vec<B>; SIDES]>,
    /// Whether a move changes the board only on its two squares and the
    /// royal is attacked only as [`Tables::attack_paths`] say (no explosions,
    /// no transforming captures, no forbidden checks): then a move off those
    /// paths is legal when the royal is not in check.
    pub legality_gate: bool,
    /// With the bikjang rule: per square, the four orthogonal lines from it
    /// (up to the board's edge or a hole), for finding royals that face each other.
    pub orthogonal_rays: Vec<[B; 4]>,
    /// The piece types that are pawns, as a mask.
    pub pawn_types: u32,
    /// Whether a rule of the variant may end the game by the position alone
    /// ([`crate::rules::Rules::variant_outcome`]); without one that is never asked.
    pub variant_outcomes: bool,
    /// Whether perft's last ply may count the legal moves from checkers and
    /// pins without listing them ([`crate::rules::Rules::count_legal`]).
    pub bulk_count: bool,
    /// Per side, the piece types perft's last ply counts in groups rather
    /// than through the generator ([`CountGroups`]).
    pub count_groups: [CountGroups; SIDES],
    /// Whether a move only moves, takes, promotes and castles: no mechanics
    /// of the variant act on it, so it is made without asking each of them.
    pub plain_make: bool,
}

/// Piece types (masks) whose moves are counted by kind at perft's last ply:
/// no royal, pawn, promotion, special leap or en passant among them, and
/// their captures go wherever their moves do. A queen is in both slider
/// groups: its orthogonal and diagonal moves never share a square.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct CountGroups {
    /// Plain leapers (the knight): [`PieceTables::leap_quiet`] only.
    pub leapers: u32,
    /// Riders of the four unlimited orthogonal lines, by magic lookup.
    pub orthogonal: u32,
    /// Riders of the four unlimited diagonal lines, by magic lookup.
    pub diagonal: u32,
}

impl CountGroups {
    /// Every type in a group.
    pub fn all(&self) -> u32 {
        self.leapers | self.orthogonal | self.diagonal
    }
}

/// What the rules of pieces owned by seats need ([`crate::mechanics`]'s `seats`).
#[derive(Clone, Debug)]
pub struct SeatTables<B> {
    /// Per seat of a side (first, second): the piece types it moves anywhere.
    pub own_types: [u32; 2],
    /// Per seat of a side: its royal types.
    pub royal_types: [u32; 2],
    /// Where a seat also moves its partner's pieces.
    pub command_zone: B,
    /// Per side, per seat of the side: its own region, where it moves every
    /// piece of its side (`command_regions`); `None`: command goes by
    /// ownership and the command zone.
    pub regions: Option<[[B; 2]; 2]>,
}

/// Random keys for position hashing (repetition detection).
pub struct Zobrist {
    /// `[side * MAX_TYPES + type][square]`.
    pub piece: Vec<Vec<u64>>,
    /// Side to move.
    pub black: u64,
    /// Castling rook squares.
    pub castling: Vec<u64>,
    /// En-passant square.
    pub ep: Vec<u64>,
    /// Pocket counts `[side][type]` multiplied by count.
    pub pocket: Vec<u64>,
    /// Checks given `[side]`.
    pub checks: [u64; SIDES],
    /// Promoted marks.
    pub promoted: Vec<u64>,
    /// Spent royal leaps, by [`crate::rules::Position::royal_leaps_used`] (0 for none spent).
    pub royal_leaps: [u64; 4],
    /// The pawn of pawns' stage, per side and stage (stage 0 hashes as 0).
    pub pawn_stages: [[u64; 5]; SIDES],
    /// The second seat of a side on turn (pieces owned by seats): the same
    /// board with the other partner to move is another position.
    pub second_seat: u64,
    /// Throne control and taken kings ([`crate::rules::ThroneMemory::keys`]).
    pub thrones: [u64; 20],
}

/// The compiled tables of a variant, whichever width its board needs.
#[derive(Clone)]
pub enum AnyTables {
    /// Boards of up to 64 squares.
    B64(Arc<Tables<u64>>),
    /// Boards of up to 128 squares.
    B128(Arc<Tables<u128>>),
    /// Boards of up to 256 squares.
    B256(Arc<Tables<U256>>),
}

/// Rotates a step vector from the first player's orientation to `side`'s.
#[inline]
pub fn orient(side: usize, (dx, dy): (i32, i32)) -> (i32, i32) {
    if side == 0 {
        (dx, dy)
    } else {
        (-dx, -dy)
    }
}

/// The relative "rank" (1-based) of `square` for `side`'s `piece`: its
/// relative rank, or for a [`crate::variant::PieceDef::sideways`] piece its
/// relative file (counted from the side's left edge).
pub fn relative_line(
    def: &VariantDef,
    piece: &crate::variant::PieceDef,
    side: usize,
    square: usize,
) -> u8 {
    if let Some(forward) = piece.forward {
        let g = &def.geometry;
        let (file, rank) = (g.file_of(square) as u8, g.rank_of(square) as u8);
        return match forward[side] {
            Forward::Up => rank + 1,
            Forward::Down => g.ranks - rank,
            Forward::Right => file + 1,
            Forward::Left => g.files - file,
        };
    }
    if !piece.sideways {
        return relative_rank(def, side, square);
    }
    let file = def.geometry.file_of(square) as u8;
    if side == 0 {
        file + 1
    } else {
        def.geometry.files - file
    }
}

/// The relative rank (1-based) of `square` for `side`.
#[inline]
pub fn relative_rank(def: &VariantDef, side: usize, square: usize) -> u8 {
    def.geometry.relative_rank(side, square)
}

struct SplitMix(u64);
impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

impl<B: Bits> Tables<B> {
    /// Compiles `def`. The board must fit in `B`.
    pub fn build(def: &VariantDef) -> Tables<B> {
        let g = &def.geometry;
        let size = g.size();
        let mut board = B::EMPTY;
        for sq in 0..size {
            if g.exists(sq) {
                board.set(sq);
            }
        }
        let squares_of = |squares: &[usize]| {
            squares.iter().fold(B::EMPTY, |mut b, &sq| {
                b.set(sq);
                b
            })
        };
        let mut rays = RayBuilder::<B> {
            tables: Vec::new(),
            keys: Vec::new(),
        };
        let palace = &def.palace;
        let side_zone = |side: usize, ranks: &dyn Fn(u8) -> bool| -> B {
            let mut zone = B::EMPTY;
            for sq in 0..size {
                if g.exists(sq) && ranks(relative_rank(def, side, sq)) {
                    zone.set(sq);
                }
            }
            zone
        };
        // The same by the piece's own lines (files for a sideways pawn).
        let piece_zone =
            |piece: &crate::variant::PieceDef, side: usize, lines: &dyn Fn(u8) -> bool| -> B {
                let mut zone = B::EMPTY;
                for sq in 0..size {
                    if g.exists(sq) && lines(relative_line(def, piece, side, sq)) {
                        zone.set(sq);
                    }
                }
                zone
            };

        let mut pieces = Vec::new();
        for piece in &def.pieces {
            let per_side: [PieceTables<B>; SIDES] = std::array::from_fn(|side| {
                let mut t = PieceTables {
                    leap_quiet: vec![B::EMPTY; size],
                    leap_capture: vec![B::EMPTY; size],
                    ep_capture: vec![B::EMPTY; size],
                    ep_capture_from: vec![B::EMPTY; size],
                    special: vec![Vec::new(); size],
                    special_from: B::EMPTY,
                    riders: Vec::new(),
                    bent: Vec::new(),
                    initial_zone: piece_zone(piece, side, &|r| piece.initial_ranks.contains(&r)),
                    drop_zone: side_zone(side, &|r| {
                        r >= piece.drop_ranks.0 && r <= piece.drop_ranks.1
                    }),
                    promotion_zone: if piece.promotes_to.is_empty() {
                        B::EMPTY
                    } else if let Some(squares) = &piece.promotion_squares {
                        squares_of(&squares[side])
                    } else {
                        piece_zone(piece, side, &|r| r >= def.promotion_rank)
                    },
                    promotion_choices: piece.promotes_to.len() as u32,
                    attacked_from: vec![B::EMPTY; size],
                    exotic: false,
                    exotic_from: Vec::new(),
                    plain_riders: false,
                    magic_rook: false,
                    magic_bishop: false,
                    slide_rays: Vec::new(),
                    shifts: None,
                    leaps: false,
                    leaps_capture_alike: false,
                    takes_en_passant: false,
                    not_screens: piece.palace.not_screens,
                    not_captured: piece.palace.not_captured,
                };
                let zone = piece.palace.confined.as_ref().map(|zones| {
                    let mut set = B::EMPTY;
                    for &sq in &zones[side] {
                        set.set(sq);
                    }
                    set
                });
                let atoms = piece.atoms.iter().map(|a| (a, false));
                let line_atoms = piece.palace.line_atoms.iter().map(|a| (a, true));
                for (atom, on_lines) in atoms.chain(line_atoms) {
                    let walk = Walk {
                        lines: on_lines,
                        zone,
                    };
                    if let Some(second) = &atom.then {
                        t.bent.push((atom.clone(), (**second).clone()));
                        if atom.captures {
                            t.exotic = true;
                        }
                        continue;
                    }
                    for &step in &atom.steps {
                        let step = match piece.forward {
                            Some(forward) => forward[side].turn(step),
                            None => orient(side, step),
                        };
                        if atom.is_rider() || atom.hop != Hop::None || atom.min_range > 1 {
                            let id = rays.id(def, step, atom.max_range, walk);
                            t.riders.push(Rider {
                                ray: id,
                                quiet: atom.moves,
                                capture: atom.captures,
                                hop: atom.hop,
                                min: atom.min_range,
                                initial: atom.initial,
                            });
                            if atom.captures && (atom.hop != Hop::None || atom.initial) {
                                t.exotic = true;
                            }
                            continue;
                        }
                        for from in 0..size {
                            if !g.exists(from) {
                                continue;
                            }
                            let Some(to) = g.offset(from, step.0, step.1) else {
                                continue;
                            };
                            if !walk.allows(palace, from, to) {
                                continue;
                            }
                            if atom.lame || atom.initial {
                                if atom.captures {
                                    t.exotic = true;
                                }
                                // An initial-only leap from elsewhere is never made: leave
                                // it out rather than skip it on every generation.
                                if atom.initial && !t.initial_zone.has(from) {
                                    continue;
                                }
                                let mut path = B::EMPTY;
                                if atom.lame {
                                    for sq in lame_path(g, from, step) {
                                        path.set(sq);
                                    }
                                }
                                t.special[from].push(SpecialLeap {
                                    to,
                                    path,
                                    quiet: atom.moves,
                                    capture: atom.captures,
                                    initial: atom.initial,
                                });
                                continue;
                            }
                            if atom.moves {
                                t.leap_quiet[from].set(to);
                            }
                            if atom.captures {
                                t.leap_capture[from].set(to);
                            }
                            if atom.en_passant {
                                t.ep_capture[from].set(to);
                            }
                        }
                    }
                }
                for from in 0..size {
                    for to in t.leap_capture[from].squares() {
                        t.attacked_from[to].set(from);
                    }
                    for to in t.ep_capture[from].squares() {
                        t.ep_capture_from[to].set(from);
                    }
                }
                for from in 0..size {
                    if !t.special[from].is_empty() {
                        t.special_from.set(from);
                    }
                }
                t.shifts = shifts_of(&t, size);
                t.leaps = t.leap_quiet.iter().chain(&t.leap_capture).any(|b| b.any());
                t.leaps_capture_alike = t.leap_quiet == t.leap_capture;
                t.takes_en_passant = t.ep_capture.iter().any(|b| b.any());
                t.plain_riders = t.riders.iter().all(|r| {
                    r.quiet && r.capture && r.hop == Hop::None && r.min <= 1 && !r.initial
                });
                t
            });
            pieces.push(per_side);
        }

        // Magic lookups replace walking whole sets of four unlimited lines on a full 8×8 board.
        let magic = (g.files == 8 && g.ranks == 8 && size == 64 && (0..64).all(|sq| g.exists(sq)))
            .then(Magics::get);
        let full_set = |riders: &mut dyn Iterator<Item = &Rider>, steps: &[(i32, i32); 4]| {
            let found: Vec<(i32, i32)> = riders
                .filter(|r| rays.keys[r.ray].max == 0 && rays.keys[r.ray].walk.is_plain())
                .map(|r| rays.keys[r.ray].step)
                .collect();
            magic.is_some() && steps.iter().all(|s| found.contains(s))
        };
        let mut magic_attackers = [(0u32, 0u32); SIDES];
        for (ty, per_side) in pieces.iter_mut().enumerate() {
            for (side, t) in per_side.iter_mut().enumerate() {
                if t.plain_riders {
                    t.magic_rook = full_set(&mut t.riders.iter(), &Magics::ROOK_STEPS);
                    t.magic_bishop = full_set(&mut t.riders.iter(), &Magics::BISHOP_STEPS);
                }
                let covered = |ray: usize| {
                    let RayKey { step, max, walk } = rays.keys[ray];
                    max == 0
                        && walk.is_plain()
                        && ((t.magic_rook && Magics::ROOK_STEPS.contains(&step))
                            || (t.magic_bishop && Magics::BISHOP_STEPS.contains(&step)))
                };
                t.slide_rays = t
                    .riders
                    .iter()
                    .map(|r| r.ray)
                    .filter(|&ray| !covered(ray))
                    .collect();
                let capturing = || {
                    t.riders
                        .iter()
                        .filter(|r| r.capture && r.hop == Hop::None && !r.initial && r.min <= 1)
                };
                if full_set(&mut capturing(), &Magics::ROOK_STEPS) {
                    magic_attackers[side].0 |= 1 << ty;
                }
                if full_set(&mut capturing(), &Magics::BISHOP_STEPS) {
                    magic_attackers[side].1 |= 1 << ty;
                }
            }
        }

        // Reverse riders: a piece of side s rides along `step` to capture, so from the
        // target we look along `-step`.
        let mut rider_attacks: [Vec<(usize, u32, u8)>; SIDES] = [Vec::new(), Vec::new()];
        for (ty, per_side) in pieces.iter().enumerate() {
            for (side, t) in per_side.iter().enumerate() {
                for r in &t.riders {
                    if !r.capture || r.hop != Hop::None || r.initial {
                        continue;
                    }
                    let RayKey { step, max, walk } = rays.keys[r.ray];
                    let reverse = rays.id(def, (-step.0, -step.1), max, walk);
                    match rider_attacks[side]
                        .iter_mut()
                        .find(|e| e.0 == reverse && e.2 == r.min)
                    {
                        Some(entry) => entry.1 |= 1 << ty,
                        None => rider_attacks[side].push((reverse, 1 << ty, r.min)),
                    }
                }
            }
        }
        // What the magic lookups cover is left out of the walked reverse riders.
        let rider_attacks_rest: [Vec<(usize, u32, u8)>; SIDES] = std::array::from_fn(|side| {
            let (orth, diag) = magic_attackers[side];
            rider_attacks[side]
                .iter()
                .map(|&(ray, mask, min)| {
                    let RayKey { step, max, walk } = rays.keys[ray];
                    let mut mask = mask;
                    if max == 0 && min <= 1 && walk.is_plain() {
                        if Magics::ROOK_STEPS.contains(&step) {
                            mask &= !orth;
                        }
                        if Magics::BISHOP_STEPS.contains(&step) {
                            mask &= !diag;
                        }
                    }
                    (ray, mask, min)
                })
                .filter(|&(_, mask, _)| mask != 0)
                .collect()
        });
        let RayBuilder {
            tables: rays,
            keys: ray_keys,
        } = rays;
        let attack_paths = attack_paths(&pieces, &rays, size);
        for t in pieces.iter_mut().flatten().filter(|t| t.exotic) {
            t.exotic_from = exotic_origins(t, &rays, board, size);
        }
        let ray_increasing = ray_keys
            .iter()
            .map(|k| k.step.1 > 0 || (k.step.1 == 0 && k.step.0 > 0))
            .collect();
        let ray_step = ray_keys.iter().map(|k| k.step).collect();
        let ray_near = rays
            .iter()
            .zip(&ray_keys)
            .map(|(table, RayKey { step, .. })| {
                (0..4)
                    .map(|k| {
                        (0..size)
                            .map(|sq| {
                                let mut near = B::EMPTY;
                                let mut cur = sq;
                                for _ in 0..k {
                                    match g.offset(cur, step.0, step.1) {
                                        Some(next) if g.exists(sq) => {
                                            near.set(next);
                                            cur = next;
                                        }
                                        _ => break,
                                    }
                                }
                                near & table[sq]
                            })
                            .collect()
                    })
                    .collect()
            })
            .collect();

        let leap_attack_types: [u32; SIDES] = std::array::from_fn(|side| {
            let mut mask = 0u32;
            for (ty, per_side) in pieces.iter().enumerate() {
                let p = &per_side[side];
                if p.exotic || p.attacked_from.iter().any(|b| b.any()) {
                    mask |= 1 << ty;
                }
            }
            mask
        });
        let en_passant_types: [u32; SIDES] = std::array::from_fn(|side| {
            let mut mask = 0u32;
            for (ty, per_side) in pieces.iter().enumerate() {
                if per_side[side].ep_capture.iter().any(|b| b.any()) {
                    mask |= 1 << ty;
                }
            }
            mask
        });
        let simple_attacks = pieces.iter().flatten().all(|p: &PieceTables<B>| {
            !p.exotic
                && p.bent.is_empty()
                && p.riders
                    .iter()
                    .all(|r| r.min <= 1 && r.hop == Hop::None && !r.initial)
        });
        let mut flag = B::EMPTY;
        for &sq in &def.flag_squares {
            flag.set(sq);
        }
        let mut rng = SplitMix(0x4B6F_6465_7800_0001);
        let zobrist = Zobrist {
            piece: (0..SIDES * MAX_TYPES)
                .map(|_| (0..size).map(|_| rng.next()).collect())
                .collect(),
            black: rng.next(),
            castling: (0..size).map(|_| rng.next()).collect(),
            ep: (0..size).map(|_| rng.next()).collect(),
            pocket: (0..SIDES * MAX_TYPES).map(|_| rng.next()).collect(),
            checks: [rng.next(), rng.next()],
            promoted: (0..size).map(|_| rng.next()).collect(),
            royal_leaps: [0, rng.next(), rng.next(), rng.next()],
            second_seat: rng.next(),
            pawn_stages: std::array::from_fn(|_| {
                [0, rng.next(), rng.next(), rng.next(), rng.next()]
            }),
            thrones: std::array::from_fn(|_| rng.next()),
        };
        let mut tables = Tables {
            board,
            size,
            files: g.files as i32,
            pieces,
            rays,
            ray_increasing,
            ray_step,
            ray_near,
            rider_attacks,
            first_rank: [side_zone(0, &|r| r == 1), side_zone(1, &|r| r == 1)],
            flag,
            leap_attack_types,
            en_passant_types,
            castling_types: def
                .pieces
                .iter()
                .enumerate()
                .filter(|(_, p)| p.castles)
                .fold(0, |mask, (ty, _)| mask | 1 << ty),
            simple_attacks,
            magic,
            magic_attackers,
            rider_attacks_rest,
            royal_type: def.royal_type(),
            extra_royals: if def.royal_mask().count_ones() > 1 {
                def.royal_mask()
            } else {
                0
            },
            crowned_royals: def.royal_mask().count_ones() > 1 || def.capture_transforms,
            slow_legality: !def.royal_only.is_empty()
                || def.pieces.iter().any(|p| p.seat.is_some())
                || def
                    .pieces
                    .iter()
                    .any(|p| !p.mating_drop || p.drop_file_limit.is_some()),
            royal_only: def.royal_only.iter().fold(B::EMPTY, |mut b, &sq| {
                b.set(sq);
                b
            }),
            royal_closed: std::array::from_fn(|side| {
                let entry = &def.royal_entry[side];
                def.royal_only
                    .iter()
                    .filter(|sq| !entry.is_empty() && !entry.contains(sq))
                    .fold(B::EMPTY, |mut b, &sq| {
                        b.set(sq);
                        b
                    })
            }),
            royal_draw: std::array::from_fn(|side| {
                def.royal_draw[side].iter().fold(B::EMPTY, |mut b, &sq| {
                    b.set(sq);
                    b
                })
            }),
            adjacent: (0..size)
                .map(|sq| {
                    let mut near = B::EMPTY;
                    if g.exists(sq) {
                        for (dx, dy) in crate::betza::symmetric_steps((1, 0))
                            .into_iter()
                            .chain(crate::betza::symmetric_steps((1, 1)))
                        {
                            if let Some(n) = g.offset(sq, dx, dy) {
                                near.set(n);
                            }
                        }
                    }
                    near
                })
                .collect(),
            seats: def.pieces.iter().any(|p| p.seat.is_some()).then(|| {
                let owned = |seat: u8, royal: bool| {
                    def.pieces
                        .iter()
                        .enumerate()
                        .filter(|(_, p)| p.seat.is_none_or(|s| s == seat) && (!royal || p.royal))
                        .fold(0u32, |mask, (ty, _)| mask | 1 << ty)
                };
                SeatTables {
                    own_types: [owned(1, false), owned(2, false)],
                    royal_types: [owned(1, true), owned(2, true)],
                    command_zone: squares_of(&def.command_zone),
                    regions: (def.command_regions.len() == 4).then(|| {
                        std::array::from_fn(|side| {
                            std::array::from_fn(|seat| {
                                squares_of(&def.command_regions[side + 2 * seat])
                            })
                        })
                    }),
                }
            }),
            zobrist,
            attack_paths,
            legality_gate: !def.atomic && !def.checks_forbidden && !def.capture_transforms,
            orthogonal_rays: if def.palace.bikjang {
                (0..size)
                    .map(|sq| {
                        [(1, 0), (-1, 0), (0, 1), (0, -1)].map(|(dx, dy)| {
                            let mut line = B::EMPTY;
                            let mut cur = sq;
                            while let Some(next) = g.offset(cur, dx, dy).filter(|_| g.exists(sq)) {
                                line.set(next);
                                cur = next;
                            }
                            line
                        })
                    })
                    .collect()
            } else {
                Vec::new()
            },
            pawn_types: def
                .pieces
                .iter()
                .enumerate()
                .filter(|(_, p)| p.pawn)
                .fold(0, |mask, (ty, _)| mask | 1 << ty),
            variant_outcomes: true,
            bulk_count: false,
            plain_make: false,
            count_groups: [CountGroups::default(); SIDES],
        };
        tables.variant_outcomes = def.setup.is_some()
            || def.atomic
            || def.check_limit > 0
            || tables.flag.any()
            || def.extinction.is_some()
            || def.palace.bikjang
            || def.palace.pass
            || def.bare_king
            || def.promotion_wins
            || tables.royal_draw.iter().any(|b| b.any())
            || (def.king_capture && tables.seats.is_some());
        tables.bulk_count = !(def.atomic
            || def.checks_forbidden
            || def.must_capture
            || def.drop_mate != DropMate::Allowed
            || def.palace.pass
            || def.palace.bikjang
            || def.royal_leap.is_some()
            || def.royal_swap
            || def.pawn_of_pawns.is_some()
            || def.promotion != PromotionChoice::Any
            || !tables.simple_attacks
            || tables.slow_legality
            || tables.crowned_royals);
        let royal_types = def.royal_mask();
        for side in 0..SIDES {
            let mut groups = CountGroups::default();
            for (ty, per_side) in tables.pieces.iter().enumerate() {
                let pt = &per_side[side];
                let plain = royal_types & (1 << ty) == 0
                    && !def.pieces[ty].pawn
                    && pt.shifts.is_none()
                    && pt.promotion_zone.is_empty()
                    && pt.special_from.is_empty()
                    && pt.bent.is_empty()
                    && !pt.takes_en_passant
                    && !pt.exotic
                    && (pt.not_screens | pt.not_captured) == 0;
                if !plain {
                    continue;
                }
                if pt.riders.is_empty() && pt.leaps && pt.leaps_capture_alike {
                    groups.leapers |= 1 << ty;
                } else if !pt.leaps
                    && pt.plain_riders
                    && pt.slide_rays.is_empty()
                    && tables.magic.is_some()
                    && (pt.magic_rook || pt.magic_bishop)
                {
                    if pt.magic_rook {
                        groups.orthogonal |= 1 << ty;
                    }
                    if pt.magic_bishop {
                        groups.diagonal |= 1 << ty;
                    }
                }
            }
            tables.count_groups[side] = groups;
        }
        tables.plain_make = tables.seats.is_none()
            && def.thrones.is_empty()
            && !def.palace.pass
            && !def.palace.bikjang
            && !def.privileged_pawn
            && def.royal_leap.is_none()
            && !def.royal_swap
            && def.promotion != PromotionChoice::AfterPawnLost
            && !def.drops
            && !def.atomic
            && def.crossings.is_empty()
            && def.pawn_of_pawns.is_none()
            && def.promoted_capture != PromotedCapture::PawnOnlyNextMove
            && def.check_limit == 0
            && !def.capture_transforms;
        tables
    }

    /// The squares rider `r` on `from` reaches with `occupied` squares:
    /// sliding (past its minimum distance), a cannon beyond its screen, a
    /// grasshopper just beyond it.
    #[inline]
    pub fn rider_reach(&self, r: &Rider, from: usize, occupied: B) -> B {
        match r.hop {
            Hop::None => self.slide(r.ray, from, occupied) & !self.too_near(r.ray, from, r.min),
            Hop::Cannon => match self.first_blocker(r.ray, from, occupied) {
                Some(screen) => self.slide(r.ray, screen, occupied),
                None => B::EMPTY,
            },
            Hop::Grasshopper => match self.first_blocker(r.ray, from, occupied) {
                Some(screen) => self.ray_near[r.ray][1][screen],
                None => B::EMPTY,
            },
        }
    }

    /// The squares a rider on `from` reaches along `ray`, stopping at (and
    /// including) the first occupied square.
    #[inline]
    pub fn slide(&self, ray: usize, from: usize, occupied: B) -> B {
        let full = self.rays[ray][from];
        let blockers = full & occupied;
        if blockers.is_empty() {
            return full;
        }
        let first = if self.ray_increasing[ray] {
            blockers.lowest()
        } else {
            blockers.highest()
        };
        full & !self.rays[ray][first]
    }

    /// The first occupied square along `ray` from `from`, if any.
    #[inline]
    pub fn first_blocker(&self, ray: usize, from: usize, occupied: B) -> Option<usize> {
        let blockers = self.rays[ray][from] & occupied;
        if blockers.is_empty() {
            None
        } else if self.ray_increasing[ray] {
            Some(blockers.lowest())
        } else {
            Some(blockers.highest())
        }
    }

    /// The squares within `min - 1` steps of `from` along `ray` (excluded by a minimum range).
    #[inline]
    pub fn too_near(&self, ray: usize, from: usize, min: u8) -> B {
        if min <= 1 {
            B::EMPTY
        } else {
            let k = (min as usize - 1).min(3);
            self.ray_near[ray][k][from]
        }
    }
}

/// [`PieceTables::exotic_from`]: the origins of the captures of the slow
/// path onto each square, from the tables alone (an empty board).
fn exotic_origins<B: Bits>(t: &PieceTables<B>, rays: &[Vec<B>], board: B, size: usize) -> Vec<B> {
    if !t.bent.is_empty() {
        return vec![board; size];
    }
    let mut origins = vec![B::EMPTY; size];
    for (from, leaps) in t.special.iter().enumerate() {
        for leap in leaps.iter().filter(|l| l.capture) {
            origins[leap.to].set(from);
        }
        for r in t.riders.iter().filter(|r| r.capture) {
            for target in rays[r.ray][from].squares() {
                origins[target].set(from);
            }
        }
    }
    origins
}

/// [`Tables::attack_paths`]: for each side, target square, the squares
/// between any capturing rider of that side and the target along its ray
/// (the ray holds the target), and the paths of capturing special leaps.
fn attack_paths<B: Bits>(
    pieces: &[[PieceTables<B>; SIDES]],
    rays: &[Vec<B>],
    size: usize,
) -> Option<[Vec<B>; SIDES]> {
    if pieces.iter().flatten().any(|p| !p.bent.is_empty()) {
        return None;
    }
    Some(std::array::from_fn(|side| {
        let mut paths = vec![B::EMPTY; size];
        let mut ray_ids: Vec<usize> = Vec::new();
        for p in pieces.iter().map(|per_side| &per_side[side]) {
            for r in p.riders.iter().filter(|r| r.capture) {
                if !ray_ids.contains(&r.ray) {
                    ray_ids.push(r.ray);
                }
            }
            for leaps in &p.special {
                for leap in leaps.iter().filter(|l| l.capture) {
                    paths[leap.to] |= leap.path;
                }
            }
        }
        for ray in ray_ids {
            let table = &rays[ray];
            for from in 0..size {
                for target in table[from].squares() {
                    paths[target] |= table[from] & !table[target] & !B::bit(target);
                }
            }
        }
        paths
    }))
}

/// Where a movement may go besides staying on the board: only along the
/// variant's marked lines (palace diagonals), only inside a zone (a palace).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
struct Walk<B> {
    lines: bool,
    zone: Option<B>,
}

impl<B: Bits> Walk<B> {
    /// Whether a step from `from` to its neighbour `to` is allowed.
    fn allows(&self, palace: &crate::variant::PalaceRules, from: usize, to: usize) -> bool {
        self.zone.is_none_or(|z| z.has(from) && z.has(to))
            && (!self.lines || palace.linked(from, to))
    }

    /// Whether it is just the board (magic lookups apply).
    fn is_plain(&self) -> bool {
        !self.lines && self.zone.is_none()
    }
}

/// What a ray table is for: a step, a range, a walk.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
struct RayKey<B> {
    step: (i32, i32),
    max: u8,
    walk: Walk<B>,
}

/// Builds ray tables on demand, one per (step, range, walk).
struct RayBuilder<B> {
    tables: Vec<Vec<B>>,
    keys: Vec<RayKey<B>>,
}

impl<B: Bits> RayBuilder<B> {
    fn id(&mut self, def: &VariantDef, step: (i32, i32), max: u8, walk: Walk<B>) -> usize {
        let key = RayKey { step, max, walk };
        if let Some(i) = self.keys.iter().position(|k| *k == key) {
            return i;
        }
        let g = &def.geometry;
        let size = g.size();
        let mut table = vec![B::EMPTY; size];
        for (sq, entry) in table.iter_mut().enumerate() {
            if !g.exists(sq) {
                continue;
            }
            let mut cur = sq;
            let mut n = 0;
            while let Some(next) = g.offset(cur, step.0, step.1) {
                if !walk.allows(&def.palace, cur, next) {
                    break;
                }
                entry.set(next);
                cur = next;
                n += 1;
                if max != 0 && n >= max {
                    break;
                }
            }
        }
        self.keys.push(key);
        self.tables.push(table);
        self.tables.len() - 1
    }
}

/// The squares a lame leap from `from` by `step` passes: orthogonal steps first,
/// then diagonal ones (xiangqi horse, janggi elephant, alfil's centre).
fn lame_path(g: &crate::geometry::Geometry, from: usize, (dx, dy): (i32, i32)) -> Vec<usize> {
    let (ax, ay) = (dx.abs(), dy.abs());
    let (sx, sy) = (dx.signum(), dy.signum());
    let mut path = Vec::new();
    let (mut x, mut y) = (0, 0);
    let orthogonal = (ax - ay).abs();
    let diagonal = ax.min(ay);
    for _ in 0..orthogonal {
        if ax > ay {
            x += sx;
        } else {
            y += sy;
        }
        path.push((x, y));
    }
    for _ in 0..diagonal {
        x += sx;
        y += sy;
        path.push((x, y));
    }
    path.pop(); // the destination itself
    path.into_iter()
        .filter_map(|(x, y)| g.offset(from, x, y))
        .collect()
}

impl AnyTables {
    /// Compiles `def` for the narrowest width its board fits.
    pub fn build(def: &VariantDef) -> AnyTables {
        let size = def.geometry.size();
        if size <= 64 {
            AnyTables::B64(Arc::new(Tables::build(def)))
        } else if size <= 128 {
            AnyTables::B128(Arc::new(Tables::build(def)))
        } else {
            AnyTables::B256(Arc::new(Tables::build(def)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Geometry;

    #[test]
    fn lame_paths_follow_orthogonal_then_diagonal() {
        let g = Geometry::rectangle(9, 10);
        let e1 = g.parse("e1").unwrap();
        // Xiangqi horse e1 → f3 is blocked on e2.
        assert_eq!(lame_path(&g, e1, (1, 2)), vec![g.parse("e2").unwrap()]);
        // Janggi elephant e1 → g4 passes e2 and f3.
        assert_eq!(
            lame_path(&g, e1, (2, 3)),
            vec![g.parse("e2").unwrap(), g.parse("f3").unwrap()]
        );
        // Alfil-like lame elephant e1 → g3 is blocked on f2.
        assert_eq!(lame_path(&g, e1, (2, 2)), vec![g.parse("f2").unwrap()]);
        // Pawn double step e2 → e4 passes e3.
        let e2 = g.parse("e2").unwrap();
        assert_eq!(lame_path(&g, e2, (0, 2)), vec![g.parse("e3").unwrap()]);
    }
}
