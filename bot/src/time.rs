//! Where the service gets the current time: the system clock in production, a
//! hand-moved clock in tests (so clock tests never sleep).

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;
use tokio::sync::Notify;

/// Milliseconds since the Unix epoch.
pub type Millis = i64;

/// A boxed future returned by [`TimeSource::sleep_until`].
pub type SleepFuture<'a> = Pin<Box<dyn Future<Output = ()> + Send + 'a>>;

/// The current time and a way to wait for a moment.
pub trait TimeSource: Send + Sync + 'static {
    /// Now, in milliseconds since the Unix epoch.
    fn now(&self) -> Millis;
    /// Completes at (or soon after) `deadline`.
    fn sleep_until(&self, deadline: Millis) -> SleepFuture<'_>;
}

/// The system clock.
#[derive(Copy, Clone, Debug, Default)]
pub struct SystemTime;

impl TimeSource for SystemTime {
    fn now(&self) -> Millis {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis() as Millis)
            .unwrap_or(0)
    }

    fn sleep_until(&self, deadline: Millis) -> SleepFuture<'_> {
        let wait = (deadline - self.now()).max(0) as u64;
        Box::pin(tokio::time::sleep(std::time::Duration::from_millis(wait)))
    }
}

/// A clock that moves only when told: for tests.
#[derive(Debug)]
pub struct ManualTime {
    now: AtomicI64,
    moved: Notify,
}

impl ManualTime {
    /// A clock standing at `start`.
    pub fn new(start: Millis) -> Arc<ManualTime> {
        Arc::new(ManualTime {
            now: AtomicI64::new(start),
            moved: Notify::new(),
        })
    }

    /// Moves the clock forward by `millis` and wakes every sleeper.
    pub fn advance(&self, millis: Millis) {
        self.now.fetch_add(millis, Ordering::SeqCst);
        self.moved.notify_waiters();
    }
}

impl TimeSource for ManualTime {
    fn now(&self) -> Millis {
        self.now.load(Ordering::SeqCst)
    }

    fn sleep_until(&self, deadline: Millis) -> SleepFuture<'_> {
        Box::pin(async move {
            loop {
                let moved = self.moved.notified();
                if self.now() >= deadline {
                    return;
                }
                moved.await;
            }
        })
    }
}

impl<T: TimeSource> TimeSource for Arc<T> {
    fn now(&self) -> Millis {
        (**self).now()
    }
    fn sleep_until(&self, deadline: Millis) -> SleepFuture<'_> {
        (**self).sleep_until(deadline)
    }
}
