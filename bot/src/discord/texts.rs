//! The few texts the Discord adapter writes itself (everything else comes
//! from the service), in English and Russian.

use poise::serenity_prelude::ChannelId;

/// Whether a Discord locale (`"ru"`, `"en-US"`) asks for Russian.
pub(crate) fn is_russian(locale: &str) -> bool {
    locale == "ru" || locale.starts_with("ru-")
}

/// A language the adapter can write in.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum Lang {
    English,
    Russian,
}

impl Lang {
    /// The language for an optional Discord locale; English when unknown.
    pub(crate) fn of(locale: Option<&str>) -> Lang {
        match locale {
            Some(locale) if is_russian(locale) => Lang::Russian,
            _ => Lang::English,
        }
    }

    /// Posted in the channel when a private message to `mention` was refused.
    /// It says nothing about the game: only that the DM failed.
    pub(crate) fn dm_refused(self, mention: &str) -> String {
        match self {
            Lang::English => format!(
                "{mention}, I can't send you direct messages (your DMs are closed or I am \
                 blocked). Press the button to see your board here; only you will see it."
            ),
            Lang::Russian => format!(
                "{mention}, я не могу написать вам в личные сообщения (они закрыты или я \
                 заблокирован). Нажмите кнопку, чтобы увидеть свою доску здесь; её увидите \
                 только вы."
            ),
        }
    }

    /// Replaces a command's "thinking…" when the answer went by DM.
    pub(crate) fn sent_by_dm(self) -> &'static str {
        match self {
            Lang::English => "Sent to your direct messages.",
            Lang::Russian => "Отправил вам в личные сообщения.",
        }
    }

    /// The label of the "show my board" fallback button.
    pub(crate) fn show_my_board(self) -> &'static str {
        match self {
            Lang::English => "Show my board",
            Lang::Russian => "Показать мою доску",
        }
    }

    /// Left in the channel when a game moved into its own thread.
    pub(crate) fn game_continues_in(self, game: &str, thread: ChannelId) -> String {
        match self {
            Lang::English => format!("Game {game} continues in <#{thread}>."),
            Lang::Russian => format!("Партия {game} продолжается в <#{thread}>."),
        }
    }

    /// Told the user when Discord rejected something the bot tried to send.
    pub(crate) fn send_failed(self) -> &'static str {
        match self {
            Lang::English => {
                "Discord did not let me post the reply. Check that I may send messages and \
                 attach files in this channel, then try again."
            }
            Lang::Russian => {
                "Discord не дал мне отправить ответ. Проверьте, что мне можно писать сообщения \
                 и прикреплять файлы в этом канале, и попробуйте ещё раз."
            }
        }
    }

    /// Added to a message whose image was larger than Discord accepts.
    pub(crate) fn file_too_large(self) -> &'static str {
        match self {
            Lang::English => "(The image was too large for Discord to take.)",
            Lang::Russian => "(Картинка оказалась слишком большой для Discord.)",
        }
    }

    /// Told the user when their command's options could not be read.
    pub(crate) fn bad_options(self) -> &'static str {
        match self {
            Lang::English => "I could not read the command's options. Please try again.",
            Lang::Russian => "Не удалось прочитать параметры команды. Попробуйте ещё раз.",
        }
    }

    /// Told the user when something went wrong inside the bot.
    pub(crate) fn internal_error(self) -> &'static str {
        match self {
            Lang::English => "Something went wrong on my side. Please try again.",
            Lang::Russian => "У меня что-то пошло не так. Попробуйте ещё раз.",
        }
    }

    /// Told the user of a slash command the bot no longer has (Discord shows
    /// removed global commands for a while).
    pub(crate) fn unknown_command(self) -> &'static str {
        match self {
            Lang::English => "I no longer have this command. /help lists the ones I have.",
            Lang::Russian => "Этой команды у меня больше нет. /help — список команд.",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_thread_pointer_links_the_thread_in_both_languages() {
        let thread = ChannelId::new(42);
        assert_eq!(
            Lang::of(Some("en-GB")).game_continues_in("k7m2", thread),
            "Game k7m2 continues in <#42>."
        );
        assert_eq!(
            Lang::of(Some("ru")).game_continues_in("k7m2", thread),
            "Партия k7m2 продолжается в <#42>."
        );
    }
}
