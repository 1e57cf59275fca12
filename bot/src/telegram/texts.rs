//! The few user-facing texts the adapter writes itself (everything else comes
//! from the service, already localized), in English and Russian.

/// Whether a Telegram `language_code` (`"ru"`, `"en-US"`) asks for Russian.
fn is_russian(locale: Option<&str>) -> bool {
    locale.is_some_and(|code| code.to_lowercase().starts_with("ru"))
}

/// The group message sent when a player's private board could not be delivered
/// because they never opened a chat with the bot. Names nobody but the player
/// and says nothing about the game.
pub(super) fn deep_link_prompt(locale: Option<&str>, player: &str) -> String {
    if is_russian(locale) {
        format!(
            "{player}, ваша доска видна только вам. Нажмите кнопку и «Запустить» — \
             я пришлю её в личный чат."
        )
    } else {
        format!("{player}, your board is for your eyes only. Tap the button, then Start, and I'll send it to our private chat.")
    }
}

/// The group message sent when a private answer to a player (about their
/// own request) could not be delivered because they never opened a chat
/// with the bot. Says nothing of the answer.
pub(super) fn note_link_prompt(locale: Option<&str>, player: &str) -> String {
    if is_russian(locale) {
        format!(
            "{player}, у меня для вас личный ответ. Нажмите кнопку и «Запустить» — \
             тогда я смогу писать вам в личный чат."
        )
    } else {
        format!("{player}, I have a private answer for you. Tap the button, then Start, so that I can write to you.")
    }
}

/// The label of the deep-link button of a private note.
pub(super) fn note_link_button(locale: Option<&str>) -> String {
    if is_russian(locale) {
        "Открыть личный чат".to_owned()
    } else {
        "Open the private chat".to_owned()
    }
}

/// The label of the deep-link button.
pub(super) fn deep_link_button(locale: Option<&str>) -> String {
    if is_russian(locale) {
        "Открыть мою доску".to_owned()
    } else {
        "Open my board".to_owned()
    }
}

/// Added to a message whose image was larger than Telegram accepts.
pub(super) fn file_too_large(locale: Option<&str>) -> String {
    if is_russian(locale) {
        "(Картинка оказалась слишком большой для Telegram.)".to_owned()
    } else {
        "(The image was too large for Telegram to take.)".to_owned()
    }
}

/// The text above the variant picker.
pub(super) fn picker_prompt(locale: Option<&str>) -> String {
    if is_russian(locale) {
        "Выберите вариант:".to_owned()
    } else {
        "Choose a variant:".to_owned()
    }
}

/// The variant picker's prompt for a game against the computer.
pub(super) fn picker_computer_prompt(locale: Option<&str>) -> String {
    if is_russian(locale) {
        "Игра с компьютером. Выберите вариант:".to_owned()
    } else {
        "A game against the computer. Choose a variant:".to_owned()
    }
}

/// The answer when someone presses another person's variant picker.
pub(super) fn picker_not_yours(locale: Option<&str>) -> String {
    if is_russian(locale) {
        "Это меню для того, кто набрал /play.".to_owned()
    } else {
        "This menu is for whoever typed /play.".to_owned()
    }
}

/// The answer when a variant picker is too old to remember.
pub(super) fn picker_expired(locale: Option<&str>) -> String {
    if is_russian(locale) {
        "Это меню устарело — наберите /play ещё раз.".to_owned()
    } else {
        "This menu has expired; type /play again.".to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn russian_is_chosen_by_language_code() {
        assert!(deep_link_button(Some("ru-RU")).starts_with("Открыть"));
        assert!(deep_link_button(Some("en")).starts_with("Open"));
        assert!(deep_link_button(None).starts_with("Open"));
        assert!(deep_link_prompt(Some("ru"), "@bob").starts_with("@bob"));
    }
}
