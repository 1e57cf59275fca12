//! The computer's side of the engine. For now the low-level board a search
//! walks: copy-make with an incremental hash, legal moves into a reused
//! buffer, no strings anywhere ([`Board`], [`SearchBoard`]). The friendly
//! path for people stays [`crate::Game::play`].

mod board;

pub use board::{Board, SearchBoard};
