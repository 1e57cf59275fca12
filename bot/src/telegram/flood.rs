//! Room for answers within Telegram's flood limits. A group takes about 20
//! bot messages a minute; a game against the computer reaches that within a
//! few moves, and then every message waits for the minute to make room. So
//! messages nobody waits for (the computer's moves, clocks) use only part of
//! a chat's minute: the rest stays free for answers to someone's own action
//! (a question, an error, the result of a resignation), which then go at
//! once instead of waiting behind boards.

use std::collections::{HashMap, VecDeque};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use teloxide::adaptors::throttle::Limits;
use teloxide::types::ChatId;

/// The windows Telegram's per-chat limits count in.
const MINUTE: Duration = Duration::from_secs(60);
const SECOND: Duration = Duration::from_secs(1);
/// The share of a chat's minute kept for answers: one in five (four of a
/// group's twenty).
const ANSWER_SHARE: u32 = 5;
/// Beyond this many chats, those quiet for a minute are forgotten.
const CHATS_KEPT: usize = 64;

/// When the bot sent messages to each chat in the last minute, and to any
/// chat in the last second.
pub(super) struct Flood {
    limits: Limits,
    sent: Mutex<Sent>,
}

/// What [`Flood`] remembers.
#[derive(Default)]
struct Sent {
    chats: HashMap<ChatId, VecDeque<Instant>>,
    /// Every message of the last second, whatever its chat.
    overall: VecDeque<Instant>,
}

impl Flood {
    /// Keeping within `limits` (the ones the Throttle adaptor keeps).
    pub fn new(limits: Limits) -> Self {
        Flood {
            limits,
            sent: Mutex::new(Sent::default()),
        }
    }

    fn sent(&self) -> MutexGuard<'_, Sent> {
        self.sent
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Waits until a message may go to `chat` within every limit (the
    /// chat's second and minute, the bot's second), and counts it as sent:
    /// what teloxide's Throttle adaptor does, for the calls Kodex makes
    /// itself (see [`super::posting`]). Returns when it was counted.
    pub async fn admit(&self, chat: ChatId) -> Instant {
        loop {
            let wait = {
                let now = Instant::now();
                let mut sent = self.sent();
                match self.must_wait(&mut sent, chat, now) {
                    None => {
                        record(&mut sent, chat, now);
                        return now;
                    }
                    Some(wait) => wait,
                }
            };
            tokio::time::sleep(wait).await;
        }
    }

    /// The message admitted to `chat` at `at` was not posted (Telegram
    /// refused it, or failed): it counts no more.
    pub fn forget(&self, chat: ChatId, at: Instant) {
        let mut sent = self.sent();
        if let Some(times) = sent.chats.get_mut(&chat) {
            if let Some(index) = times.iter().rposition(|time| *time == at) {
                times.remove(index);
            }
        }
        if let Some(index) = sent.overall.iter().rposition(|time| *time == at) {
            sent.overall.remove(index);
        }
    }

    /// How long a message to `chat` must wait for Telegram's limits;
    /// `None`: it may go now.
    fn must_wait(&self, sent: &mut Sent, chat: ChatId, now: Instant) -> Option<Duration> {
        while sent
            .overall
            .front()
            .is_some_and(|first| now - *first >= SECOND)
        {
            sent.overall.pop_front();
        }
        let overall = freed(
            &sent.overall,
            self.limits.messages_per_sec_overall.max(1),
            SECOND,
        );
        let (minute, second) = match sent.chats.get_mut(&chat) {
            Some(times) => {
                forget_old(times, now);
                (
                    freed(times, self.minute_limit(chat).max(1), MINUTE),
                    freed(times, self.limits.messages_per_sec_chat.max(1), SECOND),
                )
            }
            None => (None, None),
        };
        overall
            .max(minute)
            .max(second)
            .map(|free| free.saturating_duration_since(now))
            .filter(|wait| !wait.is_zero())
    }

    /// How many messages `chat` takes in a minute.
    fn minute_limit(&self, chat: ChatId) -> u32 {
        if chat.is_channel_or_supergroup() {
            self.limits.messages_per_min_channel_or_supergroup
        } else {
            self.limits.messages_per_min_chat
        }
    }

    #[cfg(test)]
    fn record_at(&self, chat: ChatId, now: Instant) {
        record(&mut self.sent(), chat, now);
    }

    /// How long messages nobody waits for must wait before the next goes
    /// to `chat`, so that the answers' share of its minute stays free, and
    /// so that it never waits in the throttle for the chat's second (where
    /// an answer could not overtake it); `None`: it may go now.
    pub fn hold(&self, chat: ChatId) -> Option<Duration> {
        self.hold_at(chat, Instant::now())
    }

    fn hold_at(&self, chat: ChatId, now: Instant) -> Option<Duration> {
        let mut sent = self.sent();
        let times = sent.chats.get_mut(&chat)?;
        forget_old(times, now);
        let limit = self.minute_limit(chat);
        let share = (limit - limit / ANSWER_SHARE).max(1);
        let minute = freed(times, share, MINUTE);
        let second = freed(times, self.limits.messages_per_sec_chat.max(1), SECOND);
        minute
            .max(second)
            .map(|free| free.saturating_duration_since(now))
            .filter(|wait| !wait.is_zero())
    }
}

/// Counts a message to `chat` at `now`.
fn record(sent: &mut Sent, chat: ChatId, now: Instant) {
    if !sent.chats.contains_key(&chat) && sent.chats.len() >= CHATS_KEPT {
        sent.chats
            .retain(|_, times| times.back().is_some_and(|last| now - *last < MINUTE));
    }
    let times = sent.chats.entry(chat).or_default();
    forget_old(times, now);
    times.push_back(now);
    sent.overall.push_back(now);
}

/// When fewer than `allowed` of `times` (in order) will be within a
/// `window` of the present: once the last of the excess is that old.
/// `None` when there are fewer already.
fn freed(times: &VecDeque<Instant>, allowed: u32, window: Duration) -> Option<Instant> {
    let allowed = usize::try_from(allowed).unwrap_or(usize::MAX);
    let last_to_age = times.get(times.len().checked_sub(allowed)?)?;
    Some(*last_to_age + window)
}

/// Drops the times more than a minute before `now`.
fn forget_old(times: &mut VecDeque<Instant>, now: Instant) {
    while times.front().is_some_and(|first| now - *first >= MINUTE) {
        times.pop_front();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> Limits {
        Limits {
            messages_per_min_channel_or_supergroup: 20,
            ..Limits::default()
        }
    }

    #[test]
    fn sixteen_of_a_groups_twenty_messages_a_minute_need_not_wait_for_answers() {
        let flood = Flood::new(limits());
        let group = ChatId(-100_300);
        let start = Instant::now();
        let at = |seconds: u64| start + Duration::from_secs(seconds);
        assert_eq!(flood.hold_at(group, start), None);
        for second in 0..15 {
            flood.record_at(group, at(second));
        }
        assert_eq!(
            flood.hold_at(group, at(14)),
            Some(Duration::from_secs(1)),
            "one a second"
        );
        assert_eq!(flood.hold_at(group, at(15)), None, "15 sent, room for one");
        flood.record_at(group, at(15));
        // 16 in the minute: the next waits until the first is a minute old.
        assert_eq!(flood.hold_at(group, at(20)), Some(Duration::from_secs(40)));
        assert_eq!(flood.hold_at(group, at(60)), None);
        // Answers (not held) fill the rest of the minute: still one by one.
        for second in 16..20 {
            flood.record_at(group, at(second));
        }
        assert_eq!(flood.hold_at(group, at(61)), Some(Duration::from_secs(3)));
        assert_eq!(flood.hold_at(ChatId(-100_301), at(61)), None);
    }

    #[test]
    fn a_supergroup_has_its_own_limit() {
        let flood = Flood::new(Limits {
            messages_per_min_channel_or_supergroup: 10,
            ..limits()
        });
        let supergroup = ChatId(-1_001_234_567_890);
        let start = Instant::now();
        for _ in 0..8 {
            flood.record_at(supergroup, start);
        }
        assert_eq!(
            flood.hold_at(supergroup, start),
            Some(Duration::from_secs(60))
        );
        let group = ChatId(-100_300);
        for _ in 0..8 {
            flood.record_at(group, start);
        }
        assert_eq!(
            flood.hold_at(group, start + SECOND),
            None,
            "a group takes 20"
        );
    }

    #[test]
    fn a_message_waits_for_the_chats_second_and_minute_and_the_bots_second() {
        let flood = Flood::new(Limits {
            messages_per_sec_overall: 3,
            ..limits()
        });
        let group = ChatId(-100_300);
        let start = Instant::now();
        let at = |millis: u64| start + Duration::from_millis(millis);
        let wait = |chat: ChatId, now: Instant| flood.must_wait(&mut flood.sent(), chat, now);
        assert_eq!(wait(group, start), None);
        flood.record_at(group, start);
        assert_eq!(wait(group, at(400)), Some(Duration::from_millis(600)));
        assert_eq!(wait(group, at(1_000)), None);
        // The bot's second: three messages, whatever their chats.
        flood.record_at(ChatId(7), at(1_000));
        flood.record_at(ChatId(8), at(1_100));
        flood.record_at(ChatId(9), at(1_200));
        assert_eq!(
            wait(ChatId(10), at(1_500)),
            Some(Duration::from_millis(500))
        );
        assert_eq!(wait(ChatId(10), at(2_000)), None);
        // The group's twenty a minute.
        for second in 2..21 {
            flood.record_at(group, start + Duration::from_secs(second));
        }
        assert_eq!(wait(group, at(21_500)), Some(Duration::from_millis(38_500)));
        // A message refused counts no more.
        flood.forget(group, start);
        assert_eq!(wait(group, at(21_500)), None);
    }

    #[test]
    fn quiet_chats_are_forgotten() {
        let flood = Flood::new(limits());
        let start = Instant::now();
        for chat in 0..CHATS_KEPT {
            flood.record_at(ChatId(i64::try_from(chat).expect("small")), start);
        }
        flood.record_at(ChatId(-1), start + MINUTE);
        assert_eq!(flood.sent().chats.len(), 1);
    }
}
