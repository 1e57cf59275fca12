//! A chat's own settings (`/settings`): how the board posted after each
//! turn is turned. Read from the store whenever a chat's board is drawn
//! (no copy in memory, so every process on one database reads the same).

use super::service::Service;
use crate::api::BoardOrientation;
use crate::store::StoreError;

/// The name `chat_settings` stores the board's orientation under.
pub(crate) const BOARD_ORIENTATION: &str = "board-orientation";

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
}
