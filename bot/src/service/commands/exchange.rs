//! Prisoner exchange (Enochian chess): `/exchange` (`/обмен`) offers to
//! exchange the king one's army took for the king the other team took, or
//! accepts the standing offer; `/noexchange` declines it. Like a draw offer
//! it cannot be withdrawn; it is checked again when accepted, and settled
//! (exchanged, declined, refused as no longer possible) or lapses with a
//! takeback or the end of the game. The player who controls an army (see
//! [`kodex_engine::Game::controller`]) speaks for it.

use crate::api::ButtonAction;
use crate::service::kernel::apply::Change;
use crate::service::kernel::{Ctx, Msg, Outcome, Service};
use crate::store::GameRow;
use kodex_engine::{ExchangeError, Game, Side};

/// The seats of a game of four.
const SEATS: usize = 4;

impl Service {
    /// `/exchange [id]`: offers to exchange prisoners, or accepts the offer.
    pub(crate) async fn exchange(&self, ctx: &Ctx, game: Option<String>) -> Outcome {
        let (_lock, mut row, seat) = self.my_game(ctx, game).await?;
        let lang = self.game_chat_lang(ctx, &row).await;
        let mut position = self.replay(&row)?;
        let captor = captor_of(&row, &position, seat)?;
        match row.exchange_offer {
            Some(offerer) if offerer % 2 != captor % 2 => {
                if let Err(error) = position.may_exchange(offerer, captor) {
                    row.exchange_offer = None;
                    self.save(&mut row).await?;
                    return Err(refusal(&row, &position, error, captor).into());
                }
                let change = Change::Exchange {
                    a: offerer,
                    b: captor,
                };
                self.apply(&mut row, &mut position, change, lang).await
            }
            Some(_) => Err(Msg::new("exchange-already-offered").into()),
            None => {
                let Some(prisoner) = position.prisoner_of(captor) else {
                    // Nothing to offer: said of one's own army.
                    let error = match position.may_exchange(captor, (captor + 1) % SEATS) {
                        Err(own @ ExchangeError::OwnKingTaken(s)) if s == captor => own,
                        Err(ExchangeError::NoThrones) => ExchangeError::NoThrones,
                        Err(ExchangeError::GameOver) => ExchangeError::GameOver,
                        _ => ExchangeError::NoPrisoner(captor),
                    };
                    return Err(refusal(&row, &position, error, captor).into());
                };
                // The other capturer: the partner of the king this army holds.
                let other = (prisoner + 2) % SEATS;
                if let Err(error) = position.may_exchange(captor, other) {
                    return Err(refusal(&row, &position, error, captor).into());
                }
                row.exchange_offer = Some(captor);
                self.save(&mut row).await?;
                let text = self.text(
                    lang,
                    &Msg::new("exchange-offered")
                        .arg("id", row.id.clone())
                        .arg("player", row.player_name(seat).to_owned())
                        .arg("theirs", self.king_name(lang, &position, prisoner))
                        .arg(
                            "ours",
                            self.king_name(lang, &position, (captor + 2) % SEATS),
                        )
                        .arg(
                            "opponent",
                            row.player_name(position.controller(other)).to_owned(),
                        ),
                );
                let asked = crate::service::present::to_notify(&row, [position.controller(other)]);
                Ok(vec![self.offer_delivery(
                    lang,
                    &row,
                    text,
                    [
                        |game| ButtonAction::Exchange { game },
                        |game| ButtonAction::DeclineExchange { game },
                    ],
                    asked,
                )])
            }
        }
    }

    /// `/noexchange [id]`: declines the other team's offer to exchange prisoners.
    pub(crate) async fn decline_exchange(&self, ctx: &Ctx, game: Option<String>) -> Outcome {
        let (_lock, mut row, seat) = self.my_game(ctx, game).await?;
        let lang = self.game_chat_lang(ctx, &row).await;
        match row.exchange_offer {
            Some(offerer) if row.team_of_seat(offerer) != row.team_of_seat(seat) => {
                row.exchange_offer = None;
                self.save(&mut row).await?;
                Ok(vec![self.chat_note(
                    lang,
                    &row,
                    Msg::new("exchange-declined").arg("player", row.player_name(seat).to_owned()),
                )])
            }
            Some(_) => Err(Msg::new("error-offer-not-withdrawable").into()),
            None => Err(Msg::new("exchange-no-offer").into()),
        }
    }

    /// "Yellow's king": the army colour of seat `seat`.
    fn king_name(&self, lang: crate::i18n::Lang, game: &Game, seat: usize) -> String {
        let color = self.seat_color_name(lang, game.variant(), seat, Side((seat % 2) as u8));
        self.text(lang, &Msg::new("exchange-king").arg("color", color))
    }

    /// Enochian chess: what the chat is told when the last move took a throne.
    pub(crate) fn throne_text(
        &self,
        lang: crate::i18n::Lang,
        row: &GameRow,
        game: &Game,
    ) -> Option<String> {
        let (usurper, controlled) = game.throne_taken()?;
        let color = self.seat_color_name(
            lang,
            game.variant(),
            controlled,
            Side((controlled % 2) as u8),
        );
        Some(
            self.text(
                lang,
                &Msg::new("throne-taken")
                    .arg("player", row.player_name(usurper).to_owned())
                    .arg("color", color)
                    .arg("owner", row.player_name(controlled).to_owned()),
            ),
        )
    }

    /// What the chat is told of the exchange between seats `a` and `b`:
    /// the two kings that came back (the partners' of the capturers).
    pub(crate) fn exchange_text(
        &self,
        lang: crate::i18n::Lang,
        row: &GameRow,
        game: &Game,
        a: usize,
        b: usize,
    ) -> String {
        self.text(
            lang,
            &Msg::new("exchange-done")
                .arg("id", row.id.clone())
                .arg("first", self.king_name(lang, game, (b + 2) % SEATS))
                .arg("second", self.king_name(lang, game, (a + 2) % SEATS)),
        )
    }
}

/// The army (seat, turn order) the player at `seat` speaks for in an
/// exchange: one they control that holds a prisoner, else their own.
fn captor_of(row: &GameRow, game: &Game, seat: usize) -> Result<usize, Msg> {
    if game.variant().definition().thrones.is_empty() {
        return Err(Msg::new("exchange-not-here").arg("id", row.id.clone()));
    }
    Ok((0..SEATS)
        .filter(|&army| game.controller(army) == seat)
        .find(|&army| game.prisoner_of(army).is_some())
        .unwrap_or(seat))
}

/// Why seat `mine` cannot exchange now.
fn refusal(row: &GameRow, game: &Game, error: ExchangeError, mine: usize) -> Msg {
    let player = |seat: usize| row.player_name(game.controller(seat)).to_owned();
    match error {
        ExchangeError::NoThrones => Msg::new("exchange-not-here").arg("id", row.id.clone()),
        ExchangeError::GameOver => Msg::new("error-game-over").arg("id", row.id.clone()),
        ExchangeError::NotOpponents => Msg::new("error-internal"),
        ExchangeError::OwnKingTaken(seat) if seat == mine => Msg::new("exchange-own-king-taken"),
        ExchangeError::OwnKingTaken(seat) => {
            Msg::new("exchange-their-king-taken").arg("player", player(seat))
        }
        ExchangeError::NoPrisoner(seat) if seat == mine => Msg::new("exchange-nothing"),
        ExchangeError::NoPrisoner(seat) => {
            Msg::new("exchange-they-hold-none").arg("player", player(seat))
        }
    }
}
