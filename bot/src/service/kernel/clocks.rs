//! Clocks: when a turn's reminder is due, and the times of a linked
//! board's moves (bughouse).

use crate::clock::TimeControl;
use crate::store::{GameRow, MoveTime};
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
pub(crate) fn once_per_game(clock: TimeControl) -> bool {
    matches!(clock, TimeControl::Increment { .. })
}

/// Plans the reminder of `seat`, whose turn begins at `now` with its time
/// as stored in `row`: none when the game has no clock or the seat was
/// already reminded in this game of a live clock.
pub(crate) fn plan_reminder(row: &mut GameRow, seat: usize, now: Millis) {
    let clock = row.time_control;
    let reminded = row.reminded.contains(seat);
    row.reminder_at = match (threshold(clock), row.remaining(seat)) {
        (Some(threshold), Some(left)) if !(once_per_game(clock) && reminded) => {
            Some(now.saturating_add((left - threshold).max(0)))
        }
        _ => None,
    };
}

/// Records when a move of a linked board was made and the mover's time
/// left after it (`-` without a clock).
pub(crate) fn record_move_time(row: &mut GameRow, seat: usize, now: Millis) {
    let left = row.remaining(seat);
    row.move_times.push(MoveTime { at: now, left });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::{MINUTE, SECOND};
    use crate::store::SeatRow;
    use crate::store::Status;

    fn game(time_control: &str, left: [Millis; 2]) -> GameRow {
        let mut row = crate::store::tests::challenge("k7m2", None);
        row.time_control = TimeControl::parse(time_control).expect("a clock");
        row.status = Status::Active;
        row.seats = left
            .iter()
            .enumerate()
            .map(|(seat, &left)| SeatRow {
                seat,
                user_id: format!("p{seat}"),
                user_name: format!("p{seat}"),
                side: kodex_engine::Side(seat as u8),
                team: kodex_engine::Team(seat as u8),
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
        plan_reminder(&mut row, 0, 1_000);
        assert_eq!(row.reminder_at, Some(1_000 + 5 * MINUTE - 30 * SECOND));
        // Already below a tenth: at once.
        row.seats[1].remaining_ms = Some(10 * SECOND);
        plan_reminder(&mut row, 1, 1_000);
        assert_eq!(row.reminder_at, Some(1_000));
        // Reminded once: never again in this game.
        row.reminded = crate::store::SeatSet::EMPTY.with(1);
        plan_reminder(&mut row, 1, 2_000);
        assert_eq!(row.reminder_at, None);
        let day = 24 * 60 * MINUTE;
        let mut row = game("1d", [day, day]);
        row.reminded = crate::store::SeatSet::EMPTY.with(0).with(1);
        plan_reminder(&mut row, 1, 0);
        assert_eq!(row.reminder_at, Some(day - day / 4));
        let mut row = game("-", [0, 0]);
        row.seats
            .iter_mut()
            .for_each(|seat| seat.remaining_ms = None);
        plan_reminder(&mut row, 0, 0);
        assert_eq!(row.reminder_at, None);
    }
}
