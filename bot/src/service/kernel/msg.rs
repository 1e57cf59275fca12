//! What the service says and how a request fails: [`Msg`] (an i18n key
//! and its arguments, rendered in each reader's language), [`Failure`] and
//! [`Outcome`].

use crate::api::Delivery;
use crate::store::StoreError;
use fluent_bundle::FluentValue;

/// A user-facing message: an i18n key and its arguments. Plain data (no
/// boxed Fluent values), so a message may be held across an `.await` by
/// reference: notes written later in each reader's language.
#[derive(Clone, Debug)]
pub(crate) struct Msg {
    pub(crate) key: &'static str,
    pub(crate) args: Vec<(&'static str, MsgArg)>,
}

/// One argument of a [`Msg`].
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum MsgArg {
    Text(String),
    Number(fluent_bundle::types::FluentNumber),
    Nothing,
}

impl MsgArg {
    pub(crate) fn fluent(&self) -> FluentValue<'_> {
        match self {
            MsgArg::Text(text) => FluentValue::String(text.as_str().into()),
            MsgArg::Number(number) => FluentValue::Number(number.clone()),
            MsgArg::Nothing => FluentValue::None,
        }
    }
}

impl Msg {
    pub(crate) fn new(key: &'static str) -> Msg {
        Msg {
            key,
            args: Vec::new(),
        }
    }

    /// Adds an argument. Text is echoed without control characters (but
    /// line breaks) and bidirectional overrides: what someone typed cannot
    /// rewrite the line it is echoed in (a carriage return, a terminal
    /// escape, a right-to-left override).
    pub(crate) fn arg(mut self, name: &'static str, value: impl Into<FluentValue<'static>>) -> Msg {
        let value = match value.into() {
            FluentValue::String(text) if text.chars().any(is_unsafe_char) => {
                MsgArg::Text(text.chars().filter(|&c| !is_unsafe_char(c)).collect())
            }
            FluentValue::String(text) => MsgArg::Text(text.into_owned()),
            FluentValue::Number(number) => MsgArg::Number(number),
            // (No message takes a custom Fluent type.)
            FluentValue::Custom(_) | FluentValue::None | FluentValue::Error => MsgArg::Nothing,
        };
        self.args.push((name, value));
        self
    }
}

/// Why a request produced no normal answer.
#[derive(Debug)]
pub(crate) enum Failure {
    /// Tell the person what was wrong; nothing changed.
    User(Msg),
    /// Like `User`, for something said in public that must not stay there
    /// (a hidden game's move typed in the group): the message is deleted too.
    Withdrawn(Msg),
    /// Say nothing (plain chat text that was not meant for the bot).
    Silent,
    /// Someone else changed the game at the same moment; nothing changed.
    Conflict,
    /// Storage failed; nothing (more) changed.
    Store(StoreError),
}

impl From<StoreError> for Failure {
    fn from(e: StoreError) -> Failure {
        Failure::Store(e)
    }
}

impl From<Msg> for Failure {
    fn from(m: Msg) -> Failure {
        Failure::User(m)
    }
}

pub(crate) type Outcome<T = Vec<Delivery>> = Result<T, Failure>;

/// A character never echoed: control characters but the line break, and
/// the bidirectional embeddings, overrides and isolates.
fn is_unsafe_char(c: char) -> bool {
    (c.is_control() && c != '\n') || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn echoed_text_loses_control_characters_and_overrides() {
        let msg = Msg::new("error-unknown-variant")
            .arg("variant", "at\u{1b}[31mom\ric\u{202E}x\ty\nz")
            .arg("count", 3);
        match &msg.args[0].1 {
            MsgArg::Text(text) => assert_eq!(text, "at[31momicxy\nz"),
            other => panic!("{other:?}"),
        }
        assert!(matches!(msg.args[1].1, MsgArg::Number(_)));
    }
}
