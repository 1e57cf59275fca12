//! The tests of `kodex-uci`, one test binary: the tool stays responsive
//! while it counts ([`responsive`]), and whole scripts give the counts and
//! answers Fairy-Stockfish gives ([`scripts`]). Nothing here is timed.

mod responsive;
mod scripts;
