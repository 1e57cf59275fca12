//! The game service: turns [`Request`]s into moves and answers with
//! [`Delivery`]s per audience. Platform-neutral; every adapter plugs in here.
//!
//! # Layers
//!
//! Three layers, each importing only from those below it (no import cycle
//! anywhere in this folder: `kodex-tests`' `structure` test reads the
//! sources and fails naming any):
//!
//! - `kernel/` (bottom): the service's state, and the one way a game
//!   changes — a typed `Change` handed to `Service::apply`, which runs the
//!   clocks, settles offers, decides the result, saves under the version
//!   check and announces — with the access to games (lock, load, replay),
//!   messages and failures. It imports nothing of the presentation or the
//!   commands.
//! - `present/`: what each audience is told and shown of a game (texts,
//!   boards, animations); imports the kernel.
//! - `commands/`: the features, a module (or a folder) per command family;
//!   each imports the kernel and the presentation, never another command.
//!   What two commands share moves down into the kernel.
//!
//! This module sits on top: it routes each request, button and deadline to
//! its command ([`Service::dispatch`], `Service::button`, `Service::expire`).
//!
//! Every layer adds methods to the one [`Service`] in its own `impl Service`
//! blocks; calling a method through `self` is no import, so the kernel may
//! announce through the presentation's methods and the routing reaches the
//! commands' handlers, while a type or function another layer needs lives
//! in the lower one.
//!
//! A new command: its handler in `commands/<name>.rs` (or a file of the
//! family it belongs to), its route here. A new mechanic of play: a
//! `Change` (and its `Event`) in `kernel/apply.rs`, what is said of it in
//! `present/`, the command that asks for it in `commands/`.
//!
//! Consistency: a request that changes a game takes the game's in-process
//! lock, reads the row, and writes it back only if its `version` is unchanged
//! ([`Store::save`](crate::store::Store::save)), so two simultaneous moves
//! apply exactly one.

mod commands;
mod kernel;
mod present;

pub use commands::computer::DEFAULT_LEVEL as DEFAULT_COMPUTER_LEVEL;
pub use commands::info::{help_topic, HELP_TOPICS};
pub use commands::learn::{lesson_id, LESSONS};
pub use commands::watch::MAX_WATCHED;
pub use kernel::ids::{GAME_ID_ALPHABET, GAME_ID_LEN};
pub use kernel::lookup::{MAX_UNKNOWN_IDS, MIN_SHORT_ID, UNKNOWN_ID_WINDOW};
pub use kernel::players::MAX_NAME;
pub use kernel::request::MAX_MOVE_TEXT;
pub use kernel::service::{Service, Settings};

use crate::api::{Action, ButtonAction, Delivery, Handler, HandlerFuture, Request, Target};
use crate::i18n::Lang;
use crate::store::{GameRow, Status};
use crate::time::Millis;
use kernel::apply::Change;
use kernel::lang::LangOwner;
use kernel::players::for_computer;
use kernel::request::Ctx;
use kernel::service::WATCHER;
use kernel::setup::SetupCommand;
use kernel::{Failure, Msg, Outcome};
use std::sync::Arc;

/// How long the scheduler waits before retrying a deadline it could not handle.
const RETRY_AFTER_FAILURE: Millis = 5_000;

impl Service {
    /// Starts the task that ends games whose flag fell and challenges that
    /// expired, sleeping until the earliest stored deadline. It stops when
    /// every clone of the service is dropped.
    pub fn spawn_scheduler(&self) -> tokio::task::JoinHandle<()> {
        let weak = Arc::downgrade(&self.inner);
        let wake = self.inner.wake.clone();
        let time = self.inner.time.clone();
        // Games against the computer go on where they were, and seats of
        // games of four left waiting with nothing but the pass pass.
        let service = self.clone();
        tokio::spawn(async move {
            service.resume_passes().await;
            service.resume_tournaments().await;
            service.resume_computers().await
        });
        tokio::spawn(async move {
            loop {
                let next = {
                    let Some(inner) = weak.upgrade() else { return };
                    let service = Service { inner };
                    let (_, failed) = service.run_due().await;
                    let retry = service.inner.time.now() + RETRY_AFTER_FAILURE;
                    let tournaments = service.next_tournament_deadline().await;
                    let earliest = |next: Option<Millis>| match (next, tournaments) {
                        (Some(a), Some(b)) => Some(a.min(b)),
                        (a, b) => a.or(b),
                    };
                    match service.next_served_deadline().await {
                        // A deadline that could not be handled is retried
                        // later, not in a busy loop.
                        Ok(next) if failed > 0 => earliest(next).map(|next| next.max(retry)),
                        Ok(next) => earliest(next),
                        Err(e) => {
                            tracing::error!(error = %e, "cannot read deadlines; retrying soon");
                            Some(retry)
                        }
                    }
                };
                match next {
                    Some(deadline) => {
                        tokio::select! {
                            _ = time.sleep_until(deadline) => {}
                            _ = wake.notified() => {}
                        }
                    }
                    None => wake.notified().await,
                }
            }
        })
    }

    /// The earliest deadline or reminder of a platform this process serves
    /// (one whose adapter runs here): another process on the database
    /// takes the others, and sends their news where it can.
    async fn next_served_deadline(&self) -> Result<Option<Millis>, crate::store::StoreError> {
        let next = self.inner.store.next_deadlines().await?;
        Ok(next
            .into_iter()
            .filter(|(platform, _)| self.serves_key(platform))
            .map(|(_, at)| at)
            .min())
    }

    /// Ends every game and challenge whose deadline has passed and sends
    /// the reminders due, putting the news in the outboxes. Returns how many
    /// games had news. The scheduler calls this; tests call it after moving
    /// a [`crate::time::ManualTime`].
    pub async fn tick(&self) -> usize {
        self.run_due().await.0
    }

    /// [`Service::tick`], also counting the deadlines that failed.
    async fn run_due(&self) -> (usize, usize) {
        let now = self.inner.time.now();
        let due = match self.inner.store.due(now).await {
            Ok(due) => due,
            Err(e) => {
                tracing::error!(error = %e, "cannot read due deadlines");
                return (0, 1);
            }
        };
        let (mut ended, mut failed) = (0, 0);
        // News of a platform whose adapter does not run here would be lost.
        for (platform, id) in due.into_iter().filter(|(p, _)| self.serves_key(p)) {
            match self.expire(&platform, &id).await {
                Ok(mut deliveries) => {
                    ended += usize::from(!deliveries.is_empty());
                    // A flag fell in a tournament's game: it moves on.
                    let news = self.tournament_news(&deliveries).await;
                    deliveries.extend(news);
                    self.send(deliveries);
                }
                // Another process on the database ended it (or reminded)
                // at the same moment: done, once.
                Err(Failure::Conflict) => {
                    tracing::debug!(game = %id, "a deadline handled by another process");
                }
                Err(e) => {
                    failed += 1;
                    tracing::error!(game = %id, error = ?e, "cannot end a game on time");
                }
            }
        }
        let (moved, missed) = self.run_due_tournaments().await;
        (ended + moved, failed + missed)
    }

    /// After a restart: in the active games of four, a seat on turn whose
    /// only move is the pass (a game stored before passes were played at
    /// once) passes now, announced as after a move.
    pub async fn resume_passes(&self) {
        let variants: Vec<String> = self
            .inner
            .registry
            .all()
            .iter()
            .filter(|v| v.definition().seats > 2)
            .map(|v| v.id().to_owned())
            .collect();
        for variant in variants {
            let rows = match self.inner.store.active_games_of_variant(&variant).await {
                Ok(rows) => rows,
                Err(e) => {
                    tracing::error!(error = %e, "cannot read the games of four");
                    continue;
                }
            };
            for found in rows {
                match self.pass_waiting(&found).await {
                    Ok(deliveries) => self.send(deliveries),
                    Err(e) => tracing::error!(game = %found.id, error = ?e, "cannot pass"),
                }
            }
        }
    }

    /// [`Service::resume_passes`] for one game.
    async fn pass_waiting(&self, found: &GameRow) -> Outcome {
        let (_lock, row) = self.lock_fresh(found, Status::Active).await?;
        let Some(mut row) = row else {
            return Ok(Vec::new());
        };
        let mut game = self.replay(&row)?;
        if row.linked_id.is_some() || game.forced_pass().is_none() {
            return Ok(Vec::new());
        }
        let lang = self.chat_lang(&row.platform, &row.chat_id).await;
        self.apply(&mut row, &mut game, Change::Passes, lang).await
    }

    /// Handles one deadline: a flag fall, a challenge expiry, the end of
    /// the time to set up, or a reminder.
    async fn expire(&self, platform: &str, id: &str) -> Outcome {
        let _lock = self.lock(id).await;
        let Some(mut row) = self.inner.store.get(platform, id).await? else {
            return Ok(Vec::new());
        };
        let now = self.inner.time.now();
        if row.deadline.is_none_or(|d| d > now) {
            if row.reminder_at.is_some_and(|r| r <= now) {
                return self.remind(&mut row).await;
            }
            return Ok(Vec::new());
        }
        match row.status {
            Status::Challenge => self.expire_challenge(row).await,
            Status::Active => self.flag(&mut row).await,
            Status::Setup => self.setup_timeout(&mut row).await,
            // An ended game, or one in a status this version does not know
            // (kept as stored): nothing to judge, only a deadline to clear.
            _ => {
                row.deadline = None;
                self.save(&mut row).await?;
                Ok(Vec::new())
            }
        }
    }

    async fn dispatch(&self, req: Request) -> Vec<Delivery> {
        let ctx = self.context(req).await;
        let result = match ctx.req.action.clone() {
            Action::Play {
                variant,
                opponent,
                clock,
                color,
                fen,
                rated,
                public,
            } => {
                let terms = kernel::terms::PlayTerms {
                    opponent,
                    clock,
                    color,
                    fen,
                    rated,
                    public,
                };
                self.play(&ctx, &variant, terms).await
            }
            Action::PlayTeams {
                variant,
                partners,
                opponents,
                clock,
                color,
                rated,
            } => {
                self.play_teams(&ctx, &variant, partners, opponents, clock, color, rated)
                    .await
            }
            Action::Lobby { variant } => self.lobby(&ctx, variant).await,
            Action::PlayNow { variant, clock } => self.play_now(&ctx, variant, clock).await,
            Action::Invite {
                variant,
                clock,
                color,
                rated,
            } => self.invite(&ctx, variant, clock, color, rated).await,
            Action::Join { code } => self.join(&ctx, &code).await,
            Action::Notify { on } => self.set_ticker(&ctx, on).await,
            Action::Accept { game } => self.accept(&ctx, game).await,
            Action::Decline { game } => self.decline(&ctx, game).await,
            Action::Move { text, game } => self.make_move(&ctx, &text, game, false).await,
            Action::Text { text } => self.make_move(&ctx, &text, None, true).await,
            Action::Resign { game } => self.ask_resign(&ctx, game).await,
            Action::Berserk { game } => self.berserk(&ctx, game).await,
            Action::Draw { game } => self.draw(&ctx, game).await,
            Action::DeclineDraw { game } => self.decline_draw(&ctx, game).await,
            Action::Takeback { game } => self.takeback(&ctx, game).await,
            Action::RefuseTakeback { game } => self.refuse_takeback(&ctx, game).await,
            Action::Abort { game } => self.abort(&ctx, game).await,
            Action::Board { game } => self.board(&ctx, game).await,
            Action::Games => self.games(&ctx).await,
            Action::Rating { user } => self.rating(&ctx, user).await,
            Action::Leaderboard {
                variant,
                global,
                page,
            } => self.leaderboard(&ctx, variant, global, page).await,
            Action::Stats { user } => self.stats(&ctx, user).await,
            Action::Pgn { game } => self.pgn(&ctx, game).await,
            Action::Review { game } => self.review(&ctx, game).await,
            Action::Partner { text } => self.partner(&ctx, &text).await,
            Action::Exchange { game } => self.exchange(&ctx, game).await,
            Action::DeclineExchange { game } => self.decline_exchange(&ctx, game).await,
            Action::Retire { game } => self.retire(&ctx, game).await,
            Action::Timeline { game } => self.timeline(&ctx, game).await,
            Action::Rules { variant } => self.rules(&ctx, &variant),
            Action::Variants => self.variants(&ctx),
            Action::Learn => self.learn(&ctx),
            Action::Help { topic } => self.help(&ctx, topic.as_deref()),
            Action::Rematch { game } => self.rematch(&ctx, game).await,
            Action::Watch { game } => self.watch(&ctx, game, false).await,
            Action::Unwatch { game } => self.unwatch(&ctx, game).await,
            Action::Notation { notation } => self.set_notation(&ctx, notation).await,
            Action::Lang { choice, chat_admin } => self.set_lang(&ctx, choice, chat_admin).await,
            Action::Settings { choice, chat_admin } => {
                self.settings(&ctx, choice, chat_admin).await
            }
            Action::Tournament {
                command,
                chat_admin,
            } => self.tournament(&ctx, command, chat_admin).await,
            Action::Button { data } => self.button(&ctx, &data).await,
            Action::Relocate { game, chat } => self.relocate(&ctx, &game, &chat).await,
            Action::Unknown { command } => Err(Msg::new("error-unknown-command")
                .arg("command", command.chars().take(32).collect::<String>())
                .into()),
        };
        self.note_presence(&ctx).await;
        self.finish(&ctx, result).await
    }

    /// [`Service::settle`] after what every answer gets: a game of two
    /// chats says in both what it says in one, and people asked to act
    /// elsewhere are told privately (the ticker).
    pub(crate) async fn finish(&self, ctx: &Ctx, result: Outcome) -> Vec<Delivery> {
        let result = match result {
            Ok(deliveries) => {
                let mut deliveries = self.mirror_to_guest_chats(ctx, deliveries).await;
                let notes = self.ticker_notes(ctx, &deliveries).await;
                deliveries.extend(notes);
                // A game of a tournament ended: the tournament moves on.
                let news = self.tournament_news(&deliveries).await;
                deliveries.extend(news);
                Ok(deliveries)
            }
            failed => failed,
        };
        self.settle(ctx, result)
    }

    /// A game played in two chats (a public seek or an invitation taken
    /// elsewhere): what a player's request said in the game's own chat is
    /// said in the other too, when the request's answer has nothing for it
    /// yet (an offer, a note; a turn's news reach it as a spectator's copy,
    /// in its own language, see `commands/watch.rs`).
    async fn mirror_to_guest_chats(
        &self,
        ctx: &Ctx,
        mut deliveries: Vec<Delivery>,
    ) -> Vec<Delivery> {
        let mentions_game = |d: &Delivery| matches!(d.target, Target::Chat(_)) && d.game.is_some();
        if !deliveries.iter().any(mentions_game) || ctx.actor().computer_level().is_some() {
            return deliveries;
        }
        // The caller's own games: those a player's request is about.
        let Ok(rows) = self.open_games(ctx).await else {
            return deliveries;
        };
        let mut copies = Vec::new();
        for row in rows.iter().filter(|row| row.guest_chat_id.is_some()) {
            let Some(guest) = row.guest_chat_id.as_deref() else {
                continue;
            };
            let of_game = |d: &&Delivery| d.game.as_ref().is_some_and(|g| g.id == row.id);
            let in_chat =
                |d: &&Delivery, id: &str| matches!(&d.target, Target::Chat(c) if c.id == id);
            if deliveries
                .iter()
                .filter(of_game)
                .any(|d| in_chat(&d, guest))
            {
                continue;
            }
            for delivery in deliveries
                .iter()
                .filter(of_game)
                .filter(|d| in_chat(d, &row.chat_id))
            {
                let mut copy = delivery.clone();
                if let Target::Chat(chat) = &mut copy.target {
                    chat.id = guest.to_owned();
                }
                if let Some(game) = &mut copy.game {
                    game.started = false;
                }
                copies.push(copy);
            }
        }
        deliveries.extend(copies);
        deliveries
    }

    /// The context of `req`: the actor's and the chat's languages.
    pub(crate) async fn context(&self, mut req: Request) -> Ctx {
        // A name is shown in messages to many: at most MAX_NAME characters
        // of it (a platform's own limits are lower still).
        if req.actor.name.chars().count() > MAX_NAME {
            req.actor.name = req.actor.name.chars().take(MAX_NAME).collect();
        }
        let lang = self.actor_lang(&req).await;
        let chat_lang = self.request_chat_lang(&req, lang).await;
        let quiet_lookups =
            matches!(req.action, Action::Text { .. }) || req.actor.computer_level().is_some();
        Ctx {
            req,
            lang,
            chat_lang,
            open_games: std::sync::OnceLock::new(),
            quiet_lookups,
        }
    }

    /// What is delivered after a request of `ctx` ended with `result`: its
    /// deliveries (the computers in the games they are about act next;
    /// what is meant for a computer is not sent), or the answer to its
    /// failure.
    pub(crate) fn settle(&self, ctx: &Ctx, result: Outcome) -> Vec<Delivery> {
        match result {
            Ok(deliveries) => {
                self.computers_follow(&deliveries);
                deliveries
                    .into_iter()
                    .filter(|d| !for_computer(d))
                    .collect()
            }
            Err(Failure::Silent) => Vec::new(),
            Err(Failure::User(msg)) => vec![self.reply(ctx, &msg)],
            Err(Failure::Withdrawn(msg)) => {
                let mut answer = vec![self.reply(ctx, &msg)];
                if !ctx.req.private {
                    answer.push(Delivery {
                        notify: Vec::new(),
                        target: Target::DeleteRequest(ctx.req.chat.clone()),
                        text: String::new(),
                        image: None,
                        buttons: Vec::new(),
                        game: None,
                    });
                }
                answer
            }
            Err(Failure::Conflict) => vec![self.reply(ctx, &Msg::new("error-conflict"))],
            Err(Failure::Store(e)) => {
                tracing::error!(error = %e, "storage failure while handling a request");
                vec![self.reply(ctx, &Msg::new("error-internal"))]
            }
        }
    }

    /// Does what a button's data (`acc:k7m2`) stands for.
    async fn button(&self, ctx: &Ctx, data: &str) -> Outcome {
        let Some(action) = ButtonAction::decode(data) else {
            return Err(Msg::new("error-stale-button").into());
        };
        match action {
            ButtonAction::Accept { game } => self.accept(ctx, Some(game)).await,
            ButtonAction::Decline { game } => self.decline(ctx, Some(game)).await,
            ButtonAction::Draw { game } => self.draw(ctx, Some(game)).await,
            ButtonAction::DeclineDraw { game } => self.decline_draw(ctx, Some(game)).await,
            ButtonAction::Exchange { game } => self.exchange(ctx, Some(game)).await,
            ButtonAction::DeclineExchange { game } => self.decline_exchange(ctx, Some(game)).await,
            ButtonAction::Takeback { game } => self.takeback(ctx, Some(game)).await,
            ButtonAction::RefuseTakeback { game } => self.refuse_takeback(ctx, Some(game)).await,
            ButtonAction::Board { game } => self.board(ctx, game).await,
            ButtonAction::Resign { game, side, ply } => self.resign(ctx, &game, &side, ply).await,
            ButtonAction::KeepPlaying { game } => self.keep_playing(ctx, Some(game)).await,
            ButtonAction::AskResign { game } => self.ask_resign(ctx, Some(game)).await,
            ButtonAction::SetupRandom { game } => {
                self.setup_button(ctx, &game, SetupCommand::Random).await
            }
            ButtonAction::SetupReady { game } => {
                self.setup_button(ctx, &game, SetupCommand::Ready).await
            }
            ButtonAction::TakeSeat { game, seat } => {
                self.take_seat_button(ctx, game, usize::from(seat)).await
            }
            ButtonAction::Rematch { game } => self.rematch(ctx, Some(game)).await,
            ButtonAction::Watch { game } => self.watch(ctx, Some(game), true).await,
            ButtonAction::ShareInvite { game } => self.share_invite(ctx, &game).await,
            ButtonAction::Join { code } => self.join(ctx, &code).await,
            ButtonAction::TournamentJoin { id } => self.tournament_join(ctx, Some(id)).await,
        }
    }
}

impl Handler for Service {
    fn handle(&self, request: Request) -> HandlerFuture<'_> {
        Box::pin(self.dispatch(request))
    }

    fn text(
        &self,
        reader: crate::api::Reader,
        key: &'static str,
        args: Vec<(&'static str, String)>,
    ) -> crate::api::TextFuture<'_> {
        Box::pin(async move {
            let lang = match &reader {
                crate::api::Reader::Person { user, locale } => {
                    let platform = user.platform.key();
                    match self.chosen_lang(LangOwner::User, platform, &user.id).await {
                        Some(lang) => lang,
                        None => locale
                            .as_deref()
                            .and_then(Lang::parse)
                            .unwrap_or(self.inner.settings.default_lang),
                    }
                }
                crate::api::Reader::Chat(chat) => {
                    self.chat_lang(chat.platform.key(), &chat.id).await
                }
            };
            // What people typed (names) is echoed without control characters.
            let msg = args
                .into_iter()
                .fold(Msg::new(key), |msg, (name, value)| msg.arg(name, value));
            self.text(lang, &msg)
        })
    }

    fn handle_watched(
        &self,
        request: Request,
        watcher: crate::api::ActivityWatcher,
    ) -> HandlerFuture<'_> {
        Box::pin(WATCHER.scope(watcher, self.dispatch(request)))
    }

    fn suggest(&self, request: crate::api::SuggestionRequest) -> crate::api::SuggestionFuture<'_> {
        Box::pin(self.suggestions(request))
    }

    fn introduce(&self, platform: crate::api::Platform, handle: &str) {
        self.set_bot_handle(platform, handle);
    }
}
