//! The one way a running game changes. Every request that changes a started
//! game — a typed move, a button, a flag fall, and later the computer and
//! passes — first validates what it wants into a [`Change`], then hands it to
//! [`Service::apply`], which runs the clock, settles offers, decides the
//! result, saves under the version check and announces to every audience.
//! So a rule about clocks or offers lives in one place, not in each command.

use super::clocks::{plan_reminder, record_move_time};
use super::msg::{Msg, Outcome};
use super::offers::{has_team_offers, lapse_on_move};
use super::service::Service;
use crate::clock::TimeControl;
use crate::i18n::Lang;
use crate::store::{DrawOffer, EndReason, Entry, GameResult, GameRow, Status};
use kodex_engine::{Game, Move};

/// What just happened to a game.
#[derive(Clone, Debug)]
pub(crate) enum Event {
    /// The challenge was accepted.
    Started,
    /// A move was played (what each audience learns of it comes from the
    /// engine's announcements), and the passes of the seats left without
    /// another move after it, if any.
    Moved { passes: Option<AutoPasses> },
    /// Kriegspiel: the side to move tried an impossible move, typed as
    /// `text`; only its author hears which.
    Impossible { text: String },
    /// Time travel: a jump (as people write it), and the move after it
    /// when `moved`.
    Travelled { jump: String, moved: bool },
    /// Moves were taken back.
    TakenBack,
    /// Seats `a` and `b` (turn order) exchanged their prisoners (Enochian chess).
    Exchanged { a: usize, b: usize },
    /// Seat `seat` (turn order) retired from the game (Enochian chess).
    Retired { seat: usize },
    /// The passes of seats found waiting with nothing but the pass after a
    /// restart (a game stored before passes were played at once).
    Passed { passes: AutoPasses },
    /// The game ended (the row holds result and reason).
    Ended,
}

/// The passes the service played for the seats whose only move was the
/// pass, right after a move (see `Service::auto_passes`).
#[derive(Clone)]
pub(crate) struct AutoPasses {
    /// The game as the move left it, before the passes: what was told of the move.
    pub before: Box<Game>,
    /// Each passing seat, and whether its king was mated (else it had no move).
    pub seats: Vec<(usize, bool)>,
}

impl std::fmt::Debug for AutoPasses {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AutoPasses")
            .field("seats", &self.seats)
            .finish_non_exhaustive()
    }
}

/// A validated change to a running game.
#[derive(Clone, Debug)]
pub(crate) enum Change {
    /// A legal move of the side to move, from the engine.
    Move(Move),
    /// Kriegspiel: the side to move tried `uci` (typed as `text`), which
    /// the real position forbids. The turn stays and its clock keeps running.
    Impossible { uci: String, text: String },
    /// The side to move ran out of time.
    Flag,
    /// The player of seat `seat` resigned: their team loses.
    Resign { seat: usize },
    /// Every player agreed to a draw.
    DrawAgreed,
    /// Seats `a` and `b` (turn order) exchange their prisoners (Enochian
    /// chess), already found possible; the turn does not pass.
    Exchange { a: usize, b: usize },
    /// Seat `seat` (turn order) retires from the game (Enochian chess),
    /// already found possible: its partner moves its army; the turn does
    /// not pass.
    Retire { seat: usize },
    /// The seats on turn whose only move is the pass pass now (a game of
    /// four stored before passes were played at once, found after a
    /// restart); nothing changes when the seat on turn has a move.
    Passes,
    /// Turns taken back with the opponent's consent (in time travel a jump
    /// and its move are one turn, a pending jump a turn begun).
    TakeBack { turns: usize },
    /// Time travel: the engine already played a turn of seat `seat` — a
    /// jump (`jump`, as people write it) and, when `moved`, the move after
    /// it; `record` is what the stored move list gains. A jump alone keeps
    /// the turn (and the clock running) until its move follows.
    Turn {
        seat: usize,
        record: Vec<String>,
        jump: Option<String>,
        moved: bool,
    },
}

impl Service {
    /// Applies `change` to the game in `row` (its lock held, freshly read,
    /// status active) whose position is `game`: clocks, offers, the result,
    /// the save and the announcements in `lang` for the chat.
    pub(crate) async fn apply(
        &self,
        row: &mut GameRow,
        game: &mut Game,
        change: Change,
        lang: Lang,
    ) -> Outcome {
        debug_assert_eq!(row.status, Status::Active);
        let now = self.now();
        let clock = row.time_control;
        // Bughouse: the piece a move captured, for the partner's reserve.
        let mut gift = None;
        let event = match change {
            Change::Move(mv) => {
                let seat = game.seat_to_move();
                let played = game.play(mv);
                row.moves.push(Entry::Move(&played.uci));
                self.turn_done(row, game, seat, clock, now);
                if row.linked_id.is_some() {
                    record_move_time(row, seat, now);
                    gift = game.captured_for_partner();
                }
                Event::Moved { passes: None }
            }
            Change::Turn {
                seat,
                record: entries,
                jump,
                moved,
            } => {
                for entry in &entries {
                    row.moves.push(Entry::Move(entry));
                }
                if moved {
                    self.turn_done(row, game, seat, clock, now);
                }
                match jump {
                    Some(jump) => Event::Travelled { jump, moved },
                    None => Event::Moved { passes: None },
                }
            }
            Change::Impossible { uci, text } => {
                game.record_impossible(&uci);
                row.moves.push(Entry::Impossible(&uci));
                Event::Impossible { text }
            }
            Change::Flag => {
                let seat = game.seat_to_move();
                let opponent = game.side_to_move().opponent();
                row.set_remaining(seat, Some(0));
                // In bughouse any side may still mate with pieces to come.
                if game.has_mating_material(opponent) || row.linked_id.is_some() {
                    let result = row.loss_of_seat(seat);
                    finish(row, result, EndReason::Timeout);
                } else {
                    finish(row, GameResult::Draw, EndReason::TimeoutDraw);
                }
                tracing::info!(game = %row.id, "flag fell");
                Event::Ended
            }
            Change::Resign { seat } => {
                let result = row.loss_of_seat(seat);
                finish(row, result, EndReason::Resign);
                Event::Ended
            }
            Change::DrawAgreed => {
                finish(row, GameResult::Draw, EndReason::Agreement);
                Event::Ended
            }
            Change::Exchange { a, b } => {
                game.exchange(a, b)
                    .map_err(|_| Msg::new("error-internal"))?;
                row.moves.push(Entry::Exchange(a.min(b), a.max(b)));
                row.exchange_offer = None;
                if let Some(outcome) = game.outcome() {
                    finish(row, result_of(&outcome), EndReason::Rules(outcome.reason));
                }
                Event::Exchanged { a, b }
            }
            Change::Retire { seat } => {
                game.retire(seat).map_err(|_| Msg::new("error-internal"))?;
                row.moves.push(Entry::Retire(seat));
                // Who is asked to agree changes: a standing draw offer lapses.
                row.draw_offer = None;
                if let Some(outcome) = game.outcome() {
                    finish(row, result_of(&outcome), EndReason::Rules(outcome.reason));
                }
                Event::Retired { seat }
            }
            Change::Passes => match self.auto_passes(row, game, clock, now) {
                Some(passes) => Event::Passed { passes },
                None => return Ok(Vec::new()),
            },
            Change::TakeBack { turns } => {
                let mut kept = row.moves.len();
                for _ in 0..turns {
                    kept = kept.saturating_sub(game.undo_turn());
                }
                row.moves.truncate(kept);
                row.takeback_offer = None;
                row.draw_offer = None;
                row.exchange_offer = None;
                if clock != TimeControl::Unlimited {
                    self.start_turn(row, game, now);
                }
                Event::TakenBack
            }
        };
        // The seats left with nothing but the pass pass at once, in the same save.
        let event = match event {
            Event::Moved { .. } if row.linked_id.is_none() => Event::Moved {
                passes: self.auto_passes(row, game, clock, now),
            },
            other => other,
        };
        self.save(row).await?;
        tracing::debug!(game = %row.id, ply = game.ply(), "game changed");
        if row.linked_id.is_some() {
            return self.after_board_change(row, game, gift, event, lang).await;
        }
        Ok(self.announce(row, game, event, lang).await)
    }

    /// Seat `seat` has made its move in `game`: its clock stops (with its
    /// increment) and the next seat's starts, offers settle, and the game
    /// ends if the engine says so.
    fn turn_done(
        &self,
        row: &mut GameRow,
        game: &Game,
        seat: usize,
        clock: TimeControl,
        now: crate::time::Millis,
    ) {
        if clock != TimeControl::Unlimited {
            let clock = if row.no_increment.contains(seat) {
                clock.without_increment()
            } else {
                clock
            };
            let elapsed = now - row.turn_started_at.unwrap_or(now);
            let left = clock
                .after_move(row.remaining(seat).unwrap_or(0), elapsed)
                .unwrap_or_default();
            row.set_remaining(seat, Some(left));
            self.start_turn(row, game, now);
        }
        // Playing on declines an offer made to the mover; a takeback request lapses.
        // (A bughouse offer stands until declined: see `bughouse::pair_draw`.)
        if has_team_offers(row) {
            lapse_on_move(row, game, seat);
        } else if row.draw_offer.is_some_and(|offer| match offer {
            DrawOffer::Seat(offerer) => row.team_of_seat(offerer) != row.team_of_seat(seat),
            _ => false,
        }) {
            row.draw_offer = None;
        }
        row.takeback_offer = None;
        if let Some(outcome) = game.outcome() {
            finish(row, result_of(&outcome), EndReason::Rules(outcome.reason));
        }
    }

    /// Plays the pass for each seat in turn whose only legal move it is (a
    /// mated or stalemated player of a game of four), right after a move:
    /// recorded like any move, so a restart replays it; the passing seat's
    /// clock is not charged, the next seat's starts. `None` when no seat passed.
    fn auto_passes(
        &self,
        row: &mut GameRow,
        game: &mut Game,
        clock: TimeControl,
        now: crate::time::Millis,
    ) -> Option<AutoPasses> {
        let mut passes: Option<AutoPasses> = None;
        // Every seat passing in turn repeats the position: the rules end
        // such a game; the bound only keeps a loop finite.
        for _ in 0..row.seats.len().max(2) * 4 {
            if row.status != Status::Active {
                break;
            }
            let Some(pass) = game.forced_pass() else {
                break;
            };
            let seat = game.seat_to_move();
            let mated = game.forced_turn() == Some(kodex_engine::ForcedTurn::Mated);
            passes
                .get_or_insert_with(|| AutoPasses {
                    before: Box::new(game.clone()),
                    seats: Vec::new(),
                })
                .seats
                .push((seat, mated));
            let played = game.play(pass);
            row.moves.push(Entry::Move(&played.uci));
            if clock != TimeControl::Unlimited {
                self.start_turn(row, game, now);
            }
            if let Some(outcome) = game.outcome() {
                finish(row, result_of(&outcome), EndReason::Rules(outcome.reason));
            }
        }
        passes
    }

    /// Starts the clock of the seat to move at `now`.
    fn start_turn(&self, row: &mut GameRow, game: &Game, now: crate::time::Millis) {
        let next = game.seat_to_move();
        row.turn_started_at = Some(now);
        row.deadline = Some(now.saturating_add(row.remaining(next).unwrap_or(0)));
        plan_reminder(row, next, now);
    }
}

/// The result the engine's `outcome` means. The one place the service reads
/// an engine outcome: it names the winning team.
pub(crate) fn result_of(outcome: &kodex_engine::Outcome) -> GameResult {
    match outcome.winner() {
        Some(team) => GameResult::Win { team },
        None => GameResult::Draw,
    }
}

/// Ends the game in `row` with `result`.
pub(crate) fn finish(row: &mut GameRow, result: GameResult, reason: EndReason) {
    row.status = Status::Finished;
    row.result = Some(result);
    row.reason = Some(reason);
    row.deadline = None;
    row.draw_offer = None;
    row.takeback_offer = None;
    row.exchange_offer = None;
}
