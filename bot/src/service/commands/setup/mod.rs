//! Setup phases: after `/accept` of a variant with a setup phase, each seat
//! places its army before play. A seat's setup is stored on its row and goes
//! to nobody but its player; the chat learns only who is ready. When every
//! seat is ready (or the setup deadline passes and the late get a random
//! setup), the setups are composed into the start position and play begins.

use crate::service::kernel::apply::{finish, result_of};
mod placing;

use crate::api::{Button, ButtonAction, Delivery, Target};
use crate::clock::format_remaining;
use crate::i18n::Lang;
use crate::service::kernel::apply::Event;
use crate::service::kernel::request::looks_like_move;
use crate::service::kernel::setup::{placement_of, SetupCommand, MAX_SETUP_TEXT};
use crate::service::kernel::{Ctx, Failure, Msg, Outcome, Service};
use crate::service::present::{chat_of, player_ref};
use crate::store::{GameRow, Status};
use crate::time::Millis;
use kodex_engine::setup::{setup_view, start_fen, Placement, SetupError, SetupMode};
use kodex_engine::{Audience, Game, Side, Start, Variant};
use kodex_render::Decor;

/// How long players of a game with a running clock have to set up.
const LIVE_SETUP_TIME: Millis = 5 * 60_000;

/// Whether plain chat text could be setup input: a keyword, a FEN fragment,
/// or words that each could be a placement. Chatter is ignored without
/// reading any game.
fn looks_like_setup(text: &str) -> bool {
    if !matches!(SetupCommand::parse(text), SetupCommand::Place(_)) {
        return true;
    }
    let text = text.trim();
    if text.is_empty() || text.chars().count() > MAX_SETUP_TEXT {
        return false;
    }
    if text.contains('/') {
        return !text.contains(char::is_whitespace)
            && text.chars().all(|c| c.is_alphanumeric() || c == '/');
    }
    text.split_whitespace().all(|word| {
        word.chars().count() <= 6
            && word.chars().all(char::is_alphanumeric)
            && word.chars().any(|c| c.is_ascii_digit())
    })
}

/// The message naming the rule a setup breaks, in the player's language.
/// Why a placement is refused, piece letters in `lang` (Кр Ф Л in Russian).
pub(crate) fn setup_error(lang: Lang, variant: &Variant, error: &SetupError) -> Msg {
    match error {
        SetupError::NothingToPlace => Msg::new("setup-error-nothing-to-place"),
        SetupError::Unreadable(word) => {
            Msg::new("setup-error-unreadable").arg("word", word.clone())
        }
        SetupError::NotInArmy(piece) => {
            Msg::new("setup-error-not-in-army").arg("piece", piece_letter(lang, variant, *piece))
        }
        SetupError::AllPlaced(piece) => {
            Msg::new("setup-error-all-placed").arg("piece", piece_letter(lang, variant, *piece))
        }
        SetupError::OutsideZone { square, from, to } => Msg::new("setup-error-outside-zone")
            .arg("square", square.clone())
            .arg("from", *from as i64)
            .arg("to", *to as i64),
        SetupError::PawnRank { square, from, to } => Msg::new("setup-error-pawn-rank")
            .arg("square", square.clone())
            .arg("from", *from as i64)
            .arg("to", *to as i64),
        SetupError::Occupied(square) => {
            Msg::new("setup-error-occupied").arg("square", square.clone())
        }
        SetupError::Missing(pieces) => {
            Msg::new("setup-error-missing").arg("pieces", piece_letters(lang, variant, pieces))
        }
        SetupError::BishopsSameColour => Msg::new("setup-error-bishops-same-colour"),
        SetupError::PawnsShareFile(file) => {
            Msg::new("setup-error-pawns-share-file").arg("file", file.to_string())
        }
        SetupError::OneAtATime => Msg::new("setup-error-one-at-a-time"),
        SetupError::GivesCheck(square) => {
            Msg::new("setup-error-gives-check").arg("square", square.clone())
        }
    }
}

/// `KQP` as `K Q P`.
/// Piece letters (`KQRRB`) spaced for reading, in `lang`'s letters: `K Q R
/// R B`, or `Кр Ф Л Л С` in Russian (what the player types back).
/// One piece's letter as `lang` reads it (Кр for K in Russian).
fn piece_letter(lang: Lang, variant: &Variant, letter: char) -> String {
    match lang {
        Lang::Ru => variant.russian_san(&letter.to_string()),
        Lang::En => letter.to_string(),
    }
}

pub(crate) fn piece_letters(lang: Lang, variant: &Variant, letters: &str) -> String {
    match lang {
        Lang::En => letters
            .chars()
            .map(String::from)
            .collect::<Vec<_>>()
            .join(" "),
        Lang::Ru => {
            // Pawns, which have no letter in Russian and are placed by
            // their square alone (e2), are counted: "Кр Ф Л и 8 пешек".
            let mut pawns = 0;
            let mut pieces = Vec::new();
            for letter in letters.chars() {
                let russian = variant.russian_san(&letter.to_string());
                if letter == 'P' && russian == "P" {
                    pawns += 1;
                } else {
                    pieces.push(russian);
                }
            }
            let catalogue = crate::i18n::catalogue();
            if pawns == 0 {
                return pieces.join(" ");
            }
            let pawns = catalogue.text(lang, "setup-pawns", &[("count", (pawns as i64).into())]);
            if pieces.is_empty() {
                return pawns;
            }
            catalogue.text(
                lang,
                "setup-pieces-and-pawns",
                &[("pieces", pieces.join(" ").into()), ("pawns", pawns.into())],
            )
        }
    }
}

/// `placement`, made for side `from`, moved to side `to`'s half: ranks turn
/// over, files stay (as a FEN fragment reads from either side).
fn mirrored(variant: &Variant, placement: &Placement, from: Side, to: Side) -> String {
    let geometry = &variant.definition().geometry;
    placement
        .pieces(variant)
        .into_iter()
        .filter_map(|(square, letter)| {
            let square = geometry.parse(&square)?;
            let square = if from == to {
                square
            } else {
                let rank = geometry.ranks as i32 - 1 - geometry.rank_of(square);
                geometry.square(geometry.file_of(square), rank)?
            };
            Some(format!("{letter}{}", geometry.name(square)))
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// What is drawn around a board of the setup phase: the players' names, no
/// clocks (they start with play), `bottom` below.
pub(crate) fn setup_decor(row: &GameRow, bottom: Side, status: Option<String>) -> Decor {
    Decor {
        bottom,
        names: vec![row.player_name(0).to_owned(), row.player_name(1).to_owned()],
        clocks: Vec::new(),
        status,
        to_move: None,
        ..Decor::default()
    }
}

/// Whether `variant`'s setup is public: in turn, in the chat (see placing.rs).
fn is_public(variant: &Variant) -> bool {
    variant
        .setup()
        .is_some_and(|setup| setup.mode == SetupMode::Public)
}

/// Whether side `side` places pieces in `variant`.
fn places(variant: &Variant, side: Side) -> bool {
    variant
        .setup()
        .is_some_and(|setup| !setup.armies[side.index() & 1].is_empty())
}

impl Service {
    /// Starts the setup phase of the accepted game `row` (seats filled, not
    /// yet saved): no clock runs, the setup deadline is stored, each placing
    /// player privately gets their half of the board, the chat is told that
    /// the game is being set up.
    pub(crate) async fn begin_setup(&self, mut row: GameRow, lang: Lang) -> Outcome {
        let variant = self.variant(&row)?;
        let now = self.now();
        row.status = Status::Setup;
        row.start_fen = None;
        row.turn_started_at = None;
        row.deadline = row
            .time_control
            .phase_time(LIVE_SETUP_TIME)
            .map(|t| now.saturating_add(t));
        for seat in &mut row.seats {
            // A seat with nothing to place is ready from the start.
            seat.ready = !places(&variant, seat.side);
        }
        if is_public(&variant) {
            return self.begin_public_setup(row, &variant, lang).await;
        }
        self.save(&mut row).await?;
        tracing::info!(game = %row.id, "setup phase started");
        let lines = |lang: Lang| {
            let mut lines = vec![self.text(
                lang,
                &Msg::new("setup-started")
                    .arg("id", row.id.clone())
                    .arg("variant", variant.name(lang.code()).to_owned())
                    .arg("white", row.player_name(0).to_owned())
                    .arg("black", row.player_name(1).to_owned())
                    .arg("clock", self.clock_phrase(lang, row.time_control)),
            )];
            lines.extend(self.setup_deadline_line(lang, &row));
            lines
        };
        let mut deliveries = self.public_note(&row, lang, lines).await;
        for seat in row.seats.clone() {
            if seat.ready {
                continue;
            }
            let player_lang = self.user_lang(&row.platform, &seat.user_id).await;
            let mut lines = vec![self.text(
                player_lang,
                &Msg::new("setup-instructions")
                    .arg("id", row.id.clone())
                    .arg("color", self.color_name(player_lang, seat.side)),
            )];
            lines.extend(self.setup_deadline_line(player_lang, &row));
            deliveries.push(
                self.setup_board(&row, &variant, seat.side, player_lang, lines)
                    .await,
            );
        }
        Ok(deliveries)
    }

    /// Setup input `text` from a player: `Ok(None)` when it is not for a
    /// game of theirs being set up (the move pipeline takes it then).
    /// `game` is the id given with `/move`; `plain` marks chat text.
    /// The actor's games being set up on the platform, in any chat.
    async fn setup_games(&self, ctx: &Ctx) -> Outcome<Vec<GameRow>> {
        let mut rows = self.open_games(ctx).await?;
        rows.retain(|row| row.status == Status::Setup);
        Ok(rows)
    }

    /// What a person typed (`text`, to game `game` if named), read as
    /// setup input when they set up a game: `Ok(None)` when it is not
    /// (`plain`: chatter is not).
    pub(crate) async fn route_setup(
        &self,
        ctx: &Ctx,
        text: &str,
        game: Option<&str>,
        plain: bool,
    ) -> Outcome<Option<Vec<Delivery>>> {
        let mut text = text.trim().to_owned();
        if plain && !looks_like_setup(&text) {
            return Ok(None);
        }
        let mut explicit = None;
        if let Some(id) = game.filter(|id| !id.trim().is_empty()) {
            match self.named_setup(ctx, id).await? {
                Some(Some(row)) => explicit = Some(row),
                Some(None) => return Ok(None),
                // `/move Ke1 Qd1`: the second placement was read as an id.
                None if matches!(SetupCommand::parse(&text), SetupCommand::Place(_)) => {
                    text = format!("{text} {}", id.trim())
                }
                None => return Ok(None),
            }
        }
        // A move for a game in play keeps going to that game.
        let move_like = plain && looks_like_move(&text);
        self.setup_for(ctx, SetupCommand::parse(&text), explicit, move_like)
            .await
    }

    /// `command` (a button's, or `/board`'s) for the actor's game being set
    /// up (`game`, if named): `Ok(None)` when they set up no such game.
    pub(crate) async fn setup_command(
        &self,
        ctx: &Ctx,
        command: SetupCommand<'_>,
        game: Option<&str>,
    ) -> Outcome<Option<Vec<Delivery>>> {
        let mut explicit = None;
        if let Some(id) = game.filter(|id| !id.trim().is_empty()) {
            match self.named_setup(ctx, id).await? {
                Some(Some(row)) => explicit = Some(row),
                _ => return Ok(None),
            }
        }
        self.setup_for(ctx, command, explicit, false).await
    }

    /// What the id `id` names, only peeked at (what it names is told by the
    /// lookup that follows when this is no setup input, so a miss counts
    /// once): `Some(Some(row))` the actor's game being set up, `Some(None)`
    /// another game, `None` no game.
    async fn named_setup(&self, ctx: &Ctx, id: &str) -> Outcome<Option<Option<GameRow>>> {
        let named = match self.named(ctx, id, false).await? {
            crate::service::kernel::lookup::Named::Game(row) => Some(*row),
            _ => None,
        };
        let actor = &ctx.actor().id;
        Ok(named.map(|row| {
            (row.status == Status::Setup && row.side_of(actor).is_some()).then_some(row)
        }))
    }

    /// Applies `command` to the actor's game being set up: `explicit`, else
    /// their only one here. `move_like`: the input could be a move, which
    /// goes to a game in play if there is one.
    async fn setup_for(
        &self,
        ctx: &Ctx,
        command: SetupCommand<'_>,
        explicit: Option<GameRow>,
        move_like: bool,
    ) -> Outcome<Option<Vec<Delivery>>> {
        let found = match explicit {
            Some(row) => row,
            None => {
                let mut rows = self.setup_games(ctx).await?;
                if !ctx.req.private || rows.iter().any(|row| row.chat_id == ctx.req.chat.id) {
                    rows.retain(|row| row.chat_id == ctx.req.chat.id);
                }
                if rows.is_empty() {
                    return Ok(None);
                }
                if move_like && !self.candidates(ctx).await?.is_empty() {
                    return Ok(None);
                }
                if rows.len() > 1 {
                    return Err(self.which_game(ctx, &rows));
                }
                rows.remove(0)
            }
        };
        let public = is_public(&self.variant(&found)?);
        if !public && !ctx.req.private && command != SetupCommand::Board {
            // Refused before the text is read: a setup is secret. (A board
            // asked for in the group goes to the player privately.)
            return Err(Failure::Withdrawn(
                Msg::new("error-setup-in-public").arg("id", found.id.clone()),
            ));
        }
        if let SetupCommand::Place(text) = command {
            if text.chars().count() > MAX_SETUP_TEXT {
                return Err(Msg::new("error-setup-too-long").into());
            }
        }
        let (_lock, row) = self.lock_fresh(&found, Status::Setup).await?;
        let mut row =
            row.ok_or_else(|| Msg::new("error-setup-over").arg("id", found.id.clone()))?;
        if row.deadline.is_some_and(|deadline| self.now() >= deadline) {
            return self.setup_timeout(&mut row).await.map(Some);
        }
        self.setup_input(ctx, &mut row, command).await.map(Some)
    }

    /// `/abort` of a game being set up by one of its players: `Ok(None)`
    /// when the caller sets up no such game.
    pub(crate) async fn abort_setup(
        &self,
        ctx: &Ctx,
        game: Option<&str>,
    ) -> Outcome<Option<Vec<Delivery>>> {
        let actor = &ctx.actor().id;
        let mut rows = self.setup_games(ctx).await?;
        match game.map(|id| id.trim().trim_start_matches('#').to_lowercase()) {
            Some(id) if !id.is_empty() => {
                // The id, else a short form of it (the caller's own games).
                if rows.iter().any(|row| row.id == id) {
                    rows.retain(|row| row.id == id);
                } else {
                    let short = id.chars().count() >= crate::service::kernel::lookup::MIN_SHORT_ID;
                    rows.retain(|row| short && row.id.starts_with(&id));
                }
            }
            _ if !ctx.req.private || rows.iter().any(|row| row.chat_id == ctx.req.chat.id) => {
                rows.retain(|row| row.chat_id == ctx.req.chat.id)
            }
            _ => {}
        }
        let found = match rows.len() {
            0 => return Ok(None),
            1 => rows.remove(0),
            _ => return Err(self.which_game(ctx, &rows)),
        };
        let (_lock, row) = self.lock_fresh(&found, Status::Setup).await?;
        let mut row =
            row.ok_or_else(|| Msg::new("error-setup-over").arg("id", found.id.clone()))?;
        let side = row
            .side_of(actor)
            .ok_or_else(|| Msg::new("error-not-your-game").arg("id", row.id.clone()))?;
        // A game whose definition changed is not touched.
        self.variant(&row)?;
        row.status = Status::Aborted;
        row.result = Some(crate::store::GameResult::NoResult);
        row.reason = Some(crate::store::EndReason::Aborted);
        row.deadline = None;
        self.save(&mut row).await?;
        tracing::info!(game = %row.id, "aborted during setup");
        let lang = self.chat_lang(&row.platform, &row.chat_id).await;
        let note = Msg::new("game-aborted")
            .arg("id", row.id.clone())
            .arg("player", row.player_name(side.index()).to_owned());
        let lines = |lang: Lang| vec![self.text(lang, &note)];
        Ok(Some(self.public_note(&row, lang, lines).await))
    }

    /// Applies one setup command of the actor to `row` (locked, in setup).
    async fn setup_input(
        &self,
        ctx: &Ctx,
        row: &mut GameRow,
        command: SetupCommand<'_>,
    ) -> Outcome {
        let variant = self.variant(row)?;
        if is_public(&variant) {
            return self.public_setup_input(ctx, row, &variant, command).await;
        }
        let actor = &ctx.actor().id;
        let seat_index = row
            .seats
            .iter()
            .position(|seat| seat.user_id == *actor)
            .ok_or_else(|| Msg::new("error-not-your-game").arg("id", row.id.clone()))?;
        let side = row.seats[seat_index].side;
        let lang = ctx.lang;
        if command == SetupCommand::Board || row.seats[seat_index].ready {
            let mut lines = Vec::new();
            if command != SetupCommand::Board {
                lines.push(self.text(
                    lang,
                    &Msg::new("error-setup-ready").arg("id", row.id.clone()),
                ));
            }
            return Ok(vec![
                self.setup_board(row, &variant, side, lang, lines).await,
            ]);
        }
        let current = placement_of(&variant, row, side);
        let changed = match command {
            SetupCommand::Place(text) => {
                let mut next = current.clone();
                next.apply(&variant, side, text).map(|()| next)
            }
            SetupCommand::Random => Placement::random_shielded(&variant, side, fastrand::u64(..)),
            SetupCommand::Clear => Ok(Placement::default()),
            SetupCommand::Last => {
                let last = self
                    .inner
                    .store
                    .last_setup(ctx.platform(), actor, &row.variant, &row.id)
                    .await?;
                let Some((stored, stored_side)) = last else {
                    let lines = vec![self.text(lang, &Msg::new("error-setup-no-last"))];
                    return Ok(vec![
                        self.setup_board(row, &variant, side, lang, lines).await,
                    ]);
                };
                let mut before = Placement::default();
                let mut next = Placement::default();
                before
                    .apply(&variant, stored_side, &stored)
                    .and_then(|()| {
                        let text = mirrored(&variant, &before, stored_side, side);
                        next.apply(&variant, side, &text)
                    })
                    .map(|()| next)
            }
            SetupCommand::Ready => current.validate(&variant, side).map(|()| current.clone()),
            SetupCommand::Board => Ok(current.clone()),
        };
        let placement = match changed {
            Ok(placement) => placement,
            Err(error) => {
                let mut msg = setup_error(lang, &variant, &error);
                if command == SetupCommand::Ready {
                    msg = Msg::new("error-setup-not-ready").arg("reason", self.text(lang, &msg));
                }
                let lines = vec![self.text(lang, &msg)];
                return Ok(vec![
                    self.setup_board(row, &variant, side, lang, lines).await,
                ]);
            }
        };
        let ready = command == SetupCommand::Ready;
        let seat = &mut row.seats[seat_index];
        seat.setup = (!placement.is_empty()).then(|| placement.to_text(&variant));
        seat.ready = ready;
        if !ready {
            self.save(row).await?;
            let lines = match command {
                SetupCommand::Random => vec![self.text(lang, &Msg::new("setup-random"))],
                SetupCommand::Last => vec![self.text(lang, &Msg::new("setup-last"))],
                _ => Vec::new(),
            };
            return Ok(vec![
                self.setup_board(row, &variant, side, lang, lines).await,
            ]);
        }
        let chat_lang = self.chat_lang(&row.platform, &row.chat_id).await;
        let note = Msg::new("setup-player-ready")
            .arg("id", row.id.clone())
            .arg("player", row.player_name(side.index()).to_owned());
        if row.seats.iter().all(|seat| seat.ready) {
            let mut deliveries = vec![
                self.setup_board(row, &variant, side, lang, Vec::new())
                    .await,
            ];
            deliveries.extend(
                self.start_play(row, &variant, chat_lang, vec![note])
                    .await?,
            );
            return Ok(deliveries);
        }
        self.save(row).await?;
        tracing::debug!(game = %row.id, side = side.index(), "setup ready");
        let waiting = |lang: Lang| {
            let mut lines = vec![self.text(lang, &note)];
            lines.extend(self.setup_deadline_line(lang, row));
            lines
        };
        let mut deliveries = vec![
            self.setup_board(row, &variant, side, lang, Vec::new())
                .await,
        ];
        deliveries.extend(self.public_note(row, chat_lang, waiting).await);
        Ok(deliveries)
    }

    /// The setup deadline passed (the caller holds the lock): every player
    /// not ready gets a random setup and is told so, then play starts.
    pub(crate) async fn setup_timeout(&self, row: &mut GameRow) -> Outcome {
        let variant = match self.variant(row) {
            Ok(variant) => variant,
            Err(e) => {
                // A game that cannot be judged: stop its deadline rather than
                // retry it for ever.
                row.deadline = None;
                self.save(row).await?;
                return Err(e);
            }
        };
        if is_public(&variant) {
            return self.public_setup_timeout(row, &variant).await;
        }
        let chat_lang = self.chat_lang(&row.platform, &row.chat_id).await;
        let mut late = Vec::new();
        for index in 0..row.seats.len() {
            let seat = &row.seats[index];
            if seat.ready {
                continue;
            }
            let side = seat.side;
            let placement =
                Placement::random_shielded(&variant, side, fastrand::u64(..)).map_err(|e| {
                    tracing::error!(game = %row.id, error = %e, "no random setup");
                    Msg::new("error-internal")
                })?;
            let seat = &mut row.seats[index];
            seat.setup = Some(placement.to_text(&variant));
            seat.ready = true;
            late.push((side, seat.user_id.clone(), seat.user_name.clone()));
        }
        let mut deliveries = Vec::new();
        for (side, user, _) in &late {
            let lang = self.user_lang(&row.platform, user).await;
            let lines = vec![self.text(
                lang,
                &Msg::new("setup-timeout-you").arg("id", row.id.clone()),
            )];
            deliveries.push(self.setup_board(row, &variant, *side, lang, lines).await);
        }
        let names: Vec<String> = late.into_iter().map(|(_, _, name)| name).collect();
        let note = Msg::new("setup-timeout")
            .arg("id", row.id.clone())
            .arg("players", names.join(", "));
        tracing::info!(game = %row.id, "setup deadline passed");
        deliveries.extend(
            self.start_play(row, &variant, chat_lang, vec![note])
                .await?,
        );
        Ok(deliveries)
    }

    /// Every seat is ready: composes the start position, starts the clocks
    /// as an ordinary start does, and reveals the board to everyone. `notes`
    /// open the public announcement (the chat's and each spectator's).
    pub(crate) async fn start_play(
        &self,
        row: &mut GameRow,
        variant: &Variant,
        lang: Lang,
        notes: Vec<Msg>,
    ) -> Outcome {
        let placements = [
            placement_of(variant, row, Side::WHITE),
            placement_of(variant, row, Side::BLACK),
        ];
        let fen = start_fen(variant, [&placements[0], &placements[1]]).map_err(|e| {
            tracing::error!(game = %row.id, error = %e, "ready setups do not compose");
            Msg::new("error-internal")
        })?;
        let mut notes = notes;
        if !is_public(variant) {
            // Kriegspiel from a secret setup never reveals it: each side
            // keeps seeing its own pieces only.
            let key = if variant.hidden_information() {
                "setup-kept-secret"
            } else {
                "setup-revealed"
            };
            notes.push(Msg::new(key).arg("id", row.id.clone()));
        }
        row.start_fen = Some(fen.clone());
        let now = self.now();
        let game = Game::new(variant, Start::Fen(fen.clone())).map_err(|e| {
            tracing::error!(game = %row.id, error = %e, "composed setup is no position");
            Failure::User(Msg::new("error-internal"))
        })?;
        if let Some(outcome) = game.outcome() {
            // The setups decided the game before its first move: battle
            // chess's first-move rule (a side in check while the other is to
            // move loses), or a mate or stalemate set up blind. The record
            // keeps the composed position.
            finish(
                row,
                result_of(&outcome),
                crate::store::EndReason::Rules(outcome.reason),
            );
            self.save(row).await?;
            tracing::info!(game = %row.id, reason = outcome.reason.key(), "over before the first move");
            // The chat and each spectator: the notes, the result, the board.
            let lines = |lang: Lang| {
                let mut lines: Vec<String> = notes.iter().map(|n| self.text(lang, n)).collect();
                lines.push(self.result_text(lang, row));
                lines
            };
            let mut deliveries = self.public_note(row, lang, lines).await;
            let view = setup_view(variant, [&placements[0], &placements[1]], Audience::Full);
            for public in &mut deliveries {
                let result = public.text.lines().last().map(str::to_owned);
                let decor = setup_decor(row, Side::WHITE, result);
                self.attach_board(public, view.clone(), decor, format!("{}-0.png", row.id))
                    .await;
            }
            return Ok(deliveries);
        }
        row.status = Status::Active;
        row.turn_started_at = Some(now);
        let to_move = game.side_to_move().index();
        row.deadline = row.remaining(to_move).map(|t| now.saturating_add(t));
        crate::service::kernel::clocks::plan_reminder(row, game.seat_to_move(), now);
        self.save(row).await?;
        tracing::info!(game = %row.id, "setup done, play starts");
        Ok(self
            .announce_with(row, &game, Event::Started, lang, &notes)
            .await)
    }

    /// "Setup time: 4:12", when the setup has a deadline.
    fn setup_deadline_line(&self, lang: Lang, row: &GameRow) -> Option<String> {
        let left = row.deadline? - self.now();
        Some(self.text(
            lang,
            &Msg::new("setup-deadline").arg("left", format_remaining(left)),
        ))
    }

    /// A public note about a game being set up.
    pub(crate) fn setup_note(&self, lang: Lang, row: &GameRow, lines: Vec<String>) -> Delivery {
        Delivery {
            notify: Vec::new(),
            target: Target::Chat(chat_of(row)),
            text: lines.join("\n"),
            image: None,
            buttons: Vec::new(),
            game: Some(self.game_ref(lang, row, false)),
        }
    }

    /// The buttons under a player's setup board while it is not ready:
    /// Random, Ready, Show board (as typing `random`, `ready`, `board`).
    fn setup_buttons(&self, lang: Lang, row: &GameRow) -> Vec<Button> {
        let game = || row.id.clone();
        [
            (
                "button-setup-random",
                ButtonAction::SetupRandom { game: game() },
            ),
            (
                "button-setup-ready",
                ButtonAction::SetupReady { game: game() },
            ),
            (
                "button-show-board",
                ButtonAction::Board { game: Some(game()) },
            ),
        ]
        .into_iter()
        .map(|(label, action)| Button::new(self.text(lang, &Msg::new(label)), &action))
        .collect()
    }

    /// A setup button of game `id` pressed: the same as typing `command` to
    /// the bot privately; a button of a game no longer set up is stale.
    pub(crate) async fn setup_button(
        &self,
        ctx: &Ctx,
        id: &str,
        command: SetupCommand<'_>,
    ) -> Outcome {
        self.setup_command(ctx, command, Some(id))
            .await?
            .ok_or_else(|| Msg::new("error-stale-button").into())
    }

    /// Side `side`'s player's private board during setup: `lines`, the state
    /// of their setup, and their half (the other side's zone is fog). Nothing
    /// in it depends on another seat's setup.
    async fn setup_board(
        &self,
        row: &GameRow,
        variant: &Variant,
        side: Side,
        lang: Lang,
        mut lines: Vec<String>,
    ) -> Delivery {
        // Two seats: seat and side indexes coincide.
        let Some(user) = player_ref(row, side.index()) else {
            return self.setup_note(lang, row, Vec::new());
        };
        let own = placement_of(variant, row, side);
        let nothing = Placement::default();
        let placements = if side == Side::WHITE {
            [&own, &nothing]
        } else {
            [&nothing, &own]
        };
        let ready = row.seat_of_side(side).is_some_and(|seat| seat.ready);
        let state = if row.seats.iter().all(|seat| seat.ready) {
            Msg::new("setup-state-final")
        } else if ready {
            Msg::new("setup-state-ready")
        } else {
            match own.validate(variant, side) {
                Ok(()) => Msg::new("setup-state-complete"),
                Err(SetupError::Missing(pieces)) => Msg::new("setup-state-missing")
                    .arg("pieces", piece_letters(lang, variant, &pieces)),
                Err(error) => Msg::new("setup-state-invalid").arg(
                    "reason",
                    self.text(lang, &setup_error(lang, variant, &error)),
                ),
            }
        };
        lines.push(
            self.text(
                lang,
                &state
                    .arg("id", row.id.clone())
                    .arg("color", self.color_name(lang, side)),
            ),
        );
        let mut delivery = Delivery {
            notify: Vec::new(),
            target: Target::Private(user),
            text: lines.join("\n"),
            image: None,
            buttons: Vec::new(),
            game: Some(self.game_ref(lang, row, false)),
        };
        if !ready {
            delivery.buttons = self.setup_buttons(lang, row);
        }
        let view = setup_view(variant, placements, Audience::Side(side));
        let decor = setup_decor(row, side, None);
        let color = side.color_name();
        let file_name = format!("{}-setup-{color}.png", row.id);
        self.attach_board(&mut delivery, view, decor, file_name)
            .await;
        delivery
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn setup_input_is_told_from_chatter() {
        for text in [
            "ready",
            "Random",
            "Ke1 Qd1 e2",
            "RNBQKBNR/PPPPPPPP",
            "Крe1",
            "готов",
        ] {
            assert!(looks_like_setup(text), "{text}");
        }
        for text in ["hello", "gg well played", "what? e2", "https://x.y/1"] {
            assert!(!looks_like_setup(text), "{text}");
        }
    }

    #[test]
    fn the_setup_deadline_follows_the_clock() {
        let time = |code: &str| {
            crate::clock::TimeControl::parse(code)
                .expect(code)
                .phase_time(LIVE_SETUP_TIME)
        };
        assert_eq!(time("3+2"), Some(5 * 60_000));
        assert_eq!(time("2d"), Some(2 * 86_400_000));
        assert_eq!(time("-"), None);
    }
}
