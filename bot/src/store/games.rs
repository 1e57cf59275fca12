//! The `games` table with its `seats` (see `migrations/0001_games.sql` and
//! `migrations/0004_seats.sql`): a game and its seats are read in one query
//! and written in one transaction.

use super::columns::{DrawOffer, GameResult};
use super::db::{on_pool, Dialect};
use super::rows::Fetched;
use super::rows::{GameRow, SeatRow};
use super::{Store, StoreError};
use crate::time::Millis;
use kodex_engine::Side;

/// The game columns read, each prefixed with the `games` alias `g`.
const COLUMNS: &str =
    "g.id, g.platform, g.chat_id, g.home_chat_id, g.variant, g.status, g.challenger_id, \
    g.challenger_name, g.opponent_id, g.opponent_name, g.color, g.time_control, g.start_fen, \
    g.moves, g.turn_started_at, g.deadline, g.draw_offer, g.takeback_offer, g.result, g.reason, \
    g.created_at, g.updated_at, g.version, g.from_fen, g.reminder_at, g.reminded, g.no_increment, g.linked_id, g.board, g.move_times, g.exchange_offer, \
    g.variant_fingerprint, g.rated, g.public, g.guest_chat_id, g.invite_code";

/// The seat columns read with a game (`NULL` for a game without seats); no
/// name clashes with a game column.
const SEAT_COLUMNS: &str =
    "s.seat, s.user_id, s.user_name, s.side, s.team, s.remaining_ms, s.setup, s.ready";

/// The columns a game changes over its life, in the order [`bind_mutable`] binds them.
const MUTABLE: [&str; 24] = [
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
    "no_increment",
    "linked_id",
    "board",
    "move_times",
    "exchange_offer",
    "public",
    "guest_chat_id",
    "invite_code",
];

/// Binds `$row`'s values of the [`MUTABLE`] columns, in order, to `$query`
/// (a macro: the query is SQLite's or PostgreSQL's).
macro_rules! bind_mutable {
    ($query:expr, $row:expr) => {{
        let row: &GameRow = $row;
        $query
            .bind(row.chat_id.clone())
            .bind(row.home_chat_id.clone())
            .bind(row.status.as_str().to_owned())
            .bind(row.opponent_id.clone())
            .bind(row.opponent_name.clone())
            .bind(row.start_fen.clone())
            .bind(row.moves.as_str().to_owned())
            .bind(row.turn_started_at)
            .bind(row.deadline)
            .bind(row.draw_offer.map(DrawOffer::encode))
            .bind(row.takeback_offer.map(|seat| seat as i64))
            .bind(row.result.as_ref().map(GameResult::to_text))
            .bind(
                row.reason
                    .as_ref()
                    .map(|reason| reason.to_text().to_owned()),
            )
            .bind(row.updated_at)
            .bind(row.reminder_at)
            .bind(row.reminded.bits())
            .bind(row.no_increment.bits())
            .bind(row.linked_id.clone())
            .bind(row.board as i64)
            .bind(row.move_times.to_string())
            .bind(row.exchange_offer.map(|seat| seat as i64))
            .bind(i64::from(row.public))
            .bind(row.guest_chat_id.clone())
            .bind(row.invite_code.clone())
    }};
}

/// The games `platform`, `user` plays, in `chat` or (NULL) any: found through
/// the user's seats (`+g.platform` keeps SQLite from reading every game of the
/// platform instead).
pub(super) const ACTIVE_GAMES_OF: &str = "+g.platform = ? AND g.status = 'active' \
     AND g.id IN (SELECT game_id FROM seats WHERE platform = ? AND user_id = ?) \
     AND (? IS NULL OR g.chat_id = ?)";

/// The open games (challenges, setups, games in play) of `user` on `platform`,
/// bound as platform, user three times then platform: found through the
/// user's seats and the two challenge indexes of migration 0006.
pub(super) const OPEN_GAMES_OF: &str =
    "g.id IN (SELECT game_id FROM seats WHERE platform = ? AND user_id = ? \
     UNION SELECT id FROM games WHERE platform = ? AND status = 'challenge' \
       AND challenger_id = ? \
     UNION SELECT id FROM games WHERE platform = ? AND status = 'challenge' \
       AND opponent_id = ?) \
     AND +g.platform = ? AND g.status IN ('challenge', 'setup', 'active')";

/// Reads games with their seats: `filter` selects games (alias `g`), `order`
/// sorts them. One query, so a game and its seats are read from one snapshot.
pub(super) fn games_query(filter: &str, order: &str) -> String {
    format!(
        "SELECT {COLUMNS}, {SEAT_COLUMNS} FROM games g \
         LEFT JOIN seats s ON s.platform = g.platform AND s.game_id = g.id \
         WHERE {filter} ORDER BY {order}, s.seat"
    )
}

/// Folds the rows of a [`games_query`] (one per seat, games in order) into games.
/// A column that does not parse is an error naming its game.
fn fold_games(rows: &[impl Fetched]) -> Result<Vec<GameRow>, StoreError> {
    let mut games: Vec<GameRow> = Vec::new();
    for row in rows {
        let id: String = row.get("id")?;
        let same_game = games.last().is_some_and(|game| game.id == id);
        if !same_game {
            games.push(GameRow::decode(row).map_err(|e| e.of_game(&id))?);
        }
        if row.get::<Option<i64>>("seat")?.is_some() {
            let seat = SeatRow::decode(row).map_err(|e| e.of_game(&id))?;
            if let Some(game) = games.last_mut() {
                game.stored_seats.push(seat.clone());
                game.seats.push(seat);
            }
        }
    }
    Ok(games)
}

/// Writes `$row`'s seats on the connection `$conn` (of the transaction
/// that writes the game): every seat in the row is stored, every other
/// seat of the game removed. A macro: the connection is SQLite's or
/// PostgreSQL's.
macro_rules! write_seats {
    ($conn:expr, $row:expr) => {{
        let conn = $conn;
        let row: &GameRow = $row;
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
            let mut query = sqlx::query(conn.sql(&sql));
            for seat in &row.seats {
                query = query
                    .bind(row.platform.clone())
                    .bind(row.id.clone())
                    .bind(seat.seat as i64)
                    .bind(seat.user_id.clone())
                    .bind(seat.user_name.clone())
                    .bind(i64::from(seat.side.0))
                    .bind(i64::from(seat.team.0))
                    .bind(seat.remaining_ms)
                    .bind(seat.setup.clone())
                    .bind(i64::from(seat.ready));
            }
            query.execute(&mut *conn).await?;
        }
        // Only seats read with the row can be gone: with none gone, nothing
        // is deleted.
        if removed || row.stored_seats.is_empty() {
            let kept = if row.seats.is_empty() {
                String::new()
            } else {
                format!(
                    " AND seat NOT IN ({})",
                    vec!["?"; row.seats.len()].join(", ")
                )
            };
            let sql = format!("DELETE FROM seats WHERE platform = ? AND game_id = ?{kept}");
            let mut query = sqlx::query(conn.sql(&sql))
                .bind(row.platform.clone())
                .bind(row.id.clone());
            for seat in &row.seats {
                query = query.bind(seat.seat as i64);
            }
            query.execute(&mut *conn).await?;
        }
    }};
}

impl Store {
    /// Inserts a new row with its seats; false when the id is taken.
    pub async fn insert(&self, row: &GameRow) -> Result<bool, StoreError> {
        let sql = format!(
            "INSERT INTO games (id, platform, variant, challenger_id, challenger_name, \
             color, time_control, created_at, version, from_fen, variant_fingerprint, rated, {}) \
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?{}) ON CONFLICT DO NOTHING",
            MUTABLE.join(", "),
            ", ?".repeat(MUTABLE.len()),
        );
        on_pool!(&self.writer, db => {
            let query = sqlx::query(db.sql(&sql))
                .bind(row.id.clone())
                .bind(row.platform.clone())
                .bind(row.variant.clone())
                .bind(row.challenger_id.clone())
                .bind(row.challenger_name.clone())
                .bind(row.color.to_text().to_owned())
                .bind(row.time_control.code())
                .bind(row.created_at)
                .bind(row.version)
                .bind(row.from_fen.clone())
                .bind(row.variant_fingerprint.clone())
                .bind(i64::from(row.rated));
            let mut tx = db.begin().await?;
            let result = bind_mutable!(query, row).execute(&mut *tx).await?;
            if result.rows_affected() != 1 {
                return Ok(false);
            }
            write_seats!(&mut *tx, row);
            tx.commit().await?;
            Ok(true)
        })
    }

    /// Writes every mutable column and the seats of `row` in one transaction
    /// if the stored version is still `row.version`, and bumps the version.
    /// False when someone else wrote first. The end of a rated game changes
    /// its players' ratings in the same transaction (see [`super::ratings`]);
    /// what changed is left in `row.rating_changes`.
    pub async fn save(&self, row: &mut GameRow) -> Result<bool, StoreError> {
        let sql = format!(
            "UPDATE games SET {} = ?, version = version + 1 WHERE id = ? AND version = ?",
            MUTABLE.join(" = ?, "),
        );
        let rates = super::ratings::rates(row);
        on_pool!(&self.writer, db => {
            let update = bind_mutable!(sqlx::query(db.sql(&sql)), row)
                .bind(row.id.clone())
                .bind(row.version);
            if row.seats == row.stored_seats && !rates {
                // Nothing but the game row changed: one statement, no transaction.
                if update.execute(db).await?.rows_affected() != 1 {
                    return Ok(false);
                }
            } else {
                let mut tx = db.begin().await?;
                if update.execute(&mut *tx).await?.rows_affected() != 1 {
                    // Dropping the transaction rolls it back.
                    return Ok(false);
                }
                write_seats!(&mut *tx, row);
                let changes = super::ratings::rate_in!(&mut *tx, row);
                tx.commit().await?;
                row.stored_seats = row.seats.clone();
                row.rating_changes = changes;
            }
        });
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
        on_pool!(&self.pool, db => {
            let mut query = sqlx::query(db.sql(&sql));
            for value in binds {
                query = query.bind(value.map(str::to_owned));
            }
            let rows = query.fetch_all(db).await?;
            fold_games(&rows)
        })
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
        on_pool!(&self.writer, db => {
            let done = sqlx::query(db.sql(
                "UPDATE games SET variant_fingerprint = ? \
                 WHERE variant = ? AND variant_fingerprint IS NULL",
            ))
            .bind(fingerprint.to_owned())
            .bind(variant.to_owned())
            .execute(db)
            .await?;
            Ok(done.rows_affected())
        })
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

    /// The platform's public seeks (open challenges published beyond their
    /// chat), oldest first, at most `limit`.
    pub async fn public_seeks(
        &self,
        platform: &str,
        limit: usize,
    ) -> Result<Vec<GameRow>, StoreError> {
        // A number of ours, not a value from outside: written into the SQL.
        let filter = format!(
            "g.id IN (SELECT id FROM games WHERE platform = ? AND status = 'challenge' \
             AND public = 1 ORDER BY created_at, id LIMIT {})",
            limit.min(1000)
        );
        self.games(&filter, "g.created_at, g.id", &[Some(platform)])
            .await
    }

    /// The invitation (`/invite`) of `code` on `platform`, taken or not.
    pub async fn invitation(
        &self,
        platform: &str,
        code: &str,
    ) -> Result<Option<GameRow>, StoreError> {
        let games = self
            .games(
                "g.platform = ? AND g.invite_code = ?",
                "g.id",
                &[Some(platform), Some(code)],
            )
            .await?;
        Ok(games.into_iter().next())
    }

    /// `user`'s latest final setup in `variant` on `platform`, other than in
    /// game `except`: the setup text and the side it was placed for.
    pub async fn last_setup(
        &self,
        platform: &str,
        user: &str,
        variant: &str,
        except: &str,
    ) -> Result<Option<(String, Side)>, StoreError> {
        let found = on_pool!(&self.pool, db => sqlx::query_as::<_, (String, i64)>(db.sql(
            "SELECT s.setup, s.side FROM seats s JOIN games g \
             ON g.platform = s.platform AND g.id = s.game_id \
             WHERE s.platform = ? AND s.user_id = ? AND g.variant = ? AND g.id <> ? \
             AND s.ready = 1 AND s.setup IS NOT NULL \
             AND g.status IN ('setup', 'active', 'finished') \
             ORDER BY g.updated_at DESC, g.id LIMIT 1",
        ))
        .bind(platform.to_owned())
        .bind(user.to_owned())
        .bind(variant.to_owned())
        .bind(except.to_owned())
        .fetch_optional(db)
        .await?);
        Ok(found.map(|(text, side)| (text, Side(side.clamp(0, 255) as u8))))
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
                 AND (g2.chat_id = ? OR g2.home_chat_id = ? OR g2.guest_chat_id = ?) \
                 AND g2.start_fen IS NOT NULL \
                 ORDER BY g2.updated_at DESC, g2.id LIMIT 1)",
                "g.id",
                &[
                    Some(platform),
                    Some(user),
                    Some(chat),
                    Some(chat),
                    Some(chat),
                ],
            )
            .await?;
        Ok(games.into_iter().next())
    }

    /// Ids of rows whose deadline or reminder is at or before `now`, the
    /// earliest first: of two flags that fell before one look (bughouse's
    /// two boards), the first to fall decides.
    pub async fn due(&self, now: Millis) -> Result<Vec<(String, String)>, StoreError> {
        Ok(
            on_pool!(&self.pool, db => sqlx::query_as::<_, (String, String)>(db.sql(
            "SELECT platform, id FROM ( \
               SELECT platform, id, deadline AS moment FROM games \
               WHERE deadline IS NOT NULL AND deadline <= ? \
               UNION ALL SELECT platform, id, reminder_at FROM games \
               WHERE reminder_at IS NOT NULL AND reminder_at <= ?) AS due_at \
             GROUP BY platform, id ORDER BY MIN(moment), platform, id",
        ))
        .bind(now)
        .bind(now)
        .fetch_all(db)
        .await?),
        )
    }

    /// The earliest pending deadline or reminder of each platform (its
    /// key): a process looks only at those of the platforms it serves.
    pub async fn next_deadlines(&self) -> Result<Vec<(String, Millis)>, StoreError> {
        Ok(
            on_pool!(&self.pool, db => sqlx::query_as::<_, (String, i64)>(db.sql(
            "SELECT platform, MIN(moment) FROM (SELECT platform, MIN(deadline) AS moment \
             FROM games WHERE deadline IS NOT NULL GROUP BY platform \
             UNION ALL SELECT platform, MIN(reminder_at) FROM games \
             WHERE reminder_at IS NOT NULL GROUP BY platform) AS moments \
             GROUP BY platform ORDER BY platform",
        ))
        .fetch_all(db)
        .await?),
        )
    }

    /// The earliest pending deadline or reminder.
    pub async fn next_deadline(&self) -> Result<Option<Millis>, StoreError> {
        Ok(
            on_pool!(&self.pool, db => sqlx::query_scalar::<_, Option<i64>>(db.sql(
            "SELECT MIN(moment) FROM (SELECT MIN(deadline) AS moment FROM games \
             UNION ALL SELECT MIN(reminder_at) FROM games) AS moments",
        ))
        .fetch_one(db)
        .await?),
        )
    }
}
