//! A chat's own settings (`/settings`): how the board posted after each
//! turn is turned, and whether each turn posts a new board or edits one. Read from the store whenever a chat's board is drawn
//! (no copy in memory, so every process on one database reads the same).

use super::service::Service;
use crate::api::{BoardMessages, BoardOrientation};
use crate::store::StoreError;

/// The name `chat_settings` stores the board's orientation under.
pub(crate) const BOARD_ORIENTATION: &str = "board-orientation";
/// The name `chat_settings` stores the chat's choice of board messages under.
pub(crate) const BOARD_MESSAGES: &str = "board-messages";

impl Service {
    /// How chat `chat` of `platform` turns the board of a game of two
    /// posted after each turn: its choice, else from the side to move.
    pub(crate) async fn board_orientation(&self, platform: &str, chat: &str) -> BoardOrientation {
        match self
            .inner
            .store
            .chat_setting(platform, chat, BOARD_ORIENTATION)
            .await
        {
            Ok(value) => value
                .as_deref()
                .and_then(BoardOrientation::parse)
                .unwrap_or_default(),
            Err(e) => {
                tracing::warn!(error = %e, "cannot read a chat's board orientation");
                BoardOrientation::default()
            }
        }
    }

    /// Stores chat `chat`'s board orientation.
    pub(crate) async fn choose_board_orientation(
        &self,
        platform: &str,
        chat: &str,
        orientation: BoardOrientation,
    ) -> Result<(), StoreError> {
        self.inner
            .store
            .set_chat_setting(platform, chat, BOARD_ORIENTATION, orientation.key())
            .await
    }

    /// Whether chat `chat` of `platform` keeps one board message per game,
    /// edited each turn: its choice, else a new message each turn.
    pub(crate) async fn board_messages(&self, platform: &str, chat: &str) -> BoardMessages {
        match self
            .inner
            .store
            .chat_setting(platform, chat, BOARD_MESSAGES)
            .await
        {
            Ok(value) => value
                .as_deref()
                .and_then(BoardMessages::parse)
                .unwrap_or_default(),
            Err(e) => {
                tracing::warn!(error = %e, "cannot read a chat's choice of board messages");
                BoardMessages::default()
            }
        }
    }

    /// Stores chat `chat`'s choice of board messages.
    pub(crate) async fn choose_board_messages(
        &self,
        platform: &str,
        chat: &str,
        messages: BoardMessages,
    ) -> Result<(), StoreError> {
        self.inner
            .store
            .set_chat_setting(platform, chat, BOARD_MESSAGES, messages.key())
            .await
    }
}
