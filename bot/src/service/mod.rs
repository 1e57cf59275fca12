//! The game service: turns [`Request`]s into moves and answers with
//! [`Delivery`]s per audience. Platform-neutral; every adapter plugs in here.
//!
//! Consistency: a request that changes a game takes the game's in-process
//! lock, reads the row, and writes it back only if its `version` is unchanged
//! ([`Store::save`]), so two simultaneous moves apply exactly one.

mod commands;
mod kernel;
mod present;

use commands::computer;
use kernel::apply;

pub use commands::computer::DEFAULT_LEVEL as DEFAULT_COMPUTER_LEVEL;
pub use commands::learn::{lesson_id, LESSONS};
pub use commands::watch::MAX_WATCHED;
pub use kernel::lookup::{MAX_UNKNOWN_IDS, MIN_SHORT_ID, UNKNOWN_ID_WINDOW};

use crate::api::{
    Action, ButtonAction, Delivery, Handler, HandlerFuture, Platform, Request, Target, UserRef,
};
use crate::config::Config;
use crate::i18n::{I18n, Lang};
use crate::store::{GameRow, Status, Store, StoreError};
use crate::time::{Millis, TimeSource};
use fluent_bundle::FluentValue;
use kodex_engine::{Game, Registry, Variant};
use std::collections::{HashMap, VecDeque};
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex};
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};
use tokio::sync::Notify;

/// The longest move text read; anything longer is refused without parsing.
pub const MAX_MOVE_TEXT: usize = 32;

/// How long the scheduler waits before retrying a deadline it could not handle.
const RETRY_AFTER_FAILURE: Millis = 5_000;

/// Number of lock stripes: games hash onto these, bounding memory whatever
/// the number of games.
const LOCK_STRIPES: usize = 256;

/// Operator choices the service needs.
#[derive(Clone, Debug)]
pub struct Settings {
    /// How long a challenge waits for an answer.
    pub challenge_expiry: Millis,
    /// The language of users and chats that chose none.
    pub default_lang: Lang,
    /// Add a text board to every board image (for the console).
    pub text_boards: bool,
    /// Open challenges one person may have at once.
    pub max_open_challenges: usize,
    /// Games in setup or play one person may have at once.
    pub max_running_games: usize,
}

impl Settings {
    /// The settings in `config`.
    pub fn from_config(config: &Config) -> Settings {
        Settings {
            challenge_expiry: (config.games.challenge_expiry_secs as Millis).saturating_mul(1000),
            default_lang: Lang::parse(&config.games.default_lang).unwrap_or_default(),
            text_boards: config.boards.text,
            max_open_challenges: config.games.max_open_challenges,
            max_running_games: config.games.max_running_games,
        }
    }
}

/// The game service. Cheap to clone; all clones share one state.
#[derive(Clone)]
pub struct Service {
    inner: Arc<Inner>,
}

struct Inner {
    store: Store,
    registry: Registry,
    i18n: I18n,
    time: Arc<dyn TimeSource>,
    settings: Settings,
    stripes: Vec<tokio::sync::Mutex<()>>,
    outboxes: Mutex<HashMap<Platform, UnboundedSender<Delivery>>>,
    /// Wakes the scheduler: a deadline changed, or the service is gone.
    wake: Arc<Notify>,
    /// Language choices read so far.
    lang_choices: Mutex<HashMap<(LangOwner, String, String), Option<Lang>>>,
    /// The platform locale last seen for each chat (platform, chat id): a
    /// Discord guild's locale, the chat's language until `/lang chat`.
    chat_locales: Mutex<HashMap<(String, String), Lang>>,
    /// One permit per core for drawing images (see [`Service::draw_off_runtime`]).
    drawing: tokio::sync::Semaphore,
    /// One permit per core but one for the computer's searches.
    computing: Arc<tokio::sync::Semaphore>,
    /// The computer's searches under way.
    thinking: computer::Thinking,
    /// When each person (platform, user id) named a game id that named no
    /// game, within the last [`UNKNOWN_ID_WINDOW`] (see `lookup.rs`). Kept
    /// in memory: one process limits its own lookups, a restart forgets.
    unknown_ids: Mutex<HashMap<(String, String), VecDeque<Millis>>>,
}

pub(crate) use crate::store::LangOwner;

impl Drop for Inner {
    fn drop(&mut self) {
        // Lets the scheduler notice that the service is gone.
        self.wake.notify_one();
    }
}

/// A user-facing message: an i18n key and its arguments. Plain data (no
/// boxed Fluent values), so a message may be held across an `.await` by
/// reference: notes written later in each reader's language.
#[derive(Clone, Debug)]
pub(crate) struct Msg {
    key: &'static str,
    args: Vec<(&'static str, MsgArg)>,
}

/// One argument of a [`Msg`].
#[derive(Clone, Debug, PartialEq)]
enum MsgArg {
    Text(String),
    Number(fluent_bundle::types::FluentNumber),
    Nothing,
}

impl MsgArg {
    fn fluent(&self) -> FluentValue<'_> {
        match self {
            MsgArg::Text(text) => FluentValue::String(text.as_str().into()),
            MsgArg::Number(number) => FluentValue::Number(number.clone()),
            MsgArg::Nothing => FluentValue::None,
        }
    }
}

impl Msg {
    pub(crate) fn new(key: &'static str) -> Msg {
        Msg {
            key,
            args: Vec::new(),
        }
    }

    /// Adds an argument. Text is echoed without control characters (but
    /// line breaks) and bidirectional overrides: what someone typed cannot
    /// rewrite the line it is echoed in (a carriage return, a terminal
    /// escape, a right-to-left override).
    pub(crate) fn arg(mut self, name: &'static str, value: impl Into<FluentValue<'static>>) -> Msg {
        let value = match value.into() {
            FluentValue::String(text) if text.chars().any(is_unsafe_char) => {
                MsgArg::Text(text.chars().filter(|&c| !is_unsafe_char(c)).collect())
            }
            FluentValue::String(text) => MsgArg::Text(text.into_owned()),
            FluentValue::Number(number) => MsgArg::Number(number),
            // (No message takes a custom Fluent type.)
            FluentValue::Custom(_) | FluentValue::None | FluentValue::Error => MsgArg::Nothing,
        };
        self.args.push((name, value));
        self
    }
}

/// Why a request produced no normal answer.
#[derive(Debug)]
pub(crate) enum Failure {
    /// Tell the person what was wrong; nothing changed.
    User(Msg),
    /// Like `User`, for something said in public that must not stay there
    /// (a hidden game's move typed in the group): the message is deleted too.
    Withdrawn(Msg),
    /// Say nothing (plain chat text that was not meant for the bot).
    Silent,
    /// Someone else changed the game at the same moment; nothing changed.
    Conflict,
    /// Storage failed; nothing (more) changed.
    Store(StoreError),
}

impl From<StoreError> for Failure {
    fn from(e: StoreError) -> Failure {
        Failure::Store(e)
    }
}

impl From<Msg> for Failure {
    fn from(m: Msg) -> Failure {
        Failure::User(m)
    }
}

pub(crate) type Outcome<T = Vec<Delivery>> = Result<T, Failure>;

/// One request being handled, with the actor's language.
pub(crate) struct Ctx {
    pub(crate) req: Request,
    /// The actor's language: what is said to them alone is in it.
    pub(crate) lang: Lang,
    /// The language of the chat the request came from: what is posted there
    /// for everyone is in it (the actor's own in a private chat).
    pub(crate) chat_lang: Lang,
    /// The actor's challenges and games in setup or play on the platform,
    /// read once per request (see [`Service::open_games`]).
    open_games: std::sync::OnceLock<Vec<GameRow>>,
    /// Game ids this request names are looked up without counting the
    /// unknown ones against the actor (plain chat text, whose misses get no
    /// answer; suggestions while typing; the computer). Such lookups reveal
    /// nothing of a game the actor does not play (see `lookup.rs`).
    quiet_lookups: bool,
}

impl Ctx {
    pub(crate) fn platform(&self) -> &'static str {
        self.req.chat.platform.key()
    }
    pub(crate) fn actor(&self) -> &UserRef {
        &self.req.actor
    }
}

impl Service {
    /// Opens the database of `config` (creating it, applying migrations) and
    /// builds the service. Call [`Service::spawn_scheduler`] to make clocks run.
    pub async fn open(
        config: &Config,
        registry: Registry,
        time: Arc<dyn TimeSource>,
    ) -> Result<Service, StoreError> {
        let store = Store::open(&config.database.url).await?;
        // Games stored before fingerprints take the definition in force now
        // (see `migrations/0013_variant_fingerprint.sql`).
        for variant in registry.all() {
            let stamped = store
                .stamp_fingerprints(variant.id(), variant.fingerprint())
                .await?;
            if stamped > 0 {
                tracing::info!(
                    variant = variant.id(),
                    stamped,
                    "games stamped with their variant's definition"
                );
            }
        }
        Ok(Service::with_store(
            store,
            registry,
            time,
            Settings::from_config(config),
        ))
    }

    /// Builds the service on an opened store.
    pub fn with_store(
        store: Store,
        registry: Registry,
        time: Arc<dyn TimeSource>,
        settings: Settings,
    ) -> Service {
        Service {
            inner: Arc::new(Inner {
                store,
                registry,
                i18n: I18n::new(),
                time,
                settings,
                stripes: (0..LOCK_STRIPES)
                    .map(|_| tokio::sync::Mutex::new(()))
                    .collect(),
                outboxes: Mutex::new(HashMap::new()),
                wake: Arc::new(Notify::new()),
                lang_choices: Mutex::new(HashMap::new()),
                chat_locales: Mutex::new(HashMap::new()),
                drawing: tokio::sync::Semaphore::new(
                    std::thread::available_parallelism().map_or(2, usize::from),
                ),
                // One core stays free for people's moves.
                computing: Arc::new(tokio::sync::Semaphore::new(
                    std::thread::available_parallelism()
                        .map_or(1, |n| usize::from(n).saturating_sub(1))
                        .max(1),
                )),
                thinking: computer::Thinking::default(),
                unknown_ids: Mutex::new(HashMap::new()),
            }),
        }
    }

    /// Deliveries for `platform` that no request caused (flag falls,
    /// challenge expiries). A second call replaces the first receiver.
    pub fn outbox(&self, platform: Platform) -> UnboundedReceiver<Delivery> {
        let (sender, receiver) = unbounded_channel();
        if let Ok(mut outboxes) = self.inner.outboxes.lock() {
            outboxes.insert(platform, sender);
        }
        receiver
    }

    /// The variants the service offers.
    pub fn registry(&self) -> &Registry {
        &self.inner.registry
    }

    /// The storage.
    pub fn store(&self) -> &Store {
        &self.inner.store
    }

    /// Closes the database after the requests in progress; call it last,
    /// when the platforms have stopped (later requests fail).
    pub async fn close(&self) {
        self.inner.store.close().await;
    }

    /// A message from the catalogue in `user`'s language, for adapters that
    /// must say something themselves (a console line that is too long).
    pub async fn text_for(&self, user: &UserRef, key: &'static str) -> String {
        let lang = self.user_lang(user.platform.key(), &user.id).await;
        self.inner.i18n.text(lang, key, &[])
    }

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
            service.resume_computers().await
        });
        tokio::spawn(async move {
            loop {
                let next = {
                    let Some(inner) = weak.upgrade() else { return };
                    let service = Service { inner };
                    let (_, failed) = service.run_due().await;
                    let retry = service.inner.time.now() + RETRY_AFTER_FAILURE;
                    match service.inner.store.next_deadline().await {
                        // A deadline that could not be handled is retried
                        // later, not in a busy loop.
                        Ok(Some(next)) if failed > 0 => Some(next.max(retry)),
                        Ok(next) => next,
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
        for (platform, id) in due {
            match self.expire(&platform, &id).await {
                Ok(deliveries) => {
                    ended += usize::from(!deliveries.is_empty());
                    self.send(deliveries);
                }
                Err(e) => {
                    failed += 1;
                    tracing::error!(game = %id, error = ?e, "cannot end a game on time");
                }
            }
        }
        (ended, failed)
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
        self.apply(&mut row, &mut game, apply::Change::Passes, lang)
            .await
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

    fn send(&self, deliveries: Vec<Delivery>) {
        self.computers_follow(&deliveries);
        self.deliver(deliveries);
    }

    /// Puts deliveries in their platforms' outboxes (none for the computer).
    fn deliver(&self, deliveries: Vec<Delivery>) {
        let Ok(outboxes) = self.inner.outboxes.lock() else {
            return;
        };
        for delivery in deliveries
            .into_iter()
            .filter(|d| !computer::for_computer(d))
        {
            let platform = target_platform(&delivery);
            match outboxes.get(&platform) {
                Some(outbox) => {
                    if outbox.send(delivery).is_err() {
                        tracing::warn!(platform = platform.key(), "outbox receiver is gone");
                    }
                }
                None => tracing::debug!(platform = platform.key(), "no outbox; delivery dropped"),
            }
        }
    }

    /// Runs CPU-heavy drawing off the async workers, at most one drawing per
    /// core at a time: under load the images queue and each is drawn at full
    /// speed, instead of hundreds of blocking threads sharing the cores and
    /// every image (and the p99 of every move) getting slower. `None` if the
    /// drawing panicked.
    pub(crate) async fn draw_off_runtime<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Option<T> {
        let _permit = self.inner.drawing.acquire().await.ok()?;
        match tokio::task::spawn_blocking(work).await {
            Ok(done) => Some(done),
            Err(e) => {
                tracing::error!(error = %e, "drawing an image failed");
                None
            }
        }
    }

    /// The in-process lock of game `id`.
    async fn lock(&self, id: &str) -> tokio::sync::MutexGuard<'_, ()> {
        self.inner.stripes[self.stripe(id)].lock().await
    }

    /// The lock stripe of game `id`.
    fn stripe(&self, id: &str) -> usize {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        id.hash(&mut hasher);
        (hasher.finish() as usize) % LOCK_STRIPES
    }

    /// Locks the game `found` and reads it afresh (someone may have written
    /// it between finding and locking); `None` when it is gone, or no longer
    /// in `status`.
    async fn lock_fresh(
        &self,
        found: &GameRow,
        status: Status,
    ) -> Outcome<(tokio::sync::MutexGuard<'_, ()>, Option<GameRow>)> {
        let lock = self.lock(&found.id).await;
        let row = self
            .inner
            .store
            .get(&found.platform, &found.id)
            .await?
            .filter(|row| row.status == status);
        Ok((lock, row))
    }

    /// Writes `row` if nobody changed it since it was read.
    async fn save(&self, row: &mut GameRow) -> Outcome<()> {
        row.updated_at = self.inner.time.now();
        if row.status != Status::Active {
            // Only a running clock reminds.
            row.reminder_at = None;
        }
        if self.inner.store.save(row).await? {
            self.inner.wake.notify_one();
            Ok(())
        } else {
            Err(Failure::Conflict)
        }
    }

    /// The variant of `row`, as long as its definition is the one the game
    /// began under: a game whose variant is gone, or whose definition an
    /// operator changed since, is refused — every look at it and every
    /// change of it goes through here, so it fails closed, showing nothing
    /// of its position (a stamp of `None`: stored before fingerprints, and
    /// not yet stamped at a start-up; taken as it is).
    fn variant(&self, row: &GameRow) -> Outcome<Variant> {
        let variant = self
            .inner
            .registry
            .get(&row.variant)
            .filter(|variant| variant.id() == row.variant)
            .cloned()
            .ok_or_else(|| {
                tracing::error!(game = %row.id, variant = %row.variant, "variant no longer known");
                Failure::User(Msg::new("error-variant-gone").arg("id", row.id.clone()))
            })?;
        match row.variant_fingerprint.as_deref() {
            Some(began) if began != variant.fingerprint() => {
                tracing::warn!(
                    game = %row.id,
                    variant = %row.variant,
                    began,
                    now = variant.fingerprint(),
                    "the variant's definition changed since the game began; refused"
                );
                Err(Failure::User(
                    Msg::new("error-variant-changed").arg("id", row.id.clone()),
                ))
            }
            _ => Ok(variant),
        }
    }

    /// Rebuilds the position of a started game from its record.
    fn replay(&self, row: &GameRow) -> Outcome<Game> {
        let variant = self.variant(row)?;
        let start = row.start_fen.as_deref().unwrap_or_default();
        Game::replay(&variant, start, &row.move_list()).map_err(|e| {
            tracing::error!(game = %row.id, error = %e, "stored game does not replay");
            Failure::User(Msg::new("error-corrupt-game").arg("id", row.id.clone()))
        })
    }

    /// A user's or chat's chosen language. Choices are cached in memory: they
    /// change only through `/lang` in this process (several processes sharing
    /// one database would see another's change after a restart).
    async fn chosen_lang(&self, owner: LangOwner, platform: &str, id: &str) -> Option<Lang> {
        let key = (owner, platform.to_owned(), id.to_owned());
        if let Some(hit) = self
            .inner
            .lang_choices
            .lock()
            .ok()
            .and_then(|cache| cache.get(&key).copied())
        {
            return hit;
        }
        let stored = self.inner.store.lang(owner, platform, id).await;
        match stored {
            Ok(code) => {
                let lang = code.as_deref().and_then(Lang::parse);
                if let Ok(mut cache) = self.inner.lang_choices.lock() {
                    cache.insert(key, lang);
                }
                lang
            }
            Err(e) => {
                tracing::warn!(error = %e, "cannot read a language choice");
                None
            }
        }
    }

    /// Stores a language choice and updates the cache.
    pub(crate) async fn choose_lang(
        &self,
        owner: LangOwner,
        platform: &str,
        id: &str,
        lang: Lang,
    ) -> Result<(), StoreError> {
        self.inner
            .store
            .set_lang(owner, platform, id, lang.code())
            .await?;
        if let Ok(mut cache) = self.inner.lang_choices.lock() {
            cache.insert((owner, platform.to_owned(), id.to_owned()), Some(lang));
        }
        Ok(())
    }

    async fn user_lang(&self, platform: &str, user: &str) -> Lang {
        self.chosen_lang(LangOwner::User, platform, user)
            .await
            .unwrap_or(self.inner.settings.default_lang)
    }

    /// A chat's language: `/lang chat`, else the platform's locale of the
    /// chat (a Discord guild's, as last seen), else the default.
    async fn chat_lang(&self, platform: &str, chat: &str) -> Lang {
        if let Some(lang) = self.chosen_lang(LangOwner::Chat, platform, chat).await {
            return lang;
        }
        self.inner
            .chat_locales
            .lock()
            .ok()
            .and_then(|seen| seen.get(&(platform.to_owned(), chat.to_owned())).copied())
            .unwrap_or(self.inner.settings.default_lang)
    }

    /// The language of a public message about `row` in its chat: the
    /// request's chat language when the game lives there.
    pub(crate) async fn game_chat_lang(&self, ctx: &Ctx, row: &GameRow) -> Lang {
        if row.chat_id == ctx.req.chat.id && row.platform == ctx.platform() {
            ctx.chat_lang
        } else {
            self.chat_lang(&row.platform, &row.chat_id).await
        }
    }

    /// The language of what is posted in the request's chat; remembers the
    /// chat's platform locale for messages sent later (flags, expiries).
    async fn request_chat_lang(&self, req: &Request, actor_lang: Lang) -> Lang {
        if req.private {
            return actor_lang;
        }
        let platform = req.chat.platform.key();
        if let Some(lang) = req.chat_locale.as_deref().and_then(Lang::parse) {
            if let Ok(mut seen) = self.inner.chat_locales.lock() {
                seen.insert((platform.to_owned(), req.chat.id.clone()), lang);
            }
        }
        self.chat_lang(platform, &req.chat.id).await
    }

    /// The actor's choice, else the platform locale, else the chat's, else the default.
    async fn actor_lang(&self, req: &Request) -> Lang {
        let platform = req.chat.platform.key();
        if let Some(lang) = self
            .chosen_lang(LangOwner::User, platform, &req.actor.id)
            .await
        {
            return lang;
        }
        if let Some(lang) = req.locale.as_deref().and_then(Lang::parse) {
            return lang;
        }
        self.chat_lang(platform, &req.chat.id).await
    }

    pub(crate) fn text(&self, lang: Lang, msg: &Msg) -> String {
        let args: Vec<(&str, FluentValue<'_>)> = msg
            .args
            .iter()
            .map(|(name, value)| (*name, value.fluent()))
            .collect();
        self.inner.i18n.text(lang, msg.key, &args)
    }

    pub(crate) fn now(&self) -> Millis {
        self.inner.time.now()
    }

    async fn dispatch(&self, req: Request) -> Vec<Delivery> {
        let lang = self.actor_lang(&req).await;
        let chat_lang = self.request_chat_lang(&req, lang).await;
        let quiet_lookups =
            matches!(req.action, Action::Text { .. }) || req.actor.computer_level().is_some();
        let ctx = Ctx {
            req,
            lang,
            chat_lang,
            open_games: std::sync::OnceLock::new(),
            quiet_lookups,
        };
        let result = match ctx.req.action.clone() {
            Action::Play {
                variant,
                opponent,
                clock,
                color,
                fen,
            } => self.play(&ctx, &variant, opponent, clock, color, fen).await,
            Action::PlayTeams {
                variant,
                partners,
                opponents,
                clock,
                color,
            } => {
                self.play_teams(&ctx, &variant, partners, opponents, clock, color)
                    .await
            }
            Action::Accept { game } => self.accept(&ctx, game).await,
            Action::Decline { game } => self.decline(&ctx, game).await,
            Action::Move { text, game } => self.make_move(&ctx, &text, game, false).await,
            Action::Text { text } => self.make_move(&ctx, &text, None, true).await,
            Action::Resign { game } => self.ask_resign(&ctx, game).await,
            Action::Draw { game } => self.draw(&ctx, game).await,
            Action::DeclineDraw { game } => self.decline_draw(&ctx, game).await,
            Action::Takeback { game } => self.takeback(&ctx, game).await,
            Action::RefuseTakeback { game } => self.refuse_takeback(&ctx, game).await,
            Action::Abort { game } => self.abort(&ctx, game).await,
            Action::Board { game } => self.board(&ctx, game).await,
            Action::Games => self.games(&ctx).await,
            Action::Pgn { game } => self.pgn(&ctx, game).await,
            Action::Partner { text } => self.partner(&ctx, &text).await,
            Action::Exchange { game } => self.exchange(&ctx, game).await,
            Action::DeclineExchange { game } => self.decline_exchange(&ctx, game).await,
            Action::Retire { game } => self.retire(&ctx, game).await,
            Action::Timeline { game } => self.timeline(&ctx, game).await,
            Action::Rules { variant } => self.rules(&ctx, &variant),
            Action::Variants => self.variants(&ctx),
            Action::Learn => self.learn(&ctx),
            Action::Help => self.help(&ctx),
            Action::Rematch { game } => self.rematch(&ctx, game).await,
            Action::Watch { game } => self.watch(&ctx, game, false).await,
            Action::Unwatch { game } => self.unwatch(&ctx, game).await,
            Action::Notation { notation } => self.set_notation(&ctx, &notation).await,
            Action::Lang { lang, chat_admin } => self.set_lang(&ctx, &lang, chat_admin).await,
            Action::Button { data } => self.button(&ctx, &data).await,
            Action::Relocate { game, chat } => self.relocate(&ctx, &game, &chat).await,
            Action::Unknown { command } => Err(Msg::new("error-unknown-command")
                .arg("command", command.chars().take(32).collect::<String>())
                .into()),
        };
        match result {
            Ok(deliveries) => {
                self.computers_follow(&deliveries);
                deliveries
                    .into_iter()
                    .filter(|d| !computer::for_computer(d))
                    .collect()
            }
            Err(Failure::Silent) => Vec::new(),
            Err(Failure::User(msg)) => vec![self.reply(&ctx, &msg)],
            Err(Failure::Withdrawn(msg)) => {
                let mut answer = vec![self.reply(&ctx, &msg)];
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
            Err(Failure::Conflict) => vec![self.reply(&ctx, &Msg::new("error-conflict"))],
            Err(Failure::Store(e)) => {
                tracing::error!(error = %e, "storage failure while handling a request");
                vec![self.reply(&ctx, &Msg::new("error-internal"))]
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
            ButtonAction::Resign { game, side } => self.resign(ctx, &game, &side).await,
            ButtonAction::KeepPlaying { game } => self.keep_playing(ctx, Some(game)).await,
            ButtonAction::AskResign { game } => self.ask_resign(ctx, Some(game)).await,
            ButtonAction::SetupRandom { game } => self.setup_button(ctx, &game, "random").await,
            ButtonAction::SetupReady { game } => self.setup_button(ctx, &game, "ready").await,
            ButtonAction::TakeSeat { game, seat } => {
                self.take_seat_button(ctx, &format!("{game}:{seat}")).await
            }
            ButtonAction::Rematch { game } => self.rematch(ctx, Some(game)).await,
            ButtonAction::Watch { game } => self.watch(ctx, Some(game), true).await,
        }
    }

    /// A private answer to the person who asked.
    pub(crate) fn reply(&self, ctx: &Ctx, msg: &Msg) -> Delivery {
        Delivery {
            notify: Vec::new(),
            target: Target::Ephemeral(ctx.req.actor.clone()),
            text: self.text(ctx.lang, msg),
            image: None,
            buttons: Vec::new(),
            game: None,
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
            let msg = args.into_iter().fold(
                Msg {
                    key,
                    args: Vec::new(),
                },
                |msg, (name, value)| msg.arg(name, value),
            );
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
}

tokio::task_local! {
    /// Who wants to know what the request being handled draws (see
    /// [`Handler::handle_watched`]).
    static WATCHER: crate::api::ActivityWatcher;
}

/// How long drawing waits for the watcher (a chat action sent, say).
const WATCHER_PATIENCE: std::time::Duration = std::time::Duration::from_secs(2);

impl Service {
    /// Tells the watcher of the request being handled, if any, that
    /// `activity` for `target` begins; waits for it a short while at most.
    pub(crate) async fn busy(&self, target: &Target, activity: crate::api::Activity) {
        let Ok(told) = WATCHER.try_with(|watcher| watcher(target.clone(), activity)) else {
            return;
        };
        if tokio::time::timeout(WATCHER_PATIENCE, told).await.is_err() {
            tracing::debug!("the activity watcher took too long");
        }
    }
}

/// A character never echoed: control characters but the line break, and
/// the bidirectional embeddings, overrides and isolates.
fn is_unsafe_char(c: char) -> bool {
    (c.is_control() && c != '\n') || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// The platform a delivery goes to.
fn target_platform(delivery: &Delivery) -> Platform {
    match &delivery.target {
        Target::Chat(chat) | Target::DeleteRequest(chat) => chat.platform,
        Target::Private(user) | Target::Ephemeral(user) => user.platform,
    }
}

/// The length of a new game id: 12 of the 23 letters of
/// [`GAME_ID_ALPHABET`], about 2^54 ids, so that guessing a game's id is
/// hopeless (and unknown ids named are limited per person, see
/// [`MAX_UNKNOWN_IDS`]). Games stored with the 4-letter ids of earlier
/// versions keep them.
pub const GAME_ID_LEN: usize = 12;

/// The letters of game ids: none that can form a square name (no `a`–`h`)
/// and no look-alikes (`i`, `l`, `o`, `0`, `1`), so an id never reads as a move.
pub const GAME_ID_ALPHABET: &str = "jkmnpqrstuvwxyz23456789";

/// A new game id of [`GAME_ID_LEN`] letters drawn from the operating
/// system's secure random source, each letter equally likely; `None` when
/// that source fails (no id is better than a guessable one).
pub(crate) fn new_game_id() -> Option<String> {
    let alphabet = GAME_ID_ALPHABET.as_bytes();
    // Bytes at or above the largest multiple of the alphabet's size are
    // dropped: every letter is equally likely.
    let limit = 256 - 256 % alphabet.len();
    let mut id = String::with_capacity(GAME_ID_LEN);
    let mut bytes = [0u8; 2 * GAME_ID_LEN];
    while id.len() < GAME_ID_LEN {
        getrandom::fill(&mut bytes).ok()?;
        for byte in bytes.iter().map(|&b| usize::from(b)) {
            if byte < limit && id.len() < GAME_ID_LEN {
                id.push(char::from(alphabet[byte % alphabet.len()]));
            }
        }
    }
    Some(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_game_ids_are_long_random_and_never_read_as_moves() {
        let ids: Vec<String> = (0..2000).map(|_| new_game_id().expect("an id")).collect();
        for id in &ids {
            assert_eq!(id.len(), GAME_ID_LEN, "{id}");
            assert!(id.chars().all(|c| GAME_ID_ALPHABET.contains(c)), "{id}");
            assert!(!id.chars().any(|c| ('a'..='h').contains(&c)), "{id}");
            assert!(id.len() <= ButtonAction::MAX_GAME_ID);
        }
        // At least 2^50 ids: guessing one of them is hopeless.
        let ids_possible = (GAME_ID_ALPHABET.len() as f64).powi(GAME_ID_LEN as i32);
        assert!(ids_possible.log2() > 50.0, "{}", ids_possible.log2());
        let distinct: std::collections::HashSet<&String> = ids.iter().collect();
        assert_eq!(distinct.len(), ids.len(), "no two alike");
        // Every letter is drawn, about equally often.
        let mut counts = HashMap::new();
        for c in ids.iter().flat_map(|id| id.chars()) {
            *counts.entry(c).or_insert(0usize) += 1;
        }
        assert_eq!(counts.len(), GAME_ID_ALPHABET.len());
        let expected = (2000 * GAME_ID_LEN / GAME_ID_ALPHABET.len()) as f64;
        for (c, n) in counts {
            assert!(
                (n as f64 - expected).abs() < expected * 0.2,
                "{c}: {n} of {expected}"
            );
        }
    }

    #[test]
    fn echoed_text_loses_control_characters_and_overrides() {
        let msg = Msg::new("error-unknown-variant")
            .arg("variant", "at\u{1b}[31mom\ric\u{202E}x\ty\nz")
            .arg("count", 3);
        match &msg.args[0].1 {
            MsgArg::Text(text) => assert_eq!(text, "at[31momicxy\nz"),
            other => panic!("{other:?}"),
        }
        assert!(matches!(msg.args[1].1, MsgArg::Number(_)));
    }
}
