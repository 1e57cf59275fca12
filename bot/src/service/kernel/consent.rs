//! Draw offers in games of more than two players on one board (four-handed
//! and Enochian chess): the game is drawn when every player of the other
//! team agrees to a player's offer, as in bughouse (`bughouse::pair_draw`).
//! The offer (who offered, who agreed) is kept in the row's `draw_offer`.

use crate::service::kernel::apply::Change;
use crate::service::{Msg, Outcome, Service};
use crate::i18n::Lang;
use crate::store::GameRow;

/// Marks a stored offer of a team game: the offering seat in bits 8–15,
/// the seats that agreed in bits 0–7. A smaller stored value is a single
/// seat's offer (as two-player games store it, and games of four did
/// before).
const SET: i64 = 1 << 16;

/// Whether `row`'s draw offers are team offers: one board, more than two
/// seats.
pub(crate) fn is_team_game(row: &GameRow) -> bool {
    row.linked_id.is_none() && row.seats.len() > 2
}

/// The standing offer in a team game: who offered, and the seats (bits)
/// of the other team that agreed.
#[derive(Clone, Copy)]
struct Offer {
    offerer: usize,
    agreed: u32,
}

fn offer(row: &GameRow) -> Option<Offer> {
    let value = row.draw_offer?;
    if value >= SET {
        Some(Offer {
            offerer: ((value >> 8) & 0xff) as usize,
            agreed: (value & 0xff) as u32,
        })
    } else {
        Some(Offer {
            offerer: usize::try_from(value).ok()?,
            agreed: 0,
        })
    }
}

fn store(row: &mut GameRow, offer: Offer) {
    row.draw_offer = Some(SET | ((offer.offerer as i64 & 0xff) << 8) | i64::from(offer.agreed));
}

fn bit(seat: usize) -> u32 {
    1u32.checked_shl(seat as u32).unwrap_or(0)
}

/// The seats asked to agree to `offer`: the players of the other teams
/// than the offerer's who have not agreed yet (nor retired, in Enochian chess).
fn asked(row: &GameRow, offer: Offer) -> impl Iterator<Item = &crate::store::SeatRow> {
    let team = row.team_of_seat(offer.offerer);
    row.seats.iter().filter(move |seat| {
        seat.team != team
            && offer.agreed & bit(seat.seat) == 0
            && !crate::service::commands::retire::has_retired(row, seat.seat)
    })
}

/// Whether seat `seat` is asked to answer the offer standing in `row`.
pub(crate) fn is_asked(row: &GameRow, seat: usize) -> bool {
    offer(row).is_some_and(|offer| asked(row, offer).any(|s| s.seat == seat))
}

/// Seat `seat` has moved: if it was asked to answer an offer, playing on
/// declines it.
pub(crate) fn lapse_on_move(row: &mut GameRow, seat: usize) {
    if is_asked(row, seat) {
        row.draw_offer = None;
    }
}

impl Service {
    /// `/draw` by the player of `seat` in a team game (`row` locked):
    /// offers, or agrees to the standing offer; the game is drawn when the
    /// agreement is complete.
    pub(crate) async fn team_draw(&self, mut row: GameRow, seat: usize, lang: Lang) -> Outcome {
        let asked_now: Vec<usize>;
        let msg = match offer(&row) {
            None => {
                let offer = Offer {
                    offerer: seat,
                    agreed: 0,
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
                    agreed: standing.agreed | bit(seat),
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
        let notify = crate::service::present::to_notify(&row, asked_now);
        Ok(vec![self.offer_delivery(
            lang,
            &row,
            text,
            crate::service::commands::offers::DRAW_BUTTONS,
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
