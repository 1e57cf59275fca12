//! Receiving: Telegram updates become service requests, and the deliveries the
//! service answers with are routed to the right chats.

use std::sync::Arc;

use teloxide::requests::{Request as _, Requester};
use teloxide::types::{
    CallbackQuery, CallbackQueryId, ChatAction, ChatId, ChatMemberKind, Me, Message, MessageId,
    Update, UpdateKind, User, UserId,
};

use super::boards::Boards;
use super::commands::{self, Parsed, PlayContext};
use super::courier::{self, Courier, Mention, Parcel, Refusal, Sending};
use super::directory::Directory;
use super::picker::{Choice, Picker};
use super::texts;
use crate::api::{
    Action, Activity, ActivityWatcher, ButtonAction, ChatRef, Delivery, GameRef, Handler, Platform,
    Request, Target, UserRef,
};

/// Telegram's limit on a callback answer, in characters.
const CALLBACK_ANSWER_LIMIT: usize = 200;
/// Callback answers longer than this are shown as an alert box, not a toast.
const TOAST_LIMIT: usize = 80;
/// How long a button press waits for the service before it is answered
/// anyway: Telegram refuses late answers ("query is too old") and the
/// presser's button spins until the answer. Notes the service gives later go
/// to the presser's private chat instead of the answer.
const ANSWER_WITHIN: std::time::Duration = std::time::Duration::from_millis(1500);

/// Where a request came from, to route its answers.
struct Origin {
    chat: ChatId,
    private: bool,
    message: Option<MessageId>,
}

/// The adapter proper: holds the service and the courier.
pub(super) struct Adapter {
    handler: Arc<dyn Handler>,
    courier: Arc<Courier>,
    directory: Arc<Directory>,
    picker: Picker,
    bot_id: UserId,
    bot_username: String,
}

impl Adapter {
    /// An adapter for the bot `me`, sending through `bot`.
    pub fn new(
        sending: Sending,
        me: &Me,
        directory: Directory,
        boards: Boards,
        picker: Picker,
        handler: Arc<dyn Handler>,
    ) -> Arc<Self> {
        let directory = Arc::new(directory);
        let bot_username = me.username().to_owned();
        let courier = Courier::new(
            sending,
            bot_username.clone(),
            Arc::clone(&directory),
            Arc::new(boards),
            Arc::clone(&handler),
        );
        Arc::new(Adapter {
            handler,
            courier,
            directory,
            picker,
            bot_id: me.id,
            bot_username,
        })
    }

    /// Handles one update: a message or a button press. Other kinds are ignored.
    pub async fn on_update(&self, update: Update) {
        match update.kind {
            UpdateKind::Message(message) => self.on_message(message).await,
            UpdateKind::CallbackQuery(query) => self.on_callback(query).await,
            _ => {}
        }
    }

    /// Sends what is queued, and waits for it.
    pub async fn finish_sending(&self) {
        self.courier.finish().await;
    }

    /// Sends a delivery no request caused (the service's outbox).
    pub fn dispatch_unsolicited(&self, delivery: Delivery) {
        self.dispatch(delivery, None);
    }

    async fn on_message(&self, message: Message) {
        let Some(from) = message.from.as_ref().filter(|user| !user.is_bot) else {
            return;
        };
        let Some(text) = message.text() else {
            return;
        };
        let chat = message.chat.id;
        let private = message.chat.is_private();
        self.directory.remember(from, chat, private);

        let action = if let Some(command) = commands::split(text, &self.bot_username) {
            let replied_to = message
                .reply_to_message()
                .and_then(|replied| replied.from.as_ref())
                .filter(|author| !author.is_bot && author.id != from.id)
                .map(user_ref);
            let resolve = |username: &str| self.user_for_username(username);
            let context = PlayContext {
                replied_to,
                resolve_username: &resolve,
            };
            match commands::parse(&command, text, &context) {
                Parsed::Action(action) => action,
                Parsed::Start { payload } => self.start(from.id, &payload, private),
                Parsed::Unknown(action) if private => action,
                // Probably meant for another bot in the group.
                Parsed::Unknown(_) => return,
            }
        } else if private || self.replies_to_bot(&message) {
            // Said to the bot: a move, or an error explaining why it is not one.
            Action::Move {
                text: text.to_owned(),
                game: None,
            }
        } else {
            // Group chatter (seen only with privacy mode off or as admin): a move
            // if it parses as one for the sender's game, silence otherwise.
            Action::Text {
                text: text.to_owned(),
            }
        };

        // A move sent as a reply to a game's board is a move in that game.
        let action = match action {
            Action::Move { text, game: None } => Action::Move {
                game: self.game_of_replied_board(&message),
                text,
            },
            action => action,
        };

        let action = match action {
            // Only a group's administrators set its language; in a private
            // chat the person is the whole chat.
            Action::Lang { choice, .. } => {
                let for_chat = matches!(choice, crate::api::LangChoice::Chat(_));
                let chat_admin = private || (for_chat && self.is_chat_admin(chat, from.id).await);
                Action::Lang { choice, chat_admin }
            }
            // The chat's settings likewise; showing them asks nothing.
            Action::Settings { choice, .. } => {
                let changes = !matches!(choice, crate::api::SettingsChoice::Show);
                let chat_admin = private || (changes && self.is_chat_admin(chat, from.id).await);
                Action::Settings { choice, chat_admin }
            }
            // Starting, cancelling or adding the computer to someone else's
            // tournament needs an administrator; only then is Telegram asked.
            Action::Tournament { command, .. } => {
                let asks = matches!(
                    command,
                    crate::api::TournamentCommand::Start { .. }
                        | crate::api::TournamentCommand::Cancel { .. }
                        | crate::api::TournamentCommand::AddComputer { .. }
                );
                let chat_admin = !private && asks && self.is_chat_admin(chat, from.id).await;
                Action::Tournament {
                    command,
                    chat_admin,
                }
            }
            action => action,
        };

        if !private {
            let locale = from.language_code.as_deref();
            if let Some(buttons) = self.picker.open(&action, from.id, locale) {
                let prompt = self.say(texts::group(chat), "adapter-picker-prompt").await;
                if let Some(mut menu) = Parcel::new(prompt, None, buttons) {
                    menu.urgent = true;
                    self.courier.enqueue(chat, menu);
                }
                return;
            }
        }

        let request = Request {
            chat: chat_ref(chat),
            private,
            actor: user_ref(from),
            locale: from.language_code.clone(),
            chat_locale: None,
            action,
        };
        let origin = Origin {
            chat,
            private,
            message: Some(message.id),
        };
        for delivery in self.handler.handle_watched(request, self.watcher()).await {
            self.dispatch(delivery, Some(&origin));
        }
    }

    /// Shows "sending a photo…" (or a file, or a video for an animation)
    /// in the chat an image is being drawn for, before it is drawn: one
    /// `sendChatAction`, not throttled or retried (it only says the bot is
    /// busy, and lasts five seconds or until the message arrives).
    fn watcher(&self) -> ActivityWatcher {
        let bot = self.courier.bot().clone();
        let directory = Arc::clone(&self.directory);
        let documents = self.courier.boards_as_documents();
        Arc::new(move |target: Target, activity: Activity| {
            let chat = match &target {
                Target::Chat(chat) => telegram_chat(chat),
                Target::Private(user) | Target::Ephemeral(user) => {
                    directory.user_id(user).map(ChatId::from)
                }
                Target::DeleteRequest(_) => None,
            };
            let action = match activity {
                Activity::DrawingImage if documents => ChatAction::UploadDocument,
                Activity::DrawingImage => ChatAction::UploadPhoto,
                Activity::DrawingAnimation => ChatAction::UploadVideo,
            };
            let bot = bot.clone();
            Box::pin(async move {
                let Some(chat) = chat else { return };
                if let Err(error) = bot.send_chat_action(chat, action).send().await {
                    tracing::debug!(
                        chat = chat.0,
                        error = courier::describe(&error),
                        "could not show that an image is on its way"
                    );
                }
            })
        })
    }

    /// The adapter's own text `key` for `reader`.
    async fn say(&self, reader: crate::api::Reader, key: &'static str) -> String {
        texts::say(self.handler.as_ref(), reader, key).await
    }

    /// Whether `user` is the creator or an administrator of the group
    /// `chat`, as Telegram answers now (no answer: not).
    async fn is_chat_admin(&self, chat: ChatId, user: UserId) -> bool {
        match self.courier.chat_member(chat, user).await {
            Ok(member) => matches!(
                member.kind,
                ChatMemberKind::Owner(_) | ChatMemberKind::Administrator(_)
            ),
            Err(error) => {
                tracing::warn!(
                    error = courier::describe(&error),
                    "could not ask Telegram who administers a group"
                );
                false
            }
        }
    }

    /// `/start <payload>`: the player followed a deep link to their private
    /// board (or just opened the chat). Deep links name a game (`b_<game>`),
    /// none (`board`: the player's current game), or an invitation
    /// (`join_<code>`, see `/invite`).
    fn start(&self, player: UserId, payload: &str, private: bool) -> Action {
        if !private {
            return Action::Help { topic: None };
        }
        self.directory.forget_links(player);
        if payload == "board" {
            Action::Board { game: None }
        } else if let Some(game) = payload.strip_prefix("b_").filter(|game| !game.is_empty()) {
            Action::Board {
                game: Some(game.to_owned()),
            }
        } else if let Some(code) = payload
            .strip_prefix(crate::command::JOIN_PREFIX)
            .filter(|code| !code.is_empty())
        {
            // An invitation link (`t.me/<bot>?start=join_<code>`) opened.
            Action::Join {
                code: code.chars().take(64).collect(),
            }
        } else {
            Action::Help { topic: None }
        }
    }

    async fn on_callback(&self, query: CallbackQuery) {
        let (Some(data), Some(message)) = (query.data.clone(), query.message.as_ref()) else {
            self.answer_callback(query.id, Vec::new()).await;
            return;
        };
        let chat = message.chat();
        self.directory
            .remember(&query.from, chat.id, chat.is_private());
        let locale = query.from.language_code.as_deref();
        let action = match self.picker.choose(&data, query.from.id) {
            None => Action::Button { data },
            Some(Choice::Play(action)) => action,
            Some(Choice::Computer(play)) => {
                // The variant menu again, for a game against the computer.
                if let Some(buttons) = self.picker.open(&play, query.from.id, locale) {
                    let reader = texts::group(chat.id);
                    let prompt = self.say(reader, "adapter-picker-computer-prompt").await;
                    if let Some(mut menu) = Parcel::new(prompt, None, buttons) {
                        menu.urgent = true;
                        self.courier.enqueue(chat.id, menu);
                    }
                }
                self.answer_callback(query.id, Vec::new()).await;
                return;
            }
            Some(Choice::NotYours) => {
                let reader = texts::person(query.from.id, query.from.language_code.clone());
                let note = self.say(reader, "adapter-picker-not-yours").await;
                self.answer_callback(query.id, vec![note]).await;
                return;
            }
            Some(Choice::Expired) => {
                let reader = texts::person(query.from.id, query.from.language_code.clone());
                let note = self.say(reader, "adapter-picker-expired").await;
                self.answer_callback(query.id, vec![note]).await;
                return;
            }
        };
        let request = Request {
            chat: chat_ref(chat.id),
            private: chat.is_private(),
            actor: user_ref(&query.from),
            locale: query.from.language_code.clone(),
            chat_locale: None,
            action,
        };
        let origin = Origin {
            chat: chat.id,
            private: chat.is_private(),
            message: None,
        };
        // The press is answered by the deadline whatever the service does.
        let mut handling = self.handler.handle_watched(request, self.watcher());
        let (deliveries, answered) = match tokio::time::timeout(ANSWER_WITHIN, &mut handling).await
        {
            Ok(deliveries) => (deliveries, false),
            Err(_) => {
                self.answer_callback(query.id.clone(), Vec::new()).await;
                (handling.await, true)
            }
        };
        // A press answered in a chat (a challenge accepted, a resignation
        // confirmed, a variant chosen), or answered as settling the
        // question ("Play on"), settled what the buttons asked: they
        // go, so nobody presses them again. A press answered only with a
        // note (not yours, too late) leaves them for whoever they are for.
        let settled = deliveries.iter().any(|delivery| {
            matches!(delivery.target, Target::Chat(_))
                || delivery.game.as_ref().is_some_and(|game| game.settles)
        });
        // A game's own keyboard stays where it is until the next board.
        if settled && !self.courier.is_game_keyboard(chat.id, message.id()) {
            self.courier.settle(chat.id, message.id());
        }
        let mut notes = Vec::new();
        for delivery in deliveries {
            // A short private note for the presser ("not your game") is what
            // the callback answer is for: only they see it.
            let is_note_for_presser = !answered
                && matches!(&delivery.target,
                    Target::Ephemeral(user) if self.directory.user_id(user) == Some(query.from.id))
                && delivery.image.is_none()
                && delivery.buttons.is_empty()
                && delivery.text.chars().count() <= CALLBACK_ANSWER_LIMIT;
            if is_note_for_presser {
                notes.push(delivery.text);
            } else {
                self.dispatch(delivery, Some(&origin));
            }
        }
        if !answered {
            self.answer_callback(query.id, notes).await;
        }
    }

    /// Answers a button press, with `notes` shown only to the presser. Every
    /// press is answered, or the button keeps spinning in their client.
    async fn answer_callback(&self, id: CallbackQueryId, notes: Vec<String>) {
        let note: String = notes
            .join("\n")
            .chars()
            .take(CALLBACK_ANSWER_LIMIT)
            .collect();
        let note = (!note.is_empty()).then(|| (note.as_str(), note.chars().count() > TOAST_LIMIT));
        if let Err(error) = self.courier.answer_press(&id.0, note).await {
            tracing::warn!(
                error = courier::describe(&error),
                "could not answer a button press"
            );
        }
    }

    fn dispatch(&self, delivery: Delivery, origin: Option<&Origin>) {
        let Delivery {
            target,
            text,
            image,
            buttons,
            game,
            notify,
        } = delivery;
        if let Target::DeleteRequest(_) = target {
            if let Some(Origin {
                chat,
                private: false,
                message: Some(message),
            }) = origin
            {
                let courier = Arc::clone(&self.courier);
                let (chat, message) = (*chat, *message);
                tokio::spawn(async move { courier.delete(chat, message).await });
            }
            return;
        }
        let Some(mut parcel) = Parcel::new(text, image, buttons) else {
            return;
        };
        // An answer to someone's own message or press: they wait for it.
        parcel.urgent = origin.is_some();
        match target {
            Target::Chat(chat) => match telegram_chat(&chat) {
                Some(chat) => {
                    // In a group, those the message asks to act are
                    // mentioned (a private chat needs no ping).
                    if !chat.is_user() {
                        parcel.mentions = notify
                            .iter()
                            .filter_map(|user| self.mention(user))
                            .collect();
                    }
                    // A challenge: remembered, so that its buttons go
                    // however it is answered (a typed /accept too).
                    parcel.challenge_of = parcel.buttons.iter().find_map(|button| {
                        match ButtonAction::decode(&button.data)? {
                            ButtonAction::Accept { game } | ButtonAction::TakeSeat { game, .. } => {
                                Some(game)
                            }
                            _ => None,
                        }
                    });
                    if let Some(game) = game
                        .as_ref()
                        .filter(|game| game.started || game.over || game.turn.is_some())
                        .filter(|_| parcel.challenge_of.is_none())
                    {
                        parcel.answers_challenges_of = Some(game.id.clone());
                    }
                    // A turn of a game: its keyboard (draw, resign, takeback,
                    // board) goes under this message and leaves the last one.
                    if let Some((id, card)) = game
                        .as_ref()
                        .and_then(|game| Some((game.id.clone(), game.turn.as_ref()?)))
                    {
                        parcel.buttons.extend(card.buttons.iter().cloned());
                        parcel.turn_events = Some(card.events.clone());
                        parcel.reply_within = game.as_ref().and_then(|game| game.reply_within);
                        parcel.edit_board = game.as_ref().is_some_and(|game| game.edit_board);
                        let over = game.as_ref().is_some_and(|game| game.over);
                        parcel.game_board = Some((id, !card.buttons.is_empty() && !over));
                        parcel.ends_game = over;
                    } else if let Some(game) = game.as_ref().filter(|game| game.over) {
                        // The game is over: no board keeps its buttons.
                        parcel.game_board = Some((game.id.clone(), false));
                        parcel.ends_game = true;
                    }
                    self.courier.enqueue(chat, parcel)
                }
                None => tracing::warn!("a delivery for another platform reached Telegram"),
            },
            Target::Private(user) => {
                self.send_privately(&user, parcel, origin, true, game.as_ref())
            }
            Target::Ephemeral(user) => match origin.filter(|origin| !origin.private) {
                // A question with buttons for the caller ("Resign game k7m2?")
                // is answered where it was asked, under their message: Telegram
                // has no message only one member of a group sees, and the
                // buttons name the side, so another member's press changes
                // nothing (they are told so privately).
                Some(group) if !parcel.buttons.is_empty() && parcel.image.is_none() => {
                    let mut reply = parcel;
                    reply.reply_to = group.message;
                    self.courier.enqueue(group.chat, reply);
                }
                _ => self.send_privately(&user, parcel, origin, false, game.as_ref()),
            },
            Target::DeleteRequest(_) => {}
        }
    }

    /// Sends to the person's private chat with the bot. If Telegram refuses
    /// (they never pressed Start), the group gets a notice that reveals
    /// nothing, with a deep link that opens the private chat: for a board,
    /// one that brings the board; for a note, one that just opens the chat.
    fn send_privately(
        &self,
        user: &UserRef,
        mut parcel: Parcel,
        origin: Option<&Origin>,
        hidden: bool,
        game: Option<&GameRef>,
    ) {
        if user.platform != Platform::Telegram {
            tracing::warn!("a private delivery for another platform reached Telegram");
            return;
        }
        let Some(player) = self.directory.user_id(user) else {
            tracing::warn!("a private delivery for someone the bot has never seen");
            return;
        };
        let group = origin
            .filter(|origin| !origin.private)
            .map(|origin| origin.chat)
            .or_else(|| self.directory.last_group(player));
        let payload = if hidden || parcel.image.is_some() {
            deep_link_payload(game, parcel.image.as_ref().map(|image| &*image.file_name))
        } else {
            courier::NOTE_PAYLOAD.to_owned()
        };
        parcel.if_refused = group.map(|group| Refusal {
            group,
            player,
            player_name: user.name.clone(),
            payload,
        });
        self.courier.enqueue(ChatId::from(player), parcel);
    }

    /// How to mention `user` in a group so that Telegram notifies them: by
    /// @username when they have one, else a text mention by id; `None` for
    /// anyone else (the computer, another platform).
    fn mention(&self, user: &UserRef) -> Option<Mention> {
        if user.platform != Platform::Telegram || user.computer_level().is_some() {
            return None;
        }
        if let Ok(id) = user.id.parse::<u64>() {
            return Some(match self.directory.username(UserId(id)) {
                Some(username) if Mention::valid_username(&username) => Mention::Username(username),
                _ => Mention::User {
                    id,
                    name: user.name.clone(),
                },
            });
        }
        // Challenged by @username before the bot saw them.
        let username = user.id.strip_prefix('@')?;
        match self.directory.id_for_username(username) {
            Some(id) => self.mention(&UserRef {
                id: id.0.to_string(),
                ..user.clone()
            }),
            None => {
                Mention::valid_username(username).then(|| Mention::Username(username.to_owned()))
            }
        }
    }

    /// The game whose board (posted by the bot) `message` replies to.
    fn game_of_replied_board(&self, message: &Message) -> Option<String> {
        let replied = message
            .reply_to_message()
            .filter(|_| self.replies_to_bot(message))?;
        self.courier.game_of_board(message.chat.id, replied.id)
    }

    fn replies_to_bot(&self, message: &Message) -> bool {
        message
            .reply_to_message()
            .and_then(|replied| replied.from.as_ref())
            .is_some_and(|author| author.id == self.bot_id)
    }

    /// `@username` from `/play`: the person's id when they have written where
    /// the bot reads, else the username itself (`id` = `"@name"`), which the
    /// service matches against the [`UserRef::name`] of whoever accepts.
    fn user_for_username(&self, username: &str) -> UserRef {
        let name = format!("@{username}");
        let id = match self.directory.id_for_username(username) {
            Some(id) => id.0.to_string(),
            None => name.to_lowercase(),
        };
        UserRef {
            platform: Platform::Telegram,
            id,
            name,
            handle: None,
        }
    }
}

/// The `/start` payload of a deep link to a private board: `b_<game>` for the
/// game the delivery names, or (from services that do not name it) the game in
/// the board's file name (`<game>-<ply>[-<color>].png`, `board-<game>-<ply>.png`);
/// else `board` (the player's current game). Telegram allows only
/// `A-Z a-z 0-9 _ -` and 64 characters.
fn deep_link_payload(game: Option<&GameRef>, file_name: Option<&str>) -> String {
    let from_file_name = file_name
        .map(|name| name.strip_prefix("board-").unwrap_or(name))
        .and_then(|name| name.split_once('-'))
        .map(|(game, _)| game);
    let fits = |game: &&str| {
        !game.is_empty()
            && game.len() <= 60
            && game.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    let named = game
        .map(|game| game.id.as_str())
        .filter(fits)
        .or_else(|| from_file_name.filter(fits));
    match named {
        Some(game) => format!("b_{game}"),
        None => "board".to_owned(),
    }
}

/// The lane of an update: its chat, else its sender.
pub(super) fn lane_of(update: &Update) -> i64 {
    if let Some(chat) = update.chat() {
        return chat.id.0;
    }
    update
        .from()
        .and_then(|user| i64::try_from(user.id.0).ok())
        .unwrap_or_default()
}

fn chat_ref(chat: ChatId) -> ChatRef {
    ChatRef {
        platform: Platform::Telegram,
        id: chat.0.to_string(),
    }
}

fn telegram_chat(chat: &ChatRef) -> Option<ChatId> {
    if chat.platform != Platform::Telegram {
        return None;
    }
    chat.id.parse().ok().map(ChatId)
}

/// A Telegram user as the service sees them: `@username`, or their name.
fn user_ref(user: &User) -> UserRef {
    let name = match &user.username {
        Some(username) => format!("@{username}"),
        None => user.full_name(),
    };
    UserRef {
        platform: Platform::Telegram,
        id: user.id.0.to_string(),
        name,
        // Usernames are unique on Telegram: a challenge to an `@username` the
        // bot had not seen yet is accepted by whoever holds it.
        handle: user.username.as_ref().map(|u| u.to_lowercase()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deep_link_payload_names_the_game_only_when_safe() {
        let game = |id: &str| GameRef {
            id: id.to_owned(),
            title: "Fog of war: @alice vs @bob".to_owned(),
            started: false,
            turn: None,
            over: false,
            settles: false,
            reply_within: None,
            edit_board: false,
        };
        assert_eq!(
            deep_link_payload(Some(&game("k7m2")), Some("x.png")),
            "b_k7m2"
        );
        assert_eq!(deep_link_payload(Some(&game("k7m2")), None), "b_k7m2");
        assert_eq!(
            deep_link_payload(Some(&game("a b")), Some("board-7fk2-12.png")),
            "b_7fk2"
        );
        assert_eq!(deep_link_payload(None, Some("board-7fk2-12.png")), "b_7fk2");
        assert_eq!(
            deep_link_payload(None, Some("k3x9pq-4-black.png")),
            "b_k3x9pq"
        );
        assert_eq!(deep_link_payload(None, Some("board-a b-3.png")), "board");
        assert_eq!(deep_link_payload(None, Some("game.gif")), "board");
        assert_eq!(deep_link_payload(None, None), "board");
    }
}
