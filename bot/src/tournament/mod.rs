//! Tournament pairing and scoring, pure and platform-free: who plays whom
//! and with which colour, and who finished where.
//!
//! Each format has a module of its own: [`berger`] (round robins by FIDE's
//! Berger tables), [`swiss`] (the FIDE Dutch system), [`arena`] (lichess's
//! arena: pair whoever is free, points with streaks and berserk) and
//! [`knockout`] (seeded brackets, matches with a tie-break game).
//! [`tiebreak`] orders final standings (FIDE C.07) and [`trf`] reads and
//! writes FIDE's tournament report format, so a Swiss can be checked against
//! other pairing programs (bbpPairings, JaVaFo).
//!
//! Nothing here knows about chats, storage or clocks: the service keeps the
//! state and calls these functions with it, so every rule is tested here on
//! plain values. Players are named by their pairing number (starting rank,
//! 1 the highest rated), the number FIDE's tables and TRF files use.

pub mod arena;
pub mod berger;
pub mod knockout;
mod matching;
pub mod swiss;
pub mod tiebreak;
pub mod trf;

/// A player's pairing number: 1 is the top seed. FIDE's tables, TRF files
/// and every pairing rule count players this way.
pub type PlayerNumber = u32;

/// The colour a player has in one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    White,
    Black,
}

impl Colour {
    /// The other colour.
    pub fn opposite(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
}

/// One game of a pairing: `white` plays `black`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pairing {
    pub white: PlayerNumber,
    pub black: PlayerNumber,
}

impl Pairing {
    /// Whether `player` plays in this game.
    pub fn involves(&self, player: PlayerNumber) -> bool {
        self.white == player || self.black == player
    }

    /// The opponent of `player` in this game, if `player` plays in it.
    pub fn opponent_of(&self, player: PlayerNumber) -> Option<PlayerNumber> {
        if self.white == player {
            Some(self.black)
        } else if self.black == player {
            Some(self.white)
        } else {
            None
        }
    }
}

/// One round's pairing: the games, board 1 first, and the player with the
/// bye (in a Swiss, the pairing-allocated bye) when the count is odd.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct RoundPairing {
    pub pairings: Vec<Pairing>,
    pub bye: Option<PlayerNumber>,
}

impl RoundPairing {
    /// Everyone the round names, in playing or with the bye, in number order.
    pub fn players(&self) -> Vec<PlayerNumber> {
        let mut players: Vec<PlayerNumber> = self
            .pairings
            .iter()
            .flat_map(|game| [game.white, game.black])
            .chain(self.bye)
            .collect();
        players.sort_unstable();
        players
    }
}

/// What one round brought a player, as a Swiss table (and a TRF file)
/// records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RoundResult {
    /// A game played and won.
    Win,
    /// A game played and drawn.
    Draw,
    /// A game played and lost.
    Loss,
    /// Paired, and the opponent did not come: a win without a game.
    ForfeitWin,
    /// Paired, and did not come: a loss without a game.
    ForfeitLoss,
    /// The bye the pairing gave to the odd player out (worth a win, at most
    /// once a tournament).
    PairingBye,
    /// A half-point bye the player asked for.
    HalfPointBye,
    /// A full-point bye given by the arbiter.
    FullPointBye,
    /// Not paired: absent, withdrawn, or not yet joined.
    ZeroPointBye,
}

impl RoundResult {
    /// The points it is worth, in half points (a win is 2): whole numbers
    /// keep score comparisons exact.
    pub fn half_points(self) -> u32 {
        match self {
            RoundResult::Win
            | RoundResult::ForfeitWin
            | RoundResult::PairingBye
            | RoundResult::FullPointBye => 2,
            RoundResult::Draw | RoundResult::HalfPointBye => 1,
            RoundResult::Loss | RoundResult::ForfeitLoss | RoundResult::ZeroPointBye => 0,
        }
    }

    /// The opponent's result in the same game (a bye is its own).
    pub fn for_opponent(self) -> RoundResult {
        match self {
            RoundResult::Win => RoundResult::Loss,
            RoundResult::Loss => RoundResult::Win,
            RoundResult::ForfeitWin => RoundResult::ForfeitLoss,
            RoundResult::ForfeitLoss => RoundResult::ForfeitWin,
            other => other,
        }
    }

    /// Whether a game was actually played (it counts for colours and for
    /// the opponents' tie-breaks as a real game).
    pub fn played(self) -> bool {
        matches!(
            self,
            RoundResult::Win | RoundResult::Draw | RoundResult::Loss
        )
    }
}

/// One round of one player's history: the opponent and colour (none for a
/// bye or an absence) and the result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RoundRecord {
    pub opponent: Option<PlayerNumber>,
    pub colour: Option<Colour>,
    pub result: RoundResult,
}

impl RoundRecord {
    /// A round without an opponent: a bye or an absence.
    pub fn without_opponent(result: RoundResult) -> RoundRecord {
        RoundRecord {
            opponent: None,
            colour: None,
            result,
        }
    }

    /// A game against `opponent` with `colour` and `result`.
    pub fn game(opponent: PlayerNumber, colour: Colour, result: RoundResult) -> RoundRecord {
        RoundRecord {
            opponent: Some(opponent),
            colour: Some(colour),
            result,
        }
    }
}
