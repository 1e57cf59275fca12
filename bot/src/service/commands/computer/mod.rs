//! The computer opponent: `/play <variant> computer [level N]`.
//!
//! The computer is a seat like any other, held by the user id
//! `computer:<level>` ([`UserRef::computer`]). It accepts at once; whenever
//! a game it sits in changes (after any request or deadline), it looks at
//! the game as stored and acts the way a person would: its answers to
//! offers are the same typed requests, its setup input a `SetupCommand`,
//! and its turn a typed [`Decision`] handed to the game as a `Change`
//! (never text to be parsed again). It sets up its army in a setup phase (blind, as
//! [`search::pick_setup`] chooses), answers draw offers by its
//! evaluation and takeback requests with yes, offers and accepts exchanges of
//! prisoners in Enochian chess, resigns hopeless positions at
//! the higher levels, and moves when it is its turn. The thinking runs off
//! the async runtime, at most one search per core at a time, and a search is
//! cancelled when its game ends. Nothing of this is stored apart from the
//! game: after a restart [`Service::resume_computers`] picks every game up
//! where it was.
//!
//! In hidden-information games the computer is given its seat's view only,
//! never the position: in fog of war it plays from its view
//! ([`search::pick_move_from_view`]) among its own legal moves, which a
//! player knows; in Kriegspiel it ranks what its own pieces could do and
//! tries those moves in turn, each impossible attempt announced as anyone's.
//! In time travel its turn may begin with a jump ([`search::pick_turn_with`]),
//! made and announced like a person's.

pub(crate) mod searches;

use crate::service::kernel::background::run_search;
use std::time::Instant;

use crate::api::{Action, ChatRef, Delivery, Platform, Request, UserRef};
use crate::i18n::Lang;
use crate::service::kernel::apply::Change;
use crate::service::kernel::offers::{has_team_offers, is_asked};
use crate::service::kernel::players::is_computer;
use crate::service::kernel::setup::{places_next, SetupCommand, MAX_SETUP_TEXT};
use crate::service::kernel::{Ctx, Failure, Msg, Outcome, Service};
use crate::store::{GameRow, Status};
use kodex_engine::search::{self, Level, PlannedTurn, Searcher};
use kodex_engine::{Attempt, Audience, Move, Side, Turn, Visibility};

/// The level of a `/play … computer` without one.
pub const DEFAULT_LEVEL: u8 = 3;
/// Below this (centipawns, for the computer) a position is hopeless.
const HOPELESS: i32 = -1_200;
/// From this level on the computer resigns hopeless positions.
const RESIGNS_FROM_LEVEL: u8 = 5;
/// Positions sampled from a fog-of-war view.
const FOG_SAMPLES: usize = 6;
/// Hidden games: positions sampled from its view to answer a draw offer.
const DRAW_SAMPLES: usize = 4;
/// Kriegspiel: the most attempts it makes in one turn before resigning.
const MAX_ATTEMPTS: usize = 40;
/// Enochian chess: what an exchange of prisoners must gain (centipawns, by
/// the computer's evaluation) for the computer to offer it.
const EXCHANGE_GAIN: i32 = 100;

/// What the computer decided to do on its turn, found off the runtime and
/// handed to the game as typed values.
pub(crate) enum Decision {
    /// A move of the position it searched.
    Move(Move),
    /// Time travel: a jump, then a move of the board it restores.
    Turn(PlannedTurn),
    /// Kriegspiel: what its own pieces could do (UCI), best first, to try
    /// in turn.
    Attempts(Vec<String>),
    /// It resigns the hopeless position.
    Resign,
}

/// What a search decided for a computer seat (see `searches.rs`, which
/// writes it down for a process of the game's platform to play).
pub(crate) enum Decided {
    /// Nothing to play (no legal move found, or cancelled).
    Nothing,
    /// The seat's turn.
    Play(usize, Decision),
    /// The seat's secret setup (`None`: random).
    Setup(usize, Option<String>),
}

/// What the computer does next in a game, read from the stored row.
pub(crate) enum Step {
    /// Nothing: not its turn, or the game is over.
    Wait,
    /// Say this, as the computer of the seat (answers to offers, its own
    /// offers of exchange): a typed request like a person's.
    Say(Action, bool, usize),
    /// Setup input of the seat (random placement, ready), in public or not.
    Setup(SetupCommand<'static>, bool, usize),
    /// Think and move (or resign).
    Move(usize, Level),
    /// Choose a secret setup for the seat, at its level.
    SetUp(usize, Level),
}

impl Service {
    /// Acts, in the background, in every game with a computer seat that
    /// these deliveries are about (each on its own platform); other games
    /// cost nothing.
    pub(crate) fn computers_follow(&self, deliveries: &[Delivery]) {
        let mut games: Vec<(Platform, &str)> = deliveries
            .iter()
            .filter_map(|d| {
                Some((
                    crate::service::kernel::service::target_platform(d),
                    d.game.as_ref()?.id.as_str(),
                ))
            })
            .collect();
        games.sort_unstable_by_key(|&(platform, id)| (platform.key(), id));
        games.dedup();
        for (platform, id) in games {
            // A game this process has not seen yet (started by another
            // process on the database) is read once to know.
            if self.inner.thinking.may_play(id) {
                self.computer_follow(platform, id);
            }
        }
    }

    pub(crate) fn computer_follow(&self, platform: Platform, id: &str) {
        let service = self.clone();
        let id = id.to_owned();
        let pending = self.inner.thinking.pending();
        tokio::spawn(async move {
            service.computer_act(platform, &id).await;
            drop(pending);
        });
    }

    /// After a restart: every game with a computer seat continues.
    pub async fn resume_computers(&self) {
        for platform in [Platform::Console, Platform::Discord, Platform::Telegram] {
            for level in 1..=8 {
                let user = UserRef::computer(platform, level);
                match self
                    .inner
                    .store
                    .open_games_of(platform.key(), &user.id)
                    .await
                {
                    Ok(rows) => {
                        for row in rows {
                            self.inner.thinking.plays(&row.id);
                            self.computer_follow(platform, &row.id);
                        }
                    }
                    // The process stops (its input ended at once): nothing to resume.
                    Err(crate::store::StoreError::Database(sqlx::Error::PoolClosed)) => return,
                    Err(e) => tracing::error!(error = %e, "cannot read the computer's games"),
                }
            }
        }
    }

    /// One step of the computer in game `id`; each request it makes leads,
    /// through [`Service::computers_follow`], to the next step.
    async fn computer_act(self, platform: Platform, id: &str) {
        if self.inner.thinking.is_stopped() {
            return;
        }
        let Ok(Some(row)) = self.inner.store.get(platform.key(), id).await else {
            return;
        };
        if !row.seats.iter().any(|seat| is_computer(&seat.user_id)) {
            self.inner.thinking.plays_not(id);
            return;
        }
        if !row.status.is_over() {
            self.inner.thinking.plays(id);
        }
        if row.status.is_over() {
            self.inner.thinking.cancel(id);
            self.inner.thinking.stops_playing(id);
            // A search asked for is not wanted any more.
            let _ = self.inner.store.drop_search(platform.key(), id, None).await;
            self.inner.thinking.answered(id, None);
            return;
        }
        let step = match self.next_step(&row) {
            Ok(step) => step,
            Err(_) => return,
        };
        match step {
            Step::Wait => {}
            Step::Say(action, private, seat) => {
                let Some(seat) = row.seat(seat) else {
                    return;
                };
                let level = UserRef::level_of(&seat.user_id).unwrap_or(DEFAULT_LEVEL);
                let user = UserRef::computer(platform, level);
                let exchange = matches!(action, Action::Exchange { .. });
                self.computer_says(&row, user, action, private).await;
                // An exchange does not pass its turn: it goes on, even if
                // the offer was refused (which follows up on nothing).
                if exchange {
                    self.computer_follow(platform, id);
                }
            }
            Step::Setup(command, private, seat) => {
                let Some(seat) = row.seat(seat) else {
                    return;
                };
                let level = UserRef::level_of(&seat.user_id).unwrap_or(DEFAULT_LEVEL);
                let ctx = self
                    .computer_ctx(&row, UserRef::computer(platform, level), private)
                    .await;
                let result = self.setup_button(&ctx, &row.id, command).await;
                self.deliver(self.finish(&ctx, result).await);
            }
            // A search: asked for in the database, taken by one free
            // searcher of any process (see `searches.rs`).
            Step::Move(..) | Step::SetUp(..) => self.ask_search(platform, &row).await,
        }
    }

    /// What the computer does next in `row`.
    pub(crate) fn next_step(&self, row: &GameRow) -> Outcome<Step> {
        let computer_seats: Vec<usize> = row
            .seats
            .iter()
            .filter(|s| is_computer(&s.user_id))
            .map(|s| s.seat)
            .collect();
        if computer_seats.is_empty() {
            return Ok(Step::Wait);
        }
        let id = Some(row.id.clone());
        match row.status {
            Status::Setup => {
                let variant = self.variant(row)?;
                let public = variant
                    .setup()
                    .is_some_and(|s| s.mode == kodex_engine::setup::SetupMode::Public);
                for &index in &computer_seats {
                    let Some(seat) = row.seat(index) else {
                        continue;
                    };
                    if public {
                        if places_next(&variant, row) == Some(seat.side) {
                            return Ok(Step::Setup(SetupCommand::Random, false, index));
                        }
                    } else if !seat.ready {
                        if seat.setup.is_none() {
                            let level = UserRef::level_of(&seat.user_id).unwrap_or(DEFAULT_LEVEL);
                            return Ok(Step::SetUp(index, Level::new(level).unwrap_or_default()));
                        }
                        return Ok(Step::Setup(SetupCommand::Ready, true, index));
                    }
                }
                Ok(Step::Wait)
            }
            Status::Active => {
                let game = self.replay(row)?;
                // An offer (made by a seat) is answered by a computer seat of
                // the other team, if there is one; in games of four the
                // computer's vote is its own evaluation's.
                let answerer = |asker: usize| {
                    let team = row.team_of_seat(asker);
                    computer_seats
                        .iter()
                        .copied()
                        .find(|&s| row.team_of_seat(s) != team)
                };
                // (A bughouse offer is the set of those who agreed: the
                // computer leaves it to its partner.)
                // In a team game on one board each computer seat asked
                // answers for itself.
                let draw_answerer = if has_team_offers(row) {
                    computer_seats
                        .iter()
                        .copied()
                        .find(|&s| is_asked(row, &game, s))
                } else {
                    match row.draw_offer {
                        Some(crate::store::DrawOffer::Seat(offerer)) => answerer(offerer),
                        _ => None,
                    }
                };
                if let Some(seat) = draw_answerer {
                    let side = row.seat(seat).map_or(Side::WHITE, |s| s.side);
                    // Accepted only when the computer is not better, by
                    // what it knows: in a hidden game its own view, never
                    // the squares it cannot see (else `/draw` would tell
                    // its opponent something about them).
                    let value = if game.variant().hidden_information() {
                        let view = game.view(Audience::Side(side));
                        let army = search::believed_enemy_army(&game, side);
                        // Seeded by what it knows (its view), not by the
                        // game's id: the same information, the same answer.
                        let seed = seed_of(&format!("{view:?}"), row.move_list().len());
                        search::evaluate_from_view(
                            game.variant(),
                            &view,
                            Some(&army),
                            seed,
                            DRAW_SAMPLES,
                        )
                    } else {
                        search::evaluate(&game, side)
                    };
                    let action = if value <= 0 {
                        Action::Draw { game: id }
                    } else {
                        Action::DeclineDraw { game: id }
                    };
                    return Ok(Step::Say(action, true, seat));
                }
                // Enochian chess: an offer to exchange prisoners is accepted
                // by the computer that speaks for the other capturer.
                if let Some(offerer) = row.exchange_offer {
                    let accepts = |seat: usize| {
                        (0..row.seats.len()).any(|army| {
                            game.controller(army) == seat
                                && game.may_exchange(offerer, army).is_ok()
                        })
                    };
                    if let Some(&seat) = computer_seats.iter().find(|&&seat| accepts(seat)) {
                        return Ok(Step::Say(Action::Exchange { game: id }, true, seat));
                    }
                }
                if let Some(asker) = row.takeback_offer {
                    if let Some(seat) = answerer(asker) {
                        return Ok(Step::Say(Action::Takeback { game: id }, true, seat));
                    }
                }
                // Enochian chess: the player who took the army's throne moves it.
                let seat = game.controller(game.seat_to_move());
                match row.seat(seat) {
                    Some(s) if is_computer(&s.user_id) && game.outcome().is_none() => {
                        // Before its move it may offer to exchange prisoners.
                        if row.exchange_offer.is_none() && self.offers_exchange(row, &game, seat) {
                            return Ok(Step::Say(Action::Exchange { game: id }, true, seat));
                        }
                        let level = UserRef::level_of(&s.user_id).unwrap_or(DEFAULT_LEVEL);
                        let level = Level::new(level).unwrap_or_default();
                        Ok(Step::Move(seat, level))
                    }
                    _ => Ok(Step::Wait),
                }
            }
            _ => Ok(Step::Wait),
        }
    }

    /// The search the computer needs in `row` now, if any ([`Step::Move`]
    /// or [`Step::SetUp`]), without answering offers or making its own:
    /// what a searcher of any process (which may not serve the game's
    /// platform, and keeps no memory of offers thought about) checks before
    /// searching.
    pub(crate) fn search_step(&self, row: &GameRow) -> Outcome<Step> {
        match row.status {
            Status::Setup => match self.next_step(row)? {
                step @ Step::SetUp(..) => Ok(step),
                _ => Ok(Step::Wait),
            },
            Status::Active => {
                let game = self.replay(row)?;
                let seat = game.controller(game.seat_to_move());
                match row.seat(seat) {
                    Some(s) if is_computer(&s.user_id) && game.outcome().is_none() => {
                        let level = UserRef::level_of(&s.user_id).unwrap_or(DEFAULT_LEVEL);
                        Ok(Step::Move(seat, Level::new(level).unwrap_or_default()))
                    }
                    _ => Ok(Step::Wait),
                }
            }
            _ => Ok(Step::Wait),
        }
    }

    /// Enochian chess: whether the computer of seat `seat`, about to move,
    /// offers to exchange prisoners. It does when an army it speaks for holds
    /// a king, the other team holds one of its own, and the exchange gains
    /// its team at least [`EXCHANGE_GAIN`] by its evaluation. It thinks
    /// about each set of prisoners once, so a declined offer is not made
    /// again until a king is taken or comes back (or the bot restarts).
    fn offers_exchange(&self, row: &GameRow, game: &kodex_engine::Game, seat: usize) -> bool {
        const SEATS: usize = 4;
        if game.variant().definition().thrones.is_empty() {
            return false;
        }
        let Some((captor, prisoner)) = (0..SEATS)
            .filter(|&army| game.controller(army) == seat)
            .find_map(|army| Some((army, game.prisoner_of(army)?)))
        else {
            return false;
        };
        // The other capturer: the partner of the king this army holds.
        let other = (prisoner + 2) % SEATS;
        if game.may_exchange(captor, other).is_err() {
            return false;
        }
        let prisoners: Vec<Option<usize>> = (0..SEATS).map(|a| game.prisoner_of(a)).collect();
        if !self
            .inner
            .thinking
            .first_thought(&format!("{}:{prisoners:?}", row.id))
        {
            return false;
        }
        let side = row.seat(seat).map_or(Side::WHITE, |s| s.side);
        let mut exchanged = game.clone();
        if exchanged.exchange(captor, other).is_err() {
            return false;
        }
        search::evaluate(&exchanged, side) >= search::evaluate(game, side) + EXCHANGE_GAIN
    }

    /// The request `action` of the computer `user` in `row`: in its own
    /// private chat or in the game's chat.
    fn computer_request(row: &GameRow, user: UserRef, private: bool, action: Action) -> Request {
        let chat = ChatRef {
            platform: user.platform,
            id: if private {
                user.id.clone()
            } else {
                row.chat_id.clone()
            },
        };
        Request {
            chat,
            private,
            actor: user,
            locale: None,
            chat_locale: None,
            action,
        }
    }

    /// The context of what the computer `user` does in `row` other than
    /// through a request (its moves and setup).
    async fn computer_ctx(&self, row: &GameRow, user: UserRef, private: bool) -> Ctx {
        let request = Self::computer_request(row, user, private, Action::Games);
        self.context(request).await
    }

    /// Sends `action` as the computer of `row` and follows up on its answer.
    async fn computer_says(&self, row: &GameRow, user: UserRef, action: Action, private: bool) {
        let request = Self::computer_request(row, user, private, action);
        // Handled like anyone's request, which also lets the computer follow
        // up on its own answer.
        let deliveries = Box::pin(self.dispatch(request)).await;
        self.deliver(deliveries);
    }

    /// Thinks about `row` for its computer seat `seat` (off the runtime, at
    /// low priority): what it does on its turn. `None` when the search was
    /// cancelled (the game ended, the service stops) or another search of
    /// this game runs here.
    pub(crate) async fn search_move(
        &self,
        row: &GameRow,
        seat: usize,
        level: Level,
    ) -> Option<Decided> {
        let mut searcher = Searcher::new(8);
        if !self.inner.thinking.start(&row.id, searcher.stop_flag()) {
            return None;
        }
        let Some(work) = self.decision(row, seat, level) else {
            self.inner.thinking.finish(&row.id);
            return Some(Decided::Nothing);
        };
        let decision = run_search(move || work(&mut searcher)).await.flatten();
        self.inner.thinking.finish(&row.id);
        if self.inner.thinking.is_stopped() {
            return None;
        }
        Some(decision.map_or(Decided::Nothing, |decision| Decided::Play(seat, decision)))
    }

    /// Chooses the computer's secret setup for its seat `seat` of `row`
    /// ([`search::pick_setup`]: its own army against imagined enemy setups,
    /// never the real one) off the async runtime. A setup too long to write
    /// down is left to `random`.
    pub(crate) async fn search_setup(
        &self,
        row: &GameRow,
        seat: usize,
        level: Level,
    ) -> Option<Decided> {
        let searcher = Searcher::new(1);
        if !self.inner.thinking.start(&row.id, searcher.stop_flag()) {
            return None;
        }
        let (Ok(variant), Some(side)) = (self.variant(row), row.seat(seat).map(|s| s.side)) else {
            self.inner.thinking.finish(&row.id);
            return Some(Decided::Nothing);
        };
        let seed = seed_of(&row.id, 0);
        let placement = run_search(move || {
            search::pick_setup(&variant, side, level, seed)
                .ok()
                .map(|placement| placement.to_text(&variant))
        })
        .await
        .flatten()
        .filter(|text| text.chars().count() <= MAX_SETUP_TEXT);
        self.inner.thinking.finish(&row.id);
        if self.inner.thinking.is_stopped() {
            return None;
        }
        Some(Decided::Setup(seat, placement))
    }

    /// Plays what a search decided for `row` (as stored when the search was
    /// asked for, and still so): a move, a turn, a resignation or a
    /// setup, as the computer of its seat; a game changed meanwhile makes
    /// the computer look again.
    pub(crate) async fn play_decided(&self, platform: Platform, row: &GameRow, decided: Decided) {
        let (seat, setup) = match decided {
            Decided::Nothing => return,
            Decided::Play(seat, decision) => (seat, Err(decision)),
            Decided::Setup(seat, placement) => (seat, Ok(placement)),
        };
        let Some(level) = row
            .seat(seat)
            .map(|s| UserRef::level_of(&s.user_id).unwrap_or(DEFAULT_LEVEL))
        else {
            return;
        };
        let user = UserRef::computer(platform, level);
        let ctx = self.computer_ctx(row, user, true).await;
        let result = match setup {
            Ok(placement) => {
                let command = match &placement {
                    Some(text) => SetupCommand::Place(text),
                    None => SetupCommand::Random,
                };
                self.setup_button(&ctx, &row.id, command).await
            }
            Err(decision) => {
                let result = self.computer_plays(&ctx, row, seat, decision).await;
                if matches!(result, Err(Failure::Conflict)) {
                    // A takeback (or another change) came while it thought: it
                    // looks at the game again.
                    return self.computer_follow(platform, &row.id);
                }
                result
            }
        };
        self.deliver(self.finish(&ctx, result).await);
    }

    /// Plays `decision`, the computer's for its seat `seat` in the game as
    /// it was in `thought` when it thought, through the one way a game
    /// changes ([`Service::apply`]). A game changed since (a takeback) is a
    /// conflict: the computer thinks again.
    async fn computer_plays(
        &self,
        ctx: &Ctx,
        thought: &GameRow,
        seat: usize,
        decision: Decision,
    ) -> Outcome {
        let (_lock, row) = self.lock_fresh(thought, Status::Active).await?;
        let Some(mut row) = row else {
            return Err(Failure::Silent);
        };
        if row.moves != thought.moves {
            return Err(Failure::Conflict);
        }
        if row.deadline.is_some_and(|deadline| self.now() >= deadline) {
            return self.flag(&mut row).await;
        }
        let mut game = self.replay(&row)?;
        if game.outcome().is_some() || game.controller(game.seat_to_move()) != seat {
            return Err(Failure::Silent);
        }
        let lang = self.game_chat_lang(ctx, &row).await;
        let change = match decision {
            Decision::Resign => Change::Resign { seat },
            Decision::Move(mv) if game.legal_moves().contains(&mv) => Change::Move(mv),
            Decision::Turn(planned) => {
                let turn_seat = game.seat_to_move();
                let jump = match planned.jump {
                    Some(request) => Some(game.jump(request).map_err(|_| Failure::Silent)?),
                    None => None,
                };
                if !game.legal_moves().contains(&planned.mv) {
                    return Err(Failure::Silent);
                }
                let turn = Turn {
                    jump,
                    moved: Some(game.play(planned.mv)),
                };
                Change::Turn {
                    seat: turn_seat,
                    record: turn.record(),
                    jump: turn.jump.as_ref().map(|jump| jump.text.clone()),
                    moved: true,
                }
            }
            Decision::Attempts(candidates) => {
                return self
                    .computer_attempts(&mut row, &mut game, seat, candidates, lang)
                    .await;
            }
            Decision::Move(_) => return Err(Failure::Silent),
        };
        self.apply(&mut row, &mut game, change, lang).await
    }

    /// Tries `candidates` in order as the computer's moves for its seat
    /// `seat` in the Kriegspiel game `row` (its lock held) until one is
    /// played; each impossible attempt is recorded and announced as
    /// anyone's, and a move its pieces cannot make at all is skipped. It
    /// resigns when none of them is possible.
    async fn computer_attempts(
        &self,
        row: &mut GameRow,
        game: &mut kodex_engine::Game,
        seat: usize,
        candidates: Vec<String>,
        lang: Lang,
    ) -> Outcome {
        let mut deliveries = Vec::new();
        for uci in candidates.into_iter().take(MAX_ATTEMPTS) {
            let change = match game.parse_attempt(&uci) {
                Ok(Attempt::Legal(mv)) => Change::Move(mv),
                Ok(Attempt::Impossible(uci)) => Change::Impossible {
                    text: uci.clone(),
                    uci,
                },
                Err(_) => continue,
            };
            let played = matches!(change, Change::Move(_));
            deliveries.extend(self.apply(row, game, change, lang).await?);
            if played || row.status != Status::Active {
                return Ok(deliveries);
            }
        }
        deliveries.extend(self.apply(row, game, Change::Resign { seat }, lang).await?);
        Ok(deliveries)
    }

    /// The thinking to do for the computer seat `seat` of `row`, to run off
    /// the runtime: what it does on its turn; `None` when it has nothing to
    /// play or was cancelled.
    #[allow(clippy::type_complexity)]
    fn decision(
        &self,
        row: &GameRow,
        seat: usize,
        level: Level,
    ) -> Option<Box<dyn FnOnce(&mut Searcher) -> Option<Decision> + Send>> {
        let game = self.replay(row).ok()?;
        let side = row.seat(seat)?.side;
        let think = crate::service::kernel::thinking::think_time(row, seat, level);
        let ply = row.move_list().len();
        let seed = seed_of(&row.id, ply);
        Some(Box::new(move |searcher: &mut Searcher| {
            let deadline = Some(Instant::now() + think);
            let hidden = game.variant().hidden_information();
            if !hidden
                && level.number() >= RESIGNS_FROM_LEVEL
                && ply >= 20
                && search::evaluate(&game, side) < HOPELESS
            {
                return Some(Decision::Resign);
            }
            if hidden {
                // From everything its seat was told since the start: its
                // views, its own moves and attempts, the announcements.
                let ranked =
                    search::pick_move_for_seat(&game, side, level, seed, FOG_SAMPLES, deadline);
                if game.variant().visibility() == Visibility::OwnPiecesOnly {
                    // Its own pieces and nothing else: every move they could
                    // make, best first, to try in turn.
                    return (!ranked.is_empty()).then_some(Decision::Attempts(ranked));
                }
                // Its view and its own legal moves: what a player knows.
                let legal = game.legal_moves();
                let best = ranked
                    .iter()
                    .find_map(|uci| legal.iter().find(|&&mv| game.uci(mv) == *uci))
                    .or_else(|| legal.first())?;
                return Some(Decision::Move(*best));
            }
            // In time travel the turn may begin with a jump (`t1c4 h5f7`),
            // announced like a person's.
            let turn = search::pick_turn_with(searcher, &game, level, seed, deadline)?;
            Some(match turn.jump {
                None => Decision::Move(turn.mv),
                Some(_) => Decision::Turn(turn),
            })
        }))
    }

    /// `/play <variant> computer`: the challenge is accepted at once.
    pub(crate) async fn accept_for_computer(&self, ctx: &Ctx, row: &GameRow) -> Outcome {
        let Some(opponent) = row.opponent_id.as_deref() else {
            return Err(Msg::new("error-internal").into());
        };
        let level = UserRef::level_of(opponent).unwrap_or(DEFAULT_LEVEL);
        let computer = Ctx {
            req: Request {
                chat: ctx.req.chat.clone(),
                private: ctx.req.private,
                actor: UserRef::computer(ctx.req.chat.platform, level),
                locale: None,
                chat_locale: ctx.req.chat_locale.clone(),
                action: Action::Accept {
                    game: Some(row.id.clone()),
                },
            },
            lang: ctx.lang,
            chat_lang: ctx.chat_lang,
            open_games: std::sync::OnceLock::new(),
            quiet_lookups: true,
        };
        self.inner.thinking.plays(&row.id);
        self.accept(&computer, Some(row.id.clone())).await
    }
}

/// A seed for the computer's choice at this ply of this game.
fn seed_of(id: &str, ply: usize) -> u64 {
    id.bytes()
        .fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        })
        .wrapping_add(ply as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_computer_is_known_by_its_id_and_level() {
        let computer = UserRef::computer(Platform::Console, 5);
        assert_eq!(computer.computer_level(), Some(5));
        assert!(is_computer(&computer.id));
        assert!(!is_computer("alice"));
        assert_eq!(UserRef::level_of("computer:9"), None);
        assert_ne!(seed_of("k7m2", 1), seed_of("k7m2", 2));
    }
}
