//! The rules of every Kodex variant.
//!
//! The rules are pure: no I/O, no async, no threads; randomness and files
//! come in as arguments. One part reads the clock, and says so: the
//! search's optional deadlines ([`search`] reads `Instant::now` when a
//! search is given one). The UCI protocol (stdin/stdout, a search thread)
//! is the `kodex-uci` crate's. Pieces and variants are data (see
//! `config/variants/`): a Betza-like movement language ([`betza`]), TOML
//! definitions ([`variant`]), compiled into lookup tables ([`tables`]) over
//! bit sets as wide as the board needs ([`bitboard`]). The bot uses the
//! [`Game`] facade.
//!
//! ```
//! use kodex_engine::{Registry, Game, Start};
//! let registry = Registry::builtin();
//! let mut game = Game::new(registry.get("chess").unwrap(), Start::Standard).unwrap();
//! game.play_text("e4").unwrap();
//! assert_eq!(game.history()[0].uci, "e2e4");
//! ```

pub mod announce;
pub mod betza;
pub mod bitboard;
pub mod chess960;
pub mod error;
pub mod fen;
pub mod game;
pub mod geometry;
pub mod identity;
pub mod magic;
pub mod material;
pub mod mechanics;
pub mod moves;
pub mod notation;
pub mod outcome;
pub mod passing;
pub mod rules;
pub mod search;
pub mod setup;
pub mod side;
pub mod tables;
pub mod timeline;
pub mod variant;
pub mod view;
pub mod visibility;

pub use announce::{Announcement, CheckDirection};

pub use error::{FenError, MoveError, ReplayError};
pub use game::{Attempt, Game, ImpossibleAttempt, PerftCount, PlayedMove, Start};
pub use mechanics::{ExchangeError, ForcedTurn, RetireError};
pub use moves::Move;
pub use outcome::{Outcome, Ranking, Reason, Standing};
pub use side::{Side, Team};
pub use timeline::{Frame, Jump, JumpError, JumpRequest, Timeline, Turn, TurnError};
pub use variant::{Registry, Variant, VariantError};
pub use view::{
    Art, Audience, BoardStyle, CrownedArt, JanggiArt, PawnOfArt, PieceGlyph, PocketView,
    SquareView, TamerlaneArt, View, Visibility, WhaleArt,
};
