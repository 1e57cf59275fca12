//! Rematches: after a game, either player offers the same variant, clock
//! and start position with colours swapped (the *Rematch* button under the
//! result, or `/rematch [game]`). The offer is a challenge to the other
//! player, who accepts it as any challenge; against the computer it starts
//! at once, and the second player to ask for the rematch accepts the first's.

use crate::api::UserRef;
use crate::service::kernel::lookup::no_such_game;
use crate::service::kernel::players::is_user;
use crate::service::kernel::terms::ColorChoice;
use crate::service::kernel::{Ctx, Msg, Outcome, Service};
use crate::service::present::chat_of;
use crate::store::{GameRow, Status};

impl Service {
    /// `/rematch [game]`, or the Rematch button of game `game`.
    pub(crate) async fn rematch(&self, ctx: &Ctx, game: Option<String>) -> Outcome {
        let old = self.ended_game(ctx, game).await?;
        let variant = self.variant(&old)?;
        if old.seats.len() != 2 || old.linked_id.is_some() {
            return Err(Msg::new("error-rematch-teams").into());
        }
        let (Some(mine), Some(theirs)) = (
            old.seats
                .iter()
                .find(|seat| is_user(ctx.actor(), &seat.user_id)),
            old.seats
                .iter()
                .find(|seat| !is_user(ctx.actor(), &seat.user_id)),
        ) else {
            return Err(Msg::new("error-rematch-not-player")
                .arg("id", old.id.clone())
                .into());
        };
        // The other player asked first: this is their rematch accepted.
        let open = self.open_games(ctx).await?;
        let same_terms = |row: &&GameRow| {
            row.status == Status::Challenge
                && row.variant == old.variant
                && row.time_control == old.time_control
                && row.from_fen == old.from_fen
        };
        if let Some(theirs_first) = open.iter().filter(same_terms).find(|row| {
            row.challenger_id == theirs.user_id
                && row
                    .opponent_id
                    .as_deref()
                    .is_some_and(|id| is_user(ctx.actor(), id))
        }) {
            return self.accept(ctx, Some(theirs_first.id.clone())).await;
        }
        if let Some(pending) = open.iter().filter(same_terms).find(|row| {
            is_user(ctx.actor(), &row.challenger_id)
                && row.opponent_id.as_deref() == Some(theirs.user_id.as_str())
        }) {
            return Err(Msg::new("error-rematch-pending")
                .arg("id", pending.id.clone())
                .into());
        }
        self.check_limits(ctx, true).await?;
        // Colours swapped: the one who had white asks for black.
        let color = if mine.side == kodex_engine::Side::WHITE {
            ColorChoice::Black
        } else {
            ColorChoice::White
        };
        let mut row = self.challenge_row(ctx, &variant, &old.time_control, color);
        // The rematch is offered where the game was announced (the channel
        // a thread of its own came from).
        row.chat_id = old.home_chat_id.clone().unwrap_or(old.chat_id.clone());
        row.opponent_id = Some(theirs.user_id.clone());
        row.opponent_name = Some(theirs.user_name.clone());
        row.from_fen = old.from_fen.clone();
        // Rated again if the game was (the same players, the same terms).
        row.rated = old.rated;
        self.insert_challenge(&mut row).await?;
        tracing::info!(game = %row.id, after = %old.id, "rematch offered");
        if UserRef::level_of(&theirs.user_id).is_some() {
            return self.accept_for_computer(ctx, &row).await;
        }
        let chat = chat_of(&row);
        let lang = self.game_chat_lang(ctx, &row).await;
        let msg = Msg::new("rematch-offered")
            .arg("after", old.id.clone())
            .arg("opponent", theirs.user_name.clone());
        Ok(vec![
            self.challenge_message(chat, lang, &row, &variant, color, msg)
        ])
    }

    /// The ended game `game`, or the caller's latest game in this chat (or
    /// in a thread that started here).
    async fn ended_game(&self, ctx: &Ctx, game: Option<String>) -> Outcome<GameRow> {
        let found = match game.as_deref().map(str::trim).filter(|id| !id.is_empty()) {
            Some(id) => Some(self.by_id(ctx, id).await?),
            None => {
                self.inner
                    .store
                    .latest_game_of(ctx.platform(), &ctx.req.chat.id, &ctx.actor().id)
                    .await?
            }
        };
        let Some(row) = found else {
            return Err(match game {
                Some(id) => no_such_game(&id),
                None => Msg::new("error-rematch-none").into(),
            });
        };
        if !row.status.is_over() || row.seats.is_empty() {
            return Err(Msg::new("error-rematch-not-over")
                .arg("id", row.id.clone())
                .into());
        }
        Ok(row)
    }
}
