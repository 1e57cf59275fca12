//! Sending the service's deliveries as Discord messages: channel messages,
//! DMs with the "show my board" fallback, and ephemeral interaction replies.
//!
//! Every Discord error is logged (without message contents, which may be
//! private) and, where someone is waiting for an answer, turned into a short
//! message for them. Nothing here panics on what Discord answers.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use poise::serenity_prelude as serenity;
use serenity::{
    Builder, ChannelId, CreateActionRow, CreateAllowedMentions, CreateAttachment, CreateButton,
    CreateInteractionResponseFollowup, CreateMessage, EditInteractionResponse, Http, MessageId,
    UserId,
};

use super::retry::{retrying, Repeat};
use super::texts;
use crate::api::{
    split_text, Button, ButtonAction, Delivery, Handler, Image, Reader, Target, TurnCard, UserRef,
};

/// The custom id of the "show my board" button of versions before
/// [`ButtonAction::Board`]: still answered, for notices posted before.
pub(crate) const OLD_SHOW_BOARD_BUTTON: &str = "kodex:board";

/// Discord's limit on message content, in characters.
const MAX_CONTENT_CHARS: usize = 2000;
/// Discord's limits on buttons: per row, rows per message, label length, custom id length.
const BUTTONS_PER_ROW: usize = 5;
const MAX_ROWS: usize = 5;
const MAX_LABEL_CHARS: usize = 80;
const MAX_CUSTOM_ID_CHARS: usize = 100;
/// Discord's JSON error codes for a refused DM: "Cannot send messages to
/// this user" (closed DMs, a blocked bot) and "… due to having no mutual
/// guilds" (the person left every server the bot is in).
const DM_REFUSED_CODES: [isize; 2] = [50007, 50278];

/// What the adapter remembers about users while it runs (lost on restart,
/// and nothing depends on it surviving one).
#[derive(Default)]
pub(crate) struct SharedState {
    /// Each user's DM channel, so that a private delivery costs one request.
    dm_channels: Mutex<HashMap<UserId, ChannelId>>,
    /// The last guild channel each user used the bot in: where to offer the
    /// "show my board" button when a DM from the outbox is refused.
    last_public_channel: Mutex<HashMap<UserId, ChannelId>>,
    /// Each user's Discord locale, for the adapter's own texts.
    locales: Mutex<HashMap<UserId, String>>,
    /// The board carrying each game's buttons (draw, resign, …), per
    /// channel and game, with the buttons of its own it keeps when they
    /// move on (Watch, Rematch): only the latest board keeps them.
    game_boards: Mutex<HashMap<(ChannelId, String), GameBoard>>,
    /// Users who refused a DM lately: each refused DM counts toward
    /// Discord's invalid-request limit, so their DMs wait a while, and the
    /// channel is told once per game.
    dm_refusals: Mutex<HashMap<UserId, DmRefusal>>,
}

/// How long DMs to a user who refused one are not tried again.
const DM_RETRY_AFTER: std::time::Duration = std::time::Duration::from_secs(10 * 60);

/// A user's refused DMs.
struct DmRefusal {
    /// When the last DM was refused.
    at: std::time::Instant,
    /// The games the channel was told about (`""`: deliveries of no game).
    told: std::collections::HashSet<String>,
}

/// The board carrying a game's buttons, and the buttons of its own.
type GameBoard = (MessageId, Vec<Button>);

impl SharedState {
    /// Remembers where and in which language a user last used the bot.
    pub(crate) fn saw(
        &self,
        user: UserId,
        public_channel: Option<ChannelId>,
        locale: Option<&str>,
    ) {
        if let Some(channel) = public_channel {
            lock(&self.last_public_channel).insert(user, channel);
        }
        if let Some(locale) = locale {
            lock(&self.locales).insert(user, locale.to_string());
        }
    }

    fn locale_of(&self, user: UserId) -> Option<String> {
        lock(&self.locales).get(&user).cloned()
    }

    /// Whether `message` in `channel` carries a game's buttons now: a press
    /// on it settles nothing about the message itself, so they stay.
    pub(crate) fn is_game_board(&self, channel: ChannelId, message: MessageId) -> bool {
        lock(&self.game_boards)
            .iter()
            .any(|((in_channel, _), (board, _))| *in_channel == channel && *board == message)
    }

    /// Whether DMs to `user` were refused lately (then none is tried).
    fn dm_refused_lately(&self, user: UserId) -> bool {
        lock(&self.dm_refusals)
            .get(&user)
            .is_some_and(|refusal| refusal.at.elapsed() < DM_RETRY_AFTER)
    }

    /// A DM to `user` was refused now, or went through (`refused` false).
    fn dm_answered(&self, user: UserId, refused: bool) {
        let mut refusals = lock(&self.dm_refusals);
        if refused {
            refusals
                .entry(user)
                .or_insert_with(|| DmRefusal {
                    at: std::time::Instant::now(),
                    told: Default::default(),
                })
                .at = std::time::Instant::now();
        } else {
            refusals.remove(&user);
        }
    }

    /// Whether the channel is still to be told that `user` gets no DMs for
    /// `game`; from now on it counts as told.
    fn first_dm_notice(&self, user: UserId, game: &str) -> bool {
        lock(&self.dm_refusals)
            .get_mut(&user)
            .is_some_and(|refusal| refusal.told.insert(game.to_owned()))
    }

    /// Whether `channel` is a DM channel with someone: nobody needs a ping there.
    fn is_dm_channel(&self, channel: ChannelId) -> bool {
        lock(&self.dm_channels).values().any(|dm| *dm == channel)
    }
}

/// Locks a map; a panic elsewhere while holding it leaves a usable map.
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// What caused the deliveries, which decides how some of them are sent.
pub(crate) enum Origin {
    /// The service's outbox: nobody is waiting for an answer.
    Outbox,
    /// A message typed in a channel or a DM (or an interaction that could not
    /// be acknowledged).
    Message {
        /// Where it was typed.
        channel: ChannelId,
        /// Whether that is a DM with the bot.
        private: bool,
        /// The message, when it was one.
        message: Option<MessageId>,
    },
    /// A slash command or a button press that was acknowledged.
    Interaction(InteractionOrigin),
}

/// An acknowledged interaction, answerable with ephemeral messages.
pub(crate) struct InteractionOrigin {
    /// The interaction token (valid 15 minutes).
    pub(crate) token: String,
    /// The channel it was used in.
    pub(crate) channel: ChannelId,
    /// Whether that channel is a DM with the bot.
    pub(crate) private: bool,
    /// Who used it.
    pub(crate) actor: UserId,
    /// Their Discord locale.
    pub(crate) locale: String,
    /// A slash command deferred ephemerally whose "thinking…" response has
    /// not been replaced yet: the first ephemeral answer replaces it, and it
    /// is deleted when there is none.
    pub(crate) thinking: bool,
    /// Whether something reached the user by DM while answering, so that
    /// the "thinking…" response can point there instead of vanishing.
    pub(crate) answered_by_dm: bool,
}

impl InteractionOrigin {
    /// One of the adapter's own texts for the interaction's user only.
    fn note(&self, text: &str) -> Delivery {
        let actor = UserRef {
            platform: crate::api::Platform::Discord,
            id: self.actor.to_string(),
            // Not needed to send.
            name: String::new(),
            handle: None,
        };
        text_only(Target::Ephemeral(actor), text.to_string())
    }
}

impl InteractionOrigin {
    /// The interaction's user, as the reader of the adapter's own texts.
    fn reader(&self) -> Reader {
        texts::person(self.actor, Some(&self.locale))
    }
}

impl Origin {
    fn public_channel(&self) -> Option<ChannelId> {
        match self {
            Origin::Outbox => None,
            Origin::Message {
                channel, private, ..
            } => (!private).then_some(*channel),
            Origin::Interaction(interaction) => {
                (!interaction.private).then_some(interaction.channel)
            }
        }
    }

    /// The interaction, if it was used by this user.
    fn interaction_of(&mut self, user: UserId) -> Option<&mut InteractionOrigin> {
        match self {
            Origin::Interaction(interaction) if interaction.actor == user => Some(interaction),
            _ => None,
        }
    }
}

/// Sends deliveries through Discord's REST API.
#[derive(Clone)]
pub(crate) struct Deliverer {
    http: Arc<Http>,
    state: Arc<SharedState>,
    /// Where the adapter's own texts come from.
    handler: Arc<dyn Handler>,
}

impl Deliverer {
    /// A deliverer using this HTTP client.
    pub(crate) fn new(
        http: Arc<Http>,
        state: Arc<SharedState>,
        handler: Arc<dyn Handler>,
    ) -> Deliverer {
        Deliverer {
            http,
            state,
            handler,
        }
    }

    /// The adapter's own text `key` for `reader`.
    async fn say(&self, reader: Reader, key: &'static str) -> String {
        texts::say(self.handler.as_ref(), reader, key).await
    }

    /// The note added where `delivery`'s image is larger than Discord
    /// takes, in `reader`'s language; empty when it fits.
    async fn oversized_note(&self, delivery: &Delivery, reader: Reader) -> String {
        let limit = crate::api::Platform::Discord.file_size_limit();
        if delivery
            .image
            .as_ref()
            .is_none_or(|image| image.bytes.len() <= limit)
        {
            return String::new();
        }
        let args = vec![("platform", "Discord".to_owned())];
        self.handler
            .text(reader, "adapter-file-too-large", args)
            .await
    }

    /// The state shared with the event handlers.
    pub(crate) fn state(&self) -> &SharedState {
        &self.state
    }

    /// The HTTP client.
    pub(crate) fn http(&self) -> &Arc<Http> {
        &self.http
    }

    /// Sends the deliveries in order, then closes a slash command's
    /// "thinking…" response if nothing replaced it.
    pub(crate) async fn deliver(&self, deliveries: Vec<Delivery>, origin: &mut Origin) {
        for delivery in deliveries {
            match &delivery.target {
                Target::Chat(chat) => {
                    let Some(channel) = parse_id(&chat.id).map(ChannelId::new) else {
                        tracing::warn!("delivery to a chat with a malformed Discord id");
                        continue;
                    };
                    let reader = Reader::Chat(chat.clone());
                    if let Err(error) = self.send_to_channel(channel, &delivery, reader).await {
                        tracing::warn!("posting in channel {channel} failed: {error}");
                        self.report_failure(origin).await;
                    }
                }
                Target::Private(user) => self.send_private(user, &delivery, origin).await,
                Target::DeleteRequest(_) => self.delete_request(origin).await,
                Target::Ephemeral(user) => {
                    let Some(user_id) = parse_id(&user.id).map(UserId::new) else {
                        tracing::warn!("ephemeral delivery to a malformed Discord user id");
                        continue;
                    };
                    match origin.interaction_of(user_id) {
                        Some(interaction) => self.send_ephemeral(interaction, &delivery).await,
                        // No interaction to answer: a DM is the private equivalent.
                        None => self.send_private(user, &delivery, origin).await,
                    }
                }
            }
        }
        if let Origin::Interaction(interaction) = origin {
            if interaction.thinking && interaction.answered_by_dm {
                let text = self.say(interaction.reader(), "adapter-sent-by-dm").await;
                let pointer = interaction.note(&text);
                self.send_ephemeral(interaction, &pointer).await;
            } else if interaction.thinking {
                interaction.thinking = false;
                if let Err(error) = self
                    .http
                    .delete_original_interaction_response(&interaction.token)
                    .await
                {
                    tracing::warn!("closing an interaction response failed: {error}");
                }
            }
        }
    }

    /// Deletes the message a request came from, in a server channel, where
    /// the bot has Manage Messages; without it Discord refuses (50013) and
    /// the message stays, which is only logged.
    async fn delete_request(&self, origin: &Origin) {
        let Origin::Message {
            channel,
            private: false,
            message: Some(message),
        } = origin
        else {
            return;
        };
        if let Err(error) = self
            .http
            .delete_message(
                *channel,
                *message,
                Some("a hidden game's move said in public"),
            )
            .await
        {
            tracing::debug!("could not delete a move said in public: {error}");
        }
    }

    /// Posts a delivery in a channel (a guild channel, thread or DM channel).
    async fn send_to_channel(
        &self,
        channel: ChannelId,
        delivery: &Delivery,
        reader: Reader,
    ) -> Result<(), serenity::Error> {
        let oversized = self.oversized_note(delivery, reader).await;
        // Those the message asks to act are pinged, and nobody else: the
        // allowed mentions name exactly them (never everyone, never a role).
        let pinged = if self.state.is_dm_channel(channel) {
            Vec::new()
        } else {
            pinged_users(&delivery.notify)
        };
        let mention_line = mention_line(&pinged);
        let allowed = || CreateAllowedMentions::new().users(pinged.iter().copied());
        if let Some((game, card)) = delivery
            .game
            .as_ref()
            .and_then(|game| Some((game, game.turn.as_ref()?)))
        {
            let (embed, file) = turn_embed(card, delivery.image.as_ref(), &oversized);
            // The game's buttons first, then the message's own (Watch, Rematch).
            let mut buttons = card.buttons.clone();
            buttons.extend(delivery.buttons.iter().cloned());
            let mut message = CreateMessage::new()
                .embed(embed)
                .allowed_mentions(allowed())
                .components(button_rows(&buttons));
            if !mention_line.is_empty() {
                message = message.content(mention_line.clone());
            }
            if let Some(file) = file {
                message = message.add_file(file);
            }
            let sent = super::retry::send_message(&self.http, channel, message).await?;
            let keyed = !card.buttons.is_empty() && !game.over;
            self.moved_game_buttons(channel, &game.id, keyed.then_some(sent.id), delivery)
                .await;
            return Ok(());
        }
        let mut first = true;
        for part in parts(delivery, &oversized, mention_line.chars().count()) {
            let text = if first && !mention_line.is_empty() {
                format!("{mention_line}\n{}", part.text)
            } else {
                part.text
            };
            let mut message = CreateMessage::new()
                .content(text)
                .allowed_mentions(if first {
                    allowed()
                } else {
                    CreateAllowedMentions::new()
                })
                .components(part.rows);
            first = false;
            if let Some(file) = part.file {
                message = message.add_file(file);
            }
            super::retry::send_message(&self.http, channel, message).await?;
        }
        if let Some(game) = delivery.game.as_ref().filter(|game| game.over) {
            // The game is over: no board keeps its buttons.
            self.moved_game_buttons(channel, &game.id, None, delivery)
                .await;
        }
        Ok(())
    }

    /// A board of `game` was posted in `channel` (as `board` when it carries
    /// the game's buttons; `None` when it does not, or the game is over):
    /// the board that carried them before loses them, keeping its own.
    async fn moved_game_buttons(
        &self,
        channel: ChannelId,
        game: &str,
        board: Option<MessageId>,
        delivery: &Delivery,
    ) {
        let key = (channel, game.to_owned());
        let previous = {
            let mut boards = lock(&self.state.game_boards);
            match board {
                Some(board) => boards.insert(key, (board, delivery.buttons.clone())),
                None => boards.remove(&key),
            }
        };
        let Some((previous, own)) = previous.filter(|(previous, _)| Some(*previous) != board)
        else {
            return;
        };
        // Only cosmetic (the service refuses a stale press anyway): a
        // failure is logged.
        let edit = serenity::EditMessage::new().components(button_rows(&own));
        let edited = retrying("removing a board's buttons", Repeat::Always, || {
            channel.edit_message(&self.http, previous, edit.clone())
        })
        .await;
        if let Err(error) = edited {
            tracing::warn!("removing the buttons of an older board failed: {error}");
        }
    }

    /// Sends a delivery to one person by DM. When Discord refuses, the person
    /// gets it ephemerally if they are the one who used the interaction, or
    /// else a channel notice with a "show my board" button.
    async fn send_private(&self, user: &UserRef, delivery: &Delivery, origin: &mut Origin) {
        let Some(user_id) = parse_id(&user.id).map(UserId::new) else {
            tracing::warn!("private delivery to a malformed Discord user id");
            return;
        };
        // A user who refused a DM lately is not asked again yet.
        if !self.state.dm_refused_lately(user_id) {
            let reader = texts::person(user_id, self.state.locale_of(user_id).as_deref());
            let sent = match self.dm_channel(user_id).await {
                Ok(channel) => self.send_to_channel(channel, delivery, reader).await,
                Err(error) => Err(error),
            };
            match sent {
                Ok(()) => {
                    self.state.dm_answered(user_id, false);
                    if let Some(interaction) = origin.interaction_of(user_id) {
                        interaction.answered_by_dm = true;
                    }
                    return;
                }
                Err(error) if is_dm_refused(&error) => {
                    tracing::info!("user {user_id} does not accept direct messages");
                    self.state.dm_answered(user_id, true);
                }
                Err(error) => {
                    // Not a refusal: the DM may work next time; do not spam the channel.
                    tracing::warn!("direct message to user {user_id} failed: {error}");
                    return;
                }
            }
        }
        if let Some(interaction) = origin.interaction_of(user_id) {
            self.send_ephemeral(interaction, delivery).await;
            return;
        }
        // The channel hears of it once per game.
        let game = delivery.game.as_ref().map_or("", |game| game.id.as_str());
        if !self.state.first_dm_notice(user_id, game) {
            tracing::debug!("user {user_id} was told already that their DMs are refused");
            return;
        }
        let channel = origin
            .public_channel()
            .or_else(|| lock(&self.state.last_public_channel).get(&user_id).copied());
        let Some(channel) = channel else {
            tracing::warn!("no channel to tell user {user_id} that a direct message failed");
            return;
        };
        // Posted in the channel: in the channel's language.
        let reader = texts::channel(channel);
        let text = self
            .handler
            .text(
                reader.clone(),
                "adapter-dm-refused",
                vec![("mention", format!("<@{user_id}>"))],
            )
            .await;
        let label = self.say(reader, "adapter-show-my-board").await;
        let notice = CreateMessage::new()
            .content(text)
            .allowed_mentions(CreateAllowedMentions::new().users([user_id]))
            .components(vec![CreateActionRow::Buttons(vec![CreateButton::new(
                ButtonAction::Board { game: None }.encode(),
            )
            .label(label)])]);
        if let Err(error) = super::retry::send_message(&self.http, channel, notice).await {
            tracing::warn!("posting the direct-message notice in {channel} failed: {error}");
        }
    }

    /// The DM channel with a user, created on first use.
    async fn dm_channel(&self, user: UserId) -> Result<ChannelId, serenity::Error> {
        if let Some(channel) = lock(&self.state.dm_channels).get(&user) {
            return Ok(*channel);
        }
        let channel = retrying("opening a DM channel", Repeat::Always, || {
            user.create_dm_channel(&self.http)
        })
        .await?
        .id;
        lock(&self.state.dm_channels).insert(user, channel);
        Ok(channel)
    }

    /// Answers an interaction with a message only its user sees.
    pub(crate) async fn send_ephemeral(
        &self,
        interaction: &mut InteractionOrigin,
        delivery: &Delivery,
    ) {
        let oversized = self.oversized_note(delivery, interaction.reader()).await;
        for part in parts(delivery, &oversized, 0) {
            let result = if interaction.thinking {
                interaction.thinking = false;
                let mut edit = EditInteractionResponse::new()
                    .content(part.text)
                    .allowed_mentions(CreateAllowedMentions::new())
                    .components(part.rows);
                if let Some(file) = part.file {
                    edit = edit.new_attachment(file);
                }
                retrying("editing an interaction's answer", Repeat::Always, || {
                    edit.clone().execute(&self.http, &interaction.token)
                })
                .await
            } else {
                let mut followup = CreateInteractionResponseFollowup::new()
                    .ephemeral(true)
                    .content(part.text)
                    .allowed_mentions(CreateAllowedMentions::new())
                    .components(part.rows);
                if let Some(file) = part.file {
                    followup = followup.add_file(file);
                }
                retrying(
                    "following up an interaction",
                    Repeat::OnlyRateLimited,
                    || {
                        followup
                            .clone()
                            .execute(&self.http, (None, &interaction.token))
                    },
                )
                .await
            };
            if let Err(error) = result {
                tracing::warn!("answering an interaction failed: {error}");
                return;
            }
        }
    }

    /// Tells the person waiting for an answer that Discord rejected a message.
    async fn report_failure(&self, origin: &mut Origin) {
        if let Origin::Interaction(interaction) = origin {
            let text = self.say(interaction.reader(), "adapter-send-failed").await;
            let notice = interaction.note(&text);
            self.send_ephemeral(interaction, &notice).await;
        }
    }
}

/// A delivery of text alone: the adapter's own short notes.
pub(crate) fn text_only(target: Target, text: String) -> Delivery {
    Delivery {
        notify: Vec::new(),
        target,
        text,
        image: None,
        buttons: Vec::new(),
        game: None,
    }
}

/// Parses a Discord snowflake; `None` for anything else (ids come from the
/// service, which got them from us, but a bad one must not panic).
pub(crate) fn parse_id(id: &str) -> Option<u64> {
    id.parse::<u64>().ok().filter(|id| *id != 0)
}

/// Whether Discord refused a DM: closed DMs, a blocked bot, no shared server.
fn is_dm_refused(error: &serenity::Error) -> bool {
    matches!(
        error,
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(response))
            if DM_REFUSED_CODES.contains(&response.error.code)
    )
}

/// One Discord message of a delivery.
struct Part {
    text: String,
    file: Option<CreateAttachment>,
    rows: Vec<CreateActionRow>,
}

/// Splits a delivery into messages within Discord's limits: long text is cut
/// at line ends, the image and the buttons go with the last message. An
/// image larger than Discord takes is left out and the text says so (in
/// `oversized`). Nothing at all (no text, image or buttons) makes no message:
/// Discord refuses empty ones (50006).
fn parts(delivery: &Delivery, oversized: &str, reserved: usize) -> Vec<Part> {
    let limit = crate::api::Platform::Discord.file_size_limit();
    let image = delivery
        .image
        .as_ref()
        .filter(|image| image.bytes.len() <= limit);
    let mut text = delivery.text.clone();
    if image.is_none() && delivery.image.is_some() {
        tracing::error!("an image is larger than Discord accepts; sending the text alone");
        text = format!("{}\n{oversized}", text.trim_end());
    }
    // `reserved` characters (and a line break) of the first message are
    // the mentions that go before it.
    let limit = match reserved {
        0 => MAX_CONTENT_CHARS,
        reserved => MAX_CONTENT_CHARS.saturating_sub(reserved + 1).max(1),
    };
    let mut chunks = split_text(&text, limit);
    if chunks.is_empty() {
        if image.is_none() && delivery.buttons.is_empty() {
            return Vec::new();
        }
        chunks.push(String::new());
    }
    let last = chunks.len() - 1;
    chunks
        .into_iter()
        .enumerate()
        .map(|(index, text)| {
            let is_last = index == last;
            Part {
                text,
                file: image
                    .filter(|_| is_last)
                    .map(|image| CreateAttachment::bytes(image.bytes.clone(), &image.file_name)),
                rows: if is_last {
                    button_rows(&delivery.buttons)
                } else {
                    Vec::new()
                },
            }
        })
        .collect()
}

/// Discord's limit on the users one message may ping (allowed mentions).
const MAX_PINGED_USERS: usize = 100;

/// The Discord users among `people` (ids that parse; each once, at most
/// [`MAX_PINGED_USERS`]).
fn pinged_users(people: &[UserRef]) -> Vec<UserId> {
    let mut users: Vec<UserId> = Vec::new();
    for person in people {
        if person.platform != crate::api::Platform::Discord {
            continue;
        }
        if let Some(user) = parse_id(&person.id).map(UserId::new) {
            if !users.contains(&user) && users.len() < MAX_PINGED_USERS {
                users.push(user);
            }
        }
    }
    users
}

/// `<@1> <@2>`: the mentions that ping `users`.
fn mention_line(users: &[UserId]) -> String {
    users
        .iter()
        .map(|user| format!("<@{user}>"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Discord's limits on an embed (characters): all texts together, the
/// title, the description, a field's name and value; and its fields.
const EMBED_TOTAL_CHARS: usize = 6000;
const EMBED_TITLE_CHARS: usize = 256;
const EMBED_DESCRIPTION_CHARS: usize = 4096;
const EMBED_FIELD_NAME_CHARS: usize = 256;
const EMBED_FIELD_VALUE_CHARS: usize = 1024;
const EMBED_FIELDS: usize = 25;

/// A turn as one embed: the title, what happened and whose turn it is, a
/// field per clock (a live countdown `<t:…:R>` for the running one, the time
/// left for the others) and the board inside, attached to the same message
/// (`attachment://<file>`). Every part is cut to Discord's limits; a board
/// larger than Discord takes is left out and the description says so.
fn turn_embed(
    card: &TurnCard,
    image: Option<&Image>,
    oversized: &str,
) -> (serenity::CreateEmbed, Option<CreateAttachment>) {
    let limit = crate::api::Platform::Discord.file_size_limit();
    let file = image.filter(|image| image.bytes.len() <= limit);
    let fields: Vec<(String, String)> = card
        .clocks
        .iter()
        .take(EMBED_FIELDS)
        .map(|clock| {
            let name = if clock.player.trim().is_empty() {
                "⏱".to_owned()
            } else {
                format!("⏱ {}", clock.player)
            };
            let value = match clock.deadline {
                Some(deadline) => format!("<t:{}:R>", deadline.div_euclid(1000)),
                None => clock.remaining.clone(),
            };
            (
                clip(&name, EMBED_FIELD_NAME_CHARS),
                clip(&value, EMBED_FIELD_VALUE_CHARS),
            )
        })
        .collect();
    let title = clip(&card.title, EMBED_TITLE_CHARS);
    let mut description: Vec<&str> = card.events.iter().map(String::as_str).collect();
    description.push(&card.status);
    if image.is_some() && file.is_none() {
        tracing::error!("an image is larger than Discord accepts; sending the embed without it");
        description.push(oversized);
    }
    let description = description.join("\n");
    // The clocks take what the title and (up to a point) the news leave.
    let reserved = description.chars().count().min(EMBED_TOTAL_CHARS / 4);
    let mut used = title.chars().count() + reserved;
    let fields: Vec<(String, String)> = fields
        .into_iter()
        .take_while(|(name, value)| {
            used += name.chars().count() + value.chars().count();
            used <= EMBED_TOTAL_CHARS
        })
        .collect();
    let used: usize = title.chars().count()
        + fields
            .iter()
            .map(|(name, value)| name.chars().count() + value.chars().count())
            .sum::<usize>();
    let room = EMBED_DESCRIPTION_CHARS.min(EMBED_TOTAL_CHARS.saturating_sub(used));
    let description = clip(description.trim(), room);
    let mut embed = serenity::CreateEmbed::new()
        .title(title)
        .description(description)
        .colour(serenity::Colour::new(0x769656));
    for (name, value) in fields {
        embed = embed.field(name, value, true);
    }
    let attachment = file.map(|image| {
        let name = attachment_name(&image.file_name);
        embed = embed.clone().image(format!("attachment://{name}"));
        CreateAttachment::bytes(image.bytes.clone(), name)
    });
    (embed, attachment)
}

/// A file name `attachment://` can refer to: Discord keeps only letters,
/// digits, `-`, `_` and `.` of an uploaded file's name.
fn attachment_name(name: &str) -> String {
    let kept: String = name
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        .collect();
    if kept.trim_matches('.').is_empty() {
        "board.png".to_owned()
    } else {
        kept
    }
}

/// `text` cut to at most `limit` characters, marked with `…` where cut.
fn clip(text: &str, limit: usize) -> String {
    if text.chars().count() <= limit {
        return text.to_owned();
    }
    let mut clipped: String = text.chars().take(limit.saturating_sub(1)).collect();
    if limit > 0 {
        clipped.push('…');
    }
    clipped
}

/// The service's buttons as Discord action rows (5 per row, at most 5 rows).
/// Discord refuses the whole message for one bad button, so a button it
/// would refuse is left out (and logged): an empty label or custom id, a
/// custom id over 100 characters, or one already used in the message.
fn button_rows(buttons: &[Button]) -> Vec<CreateActionRow> {
    let mut seen = std::collections::HashSet::new();
    let usable: Vec<CreateButton> = buttons
        .iter()
        .filter(|button| {
            let fits = !button.data.is_empty()
                && button.data.chars().count() <= MAX_CUSTOM_ID_CHARS
                && !button.label.trim().is_empty();
            if !fits {
                tracing::warn!("dropping a button Discord would refuse (label or custom id)");
            }
            fits && seen.insert(button.data.as_str())
        })
        .take(BUTTONS_PER_ROW * MAX_ROWS)
        .enumerate()
        .map(|(index, button)| {
            let label: String = button.label.chars().take(MAX_LABEL_CHARS).collect();
            let dangerous =
                ButtonAction::decode(&button.data).is_some_and(|action| action.is_irreversible());
            let style = if dangerous {
                serenity::ButtonStyle::Danger
            } else if index == 0 {
                serenity::ButtonStyle::Primary
            } else {
                serenity::ButtonStyle::Secondary
            };
            CreateButton::new(button.data.clone())
                .label(label)
                .style(style)
        })
        .collect();
    usable
        .chunks(BUTTONS_PER_ROW)
        .map(|row| CreateActionRow::Buttons(row.to_vec()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_text_is_split_at_line_ends_within_the_limit() {
        let text = "a".repeat(1500) + "\n" + &"b".repeat(1500) + "\n";
        let chunks = split_text(&text, 2000);
        assert_eq!(chunks.len(), 2);
        assert!(chunks[0].starts_with('a') && chunks[1].starts_with('b'));
    }

    #[test]
    fn a_line_longer_than_the_limit_is_cut_on_characters() {
        let chunks = split_text(&"я".repeat(4500), 2000);
        assert_eq!(
            chunks.iter().map(|c| c.chars().count()).collect::<Vec<_>>(),
            [2000, 2000, 500]
        );
    }

    #[test]
    fn buttons_discord_would_refuse_are_left_out() {
        let button = |label: &str, data: &str| Button {
            label: label.into(),
            data: data.into(),
        };
        let rows = button_rows(&[
            button("Accept", "acc:1"),
            button("Accept again", "acc:1"),
            button("", "dec:1"),
            button("Long", &"x".repeat(101)),
            button("Decline", "dec:1"),
        ]);
        assert_eq!(rows.len(), 1);
        let CreateActionRow::Buttons(buttons) = &rows[0] else {
            panic!("a row of buttons");
        };
        assert_eq!(buttons.len(), 2);
    }

    #[test]
    fn buttons_fill_rows_of_five() {
        let buttons: Vec<Button> = (0..7)
            .map(|i| Button {
                label: format!("b{i}"),
                data: format!("d:{i}"),
            })
            .collect();
        assert_eq!(button_rows(&buttons).len(), 2);
    }

    #[test]
    fn an_oversized_turn_still_fits_in_one_embed() {
        let card = TurnCard {
            title: "t".repeat(300),
            events: vec!["e".repeat(3000), "f".repeat(3000)],
            status: "s".repeat(100),
            clocks: (0..30)
                .map(|seat| crate::api::ClockReading {
                    player: "p".repeat(300),
                    remaining: "r".repeat(2000),
                    deadline: (seat == 0).then_some(1_700_000_180_000),
                })
                .collect(),
            buttons: Vec::new(),
        };
        let image = Image {
            file_name: "k7 m2/0.png".into(),
            bytes: b"\x89PNG".to_vec(),
        };
        let (embed, file) = turn_embed(&card, Some(&image), "");
        let json = serde_json::to_value(&embed).expect("an embed serializes");
        let chars = |value: &serde_json::Value| value.as_str().map_or(0, |t| t.chars().count());
        let fields = json["fields"].as_array().expect("fields");
        assert!(!fields.is_empty() && fields.len() <= EMBED_FIELDS);
        assert_eq!(fields[0]["value"], "<t:1700000180:R>");
        let total = chars(&json["title"])
            + chars(&json["description"])
            + fields
                .iter()
                .map(|field| chars(&field["name"]) + chars(&field["value"]))
                .sum::<usize>();
        assert!(total <= EMBED_TOTAL_CHARS, "{total}");
        assert!(chars(&json["title"]) <= EMBED_TITLE_CHARS);
        assert!(fields
            .iter()
            .all(|field| chars(&field["name"]) <= EMBED_FIELD_NAME_CHARS
                && chars(&field["value"]) <= EMBED_FIELD_VALUE_CHARS));
        assert_eq!(json["image"]["url"], "attachment://k7m20.png");
        assert!(file.is_some());
    }

    #[test]
    fn only_discord_people_are_pinged_each_once_and_at_most_a_hundred() {
        let person = |platform, id: &str| UserRef {
            platform,
            id: id.into(),
            name: "x".into(),
            handle: None,
        };
        let people = [
            person(crate::api::Platform::Discord, "1002"),
            UserRef::computer(crate::api::Platform::Discord, 3),
            person(crate::api::Platform::Telegram, "1003"),
            person(crate::api::Platform::Discord, "1002"),
            person(crate::api::Platform::Discord, "@bob"),
            person(crate::api::Platform::Discord, "1001"),
        ];
        let pinged = pinged_users(&people);
        assert_eq!(pinged, [UserId::new(1002), UserId::new(1001)]);
        assert_eq!(mention_line(&pinged), "<@1002> <@1001>");
        let crowd: Vec<UserRef> = (1..=150)
            .map(|id| person(crate::api::Platform::Discord, &id.to_string()))
            .collect();
        assert_eq!(pinged_users(&crowd).len(), MAX_PINGED_USERS);
    }

    #[test]
    fn malformed_ids_are_rejected() {
        assert_eq!(parse_id("123"), Some(123));
        assert_eq!(parse_id("0"), None);
        assert_eq!(parse_id("12a"), None);
    }
}
