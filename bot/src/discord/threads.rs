//! Optional per-game threads (`[discord] threads`, `KODEX_DISCORD_THREADS`),
//! to keep busy channels tidy: a game that starts in a guild text channel
//! moves into a public thread of its own, named after the game.
//!
//! The service says when a game has just started ([`GameRef::started`]); the
//! adapter opens the thread, tells the service with [`Action::Relocate`] (so
//! that everything later about the game goes there, and moves typed there
//! are the game's), posts the start in the thread and leaves a pointer in
//! the channel. When Discord does not let it open a thread, the game simply
//! stays in the channel.

use poise::serenity_prelude as serenity;
use serenity::{AutoArchiveDuration, Channel, ChannelId, ChannelType, CreateThread, Http};

use super::caller::chat_ref;
use super::deliver::{parse_id, text_only};
use crate::api::{Action, ChatRef, Delivery, GameRef, Handler, Request, Target};

/// Discord's limit on a thread name, in characters.
const MAX_THREAD_NAME_CHARS: usize = 100;

/// A game moved into its thread while answering one request.
struct Moved {
    game: String,
    from: ChatRef,
    thread: ChatRef,
}

/// Moves each game that `deliveries` announce as just started into a thread
/// of its own, and returns the deliveries to send instead: the game's
/// public messages go to the thread, followed by a pointer in the channel.
/// `request` is what the service answered; the relocation is asked for in
/// its caller's name.
pub(super) async fn move_new_games(
    http: &Http,
    handler: &dyn Handler,
    request: &Request,
    deliveries: Vec<Delivery>,
) -> Vec<Delivery> {
    let mut moved: Vec<Moved> = Vec::new();
    let mut result = Vec::with_capacity(deliveries.len() + 1);
    for mut delivery in deliveries {
        let (Target::Chat(chat), Some(game)) = (&delivery.target, &delivery.game) else {
            result.push(delivery);
            continue;
        };
        // Later messages about a game moved a moment ago follow it.
        if let Some(earlier) = moved.iter().find(|m| m.game == game.id && m.from == *chat) {
            delivery.target = Target::Chat(earlier.thread.clone());
            result.push(delivery);
            continue;
        }
        if !game.started {
            result.push(delivery);
            continue;
        }
        let (chat, game) = (chat.clone(), game.clone());
        let Some(thread) = open_thread(http, &chat, &game).await else {
            result.push(delivery);
            continue;
        };
        let relocate = Request {
            chat: chat.clone(),
            private: false,
            actor: request.actor.clone(),
            locale: request.locale.clone(),
            chat_locale: request.chat_locale.clone(),
            action: Action::Relocate {
                game: game.id.clone(),
                chat: thread.to_string(),
            },
        };
        // Silent by contract; should it ever say something, it is sent too.
        let said = handler.handle(relocate).await;
        // The players join the thread, so that it shows in their lists and
        // the start's mention reaches them there.
        add_players(http, thread, request, &delivery).await;
        // Posted in the channel, in the channel's language.
        let pointer_text = handler
            .text(
                crate::api::Reader::Chat(chat.clone()),
                "adapter-game-continues",
                vec![
                    ("game", game.id.clone()),
                    ("thread", format!("<#{thread}>")),
                ],
            )
            .await;
        let pointer = text_only(Target::Chat(chat.clone()), pointer_text);
        delivery.target = Target::Chat(chat_ref(thread));
        moved.push(Moved {
            game: game.id,
            from: chat,
            thread: chat_ref(thread),
        });
        result.push(delivery);
        result.push(pointer);
        result.extend(said);
    }
    result
}

/// Adds the people of the game's start to `thread`: the one whose request
/// started it and those the start asks to act (the computer is never among
/// them). A failure only costs the thread's place in their list: logged.
async fn add_players(http: &Http, thread: ChannelId, request: &Request, start: &Delivery) {
    let mut users: Vec<serenity::UserId> = Vec::new();
    for person in std::iter::once(&request.actor).chain(&start.notify) {
        let discord = person.platform == crate::api::Platform::Discord;
        if let Some(id) = parse_id(&person.id).filter(|_| discord) {
            let id = serenity::UserId::new(id);
            if !users.contains(&id) {
                users.push(id);
            }
        }
    }
    for user in users {
        if let Err(error) = thread.add_thread_member(http, user).await {
            tracing::warn!("adding user {user} to thread {thread} failed: {error}");
        }
    }
}

/// Opens a public thread for `game` in `chat` when that is a guild text
/// channel (not a DM, not a thread already). `None` when it is not, or when
/// Discord refuses (missing Create Public Threads permission, …): the game
/// then stays in the channel.
async fn open_thread(http: &Http, chat: &ChatRef, game: &GameRef) -> Option<ChannelId> {
    let channel = ChannelId::new(parse_id(&chat.id)?);
    match http.get_channel(channel).await {
        Ok(Channel::Guild(found)) if found.kind == ChannelType::Text => {}
        Ok(_) => return None,
        Err(error) => {
            tracing::warn!(
                "looking up channel {channel} for game {}'s thread failed: {error}",
                game.id
            );
            return None;
        }
    }
    let thread = CreateThread::new(thread_name(game))
        .kind(ChannelType::PublicThread)
        // A week: correspondence games move slowly; a message reopens it anyway.
        .auto_archive_duration(AutoArchiveDuration::OneWeek);
    match channel.create_thread(http, thread).await {
        Ok(thread) => Some(thread.id),
        Err(error) => {
            tracing::warn!(
                "opening a thread for game {} in channel {channel} failed: {error}",
                game.id
            );
            None
        }
    }
}

/// The game's title as a thread name: within Discord's limit, never empty.
fn thread_name(game: &GameRef) -> String {
    let title = game.title.trim();
    let title = if title.is_empty() { &game.id } else { title };
    title.chars().take(MAX_THREAD_NAME_CHARS).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(title: &str) -> GameRef {
        GameRef {
            id: "k7m2".into(),
            title: title.into(),
            started: true,
            turn: None,
            over: false,
            settles: false,
            reply_within: None,
            edit_board: false,
        }
    }

    #[test]
    fn a_thread_is_named_by_the_title_within_discords_limit() {
        assert_eq!(
            thread_name(&game("Standard: alice vs bob · k7m2")),
            "Standard: alice vs bob · k7m2"
        );
        assert_eq!(thread_name(&game(&"я".repeat(150))).chars().count(), 100);
        assert_eq!(thread_name(&game("  ")), "k7m2");
    }
}
