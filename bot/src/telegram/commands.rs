//! Telegram commands: splitting `/name@bot arguments`, reading the two that
//! are Telegram's own (`/start`, `/play`), and the command menus registered
//! with `setMyCommands`. The commands, the rest of their reading and their
//! descriptions are shared ([`crate::command::COMMANDS`]).

use crate::api::{Action, UserRef};

/// A command as typed: its lower-case name and the rest of the line.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct CommandText<'a> {
    /// The name without the slash or the `@bot` suffix, lower-case.
    pub name: String,
    /// Everything after the name, trimmed.
    pub args: &'a str,
}

/// Splits `/play@KodexBot chess @bob` into name and arguments.
///
/// Returns `None` for text that is not a command, and for commands addressed to
/// another bot (`/play@OtherBot`), which groups with several bots receive too.
pub(super) fn split<'a>(text: &'a str, bot_username: &str) -> Option<CommandText<'a>> {
    let rest = text.trim_start().strip_prefix('/')?;
    let (head, args) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    let (name, addressee) = match head.split_once('@') {
        Some((name, addressee)) => (name, Some(addressee)),
        None => (head, None),
    };
    if name.is_empty() || addressee.is_some_and(|to| !to.eq_ignore_ascii_case(bot_username)) {
        return None;
    }
    Some(CommandText {
        name: name.to_lowercase(),
        args: args.trim(),
    })
}

/// What a command means to the adapter.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Parsed {
    /// A request for the service.
    Action(Action),
    /// `/start [payload]`: a deep link was followed (or the chat was opened).
    Start { payload: String },
    /// Not one of ours (maybe another bot's); ignored in groups.
    Unknown(Action),
}

/// How `/play` learns who is challenged besides the typed words.
pub(super) struct PlayContext<'a> {
    /// The author of the message the command replies to, if that is a person
    /// other than the caller: `/play chess` as a reply challenges them.
    pub replied_to: Option<UserRef>,
    /// Resolves `@username` to a person (a known id, or the username itself).
    pub resolve_username: &'a dyn Fn(&str) -> UserRef,
}

/// Parses one command (already [`split`]) from the whole message `text`.
///
/// `/start` and `/play` are Telegram's own (deep-link payloads; an opponent
/// named by replying, and no variant meaning "show the picker"); everything
/// else is the shared text-command vocabulary of [`crate::command::parse`].
pub(super) fn parse(command: &CommandText<'_>, text: &str, play: &PlayContext<'_>) -> Parsed {
    if command.name == "start" {
        return Parsed::Start {
            payload: command.args.to_owned(),
        };
    }
    match crate::command::Command::find(&command.name) {
        Some(found) if found.name == "play" => Parsed::Action(parse_play(command.args, play)),
        // `/rating @name`, or as a reply: the person named or replied to.
        Some(found) if ["rating", "stats"].contains(&found.name) => {
            let resolve = |name: &str| Some((play.resolve_username)(name));
            match crate::command::parse(text, resolve) {
                Some(Action::Rating { user }) => Parsed::Action(Action::Rating {
                    user: user.or_else(|| play.replied_to.clone()),
                }),
                Some(Action::Stats { user }) => Parsed::Action(Action::Stats {
                    user: user.or_else(|| play.replied_to.clone()),
                }),
                Some(other) => Parsed::Action(other),
                None => Parsed::Unknown(Action::Help { topic: None }),
            }
        }
        _ => match crate::command::parse(text, |_| None) {
            Some(unknown @ Action::Unknown { .. }) => Parsed::Unknown(unknown),
            Some(action) => Parsed::Action(action),
            None => Parsed::Unknown(Action::Help { topic: None }),
        },
    }
}

/// `/play [variant] [@opponent] [clock] [color]`, in any order after the variant.
///
/// An empty variant asks the service for its variant picker.
fn parse_play(args: &str, context: &PlayContext<'_>) -> Action {
    let mut variant = None;
    let mut lineup = crate::command::Lineup::default();
    let mut clock = None;
    let mut color = None;
    let mut rated = None;
    let mut public = false;
    let words: Vec<&str> = args.split_whitespace().collect();
    // `/play chess fen:<FEN>`: the position runs to the end.
    let (words, fen) = crate::command::split_fen(&words);
    // `/play chess computer level 5` (or `@kodex`, `компьютер`).
    let (computer, words) = crate::command::computer_opponent(&words);
    for word in words {
        if let Some(username) = word.strip_prefix('@').filter(|name| !name.is_empty()) {
            lineup.add((context.resolve_username)(username));
        } else if crate::command::is_versus(&word.to_lowercase()) {
            lineup.versus();
        } else if let Some(choice) = crate::api::ColorChoice::parse(word) {
            color = Some(choice);
        } else if let Some(asked) = crate::command::rated_word(word) {
            rated = Some(asked);
        } else if crate::command::PUBLIC_WORDS.contains(&word.to_lowercase().as_str()) {
            public = true;
        } else if is_clock(word) {
            clock = Some(word.to_lowercase());
        } else if variant.is_none() {
            variant = Some(word.to_lowercase());
        }
    }
    if lineup.is_empty() {
        let computer = computer
            .map(|level| crate::api::UserRef::computer(crate::api::Platform::Telegram, level));
        if let Some(opponent) = computer.or_else(|| context.replied_to.clone()) {
            lineup.add(opponent);
        }
    }
    lineup.into_action(
        variant.unwrap_or_default(),
        clock,
        color,
        fen,
        rated,
        public,
    )
}

/// Clocks look like `3+2`, `10`, `1d`, `30s` or a named speed.
fn is_clock(word: &str) -> bool {
    const SPEEDS: [&str; 9] = [
        "bullet",
        "blitz",
        "rapid",
        "classical",
        "correspondence",
        "пуля",
        "блиц",
        "рапид",
        "классика",
    ];
    let lower = word.to_lowercase();
    if SPEEDS.contains(&lower.as_str()) {
        return true;
    }
    let (base, increment) = lower.split_once('+').unwrap_or((&lower, ""));
    let base = base.strip_suffix(['s', 'm', 'h', 'd']).unwrap_or(base);
    let digits = |text: &str| !text.is_empty() && text.chars().all(|c| c.is_ascii_digit());
    digits(base) && (increment.is_empty() || digits(increment))
}

/// The command menu for one language (`"en"`, `"ru"`): the commands of
/// [`crate::command::COMMANDS`] it lists, in order, each with its
/// description.
pub(super) fn menu(language: &str) -> Vec<(&'static str, String)> {
    let lang = crate::i18n::Lang::parse(language).unwrap_or_default();
    crate::command::COMMANDS
        .iter()
        .filter(|command| command.telegram_menu)
        .map(|command| (command.name, command.description(lang)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::Platform;

    fn user(id: &str) -> UserRef {
        UserRef {
            platform: Platform::Telegram,
            id: id.to_owned(),
            name: format!("@{id}"),
            handle: None,
        }
    }

    fn parse_text(text: &str, replied_to: Option<UserRef>) -> Option<Parsed> {
        let resolve = |name: &str| user(name);
        let command = split(text, "KodexBot")?;
        Some(parse(
            &command,
            text,
            &PlayContext {
                replied_to,
                resolve_username: &resolve,
            },
        ))
    }

    #[test]
    fn rated_or_casual_is_typed_and_rating_names_a_username_or_the_replied_to() {
        let Some(Parsed::Action(Action::Play { rated, clock, .. })) =
            parse_text("/play chess @bob 5+3 товарищеская", None)
        else {
            panic!("a play");
        };
        assert_eq!((rated, clock.as_deref()), (Some(false), Some("5+3")));
        assert_eq!(
            parse_text("/rating@KodexBot @bob", None),
            Some(Parsed::Action(Action::Rating {
                user: Some(user("bob"))
            }))
        );
        assert_eq!(
            parse_text("/статистика", Some(user("carol"))),
            Some(Parsed::Action(Action::Stats {
                user: Some(user("carol"))
            }))
        );
        assert_eq!(
            parse_text("/rating", None),
            Some(Parsed::Action(Action::Rating { user: None }))
        );
    }

    #[test]
    fn commands_addressed_to_other_bots_are_not_ours() {
        assert_eq!(split("/play@OtherBot chess", "KodexBot"), None);
        assert_eq!(split("hello", "KodexBot"), None);
        assert_eq!(
            split("/Play@kodexbot  chess  @bob ", "KodexBot"),
            Some(CommandText {
                name: "play".into(),
                args: "chess  @bob"
            })
        );
    }

    #[test]
    fn play_takes_words_in_any_order() {
        let parsed = parse_text("/play fog 3+2 @bob black", None);
        assert_eq!(
            parsed,
            Some(Parsed::Action(Action::Play {
                variant: "fog".into(),
                opponent: Some(user("bob")),
                clock: Some("3+2".into()),
                color: Some(crate::api::ColorChoice::Black),
                fen: None,
                rated: None,
                public: false,
            }))
        );
    }

    #[test]
    fn play_as_a_reply_challenges_the_author_and_no_variant_asks_for_the_picker() {
        let parsed = parse_text("/play", Some(user("carol")));
        assert_eq!(
            parsed,
            Some(Parsed::Action(Action::Play {
                variant: String::new(),
                opponent: Some(user("carol")),
                clock: None,
                color: None,
                fen: None,
                rated: None,
                public: false,
            }))
        );
    }

    #[test]
    fn play_reads_a_start_position_to_the_end() {
        let parsed = parse_text(
            "/play chess @bob 3+2 fen:8/8/8/8/8/8/4k3/4K2R w K - 0 1",
            None,
        );
        let Some(Parsed::Action(Action::Play {
            variant,
            opponent,
            clock,
            fen,
            ..
        })) = parsed
        else {
            panic!("a play: {parsed:?}");
        };
        assert_eq!(variant, "chess");
        assert_eq!(opponent, Some(user("bob")));
        assert_eq!(clock.as_deref(), Some("3+2"));
        assert_eq!(fen.as_deref(), Some("8/8/8/8/8/8/4k3/4K2R w K - 0 1"));
    }

    #[test]
    fn variant_names_with_digits_are_not_clocks() {
        assert!(!is_clock("3check"));
        assert!(is_clock("1d"));
        assert!(is_clock("blitz"));
        assert!(is_clock("10+5"));
    }

    #[test]
    fn move_and_start_keep_their_text() {
        assert_eq!(
            parse_text("/m Nf3", None),
            Some(Parsed::Action(Action::Move {
                text: "Nf3".into(),
                game: None
            }))
        );
        assert_eq!(
            parse_text("/start b_7fk2", None),
            Some(Parsed::Start {
                payload: "b_7fk2".into()
            })
        );
        assert_eq!(
            parse_text("/weather", None),
            Some(Parsed::Unknown(Action::Unknown {
                command: "/weather".into()
            }))
        );
        assert_eq!(
            parse_text("/nodraw k7m2", None),
            Some(Parsed::Action(Action::DeclineDraw {
                game: Some("k7m2".into())
            }))
        );
    }

    #[test]
    fn both_menus_describe_every_command_in_their_language() {
        let (en, ru) = (menu("en"), menu("ru"));
        assert_eq!(en.len(), 32);
        for ((name, english), (_, russian)) in en.iter().zip(&ru) {
            // (The names' rules: see `crate::command`'s tests.)
            // A missing message would read as its key.
            assert!(
                !english.starts_with("command-") && !russian.starts_with("command-"),
                "{name}"
            );
            assert!((1..=256).contains(&english.chars().count()), "{name}");
            assert!((1..=256).contains(&russian.chars().count()), "{name}");
            assert_ne!(english, russian, "{name}");
        }
    }
}
