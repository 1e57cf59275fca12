//! Sending: one ordered queue per Telegram chat, so a slow chat (flood limits,
//! retries) never delays another, and messages to one chat keep their order.
//! Answers to someone's own action overtake the queued messages nobody waits
//! for (the computer's moves, clocks), and those leave a share of the chat's
//! flood limit free for answers (see [`Flood`]); a game's boards never
//! overtake one another.
//!
//! Every message keeps within Telegram's per-chat and global limits
//! ([`Flood::admit`]) and is posted by Kodex's own requests ([`Poster`]); a
//! 429 `retry_after` is honoured and the request repeated, network failures
//! and Telegram's own (a 5xx) are retried at once and then with backoff. A
//! send that still fails is logged and dropped: the service has already
//! stored the move, and `/board` shows it.

use std::future::Future;
use std::sync::{Arc, Weak};
use std::time::Duration;

use teloxide::adaptors::throttle::Limits;
use teloxide::requests::{Request as TelegramRequest, Requester};
use teloxide::types::{ChatId, InlineKeyboardButton, InlineKeyboardMarkup, MessageId, UserId};
use teloxide::{ApiError, Bot, RequestError};

use super::boards::Boards;
use super::directory::Directory;
use super::flood::Flood;
use super::joined::{Joiner, Next};
use super::posting::{self, Extras, Media, Poster};
use super::texts;
use crate::api::{split_text, Button, Handler, Image};
use crate::lanes::Lanes;

/// Telegram's limit on a photo/animation/document caption, in characters.
const CAPTION_LIMIT: usize = 1024;
/// Telegram's limit on a text message, in characters.
const MESSAGE_LIMIT: usize = 4096;
/// Telegram's limit on callback data, in bytes.
const CALLBACK_DATA_LIMIT: usize = 64;
/// Telegram's limit on a photo, in bytes (larger boards go as documents).
const PHOTO_BYTES_LIMIT: usize = 10 * 1000 * 1000;
/// Telegram's limit on a photo's width plus height, in pixels.
const PHOTO_SIDES_LIMIT: u32 = 10_000;
/// Telegram's limit on other files a bot uploads (animations, documents), in bytes.
const FILE_BYTES_LIMIT: usize = 50 * 1000 * 1000;
/// How often one call is tried when the network or Telegram fails.
const ATTEMPTS: u32 = 6;
/// How long the first retry of a failed call waits (each next one twice as
/// long): a 5xx or a dropped connection is usually over at once.
const FIRST_BACKOFF: Duration = Duration::from_millis(200);
/// How many messages one chat may have waiting; more are dropped (and
/// logged): at one message a second, that is a long backlog already.
const PARCELS_PER_CHAT: usize = 500;
/// How long a chat's queue waits for its next message before it closes.
const QUEUE_IDLE: Duration = Duration::from_secs(60);

/// One message for one chat.
#[derive(Clone, Debug)]
pub(super) struct Parcel {
    /// The text (or caption).
    pub text: String,
    /// A board PNG or a game GIF.
    pub image: Option<Image>,
    /// Callback buttons (their data comes back as `Action::Button`).
    pub buttons: Vec<Button>,
    /// A URL button (the deep link), shown after the callback buttons.
    pub link: Option<Link>,
    /// The message this one answers, if any.
    pub reply_to: Option<MessageId>,
    /// What to do when the chat refuses the message (a private chat the player never opened).
    pub if_refused: Option<Refusal>,
    /// Set on a game's board message in a chat: the game's id, and whether
    /// the message carries the game's keyboard (draw, resign, …), which
    /// only the latest such message keeps (none once the game is over).
    pub game_board: Option<(String, bool)>,
    /// Set on a challenge: the game it asks to join (its buttons go once
    /// the game starts or the challenge ends).
    pub challenge_of: Option<String>,
    /// Set on news that a game started or ended in the chat: its challenges
    /// lose their buttons once this is sent.
    pub answers_challenges_of: Option<String>,
    /// The people the message asks to act, mentioned at its end so that
    /// Telegram notifies them (in groups only).
    pub mentions: Vec<Mention>,
    /// Set on news that the game `game_board` names is over: boards of the
    /// game it overtakes lose their buttons.
    pub ends_game: bool,
    /// Someone waits for it: an answer to their own message or button press.
    /// It goes ahead of the queued parcels nobody waits for, and may use the
    /// share of the chat's flood limit kept for answers.
    pub urgent: bool,
    /// Set on a turn of a game: what happened, one line each (the text's
    /// first lines), for joining it to the next turn (see [`super::joined`]).
    pub turn_events: Option<Vec<String>>,
    /// Set on a turn the computer answers next: about how long it thinks.
    pub reply_within: Option<Duration>,
    /// Set on a turn in a chat that keeps one board message per game: the
    /// game's board message is edited into this one where it can be.
    pub edit_board: bool,
}

/// A person mentioned in a group message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Mention {
    /// By their `@username` (without the `@`), which Telegram notifies.
    Username(String),
    /// Someone without a username: a text mention (an inline link to
    /// `tg://user?id=<id>` around their name).
    User {
        /// Their Telegram id.
        id: u64,
        /// The name the link shows.
        name: String,
    },
}

impl Mention {
    /// What a reader sees.
    fn plain(&self) -> String {
        match self {
            Mention::Username(username) => format!("@{username}"),
            Mention::User { name, .. } if name.trim().is_empty() => "👤".to_owned(),
            Mention::User { name, .. } => name.clone(),
        }
    }

    /// The mention in Telegram's HTML.
    fn html(&self) -> String {
        match self {
            Mention::Username(username) => format!("@{}", escape_html(username)),
            Mention::User { id, name } => {
                // A link needs text to show.
                let name = if name.trim().is_empty() { "👤" } else { name };
                format!("<a href=\"tg://user?id={id}\">{}</a>", escape_html(name))
            }
        }
    }

    /// Whether `username` is one Telegram could have given: up to 32
    /// letters, digits and underscores (anything else is never sent as a
    /// mention).
    pub fn valid_username(username: &str) -> bool {
        (1..=32).contains(&username.len())
            && username
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_')
    }
}

/// The mentions as a line: plain (what it shows, for the limits) and HTML.
fn mention_line(mentions: &[Mention]) -> (String, String) {
    let plain: Vec<String> = mentions.iter().map(Mention::plain).collect();
    let html: Vec<String> = mentions.iter().map(Mention::html).collect();
    (plain.join(" "), html.join(" "))
}

/// `text` with `&`, `<` and `>` escaped for Telegram's HTML.
fn escape_html(text: &str) -> String {
    fenced_to_html(&text.replace("```", "'''"), false).0
}

impl Parcel {
    /// A plain parcel with text, optional image and buttons; `None` (and a
    /// warning) when it would be an empty message, which Telegram refuses
    /// ("message text is empty"): no text and no image. Buttons alone
    /// cannot be sent either, for they hang under a message.
    pub fn new(text: String, image: Option<Image>, buttons: Vec<Button>) -> Option<Self> {
        if text.trim().is_empty() && image.is_none() {
            tracing::warn!(
                buttons = buttons.len(),
                "a message with neither text nor image was not sent"
            );
            return None;
        }
        Some(Parcel {
            text,
            image,
            buttons,
            link: None,
            reply_to: None,
            if_refused: None,
            game_board: None,
            challenge_of: None,
            answers_challenges_of: None,
            mentions: Vec::new(),
            ends_game: false,
            urgent: false,
            turn_events: None,
            reply_within: None,
            edit_board: false,
        })
    }
}

/// A URL button.
#[derive(Clone, Debug)]
pub(super) struct Link {
    /// The label.
    pub label: String,
    /// The target, e.g. `https://t.me/KodexBot?start=b_7fk2`.
    pub url: url::Url,
}

/// The fallback for a private message the player's chat refused (they never
/// pressed Start): a notice in the group that reveals nothing of the
/// message, with a deep link that opens the private chat. What was private
/// is never posted in the group instead.
#[derive(Clone, Debug)]
pub(super) struct Refusal {
    /// Where to post the link.
    pub group: ChatId,
    /// Who it is for.
    pub player: UserId,
    /// How to address them.
    pub player_name: String,
    /// The `/start` payload: a board's (`b_<game>`, delivered again when the
    /// link is followed) or [`NOTE_PAYLOAD`] for anything else.
    pub payload: String,
}

/// The `/start` payload of a link to a private note (an answer about the
/// player's own request): following it opens the chat and shows the help.
pub(super) const NOTE_PAYLOAD: &str = "hello";

/// How the courier sends.
pub(super) struct Sending {
    /// The bot.
    pub bot: Bot,
    /// The flood limits the throttle keeps within.
    pub limits: Limits,
    /// Whether boards go as documents rather than photos.
    pub boards_as_documents: bool,
}

/// Sends parcels, one ordered queue per chat.
pub(super) struct Courier {
    bot: Bot,
    /// Posts into chats, within the flood limits.
    poster: Poster,
    bot_username: String,
    boards_as_documents: bool,
    directory: Arc<Directory>,
    /// Where the adapter's own texts come from.
    handler: Arc<dyn Handler>,
    queues: Lanes<ChatId, (ChatId, Parcel)>,
    /// The boards posted, and which carries each game's keyboard.
    boards: Arc<Boards>,
    /// Turns held back for the computer's quick reply.
    joiner: Joiner,
    /// The courier itself, for the timers of held turns.
    me: Weak<Courier>,
}

impl Courier {
    /// A courier sending through `bot`.
    pub fn new(
        sending: Sending,
        bot_username: String,
        directory: Arc<Directory>,
        boards: Arc<Boards>,
        handler: Arc<dyn Handler>,
    ) -> Arc<Self> {
        let flood = Arc::new(Flood::new(sending.limits));
        let pace = Arc::clone(&flood);
        let poster = Poster::new(&sending.bot, Arc::clone(&flood));
        Arc::new_cyclic(|courier: &Weak<Courier>| {
            let me = courier.clone();
            let courier = courier.clone();
            Courier {
                joiner: Joiner::default(),
                me,
                bot: sending.bot,
                poster,
                bot_username,
                boards_as_documents: sending.boards_as_documents,
                directory,
                handler,
                boards,
                queues: Lanes::new(
                    PARCELS_PER_CHAT,
                    QUEUE_IDLE,
                    Arc::new(move |(chat, parcel): (ChatId, Parcel)| {
                        let courier = courier.upgrade();
                        Box::pin(async move {
                            if let Some(courier) = courier {
                                courier.deliver(chat, parcel).await;
                            }
                        })
                    }),
                )
                .paced(Arc::new(move |chat: &ChatId| pace.hold(*chat))),
            }
        })
    }

    /// Sends everything queued and held (and what refusals add), and waits for it.
    pub async fn finish(&self) {
        for (chat, parcel) in self.joiner.release_all() {
            self.queue(chat, parcel);
        }
        self.queues.finish().await;
    }

    /// The bot, for calls that are not chat messages (callback answers).
    pub fn bot(&self) -> &Bot {
        &self.bot
    }

    /// Whether boards go as documents rather than photos.
    pub fn boards_as_documents(&self) -> bool {
        self.boards_as_documents
    }

    /// Removes the inline keyboard under a message. Only cosmetic (the
    /// service refuses a stale press anyway), so a failure is just logged:
    /// quietly when the message has none any more ("message is not
    /// modified") or is gone ("message to edit not found").
    pub async fn remove_buttons(&self, chat: ChatId, message: MessageId) {
        let body = serde_json::json!({ "chat_id": chat.0, "message_id": message.0 });
        let removed = with_retries(|| self.poster.call("editMessageReplyMarkup", &body)).await;
        match removed {
            Ok(_) => {}
            Err(RequestError::Api(
                ApiError::MessageNotModified | ApiError::MessageToEditNotFound,
            )) => {
                tracing::debug!(chat = chat.0, "the buttons were already gone");
            }
            Err(error) => tracing::warn!(
                chat = chat.0,
                error = describe(&error),
                "could not remove the buttons of a message"
            ),
        }
    }

    /// Answers the button press `id`, with `note` shown to the presser
    /// alone (as an alert box when `alert`).
    pub async fn answer_press(
        &self,
        id: &str,
        note: Option<(&str, bool)>,
    ) -> Result<(), RequestError> {
        let mut body = serde_json::json!({ "callback_query_id": id });
        if let Some((text, alert)) = note {
            body["text"] = text.into();
            body["show_alert"] = alert.into();
        }
        with_retries(|| self.poster.call("answerCallbackQuery", &body))
            .await
            .map(|_| ())
    }

    /// `getChatMember`: who `user` is in `chat` (the adapter waits for it
    /// in the chat's queue, so it is retried as messages are).
    pub async fn chat_member(
        &self,
        chat: ChatId,
        user: UserId,
    ) -> Result<teloxide::types::ChatMember, RequestError> {
        let body = serde_json::json!({ "chat_id": chat.0, "user_id": user.0 });
        let member = with_retries(|| self.poster.call("getChatMember", &body)).await?;
        serde_json::from_value(member.clone()).map_err(|source| RequestError::InvalidJson {
            source: Arc::new(source),
            raw: member.to_string().into_boxed_str(),
        })
    }

    /// Whether `message` carries a game's keyboard now (a press on it
    /// settles nothing about the message itself).
    pub fn is_game_keyboard(&self, chat: ChatId, message: MessageId) -> bool {
        self.boards.is_game_keyboard(chat, message)
    }

    /// Takes the buttons off `message` (settled by a press on it), and
    /// forgets it as a challenge still to answer.
    pub fn settle(self: &Arc<Self>, chat: ChatId, message: MessageId) {
        self.boards.settled(chat, message);
        let courier = Arc::clone(self);
        tokio::spawn(async move { courier.remove_buttons(chat, message).await });
    }

    /// The game whose recent board `message` in `chat` is.
    pub fn game_of_board(&self, chat: ChatId, message: MessageId) -> Option<String> {
        self.boards.game_of(chat, message)
    }

    /// A board of `game` was posted in `chat` as `message` (with the game's
    /// keyboard when `keyed`): the message that carried it before loses it.
    async fn moved_keyboard(
        &self,
        chat: ChatId,
        game: String,
        message: Option<MessageId>,
        keyed: bool,
    ) {
        if let Some(previous) = self.boards.posted(chat, &game, message, keyed) {
            self.remove_buttons(chat, previous).await;
        }
    }

    /// Deletes someone's message in a group: works where the bot is an
    /// administrator allowed to delete messages. Elsewhere Telegram refuses
    /// ("message can't be deleted"), and the message stays: only logged.
    pub async fn delete(&self, chat: ChatId, message: MessageId) {
        if let Err(error) = with_retries(|| self.bot.delete_message(chat, message).send()).await {
            tracing::debug!(
                chat = chat.0,
                error = describe(&error),
                "could not delete a move said in public"
            );
        }
    }

    /// Takes a parcel for a chat: a turn the computer answers quickly is
    /// held back to go with its answer as one message (see [`Joiner`]);
    /// anything else is queued, after the turn held in the chat.
    pub fn enqueue(&self, chat: ChatId, parcel: Parcel) {
        match self.joiner.take(chat, parcel) {
            Next::Send(parcels) => {
                for parcel in parcels {
                    self.queue(chat, parcel);
                }
            }
            Next::Hold { send, wait, number } => {
                for parcel in send {
                    self.queue(chat, parcel);
                }
                let courier = self.me.clone();
                tokio::spawn(async move {
                    tokio::time::sleep(wait).await;
                    let Some(courier) = courier.upgrade() else {
                        return;
                    };
                    if let Some(parcel) = courier.joiner.release(chat, number) {
                        courier.queue(chat, parcel);
                    }
                });
            }
        }
    }

    /// Queues a parcel for a chat; it is sent after everything queued before
    /// it, except that an urgent parcel goes ahead of the ordinary ones. A
    /// board never overtakes an older board of its game (they go just before
    /// it); news without a board may, and so may a board of the same
    /// position (the same file name: the service names a board by game, ply
    /// and side). The boards news of a game's end overtakes lose their buttons
    /// (they would act on a game that is over).
    fn queue(&self, chat: ChatId, parcel: Parcel) {
        let queued = if parcel.urgent {
            let game = parcel.game_board.as_ref().map(|(game, _)| game.clone());
            let picture = parcel.image.as_ref().map(|image| image.file_name.clone());
            let ends = parcel.ends_game;
            self.queues
                .push_urgent(chat, (chat, parcel), |(_, queued)| {
                    let Some((queued_game, keyed)) = queued.game_board.as_mut() else {
                        return false;
                    };
                    if game.as_ref() != Some(queued_game) {
                        return false;
                    }
                    let older = picture.as_ref().is_some_and(|picture| {
                        queued
                            .image
                            .as_ref()
                            .is_none_or(|image| image.file_name != *picture)
                    });
                    if !older && ends {
                        *keyed = false;
                        queued.buttons.clear();
                    }
                    older
                })
        } else {
            self.queues.push(chat, (chat, parcel))
        };
        if queued.is_err() {
            tracing::error!(
                chat = chat.0,
                "a chat's queue is full; a message was dropped"
            );
        }
    }

    async fn deliver(&self, chat: ChatId, parcel: Parcel) {
        let result = match self.send(chat, &parcel).await {
            // A group became a supergroup: its new id takes the message.
            Err(RequestError::MigrateToChatId(new_chat)) => self.send(new_chat, &parcel).await,
            result => result,
        };
        match result {
            Ok(message) => {
                if let Some((game, keyed)) = parcel.game_board.clone() {
                    self.moved_keyboard(chat, game, message, keyed).await;
                }
                if let (Some(game), Some(message)) = (&parcel.challenge_of, message) {
                    self.boards.challenged(chat, game, message);
                }
                if let Some(game) = &parcel.answers_challenges_of {
                    for challenge in self.boards.answered_challenges(chat, game) {
                        self.remove_buttons(chat, challenge).await;
                    }
                }
            }
            Err(error) if is_refusal(&error) => self.refused(chat, parcel).await,
            Err(error) => tracing::error!(
                chat = chat.0,
                error = describe(&error),
                "a message could not be delivered"
            ),
        }
    }

    async fn refused(&self, chat: ChatId, parcel: Parcel) {
        let Some(Refusal {
            group,
            player,
            player_name,
            payload,
        }) = parcel.if_refused
        else {
            tracing::warn!(chat = chat.0, "a chat refused a message");
            return;
        };
        if self.directory.take_opened_private(player)
            || !self.directory.mark_link_posted(player, &payload)
        {
            return;
        }
        // Posted in the group: in the group's language.
        let reader = texts::group(group);
        let address = format!("https://t.me/{}?start={payload}", self.bot_username);
        let Ok(url) = url::Url::parse(&address) else {
            tracing::error!("the deep link is not a valid URL");
            return;
        };
        let (prompt, button) = if payload == NOTE_PAYLOAD {
            ("adapter-note-link-prompt", "adapter-note-link-button")
        } else {
            ("adapter-deep-link-prompt", "adapter-deep-link-button")
        };
        let text = self
            .handler
            .text(reader.clone(), prompt, vec![("player", player_name)])
            .await;
        let label = texts::say(self.handler.as_ref(), reader, button).await;
        let Some(mut prompt) = Parcel::new(text, None, Vec::new()) else {
            return;
        };
        prompt.link = Some(Link { label, url });
        prompt.urgent = parcel.urgent;
        self.enqueue(group, prompt);
    }

    /// Sends one parcel: the image with its caption and keyboard, then any text
    /// that did not fit in the caption, split at Telegram's message limit.
    /// Returns the message that carries the keyboard (the last one sent).
    async fn send(&self, chat: ChatId, parcel: &Parcel) -> Result<Option<MessageId>, RequestError> {
        let markup = keyboard(&parcel.buttons, parcel.link.as_ref());
        let text = parcel.text.trim();
        // Mentions go at the end, in HTML (a text mention is a link).
        let (mention_plain, mention_html) = mention_line(&parcel.mentions);
        let mentioned = !parcel.mentions.is_empty();
        let reserved = if mentioned {
            mention_plain.chars().count() + 1
        } else {
            0
        };
        // The service marks monospace text boards with ``` fences, which
        // Telegram shows literally unless the text is sent as HTML.
        let html = text.contains("```") || mentioned;
        let mut answering = parcel.reply_to;
        let image = parcel
            .image
            .as_ref()
            .filter(|image| image.bytes.len() <= FILE_BYTES_LIMIT);
        let noted;
        let text = if image.is_none() && parcel.image.is_some() {
            tracing::error!(
                chat = chat.0,
                "an image is larger than Telegram accepts; sending the text alone"
            );
            let reader = match u64::try_from(chat.0) {
                Ok(person) => texts::person(UserId(person), self.directory.locale(UserId(person))),
                Err(_) => texts::group(chat),
            };
            let args = vec![("platform", "Telegram".to_owned())];
            let note = self
                .handler
                .text(reader, "adapter-file-too-large", args)
                .await;
            noted = format!("{text}\n{note}");
            noted.trim()
        } else {
            text
        };
        if let Some(image) = image {
            let caption_fits = text.chars().count() + reserved <= CAPTION_LIMIT;
            let caption = Some(text)
                .filter(|text| caption_fits && (!text.is_empty() || mentioned))
                .map(|text| Formatted::new(text, html).with_mentions(&mention_html));
            let extras = Extras {
                html: caption.as_ref().is_some_and(|caption| caption.html),
                markup: markup.as_ref().filter(|_| caption_fits),
                reply_to: answering,
            };
            let caption = caption.as_ref().map(|caption| caption.text.as_str());
            let game = parcel
                .game_board
                .as_ref()
                .map(|(game, _)| game.as_str())
                .filter(|_| parcel.edit_board && caption_fits);
            if let Some(edited) = self.edit_board(chat, game, image, caption, extras).await {
                return Ok(Some(edited));
            }
            let sent = self.send_image(chat, image, caption, extras).await?;
            if let Some(game) = game {
                self.boards.edit_board_in(chat, game, sent);
            }
            if caption_fits {
                return Ok(Some(sent));
            }
            answering = None;
        }
        if text.is_empty() {
            return Ok(None);
        }
        let chunks = split_text(text, MESSAGE_LIMIT.saturating_sub(reserved).max(1));
        let last = chunks.len().saturating_sub(1);
        let mut inside_fence = false;
        let mut last_sent = None;
        for (index, chunk) in chunks.into_iter().enumerate() {
            let chunk_markup = markup.clone().filter(|_| index == last);
            let chunk = if html {
                let (mut converted, still_inside) = fenced_to_html(&chunk, inside_fence);
                inside_fence = still_inside;
                if index == last && mentioned {
                    converted = join_mentions(converted, &mention_html);
                }
                converted
            } else {
                chunk
            };
            let extras = Extras {
                html,
                markup: chunk_markup.as_ref(),
                reply_to: answering.filter(|_| index == 0),
            };
            let sent = with_retries(|| self.poster.send_message(chat, &chunk, extras)).await?;
            last_sent = Some(sent.id);
        }
        Ok(last_sent)
    }

    /// Edits the board message of `game` (when the chat keeps one) into
    /// `image` with `caption`; `None` when there is none yet, or it cannot
    /// be edited (gone, too old): a new message goes instead.
    async fn edit_board(
        &self,
        chat: ChatId,
        game: Option<&str>,
        image: &Image,
        caption: Option<&str>,
        extras: Extras<'_>,
    ) -> Option<MessageId> {
        let message = self.boards.edited_board(chat, game?)?;
        if is_gif(image) {
            return None;
        }
        let media = if self.boards_as_documents || !fits_as_photo(&image.bytes) {
            Media::Document
        } else {
            Media::Photo
        };
        let edited = with_retries(|| {
            self.poster
                .edit_media(media, chat, message, image, caption, extras)
        })
        .await;
        match edited {
            Ok(edited) => Some(edited.id),
            Err(error) => {
                tracing::debug!(
                    chat = chat.0,
                    error = describe(&error),
                    "a board could not be edited; it goes as a new message"
                );
                None
            }
        }
    }

    /// Sends `image` (a photo, an animation or a file) with `caption`.
    async fn send_image(
        &self,
        chat: ChatId,
        image: &Image,
        caption: Option<&str>,
        extras: Extras<'_>,
    ) -> Result<MessageId, RequestError> {
        let send = |media: Media| async move {
            with_retries(|| self.poster.send_media(media, chat, image, caption, extras))
                .await
                .map(|message| message.id)
        };
        if is_gif(image) {
            return send(Media::Animation).await;
        }
        if self.boards_as_documents || !fits_as_photo(&image.bytes) {
            return send(Media::Document).await;
        }
        match send(Media::Photo).await {
            // Telegram rejects some images as photos (odd sizes); a document always works.
            Err(RequestError::Api(error)) if !is_refusal(&RequestError::Api(error.clone())) => {
                tracing::warn!(
                    chat = chat.0,
                    "a board was refused as a photo; sending it as a file"
                );
                send(Media::Document).await
            }
            result => result,
        }
    }
}

/// A caption ready to send: plain, or converted to Telegram's HTML.
struct Formatted {
    text: String,
    html: bool,
}

impl Formatted {
    fn new(text: &str, html: bool) -> Self {
        Formatted {
            text: if html {
                fenced_to_html(text, false).0
            } else {
                text.to_owned()
            },
            html,
        }
    }

    /// The caption with `mentions` (HTML; the caption is HTML when there
    /// are any) at its end.
    fn with_mentions(mut self, mentions: &str) -> Self {
        if !mentions.is_empty() && self.html {
            self.text = join_mentions(self.text, mentions);
        }
        self
    }
}

/// `html` with the mention line `mentions` after it, on a line of its own.
fn join_mentions(html: String, mentions: &str) -> String {
    let html = html.trim_end().to_owned();
    if html.is_empty() {
        mentions.to_owned()
    } else {
        format!("{html}\n{mentions}")
    }
}

/// Converts text with ``` fences to Telegram HTML: fenced parts become
/// `<pre>` blocks, everything is escaped. `inside` says whether the text
/// starts inside a fence (a long message split in the middle of a block);
/// returns the HTML and whether it ends inside one.
fn fenced_to_html(text: &str, inside: bool) -> (String, bool) {
    let mut html = String::with_capacity(text.len() + 16);
    let mut inside = inside;
    if inside {
        html.push_str("<pre>");
    }
    for (index, part) in text.split("```").enumerate() {
        if index > 0 {
            html.push_str(if inside { "</pre>" } else { "<pre>" });
            inside = !inside;
        }
        // The line break right after an opening fence is not part of the block.
        let part = if inside && index > 0 {
            part.strip_prefix('\n').unwrap_or(part)
        } else {
            part
        };
        for c in part.chars() {
            match c {
                '&' => html.push_str("&amp;"),
                '<' => html.push_str("&lt;"),
                '>' => html.push_str("&gt;"),
                c => html.push(c),
            }
        }
    }
    if inside {
        html.push_str("</pre>");
    }
    (html, inside)
}

/// Calls `attempt` until it succeeds, retrying flood-control answers after the
/// time Telegram asks for, and network failures and Telegram's own (a 5xx)
/// with exponential backoff from [`FIRST_BACKOFF`].
async fn with_retries<T, F, Fut>(mut attempt: F) -> Result<T, RequestError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, RequestError>>,
{
    let mut backoff = FIRST_BACKOFF;
    let mut tries = 1;
    loop {
        match attempt().await {
            Ok(value) => return Ok(value),
            Err(RequestError::RetryAfter(wait)) if tries < ATTEMPTS => {
                tokio::time::sleep(wait.duration()).await;
            }
            Err(error) if is_transient(&error) && tries < ATTEMPTS => {
                tracing::warn!(error = describe(&error), tries, "retrying a Telegram call");
                tokio::time::sleep(backoff).await;
                backoff *= 2;
            }
            Err(error) => return Err(error),
        }
        tries += 1;
    }
}

/// Whether a failure may go away by trying again (the network, a proxy's error page).
fn is_transient(error: &RequestError) -> bool {
    matches!(
        error,
        RequestError::Network(_) | RequestError::Io(_) | RequestError::InvalidJson { .. }
    )
}

/// Whether the chat will not take messages from the bot: a private chat the
/// person never opened (Telegram answers 403 "bot can't initiate conversation
/// with a user"), a bot they blocked, a chat that does not exist for the bot.
pub(super) fn is_refusal(error: &RequestError) -> bool {
    match error {
        RequestError::Api(
            ApiError::CantInitiateConversation
            | ApiError::BotBlocked
            | ApiError::UserDeactivated
            | ApiError::CantTalkWithBots
            | ApiError::ChatNotFound,
        ) => true,
        RequestError::Api(ApiError::Unknown(description)) => description.starts_with("Forbidden"),
        _ => false,
    }
}

/// A log-safe description of an error: never the request or response body,
/// which may hold a private board's caption.
pub(super) fn describe(error: &RequestError) -> String {
    match error {
        RequestError::Api(api) => format!("Telegram refused: {api}"),
        RequestError::MigrateToChatId(_) => "the group became a supergroup".to_owned(),
        RequestError::RetryAfter(wait) => format!("flood control, retry after {wait:?}"),
        RequestError::Network(_) => "network failure".to_owned(),
        RequestError::InvalidJson { .. } => "an unreadable response".to_owned(),
        RequestError::Io(_) => match posting::server_status(error) {
            Some(status) => format!("Telegram failed (HTTP {status})"),
            None => "an I/O failure".to_owned(),
        },
    }
}

/// Whether Telegram takes the image as a photo: at most 10 MB, width plus
/// height at most 10000, sides at most 20 to 1 (a PNG's size is in its header).
fn fits_as_photo(bytes: &[u8]) -> bool {
    let number = |at: usize| -> Option<u32> {
        let four: [u8; 4] = bytes.get(at..at + 4)?.try_into().ok()?;
        Some(u32::from_be_bytes(four))
    };
    let size = bytes
        .starts_with(b"\x89PNG\r\n\x1a\n")
        .then(|| Some((number(16)?, number(20)?)))
        .flatten();
    // Only images go as photos (a record goes as a file).
    bytes.len() <= PHOTO_BYTES_LIMIT
        && size.is_some_and(|(width, height)| {
            let (long, short) = (width.max(height), width.min(height).max(1));
            width.saturating_add(height) <= PHOTO_SIDES_LIMIT && long / short <= 20
        })
}

fn is_gif(image: &Image) -> bool {
    image.bytes.starts_with(b"GIF8") || image.file_name.to_lowercase().ends_with(".gif")
}

/// Lays buttons out in rows (three short labels or two long ones per row), then
/// the URL button on its own row. Buttons Telegram would reject (no label,
/// data empty or over 64 bytes) are left out rather than failing the whole
/// message.
fn keyboard(buttons: &[Button], link: Option<&Link>) -> Option<InlineKeyboardMarkup> {
    let usable: Vec<&Button> = buttons
        .iter()
        .filter(|button| {
            let fits = !button.data.is_empty()
                && button.data.len() <= CALLBACK_DATA_LIMIT
                && !button.label.trim().is_empty();
            if !fits {
                tracing::warn!(
                    bytes = button.data.len(),
                    "a button without a label, or whose data does not fit Telegram's 64 bytes, \
                     was left out"
                );
            }
            fits
        })
        .collect();
    let per_row = if usable
        .iter()
        .all(|button| button.label.chars().count() <= 12)
    {
        3
    } else {
        2
    };
    let mut rows: Vec<Vec<InlineKeyboardButton>> = usable
        .chunks(per_row)
        .map(|row| {
            row.iter()
                .map(|button| {
                    InlineKeyboardButton::callback(button.label.clone(), button.data.clone())
                })
                .collect()
        })
        .collect();
    if let Some(link) = link {
        rows.push(vec![InlineKeyboardButton::url(
            link.label.clone(),
            link.url.clone(),
        )]);
    }
    (!rows.is_empty()).then(|| InlineKeyboardMarkup::new(rows))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_text_is_split_at_line_ends_within_the_limit() {
        let text = "aaaa\nbbbb\ncccc\n";
        assert_eq!(split_text(text, 10), vec!["aaaa\nbbbb\n", "cccc\n"]);
        let long = "x".repeat(25);
        let pieces = split_text(&long, 10);
        assert_eq!(pieces.len(), 3);
        assert!(pieces.iter().all(|piece| piece.chars().count() <= 10));
        assert_eq!(pieces.concat(), long);
    }

    #[test]
    fn fenced_boards_become_pre_blocks_and_the_rest_is_escaped() {
        let (html, inside) = fenced_to_html("a <b> & c\n```\n r n\n . .\n```\nend", false);
        assert_eq!(html, "a &lt;b&gt; &amp; c\n<pre> r n\n . .\n</pre>\nend");
        assert!(!inside);
        let (first, inside) = fenced_to_html("x\n```\n r n\n", false);
        assert_eq!(first, "x\n<pre> r n\n</pre>");
        assert!(inside);
        let (second, inside) = fenced_to_html(" . .\n```\ny", inside);
        assert_eq!(second, "<pre> . .\n</pre>\ny");
        assert!(!inside);
    }

    #[test]
    fn buttons_with_oversized_data_are_left_out() {
        let buttons = vec![
            Button {
                label: "Accept".into(),
                data: "acc:1".into(),
            },
            Button {
                label: "Too long".into(),
                data: "x".repeat(65),
            },
        ];
        let markup = keyboard(&buttons, None).expect("one usable button");
        assert_eq!(markup.inline_keyboard.len(), 1);
        assert_eq!(markup.inline_keyboard[0].len(), 1);
        assert!(keyboard(&buttons[1..], None).is_none());
    }

    #[test]
    fn mentions_are_escaped_links_or_usernames_after_the_text() {
        let dave = Mention::User {
            id: 44,
            name: "Dave <D&D>".into(),
        };
        assert_eq!(
            dave.html(),
            "<a href=\"tg://user?id=44\">Dave &lt;D&amp;D&gt;</a>"
        );
        assert_eq!(Mention::Username("alice".into()).html(), "@alice");
        let nameless = Mention::User {
            id: 7,
            name: " ".into(),
        };
        assert!(
            nameless.html().contains(">👤</a>"),
            "a link shows something"
        );
        assert!(!Mention::valid_username("al ice") && !Mention::valid_username(""));
        let (plain, html) = mention_line(&[dave, Mention::Username("bob_2".into())]);
        assert_eq!(plain, "Dave <D&D> @bob_2");
        assert!(html.ends_with(" @bob_2"));
        assert_eq!(
            join_mentions("a &lt;b&gt;\n".into(), "@bob"),
            "a &lt;b&gt;\n@bob"
        );
        assert_eq!(join_mentions(String::new(), "@bob"), "@bob");
    }

    #[test]
    fn an_empty_message_cannot_be_made() {
        let button = Button {
            label: "Accept".into(),
            data: "acc:1".into(),
        };
        assert!(Parcel::new(String::new(), None, Vec::new()).is_none());
        assert!(Parcel::new(" \n".into(), None, vec![button]).is_none());
        let image = Image {
            file_name: "board.png".into(),
            bytes: vec![1],
        };
        assert!(Parcel::new(String::new(), Some(image), Vec::new()).is_some());
        assert!(Parcel::new("e4".into(), None, Vec::new()).is_some());
    }

    #[test]
    fn photos_beyond_telegrams_limits_are_not_photos() {
        let png = |width: u32, height: u32, size: usize| {
            let mut bytes = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
            bytes.extend(width.to_be_bytes());
            bytes.extend(height.to_be_bytes());
            bytes.resize(size, 0);
            bytes
        };
        assert!(fits_as_photo(&png(640, 640, 100)));
        assert!(!fits_as_photo(&png(640, 640, PHOTO_BYTES_LIMIT + 1)));
        assert!(!fits_as_photo(&png(6000, 4001, 100)));
        assert!(!fits_as_photo(&png(4200, 200, 100)));
        assert!(!fits_as_photo(b"[Event \"Casual game\"]"), "a PGN file");
    }

    #[test]
    fn real_telegram_403_is_a_refusal() {
        let error = RequestError::Api(ApiError::Unknown(
            "Forbidden: bot can't initiate conversation with a user".into(),
        ));
        assert!(is_refusal(&error));
        assert!(!is_refusal(&RequestError::Api(
            ApiError::MessageTextIsEmpty
        )));
    }
}
