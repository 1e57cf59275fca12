//! Reminders: the player to move hears privately, once, that their time is
//! running out — a quarter of a correspondence move's time left (once per
//! move), or a tenth of a live clock's starting time (once per game). The
//! moment is stored with the game (`reminder_at`) and the scheduler wakes
//! for it as for a flag; seats already reminded are stored too, so a
//! restart never reminds twice.

use crate::service::present::player_ref;
use crate::service::{Msg, Outcome, Service};
use crate::api::{Delivery, Target};
use crate::clock::{format_remaining, TimeControl};
use crate::store::{GameRow, Status};
use crate::time::Millis;

/// The time left at which a player is reminded, under `clock`: a quarter
/// of a correspondence move's time, a tenth of a live clock's start.
fn threshold(clock: TimeControl) -> Option<Millis> {
    match clock {
        TimeControl::Unlimited => None,
        TimeControl::PerMove { per_move } => Some(per_move / 4),
        TimeControl::Increment { base, .. } => Some(base / 10),
    }
}

/// Whether `clock` reminds each seat once per game (a live clock) rather
/// than once per move (correspondence).
fn once_per_game(clock: TimeControl) -> bool {
    matches!(clock, TimeControl::Increment { .. })
}

/// Plans the reminder of `seat`, whose turn begins at `now` with its time
/// as stored in `row`: none when the game has no clock or the seat was
/// already reminded in this game of a live clock.
pub(crate) fn plan(row: &mut GameRow, seat: usize, now: Millis) {
    let clock = TimeControl::parse(&row.time_control).unwrap_or(TimeControl::Unlimited);
    let reminded = seat < 63 && row.reminded & (1 << seat) != 0;
    row.reminder_at = match (threshold(clock), row.remaining(seat)) {
        (Some(threshold), Some(left)) if !(once_per_game(clock) && reminded) => {
            Some(now.saturating_add((left - threshold).max(0)))
        }
        _ => None,
    };
}

impl Service {
    /// Sends the reminder due in `row` (its lock held) to the player to
    /// move, and stores that it was sent.
    pub(crate) async fn remind(&self, row: &mut GameRow) -> Outcome {
        row.reminder_at = None;
        if row.status != Status::Active {
            self.save(row).await?;
            return Ok(Vec::new());
        }
        let game = match self.replay(row) {
            Ok(game) => game,
            Err(e) => {
                // A game that cannot be rebuilt (or is refused: its
                // variant's definition changed) reminds nobody: the
                // reminder is dropped rather than retried for ever.
                self.save(row).await?;
                return Err(e);
            }
        };
        let seat = game.seat_to_move();
        let clock = TimeControl::parse(&row.time_control).unwrap_or(TimeControl::Unlimited);
        if once_per_game(clock) && seat < 63 {
            row.reminded |= 1 << seat;
        }
        self.save(row).await?;
        // Enochian chess: the player who took the army's throne moves it.
        let mover = game.controller(seat);
        let Some(player) = player_ref(row, mover).filter(|p| p.computer_level().is_none()) else {
            return Ok(Vec::new());
        };
        let now = self.now();
        let left = row.remaining(seat).unwrap_or(0) - (now - row.turn_started_at.unwrap_or(now));
        let lang = self.user_lang(&row.platform, &player.id).await;
        let text = self.text(
            lang,
            &Msg::new("reminder")
                .arg("id", row.id.clone())
                .arg("left", format_remaining(left))
                .arg("opponent", row.opponent_names(seat)),
        );
        tracing::info!(game = %row.id, seat, "reminded");
        Ok(vec![Delivery {
            notify: Vec::new(),
            target: Target::Private(player),
            text,
            image: None,
            buttons: Vec::new(),
            game: Some(self.game_ref(lang, row, false)),
        }])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::{MINUTE, SECOND};
    use crate::store::SeatRow;

    fn game(time_control: &str, left: [Millis; 2]) -> GameRow {
        let mut row = crate::store::tests::challenge("k7m2", None);
        row.time_control = time_control.to_owned();
        row.status = Status::Active;
        row.seats = left
            .iter()
            .enumerate()
            .map(|(seat, &left)| SeatRow {
                seat,
                user_id: format!("p{seat}"),
                user_name: format!("p{seat}"),
                side: seat,
                team: seat,
                remaining_ms: Some(left),
                setup: None,
                ready: false,
            })
            .collect();
        row
    }

    #[test]
    fn live_clocks_remind_at_a_tenth_once_per_game_and_correspondence_at_a_quarter_each_move() {
        let mut row = game("5+3", [5 * MINUTE, 2 * MINUTE]);
        plan(&mut row, 0, 1_000);
        assert_eq!(row.reminder_at, Some(1_000 + 5 * MINUTE - 30 * SECOND));
        // Already below a tenth: at once.
        row.seats[1].remaining_ms = Some(10 * SECOND);
        plan(&mut row, 1, 1_000);
        assert_eq!(row.reminder_at, Some(1_000));
        // Reminded once: never again in this game.
        row.reminded = 0b10;
        plan(&mut row, 1, 2_000);
        assert_eq!(row.reminder_at, None);
        let day = 24 * 60 * MINUTE;
        let mut row = game("1d", [day, day]);
        row.reminded = 0b11;
        plan(&mut row, 1, 0);
        assert_eq!(row.reminder_at, Some(day - day / 4));
        let mut row = game("-", [0, 0]);
        row.seats
            .iter_mut()
            .for_each(|seat| seat.remaining_ms = None);
        plan(&mut row, 0, 0);
        assert_eq!(row.reminder_at, None);
    }
}
