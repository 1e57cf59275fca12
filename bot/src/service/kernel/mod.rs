//! The kernel of the service: the one way a game changes, and access to games.

pub(crate) mod apply;
pub(crate) mod consent;
pub(crate) mod lookup;
