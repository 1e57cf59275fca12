//! Tournaments (`tournaments`, `tournament_games`; see
//! `migrations/0016_tournaments.sql`).
//!
//! A tournament is one row: its chat, its status, and its whole state (the
//! entrants, the rounds, each board's game and result) serialized as JSON
//! in one column, parsed once when the row is read — a state that does not
//! parse is a [`StoreError`], never a silent default. Every write goes
//! through [`Store::save_tournament`], which applies only if the row still
//! has the version it was read with. Its games are ordinary games; the
//! second table says which tournament each belongs to.

use super::db::{on_pool, Dialect};
use super::{Store, StoreError};
use serde::{Deserialize, Serialize};

/// Where a tournament is in its life.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum TournamentStatus {
    /// Announced, taking entries until it starts.
    Open,
    /// Being played.
    Running,
    /// Over, with final standings.
    Finished,
    /// Called off before its end.
    Cancelled,
    /// A name this version does not know, kept as stored (never advanced).
    Unknown(String),
}

impl TournamentStatus {
    /// The stored name.
    pub fn as_str(&self) -> &str {
        match self {
            TournamentStatus::Open => "open",
            TournamentStatus::Running => "running",
            TournamentStatus::Finished => "finished",
            TournamentStatus::Cancelled => "cancelled",
            TournamentStatus::Unknown(name) => name,
        }
    }

    /// The status a stored name means.
    pub fn parse(name: &str) -> TournamentStatus {
        match name {
            "open" => TournamentStatus::Open,
            "running" => TournamentStatus::Running,
            "finished" => TournamentStatus::Finished,
            "cancelled" => TournamentStatus::Cancelled,
            other => TournamentStatus::Unknown(other.to_owned()),
        }
    }

    /// Whether it still takes entries or plays.
    pub fn is_live(&self) -> bool {
        matches!(self, TournamentStatus::Open | TournamentStatus::Running)
    }
}

/// How a tournament pairs its rounds.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TournamentFormat {
    /// The FIDE Dutch system, a fixed number of rounds.
    Swiss,
    /// Everyone meets everyone (Berger tables), once.
    RoundRobin,
    /// Everyone meets everyone twice, once with each colour.
    DoubleRoundRobin,
    /// A seeded bracket of matches; the loser of a match is out.
    Knockout,
    /// Lichess's arena: a fixed time ([`TournamentState::rounds`] minutes)
    /// in which whoever is free is paired again at once.
    Arena,
}

/// One entrant. After the start their place in [`TournamentState::players`]
/// is their pairing number less one (the rating order at the start).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Entrant {
    pub user_id: String,
    pub name: String,
    /// The rating in the tournament's variant when the tournament started
    /// (when they joined, before it).
    pub rating: u32,
    /// Left (`/tournament leave`) after the start, or withdrawn for
    /// absence: paired no more (a Swiss or an arena takes them back on
    /// `/tournament join`).
    #[serde(default)]
    pub withdrawn: bool,
    /// Sitting out (`/tournament pause`): not paired, no points, no
    /// forfeit, until `/tournament join` again.
    #[serde(default)]
    pub paused: bool,
    /// Games lost by not starting them (no first move in time) since the
    /// player last came back: at two they are withdrawn.
    #[serde(default)]
    pub absences: u32,
}

impl Entrant {
    /// A new entrant, playing.
    pub fn new(user_id: &str, name: &str, rating: u32) -> Entrant {
        Entrant {
            user_id: user_id.to_owned(),
            name: name.to_owned(),
            rating,
            withdrawn: false,
            paused: false,
            absences: 0,
        }
    }

    /// Whether the next pairing takes them.
    pub fn pairable(&self) -> bool {
        !self.withdrawn && !self.paused
    }
}

/// What one board of a round brought, once known.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BoardResult {
    WhiteWins,
    BlackWins,
    Draw,
    /// White did not start the game (no first move in time, or aborted it).
    WhiteForfeits,
    /// Black did not start the game.
    BlackForfeits,
}

/// One game of a round: the two pairing numbers, the game's id, its result.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Board {
    pub white: u32,
    pub black: u32,
    pub game: String,
    #[serde(default)]
    pub result: Option<BoardResult>,
    /// An arena: white berserked (halved their clock before their first move).
    #[serde(default)]
    pub white_berserk: bool,
    /// An arena: black berserked.
    #[serde(default)]
    pub black_berserk: bool,
    /// The moves (plies) the game had when its result was recorded.
    #[serde(default)]
    pub plies: u32,
}

impl Board {
    /// A board of `white` and `black` playing game `game`.
    pub fn new(white: u32, black: u32, game: String, result: Option<BoardResult>) -> Board {
        Board {
            white,
            black,
            game,
            result,
            white_berserk: false,
            black_berserk: false,
            plies: 0,
        }
    }
}

/// One round as played.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Round {
    /// When it was paired (its games started).
    pub started_at: i64,
    pub boards: Vec<Board>,
    /// The pairing-allocated bye, if the count was odd.
    #[serde(default)]
    pub bye: Option<u32>,
    /// Players not paired this round (withdrawn): a zero-point bye each.
    #[serde(default)]
    pub absent: Vec<u32>,
    /// Paired and stored, its games (their ids planned on the boards) not
    /// all started yet: whoever looks at the tournament next starts those
    /// missing, so a round interrupted by a crash is started once, never
    /// paired again.
    #[serde(default)]
    pub pending: bool,
}

/// Everything a tournament decided and played.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct TournamentState {
    pub format: TournamentFormat,
    /// The variant's id.
    pub variant: String,
    /// The time control's code (`3+2`).
    pub clock: String,
    /// The number of rounds (a Swiss: as asked; a round robin: set at the start).
    pub rounds: u32,
    pub rated: bool,
    pub creator_id: String,
    pub creator_name: String,
    /// When it starts (or started).
    pub starts_at: i64,
    /// Whether pairing number 1 has white in round 1 (drawn at the start).
    #[serde(default = "yes")]
    pub initial_white: bool,
    pub players: Vec<Entrant>,
    #[serde(default)]
    pub played: Vec<Round>,
    /// A knockout: the games of a match before its tie-break.
    #[serde(default)]
    pub match_games: u32,
    /// A knockout: a level match ends with one Armageddon game (a draw
    /// wins for black) instead of decisive games until one is won.
    #[serde(default)]
    pub armageddon: bool,
    /// An arena: when it stops pairing (0 before its start).
    #[serde(default)]
    pub ends_at: i64,
}

fn yes() -> bool {
    true
}

/// A stored tournament.
#[derive(Clone, PartialEq, Debug)]
pub struct TournamentRow {
    pub platform: String,
    pub id: String,
    pub chat_id: String,
    pub status: TournamentStatus,
    pub state: TournamentState,
    /// Bumped by every save; a save with a stale one does not apply.
    pub version: i64,
    pub next_at: Option<i64>,
    pub created_at: i64,
}

/// The columns of a tournament, as read.
type Columns = (
    String,
    String,
    String,
    String,
    String,
    i64,
    Option<i64>,
    i64,
);

const COLUMNS: &str = "platform, id, chat_id, status, state, version, next_at, created_at";

/// The tournament the columns describe; a state that does not parse is an error.
fn parse(columns: Columns) -> Result<TournamentRow, StoreError> {
    let (platform, id, chat_id, status, state, version, next_at, created_at) = columns;
    let state = serde_json::from_str(&state).map_err(|e| StoreError::Tournament {
        id: id.clone(),
        error: e.to_string(),
    })?;
    Ok(TournamentRow {
        platform,
        id,
        chat_id,
        status: TournamentStatus::parse(&status),
        state,
        version,
        next_at,
        created_at,
    })
}

fn state_text(row: &TournamentRow) -> Result<String, StoreError> {
    serde_json::to_string(&row.state).map_err(|e| StoreError::Tournament {
        id: row.id.clone(),
        error: e.to_string(),
    })
}

impl Store {
    /// Stores a new tournament; `false` if its id is taken.
    pub async fn insert_tournament(&self, row: &TournamentRow) -> Result<bool, StoreError> {
        let done = on_pool!(&self.writer, db => sqlx::query(db.sql(
            "INSERT INTO tournaments (platform, id, chat_id, status, state, version, next_at, \
             created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) \
             ON CONFLICT (platform, id) DO NOTHING",
        ))
        .bind(row.platform.clone())
        .bind(row.id.clone())
        .bind(row.chat_id.clone())
        .bind(row.status.as_str().to_owned())
        .bind(state_text(row)?)
        .bind(row.version)
        .bind(row.next_at)
        .bind(row.created_at)
        .execute(db)
        .await?.rows_affected());
        Ok(done == 1)
    }

    /// Writes `row` if nobody changed it since it was read (its version
    /// then goes up by one); `false` if somebody did.
    pub async fn save_tournament(&self, row: &mut TournamentRow) -> Result<bool, StoreError> {
        let done = on_pool!(&self.writer, db => sqlx::query(db.sql(
            "UPDATE tournaments SET status = ?, state = ?, version = ?, next_at = ? \
             WHERE platform = ? AND id = ? AND version = ?",
        ))
        .bind(row.status.as_str().to_owned())
        .bind(state_text(row)?)
        .bind(row.version + 1)
        .bind(row.next_at)
        .bind(row.platform.clone())
        .bind(row.id.clone())
        .bind(row.version)
        .execute(db)
        .await?.rows_affected());
        if done == 1 {
            row.version += 1;
            Ok(true)
        } else {
            Ok(false)
        }
    }

    /// The tournament `id` of `platform`.
    pub async fn tournament(
        &self,
        platform: &str,
        id: &str,
    ) -> Result<Option<TournamentRow>, StoreError> {
        let sql = format!("SELECT {COLUMNS} FROM tournaments WHERE platform = ? AND id = ?");
        on_pool!(&self.pool, db => sqlx::query_as::<_, Columns>(db.sql(&sql))
            .bind(platform.to_owned())
            .bind(id.to_owned())
            .fetch_optional(db)
            .await?)
        .map(parse)
        .transpose()
    }

    /// The tournaments of `chat` still open or running, oldest first.
    pub async fn live_tournaments_in(
        &self,
        platform: &str,
        chat: &str,
    ) -> Result<Vec<TournamentRow>, StoreError> {
        let sql = format!(
            "SELECT {COLUMNS} FROM tournaments WHERE platform = ? AND chat_id = ? \
             AND status IN ('open', 'running') ORDER BY created_at, id"
        );
        on_pool!(&self.pool, db => sqlx::query_as::<_, Columns>(db.sql(&sql))
            .bind(platform.to_owned())
            .bind(chat.to_owned())
            .fetch_all(db)
            .await?)
        .into_iter()
        .map(parse)
        .collect()
    }

    /// The latest tournament of `chat`, whatever its status.
    pub async fn latest_tournament_in(
        &self,
        platform: &str,
        chat: &str,
    ) -> Result<Option<TournamentRow>, StoreError> {
        let sql = format!(
            "SELECT {COLUMNS} FROM tournaments WHERE platform = ? AND chat_id = ? \
             ORDER BY created_at DESC, id DESC LIMIT 1"
        );
        on_pool!(&self.pool, db => sqlx::query_as::<_, Columns>(db.sql(&sql))
            .bind(platform.to_owned())
            .bind(chat.to_owned())
            .fetch_optional(db)
            .await?)
        .map(parse)
        .transpose()
    }

    /// Every running tournament (platform, id): after a restart each is
    /// looked at once, in case a game ended as the last process stopped.
    pub async fn running_tournaments(&self) -> Result<Vec<(String, String)>, StoreError> {
        Ok(
            on_pool!(&self.pool, db => sqlx::query_as::<_, (String, String)>(db.sql(
            "SELECT platform, id FROM tournaments WHERE status = 'running' ORDER BY created_at",
        ))
        .fetch_all(db)
        .await?),
        )
    }

    /// The tournaments (platform, id) whose `next_at` is at or before `now`.
    pub async fn due_tournaments(&self, now: i64) -> Result<Vec<(String, String)>, StoreError> {
        Ok(
            on_pool!(&self.pool, db => sqlx::query_as::<_, (String, String)>(db.sql(
            "SELECT platform, id FROM tournaments WHERE next_at IS NOT NULL AND next_at <= ? \
             ORDER BY next_at",
        ))
        .bind(now)
        .fetch_all(db)
        .await?),
        )
    }

    /// The earliest `next_at` of any tournament.
    pub async fn next_tournament_at(&self) -> Result<Option<i64>, StoreError> {
        Ok(
            on_pool!(&self.pool, db => sqlx::query_scalar::<_, Option<i64>>(
            "SELECT MIN(next_at) FROM tournaments WHERE next_at IS NOT NULL",
        )
        .fetch_one(db)
        .await?),
        )
    }

    /// The earliest `next_at` of each platform's tournaments (its key).
    pub async fn next_tournaments_at(&self) -> Result<Vec<(String, i64)>, StoreError> {
        Ok(
            on_pool!(&self.pool, db => sqlx::query_as::<_, (String, i64)>(
            "SELECT platform, MIN(next_at) FROM tournaments WHERE next_at IS NOT NULL \
             GROUP BY platform ORDER BY platform",
        )
        .fetch_all(db)
        .await?),
        )
    }

    /// Records that game `game` is one of tournament `tournament`'s.
    pub async fn add_tournament_game(
        &self,
        platform: &str,
        game: &str,
        tournament: &str,
    ) -> Result<(), StoreError> {
        on_pool!(&self.writer, db => sqlx::query(db.sql(
            "INSERT INTO tournament_games (platform, game_id, tournament_id) VALUES (?, ?, ?) \
             ON CONFLICT (platform, game_id) DO NOTHING",
        ))
        .bind(platform.to_owned())
        .bind(game.to_owned())
        .bind(tournament.to_owned())
        .execute(db)
        .await?.rows_affected());
        Ok(())
    }

    /// The tournament game `game` belongs to, if any.
    pub async fn tournament_of_game(
        &self,
        platform: &str,
        game: &str,
    ) -> Result<Option<String>, StoreError> {
        Ok(
            on_pool!(&self.pool, db => sqlx::query_scalar::<_, String>(db.sql(
            "SELECT tournament_id FROM tournament_games WHERE platform = ? AND game_id = ?",
        ))
        .bind(platform.to_owned())
        .bind(game.to_owned())
        .fetch_optional(db)
        .await?),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::tests::test_urls;

    fn tournament(id: &str, chat: &str, created_at: i64) -> TournamentRow {
        TournamentRow {
            platform: "console".to_owned(),
            id: id.to_owned(),
            chat_id: chat.to_owned(),
            status: TournamentStatus::Open,
            state: TournamentState {
                format: TournamentFormat::Swiss,
                variant: "chess".to_owned(),
                clock: "3+2".to_owned(),
                rounds: 3,
                rated: false,
                creator_id: "alice".to_owned(),
                creator_name: "alice".to_owned(),
                starts_at: 600,
                initial_white: true,
                players: vec![Entrant::new("alice", "alice", 1500)],
                played: vec![Round {
                    started_at: 5,
                    boards: vec![Board::new(
                        1,
                        2,
                        "k7m2".to_owned(),
                        Some(BoardResult::BlackForfeits),
                    )],
                    bye: Some(3),
                    absent: vec![],
                    pending: false,
                }],
                match_games: 0,
                armageddon: false,
                ends_at: 0,
            },
            version: 0,
            next_at: Some(600),
            created_at,
        }
    }

    #[tokio::test]
    async fn tournaments_round_trip_and_a_stale_version_does_not_overwrite() {
        for url in test_urls("tournaments").await {
            let store = Store::open(&url).await.expect("opens");
            let row = tournament("t1", "local", 1);
            assert!(store.insert_tournament(&row).await.expect("insert"));
            assert!(!store.insert_tournament(&row).await.expect("insert again"));
            store
                .insert_tournament(&tournament("t2", "local", 2))
                .await
                .expect("insert");
            let mut first = store
                .tournament("console", "t1")
                .await
                .expect("read")
                .expect("row");
            assert_eq!(first, row);
            let mut second = first.clone();
            first.status = TournamentStatus::Running;
            first.next_at = None;
            assert!(store.save_tournament(&mut first).await.expect("save"));
            second.state.rounds = 9;
            assert!(!store.save_tournament(&mut second).await.expect("stale"));
            drop(store);
            let store = Store::open(&url).await.expect("reopens");
            let read = store
                .tournament("console", "t1")
                .await
                .expect("read")
                .expect("row");
            assert_eq!((read.version, read.state.rounds), (1, 3));
            assert_eq!(read.status, TournamentStatus::Running);
            let live = store
                .live_tournaments_in("console", "local")
                .await
                .expect("live");
            assert_eq!(live.len(), 2);
            assert_eq!(
                store.due_tournaments(600).await.expect("due"),
                vec![("console".to_owned(), "t2".to_owned())]
            );
            assert_eq!(store.next_tournament_at().await.expect("next"), Some(600));
            let each = store.next_tournaments_at().await.expect("next of each");
            assert_eq!(each.iter().map(|(_, at)| *at).min(), Some(600));
            assert_eq!(
                store.running_tournaments().await.expect("running"),
                vec![("console".to_owned(), "t1".to_owned())]
            );
            store
                .add_tournament_game("console", "k7m2", "t1")
                .await
                .expect("game");
            store
                .add_tournament_game("console", "k7m2", "t1")
                .await
                .expect("again");
            assert_eq!(
                store
                    .tournament_of_game("console", "k7m2")
                    .await
                    .expect("of game"),
                Some("t1".to_owned())
            );
            assert_eq!(
                store
                    .tournament_of_game("discord", "k7m2")
                    .await
                    .expect("of game"),
                None
            );
            assert_eq!(
                store
                    .latest_tournament_in("console", "local")
                    .await
                    .expect("latest")
                    .map(|t| t.id),
                Some("t2".to_owned())
            );
        }
    }

    #[tokio::test]
    async fn a_state_that_does_not_parse_is_an_error() {
        for url in test_urls("tournament-garbage").await {
            let store = Store::open(&url).await.expect("opens");
            store
                .insert_tournament(&tournament("t1", "local", 1))
                .await
                .expect("insert");
            store
                .raw_execute("UPDATE tournaments SET state = '{\"format\":\"ladder\"}'")
                .await
                .expect("raw update");
            assert!(matches!(
                store.tournament("console", "t1").await,
                Err(StoreError::Tournament { .. })
            ));
        }
    }
}
