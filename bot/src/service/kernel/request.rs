//! One request being handled: [`Ctx`], and what is read of its text.

use crate::api::{Request, UserRef};
use crate::i18n::Lang;
use crate::store::GameRow;

/// The longest move text read; anything longer is refused without parsing.
pub const MAX_MOVE_TEXT: usize = 32;

/// One request being handled, with the actor's language.
pub(crate) struct Ctx {
    pub(crate) req: Request,
    /// The actor's language: what is said to them alone is in it.
    pub(crate) lang: Lang,
    /// The language of the chat the request came from: what is posted there
    /// for everyone is in it (the actor's own in a private chat).
    pub(crate) chat_lang: Lang,
    /// The actor's challenges and games in setup or play on the platform,
    /// read once per request (see [`Service::open_games`]).
    pub(crate) open_games: std::sync::OnceLock<Vec<GameRow>>,
    /// Game ids this request names are looked up without counting the
    /// unknown ones against the actor (plain chat text, whose misses get no
    /// answer; suggestions while typing; the computer). Such lookups reveal
    /// nothing of a game the actor does not play (see `lookup.rs`).
    pub(crate) quiet_lookups: bool,
}

impl Ctx {
    pub(crate) fn platform(&self) -> &'static str {
        self.req.chat.platform.key()
    }
    pub(crate) fn actor(&self) -> &UserRef {
        &self.req.actor
    }
}

/// Whether plain chat text could be move notation (letters, digits and
/// `-+#=@x`, with a digit or castling zeros): chatter is ignored without
/// asking the engine, so the answer never depends on the position.
pub(crate) fn looks_like_move(text: &str) -> bool {
    let allowed = |c: char| c.is_alphanumeric() || "-+#=@!?".contains(c);
    text.chars().count() <= 10
        && text.chars().all(allowed)
        && (text.chars().any(|c| c.is_ascii_digit()) || text.to_lowercase().starts_with("o-o"))
}

/// Whether plain chat text is shaped like a move, even one that cannot be
/// read (`e9`, `Nz3`) or is cut short (`Kf`: a piece letter, Latin or
/// Russian, and a file): a player who typed it gets an answer, where
/// other chatter gets none.
pub(crate) fn is_move_shaped(text: &str) -> bool {
    if looks_like_move(text) {
        return true;
    }
    let mut chars = text.chars();
    match (chars.next(), chars.next(), chars.next()) {
        (Some(piece), Some(file), None) => {
            "KQRBNКФЛСП".contains(piece) && ('a'..='h').contains(&file)
        }
        _ => false,
    }
}
