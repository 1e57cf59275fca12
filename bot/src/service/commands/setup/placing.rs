//! Public setups (Frolov chess, Maharajah): after `/accept` the players place
//! their pieces in the game's chat, one at a time, in turn, white first, in
//! view of everyone. Each placement is announced, and the board shown once
//! a round (after black's placement) or on request; a player
//! whose time for a placement runs out has the rest of their pieces placed at
//! random on their turns. When every piece stands, play begins.
//!
//! A seat's `ready` means here that its player places no more by hand: all
//! their pieces stand, or their time ran out.

use super::{piece_letters, setup_decor, setup_error};
use crate::api::Delivery;
use crate::clock::format_remaining;
use crate::i18n::Lang;
use crate::service::kernel::setup::{placements, SetupCommand};
use crate::service::kernel::{Ctx, Failure, Msg, Outcome, Service};
use crate::store::GameRow;
use crate::time::Millis;
use kodex_engine::setup::{setup_view, turn_to_place, Placement};
use kodex_engine::{Audience, Side, Variant};

/// How long a player of a game with a running clock has for one placement
/// (by correspondence: the time per move; see
/// [`crate::clock::TimeControl::phase_time`]).
const LIVE_PLACEMENT_TIME: Millis = 60_000;

/// The last piece placed, as `Ke1`.
fn last_placed(variant: &Variant, placement: &Placement) -> String {
    placement
        .pieces(variant)
        .last()
        .map(|(square, letter)| format!("{letter}{square}"))
        .unwrap_or_default()
}

impl Service {
    /// Starts a public setup: the chat gets the empty board and who places first.
    pub(crate) async fn begin_public_setup(
        &self,
        mut row: GameRow,
        variant: &Variant,
        lang: Lang,
    ) -> Outcome {
        let now = self.now();
        row.deadline = row
            .time_control
            .phase_time(LIVE_PLACEMENT_TIME)
            .map(|t| now.saturating_add(t));
        self.save(&mut row).await?;
        tracing::info!(game = %row.id, "public setup started");
        let lines = vec![self.text(
            lang,
            &Msg::new("setup-public-started")
                .arg("id", row.id.clone())
                .arg("variant", variant.name(lang.code()).to_owned())
                .arg("white", row.player_name(0).to_owned())
                .arg("black", row.player_name(1).to_owned())
                .arg("clock", self.clock_phrase(lang, row.time_control)),
        )];
        Ok(vec![
            self.public_setup_board(&row, variant, lang, lines, true)
                .await,
        ])
    }

    /// Setup input from a player of a public setup (the caller holds the lock).
    pub(crate) async fn public_setup_input(
        &self,
        ctx: &Ctx,
        row: &mut GameRow,
        variant: &Variant,
        command: SetupCommand<'_>,
    ) -> Outcome {
        let side = row
            .side_of(&ctx.actor().id)
            .ok_or_else(|| Msg::new("error-not-your-game").arg("id", row.id.clone()))?;
        if command == SetupCommand::Board {
            let lang = self.game_chat_lang(ctx, row).await;
            return Ok(vec![
                self.public_setup_board(row, variant, lang, Vec::new(), true)
                    .await,
            ]);
        }
        let [white, black] = placements(variant, row);
        let Some(turn) = turn_to_place(variant, [&white, &black]) else {
            return Err(Msg::new("error-setup-over")
                .arg("id", row.id.clone())
                .into());
        };
        if turn != side {
            return Err(Msg::new("error-setup-not-your-turn")
                .arg("id", row.id.clone())
                .arg("player", row.player_name(turn.index()).to_owned())
                .into());
        }
        let (mut own, other) = if side == Side::WHITE {
            (white, black)
        } else {
            (black, white)
        };
        let placed = match command {
            SetupCommand::Place(text) => own.place_in_turn(variant, turn, text, &other),
            SetupCommand::Random => {
                own.place_random_in_turn(variant, turn, &other, fastrand::u64(..))
            }
            _ => Err(kodex_engine::setup::SetupError::OneAtATime),
        };
        if let Err(error) = placed {
            return Err(setup_error(ctx.lang, variant, &error).into());
        }
        let chat_lang = self.chat_lang(&row.platform, &row.chat_id).await;
        let key = if command == SetupCommand::Random {
            "setup-public-placed-random"
        } else {
            "setup-public-placed"
        };
        let note = Msg::new(key)
            .arg("id", row.id.clone())
            .arg("player", row.player_name(side.index()).to_owned())
            .arg("placement", last_placed(variant, &own));
        self.store_placement(row, variant, side, &own);
        self.after_placement(row, variant, chat_lang, vec![note])
            .await
    }

    /// The time for a placement ran out (the caller holds the lock): the
    /// player to place has the rest of their pieces placed at random.
    pub(crate) async fn public_setup_timeout(
        &self,
        row: &mut GameRow,
        variant: &Variant,
    ) -> Outcome {
        let chat_lang = self.chat_lang(&row.platform, &row.chat_id).await;
        let [white, black] = placements(variant, row);
        let mut notes = Vec::new();
        if let Some(turn) = turn_to_place(variant, [&white, &black]) {
            if let Some(seat) = row.seats.iter_mut().find(|s| s.side == turn) {
                seat.ready = true;
                notes.push(
                    Msg::new("setup-public-timeout")
                        .arg("id", row.id.clone())
                        .arg("player", seat.user_name.clone()),
                );
            }
        }
        tracing::info!(game = %row.id, "placement time ran out");
        self.after_placement(row, variant, chat_lang, notes).await
    }

    /// Stores `placement` as side `side`'s; a side with nothing left to
    /// place is done.
    fn store_placement(
        &self,
        row: &mut GameRow,
        variant: &Variant,
        side: Side,
        placement: &Placement,
    ) {
        let done = placement.still_to_place(variant, side).is_empty();
        if let Some(seat) = row.seats.iter_mut().find(|s| s.side == side) {
            seat.setup = (!placement.is_empty()).then(|| placement.to_text(variant));
            seat.ready |= done;
        }
    }

    /// After a placement: the turns of players who place no more by hand are
    /// placed at random; then play begins when every piece stands, or the
    /// next player's time starts and the chat sees the board.
    async fn after_placement(
        &self,
        row: &mut GameRow,
        variant: &Variant,
        lang: Lang,
        mut notes: Vec<Msg>,
    ) -> Outcome {
        loop {
            let [white, black] = placements(variant, row);
            let Some(turn) = turn_to_place(variant, [&white, &black]) else {
                for seat in &mut row.seats {
                    seat.ready = true;
                }
                notes.push(Msg::new("setup-public-done").arg("id", row.id.clone()));
                return self.start_play(row, variant, lang, notes).await;
            };
            let by_hand = row
                .seats
                .iter()
                .any(|seat| seat.side == turn && !seat.ready);
            if by_hand {
                break;
            }
            let (mut own, other) = if turn == Side::WHITE {
                (white, black)
            } else {
                (black, white)
            };
            if let Err(e) = own.place_random_in_turn(variant, turn, &other, fastrand::u64(..)) {
                tracing::error!(game = %row.id, error = %e, "no random placement");
                return Err(Failure::User(Msg::new("error-internal")));
            }
            notes.push(
                Msg::new("setup-public-placed-random")
                    .arg("id", row.id.clone())
                    .arg("player", row.player_name(turn.index()).to_owned())
                    .arg("placement", last_placed(variant, &own)),
            );
            self.store_placement(row, variant, turn, &own);
        }
        let now = self.now();
        row.deadline = row
            .time_control
            .phase_time(LIVE_PLACEMENT_TIME)
            .map(|t| now.saturating_add(t));
        self.save(row).await?;
        let notes = notes.iter().map(|note| self.text(lang, note)).collect();
        // One board a round: none between white's placement and black's
        // (the text says what was placed; `board` shows it any time).
        let [white, black] = placements(variant, row);
        let next = turn_to_place(variant, [&white, &black]);
        let mid_round =
            next == Some(Side::BLACK) && white.pieces(variant).len() > black.pieces(variant).len();
        Ok(vec![
            self.public_setup_board(row, variant, lang, notes, !mid_round)
                .await,
        ])
    }

    /// The board of a public setup for the chat: `lines`, who places next and
    /// what, the time for it, and (when `drawn`) every piece placed so far.
    async fn public_setup_board(
        &self,
        row: &GameRow,
        variant: &Variant,
        lang: Lang,
        mut lines: Vec<String>,
        drawn: bool,
    ) -> Delivery {
        let [white, black] = placements(variant, row);
        let placer = turn_to_place(variant, [&white, &black]);
        if let Some(turn) = placer {
            let own = if turn == Side::WHITE { &white } else { &black };
            let def = variant.definition();
            let left: String = own
                .still_to_place(variant, turn)
                .into_iter()
                .map(|ty| def.pieces[ty].letter.to_ascii_uppercase())
                .collect();
            lines.push(
                self.text(
                    lang,
                    &Msg::new("setup-public-turn")
                        .arg("id", row.id.clone())
                        .arg("player", row.player_name(turn.index()).to_owned())
                        .arg("color", self.color_name(lang, turn))
                        .arg("pieces", piece_letters(lang, variant, &left)),
                ),
            );
            if let Some(deadline) = row.deadline {
                lines.push(
                    self.text(
                        lang,
                        &Msg::new("setup-public-deadline")
                            .arg("left", format_remaining(deadline - self.now())),
                    ),
                );
            }
        }
        let mut delivery = self.setup_note(lang, row, lines);
        // The player who places next is asked to act.
        delivery.notify = crate::service::present::to_notify(row, placer.map(|turn| turn.index()));
        if !drawn {
            return delivery;
        }
        let view = setup_view(variant, [&white, &black], Audience::Public);
        let decor = setup_decor(row, Side::WHITE, None);
        let placed = white.pieces(variant).len() + black.pieces(variant).len();
        let file_name = format!("{}-setup-{placed}.png", row.id);
        self.attach_board(&mut delivery, view, decor, file_name)
            .await;
        delivery
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_placement_has_a_minute_live_and_the_move_time_by_correspondence() {
        let time = |code: &str| {
            crate::clock::TimeControl::parse(code)
                .expect(code)
                .phase_time(LIVE_PLACEMENT_TIME)
        };
        assert_eq!(time("3+2"), Some(60_000));
        assert_eq!(time("2d"), Some(2 * 86_400_000));
        assert_eq!(time("-"), None);
    }
}
