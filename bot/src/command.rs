//! The chat commands, declared once in [`COMMANDS`]: each command's names
//! (English and Russian), the catalogue key of its description and what it
//! asks of the service. The console and Telegram read typed commands with it
//! ([`parse`]); Telegram registers its command menu from it and Discord its
//! slash commands (their descriptions, in both languages, from the same key).
//!
//! A new command is one entry here, one handler (a [`Does`] below, or the
//! service's for a new [`Action`]; on Discord an own slash handler only when
//! it takes more than a game id) and its description in each catalogue.

use crate::api::{Action, ColorChoice, UserRef};

/// One chat command.
#[derive(Debug)]
pub struct Command {
    /// Its name: typed after `/`, shown in Telegram's menu and registered as
    /// Discord's slash command (`[a-z0-9_]`, at most 32 characters).
    pub name: &'static str,
    /// Other English names it is typed as (`/challenge`).
    pub aliases: &'static [&'static str],
    /// Its Russian names, all typed; the first is the one Discord shows
    /// Russian clients (lower-case letters, digits, `-` and `_`, at most 32).
    /// Without one Discord shows [`Command::name`].
    pub russian: &'static [&'static str],
    /// The catalogue key of its description (`config/locales/*.ftl`), for
    /// Telegram's menu (1–256 characters) and Discord (1–100).
    pub about: &'static str,
    /// Whether Telegram's command menu lists it.
    pub telegram_menu: bool,
    /// Whether it is one of Discord's slash commands.
    pub discord: bool,
    /// What it asks of the service.
    pub does: Does,
}

/// What a command asks of the service, by what it takes.
#[derive(Debug, Clone, Copy)]
pub enum Does {
    /// Nothing: `/games`. Discord registers it without options.
    Nothing(fn() -> Action),
    /// An optional game id: `/accept [game]`. Discord registers it with its
    /// one `game` option.
    Game(fn(Option<String>) -> Action),
    /// Its own reading of the words typed after it; on Discord its own slash
    /// handler reads its options.
    Words(fn(&Typed<'_>) -> Action),
}

/// What was typed after a command's name.
pub struct Typed<'a> {
    /// The words after the name.
    pub args: Vec<&'a str>,
    /// Everything after the name, as typed (line breaks and spacing kept).
    pub rest: &'a str,
    /// Resolves an `@name` to a user (`None`: it is part of the arguments).
    pub mention: &'a dyn Fn(&str) -> Option<UserRef>,
}

impl Typed<'_> {
    /// The first word as a game id (`#k7m2` or `k7m2`).
    fn game(&self) -> Option<String> {
        self.args
            .first()
            .map(|id| id.trim_start_matches('#').to_owned())
    }
}

/// Every command, in the order Telegram's menu lists them.
pub static COMMANDS: &[Command] = &[
    Command {
        name: "play",
        aliases: &["challenge", "new"],
        russian: &["играть", "вызов"],
        about: "command-play",
        telegram_menu: true,
        discord: true,
        does: Does::Words(|typed| play(&typed.args, typed.mention)),
    },
    Command {
        name: "lobby",
        aliases: &["seeks"],
        russian: &["лобби", "заявки"],
        about: "command-lobby",
        telegram_menu: true,
        discord: true,
        does: Does::Words(|typed| Action::Lobby {
            variant: typed.args.first().map(|word| truncate(word, 64).to_owned()),
        }),
    },
    Command {
        name: "playnow",
        aliases: &["quick", "seek"],
        russian: &["сейчас", "быстро"],
        about: "command-playnow",
        telegram_menu: true,
        discord: true,
        does: Does::Words(play_now),
    },
    Command {
        name: "invite",
        aliases: &[],
        russian: &["пригласить"],
        about: "command-invite",
        telegram_menu: true,
        discord: true,
        does: Does::Words(invite),
    },
    Command {
        name: "join",
        aliases: &[],
        russian: &["войти", "присоединиться"],
        about: "command-join",
        telegram_menu: false,
        discord: true,
        does: Does::Words(|typed| Action::Join {
            code: typed
                .args
                .first()
                .map(|word| truncate(word, 64).to_owned())
                .unwrap_or_default(),
        }),
    },
    Command {
        name: "tournament",
        aliases: &["tourney", "t"],
        russian: &["турнир"],
        about: "command-tournament",
        telegram_menu: true,
        discord: true,
        does: Does::Words(|typed| Action::Tournament {
            command: tournament(&typed.args),
            // Adapters that know better say so.
            chat_admin: false,
        }),
    },
    Command {
        name: "berserk",
        aliases: &[],
        russian: &["берсерк"],
        about: "command-berserk",
        telegram_menu: false,
        discord: true,
        does: Does::Game(|game| Action::Berserk { game }),
    },
    Command {
        name: "notify",
        aliases: &["ticker"],
        russian: &["уведомления"],
        about: "command-notify",
        telegram_menu: true,
        discord: true,
        does: Does::Words(|typed| Action::Notify {
            on: typed.args.first().and_then(|word| on_off(word)),
        }),
    },
    Command {
        name: "accept",
        aliases: &["yes"],
        russian: &["принять"],
        about: "command-accept",
        telegram_menu: false,
        discord: true,
        does: Does::Game(|game| Action::Accept { game }),
    },
    Command {
        name: "decline",
        aliases: &["no"],
        russian: &["отклонить"],
        about: "command-decline",
        telegram_menu: false,
        discord: true,
        does: Does::Game(|game| Action::Decline { game }),
    },
    Command {
        name: "move",
        aliases: &[],
        russian: &["ход"],
        about: "command-move",
        telegram_menu: true,
        discord: true,
        does: Does::Words(move_),
    },
    Command {
        name: "m",
        aliases: &[],
        russian: &[],
        about: "command-m",
        telegram_menu: true,
        discord: false,
        does: Does::Words(move_),
    },
    Command {
        name: "resign",
        aliases: &[],
        russian: &["сдаться"],
        about: "command-resign",
        telegram_menu: true,
        discord: true,
        does: Does::Game(|game| Action::Resign { game }),
    },
    Command {
        name: "draw",
        aliases: &[],
        russian: &["ничья"],
        about: "command-draw",
        telegram_menu: true,
        discord: true,
        does: Does::Game(|game| Action::Draw { game }),
    },
    Command {
        name: "nodraw",
        aliases: &["declinedraw"],
        russian: &["без-ничьей"],
        about: "command-nodraw",
        telegram_menu: false,
        discord: true,
        does: Does::Game(|game| Action::DeclineDraw { game }),
    },
    Command {
        name: "takeback",
        aliases: &[],
        russian: &["вернуть"],
        about: "command-takeback",
        telegram_menu: true,
        discord: true,
        does: Does::Game(|game| Action::Takeback { game }),
    },
    Command {
        name: "notakeback",
        aliases: &["refusetakeback"],
        russian: &["не-возвращать"],
        about: "command-notakeback",
        telegram_menu: false,
        discord: true,
        does: Does::Game(|game| Action::RefuseTakeback { game }),
    },
    Command {
        name: "abort",
        aliases: &[],
        russian: &["прервать"],
        about: "command-abort",
        telegram_menu: true,
        discord: true,
        does: Does::Game(|game| Action::Abort { game }),
    },
    Command {
        name: "board",
        aliases: &[],
        russian: &["доска"],
        about: "command-board",
        telegram_menu: true,
        discord: true,
        does: Does::Game(|game| Action::Board { game }),
    },
    Command {
        name: "games",
        aliases: &[],
        russian: &["партии"],
        about: "command-games",
        telegram_menu: true,
        discord: true,
        does: Does::Nothing(|| Action::Games),
    },
    Command {
        name: "rating",
        aliases: &["ratings"],
        russian: &["рейтинг"],
        about: "command-rating",
        telegram_menu: true,
        discord: true,
        does: Does::Words(|typed| Action::Rating {
            user: named_user(typed),
        }),
    },
    Command {
        name: "leaderboard",
        aliases: &["top"],
        russian: &["лидеры", "топ"],
        about: "command-leaderboard",
        telegram_menu: true,
        discord: true,
        does: Does::Words(leaderboard),
    },
    Command {
        name: "stats",
        aliases: &["statistics"],
        russian: &["статистика"],
        about: "command-stats",
        telegram_menu: true,
        discord: true,
        does: Does::Words(|typed| Action::Stats {
            user: named_user(typed),
        }),
    },
    Command {
        name: "pgn",
        aliases: &[],
        russian: &[],
        about: "command-pgn",
        telegram_menu: true,
        discord: true,
        does: Does::Game(|game| Action::Pgn { game }),
    },
    Command {
        name: "review",
        aliases: &["analyse", "analyze"],
        russian: &["разбор"],
        about: "command-review",
        telegram_menu: true,
        discord: true,
        does: Does::Game(|game| Action::Review { game }),
    },
    Command {
        name: "timeline",
        aliases: &["timelines"],
        russian: &["линии"],
        about: "command-timeline",
        telegram_menu: true,
        discord: true,
        does: Does::Game(|game| Action::Timeline { game }),
    },
    Command {
        name: "rules",
        aliases: &[],
        russian: &["правила"],
        about: "command-rules",
        telegram_menu: true,
        discord: true,
        does: Does::Words(|typed| Action::Rules {
            variant: typed.args.join(" "),
        }),
    },
    Command {
        name: "variants",
        aliases: &[],
        russian: &["варианты"],
        about: "command-variants",
        telegram_menu: true,
        discord: true,
        does: Does::Nothing(|| Action::Variants),
    },
    Command {
        name: "learn",
        aliases: &["lesson", "lessons"],
        russian: &["уроки", "учиться", "урок"],
        about: "command-learn",
        telegram_menu: true,
        discord: true,
        does: Does::Words(|typed| learn(&typed.args, typed.mention)),
    },
    Command {
        name: "rematch",
        aliases: &[],
        russian: &["реванш"],
        about: "command-rematch",
        telegram_menu: true,
        discord: true,
        does: Does::Game(|game| Action::Rematch { game }),
    },
    Command {
        name: "watch",
        aliases: &[],
        russian: &["смотреть"],
        about: "command-watch",
        telegram_menu: true,
        discord: true,
        does: Does::Game(|game| Action::Watch { game }),
    },
    Command {
        name: "unwatch",
        aliases: &[],
        russian: &["не-смотреть"],
        about: "command-unwatch",
        telegram_menu: true,
        discord: true,
        does: Does::Game(|game| Action::Unwatch { game }),
    },
    Command {
        name: "notation",
        aliases: &[],
        russian: &["нотация"],
        about: "command-notation",
        telegram_menu: true,
        discord: true,
        does: Does::Words(|typed| Action::Notation {
            notation: crate::api::NotationChoice::parse(&typed.args.join(" ")),
        }),
    },
    Command {
        name: "partner",
        aliases: &[],
        russian: &["партнёру", "партнеру"],
        about: "command-partner",
        telegram_menu: true,
        discord: true,
        does: Does::Words(|typed| Action::Partner {
            text: partner_text(typed.rest),
        }),
    },
    Command {
        name: "exchange",
        aliases: &[],
        russian: &["обмен"],
        about: "command-exchange",
        telegram_menu: true,
        discord: true,
        does: Does::Game(|game| Action::Exchange { game }),
    },
    Command {
        name: "noexchange",
        aliases: &[],
        russian: &["без-обмена", "безобмена"],
        about: "command-noexchange",
        telegram_menu: false,
        discord: true,
        does: Does::Game(|game| Action::DeclineExchange { game }),
    },
    Command {
        name: "retire",
        aliases: &[],
        russian: &["выйти"],
        about: "command-retire",
        telegram_menu: true,
        discord: true,
        does: Does::Game(|game| Action::Retire { game }),
    },
    Command {
        name: "help",
        aliases: &["start"],
        russian: &["помощь"],
        about: "command-help",
        telegram_menu: true,
        discord: true,
        does: Does::Words(help),
    },
    Command {
        name: "settings",
        aliases: &[],
        russian: &["настройки"],
        about: "command-settings",
        telegram_menu: false,
        discord: true,
        does: Does::Words(|typed| Action::Settings {
            choice: crate::api::SettingsChoice::parse(typed.rest),
            // Adapters that know better say so.
            chat_admin: false,
        }),
    },
    Command {
        name: "lang",
        aliases: &["language"],
        russian: &["язык"],
        about: "command-lang",
        telegram_menu: true,
        discord: true,
        does: Does::Words(|typed| Action::Lang {
            choice: crate::api::LangChoice::parse(typed.rest),
            // Adapters that know better say so.
            chat_admin: false,
        }),
    },
];

impl Command {
    /// The command typed as `name` (lower-case, without the slash), by any
    /// of its names.
    pub fn find(name: &str) -> Option<&'static Command> {
        COMMANDS
            .iter()
            .find(|command| command.names().any(|n| n == name))
    }

    /// Every name it is typed as.
    pub fn names(&self) -> impl Iterator<Item = &'static str> + '_ {
        std::iter::once(self.name)
            .chain(self.aliases.iter().copied())
            .chain(self.russian.iter().copied())
    }

    /// The name Discord shows Russian clients.
    pub fn russian_name(&self) -> &'static str {
        self.russian.first().copied().unwrap_or(self.name)
    }

    /// Its description in `lang`.
    pub fn description(&self, lang: crate::i18n::Lang) -> String {
        crate::i18n::catalogue().text(lang, self.about, &[])
    }

    /// What the words typed after it ask for.
    pub fn read(&self, typed: &Typed<'_>) -> Action {
        match self.does {
            Does::Nothing(action) => action(),
            Does::Game(action) => action(typed.game()),
            Does::Words(read) => read(typed),
        }
    }
}

/// Reads `text` as a command. `None` when it is not a command (no leading `/`):
/// the caller then sends it as [`Action::Text`]. `mention` resolves an
/// `@name` to a user (`None`: it is taken as part of the arguments).
///
/// ```
/// use kodex_bot::api::Action;
/// use kodex_bot::command::parse;
/// assert_eq!(parse("/resign", |_| None), Some(Action::Resign { game: None }));
/// assert_eq!(parse("e4", |_| None), None);
/// ```
pub fn parse(text: &str, mention: impl Fn(&str) -> Option<UserRef>) -> Option<Action> {
    let text = text.trim();
    let rest = text.strip_prefix('/')?;
    let (head, after) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    // Telegram addresses commands in groups as `/play@KodexBot`.
    let name = head.split('@').next().unwrap_or("").to_lowercase();
    let Some(command) = Command::find(&name) else {
        return Some(Action::Unknown {
            command: format!("/{}", truncate(&name, 32)),
        });
    };
    let typed = Typed {
        args: after.split_whitespace().collect(),
        rest: after,
        mention: &mention,
    };
    Some(command.read(&typed))
}

/// `/move <move> [game]`.
fn move_(typed: &Typed<'_>) -> Action {
    match typed.args.as_slice() {
        [] => Action::Move {
            text: String::new(),
            game: None,
        },
        [mv] => Action::Move {
            text: (*mv).to_owned(),
            game: None,
        },
        [mv, id] => Action::Move {
            text: (*mv).to_owned(),
            game: Some(id.trim_start_matches('#').to_owned()),
        },
        more => Action::Move {
            text: more.join(" "),
            game: None,
        },
    }
}

/// The person a `/rating @name` or `/stats @name` names: the first
/// `@name`, resolved when the platform knows it, else kept as the name
/// typed (the service looks it up among rated players).
pub fn named_user(typed: &Typed<'_>) -> Option<UserRef> {
    let word = typed.args.iter().find(|word| word.starts_with('@'))?;
    let name = word.trim_start_matches('@');
    if name.is_empty() {
        return None;
    }
    Some((typed.mention)(name).unwrap_or_else(|| UserRef {
        platform: crate::api::Platform::Console,
        id: format!("@{}", truncate(name, 64).to_lowercase()),
        name: truncate(name, 64).to_owned(),
        handle: Some(truncate(name, 64).to_owned()),
    }))
}

/// The words that ask for the platform's leaderboard, not the chat's.
const GLOBAL_WORDS: &[&str] = &["global", "all", "глобальный", "все", "всех", "общий"];

/// `/leaderboard [variant] [global] [page]`, in any order.
fn leaderboard(typed: &Typed<'_>) -> Action {
    let mut variant = None;
    let mut global = false;
    let mut page = 1;
    for word in &typed.args {
        let lower = word.to_lowercase();
        if GLOBAL_WORDS.contains(&lower.as_str()) {
            global = true;
        } else if let Ok(number) = lower.parse::<u32>() {
            page = number.max(1);
        } else if variant.is_none() {
            variant = Some(truncate(word, 64).to_owned());
        }
    }
    Action::Leaderboard {
        variant,
        global,
        page,
    }
}

/// `on` (true) or `off` (false), in English or Russian.
///
/// ```
/// use kodex_bot::command::on_off;
/// assert_eq!(on_off("OFF"), Some(false));
/// assert_eq!(on_off("вкл"), Some(true));
/// assert_eq!(on_off("maybe"), None);
/// ```
pub fn on_off(word: &str) -> Option<bool> {
    match word.to_lowercase().as_str() {
        "on" | "yes" | "вкл" | "включить" | "да" => Some(true),
        "off" | "no" | "выкл" | "выключить" | "нет" => Some(false),
        _ => None,
    }
}

/// The prefix of an invitation's code in a Telegram deep link
/// (`t.me/<bot>?start=join_<code>`): `/start join_<code>` is `/join <code>`.
pub const JOIN_PREFIX: &str = "join_";

/// `/help [topic]`; `/start join_<code>` (an invitation link opened) joins.
fn help(typed: &Typed<'_>) -> Action {
    let first = typed.args.first().copied();
    if let Some(code) = first.and_then(|word| word.strip_prefix(JOIN_PREFIX)) {
        return Action::Join {
            code: truncate(code, 64).to_owned(),
        };
    }
    Action::Help {
        topic: first.map(str::to_owned),
    }
}

/// The words of `/tournament` that start each of its subcommands.
const TOURNAMENT_WORDS: &[(&str, &[&str])] = &[
    ("new", &["new", "create", "новый", "создать"]),
    ("join", &["join", "enter", "войти", "участвовать", "играть"]),
    ("leave", &["leave", "withdraw", "выйти", "покинуть"]),
    (
        "standings",
        &["standings", "table", "results", "таблица", "итоги"],
    ),
    ("cancel", &["cancel", "отменить", "отмена"]),
    ("start", &["start", "begin", "начать", "старт"]),
    ("trf", &["trf"]),
    ("pause", &["pause", "пауза", "пропустить"]),
    ("add", &["add", "добавить"]),
];

/// The words that put the start of a tournament at a clock time (`at 20:00`, UTC).
const AT_WORDS: &[&str] = &["at", "в"];

/// A time of day typed as `20:00`, `20.00`, `8:30` or `20` (hours, minutes).
fn time_of_day(word: &str) -> Option<(u32, u32)> {
    let (hours, minutes) = match word.split_once([':', '.']) {
        Some((h, m)) => (h, m),
        None => (word, "0"),
    };
    let all_digits = |text: &str| {
        !text.is_empty() && text.len() <= 2 && text.chars().all(|c| c.is_ascii_digit())
    };
    if !all_digits(hours) || !all_digits(minutes) {
        return None;
    }
    let (hours, minutes) = (hours.parse().ok()?, minutes.parse().ok()?);
    (hours < 24 && minutes < 60).then_some((hours, minutes))
}

/// `/tournament add computer [level] N [id]`: the level (the computer's
/// default without one), and the id.
fn add_computer(args: &[&str]) -> crate::api::TournamentCommand {
    use crate::api::TournamentCommand as T;
    let mut words = args.iter().map(|word| word.to_lowercase());
    if !words
        .next()
        .is_some_and(|word| COMPUTER_WORDS.contains(&word.as_str()) || word == "бот")
    {
        return T::Usage;
    }
    let (mut level, mut id) = (None, None);
    for word in words {
        if ["level", "lvl", "уровень", "уровня"].contains(&word.as_str()) {
            continue;
        }
        match word.parse::<u8>() {
            Ok(number) if level.is_none() => level = Some(number),
            _ if id.is_none() => id = Some(truncate(word.trim_start_matches('#'), 64).to_owned()),
            _ => return T::Usage,
        }
    }
    T::AddComputer {
        level: level.unwrap_or(crate::service::DEFAULT_COMPUTER_LEVEL),
        id,
    }
}

/// The words that put the start of a tournament in some minutes (`in 10`).
const IN_WORDS: &[&str] = &["in", "через"];

/// `/tournament <subcommand> …`: the subcommand by any of its names, the
/// tournament's id after the others, and the terms of `new` in any order
/// after the format: the first word that is no clock, number or rated word
/// is the variant; a number alone is the rounds, `in N` (or `Nm`) the
/// minutes to the start.
///
/// ```
/// use kodex_bot::api::TournamentCommand;
/// use kodex_bot::command::tournament;
/// assert_eq!(
///     tournament(&["new", "swiss", "chess", "3+2", "5", "in", "10", "rated"]),
///     TournamentCommand::New {
///         format: "swiss".into(),
///         variant: "chess".into(),
///         clock: Some("3+2".into()),
///         rounds: Some(5),
///         start_in: Some(10),
///         start_at: None,
///         rated: Some(true),
///         armageddon: false,
///     }
/// );
/// assert_eq!(tournament(&["таблица"]), TournamentCommand::Standings { id: None });
/// assert_eq!(tournament(&["join", "k7m2"]), TournamentCommand::Join { id: Some("k7m2".into()) });
/// assert_eq!(tournament(&["dance"]), TournamentCommand::Usage);
/// assert!(matches!(
///     tournament(&["new", "arena", "chess", "3+0", "at", "20:30"]),
///     TournamentCommand::New { start_at: Some(Some((20, 30))), .. }
/// ));
/// assert_eq!(
///     tournament(&["add", "computer", "level", "4"]),
///     TournamentCommand::AddComputer { level: 4, id: None }
/// );
/// assert_eq!(tournament(&["пауза"]), TournamentCommand::Pause { id: None });
/// ```
pub fn tournament(args: &[&str]) -> crate::api::TournamentCommand {
    use crate::api::TournamentCommand as T;
    let Some(first) = args.first() else {
        return T::Usage;
    };
    let first = first.to_lowercase();
    let Some((sub, _)) = TOURNAMENT_WORDS
        .iter()
        .find(|(_, words)| words.contains(&first.as_str()))
    else {
        return T::Usage;
    };
    let id = || {
        args.get(1)
            .map(|word| truncate(word.trim_start_matches('#'), 64).to_owned())
    };
    match *sub {
        "join" => T::Join { id: id() },
        "leave" => T::Leave { id: id() },
        "standings" => T::Standings { id: id() },
        "cancel" => T::Cancel { id: id() },
        "start" => T::Start { id: id() },
        "trf" => T::Trf { id: id() },
        "pause" => T::Pause { id: id() },
        "add" => add_computer(&args[1..]),
        _ => new_tournament(&args[1..]),
    }
}

/// The terms of `/tournament new` (see [`tournament`]).
fn new_tournament(args: &[&str]) -> crate::api::TournamentCommand {
    let Some(format) = args.first() else {
        return crate::api::TournamentCommand::Usage;
    };
    let (mut variant, mut clock, mut rounds, mut start_in, mut rated) =
        (None::<String>, None::<String>, None, None, None);
    let mut start_at = None;
    let mut armageddon = false;
    let minutes = |word: &str| -> Option<u32> {
        let lower = word.to_lowercase();
        let digits = ["min", "m", "мин", "м"]
            .iter()
            .find_map(|suffix| lower.strip_suffix(suffix))
            .unwrap_or(&lower);
        digits.parse().ok()
    };
    let mut words = args[1..].iter().map(|word| truncate(word, 64));
    while let Some(word) = words.next() {
        let lower = word.to_lowercase();
        if IN_WORDS.contains(&lower.as_str()) {
            start_in = words.next().and_then(minutes);
        } else if AT_WORDS.contains(&lower.as_str()) {
            // A time that does not read is kept as none: the service says so.
            start_at = Some(words.next().and_then(time_of_day));
        } else if ["armageddon", "армагеддон"].contains(&lower.as_str()) {
            armageddon = true;
        } else if let Some(asked) = rated_word(word) {
            rated = Some(asked);
        } else if let Ok(number) = word.parse::<u32>() {
            rounds = Some(number);
        } else if lower.ends_with('m') || lower.ends_with("min") || lower.ends_with("мин") {
            match minutes(word) {
                Some(n) => start_in = Some(n),
                None if variant.is_none() => variant = Some(word.to_owned()),
                None => clock = Some(word.to_owned()),
            }
        } else if crate::clock::TimeControl::parse(word).is_ok() || variant.is_some() {
            clock = Some(match clock {
                None => word.to_owned(),
                Some(previous) => format!("{previous} {word}"),
            });
        } else {
            variant = Some(word.to_owned());
        }
    }
    crate::api::TournamentCommand::New {
        format: truncate(format, 32).to_lowercase(),
        variant: variant.unwrap_or_default(),
        clock,
        rounds,
        start_in,
        start_at,
        rated,
        armageddon,
    }
}

/// `/playnow [variant] [clock]`, in any order: a word that reads as a clock
/// is the clock, the other the variant.
fn play_now(typed: &Typed<'_>) -> Action {
    let (mut variant, mut clock) = (None, None::<String>);
    for word in &typed.args {
        let word = truncate(word, 64);
        if crate::clock::TimeControl::parse(word).is_ok() {
            clock = Some(word.to_owned());
        } else if variant.is_none() {
            variant = Some(word.to_owned());
        } else {
            // A second word that is no clock: the service names it.
            clock = Some(word.to_owned());
        }
    }
    Action::PlayNow { variant, clock }
}

/// `/invite [variant] [clock] [colour] [rated|casual]`, in any order: the
/// first word that is no clock, colour or rated word is the variant.
fn invite(typed: &Typed<'_>) -> Action {
    let (mut variant, mut clock, mut color, mut rated) = (None, None::<String>, None, None);
    for word in &typed.args {
        let word = truncate(word, 64);
        if let Some(choice) = ColorChoice::parse(word) {
            color = Some(choice);
        } else if let Some(asked) = rated_word(word) {
            rated = Some(asked);
        } else if variant.is_none() && crate::clock::TimeControl::parse(word).is_err() {
            variant = Some(word.to_owned());
        } else {
            clock = Some(match clock {
                None => word.to_owned(),
                Some(previous) => format!("{previous} {word}"),
            });
        }
    }
    Action::Invite {
        variant,
        clock,
        color,
        rated,
    }
}

/// What follows `/partner`, as typed (line breaks and spacing kept).
fn partner_text(rest: &str) -> String {
    rest.trim().to_owned()
}

/// The words that name the computer as the opponent.
const COMPUTER_WORDS: [&str; 7] = [
    "computer",
    "@computer",
    "@kodex",
    "kodex",
    "компьютер",
    "@компьютер",
    "кодекс",
];

/// The words of `/play` that ask for a rated game.
const RATED_WORDS: &[&str] = &[
    "rated",
    "рейтинговая",
    "рейтинговую",
    "рейтинговый",
    "рейтинг",
    "нарейтинг",
    "на-рейтинг",
];

/// The words of `/play` that ask for a casual game.
const CASUAL_WORDS: &[&str] = &[
    "casual",
    "unrated",
    "friendly",
    "товарищеская",
    "товарищескую",
    "товарищеский",
    "нерейтинговая",
    "нерейтинговую",
    "безрейтинга",
    "без-рейтинга",
];

/// The words of `/play` that publish an open challenge beyond its chat, in
/// the lobby of the whole platform.
pub const PUBLIC_WORDS: &[&str] = &[
    "public",
    "lobby",
    "публичный",
    "публичная",
    "публичную",
    "всем",
    "лобби",
];

/// `rated` (true) or `casual` (false), in English or Russian; `None` for any
/// other word.
///
/// ```
/// use kodex_bot::command::rated_word;
/// assert_eq!(rated_word("Rated"), Some(true));
/// assert_eq!(rated_word("товарищеская"), Some(false));
/// assert_eq!(rated_word("3+2"), None);
/// ```
pub fn rated_word(word: &str) -> Option<bool> {
    let lower = word.to_lowercase();
    if RATED_WORDS.contains(&lower.as_str()) {
        Some(true)
    } else if CASUAL_WORDS.contains(&lower.as_str()) {
        Some(false)
    } else {
        None
    }
}

/// The words that name the computer's level (`level 5`, `уровень 5`).
pub const LEVEL_WORDS: &[&str] = &["level", "lvl", "уровень", "ур"];

/// Takes the computer opponent out of `/play` arguments: `computer` (or
/// `@kodex`, `компьютер`) and its level (`level 5`, `l5`, `уровень 5`,
/// `ур5`; 1–8). Returns the level (the default when none is given) if the
/// computer was named, and the other words.
pub fn computer_opponent<'a>(args: &[&'a str]) -> (Option<u8>, Vec<&'a str>) {
    let mut named = false;
    let mut level = None;
    let mut rest = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let lower = args[i].to_lowercase();
        let number = |text: &str| text.parse::<u8>().ok().filter(|n| (1..=8).contains(n));
        if COMPUTER_WORDS.contains(&lower.as_str()) {
            named = true;
        } else if LEVEL_WORDS.contains(&lower.as_str())
            && args.get(i + 1).and_then(|n| number(n)).is_some()
        {
            level = args.get(i + 1).and_then(|n| number(n));
            i += 1;
        } else if let Some(n) = ["lvl", "l", "ур", "у"]
            .iter()
            .find_map(|prefix| lower.strip_prefix(prefix).and_then(number))
        {
            level = Some(n);
        } else {
            rest.push(args[i]);
        }
        i += 1;
    }
    if !named {
        return (None, args.to_vec());
    }
    (
        Some(level.unwrap_or(crate::service::DEFAULT_COMPUTER_LEVEL)),
        rest,
    )
}

/// Takes the start position out of `/play` arguments: everything after a
/// word beginning with `fen:` (the FEN has spaces, so it goes last), but
/// `@names`, which stay arguments. Returns the other words and the FEN.
///
/// ```
/// use kodex_bot::command::split_fen;
/// let (rest, fen) = split_fen(&["chess", "3+2", "fen:8/8/8/8/8/8/8/K1k5", "w", "-", "@bob"]);
/// assert_eq!(rest, vec!["chess", "3+2", "@bob"]);
/// assert_eq!(fen.as_deref(), Some("8/8/8/8/8/8/8/K1k5 w -"));
/// ```
pub fn split_fen<'a>(args: &[&'a str]) -> (Vec<&'a str>, Option<String>) {
    let Some(at) = args.iter().position(|word| {
        word.get(..4)
            .is_some_and(|head| head.eq_ignore_ascii_case("fen:"))
    }) else {
        return (args.to_vec(), None);
    };
    let mut rest = args[..at].to_vec();
    let mut fen = Vec::new();
    for (i, word) in args[at..].iter().enumerate() {
        let word = if i == 0 { &word[4..] } else { *word };
        if word.starts_with('@') {
            rest.push(word);
        } else if !word.is_empty() {
            fen.push(word);
        }
    }
    (rest, Some(fen.join(" ")))
}

fn play(args: &[&str], mention: &dyn Fn(&str) -> Option<UserRef>) -> Action {
    let (args, fen) = split_fen(args);
    // In a team challenge the computer sits where it is named: before `vs`
    // a partner, after it an opponent.
    let versus_at = args.iter().position(|a| is_versus(&a.to_lowercase()));
    let mut lineup = Lineup::default();
    // With `vs` the computer may sit in several seats, each named in turn
    // with its own level (`computer level 2 vs computer l3 @bob`).
    let (computer, args) = if versus_at.is_some() {
        (None, computers_in_line(&args))
    } else {
        let (computer, args) = computer_opponent(&args);
        (computer, args.into_iter().map(Named::Word).collect())
    };
    let mut variant = String::new();
    let (mut clock, mut color, mut rated) = (None::<String>, None, None);
    let mut public = false;
    for (i, arg) in args.iter().enumerate() {
        let arg = match arg {
            Named::Word(word) => *word,
            Named::Computer(level) => {
                lineup.add(UserRef::computer(crate::api::Platform::Console, *level));
                continue;
            }
        };
        let lower = arg.to_lowercase();
        if i == 0 {
            variant = (*arg).to_owned();
        } else if is_versus(&lower) {
            lineup.versus();
        } else if let Some(user) = arg.strip_prefix('@').and_then(mention) {
            lineup.add(user);
        } else if let Some(choice) = ColorChoice::parse(&lower) {
            color = Some(choice);
        } else if let Some(asked) = rated_word(&lower) {
            rated = Some(asked);
        } else if PUBLIC_WORDS.contains(&lower.as_str()) {
            public = true;
        } else {
            // Everything else is the clock; a second unknown word makes it
            // unreadable, so the reply names the whole of it.
            clock = Some(match clock {
                None => (*arg).to_owned(),
                Some(previous) => format!("{previous} {arg}"),
            });
        }
    }
    // The service puts the computer on the platform of the request; a
    // person named as well is the opponent instead.
    if let Some(level) = computer {
        if lineup.is_empty() {
            lineup.add(UserRef::computer(crate::api::Platform::Console, level));
        }
    }
    lineup.into_action(variant, clock, color, fen, rated, public)
}

/// A word of a team `/play`, or the computer named there with its level.
enum Named<'a> {
    Word(&'a str),
    Computer(u8),
}

/// The words of a team `/play` with each naming of the computer (a
/// computer word and the level right after it, if any) made one
/// [`Named::Computer`].
fn computers_in_line<'a>(args: &[&'a str]) -> Vec<Named<'a>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < args.len() {
        if !COMPUTER_WORDS.contains(&args[i].to_lowercase().as_str()) {
            out.push(Named::Word(args[i]));
            i += 1;
            continue;
        }
        // The level, if one follows: one word (`l3`) or two (`level 3`).
        let (level, used) = [2, 1]
            .into_iter()
            .filter_map(|n| {
                let words = args.get(i..i + 1 + n)?;
                match computer_opponent(words) {
                    (Some(level), rest) if rest.is_empty() => Some((level, n)),
                    _ => None,
                }
            })
            .next()
            .unwrap_or((crate::service::DEFAULT_COMPUTER_LEVEL, 0));
        out.push(Named::Computer(level));
        i += 1 + used;
    }
    out
}

/// Whether `word` (lowercase) separates partners from opponents in `/play`.
pub fn is_versus(word: &str) -> bool {
    ["vs", "vs.", "v", "против", "—"].contains(&word)
}

/// The people named in a `/play`: before `vs` the caller's partners, after
/// it (or without it) opponents.
#[derive(Default, Debug)]
pub struct Lineup {
    before: Vec<UserRef>,
    after: Vec<UserRef>,
    versus: bool,
}

impl Lineup {
    /// Someone named (a partner before `vs`, an opponent otherwise).
    pub fn add(&mut self, user: UserRef) {
        if self.versus {
            self.after.push(user);
        } else {
            self.before.push(user);
        }
    }

    /// Whether nobody was named and `vs` not said.
    pub fn is_empty(&self) -> bool {
        !self.versus && self.before.is_empty()
    }

    /// `vs` was said: whoever follows is an opponent.
    pub fn versus(&mut self) {
        self.versus = true;
    }

    /// The challenge: one person named without `vs` is a two-player
    /// challenge ([`Action::Play`]); `vs` or more people make a team
    /// challenge ([`Action::PlayTeams`]). A start position makes it a
    /// two-player challenge of the first person named (the service refuses
    /// positions for games of four).
    ///
    /// ```
    /// use kodex_bot::api::Action;
    /// use kodex_bot::command::parse;
    /// let named = |name: &str| Some(kodex_bot::api::UserRef {
    ///     platform: kodex_bot::api::Platform::Console,
    ///     id: name.to_owned(), name: name.to_owned(), handle: None,
    /// });
    /// let Some(Action::PlayTeams { partners, opponents, .. }) =
    ///     parse("/play bughouse @carol vs @bob @dave", named) else { panic!() };
    /// assert_eq!((partners.len(), opponents.len()), (1, 2));
    /// ```
    pub fn into_action(
        self,
        variant: String,
        clock: Option<String>,
        color: Option<ColorChoice>,
        fen: Option<String>,
        rated: Option<bool>,
        public: bool,
    ) -> Action {
        if fen.is_some() || (!self.versus && self.before.len() <= 1) {
            return Action::Play {
                variant,
                opponent: self.before.into_iter().chain(self.after).next(),
                clock,
                color,
                fen,
                rated,
                public,
            };
        }
        let (partners, opponents) = if self.versus {
            (self.before, self.after)
        } else {
            (Vec::new(), self.before)
        };
        Action::PlayTeams {
            variant,
            partners,
            opponents,
            clock,
            color,
            rated,
        }
    }
}

/// `/learn` lists the lessons; `/learn 2 [@friend|computer] …` starts lesson 2
/// as `/play lesson2 …` would.
fn learn(args: &[&str], mention: &dyn Fn(&str) -> Option<UserRef>) -> Action {
    let lesson = args
        .first()
        .map(|word| word.to_lowercase())
        .and_then(|word| {
            let number = word
                .trim_start_matches("lesson")
                .trim_start_matches("урок")
                .parse::<u8>()
                .ok()?;
            crate::service::lesson_id(number)
        });
    match lesson {
        Some(id) => {
            let mut words = vec![id.as_str()];
            words.extend_from_slice(&args[1..]);
            play(&words, mention)
        }
        None => Action::Learn,
    }
}

fn truncate(text: &str, max: usize) -> &str {
    match text.char_indices().nth(max) {
        Some((end, _)) => &text[..end],
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::Platform;

    fn user(name: &str) -> Option<UserRef> {
        Some(UserRef {
            platform: Platform::Console,
            id: name.to_owned(),
            name: name.to_owned(),
            handle: None,
        })
    }

    #[test]
    fn each_name_is_one_commands_and_each_description_fits_both_platforms() {
        use crate::i18n::Lang;
        let mut seen = std::collections::HashSet::new();
        for command in COMMANDS {
            for name in command.names() {
                assert!(seen.insert(name), "/{name} names two commands");
                assert_eq!(name, name.to_lowercase(), "/{name}");
            }
            // Telegram's rule; Discord's is wider.
            let name = command.name;
            assert!(
                (1..=32).contains(&name.len())
                    && name
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'),
                "/{name}"
            );
            // Discord's rule for the Russian name it shows.
            let russian = command.russian_name();
            assert!(
                (1..=32).contains(&russian.chars().count())
                    && russian
                        .chars()
                        .all(|c| c == '-' || c == '_' || c.is_alphanumeric()),
                "/{russian}"
            );
            for lang in Lang::ALL {
                let about = command.description(lang);
                // A missing message would read as its key.
                assert_ne!(about, command.about, "/{name} in {lang:?}");
                assert!(
                    (1..=100).contains(&about.chars().count()),
                    "/{name}: {about}"
                );
            }
            assert_ne!(
                command.description(Lang::En),
                command.description(Lang::Ru),
                "/{name}"
            );
        }
    }

    #[test]
    fn help_names_every_command_and_only_commands() {
        use crate::i18n::Lang;
        for lang in Lang::ALL {
            // The first steps and the topics together.
            let help: String = std::iter::once("help")
                .chain(crate::service::HELP_TOPICS.iter().map(|(_, key)| *key))
                .map(|key| crate::i18n::catalogue().text(lang, key, &[]))
                .collect::<Vec<_>>()
                .join("\n");
            let named: Vec<&str> = help
                .split(|c: char| c.is_whitespace() || ",.;:()".contains(c))
                .filter_map(|word| word.strip_prefix('/'))
                .filter(|name| !name.is_empty())
                .collect();
            for command in COMMANDS.iter().filter(|command| command.discord) {
                assert!(
                    named.contains(&command.name),
                    "{lang:?} help lacks /{}",
                    command.name
                );
            }
            for name in named {
                let name = name.split(['<', '[']).next().unwrap_or(name);
                assert!(Command::find(name).is_some(), "{lang:?} help names /{name}");
            }
        }
    }

    #[test]
    fn every_name_reads_as_its_command() {
        for command in COMMANDS {
            let first = parse(&format!("/{}", command.name), user);
            for name in command.names() {
                assert_eq!(parse(&format!("/{name}"), user), first, "/{name}");
            }
        }
        assert_eq!(parse("/ничья", user), Some(Action::Draw { game: None }));
        assert_eq!(
            parse("/ход e4 #k7m2", user),
            Some(Action::Move {
                text: "e4".into(),
                game: Some("k7m2".into())
            })
        );
    }

    #[test]
    fn the_computer_and_its_level_are_read_in_any_order() {
        let computer = |level| Some(UserRef::computer(Platform::Console, level));
        for (text, level) in [
            ("/play chess computer", 3),
            ("/play chess @kodex level 5 3+2", 5),
            ("/play chess l7 компьютер", 7),
            ("/play chess уровень 2 кодекс", 2),
        ] {
            let Some(Action::Play { opponent, .. }) = parse(text, user) else {
                panic!("{text}");
            };
            assert_eq!(opponent, computer(level), "{text}");
        }
        // A level without the computer is part of the clock, as before.
        let Some(Action::Play {
            opponent, clock, ..
        }) = parse("/play chess l5", user)
        else {
            panic!("a play");
        };
        assert_eq!((opponent, clock.as_deref()), (None, Some("l5")));
        // Out of range: not a level.
        let (level, rest) = computer_opponent(&["computer", "level", "9"]);
        assert_eq!((level, rest), (Some(3), vec!["level", "9"]));
    }

    #[test]
    fn the_computer_sits_where_it_is_named_in_a_team_challenge() {
        let computer = UserRef::computer(Platform::Console, 1);
        let Some(Action::PlayTeams {
            partners,
            opponents,
            ..
        }) = parse("/play bughouse @dave vs @bob computer level 1", user)
        else {
            panic!("a team challenge");
        };
        assert_eq!(partners, vec![user("dave").expect("dave")]);
        assert_eq!(opponents, vec![user("bob").expect("bob"), computer.clone()]);
        let Some(Action::PlayTeams { partners, .. }) =
            parse("/play bughouse computer l1 vs @bob", user)
        else {
            panic!("a team challenge");
        };
        assert_eq!(partners, vec![computer]);
        // Several computers in one challenge, each with its level.
        let Some(Action::PlayTeams {
            partners,
            opponents,
            ..
        }) = parse(
            "/play fourplayer computer vs computer level 2 @bob kodex l5 5+0",
            user,
        )
        else {
            panic!("a team challenge");
        };
        let at = |level| UserRef::computer(Platform::Console, level);
        assert_eq!(partners, vec![at(3)]);
        assert_eq!(opponents, vec![at(2), user("bob").expect("bob"), at(5)]);
    }

    #[test]
    fn play_with_every_option_in_any_order() {
        assert_eq!(
            parse("/play atomic black @bob 3+2", user),
            Some(Action::Play {
                variant: "atomic".into(),
                opponent: user("bob"),
                clock: Some("3+2".into()),
                color: Some(crate::api::ColorChoice::Black),
                fen: None,
                rated: None,
                public: false,
            })
        );
        assert_eq!(
            parse("/play chess casual @bob 5+3", user),
            Some(Action::Play {
                variant: "chess".into(),
                opponent: user("bob"),
                clock: Some("5+3".into()),
                color: None,
                fen: None,
                rated: Some(false),
                public: false,
            })
        );
        let Some(Action::Play { rated, clock, .. }) = parse("/играть chess рейтинговая", user)
        else {
            panic!("a play");
        };
        assert_eq!((rated, clock), (Some(true), None));
        assert_eq!(
            parse("/play@KodexBot chess", user),
            Some(Action::Play {
                variant: "chess".into(),
                opponent: None,
                clock: None,
                color: None,
                fen: None,
                rated: None,
                public: false,
            })
        );
    }

    #[test]
    fn team_challenges_name_partners_before_vs_and_opponents_after() {
        let Some(Action::PlayTeams {
            partners,
            opponents,
            clock,
            ..
        }) = parse("/play bughouse @carol vs @bob @dave 3+0", user)
        else {
            panic!("a team challenge");
        };
        assert_eq!(partners, vec![user("carol").unwrap()]);
        assert_eq!(opponents, vec![user("bob").unwrap(), user("dave").unwrap()]);
        assert_eq!(clock.as_deref(), Some("3+0"));
        // Without `vs` everyone named is an opponent; `vs` alone names none.
        let Some(Action::PlayTeams {
            partners,
            opponents,
            ..
        }) = parse("/play bughouse @bob @dave", user)
        else {
            panic!("a team challenge");
        };
        assert_eq!((partners.len(), opponents.len()), (0, 2));
        let Some(Action::PlayTeams {
            partners,
            opponents,
            ..
        }) = parse("/play bughouse против", user)
        else {
            panic!("a team challenge");
        };
        assert_eq!((partners.len(), opponents.len()), (0, 0));
        // One opponent and no `vs`: the usual challenge.
        assert!(matches!(
            parse("/play bughouse @bob", user),
            Some(Action::Play { .. })
        ));
    }

    #[test]
    fn a_start_position_runs_to_the_end_but_for_names() {
        let Some(Action::Play {
            variant,
            opponent,
            clock,
            fen,
            ..
        }) = parse(
            "/play chess 3+2 FEN:4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 @bob",
            user,
        )
        else {
            panic!("a play");
        };
        assert_eq!(variant, "chess");
        assert_eq!(opponent, user("bob"));
        assert_eq!(clock.as_deref(), Some("3+2"));
        assert_eq!(fen.as_deref(), Some("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"));
        // `fen:` alone is an empty position (the service says so).
        let Some(Action::Play { fen, .. }) = parse("/play chess fen:", user) else {
            panic!("a play");
        };
        assert_eq!(fen.as_deref(), Some(""));
        assert_eq!(
            parse("/watch #k7m2", user),
            Some(Action::Watch {
                game: Some("k7m2".into())
            })
        );
        assert_eq!(
            parse("/notation ru", user),
            Some(Action::Notation {
                notation: crate::api::NotationChoice::Letters(crate::i18n::Lang::Ru)
            })
        );
    }

    #[test]
    fn moves_with_and_without_a_game_id() {
        assert_eq!(
            parse("/move Nf3 #k7m2", user),
            Some(Action::Move {
                text: "Nf3".into(),
                game: Some("k7m2".into())
            })
        );
        assert_eq!(
            parse("/m e4", user),
            Some(Action::Move {
                text: "e4".into(),
                game: None
            })
        );
    }

    #[test]
    fn retire_in_english_and_russian() {
        assert_eq!(parse("/retire", user), Some(Action::Retire { game: None }));
        assert_eq!(
            parse("/выйти k7m2", user),
            Some(Action::Retire {
                game: Some("k7m2".into())
            })
        );
    }

    #[test]
    fn unknown_commands_and_plain_text() {
        assert_eq!(
            parse("/frobnicate now", user),
            Some(Action::Unknown {
                command: "/frobnicate".into()
            })
        );
        assert_eq!(parse("hello there", user), None);
        assert_eq!(parse("  /HELP ", user), Some(Action::Help { topic: None }));
        assert_eq!(
            parse("/помощь ходы", user),
            Some(Action::Help {
                topic: Some("ходы".to_owned())
            })
        );
        let long = format!("/{}", "x".repeat(500));
        match parse(&long, user) {
            Some(Action::Unknown { command }) => assert!(command.len() <= 33),
            other => panic!("{other:?}"),
        }
    }
}
