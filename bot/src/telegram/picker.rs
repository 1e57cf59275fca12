//! The variant picker: `/play` without a variant answers with an inline
//! keyboard of variants; the press turns into the `/play` the person meant.
//!
//! Button data is `pv:<menu>:<index>` (well under Telegram's 64 bytes); what
//! the menu was for (who asked, whom they challenged, clock, colour) stays here
//! in memory. After a restart an old menu just asks for `/play` again.

use std::collections::HashMap;
use std::sync::Mutex;

use teloxide::types::UserId;

use crate::api::{Action, Button, UserRef};

/// The prefix of picker button data.
const PREFIX: &str = "pv:";
/// Menus kept at most; the oldest are forgotten first.
const MENUS_KEPT: usize = 1_000;

/// A variant the picker offers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantChoice {
    /// The variant id the service knows (`"chess"`, `"fogofwar"`).
    pub id: String,
    /// The English label.
    pub name: String,
    /// The Russian label.
    pub name_ru: String,
}

/// A `/play` waiting for its variant.
struct Menu {
    asked_by: UserId,
    opponent: Option<UserRef>,
    clock: Option<String>,
    color: Option<String>,
}

/// What a press on a picker button means.
pub(super) enum Choice {
    /// The person who asked chose: play this.
    Play(Action),
    /// Someone else pressed.
    NotYours,
    /// The menu is unknown (old, or from before a restart).
    Expired,
}

/// Open menus.
pub(super) struct Picker {
    variants: Vec<VariantChoice>,
    menus: Mutex<(u64, HashMap<u64, Menu>)>,
}

impl Picker {
    /// A picker offering `variants` (none: `/play` without a variant goes to the service as is).
    pub fn new(variants: Vec<VariantChoice>) -> Self {
        Picker {
            variants,
            menus: Mutex::new((0, HashMap::new())),
        }
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
        } = action
        else {
            return None;
        };
        if !variant.is_empty() || self.variants.is_empty() {
            return None;
        }
        let mut menus = self.menus.lock().unwrap_or_else(|p| p.into_inner());
        let (next, open) = &mut *menus;
        let key = *next;
        *next += 1;
        open.insert(
            key,
            Menu {
                asked_by,
                opponent: opponent.clone(),
                clock: clock.clone(),
                color: color.clone(),
            },
        );
        if open.len() > MENUS_KEPT {
            let oldest = key.saturating_sub(MENUS_KEPT as u64);
            open.retain(|menu, _| *menu > oldest);
        }
        let russian = locale.is_some_and(|code| code.to_lowercase().starts_with("ru"));
        Some(
            self.variants
                .iter()
                .enumerate()
                .map(|(index, variant)| Button {
                    label: if russian {
                        variant.name_ru.clone()
                    } else {
                        variant.name.clone()
                    },
                    data: format!("{PREFIX}{key:x}:{index}"),
                })
                .collect(),
        )
    }

    /// Reads a button press; `None` when the data is not a picker's.
    pub fn choose(&self, data: &str, pressed_by: UserId) -> Option<Choice> {
        let rest = data.strip_prefix(PREFIX)?;
        let parsed = rest.split_once(':').and_then(|(key, index)| {
            Some((
                u64::from_str_radix(key, 16).ok()?,
                index.parse::<usize>().ok()?,
            ))
        });
        let mut menus = self.menus.lock().unwrap_or_else(|p| p.into_inner());
        let Some((key, index)) = parsed else {
            return Some(Choice::Expired);
        };
        let (Some(menu), Some(variant)) = (menus.1.get(&key), self.variants.get(index)) else {
            return Some(Choice::Expired);
        };
        if menu.asked_by != pressed_by {
            return Some(Choice::NotYours);
        }
        let action = Action::Play {
            variant: variant.id.clone(),
            opponent: menu.opponent.clone(),
            clock: menu.clock.clone(),
            color: menu.color.clone(),
        };
        menus.1.remove(&key);
        Some(Choice::Play(action))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn picker() -> Picker {
        Picker::new(vec![
            VariantChoice {
                id: "chess".into(),
                name: "Chess".into(),
                name_ru: "Шахматы".into(),
            },
            VariantChoice {
                id: "fogofwar".into(),
                name: "Fog of war".into(),
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
    fn complete_plays_need_no_menu() {
        let picker = picker();
        let play = Action::Play {
            variant: "chess".into(),
            opponent: None,
            clock: None,
            color: None,
        };
        assert!(picker.open(&play, UserId(1), None).is_none());
        assert!(Picker::new(Vec::new())
            .open(&incomplete_play(), UserId(1), None)
            .is_none());
    }
}
