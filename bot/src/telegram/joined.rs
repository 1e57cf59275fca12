//! One message a turn against the computer. A person's move in a game the
//! computer answers is held back for as long as the computer thinks (plus a
//! little), and its news joins the computer's move: one photo whose caption
//! says both moves and whose turn it is, instead of two messages. A group
//! takes about twenty messages a minute, so this halves what a game against
//! the computer costs there. When the computer is slower, the person's board
//! goes alone when its time is up, and the computer's follows on its own.
//!
//! Only a chat's messages about a turn are joined (what everyone in the chat
//! is told anyway), never a private one; anything else for the chat sends
//! the held message first, so the chat's messages keep their order.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use teloxide::types::ChatId;

use super::courier::Parcel;

/// What a message may wait beyond the computer's thinking time: its search
/// is asked for, taken, played and drawn before its message comes.
const MARGIN: Duration = Duration::from_millis(600);
/// The longest a person's own move waits for the computer's: a computer
/// that thinks longer is not waited for.
const LONGEST: Duration = Duration::from_millis(1_200);

/// A turn's message held back for the next one of its game.
struct Held {
    parcel: Parcel,
    /// Tells this hold apart from a later one of the chat.
    number: u64,
}

/// The messages held back, at most one a chat.
#[derive(Default)]
pub(super) struct Joiner {
    held: Mutex<HashMap<ChatId, Held>>,
    next_number: AtomicU64,
}

/// What to do with a parcel for a chat.
pub(super) enum Next {
    /// Send these, in order.
    Send(Vec<Parcel>),
    /// Send these, in order; the parcel is held back: once `wait` is over,
    /// [`Joiner::release`] with `number` gives it back unless a later
    /// message took it along.
    Hold {
        send: Vec<Parcel>,
        wait: Duration,
        number: u64,
    },
}

impl Joiner {
    fn held(&self) -> MutexGuard<'_, HashMap<ChatId, Held>> {
        self.held
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Takes `parcel` for `chat`: joins it to the message held there, if
    /// it is that game's next turn, or sends the held one first; holds it
    /// when the computer answers it.
    pub fn take(&self, chat: ChatId, parcel: Parcel) -> Next {
        let mut held = self.held();
        let mut send = Vec::new();
        let parcel = match held.remove(&chat) {
            Some(before) if joins(&before.parcel, &parcel) => join(before.parcel, parcel),
            Some(before) => {
                send.push(before.parcel);
                parcel
            }
            None => parcel,
        };
        let Some(wait) = hold_for(&parcel) else {
            send.push(parcel);
            return Next::Send(send);
        };
        let number = self.next_number.fetch_add(1, Ordering::Relaxed);
        held.insert(chat, Held { parcel, number });
        Next::Hold { send, wait, number }
    }

    /// The time of hold `number` in `chat` is up: the message, unless a
    /// later one took it along.
    pub fn release(&self, chat: ChatId, number: u64) -> Option<Parcel> {
        let mut held = self.held();
        if held.get(&chat)?.number != number {
            return None;
        }
        held.remove(&chat).map(|held| held.parcel)
    }

    /// Every message held (a stop sends them at once).
    pub fn release_all(&self) -> Vec<(ChatId, Parcel)> {
        self.held()
            .drain()
            .map(|(chat, held)| (chat, held.parcel))
            .collect()
    }
}

/// How long `parcel` waits for the computer's move: a chat's turn message
/// the computer answers within [`LONGEST`].
fn hold_for(parcel: &Parcel) -> Option<Duration> {
    let think = parcel.reply_within?;
    let wait = think.saturating_add(MARGIN);
    let joinable = parcel.turn_events.is_some()
        && parcel.game_board.is_some()
        && parcel.if_refused.is_none()
        && parcel.reply_to.is_none()
        && !parcel.ends_game;
    (joinable && wait <= LONGEST).then_some(wait)
}

/// Whether `later` is the next turn of the game `before` is a turn of.
fn joins(before: &Parcel, later: &Parcel) -> bool {
    let game = |parcel: &Parcel| parcel.game_board.as_ref().map(|(game, _)| game.clone());
    game(before).is_some()
        && game(before) == game(later)
        && before.turn_events.is_some()
        && later.turn_events.is_some()
        && later.reply_to.is_none()
        && later.if_refused.is_none()
}

/// `later` with the news of `before` (see [`joins`]) in front.
fn join(before: Parcel, later: Parcel) -> Parcel {
    let news = before.turn_events.unwrap_or_default();
    let told = news.join("\n");
    let mut joined = later;
    if !told.trim().is_empty() {
        joined.text = format!("{}\n{}", told.trim_end(), joined.text.trim_start());
    }
    let later_news = joined.turn_events.take().unwrap_or_default();
    joined.turn_events = Some(news.into_iter().chain(later_news).collect());
    // The person waits for it: their own move is in it.
    joined.urgent |= before.urgent;
    joined.answers_challenges_of = joined
        .answers_challenges_of
        .take()
        .or(before.answers_challenges_of);
    joined
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::Image;

    fn turn(game: &str, events: &[&str], status: &str, computer_next: bool) -> Parcel {
        let mut text: Vec<&str> = events.to_vec();
        text.push(status);
        let image = Image {
            file_name: format!("{game}-{}.png", events.len()),
            bytes: vec![1, 2, 3],
        };
        let mut parcel = Parcel::new(text.join("\n"), Some(image), Vec::new()).expect("a parcel");
        parcel.game_board = Some((game.to_owned(), true));
        parcel.turn_events = Some(events.iter().map(|e| (*e).to_owned()).collect());
        parcel.reply_within = computer_next.then_some(Duration::from_millis(100));
        parcel
    }

    const GROUP: ChatId = ChatId(-100_300);

    #[test]
    fn a_move_the_computer_answers_is_held_and_joins_its_answer() {
        let joiner = Joiner::default();
        let mut mine = turn("k7m2", &["k7m2: @alice played e4."], "bob to move", true);
        mine.urgent = true;
        let Next::Hold { send, wait, .. } = joiner.take(GROUP, mine) else {
            panic!("held");
        };
        assert!(send.is_empty());
        assert_eq!(wait, Duration::from_millis(700));
        let answer = turn(
            "k7m2",
            &["k7m2: Kodex L1 played e5."],
            "alice to move",
            false,
        );
        let Next::Send(send) = joiner.take(GROUP, answer) else {
            panic!("sent");
        };
        assert_eq!(send.len(), 1);
        let joined = &send[0];
        assert_eq!(
            joined.text,
            "k7m2: @alice played e4.\nk7m2: Kodex L1 played e5.\nalice to move"
        );
        assert!(joined.urgent, "alice waits for it");
        assert_eq!(
            joined.image.as_ref().map(|image| image.file_name.as_str()),
            Some("k7m2-1.png")
        );
        assert!(joiner.release_all().is_empty());
    }

    #[test]
    fn other_messages_send_the_held_one_first_and_a_lapsed_hold_gives_it_back() {
        let joiner = Joiner::default();
        let mine = turn("k7m2", &["alice played e4."], "Kodex to move", true);
        let Next::Hold { number, .. } = joiner.take(GROUP, mine.clone()) else {
            panic!("held");
        };
        // Another game's board: the held one goes first.
        let other = turn("z9x8", &["carol played d4."], "dave to move", false);
        let Next::Send(send) = joiner.take(GROUP, other) else {
            panic!("sent");
        };
        assert_eq!(send.len(), 2);
        assert_eq!(send[0].text, mine.text);
        assert_eq!(joiner.release(GROUP, number).map(|p| p.text), None);
        // Held again, and its time runs out.
        let Next::Hold { number, .. } = joiner.take(GROUP, mine.clone()) else {
            panic!("held");
        };
        assert_eq!(joiner.release(GROUP, number + 1).map(|p| p.text), None);
        assert_eq!(
            joiner.release(GROUP, number).map(|p| p.text),
            Some(mine.text)
        );
    }

    #[test]
    fn only_turns_the_computer_answers_quickly_are_held() {
        let joiner = Joiner::default();
        let people = turn("k7m2", &["alice played e4."], "bob to move", false);
        assert!(matches!(joiner.take(GROUP, people), Next::Send(_)));
        let mut slow = turn("k7m2", &["alice played e4."], "Kodex to move", true);
        slow.reply_within = Some(Duration::from_secs(2));
        assert!(matches!(joiner.take(GROUP, slow), Next::Send(_)));
        let mut note = turn("k7m2", &[], "", true);
        note.turn_events = None;
        assert!(matches!(joiner.take(GROUP, note), Next::Send(_)));
    }
}
