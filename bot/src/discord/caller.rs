//! Who used the bot where: what every entry point (slash command, button
//! press, message) knows before asking the service, turned into the
//! service's [`Request`] and into the [`Origin`] its answer is sent by.

use poise::serenity_prelude as serenity;
use serenity::ChannelId;

use super::deliver::{InteractionOrigin, Origin};
use super::Data;
use crate::api::{Action, ChatRef, Platform, Request, UserRef};

/// A person using the bot in a channel.
pub(super) struct Caller<'a> {
    /// The Discord user.
    pub(super) user: &'a serenity::User,
    /// Their nickname in the guild, if they set one.
    pub(super) nick: Option<&'a str>,
    /// Where.
    pub(super) channel: ChannelId,
    /// Whether that is a DM with the bot.
    pub(super) in_dm: bool,
    /// Their Discord locale, when the event carries it (interactions do).
    pub(super) locale: Option<&'a str>,
    /// The guild's locale, when the event carries it (interactions in a guild do).
    pub(super) chat_locale: Option<&'a str>,
}

impl Caller<'_> {
    /// The request for `action`; `private` says whether nobody else saw it.
    /// Remembers where and in which language the user used the bot.
    pub(super) fn request(&self, data: &Data, private: bool, action: Action) -> Request {
        data.deliverer.state().saw(
            self.user.id,
            (!self.in_dm).then_some(self.channel),
            self.locale,
        );
        Request {
            chat: chat_ref(self.channel),
            private,
            actor: user_ref(self.user, self.nick),
            locale: self.locale.map(str::to_string),
            chat_locale: self.chat_locale.map(str::to_string),
            action,
        }
    }

    /// How to answer an interaction (with `token`) that was acknowledged,
    /// or, when acknowledging failed, how to answer without it: in the
    /// channel or by DM, so that the request is still handled.
    pub(super) fn origin(
        &self,
        acknowledged: Result<(), serenity::Error>,
        token: &str,
        thinking: bool,
    ) -> Origin {
        match acknowledged {
            Ok(()) => Origin::Interaction(InteractionOrigin {
                token: token.to_string(),
                channel: self.channel,
                private: self.in_dm,
                actor: self.user.id,
                locale: self.locale.unwrap_or_default().to_string(),
                thinking,
                answered_by_dm: false,
            }),
            Err(error) => {
                tracing::warn!("acknowledging an interaction failed: {error}");
                Origin::Message {
                    channel: self.channel,
                    private: self.in_dm,
                    message: None,
                }
            }
        }
    }
}

/// A Discord channel as a chat of the service.
pub(super) fn chat_ref(channel: ChannelId) -> ChatRef {
    ChatRef {
        platform: Platform::Discord,
        id: channel.to_string(),
    }
}

/// A Discord user as a person of the service, named as the server shows them.
pub(super) fn user_ref(user: &serenity::User, nick: Option<&str>) -> UserRef {
    let name = nick.or(user.global_name.as_deref()).unwrap_or(&user.name);
    UserRef {
        platform: Platform::Discord,
        id: user.id.to_string(),
        name: name.to_string(),
        // Mentions and options carry ids; Discord needs no handle matching.
        handle: None,
    }
}
