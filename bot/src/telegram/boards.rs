//! The game boards the adapter posted in each chat: which message carries a
//! game's keyboard (draw, resign, takeback, board), so that only the latest
//! board keeps it — across restarts too — and which game each recent board
//! shows, so that a move sent as a reply to a board is a move in that game.
//! Written through to the store ([`Journal`]), loaded at start.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

use teloxide::types::{ChatId, MessageId};

use super::memory::{self, Journal};
use crate::store::Store;

/// The record kind in the adapter's memory.
const BOARDS: &str = "boards";
/// Boards of a game no board was posted for in this long are forgotten.
const BOARDS_KEPT_DAYS: i64 = 30;
/// How many of a game's latest boards a reply may answer.
const RECENT_BOARDS: usize = 8;

/// One game's boards in one chat.
#[derive(Default, Debug, PartialEq, Eq)]
struct GameBoards {
    /// The message carrying the game's keyboard, if any.
    keyboard: Option<MessageId>,
    /// The latest boards, oldest first.
    recent: VecDeque<MessageId>,
    /// Messages asking to join the game (its challenge), whose buttons go
    /// once the game starts or the challenge ends, however it was answered.
    challenges: Vec<MessageId>,
    /// The message the game's board is edited in, in a chat that keeps one
    /// board message per game.
    edited: Option<MessageId>,
}

impl GameBoards {
    /// The stored form: the keyboard's message (or `-`), then the recent
    /// boards, then after `|` the challenges, then after `#` the edited
    /// board (records written before it have none).
    fn encode(&self) -> String {
        let encoded = self.encode_boards();
        match self.edited {
            Some(message) => format!("{encoded}#{}", message.0),
            None => encoded,
        }
    }

    fn encode_boards(&self) -> String {
        let keyboard = self
            .keyboard
            .map_or_else(|| "-".to_owned(), |message| message.0.to_string());
        let boards = std::iter::once(keyboard)
            .chain(self.recent.iter().map(|message| message.0.to_string()))
            .collect::<Vec<_>>()
            .join(" ");
        if self.challenges.is_empty() {
            return boards;
        }
        let challenges: Vec<String> = self
            .challenges
            .iter()
            .map(|message| message.0.to_string())
            .collect();
        format!("{boards}|{}", challenges.join(" "))
    }

    fn decode(value: &str) -> Option<Self> {
        let (value, edited) = match value.split_once('#') {
            Some((value, edited)) => (value, Some(MessageId(edited.parse().ok()?))),
            None => (value, None),
        };
        Some(GameBoards {
            edited,
            ..Self::decode_boards(value)?
        })
    }

    fn decode_boards(value: &str) -> Option<Self> {
        let ids = |words: &str| {
            words
                .split(' ')
                .filter(|word| !word.is_empty())
                .map(|message| message.parse().ok().map(MessageId))
                .collect::<Option<Vec<_>>>()
        };
        let (boards, challenges) = value.split_once('|').unwrap_or((value, ""));
        let (keyboard, recent) = boards.split_once(' ').unwrap_or((boards, ""));
        let keyboard = match keyboard {
            "-" => None,
            message => Some(MessageId(message.parse().ok()?)),
        };
        Some(GameBoards {
            keyboard,
            recent: ids(recent)?.into(),
            challenges: ids(challenges)?,
            edited: None,
        })
    }
}

/// The boards of every game in every chat the adapter posted to.
pub(super) struct Boards {
    /// Per chat, per game: a press or a reply looks only through its chat's games.
    games: Mutex<HashMap<ChatId, HashMap<String, GameBoards>>>,
    /// The messages a press settled lately: a challenge settled before its
    /// sending was noted (a quick press) is not noted afterwards.
    settled: Mutex<VecDeque<(ChatId, MessageId)>>,
    journal: Journal,
}

/// How many settled messages are remembered.
const SETTLED_KEPT: usize = 256;

fn key(chat: ChatId, game: &str) -> String {
    format!("{}/{game}", chat.0)
}

impl Boards {
    /// What the store remembers (nothing without one).
    pub async fn load(store: Option<&Store>, journal: Journal) -> Self {
        let mut games: HashMap<ChatId, HashMap<String, GameBoards>> = HashMap::new();
        for (key, value) in memory::load(store, BOARDS, BOARDS_KEPT_DAYS).await {
            let parsed = key.split_once('/').and_then(|(chat, game)| {
                Some((
                    (ChatId(chat.parse().ok()?), game.to_owned()),
                    GameBoards::decode(&value)?,
                ))
            });
            match parsed {
                Some(((chat, game), boards)) => {
                    games.entry(chat).or_default().insert(game, boards);
                }
                None => tracing::warn!("an unreadable record of Telegram boards was skipped"),
            }
        }
        Boards {
            games: Mutex::new(games),
            settled: Mutex::default(),
            journal,
        }
    }

    fn games(&self) -> std::sync::MutexGuard<'_, HashMap<ChatId, HashMap<String, GameBoards>>> {
        self.games
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// A board of `game` was posted in `chat` as `message` (`None`: it went
    /// as text only, or not at all), carrying the game's keyboard when
    /// `keyed`. Returns the message that carried the keyboard before and
    /// must lose it.
    pub fn posted(
        &self,
        chat: ChatId,
        game: &str,
        message: Option<MessageId>,
        keyed: bool,
    ) -> Option<MessageId> {
        let mut games = self.games();
        let boards = games
            .entry(chat)
            .or_default()
            .entry(game.to_owned())
            .or_default();
        let previous = boards.keyboard.take();
        boards.keyboard = message.filter(|_| keyed);
        if let Some(message) = message {
            boards.recent.push_back(message);
            while boards.recent.len() > RECENT_BOARDS {
                boards.recent.pop_front();
            }
        }
        self.journal
            .remember(BOARDS, key(chat, game), boards.encode());
        previous.filter(|previous| Some(*previous) != message)
    }

    /// The message `game`'s board is edited in, in `chat`.
    pub fn edited_board(&self, chat: ChatId, game: &str) -> Option<MessageId> {
        self.games()
            .get(&chat)
            .and_then(|games| games.get(game))
            .and_then(|boards| boards.edited)
    }

    /// From now on `game`'s board in `chat` is edited in `message`.
    pub fn edit_board_in(&self, chat: ChatId, game: &str, message: MessageId) {
        let mut games = self.games();
        let boards = games
            .entry(chat)
            .or_default()
            .entry(game.to_owned())
            .or_default();
        if boards.edited != Some(message) {
            boards.edited = Some(message);
            self.journal
                .remember(BOARDS, key(chat, game), boards.encode());
        }
    }

    /// `message` in `chat` is a challenge to `game`.
    pub fn challenged(&self, chat: ChatId, game: &str, message: MessageId) {
        let settled = self
            .settled
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .contains(&(chat, message));
        if settled {
            return;
        }
        let mut games = self.games();
        let boards = games
            .entry(chat)
            .or_default()
            .entry(game.to_owned())
            .or_default();
        boards.challenges.push(message);
        self.journal
            .remember(BOARDS, key(chat, game), boards.encode());
    }

    /// `game` started or its challenge ended: the challenges to it in `chat`,
    /// whose buttons must go (each returned once).
    pub fn answered_challenges(&self, chat: ChatId, game: &str) -> Vec<MessageId> {
        let mut games = self.games();
        let Some(boards) = games.get_mut(&chat).and_then(|games| games.get_mut(game)) else {
            return Vec::new();
        };
        let answered = std::mem::take(&mut boards.challenges);
        if !answered.is_empty() {
            self.journal
                .remember(BOARDS, key(chat, game), boards.encode());
        }
        answered
    }

    /// `message` in `chat` lost its buttons otherwise (a press settled it):
    /// it is no longer a challenge to answer.
    pub fn settled(&self, chat: ChatId, message: MessageId) {
        {
            let mut settled = self
                .settled
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            settled.push_back((chat, message));
            while settled.len() > SETTLED_KEPT {
                settled.pop_front();
            }
        }
        let mut games = self.games();
        for (game, boards) in games.get_mut(&chat).into_iter().flatten() {
            if boards.challenges.contains(&message) {
                boards.challenges.retain(|challenge| *challenge != message);
                self.journal
                    .remember(BOARDS, key(chat, game), boards.encode());
            }
        }
    }

    /// Whether `message` carries a game's keyboard now.
    pub fn is_game_keyboard(&self, chat: ChatId, message: MessageId) -> bool {
        self.games().get(&chat).is_some_and(|games| {
            games
                .values()
                .any(|boards| boards.keyboard == Some(message))
        })
    }

    /// The game whose recent board `message` in `chat` is.
    pub fn game_of(&self, chat: ChatId, message: MessageId) -> Option<String> {
        self.games().get(&chat).and_then(|games| {
            games
                .iter()
                .find(|(_, boards)| boards.recent.contains(&message))
                .map(|(game, _)| game.clone())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_latest_board_keeps_the_keyboard_and_replies_find_recent_boards() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("a runtime");
        let boards = runtime.block_on(Boards::load(None, Journal::default()));
        let (group, other) = (ChatId(-5), ChatId(-6));
        assert_eq!(boards.posted(group, "g1", Some(MessageId(10)), true), None);
        assert!(boards.is_game_keyboard(group, MessageId(10)));
        assert!(!boards.is_game_keyboard(other, MessageId(10)));
        assert_eq!(
            boards.posted(group, "g1", Some(MessageId(12)), true),
            Some(MessageId(10))
        );
        assert_eq!(boards.posted(group, "g2", Some(MessageId(13)), true), None);
        assert_eq!(boards.game_of(group, MessageId(10)).as_deref(), Some("g1"));
        assert_eq!(boards.game_of(group, MessageId(13)).as_deref(), Some("g2"));
        assert_eq!(boards.game_of(other, MessageId(13)), None);
        // The game ends: its last board has no keyboard, and the one before loses its.
        assert_eq!(
            boards.posted(group, "g1", Some(MessageId(14)), false),
            Some(MessageId(12))
        );
        assert!(!boards.is_game_keyboard(group, MessageId(14)));
        for message in 20..40 {
            boards.posted(group, "g2", Some(MessageId(message)), true);
        }
        assert_eq!(boards.game_of(group, MessageId(13)), None, "too old");
        assert_eq!(boards.game_of(group, MessageId(39)).as_deref(), Some("g2"));
    }

    #[test]
    fn challenges_are_answered_once() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("a runtime");
        let boards = runtime.block_on(Boards::load(None, Journal::default()));
        let group = ChatId(-5);
        assert!(boards.answered_challenges(group, "g1").is_empty());
        boards.challenged(group, "g1", MessageId(3));
        assert_eq!(boards.answered_challenges(group, "g1"), [MessageId(3)]);
        assert!(boards.answered_challenges(group, "g1").is_empty());
        // Settled by a press on it: its buttons went already.
        boards.challenged(group, "g1", MessageId(4));
        boards.settled(group, MessageId(4));
        assert!(boards.answered_challenges(group, "g1").is_empty());
        // Settled even before its sending was noted.
        boards.settled(group, MessageId(5));
        boards.challenged(group, "g1", MessageId(5));
        assert!(boards.answered_challenges(group, "g1").is_empty());
    }

    #[test]
    fn the_stored_form_reads_back() {
        let boards = GameBoards {
            keyboard: Some(MessageId(7)),
            recent: [MessageId(5), MessageId(7)].into(),
            challenges: Vec::new(),
            edited: None,
        };
        assert_eq!(boards.encode(), "7 5 7");
        assert_eq!(GameBoards::decode(&boards.encode()), Some(boards));
        let none = GameBoards::default();
        assert_eq!(none.encode(), "-");
        assert_eq!(GameBoards::decode("-"), Some(none));
        let challenged = GameBoards {
            challenges: vec![MessageId(2)],
            ..GameBoards::default()
        };
        assert_eq!(challenged.encode(), "-|2");
        assert_eq!(GameBoards::decode("-|2"), Some(challenged));
        assert_eq!(GameBoards::decode("x 1"), None);
        let edited = GameBoards {
            keyboard: Some(MessageId(9)),
            recent: [MessageId(9)].into(),
            edited: Some(MessageId(9)),
            ..GameBoards::default()
        };
        assert_eq!(edited.encode(), "9 9#9");
        assert_eq!(GameBoards::decode("9 9#9"), Some(edited));
        assert_eq!(GameBoards::decode("9 9#x"), None);
    }
}
