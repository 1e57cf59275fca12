//! End-to-end test helpers for Kodex (console, fake platforms).

pub mod discord_bot;
pub mod fake_discord;
