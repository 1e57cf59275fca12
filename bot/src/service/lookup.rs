//! Which game a request is about: the id given, or the caller's only game in
//! this chat (in a private chat: anywhere on the platform); when that is
//! ambiguous the reply lists the candidates by id.

use super::{Ctx, Failure, Msg, Outcome, Service};
use crate::store::{GameRow, Status};

/// Who may name a game.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum Role {
    /// Only its players (moves, offers, resigning).
    Player,
    /// Anyone (board, PGN): without an id the chat's latest game is used
    /// when the caller plays none here.
    Anyone,
}

impl Service {
    /// The started game the request is about.
    pub(crate) async fn find_game(
        &self,
        ctx: &Ctx,
        explicit: Option<String>,
        role: Role,
    ) -> Outcome<GameRow> {
        if let Some(id) = explicit.filter(|id| !id.trim().is_empty()) {
            let row = self
                .inner
                .store
                .get(ctx.platform(), &id)
                .await?
                .filter(|row| row.start_fen.is_some())
                .ok_or_else(|| no_such_game(&id))?;
            if role == Role::Player && row.side_of(&ctx.actor().id).is_none() {
                return Err(Msg::new("error-not-your-game").arg("id", row.id).into());
            }
            return Ok(row);
        }
        let mut candidates = self.candidates(ctx).await?;
        if candidates.is_empty() && role == Role::Anyone && !ctx.req.private {
            if let Some(row) = self
                .inner
                .store
                .latest_game_in(ctx.platform(), &ctx.req.chat.id)
                .await?
            {
                return Ok(row);
            }
        }
        match candidates.len() {
            0 => Err(Msg::new("error-no-game").into()),
            1 => Ok(candidates.remove(0)),
            _ => Err(self.which_game(ctx, &candidates)),
        }
    }

    /// The caller's active games where the request was made.
    pub(crate) async fn candidates(&self, ctx: &Ctx) -> Outcome<Vec<GameRow>> {
        let chat = (!ctx.req.private).then_some(ctx.req.chat.id.as_str());
        Ok(self
            .inner
            .store
            .active_games_of(ctx.platform(), &ctx.actor().id, chat)
            .await?)
    }

    /// "Which game?" listing `rows` by id.
    pub(crate) fn which_game(&self, ctx: &Ctx, rows: &[GameRow]) -> Failure {
        let list = rows
            .iter()
            .map(|row| self.describe(ctx.lang, row))
            .collect::<Vec<_>>()
            .join("\n");
        Msg::new("error-which-game").arg("games", list).into()
    }

    /// The challenge an accept or decline is about. `accepting`: one the
    /// caller may accept; otherwise one the caller may decline or withdraw.
    pub(crate) async fn find_challenge(
        &self,
        ctx: &Ctx,
        explicit: Option<String>,
        accepting: bool,
    ) -> Outcome<GameRow> {
        let actor = &ctx.actor().id;
        let fits = |row: &GameRow| {
            if accepting {
                row.challenger_id != *actor && row.opponent_id.as_deref().is_none_or(|o| o == actor)
            } else {
                row.challenger_id == *actor || row.opponent_id.as_deref() == Some(actor)
            }
        };
        if let Some(id) = explicit.filter(|id| !id.trim().is_empty()) {
            let row = self
                .inner
                .store
                .get(ctx.platform(), &id)
                .await?
                .ok_or_else(|| no_such_game(&id))?;
            if row.status() != Status::Challenge {
                return Err(Msg::new("error-not-a-challenge").arg("id", row.id).into());
            }
            if accepting && row.challenger_id == *actor {
                return Err(Msg::new("error-own-challenge").into());
            }
            if !fits(&row) {
                return Err(Msg::new("error-challenge-not-for-you")
                    .arg("id", row.id)
                    .into());
            }
            return Ok(row);
        }
        let all = if ctx.req.private {
            self.inner
                .store
                .open_games_of(ctx.platform(), actor)
                .await?
                .into_iter()
                .filter(|row| row.status() == Status::Challenge)
                .collect()
        } else {
            self.inner
                .store
                .challenges_in(ctx.platform(), &ctx.req.chat.id)
                .await?
        };
        let own_only =
            accepting && !all.is_empty() && all.iter().all(|r| r.challenger_id == *actor);
        let mut fitting: Vec<GameRow> = all.into_iter().filter(fits).collect();
        match fitting.len() {
            0 if own_only => Err(Msg::new("error-own-challenge").into()),
            0 => Err(Msg::new("error-no-challenge").into()),
            1 => Ok(fitting.remove(0)),
            _ => Err(self.which_game(ctx, &fitting)),
        }
    }
}

fn no_such_game(id: &str) -> Failure {
    let shown: String = id.trim().chars().take(16).collect();
    Msg::new("error-no-such-game").arg("id", shown).into()
}
