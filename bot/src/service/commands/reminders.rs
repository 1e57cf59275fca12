//! Reminders: the player to move hears privately, once, that their time is
//! running out — a quarter of a correspondence move's time left (once per
//! move), or a tenth of a live clock's starting time (once per game). The
//! moment is stored with the game (`reminder_at`) and the scheduler wakes
//! for it as for a flag; seats already reminded are stored too, so a
//! restart never reminds twice.

use crate::api::{Delivery, Target};
use crate::clock::format_remaining;
use crate::service::kernel::clocks::once_per_game;
use crate::service::kernel::{Msg, Outcome, Service};
use crate::service::present::player_ref;
use crate::store::{GameRow, Status};

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
        if once_per_game(row.time_control) {
            row.reminded = row.reminded.with(seat);
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
