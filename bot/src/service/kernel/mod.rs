//! The kernel of the service: its state, the one way a game changes, and
//! the access to games. It imports nothing from the presentation
//! (`service/present`) or the commands (`service/commands`), which build on
//! it; within the kernel a module imports its siblings directly
//! (`super::msg::Msg`), never through this module's re-exports.
//!
//! - [`apply`]: the one way a started game changes — a validated [`Change`](apply::Change)
//!   applied by `Service::apply`: clocks, offers, the result, the save and
//!   the announcement ([`Event`](apply::Event), told by the presentation).
//! - [`clocks`], [`offers`], [`setup`]: the rules of the stored game those
//!   changes (and the commands) read and write: reminders and move times, offers and who is asked to answer,
//!   the placements of a setup phase.
//! - [`service`], [`lang`], [`lookup`]: access — the state, the locks, loading a
//!   game and replaying it, saving it under the version check, which game a
//!   request names, the languages of its readers.
//! - [`msg`], [`request`], [`ids`], [`players`], [`terms`], [`thinking`]: the
//!   vocabulary every layer shares: messages and failures, the request
//!   being handled, game ids, who is who, the terms of a new game, the
//!   computer's searches under way.
//!
//! A new mechanic of play goes here as a `Change` (and its `Event`); what a
//! second command needs of a first one moves here too.

pub(crate) mod apply;
pub(crate) mod background;
pub(crate) mod changes;
pub(crate) mod chat_settings;
pub(crate) mod clocks;
pub(crate) mod ids;
pub(crate) mod lang;
pub(crate) mod lookup;
pub(crate) mod msg;
pub(crate) mod offers;
pub(crate) mod players;
pub(crate) mod request;
pub(crate) mod service;
pub(crate) mod setup;
pub(crate) mod terms;
pub(crate) mod thinking;

pub(crate) use msg::{Failure, Msg, Outcome};
pub(crate) use request::Ctx;
pub(crate) use service::Service;
