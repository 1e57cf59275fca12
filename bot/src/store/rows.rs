//! A game row with its seats, made of typed columns.

use super::columns::{
    decode_flag, decode_index, decode_seat, decode_time_control, Color, ColumnError, DrawOffer,
    EndReason, GameResult, MoveRecord, MoveTimes, SeatSet, Status,
};
use super::StoreError;
use crate::clock::TimeControl;
use crate::time::Millis;
use kodex_engine::{Side, Team};
use sqlx::Row;

/// One seat of a started game (see `migrations/0004_seats.sql`): who sits
/// there, the side they play, their team, and their clock. Seats are in turn
/// order; with two players seat, side and team indexes coincide.
///
/// A seat is its index in the turn order, a `usize`, as the engine counts
/// seats (`Game::seat_to_move`); sides and teams are the engine's types.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SeatRow {
    /// The seat index (0..=3), the turn order.
    pub seat: usize,
    /// The player's user id.
    pub user_id: String,
    /// Their display name.
    pub user_name: String,
    /// The side they play.
    pub side: Side,
    /// Their team.
    pub team: Team,
    /// Their time when the current turn began.
    pub remaining_ms: Option<Millis>,
    /// Their setup so far in a game with a setup phase (the engine's
    /// `Placement::to_text` form); secret until every seat is ready.
    pub setup: Option<String>,
    /// Whether they declared their setup final.
    pub ready: bool,
}

/// One row of the `games` table (see `migrations/0001_games.sql`) with its
/// seats.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct GameRow {
    /// The short id.
    pub id: String,
    /// The platform key.
    pub platform: String,
    /// The chat the game belongs to.
    pub chat_id: String,
    /// The chat it started in, when an adapter has since moved it into a
    /// thread of its own (see `migrations/0003_home_chat.sql`).
    pub home_chat_id: Option<String>,
    /// The variant id.
    pub variant: String,
    /// The fingerprint of the variant's definition the game began under
    /// (see `migrations/0013_variant_fingerprint.sql`); `None` for a row
    /// stored before fingerprints and not yet stamped.
    pub variant_fingerprint: Option<String>,
    /// Where the game is in its life.
    pub status: Status,
    /// Who challenged.
    pub challenger_id: String,
    /// Their display name.
    pub challenger_name: String,
    /// Who was challenged; `None` for an open challenge.
    pub opponent_id: Option<String>,
    /// Their display name.
    pub opponent_name: Option<String>,
    /// The challenger's wished colour.
    pub color: Color,
    /// The players once started, in seat order.
    pub seats: Vec<SeatRow>,
    /// The seats as last read or written, so a save writes seats only when
    /// they changed (most moves of untimed games change none).
    pub(crate) stored_seats: Vec<SeatRow>,
    /// The time control.
    pub time_control: TimeControl,
    /// The start position once started.
    pub start_fen: Option<String>,
    /// The position asked for with `/play … fen:` (see
    /// `migrations/0007_start_position.sql`); `None`: the variant's own.
    pub from_fen: Option<String>,
    /// The record: moves and what else changed the game, in order.
    pub moves: MoveRecord,
    /// When the current turn began.
    pub turn_started_at: Option<i64>,
    /// The next absolute deadline (flag or expiry).
    pub deadline: Option<i64>,
    /// The standing draw offer.
    pub draw_offer: Option<DrawOffer>,
    /// The seat with a standing takeback request.
    pub takeback_offer: Option<usize>,
    /// The seat (turn order) holding a prisoner whose exchange offer stands
    /// (Enochian chess; see `migrations/0012_exchange_offer.sql`).
    pub exchange_offer: Option<usize>,
    /// When the player to move is next reminded of their clock (see
    /// `migrations/0009_reminders.sql`).
    pub reminder_at: Option<i64>,
    /// The seats of a live game already reminded.
    pub reminded: SeatSet,
    /// The seats whose clock gets no increment (an arena player who
    /// berserked).
    pub no_increment: SeatSet,
    /// The result once finished.
    pub result: Option<GameResult>,
    /// Why it ended.
    pub reason: Option<EndReason>,
    /// Created.
    pub created_at: i64,
    /// Last change.
    pub updated_at: i64,
    /// Optimistic concurrency counter.
    pub version: i64,
    /// The other board's game of a game on two linked boards (bughouse; see
    /// `migrations/0011_linked_boards.sql`); `None` for a game of one board.
    pub linked_id: Option<String>,
    /// The board's place in a linked pair: 0 for board A, 1 for board B.
    pub board: usize,
    /// When each move of a linked board was made, with the mover's time
    /// left (empty for other games).
    pub move_times: MoveTimes,
    /// Whether the game changes its players' ratings at its end (see
    /// `migrations/0014_ratings.sql`); set when it is challenged.
    pub rated: bool,
    /// Whether an open challenge is published beyond its chat (`/play …
    /// public`, a `/playnow` seek; see `migrations/0015_lobby.sql`).
    pub public: bool,
    /// The chat it was taken from when that is not its own: the game is
    /// played in both (a public seek or an invitation taken elsewhere).
    pub guest_chat_id: Option<String>,
    /// The one-time code of an invitation (`/invite`), `None` otherwise.
    pub invite_code: Option<String>,
    /// What the save that ended a rated game did to its players' ratings
    /// (never stored; empty otherwise).
    pub(crate) rating_changes: Vec<super::ratings::RatingChange>,
}

/// A value a column of either backend holds (text, integers, floats,
/// the typed text columns, and their `NULL`able forms).
pub(super) trait Stored:
    for<'r> sqlx::Decode<'r, sqlx::Sqlite>
    + sqlx::Type<sqlx::Sqlite>
    + for<'r> sqlx::Decode<'r, sqlx::Postgres>
    + sqlx::Type<sqlx::Postgres>
{
}

impl<T> Stored for T where
    T: for<'r> sqlx::Decode<'r, sqlx::Sqlite>
        + sqlx::Type<sqlx::Sqlite>
        + for<'r> sqlx::Decode<'r, sqlx::Postgres>
        + sqlx::Type<sqlx::Postgres>
{
}

/// A row read from either backend: rows are decoded by one function for
/// both, column by name.
pub(super) trait Fetched {
    /// The value of the column `column`.
    fn get<T: Stored>(&self, column: &str) -> Result<T, sqlx::Error>;
}

impl Fetched for sqlx::sqlite::SqliteRow {
    fn get<T: Stored>(&self, column: &str) -> Result<T, sqlx::Error> {
        self.try_get(column)
    }
}

impl Fetched for sqlx::postgres::PgRow {
    fn get<T: Stored>(&self, column: &str) -> Result<T, sqlx::Error> {
        self.try_get(column)
    }
}

/// A column holding a small non-negative index (seat, board).
fn index_column(row: &impl Fetched, column: &'static str) -> Result<usize, Decoded> {
    let value: i64 = row.get(column)?;
    usize::try_from(value).map_err(|_| Decoded::Column(ColumnError::new(column, value)))
}

/// Why a row was not read: SQLite's error, or a column that does not parse.
pub(super) enum Decoded {
    Sql(sqlx::Error),
    Column(ColumnError),
}

impl From<sqlx::Error> for Decoded {
    fn from(error: sqlx::Error) -> Decoded {
        Decoded::Sql(error)
    }
}

impl From<ColumnError> for Decoded {
    fn from(error: ColumnError) -> Decoded {
        Decoded::Column(error)
    }
}

impl Decoded {
    /// The store's error, naming the game `game`.
    pub(super) fn of_game(self, game: &str) -> StoreError {
        match self {
            Decoded::Sql(error) => StoreError::Database(error),
            Decoded::Column(error) => StoreError::Column {
                game: game.to_owned(),
                error,
            },
        }
    }
}

// Written out rather than derived: sqlx's derive macros would build a second,
// host copy of SQLite with every build.
impl SeatRow {
    /// The seat columns of a row read with [`super::games`]' query.
    pub(super) fn decode(row: &impl Fetched) -> Result<SeatRow, Decoded> {
        Ok(SeatRow {
            seat: index_column(row, "seat")?,
            user_id: row.get("user_id")?,
            user_name: row.get("user_name")?,
            side: Side(decode_index("side", row.get("side")?)?),
            team: Team(decode_index("team", row.get("team")?)?),
            remaining_ms: row.get("remaining_ms")?,
            setup: row.get("setup")?,
            ready: decode_flag("ready", row.get("ready")?)?,
        })
    }
}

impl GameRow {
    /// The game columns of a row read with [`super::games`]' query (its
    /// seats follow), each parsed once.
    pub(super) fn decode(row: &impl Fetched) -> Result<GameRow, Decoded> {
        let linked_id: Option<String> = row.get("linked_id")?;
        let linked = linked_id.is_some();
        Ok(GameRow {
            id: row.get("id")?,
            platform: row.get("platform")?,
            chat_id: row.get("chat_id")?,
            home_chat_id: row.get("home_chat_id")?,
            variant: row.get("variant")?,
            variant_fingerprint: row.get("variant_fingerprint")?,
            status: row.get("status")?,
            challenger_id: row.get("challenger_id")?,
            challenger_name: row.get("challenger_name")?,
            opponent_id: row.get("opponent_id")?,
            opponent_name: row.get("opponent_name")?,
            color: Color::decode(&row.get::<String>("color")?)?,
            seats: Vec::new(),
            stored_seats: Vec::new(),
            time_control: decode_time_control(&row.get::<String>("time_control")?)?,
            start_fen: row.get("start_fen")?,
            from_fen: row.get("from_fen")?,
            moves: MoveRecord::decode(row.get("moves")?)?,
            turn_started_at: row.get("turn_started_at")?,
            deadline: row.get("deadline")?,
            draw_offer: DrawOffer::decode_column(row.get("draw_offer")?, linked)?,
            takeback_offer: decode_seat("takeback_offer", row.get("takeback_offer")?)?,
            exchange_offer: decode_seat("exchange_offer", row.get("exchange_offer")?)?,
            reminder_at: row.get("reminder_at")?,
            reminded: SeatSet::decode("reminded", row.get("reminded")?)?,
            no_increment: SeatSet::decode("no_increment", row.get("no_increment")?)?,
            result: row.get("result")?,
            reason: row.get("reason")?,
            created_at: row.get("created_at")?,
            updated_at: row.get("updated_at")?,
            version: row.get("version")?,
            linked_id,
            board: index_column(row, "board")?,
            move_times: MoveTimes::decode(&row.get::<String>("move_times")?)?,
            rated: decode_flag("rated", row.get("rated")?)?,
            public: decode_flag("public", row.get("public")?)?,
            guest_chat_id: row.get("guest_chat_id")?,
            invite_code: row.get("invite_code")?,
            rating_changes: Vec::new(),
        })
    }

    /// The record's entries as texts (what the engine replays).
    pub fn move_list(&self) -> Vec<&str> {
        self.moves.texts()
    }

    /// The first seat whose player plays side `side`.
    pub fn seat_of_side(&self, side: Side) -> Option<&SeatRow> {
        self.seats.iter().find(|seat| seat.side == side)
    }

    /// The seat `index` (its place in the turn order).
    pub fn seat(&self, index: usize) -> Option<&SeatRow> {
        self.seats.iter().find(|seat| seat.seat == index)
    }

    /// The seat `user` sits in, if any.
    pub fn seat_of(&self, user: &str) -> Option<usize> {
        self.seats
            .iter()
            .find(|seat| seat.user_id == user)
            .map(|seat| seat.seat)
    }

    /// The side `user` plays, if any.
    pub fn side_of(&self, user: &str) -> Option<Side> {
        self.seats
            .iter()
            .find(|seat| seat.user_id == user)
            .map(|seat| seat.side)
    }

    /// The user id of seat `index` (in two-player games seat = side).
    pub fn player_id(&self, index: usize) -> Option<&str> {
        self.seat(index).map(|seat| seat.user_id.as_str())
    }

    /// The name of seat `index`.
    pub fn player_name(&self, index: usize) -> &str {
        self.seat(index).map_or("?", |seat| seat.user_name.as_str())
    }

    /// The names of the seats of `team`, joined ("alice & carol").
    pub fn team_names(&self, team: Team) -> String {
        let names: Vec<&str> = self
            .seats
            .iter()
            .filter(|seat| seat.team == team)
            .map(|seat| seat.user_name.as_str())
            .collect();
        if names.is_empty() {
            "?".to_owned()
        } else {
            names.join(" & ")
        }
    }

    /// The names of the players of the other team than seat `index`'s.
    pub fn opponent_names(&self, index: usize) -> String {
        let mine = self.team_of_seat(index);
        let theirs = self
            .seats
            .iter()
            .map(|seat| seat.team)
            .find(|&team| team != mine)
            .unwrap_or(Team(1 - mine.0.min(1)));
        self.team_names(theirs)
    }

    /// The team of seat `index` (its own index when the row lacks it).
    pub fn team_of_seat(&self, index: usize) -> Team {
        self.seat(index)
            .map_or(Team(index.min(255) as u8), |seat| seat.team)
    }

    /// The time left of seat `index` at the start of the current turn.
    pub fn remaining(&self, index: usize) -> Option<Millis> {
        self.seat(index).and_then(|seat| seat.remaining_ms)
    }

    /// Sets the time left of seat `index` (nothing happens without such a seat).
    pub fn set_remaining(&mut self, index: usize, millis: Option<Millis>) {
        if let Some(seat) = self.seats.iter_mut().find(|seat| seat.seat == index) {
            seat.remaining_ms = millis;
        }
    }

    /// The result in which the team of seat `index` loses (two teams: the
    /// other one wins).
    pub fn loss_of_seat(&self, index: usize) -> GameResult {
        let loser = self.team_of_seat(index);
        let team = self
            .seats
            .iter()
            .map(|seat| seat.team)
            .find(|&team| team != loser)
            .unwrap_or(Team(1 - loser.0.min(1)));
        GameResult::Win { team }
    }
}
