//! A game's setup phase as stored: each side's placement so far, who
//! places next in a public setup, and what a player asks of their setup.

use crate::store::GameRow;
use kodex_engine::setup::{turn_to_place, Placement};
use kodex_engine::{Side, Variant};

/// The longest setup text read: a whole army placed piece by piece fits.
pub const MAX_SETUP_TEXT: usize = 200;

/// The stored setup of side `side` in `row` (empty when none or unreadable).
pub(crate) fn placement_of(variant: &Variant, row: &GameRow, side: Side) -> Placement {
    let mut placement = Placement::default();
    if let Some(text) = row.seat_of_side(side).and_then(|s| s.setup.as_deref()) {
        if let Err(e) = placement.apply(variant, side, text) {
            tracing::error!(game = %row.id, side = side.index(), error = %e, "stored setup does not read back");
            return Placement::default();
        }
    }
    placement
}

/// Both sides' placements so far.
pub(crate) fn placements(variant: &Variant, row: &GameRow) -> [Placement; 2] {
    [
        placement_of(variant, row, Side::WHITE),
        placement_of(variant, row, Side::BLACK),
    ]
}

/// The side that places next in `row`'s public setup, if any.
pub(crate) fn places_next(variant: &Variant, row: &GameRow) -> Option<Side> {
    let [white, black] = placements(variant, row);
    turn_to_place(variant, [&white, &black])
}

/// What a player asks of their setup.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum SetupCommand<'a> {
    /// Placements (`Ke1 Qd1 e2`) or a half-board FEN fragment.
    Place(&'a str),
    /// A random legal setup.
    Random,
    /// The player's last setup in this variant.
    Last,
    /// Start again from nothing.
    Clear,
    /// Show the board.
    Board,
    /// Declare the setup final.
    Ready,
}

impl<'a> SetupCommand<'a> {
    pub(crate) fn parse(text: &'a str) -> SetupCommand<'a> {
        match text.trim().to_lowercase().as_str() {
            "random" | "случайно" | "случайная" => SetupCommand::Random,
            "last" | "прошлая" | "последняя" => SetupCommand::Last,
            "clear" | "очистить" | "сброс" => SetupCommand::Clear,
            "board" | "доска" => SetupCommand::Board,
            "ready" | "готов" | "готово" => SetupCommand::Ready,
            _ => SetupCommand::Place(text.trim()),
        }
    }
}
