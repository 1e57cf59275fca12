//! The service's state and the access to games: [`Service`] and what it
//! holds, the locks, reading a game (its variant, its replayed position),
//! saving it under the version check, and handing deliveries to the
//! platforms' outboxes.

use super::msg::{Failure, Msg, Outcome};
use super::request::Ctx;
use crate::api::{Delivery, Platform, Target, UserRef};
use crate::config::Config;
use crate::i18n::{I18n, Lang};
use crate::store::{GameRow, LangOwner, Status, Store, StoreError};
use crate::time::{Millis, TimeSource};
use fluent_bundle::FluentValue;
use kodex_engine::{Game, Registry, Variant};
use std::collections::{HashMap, VecDeque};
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex};
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};
use tokio::sync::Notify;

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
    /// Public seeks one person may have at once.
    pub max_public_seeks: usize,
    /// Unused invitations one person may have at once.
    pub max_invites: usize,
    /// Tournaments one chat may have open or running at once.
    pub max_tournaments: usize,
    /// Players one tournament may take.
    pub max_tournament_players: usize,
    /// The time a tournament player has for their first move.
    pub tournament_first_move: Millis,
    /// Whether this process runs the computer's searches (see
    /// `commands/computer/searches.rs`).
    pub searches: bool,
    /// Searches at once in this process (at least one).
    pub searchers: usize,
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
            max_public_seeks: config.games.max_public_seeks,
            max_invites: config.games.max_invites,
            max_tournaments: config.games.max_tournaments,
            max_tournament_players: config.games.max_tournament_players,
            tournament_first_move: (config.games.tournament_first_move_secs as Millis)
                .saturating_mul(1000),
            searches: config.computer.searches,
            searchers: match config.computer.searchers {
                // One core stays free for people's moves.
                0 => std::thread::available_parallelism()
                    .map_or(1, |n| usize::from(n).saturating_sub(1))
                    .max(1),
                n => n,
            },
        }
    }
}

/// The game service. Cheap to clone; all clones share one state.
#[derive(Clone)]
pub struct Service {
    pub(in crate::service) inner: Arc<Inner>,
}

pub(in crate::service) struct Inner {
    pub(in crate::service) store: Store,
    pub(in crate::service) registry: Registry,
    i18n: I18n,
    pub(in crate::service) time: Arc<dyn TimeSource>,
    pub(in crate::service) settings: Settings,
    pub(in crate::service) stripes: Vec<tokio::sync::Mutex<()>>,
    pub(in crate::service) outboxes: Mutex<HashMap<Platform, UnboundedSender<Delivery>>>,
    /// Wakes the scheduler: a deadline changed, or the service is gone.
    pub(in crate::service) wake: Arc<Notify>,
    /// Language choices read so far.
    pub(in crate::service) lang_choices: Mutex<HashMap<(LangOwner, String, String), Option<Lang>>>,
    /// The platform locale last seen for each chat (platform, chat id): a
    /// Discord guild's locale, the chat's language until `/lang chat`.
    pub(in crate::service) chat_locales: Mutex<HashMap<(String, String), Lang>>,
    /// One permit per core for drawing images (see [`Service::draw_off_runtime`]).
    pub(in crate::service) drawing: tokio::sync::Semaphore,
    /// One permit per searcher ([`Settings::searchers`]) for the computer's
    /// searches.
    pub(in crate::service) computing: Arc<tokio::sync::Semaphore>,
    /// Wakes this process's searchers: a search was asked for.
    pub(in crate::service) searches_wake: Arc<Notify>,
    /// Wakes the player of stored decisions: a searcher elsewhere decided.
    pub(in crate::service) decisions_wake: Arc<Notify>,
    /// The computer's searches under way.
    pub(in crate::service) thinking: super::thinking::Thinking,
    /// When each person (platform, user id) named a game id that named no
    /// game, within the last [`UNKNOWN_ID_WINDOW`] (see `lookup.rs`). Kept
    /// in memory: one process limits its own lookups, a restart forgets.
    pub(in crate::service) unknown_ids: Mutex<HashMap<(String, String), VecDeque<Millis>>>,
    /// Who the bot is on each platform, as its adapter said (see
    /// [`crate::api::Handler::introduce`]).
    pub(in crate::service) bot_handles: Mutex<HashMap<Platform, String>>,
    /// The chat each person (platform, user id) last wrote in, and whether
    /// they wrote privately once, as last stored (see `commands/ticker.rs`).
    pub(in crate::service) presence: Mutex<HashMap<(String, String), (String, bool)>>,
    /// Held while a tournament is read, changed and saved (see
    /// `commands/tournament.rs`): its rounds are paired once. Taken before
    /// any game's lock, never while one is held.
    pub(in crate::service) tournaments: tokio::sync::Mutex<()>,
    /// This service's name in the changes it tells other processes of (see
    /// `changes.rs`), so that it does not forget what it just learnt.
    pub(in crate::service) origin: u64,
}

impl Drop for Inner {
    fn drop(&mut self) {
        // Lets the scheduler and the searchers notice that the service is gone.
        self.wake.notify_one();
        self.searches_wake.notify_waiters();
        self.decisions_wake.notify_waiters();
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
        let service = Service::with_store(store, registry, time, Settings::from_config(config));
        // Processes sharing a PostgreSQL database keep each other's memory right.
        service.hear_changes().await;
        service.spawn_searches();
        Ok(service)
    }

    /// Builds the service on an opened store.
    pub fn with_store(
        store: Store,
        registry: Registry,
        time: Arc<dyn TimeSource>,
        settings: Settings,
    ) -> Service {
        let searchers = settings.searchers.max(1);
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
                computing: Arc::new(tokio::sync::Semaphore::new(searchers)),
                searches_wake: Arc::new(Notify::new()),
                decisions_wake: Arc::new(Notify::new()),
                thinking: super::thinking::Thinking::default(),
                unknown_ids: Mutex::new(HashMap::new()),
                bot_handles: Mutex::new(HashMap::new()),
                presence: Mutex::new(HashMap::new()),
                tournaments: tokio::sync::Mutex::new(()),
                origin: fastrand::u64(..),
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

    /// The settings the service runs with.
    pub fn config(&self) -> &Settings {
        &self.inner.settings
    }

    /// The storage.
    pub fn store(&self) -> &Store {
        &self.inner.store
    }

    /// Waits (at most `bound`) until no turn of the computer is in flight:
    /// a console whose input ended shows the computer's reply before it
    /// stops. `false` if the bound passed first.
    pub async fn computer_settled(&self, bound: std::time::Duration) -> bool {
        let until = tokio::time::Instant::now() + bound;
        while self.inner.thinking.busy() {
            if tokio::time::Instant::now() >= until {
                return false;
            }
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        true
    }

    /// Stops the computer (its searches under way are dropped, it acts no
    /// more) and closes the database after the requests in progress; call
    /// it last, when the platforms have stopped (later requests fail). The
    /// next process resumes every game and clock where it was.
    pub async fn close(&self) {
        self.inner.thinking.stop_all();
        self.release_searches().await;
        self.inner.store.close().await;
    }

    /// A message from the catalogue in `user`'s language, for adapters that
    /// must say something themselves (a console line that is too long).
    pub async fn text_for(&self, user: &UserRef, key: &'static str) -> String {
        let lang = self.user_lang(user.platform.key(), &user.id).await;
        self.inner.i18n.text(lang, key, &[])
    }

    pub(crate) fn send(&self, deliveries: Vec<Delivery>) {
        self.computers_follow(&deliveries);
        self.deliver(deliveries);
    }

    /// Puts deliveries in their platforms' outboxes (none for the computer).
    pub(crate) fn deliver(&self, deliveries: Vec<Delivery>) {
        let Ok(outboxes) = self.inner.outboxes.lock() else {
            return;
        };
        for delivery in deliveries
            .into_iter()
            .filter(|d| !super::players::for_computer(d))
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
    pub(crate) async fn lock(&self, id: &str) -> tokio::sync::MutexGuard<'_, ()> {
        self.inner.stripes[self.stripe(id)].lock().await
    }

    /// The lock stripe of game `id`.
    pub(crate) fn stripe(&self, id: &str) -> usize {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        id.hash(&mut hasher);
        (hasher.finish() as usize) % LOCK_STRIPES
    }

    /// Locks the game `found` and reads it afresh (someone may have written
    /// it between finding and locking); `None` when it is gone, or no longer
    /// in `status`.
    pub(crate) async fn lock_fresh(
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
    pub(crate) async fn save(&self, row: &mut GameRow) -> Outcome<()> {
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

    /// The variant a person named (an id or any of its names), or the
    /// refusal naming what they typed (shortened).
    pub(crate) fn known_variant(&self, typed: &str) -> Outcome<Variant> {
        self.inner.registry.get(typed).cloned().ok_or_else(|| {
            let shown: String = typed.chars().take(32).collect();
            Msg::new("error-unknown-variant")
                .arg("variant", shown)
                .into()
        })
    }

    /// The variant of `row`, as long as its definition is the one the game
    /// began under: a game whose variant is gone, or whose definition an
    /// operator changed since, is refused — every look at it and every
    /// change of it goes through here, so it fails closed, showing nothing
    /// of its position (a stamp of `None`: stored before fingerprints, and
    /// not yet stamped at a start-up; taken as it is).
    pub(crate) fn variant(&self, row: &GameRow) -> Outcome<Variant> {
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
    pub(crate) fn replay(&self, row: &GameRow) -> Outcome<Game> {
        let variant = self.variant(row)?;
        let start = row.start_fen.as_deref().unwrap_or_default();
        Game::replay(&variant, start, &row.move_list()).map_err(|e| {
            tracing::error!(game = %row.id, error = %e, "stored game does not replay");
            Failure::User(Msg::new("error-corrupt-game").arg("id", row.id.clone()))
        })
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

    /// Remembers the bot's handle on `platform` (a Telegram username).
    pub(crate) fn set_bot_handle(&self, platform: Platform, handle: &str) {
        let handle: String = handle
            .trim_start_matches('@')
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
            .take(64)
            .collect();
        if let Ok(mut handles) = self.inner.bot_handles.lock() {
            handles.insert(platform, handle);
        }
    }

    /// The bot's handle on `platform`, once its adapter said it.
    pub(crate) fn bot_handle(&self, platform: Platform) -> Option<String> {
        let handles = self.inner.bot_handles.lock().ok()?;
        handles.get(&platform).filter(|h| !h.is_empty()).cloned()
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

tokio::task_local! {
    /// Who wants to know what the request being handled draws (see
    /// [`Handler::handle_watched`]).
    pub(crate) static WATCHER: crate::api::ActivityWatcher;
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

/// The platform a delivery goes to.
pub(crate) fn target_platform(delivery: &Delivery) -> Platform {
    match &delivery.target {
        Target::Chat(chat) | Target::DeleteRequest(chat) => chat.platform,
        Target::Private(user) | Target::Ephemeral(user) => user.platform,
    }
}
