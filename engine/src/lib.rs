//! The rules of every Kodex variant.
//!
//! Pure: no I/O, no async, no clock. Time, randomness and files come in as
//! arguments. Pieces and variants are data (see `config/variants/`).

pub mod side;
pub mod view;

pub use side::Side;
pub use view::{Art, Audience, BoardStyle, PieceGlyph, PocketView, SquareView, View};
