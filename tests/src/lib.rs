//! End-to-end test helpers for Kodex (console, fake platforms).

pub mod discord_bot;
pub mod fake_discord;
pub mod fake_telegram;
pub mod garbage;
pub mod image_header;
pub mod structure;
pub mod toy_handler;
