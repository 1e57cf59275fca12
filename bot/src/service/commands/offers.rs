//! Resigning, draw offers, takebacks and aborting. Offers cannot be
//! withdrawn (seed 004); the opponent accepts or declines, or lets a draw
//! offer lapse by moving.

use crate::api::{Button, ButtonAction, Delivery, Target, UserRef};
use crate::i18n::Lang;
use crate::service::kernel::apply::Change;
use crate::service::kernel::offers::{
    asked, has_team_offers, is_asked, offer, side_code, store, Offer,
};
use crate::service::kernel::players::is_computer;
use crate::service::kernel::{Ctx, Msg, Outcome, Service};
use crate::service::present::{chat_of, opponents_to_notify, to_notify};
use crate::store::{DrawOffer, EndReason, GameResult, GameRow, SeatSet, Status};

/// Whether the player of seat `seat` moved since ply `asked` (or the game
/// was taken back past it): their resignation question no longer stands.
/// The opponent's replies leave it standing.
fn moved_since(position: &kodex_engine::Game, seat: usize, asked: u32) -> bool {
    let Ok(asked) = usize::try_from(asked) else {
        return true;
    };
    if position.ply() < asked {
        return true;
    }
    let mut back = position.clone();
    while back.ply() > asked {
        if !back.undo() {
            return true;
        }
        // `back` is now the position the move of that ply was made in.
        if back.controller(back.seat_to_move()) == seat {
            return true;
        }
    }
    false
}

impl Service {
    /// `/resign [id]`: asks first. The answer, only for the caller, names the
    /// game and carries a "Resign" button (`rsg:<id>`, which resigns) and a
    /// "Play on" one, so a stray command never ends a game.
    pub(crate) async fn ask_resign(&self, ctx: &Ctx, game: Option<String>) -> Outcome {
        let (_lock, row, side) = self.my_game(ctx, game).await?;
        let ply = u32::try_from(self.replay(&row)?.ply()).ok();
        let text = self.text(
            ctx.lang,
            &Msg::new("resign-confirm")
                .arg("id", row.id.clone())
                .arg("opponent", row.opponent_names(side)),
        );
        Ok(vec![Delivery {
            notify: Vec::new(),
            target: Target::Ephemeral(ctx.actor().clone()),
            text,
            image: None,
            buttons: vec![
                // The side is in the data: pressed by anyone else (in a
                // group where the question fell back to), it resigns nothing.
                Button::new(
                    self.text(ctx.lang, &Msg::new("button-resign")),
                    &ButtonAction::Resign {
                        game: row.id.clone(),
                        side: side_code(side).to_owned(),
                        ply,
                    },
                ),
                Button::new(
                    self.text(ctx.lang, &Msg::new("button-play-on")),
                    &ButtonAction::KeepPlaying {
                        game: row.id.clone(),
                    },
                ),
            ],
            game: Some(self.game_ref(ctx.lang, &row, false)),
        }])
    }

    /// The "Play on" answer to a resign question: nothing changes, and the
    /// question is settled (its buttons go).
    pub(crate) async fn keep_playing(&self, ctx: &Ctx, game: Option<String>) -> Outcome {
        let (_lock, row, _side) = self.my_game(ctx, game).await?;
        let text = self.text(ctx.lang, &Msg::new("resign-kept").arg("id", row.id.clone()));
        let mut answer = self.note(ctx, text);
        let mut game = self.game_ref(ctx.lang, &row, false);
        game.settles = true;
        answer.game = Some(game);
        Ok(vec![answer])
    }

    /// Resigns at once: the confirmation button ([`ButtonAction::Resign`]),
    /// pressed by the player of side `wanted`, while the game is still at
    /// the ply the question was asked at (`None`: a button from before
    /// questions carried it).
    pub(crate) async fn resign(
        &self,
        ctx: &Ctx,
        game: &str,
        wanted: &str,
        asked_at: Option<u32>,
    ) -> Outcome {
        let (_lock, mut row, side) = self.my_game(ctx, Some(game.to_owned())).await?;
        let lang = self.game_chat_lang(ctx, &row).await;
        if wanted != side_code(side) {
            return Err(Msg::new("error-not-your-button").into());
        }
        let mut position = self.replay(&row)?;
        if asked_at.is_some_and(|ply| moved_since(&position, side, ply)) {
            return Err(Msg::new("error-resign-question-lapsed")
                .arg("id", row.id)
                .into());
        }
        self.apply(&mut row, &mut position, Change::Resign { seat: side }, lang)
            .await
    }

    /// `/draw [id]`: offers a draw, or accepts the opponent's offer.
    pub(crate) async fn draw(&self, ctx: &Ctx, game: Option<String>) -> Outcome {
        let (_lock, mut row, side) = self.my_game(ctx, game).await?;
        let lang = self.game_chat_lang(ctx, &row).await;
        if row.linked_id.is_some() {
            return self.pair_draw(row, side, lang).await;
        }
        if has_team_offers(&row) {
            return self.team_draw(row, side, lang).await;
        }
        let other_team = |offerer: usize| row.team_of_seat(offerer) != row.team_of_seat(side);
        match row.draw_offer.and_then(DrawOffer::offerer) {
            Some(offerer) if other_team(offerer) => {
                let mut position = self.replay(&row)?;
                self.apply(&mut row, &mut position, Change::DrawAgreed, lang)
                    .await
            }
            Some(_) => Err(Msg::new("error-draw-already-offered").into()),
            None => {
                row.draw_offer = Some(DrawOffer::Seat(side));
                self.save(&mut row).await?;
                // The computer answers by itself: nobody is asked to type
                // or press anything.
                let to_computer = row
                    .seats
                    .iter()
                    .filter(|seat| row.team_of_seat(seat.seat) != row.team_of_seat(side))
                    .all(|seat| is_computer(&seat.user_id));
                let key = if to_computer {
                    "draw-offered-computer"
                } else {
                    "draw-offered"
                };
                let text = self.text(
                    lang,
                    &Msg::new(key)
                        .arg("id", row.id.clone())
                        .arg("player", row.player_name(side).to_owned())
                        .arg("opponent", row.opponent_names(side)),
                );
                let asked = opponents_to_notify(&row, side);
                let mut offer = self.offer_delivery(lang, &row, text, DRAW_BUTTONS, asked);
                if to_computer {
                    offer.buttons.clear();
                }
                Ok(vec![offer])
            }
        }
    }

    /// `/nodraw [id]`: declines the opponent's draw offer.
    pub(crate) async fn decline_draw(&self, ctx: &Ctx, game: Option<String>) -> Outcome {
        let (_lock, mut row, side) = self.my_game(ctx, game).await?;
        let lang = self.game_chat_lang(ctx, &row).await;
        if row.linked_id.is_some() {
            return self.pair_decline_draw(row, side, lang).await;
        }
        if has_team_offers(&row) {
            return self.team_decline_draw(row, side, lang).await;
        }
        match row.draw_offer.and_then(DrawOffer::offerer) {
            Some(offerer) if offerer != side => {
                row.draw_offer = None;
                self.save(&mut row).await?;
                Ok(vec![self.chat_note(
                    lang,
                    &row,
                    Msg::new("draw-declined").arg("player", row.player_name(side).to_owned()),
                )])
            }
            Some(_) => Err(Msg::new("error-offer-not-withdrawable").into()),
            None => Err(Msg::new("error-no-draw-offer").into()),
        }
    }

    /// `/takeback [id]`: asks to take back one's last move, or approves the
    /// opponent's request. Not in hidden-information games.
    pub(crate) async fn takeback(&self, ctx: &Ctx, game: Option<String>) -> Outcome {
        let (_lock, mut row, side) = self.my_game(ctx, game).await?;
        let lang = self.game_chat_lang(ctx, &row).await;
        let mut position = self.replay(&row)?;
        if position.variant().hidden_information() {
            return Err(Msg::new("error-takeback-hidden").into());
        }
        if row.linked_id.is_some() {
            // A move on one board has fed the other; it cannot be unmade alone.
            return Err(Msg::new("error-takeback-bughouse").into());
        }
        match row.takeback_offer {
            Some(requester) if requester != side => {
                // Back to the requester's turn: one turn if they moved
                // last, more if others have moved since. A time-travel jump
                // whose move is still to come is a turn begun.
                let seats = position.variant().players().max(1);
                let next = position.seat_to_move() + usize::from(position.pending_jump().is_some());
                let turns = (next + seats - requester - 1) % seats + 1;
                if position.turns() < turns {
                    return Err(Msg::new("error-takeback-nothing").into());
                }
                self.apply(&mut row, &mut position, Change::TakeBack { turns }, lang)
                    .await
            }
            Some(_) => Err(Msg::new("error-takeback-already").into()),
            None => {
                // A side may only ask to take back a move it has made.
                let first_own_turn = side + 1;
                if position.turns() < first_own_turn {
                    return Err(Msg::new("error-takeback-nothing").into());
                }
                row.takeback_offer = Some(side);
                self.save(&mut row).await?;
                let text = self.text(
                    lang,
                    &Msg::new("takeback-requested")
                        .arg("id", row.id.clone())
                        .arg("player", row.player_name(side).to_owned())
                        .arg("opponent", row.opponent_names(side)),
                );
                let asked = opponents_to_notify(&row, side);
                Ok(vec![self.offer_delivery(
                    lang,
                    &row,
                    text,
                    [
                        |game| ButtonAction::Takeback { game },
                        |game| ButtonAction::RefuseTakeback { game },
                    ],
                    asked,
                )])
            }
        }
    }

    /// `/notakeback [id]`: refuses the opponent's takeback request.
    pub(crate) async fn refuse_takeback(&self, ctx: &Ctx, game: Option<String>) -> Outcome {
        let (_lock, mut row, side) = self.my_game(ctx, game).await?;
        let lang = self.game_chat_lang(ctx, &row).await;
        match row.takeback_offer {
            Some(requester) if requester != side => {
                row.takeback_offer = None;
                self.save(&mut row).await?;
                Ok(vec![self.chat_note(
                    lang,
                    &row,
                    Msg::new("takeback-refused").arg("player", row.player_name(side).to_owned()),
                )])
            }
            Some(_) => Err(Msg::new("error-offer-not-withdrawable").into()),
            None => Err(Msg::new("error-no-takeback").into()),
        }
    }

    /// `/abort [id]`: ends a game without result before both sides have moved
    /// (or while it is being set up).
    pub(crate) async fn abort(&self, ctx: &Ctx, game: Option<String>) -> Outcome {
        if let Some(aborted) = self.abort_setup(ctx, game.as_deref()).await? {
            return Ok(aborted);
        }
        let (_lock, mut row, side) = self.my_game(ctx, game).await?;
        let lang = self.game_chat_lang(ctx, &row).await;
        if row.move_list().len() >= 2 {
            return Err(Msg::new("error-abort-too-late").into());
        }
        let other = match &row.linked_id {
            Some(_) => Some(self.other_board(&row).await?),
            None => None,
        };
        if other
            .as_ref()
            .is_some_and(|(other, _)| other.move_list().len() >= 2)
        {
            return Err(Msg::new("error-abort-too-late").into());
        }
        row.status = Status::Aborted;
        row.result = Some(GameResult::NoResult);
        row.reason = Some(EndReason::Aborted);
        row.deadline = None;
        row.draw_offer = None;
        row.takeback_offer = None;
        self.save(&mut row).await?;
        let mut told = vec![self.chat_note(
            lang,
            &row,
            Msg::new("game-aborted").arg("player", row.player_name(side).to_owned()),
        )];
        if other.is_some() {
            // Bughouse: both boards end, told in one message.
            let position = self.replay(&row)?;
            told.extend(
                self.after_board_change(
                    &row,
                    &position,
                    None,
                    crate::service::kernel::apply::Event::Ended,
                    lang,
                )
                .await?,
            );
        }
        Ok(told)
    }

    pub(crate) fn chat_note(&self, lang: Lang, row: &GameRow, msg: Msg) -> Delivery {
        Delivery {
            notify: Vec::new(),
            target: Target::Chat(chat_of(row)),
            text: self.text(lang, &msg.arg("id", row.id.clone())),
            image: None,
            buttons: Vec::new(),
            game: Some(self.game_ref(lang, row, false)),
        }
    }

    pub(crate) fn offer_delivery(
        &self,
        lang: Lang,
        row: &GameRow,
        text: String,
        [yes, no]: [fn(String) -> ButtonAction; 2],
        asked: Vec<UserRef>,
    ) -> Delivery {
        let (yes, no) = (yes(row.id.clone()), no(row.id.clone()));
        Delivery {
            notify: asked,
            target: Target::Chat(chat_of(row)),
            text,
            image: None,
            buttons: vec![
                Button::new(self.text(lang, &Msg::new("button-accept")), &yes),
                Button::new(self.text(lang, &Msg::new("button-decline")), &no),
            ],
            game: Some(self.game_ref(lang, row, false)),
        }
    }
}

/// The Accept and Decline buttons of a draw offer (one board or a team's).
pub(crate) const DRAW_BUTTONS: [fn(String) -> ButtonAction; 2] = [
    |game| ButtonAction::Draw { game },
    |game| ButtonAction::DeclineDraw { game },
];

/// Draw offers in team games on one board (see [`crate::service::kernel::offers`]).
impl Service {
    /// `/draw` by the player of `seat` in a team game (`row` locked):
    /// offers, or agrees to the standing offer; the game is drawn when the
    /// agreement is complete.
    pub(crate) async fn team_draw(&self, mut row: GameRow, seat: usize, lang: Lang) -> Outcome {
        let mut position = self.replay(&row)?;
        let asked_now: Vec<usize>;
        let msg = match offer(&row) {
            None => {
                let offer = Offer {
                    offerer: seat,
                    agreed: SeatSet::EMPTY,
                };
                // Those asked: a player who retired is not.
                asked_now = asked(&row, &position, offer).map(|s| s.seat).collect();
                let asked: Vec<&str> = asked(&row, &position, offer)
                    .map(|s| s.user_name.as_str())
                    .collect();
                let msg = Msg::new("draw-offered-team").arg("opponents", asked.join(" & "));
                store(&mut row, offer);
                msg
            }
            Some(standing) if is_asked(&row, &position, seat) => {
                let now = Offer {
                    agreed: standing.agreed.with(seat),
                    ..standing
                };
                let waiting: Vec<&str> = asked(&row, &position, now)
                    .map(|s| s.user_name.as_str())
                    .collect();
                if waiting.is_empty() {
                    return self
                        .apply(&mut row, &mut position, Change::DrawAgreed, lang)
                        .await;
                }
                asked_now = asked(&row, &position, now).map(|s| s.seat).collect();
                let msg = Msg::new("draw-agreed-waiting").arg("waiting", waiting.join(", "));
                store(&mut row, now);
                msg
            }
            Some(_) => return Err(Msg::new("error-draw-already-offered").into()),
        };
        self.save(&mut row).await?;
        let text = self.text(
            lang,
            &msg.arg("id", row.id.clone())
                .arg("player", row.player_name(seat).to_owned()),
        );
        let notify = to_notify(&row, asked_now);
        Ok(vec![self.offer_delivery(
            lang,
            &row,
            text,
            DRAW_BUTTONS,
            notify,
        )])
    }

    /// `/nodraw` in a team game: a player asked to answer declines the
    /// offer for everyone.
    pub(crate) async fn team_decline_draw(
        &self,
        mut row: GameRow,
        seat: usize,
        lang: Lang,
    ) -> Outcome {
        if offer(&row).is_none() {
            return Err(Msg::new("error-no-draw-offer").into());
        }
        let position = self.replay(&row)?;
        if !is_asked(&row, &position, seat) {
            return Err(Msg::new("error-offer-not-withdrawable").into());
        }
        row.draw_offer = None;
        self.save(&mut row).await?;
        Ok(vec![self.chat_note(
            lang,
            &row,
            Msg::new("draw-declined").arg("player", row.player_name(seat).to_owned()),
        )])
    }
}
