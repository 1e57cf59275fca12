//! The Kodex game service, storage, clocks, i18n and platform adapters.
//!
//! Adapters ([`discord`], [`telegram`], [`console`]) turn platform events
//! into [`api::Request`]s for the [`service::Service`] (typed text is read
//! once, against the command table [`command::COMMANDS`]) and send back the
//! [`api::Delivery`]s it returns, images already drawn. The service has three
//! layers (see [`service`]): a kernel (the one way a game changes, clocks,
//! offers, access to games), the presentation (what each audience is told and
//! shown), and the commands on top; [`store`] keeps typed rows in SQLite.
//! [`app`] is what the `kodex` binary runs: the platforms a configuration
//! names, on one service. `docs/architecture.md` follows one move through all
//! of it and says where a new command, mechanic or column goes.

pub mod api;
pub mod app;
pub mod clock;
pub mod command;
pub mod config;
pub mod console;
pub mod discord;
pub mod i18n;
pub mod lanes;
pub mod rating;
pub mod service;
pub mod store;
pub mod telegram;
pub mod time;
pub mod tournament;
pub mod variants;

pub use service::Service;
