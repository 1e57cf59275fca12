//! The Kodex game service, storage, clocks, i18n and platform adapters.
//!
//! Adapters turn platform events into [`api::Request`]s for the
//! [`service::Service`] and send back the [`api::Delivery`]s it returns.

pub mod api;
pub mod app;
pub mod clock;
pub mod command;
pub mod config;
pub mod console;
pub mod discord;
pub mod i18n;
pub mod lanes;
pub mod service;
pub mod store;
pub mod telegram;
pub mod time;
pub mod variants;

pub use service::Service;
