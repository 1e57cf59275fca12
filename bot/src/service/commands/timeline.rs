//! `/timeline [game]`: a time-travel game in one picture — the present
//! board large, and each abandoned timeline as a small board of the moment
//! it was left, labelled with its number, the move and the jump.

use crate::api::{Delivery, Image, Target};
use crate::service::kernel::lookup::Role;
use crate::service::kernel::{Ctx, Msg, Outcome, Service};
use kodex_engine::{Audience, Side};
use kodex_render::{Decor, Inset};

impl Service {
    /// `/timeline [id]`: the present board and every abandoned timeline of a
    /// time-travel game, as one PNG; a game without time travel is refused.
    pub(crate) async fn timeline(&self, ctx: &Ctx, game: Option<String>) -> Outcome {
        let row = self.find_game(ctx, game, Role::Anyone).await?;
        let position = self.replay(&row)?;
        if !position.has_time_travel() {
            return Err(Msg::new("error-timeline-not-time-travel")
                .arg("id", row.id)
                .into());
        }
        // Time travel has full information; should a variant ever hide
        // something, its lines stay hidden like its record until the end.
        if !row.status.is_over() && position.variant().hidden_information() {
            return Err(Msg::new("error-pgn-hidden").arg("id", row.id).into());
        }
        let lang = ctx.chat_lang;
        let bottom = row
            .seat_of(&ctx.actor().id)
            .map_or(Side::WHITE, |seat| Side(seat as u8));
        let decor = self.decor(lang, &row, &position, bottom);
        // The small boards: the players' names (charges belong to the
        // present), whose turn it was, and the traveller's square marked.
        let inset_decor = Decor {
            bottom,
            names: (0..row.seats.len())
                .map(|seat| row.player_name(seat).to_owned())
                .collect(),
            ..Decor::default()
        };
        let insets: Vec<Inset> = position
            .timelines()
            .iter()
            .filter_map(|timeline| {
                let mut view = position.timeline_view(timeline.number, Audience::Full)?;
                view.marked.push(timeline.jump.appeared);
                let turn = if view.side_to_move == Side::WHITE {
                    format!("{}.", view.move_number)
                } else {
                    format!("{}…", view.move_number)
                };
                let label = self.text(
                    lang,
                    &Msg::new("timeline-label")
                        .arg("number", timeline.number as i64)
                        .arg("move", turn)
                        .arg("jump", timeline.jump.text.clone()),
                );
                Some(Inset {
                    view,
                    decor: inset_decor.clone(),
                    label,
                })
            })
            .collect();

        let mut lines = vec![if row.status.is_over() {
            self.result_text(lang, &row)
        } else {
            self.turn_text(lang, &row, &position)
        }];
        lines.push(self.text(
            lang,
            &if insets.is_empty() {
                Msg::new("timeline-none").arg("id", row.id.clone())
            } else {
                Msg::new("timeline-caption")
                    .arg("id", row.id.clone())
                    .arg("count", insets.len() as i64)
            },
        ));
        let mut delivery = Delivery {
            notify: Vec::new(),
            target: Target::Chat(ctx.req.chat.clone()),
            text: lines.join("\n"),
            image: None,
            buttons: Vec::new(),
            game: Some(self.game_ref(lang, &row, false)),
        };
        let view = position.view(Audience::Full);
        let file_name = format!("{}-timelines-{}.png", row.id, position.record().len());
        self.busy(&delivery.target, crate::api::Activity::DrawingImage)
            .await;
        if let Some(bytes) = self
            .draw_off_runtime(move || kodex_render::render_timelines_png(&view, &decor, &insets))
            .await
        {
            delivery.image = Some(Image { file_name, bytes });
        }
        Ok(vec![delivery])
    }
}
