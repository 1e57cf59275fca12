//! The `kodex` binary from outside, one test binary: its command line, piped
//! console scripts with a kill and a restart, and a clean stop against the
//! fake Telegram Bot API. Run one subject with its module path, e.g.
//! `cargo test -p kodex-bot --test kodex shutdown::`.

mod binary;
mod cli;
mod shutdown;
