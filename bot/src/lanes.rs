//! Lanes: one ordered, bounded work queue per key (a chat), each served by a
//! task of its own. A slow chat (an animation being drawn, flood limits,
//! retries) never delays another, while one chat's items keep their order. A
//! lane closes when its chat has been quiet for a while, so a bot seen by
//! many chats holds tasks only for the busy ones; a lane that is full refuses
//! more (one flooding chat cannot eat the memory). [`Lanes::finish`] lets
//! every lane drain and waits for it: a clean stop loses nothing queued.
//!
//! Both adapters use them: Telegram for incoming updates and outgoing
//! messages, Discord for outgoing messages.

use std::collections::HashMap;
use std::future::Future;
use std::hash::Hash;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::sync::{mpsc, watch};

/// What a lane does with each item.
pub type Work<T> = Arc<dyn Fn(T) -> Pin<Box<dyn Future<Output = ()> + Send>> + Send + Sync>;

/// One lane as the map holds it: its queue and a number telling it apart
/// from a later lane of the same key.
struct Lane<T> {
    queue: mpsc::Sender<T>,
    number: u64,
}

struct Map<K, T> {
    lanes: HashMap<K, Lane<T>>,
    next_number: u64,
}

/// The lanes of one kind of work.
pub struct Lanes<K, T> {
    map: Arc<Mutex<Map<K, T>>>,
    work: Work<T>,
    /// How many items a lane holds before it refuses more.
    capacity: usize,
    /// How long a lane waits for its next item before it closes.
    idle: Duration,
    /// How many lane tasks are running.
    running: Arc<watch::Sender<usize>>,
}

/// Why [`Lanes::push`] did not take an item.
#[derive(Debug, PartialEq, Eq)]
pub enum Refused {
    /// The key's lane already holds `capacity` items.
    Full,
}

fn lock<K, T>(map: &Mutex<Map<K, T>>) -> MutexGuard<'_, Map<K, T>> {
    map.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Counts a lane task as running until dropped (also when the work panics).
struct Running(Arc<watch::Sender<usize>>);

impl Running {
    fn new(running: &Arc<watch::Sender<usize>>) -> Self {
        running.send_modify(|count| *count += 1);
        Running(Arc::clone(running))
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.0.send_modify(|count| *count = count.saturating_sub(1));
    }
}

impl<K, T> Lanes<K, T>
where
    K: Hash + Eq + Clone + Send + 'static,
    T: Send + 'static,
{
    /// No lanes yet; each lane will hold up to `capacity` items and close
    /// after `idle` without one.
    pub fn new(capacity: usize, idle: Duration, work: Work<T>) -> Self {
        Lanes {
            map: Arc::new(Mutex::new(Map {
                lanes: HashMap::new(),
                next_number: 0,
            })),
            work,
            capacity: capacity.max(1),
            idle,
            running: Arc::new(watch::channel(0).0),
        }
    }

    /// Hands `item` to the lane of `key`, opening one if needed. Must be
    /// called inside a Tokio runtime.
    pub fn push(&self, key: K, item: T) -> Result<(), Refused> {
        let mut map = lock(&self.map);
        let item = match map.lanes.get(&key) {
            Some(lane) => match lane.queue.try_send(item) {
                Ok(()) => return Ok(()),
                Err(mpsc::error::TrySendError::Full(_)) => return Err(Refused::Full),
                // The lane's task is gone (it can only stop by panicking).
                Err(mpsc::error::TrySendError::Closed(item)) => item,
            },
            None => item,
        };
        let (queue, receiver) = mpsc::channel(self.capacity);
        // The receiver is alive and empty: this cannot fail.
        let _ = queue.try_send(item);
        let number = map.next_number;
        map.next_number += 1;
        map.lanes.insert(key.clone(), Lane { queue, number });
        tokio::spawn(run_lane(
            key,
            number,
            receiver,
            Arc::clone(&self.work),
            Arc::clone(&self.map),
            self.idle,
            Running::new(&self.running),
        ));
        Ok(())
    }

    /// How many lanes are open.
    pub fn open(&self) -> usize {
        lock(&self.map).lanes.len()
    }

    /// Closes every lane once its items are done, and waits for that
    /// (lanes opened meanwhile included).
    pub async fn finish(&self) {
        lock(&self.map).lanes.clear();
        let mut running = self.running.subscribe();
        let _ = running.wait_for(|count| *count == 0).await;
    }
}

async fn run_lane<K, T>(
    key: K,
    number: u64,
    mut items: mpsc::Receiver<T>,
    work: Work<T>,
    map: Arc<Mutex<Map<K, T>>>,
    idle: Duration,
    _running: Running,
) where
    K: Hash + Eq,
{
    loop {
        let item = match tokio::time::timeout(idle, items.recv()).await {
            Ok(Some(item)) => item,
            Ok(None) => return,
            Err(_) => {
                // Quiet for a while: close, unless an item just came (items
                // are pushed with the map locked, so none can slip in now).
                let mut map = lock(&map);
                match items.try_recv() {
                    Ok(item) => item,
                    Err(_) => {
                        if map
                            .lanes
                            .get(&key)
                            .is_some_and(|lane| lane.number == number)
                        {
                            map.lanes.remove(&key);
                        }
                        return;
                    }
                }
            }
        };
        work(item).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn recorder(log: Arc<Mutex<Vec<(u8, u32)>>>, pause: Duration) -> Work<(u8, u32)> {
        Arc::new(move |item| {
            let log = Arc::clone(&log);
            Box::pin(async move {
                tokio::time::sleep(pause).await;
                log.lock().unwrap_or_else(|p| p.into_inner()).push(item);
            })
        })
    }

    #[tokio::test]
    async fn each_key_keeps_its_order_and_finish_waits_for_everything() {
        let log = Arc::new(Mutex::new(Vec::new()));
        let lanes = Lanes::new(
            100,
            Duration::from_secs(60),
            recorder(Arc::clone(&log), Duration::from_millis(1)),
        );
        for n in 0..20 {
            lanes.push(n % 2, (n % 2, u32::from(n))).expect("room");
        }
        lanes.finish().await;
        let log = log.lock().expect("log").clone();
        assert_eq!(log.len(), 20);
        for key in 0..2 {
            let order: Vec<u32> = log
                .iter()
                .filter(|(k, _)| *k == key)
                .map(|(_, n)| *n)
                .collect();
            assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:?}");
        }
        assert_eq!(lanes.open(), 0);
    }

    #[tokio::test]
    async fn a_full_lane_refuses_and_others_still_take() {
        let done = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&done);
        let (release, released) = watch::channel(false);
        let work: Work<u32> = Arc::new(move |_| {
            let counter = Arc::clone(&counter);
            let mut released = released.clone();
            Box::pin(async move {
                let _ = released.wait_for(|open| *open).await;
                counter.fetch_add(1, Ordering::SeqCst);
            })
        });
        let lanes = Lanes::new(3, Duration::from_secs(60), work);
        // The first item is taken at once by the lane's task (or still queued):
        // at most capacity + 1 are accepted, then the lane refuses.
        let accepted = (0..10).filter(|n| lanes.push("flood", *n).is_ok()).count();
        assert!((3..=4).contains(&accepted), "{accepted}");
        assert_eq!(lanes.push("flood", 99), Err(Refused::Full));
        assert_eq!(lanes.push("quiet", 1), Ok(()));
        release.send_replace(true);
        lanes.finish().await;
        assert_eq!(done.load(Ordering::SeqCst), accepted + 1);
    }

    #[tokio::test]
    async fn an_idle_lane_is_removed_and_a_new_one_opens_on_demand() {
        let log = Arc::new(Mutex::new(Vec::new()));
        let lanes = Lanes::new(
            10,
            Duration::from_millis(50),
            recorder(Arc::clone(&log), Duration::ZERO),
        );
        lanes.push(1, (1, 1)).expect("room");
        assert_eq!(lanes.open(), 1);
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(lanes.open(), 0, "the quiet lane closed");
        lanes.push(1, (1, 2)).expect("room");
        lanes.finish().await;
        assert_eq!(*log.lock().expect("log"), vec![(1, 1), (1, 2)]);
    }
}
