//! The engine's integration tests, one test binary: the rules of each
//! variant, notation, perft and the search, and the
//! differential tests against shakmaty. `common` holds what several share
//! (legal-move lists, random games and the one test generator). Run one
//! subject with its module path, e.g.
//! `cargo test -p kodex-engine --test engine perft::`.

mod common;

mod battle;
mod bughouse;
mod differential;
mod enochian;
mod fog_leaks;
mod fourplayer;
mod hexagonal;
mod hidden_differential;
mod historical;
mod janggi;
mod kriegspiel;
mod notation;
mod perft;
mod positions;
mod public_setup_games;
mod refusals;
mod search;
mod setup;
mod tamerlane;
mod timetravel;
mod variants;
