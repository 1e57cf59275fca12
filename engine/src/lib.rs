//! The rules of every Kodex variant.
//!
//! Pure: no I/O, no async, no clock. Time, randomness and files come in as
//! arguments. Pieces and variants are data (see `config/variants/`).

pub mod fen;
pub mod game;
pub mod moves;
pub mod side;
pub mod variant;
pub mod view;

pub use fen::FenError;
pub use game::{
    Game, Move, MoveError, Outcome, PlayedMove, Reason, Registry, ReplayError, Start, Variant,
};
pub use side::Side;
pub use variant::VariantError;
pub use view::{Art, Audience, BoardStyle, PieceGlyph, PocketView, SquareView, View};
