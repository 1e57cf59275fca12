//! Setup phases: before play, the sides place their armies — secretly and at
//! the same time (battle chess), or openly in turn (Frolov chess). A side's
//! [`Placement`] is edited by what its player types, checked against the
//! variant's [`SetupDef`], shown by [`setup_view`] only to whom may see it,
//! and finally composed with the other side's into an ordinary start position
//! ([`start_fen`]).
//!
//! ```
//! use kodex_engine::setup::{start_fen, Placement};
//! use kodex_engine::{Registry, Side};
//! let mut registry = Registry::builtin();
//! registry.add_definition("duel.toml", r#"
//!     id = "duel"
//!     extends = "chess"
//!     start = "8/8/8/8/8/8/8/8 w - - 0 1"
//!     [setup]
//!     army = "KRP"
//!     ranks = [1, 2]
//! "#).unwrap();
//! let duel = registry.get("duel").unwrap();
//! let mut white = Placement::default();
//! white.apply(duel, Side::WHITE, "Ke1 Rh1 e2").unwrap();
//! let mut black = Placement::default();
//! black.apply(duel, Side::BLACK, "Ke8 Ra8 d7").unwrap();
//! assert_eq!(start_fen(duel, [&white, &black]).unwrap(), "r3k3/3p4/8/8/8/8/4P3/4K2R w Kq - 0 1");
//! ```

mod public;
pub mod rule;

pub use public::turn_to_place;
pub use rule::{FirstMove, SetupDef, SetupError, SetupMode, SetupRule};

use crate::bitboard::{Bits, U256};
use crate::game::{Game, Start};
use crate::rules::Position;
use crate::side::Side;
use crate::tables::relative_rank;
use crate::variant::Variant;
use crate::variant::VariantDef;
use crate::view::{Audience, SquareView, View};
use crate::visibility::piece_glyph;

/// One side's setup so far: which of its pieces stand where.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Placement {
    /// `(square, piece type)` in the order placed.
    pieces: Vec<(u16, u8)>,
}

/// The variant's setup phase, or the reason there is none for `side`.
fn setup_of(def: &VariantDef, side: Side) -> Result<&SetupDef, SetupError> {
    match &def.setup {
        Some(setup) if !setup.armies[side.index() & 1].is_empty() => Ok(setup),
        _ => Err(SetupError::NothingToPlace),
    }
}

/// The variant's start position: the pieces every setup starts from.
fn fixed(def: &VariantDef) -> Position<U256> {
    crate::fen::parse(def, &def.start_fen).unwrap_or_default()
}

/// Relative ranks of `side` (1 = its own first rank) as the board names
/// them, lowest first: black's ranks 1–4 are the board's 5–8.
fn board_ranks(def: &VariantDef, side: Side, (from, to): (u8, u8)) -> (u8, u8) {
    if side.index() & 1 == 0 {
        (from, to)
    } else {
        let ranks = def.geometry.ranks;
        (ranks + 1 - to, ranks + 1 - from)
    }
}

/// Random picks from `seed` (xorshift): each call gives an index below `n`.
/// The engine takes its randomness as an argument, so a seed repeats a setup
/// (tests and examples use it for random games too).
pub fn picker(seed: u64) -> impl FnMut(usize) -> usize {
    let mut state = seed | 1;
    move |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n.max(1) as u64) as usize
    }
}

fn letter(def: &VariantDef, ty: usize) -> char {
    def.pieces[ty].letter.to_ascii_uppercase()
}

impl Placement {
    /// The squares and piece types placed, in the order placed.
    pub(crate) fn placed(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.pieces
            .iter()
            .map(|&(square, ty)| (usize::from(square), usize::from(ty)))
    }

    /// Whether nothing is placed.
    pub fn is_empty(&self) -> bool {
        self.pieces.is_empty()
    }

    /// The pieces placed, as `(square name, upper-case letter)`.
    pub fn pieces(&self, variant: &Variant) -> Vec<(String, char)> {
        let def = variant.definition();
        self.pieces
            .iter()
            .map(|&(sq, ty)| (def.geometry.name(sq as usize), letter(def, ty as usize)))
            .collect()
    }

    /// Applies what a player typed: placements separated by spaces (`Ke1`,
    /// `Qd1`, `e2` or `Pe2` for a pawn, Russian letters too; placing a piece
    /// whose kind is all placed moves it when the army has one of that kind),
    /// or the whole half as a FEN fragment whose rows run from the side's own
    /// first rank outward (`RNBQKBNR/PPPPPPPP/8/8`, `rnbqkbnr/pppppppp` for
    /// black too), which replaces the placement. Nothing changes on an error.
    pub fn apply(&mut self, variant: &Variant, side: Side, text: &str) -> Result<(), SetupError> {
        let def = variant.definition();
        let setup = setup_of(def, side)?;
        let text = text.trim();
        let next = if text.contains('/') {
            Placement::from_fragment(def, side, text)?
        } else {
            let mut next = self.clone();
            for word in text.split_whitespace() {
                let (ty, square) = parse_placement(def, word)?;
                next.place(def, setup, side, ty, square)?;
            }
            next
        };
        next.check_counts(def, setup, side)?;
        // The rules hold for a partial setup too: say so at once.
        for rule in &setup.rules {
            next.check_rule(def, *rule)?;
        }
        *self = next;
        Ok(())
    }

    fn from_fragment(def: &VariantDef, side: Side, text: &str) -> Result<Placement, SetupError> {
        let g = &def.geometry;
        let setup = setup_of(def, side)?;
        let mut next = Placement::default();
        for (row, cells) in text.split('/').enumerate() {
            let rank = if side == Side::WHITE {
                row as i32
            } else {
                g.ranks as i32 - 1 - row as i32
            };
            let mut file = 0i32;
            let mut digits = String::new();
            let unreadable = || SetupError::Unreadable(text.chars().take(40).collect());
            let chars: Vec<char> = cells.chars().chain(std::iter::once(' ')).collect();
            for c in chars {
                if c.is_ascii_digit() {
                    digits.push(c);
                    continue;
                }
                if !digits.is_empty() {
                    file += digits.parse::<i32>().map_err(|_| unreadable())?;
                    digits.clear();
                }
                if c == ' ' {
                    break;
                }
                let ty = def
                    .piece_by_letter(c)
                    .ok_or(SetupError::NotInArmy(c.to_ascii_uppercase()))?;
                let square = g.square(file, rank).ok_or_else(unreadable)?;
                next.place(def, setup, side, ty, square)?;
                file += 1;
            }
            if file > g.files as i32 {
                return Err(unreadable());
            }
        }
        Ok(next)
    }

    /// Puts one piece of type `ty` on `square`, checking the zone, pawn ranks
    /// and occupancy, and moving a lone piece of its kind already placed.
    fn place(
        &mut self,
        def: &VariantDef,
        setup: &SetupDef,
        side: Side,
        ty: usize,
        square: usize,
    ) -> Result<(), SetupError> {
        let army = &setup.armies[side.index() & 1];
        let in_army = army.iter().filter(|&&t| t == ty).count();
        if in_army == 0 {
            return Err(SetupError::NotInArmy(letter(def, ty)));
        }
        let name = def.geometry.name(square);
        let rank = relative_rank(def, side.index() & 1, square);
        let outside = |(from, to): (u8, u8)| rank < from || rank > to;
        if outside(setup.ranks) {
            let (from, to) = board_ranks(def, side, setup.ranks);
            return Err(SetupError::OutsideZone {
                square: name,
                from,
                to,
            });
        }
        if def.pieces[ty].pawn && outside(setup.pawn_ranks) {
            let (from, to) = board_ranks(def, side, setup.pawn_ranks);
            return Err(SetupError::PawnRank {
                square: name,
                from,
                to,
            });
        }
        let placed = self
            .pieces
            .iter()
            .filter(|&&(_, t)| t as usize == ty)
            .count();
        if placed >= in_army {
            if in_army > 1 {
                return Err(SetupError::AllPlaced(letter(def, ty)));
            }
            self.pieces.retain(|&(_, t)| t as usize != ty);
        }
        let taken = self.pieces.iter().any(|&(sq, _)| sq as usize == square)
            || fixed(def).piece_at(square).is_some();
        if taken {
            return Err(SetupError::Occupied(name));
        }
        self.pieces.push((square as u16, ty as u8));
        Ok(())
    }

    fn check_counts(
        &self,
        def: &VariantDef,
        setup: &SetupDef,
        side: Side,
    ) -> Result<(), SetupError> {
        let army = &setup.armies[side.index() & 1];
        for ty in 0..def.pieces.len() {
            let placed = self
                .pieces
                .iter()
                .filter(|&&(_, t)| t as usize == ty)
                .count();
            if placed > army.iter().filter(|&&t| t == ty).count() {
                return Err(SetupError::AllPlaced(letter(def, ty)));
            }
        }
        Ok(())
    }

    /// Checks that the setup is complete and meets every rule of the variant.
    pub fn validate(&self, variant: &Variant, side: Side) -> Result<(), SetupError> {
        let def = variant.definition();
        let setup = setup_of(def, side)?;
        let mut missing = String::new();
        for (ty, piece) in def.pieces.iter().enumerate() {
            let wanted = setup.armies[side.index() & 1]
                .iter()
                .filter(|&&t| t == ty)
                .count();
            let placed = self
                .pieces
                .iter()
                .filter(|&&(_, t)| t as usize == ty)
                .count();
            for _ in placed..wanted {
                missing.push(piece.letter.to_ascii_uppercase());
            }
        }
        if !missing.is_empty() {
            return Err(SetupError::Missing(missing));
        }
        for rule in &setup.rules {
            self.check_rule(def, *rule)?;
        }
        Ok(())
    }

    fn check_rule(&self, def: &VariantDef, rule: SetupRule) -> Result<(), SetupError> {
        let g = &def.geometry;
        let colour = |sq: usize| (g.file_of(sq) + g.rank_of(sq)) % 2;
        match rule {
            SetupRule::BishopsOppositeColours => {
                let mut colours = [0; 2];
                for &(sq, ty) in &self.pieces {
                    if def.pieces[ty as usize].art == crate::view::Art::Bishop {
                        colours[colour(sq as usize) as usize] += 1;
                    }
                }
                if colours[0] > 1 || colours[1] > 1 {
                    return Err(SetupError::BishopsSameColour);
                }
            }
            SetupRule::OnePawnPerFile => {
                let mut files = Vec::new();
                for &(sq, ty) in &self.pieces {
                    if def.pieces[ty as usize].pawn {
                        let file = g.file_of(sq as usize);
                        if files.contains(&file) {
                            return Err(SetupError::PawnsShareFile(g.file_letter(file)));
                        }
                        files.push(file);
                    }
                }
            }
            // Needs the whole board: checked by `place_in_turn`.
            SetupRule::NoCheck => {}
        }
        Ok(())
    }

    /// A random complete setup meeting every rule; `seed` chooses which (the
    /// engine takes its randomness as an argument).
    pub fn random(variant: &Variant, side: Side, seed: u64) -> Result<Placement, SetupError> {
        let def = variant.definition();
        let setup = setup_of(def, side)?;
        let mut next = picker(seed);
        // Pawns first, then bishops, then the rest, each on a random square
        // that keeps the rules; a dead end starts again.
        let mut army = setup.armies[side.index() & 1].clone();
        army.sort_by_key(|&ty| {
            let piece = &def.pieces[ty];
            (!piece.pawn, piece.art != crate::view::Art::Bishop)
        });
        let squares: Vec<usize> = (0..def.geometry.size())
            .filter(|&sq| def.geometry.exists(sq))
            .collect();
        for _attempt in 0..200 {
            let mut placement = Placement::default();
            let complete = army.iter().all(|&ty| {
                let fits: Vec<usize> = squares
                    .iter()
                    .copied()
                    .filter(|&sq| {
                        let mut trial = placement.clone();
                        trial.place(def, setup, side, ty, sq).is_ok()
                            && setup
                                .rules
                                .iter()
                                .all(|&r| trial.check_rule(def, r).is_ok())
                    })
                    .collect();
                if fits.is_empty() {
                    return false;
                }
                let square = fits[next(fits.len())];
                placement.pieces.push((square as u16, ty as u8));
                true
            });
            if complete && placement.validate(variant, side).is_ok() {
                return Ok(placement);
            }
        }
        Err(SetupError::Missing(
            army.iter().map(|&ty| letter(def, ty)).collect(),
        ))
    }

    /// Whether no setup of the other side can check `side`'s royal piece in
    /// this complete setup at the start (battle chess's first-move rule
    /// would lose the game before a move): no single piece of the other
    /// side's army, standing alone on any square of its setup zone, attacks
    /// it. More pieces only block more lines, so this holds for every setup
    /// the other side may make.
    pub fn king_shielded(&self, variant: &Variant, side: Side) -> bool {
        let def = variant.definition();
        let enemy = side.opponent();
        let Ok(enemy_setup) = setup_of(def, enemy) else {
            // The other side places nothing: its fixed army is all there is.
            return !royal_checked(variant, &self.start_with(def, side), side);
        };
        let mut types = enemy_setup.armies[enemy.index() & 1].clone();
        types.sort_unstable();
        types.dedup();
        let zone: Vec<usize> = (0..def.geometry.size())
            .filter(|&sq| def.geometry.exists(sq))
            .filter(|&sq| {
                let rank = relative_rank(def, enemy.index() & 1, sq);
                rank >= enemy_setup.ranks.0 && rank <= enemy_setup.ranks.1
            })
            .collect();
        let ours = self.start_with(def, side);
        for &square in &zone {
            if ours.piece_at(square).is_some() {
                continue;
            }
            for &ty in &types {
                let pawn = def.pieces[ty].pawn;
                let rank = relative_rank(def, enemy.index() & 1, square);
                if pawn && (rank < enemy_setup.pawn_ranks.0 || rank > enemy_setup.pawn_ranks.1) {
                    continue;
                }
                let mut pos = ours;
                pos.put(square, enemy.index() & 1, ty);
                if royal_checked(variant, &pos, side) {
                    return false;
                }
            }
        }
        true
    }

    /// A random complete setup meeting every rule, as [`Placement::random`],
    /// whose royal piece no setup of the other side can check at the start
    /// ([`Placement::king_shielded`]): what a person's *Random* places, so it
    /// never loses before the first move. `seed` chooses which; if no such
    /// setup turns up in many draws, the last random one.
    pub fn random_shielded(
        variant: &Variant,
        side: Side,
        seed: u64,
    ) -> Result<Placement, SetupError> {
        let mut next = picker(seed ^ 0x5bd1_e995);
        let mut last = Placement::random(variant, side, seed)?;
        for _ in 0..400 {
            if last.king_shielded(variant, side) {
                return Ok(last);
            }
            last = Placement::random(variant, side, next(usize::MAX) as u64)?;
        }
        Ok(last)
    }

    /// The variant's fixed pieces and this placement of `side`.
    fn start_with(&self, def: &VariantDef, side: Side) -> Position<U256> {
        let mut pos = fixed(def);
        for &(sq, ty) in &self.pieces {
            pos.put(sq as usize, side.index() & 1, ty as usize);
        }
        pos
    }

    /// The placement as text that [`Placement::apply`] reads back
    /// (`Ke1 Qd1 Pe2`), for storage.
    pub fn to_text(&self, variant: &Variant) -> String {
        self.pieces(variant)
            .into_iter()
            .map(|(square, letter)| format!("{letter}{square}"))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Reads `Ke1`, `e2`, `Pe2`, `Крe1`.
fn parse_placement(def: &VariantDef, word: &str) -> Result<(usize, usize), SetupError> {
    let g = &def.geometry;
    let unreadable = || SetupError::Unreadable(word.chars().take(40).collect());
    if let Some(square) = g.parse(word) {
        let pawn = def
            .pieces
            .iter()
            .position(|p| p.pawn)
            .ok_or_else(unreadable)?;
        return Ok((pawn, square));
    }
    // Russian letters first (the longest match: `Кр` before `К`).
    let mut russian: Vec<(usize, &str)> = def
        .pieces
        .iter()
        .enumerate()
        .filter_map(|(ty, p)| p.russian.as_deref().map(|r| (ty, r)))
        .collect();
    russian.sort_by_key(|(_, r)| std::cmp::Reverse(r.chars().count()));
    for (ty, prefix) in russian {
        if let Some(square) = word.strip_prefix(prefix).and_then(|rest| g.parse(rest)) {
            return Ok((ty, square));
        }
    }
    let mut chars = word.chars();
    let first = chars.next().ok_or_else(unreadable)?;
    if !first.is_ascii_uppercase() {
        return Err(unreadable());
    }
    let ty = def
        .piece_by_letter(first)
        .ok_or(SetupError::NotInArmy(first))?;
    let square = g.parse(chars.as_str()).ok_or_else(unreadable)?;
    Ok((ty, square))
}

/// Whether `side`'s royal piece stands in check in `pos` (whoever moves).
fn royal_checked(variant: &Variant, pos: &Position<U256>, side: Side) -> bool {
    let def = variant.definition();
    let mut pos = *pos;
    pos.castling = U256::EMPTY;
    pos.side = side.opponent().index() as u8 & 1;
    let fen = crate::fen::write(def, &pos, def.chess960);
    match crate::game::Game::new(variant, crate::game::Start::Fen(fen)) {
        Ok(game) => {
            let view = game.view(Audience::Full);
            let royal = def.royal_type();
            view.checked.iter().any(|&sq| {
                matches!(
                    &view.squares[usize::from(sq)],
                    SquareView::Piece(glyph) if glyph.side == side
                        && def.piece_by_letter(glyph.letter) == royal
                )
            })
        }
        // A position that cannot be read is no safe start either.
        Err(_) => true,
    }
}

/// The start position of play: the variant's fixed pieces plus every side's
/// complete, valid setup. Castling rights go to a king on its classical
/// square (the middle of its first rank) with a castling piece in a corner.
pub fn start_fen(variant: &Variant, placements: [&Placement; 2]) -> Result<String, SetupError> {
    let def = variant.definition();
    if def.setup.is_none() {
        return Err(SetupError::NothingToPlace);
    }
    let mut pos = fixed(def);
    for (side, placement) in placements.iter().enumerate() {
        if setup_of(def, Side(side as u8)).is_ok() {
            placement.validate(variant, Side(side as u8))?;
        }
        for &(sq, ty) in &placement.pieces {
            pos.put(sq as usize, side, ty as usize);
        }
    }
    pos.castling = U256::EMPTY;
    if def.castling {
        let g = &def.geometry;
        let royal = def.royal_type();
        for side in 0..2 {
            let rank = if side == 0 { 0 } else { g.ranks as i32 - 1 };
            let king = g.square(g.files as i32 / 2, rank);
            let king_home = king.is_some_and(|k| pos.piece_at(k) == royal.map(|r| (side, r)));
            for file in [0, g.files as i32 - 1] {
                let Some(corner) = g.square(file, rank) else {
                    continue;
                };
                let rook = pos
                    .piece_at(corner)
                    .is_some_and(|(s, ty)| s == side && def.pieces[ty].castles);
                if king_home && rook {
                    pos.castling.set(corner);
                }
            }
        }
    }
    if def.setup.as_ref().map(|s| s.first_move) == Some(FirstMove::CheckedMovesFirst) {
        let waiting = 1 - pos.side;
        let mut turned = pos;
        turned.side = waiting;
        let fen = crate::fen::write(def, &turned, def.chess960);
        if Game::new(variant, Start::Fen(fen.clone())).is_ok_and(|game| game.in_check()) {
            return Ok(fen);
        }
    }
    Ok(crate::fen::write(def, &pos, def.chess960))
}

/// What `audience` may see of a setup in progress. In a secret setup a side
/// sees its own placement and the variant's fixed pieces, and the other
/// side's zone is fog — the same whatever the other side placed; the public
/// sees both zones fogged. In a public setup everyone sees everything.
pub fn setup_view(variant: &Variant, placements: [&Placement; 2], audience: Audience) -> View {
    let def = variant.definition();
    let g = &def.geometry;
    let pos = fixed(def);
    let secret = def
        .setup
        .as_ref()
        .is_some_and(|s| s.mode == SetupMode::Secret);
    let shown = |side: usize| match audience {
        Audience::Full => true,
        _ if !secret => true,
        Audience::Side(viewer) => viewer.index() == side,
        Audience::Public => false,
    };
    let in_zone = |side: usize, sq: usize| {
        def.setup.as_ref().is_some_and(|s| {
            let rank = relative_rank(def, side, sq);
            !s.armies[side].is_empty() && rank >= s.ranks.0 && rank <= s.ranks.1
        })
    };
    let glyph = |side: usize, ty: usize| SquareView::Piece(piece_glyph(def, side, ty, false));
    let squares = (0..g.size())
        .map(|sq| {
            if !g.exists(sq) {
                return SquareView::Absent;
            }
            if let Some((side, ty)) = pos.piece_at(sq) {
                return glyph(side, ty);
            }
            for (side, placement) in placements.iter().enumerate() {
                if !shown(side) {
                    if in_zone(side, sq) {
                        return SquareView::Fog;
                    }
                    continue;
                }
                if let Some(&(_, ty)) = placement.pieces.iter().find(|&&(s, _)| s as usize == sq) {
                    return glyph(side, ty as usize);
                }
            }
            SquareView::Empty
        })
        .collect();
    def.board_view(audience, squares)
}
