//! SQLite storage (sqlx, WAL): game and challenge rows, language choices.
//!
//! Every write of a game goes through [`Store::save`], which applies only if
//! the row still has the version it was read with: two processes (or two
//! requests that slipped past the in-process lock) cannot both apply a move.

use crate::time::Millis;
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteRow, SqliteSynchronous,
};
use sqlx::{FromRow, Row, SqlSafeStr, SqlitePool};
use std::str::FromStr;
use std::time::Duration;

/// A storage failure (the database is unreachable, full, or corrupt).
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// An error from SQLite.
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    /// The migrations could not be applied.
    #[error("database migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
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

impl sqlx::Type<sqlx::Sqlite> for Status {
    fn type_info() -> sqlx::sqlite::SqliteTypeInfo {
        <str as sqlx::Type<sqlx::Sqlite>>::type_info()
    }
}

impl<'r> sqlx::Decode<'r, sqlx::Sqlite> for Status {
    fn decode(value: sqlx::sqlite::SqliteValueRef<'r>) -> Result<Self, sqlx::error::BoxDynError> {
        Ok(Status::parse(<&str as sqlx::Decode<sqlx::Sqlite>>::decode(
            value,
        )?))
    }
}

/// How a game ended, as stored in `games.result`.
///
/// The stored text stays what rows written before teams hold — the PGN
/// results `1-0` (team 0 wins), `0-1` (team 1 wins), `1/2-1/2`, `*` — and a
/// win of a third or fourth team is stored as `team:N`.
///
/// ```
/// use kodex_bot::store::GameResult;
/// assert_eq!(GameResult::parse("0-1"), GameResult::Win { team: 1 });
/// assert_eq!(GameResult::Win { team: 2 }.to_text(), "team:2");
/// assert_eq!(GameResult::Win { team: 2 }.pgn(), "*");
/// assert_eq!(GameResult::parse("team:0").to_text(), "1-0");
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum GameResult {
    /// The seats of team `team` won.
    Win {
        /// The winning team's index.
        team: usize,
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
            GameResult::Win { team } => match team {
                0 => "1-0".to_owned(),
                1 => "0-1".to_owned(),
                _ => format!("team:{team}"),
            },
            GameResult::Draw => "1/2-1/2".to_owned(),
            GameResult::NoResult => "*".to_owned(),
            GameResult::Unknown(text) => text.clone(),
        }
    }

    /// Reads a stored text; anything else reads as [`GameResult::Unknown`].
    pub fn parse(text: &str) -> GameResult {
        match text {
            "1-0" => GameResult::Win { team: 0 },
            "0-1" => GameResult::Win { team: 1 },
            "1/2-1/2" => GameResult::Draw,
            "*" => GameResult::NoResult,
            other => match other.strip_prefix("team:").map(str::parse::<usize>) {
                Some(Ok(team)) if team < 4 => GameResult::Win { team },
                _ => GameResult::Unknown(other.to_owned()),
            },
        }
    }

    /// The PGN result tag: a win of a third or fourth team has no PGN form.
    pub fn pgn(&self) -> &'static str {
        match self {
            GameResult::Win { team: 0 } => "1-0",
            GameResult::Win { team: 1 } => "0-1",
            GameResult::Draw => "1/2-1/2",
            _ => "*",
        }
    }

    /// The winning team, if any.
    pub fn winner(&self) -> Option<usize> {
        match self {
            GameResult::Win { team } => Some(*team),
            _ => None,
        }
    }
}

impl sqlx::Type<sqlx::Sqlite> for GameResult {
    fn type_info() -> sqlx::sqlite::SqliteTypeInfo {
        <str as sqlx::Type<sqlx::Sqlite>>::type_info()
    }
}

impl<'r> sqlx::Decode<'r, sqlx::Sqlite> for GameResult {
    fn decode(value: sqlx::sqlite::SqliteValueRef<'r>) -> Result<Self, sqlx::error::BoxDynError> {
        Ok(GameResult::parse(
            <&str as sqlx::Decode<sqlx::Sqlite>>::decode(value)?,
        ))
    }
}

/// One seat of a started game (see `migrations/0004_seats.sql`): who sits
/// there, the side they play, their team, and their clock. Seats are in turn
/// order; with two players seat, side and team indexes coincide.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SeatRow {
    /// The seat index (0..=3), the turn order.
    pub seat: usize,
    /// The player's user id.
    pub user_id: String,
    /// Their display name.
    pub user_name: String,
    /// The engine side index they play.
    pub side: usize,
    /// Their team index.
    pub team: usize,
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
    pub color: String,
    /// The players once started, in seat order.
    pub seats: Vec<SeatRow>,
    /// The seats as last read or written, so a save writes seats only when
    /// they changed (most moves of untimed games change none).
    pub(crate) stored_seats: Vec<SeatRow>,
    /// The time control code.
    pub time_control: String,
    /// The start position once started.
    pub start_fen: Option<String>,
    /// The position asked for with `/play … fen:` (see
    /// `migrations/0007_start_position.sql`); `None`: the variant's own.
    pub from_fen: Option<String>,
    /// UCI moves separated by spaces.
    pub moves: String,
    /// When the current turn began.
    pub turn_started_at: Option<i64>,
    /// The next absolute deadline (flag or expiry).
    pub deadline: Option<i64>,
    /// The side with a standing draw offer.
    pub draw_offer: Option<i64>,
    /// The side with a standing takeback request.
    pub takeback_offer: Option<i64>,
    /// The seat (turn order) holding a prisoner whose exchange offer stands
    /// (Enochian chess; see `migrations/0012_exchange_offer.sql`).
    pub exchange_offer: Option<i64>,
    /// When the player to move is next reminded of their clock (see
    /// `migrations/0009_reminders.sql`).
    pub reminder_at: Option<i64>,
    /// The seats of a live game already reminded, one bit per seat.
    pub reminded: i64,
    /// The result once finished.
    pub result: Option<GameResult>,
    /// Why it ended (an i18n key suffix).
    pub reason: Option<String>,
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
    /// Per move of a linked board, `<when>:<time left>` in milliseconds,
    /// separated by spaces (empty for other games).
    pub move_times: String,
}

/// A column holding a small non-negative index (seat, side, team).
fn index_column(row: &SqliteRow, column: &str) -> Result<usize, sqlx::Error> {
    let value: i64 = row.try_get(column)?;
    usize::try_from(value).map_err(|e| sqlx::Error::ColumnDecode {
        index: column.to_owned(),
        source: Box::new(e),
    })
}

// Written out rather than derived: sqlx's derive macros would build a second,
// host copy of SQLite with every build.
impl<'r> FromRow<'r, SqliteRow> for SeatRow {
    fn from_row(row: &'r SqliteRow) -> Result<SeatRow, sqlx::Error> {
        Ok(SeatRow {
            seat: index_column(row, "seat")?,
            user_id: row.try_get("user_id")?,
            user_name: row.try_get("user_name")?,
            side: index_column(row, "side")?,
            team: index_column(row, "team")?,
            remaining_ms: row.try_get("remaining_ms")?,
            setup: row.try_get("setup")?,
            ready: row.try_get("ready")?,
        })
    }
}

impl<'r> FromRow<'r, SqliteRow> for GameRow {
    fn from_row(row: &'r SqliteRow) -> Result<GameRow, sqlx::Error> {
        Ok(GameRow {
            id: row.try_get("id")?,
            platform: row.try_get("platform")?,
            chat_id: row.try_get("chat_id")?,
            home_chat_id: row.try_get("home_chat_id")?,
            variant: row.try_get("variant")?,
            variant_fingerprint: row.try_get("variant_fingerprint")?,
            status: row.try_get("status")?,
            challenger_id: row.try_get("challenger_id")?,
            challenger_name: row.try_get("challenger_name")?,
            opponent_id: row.try_get("opponent_id")?,
            opponent_name: row.try_get("opponent_name")?,
            color: row.try_get("color")?,
            seats: Vec::new(),
            stored_seats: Vec::new(),
            time_control: row.try_get("time_control")?,
            start_fen: row.try_get("start_fen")?,
            from_fen: row.try_get("from_fen")?,
            moves: row.try_get("moves")?,
            turn_started_at: row.try_get("turn_started_at")?,
            deadline: row.try_get("deadline")?,
            draw_offer: row.try_get("draw_offer")?,
            takeback_offer: row.try_get("takeback_offer")?,
            exchange_offer: row.try_get("exchange_offer")?,
            reminder_at: row.try_get("reminder_at")?,
            reminded: row.try_get("reminded")?,
            result: row.try_get("result")?,
            reason: row.try_get("reason")?,
            created_at: row.try_get("created_at")?,
            updated_at: row.try_get("updated_at")?,
            version: row.try_get("version")?,
            linked_id: row.try_get("linked_id")?,
            board: index_column(row, "board")?,
            move_times: row.try_get("move_times")?,
        })
    }
}

impl GameRow {
    /// The moves as a list.
    pub fn move_list(&self) -> Vec<&str> {
        self.moves.split_whitespace().collect()
    }

    /// The first seat whose player plays side `side`.
    pub fn seat_of_side(&self, side: usize) -> Option<&SeatRow> {
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

    /// The side index `user` plays, if any.
    pub fn side_of(&self, user: &str) -> Option<usize> {
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
    pub fn team_names(&self, team: usize) -> String {
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
            .unwrap_or(1 - mine.min(1));
        self.team_names(theirs)
    }

    /// The team of seat `index` (its own index when the row lacks it).
    pub fn team_of_seat(&self, index: usize) -> usize {
        self.seat(index).map_or(index, |seat| seat.team)
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

    /// The result in which the team of side `side` wins.
    pub fn win_of_side(&self, side: usize) -> GameResult {
        // Every started game has a seat per side; the fallback only keeps a
        // damaged row from panicking.
        let team = self.seat_of_side(side).map_or(side, |seat| seat.team);
        GameResult::Win { team }
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
            .unwrap_or(1 - loser.min(1));
        GameResult::Win { team }
    }
}

/// Who watches a game (see `migrations/0008_watchers.sql`).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Watcher {
    /// Everyone in a chat, by chat id.
    Chat(String),
    /// One person privately, by user id.
    User(String),
}

impl Watcher {
    /// The stored kind.
    fn kind(&self) -> &'static str {
        match self {
            Watcher::Chat(_) => "chat",
            Watcher::User(_) => "user",
        }
    }

    /// The chat or user id.
    pub fn id(&self) -> &str {
        match self {
            Watcher::Chat(id) | Watcher::User(id) => id,
        }
    }

    /// The watcher stored as `kind` and `id`; `None` for a kind this
    /// version does not know.
    fn from_parts(kind: &str, id: String) -> Option<Watcher> {
        match kind {
            "chat" => Some(Watcher::Chat(id)),
            "user" => Some(Watcher::User(id)),
            _ => None,
        }
    }
}

/// Whose language choice.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum LangOwner {
    /// A user's (`/lang ru`).
    User,
    /// A chat's (`/lang chat ru`).
    Chat,
}

impl LangOwner {
    /// The queries reading and storing this owner's choice.
    fn queries(self) -> (&'static str, &'static str) {
        match self {
            LangOwner::User => (
                "SELECT lang FROM user_langs WHERE platform = ? AND user_id = ?",
                "INSERT INTO user_langs (platform, user_id, lang) VALUES (?, ?, ?) \
                 ON CONFLICT (platform, user_id) DO UPDATE SET lang = excluded.lang",
            ),
            LangOwner::Chat => (
                "SELECT lang FROM chat_langs WHERE platform = ? AND chat_id = ?",
                "INSERT INTO chat_langs (platform, chat_id, lang) VALUES (?, ?, ?) \
                 ON CONFLICT (platform, chat_id) DO UPDATE SET lang = excluded.lang",
            ),
        }
    }
}

/// The database.
#[derive(Clone, Debug)]
pub struct Store {
    /// Connections that read.
    pool: SqlitePool,
    /// The one connection that writes. SQLite takes one writer at a time:
    /// writers queue here, without SQLite's busy handler, whose sleeps of
    /// milliseconds made the slowest moves many times slower than the rest.
    writer: SqlitePool,
}

/// The game columns read, each prefixed with the `games` alias `g`.
const COLUMNS: &str =
    "g.id, g.platform, g.chat_id, g.home_chat_id, g.variant, g.status, g.challenger_id, \
    g.challenger_name, g.opponent_id, g.opponent_name, g.color, g.time_control, g.start_fen, \
    g.moves, g.turn_started_at, g.deadline, g.draw_offer, g.takeback_offer, g.result, g.reason, \
    g.created_at, g.updated_at, g.version, g.from_fen, g.reminder_at, g.reminded, g.linked_id, g.board, g.move_times, g.exchange_offer, \
    g.variant_fingerprint";

/// The seat columns read with a game (`NULL` for a game without seats); no
/// name clashes with a game column.
const SEAT_COLUMNS: &str =
    "s.seat, s.user_id, s.user_name, s.side, s.team, s.remaining_ms, s.setup, s.ready";

/// The columns a game changes over its life, in the order [`bind_mutable`] binds them.
const MUTABLE: [&str; 20] = [
    "chat_id",
    "home_chat_id",
    "status",
    "opponent_id",
    "opponent_name",
    "start_fen",
    "moves",
    "turn_started_at",
    "deadline",
    "draw_offer",
    "takeback_offer",
    "result",
    "reason",
    "updated_at",
    "reminder_at",
    "reminded",
    "linked_id",
    "board",
    "move_times",
    "exchange_offer",
];

type Query<'q> = sqlx::query::Query<'q, sqlx::Sqlite, sqlx::sqlite::SqliteArguments>;

/// Binds `row`'s values of the [`MUTABLE`] columns, in order.
fn bind_mutable<'q>(query: Query<'q>, row: &GameRow) -> Query<'q> {
    query
        .bind(row.chat_id.clone())
        .bind(row.home_chat_id.clone())
        .bind(row.status.as_str().to_owned())
        .bind(row.opponent_id.clone())
        .bind(row.opponent_name.clone())
        .bind(row.start_fen.clone())
        .bind(row.moves.clone())
        .bind(row.turn_started_at)
        .bind(row.deadline)
        .bind(row.draw_offer)
        .bind(row.takeback_offer)
        .bind(row.result.as_ref().map(GameResult::to_text))
        .bind(row.reason.clone())
        .bind(row.updated_at)
        .bind(row.reminder_at)
        .bind(row.reminded)
        .bind(row.linked_id.clone())
        .bind(row.board as i64)
        .bind(row.move_times.clone())
        .bind(row.exchange_offer)
}

/// The games `platform`, `user` plays, in `chat` or (NULL) any: found through
/// the user's seats (`+g.platform` keeps SQLite from reading every game of the
/// platform instead).
const ACTIVE_GAMES_OF: &str = "+g.platform = ? AND g.status = 'active' \
     AND g.id IN (SELECT game_id FROM seats WHERE platform = ? AND user_id = ?) \
     AND (? IS NULL OR g.chat_id = ?)";

/// The open games (challenges, setups, games in play) of `user` on `platform`,
/// bound as platform, user three times then platform: found through the
/// user's seats and the two challenge indexes of migration 0006.
const OPEN_GAMES_OF: &str =
    "g.id IN (SELECT game_id FROM seats WHERE platform = ? AND user_id = ? \
     UNION SELECT id FROM games WHERE platform = ? AND status = 'challenge' \
       AND challenger_id = ? \
     UNION SELECT id FROM games WHERE platform = ? AND status = 'challenge' \
       AND opponent_id = ?) \
     AND +g.platform = ? AND g.status IN ('challenge', 'setup', 'active')";

/// Reads games with their seats: `filter` selects games (alias `g`), `order`
/// sorts them. One query, so a game and its seats are read from one snapshot.
fn games_query(filter: &str, order: &str) -> String {
    format!(
        "SELECT {COLUMNS}, {SEAT_COLUMNS} FROM games g \
         LEFT JOIN seats s ON s.platform = g.platform AND s.game_id = g.id \
         WHERE {filter} ORDER BY {order}, s.seat"
    )
}

/// Folds the rows of a [`games_query`] (one per seat, games in order) into games.
fn fold_games(rows: &[sqlx::sqlite::SqliteRow]) -> Result<Vec<GameRow>, sqlx::Error> {
    let mut games: Vec<GameRow> = Vec::new();
    for row in rows {
        let id: &str = row.try_get("id")?;
        let same_game = games.last().is_some_and(|game| game.id == id);
        if !same_game {
            games.push(GameRow::from_row(row)?);
        }
        if row.try_get::<Option<i64>, _>("seat")?.is_some() {
            let seat = SeatRow::from_row(row)?;
            if let Some(game) = games.last_mut() {
                game.stored_seats.push(seat.clone());
                game.seats.push(seat);
            }
        }
    }
    Ok(games)
}

/// Writes `row`'s seats in the transaction `tx`: every seat in the row is
/// stored, every other seat of the game removed.
async fn write_seats(
    tx: &mut sqlx::Transaction<'_, sqlx::Sqlite>,
    row: &GameRow,
) -> Result<(), sqlx::Error> {
    let removed = row
        .stored_seats
        .iter()
        .any(|stored| !row.seats.iter().any(|seat| seat.seat == stored.seat));
    if !row.seats.is_empty() {
        let sql = format!(
            "INSERT INTO seats (platform, game_id, seat, user_id, user_name, side, team, \
             remaining_ms, setup, ready) VALUES {} ON CONFLICT (platform, game_id, seat) DO \
             UPDATE SET user_id = excluded.user_id, user_name = excluded.user_name, \
             side = excluded.side, team = excluded.team, remaining_ms = excluded.remaining_ms, \
             setup = excluded.setup, ready = excluded.ready",
            vec!["(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"; row.seats.len()].join(", "),
        );
        let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
        for seat in &row.seats {
            query = query
                .bind(row.platform.clone())
                .bind(row.id.clone())
                .bind(seat.seat as i64)
                .bind(seat.user_id.clone())
                .bind(seat.user_name.clone())
                .bind(seat.side as i64)
                .bind(seat.team as i64)
                .bind(seat.remaining_ms)
                .bind(seat.setup.clone())
                .bind(seat.ready);
        }
        query.execute(&mut **tx).await?;
    }
    if !removed && !row.stored_seats.is_empty() {
        // Only seats read with the row can be gone; none is.
        return Ok(());
    }
    let kept = if row.seats.is_empty() {
        String::new()
    } else {
        format!(
            " AND seat NOT IN ({})",
            vec!["?"; row.seats.len()].join(", ")
        )
    };
    let sql = format!("DELETE FROM seats WHERE platform = ? AND game_id = ?{kept}");
    let mut query = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(row.platform.clone())
        .bind(row.id.clone());
    for seat in &row.seats {
        query = query.bind(seat.seat as i64);
    }
    query.execute(&mut **tx).await?;
    Ok(())
}

/// The migrations in `migrations/`, embedded: `(version, description, SQL)`.
/// Listed by hand rather than by `sqlx::migrate!`, whose macros would build
/// a second, host copy of SQLite with every build; a test checks the list
/// against the folder.
const MIGRATIONS: [(i64, &str, &str); 13] = [
    (1, "games", include_str!("../../migrations/0001_games.sql")),
    (
        2,
        "adapter memory",
        include_str!("../../migrations/0002_adapter_memory.sql"),
    ),
    (
        3,
        "home chat",
        include_str!("../../migrations/0003_home_chat.sql"),
    ),
    (4, "seats", include_str!("../../migrations/0004_seats.sql")),
    (5, "setup", include_str!("../../migrations/0005_setup.sql")),
    (
        6,
        "open game lookups",
        include_str!("../../migrations/0006_open_game_lookups.sql"),
    ),
    (
        7,
        "start position",
        include_str!("../../migrations/0007_start_position.sql"),
    ),
    (
        8,
        "watchers",
        include_str!("../../migrations/0008_watchers.sql"),
    ),
    (
        9,
        "reminders",
        include_str!("../../migrations/0009_reminders.sql"),
    ),
    (
        10,
        "notation",
        include_str!("../../migrations/0010_notation.sql"),
    ),
    (
        11,
        "linked boards",
        include_str!("../../migrations/0011_linked_boards.sql"),
    ),
    (
        12,
        "exchange offer",
        include_str!("../../migrations/0012_exchange_offer.sql"),
    ),
    (
        13,
        "variant fingerprint",
        include_str!("../../migrations/0013_variant_fingerprint.sql"),
    ),
];

/// The migrator of [`MIGRATIONS`].
fn migrator() -> sqlx::migrate::Migrator {
    sqlx::migrate::Migrator::with_migrations(
        MIGRATIONS
            .iter()
            .map(|&(version, description, sql)| {
                sqlx::migrate::Migration::new(
                    version,
                    description.into(),
                    sqlx::migrate::MigrationType::Simple,
                    sql.into_sql_str(),
                    false,
                )
            })
            .collect(),
    )
}

impl Store {
    /// Opens (creating if missing) the database at `url` in WAL mode and
    /// applies the migrations.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        let options = SqliteConnectOptions::from_str(url)?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            // WAL + NORMAL survives a process kill (only an OS crash may lose
            // the last commits).
            .synchronous(SqliteSynchronous::Normal)
            .busy_timeout(Duration::from_secs(10))
            .foreign_keys(true);
        let writer = SqlitePoolOptions::new()
            .max_connections(1)
            .connect_with(options.clone())
            .await?;
        migrator().run(&writer).await?;
        // An in-memory database exists once per connection: it is read where it is written.
        let pool = if url.contains(":memory:") || url.contains("mode=memory") {
            writer.clone()
        } else {
            SqlitePoolOptions::new()
                .max_connections(4)
                .connect_with(options)
                .await?
        };
        Ok(Store { pool, writer })
    }

    /// Closes the connections, waiting for queries in progress: the last
    /// writes reach the database file (and its WAL is checkpointed) before
    /// the process ends. Later queries fail.
    pub async fn close(&self) {
        self.pool.close().await;
        self.writer.close().await;
    }

    /// Inserts a new row with its seats; false when the id is taken.
    pub async fn insert(&self, row: &GameRow) -> Result<bool, StoreError> {
        let sql = format!(
            "INSERT OR IGNORE INTO games (id, platform, variant, challenger_id, challenger_name, \
             color, time_control, created_at, version, from_fen, variant_fingerprint, {}) \
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?{})",
            MUTABLE.join(", "),
            ", ?".repeat(MUTABLE.len()),
        );
        let query = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(row.id.clone())
            .bind(row.platform.clone())
            .bind(row.variant.clone())
            .bind(row.challenger_id.clone())
            .bind(row.challenger_name.clone())
            .bind(row.color.clone())
            .bind(row.time_control.clone())
            .bind(row.created_at)
            .bind(row.version)
            .bind(row.from_fen.clone())
            .bind(row.variant_fingerprint.clone());
        let mut tx = self.writer.begin().await?;
        let result = bind_mutable(query, row).execute(&mut *tx).await?;
        if result.rows_affected() != 1 {
            return Ok(false);
        }
        write_seats(&mut tx, row).await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Writes every mutable column and the seats of `row` in one transaction
    /// if the stored version is still `row.version`, and bumps the version.
    /// False when someone else wrote first.
    pub async fn save(&self, row: &mut GameRow) -> Result<bool, StoreError> {
        let sql = format!(
            "UPDATE games SET {} = ?, version = version + 1 WHERE id = ? AND version = ?",
            MUTABLE.join(" = ?, "),
        );
        let update = bind_mutable(sqlx::query(sqlx::AssertSqlSafe(sql)), row)
            .bind(row.id.clone())
            .bind(row.version);
        if row.seats == row.stored_seats {
            // Nothing but the game row changed: one statement, no transaction.
            if update.execute(&self.writer).await?.rows_affected() != 1 {
                return Ok(false);
            }
        } else {
            let mut tx = self.writer.begin().await?;
            if update.execute(&mut *tx).await?.rows_affected() != 1 {
                // Dropping the transaction rolls it back.
                return Ok(false);
            }
            write_seats(&mut tx, row).await?;
            tx.commit().await?;
            row.stored_seats = row.seats.clone();
        }
        row.version += 1;
        Ok(true)
    }

    /// Games read by a [`games_query`] with `binds` bound in order.
    async fn games(
        &self,
        filter: &str,
        order: &str,
        binds: &[Option<&str>],
    ) -> Result<Vec<GameRow>, StoreError> {
        let sql = games_query(filter, order);
        let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
        for value in binds {
            query = query.bind(value.map(str::to_owned));
        }
        let rows = query.fetch_all(&self.pool).await?;
        Ok(fold_games(&rows)?)
    }

    /// A game by id (case-insensitive, `#` allowed) on `platform`.
    pub async fn get(&self, platform: &str, id: &str) -> Result<Option<GameRow>, StoreError> {
        let id = id.trim().trim_start_matches('#').to_lowercase();
        let games = self
            .games(
                "g.id = ? AND g.platform = ?",
                "g.id",
                &[Some(id.as_str()), Some(platform)],
            )
            .await?;
        Ok(games.into_iter().next())
    }

    /// Stamps every game of `variant` stored without a fingerprint (before
    /// fingerprints existed) with `fingerprint`, the definition's in force
    /// now; returns how many. See `migrations/0013_variant_fingerprint.sql`.
    pub async fn stamp_fingerprints(
        &self,
        variant: &str,
        fingerprint: &str,
    ) -> Result<u64, StoreError> {
        let done = sqlx::query(
            "UPDATE games SET variant_fingerprint = ? \
             WHERE variant = ? AND variant_fingerprint IS NULL",
        )
        .bind(fingerprint.to_owned())
        .bind(variant.to_owned())
        .execute(&self.writer)
        .await?;
        Ok(done.rows_affected())
    }

    /// The games on `platform` whose id is `prefix` or starts with it, by
    /// id, at most `limit` (what a short form of an id may name; the
    /// caller decides which of them it may name). `prefix` is lower case.
    pub async fn games_with_id_prefix(
        &self,
        platform: &str,
        prefix: &str,
        limit: usize,
    ) -> Result<Vec<GameRow>, StoreError> {
        // Ids are lower-case letters and digits, all below `~`: the range
        // reads the primary key's index, not the table.
        let end = format!("{prefix}~");
        let filter = format!(
            "g.id IN (SELECT id FROM games WHERE id >= ? AND id < ? AND platform = ? \
             ORDER BY id LIMIT {})",
            limit.max(1)
        );
        self.games(
            &filter,
            "g.id",
            &[Some(prefix), Some(end.as_str()), Some(platform)],
        )
        .await
    }

    /// The ids of the games `user` or `chat` (on `platform`) watches.
    pub async fn watched_games(
        &self,
        platform: &str,
        user: &str,
        chat: &str,
    ) -> Result<Vec<String>, StoreError> {
        Ok(sqlx::query_scalar::<_, String>(
            "SELECT game_id FROM watchers WHERE platform = ? \
             AND ((kind = 'user' AND target_id = ?) OR (kind = 'chat' AND target_id = ?))",
        )
        .bind(platform.to_owned())
        .bind(user.to_owned())
        .bind(chat.to_owned())
        .fetch_all(&self.pool)
        .await?)
    }

    /// Active games `user` plays on `platform`, in `chat` when given, oldest first.
    pub async fn active_games_of(
        &self,
        platform: &str,
        user: &str,
        chat: Option<&str>,
    ) -> Result<Vec<GameRow>, StoreError> {
        self.games(
            ACTIVE_GAMES_OF,
            "g.created_at, g.id",
            &[Some(platform), Some(platform), Some(user), chat, chat],
        )
        .await
    }

    /// Pending challenges in `chat`, oldest first.
    pub async fn challenges_in(
        &self,
        platform: &str,
        chat: &str,
    ) -> Result<Vec<GameRow>, StoreError> {
        self.games(
            "g.platform = ? AND g.chat_id = ? AND g.status = 'challenge'",
            "g.created_at, g.id",
            &[Some(platform), Some(chat)],
        )
        .await
    }

    /// `user`'s latest final setup in `variant` on `platform`, other than in
    /// game `except`: the setup text and the side it was placed for.
    pub async fn last_setup(
        &self,
        platform: &str,
        user: &str,
        variant: &str,
        except: &str,
    ) -> Result<Option<(String, usize)>, StoreError> {
        let found = sqlx::query_as::<_, (String, i64)>(
            "SELECT s.setup, s.side FROM seats s JOIN games g \
             ON g.platform = s.platform AND g.id = s.game_id \
             WHERE s.platform = ? AND s.user_id = ? AND g.variant = ? AND g.id <> ? \
             AND s.ready = 1 AND s.setup IS NOT NULL \
             AND g.status IN ('setup', 'active', 'finished') \
             ORDER BY g.updated_at DESC, g.id LIMIT 1",
        )
        .bind(platform.to_owned())
        .bind(user.to_owned())
        .bind(variant.to_owned())
        .bind(except.to_owned())
        .fetch_optional(&self.pool)
        .await?;
        Ok(found.map(|(text, side)| (text, side.max(0) as usize)))
    }

    /// Every active game of `variant` on every platform, oldest first (for
    /// what a restart looks at in games of four).
    pub async fn active_games_of_variant(&self, variant: &str) -> Result<Vec<GameRow>, StoreError> {
        self.games(
            "g.status = 'active' AND g.variant = ?",
            "g.created_at, g.id",
            &[Some(variant)],
        )
        .await
    }

    /// Challenges and active games involving `user` on `platform`, oldest first.
    pub async fn open_games_of(
        &self,
        platform: &str,
        user: &str,
    ) -> Result<Vec<GameRow>, StoreError> {
        self.games(
            OPEN_GAMES_OF,
            "g.created_at, g.id",
            &[
                Some(platform),
                Some(user),
                Some(platform),
                Some(user),
                Some(platform),
                Some(user),
                Some(platform),
            ],
        )
        .await
    }

    /// The most recently started game in `chat` (active or ended), for `/pgn` without an id.
    pub async fn latest_game_in(
        &self,
        platform: &str,
        chat: &str,
    ) -> Result<Option<GameRow>, StoreError> {
        let games = self
            .games(
                "g.id = (SELECT id FROM games WHERE platform = ? AND chat_id = ? \
                 AND start_fen IS NOT NULL ORDER BY updated_at DESC, id LIMIT 1)",
                "g.id",
                &[Some(platform), Some(chat)],
            )
            .await?;
        Ok(games.into_iter().next())
    }

    /// The game `user` played (or plays) last in `chat` — or in a thread
    /// of its own that started in `chat` — for `/rematch` without an id.
    pub async fn latest_game_of(
        &self,
        platform: &str,
        chat: &str,
        user: &str,
    ) -> Result<Option<GameRow>, StoreError> {
        let games = self
            .games(
                "g.id = (SELECT g2.id FROM games g2 JOIN seats s \
                 ON s.platform = g2.platform AND s.game_id = g2.id \
                 WHERE s.platform = ? AND s.user_id = ? \
                 AND (g2.chat_id = ? OR g2.home_chat_id = ?) AND g2.start_fen IS NOT NULL \
                 ORDER BY g2.updated_at DESC, g2.id LIMIT 1)",
                "g.id",
                &[Some(platform), Some(user), Some(chat), Some(chat)],
            )
            .await?;
        Ok(games.into_iter().next())
    }

    /// Ids of rows whose deadline or reminder is at or before `now`, the
    /// earliest first: of two flags that fell before one look (bughouse's
    /// two boards), the first to fall decides.
    pub async fn due(&self, now: Millis) -> Result<Vec<(String, String)>, StoreError> {
        Ok(sqlx::query_as::<_, (String, String)>(
            "SELECT platform, id FROM ( \
               SELECT platform, id, deadline AS moment FROM games \
               WHERE deadline IS NOT NULL AND deadline <= ? \
               UNION ALL SELECT platform, id, reminder_at FROM games \
               WHERE reminder_at IS NOT NULL AND reminder_at <= ?) \
             GROUP BY platform, id ORDER BY MIN(moment), platform, id",
        )
        .bind(now)
        .bind(now)
        .fetch_all(&self.pool)
        .await?)
    }

    /// The earliest pending deadline or reminder.
    pub async fn next_deadline(&self) -> Result<Option<Millis>, StoreError> {
        Ok(sqlx::query_scalar::<_, Option<i64>>(
            "SELECT MIN(moment) FROM (SELECT MIN(deadline) AS moment FROM games \
             UNION ALL SELECT MIN(reminder_at) FROM games)",
        )
        .fetch_one(&self.pool)
        .await?)
    }

    /// Adds `watcher` to game `game`'s spectators; false if it was one already.
    pub async fn add_watcher(
        &self,
        platform: &str,
        game: &str,
        watcher: &Watcher,
        now: Millis,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "INSERT OR IGNORE INTO watchers (platform, game_id, kind, target_id, created_at) \
             VALUES (?, ?, ?, ?, ?)",
        )
        .bind(platform.to_owned())
        .bind(game.to_owned())
        .bind(watcher.kind().to_owned())
        .bind(watcher.id().to_owned())
        .bind(now)
        .execute(&self.writer)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Removes `watcher` from game `game`'s spectators; false if it was none.
    pub async fn remove_watcher(
        &self,
        platform: &str,
        game: &str,
        watcher: &Watcher,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "DELETE FROM watchers WHERE platform = ? AND game_id = ? AND kind = ? \
             AND target_id = ?",
        )
        .bind(platform.to_owned())
        .bind(game.to_owned())
        .bind(watcher.kind().to_owned())
        .bind(watcher.id().to_owned())
        .execute(&self.writer)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Game `game`'s spectators, oldest first.
    pub async fn watchers_of(
        &self,
        platform: &str,
        game: &str,
    ) -> Result<Vec<Watcher>, StoreError> {
        let rows = sqlx::query_as::<_, (String, String)>(
            "SELECT kind, target_id FROM watchers WHERE platform = ? AND game_id = ? \
             ORDER BY created_at, kind, target_id",
        )
        .bind(platform.to_owned())
        .bind(game.to_owned())
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .into_iter()
            .filter_map(|(kind, id)| Watcher::from_parts(&kind, id))
            .collect())
    }

    /// How many games not yet over `watcher` watches (a game that ended
    /// without a last message to its spectators, an expired challenge,
    /// counts no more).
    pub async fn watched_by(&self, platform: &str, watcher: &Watcher) -> Result<usize, StoreError> {
        let count = sqlx::query_scalar::<_, i64>(
            "SELECT COUNT(*) FROM watchers w JOIN games g \
             ON g.platform = w.platform AND g.id = w.game_id \
             WHERE w.platform = ? AND w.kind = ? AND w.target_id = ? \
             AND g.status IN ('challenge', 'setup', 'active')",
        )
        .bind(platform.to_owned())
        .bind(watcher.kind().to_owned())
        .bind(watcher.id().to_owned())
        .fetch_one(&self.pool)
        .await?;
        Ok(usize::try_from(count).unwrap_or(0))
    }

    /// Forgets every spectator of game `game` (it ended).
    pub async fn forget_watchers(&self, platform: &str, game: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM watchers WHERE platform = ? AND game_id = ?")
            .bind(platform.to_owned())
            .bind(game.to_owned())
            .execute(&self.writer)
            .await?;
        Ok(())
    }

    /// How `user` chose to read moves (`/notation`), if they chose.
    pub async fn notation(&self, platform: &str, user: &str) -> Result<Option<String>, StoreError> {
        Ok(sqlx::query_scalar::<_, String>(
            "SELECT notation FROM user_notations WHERE platform = ? AND user_id = ?",
        )
        .bind(platform.to_owned())
        .bind(user.to_owned())
        .fetch_optional(&self.pool)
        .await?)
    }

    /// Stores `user`'s notation choice; `None` forgets it (by their language).
    pub async fn set_notation(
        &self,
        platform: &str,
        user: &str,
        notation: Option<&str>,
    ) -> Result<(), StoreError> {
        let query = match notation {
            Some(notation) => sqlx::query(
                "INSERT INTO user_notations (platform, user_id, notation) VALUES (?, ?, ?) \
                 ON CONFLICT (platform, user_id) DO UPDATE SET notation = excluded.notation",
            )
            .bind(platform.to_owned())
            .bind(user.to_owned())
            .bind(notation.to_owned()),
            None => sqlx::query("DELETE FROM user_notations WHERE platform = ? AND user_id = ?")
                .bind(platform.to_owned())
                .bind(user.to_owned()),
        };
        query.execute(&self.writer).await?;
        Ok(())
    }

    /// The language code `owner` `id` chose with `/lang`, if any.
    pub async fn lang(
        &self,
        owner: LangOwner,
        platform: &str,
        id: &str,
    ) -> Result<Option<String>, StoreError> {
        Ok(sqlx::query_scalar::<_, String>(owner.queries().0)
            .bind(platform.to_owned())
            .bind(id.to_owned())
            .fetch_optional(&self.pool)
            .await?)
    }

    /// Stores the language `owner` `id` chose.
    pub async fn set_lang(
        &self,
        owner: LangOwner,
        platform: &str,
        id: &str,
        lang: &str,
    ) -> Result<(), StoreError> {
        sqlx::query(owner.queries().1)
            .bind(platform.to_owned())
            .bind(id.to_owned())
            .bind(lang.to_owned())
            .execute(&self.writer)
            .await?;
        Ok(())
    }

    /// Stores (or replaces) an adapter's record `kind`/`key` on `platform`.
    pub async fn remember(
        &self,
        platform: &str,
        kind: &str,
        key: &str,
        value: &str,
        now: Millis,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO adapter_memory (platform, kind, key, value, updated_at) \
             VALUES (?, ?, ?, ?, ?) ON CONFLICT (platform, kind, key) \
             DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
        )
        .bind(platform.to_owned())
        .bind(kind.to_owned())
        .bind(key.to_owned())
        .bind(value.to_owned())
        .bind(now)
        .execute(&self.writer)
        .await?;
        Ok(())
    }

    /// An adapter's record, if stored.
    pub async fn recall(
        &self,
        platform: &str,
        kind: &str,
        key: &str,
    ) -> Result<Option<String>, StoreError> {
        Ok(sqlx::query_scalar::<_, String>(
            "SELECT value FROM adapter_memory WHERE platform = ? AND kind = ? AND key = ?",
        )
        .bind(platform.to_owned())
        .bind(kind.to_owned())
        .bind(key.to_owned())
        .fetch_optional(&self.pool)
        .await?)
    }

    /// Every record of `kind` on `platform` as `(key, value)`, oldest first
    /// (an adapter loads its memory at start).
    pub async fn recall_all(
        &self,
        platform: &str,
        kind: &str,
    ) -> Result<Vec<(String, String)>, StoreError> {
        Ok(sqlx::query_as::<_, (String, String)>(
            "SELECT key, value FROM adapter_memory WHERE platform = ? AND kind = ? \
             ORDER BY updated_at, key",
        )
        .bind(platform.to_owned())
        .bind(kind.to_owned())
        .fetch_all(&self.pool)
        .await?)
    }

    /// Forgets one record (nothing happens when it is not stored).
    pub async fn forget(&self, platform: &str, kind: &str, key: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM adapter_memory WHERE platform = ? AND kind = ? AND key = ?")
            .bind(platform.to_owned())
            .bind(kind.to_owned())
            .bind(key.to_owned())
            .execute(&self.writer)
            .await?;
        Ok(())
    }

    /// Forgets the records of `kind` last written before `cutoff`; returns how many.
    pub async fn forget_older(
        &self,
        platform: &str,
        kind: &str,
        cutoff: Millis,
    ) -> Result<u64, StoreError> {
        let result = sqlx::query(
            "DELETE FROM adapter_memory WHERE platform = ? AND kind = ? AND updated_at < ?",
        )
        .bind(platform.to_owned())
        .bind(kind.to_owned())
        .bind(cutoff)
        .execute(&self.writer)
        .await?;
        Ok(result.rows_affected())
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    #[tokio::test]
    async fn the_embedded_migrations_are_the_folder_s() {
        let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../migrations");
        let read = sqlx::migrate::Migrator::new(folder).await.expect("folder");
        let embedded = migrator();
        let summary = |m: &sqlx::migrate::Migrator| -> Vec<(i64, String, Vec<u8>)> {
            m.iter()
                .map(|m| (m.version, m.description.to_string(), m.checksum.to_vec()))
                .collect()
        };
        assert_eq!(summary(&embedded), summary(&read));
    }

    #[tokio::test]
    async fn a_users_games_are_found_from_the_user_not_by_reading_every_game() {
        let store = Store::open(&temp_url("plans")).await.expect("open");
        for (filter, binds) in [(ACTIVE_GAMES_OF, 5), (OPEN_GAMES_OF, 7)] {
            let sql = format!(
                "EXPLAIN QUERY PLAN {}",
                games_query(filter, "g.created_at, g.id")
            );
            let mut query = sqlx::query_as::<_, (i64, i64, i64, String)>(sqlx::AssertSqlSafe(sql));
            for _ in 0..binds {
                query = query.bind("x");
            }
            let plan = query.fetch_all(&store.pool).await.expect("plan");
            let steps: Vec<&str> = plan.iter().map(|step| step.3.as_str()).collect();
            assert!(
                steps
                    .iter()
                    .all(|step| !step.starts_with("SCAN") && !step.contains("games_by_chat")),
                "{filter}: {steps:?}"
            );
            assert!(
                steps.iter().any(|step| step.contains("seats_by_user")),
                "{steps:?}"
            );
        }
    }

    /// A database file in a fresh temporary folder.
    pub(crate) fn temp_url(name: &str) -> String {
        let dir = std::env::temp_dir().join(format!(
            "kodex-store-{name}-{}-{}",
            std::process::id(),
            fastrand::u64(..)
        ));
        std::fs::create_dir_all(&dir).expect("temp dir");
        format!("sqlite://{}", dir.join("kodex.db").display())
    }

    /// A stored-looking challenge by alice in the console's chat.
    pub(crate) fn challenge(id: &str, deadline: Option<i64>) -> GameRow {
        GameRow {
            id: id.to_owned(),
            platform: "console".to_owned(),
            chat_id: "local".to_owned(),
            home_chat_id: None,
            variant: "chess".to_owned(),
            variant_fingerprint: None,
            status: Status::Challenge,
            challenger_id: "alice".to_owned(),
            challenger_name: "alice".to_owned(),
            opponent_id: None,
            opponent_name: None,
            color: "random".to_owned(),
            seats: Vec::new(),
            stored_seats: Vec::new(),
            time_control: "-".to_owned(),
            start_fen: None,
            from_fen: None,
            moves: String::new(),
            turn_started_at: None,
            deadline,
            draw_offer: None,
            takeback_offer: None,
            exchange_offer: None,
            reminder_at: None,
            reminded: 0,
            result: None,
            reason: None,
            created_at: 1,
            updated_at: 1,
            version: 0,
            linked_id: None,
            board: 0,
            move_times: String::new(),
        }
    }

    #[tokio::test]
    async fn adapter_memory_survives_reopening_and_is_kept_per_platform_and_kind() {
        let url = temp_url("memory");
        let store = Store::open(&url).await.expect("opens");
        store
            .remember("telegram", "user", "bob", "42", 10)
            .await
            .expect("put");
        store
            .remember("telegram", "user", "bob", "43", 20)
            .await
            .expect("replace");
        store
            .remember("telegram", "user", "amy", "7", 5)
            .await
            .expect("put");
        store
            .remember("telegram", "link", "bob", "b_k7m2", 30)
            .await
            .expect("put");
        store
            .remember("discord", "user", "bob", "99", 30)
            .await
            .expect("put");
        drop(store);
        let store = Store::open(&url).await.expect("reopens");
        assert_eq!(
            store.recall("telegram", "user", "bob").await.expect("get"),
            Some("43".to_owned())
        );
        assert_eq!(
            store.recall_all("telegram", "user").await.expect("all"),
            vec![
                ("amy".to_owned(), "7".to_owned()),
                ("bob".to_owned(), "43".to_owned())
            ]
        );
        assert_eq!(
            store
                .forget_older("telegram", "user", 10)
                .await
                .expect("old"),
            1
        );
        store
            .forget("telegram", "link", "bob")
            .await
            .expect("forget");
        assert_eq!(
            store.recall("telegram", "link", "bob").await.expect("get"),
            None
        );
        assert_eq!(
            store.recall("telegram", "user", "amy").await.expect("get"),
            None
        );
        assert_eq!(
            store.recall("discord", "user", "bob").await.expect("get"),
            Some("99".to_owned())
        );
    }

    #[tokio::test]
    async fn rows_round_trip_and_ids_are_unique() {
        let store = Store::open(&temp_url("roundtrip")).await.expect("opens");
        let row = challenge("k7m2", Some(50));
        assert!(store.insert(&row).await.expect("insert"));
        assert!(!store.insert(&row).await.expect("insert again"));
        let read = store.get("console", "#K7M2").await.expect("get");
        assert_eq!(read, Some(row));
        assert_eq!(store.get("discord", "k7m2").await.expect("get"), None);
    }

    #[tokio::test]
    async fn a_stale_version_does_not_overwrite() {
        let store = Store::open(&temp_url("version")).await.expect("opens");
        store
            .insert(&challenge("k7m2", None))
            .await
            .expect("insert");
        let mut first = store
            .get("console", "k7m2")
            .await
            .expect("get")
            .expect("row");
        let mut second = first.clone();
        first.moves = "e2e4".to_owned();
        second.moves = "d2d4".to_owned();
        assert!(store.save(&mut first).await.expect("save"));
        assert!(!store.save(&mut second).await.expect("save"));
        let stored = store
            .get("console", "k7m2")
            .await
            .expect("get")
            .expect("row");
        assert_eq!(stored.moves, "e2e4");
        assert_eq!(stored.version, 1);
    }

    #[tokio::test]
    async fn deadlines_survive_reopening() {
        let url = temp_url("deadlines");
        {
            let store = Store::open(&url).await.expect("opens");
            store
                .insert(&challenge("k7m2", Some(500)))
                .await
                .expect("insert");
            store
                .insert(&challenge("p3x9", Some(100)))
                .await
                .expect("insert");
            store
                .insert(&challenge("q4w5", None))
                .await
                .expect("insert");
        }
        let store = Store::open(&url).await.expect("reopens");
        assert_eq!(store.next_deadline().await.expect("next"), Some(100));
        let due = store.due(499).await.expect("due");
        assert_eq!(due, vec![("console".to_owned(), "p3x9".to_owned())]);
        assert_eq!(store.due(500).await.expect("due").len(), 2);
    }

    fn seat(seat: usize, user: &str, remaining_ms: Option<Millis>) -> SeatRow {
        SeatRow {
            seat,
            user_id: user.to_owned(),
            user_name: user.to_uppercase(),
            side: seat,
            team: seat,
            remaining_ms,
            setup: None,
            ready: false,
        }
    }

    #[tokio::test]
    async fn seats_are_saved_with_the_game_and_found_by_player() {
        let store = Store::open(&temp_url("seats")).await.expect("opens");
        store
            .insert(&challenge("k7m2", None))
            .await
            .expect("insert");
        store
            .insert(&challenge("p3x9", None))
            .await
            .expect("insert");
        let mut row = store
            .get("console", "k7m2")
            .await
            .expect("get")
            .expect("row");
        row.status = Status::Active;
        row.start_fen = Some("startpos".to_owned());
        row.seats = vec![seat(0, "bob", Some(60_000)), seat(1, "alice", Some(50_000))];
        assert!(store.save(&mut row).await.expect("save"));
        let read = store
            .get("console", "k7m2")
            .await
            .expect("get")
            .expect("row");
        assert_eq!(read, row);
        assert_eq!(
            (
                read.side_of("alice"),
                read.player_id(0),
                read.player_name(1)
            ),
            (Some(1), Some("bob"), "ALICE")
        );
        assert_eq!(
            (read.remaining(0), read.remaining(1)),
            (Some(60_000), Some(50_000))
        );

        // A stale write changes neither the game nor its seats.
        let mut stale = row.clone();
        stale.version -= 1;
        stale.set_remaining(0, Some(1));
        assert!(!store.save(&mut stale).await.expect("save"));
        let mut later = row.clone();
        later.set_remaining(0, Some(55_000));
        later.seats.truncate(1);
        assert!(store.save(&mut later).await.expect("save"));
        let read = store
            .get("console", "k7m2")
            .await
            .expect("get")
            .expect("row");
        assert_eq!(read.seats, vec![seat(0, "bob", Some(55_000))]);

        let mine = store
            .active_games_of("console", "bob", None)
            .await
            .expect("list");
        assert_eq!(mine, vec![read.clone()]);
        let open = store.open_games_of("console", "alice").await.expect("list");
        // alice challenged both; k7m2 is active without her seat now.
        assert_eq!(
            open.iter().map(|g| g.id.as_str()).collect::<Vec<_>>(),
            vec!["p3x9"]
        );
        assert_eq!(
            store
                .latest_game_in("console", "local")
                .await
                .expect("latest"),
            Some(read)
        );
    }

    #[tokio::test]
    async fn unknown_statuses_and_results_fail_closed_and_are_kept() {
        let store = Store::open(&temp_url("unknown")).await.expect("opens");
        store
            .insert(&challenge("k7m2", None))
            .await
            .expect("insert");
        sqlx::query("UPDATE games SET status = 'paused-by-v3', result = '2-0-1' WHERE id = 'k7m2'")
            .execute(&store.pool)
            .await
            .expect("raw update");
        let mut row = store
            .get("console", "k7m2")
            .await
            .expect("get")
            .expect("row");
        assert_eq!(row.status, Status::Unknown("paused-by-v3".to_owned()));
        assert!(!row.status.is_over());
        assert_eq!(row.result, Some(GameResult::Unknown("2-0-1".to_owned())));
        assert_eq!(row.result.as_ref().map(GameResult::pgn), Some("*"));
        row.deadline = Some(5);
        assert!(store.save(&mut row).await.expect("save"));
        let stored: (String, String) =
            sqlx::query_as("SELECT status, result FROM games WHERE id = 'k7m2'")
                .fetch_one(&store.pool)
                .await
                .expect("raw read");
        assert_eq!(stored, ("paused-by-v3".to_owned(), "2-0-1".to_owned()));
    }

    #[test]
    fn results_keep_their_stored_text() {
        for text in [
            "1-0", "0-1", "1/2-1/2", "*", "team:2", "team:3", "team:9", "½",
        ] {
            assert_eq!(GameResult::parse(text).to_text(), text);
        }
        assert_eq!(GameResult::parse("team:3").winner(), Some(3));
        assert_eq!(GameResult::parse("team:9").winner(), None);
        assert_eq!(GameResult::parse("1/2-1/2").pgn(), "1/2-1/2");
    }

    #[tokio::test]
    async fn languages_are_remembered() {
        let store = Store::open(&temp_url("langs")).await.expect("opens");
        assert_eq!(
            store
                .lang(LangOwner::User, "console", "bob")
                .await
                .expect("read"),
            None
        );
        store
            .set_lang(LangOwner::User, "console", "bob", "ru")
            .await
            .expect("set");
        store
            .set_lang(LangOwner::User, "console", "bob", "en")
            .await
            .expect("set");
        assert_eq!(
            store
                .lang(LangOwner::User, "console", "bob")
                .await
                .expect("read"),
            Some("en".to_owned())
        );
        store
            .set_lang(LangOwner::Chat, "console", "local", "ru")
            .await
            .expect("set");
        assert_eq!(
            store
                .lang(LangOwner::Chat, "console", "local")
                .await
                .expect("read"),
            Some("ru".to_owned())
        );
    }
}
