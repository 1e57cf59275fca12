//! Gateway events that are not slash commands: messages typed in channels and
//! DMs (moves in chat), and button presses.
//!
//! Buttons are handled here, statelessly, from their custom id alone: a
//! button on a message sent before a restart works like a new one.

use poise::serenity_prelude as serenity;
use serenity::{
    CreateInteractionResponse, EditInteractionResponse, FullEvent, Interaction, UserId,
};

use super::caller::Caller;
use super::deliver::{Origin, OLD_SHOW_BOARD_BUTTON};
use super::{Data, Error};
use crate::api::Action;

/// poise's event handler: everything but slash commands and autocomplete,
/// which poise dispatches itself.
pub(super) async fn on_event(
    framework: poise::FrameworkContext<'_, Data, Error>,
    event: &FullEvent,
) -> Result<(), Error> {
    let data = framework.user_data;
    match event {
        FullEvent::Message { new_message } => {
            on_message(framework.bot_id(), data, new_message).await;
        }
        FullEvent::InteractionCreate {
            interaction: Interaction::Component(component),
        } => {
            on_button(data, component).await;
        }
        _ => {}
    }
    Ok(())
}

/// A message in a channel, thread or DM: passed to the service as text that
/// may be a move (the service ignores chatter silently).
async fn on_message(bot: UserId, data: &Data, message: &serenity::Message) {
    if message.author.bot || message.author.id == bot {
        return;
    }
    if !matches!(
        message.kind,
        serenity::MessageType::Regular | serenity::MessageType::InlineReply
    ) {
        return;
    }
    // Without the Message Content intent guild messages arrive empty.
    let text = strip_leading_mention(&message.content, bot).trim();
    if text.is_empty() {
        return;
    }
    let caller = Caller {
        user: &message.author,
        nick: message
            .member
            .as_ref()
            .and_then(|member| member.nick.as_deref()),
        channel: message.channel_id,
        in_dm: message.guild_id.is_none(),
        locale: None,
        chat_locale: None,
    };
    let action = Action::Text {
        text: text.to_string(),
    };
    let request = caller.request(data, caller.in_dm, action);
    let origin = Origin::Message {
        channel: caller.channel,
        private: caller.in_dm,
        message: Some(message.id),
    };
    if data
        .typed
        .push(caller.channel, message.id, request, origin)
        .is_err()
    {
        tracing::warn!(
            "channel {} typed faster than it is answered; a message was dropped",
            caller.channel
        );
    }
}

/// A button press: acknowledged at once (Discord allows 3 s), then handed to
/// the service as [`Action::Button`] with the button's custom id, except for
/// the adapter's own buttons.
async fn on_button(data: &Data, component: &serenity::ComponentInteraction) {
    if !matches!(
        component.data.kind,
        serenity::ComponentInteractionDataKind::Button
    ) {
        return;
    }
    let acknowledged = super::retry::acknowledge(|| {
        component.create_response(
            data.deliverer.http(),
            CreateInteractionResponse::Acknowledge,
        )
    })
    .await;
    let custom_id = component.data.custom_id.as_str();
    let action = if custom_id == OLD_SHOW_BOARD_BUTTON {
        Action::Board { game: None }
    } else {
        Action::Button {
            data: custom_id.to_string(),
        }
    };
    let caller = Caller {
        user: &component.user,
        nick: component
            .member
            .as_ref()
            .and_then(|member| member.nick.as_deref()),
        channel: component.channel_id,
        in_dm: component.guild_id.is_none(),
        locale: Some(&component.locale),
        chat_locale: component.guild_locale.as_deref(),
    };
    let request = caller.request(data, caller.in_dm, action);
    let acknowledged_ok = acknowledged.is_ok();
    let origin = caller.origin(acknowledged, &component.token, false);
    let settled = data.answer(request, origin).await;
    // A game's buttons under its latest board stay for the next press
    // (they move on with the next board, and leave at the end).
    let game_board = data
        .deliverer
        .state()
        .is_game_board(component.channel_id, component.message.id);
    if settled && acknowledged_ok && !game_board {
        // The press settled what the buttons asked (and said so in the
        // channel): take them off the message so nobody presses them again.
        // A press answered only privately (not yours, play on) leaves them.
        let cleared = EditInteractionResponse::new().components(Vec::new());
        if let Err(error) = component
            .edit_response(data.deliverer.http(), cleared)
            .await
        {
            tracing::warn!("removing settled buttons failed: {error}");
        }
    }
}

/// `<@bot> e4` → `e4`: people often address the bot when typing a move.
fn strip_leading_mention(text: &str, bot: UserId) -> &str {
    let text = text.trim_start();
    for mention in [format!("<@{bot}>"), format!("<@!{bot}>")] {
        if let Some(rest) = text.strip_prefix(&mention) {
            return rest;
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_leading_mention_of_the_bot_is_dropped() {
        let bot = UserId::new(42);
        assert_eq!(strip_leading_mention("<@42> e4", bot).trim(), "e4");
        assert_eq!(strip_leading_mention("<@!42>Nf3", bot), "Nf3");
        assert_eq!(strip_leading_mention("<@7> e4", bot), "<@7> e4");
    }
}
