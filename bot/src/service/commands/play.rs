//! Moves, the clock, and the end of a game.

use crate::service::kernel::apply::Change;
use crate::service::kernel::lookup::{you_left, Role};
use crate::service::kernel::request::MAX_MOVE_TEXT;
use crate::service::kernel::request::{is_move_shaped, looks_like_move};
use crate::service::kernel::{Ctx, Failure, Msg, Outcome, Service};

/// The longest time-travel turn typed as one message (`T-2:Nf3 exd8=Q+`).
const MAX_TURN_TEXT: usize = 32;
/// A move typed this long after its player's game here ended is answered
/// with "game over" (later, the chat has moved on).
const ENDED_RECENTLY: crate::time::Millis = 10 * 60 * 1000;
use crate::i18n::Lang;
use crate::service::present::san_in;
use crate::store::{GameRow, Status};
use kodex_engine::is_pass_word;
use kodex_engine::looks_like_jump;
use kodex_engine::{Attempt, Game, JumpError, MoveError, TurnError, Visibility, Why};

impl Service {
    /// `/move <move> [id]`, or plain chat text (`plain`) that may be a move.
    /// Plain text shaped like a move (see [`is_move_shaped`]) from a player
    /// of a game here, and any text to the bot in private from a player,
    /// gets an answer — not your turn, unreadable, illegal, game over —
    /// while chatter gets none.
    pub(crate) async fn make_move(
        &self,
        ctx: &Ctx,
        text: &str,
        game: Option<String>,
        plain: bool,
    ) -> Outcome {
        // A game being set up takes setup input instead (see setup.rs).
        if let Some(answer) = self.route_setup(ctx, text, game.as_deref(), plain).await? {
            return Ok(answer);
        }
        let mut text = text.trim();
        let mut game = game;
        // A time-travel turn typed as one message: `T-2:Nf3 e5`.
        let jump = looks_like_jump(text);
        let move_first = text.split_whitespace().next().is_some_and(looks_like_move);
        if plain && ctx.req.private && !jump && !move_first {
            // Bughouse: words to the bot in private go to the partner.
            if let Some(relayed) = self.private_words_to_partner(ctx, text).await? {
                return Ok(relayed);
            }
        }
        if plain && !jump {
            // "e4 k7m2": a move for a named game.
            if let Some((mv, id)) = text.split_once(char::is_whitespace) {
                if id.trim().chars().count() <= crate::service::kernel::ids::GAME_ID_LEN
                    && !id.trim().contains(' ')
                {
                    text = mv;
                    game = Some(id.trim().to_owned());
                }
            }
        }
        if text.is_empty() {
            return Err(if plain {
                Failure::Silent
            } else {
                Msg::new("error-move-usage").into()
            });
        }
        // Told why it was refused: a command, any text in private, or text
        // shaped like a move; other chatter is left alone.
        let answered =
            !plain || ctx.req.private || jump || is_move_shaped(text) || is_pass_word(text);
        let limit = if jump { MAX_TURN_TEXT } else { MAX_MOVE_TEXT };
        if !answered {
            return Err(Failure::Silent);
        }
        if text.chars().count() > limit {
            return Err(Msg::new("error-move-too-long").into());
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
            None => match self.game_for_move(ctx, text, plain).await {
                Err(Failure::Silent) if plain => return Err(self.after_the_end(ctx).await?),
                found => found?,
            },
        };
        // Rows are never deleted: a game that is no longer active has ended.
        let (_lock, row) = self.lock_fresh(&found, Status::Active).await?;
        let mut row = row.ok_or_else(|| Msg::new("error-game-over").arg("id", found.id.clone()))?;
        let seat = row
            .seat_of(&ctx.actor().id)
            .ok_or_else(|| Msg::new("error-not-your-game").arg("id", row.id.clone()))?;
        let mut game = self.replay(&row)?;
        let kriegspiel = game.variant().visibility() == Visibility::OwnPiecesOnly;
        if game.variant().hidden_information() && !ctx.req.private {
            // Refused before the move is even read: the answer must not
            // depend on the position.
            let key = if kriegspiel {
                "error-kriegspiel-move-in-public"
            } else {
                "error-fog-move-in-public"
            };
            return Err(Failure::Withdrawn(Msg::new(key).arg("id", row.id.clone())));
        }
        // Enochian chess: a player who retired moves no more.
        if game.retired(seat) {
            return Err(you_left(&row, seat).into());
        }
        // Enochian chess: the player who took a throne moves that army too.
        if game.controller(game.seat_to_move()) != seat {
            return Err(Msg::new("error-not-your-turn")
                .arg("id", row.id.clone())
                .into());
        }
        let now = self.now();
        if row.deadline.is_some_and(|deadline| now >= deadline) {
            return self.flag(&mut row).await;
        }
        // What the move makes the bot post in the game's chat.
        let lang = self.game_chat_lang(ctx, &row).await;
        if game.has_time_travel() {
            let seat = game.seat_to_move();
            return match game.play_turn(text) {
                Ok(turn) => {
                    let change = Change::Turn {
                        seat,
                        record: turn.record(),
                        jump: turn.jump.as_ref().map(|jump| jump.text.clone()),
                        moved: turn.moved.is_some(),
                    };
                    self.apply(&mut row, &mut game, change, lang).await
                }

                Err(TurnError::Move(error)) => Err(move_error(error, text, false).into()),
                Err(TurnError::Jump(error)) => Err(self.jump_error(ctx, &error, text).into()),
            };
        }
        // Kriegspiel reads the move from the player's own pieces; an attempt
        // the real position forbids is recorded, and the turn stays.
        let mv = match game.parse_attempt(text) {
            Ok(Attempt::Legal(mv)) => mv,
            Ok(Attempt::Impossible(uci)) => {
                let change = Change::Impossible {
                    uci,
                    text: text.to_owned(),
                };
                return self.apply(&mut row, &mut game, change, lang).await;
            }
            Err(MoveError::Illegal) if !kriegspiel => {
                return Err(self.illegal_move(ctx, &game, text).await.into())
            }
            Err(error) => return Err(move_error(error, text, kriegspiel).into()),
        };
        self.apply(&mut row, &mut game, Change::Move(mv), lang)
            .await
    }

    /// Plain text shaped like a move from someone with no game in play
    /// here: when their last game here ended a short while ago
    /// ([`ENDED_RECENTLY`]) they are told it is over; anyone else hears
    /// nothing.
    async fn after_the_end(&self, ctx: &Ctx) -> Outcome<Failure> {
        if ctx.req.private || !self.candidates(ctx).await?.is_empty() {
            return Ok(Failure::Silent);
        }
        let last = self
            .inner
            .store
            .latest_game_of(ctx.platform(), &ctx.req.chat.id, &ctx.actor().id)
            .await?;
        Ok(match last {
            Some(row) if row.status.is_over() && self.now() - row.updated_at <= ENDED_RECENTLY => {
                Msg::new("error-game-over").arg("id", row.id).into()
            }
            _ => Failure::Silent,
        })
    }

    /// Why the move `text` is not legal in `game`, in the actor's language:
    /// the plain refusal, then the reason the engine finds (read from the
    /// mover's own information: see [`Game::why_illegal`]) and the legal
    /// moves of the piece named, in the actor's notation.
    async fn illegal_move(&self, ctx: &Ctx, game: &Game, text: &str) -> Msg {
        let plain = Msg::new("error-move-illegal").arg("move", text.to_owned());
        let Some(refusal) = game.why_illegal(text) else {
            return plain;
        };
        let lang = ctx.lang;
        let piece = refusal
            .piece
            .as_ref()
            .map(|(name, _)| {
                let key: String = name
                    .chars()
                    .map(|c| if c.is_ascii_alphabetic() { c } else { '-' })
                    .collect();
                self.text(
                    lang,
                    &Msg::new("piece-name")
                        .arg("name", name.clone())
                        .arg("key", key),
                )
            })
            .unwrap_or_default();
        let legal = if refusal.legal.is_empty() {
            None
        } else {
            let notation = self
                .notation_of(ctx.platform(), &ctx.actor().id, lang)
                .await;
            let moves: Vec<String> = refusal
                .legal
                .iter()
                .map(|san| san_in(notation, game, san))
                .collect();
            Some(
                self.text(
                    lang,
                    &Msg::new("refusal-legal-moves")
                        .arg("piece", piece.clone())
                        .arg("count", moves.len() as i64)
                        .arg("moves", moves.join(", ")),
                ),
            )
        };
        let reason = refusal_key(refusal.why).map(|key| {
            self.text(
                lang,
                &Msg::new(key)
                    .arg("piece", piece)
                    .arg("square", refusal.square.clone().unwrap_or_default()),
            )
        });
        match (reason, legal) {
            (None, None) => plain,
            (None, Some(legal)) => Msg::new("error-move-illegal-listed")
                .arg("move", text.to_owned())
                .arg("legal", legal),
            (Some(reason), None) => Msg::new("error-move-illegal-because")
                .arg("move", text.to_owned())
                .arg("reason", reason),
            (Some(reason), Some(legal)) => Msg::new("error-move-illegal-because-listed")
                .arg("move", text.to_owned())
                .arg("reason", reason)
                .arg("legal", legal),
        }
    }

    /// Why the jump `text` was refused, in the actor's language.
    fn jump_error(&self, ctx: &Ctx, error: &JumpError, text: &str) -> Msg {
        let reason = match error {
            JumpError::MoveAfterJumpPending => return Msg::new("error-jump-alone-then-move"),
            JumpError::NoCharges => Msg::new("jump-no-charges"),
            JumpError::TooFarBack { max } => {
                Msg::new("jump-too-far-back").arg("max", i64::from(*max))
            }
            JumpError::NotThatManyMoves { made } => {
                Msg::new("jump-not-that-many-moves").arg("made", *made as i64)
            }
            JumpError::NotYourPiece => Msg::new("jump-not-your-piece"),
            JumpError::KingCannotTravel => Msg::new("jump-king-cannot-travel"),
            JumpError::WrongPiece => Msg::new("jump-wrong-piece"),
            JumpError::OwnPieceThere => Msg::new("jump-own-piece-there"),
            JumpError::KingThere => Msg::new("jump-king-there"),
            JumpError::SameSquare => Msg::new("jump-same-square"),
            JumpError::GivesCheck => Msg::new("jump-gives-check"),
            JumpError::PawnOnEdgeRank => Msg::new("jump-pawn-on-edge-rank"),
            JumpError::NoMoveAfter => Msg::new("jump-no-move-after"),
            JumpError::Unparseable => Msg::new("jump-unreadable"),
            JumpError::NotTimeTravel | JumpError::GameOver => Msg::new("jump-other"),
        };
        let jump: String = text.split_whitespace().next().unwrap_or(text).to_owned();
        Msg::new("error-jump")
            .arg("jump", jump)
            .arg("reason", self.text(ctx.lang, &reason))
    }

    /// The game a move without an id goes to: the caller's only game here,
    /// else the only one where it is their turn.
    async fn game_for_move(&self, ctx: &Ctx, text: &str, plain: bool) -> Outcome<GameRow> {
        let mut candidates = self.candidates(ctx).await?;
        if candidates.len() > 1 {
            let my_turn: Vec<GameRow> = candidates
                .iter()
                .filter(|row| {
                    let seat = row.seat_of(&ctx.actor().id);
                    self.replay(row)
                        .is_ok_and(|game| Some(game.controller(game.seat_to_move())) == seat)
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
        let mut game = match self.replay(row) {
            Ok(game) => game,
            Err(e) => {
                // A game that cannot be rebuilt cannot be judged: stop its
                // clock rather than retry it for ever.
                row.deadline = None;
                self.save(row).await?;
                return Err(e);
            }
        };
        let lang: Lang = self.chat_lang(&row.platform, &row.chat_id).await;
        self.apply(row, &mut game, Change::Flag, lang).await
    }
}

/// The text of a refusal's reason (`None`: the plain refusal alone).
fn refusal_key(why: Why) -> Option<&'static str> {
    Some(match why {
        Why::NoPiece => "refusal-no-piece",
        Why::NoPieceOn => "refusal-no-piece-on",
        Why::NoneReaches => "refusal-none-reaches",
        Why::OwnPieceThere => "refusal-own-piece-there",
        Why::Promotion => "refusal-promotion",
        Why::Blocked => "refusal-blocked",
        Why::Citadel => "refusal-citadel",
        Why::Pinned => "refusal-pinned",
        Why::IntoCheck => "refusal-into-check",
        Why::InCheck => "refusal-in-check",
        Why::CastleNotInGame => "refusal-castle-not-in-game",
        Why::CastleNoRight => "refusal-castle-no-right",
        Why::CastleBlocked => "refusal-castle-blocked",
        Why::CastleInCheck => "refusal-castle-in-check",
        Why::CastleThroughCheck => "refusal-castle-through-check",
        Why::NotInHand => "refusal-not-in-hand",
        Why::NoDrops => "refusal-no-drops",
        Why::MustCapture => "refusal-must-capture",
        Why::Palace => "refusal-palace",
        Why::GivesCheck => "refusal-gives-check",
        Why::Facing => "refusal-facing",
        Why::DropMate => "refusal-drop-mate",
        Why::NeedsScreen => "refusal-needs-screen",
        Why::Other => return None,
    })
}

/// Why the move `text` was refused (`kriegspiel`: read from the player's
/// own pieces).
fn move_error(error: MoveError, text: &str, kriegspiel: bool) -> Msg {
    match error {
        MoveError::Unparseable => Msg::new("error-move-unparseable").arg("move", text.to_owned()),
        MoveError::Illegal => {
            let key = if kriegspiel {
                "error-kriegspiel-no-such-move"
            } else {
                "error-move-illegal"
            };
            Msg::new(key).arg("move", text.to_owned())
        }
        MoveError::Ambiguous(candidates) => Msg::new("error-move-ambiguous")
            .arg("move", text.to_owned())
            .arg("candidates", candidates.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pass_words_are_read_in_either_language_and_case() {
        for text in ["pass", "Pass", "пас", "ПРОПУСК"] {
            assert!(is_pass_word(text), "{text}");
        }
        assert!(!is_pass_word("passed"));
    }

    #[test]
    fn chatter_is_not_a_move() {
        for text in [
            "e4", "Nf3", "exd5", "O-O", "0-0-0", "e8=Q+", "N@f3", "Кf3", "e2e4",
        ] {
            assert!(looks_like_move(text), "{text}");
        }
        for text in ["hello", "gg", "good game!", "lol", "what?", "https://x.y/1"] {
            assert!(!looks_like_move(text), "{text}");
            assert!(!is_move_shaped(text), "{text}");
        }
        // Typos and moves cut short are answered, words are not.
        for text in ["e9", "Nz3", "Kf", "Кf", "Nd"] {
            assert!(is_move_shaped(text), "{text}");
        }
        for text in ["No", "ok", "Hi", "Bad", "K", "kf"] {
            assert!(!is_move_shaped(text), "{text}");
        }
    }
}
