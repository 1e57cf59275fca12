//! The Kodex game service, storage, clocks, i18n and platform adapters.

pub mod api;
pub mod telegram;
