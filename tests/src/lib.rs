//! End-to-end test helpers for Kodex (console, fake platforms).

pub mod fake_telegram;
pub mod toy_handler;
