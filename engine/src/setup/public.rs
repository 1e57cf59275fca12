//! Public setups (Frolov chess, Maharajah): the sides place their pieces one
//! at a time, in turn, white first, on any square of their zone that no piece
//! of either side holds, in view of everyone. A placed piece stays.

use super::{fixed, parse_placement, picker, setup_of, Placement, SetupError, SetupRule};
use crate::bitboard::{Bits, U256};
use crate::game::{Game, Start};
use crate::side::Side;
use crate::variant::Variant;

impl Placement {
    /// Places one piece for `side` in a public setup, `other` being the other
    /// side's placement so far: `text` is exactly one placement (`Ke1`,
    /// `e2`, `Крe1`) of a piece still to place, on a square of the side's zone
    /// that is empty. Nothing changes on an error.
    pub fn place_in_turn(
        &mut self,
        variant: &Variant,
        side: Side,
        text: &str,
        other: &Placement,
    ) -> Result<(), SetupError> {
        let def = variant.definition();
        let setup = setup_of(def, side)?;
        let mut words = text.split_whitespace();
        let (Some(word), None) = (words.next(), words.next()) else {
            return Err(SetupError::OneAtATime);
        };
        if word.contains('/') {
            return Err(SetupError::OneAtATime);
        }
        let (ty, square) = parse_placement(def, word)?;
        let army = &setup.armies[side.index() & 1];
        let placed = self
            .pieces
            .iter()
            .filter(|&&(_, t)| t as usize == ty)
            .count();
        if army.contains(&ty) && placed >= army.iter().filter(|&&t| t == ty).count() {
            // A placed piece stays: there is none of this kind left to place.
            return Err(SetupError::AllPlaced(super::letter(def, ty)));
        }
        if other.pieces.iter().any(|&(sq, _)| sq as usize == square) {
            return Err(SetupError::Occupied(def.geometry.name(square)));
        }
        let mut next = self.clone();
        next.place(def, setup, side, ty, square)?;
        for rule in &setup.rules {
            next.check_rule(def, *rule)?;
        }
        if setup.rules.contains(&SetupRule::NoCheck) && next.attacks_king(variant, side, other) {
            return Err(SetupError::GivesCheck(def.geometry.name(square)));
        }
        *self = next;
        Ok(())
    }

    /// Whether `side`'s pieces, this placement with `other` (the other
    /// side's) and the variant's fixed pieces on the board, attack the other
    /// side's king.
    fn attacks_king(&self, variant: &Variant, side: Side, other: &Placement) -> bool {
        let def = variant.definition();
        let mut pos = fixed(def);
        let them = 1 - (side.index() & 1);
        for (owner, placement) in [(side.index() & 1, self), (them, other)] {
            for &(sq, ty) in &placement.pieces {
                pos.put(sq as usize, owner, ty as usize);
            }
        }
        // The enemy to move: then "in check" is the question asked.
        pos.side = them as u8;
        pos.castling = U256::EMPTY;
        pos.ep = None;
        pos.ep_victim = None;
        let fen = crate::fen::write(def, &pos, def.chess960);
        Game::new(variant, Start::Fen(fen)).is_ok_and(|game| game.in_check())
    }

    /// Places one of `side`'s pieces still to place on a random square where
    /// [`Placement::place_in_turn`] takes it (a player who asks for `random`,
    /// or whose time ran out); `seed` chooses.
    pub fn place_random_in_turn(
        &mut self,
        variant: &Variant,
        side: Side,
        other: &Placement,
        seed: u64,
    ) -> Result<(), SetupError> {
        let def = variant.definition();
        let left = self.still_to_place(variant, side);
        let mut next = picker(seed);
        let squares: Vec<usize> = (0..def.geometry.size())
            .filter(|&sq| def.geometry.exists(sq) && fixed(def).piece_at(sq).is_none())
            .collect();
        let mut kinds: Vec<usize> = left.clone();
        while !kinds.is_empty() {
            let ty = kinds.swap_remove(next(kinds.len()));
            let letter = super::letter(def, ty);
            let fits: Vec<String> = squares
                .iter()
                .map(|&sq| format!("{letter}{}", def.geometry.name(sq)))
                .filter(|word| {
                    self.clone()
                        .place_in_turn(variant, side, word, other)
                        .is_ok()
                })
                .collect();
            if !fits.is_empty() {
                return self.place_in_turn(variant, side, &fits[next(fits.len())], other);
            }
        }
        Err(SetupError::Missing(
            left.iter().map(|&ty| super::letter(def, ty)).collect(),
        ))
    }

    /// The piece types `side` has still to place, one entry per piece.
    pub fn still_to_place(&self, variant: &Variant, side: Side) -> Vec<usize> {
        let def = variant.definition();
        let Ok(setup) = setup_of(def, side) else {
            return Vec::new();
        };
        let mut left = setup.armies[side.index() & 1].clone();
        for &(_, ty) in &self.pieces {
            if let Some(i) = left.iter().position(|&t| t == ty as usize) {
                left.remove(i);
            }
        }
        left
    }
}

/// Who places next in a public setup: white first, then in turn, a side with
/// nothing left to place passing; `None` when every piece is placed.
pub fn turn_to_place(variant: &Variant, placements: [&Placement; 2]) -> Option<Side> {
    let left = |side: usize| {
        !placements[side]
            .still_to_place(variant, Side(side as u8))
            .is_empty()
    };
    match (left(0), left(1)) {
        (true, true) if placements[0].pieces.len() <= placements[1].pieces.len() => {
            Some(Side::WHITE)
        }
        (true, true) => Some(Side::BLACK),
        (true, false) => Some(Side::WHITE),
        (false, true) => Some(Side::BLACK),
        (false, false) => None,
    }
}
