//! Offers as the game keeps them. Draw offers in games of more than two
//! players on one board (four-handed and Enochian chess): the game is drawn
//! when every player of the other team agrees to a player's offer, as in
//! bughouse (`bughouse::pair_draw`); the offer (who offered, who agreed) is
//! kept in the row's `draw_offer`. A move declines what the mover was asked
//! ([`lapse_on_move`]). The seat codes of resign buttons.

use crate::store::{DrawOffer, GameRow, SeatSet};
use kodex_engine::Game;

/// Whether `row`'s draw offers are team offers, which every player of the
/// other team must agree to: one board, more than two seats (bughouse's
/// linked boards keep their own, see `bughouse::pair_draw`).
pub(crate) fn has_team_offers(row: &GameRow) -> bool {
    row.linked_id.is_none() && row.seats.len() > 2
}

/// The standing offer in a team game: who offered, and the seats of the
/// other team that agreed (an offer stored as a single seat's: none yet).
#[derive(Clone, Copy)]
pub(crate) struct Offer {
    pub(crate) offerer: usize,
    pub(crate) agreed: SeatSet,
}

/// The standing team offer of `row`, if any.
pub(crate) fn offer(row: &GameRow) -> Option<Offer> {
    let (offerer, agreed) = row.draw_offer?.on_one_board()?;
    Some(Offer { offerer, agreed })
}

/// Stores `offer` as `row`'s standing team offer.
pub(crate) fn store(row: &mut GameRow, offer: Offer) {
    row.draw_offer = Some(DrawOffer::Team {
        offerer: offer.offerer,
        agreed: offer.agreed,
    });
}

/// The seats asked to agree to `offer`: the players of the other teams
/// than the offerer's who have not agreed yet (nor retired from `game`, in
/// Enochian chess).
pub(crate) fn asked<'a>(
    row: &'a GameRow,
    game: &'a Game,
    offer: Offer,
) -> impl Iterator<Item = &'a crate::store::SeatRow> {
    let team = row.team_of_seat(offer.offerer);
    row.seats.iter().filter(move |seat| {
        seat.team != team && !offer.agreed.contains(seat.seat) && !game.retired(seat.seat)
    })
}

/// Whether seat `seat` is asked to answer the offer standing in `row`
/// (whose position is `game`).
pub(crate) fn is_asked(row: &GameRow, game: &Game, seat: usize) -> bool {
    offer(row).is_some_and(|offer| asked(row, game, offer).any(|s| s.seat == seat))
}

/// Seat `seat` has moved in `game`: if it was asked to answer an offer,
/// playing on declines it.
pub(crate) fn lapse_on_move(row: &mut GameRow, game: &Game, seat: usize) {
    if is_asked(row, game, seat) {
        row.draw_offer = None;
    }
}

/// The seat code in a resign button's data (`w` and `b` for the two-player seats).
pub(crate) fn side_code(seat: usize) -> &'static str {
    match seat {
        0 => "w",
        1 => "b",
        2 => "2",
        _ => "3",
    }
}
