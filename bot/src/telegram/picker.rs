//! The variant picker: `/play` without a variant answers with an inline
//! keyboard of variants; the press turns into the `/play` the person meant.
//!
//! Button data is `pv:<menu>:<index>` (well under Telegram's 64 bytes); what
//! the menu was for (who asked, whom they challenged, clock, colour) stays here,
//! and with a store in the database too, so a menu opened before a restart
//! still works after it. Menu numbers keep counting across restarts, so an old
//! button never opens someone else's menu.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};

use serde::{Deserialize, Serialize};
use teloxide::types::UserId;

use super::memory::{self, Journal};
use crate::api::{Action, Button, ColorChoice, Platform, UserRef, VariantChoice};
use crate::store::Store;

/// The prefix of picker button data.
const PREFIX: &str = "pv:";
/// The index part of the "against the computer" button's data.
const COMPUTER: &str = "c";
/// Menus kept at most; the oldest are forgotten first.
const MENUS_KEPT: usize = 1_000;
/// Record kind of an open menu (key: its number in hex, as in the button data).
const MENUS: &str = "menu";
/// Record kind of the menu counter (one record, key [`NEXT`]).
const COUNTER: &str = "menu-counter";
/// The counter record's key.
const NEXT: &str = "next";
/// Menus not pressed for this long are forgotten at start.
const MENUS_KEPT_DAYS: i64 = 7;

/// A `/play` waiting for its variant, as kept and stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Menu {
    /// The Telegram id of whoever typed `/play`.
    asked_by: u64,
    opponent: Option<Opponent>,
    clock: Option<String>,
    color: Option<ColorChoice>,
    /// `rated` or `casual` as typed (menus stored before it: neither).
    #[serde(default)]
    rated: Option<bool>,
    /// The variant ids behind the buttons, in order: the list offered after
    /// a restart may differ.
    offered: Vec<String>,
}

/// The challenged person of a [`Menu`] (a Telegram [`UserRef`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Opponent {
    id: String,
    name: String,
    handle: Option<String>,
}

impl From<&UserRef> for Opponent {
    fn from(user: &UserRef) -> Self {
        Opponent {
            id: user.id.clone(),
            name: user.name.clone(),
            handle: user.handle.clone(),
        }
    }
}

impl From<Opponent> for UserRef {
    fn from(opponent: Opponent) -> Self {
        UserRef {
            platform: Platform::Telegram,
            id: opponent.id,
            name: opponent.name,
            handle: opponent.handle,
        }
    }
}

/// Open menus and the number the next one gets.
#[derive(Default)]
struct Menus {
    next: u64,
    open: HashMap<u64, Menu>,
}

/// What a press on a picker button means.
pub(super) enum Choice {
    /// The person who asked chose: play this.
    Play(Action),
    /// The person who asked chose to play the computer: open the menu of
    /// this `/play` (the computer as the opponent) instead.
    Computer(Action),
    /// Someone else pressed.
    NotYours,
    /// The menu is unknown (old, or from before a restart).
    Expired,
}

/// Open menus.
pub(super) struct Picker {
    variants: Vec<VariantChoice>,
    menus: Mutex<Menus>,
    journal: Journal,
}

impl Picker {
    /// A picker offering `variants` (none: `/play` without a variant goes to
    /// the service as is), keeping its menus in memory only.
    #[cfg(test)]
    pub fn new(variants: Vec<VariantChoice>) -> Self {
        Picker {
            variants,
            menus: Mutex::new(Menus::default()),
            journal: Journal::default(),
        }
    }

    /// A picker with the menus stored in `store` (none without one), writing
    /// changes through `journal`.
    pub async fn load(
        variants: Vec<VariantChoice>,
        store: Option<&Store>,
        journal: Journal,
    ) -> Self {
        let mut menus = Menus::default();
        for (key, value) in memory::load(store, MENUS, MENUS_KEPT_DAYS).await {
            match (u64::from_str_radix(&key, 16), serde_json::from_str(&value)) {
                (Ok(number), Ok(menu)) => {
                    menus.open.insert(number, menu);
                }
                _ => tracing::warn!("an unreadable picker menu record was skipped"),
            }
        }
        let counted = memory::recall(store, COUNTER, NEXT)
            .await
            .and_then(|next| next.parse::<u64>().ok())
            .unwrap_or(0);
        let after_open = menus.open.keys().max().map_or(0, |last| last + 1);
        menus.next = counted.max(after_open);
        Picker {
            variants,
            menus: Mutex::new(menus),
            journal,
        }
    }

    fn menus(&self) -> MutexGuard<'_, Menus> {
        self.menus
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Opens a menu for an incomplete `/play` and returns its buttons, or
    /// `None` when the action is not a `/play` without a variant (or there is
    /// nothing to pick from).
    pub fn open(
        &self,
        action: &Action,
        asked_by: UserId,
        locale: Option<&str>,
    ) -> Option<Vec<Button>> {
        let Action::Play {
            variant,
            opponent,
            clock,
            color,
            fen,
            rated,
            public: false,
        } = action
        else {
            return None;
        };
        if !variant.is_empty() || fen.is_some() || self.variants.is_empty() {
            return None;
        }
        let menu = Menu {
            asked_by: asked_by.0,
            opponent: opponent.as_ref().map(Opponent::from),
            clock: clock.clone(),
            color: *color,
            rated: *rated,
            offered: self
                .variants
                .iter()
                .map(|variant| variant.id.clone())
                .collect(),
        };
        let mut menus = self.menus();
        let key = menus.next;
        menus.next += 1;
        // The counter first: a crash in between skips a number, never reuses one.
        self.journal
            .remember(COUNTER, NEXT.to_owned(), menus.next.to_string());
        match serde_json::to_string(&menu) {
            Ok(value) => self.journal.remember(MENUS, format!("{key:x}"), value),
            Err(error) => tracing::warn!(%error, "could not write a picker menu record"),
        }
        menus.open.insert(key, menu);
        if menus.open.len() > MENUS_KEPT {
            let oldest = key.saturating_sub(MENUS_KEPT as u64);
            menus.open.retain(|number, _| {
                let kept = *number > oldest;
                if !kept {
                    self.journal.forget(MENUS, format!("{number:x}"));
                }
                kept
            });
        }
        drop(menus);
        let russian = locale.is_some_and(|code| code.to_lowercase().starts_with("ru"));
        let mut buttons: Vec<Button> = self
            .variants
            .iter()
            .enumerate()
            .map(|(index, variant)| Button {
                label: variant.name(locale.unwrap_or_default()).to_owned(),
                data: format!("{PREFIX}{key:x}:{index}"),
            })
            .collect();
        // An open challenge may become a game against the computer.
        if opponent.is_none() {
            buttons.push(Button {
                label: if russian {
                    "🤖 С компьютером".to_owned()
                } else {
                    "🤖 Against the computer".to_owned()
                },
                data: format!("{PREFIX}{key:x}:{COMPUTER}"),
            });
        }
        Some(buttons)
    }

    /// Reads a button press; `None` when the data is not a picker's.
    pub fn choose(&self, data: &str, pressed_by: UserId) -> Option<Choice> {
        let rest = data.strip_prefix(PREFIX)?;
        if let Some(key) = rest
            .strip_suffix(COMPUTER)
            .and_then(|key| key.strip_suffix(':'))
            .and_then(|key| u64::from_str_radix(key, 16).ok())
        {
            let mut menus = self.menus();
            match menus.open.get(&key) {
                None => return Some(Choice::Expired),
                Some(menu) if menu.asked_by != pressed_by.0 => return Some(Choice::NotYours),
                Some(_) => {}
            }
            let menu = menus.open.remove(&key)?;
            self.journal.forget(MENUS, format!("{key:x}"));
            return Some(Choice::Computer(Action::Play {
                variant: String::new(),
                opponent: Some(UserRef::computer(
                    Platform::Telegram,
                    crate::service::DEFAULT_COMPUTER_LEVEL,
                )),
                clock: menu.clock,
                color: menu.color,
                fen: None,
                rated: menu.rated,
                public: false,
            }));
        }
        let parsed = rest.split_once(':').and_then(|(key, index)| {
            Some((
                u64::from_str_radix(key, 16).ok()?,
                index.parse::<usize>().ok()?,
            ))
        });
        let Some((key, index)) = parsed else {
            return Some(Choice::Expired);
        };
        let mut menus = self.menus();
        let Some(menu) = menus.open.get(&key) else {
            return Some(Choice::Expired);
        };
        if menu.asked_by != pressed_by.0 {
            return Some(Choice::NotYours);
        }
        let Some(variant) = menu.offered.get(index).cloned() else {
            return Some(Choice::Expired);
        };
        let menu = menus.open.remove(&key)?;
        self.journal.forget(MENUS, format!("{key:x}"));
        Some(Choice::Play(Action::Play {
            variant,
            opponent: menu.opponent.map(UserRef::from),
            clock: menu.clock,
            color: menu.color,
            fen: None,
            rated: menu.rated,
            public: false,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn picker() -> Picker {
        Picker::new(vec![
            VariantChoice {
                id: "chess".into(),
                name_en: "Chess".into(),
                name_ru: "Шахматы".into(),
            },
            VariantChoice {
                id: "fogofwar".into(),
                name_en: "Fog of war".into(),
                name_ru: "Туман войны".into(),
            },
        ])
    }

    fn incomplete_play() -> Action {
        Action::Play {
            variant: String::new(),
            opponent: None,
            clock: Some("3+2".into()),
            color: None,
            fen: None,
            rated: None,
            public: false,
        }
    }

    #[test]
    fn only_the_asker_can_choose_and_only_once() {
        let picker = picker();
        let buttons = picker
            .open(&incomplete_play(), UserId(1), Some("ru"))
            .expect("a menu");
        assert_eq!(buttons[1].label, "Туман войны");
        assert!(buttons.iter().all(|button| button.data.len() <= 64));
        assert!(matches!(
            picker.choose(&buttons[1].data, UserId(2)),
            Some(Choice::NotYours)
        ));
        match picker.choose(&buttons[1].data, UserId(1)) {
            Some(Choice::Play(Action::Play { variant, clock, .. })) => {
                assert_eq!(variant, "fogofwar");
                assert_eq!(clock.as_deref(), Some("3+2"));
            }
            _ => panic!("the asker's choice plays"),
        }
        assert!(matches!(
            picker.choose(&buttons[1].data, UserId(1)),
            Some(Choice::Expired)
        ));
        assert!(picker.choose("acc:k3x9", UserId(1)).is_none());
    }

    #[test]
    fn an_open_challenge_can_become_a_game_against_the_computer() {
        let picker = picker();
        let buttons = picker
            .open(&incomplete_play(), UserId(1), None)
            .expect("a menu");
        let computer = buttons.last().expect("a button");
        assert_eq!(computer.label, "🤖 Against the computer");
        assert!(matches!(
            picker.choose(&computer.data, UserId(2)),
            Some(Choice::NotYours)
        ));
        let Some(Choice::Computer(play)) = picker.choose(&computer.data, UserId(1)) else {
            panic!("the asker's choice");
        };
        // The next menu has the computer as the opponent: no such button.
        let next = picker.open(&play, UserId(1), None).expect("a menu");
        assert_eq!(next.len(), 2);
        match picker.choose(&next[0].data, UserId(1)) {
            Some(Choice::Play(Action::Play {
                variant,
                opponent: Some(opponent),
                clock,
                ..
            })) => {
                assert_eq!(variant, "chess");
                assert_eq!(opponent.computer_level(), Some(3));
                assert_eq!(clock.as_deref(), Some("3+2"));
            }
            _ => panic!("a game against the computer"),
        }
    }

    #[test]
    fn complete_plays_need_no_menu() {
        let picker = picker();
        let play = Action::Play {
            variant: "chess".into(),
            opponent: None,
            clock: None,
            color: None,
            fen: None,
            rated: None,
            public: false,
        };
        assert!(picker.open(&play, UserId(1), None).is_none());
        assert!(Picker::new(Vec::new())
            .open(&incomplete_play(), UserId(1), None)
            .is_none());
    }
}
