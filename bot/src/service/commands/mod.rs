//! The features of the service: one module per command family.

pub(crate) mod bughouse;
pub(crate) mod challenge;
pub(crate) mod computer;
pub(crate) mod exchange;
pub(crate) mod info;
pub(crate) mod learn;
pub(crate) mod notation;
pub(crate) mod offers;
pub(crate) mod placing;
pub(crate) mod play;
pub(crate) mod position;
pub(crate) mod rematch;
pub(crate) mod reminders;
pub(crate) mod retire;
pub(crate) mod setup;
pub(crate) mod suggest;
pub(crate) mod teams;
pub(crate) mod timeline;
pub(crate) mod watch;
