//! Handling updates: one lane per chat. A slow update in one chat (an
//! end-of-game animation being drawn, a database lock) never delays another
//! chat, while one chat's updates are still handled in the order they came.
//! A lane closes when its chat has been quiet for a while.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use teloxide::types::Update;
use tokio::sync::mpsc::{self, UnboundedReceiver, UnboundedSender};

use super::updates::Adapter;

/// How long a lane waits for its chat's next update before it closes.
const IDLE: Duration = Duration::from_secs(60);

type LaneMap = Arc<Mutex<HashMap<i64, UnboundedSender<Update>>>>;

/// The lanes, and a way to wait until every lane has finished.
pub(super) struct Lanes {
    adapter: Arc<Adapter>,
    lanes: LaneMap,
    /// Every lane's task holds a clone; [`Lanes::finish`] waits until all are gone.
    alive: mpsc::Sender<()>,
    all_done: mpsc::Receiver<()>,
}

fn lock(lanes: &LaneMap) -> MutexGuard<'_, HashMap<i64, UnboundedSender<Update>>> {
    lanes
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Lanes {
    /// No lanes yet.
    pub fn new(adapter: Arc<Adapter>) -> Self {
        let (alive, all_done) = mpsc::channel(1);
        Lanes {
            adapter,
            lanes: Arc::new(Mutex::new(HashMap::new())),
            alive,
            all_done,
        }
    }

    /// Hands an update to its chat's lane, opening one if needed.
    pub fn push(&self, update: Update) {
        let key = lane_of(&update);
        let mut lanes = lock(&self.lanes);
        let update = match lanes.get(&key) {
            Some(lane) => match lane.send(update) {
                Ok(()) => return,
                // The lane's task is gone (it can only stop by panicking).
                Err(returned) => returned.0,
            },
            None => update,
        };
        let (sender, receiver) = mpsc::unbounded_channel();
        // The receiver is alive: this cannot fail.
        let _ = sender.send(update);
        lanes.insert(key, sender);
        tokio::spawn(run_lane(
            key,
            receiver,
            Arc::clone(&self.adapter),
            Arc::clone(&self.lanes),
            self.alive.clone(),
        ));
    }

    /// Closes every lane once its updates are handled, and waits for that.
    pub async fn finish(self) {
        let Lanes {
            lanes,
            alive,
            mut all_done,
            ..
        } = self;
        lock(&lanes).clear();
        drop(alive);
        while all_done.recv().await.is_some() {}
    }
}

/// The lane of an update: its chat, else its sender.
fn lane_of(update: &Update) -> i64 {
    if let Some(chat) = update.chat() {
        return chat.id.0;
    }
    update
        .from()
        .and_then(|user| i64::try_from(user.id.0).ok())
        .unwrap_or_default()
}

async fn run_lane(
    key: i64,
    mut updates: UnboundedReceiver<Update>,
    adapter: Arc<Adapter>,
    lanes: LaneMap,
    _alive: mpsc::Sender<()>,
) {
    loop {
        let update = match tokio::time::timeout(IDLE, updates.recv()).await {
            Ok(Some(update)) => update,
            Ok(None) => return,
            Err(_) => {
                // Quiet for a while: close, unless an update just came (updates
                // are pushed with the map locked, so none can slip in now).
                let mut map = lock(&lanes);
                match updates.try_recv() {
                    Ok(update) => update,
                    Err(_) => {
                        map.remove(&key);
                        return;
                    }
                }
            }
        };
        adapter.on_update(update).await;
    }
}
