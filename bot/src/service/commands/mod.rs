//! The features of the service: a module (or a folder) per command family,
//! each adding its handlers to `Service` in an `impl Service` block. A
//! command imports the kernel (`service::kernel`) and the presentation
//! (`service::present`), never another command: what two of them share
//! moves down into the kernel. A family's folder (`challenge/`, `setup/`)
//! keeps helpers only its own files use.
//!
//! A new command goes here as a handler, in its own file or its family's;
//! `service/mod.rs` routes the request to it. A command changes a running
//! game's position by handing a `Change` to `Service::apply`.

pub(crate) mod bughouse;
pub(crate) mod challenge;
pub(crate) mod computer;
pub(crate) mod exchange;
pub(crate) mod info;
pub(crate) mod learn;
pub(crate) mod lobby;
pub(crate) mod notation;
pub(crate) mod offers;
pub(crate) mod play;
pub(crate) mod ratings;
pub(crate) mod rematch;
pub(crate) mod reminders;
pub(crate) mod retire;
pub(crate) mod review;
pub(crate) mod settings;
pub(crate) mod setup;
pub(crate) mod suggest;
pub(crate) mod teams;
pub(crate) mod ticker;
pub(crate) mod timeline;
pub(crate) mod tournament;
pub(crate) mod watch;
