//! Lanes: one ordered, bounded work queue per key (a chat), each served by a
//! task of its own. A slow chat (an animation being drawn, flood limits,
//! retries) never delays another, while one chat's items keep their order. A
//! lane closes when its chat has been quiet for a while, so a bot seen by
//! many chats holds tasks only for the busy ones; a lane that is full refuses
//! more (one flooding chat cannot eat the memory). [`Lanes::finish`] lets
//! every lane drain and waits for it: a clean stop loses nothing queued.
//!
//! A lane has two levels: urgent items ([`Lanes::push_urgent`], an answer
//! someone is waiting for) overtake the ordinary ones still queued, each
//! level keeping its own order; an urgent item takes along the ordinary ones
//! that must not be overtaken (a board of the same game). A [`Pace`] may
//! hold the ordinary items back (a chat near its flood limit) while urgent
//! ones still go.
//!
//! Both adapters use them: Telegram for incoming updates and outgoing
//! messages, Discord for outgoing messages.

use std::collections::{HashMap, VecDeque};
use std::future::Future;
use std::hash::Hash;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::sync::{watch, Notify};

/// What a lane does with each item.
pub type Work<T> = Arc<dyn Fn(T) -> Pin<Box<dyn Future<Output = ()> + Send>> + Send + Sync>;

/// How long the ordinary items of a key's lane must wait before the next
/// one starts (`None`: it may start now). Asked before each ordinary item,
/// with the lane's queue locked: it must not push into the lanes.
pub type Pace<K> = Arc<dyn Fn(&K) -> Option<Duration> + Send + Sync>;

/// A lane's items, urgent first.
struct Queue<T> {
    urgent: VecDeque<T>,
    ordinary: VecDeque<T>,
    /// [`Lanes::finish`] was called: the lane ends once empty, unpaced.
    draining: bool,
    /// The lane's task is gone: pushes open a new lane.
    ended: bool,
}

impl<T> Queue<T> {
    fn len(&self) -> usize {
        self.urgent.len() + self.ordinary.len()
    }

    /// Adds an ordinary item, or (with `along`) an urgent one after the
    /// ordinary items `along` picks, which move with it in their order.
    fn add(&mut self, item: T, along: Option<&mut dyn FnMut(&mut T) -> bool>) {
        let Some(along) = along else {
            self.ordinary.push_back(item);
            return;
        };
        let mut staying = VecDeque::with_capacity(self.ordinary.len());
        for mut queued in self.ordinary.drain(..) {
            if along(&mut queued) {
                self.urgent.push_back(queued);
            } else {
                staying.push_back(queued);
            }
        }
        self.ordinary = staying;
        self.urgent.push_back(item);
    }
}

/// What a lane's task and the map share of one lane.
struct LaneQueue<T> {
    queue: Mutex<Queue<T>>,
    /// Told of every item pushed (and of the drain).
    arrived: Notify,
}

impl<T> LaneQueue<T> {
    fn lock(&self) -> MutexGuard<'_, Queue<T>> {
        self.queue
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// One lane as the map holds it: its queue and a number telling it apart
/// from a later lane of the same key.
struct Lane<T> {
    queue: Arc<LaneQueue<T>>,
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
    /// When ordinary items may go (always, without one).
    pace: Option<Pace<K>>,
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

/// Marks a lane's queue ended when its task stops (also by a panic).
struct Ending<T>(Arc<LaneQueue<T>>);

impl<T> Drop for Ending<T> {
    fn drop(&mut self) {
        self.0.lock().ended = true;
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
            pace: None,
            capacity: capacity.max(1),
            idle,
            running: Arc::new(watch::channel(0).0),
        }
    }

    /// The same lanes, with ordinary items held back as `pace` says.
    pub fn paced(mut self, pace: Pace<K>) -> Self {
        self.pace = Some(pace);
        self
    }

    /// Hands `item` to the lane of `key`, opening one if needed; it goes
    /// after everything queued before it. Must be called inside a Tokio
    /// runtime.
    pub fn push(&self, key: K, item: T) -> Result<(), Refused> {
        self.enter(key, item, None)
    }

    /// Hands an urgent `item` to the lane of `key`: it goes after the
    /// urgent items queued before it, ahead of the ordinary ones, except
    /// those `along` picks, which go just before it (in their order).
    /// `along` sees each queued ordinary item once, and may change those it
    /// lets the urgent one overtake.
    pub fn push_urgent(
        &self,
        key: K,
        item: T,
        mut along: impl FnMut(&mut T) -> bool,
    ) -> Result<(), Refused> {
        self.enter(key, item, Some(&mut along))
    }

    fn enter(
        &self,
        key: K,
        item: T,
        along: Option<&mut dyn FnMut(&mut T) -> bool>,
    ) -> Result<(), Refused> {
        let mut map = lock(&self.map);
        if let Some(lane) = map.lanes.get(&key) {
            let mut queue = lane.queue.lock();
            // An ended lane (its task can only stop early by panicking) is replaced.
            if !queue.ended {
                if queue.len() >= self.capacity {
                    return Err(Refused::Full);
                }
                queue.add(item, along);
                drop(queue);
                lane.queue.arrived.notify_one();
                return Ok(());
            }
        }
        let mut queue = Queue {
            urgent: VecDeque::new(),
            ordinary: VecDeque::new(),
            draining: false,
            ended: false,
        };
        queue.add(item, along);
        let queue = Arc::new(LaneQueue {
            queue: Mutex::new(queue),
            arrived: Notify::new(),
        });
        let number = map.next_number;
        map.next_number += 1;
        map.lanes.insert(
            key.clone(),
            Lane {
                queue: Arc::clone(&queue),
                number,
            },
        );
        tokio::spawn(run_lane(
            Served {
                key,
                number,
                queue,
                work: Arc::clone(&self.work),
                pace: self.pace.clone(),
                map: Arc::clone(&self.map),
                idle: self.idle,
            },
            Running::new(&self.running),
        ));
        Ok(())
    }

    /// How many lanes are open.
    pub fn open(&self) -> usize {
        lock(&self.map).lanes.len()
    }

    /// Closes every lane once its items are done (no longer paced), and
    /// waits for that (lanes opened meanwhile included).
    pub async fn finish(&self) {
        let lanes: Vec<Lane<T>> = lock(&self.map)
            .lanes
            .drain()
            .map(|(_, lane)| lane)
            .collect();
        for lane in lanes {
            lane.queue.lock().draining = true;
            lane.queue.arrived.notify_one();
        }
        let mut running = self.running.subscribe();
        let _ = running.wait_for(|count| *count == 0).await;
    }
}

/// One lane as its task sees it.
struct Served<K, T> {
    key: K,
    number: u64,
    queue: Arc<LaneQueue<T>>,
    work: Work<T>,
    pace: Option<Pace<K>>,
    map: Arc<Mutex<Map<K, T>>>,
    idle: Duration,
}

/// What a lane does next.
enum Next<T> {
    Work(T),
    /// Ordinary items are held back this long (or until an item comes).
    Hold(Duration),
    /// Nothing queued.
    Wait,
    Stop,
}

async fn run_lane<K, T>(lane: Served<K, T>, _running: Running)
where
    K: Hash + Eq,
{
    let _ending = Ending(Arc::clone(&lane.queue));
    loop {
        let next = {
            let mut queue = lane.queue.lock();
            if let Some(item) = queue.urgent.pop_front() {
                Next::Work(item)
            } else if queue.ordinary.is_empty() {
                if queue.draining {
                    Next::Stop
                } else {
                    Next::Wait
                }
            } else {
                let hold = match &lane.pace {
                    Some(pace) if !queue.draining => pace(&lane.key),
                    _ => None,
                };
                match hold {
                    Some(hold) => Next::Hold(hold),
                    None => queue.ordinary.pop_front().map_or(Next::Wait, Next::Work),
                }
            }
        };
        match next {
            Next::Work(item) => (lane.work)(item).await,
            Next::Hold(hold) => {
                let _ = tokio::time::timeout(hold, lane.queue.arrived.notified()).await;
            }
            Next::Wait => {
                if tokio::time::timeout(lane.idle, lane.queue.arrived.notified())
                    .await
                    .is_err()
                {
                    // Quiet for a while: close, unless an item just came
                    // (items are pushed with the map locked, so none can
                    // slip in now).
                    let mut map = lock(&lane.map);
                    let mut queue = lane.queue.lock();
                    if queue.len() == 0 {
                        queue.ended = true;
                        if map
                            .lanes
                            .get(&lane.key)
                            .is_some_and(|open| open.number == lane.number)
                        {
                            map.lanes.remove(&lane.key);
                        }
                        return;
                    }
                }
            }
            Next::Stop => return,
        }
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

    /// A lane whose first item waits for `release`, so that the test can
    /// queue behind it; records what it did.
    fn gated(
        log: Arc<Mutex<Vec<&'static str>>>,
        release: watch::Receiver<bool>,
    ) -> Work<&'static str> {
        Arc::new(move |item| {
            let log = Arc::clone(&log);
            let mut release = release.clone();
            Box::pin(async move {
                let _ = release.wait_for(|open| *open).await;
                log.lock().unwrap_or_else(|p| p.into_inner()).push(item);
            })
        })
    }

    #[tokio::test]
    async fn urgent_items_overtake_ordinary_ones_and_each_level_keeps_its_order() {
        let log = Arc::new(Mutex::new(Vec::new()));
        let (release, released) = watch::channel(false);
        let lanes = Lanes::new(
            100,
            Duration::from_secs(60),
            gated(Arc::clone(&log), released),
        );
        lanes.push(1, "first").expect("room");
        // The lane takes "first" and waits; the rest queues behind it.
        tokio::time::sleep(Duration::from_millis(20)).await;
        for item in ["board 1", "clock", "board 2"] {
            lanes.push(1, item).expect("room");
        }
        lanes.push_urgent(1, "question", |_| false).expect("room");
        lanes.push_urgent(1, "answer", |_| false).expect("room");
        lanes.push(2, "elsewhere").expect("room");
        release.send_replace(true);
        lanes.finish().await;
        let log = log.lock().expect("log").clone();
        let one: Vec<&str> = log
            .into_iter()
            .filter(|item| *item != "elsewhere")
            .collect();
        assert_eq!(
            one,
            ["first", "question", "answer", "board 1", "clock", "board 2"]
        );
    }

    #[tokio::test]
    async fn an_urgent_item_takes_along_the_ordinary_ones_it_must_not_overtake() {
        let log = Arc::new(Mutex::new(Vec::new()));
        let (release, released) = watch::channel(false);
        let lanes = Lanes::new(
            100,
            Duration::from_secs(60),
            gated(Arc::clone(&log), released),
        );
        lanes.push(1, "first").expect("room");
        tokio::time::sleep(Duration::from_millis(20)).await;
        for item in ["game a 1", "game b 1", "game a 2", "game b 2"] {
            lanes.push(1, item).expect("room");
        }
        // A newer board of game a: the older ones of game a go just before it.
        lanes
            .push_urgent(1, "game a 3", |queued| queued.starts_with("game a"))
            .expect("room");
        release.send_replace(true);
        lanes.finish().await;
        assert_eq!(
            *log.lock().expect("log"),
            ["first", "game a 1", "game a 2", "game a 3", "game b 1", "game b 2"]
        );
    }

    #[tokio::test]
    async fn a_pace_holds_ordinary_items_back_but_not_urgent_ones() {
        let log = Arc::new(Mutex::new(Vec::new()));
        let (_release, released) = watch::channel(true);
        let held = Arc::new(std::sync::atomic::AtomicBool::new(true));
        let holding = Arc::clone(&held);
        let pace: Pace<u8> = Arc::new(move |_| {
            holding
                .load(Ordering::SeqCst)
                .then_some(Duration::from_millis(10))
        });
        let lanes = Lanes::new(
            100,
            Duration::from_secs(60),
            gated(Arc::clone(&log), released),
        )
        .paced(pace);
        lanes.push(1, "board").expect("room");
        lanes.push_urgent(1, "answer", |_| false).expect("room");
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert_eq!(*log.lock().expect("log"), ["answer"], "the board waits");
        held.store(false, Ordering::SeqCst);
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert_eq!(*log.lock().expect("log"), ["answer", "board"]);
        // A stop does not wait for the pace: nothing queued is lost.
        held.store(true, Ordering::SeqCst);
        lanes.push(1, "last").expect("room");
        lanes.finish().await;
        assert_eq!(*log.lock().expect("log"), ["answer", "board", "last"]);
    }
}
