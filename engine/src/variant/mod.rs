//! Variant definitions: TOML in, checked rules out.
//!
//! A definition names its board, pieces (movement in the [`crate::betza`]
//! language), start position and rule flags. `extends = "chess"` starts from
//! another definition and overrides keys (pieces merge by letter). Built-ins
//! are the files of `config/variants/`, compiled in ([`BUILTIN`]).
//!
//! - `parse`: reading a definition (the TOML tables, `extends` merged in,
//!   the fingerprint);
//! - `build`: checking it and compiling it into a [`VariantDef`], one module
//!   per mechanic (board, pieces, palace, royals, seats, captures, drops,
//!   promotion, time travel, setup);
//! - [`VariantDef`] and its parts, what the rules read;
//! - [`Variant`] (a compiled definition with its tables) and the
//!   [`Registry`] of them.

mod build;
mod builtin;
mod def;
mod parse;
mod raw;
mod registry;
#[cfg(test)]
mod tests;

pub use builtin::BUILTIN;
pub use def::{
    Counting, DropMate, FlagRule, Forward, PalacePiece, PalaceRules, PawnOfPawns, PieceDef,
    PromotedCapture, PromotionChoice, TimeTravel, VariantDef, VariantError, Verdict, MAX_TYPES,
};
pub use parse::parse_definition;
pub use registry::{Registry, Variant};
