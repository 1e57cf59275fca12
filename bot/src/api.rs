//! The platform-neutral boundary between adapters (Discord, Telegram, console)
//! and the game service: adapters turn platform events into [`Request`]s and
//! send the [`Delivery`]s they get back. Adapters know nothing about chess.

/// Which platform a chat or user lives on.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Platform {
    /// The local console chat.
    Console,
    /// Discord.
    Discord,
    /// Telegram.
    Telegram,
}

impl Platform {
    /// A short stable name used in storage keys (`"console"`, `"discord"`, `"telegram"`).
    pub fn key(self) -> &'static str {
        match self {
            Platform::Console => "console",
            Platform::Discord => "discord",
            Platform::Telegram => "telegram",
        }
    }

    /// The largest file, in bytes, that every way this platform's adapter
    /// sends an image accepts: Discord takes 10 MiB per message from bots;
    /// Telegram takes photos up to 10 MB (animations and documents up to
    /// 50 MB, but a board may go as a photo). Adapters check it before
    /// sending, and the service draws animations within it.
    pub fn file_size_limit(self) -> usize {
        match self {
            Platform::Console => usize::MAX,
            Platform::Discord => 10 * 1024 * 1024,
            Platform::Telegram => 10 * 1000 * 1000,
        }
    }

    /// The platform with storage key `key`.
    pub fn from_key(key: &str) -> Option<Platform> {
        match key {
            "console" => Some(Platform::Console),
            "discord" => Some(Platform::Discord),
            "telegram" => Some(Platform::Telegram),
            _ => None,
        }
    }
}

/// A chat: a Discord channel or thread, a Telegram group, the console's shared chat.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct ChatRef {
    /// The platform.
    pub platform: Platform,
    /// The platform's id of the chat, as text.
    pub id: String,
}

/// A person on a platform.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct UserRef {
    /// The platform.
    pub platform: Platform,
    /// The platform's stable id of the user, as text.
    pub id: String,
    /// A name to show (Discord display name, Telegram @username or first name).
    pub name: String,
    /// The person's unique handle on the platform, lowercase and without `@`
    /// (a Telegram username), when the platform vouches for it. A challenge
    /// to `@bob` from someone the bot has never seen is stored as `"@bob"` and
    /// accepted by whoever has this handle — never matched against [`name`],
    /// which anyone can set to anything.
    ///
    /// [`name`]: UserRef::name
    pub handle: Option<String>,
}

impl UserRef {
    /// The stored-id prefix of the computer opponent (`computer:3`).
    pub const COMPUTER_PREFIX: &'static str = "computer:";

    /// The computer opponent at `level` (1–8) on `platform`: a seat holder
    /// like a person, whose messages the adapters never send.
    pub fn computer(platform: Platform, level: u8) -> UserRef {
        UserRef {
            platform,
            id: format!("{}{level}", UserRef::COMPUTER_PREFIX),
            name: format!("Kodex L{level}"),
            handle: None,
        }
    }

    /// The computer's level, when this is the computer.
    pub fn computer_level(&self) -> Option<u8> {
        UserRef::level_of(&self.id)
    }

    /// The computer's level in a stored user id (`computer:3` → 3).
    pub fn level_of(user_id: &str) -> Option<u8> {
        let level: u8 = user_id
            .strip_prefix(UserRef::COMPUTER_PREFIX)?
            .parse()
            .ok()?;
        (1..=8).contains(&level).then_some(level)
    }
}

/// What a person asked for.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Action {
    /// `/play <variant> [@opponent] [clock] [color]`.
    Play {
        /// Variant id or alias as typed.
        variant: String,
        /// The challenged user; `None` for an open challenge.
        opponent: Option<UserRef>,
        /// Clock as typed (`3+2`, `blitz`, `1d`), `None` for no clock.
        clock: Option<String>,
        /// `white`, `black` or `random`, as typed.
        color: Option<String>,
    },
    /// Accept a challenge (the one in this chat, or by game id).
    Accept { game: Option<String> },
    /// Decline a challenge.
    Decline { game: Option<String> },
    /// `/move <move>` (or a move typed as plain text).
    Move { text: String, game: Option<String> },
    /// Plain chat text that may be a move; ignored silently when it is not.
    Text { text: String },
    /// Resign.
    Resign { game: Option<String> },
    /// Offer a draw, or accept the opponent's offer.
    Draw { game: Option<String> },
    /// Decline the opponent's draw offer.
    DeclineDraw { game: Option<String> },
    /// Ask for a takeback, or approve the opponent's request.
    Takeback { game: Option<String> },
    /// Refuse the opponent's takeback request.
    RefuseTakeback { game: Option<String> },
    /// Abort a game before both sides have moved.
    Abort { game: Option<String> },
    /// Show the board (privately in hidden-information games).
    Board { game: Option<String> },
    /// List the caller's games.
    Games,
    /// The game record as PGN.
    Pgn { game: Option<String> },
    /// The rules of a variant.
    Rules { variant: String },
    /// The list of variants.
    Variants,
    /// `/learn`: the lessons of the teaching ladder, in order, with their goals.
    Learn,
    /// Help.
    Help,
    /// Set the caller's language (`en`, `ru`).
    Lang { lang: String },
    /// A button was pressed; `data` is the [`Button::data`] it carried.
    Button { data: String },
    /// The adapter moved a game's conversation from the request's chat into
    /// `chat` (a thread it created for the game, see [`GameRef::started`]);
    /// later deliveries go there and moves typed there are the game's. Only
    /// adapters send this; no user command parses into it.
    Relocate {
        /// The game id.
        game: String,
        /// The new chat's id on the same platform.
        chat: String,
    },
    /// A command the adapter did not recognise (`/foo`): the service answers
    /// with a localized "unknown command" and the help pointer.
    Unknown {
        /// The command as typed, without arguments (`/foo`).
        command: String,
    },
}

/// One incoming request.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Request {
    /// Where it was said. For a private message, the private chat.
    pub chat: ChatRef,
    /// Whether it was said in a private chat with the bot.
    pub private: bool,
    /// Who said it.
    pub actor: UserRef,
    /// The platform's locale of the actor (`"ru"`, `"en-US"`), if known.
    pub locale: Option<String>,
    /// What they asked for.
    pub action: Action,
}

/// Who receives a delivery.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Target {
    /// Everyone in a chat.
    Chat(ChatRef),
    /// One person privately (a DM). Adapters fall back to an ephemeral reply
    /// (Discord) or a deep link (Telegram) when the platform refuses.
    Private(UserRef),
    /// Only the person who made the request (Discord ephemeral reply; elsewhere
    /// a private message).
    Ephemeral(UserRef),
}

/// An image attached to a delivery.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Image {
    /// A file name that reveals nothing hidden (`board-<game>-<ply>.png`).
    pub file_name: String,
    /// The encoded bytes (PNG or GIF).
    pub bytes: Vec<u8>,
}

/// A button under a message. `data` is short (fits Telegram's 64 bytes) and
/// holds everything needed to handle a press after a restart.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Button {
    /// Localized label.
    pub label: String,
    /// Opaque data handed back to the service when pressed (`"acc:7fk2"`).
    pub data: String,
}

/// One outgoing message for one audience.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Delivery {
    /// Who receives it.
    pub target: Target,
    /// Localized text.
    pub text: String,
    /// An optional rendered board or game GIF.
    pub image: Option<Image>,
    /// Buttons under the message.
    pub buttons: Vec<Button>,
    /// The game the delivery is about, if any.
    pub game: Option<GameRef>,
}

/// The game a [`Delivery`] is about: lets adapters organise messages per game
/// (a Discord thread, a Telegram deep link) without reading texts.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct GameRef {
    /// The short game id (`k7m2`).
    pub id: String,
    /// A short localized title naming variant and players, fit for a thread
    /// name (at most 100 characters). Never reveals hidden information.
    pub title: String,
    /// Set on the public message announcing that the game has just started:
    /// an adapter that keeps each game in its own thread opens it here and
    /// answers with [`Action::Relocate`].
    pub started: bool,
}

/// A boxed future returned by [`Handler::handle`].
pub type HandlerFuture<'a> =
    std::pin::Pin<Box<dyn std::future::Future<Output = Vec<Delivery>> + Send + 'a>>;

/// What adapters call: the game service implements it (tests may use a toy).
///
/// Deliveries not caused by a request (a flag falling, a challenge expiring)
/// reach adapters through the service's outbox for their platform instead.
pub trait Handler: Send + Sync + 'static {
    /// Handles one request and returns what to send, in order.
    fn handle(&self, request: Request) -> HandlerFuture<'_>;
}
