//! The end-to-end tests, one test binary: Kodex driven the way people drive
//! it, through the console chat, the fake Telegram Bot API and the fake
//! Discord. Each module is one subject; `console_support` is the console
//! chat they share. One binary links the bot once (a binary per file linked
//! it thirty times). Run one subject with its module path, e.g.
//! `cargo test -p kodex-tests --test chat fog_identity::`.

mod console_support;

// Through the console chat.
mod abuse;
mod board_orientation;
mod bughouse;
mod computer;
mod console;
mod console_battle;
mod console_follow_up;
mod console_placing;
mod console_public_games;
mod console_setup;
mod console_variants;
mod fog_identity;
mod four_seats;
mod four_seats_computer;
mod game_ids;
mod garbage;
mod hidden_differential_chat;
mod hidden_public_acts;
mod kriegspiel;
mod languages;
mod lobby;
mod ratings;
mod refusal_reasons;
mod service_routing;
mod storage;
mod time_travel;
mod tournaments;
mod variant_definitions;

// Through the platform adapters and their fakes.
mod discord;
mod discord_service;
mod platforms;
mod processes;
mod strict_fakes;
mod telegram;
mod telegram_service;

// Read from the sources: the service's layers.
mod structure;
