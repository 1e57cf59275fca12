//! Draw offers in games of more than two players on one board (four-handed
//! and Enochian chess): the game is drawn when every player of the other
//! team agrees to a player's offer, as in bughouse (`bughouse::pair_draw`).
//! The offer (who offered, who agreed) is kept in the row's `draw_offer`.

use super::apply::Change;
use super::{Msg, Outcome, Service};
use crate::i18n::Lang;
use crate::store::{DrawOffer, GameRow, SeatSet};

/// Whether `row`'s draw offers are team offers: one board, more than two
/// seats.
pub(super) fn is_team_game(row: &GameRow) -> bool {
    row.linked_id.is_none() && row.seats.len() > 2
}

/// The standing offer in a team game: who offered, and the seats of the
/// other team that agreed (an offer stored as a single seat's: none yet).
#[derive(Clone, Copy)]
struct Offer {
    offerer: usize,
    agreed: SeatSet,
}

fn offer(row: &GameRow) -> Option<Offer> {
    let (offerer, agreed) = row.draw_offer?.on_one_board()?;
    Some(Offer { offerer, agreed })
}

fn store(row: &mut GameRow, offer: Offer) {
    row.draw_offer = Some(DrawOffer::Team {
        offerer: offer.offerer,
        agreed: offer.agreed,
    });
}

/// The seats asked to agree to `offer`: the players of the other teams
/// than the offerer's who have not agreed yet (nor retired, in Enochian chess).
fn asked(row: &GameRow, offer: Offer) -> impl Iterator<Item = &crate::store::SeatRow> {
    let team = row.team_of_seat(offer.offerer);
    row.seats.iter().filter(move |seat| {
        seat.team != team
            && !offer.agreed.contains(seat.seat)
            && !super::retire::has_retired(row, seat.seat)
    })
}

/// Whether seat `seat` is asked to answer the offer standing in `row`.
pub(super) fn is_asked(row: &GameRow, seat: usize) -> bool {
    offer(row).is_some_and(|offer| asked(row, offer).any(|s| s.seat == seat))
}

/// Seat `seat` has moved: if it was asked to answer an offer, playing on
/// declines it.
pub(super) fn lapse_on_move(row: &mut GameRow, seat: usize) {
    if is_asked(row, seat) {
        row.draw_offer = None;
    }
}

impl Service {
    /// `/draw` by the player of `seat` in a team game (`row` locked):
    /// offers, or agrees to the standing offer; the game is drawn when the
    /// agreement is complete.
    pub(super) async fn team_draw(&self, mut row: GameRow, seat: usize, lang: Lang) -> Outcome {
        let asked_now: Vec<usize>;
        let msg = match offer(&row) {
            None => {
                let offer = Offer {
                    offerer: seat,
                    agreed: SeatSet::EMPTY,
                };
                // Those asked: a player who retired is not.
                asked_now = asked(&row, offer).map(|s| s.seat).collect();
                let asked: Vec<&str> = asked(&row, offer).map(|s| s.user_name.as_str()).collect();
                let msg = Msg::new("draw-offered-team").arg("opponents", asked.join(" & "));
                store(&mut row, offer);
                msg
            }
            Some(standing) if is_asked(&row, seat) => {
                let now = Offer {
                    agreed: standing.agreed.with(seat),
                    ..standing
                };
                let waiting: Vec<&str> = asked(&row, now).map(|s| s.user_name.as_str()).collect();
                if waiting.is_empty() {
                    let mut position = self.replay(&row)?;
                    return self
                        .apply(&mut row, &mut position, Change::DrawAgreed, lang)
                        .await;
                }
                asked_now = asked(&row, now).map(|s| s.seat).collect();
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
        let notify = super::present::to_notify(&row, asked_now);
        Ok(vec![self.offer_delivery(
            lang,
            &row,
            text,
            super::offers::DRAW_BUTTONS,
            notify,
        )])
    }

    /// `/nodraw` in a team game: a player asked to answer declines the
    /// offer for everyone.
    pub(super) async fn team_decline_draw(
        &self,
        mut row: GameRow,
        seat: usize,
        lang: Lang,
    ) -> Outcome {
        if offer(&row).is_none() {
            return Err(Msg::new("error-no-draw-offer").into());
        }
        if !is_asked(&row, seat) {
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
