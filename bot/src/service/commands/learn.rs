//! The teaching ladder (seed 001): `/learn` lists the six lessons in order
//! with their goals; a lesson's game ends with what it taught and the next
//! lesson (`/learn 2 @friend` or `/learn 2 computer` starts one, as
//! `/play lesson2 …` does).

use crate::i18n::Lang;
use crate::service::kernel::{Ctx, Msg, Outcome, Service};
use crate::store::{GameResult, GameRow};

/// How many lessons the ladder has (`lesson1` … `lesson6`).
pub const LESSONS: u8 = 6;

/// The variant id of lesson `number`, if there is such a lesson.
pub fn lesson_id(number: u8) -> Option<String> {
    (1..=LESSONS)
        .contains(&number)
        .then(|| format!("lesson{number}"))
}

/// The lesson a variant id is, if it is one.
fn lesson_number(variant: &str) -> Option<u8> {
    variant
        .strip_prefix("lesson")?
        .parse()
        .ok()
        .filter(|n| (1..=LESSONS).contains(n))
}

impl Service {
    /// `/learn`: the lessons, in order, each with its name and goal.
    pub(crate) fn learn(&self, ctx: &Ctx) -> Outcome {
        let code = ctx.lang.code();
        let mut lines = vec![self.text(ctx.lang, &Msg::new("learn-header"))];
        for number in 1..=LESSONS {
            let id = format!("lesson{number}");
            let name = self
                .inner
                .registry
                .get(&id)
                .map_or_else(|| id.clone(), |variant| variant.name(code).to_string());
            let goal = self.text(
                ctx.lang,
                &Msg::new("learn-goal").arg("lesson", number as i64),
            );
            lines.push(format!("{number}. {name} — {goal}"));
        }
        lines.push(self.text(ctx.lang, &Msg::new("learn-footer")));
        Ok(vec![self.note(ctx, lines.join("\n"))])
    }

    /// After a lesson's game: what the lesson taught, and the next one.
    /// `None` for other variants and aborted games.
    pub(crate) fn lesson_end_text(&self, lang: Lang, row: &GameRow) -> Option<String> {
        let number = lesson_number(&row.variant)?;
        if matches!(row.result, None | Some(GameResult::NoResult)) {
            return None;
        }
        let learned = self.text(
            lang,
            &Msg::new("learn-learned").arg("lesson", number as i64),
        );
        let next = match lesson_id(number + 1) {
            Some(_) => Msg::new("learn-next").arg("lesson", (number + 1) as i64),
            None => Msg::new("learn-done"),
        };
        Some(format!("{learned} {}", self.text(lang, &next)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lessons_are_numbered_one_to_six() {
        assert_eq!(lesson_id(1).as_deref(), Some("lesson1"));
        assert_eq!(lesson_id(6).as_deref(), Some("lesson6"));
        assert_eq!(lesson_id(0), None);
        assert_eq!(lesson_id(7), None);
        assert_eq!(lesson_number("lesson3"), Some(3));
        assert_eq!(lesson_number("lesson9"), None);
        assert_eq!(lesson_number("chess"), None);
    }
}
