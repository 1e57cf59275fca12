//! Bughouse: one game on two linked boards (VARIANTS.md, FICS rules).
//!
//! Each board is a game row of its own — an ordinary two-player game with
//! its own clock, record and version — linked to the other board's row
//! (`linked_id`, see `migrations/0011_linked_boards.sql`). So a typed move
//! finds the player's board as any move finds its game, and both clocks run
//! at once, each on its board. What links the boards lives here:
//!
//! - a capture on one board is recorded at once in the other board's record
//!   as a gift (`+n`), filling the partner's reserve;
//! - a result on either board (mate, flag, resignation, agreement, abort)
//!   ends both, for the teams;
//! - every change is told in one message with one image of both boards
//!   side by side ([`kodex_render::render_pair_png`]);
//! - `/partner <text>` reaches the partner alone, and `/pgn` writes both
//!   boards' moves as one BPGN record.
//!
//! Locks: the board that changes is locked by its request; the other board
//! is locked too if that is possible within a moment, and written under the
//! version check either way, so two boards changing at once never wait on
//! each other for ever.

use crate::api::{Delivery, Image, Target};
use crate::i18n::Lang;
use crate::service::kernel::apply::finish;
use crate::service::kernel::apply::Event;
use crate::service::kernel::{Ctx, Failure, Msg, Outcome, Service};
use crate::service::present::gif::{evenly_spaced, pair_gif_within, MAX_GIF_FRAMES};
use crate::service::present::{chat_of, player_ref};
use crate::store::{DrawOffer, EndReason, Entry, GameResult, GameRow, PairOffer, SeatRow, Status};
use kodex_engine::{Audience, Game, Side, Start, Team, Variant};

/// How long a change waits for the other board's lock before it writes
/// that board under the version check alone.
const OTHER_BOARD_PATIENCE: std::time::Duration = std::time::Duration::from_millis(500);

/// How often writing the other board is tried when someone else wrote it
/// at the same moment.
const OTHER_BOARD_TRIES: usize = 4;

/// A board's letter in messages and records: `A` for the first board.
fn board_letter(row: &GameRow) -> &'static str {
    if row.board == 0 {
        "A"
    } else {
        "B"
    }
}

/// The seats of the two boards as one list for texts: the first board's
/// seats as they are, the second's after them (seats 2 and 3). Never saved.
fn joined(first: &GameRow, second: &GameRow) -> GameRow {
    let mut row = first.clone();
    row.seats.extend(second.seats.iter().map(|seat| SeatRow {
        seat: seat.seat + 2,
        ..seat.clone()
    }));
    row
}

/// Boards `(a, b)` in pair order: board A first.
fn in_order<'a>(
    one: (&'a GameRow, &'a Game),
    other: (&'a GameRow, &'a Game),
) -> [(&'a GameRow, &'a Game); 2] {
    if one.0.board == 0 {
        [one, other]
    } else {
        [other, one]
    }
}

impl Service {
    /// Starts bughouse from the full team challenge `row` (seats 0–3 of
    /// [`kodex_engine::VariantDef::seating`]): the challenge row becomes
    /// board A with seats 0 and 1, a new row board B with seats 2 and 3
    /// (sitting there as seats 0 and 1), and both clocks start.
    pub(crate) async fn start_pair(
        &self,
        mut row: GameRow,
        variant: &Variant,
        lang: Lang,
    ) -> Outcome {
        let now = self.now();
        let initial = row.time_control.initial();
        let game = Game::new(variant, Start::Standard).map_err(|e| {
            tracing::error!(game = %row.id, error = %e, "cannot set up the start position");
            Msg::new("error-internal")
        })?;
        row.status = Status::Active;
        row.deadline = None;
        row.start_fen = Some(game.start_fen());
        for seat in &mut row.seats {
            seat.remaining_ms = initial;
            seat.ready = false;
        }
        let mut other = row.clone();
        other.version = 0;
        other.stored_seats = Vec::new();
        other.seats = row
            .seats
            .iter()
            .filter(|seat| seat.seat >= 2)
            .map(|seat| SeatRow {
                seat: seat.seat - 2,
                ..seat.clone()
            })
            .collect();
        row.seats.retain(|seat| seat.seat < 2);
        other.board = 1;
        other.linked_id = Some(row.id.clone());
        for board in [&mut row, &mut other] {
            board.turn_started_at = Some(now);
            board.deadline = initial.map(|t| now.saturating_add(t));
            crate::service::kernel::clocks::plan_reminder(board, game.seat_to_move(), now);
        }
        self.insert_challenge(&mut other).await?;
        row.linked_id = Some(other.id.clone());
        if let Err(e) = self.save(&mut row).await {
            // Board A could not start: board B must not run alone.
            other.status = Status::Aborted;
            other.deadline = None;
            if let Err(e) = self.save(&mut other).await {
                tracing::error!(game = %other.id, error = ?e, "cannot withdraw a lone board");
            }
            return Err(e);
        }
        tracing::info!(game = %row.id, other = %other.id, "bughouse started");
        for board in [&row, &other] {
            if board
                .seats
                .iter()
                .any(|s| crate::service::kernel::players::is_computer(&s.user_id))
            {
                // The computer plays its board as any game; white moves now.
                self.inner.thinking.plays(&board.id);
                self.computer_follow(chat_of(board).platform, &board.id);
            }
        }
        let other_game = game.clone();
        let message = self
            .pair_message(
                lang,
                (&row, &game),
                (&other, &other_game),
                &Event::Started,
                None,
            )
            .await;
        Ok(vec![message])
    }

    /// After a change of the board `row` (saved; its lock held), whose
    /// position is `game`: passes `gift` (the letter of a piece captured)
    /// to the other board, ends the other board if this one ended, and
    /// tells both boards' news in one message.
    pub(crate) async fn after_board_change(
        &self,
        row: &GameRow,
        game: &Game,
        gift: Option<char>,
        event: Event,
        lang: Lang,
    ) -> Outcome {
        let (other, other_game, gift_line) = self.update_other_board(row, gift, lang).await?;
        if self.inner.thinking.is_playing(&other.id) {
            // A computer waiting on the other board for a piece (or for the
            // end) acts now.
            self.computer_follow(chat_of(&other).platform, &other.id);
        }
        let public = self
            .pair_message(lang, (row, game), (&other, &other_game), &event, gift_line)
            .await;
        // Spectators of either board see the pair.
        let mut deliveries = self
            .spectator_copies(row, game, &event, lang, &public, &[])
            .await;
        deliveries.extend(
            self.spectator_copies(&other, &other_game, &event, lang, &public, &[])
                .await,
        );
        deliveries.insert(0, public);
        if row.status.is_over() {
            let result = self.pair_result_text(lang, in_order((row, game), (&other, &other_game)));
            deliveries.extend(self.home_chat_result(lang, row, result));
            // Both boards, move by move.
            deliveries.extend(self.game_end_gif(lang, row, game).await);
        }
        Ok(deliveries)
    }

    /// Brings the other board of `row` up to date: the gift, and the end.
    /// Returns it with its position and the line telling of the gift.
    async fn update_other_board(
        &self,
        row: &GameRow,
        gift: Option<char>,
        lang: Lang,
    ) -> Outcome<(GameRow, Game, Option<String>)> {
        let now = self.now();
        let (other, other_game, changed) = self
            .change_other_board(row, |other, other_game| {
                let gift_line = gift
                    .filter(|&letter| other_game.receive(letter))
                    .map(|letter| {
                        other.moves.push(Entry::Gift(letter));
                        self.gift_text(lang, other, other_game, letter)
                    });
                let ended = row.status.is_over();
                if ended {
                    end_like(other, other_game, row, now);
                }
                (gift_line.is_some() || ended).then_some(gift_line)
            })
            .await?;
        Ok((other, other_game, changed.flatten()))
    }

    /// Changes the other board of `row` while it runs: `change` returns
    /// `None` when it changed nothing, else what it has to say, and the
    /// board is saved (read and changed again when someone else wrote it at
    /// the same moment). Returns the board, its position and what `change`
    /// said.
    async fn change_other_board<T>(
        &self,
        row: &GameRow,
        mut change: impl FnMut(&mut GameRow, &mut Game) -> Option<T>,
    ) -> Outcome<(GameRow, Game, Option<T>)> {
        let other_id = row.linked_id.clone().unwrap_or_default();
        let _lock = self.lock_other_board(&row.id, &other_id).await;
        for _ in 0..OTHER_BOARD_TRIES {
            let Some(mut other) = self.inner.store.get(&row.platform, &other_id).await? else {
                tracing::error!(game = %row.id, other = %other_id, "the other board is gone");
                return Err(Msg::new("error-corrupt-game")
                    .arg("id", row.id.clone())
                    .into());
            };
            let mut other_game = self.replay(&other)?;
            if other.status != Status::Active {
                return Ok((other, other_game, None));
            }
            let Some(said) = change(&mut other, &mut other_game) else {
                return Ok((other, other_game, None));
            };
            match self.save(&mut other).await {
                Ok(()) => return Ok((other, other_game, Some(said))),
                Err(Failure::Conflict) => continue,
                Err(e) => return Err(e),
            }
        }
        Err(Failure::Conflict)
    }

    /// The other board's lock, unless it is this board's own stripe (held
    /// already) or busy for longer than a moment.
    pub(crate) async fn lock_other_board(
        &self,
        own: &str,
        other: &str,
    ) -> Option<tokio::sync::MutexGuard<'_, ()>> {
        if self.stripe(own) == self.stripe(other) {
            return None;
        }
        tokio::time::timeout(OTHER_BOARD_PATIENCE, self.lock(other))
            .await
            .ok()
    }

    /// "dave gets a knight (board B)."
    fn gift_text(&self, lang: Lang, other: &GameRow, other_game: &Game, letter: char) -> String {
        let side = Side(u8::from(letter.is_ascii_lowercase()));
        let receiver = other
            .seat_of_side(side)
            .map_or_else(|| "?".to_owned(), |seat| seat.user_name.clone());
        let piece = other_game
            .variant()
            .definition()
            .piece_by_letter(letter)
            .map_or_else(String::new, |ty| {
                other_game.variant().definition().pieces[ty]
                    .letter
                    .to_ascii_uppercase()
                    .to_string()
            });
        self.text(
            lang,
            &Msg::new("bughouse-gift")
                .arg("id", other.id.clone())
                .arg("player", receiver)
                .arg("piece", piece)
                .arg("board", board_letter(other)),
        )
    }

    /// The one message about both boards for their chat: what happened,
    /// each board's turn and clocks (or the result), and both boards side
    /// by side — board A from white's side at the left, board B from
    /// black's at the right, so that partners sit side by side.
    pub(crate) async fn pair_message(
        &self,
        lang: Lang,
        changed: (&GameRow, &Game),
        other: (&GameRow, &Game),
        event: &Event,
        gift_line: Option<String>,
    ) -> Delivery {
        let (row, game) = changed;
        let mut events = Vec::new();
        match event {
            Event::Started => events.push(self.pair_started_text(lang, changed, other)),
            Event::Moved { .. } => {
                let told = game.announcements(Audience::Public);
                events.extend(self.moves_told(lang, lang, row, game, &told, Audience::Public));
            }
            _ => {}
        }
        events.extend(gift_line);
        let status = self.pair_status(lang, changed, other);
        let mut lines = events.clone();
        lines.push(status.clone());
        let boards = in_order(changed, other);
        let pair = joined(boards[0].0, boards[1].0);
        let mut game_ref = self.game_ref(lang, &pair, matches!(event, Event::Started));
        game_ref.id = row.id.clone();
        game_ref.turn = Some(self.turn_card(lang, row, game, events, status));
        // Asked to act: the player to move on the board that changed, and at
        // the start the one on the other board too.
        let mut notify = Vec::new();
        if !row.status.is_over() {
            notify = crate::service::present::to_notify(row, [game.seat_to_move()]);
            if matches!(event, Event::Started) && !other.0.status.is_over() {
                let more = crate::service::present::to_notify(other.0, [other.1.seat_to_move()]);
                for user in more {
                    if !notify.contains(&user) {
                        notify.push(user);
                    }
                }
            }
        }
        let mut delivery = Delivery {
            notify,
            target: Target::Chat(chat_of(row)),
            text: lines.join("\n"),
            image: None,
            buttons: Vec::new(),
            game: Some(game_ref),
        };
        let file_name = format!(
            "{}-{}-{}.png",
            boards[0].0.id,
            boards[0].0.move_list().len(),
            boards[1].0.move_list().len()
        );
        self.attach_pair(lang, &mut delivery, boards, Side::WHITE, file_name)
            .await;
        delivery
    }

    /// Draws `boards` (the left one first) side by side: the left from
    /// `left_bottom`'s side, the right from the other colour's (the
    /// partner's); with text boards where the operator asked for them.
    async fn attach_pair(
        &self,
        lang: Lang,
        delivery: &mut Delivery,
        boards: [(&GameRow, &Game); 2],
        left_bottom: Side,
        file_name: String,
    ) {
        let drawn: Vec<(kodex_engine::View, kodex_render::Decor)> = boards
            .iter()
            .zip(self.pair_decors(lang, boards, left_bottom))
            .map(|((_, game), decor)| (game.view(Audience::Full), decor))
            .collect();
        if self.inner.settings.text_boards {
            for ((row, _), (view, decor)) in boards.iter().zip(&drawn) {
                delivery.text.push('\n');
                delivery.text.push_str(&self.text(
                    lang,
                    &Msg::new("bughouse-board").arg("board", board_letter(row)),
                ));
                delivery.text.push('\n');
                delivery
                    .text
                    .push_str(&crate::service::present::text_board(view, decor.bottom));
            }
        }
        self.busy(&delivery.target, crate::api::Activity::DrawingImage)
            .await;
        let bytes = self
            .draw_off_runtime(move || {
                kodex_render::render_pair_png(
                    (&drawn[0].0, &drawn[0].1),
                    (&drawn[1].0, &drawn[1].1),
                )
            })
            .await;
        if let Some(bytes) = bytes {
            delivery.image = Some(Image { file_name, bytes });
        }
    }

    /// The strips of `boards` (the left one first) drawn side by side: the
    /// left from `left_bottom`'s side, the right from the other colour's
    /// (the partner's). Once the game is over, both tell the team result.
    fn pair_decors(
        &self,
        lang: Lang,
        boards: [(&GameRow, &Game); 2],
        left_bottom: Side,
    ) -> [kodex_render::Decor; 2] {
        let over = boards
            .iter()
            .any(|(row, _)| row.status.is_over())
            .then(|| self.pair_result_text(lang, in_order(boards[0], boards[1])));
        let bottoms = [left_bottom, left_bottom.opponent()];
        [0, 1].map(|index| {
            let (row, game) = boards[index];
            let mut decor = self.decor(lang, row, game, bottoms[index]);
            if over.is_some() {
                decor.status = over.clone();
            }
            decor
        })
    }

    /// The whole game of `row`'s pair of boards as an animated GIF of at
    /// most `limit` bytes, as the chat saw it: board A from white's side at
    /// the left, board B at the right, one frame after each move on either
    /// board, in the order they were played. A passed piece shows in its
    /// reserve from that board's next move on. `None` before a move.
    pub(crate) async fn pair_gif(&self, lang: Lang, row: &GameRow, limit: usize) -> Option<Image> {
        let (other, other_game) = self.other_board(row).await.ok()?;
        let game = self.replay(row).ok()?;
        let boards = in_order((row, &game), (&other, &other_game));
        let decors = self.pair_decors(lang, boards, Side::WHITE);
        let variant = self.variant(row).ok()?;
        let timelines = [
            board_timeline(&variant, boards[0].0)?,
            board_timeline(&variant, boards[1].0)?,
        ];
        let frames = merge_timelines(timelines);
        if frames.len() < 2 {
            return None;
        }
        let frames: Vec<[(kodex_engine::View, kodex_render::Decor); 2]> =
            evenly_spaced(frames.len(), MAX_GIF_FRAMES)
                .into_iter()
                .filter_map(|index| frames.get(index))
                .map(|[a, b]| {
                    [
                        (a.clone(), decors[0].clone()),
                        (b.clone(), decors[1].clone()),
                    ]
                })
                .collect();
        let bytes = self
            .draw_off_runtime(move || pair_gif_within(&frames, limit))
            .await?;
        if bytes.is_empty() {
            tracing::error!(game = %row.id, limit, "no bughouse animation fits the platform's file limit");
            return None;
        }
        Some(Image {
            file_name: format!("{}.gif", boards[0].0.id),
            bytes,
        })
    }

    /// "Bughouse game k7m2 starts, clock 3+0: board A alice (white) – bob
    /// (black), board B carol (white) – dave (black); partners alice & dave
    /// against bob & carol."
    fn pair_started_text(
        &self,
        lang: Lang,
        one: (&GameRow, &Game),
        other: (&GameRow, &Game),
    ) -> String {
        let [(a, game), (b, _)] = in_order(one, other);
        let board = |row: &GameRow| {
            let seat = |side: Side| {
                format!(
                    "{} ({})",
                    row.seat_of_side(side).map_or("?", |s| s.user_name.as_str()),
                    self.color_name(lang, side)
                )
            };
            format!("{} – {}", seat(Side::WHITE), seat(Side::BLACK))
        };
        let pair = joined(a, b);
        self.text(
            lang,
            &Msg::new("bughouse-started")
                .arg("id", a.id.clone())
                .arg("variant", game.variant().name(lang.code()).to_owned())
                .arg("clock", self.clock_phrase(lang, a.time_control))
                .arg("a", board(a))
                .arg("b", board(b))
                .arg("first", pair.team_names(Team(0)))
                .arg("second", pair.team_names(Team(1))),
        )
    }

    /// Each board's turn and clocks while the game runs; the team result
    /// once it is over.
    fn pair_status(&self, lang: Lang, one: (&GameRow, &Game), other: (&GameRow, &Game)) -> String {
        let boards = in_order(one, other);
        if boards.iter().any(|(row, _)| row.status.is_over()) {
            return self.pair_result_text(lang, boards);
        }
        boards
            .iter()
            .map(|(row, game)| {
                let mut line = format!(
                    "{} · {}",
                    board_letter(row),
                    self.turn_text(lang, row, game)
                );
                if let Some(clocks) = self.clock_line(row, game) {
                    line.push_str(" · ");
                    line.push_str(&clocks);
                }
                line
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// "k7m2: 1-0 — alice & dave win: bob was checkmated on board A."
    fn pair_result_text(&self, lang: Lang, boards: [(&GameRow, &Game); 2]) -> String {
        // The board that decided: the one whose reason is its own.
        let decided = boards
            .iter()
            .find(|(row, _)| row.status.is_over() && row.reason != Some(EndReason::OtherBoard))
            .unwrap_or(&boards[0])
            .0;
        let pair = joined(boards[0].0, boards[1].0);
        let result = decided.result.clone().unwrap_or(GameResult::NoResult);
        let id = boards[0].0.id.clone();
        match result.winner() {
            Some(team) => {
                let loser = decided
                    .seats
                    .iter()
                    .find(|seat| seat.team != team)
                    .map_or_else(String::new, |seat| seat.user_name.clone());
                let reason = self.reason_text(lang, decided.reason.as_ref(), loser);
                self.text(
                    lang,
                    &Msg::new("bughouse-result")
                        .arg("id", id)
                        .arg("result", result.to_text())
                        .arg("winners", pair.team_names(team))
                        .arg("reason", reason)
                        .arg("board", board_letter(decided)),
                )
            }
            None if result == GameResult::Draw => {
                let reason = self.reason_text(lang, decided.reason.as_ref(), String::new());
                self.text(
                    lang,
                    &Msg::new("result-draw").arg("id", id).arg("reason", reason),
                )
            }
            None => self.text(lang, &Msg::new("result-aborted").arg("id", id)),
        }
    }

    /// `/board` of a bughouse board: both boards, the asker's own at the
    /// left from their side (board A first for anyone else).
    pub(crate) async fn pair_board(&self, ctx: &Ctx, row: &GameRow, game: &Game) -> Outcome {
        let (other, other_game) = self.other_board(row).await?;
        let mine = row.side_of(&ctx.actor().id).map(|side| (row, game, side));
        let theirs = other
            .side_of(&ctx.actor().id)
            .map(|side| (&other, &other_game, side));
        let (boards, bottom) = match mine.or(theirs) {
            Some((own, own_game, side)) if own.id == row.id => {
                ([(own, own_game), (&other, &other_game)], side)
            }
            Some((own, own_game, side)) => ([(own, own_game), (row, game)], side),
            None => (in_order((row, game), (&other, &other_game)), Side::WHITE),
        };
        let lang = ctx.chat_lang;
        let status = self.pair_status(lang, (row, game), (&other, &other_game));
        let pair = joined(boards[0].0, boards[1].0);
        let mut game_ref = self.game_ref(lang, &pair, false);
        game_ref.turn = Some(self.turn_card(lang, row, game, Vec::new(), status.clone()));
        let mut delivery = Delivery {
            notify: Vec::new(),
            target: Target::Chat(ctx.req.chat.clone()),
            text: status,
            image: None,
            buttons: Vec::new(),
            game: Some(game_ref),
        };
        let file_name = format!(
            "{}-{}-{}-{}.png",
            boards[0].0.id,
            boards[0].0.move_list().len(),
            boards[1].0.move_list().len(),
            bottom.color_name()
        );
        self.attach_pair(lang, &mut delivery, boards, bottom, file_name)
            .await;
        Ok(vec![delivery])
    }

    /// The other board of the bughouse board `row`, with its position.
    pub(crate) async fn other_board(&self, row: &GameRow) -> Outcome<(GameRow, Game)> {
        let other_id = row.linked_id.as_deref().unwrap_or_default();
        let other = self
            .inner
            .store
            .get(&row.platform, other_id)
            .await?
            .ok_or_else(|| Msg::new("error-corrupt-game").arg("id", row.id.clone()))?;
        let game = self.replay(&other)?;
        Ok((other, game))
    }

    /// The actor's running bughouse boards.
    async fn bughouse_games(&self, ctx: &Ctx) -> Outcome<Vec<GameRow>> {
        Ok(self
            .candidates(ctx)
            .await?
            .into_iter()
            .filter(|row| row.linked_id.is_some())
            .collect())
    }

    /// Words written to the bot in a private chat that are no move: for a
    /// player of a running bughouse game, a message to their partner (as
    /// `/partner` would send it); `None` for anyone else.
    pub(crate) async fn private_words_to_partner(
        &self,
        ctx: &Ctx,
        text: &str,
    ) -> Outcome<Option<Vec<Delivery>>> {
        if self.bughouse_games(ctx).await?.is_empty() {
            return Ok(None);
        }
        self.partner(ctx, text).await.map(Some)
    }

    /// `/partner <text>`: relays `text` privately to the actor's partner in
    /// their running bughouse game.
    pub(crate) async fn partner(&self, ctx: &Ctx, text: &str) -> Outcome {
        let text = text.trim();
        if text.is_empty() {
            return Err(Msg::new("error-partner-usage").into());
        }
        let text: String = text.chars().take(MAX_PARTNER_TEXT).collect();
        let games = self.bughouse_games(ctx).await?;
        let row = match games.as_slice() {
            [] => return Err(Msg::new("error-partner-no-game").into()),
            [one] => one.clone(),
            _ => return Err(self.which_game(ctx, &games)),
        };
        let Some(team) = row
            .seat_of(&ctx.actor().id)
            .map(|seat| row.team_of_seat(seat))
        else {
            return Err(Msg::new("error-partner-no-game").into());
        };
        let (other, _) = self.other_board(&row).await?;
        let Some(partner) = other
            .seats
            .iter()
            .find(|seat| seat.team == team)
            .and_then(|seat| player_ref(&other, seat.seat))
        else {
            return Err(Msg::new("error-partner-no-game").into());
        };
        let partner_lang = self.user_lang(&other.platform, &partner.id).await;
        let message = self.text(
            partner_lang,
            &Msg::new("partner-message")
                .arg("id", row.id.clone())
                .arg("player", ctx.actor().name.clone())
                .arg("text", text),
        );
        let partner_name = partner.name.clone();
        Ok(vec![
            Delivery {
                notify: Vec::new(),
                target: Target::Private(partner),
                text: message,
                image: None,
                buttons: Vec::new(),
                game: Some(self.game_ref(partner_lang, &row, false)),
            },
            self.reply(ctx, &Msg::new("partner-sent").arg("player", partner_name)),
        ])
    }

    /// `/pgn` of a bughouse board: both boards' moves as one BPGN record,
    /// in the order they were played, each with the mover's time left.
    pub(crate) async fn bpgn(&self, row: &GameRow) -> Outcome<String> {
        let (other, _) = self.other_board(row).await?;
        let [a, b] = if row.board == 0 {
            [row, &other]
        } else {
            [&other, row]
        };
        let variant = self.variant(a)?;
        let mut moves: Vec<(i64, usize, String)> = Vec::new();
        for (board, record) in [a, b].iter().enumerate() {
            let mut game = Game::new(
                &variant,
                Start::Fen(record.start_fen.clone().unwrap_or_default()),
            )
            .map_err(|_| Msg::new("error-corrupt-game").arg("id", record.id.clone()))?;
            let mut times = record.move_times.0.iter();
            for entry in record.moves.entries() {
                let action = match entry {
                    Entry::Gift(letter) => {
                        game.receive(letter);
                        continue;
                    }
                    Entry::Move(action) => Some(action),
                    _ => None,
                };
                let Some(mv) = action.and_then(|action| {
                    game.legal_moves()
                        .into_iter()
                        .find(|&mv| game.uci(mv) == action)
                }) else {
                    return Err(Msg::new("error-corrupt-game")
                        .arg("id", record.id.clone())
                        .into());
                };
                let number = game.fullmove_number();
                let white = game.side_to_move() == Side::WHITE;
                let san = game.san(mv);
                game.play(mv);
                let (when, left) = times
                    .next()
                    .map_or((None, None), |time| (Some(time.at), time.left));
                let letter = match (board, white) {
                    (0, true) => "A",
                    (0, false) => "a",
                    (_, true) => "B",
                    (_, false) => "b",
                };
                let clock = left.map_or_else(String::new, |ms| {
                    format!(" {{{:.1}}}", ms.max(0) as f64 / 1000.0)
                });
                moves.push((
                    when.unwrap_or(i64::MAX),
                    board,
                    format!("{number}{letter}. {san}{clock}"),
                ));
            }
        }
        // Stable: each board's own order is kept among equal times.
        moves.sort_by_key(|(when, _, _)| *when);
        let result = a.result.as_ref().map_or("*", GameResult::pgn).to_owned();
        let name = |row: &GameRow, side: Side| {
            row.seat_of_side(side)
                .map_or_else(|| "?".to_owned(), |seat| seat.user_name.clone())
        };
        let tags = [
            ("Event", format!("Kodex bughouse game {}", a.id)),
            ("Site", "Kodex".to_owned()),
            ("WhiteA", name(a, Side::WHITE)),
            ("BlackA", name(a, Side::BLACK)),
            ("WhiteB", name(b, Side::WHITE)),
            ("BlackB", name(b, Side::BLACK)),
            (
                "TimeControl",
                crate::service::present::pgn_time_control(a.time_control),
            ),
            ("Result", result.clone()),
        ];
        let mut text: String = tags
            .iter()
            .map(|(tag, value)| format!("[{tag} \"{}\"]\n", value.replace('"', "'")))
            .collect();
        text.push('\n');
        let body: Vec<String> = moves.into_iter().map(|(_, _, text)| text).collect();
        text.push_str(&body.join(" "));
        text.push(' ');
        text.push_str(&result);
        Ok(text)
    }
}

/// The bit of the player of `seat` on board `row` in a bughouse draw
/// offer (see [`PairOffer`], the same on both boards).
fn draw_bit(row: &GameRow, seat: usize) -> u8 {
    PairOffer::bit(row.board, seat)
}

/// The standing bughouse offer of `row`, if any.
fn pair_offer(row: &GameRow) -> Option<PairOffer> {
    match row.draw_offer {
        Some(DrawOffer::Pair(offer)) => Some(offer),
        _ => None,
    }
}

impl Service {
    /// `/draw` in bughouse by the player of `seat` on board `row` (locked):
    /// the first `/draw` is an offer of that player's team; each player of
    /// the other team who then says `/draw` agrees with it, and the game is
    /// drawn when both have. Until then the offer stands on both boards.
    pub(crate) async fn pair_draw(&self, mut row: GameRow, seat: usize, lang: Lang) -> Outcome {
        let bit = draw_bit(&row, seat);
        let team = PairOffer::team_of_bit(bit);
        let Some(before) = pair_offer(&row) else {
            let offer = PairOffer::first(row.board, seat);
            self.set_pair_draw(&mut row, Some(offer)).await?;
            let (other, _) = self.other_board(&row).await?;
            let pair = joined(&row, &other);
            let opponents = pair.opponent_names(seat);
            let text = self.text(
                lang,
                &Msg::new("bughouse-draw-offered")
                    .arg("id", row.id.clone())
                    .arg("player", row.player_name(seat).to_owned())
                    .arg("opponents", opponents),
            );
            let asked = crate::service::present::opponents_to_notify(&pair, seat);
            return Ok(vec![self.offer_delivery(
                lang,
                &row,
                text,
                [
                    |game| crate::api::ButtonAction::Draw { game },
                    |game| crate::api::ButtonAction::DeclineDraw { game },
                ],
                asked,
            )]);
        };
        if before.offering_team() == team {
            // The team's own offer: the other team answers it.
            return Err(Msg::new("error-draw-offered-by-team")
                .arg("id", row.id.clone())
                .into());
        }
        if before.has(bit) {
            return Err(Msg::new("error-draw-already-agreed")
                .arg("id", row.id.clone())
                .into());
        }
        let consent = before.with(bit);
        if consent.agreed() {
            let mut position = self.replay(&row)?;
            return self
                .apply(
                    &mut row,
                    &mut position,
                    crate::service::kernel::apply::Change::DrawAgreed,
                    lang,
                )
                .await;
        }
        self.set_pair_draw(&mut row, Some(consent)).await?;
        let (other, _) = self.other_board(&row).await?;
        // The players of the asked team who have not agreed yet, by their
        // seat in the pair (this board's seats first, then the other's).
        let pair = joined(&row, &other);
        let waiting_seats: Vec<usize> = (0..4)
            .filter(|&index| {
                let bit = 1 << index;
                PairOffer::team_of_bit(bit) == team && !consent.has(bit)
            })
            .filter(|&index| index / 2 == row.board || index / 2 == other.board)
            .map(|index| {
                if index / 2 == row.board {
                    index % 2
                } else {
                    index % 2 + 2
                }
            })
            .collect();
        let waiting: Vec<String> = waiting_seats
            .iter()
            .map(|&seat| pair.player_name(seat).to_owned())
            .collect();
        let text = self.text(
            lang,
            &Msg::new("draw-agreed-waiting")
                .arg("id", row.id.clone())
                .arg("player", row.player_name(seat).to_owned())
                .arg("waiting", waiting.join(", ")),
        );
        let asked = crate::service::present::to_notify(&pair, waiting_seats);
        Ok(vec![self.offer_delivery(
            lang,
            &row,
            text,
            [
                |game| crate::api::ButtonAction::Draw { game },
                |game| crate::api::ButtonAction::DeclineDraw { game },
            ],
            asked,
        )])
    }

    /// `/nodraw` in bughouse: a player of the team the offer was made to
    /// declines it, on both boards (even after their partner agreed).
    pub(crate) async fn pair_decline_draw(
        &self,
        mut row: GameRow,
        seat: usize,
        lang: Lang,
    ) -> Outcome {
        let Some(consent) = pair_offer(&row) else {
            return Err(Msg::new("error-no-draw-offer").into());
        };
        if consent.offering_team() == PairOffer::team_of_bit(draw_bit(&row, seat)) {
            return Err(Msg::new("error-offer-not-withdrawable").into());
        }
        self.set_pair_draw(&mut row, None).await?;
        Ok(vec![self.chat_note(
            lang,
            &row,
            Msg::new("draw-declined").arg("player", row.player_name(seat).to_owned()),
        )])
    }

    /// Writes the draw offer `consent` on board `row` (locked) and on the
    /// other board.
    async fn set_pair_draw(&self, row: &mut GameRow, consent: Option<PairOffer>) -> Outcome<()> {
        let consent = consent.map(DrawOffer::Pair);
        row.draw_offer = consent;
        self.save(row).await?;
        self.change_other_board(row, |other, _| {
            other.draw_offer = consent;
            Some(())
        })
        .await?;
        Ok(())
    }
}

/// The longest text `/partner` relays.
const MAX_PARTNER_TEXT: usize = 500;

/// Ends the running board `other` (position `game`) as `decided` ended, at
/// `now`: the same status and result; its running clock stops where it is.
fn end_like(other: &mut GameRow, game: &Game, decided: &GameRow, now: crate::time::Millis) {
    let to_move = game.seat_to_move();
    if let (Some(left), Some(started)) = (other.remaining(to_move), other.turn_started_at) {
        other.set_remaining(to_move, Some((left - (now - started)).max(0)));
    }
    let result = decided.result.clone().unwrap_or(GameResult::NoResult);
    finish(other, result, EndReason::OtherBoard);
    other.status = decided.status.clone();
}

/// One board's positions as the game went: the start, then the board after
/// each move with the time it was played (pieces passed to it are taken in
/// with the board's next move, or at the very end). `None` when the record
/// does not replay.
fn board_timeline(variant: &Variant, row: &GameRow) -> Option<Vec<(i64, kodex_engine::View)>> {
    let mut game = Game::new(
        variant,
        Start::Fen(row.start_fen.clone().unwrap_or_default()),
    )
    .ok()?;
    let mut times = row.move_times.0.iter();
    let mut timeline = vec![(i64::MIN, game.view(Audience::Full))];
    let mut received = false;
    for entry in row.moves.entries() {
        let action = match entry {
            Entry::Gift(letter) => {
                game.receive(letter);
                received = true;
                continue;
            }
            Entry::Move(action) => action,
            _ => return None,
        };
        let mv = game
            .legal_moves()
            .into_iter()
            .find(|&mv| game.uci(mv) == action)?;
        game.play(mv);
        received = false;
        let when = times.next().map_or(i64::MAX, |time| time.at);
        timeline.push((when, game.view(Audience::Full)));
    }
    if received {
        timeline.push((i64::MAX, game.view(Audience::Full)));
    }
    Some(timeline)
}

/// The frames of two boards' timelines merged in the order of their
/// times: each frame is both boards at one moment.
fn merge_timelines([a, b]: [Vec<(i64, kodex_engine::View)>; 2]) -> Vec<[kodex_engine::View; 2]> {
    let (mut a, mut b) = (a.into_iter().peekable(), b.into_iter().peekable());
    let (Some((_, mut left)), Some((_, mut right))) = (a.next(), b.next()) else {
        return Vec::new();
    };
    let mut frames = vec![[left.clone(), right.clone()]];
    loop {
        let take_a = match (a.peek(), b.peek()) {
            (Some((when_a, _)), Some((when_b, _))) => when_a <= when_b,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (None, None) => break,
        };
        if take_a {
            left = a.next().map(|(_, view)| view).unwrap_or(left);
        } else {
            right = b.next().map(|(_, view)| view).unwrap_or(right);
        }
        frames.push([left.clone(), right.clone()]);
    }
    frames
}
