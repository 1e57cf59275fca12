//! The computer's searches run on threads of their own at the lowest CPU
//! priority the system allows a process to give itself (nice 19 on Linux
//! and the other Unixes), so that people's moves, drawn boards and the
//! database never wait behind a search: the operating system gives a search
//! the cores people leave idle. (Tokio's blocking pool is shared with the
//! boards' drawing, and a thread's priority, once lowered, cannot be raised
//! again without privileges; hence a thread per search, a few microseconds
//! beside a search of a tenth of a second or more.)
//!
//! `KODEX_SEARCH_PRIORITY=normal` keeps searches at the process's priority
//! (for comparison in the moves bench).

use std::sync::OnceLock;

/// Whether searches run at low priority (`KODEX_SEARCH_PRIORITY`, read once).
fn low_priority() -> bool {
    static LOW: OnceLock<bool> = OnceLock::new();
    *LOW.get_or_init(|| {
        !std::env::var("KODEX_SEARCH_PRIORITY")
            .is_ok_and(|v| v.trim().eq_ignore_ascii_case("normal"))
    })
}

/// Lowers the calling thread's CPU priority as far as it goes.
#[cfg(unix)]
fn lower_this_thread() {
    // SAFETY: `setpriority` takes integers only and touches no memory of
    // ours; on Linux `PRIO_PROCESS` with id 0 means the calling thread.
    let done = unsafe { libc::setpriority(libc::PRIO_PROCESS, 0, 19) };
    if done != 0 {
        tracing::debug!("the search thread keeps its priority");
    }
}

#[cfg(not(unix))]
fn lower_this_thread() {}

/// Runs `work` (a search) on a thread of its own at low priority; `None`
/// when the thread could not start or the work panicked.
pub(crate) async fn run_search<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Option<T> {
    let (done, result) = tokio::sync::oneshot::channel();
    let low = low_priority();
    let spawned = std::thread::Builder::new()
        .name("kodex-search".to_owned())
        .spawn(move || {
            if low {
                lower_this_thread();
            }
            let _ = done.send(work());
        });
    if let Err(e) = spawned {
        tracing::error!(error = %e, "cannot start a search thread");
        return None;
    }
    result.await.ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_search_runs_on_its_own_low_priority_thread() {
        let (name, nice) = run_search(|| {
            let name = std::thread::current().name().map(str::to_owned);
            #[cfg(unix)]
            // SAFETY: reads the calling thread's priority; no memory involved.
            let nice = unsafe { libc::getpriority(libc::PRIO_PROCESS, 0) };
            #[cfg(not(unix))]
            let nice = 19;
            (name, nice)
        })
        .await
        .expect("the search ran");
        assert_eq!(name.as_deref(), Some("kodex-search"));
        if low_priority() {
            assert_eq!(nice, 19);
        }
        // A search that panics gives nothing, and nothing else breaks.
        let panicked: Option<u8> = run_search(|| panic!("a broken search")).await;
        assert_eq!(panicked, None);
        // The caller's thread keeps its priority.
        #[cfg(unix)]
        // SAFETY: as above.
        let mine = unsafe { libc::getpriority(libc::PRIO_PROCESS, 0) };
        #[cfg(unix)]
        assert!(mine < 19, "{mine}");
    }
}
