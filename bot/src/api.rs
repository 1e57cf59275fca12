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

    /// The longest text, in characters, one message of this platform holds
    /// (Discord 2,000, Telegram 4,096); adapters split longer texts, so a
    /// text that must stay whole (a game record) goes as a file beyond it.
    pub fn message_limit(self) -> usize {
        match self {
            Platform::Console => usize::MAX,
            Platform::Discord => 2000,
            Platform::Telegram => 4096,
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

/// The colour a challenger asks for (for a team, its team's colour).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum ColorChoice {
    White,
    Black,
    Random,
}

impl ColorChoice {
    /// The colour a word of `/play` names, in English or Russian, any case
    /// (`white`, `w`, `белыми`, `random`, `случайно`, …).
    ///
    /// ```
    /// use kodex_bot::api::ColorChoice;
    /// assert_eq!(ColorChoice::parse("Чёрными"), Some(ColorChoice::Black));
    /// assert_eq!(ColorChoice::parse("blitz"), None);
    /// ```
    pub fn parse(word: &str) -> Option<ColorChoice> {
        match word.trim().to_lowercase().as_str() {
            "white" | "w" | "белые" | "белыми" => Some(ColorChoice::White),
            "black" | "b" | "черные" | "чёрные" | "черными" | "чёрными" => {
                Some(ColorChoice::Black)
            }
            "random" | "r" | "случайно" | "случайный" | "случайным" => {
                Some(ColorChoice::Random)
            }
            _ => None,
        }
    }
}

impl ColorChoice {
    /// Its word, as stored (a Telegram menu waiting for its variant).
    pub fn word(self) -> &'static str {
        match self {
            ColorChoice::White => "white",
            ColorChoice::Black => "black",
            ColorChoice::Random => "random",
        }
    }
}

/// Stored as its word; read back from any word [`ColorChoice::parse`]
/// knows (menus stored before it was typed hold the word as typed).
impl serde::Serialize for ColorChoice {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.word())
    }
}

impl<'de> serde::Deserialize<'de> for ColorChoice {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let word = String::deserialize(deserializer)?;
        ColorChoice::parse(&word)
            .ok_or_else(|| serde::de::Error::custom(format!("no colour: {word:?}")))
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
        /// The colour asked for; `None` leaves it to chance.
        color: Option<ColorChoice>,
        /// The start position as FEN (`/play chess fen:<FEN>`), as typed;
        /// `None` for the variant's own start.
        fen: Option<String>,
        /// `rated` (true) or `casual` (false) as asked; `None`: rated when
        /// it can be and has a clock.
        rated: Option<bool>,
        /// `public`: an open challenge published in the platform's lobby,
        /// which anyone may take from any chat.
        public: bool,
    },
    /// `/play <variant> [@partner] vs [@opponent …] [clock] [color]`: a team
    /// challenge for a game of four seats. Seats nobody is named for are open
    /// to anyone in the chat; the game starts when every seat is taken.
    PlayTeams {
        /// Variant id or alias as typed.
        variant: String,
        /// The caller's partners (named before `vs`).
        partners: Vec<UserRef>,
        /// The other team's players (named after `vs`).
        opponents: Vec<UserRef>,
        /// Clock as typed, `None` for no clock.
        clock: Option<String>,
        /// The caller's team colour; `None` leaves it to chance.
        color: Option<ColorChoice>,
        /// `rated` or `casual` as asked (a game of four is never rated).
        rated: Option<bool>,
    },
    /// `/lobby [variant]`: the open challenges of this chat and the
    /// platform's public seeks, each with an Accept button.
    Lobby {
        /// The variant as typed; `None`: every variant.
        variant: Option<String>,
    },
    /// `/playnow [variant] [clock]`: takes the best matching offer (this
    /// chat's first, then the platform's public seeks, nearest rating
    /// first), or publishes a seek.
    PlayNow {
        /// The variant as typed; `None`: any (chess for a new seek).
        variant: Option<String>,
        /// The clock as typed; `None`: any (blitz for a new seek).
        clock: Option<String>,
    },
    /// `/invite [variant] [clock] [colour] [rated|casual]`: a one-time code
    /// (on Telegram a link), answered privately; the first person to use it
    /// plays.
    Invite {
        /// The variant as typed; `None`: chess.
        variant: Option<String>,
        /// The clock as typed; `None`: no clock.
        clock: Option<String>,
        /// The colour asked for.
        color: Option<ColorChoice>,
        /// `rated` or `casual` as asked.
        rated: Option<bool>,
    },
    /// `/join <code>` (Telegram: the invitation link's `/start`): takes the
    /// invitation of `code`.
    Join { code: String },
    /// `/notify on|off`: the personal ticker (news of one's games said in
    /// other chats, privately); `None`: say whether it is on.
    Notify { on: Option<bool> },
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
    /// `/berserk [game]`: in an arena tournament, halve one's own clock
    /// before one's first move, for a point more on a win.
    Berserk { game: Option<String> },
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
    /// `/rating [@user]`: someone's ratings (the caller's without one).
    Rating { user: Option<UserRef> },
    /// `/leaderboard [variant] [global] [page]`: the best ratings of a
    /// variant among this chat's players (`global`: the platform's).
    Leaderboard {
        /// The variant as typed; `None`: chess.
        variant: Option<String>,
        /// The platform's players, not only this chat's.
        global: bool,
        /// The page, from 1.
        page: u32,
    },
    /// `/stats [@user]`: someone's games, results by variant and streaks.
    Stats { user: Option<UserRef> },
    /// The game record as PGN.
    Pgn { game: Option<String> },
    /// `/review [game]`: the computer's summary of a finished game's
    /// biggest mistakes.
    Review { game: Option<String> },
    /// Bughouse: a private message to one's partner.
    Partner { text: String },
    /// Enochian chess: offer to exchange prisoners, or accept the offer.
    Exchange { game: Option<String> },
    /// Enochian chess: decline the opponents' offer to exchange prisoners.
    DeclineExchange { game: Option<String> },
    /// Enochian chess: leave the game, handing one's army to one's partner.
    Retire { game: Option<String> },
    /// Time travel: the present board and every abandoned timeline, in one image.
    Timeline { game: Option<String> },
    /// The rules of a variant.
    Rules { variant: String },
    /// The list of variants.
    Variants,
    /// `/learn`: the lessons of the teaching ladder, in order, with their goals.
    Learn,
    /// `/help [topic]`: the first steps, or one topic in full (`play`,
    /// `moves`, `hidden`, `four`, `more`, or their Russian names).
    Help { topic: Option<String> },
    /// `/rematch [game]`: offer the opponent of an ended game another one,
    /// same variant and clock, colours swapped.
    Rematch { game: Option<String> },
    /// `/watch <game>`: the request's chat (a group, or the person in a
    /// private chat) hears the game's public messages.
    Watch { game: Option<String> },
    /// `/unwatch <game>`: stop watching.
    Unwatch { game: Option<String> },
    /// `/notation ru|en|auto`: how moves shown to the caller alone are
    /// written (Russian or English piece letters, or by their language).
    Notation { notation: NotationChoice },
    /// Show or change the chat's settings (`/settings board white`).
    Settings {
        /// What was asked.
        choice: SettingsChoice,
        /// Whether the caller may change the chat's settings (see
        /// [`Action::Lang`]).
        chat_admin: bool,
    },
    /// Set the caller's language (`en`, `ru`), or the chat's (`chat ru`).
    Lang {
        /// What was asked.
        choice: LangChoice,
        /// Whether the caller may change the chat's settings, as the
        /// platform says: Discord's Manage Server permission, a Telegram
        /// group's administrator or creator; the console's local user.
        /// Only such a caller may set the chat's language.
        chat_admin: bool,
    },
    /// `/tournament …`: create, join, leave, start, cancel a tournament of
    /// the chat, its standings, its TRF file.
    Tournament {
        /// What was asked.
        command: TournamentCommand,
        /// Whether the caller may change the chat's settings, as the
        /// platform says (see [`Action::Lang`]): such a caller may start or
        /// cancel a tournament they did not create.
        chat_admin: bool,
    },
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

/// What `/lang` asks for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum LangChoice {
    /// `/lang`: which language the caller hears.
    Show,
    /// `/lang ru`: the caller's own language.
    Mine(crate::i18n::Lang),
    /// `/lang chat ru`: the chat's language.
    Chat(crate::i18n::Lang),
    /// Words that name no language.
    Unreadable,
}

impl LangChoice {
    /// Reads what a person typed after `/lang`.
    ///
    /// ```
    /// use kodex_bot::api::LangChoice;
    /// use kodex_bot::i18n::Lang;
    /// assert_eq!(LangChoice::parse("chat ru"), LangChoice::Chat(Lang::Ru));
    /// assert_eq!(LangChoice::parse("Чат английский"), LangChoice::Chat(Lang::En));
    /// assert_eq!(LangChoice::parse("de"), LangChoice::Unreadable);
    /// ```
    pub fn parse(text: &str) -> LangChoice {
        let lower = text.to_lowercase();
        let words: Vec<&str> = lower.split_whitespace().collect();
        let lang = |code: &str| crate::i18n::Lang::parse(code);
        match words.as_slice() {
            [] => LangChoice::Show,
            ["chat" | "чат" | "чата", code] => {
                lang(code).map_or(LangChoice::Unreadable, LangChoice::Chat)
            }
            [code] => lang(code).map_or(LangChoice::Unreadable, LangChoice::Mine),
            _ => LangChoice::Unreadable,
        }
    }
}

/// What `/settings` asks for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SettingsChoice {
    /// `/settings`: the chat's settings as they are.
    Show,
    /// `/settings board white`: how the board posted after each turn of a
    /// game of two in this chat is turned.
    BoardOrientation(BoardOrientation),
    /// `/settings boards edit`: whether each turn posts a new board message
    /// or edits the game's one.
    BoardMessages(BoardMessages),
    /// Words that name no setting or no choice of it.
    Unreadable,
}

/// How the board posted in a chat after each turn of a game of two is
/// turned (`/settings board …`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum BoardOrientation {
    /// From the side of the player to move (the default).
    #[default]
    SideToMove,
    /// White (the first side) always at the bottom.
    White,
}

impl BoardOrientation {
    /// How it is stored and typed in English.
    pub fn key(self) -> &'static str {
        match self {
            BoardOrientation::SideToMove => "side-to-move",
            BoardOrientation::White => "white",
        }
    }

    /// The choice stored or typed as `word` (English or Russian).
    pub fn parse(word: &str) -> Option<BoardOrientation> {
        match word.to_lowercase().as_str() {
            "white" | "белые" | "белыми" => Some(BoardOrientation::White),
            "side-to-move" | "mover" | "turn" | "ходящий" | "ходящего" | "очередь" => {
                Some(BoardOrientation::SideToMove)
            }
            _ => None,
        }
    }
}

/// Whether each turn of a game posts a new board message in the chat, or
/// edits the game's one board message (`/settings boards …`), as Telegram's
/// Group Chess does: a busy group keeps within its flood limits, and the
/// game stays in one place; nobody is notified of an edit, though.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum BoardMessages {
    /// A new message each turn (the default).
    #[default]
    New,
    /// One message per game, edited each turn (where the platform can).
    Edit,
}

impl BoardMessages {
    /// How it is stored and typed in English.
    pub fn key(self) -> &'static str {
        match self {
            BoardMessages::New => "new",
            BoardMessages::Edit => "edit",
        }
    }

    /// The choice stored or typed as `word` (English or Russian).
    ///
    /// ```
    /// use kodex_bot::api::BoardMessages;
    /// assert_eq!(BoardMessages::parse("править"), Some(BoardMessages::Edit));
    /// assert_eq!(BoardMessages::parse("Новые"), Some(BoardMessages::New));
    /// ```
    pub fn parse(word: &str) -> Option<BoardMessages> {
        match word.to_lowercase().as_str() {
            "new" | "новые" | "новая" | "новое" => Some(BoardMessages::New),
            "edit" | "edited" | "one" | "править" | "правка" | "одна" | "одно" => {
                Some(BoardMessages::Edit)
            }
            _ => None,
        }
    }
}

impl SettingsChoice {
    /// Reads what a person typed after `/settings`.
    ///
    /// ```
    /// use kodex_bot::api::{BoardOrientation, SettingsChoice};
    /// assert_eq!(
    ///     SettingsChoice::parse("board-orientation white"),
    ///     SettingsChoice::BoardOrientation(BoardOrientation::White)
    /// );
    /// assert_eq!(
    ///     SettingsChoice::parse("доска ходящий"),
    ///     SettingsChoice::BoardOrientation(BoardOrientation::SideToMove)
    /// );
    /// assert_eq!(SettingsChoice::parse("board purple"), SettingsChoice::Unreadable);
    /// assert_eq!(
    ///     SettingsChoice::parse("доски править"),
    ///     SettingsChoice::BoardMessages(kodex_bot::api::BoardMessages::Edit)
    /// );
    /// ```
    pub fn parse(text: &str) -> SettingsChoice {
        let words: Vec<String> = text.split_whitespace().map(str::to_lowercase).collect();
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        match words.as_slice() {
            [] => SettingsChoice::Show,
            ["board" | "board-orientation" | "orientation" | "доска" | "ориентация", choice] => {
                BoardOrientation::parse(choice)
                    .map_or(SettingsChoice::Unreadable, SettingsChoice::BoardOrientation)
            }
            ["boards" | "messages" | "доски" | "сообщения", choice] => {
                BoardMessages::parse(choice)
                    .map_or(SettingsChoice::Unreadable, SettingsChoice::BoardMessages)
            }
            _ => SettingsChoice::Unreadable,
        }
    }
}

/// What `/notation` asks for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum NotationChoice {
    /// `/notation`: which letters the caller's moves are shown in.
    Show,
    /// `/notation auto`: by the caller's language.
    Auto,
    /// `/notation ru`: the piece letters of a language.
    Letters(crate::i18n::Lang),
    /// A word that names no notation.
    Unreadable,
}

impl NotationChoice {
    /// Reads what a person typed after `/notation`.
    ///
    /// ```
    /// use kodex_bot::api::NotationChoice;
    /// use kodex_bot::i18n::Lang;
    /// assert_eq!(NotationChoice::parse(" RU "), NotationChoice::Letters(Lang::Ru));
    /// assert_eq!(NotationChoice::parse("авто"), NotationChoice::Auto);
    /// ```
    pub fn parse(text: &str) -> NotationChoice {
        match text.trim().to_lowercase().as_str() {
            "" => NotationChoice::Show,
            "auto" | "авто" => NotationChoice::Auto,
            other => crate::i18n::Lang::parse(other)
                .map_or(NotationChoice::Unreadable, NotationChoice::Letters),
        }
    }
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
    /// The platform's locale of the chat (a Discord guild's locale), if known:
    /// what the chat's public messages are in unless `/lang chat` chose.
    pub chat_locale: Option<String>,
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
    /// Not a message but a removal: the message the request came from, said
    /// in this chat for everyone to read, should go where the bot may delete
    /// messages (a move typed in the group for a hidden-information game).
    /// It follows the refusal that explains why; its text is empty and
    /// nothing is sent for it. Adapters that cannot delete ignore it.
    DeleteRequest(ChatRef),
}

/// An image attached to a delivery.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Image {
    /// A file name that reveals nothing hidden (`board-<game>-<ply>.png`).
    pub file_name: String,
    /// The encoded bytes (PNG or GIF; or a game record, `<game>.pgn`, too
    /// long for a message).
    pub bytes: Vec<u8>,
}

/// A button under a message. `data` is short (fits Telegram's 64 bytes) and
/// holds everything needed to handle a press after a restart.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Button {
    /// Localized label.
    pub label: String,
    /// Handed back to the service when pressed: a [`ButtonAction`] encoded
    /// (`"acc:7fk2"`); adapters pass it on, and read it at most to organise
    /// their messages (a challenge's buttons go once the game starts).
    pub data: String,
}

impl Button {
    /// A button labelled `label` that does `action`.
    pub fn new(label: impl Into<String>, action: &ButtonAction) -> Button {
        Button {
            label: label.into(),
            data: action.encode(),
        }
    }
}

/// What a button does: the typed payload behind [`Button::data`], encoded
/// as `<kind>:<game>[:<side>]` so it fits Telegram's callback data (64
/// bytes) and Discord's custom id (100 characters) whatever the game id (at
/// most [`ButtonAction::MAX_GAME_ID`] bytes). Data that does not decode is a
/// stale or forged button.
///
/// ```
/// use kodex_bot::api::ButtonAction;
/// let accept = ButtonAction::Accept { game: "k7m2".into() };
/// assert_eq!(accept.encode(), "acc:k7m2");
/// assert_eq!(ButtonAction::decode("acc:k7m2"), Some(accept));
/// assert_eq!(ButtonAction::decode("acc:"), None);
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ButtonAction {
    /// Accept the challenge.
    Accept { game: String },
    /// Decline the challenge.
    Decline { game: String },
    /// Accept the draw offer.
    Draw { game: String },
    /// Decline the draw offer.
    DeclineDraw { game: String },
    /// Approve the takeback request.
    Takeback { game: String },
    /// Refuse the takeback request.
    RefuseTakeback { game: String },
    /// Show the presser's board (of their current game when `None`).
    Board { game: Option<String> },
    /// Resign for good: the confirmation, valid only for the player of `side`
    /// and, when `ply` (the ply it was asked at) is set, only until that
    /// player moves again (the question lapses when they play on).
    Resign {
        game: String,
        side: String,
        ply: Option<u32>,
    },
    /// Ask to resign: the presser is asked to confirm (a game's own keyboard).
    AskResign { game: String },
    /// Answer "no" to the resignation question.
    KeepPlaying { game: String },
    /// Place the presser's army at random (setup phase).
    SetupRandom { game: String },
    /// Declare the presser's setup ready.
    SetupReady { game: String },
    /// Take seat `seat` (0-based) of a team challenge.
    TakeSeat { game: String, seat: u8 },
    /// Offer a rematch of the ended game (or accept the opponent's).
    Rematch { game: String },
    /// Watch the game privately.
    Watch { game: String },
    /// Accept the offer to exchange prisoners (Enochian chess).
    Exchange { game: String },
    /// Decline the offer to exchange prisoners.
    DeclineExchange { game: String },
    /// Post the presser's invitation (`/invite`) in this chat, with a Join
    /// button for whoever takes it first.
    ShareInvite { game: String },
    /// Take the invitation whose code this is (`/join <code>`).
    Join { code: String },
    /// Enter the tournament `id` (`/tournament join`).
    TournamentJoin { id: String },
}

impl ButtonAction {
    /// The longest game id a button carries (service ids are far shorter).
    pub const MAX_GAME_ID: usize = 48;

    /// The data to put on a button.
    pub fn encode(&self) -> String {
        let (kind, game) = self.parts();
        match self {
            ButtonAction::Resign {
                side,
                ply: Some(ply),
                ..
            } => format!("{kind}:{game}:{side}:{ply}"),
            ButtonAction::Resign { side, .. } => format!("{kind}:{game}:{side}"),
            ButtonAction::TakeSeat { seat, .. } => format!("{kind}:{game}:{seat}"),
            _ => format!("{kind}:{game}"),
        }
    }

    /// The action a button's data stands for; `None` for anything else.
    pub fn decode(data: &str) -> Option<ButtonAction> {
        let (kind, rest) = data.split_once(':').unwrap_or((data, ""));
        let valid = |text: &str| {
            !text.is_empty()
                && text.len() <= ButtonAction::MAX_GAME_ID
                && text
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        };
        let game = || valid(rest).then(|| rest.to_owned());
        Some(match kind {
            "acc" => ButtonAction::Accept { game: game()? },
            "dec" => ButtonAction::Decline { game: game()? },
            "draw" => ButtonAction::Draw { game: game()? },
            "nodraw" => ButtonAction::DeclineDraw { game: game()? },
            "tb" => ButtonAction::Takeback { game: game()? },
            "notb" => ButtonAction::RefuseTakeback { game: game()? },
            "board" if rest.is_empty() => ButtonAction::Board { game: None },
            "board" => ButtonAction::Board {
                game: Some(game()?),
            },
            "rsg" => {
                let (game, side) = rest.split_once(':')?;
                // Buttons made before the ply was added carry none.
                let (side, ply) = match side.split_once(':') {
                    Some((side, ply)) if ply.chars().all(|c| c.is_ascii_digit()) => {
                        (side, Some(ply.parse().ok()?))
                    }
                    Some(_) => return None,
                    None => (side, None),
                };
                if !valid(game) || !valid(side) {
                    return None;
                }
                ButtonAction::Resign {
                    game: game.to_owned(),
                    side: side.to_owned(),
                    ply,
                }
            }
            "seat" => {
                let (game, seat) = rest.split_once(':')?;
                if !valid(game) || !seat.chars().all(|c| c.is_ascii_digit()) {
                    return None;
                }
                ButtonAction::TakeSeat {
                    game: game.to_owned(),
                    seat: seat.parse().ok()?,
                }
            }
            "keep" => ButtonAction::KeepPlaying { game: game()? },
            "quit" => ButtonAction::AskResign { game: game()? },
            "sr" => ButtonAction::SetupRandom { game: game()? },
            "sy" => ButtonAction::SetupReady { game: game()? },
            "again" => ButtonAction::Rematch { game: game()? },
            "watch" => ButtonAction::Watch { game: game()? },
            "xch" => ButtonAction::Exchange { game: game()? },
            "noxch" => ButtonAction::DeclineExchange { game: game()? },
            "share" => ButtonAction::ShareInvite { game: game()? },
            "join" => ButtonAction::Join { code: game()? },
            "tjoin" => ButtonAction::TournamentJoin { id: game()? },
            _ => return None,
        })
    }

    /// Whether pressing it does what cannot be undone (shown in red where
    /// the platform colours buttons).
    pub fn is_irreversible(&self) -> bool {
        matches!(self, ButtonAction::Resign { .. })
    }

    fn parts(&self) -> (&'static str, &str) {
        match self {
            ButtonAction::Accept { game } => ("acc", game),
            ButtonAction::Decline { game } => ("dec", game),
            ButtonAction::Draw { game } => ("draw", game),
            ButtonAction::DeclineDraw { game } => ("nodraw", game),
            ButtonAction::Takeback { game } => ("tb", game),
            ButtonAction::RefuseTakeback { game } => ("notb", game),
            ButtonAction::Board { game } => ("board", game.as_deref().unwrap_or_default()),
            ButtonAction::Resign { game, .. } => ("rsg", game),
            ButtonAction::KeepPlaying { game } => ("keep", game),
            ButtonAction::AskResign { game } => ("quit", game),
            ButtonAction::SetupRandom { game } => ("sr", game),
            ButtonAction::SetupReady { game } => ("sy", game),
            ButtonAction::TakeSeat { game, .. } => ("seat", game),
            ButtonAction::Rematch { game } => ("again", game),
            ButtonAction::Exchange { game } => ("xch", game),
            ButtonAction::DeclineExchange { game } => ("noxch", game),
            ButtonAction::Watch { game } => ("watch", game),
            ButtonAction::ShareInvite { game } => ("share", game),
            ButtonAction::Join { code } => ("join", code),
            ButtonAction::TournamentJoin { id } => ("tjoin", id),
        }
    }
}

/// What a `/tournament` asks (see `service/commands/tournament.rs`); the
/// optional `id` names one of the chat's tournaments when it has several.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum TournamentCommand {
    /// `/tournament new <format> <variant> <clock> [rounds] [in <minutes>]
    /// [rated|casual] [armageddon]`: words the service checks (a knockout's
    /// number is the games of a match).
    New {
        /// `swiss`, `roundrobin`, `double`, `knockout` (or their Russian names), as typed.
        format: String,
        /// The variant, as typed.
        variant: String,
        /// The time control, as typed.
        clock: Option<String>,
        /// The number of rounds (a Swiss).
        rounds: Option<u32>,
        /// Minutes until the start.
        start_in: Option<u32>,
        /// `at HH:MM`: the start at that time of day (UTC), the next time
        /// it comes; `Some(None)` when what followed `at` is no time.
        start_at: Option<Option<(u32, u32)>>,
        /// Rated or casual, if said.
        rated: Option<bool>,
        /// A knockout's level matches end with an Armageddon game.
        armageddon: bool,
    },
    /// Enter the tournament.
    Join { id: Option<String> },
    /// Leave it (before the start: the entry goes; after: withdrawn).
    Leave { id: Option<String> },
    /// The standings (the final ones once over).
    Standings { id: Option<String> },
    /// Call it off (its creator or a chat admin).
    Cancel { id: Option<String> },
    /// Start it now (its creator or a chat admin).
    Start { id: Option<String> },
    /// Its FIDE tournament report file (a Swiss's pairings, checkable).
    Trf { id: Option<String> },
    /// Sit out the next rounds (a Swiss, an arena) until `join` again.
    Pause { id: Option<String> },
    /// `add computer level N`: the computer enters (its creator or a chat
    /// admin, before the start).
    AddComputer { level: u8, id: Option<String> },
    /// Nothing readable: how to use the command.
    Usage,
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
    /// The people this message asks to act (the challenged player, the
    /// player to move, the player asked to answer an offer), for adapters
    /// that notify them (a Discord mention, a Telegram mention in a group).
    /// Never the computer, never anyone who is not named in the message's
    /// game; empty for messages that ask nobody. Adapters must not ping
    /// anyone else.
    pub notify: Vec<UserRef>,
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
    /// Set on a message showing a turn of the game (a move, the start, a
    /// takeback, the end): the same news as the text, in parts, for adapters
    /// that show a turn as a card (a Discord embed) instead of loose lines.
    pub turn: Option<TurnCard>,
    /// Set once the game is over (ended, aborted; a challenge declined or
    /// expired): an adapter that keeps a game's buttons under its latest
    /// board takes them away, whatever the message.
    pub over: bool,
    /// Set on the answer to a button press that settled the question the
    /// buttons asked without a word to the chat ("Play on" under "Resign
    /// game k7m2?"): the adapter takes the buttons off the question, as it
    /// does when a press is answered in the chat.
    pub settles: bool,
    /// Set on a turn's message when the computer moves next: about how long
    /// its move takes to come (its thinking time). An adapter that saves
    /// messages (Telegram's groups take about twenty a minute) may hold this
    /// one that long and show both moves in one message; the computer's
    /// message then carries everything this one says but its events, which
    /// are in [`TurnCard::events`].
    pub reply_within: Option<std::time::Duration>,
    /// Set on a turn's message for a chat that keeps one board message per
    /// game (`/settings boards edit`, see [`BoardMessages`]): an adapter
    /// that can edits the game's board message into this one instead of
    /// posting another.
    pub edit_board: bool,
}

/// One turn of a game in parts, in the audience's language. A card for a
/// chat carries only what everyone may know (never a hidden square or move).
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct TurnCard {
    /// Variant and players ("Chess: alice vs bob · k7m2").
    pub title: String,
    /// What happened, one line each: the last move as the audience may know
    /// it, a check, a referee's words, the start of the game.
    pub events: Vec<String>,
    /// Whose turn it is ("move 3 · bob (black) to move"), or how the game ended.
    pub status: String,
    /// Each player's clock, in seat order; empty without a clock.
    pub clocks: Vec<ClockReading>,
    /// What the players may do now, as buttons (offer a draw, resign, take
    /// back, show one's board): for an adapter that keeps them under the
    /// game's latest message only. Empty once the game is over.
    pub buttons: Vec<Button>,
}

/// One player's clock on a [`TurnCard`].
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ClockReading {
    /// Whose clock ("alice").
    pub player: String,
    /// The time left as text ("4:58", "1d 2:00:00").
    pub remaining: String,
    /// For the clock that is running: when its flag falls, in milliseconds
    /// since the Unix epoch (now plus the time left), so that an adapter can
    /// show a countdown the platform keeps live.
    pub deadline: Option<i64>,
}

/// A variant as adapters offer it (Discord autocomplete, Telegram's picker):
/// the id the service understands and the names people read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantChoice {
    /// The variant id passed to the service (`"chess"`, `"fogofwar"`).
    pub id: String,
    /// English name.
    pub name_en: String,
    /// Russian name.
    pub name_ru: String,
}

impl VariantChoice {
    /// The name for a platform locale (`"ru"`, `"ru-RU"` → Russian, anything
    /// else → English).
    pub fn name(&self, locale: &str) -> &str {
        if locale.to_lowercase().starts_with("ru") {
            &self.name_ru
        } else {
            &self.name_en
        }
    }
}

/// The choices for every variant of a registry, in its order.
pub fn variant_choices(registry: &kodex_engine::Registry) -> Vec<VariantChoice> {
    registry
        .all()
        .iter()
        .map(|variant| VariantChoice {
            id: variant.id().to_string(),
            name_en: variant.name("en").to_string(),
            name_ru: variant.name("ru").to_string(),
        })
        .collect()
}

/// Cuts text into pieces of at most `limit` characters (a platform's message
/// limit), at line ends where possible; a line longer than `limit` is cut at
/// a character boundary. Whitespace-only remainders are dropped.
///
/// ```
/// assert_eq!(
///     kodex_bot::api::split_text("aaaa\nbbbb\ncccc\n", 10),
///     vec!["aaaa\nbbbb\n", "cccc\n"]
/// );
/// ```
pub fn split_text(text: &str, limit: usize) -> Vec<String> {
    let limit = limit.max(1);
    let mut chunks = Vec::new();
    let mut current = String::new();
    let mut current_chars = 0;
    for line in text.split_inclusive('\n') {
        let mut line = line;
        loop {
            let line_chars = line.chars().count();
            if current_chars + line_chars <= limit {
                current.push_str(line);
                current_chars += line_chars;
                break;
            }
            if current_chars > 0 {
                chunks.push(std::mem::take(&mut current));
                current_chars = 0;
                continue;
            }
            let cut = line
                .char_indices()
                .nth(limit)
                .map_or(line.len(), |(at, _)| at);
            chunks.push(line[..cut].to_string());
            line = &line[cut..];
        }
    }
    if !current.trim().is_empty() {
        chunks.push(current);
    }
    chunks
}

/// What an adapter asks suggestions for while someone types a command's
/// option (Discord's autocomplete).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum SuggestionKind {
    /// The caller's legal moves in their game (the one named, else their
    /// game in the chat), when it is their turn: SAN starting with what was
    /// typed. In a hidden-information game only what their own view shows.
    Move {
        /// The game id given in another option, if any.
        game: Option<String>,
    },
    /// Time controls (`3+2`, `10+5`, `1d`) from the clock presets.
    Clock,
    /// The caller's own challenges and games, by id.
    Game,
}

/// A question for suggestions: who is typing where, and what so far. The
/// service answers it without changing or storing anything.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SuggestionRequest {
    /// Where the command is being typed.
    pub chat: ChatRef,
    /// Whether that is a private chat with the bot.
    pub private: bool,
    /// Who is typing.
    pub actor: UserRef,
    /// The platform's locale of the actor, if known.
    pub locale: Option<String>,
    /// What the suggestions are for.
    pub kind: SuggestionKind,
    /// What has been typed so far.
    pub typed: String,
}

/// One suggestion: what people read and what the option receives.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Suggestion {
    /// Shown in the list (1–100 characters).
    pub label: String,
    /// Put in the option when chosen (at most 100 characters).
    pub value: String,
}

/// The most suggestions anyone shows at once (Discord's 25 choices).
pub const MAX_SUGGESTIONS: usize = 25;

/// A boxed future returned by [`Handler::suggest`].
pub type SuggestionFuture<'a> =
    std::pin::Pin<Box<dyn std::future::Future<Output = Vec<Suggestion>> + Send + 'a>>;

/// Who reads one of an adapter's own texts (a notice, a button label, an
/// error): its language is theirs.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Reader {
    /// One person: their `/lang`, else `locale` (their platform's), else
    /// the default.
    Person {
        /// The person.
        user: UserRef,
        /// Their platform locale, if known (`"ru"`, `"en-US"`).
        locale: Option<String>,
    },
    /// Everyone in a chat: the chat's language (`/lang chat`, else the
    /// platform's locale of the chat, else the default).
    Chat(ChatRef),
}

/// A boxed future returned by [`Handler::text`].
pub type TextFuture<'a> = std::pin::Pin<Box<dyn std::future::Future<Output = String> + Send + 'a>>;

/// What the service is busy with for an audience while it handles a
/// request, for adapters that show it (Telegram's "sending a photo…").
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Activity {
    /// A board image is being drawn.
    DrawingImage,
    /// A game animation (GIF) is being drawn.
    DrawingAnimation,
}

/// Told by the service, before it draws, what it draws for whom; the
/// service waits for the returned future (keep it short).
pub type ActivityWatcher = std::sync::Arc<
    dyn Fn(Target, Activity) -> std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send>>
        + Send
        + Sync,
>;

/// A boxed future returned by [`Handler::handle`].
pub type HandlerFuture<'a> =
    std::pin::Pin<Box<dyn std::future::Future<Output = Vec<Delivery>> + Send + 'a>>;

/// What adapters call: the game service implements it (tests may use a toy).
///
/// Every method is required: a wrapper (such as the request counter `kodex`
/// puts in front of the service) must forward each one, so none can be
/// silently replaced by a default that answers nothing.
///
/// Deliveries not caused by a request (a flag falling, a challenge expiring)
/// reach adapters through the service's outbox for their platform instead.
pub trait Handler: Send + Sync + 'static {
    /// Handles one request and returns what to send, in order.
    fn handle(&self, request: Request) -> HandlerFuture<'_>;

    /// Like [`Handler::handle`], telling `watcher` what is being drawn for
    /// whom before drawing it. A handler that draws nothing may ignore it.
    fn handle_watched(&self, request: Request, watcher: ActivityWatcher) -> HandlerFuture<'_>;

    /// The message `key` of the locale files (`config/locales/*.ftl`) with
    /// `args`, in `reader`'s language: how adapters write their own texts.
    fn text(
        &self,
        reader: Reader,
        key: &'static str,
        args: Vec<(&'static str, String)>,
    ) -> TextFuture<'_>;

    /// Suggestions for an option being typed, at most [`MAX_SUGGESTIONS`];
    /// nothing changes.
    fn suggest(&self, request: SuggestionRequest) -> SuggestionFuture<'_>;

    /// The adapter of `platform` tells who the bot is there: its handle
    /// (a Telegram bot's username), for the links the service writes
    /// (an invitation's `t.me/<bot>?start=…`). Does nothing by default.
    fn introduce(&self, platform: Platform, handle: &str) {
        let _ = (platform, handle);
    }
}

/// [`Handler::text`] for a handler with no service behind it (a test's toy):
/// English, or the person's platform locale.
pub fn text_without_service(
    reader: &Reader,
    key: &'static str,
    args: &[(&'static str, String)],
) -> String {
    let lang = match reader {
        Reader::Person { locale, .. } => locale.as_deref().and_then(crate::i18n::Lang::parse),
        Reader::Chat(_) => None,
    };
    crate::i18n::catalogue().format(lang.unwrap_or_default(), key, args)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_button_action_round_trips_and_fits_both_platforms() {
        let game = "g".repeat(ButtonAction::MAX_GAME_ID);
        let actions = [
            ButtonAction::Accept { game: game.clone() },
            ButtonAction::Decline { game: game.clone() },
            ButtonAction::Draw { game: game.clone() },
            ButtonAction::DeclineDraw { game: game.clone() },
            ButtonAction::Exchange { game: game.clone() },
            ButtonAction::DeclineExchange { game: game.clone() },
            ButtonAction::Takeback { game: game.clone() },
            ButtonAction::RefuseTakeback { game: game.clone() },
            ButtonAction::Board { game: None },
            ButtonAction::Board {
                game: Some(game.clone()),
            },
            ButtonAction::Resign {
                game: game.clone(),
                side: "w".into(),
                ply: None,
            },
            ButtonAction::Resign {
                game: game.clone(),
                side: "b".into(),
                ply: Some(17),
            },
            ButtonAction::KeepPlaying { game: game.clone() },
            ButtonAction::AskResign { game: game.clone() },
            ButtonAction::SetupRandom { game: game.clone() },
            ButtonAction::SetupReady { game: game.clone() },
            ButtonAction::TakeSeat {
                game: game.clone(),
                seat: 3,
            },
            ButtonAction::Rematch { game: game.clone() },
            ButtonAction::ShareInvite { game: game.clone() },
            ButtonAction::Join { code: game.clone() },
            ButtonAction::Watch { game },
        ];
        for action in actions {
            let data = action.encode();
            assert!(
                !data.is_empty() && data.len() <= 64,
                "{data}: Telegram's 64 bytes"
            );
            assert!(
                data.chars().count() <= 100,
                "{data}: Discord's 100 characters"
            );
            assert_eq!(ButtonAction::decode(&data), Some(action));
        }
    }

    #[test]
    fn garbage_and_oversized_data_decode_to_nothing() {
        for data in [
            "",
            "acc",
            "acc:",
            "zzz:k7m2",
            "rsg:k7m2",
            "rsg::w",
            "acc:k7 m2",
            "acc:k7:m2",
            "kodex:board",
            &format!("acc:{}", "x".repeat(ButtonAction::MAX_GAME_ID + 1)),
        ] {
            assert_eq!(ButtonAction::decode(data), None, "{data:?}");
        }
        assert!(ButtonAction::decode("rsg:k7m2:b").is_some_and(|action| action.is_irreversible()));
        assert!(!ButtonAction::decode("acc:k7m2").is_some_and(|action| action.is_irreversible()));
    }

    #[test]
    fn a_colour_is_stored_as_its_word_and_read_back_from_any_word_of_it() {
        for choice in [ColorChoice::White, ColorChoice::Black, ColorChoice::Random] {
            let stored = serde_json::to_string(&choice).unwrap();
            assert_eq!(stored, format!("\"{}\"", choice.word()));
            assert_eq!(
                serde_json::from_str::<ColorChoice>(&stored).unwrap(),
                choice
            );
        }
        // Menus stored before the colour was typed hold the word as typed.
        let old: ColorChoice = serde_json::from_str("\"чёрные\"").unwrap();
        assert_eq!(old, ColorChoice::Black);
        assert!(serde_json::from_str::<ColorChoice>("\"purple\"").is_err());
    }
}
