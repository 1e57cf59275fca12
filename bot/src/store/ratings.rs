//! Ratings and their history (`ratings`, `rating_history`; see
//! `migrations/0014_ratings.sql`). A rated game's ratings change in the
//! transaction that saves its end ([`rate_in`], called by `Store::save`), so
//! a game is rated once, with both players' ratings, or not at all.

use super::columns::{GameResult, Status};
use super::db::{on_pool, Dialect};
use super::rows::Fetched;
use super::rows::GameRow;
use super::{Store, StoreError};
use crate::rating::{Rating, Score};

/// One person's rating in one variant, as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingRow {
    /// The user id on the platform.
    pub user_id: String,
    /// The name last played under.
    pub user_name: String,
    /// The variant id.
    pub variant: String,
    /// The rating as the last rated game left it.
    pub rating: Rating,
    /// Rated games played.
    pub games: i64,
    /// Of them won, drawn and lost.
    pub wins: i64,
    pub draws: i64,
    pub losses: i64,
    /// The highest rating reached once no longer provisional.
    pub best: Option<f64>,
    /// When the last rated game ended (milliseconds).
    pub rated_at: i64,
}

impl RatingRow {
    /// The rating at `now`: its deviation grown with the time since the
    /// last rated game.
    pub fn current(&self, now: i64) -> Rating {
        self.rating.after_idle(now - self.rated_at)
    }
}

/// What a rated game did to one player's rating, as the result shows it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RatingChange {
    /// The player's name.
    pub name: String,
    /// The rating before the game, rounded.
    pub before: i64,
    /// The rating after it, rounded.
    pub after: i64,
    /// Whether the rating after it is provisional.
    pub provisional: bool,
}

/// A finished game of `row` whose end changes ratings: its two players
/// (seat order) and the first one's score. `None` for every game that is
/// never rated: casual ones, games not between two people, games ended
/// before both sides moved, games without a result.
pub(super) fn rated_players(row: &GameRow) -> Option<([&str; 2], Score)> {
    if !row.rated || row.status != Status::Finished || row.seats.len() != 2 {
        return None;
    }
    // Both sides moved (an abort before that is no game).
    if row.move_list().len() < 2 {
        return None;
    }
    let (first, second) = (row.seat(0)?, row.seat(1)?);
    let computer = |id: &str| crate::api::UserRef::level_of(id).is_some();
    if first.user_id == second.user_id || computer(&first.user_id) || computer(&second.user_id) {
        return None;
    }
    let score = match row.result.as_ref()? {
        GameResult::Win { team } if *team == first.team => 1.0,
        GameResult::Win { team } if *team == second.team => 0.0,
        GameResult::Draw => 0.5,
        _ => return None,
    };
    Some(([&first.user_id, &second.user_id], score))
}

/// Whether the end of `row`, once saved, changes ratings.
pub(super) fn rates(row: &GameRow) -> bool {
    rated_players(row).is_some()
}

pub(super) const RATING_COLUMNS: &str =
    "user_id, user_name, variant, rating, rd, volatility, games, \
     wins, draws, losses, best, rated_at";

pub(super) fn decode(row: &impl Fetched) -> Result<RatingRow, sqlx::Error> {
    Ok(RatingRow {
        user_id: row.get("user_id")?,
        user_name: row.get("user_name")?,
        variant: row.get("variant")?,
        rating: Rating {
            rating: row.get("rating")?,
            rd: row.get("rd")?,
            volatility: row.get("volatility")?,
        },
        games: row.get("games")?,
        wins: row.get("wins")?,
        draws: row.get("draws")?,
        losses: row.get("losses")?,
        best: row.get("best")?,
        rated_at: row.get("rated_at")?,
    })
}

/// The state of a rated game's rating before and after it, from `row` and
/// the two players' stored ratings: what [`rate_in`] writes.
pub(super) struct Rated {
    pub(super) players: [String; 2],
    pub(super) score: Score,
    pub(super) before: [Rating; 2],
    pub(super) after: [Rating; 2],
    pub(super) best: [Option<f64>; 2],
}

/// What the end of `row` does to its players' ratings, given their stored
/// ratings (`None`: never rated in the variant).
pub(super) fn rated(row: &GameRow, stored: &[Option<RatingRow>; 2]) -> Option<Rated> {
    let (players, score) = rated_players(row)?;
    let now = row.updated_at;
    let before = [0, 1].map(|i| {
        stored[i]
            .as_ref()
            .map_or_else(Rating::default, |r| r.current(now))
    });
    let (first, second) = Rating::after_game(before[0], before[1], score);
    let after = [first, second];
    let best = [0, 1].map(|i| {
        let old_best = stored[i].as_ref().and_then(|r| r.best);
        if after[i].provisional() {
            old_best
        } else {
            Some(old_best.map_or(after[i].rating, |best| best.max(after[i].rating)))
        }
    });
    Some(Rated {
        players: players.map(str::to_owned),
        score,
        before,
        after,
        best,
    })
}

/// Rates the game `$row` (finished, saved on `$conn`, a transaction's
/// connection, just now) if its end changes ratings and it was not rated
/// before: both players' ratings and a history row each. Evaluates to the
/// changes (empty when nothing changed). A macro: the connection is
/// SQLite's or PostgreSQL's. On PostgreSQL the two ratings are read `FOR
/// UPDATE`: two games of one player that end at once are rated one after
/// the other, never from the same rating.
macro_rules! rate_in {
    ($conn:expr, $row:expr) => {{
        let conn = $conn;
        let row: &$crate::store::GameRow = $row;
        let mut changes = Vec::new();
        if let Some((players, _)) = $crate::store::ratings::rated_players(row) {
            let done: Option<i64> = sqlx::query_scalar(conn.sql(
                "SELECT CAST(1 AS BIGINT) FROM rating_history WHERE platform = ? AND game_id = ?",
            ))
            .bind(row.platform.clone())
            .bind(row.id.clone())
            .fetch_optional(&mut *conn)
            .await?;
            if done.is_none() {
                let mut stored = [None, None];
                for (i, user) in players.iter().enumerate() {
                    let sql = format!(
                        "SELECT {} FROM ratings \
                         WHERE platform = ? AND user_id = ? AND variant = ?{}",
                        $crate::store::ratings::RATING_COLUMNS,
                        conn.pick("", " FOR UPDATE")
                    );
                    let found = sqlx::query(conn.sql(&sql))
                        .bind(row.platform.clone())
                        .bind((*user).to_owned())
                        .bind(row.variant.clone())
                        .fetch_optional(&mut *conn)
                        .await?;
                    stored[i] = found.as_ref().map($crate::store::ratings::decode).transpose()?;
                }
                if let Some(rated) = $crate::store::ratings::rated(row, &stored) {
                    for i in 0..2 {
                        let change = $crate::store::ratings::rating_change(row, &rated, i);
                        let (win, draw, loss) = $crate::store::ratings::change_counts(&rated, i);
                        sqlx::query(conn.sql($crate::store::ratings::UPSERT_RATING))
                            .bind(row.platform.clone())
                            .bind(rated.players[i].clone())
                            .bind(row.variant.clone())
                            .bind(change.name.clone())
                            .bind(rated.after[i].rating)
                            .bind(rated.after[i].rd)
                            .bind(rated.after[i].volatility)
                            .bind(win)
                            .bind(draw)
                            .bind(loss)
                            .bind(rated.best[i])
                            .bind(row.updated_at)
                            .execute(&mut *conn)
                            .await?;
                        sqlx::query(conn.sql($crate::store::ratings::INSERT_HISTORY))
                            .bind(row.platform.clone())
                            .bind(row.id.clone())
                            .bind(rated.players[i].clone())
                            .bind(row.variant.clone())
                            .bind($crate::store::ratings::history_chat(row))
                            .bind(rated.players[1 - i].clone())
                            .bind($crate::store::ratings::my_score(&rated, i))
                            .bind(rated.before[i].rating)
                            .bind(rated.before[i].rd)
                            .bind(rated.after[i].rating)
                            .bind(rated.after[i].rd)
                            .bind(row.updated_at)
                            .execute(&mut *conn)
                            .await?;
                        changes.push(change);
                    }
                    tracing::info!(game = %row.id, "ratings updated");
                }
            }
        }
        changes
    }};
}
pub(super) use rate_in;

/// Stores a player's rating after a rated game: one more game, its
/// outcome counted.
pub(super) const UPSERT_RATING: &str =
    "INSERT INTO ratings (platform, user_id, variant, user_name, \
     rating, rd, volatility, games, wins, draws, losses, best, rated_at) \
     VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?) \
     ON CONFLICT (platform, user_id, variant) DO UPDATE SET \
     user_name = excluded.user_name, rating = excluded.rating, rd = excluded.rd, \
     volatility = excluded.volatility, games = ratings.games + 1, \
     wins = ratings.wins + excluded.wins, draws = ratings.draws + excluded.draws, \
     losses = ratings.losses + excluded.losses, \
     best = excluded.best, rated_at = excluded.rated_at";

/// A rated game in a player's history.
pub(super) const INSERT_HISTORY: &str = "INSERT INTO rating_history (platform, game_id, user_id, \
     variant, chat_id, opponent_id, score, rating_before, rd_before, rating_after, rd_after, \
     played_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

/// The chat a rated game counts for (`/leaderboard` of a chat).
pub(super) fn history_chat(row: &GameRow) -> String {
    row.home_chat_id
        .clone()
        .unwrap_or_else(|| row.chat_id.clone())
}

/// Seat `i`'s score in the game.
pub(super) fn my_score(rated: &Rated, i: usize) -> Score {
    if i == 0 {
        rated.score
    } else {
        1.0 - rated.score
    }
}

/// Seat `i`'s win, draw and loss counted (one of them 1).
pub(super) fn change_counts(rated: &Rated, i: usize) -> (i64, i64, i64) {
    match my_score(rated, i) {
        s if s > 0.75 => (1, 0, 0),
        s if s < 0.25 => (0, 0, 1),
        _ => (0, 1, 0),
    }
}

/// What the game did to seat `i`'s rating, as its result shows it.
pub(super) fn rating_change(row: &GameRow, rated: &Rated, i: usize) -> RatingChange {
    RatingChange {
        name: row.player_name(i).to_owned(),
        before: rated.before[i].rating.round() as i64,
        after: rated.after[i].rating.round() as i64,
        provisional: rated.after[i].provisional(),
    }
}

/// One finished game of a person, for `/stats`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedGame {
    /// The variant id.
    pub variant: String,
    /// 1 won, 0 drawn, −1 lost (`None`: no result, such as an unknown one).
    pub outcome: Option<i8>,
}

impl Store {
    /// `user`'s ratings on `platform`, most played variant first.
    pub async fn ratings_of(
        &self,
        platform: &str,
        user: &str,
    ) -> Result<Vec<RatingRow>, StoreError> {
        let sql = format!(
            "SELECT {RATING_COLUMNS} FROM ratings WHERE platform = ? AND user_id = ? \
             ORDER BY games DESC, variant"
        );
        on_pool!(&self.pool, db => {
            let rows = sqlx::query(db.sql(&sql))
                .bind(platform.to_owned())
                .bind(user.to_owned())
                .fetch_all(db)
                .await?;
            Ok(rows.iter().map(decode).collect::<Result<_, _>>()?)
        })
    }

    /// `user`'s rating in `variant` on `platform`, if they played it rated.
    pub async fn rating_of(
        &self,
        platform: &str,
        user: &str,
        variant: &str,
    ) -> Result<Option<RatingRow>, StoreError> {
        let sql = format!(
            "SELECT {RATING_COLUMNS} FROM ratings \
             WHERE platform = ? AND user_id = ? AND variant = ?"
        );
        on_pool!(&self.pool, db => {
            let row = sqlx::query(db.sql(&sql))
                .bind(platform.to_owned())
                .bind(user.to_owned())
                .bind(variant.to_owned())
                .fetch_optional(db)
                .await?;
            Ok(row.as_ref().map(decode).transpose()?)
        })
    }

    /// The user id of whoever played rated games on `platform` under the
    /// name (or id) `name`, case-insensitive: the most recent one.
    pub async fn rated_user_named(
        &self,
        platform: &str,
        name: &str,
    ) -> Result<Option<(String, String)>, StoreError> {
        let found = on_pool!(&self.pool, db => sqlx::query_as::<_, (String, String)>(db.sql(
            "SELECT user_id, user_name FROM ratings WHERE platform = ? \
             AND (lower(user_name) = lower(?) OR lower(user_id) = lower(?)) \
             ORDER BY rated_at DESC LIMIT 1",
        ))
        .bind(platform.to_owned())
        .bind(name.to_owned())
        .bind(name.to_owned())
        .fetch_optional(db)
        .await?);
        Ok(found)
    }

    /// The ratings of `variant` on `platform` whose stored deviation is at
    /// most `max_rd` — of the players of rated games in `chat` when given —
    /// highest first (the caller grows each by its idle time).
    pub async fn ratings_in(
        &self,
        platform: &str,
        variant: &str,
        chat: Option<&str>,
        max_rd: f64,
    ) -> Result<Vec<RatingRow>, StoreError> {
        let sql = format!(
            "SELECT {RATING_COLUMNS} FROM ratings r WHERE platform = ? AND variant = ? AND rd <= ? \
             AND (? IS NULL OR EXISTS (SELECT 1 FROM rating_history h WHERE \
             h.platform = r.platform AND h.chat_id = ? AND h.variant = r.variant \
             AND h.user_id = r.user_id)) ORDER BY rating DESC, user_id"
        );
        on_pool!(&self.pool, db => {
            let rows = sqlx::query(db.sql(&sql))
                .bind(platform.to_owned())
                .bind(variant.to_owned())
                .bind(max_rd)
                .bind(chat.map(str::to_owned))
                .bind(chat.map(str::to_owned))
                .fetch_all(db)
                .await?;
            Ok(rows.iter().map(decode).collect::<Result<_, _>>()?)
        })
    }

    /// `user`'s finished games on `platform` (people and the computer,
    /// rated or not), oldest first.
    pub async fn finished_games_of(
        &self,
        platform: &str,
        user: &str,
    ) -> Result<Vec<PlayedGame>, StoreError> {
        let rows: Vec<(String, Option<GameResult>, i64)> = on_pool!(&self.pool, db => {
            // Games that ended in one millisecond keep the order they were
            // written in: SQLite's rowid (the order of their inserts), and
            // on PostgreSQL the transaction that wrote each last (`xmin`; it
            // wraps after four billion transactions, which only a tie in a
            // millisecond would notice).
            let sql = format!(
                "SELECT g.variant, g.result, s.team FROM seats s \
                 JOIN games g ON g.platform = s.platform AND g.id = s.game_id \
                 WHERE s.platform = ? AND s.user_id = ? AND g.status = 'finished' \
                 ORDER BY g.updated_at, {}",
                db.pick("g.rowid", "g.xmin::text::bigint, g.id")
            );
            sqlx::query_as(db.sql(&sql))
                .bind(platform.to_owned())
                .bind(user.to_owned())
                .fetch_all(db)
                .await?
        });
        let mut games = Vec::new();
        for (variant, result, team) in rows {
            let outcome = match result {
                Some(GameResult::Win { team: won }) => {
                    Some(if i64::from(won.0) == team { 1 } else { -1 })
                }
                Some(GameResult::Draw) => Some(0),
                _ => None,
            };
            games.push(PlayedGame { variant, outcome });
        }
        Ok(games)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::tests::{challenge, test_urls};
    use crate::store::{Entry, SeatRow};
    use kodex_engine::{Side, Team};

    /// A rated 5+3 game of alice (white) and bob, ended with `result` after `moves`.
    fn ended(id: &str, moves: &[&str], result: GameResult) -> GameRow {
        let mut row = challenge(id, None);
        row.rated = true;
        row.time_control = crate::clock::TimeControl::parse("5+3").expect("clock");
        row.seats = ["alice", "bob"]
            .iter()
            .enumerate()
            .map(|(seat, name)| SeatRow {
                seat,
                user_id: (*name).to_owned(),
                user_name: (*name).to_owned(),
                side: Side(seat as u8),
                team: Team(seat as u8),
                remaining_ms: None,
                setup: None,
                ready: false,
            })
            .collect();
        for mv in moves {
            row.moves.push(Entry::Move(mv));
        }
        row.status = Status::Finished;
        row.result = Some(result);
        row
    }

    #[test]
    fn only_finished_rated_games_of_two_people_who_both_moved_are_rated() {
        let win = GameResult::Win { team: Team(1) };
        let game = ended("g1", &["f2f3", "e7e5"], win.clone());
        assert_eq!(rated_players(&game), Some((["alice", "bob"], 0.0)));
        let draw = ended("g1", &["e2e4", "e7e5"], GameResult::Draw);
        assert_eq!(rated_players(&draw).map(|(_, score)| score), Some(0.5));
        // Casual.
        let mut casual = game.clone();
        casual.rated = false;
        assert!(!rates(&casual));
        // Ended before both sides moved (a resignation after one move).
        assert!(!rates(&ended("g1", &["e2e4"], win.clone())));
        // Aborted, or no result.
        let mut aborted = game.clone();
        aborted.status = Status::Aborted;
        aborted.result = Some(GameResult::NoResult);
        assert!(!rates(&aborted));
        let mut unknown = game.clone();
        unknown.result = Some(GameResult::NoResult);
        assert!(!rates(&unknown));
        // Against the computer.
        let mut computer = game.clone();
        computer.seats[1].user_id =
            crate::api::UserRef::computer(crate::api::Platform::Console, 3).id;
        assert!(!rates(&computer));
        // More than two players.
        let mut four = game.clone();
        four.seats.push(SeatRow {
            seat: 2,
            ..four.seats[0].clone()
        });
        assert!(!rates(&four));
        // Still running.
        let mut running = game;
        running.status = Status::Active;
        assert!(!rates(&running));
    }

    #[tokio::test]
    async fn the_save_that_ends_a_rated_game_rates_it_once_with_its_history() {
        for url in test_urls("rated").await {
            let store = Store::open(&url).await.expect("open");
            let mut row = ended("g1", &["f2f3", "e7e5"], GameResult::Win { team: Team(1) });
            let (status, result) = (row.status, row.result.clone());
            row.status = Status::Active;
            row.result = None;
            assert!(store.insert(&row).await.expect("insert"));
            // The game ends: one save writes the game, both ratings and history.
            (row.status, row.result) = (status, result);
            row.updated_at = 5_000;
            assert!(store.save(&mut row).await.expect("save"));
            let names: Vec<(&str, i64, i64)> = row
                .rating_changes
                .iter()
                .map(|c| (c.name.as_str(), c.before, c.after))
                .collect();
            assert_eq!(names, [("alice", 1500, 1338), ("bob", 1500, 1662)]);
            let bob = store.ratings_of("console", "bob").await.expect("read");
            assert_eq!((bob.len(), bob[0].games, bob[0].wins), (1, 1, 1));
            assert_eq!((bob[0].rated_at, bob[0].best), (5_000, None));
            // Saved again (a deadline cleared, say): not rated twice.
            assert!(store.save(&mut row).await.expect("save again"));
            assert!(row.rating_changes.is_empty());
            let alice = store.ratings_of("console", "alice").await.expect("read");
            assert_eq!((alice[0].games, alice[0].losses), (1, 1));
            let history: i64 = store
                .raw_one::<(i64,)>("SELECT COUNT(*) FROM rating_history")
                .await
                .map(|(n,)| n)
                .expect("count");
            assert_eq!(history, 2);
            // Someone who played elsewhere under that name is found by it.
            let found = store
                .rated_user_named("console", "BOB")
                .await
                .expect("find");
            assert_eq!(found, Some(("bob".to_owned(), "bob".to_owned())));
        }
    }
}
