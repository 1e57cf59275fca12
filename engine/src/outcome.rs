//! How a game ends by the rules: a standing of the teams and a reason. A leaf
//! module: it imports nothing from the crate but [`crate::side`].

use crate::side::Team;

/// Why a game ended by the rules (resignation, time-out and agreement are the
/// service's business).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Reason {
    /// Checkmate.
    Checkmate,
    /// Stalemate (a draw, or a win where the variant says so).
    Stalemate,
    /// Threefold repetition.
    Repetition,
    /// Fifty moves without capture or pawn move.
    FiftyMoves,
    /// Neither side can mate.
    InsufficientMaterial,
    /// A king exploded (atomic).
    ExplodedKing,
    /// The third check (three-check).
    ThreeChecks,
    /// A king reached the hill (king of the hill).
    Hill,
    /// A king reached the last rank (racing kings).
    Race,
    /// A side has no pieces left (antichess, horde).
    NoPieces,
    /// A side has no legal move and wins or loses by the variant (antichess).
    NoMoves,
    /// A side was in check before the other side's first move, after a setup
    /// phase (battle chess): it loses.
    CheckAtStart,
    /// White could take the enemy king at once after the placement phase
    /// (Frolov chess).
    KingCapture,
    /// White could mate at once after the placement phase (Frolov chess).
    MateAtOnce,
    /// The royals kept facing each other after a move (Janggi's bikjang),
    /// decided by points where the variant counts them.
    Bikjang,
    /// Both sides passed in a row, decided by points where counted.
    Passes,
    /// A draw (repetition, fifty moves, material) decided by points (Janggi).
    Points,
    /// A side was left with a bare king (shatranj); two bare kings draw.
    BareKing,
    /// A pawn reached the last rank first (the teaching ladder).
    PromotionGoal,
    /// A king entered the opponent's citadel (citadel chess): a draw.
    Citadel,
    /// Both kings of a side were taken (Enochian chess).
    KingsTaken,
    /// A player was stalemated while the partner was out of play too
    /// (stalemated, king taken, or its throne held by the stalemated king):
    /// a draw (Enochian chess).
    TeamStalemated,
    /// Both players of a team were left with bare kings: a draw (Enochian chess).
    BareKings,
}

impl Reason {
    /// A stable key for i18n (`"checkmate"`, `"three-checks"`, …).
    pub fn key(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::Repetition => "repetition",
            Reason::FiftyMoves => "fifty-moves",
            Reason::InsufficientMaterial => "insufficient-material",
            Reason::ExplodedKing => "exploded-king",
            Reason::ThreeChecks => "three-checks",
            Reason::Hill => "hill",
            Reason::Race => "race",
            Reason::NoPieces => "no-pieces",
            Reason::NoMoves => "no-moves",
            Reason::CheckAtStart => "setup-check",
            Reason::KingCapture => "king-capture",
            Reason::MateAtOnce => "mate-at-once",
            Reason::Bikjang => "bikjang",
            Reason::Passes => "passes",
            Reason::Points => "points",
            Reason::BareKing => "bare-king",
            Reason::PromotionGoal => "promotion-goal",
            Reason::Citadel => "citadel",
            Reason::KingsTaken => "kings-taken",
            Reason::TeamStalemated => "team-stalemated",
            Reason::BareKings => "bare-kings",
        }
    }
}

/// Where the teams finish.
///
/// Two teams: one wins (the other loses) or they draw. Games of more teams
/// may end in an order ([`Standing::Ranked`]).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Standing {
    /// This team wins; every other team loses.
    Win(Team),
    /// Every team draws.
    Draw,
    /// An order of the teams (games of more than two teams).
    Ranked(Ranking),
}

impl Standing {
    /// The place of `team`: 1 for a winner and for everyone in a draw, 2 for
    /// the loser of a two-team game; `None` for a team that did not play.
    pub fn place(&self, team: Team) -> Option<u8> {
        match self {
            Standing::Win(winner) if *winner == team => Some(1),
            Standing::Win(_) => Some(2),
            Standing::Draw => Some(1),
            Standing::Ranked(ranking) => ranking.place(team),
        }
    }
}

/// The places of up to [`Ranking::MAX_TEAMS`] teams: 1 is first, teams may
/// share a place.
///
/// ```
/// use kodex_engine::{Ranking, Team};
/// let ranking = Ranking::new(&[(Team(0), 2), (Team(1), 1), (Team(2), 2), (Team(3), 4)]);
/// assert_eq!(ranking.place(Team(1)), Some(1));
/// assert_eq!(ranking.winner(), Some(Team(1)));
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Ranking {
    /// `places[team]`: the place of that team, 0 when it did not play.
    places: [u8; Ranking::MAX_TEAMS],
}

impl Ranking {
    /// The most teams a ranking holds.
    pub const MAX_TEAMS: usize = 4;

    /// A ranking from (team, place) pairs; teams beyond [`Ranking::MAX_TEAMS`] are ignored.
    pub fn new(places: &[(Team, u8)]) -> Ranking {
        let mut ranking = Ranking {
            places: [0; Ranking::MAX_TEAMS],
        };
        for &(team, place) in places {
            if let Some(slot) = ranking.places.get_mut(team.index()) {
                *slot = place;
            }
        }
        ranking
    }

    /// The place of `team` (1 is first), `None` if it did not play.
    pub fn place(&self, team: Team) -> Option<u8> {
        self.places
            .get(team.index())
            .copied()
            .filter(|&place| place > 0)
    }

    /// The one team in first place, if exactly one is.
    pub fn winner(&self) -> Option<Team> {
        let mut first = self
            .places
            .iter()
            .enumerate()
            .filter(|(_, &place)| place == 1)
            .map(|(team, _)| Team(team as u8));
        match (first.next(), first.next()) {
            (Some(team), None) => Some(team),
            _ => None,
        }
    }
}

/// How a game ended by the rules: where the teams finish, and why.
///
/// ```
/// use kodex_engine::{Outcome, Reason, Standing, Team};
/// let mate = Outcome { standing: Standing::Win(Team(1)), reason: Reason::Checkmate };
/// assert_eq!(mate.winner(), Some(Team(1)));
/// assert_eq!(mate.standing.place(Team(0)), Some(2));
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Outcome {
    /// Where the teams finish.
    pub standing: Standing,
    /// Why.
    pub reason: Reason,
}

impl Outcome {
    /// `team` wins for `reason`.
    pub fn win(team: Team, reason: Reason) -> Outcome {
        Outcome {
            standing: Standing::Win(team),
            reason,
        }
    }

    /// A draw for `reason`.
    pub fn draw(reason: Reason) -> Outcome {
        Outcome {
            standing: Standing::Draw,
            reason,
        }
    }

    /// The winning team: the one team that won or finished alone in first
    /// place; `None` for a draw.
    pub fn winner(&self) -> Option<Team> {
        match self.standing {
            Standing::Win(team) => Some(team),
            Standing::Draw => None,
            Standing::Ranked(ranking) => ranking.winner(),
        }
    }
}
