//! `/settings`: a chat's own settings, shown to anyone, changed by someone
//! who may change the chat's settings (as `/lang chat`).

use crate::api::{BoardMessages, BoardOrientation, SettingsChoice};
use crate::service::kernel::{Ctx, Msg, Outcome, Service};

impl Service {
    /// `/settings` shows the chat's settings; `/settings board white|side-to-move`
    /// turns the board posted after each turn of its games of two;
    /// `/settings boards new|edit` posts a new board each turn or edits the
    /// game's one.
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
        let messages_name = |messages: BoardMessages| {
            self.text(
                ctx.lang,
                &Msg::new(match messages {
                    BoardMessages::New => "settings-boards-new",
                    BoardMessages::Edit => "settings-boards-edit",
                }),
            )
        };
        match choice {
            SettingsChoice::Show => {
                let orientation = self.board_orientation(platform, &chat).await;
                let messages = self.board_messages(platform, &chat).await;
                Ok(vec![self.reply(
                    ctx,
                    &Msg::new("settings-current")
                        .arg("board", board_name(orientation))
                        .arg("boards", messages_name(messages)),
                )])
            }
            SettingsChoice::BoardMessages(messages) => {
                if !chat_admin {
                    return Err(Msg::new("error-settings-admin").into());
                }
                self.choose_board_messages(platform, &chat, messages)
                    .await?;
                Ok(vec![self.reply(
                    ctx,
                    &Msg::new("settings-boards-set").arg("boards", messages_name(messages)),
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
