//! Moves, the clock, and the end of a game.

use super::lookup::Role;
use super::present::Event;
use super::{Ctx, Failure, Msg, Outcome, Service, MAX_MOVE_TEXT};
use crate::clock::TimeControl;
use crate::i18n::Lang;
use crate::store::{GameResult, GameRow, Status};
use kodex_engine::MoveError;

impl Service {
    /// `/move <move> [id]`, or plain chat text (`plain`) that may be a move:
    /// plain text that is clearly not a move gets no answer.
    pub(crate) async fn make_move(
        &self,
        ctx: &Ctx,
        text: &str,
        game: Option<String>,
        plain: bool,
    ) -> Outcome {
        let quiet = |msg: Msg| if plain { Failure::Silent } else { msg.into() };
        // A game being set up takes setup input instead (see setup.rs).
        if let Some(answer) = self.route_setup(ctx, text, game.as_deref(), plain).await? {
            return Ok(answer);
        }
        let mut text = text.trim();
        let mut game = game;
        if plain {
            // "e4 k7m2": a move for a named game.
            if let Some((mv, id)) = text.split_once(char::is_whitespace) {
                if id.trim().chars().count() <= 10 && !id.trim().contains(' ') {
                    text = mv;
                    game = Some(id.trim().to_owned());
                }
            }
        }
        if text.is_empty() {
            return Err(quiet(Msg::new("error-move-usage")));
        }
        if text.chars().count() > MAX_MOVE_TEXT || (plain && !looks_like_move(text)) {
            return Err(quiet(Msg::new("error-move-too-long")));
        }
        let found = match game {
            Some(id) => match self.find_game(ctx, Some(id), Role::Player).await {
                Ok(row) => row,
                Err(e) if plain => {
                    tracing::trace!(?e, "plain text named no game of the sender");
                    return Err(Failure::Silent);
                }
                Err(e) => return Err(e),
            },
            None => self.game_for_move(ctx, text, plain).await?,
        };
        // Rows are never deleted: a game that is no longer active has ended.
        let (_lock, row) = self.lock_fresh(&found, Status::Active).await?;
        let mut row =
            row.ok_or_else(|| quiet(Msg::new("error-game-over").arg("id", found.id.clone())))?;
        let side = row
            .side_of(&ctx.actor().id)
            .ok_or_else(|| Msg::new("error-not-your-game").arg("id", row.id.clone()))?;
        let mut game = self.replay(&row)?;
        if game.variant().hidden_information() && !ctx.req.private {
            // Refused before the move is even read: the answer must not
            // depend on the position.
            return Err(Msg::new("error-fog-move-in-public")
                .arg("id", row.id.clone())
                .into());
        }
        if game.side_to_move().index() != side {
            return Err(quiet(
                Msg::new("error-not-your-turn").arg("id", row.id.clone()),
            ));
        }
        let now = self.now();
        if row.deadline.is_some_and(|deadline| now >= deadline) {
            return self.flag(&mut row).await;
        }
        let played = match game.play_text(text) {
            Ok(played) => played,
            Err(MoveError::Unparseable) => {
                return Err(quiet(
                    Msg::new("error-move-unparseable").arg("move", text.to_owned()),
                ))
            }
            Err(MoveError::Illegal) => {
                return Err(Msg::new("error-move-illegal")
                    .arg("move", text.to_owned())
                    .into())
            }
            Err(MoveError::Ambiguous(candidates)) => {
                return Err(Msg::new("error-move-ambiguous")
                    .arg("move", text.to_owned())
                    .arg("candidates", candidates.join(", "))
                    .into())
            }
        };
        if !row.moves.is_empty() {
            row.moves.push(' ');
        }
        row.moves.push_str(&played.uci);
        let time_control = TimeControl::parse(&row.time_control).unwrap_or(TimeControl::Unlimited);
        if time_control != TimeControl::Unlimited {
            let remaining = row.remaining(side).unwrap_or(0);
            let elapsed = now - row.turn_started_at.unwrap_or(now);
            let left = time_control
                .after_move(remaining, elapsed)
                .unwrap_or_default();
            row.set_remaining(side, Some(left));
            let next = game.side_to_move().index();
            row.turn_started_at = Some(now);
            row.deadline = Some(now.saturating_add(row.remaining(next).unwrap_or(0)));
        }
        // Playing on declines the opponent's draw offer; any takeback request lapses.
        if row.draw_offer.is_some_and(|offer| offer as usize != side) {
            row.draw_offer = None;
        }
        row.takeback_offer = None;
        if let Some(outcome) = game.outcome() {
            let result = result_of(&outcome);
            finish(&mut row, result, outcome.reason.key());
        }
        self.save(&mut row).await?;
        tracing::debug!(game = %row.id, ply = game.ply(), "move applied");
        Ok(self.announce(&row, &game, Event::Moved, ctx.lang).await)
    }

    /// The game a move without an id goes to: the caller's only game here,
    /// else the only one where it is their turn.
    async fn game_for_move(&self, ctx: &Ctx, text: &str, plain: bool) -> Outcome<GameRow> {
        let mut candidates = self.candidates(ctx).await?;
        if candidates.len() > 1 {
            let my_turn: Vec<GameRow> = candidates
                .iter()
                .filter(|row| {
                    let side = row.side_of(&ctx.actor().id);
                    self.replay(row)
                        .is_ok_and(|game| Some(game.side_to_move().index()) == side)
                })
                .cloned()
                .collect();
            if my_turn.len() == 1 {
                return Ok(my_turn.into_iter().next().unwrap_or_else(|| unreachable!()));
            }
            if !my_turn.is_empty() {
                candidates = my_turn;
            }
        }
        match candidates.len() {
            0 if plain => Err(Failure::Silent),
            0 => Err(Msg::new("error-no-game").into()),
            1 => Ok(candidates.remove(0)),
            _ if plain && text.chars().count() > 8 => Err(Failure::Silent),
            _ => Err(self.which_game(ctx, &candidates)),
        }
    }

    /// The side to move ran out of time (the caller holds the lock): a loss,
    /// or a draw when the opponent has no mating material.
    pub(crate) async fn flag(&self, row: &mut GameRow) -> Outcome {
        let game = match self.replay(row) {
            Ok(game) => game,
            Err(e) => {
                // A game that cannot be rebuilt cannot be judged: stop its
                // clock rather than retry it for ever.
                row.deadline = None;
                self.save(row).await?;
                return Err(e);
            }
        };
        let side = game.side_to_move();
        let opponent = side.opponent();
        row.set_remaining(side.index(), Some(0));
        if game.has_mating_material(opponent) {
            let result = row.win_of_side(opponent.index());
            finish(row, result, "timeout");
        } else {
            finish(row, GameResult::Draw, "timeout-draw");
        }
        self.save(row).await?;
        tracing::info!(game = %row.id, "flag fell");
        let lang: Lang = self.chat_lang(&row.platform, &row.chat_id).await;
        Ok(self.announce(row, &game, Event::Ended, lang).await)
    }
}

/// The result the engine's `outcome` of the game in `row` means. The one
/// place the service reads an engine outcome: it names a winning side, whose
/// seat's team wins.
fn result_of(outcome: &kodex_engine::Outcome) -> GameResult {
    match outcome.winner() {
        Some(team) => GameResult::Win { team: team.index() },
        None => GameResult::Draw,
    }
}

/// Ends the game in `row` with `result`.
pub(crate) fn finish(row: &mut GameRow, result: GameResult, reason: &str) {
    row.status = Status::Finished;
    row.result = Some(result);
    row.reason = Some(reason.to_owned());
    row.deadline = None;
    row.draw_offer = None;
    row.takeback_offer = None;
}

/// Whether plain chat text could be move notation (letters, digits and
/// `-+#=@x`, with a digit or castling zeros): chatter is ignored without
/// asking the engine, so the answer never depends on the position.
pub(crate) fn looks_like_move(text: &str) -> bool {
    let allowed = |c: char| c.is_alphanumeric() || "-+#=@!?".contains(c);
    text.chars().count() <= 10
        && text.chars().all(allowed)
        && (text.chars().any(|c| c.is_ascii_digit()) || text.to_lowercase().starts_with("o-o"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chatter_is_not_a_move() {
        for text in [
            "e4", "Nf3", "exd5", "O-O", "0-0-0", "e8=Q+", "N@f3", "Кf3", "e2e4",
        ] {
            assert!(looks_like_move(text), "{text}");
        }
        for text in ["hello", "gg", "good game!", "lol", "what?", "https://x.y/1"] {
            assert!(!looks_like_move(text), "{text}");
        }
    }
}
