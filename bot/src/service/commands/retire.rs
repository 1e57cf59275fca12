//! Retirement (Enochian chess): `/retire` (`/выйти`) — a player leaves the
//! game at any time, handing their army to their partner, who moves it from
//! then on (see [`kodex_engine::Game::retire`]; a bare king left behind lets
//! the partner move either army on both turns). The turn does not pass; the
//! record keeps it, so a restart or a takeback replays or undoes it with the
//! moves. The retired player moves no more, and has no say in the game any
//! more (offers, exchanges, resigning: `Service::my_game` refuses them; a
//! team draw no longer waits for them); a draw offer standing when a player
//! retires lapses. The computer never retires.

use crate::i18n::Lang;
use crate::service::kernel::apply::Change;
use crate::service::kernel::lookup::{partner, you_left};
use crate::service::kernel::{Ctx, Msg, Outcome, Service};
use crate::store::GameRow;
use kodex_engine::{Game, RetireError, Side};

impl Service {
    /// `/retire [id]`: leaves the game, handing one's army to the partner.
    pub(crate) async fn retire(&self, ctx: &Ctx, game: Option<String>) -> Outcome {
        let (_lock, mut row, seat) = self.my_game(ctx, game).await?;
        let lang = self.game_chat_lang(ctx, &row).await;
        let mut position = self.replay(&row)?;
        if let Err(error) = position.may_retire(seat) {
            return Err(refusal(&row, error, seat).into());
        }
        self.apply(&mut row, &mut position, Change::Retire { seat }, lang)
            .await
    }

    /// What the chat is told when seat `seat` retired: who moves its army now.
    pub(crate) fn retire_text(
        &self,
        lang: Lang,
        row: &GameRow,
        game: &Game,
        seat: usize,
    ) -> String {
        let color = self.seat_color_name(lang, game.variant(), seat, Side((seat % 2) as u8));
        let heir = row.player_name(game.controller(seat)).to_owned();
        let mut text = self.text(
            lang,
            &Msg::new("retire-done")
                .arg("id", row.id.clone())
                .arg("player", row.player_name(seat).to_owned())
                .arg("partner", heir.clone())
                .arg("color", color.clone()),
        );
        if game.shares_turns(seat) {
            text.push(' ');
            text.push_str(
                &self.text(
                    lang,
                    &Msg::new("retire-bare-king")
                        .arg("partner", heir)
                        .arg("color", color),
                ),
            );
        }
        text
    }
}

/// Why seat `seat` may not retire now.
fn refusal(row: &GameRow, error: RetireError, seat: usize) -> Msg {
    let partner = row.player_name(partner(seat)).to_owned();
    match error {
        RetireError::NoThrones => Msg::new("retire-not-here").arg("id", row.id.clone()),
        RetireError::GameOver => Msg::new("error-game-over").arg("id", row.id.clone()),
        RetireError::NoSeat => Msg::new("error-internal"),
        RetireError::AlreadyRetired => you_left(row, seat),
        RetireError::PartnerRetired => Msg::new("retire-partner-retired").arg("partner", partner),
        RetireError::OwnKingTaken => Msg::new("retire-own-king-taken"),
        RetireError::PartnerKingTaken => {
            Msg::new("retire-partner-king-taken").arg("partner", partner)
        }
        RetireError::ControlsPartner => Msg::new("retire-controls-partner").arg("partner", partner),
    }
}
