//! The slash commands: one for each command of [`crate::command::COMMANDS`]
//! that Discord has, named and described (in English and Russian) from that
//! table. Commands that take nothing or a game id share one handler each;
//! the others have their own, with the options they need. Each defers the
//! interaction first (Discord allows 3 s), asks the service, and sends what
//! it answers.
//!
//! Commands are deferred *ephemerally*: whether the answer is public (a board
//! for the channel) or private (a fog-of-war board) is only known after the
//! service answered, and an ephemeral deferral can never leak: public
//! deliveries are posted as channel messages, and the "thinking…" response is
//! replaced by the first private answer or deleted.

use std::borrow::Cow;

use poise::serenity_prelude as serenity;
use poise::CreateReply;
use serenity::{AutocompleteChoice, CreateAutocompleteResponse};

use super::caller::{chat_ref, user_ref, Caller};
use super::texts;
use super::{Context, Data, Error};
use crate::api::{
    Action, ColorChoice, LangChoice, NotationChoice, SuggestionKind, SuggestionRequest, UserRef,
};
use crate::command::{Command, Does};
use crate::i18n::Lang;

/// Every slash command, ready for poise.
pub(super) fn all() -> Vec<poise::Command<Data, Error>> {
    crate::command::COMMANDS
        .iter()
        .filter(|command| command.discord)
        .filter_map(|command| {
            let slash = slash(command);
            if slash.is_none() {
                tracing::error!("/{} has no Discord handler", command.name);
            }
            slash
        })
        .collect()
}

/// The slash command of `command`: its handler, with the names and
/// descriptions of the table (and the table's entry, for the shared
/// handlers to find what they ask).
fn slash(command: &'static Command) -> Option<poise::Command<Data, Error>> {
    let mut slash = match command.does {
        Does::Nothing(_) => without_options(),
        Does::Game(_) => with_game(),
        Does::Words(_) => own(command.name)?,
    };
    slash.name = Cow::Borrowed(command.name);
    slash.identifying_name = Cow::Borrowed(command.name);
    slash.name_localizations = Cow::Owned(vec![(
        Cow::Borrowed("ru"),
        Cow::Borrowed(command.russian_name()),
    )]);
    slash.description = Some(Cow::Owned(command.description(Lang::En)));
    slash.description_localizations = Cow::Owned(vec![(
        Cow::Borrowed("ru"),
        Cow::Owned(command.description(Lang::Ru)),
    )]);
    slash.custom_data = Box::new(command);
    Some(slash)
}

/// The handlers of the commands that read more than a game id.
fn own(name: &str) -> Option<poise::Command<Data, Error>> {
    Some(match name {
        "play" => play(),
        "move" => move_(),
        "learn" => learn(),
        "help" => help(),
        "rules" => rules(),
        "lang" => lang(),
        "settings" => settings(),
        "notation" => notation(),
        "partner" => partner(),
        "rating" => rating(),
        "leaderboard" => leaderboard(),
        "stats" => stats(),
        "lobby" => lobby(),
        "playnow" => playnow(),
        "invite" => invite(),
        "join" => join(),
        "notify" => notify(),
        "tournament" => tournament(),
        _ => return None,
    })
}

/// The table's entry of the command `ctx` runs.
fn entry(ctx: Context<'_>) -> Option<&'static Command> {
    ctx.command()
        .custom_data
        .downcast_ref::<&'static Command>()
        .copied()
}

/// A command that takes nothing (`/games`).
#[poise::command(slash_command)]
async fn without_options(ctx: Context<'_>) -> Result<(), Error> {
    match entry(ctx).map(|command| command.does) {
        Some(Does::Nothing(action)) => submit(ctx, action()).await,
        _ => Ok(()),
    }
}

// Its one option is optional: the service finds the caller's game in the
// channel when it is left out.
/// A command whose only option is the game it is about.
#[poise::command(slash_command)]
async fn with_game(
    ctx: Context<'_>,
    #[description = "Game id, when you play several here"]
    #[name_localized("ru", "партия")]
    #[description_localized("ru", "Номер партии, если вы играете здесь несколько")]
    #[autocomplete = "autocomplete_game"]
    #[max_length = 64]
    game: Option<String>,
) -> Result<(), Error> {
    match entry(ctx).map(|command| command.does) {
        Some(Does::Game(action)) => submit(ctx, action(game)).await,
        _ => Ok(()),
    }
}

/// The colour the challenger wants.
#[derive(poise::ChoiceParameter, Clone, Copy, Debug)]
pub(super) enum Colour {
    #[name = "White"]
    #[name_localized("ru", "Белые")]
    White,
    #[name = "Black"]
    #[name_localized("ru", "Чёрные")]
    Black,
    #[name = "Random"]
    #[name_localized("ru", "Случайно")]
    Random,
}

impl From<Colour> for ColorChoice {
    fn from(colour: Colour) -> ColorChoice {
        match colour {
            Colour::White => ColorChoice::White,
            Colour::Black => ColorChoice::Black,
            Colour::Random => ColorChoice::Random,
        }
    }
}

/// The bot's languages as a choice, each by its own name ("English",
/// "Русский").
impl poise::ChoiceParameter for Lang {
    fn list() -> Cow<'static, [poise::CommandParameterChoice]> {
        Lang::ALL
            .iter()
            .map(|lang| poise::CommandParameterChoice {
                name: Cow::Borrowed(lang.own_name()),
                localizations: Cow::Borrowed(&[]),
                __non_exhaustive: (),
            })
            .collect()
    }

    fn from_index(index: usize) -> Option<Lang> {
        Lang::ALL.get(index).copied()
    }

    fn from_name(name: &str) -> Option<Lang> {
        Lang::ALL.into_iter().find(|lang| lang.own_name() == name)
    }

    fn name(&self) -> &'static str {
        self.own_name()
    }

    fn localized_name(&self, _locale: &str) -> Option<&'static str> {
        None
    }
}

/// Starts a game: challenges someone, or anyone in the channel.
#[poise::command(slash_command)]
// Each option of the slash command is a parameter (poise).
#[allow(clippy::too_many_arguments)]
async fn play(
    ctx: Context<'_>,
    #[description = "The variant"]
    #[name_localized("ru", "вариант")]
    #[description_localized("ru", "Вариант игры")]
    #[autocomplete = "autocomplete_variant"]
    #[max_length = 64]
    variant: String,
    #[description = "Who you challenge (anyone if empty)"]
    #[name_localized("ru", "соперник")]
    #[description_localized("ru", "Кого вы вызываете (любого, если пусто)")]
    opponent: Option<serenity::User>,
    #[description = "Time control: 3+2, 10+5, 1d … (none if empty)"]
    #[name_localized("ru", "часы")]
    #[description_localized("ru", "Контроль времени: 3+2, 10+5, 1d … (без часов, если пусто)")]
    #[autocomplete = "autocomplete_clock"]
    #[max_length = 16]
    clock: Option<String>,
    #[description = "Your colour"]
    #[name_localized("ru", "цвет")]
    #[description_localized("ru", "Ваш цвет")]
    colour: Option<Colour>,
    #[description = "The computer's level, 1 to 8, when you play the bot"]
    #[name_localized("ru", "уровень")]
    #[description_localized("ru", "Уровень компьютера, от 1 до 8, если вы играете с ботом")]
    #[min = 1]
    #[max = 8]
    level: Option<u8>,
    #[description = "Your partner in a game for four (open seat if empty)"]
    #[name_localized("ru", "партнёр")]
    #[description_localized("ru", "Ваш партнёр в игре вчетвером (свободное место, если пусто)")]
    partner: Option<serenity::User>,
    #[description = "The second opponent in a game for four (open seat if empty)"]
    #[name_localized("ru", "соперник2")]
    #[description_localized(
        "ru",
        "Второй соперник в игре вчетвером (свободное место, если пусто)"
    )]
    opponent2: Option<serenity::User>,
    #[description = "Start from this position (FEN)"]
    #[name_localized("ru", "позиция")]
    #[description_localized("ru", "Начать с этой позиции (FEN)")]
    #[max_length = 256]
    fen: Option<String>,
    #[description = "Rated (changes ratings) or casual; rated by default with a clock"]
    #[name_localized("ru", "рейтинговая")]
    #[description_localized(
        "ru",
        "Рейтинговая (меняет рейтинг) или товарищеская; с часами по умолчанию рейтинговая"
    )]
    rated: Option<bool>,
    #[description = "Publish it in the lobby of all Discord (an open challenge anyone may take)"]
    #[name_localized("ru", "всем")]
    #[description_localized(
        "ru",
        "Опубликовать в лобби всего Discord (открытый вызов, принять может любой)"
    )]
    public: Option<bool>,
) -> Result<(), Error> {
    // Challenging a bot (this one: `/play chess @Kodex`) is a game against
    // the computer.
    let computer = |user: &serenity::User| {
        user.bot.then(|| {
            UserRef::computer(
                crate::api::Platform::Discord,
                level.unwrap_or(crate::service::DEFAULT_COMPUTER_LEVEL),
            )
        })
    };
    let clock = clock.filter(|clock| !clock.trim().is_empty());
    let color = colour.map(ColorChoice::from);
    let action = if fen.is_none() && (partner.is_some() || opponent2.is_some()) {
        // A team challenge: the seats nobody is named for stay open.
        Action::PlayTeams {
            variant,
            // The bot named sits as the computer there, at the level given.
            partners: partner
                .iter()
                .map(|user| computer(user).unwrap_or_else(|| user_ref(user, None)))
                .collect(),
            opponents: [opponent, opponent2]
                .iter()
                .flatten()
                .map(|user| computer(user).unwrap_or_else(|| user_ref(user, None)))
                .collect(),
            clock,
            color,
            rated,
        }
    } else {
        Action::Play {
            variant,
            opponent: opponent
                .as_ref()
                .map(|user| computer(user).unwrap_or_else(|| user_ref(user, None))),
            clock,
            color,
            fen,
            rated,
            public: public.unwrap_or(false),
        }
    };
    submit(ctx, action).await
}

/// The open challenges here and the public seeks of all Discord.
#[poise::command(slash_command)]
async fn lobby(
    ctx: Context<'_>,
    #[description = "Only this variant (all if empty)"]
    #[name_localized("ru", "вариант")]
    #[description_localized("ru", "Только этот вариант (все, если пусто)")]
    #[autocomplete = "autocomplete_variant"]
    #[max_length = 64]
    variant: Option<String>,
) -> Result<(), Error> {
    let variant = variant.filter(|variant| !variant.trim().is_empty());
    submit(ctx, Action::Lobby { variant }).await
}

/// Joins the best open game, or publishes a seek.
#[poise::command(slash_command)]
async fn playnow(
    ctx: Context<'_>,
    #[description = "The variant (any if empty; a new seek is chess)"]
    #[name_localized("ru", "вариант")]
    #[description_localized("ru", "Вариант (любой, если пусто; новая заявка — шахматы)")]
    #[autocomplete = "autocomplete_variant"]
    #[max_length = 64]
    variant: Option<String>,
    #[description = "Time control (any if empty; a new seek is 5+3)"]
    #[name_localized("ru", "часы")]
    #[description_localized("ru", "Контроль времени (любой, если пусто; новая заявка — 5+3)")]
    #[autocomplete = "autocomplete_clock"]
    #[max_length = 16]
    clock: Option<String>,
) -> Result<(), Error> {
    let action = Action::PlayNow {
        variant: variant.filter(|variant| !variant.trim().is_empty()),
        clock: clock.filter(|clock| !clock.trim().is_empty()),
    };
    submit(ctx, action).await
}

/// A one-time code for a friend: the first to use it plays you.
#[poise::command(slash_command)]
async fn invite(
    ctx: Context<'_>,
    #[description = "The variant (chess if empty)"]
    #[name_localized("ru", "вариант")]
    #[description_localized("ru", "Вариант игры (шахматы, если пусто)")]
    #[autocomplete = "autocomplete_variant"]
    #[max_length = 64]
    variant: Option<String>,
    #[description = "Time control: 3+2, 10+5, 1d … (none if empty)"]
    #[name_localized("ru", "часы")]
    #[description_localized("ru", "Контроль времени: 3+2, 10+5, 1d … (без часов, если пусто)")]
    #[autocomplete = "autocomplete_clock"]
    #[max_length = 16]
    clock: Option<String>,
    #[description = "Your colour"]
    #[name_localized("ru", "цвет")]
    #[description_localized("ru", "Ваш цвет")]
    colour: Option<Colour>,
    #[description = "Rated (changes ratings) or casual; rated by default with a clock"]
    #[name_localized("ru", "рейтинговая")]
    #[description_localized(
        "ru",
        "Рейтинговая (меняет рейтинг) или товарищеская; с часами по умолчанию рейтинговая"
    )]
    rated: Option<bool>,
) -> Result<(), Error> {
    let action = Action::Invite {
        variant: variant.filter(|variant| !variant.trim().is_empty()),
        clock: clock.filter(|clock| !clock.trim().is_empty()),
        color: colour.map(ColorChoice::from),
        rated,
    };
    submit(ctx, action).await
}

/// Turns the personal ticker on or off (without a choice: says which).
#[poise::command(slash_command)]
async fn notify(
    ctx: Context<'_>,
    #[description = "On: news of your games from other channels, by DM"]
    #[name_localized("ru", "включить")]
    #[description_localized("ru", "Вкл.: новости ваших партий из других каналов, в личку")]
    on: Option<bool>,
) -> Result<(), Error> {
    submit(ctx, Action::Notify { on }).await
}

/// Whether the member who asked may manage the server (Discord tells each
/// interaction what the member may do in the channel).
fn manages_server(ctx: Context<'_>) -> bool {
    match ctx {
        poise::Context::Application(app) => app
            .interaction
            .member
            .as_ref()
            .and_then(|member| member.permissions)
            .is_some_and(|permissions| permissions.manage_guild()),
        poise::Context::Prefix(_) => false,
    }
}

/// A tournament of the channel: what to do, as typed after `/tournament`.
#[poise::command(slash_command)]
async fn tournament(
    ctx: Context<'_>,
    #[description = "new swiss chess 3+2 5 in 10 · join · leave · pause · standings · start · add computer · trf"]
    #[name_localized("ru", "что")]
    #[description_localized(
        "ru",
        "новый swiss chess 3+2 5 через 10 · войти · выйти · пауза · таблица · начать · добавить computer"
    )]
    #[max_length = 200]
    what: String,
) -> Result<(), Error> {
    let chat_admin = manages_server(ctx);
    let words: Vec<&str> = what.split_whitespace().collect();
    let action = Action::Tournament {
        command: crate::command::tournament(&words),
        chat_admin,
    };
    submit(ctx, action).await
}

/// Takes a friend's invitation by its code.
#[poise::command(slash_command)]
async fn join(
    ctx: Context<'_>,
    #[description = "The invitation's code"]
    #[name_localized("ru", "код")]
    #[description_localized("ru", "Код приглашения")]
    #[max_length = 64]
    code: String,
) -> Result<(), Error> {
    submit(ctx, Action::Join { code }).await
}

/// Someone's ratings per variant (yours without a user).
#[poise::command(slash_command)]
async fn rating(
    ctx: Context<'_>,
    #[description = "Whose ratings (yours if empty)"]
    #[name_localized("ru", "игрок")]
    #[description_localized("ru", "Чей рейтинг (ваш, если пусто)")]
    user: Option<serenity::User>,
) -> Result<(), Error> {
    let user = user.as_ref().map(|user| user_ref(user, None));
    submit(ctx, Action::Rating { user }).await
}

/// The best rated players of a variant, here or on the whole platform.
#[poise::command(slash_command)]
async fn leaderboard(
    ctx: Context<'_>,
    #[description = "The variant (chess if empty)"]
    #[name_localized("ru", "вариант")]
    #[description_localized("ru", "Вариант игры (шахматы, если пусто)")]
    #[autocomplete = "autocomplete_variant"]
    #[max_length = 64]
    variant: Option<String>,
    #[description = "Everyone on Discord, not only this server's channel"]
    #[name_localized("ru", "все")]
    #[description_localized("ru", "Все игроки Discord, а не только этого канала")]
    global: Option<bool>,
    #[description = "The page, from 1"]
    #[name_localized("ru", "страница")]
    #[description_localized("ru", "Страница, с 1")]
    #[min = 1]
    #[max = 1000]
    page: Option<u32>,
) -> Result<(), Error> {
    let action = Action::Leaderboard {
        variant: variant.filter(|variant| !variant.trim().is_empty()),
        global: global.unwrap_or(false),
        page: page.unwrap_or(1).max(1),
    };
    submit(ctx, action).await
}

/// Someone's games, results by variant and winning streaks.
#[poise::command(slash_command)]
async fn stats(
    ctx: Context<'_>,
    #[description = "Whose results (yours if empty)"]
    #[name_localized("ru", "игрок")]
    #[description_localized("ru", "Чьи результаты (ваши, если пусто)")]
    user: Option<serenity::User>,
) -> Result<(), Error> {
    let user = user.as_ref().map(|user| user_ref(user, None));
    submit(ctx, Action::Stats { user }).await
}

/// Bughouse: sends your partner a private message.
#[poise::command(slash_command)]
async fn partner(
    ctx: Context<'_>,
    #[description = "What to tell your partner"]
    #[name_localized("ru", "текст")]
    #[description_localized("ru", "Что сказать партнёру")]
    #[max_length = 500]
    text: String,
) -> Result<(), Error> {
    submit(ctx, Action::Partner { text }).await
}

/// How the moves shown to you privately are written.
#[derive(poise::ChoiceParameter, Clone, Copy, Debug)]
pub(super) enum Notation {
    #[name = "By my language"]
    #[name_localized("ru", "По моему языку")]
    Auto,
    #[name = "Russian letters (Кр Ф Л С К)"]
    #[name_localized("ru", "Русские буквы (Кр Ф Л С К)")]
    Russian,
    #[name = "English letters (K Q R B N)"]
    #[name_localized("ru", "Английские буквы (K Q R B N)")]
    English,
}

/// Chooses the piece letters of the moves shown to you privately.
#[poise::command(slash_command)]
async fn notation(
    ctx: Context<'_>,
    #[description = "The piece letters"]
    #[name_localized("ru", "буквы")]
    #[description_localized("ru", "Буквы фигур")]
    letters: Notation,
) -> Result<(), Error> {
    let notation = match letters {
        Notation::Auto => NotationChoice::Auto,
        Notation::Russian => NotationChoice::Letters(Lang::Ru),
        Notation::English => NotationChoice::Letters(Lang::En),
    };
    submit(ctx, Action::Notation { notation }).await
}

/// Plays a move (e4, Nf3, e7e8q …).
#[poise::command(slash_command)]
async fn move_(
    ctx: Context<'_>,
    #[description = "The move"]
    #[name_localized("ru", "ход")]
    #[description_localized("ru", "Ход")]
    #[autocomplete = "autocomplete_move"]
    #[max_length = 100]
    #[rename = "move"]
    text: String,
    #[description = "Game id, when you play several here"]
    #[name_localized("ru", "партия")]
    #[description_localized("ru", "Номер партии, если вы играете здесь несколько")]
    #[autocomplete = "autocomplete_game"]
    #[max_length = 64]
    game: Option<String>,
) -> Result<(), Error> {
    submit(ctx, Action::Move { text, game }).await
}

/// The lessons of the teaching ladder, or one of them started.
#[poise::command(slash_command)]
async fn learn(
    ctx: Context<'_>,
    #[description = "The lesson to start, 1 to 6 (the list if empty)"]
    #[name_localized("ru", "урок")]
    #[description_localized("ru", "Урок, от 1 до 6 (список, если пусто)")]
    #[min = 1]
    #[max = 6]
    lesson: Option<u8>,
    #[description = "Who you play it with (anyone if empty; the bot for the computer)"]
    #[name_localized("ru", "соперник")]
    #[description_localized("ru", "С кем играть (любой, если пусто; бот — компьютер)")]
    opponent: Option<serenity::User>,
) -> Result<(), Error> {
    let Some(variant) = lesson.and_then(crate::service::lesson_id) else {
        return submit(ctx, Action::Learn).await;
    };
    let opponent = opponent.as_ref().map(|user| {
        if user.bot {
            UserRef::computer(
                crate::api::Platform::Discord,
                crate::service::DEFAULT_COMPUTER_LEVEL,
            )
        } else {
            user_ref(user, None)
        }
    });
    let action = Action::Play {
        variant,
        opponent,
        clock: None,
        color: None,
        fen: None,
        rated: None,
        public: false,
    };
    submit(ctx, action).await
}

/// The topics of `/help`.
#[derive(poise::ChoiceParameter, Clone, Copy, Debug)]
pub(super) enum HelpTopic {
    #[name = "Starting games"]
    #[name_localized("ru", "Как начать партию")]
    Play,
    #[name = "Moves, offers, buttons"]
    #[name_localized("ru", "Ходы, предложения, кнопки")]
    Moves,
    #[name = "Fog of war, Kriegspiel, setups, time travel"]
    #[name_localized("ru", "Туман войны, кригшпиль, расстановка, время")]
    Hidden,
    #[name = "Games for four"]
    #[name_localized("ru", "Игры вчетвером")]
    Four,
    #[name = "Watching, notation, reminders, language"]
    #[name_localized("ru", "Наблюдение, нотация, напоминания, язык")]
    More,
}

impl HelpTopic {
    /// The topic's word, as `/help <topic>` takes it.
    fn word(self) -> &'static str {
        match self {
            HelpTopic::Play => "play",
            HelpTopic::Moves => "moves",
            HelpTopic::Hidden => "hidden",
            HelpTopic::Four => "four",
            HelpTopic::More => "more",
        }
    }
}

/// The first steps, or one topic in full.
#[poise::command(slash_command)]
async fn help(
    ctx: Context<'_>,
    #[description = "One topic in full (the first steps if empty)"]
    #[name_localized("ru", "тема")]
    #[description_localized("ru", "Одна тема целиком (первые шаги, если пусто)")]
    topic: Option<HelpTopic>,
) -> Result<(), Error> {
    let topic = topic.map(|topic| topic.word().to_owned());
    submit(ctx, Action::Help { topic }).await
}

/// The rules of a variant.
#[poise::command(slash_command)]
async fn rules(
    ctx: Context<'_>,
    #[description = "The variant"]
    #[name_localized("ru", "вариант")]
    #[description_localized("ru", "Вариант игры")]
    #[autocomplete = "autocomplete_variant"]
    #[max_length = 64]
    variant: String,
) -> Result<(), Error> {
    submit(ctx, Action::Rules { variant }).await
}

/// Sets the language the bot speaks to you.
#[poise::command(slash_command)]
async fn lang(
    ctx: Context<'_>,
    #[description = "The language"]
    #[name_localized("ru", "язык")]
    #[description_localized("ru", "Язык")]
    language: Lang,
    #[description = "For everyone in this channel (needs Manage Server)"]
    #[name_localized("ru", "для_канала")]
    #[description_localized("ru", "Для всех в этом канале (нужно право «Управлять сервером»)")]
    channel: Option<bool>,
) -> Result<(), Error> {
    let chat_admin = manages_server(ctx);
    let choice = if channel.unwrap_or(false) {
        LangChoice::Chat(language)
    } else {
        LangChoice::Mine(language)
    };
    submit(ctx, Action::Lang { choice, chat_admin }).await
}

/// Shows or changes this channel's settings.
#[poise::command(slash_command)]
async fn settings(
    ctx: Context<'_>,
    #[description = "board white · board side-to-move (changing needs Manage Server)"]
    #[name_localized("ru", "что")]
    #[description_localized(
        "ru",
        "доска белые · доска ходящий (изменить: право «Управлять сервером»)"
    )]
    #[max_length = 100]
    what: Option<String>,
) -> Result<(), Error> {
    let chat_admin = manages_server(ctx);
    let choice = crate::api::SettingsChoice::parse(what.as_deref().unwrap_or(""));
    submit(ctx, Action::Settings { choice, chat_admin }).await
}

/// Variant suggestions in the user's language: prefix matches first, then
/// names containing what was typed.
async fn autocomplete_variant(ctx: Context<'_>, partial: &str) -> CreateAutocompleteResponse {
    let locale = ctx.locale().unwrap_or("en");
    let typed = partial.trim().to_lowercase();
    let mut matches: Vec<(bool, AutocompleteChoice)> = ctx
        .data()
        .variants
        .iter()
        .filter_map(|variant| {
            let names = [
                variant.id.to_lowercase(),
                variant.name(locale).to_lowercase(),
            ];
            let prefix = names.iter().any(|name| name.starts_with(&typed));
            let contains = typed.is_empty()
                || [&variant.id, &variant.name_en, &variant.name_ru]
                    .iter()
                    .any(|name| name.to_lowercase().contains(&typed));
            (prefix || contains).then(|| {
                (
                    prefix,
                    AutocompleteChoice::new(variant.name(locale), variant.id.clone()),
                )
            })
        })
        .collect();
    // Stable: prefix matches first, each group in the configured order.
    matches.sort_by_key(|(prefix, _)| !prefix);
    let choices = matches
        .into_iter()
        .map(|(_, choice)| choice)
        .take(25)
        .collect();
    CreateAutocompleteResponse::new().set_choices(choices)
}

/// The caller's legal moves in their game (the one the `game` option
/// names, if filled in), as the service suggests them.
async fn autocomplete_move(ctx: Context<'_>, partial: &str) -> CreateAutocompleteResponse {
    let game = match ctx {
        poise::Context::Application(app) => app
            .interaction
            .data
            .options()
            .into_iter()
            .find(|option| option.name == "game")
            .and_then(|option| match option.value {
                serenity::ResolvedValue::String(text) => Some(text.to_owned()),
                serenity::ResolvedValue::Autocomplete { value, .. } => Some(value.to_owned()),
                _ => None,
            })
            .filter(|game| !game.trim().is_empty()),
        poise::Context::Prefix(_) => None,
    };
    suggest(ctx, SuggestionKind::Move { game }, partial).await
}

/// Clocks (`3+2`, `10+5`, `1d` …) as the service suggests them.
async fn autocomplete_clock(ctx: Context<'_>, partial: &str) -> CreateAutocompleteResponse {
    suggest(ctx, SuggestionKind::Clock, partial).await
}

/// The caller's own games, by id.
async fn autocomplete_game(ctx: Context<'_>, partial: &str) -> CreateAutocompleteResponse {
    suggest(ctx, SuggestionKind::Game, partial).await
}

/// Asks the service for suggestions and answers with at most 25 choices
/// whose names (1–100 characters) and values (at most 100) Discord takes.
async fn suggest(
    ctx: Context<'_>,
    kind: SuggestionKind,
    partial: &str,
) -> CreateAutocompleteResponse {
    let poise::Context::Application(app) = ctx else {
        return CreateAutocompleteResponse::new();
    };
    let interaction = app.interaction;
    let in_dm = interaction.guild_id.is_none();
    let request = SuggestionRequest {
        chat: chat_ref(interaction.channel_id),
        // Like `/move` itself: nobody else sees what is typed.
        private: in_dm || matches!(kind, SuggestionKind::Move { .. }),
        actor: user_ref(
            &interaction.user,
            interaction
                .member
                .as_ref()
                .and_then(|member| member.nick.as_deref()),
        ),
        locale: Some(interaction.locale.clone()),
        kind,
        typed: partial.chars().take(100).collect(),
    };
    let choices = ctx
        .data()
        .answerer
        .handler
        .suggest(request)
        .await
        .into_iter()
        .filter(|suggestion| {
            (1..=100).contains(&suggestion.label.chars().count())
                && (1..=100).contains(&suggestion.value.chars().count())
        })
        .take(25)
        .map(|suggestion| AutocompleteChoice::new(suggestion.label, suggestion.value))
        .collect();
    CreateAutocompleteResponse::new().set_choices(choices)
}

/// Defers the interaction, asks the service, sends its deliveries.
async fn submit(ctx: Context<'_>, action: Action) -> Result<(), Error> {
    let poise::Context::Application(app) = ctx else {
        return Ok(());
    };
    let interaction = app.interaction;
    let data = ctx.data();
    // Defer first: the service may take longer than Discord's 3 s. A failed
    // deferral must not lose the move: handle it and answer without the token.
    let deferred = super::retry::acknowledge(|| app.defer_response(true)).await;
    let caller = Caller {
        user: &interaction.user,
        nick: interaction
            .member
            .as_ref()
            .and_then(|member| member.nick.as_deref()),
        channel: interaction.channel_id,
        in_dm: interaction.guild_id.is_none(),
        locale: Some(&interaction.locale),
        chat_locale: interaction.guild_locale.as_deref(),
    };
    // A `/move` is private even in a channel: nobody else sees a slash
    // command whose answer is ephemeral. That is what lets a fog-of-war
    // player move from the game's channel (the service refuses hidden-
    // information moves said in public); the service still prefers the
    // author's games in this channel.
    let private = caller.in_dm || matches!(action, Action::Move { .. });
    let request = caller.request(data, private, action);
    let origin = caller.origin(deferred, &interaction.token, true);
    data.answer(request, origin).await;
    Ok(())
}

/// Logs what went wrong and tells the user briefly, in their language: every
/// interaction gets an answer, or Discord tells them the bot did not respond.
pub(super) async fn on_error(error: poise::FrameworkError<'_, Data, Error>) {
    if let poise::FrameworkError::UnknownInteraction {
        framework,
        interaction,
        ..
    } = &error
    {
        tracing::info!("a slash command the bot does not have: {error}");
        let reader = texts::person(interaction.user.id, Some(&interaction.locale));
        let handler = framework.user_data.answerer.handler.as_ref();
        let text = texts::say(handler, reader, "adapter-unknown-command").await;
        let answer = serenity::CreateInteractionResponse::Message(
            serenity::CreateInteractionResponseMessage::new()
                .ephemeral(true)
                .content(text),
        );
        if let Err(error) = interaction
            .create_response(&framework.serenity_context.http, answer)
            .await
        {
            tracing::warn!("answering an unknown command failed: {error}");
        }
        return;
    }
    let text = match &error {
        poise::FrameworkError::ArgumentParse { .. }
        | poise::FrameworkError::CommandStructureMismatch { .. } => {
            tracing::info!("unreadable command options: {error}");
            Some("adapter-bad-options")
        }
        poise::FrameworkError::Command { .. } | poise::FrameworkError::CommandPanic { .. } => {
            tracing::warn!("command failed: {error}");
            Some("adapter-internal-error")
        }
        _ => {
            tracing::warn!("discord framework error: {error}");
            // Where someone is waiting for an answer, they get one.
            Some("adapter-internal-error")
        }
    };
    if let (Some(key), Some(ctx)) = (text, error.ctx()) {
        let reader = texts::person(ctx.author().id, ctx.locale());
        let text = texts::say(ctx.data().answerer.handler.as_ref(), reader, key).await;
        let reply = CreateReply::default().ephemeral(true).content(text);
        if let Err(error) = ctx.send(reply).await {
            tracing::warn!("telling the user about an error failed: {error}");
        }
    }
}
