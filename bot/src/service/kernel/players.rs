//! Who is who: a person as their id is stored and compared, the
//! computer's user ids and deliveries.

use crate::api::{Delivery, Target, UserRef};

/// The most characters of a person's name the service keeps and shows.
pub const MAX_NAME: usize = 64;

/// Whether a delivery is for the computer (which reads no messages).
pub(crate) fn for_computer(delivery: &Delivery) -> bool {
    match &delivery.target {
        Target::Private(user) | Target::Ephemeral(user) => user.computer_level().is_some(),
        // The computer's "private chat", where its own requests come from.
        Target::Chat(chat) | Target::DeleteRequest(chat) => is_computer(&chat.id),
    }
}

/// Whether a stored user id is the computer's.
pub(crate) fn is_computer(user_id: &str) -> bool {
    UserRef::level_of(user_id).is_some()
}

/// A user id as stored: `@name` (someone the platform has not shown us yet)
/// lowercase, as handles are case-insensitive.
pub(crate) fn stored_user_id(id: &str) -> String {
    if id.starts_with('@') {
        id.to_lowercase()
    } else {
        id.to_owned()
    }
}

/// Whether `stored` (a user id, or `@handle` for someone the platform had not
/// shown the bot yet) names `user`. Handles are compared only with the handle
/// the platform vouches for, never with a display name.
pub(crate) fn is_user(user: &UserRef, stored: &str) -> bool {
    if stored == user.id {
        return true;
    }
    match (stored.strip_prefix('@'), user.handle.as_deref()) {
        (Some(wanted), Some(handle)) => !wanted.is_empty() && wanted.eq_ignore_ascii_case(handle),
        _ => false,
    }
}
