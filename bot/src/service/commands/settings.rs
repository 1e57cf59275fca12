//! `/settings`: a chat's own settings, shown to anyone, changed by someone
//! who may change the chat's settings (as `/lang chat`).

use crate::api::{BoardOrientation, SettingsChoice};
use crate::service::kernel::{Ctx, Msg, Outcome, Service};

impl Service {
    /// `/settings` shows the chat's settings; `/settings board white|side-to-move`
    /// turns the board posted after each turn of its games of two.
    pub(crate) async fn settings(
        &self,
        ctx: &Ctx,
        choice: SettingsChoice,
        chat_admin: bool,
    ) -> Outcome {
        let platform = ctx.platform();
        let chat = ctx.req.chat.id.clone();
        let board_name = |orientation: BoardOrientation| {
            self.text(
                ctx.lang,
                &Msg::new(match orientation {
                    BoardOrientation::White => "settings-board-white",
                    BoardOrientation::SideToMove => "settings-board-side-to-move",
                }),
            )
        };
        match choice {
            SettingsChoice::Show => {
                let orientation = self.board_orientation(platform, &chat).await;
                Ok(vec![self.reply(
                    ctx,
                    &Msg::new("settings-current").arg("board", board_name(orientation)),
                )])
            }
            SettingsChoice::Unreadable => Err(Msg::new("error-settings-usage").into()),
            SettingsChoice::BoardOrientation(orientation) => {
                if !chat_admin {
                    return Err(Msg::new("error-settings-admin").into());
                }
                self.choose_board_orientation(platform, &chat, orientation)
                    .await?;
                Ok(vec![self.reply(
                    ctx,
                    &Msg::new("settings-board-set").arg("board", board_name(orientation)),
                )])
            }
        }
    }
}
