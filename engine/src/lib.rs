//! The rules of every Kodex variant.
//!
//! The rules are pure: no I/O, no async, no threads; randomness and files
//! come in as arguments. One part reads the clock, and says so: the
//! search's optional deadlines ([`search`] reads `Instant::now` when a
//! search is given one). The UCI protocol (stdin/stdout, a search thread)
//! is the `kodex-uci` crate's.
//!
//! Pieces and variants are data (see `config/variants/`): a Betza-like
//! movement language, TOML definitions ([`variant`]), compiled into lookup
//! tables over bit sets as wide as the board needs. Those internals
//! (`betza`, `bitboard`, `magic`, `tables`, `rules`, `mechanics`, `moves`,
//! `notation`, `timeline`, …) are private modules; what other crates use is
//! re-exported here: the [`Game`] facade and its [`Move`], [`Registry`] and
//! [`Variant`], [`View`] and the outcome, errors and record marks. Four
//! modules are public on purpose: [`search`] (the computer player),
//! [`setup`] (placing pieces before play), [`variant`] (definitions) and
//! [`view`] (what a player sees, for the renderer).
//!
//! ```
//! use kodex_engine::{Registry, Game, Start};
//! let registry = Registry::builtin();
//! let mut game = Game::new(registry.get("chess").unwrap(), Start::Standard).unwrap();
//! game.play_text("e4").unwrap();
//! assert_eq!(game.history()[0].uci, "e2e4");
//! ```

mod announce;
mod betza;
mod bitboard;
mod chess960;
mod error;
mod fen;
mod game;
mod geometry;
mod identity;
mod magic;
mod material;
mod mechanics;
mod moves;
mod notation;
mod outcome;
mod passing;
mod record;
mod refusal;
mod rules;
pub mod search;
pub mod setup;
mod side;
mod tables;
mod timeline;
pub mod variant;
pub mod view;
mod visibility;

pub use announce::{Announcement, CheckDirection};

pub use error::{FenError, MoveError, ReplayError};
pub use game::{Attempt, Game, ImpossibleAttempt, PerftCount, Start};
pub use geometry::Geometry;
pub use mechanics::{ExchangeError, ForcedTurn, RetireError};
pub use moves::Move;
pub use notation::is_pass_word;
pub use outcome::{Outcome, Ranking, Reason, Standing};
pub use record::{
    exchange_seats, exchange_token, gift_letter, gift_token, looks_like_jump, retire_token,
    retired_seat, Entry, PlayedMove, GIFT_MARK, IMPOSSIBLE_MARK,
};
pub use refusal::{Refusal, Why};
pub use side::{Side, Team};
pub use timeline::{Frame, Jump, JumpError, JumpRequest, Timeline, Turn, TurnError};
pub use variant::{Registry, Variant, VariantError};
pub use view::{
    Art, Audience, BoardStyle, CrownedArt, JanggiArt, PawnOfArt, PieceGlyph, PocketView,
    SquareView, TamerlaneArt, View, Visibility, WhaleArt,
};
