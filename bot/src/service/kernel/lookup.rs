//! Which game a request is about: the id given, or the caller's only game in
//! this chat (in a private chat: anywhere on the platform, the current chat's
//! games first); when that is ambiguous the reply lists the candidates by id.
//! Also where a game lives: an adapter may move it into a thread.
//!
//! An id names a game in two ways. The whole id ([`GAME_ID_LEN`] random
//! letters) names any game on the platform: whoever was told it may look.
//! A short form — the first [`MIN_SHORT_ID`] or more letters, or the short
//! id of a game stored by an earlier version — names only one of the
//! caller's own games: one they play or challenged or were challenged to,
//! one they or this chat watch, or one of this chat's games. It never names
//! a stranger's game in another chat. Unknown ids count against the person
//! who named them: after [`MAX_UNKNOWN_IDS`] within [`UNKNOWN_ID_WINDOW`]
//! nothing but their own games is looked up for them until the window has
//! passed (counted in memory, per process).

use super::ids::GAME_ID_LEN;
use super::msg::{Failure, Msg, Outcome};
use super::players::is_user;
use super::request::Ctx;
use super::service::Service;
use crate::store::{GameRow, Status};
use crate::time::Millis;
use tokio::sync::MutexGuard;

/// The fewest letters of an id that name one of the caller's own games.
pub const MIN_SHORT_ID: usize = 4;

/// Unknown game ids one person may name within [`UNKNOWN_ID_WINDOW`]
/// before ids are refused to them (but their own games').
pub const MAX_UNKNOWN_IDS: usize = 10;

/// The window [`MAX_UNKNOWN_IDS`] is counted over: 10 minutes.
pub const UNKNOWN_ID_WINDOW: Millis = 10 * 60 * 1000;

/// The longest text read as an id; longer text is no id.
const MAX_ID_TEXT: usize = 48;

/// The most games a short form is compared with (ids sharing the prefix).
const MAX_PREFIX_MATCHES: usize = 64;

/// People whose unknown ids are remembered before old entries are swept.
const MAX_REMEMBERED: usize = 10_000;

/// What a typed id named.
pub(crate) enum Named {
    /// This game.
    Game(Box<GameRow>),
    /// Several of the caller's own games start with it.
    Several(Vec<GameRow>),
    /// No game the caller may name so.
    Unknown,
    /// The caller named too many unknown ids lately: wait this long.
    Refused(Millis),
}

/// Who may name a game.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum Role {
    /// Only its players (moves, offers, resigning).
    Player,
    /// Anyone (board, PGN): without an id the chat's latest game is used
    /// when the caller plays none here.
    Anyone,
}

/// The partner of seat `seat` (turn order) in a game of four.
pub(crate) fn partner(seat: usize) -> usize {
    (seat + 2) % 4
}

impl Service {
    /// The caller's active game, locked and freshly read, with their seat.
    pub(crate) async fn my_game(
        &self,
        ctx: &Ctx,
        game: Option<String>,
    ) -> Outcome<(MutexGuard<'_, ()>, GameRow, usize)> {
        let found = self.find_game(ctx, game, Role::Player).await?;
        let (lock, row) = self.lock_fresh(&found, Status::Active).await?;
        let row = row.ok_or_else(|| Msg::new("error-game-over").arg("id", found.id.clone()))?;
        let seat = row
            .seat_of(&ctx.actor().id)
            .ok_or_else(|| Msg::new("error-not-your-game").arg("id", row.id.clone()))?;
        // Enochian chess: a player who retired has no more say in the game
        // (as the engine knows: only games with thrones are replayed to ask).
        if !self.variant(&row)?.definition().thrones.is_empty() && self.replay(&row)?.retired(seat)
        {
            return Err(you_left(&row, seat).into());
        }
        Ok((lock, row, seat))
    }

    /// The started game the request is about. A game whose variant's
    /// definition changed since it began (or is gone) is refused here,
    /// before anything of it is shown or changed (see [`Service::variant`]).
    pub(crate) async fn find_game(
        &self,
        ctx: &Ctx,
        explicit: Option<String>,
        role: Role,
    ) -> Outcome<GameRow> {
        let row = self.find_started_game(ctx, explicit, role).await?;
        self.variant(&row)?;
        Ok(row)
    }

    /// [`Service::find_game`] before the definition is checked.
    async fn find_started_game(
        &self,
        ctx: &Ctx,
        explicit: Option<String>,
        role: Role,
    ) -> Outcome<GameRow> {
        if let Some(id) = explicit.filter(|id| !id.trim().is_empty()) {
            let row = Some(self.by_id(ctx, &id).await?)
                .filter(|row| row.start_fen.is_some())
                .ok_or_else(|| no_such_game(&id))?;
            if role == Role::Player && row.side_of(&ctx.actor().id).is_none() {
                // Bughouse: either board's id names the pair; a player's
                // own board is the one meant.
                if let Some(linked) = &row.linked_id {
                    let other = self.inner.store.get(ctx.platform(), linked).await?;
                    if let Some(other) = other.filter(|o| o.side_of(&ctx.actor().id).is_some()) {
                        return Ok(other);
                    }
                }
                return Err(Msg::new("error-not-your-game").arg("id", row.id).into());
            }
            return Ok(row);
        }
        let mut candidates = self.candidates(ctx).await?;
        if candidates.is_empty() && role == Role::Anyone && !ctx.req.private {
            if let Some(row) = self
                .inner
                .store
                .latest_game_in(ctx.platform(), &ctx.req.chat.id)
                .await?
            {
                return Ok(row);
            }
        }
        match candidates.len() {
            0 => Err(Msg::new("error-no-game").into()),
            1 => Ok(candidates.remove(0)),
            _ => Err(self.which_game(ctx, &candidates)),
        }
    }

    /// The game or challenge `typed` names for the actor on the request's
    /// platform (see the module's notes), or the refusal to tell them.
    pub(crate) async fn by_id(&self, ctx: &Ctx, typed: &str) -> Outcome<GameRow> {
        match self.named(ctx, typed, !ctx.quiet_lookups).await? {
            Named::Game(row) => Ok(*row),
            Named::Several(rows) => Err(self.which_game(ctx, &rows)),
            Named::Unknown => Err(no_such_game(typed)),
            Named::Refused(wait) => Err(Msg::new("error-too-many-unknown-ids")
                .arg("minutes", ((wait + 59_999) / 60_000).max(1))
                .into()),
        }
    }

    /// What `typed` names for the actor: one of their own games by its id
    /// or a short form of it, else any game by its whole id. `counted`: an
    /// unknown id counts against the actor, and an actor who named too many
    /// lately is refused all but their own games.
    pub(crate) async fn named(&self, ctx: &Ctx, typed: &str, counted: bool) -> Outcome<Named> {
        let id = typed.trim().trim_start_matches('#').to_lowercase();
        if id.is_empty()
            || id.len() > MAX_ID_TEXT
            || !id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        {
            // No id at all: nothing was looked up.
            return Ok(Named::Unknown);
        }
        let store = &self.inner.store;
        let found = store
            .games_with_id_prefix(ctx.platform(), &id, MAX_PREFIX_MATCHES)
            .await?;
        let mut own = Vec::new();
        let mut watched = None;
        for row in &found {
            if row.id != id && id.chars().count() < MIN_SHORT_ID {
                continue;
            }
            if self.is_own(ctx, row, &mut watched).await? {
                own.push(row.clone());
            }
        }
        if let Some(exact) = own.iter().position(|row| row.id == id) {
            return Ok(Named::Game(Box::new(own.swap_remove(exact))));
        }
        match own.len() {
            0 => {}
            1 => return Ok(Named::Game(Box::new(own.remove(0)))),
            _ => return Ok(Named::Several(own)),
        }
        if counted {
            if let Some(wait) = self.unknown_id_wait(ctx) {
                return Ok(Named::Refused(wait));
            }
        }
        if id.chars().count() >= GAME_ID_LEN {
            if let Some(row) = found.into_iter().find(|row| row.id == id) {
                return Ok(Named::Game(Box::new(row)));
            }
        }
        if counted {
            self.count_unknown_id(ctx);
        }
        Ok(Named::Unknown)
    }

    /// Whether `row` is one of the actor's own games, which a short form of
    /// its id may name: they play it (or a board linked to it), challenged
    /// or were challenged to it, they or the request's chat watch it, or it
    /// lives in the request's chat. `watched`: the games the actor and the
    /// chat watch, read on first need.
    async fn is_own(
        &self,
        ctx: &Ctx,
        row: &GameRow,
        watched: &mut Option<Vec<String>>,
    ) -> Outcome<bool> {
        let actor = ctx.actor();
        let chat = &ctx.req.chat.id;
        let plays = |row: &GameRow| {
            row.seats.iter().any(|seat| is_user(actor, &seat.user_id))
                || row.challenger_id == actor.id
                || row
                    .opponent_id
                    .as_deref()
                    .is_some_and(|o| is_user(actor, o))
        };
        if plays(row)
            || row.chat_id == *chat
            || row.home_chat_id.as_ref() == Some(chat)
            || row.guest_chat_id.as_ref() == Some(chat)
        {
            return Ok(true);
        }
        if watched.is_none() {
            *watched = Some(
                self.inner
                    .store
                    .watched_games(ctx.platform(), &actor.id, chat)
                    .await?,
            );
        }
        if watched.as_ref().is_some_and(|ids| ids.contains(&row.id)) {
            return Ok(true);
        }
        if let Some(linked) = &row.linked_id {
            // Bughouse: either board's id names the pair.
            if let Some(other) = self.inner.store.get(ctx.platform(), linked).await? {
                return Ok(plays(&other));
            }
        }
        Ok(false)
    }

    /// How long the actor must wait before an id not of their own games is
    /// looked up for them again; `None` when they may name one now.
    fn unknown_id_wait(&self, ctx: &Ctx) -> Option<Millis> {
        let now = self.now();
        let key = (ctx.platform().to_owned(), ctx.actor().id.clone());
        let mut seen = self.inner.unknown_ids.lock().ok()?;
        let misses = seen.get_mut(&key)?;
        while misses
            .front()
            .is_some_and(|&at| at <= now - UNKNOWN_ID_WINDOW)
        {
            misses.pop_front();
        }
        if misses.len() < MAX_UNKNOWN_IDS {
            return None;
        }
        let oldest = misses.front().copied().unwrap_or(now);
        Some((oldest + UNKNOWN_ID_WINDOW - now).max(1))
    }

    /// Counts an unknown id the actor named.
    fn count_unknown_id(&self, ctx: &Ctx) {
        let now = self.now();
        let Ok(mut seen) = self.inner.unknown_ids.lock() else {
            return;
        };
        if seen.len() >= MAX_REMEMBERED {
            // Forget the people whose misses have all aged out.
            seen.retain(|_, misses| {
                misses
                    .back()
                    .is_some_and(|&at| at > now - UNKNOWN_ID_WINDOW)
            });
        }
        let misses = seen
            .entry((ctx.platform().to_owned(), ctx.actor().id.clone()))
            .or_default();
        misses.push_back(now);
        while misses.len() > MAX_UNKNOWN_IDS {
            misses.pop_front();
        }
    }

    /// The caller's active games where the request was made. A private
    /// request (a DM, or input nobody else saw, like Discord's `/move` in a
    /// channel) may be about a game anywhere, but when some of the caller's
    /// games live in the chat it came from, those are the ones meant. A game
    /// moved into a thread (Discord) counts for the channel it started in too.
    pub(crate) async fn candidates(&self, ctx: &Ctx) -> Outcome<Vec<GameRow>> {
        let mut rows: Vec<GameRow> = self
            .open_games(ctx)
            .await?
            .into_iter()
            .filter(|row| row.status == Status::Active)
            .filter(|row| {
                // A game moved into a thread is still the game of the
                // channel it started in.
                ctx.req.private
                    || row.chat_id == ctx.req.chat.id
                    || row.home_chat_id.as_deref() == Some(ctx.req.chat.id.as_str())
                    || row.guest_chat_id.as_deref() == Some(ctx.req.chat.id.as_str())
            })
            .collect();
        // The chat's own games first (a game played in two chats is each
        // one's own).
        let own = |row: &GameRow| {
            row.chat_id == ctx.req.chat.id
                || row.guest_chat_id.as_deref() == Some(ctx.req.chat.id.as_str())
        };
        if rows.iter().any(own) {
            rows.retain(own);
        }
        Ok(rows)
    }

    /// The actor's challenges and games in setup or play on the request's
    /// platform, in any chat: read once per request, as the lookups of one request (a setup
    /// to route, a move's game) all start from them. Writes made by the
    /// request are not seen: a game is re-read under its lock before any
    /// change (see `lock_fresh`).
    pub(crate) async fn open_games(&self, ctx: &Ctx) -> Outcome<Vec<GameRow>> {
        if let Some(rows) = ctx.open_games.get() {
            return Ok(rows.clone());
        }
        let rows = self
            .inner
            .store
            .open_games_of(ctx.platform(), &ctx.actor().id)
            .await?;
        Ok(ctx.open_games.get_or_init(|| rows).clone())
    }

    /// An adapter moved `game`'s conversation from the request's chat into
    /// `chat` (a thread), in the name of one of its players. Only a live game
    /// of this chat moves, and only for its players; anything else is
    /// ignored silently (adapters send this, people cannot).
    pub(crate) async fn relocate(&self, ctx: &Ctx, game: &str, chat: &str) -> Outcome {
        let chat = chat.trim();
        if chat.is_empty() || chat.len() > 64 {
            return Err(Failure::Silent);
        }
        let _lock = self.lock(game).await;
        let Some(mut row) = self.inner.store.get(ctx.platform(), game).await? else {
            return Err(Failure::Silent);
        };
        let live = matches!(row.status, Status::Active | Status::Challenge);
        let actor = ctx.actor();
        let mut player = row.side_of(&actor.id).is_some()
            || row.challenger_id == actor.id
            || row
                .opponent_id
                .as_deref()
                .is_some_and(|o| is_user(actor, o));
        if let (false, Some(linked)) = (player, &row.linked_id) {
            // Bughouse: a player of the other board moves the pair too.
            let other = self.inner.store.get(ctx.platform(), linked).await?;
            player = other.is_some_and(|other| other.side_of(&actor.id).is_some());
        }
        if !live || !player || row.chat_id != ctx.req.chat.id {
            return Err(Failure::Silent);
        }
        if row.home_chat_id.is_none() {
            row.home_chat_id = Some(row.chat_id.clone());
        }
        row.chat_id = chat.to_owned();
        self.save(&mut row).await?;
        if let Some(other_id) = row.linked_id.clone() {
            // Bughouse: the other board follows into the same thread.
            let _other_lock = self.lock_other_board(&row.id, &other_id).await;
            if let Some(mut other) = self.inner.store.get(ctx.platform(), &other_id).await? {
                if other.home_chat_id.is_none() {
                    other.home_chat_id = Some(other.chat_id.clone());
                }
                other.chat_id = chat.to_owned();
                self.save(&mut other).await?;
            }
        }
        tracing::info!(game = %row.id, "game moved into its own thread");
        Ok(Vec::new())
    }

    /// "Which game?" listing `rows` by id.
    pub(crate) fn which_game(&self, ctx: &Ctx, rows: &[GameRow]) -> Failure {
        let list = rows
            .iter()
            .map(|row| self.describe(ctx.lang, row))
            .collect::<Vec<_>>()
            .join("\n");
        Msg::new("error-which-game")
            .arg("games", list)
            .arg("example", which_game_example(&ctx.req.action, ctx.lang))
            .into()
    }

    /// The challenge an accept or decline is about. `accepting`: one the
    /// caller may accept; otherwise one the caller may decline or withdraw.
    pub(crate) async fn find_challenge(
        &self,
        ctx: &Ctx,
        explicit: Option<String>,
        accepting: bool,
    ) -> Outcome<GameRow> {
        let actor = &ctx.actor().id;
        // Named as the opponent, or to a seat of a team challenge.
        let challenged = |row: &GameRow| {
            row.opponent_id
                .as_deref()
                .is_some_and(|o| is_user(ctx.actor(), o))
                || row
                    .seats
                    .iter()
                    .any(|seat| is_user(ctx.actor(), &seat.user_id))
        };
        let fits = |row: &GameRow| {
            if accepting {
                // An invitation is taken by its code only (`/join`).
                row.challenger_id != *actor
                    && row.invite_code.is_none()
                    && (row.opponent_id.is_none() || challenged(row))
            } else {
                row.challenger_id == *actor || challenged(row)
            }
        };
        if let Some(id) = explicit.filter(|id| !id.trim().is_empty()) {
            let row = self.by_id(ctx, &id).await?;
            if row.status != Status::Challenge {
                // A late Accept: the seat went to someone else, who is named.
                let taken = matches!(
                    row.status,
                    Status::Setup | Status::Active | Status::Finished
                );
                if accepting && taken && row.seat_of(actor).is_none() {
                    let takers: Vec<String> = row
                        .seats
                        .iter()
                        .filter(|seat| seat.user_id != row.challenger_id)
                        .map(|seat| seat.user_name.clone())
                        .collect();
                    return Err(Msg::new("error-challenge-taken")
                        .arg("id", row.id)
                        .arg("players", takers.join(", "))
                        .into());
                }
                return Err(Msg::new("error-not-a-challenge").arg("id", row.id).into());
            }
            if accepting && row.challenger_id == *actor {
                return Err(Msg::new("error-own-challenge").into());
            }
            if !fits(&row) {
                // Declining a challenge open to anyone: there is nothing to
                // decline, and only its challenger withdraws it.
                if !accepting && row.opponent_id.is_none() && row.seats.is_empty() {
                    return Err(Msg::new("error-decline-open")
                        .arg("id", row.id)
                        .arg("challenger", row.challenger_name.clone())
                        .into());
                }
                return Err(Msg::new("error-challenge-not-for-you")
                    .arg("id", row.id)
                    .into());
            }
            // An open challenge is for the people of its chat: its id
            // typed elsewhere takes nothing, unless it is public (in the
            // platform's lobby). The named opponent may answer from
            // anywhere (a private chat with the bot, too). An invitation is
            // taken by its code only (`/join`).
            if accepting && row.invite_code.is_some() {
                return Err(no_such_game(&id));
            }
            if accepting && row.chat_id != ctx.req.chat.id && !challenged(&row) && !row.public {
                return Err(Msg::new("error-challenge-elsewhere")
                    .arg("id", row.id)
                    .into());
            }
            return Ok(row);
        }
        let all = if ctx.req.private {
            let mut rows = self
                .inner
                .store
                .open_games_of(ctx.platform(), actor)
                .await?;
            if let Some(handle) = &ctx.actor().handle {
                let by_handle = format!("@{}", handle.to_lowercase());
                rows.extend(
                    self.inner
                        .store
                        .open_games_of(ctx.platform(), &by_handle)
                        .await?,
                );
            }
            rows.into_iter()
                .filter(|row| row.status == Status::Challenge)
                .collect()
        } else {
            self.inner
                .store
                .challenges_in(ctx.platform(), &ctx.req.chat.id)
                .await?
        };
        let own_only =
            accepting && !all.is_empty() && all.iter().all(|r| r.challenger_id == *actor);
        let mut fitting: Vec<GameRow> = all.into_iter().filter(fits).collect();
        match fitting.len() {
            0 if own_only => Err(Msg::new("error-own-challenge").into()),
            0 => Err(Msg::new("error-no-challenge").into()),
            1 => Ok(fitting.remove(0)),
            _ => Err(self.which_game(ctx, &fitting)),
        }
    }
}

/// "There is no game “k7m2”" (the id shortened for the echo).
pub(crate) fn no_such_game(id: &str) -> Failure {
    let shown: String = id.trim().chars().take(16).collect();
    Msg::new("error-no-such-game").arg("id", shown).into()
}

/// What a retired player (seat `seat`) is told when they try to play on.
pub(crate) fn you_left(row: &GameRow, seat: usize) -> Msg {
    Msg::new("retire-you-left")
        .arg("id", row.id.clone())
        .arg("partner", row.player_name(partner(seat)).to_owned())
}

/// The command to show with a game id when a request needs one: the one
/// the person typed (`/accept <id>` after `/accept`), `/move e4 <id>` for
/// a move.
fn which_game_example(action: &crate::api::Action, lang: crate::i18n::Lang) -> String {
    use crate::api::Action;
    let (name, rest) = match action {
        Action::Accept { .. } => ("accept", ""),
        Action::Decline { .. } => ("decline", ""),
        Action::Resign { .. } => ("resign", ""),
        Action::Draw { .. } => ("draw", ""),
        Action::DeclineDraw { .. } => ("nodraw", ""),
        Action::Takeback { .. } => ("takeback", ""),
        Action::Abort { .. } => ("abort", ""),
        Action::Board { .. } => ("board", ""),
        Action::Pgn { .. } => ("pgn", ""),
        Action::Rematch { .. } => ("rematch", ""),
        Action::Watch { .. } => ("watch", ""),
        _ => ("move", " e4"),
    };
    // A Russian reader is shown the command's Russian name (typed on every
    // platform: /ничья <id>).
    let name = match lang {
        crate::i18n::Lang::Ru => {
            crate::command::Command::find(name).map_or(name, |command| command.russian_name())
        }
        crate::i18n::Lang::En => name,
    };
    format!("/{name}{rest} <id>")
}
