//! The typed values of the columns: each parsed from and written to its
//! stored form in one place, so a row is read once at the edge.

use crate::clock::TimeControl;
use crate::time::Millis;
use kodex_engine::{Reason, Side, Team};
use std::fmt;

/// Reads a TEXT column into `$ty` through its `parse`, which keeps a value
/// this version does not know (written by a newer one) as it was stored;
/// for both backends.
macro_rules! text_column {
    ($ty:ty) => {
        impl sqlx::Type<sqlx::Sqlite> for $ty {
            fn type_info() -> sqlx::sqlite::SqliteTypeInfo {
                <str as sqlx::Type<sqlx::Sqlite>>::type_info()
            }
        }

        impl<'r> sqlx::Decode<'r, sqlx::Sqlite> for $ty {
            fn decode(
                value: sqlx::sqlite::SqliteValueRef<'r>,
            ) -> Result<Self, sqlx::error::BoxDynError> {
                Ok(<$ty>::parse(<&str as sqlx::Decode<sqlx::Sqlite>>::decode(
                    value,
                )?))
            }
        }

        impl sqlx::Type<sqlx::Postgres> for $ty {
            fn type_info() -> sqlx::postgres::PgTypeInfo {
                <str as sqlx::Type<sqlx::Postgres>>::type_info()
            }

            fn compatible(ty: &sqlx::postgres::PgTypeInfo) -> bool {
                <str as sqlx::Type<sqlx::Postgres>>::compatible(ty)
            }
        }

        impl<'r> sqlx::Decode<'r, sqlx::Postgres> for $ty {
            fn decode(
                value: sqlx::postgres::PgValueRef<'r>,
            ) -> Result<Self, sqlx::error::BoxDynError> {
                Ok(<$ty>::parse(
                    <&str as sqlx::Decode<sqlx::Postgres>>::decode(value)?,
                ))
            }
        }
    };
}

/// Where a game is in its life.
///
/// Typed at the storage edge: a stored name this version does not know
/// (written by a newer one) fails closed as [`Status::Unknown`].
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Status {
    /// A challenge waiting for an answer.
    Challenge,
    /// Accepted, with the seats placing their armies before play (see
    /// `migrations/0005_setup.sql`); no clock runs.
    Setup,
    /// Being played.
    Active,
    /// Ended with a result.
    Finished,
    /// The challenge was declined (or withdrawn).
    Declined,
    /// The challenge expired unanswered.
    Expired,
    /// The game was aborted before both sides moved.
    Aborted,
    /// A name this version does not know, kept as stored so that saving the
    /// row writes it back unchanged. Such a game counts as running, with its
    /// hidden information hidden, and nobody can move in it.
    Unknown(String),
}

impl Status {
    /// The stored name.
    ///
    /// ```
    /// use kodex_bot::store::Status;
    /// assert_eq!(Status::parse("active").as_str(), "active");
    /// assert_eq!(Status::parse("paused-by-v3").as_str(), "paused-by-v3");
    /// ```
    pub fn as_str(&self) -> &str {
        match self {
            Status::Challenge => "challenge",
            Status::Setup => "setup",
            Status::Active => "active",
            Status::Finished => "finished",
            Status::Declined => "declined",
            Status::Expired => "expired",
            Status::Aborted => "aborted",
            Status::Unknown(name) => name,
        }
    }

    /// Reads a stored name; unknown names read as [`Status::Unknown`].
    pub fn parse(text: &str) -> Status {
        match text {
            "challenge" => Status::Challenge,
            "setup" => Status::Setup,
            "active" => Status::Active,
            "finished" => Status::Finished,
            "declined" => Status::Declined,
            "expired" => Status::Expired,
            "aborted" => Status::Aborted,
            other => Status::Unknown(other.to_owned()),
        }
    }

    /// Whether the game is over for good, so that everything about it
    /// (positions, the whole record) may be shown to anyone. An unknown
    /// status is not over: it fails closed.
    ///
    /// ```
    /// use kodex_bot::store::Status;
    /// assert!(Status::Finished.is_over());
    /// assert!(!Status::Active.is_over());
    /// assert!(!Status::parse("paused-by-v3").is_over());
    /// ```
    pub fn is_over(&self) -> bool {
        matches!(
            self,
            Status::Finished | Status::Declined | Status::Expired | Status::Aborted
        )
    }
}

text_column!(Status);

/// How a game ended, as stored in `games.result`.
///
/// The stored text stays what rows written before teams hold — the PGN
/// results `1-0` (team 0 wins), `0-1` (team 1 wins), `1/2-1/2`, `*` — and a
/// win of a third or fourth team is stored as `team:N`.
///
/// ```
/// use kodex_bot::store::GameResult;
/// use kodex_engine::Team;
/// assert_eq!(GameResult::parse("0-1"), GameResult::Win { team: Team(1) });
/// assert_eq!(GameResult::Win { team: Team(2) }.to_text(), "team:2");
/// assert_eq!(GameResult::Win { team: Team(2) }.pgn(), "*");
/// assert_eq!(GameResult::parse("team:0").to_text(), "1-0");
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum GameResult {
    /// The seats of team `team` won.
    Win {
        /// The winning team.
        team: Team,
    },
    /// Nobody won.
    Draw,
    /// No result: the game was aborted (`*`).
    NoResult,
    /// A result this version does not know, kept as stored. It names no
    /// winner and reads as `*` in a PGN.
    Unknown(String),
}

impl GameResult {
    /// The stored text.
    pub fn to_text(&self) -> String {
        match self {
            GameResult::Win { team } => match team.0 {
                0 => "1-0".to_owned(),
                1 => "0-1".to_owned(),
                index => format!("team:{index}"),
            },
            GameResult::Draw => "1/2-1/2".to_owned(),
            GameResult::NoResult => "*".to_owned(),
            GameResult::Unknown(text) => text.clone(),
        }
    }

    /// Reads a stored text; anything else reads as [`GameResult::Unknown`].
    pub fn parse(text: &str) -> GameResult {
        match text {
            "1-0" => GameResult::Win { team: Team(0) },
            "0-1" => GameResult::Win { team: Team(1) },
            "1/2-1/2" => GameResult::Draw,
            "*" => GameResult::NoResult,
            other => match other.strip_prefix("team:").map(str::parse::<u8>) {
                Some(Ok(team)) if team < 4 => GameResult::Win { team: Team(team) },
                _ => GameResult::Unknown(other.to_owned()),
            },
        }
    }

    /// The PGN result tag: a win of a third or fourth team has no PGN form.
    pub fn pgn(&self) -> &'static str {
        match self {
            GameResult::Win { team: Team(0) } => "1-0",
            GameResult::Win { team: Team(1) } => "0-1",
            GameResult::Draw => "1/2-1/2",
            _ => "*",
        }
    }

    /// The winning team, if any.
    pub fn winner(&self) -> Option<Team> {
        match self {
            GameResult::Win { team } => Some(*team),
            _ => None,
        }
    }
}

text_column!(GameResult);

/// A stored column that does not parse: the row is refused, never read with
/// a default in its place.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ColumnError {
    /// The column's name.
    pub column: &'static str,
    /// What it holds, as text (cut short).
    pub value: String,
}

impl ColumnError {
    pub(super) fn new(column: &'static str, value: impl ToString) -> ColumnError {
        ColumnError {
            column,
            value: value.to_string().chars().take(40).collect(),
        }
    }
}

/// The most seats a game has (the `seats` table allows 0..=3).
const MAX_SEATS: usize = 4;

/// A seat index (turn order) as stored in a column, checked to be one.
fn seat_value(column: &'static str, value: i64) -> Result<usize, ColumnError> {
    usize::try_from(value)
        .ok()
        .filter(|&seat| seat < MAX_SEATS)
        .ok_or_else(|| ColumnError::new(column, value))
}

/// An optional seat column (`takeback_offer`, `exchange_offer`): the seat
/// whose request or offer stands.
pub(super) fn decode_seat(
    column: &'static str,
    value: Option<i64>,
) -> Result<Option<usize>, ColumnError> {
    value.map(|value| seat_value(column, value)).transpose()
}

/// A yes-or-no column stored as 0 or 1 (`games.rated`); anything else is an error.
pub(super) fn decode_flag(column: &'static str, value: i64) -> Result<bool, ColumnError> {
    match value {
        0 => Ok(false),
        1 => Ok(true),
        other => Err(ColumnError::new(column, other)),
    }
}

/// An engine index (side, team) stored as an integer.
pub(super) fn decode_index(column: &'static str, value: i64) -> Result<u8, ColumnError> {
    u8::try_from(value).map_err(|_| ColumnError::new(column, value))
}

/// The time control column (`games.time_control`): the clock's code
/// ([`TimeControl::code`]: `-`, `3+2`, `1d`), read back with
/// [`TimeControl::parse`]. A code that does not parse is an error, never
/// an untimed game.
pub(super) fn decode_time_control(text: &str) -> Result<TimeControl, ColumnError> {
    TimeControl::parse(text).map_err(|_| ColumnError::new("time_control", text))
}

/// A set of seats (turn order), one bit per seat: who agreed to a team's
/// draw offer, who was reminded of their clock (`games.reminded`).
///
/// ```
/// use kodex_bot::store::SeatSet;
/// let set = SeatSet::EMPTY.with(1).with(3);
/// assert!(set.contains(3) && !set.contains(0));
/// assert_eq!(set.bits(), 0b1010);
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct SeatSet(u8);

impl SeatSet {
    /// No seat.
    pub const EMPTY: SeatSet = SeatSet(0);

    /// The set of the stored bits; `None` when they are not a set of seats.
    pub fn from_bits(bits: i64) -> Option<SeatSet> {
        u8::try_from(bits).ok().map(SeatSet)
    }

    /// The stored bits.
    pub fn bits(self) -> i64 {
        i64::from(self.0)
    }

    /// Whether seat `seat` is in the set.
    pub fn contains(self, seat: usize) -> bool {
        seat < 8 && self.0 & (1 << seat) != 0
    }

    /// The set with seat `seat` added (a seat beyond the set's eight is
    /// left out).
    #[must_use]
    pub fn with(self, seat: usize) -> SeatSet {
        if seat < 8 {
            SeatSet(self.0 | (1 << seat))
        } else {
            self
        }
    }

    /// The stored `reminded` column.
    pub(super) fn decode(column: &'static str, bits: i64) -> Result<SeatSet, ColumnError> {
        SeatSet::from_bits(bits).ok_or_else(|| ColumnError::new(column, bits))
    }
}

/// The colour a challenger asked for (`games.color`): `random`, or a side's
/// colour name ([`Side::color_name`]: `white`, `black`, and in games of four
/// the colour of the seat a challenger took).
///
/// ```
/// use kodex_bot::store::Color;
/// use kodex_engine::Side;
/// assert_eq!(Color::parse("black"), Some(Color::Side(Side::BLACK)));
/// assert_eq!(Color::Random.to_text(), "random");
/// assert_eq!(Color::parse("mauve"), None);
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    /// Drawn when the game starts.
    Random,
    /// The side of this colour.
    Side(Side),
}

impl Color {
    /// The stored text.
    pub fn to_text(self) -> &'static str {
        match self {
            Color::Random => "random",
            Color::Side(side) => side.color_name(),
        }
    }

    /// Reads a stored text.
    pub fn parse(text: &str) -> Option<Color> {
        match text {
            "random" => Some(Color::Random),
            name => Side::from_color_name(name).map(Color::Side),
        }
    }

    pub(super) fn decode(text: &str) -> Result<Color, ColumnError> {
        Color::parse(text).ok_or_else(|| ColumnError::new("color", text))
    }
}

/// Why a game ended (`games.reason`): a rule of the variant (the engine's
/// [`Reason`]), or what people or clocks did.
///
/// A stored reason this version does not know (written by a newer one) is
/// kept as [`EndReason::Unknown`] and told as "other", as [`Status`] keeps
/// an unknown status.
///
/// ```
/// use kodex_bot::store::EndReason;
/// use kodex_engine::Reason;
/// assert_eq!(EndReason::parse("checkmate"), EndReason::Rules(Reason::Checkmate));
/// assert_eq!(EndReason::Timeout.to_text(), "timeout");
/// assert_eq!(EndReason::parse("eaten-by-v9").to_text(), "eaten-by-v9");
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum EndReason {
    /// The variant's rules ended it.
    Rules(Reason),
    /// A side resigned.
    Resign,
    /// A flag fell.
    Timeout,
    /// A flag fell against a side that cannot be mated: a draw.
    TimeoutDraw,
    /// The players agreed to a draw.
    Agreement,
    /// Aborted before it got going.
    Aborted,
    /// The other board of a linked pair (bughouse) ended, and this one with it.
    OtherBoard,
    /// A reason this version does not know, kept as stored.
    Unknown(String),
}

/// Every reason the engine's rules give, to read them back by their key.
/// (A reason missing here would read as [`EndReason::Unknown`]: a test
/// checks the list against [`EndReason::message_key`], whose match the
/// compiler holds complete.)
const RULE_REASONS: [Reason; 23] = [
    Reason::Checkmate,
    Reason::Stalemate,
    Reason::Repetition,
    Reason::FiftyMoves,
    Reason::InsufficientMaterial,
    Reason::ExplodedKing,
    Reason::ThreeChecks,
    Reason::Hill,
    Reason::Race,
    Reason::NoPieces,
    Reason::NoMoves,
    Reason::CheckAtStart,
    Reason::KingCapture,
    Reason::MateAtOnce,
    Reason::Bikjang,
    Reason::Passes,
    Reason::Points,
    Reason::BareKing,
    Reason::PromotionGoal,
    Reason::Citadel,
    Reason::KingsTaken,
    Reason::TeamStalemated,
    Reason::BareKings,
];

impl EndReason {
    /// The stored text.
    pub fn to_text(&self) -> &str {
        match self {
            EndReason::Rules(reason) => reason.key(),
            EndReason::Resign => "resign",
            EndReason::Timeout => "timeout",
            EndReason::TimeoutDraw => "timeout-draw",
            EndReason::Agreement => "agreement",
            EndReason::Aborted => "aborted",
            EndReason::OtherBoard => "other-board",
            EndReason::Unknown(text) => text,
        }
    }

    /// Reads a stored text; an unknown one reads as [`EndReason::Unknown`].
    pub fn parse(text: &str) -> EndReason {
        let own = [
            EndReason::Resign,
            EndReason::Timeout,
            EndReason::TimeoutDraw,
            EndReason::Agreement,
            EndReason::Aborted,
            EndReason::OtherBoard,
        ];
        if let Some(reason) = RULE_REASONS.iter().find(|reason| reason.key() == text) {
            return EndReason::Rules(*reason);
        }
        own.into_iter()
            .find(|reason| reason.to_text() == text)
            .unwrap_or_else(|| EndReason::Unknown(text.to_owned()))
    }

    /// The i18n key telling it (`reason-checkmate`; `reason-other` for an
    /// unknown one and for the board that did not decide a linked pair).
    pub fn message_key(&self) -> &'static str {
        match self {
            EndReason::Rules(reason) => match reason {
                Reason::Checkmate => "reason-checkmate",
                Reason::Stalemate => "reason-stalemate",
                Reason::Repetition => "reason-repetition",
                Reason::FiftyMoves => "reason-fifty-moves",
                Reason::InsufficientMaterial => "reason-insufficient-material",
                Reason::ExplodedKing => "reason-exploded-king",
                Reason::ThreeChecks => "reason-three-checks",
                Reason::Hill => "reason-hill",
                Reason::Race => "reason-race",
                Reason::NoPieces => "reason-no-pieces",
                Reason::NoMoves => "reason-no-moves",
                Reason::CheckAtStart => "reason-setup-check",
                Reason::KingCapture => "reason-king-capture",
                Reason::MateAtOnce => "reason-mate-at-once",
                Reason::Bikjang => "reason-bikjang",
                Reason::Passes => "reason-passes",
                Reason::Points => "reason-points",
                Reason::BareKing => "reason-bare-king",
                Reason::PromotionGoal => "reason-promotion-goal",
                Reason::Citadel => "reason-citadel",
                Reason::KingsTaken => "reason-kings-taken",
                Reason::TeamStalemated => "reason-team-stalemated",
                Reason::BareKings => "reason-bare-kings",
            },
            EndReason::Resign => "reason-resign",
            EndReason::Timeout => "reason-timeout",
            EndReason::TimeoutDraw => "reason-timeout-draw",
            EndReason::Agreement => "reason-agreement",
            EndReason::Aborted => "reason-aborted",
            EndReason::OtherBoard | EndReason::Unknown(_) => "reason-other",
        }
    }
}

text_column!(EndReason);

/// A standing draw offer (`games.draw_offer`), in the one of its three
/// forms the game has.
///
/// The stored integer: in a game on one board, the seat that offered (two
/// players; and games of more seats as they stored it before agreements
/// were kept), or [`TEAM_OFFER`] with the offering seat in bits 8–15 and the
/// seats that agreed in bits 0–7 (more than two seats); in a game on two
/// linked boards (bughouse) a [`PairOffer`].
///
/// ```
/// use kodex_bot::store::{DrawOffer, PairOffer, SeatSet};
/// let team = DrawOffer::Team { offerer: 2, agreed: SeatSet::EMPTY.with(1) };
/// assert_eq!(DrawOffer::decode(team.encode(), false), Some(team));
/// assert_eq!(DrawOffer::decode(1, false), Some(DrawOffer::Seat(1)));
/// let pair = PairOffer::first(0, 1);
/// assert_eq!(DrawOffer::decode(0b1_0010, true), Some(DrawOffer::Pair(pair)));
/// assert_eq!(pair.offering_team(), 1);
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum DrawOffer {
    /// One board: the seat that offered; nobody agreed yet.
    Seat(usize),
    /// One board of more than two seats: the seat that offered and the
    /// seats of the other teams that agreed.
    Team {
        /// The seat that offered.
        offerer: usize,
        /// The seats that agreed.
        agreed: SeatSet,
    },
    /// Two linked boards.
    Pair(PairOffer),
}

/// Marks a stored team offer (see [`DrawOffer`]).
const TEAM_OFFER: i64 = 1 << 16;

impl DrawOffer {
    /// The stored integer.
    pub fn encode(self) -> i64 {
        match self {
            DrawOffer::Seat(seat) => seat as i64,
            DrawOffer::Team { offerer, agreed } => {
                TEAM_OFFER | ((offerer as i64 & 0xff) << 8) | (agreed.bits() & 0xff)
            }
            DrawOffer::Pair(pair) => pair.encode(),
        }
    }

    /// Reads the stored integer of a game on linked boards (`linked`) or
    /// on one board; `None` when it is no offer of such a game.
    pub fn decode(value: i64, linked: bool) -> Option<DrawOffer> {
        if linked {
            return PairOffer::decode(value).map(DrawOffer::Pair);
        }
        if value & !0xffff == TEAM_OFFER {
            let offerer = usize::try_from((value >> 8) & 0xff)
                .ok()
                .filter(|&s| s < MAX_SEATS)?;
            let agreed = SeatSet::from_bits(value & 0xff)?;
            return Some(DrawOffer::Team { offerer, agreed });
        }
        seat_value("draw_offer", value).ok().map(DrawOffer::Seat)
    }

    /// The stored column of a game on linked boards or not. (A bughouse
    /// offer without a player, which no version writes, is none.)
    pub(super) fn decode_column(
        value: Option<i64>,
        linked: bool,
    ) -> Result<Option<DrawOffer>, ColumnError> {
        let Some(value) = value else {
            return Ok(None);
        };
        match DrawOffer::decode(value, linked) {
            Some(DrawOffer::Pair(PairOffer { players: 0, .. })) => Ok(None),
            Some(offer) => Ok(Some(offer)),
            None => Err(ColumnError::new("draw_offer", value)),
        }
    }

    /// The seat that offered on one board; `None` on linked boards.
    pub fn offerer(self) -> Option<usize> {
        self.on_one_board().map(|(seat, _)| seat)
    }

    /// The seat that offered on one board, and the seats that agreed (a
    /// single seat's offer: none yet); `None` on linked boards.
    pub fn on_one_board(self) -> Option<(usize, SeatSet)> {
        match self {
            DrawOffer::Seat(seat) => Some((seat, SeatSet::EMPTY)),
            DrawOffer::Team { offerer, agreed } => Some((offerer, agreed)),
            DrawOffer::Pair(_) => None,
        }
    }
}

/// A draw offer on two linked boards (bughouse), the same on both: the four
/// players who said `/draw`, one bit each ([`PairOffer::bit`]), and which
/// team offered (stored as bit 4 when team 1 did).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct PairOffer {
    /// The players' bits.
    players: u8,
    /// Set when team 1 made the offer (an offer stored before the team
    /// was has it unset; see [`PairOffer::offering_team`]).
    by_team_1: bool,
}

/// The four players' bits of a bughouse offer by team: board A white and
/// board B black are team 0.
const PAIR_BITS_OF_TEAM: [u8; 2] = [0b1001, 0b0110];

/// Set in a stored bughouse offer that team 1 made.
const PAIR_BY_TEAM_1: i64 = 0b1_0000;

impl PairOffer {
    /// The bit of the player of `seat` on board `board` (0 or 1).
    pub fn bit(board: usize, seat: usize) -> u8 {
        1u8.checked_shl((board * 2 + seat) as u32).unwrap_or(0)
    }

    /// The team of a player's [`PairOffer::bit`].
    pub fn team_of_bit(bit: u8) -> usize {
        usize::from(PAIR_BITS_OF_TEAM[0] & bit == 0)
    }

    /// The offer the player of `seat` on board `board` makes.
    pub fn first(board: usize, seat: usize) -> PairOffer {
        let bit = PairOffer::bit(board, seat);
        PairOffer {
            players: bit,
            by_team_1: PairOffer::team_of_bit(bit) == 1,
        }
    }

    /// The offer with the player of `bit` agreeing.
    #[must_use]
    pub fn with(self, bit: u8) -> PairOffer {
        PairOffer {
            players: self.players | bit,
            ..self
        }
    }

    /// Whether the player of `bit` said `/draw`.
    pub fn has(self, bit: u8) -> bool {
        self.players & bit != 0
    }

    /// The team that made the offer. (An offer stored before the team was:
    /// the only team with a player in it, else team 0.)
    pub fn offering_team(self) -> usize {
        let only_team_1 =
            self.players & PAIR_BITS_OF_TEAM[0] == 0 && self.players & PAIR_BITS_OF_TEAM[1] != 0;
        usize::from(self.by_team_1 || only_team_1)
    }

    /// Whether the offer is agreed: every player of the team it was made
    /// to said `/draw`.
    pub fn agreed(self) -> bool {
        let asked = PAIR_BITS_OF_TEAM[1 - self.offering_team()];
        self.players & asked == asked
    }

    fn encode(self) -> i64 {
        i64::from(self.players) | if self.by_team_1 { PAIR_BY_TEAM_1 } else { 0 }
    }

    fn decode(value: i64) -> Option<PairOffer> {
        if !(0..2 * PAIR_BY_TEAM_1).contains(&value) {
            return None;
        }
        Some(PairOffer {
            players: (value & 0b1111) as u8,
            by_team_1: value & PAIR_BY_TEAM_1 != 0,
        })
    }
}

/// One entry of a game's record (`games.moves`): the engine's [`Entry`],
/// whose one parser the replay uses too, so the store and the replay read
/// the same text the same way (what is on disk is its `Display`).
pub use kodex_engine::Entry;

/// A game's record (`games.moves`): its [`Entry`]s separated by spaces, kept
/// as stored. Every entry of a record read is checked to parse.
///
/// ```
/// use kodex_bot::store::{Entry, MoveRecord};
/// let mut record = MoveRecord::default();
/// record.push(Entry::Move("e2e4"));
/// record.push(Entry::Impossible("d7d5"));
/// assert_eq!(record.as_str(), "e2e4 d7d5?");
/// assert_eq!(record.len(), 2);
/// assert!(MoveRecord::parse("e2e4 +").is_none());
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct MoveRecord(String);

impl MoveRecord {
    /// Reads a stored record; `None` when an entry does not parse.
    pub fn parse(text: &str) -> Option<MoveRecord> {
        text.split_whitespace()
            .all(|entry| Entry::parse(entry).is_some())
            .then(|| MoveRecord(text.to_owned()))
    }

    pub(super) fn decode(text: String) -> Result<MoveRecord, ColumnError> {
        MoveRecord::parse(&text).ok_or_else(|| ColumnError::new("moves", &text))
    }

    /// The stored text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The entries' texts, in order (what the engine replays).
    pub fn texts(&self) -> Vec<&str> {
        self.0.split_whitespace().collect()
    }

    /// The entries, in order.
    pub fn entries(&self) -> impl Iterator<Item = Entry<'_>> {
        self.0.split_whitespace().filter_map(Entry::parse)
    }

    /// How many entries.
    pub fn len(&self) -> usize {
        self.0.split_whitespace().count()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.0.trim().is_empty()
    }

    /// The last entry.
    pub fn last(&self) -> Option<Entry<'_>> {
        self.0.split_whitespace().last().and_then(Entry::parse)
    }

    /// Appends an entry: the one way a record grows.
    pub fn push(&mut self, entry: Entry<'_>) {
        if !self.0.is_empty() {
            self.0.push(' ');
        }
        self.0.push_str(&entry.to_string());
    }

    /// Keeps the first `len` entries.
    pub fn truncate(&mut self, len: usize) {
        let kept: Vec<&str> = self.0.split_whitespace().take(len).collect();
        self.0 = kept.join(" ");
    }

    /// Whether seat `seat` (turn order) retired: the record says so (a
    /// takeback that undid it removed it).
    pub fn retired(&self, seat: usize) -> bool {
        self.entries().any(|entry| entry == Entry::Retire(seat))
    }
}

impl fmt::Display for MoveRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl PartialEq<&str> for MoveRecord {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

/// When one move of a linked board was made and the mover's time left
/// after it (`games.move_times`; see `migrations/0011_linked_boards.sql`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct MoveTime {
    /// When, in ms since the epoch.
    pub at: Millis,
    /// The mover's time left; `None` without a clock.
    pub left: Option<Millis>,
}

/// The times of a linked board's moves (gifts aside), in order: stored as
/// `<when>:<time left>` (`-` without a clock) separated by spaces.
///
/// ```
/// use kodex_bot::store::{MoveTime, MoveTimes};
/// let times = MoveTimes::parse("10:500 20:-").unwrap();
/// assert_eq!(times.0[1], MoveTime { at: 20, left: None });
/// assert_eq!(times.to_string(), "10:500 20:-");
/// assert!(MoveTimes::parse("10").is_none());
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct MoveTimes(pub Vec<MoveTime>);

impl MoveTimes {
    /// Reads the stored text; `None` when a time does not parse.
    pub fn parse(text: &str) -> Option<MoveTimes> {
        text.split_whitespace()
            .map(|mark| {
                let (at, left) = mark.split_once(':')?;
                let left = match left {
                    "-" => None,
                    left => Some(left.parse().ok()?),
                };
                Some(MoveTime {
                    at: at.parse().ok()?,
                    left,
                })
            })
            .collect::<Option<Vec<MoveTime>>>()
            .map(MoveTimes)
    }

    pub(super) fn decode(text: &str) -> Result<MoveTimes, ColumnError> {
        MoveTimes::parse(text).ok_or_else(|| ColumnError::new("move_times", text))
    }

    /// Appends the time of a move.
    pub fn push(&mut self, time: MoveTime) {
        self.0.push(time);
    }
}

impl fmt::Display for MoveTimes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (index, time) in self.0.iter().enumerate() {
            if index > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{}:", time.at)?;
            match time.left {
                Some(left) => write!(f, "{left}")?,
                None => f.write_str("-")?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_round_trip_and_garbage_is_refused() {
        for code in ["-", "3+2", "1+0", "10+5", "180+180", "1d", "14d"] {
            let clock = decode_time_control(code).expect(code);
            assert_eq!(clock.code(), code);
        }
        for garbage in ["3+", "15d", "x", "0+0", "3+2+1"] {
            assert_eq!(
                decode_time_control(garbage),
                Err(ColumnError::new("time_control", garbage))
            );
        }
    }

    #[test]
    fn colors_round_trip_and_garbage_is_refused() {
        for text in ["random", "white", "black", "red", "blue", "yellow"] {
            assert_eq!(Color::decode(text).map(Color::to_text), Ok(text));
        }
        assert_eq!(Color::decode("white"), Ok(Color::Side(Side::WHITE)));
        for garbage in ["", "White", "green", "w"] {
            assert!(Color::decode(garbage).is_err(), "{garbage}");
        }
    }

    #[test]
    fn end_reasons_round_trip_and_name_their_message() {
        for reason in RULE_REASONS {
            let parsed = EndReason::parse(reason.key());
            assert_eq!(parsed, EndReason::Rules(reason));
            assert_eq!(parsed.to_text(), reason.key());
            assert_eq!(parsed.message_key(), format!("reason-{}", reason.key()));
        }
        let listed: std::collections::HashSet<_> = RULE_REASONS.iter().collect();
        assert_eq!(listed.len(), RULE_REASONS.len());
        for text in ["resign", "timeout", "timeout-draw", "agreement", "aborted"] {
            let parsed = EndReason::parse(text);
            assert!(!matches!(parsed, EndReason::Unknown(_)), "{text}");
            assert_eq!(parsed.to_text(), text);
            assert_eq!(parsed.message_key(), format!("reason-{text}"));
        }
        assert_eq!(EndReason::parse("other-board"), EndReason::OtherBoard);
        assert_eq!(EndReason::OtherBoard.message_key(), "reason-other");
        assert_eq!(
            EndReason::Rules(Reason::CheckAtStart).message_key(),
            "reason-setup-check"
        );
        let unknown = EndReason::parse("eaten-by-v9");
        assert_eq!(unknown, EndReason::Unknown("eaten-by-v9".to_owned()));
        assert_eq!(unknown.to_text(), "eaten-by-v9");
        assert_eq!(unknown.message_key(), "reason-other");
    }

    #[test]
    fn seat_columns_round_trip_and_garbage_is_refused() {
        for seat in 0..4 {
            assert_eq!(
                decode_seat("exchange_offer", Some(seat)),
                Ok(Some(seat as usize))
            );
        }
        assert_eq!(decode_seat("takeback_offer", None), Ok(None));
        for garbage in [-1, 4, 1 << 20] {
            assert!(decode_seat("takeback_offer", Some(garbage)).is_err());
        }
        for bits in [0, 0b10, 0b1111] {
            assert_eq!(
                SeatSet::decode("reminded", bits).map(SeatSet::bits),
                Ok(bits)
            );
        }
        assert!(SeatSet::decode("reminded", -1).is_err());
        assert!(SeatSet::decode("reminded", 256).is_err());
        assert_eq!(decode_index("side", 3), Ok(3));
        assert!(decode_index("team", -1).is_err());
    }

    #[test]
    fn draw_offers_round_trip_in_each_form_and_garbage_is_refused() {
        let one_board = [
            DrawOffer::Seat(0),
            DrawOffer::Seat(3),
            DrawOffer::Team {
                offerer: 2,
                agreed: SeatSet::EMPTY,
            },
            DrawOffer::Team {
                offerer: 0,
                agreed: SeatSet::EMPTY.with(1).with(3),
            },
        ];
        for offer in one_board {
            assert_eq!(
                DrawOffer::decode_column(Some(offer.encode()), false),
                Ok(Some(offer))
            );
        }
        // The encodings as stored before and now.
        assert_eq!(DrawOffer::Seat(1).encode(), 1);
        assert_eq!(
            DrawOffer::Team {
                offerer: 1,
                agreed: SeatSet::EMPTY.with(2)
            }
            .encode(),
            (1 << 16) | (1 << 8) | 0b100
        );
        for board in 0..2 {
            for seat in 0..2 {
                let offer = DrawOffer::Pair(PairOffer::first(board, seat));
                assert_eq!(
                    DrawOffer::decode_column(Some(offer.encode()), true),
                    Ok(Some(offer))
                );
            }
        }
        // Board B white (bit 2) is team 1: its offer carries the flag.
        assert_eq!(DrawOffer::Pair(PairOffer::first(1, 0)).encode(), 0b1_0100);
        assert_eq!(DrawOffer::decode_column(None, true), Ok(None));
        assert_eq!(DrawOffer::decode_column(Some(0), true), Ok(None));
        for garbage in [-1, 4, 1 << 17, (1 << 16) | (7 << 8)] {
            assert!(
                DrawOffer::decode_column(Some(garbage), false).is_err(),
                "{garbage}"
            );
        }
        for garbage in [-1, 0b10_0000] {
            assert!(DrawOffer::decode_column(Some(garbage), true).is_err());
        }
    }

    #[test]
    fn bughouse_offers_are_agreed_by_the_other_team() {
        // Board A white (team 0) offers; board A black and board B white
        // (team 1) agree.
        let offer = PairOffer::first(0, 0);
        assert_eq!(offer.offering_team(), 0);
        let half = offer.with(PairOffer::bit(0, 1));
        assert!(!half.agreed() && half.has(PairOffer::bit(0, 1)));
        assert!(half.with(PairOffer::bit(1, 0)).agreed());
        // Stored before the team was: the only team with a player in it.
        assert_eq!(
            PairOffer::decode(0b0110).map(PairOffer::offering_team),
            Some(1)
        );
        assert_eq!(PairOffer::team_of_bit(PairOffer::bit(1, 1)), 0);
    }

    #[test]
    fn records_keep_their_text_and_garbage_is_refused() {
        for text in [
            "",
            "e2e4 e7e5",
            "e2e4 d7d5? e7e5",
            "e2e4 +Q P@e5",
            "g2g3 &r1 a4a5 &23",
            "k11h14 h14h14",
        ] {
            let record = MoveRecord::decode(text.to_owned()).expect(text);
            assert_eq!(record.to_string(), text);
            let rebuilt = record.entries().fold(MoveRecord::default(), |mut r, e| {
                r.push(e);
                r
            });
            assert_eq!(rebuilt, record);
        }
        let record = MoveRecord::parse("g2g3 &r1 +n e2e4?").expect("parses");
        assert_eq!(
            record.entries().collect::<Vec<_>>(),
            [
                Entry::Move("g2g3"),
                Entry::Retire(1),
                Entry::Gift('n'),
                Entry::Impossible("e2e4")
            ]
        );
        assert!(record.retired(1) && !record.retired(0));
        for garbage in ["e2e4 +", "+nn", "e2e4 ?", "+1"] {
            assert_eq!(
                MoveRecord::decode(garbage.to_owned()),
                Err(ColumnError::new("moves", garbage))
            );
        }
        let mut record = MoveRecord::parse("a b c").expect("parses");
        record.truncate(1);
        assert_eq!(record, "a");
        record.push(Entry::Exchange(0, 3));
        assert_eq!(record, "a &03");
    }

    #[test]
    fn move_times_round_trip_and_garbage_is_refused() {
        for text in ["", "1:2", "100:59000 200:-", "5:-3"] {
            assert_eq!(
                MoveTimes::decode(text).map(|t| t.to_string()),
                Ok(text.to_owned())
            );
        }
        for garbage in ["1", "a:2", "1:b", "1:2 3"] {
            assert!(MoveTimes::decode(garbage).is_err(), "{garbage}");
        }
    }
}
