//! Commands that only show things: `/board`, `/games`, `/pgn`, `/rules`,
//! `/variants`, `/help`, and `/lang`.

use crate::api::{Delivery, Image, Target};
use crate::i18n::Lang;
use crate::service::kernel::lang::LangOwner;
use crate::service::kernel::lookup::Role;
use crate::service::kernel::setup::SetupCommand;
use crate::service::kernel::{Ctx, Msg, Outcome, Service};
use crate::service::present::gif::{game_frames, gif_within};
use crate::service::present::san_in;
use crate::store::Status;
use kodex_engine::{Audience, Side};

/// The most games `/games` lists; the rest are counted.
const GAMES_LISTED: usize = 12;
impl Service {
    /// `/board [id]`: the position; in a running hidden-information game
    /// each player gets their own view privately and others only the turn.
    /// A game in a status this version does not know counts as running.
    pub(crate) async fn board(&self, ctx: &Ctx, game: Option<String>) -> Outcome {
        // A player's game being set up: their own half, privately.
        if let Some(board) = self
            .setup_command(ctx, SetupCommand::Board, game.as_deref())
            .await?
        {
            return Ok(board);
        }
        let row = self.find_game(ctx, game, Role::Anyone).await?;
        let position = self.replay(&row)?;
        if row.linked_id.is_some() {
            return self.pair_board(ctx, &row, &position).await;
        }
        let active = !row.status.is_over();
        if active && position.variant().hidden_information() {
            return Ok(vec![match row.seat_of(&ctx.actor().id) {
                Some(seat) => self.private_view(&row, &position, seat, None).await,
                None => {
                    let mut text = self.turn_text(ctx.lang, &row, &position);
                    if let Some(clocks) = self.clock_line(&row, &position) {
                        text.push('\n');
                        text.push_str(&clocks);
                    }
                    self.note(ctx, text)
                }
            }]);
        }
        let mut text = if active {
            self.turn_text(ctx.chat_lang, &row, &position)
        } else {
            self.result_text(ctx.chat_lang, &row)
        };
        if let Some(clocks) = self.clock_line(&row, &position).filter(|_| active) {
            text.push('\n');
            text.push_str(&clocks);
        }
        // The board is drawn from the caller's seat.
        let bottom = row
            .seat_of(&ctx.actor().id)
            .map_or(Side::WHITE, |seat| Side(seat as u8));
        let status = if active {
            self.turn_text(ctx.chat_lang, &row, &position)
        } else {
            self.result_text(ctx.chat_lang, &row)
        };
        let mut game_ref = self.game_ref(ctx.chat_lang, &row, false);
        // The board button pressed by someone not in the game shows it to
        // them alone: the chat asked for nothing.
        let stranger_pressed = matches!(ctx.req.action, crate::api::Action::Button { .. })
            && row.seat_of(&ctx.actor().id).is_none();
        let target = if stranger_pressed {
            Target::Ephemeral(ctx.actor().clone())
        } else {
            game_ref.turn =
                Some(self.turn_card(ctx.chat_lang, &row, &position, Vec::new(), status));
            Target::Chat(ctx.req.chat.clone())
        };
        let mut delivery = Delivery {
            notify: Vec::new(),
            target,
            text,
            image: None,
            buttons: Vec::new(),
            game: Some(game_ref),
        };
        let view = position.view(Audience::Full);
        let decor = self.public_decor(ctx.chat_lang, &row, &position, bottom, &view);
        let file_name = format!("{}-{}.png", row.id, position.ply());
        self.attach_board(&mut delivery, view, decor, file_name)
            .await;
        Ok(vec![delivery])
    }

    /// `/games`: the caller's challenges and games.
    pub(crate) async fn games(&self, ctx: &Ctx) -> Outcome {
        let rows = self
            .inner
            .store
            .open_games_of(ctx.platform(), &ctx.actor().id)
            .await?;
        if rows.is_empty() {
            return Ok(vec![self.reply(ctx, &Msg::new("games-none"))]);
        }
        // Games waiting for the actor first, then the rest; however many
        // there are, the answer stays short.
        let mut listed: Vec<(bool, String)> = rows
            .iter()
            .map(|row| {
                let (yours, key) = match row.status {
                    Status::Challenge => (false, "games-challenge"),
                    Status::Setup => (false, "games-setup"),
                    _ => {
                        let mine = row.seat_of(&ctx.actor().id);
                        let to_move = self
                            .replay(row)
                            .ok()
                            .map(|g| g.controller(g.seat_to_move()));
                        if to_move.is_some() && to_move == mine {
                            (true, "games-your-move")
                        } else {
                            (false, "games-their-move")
                        }
                    }
                };
                let state = self.text(ctx.lang, &Msg::new(key));
                (yours, format!("{} · {state}", self.describe(ctx.lang, row)))
            })
            .collect();
        listed.sort_by_key(|(yours, _)| !yours);
        let mut lines = vec![self.text(ctx.lang, &Msg::new("games-header"))];
        lines.extend(
            listed
                .iter()
                .take(GAMES_LISTED)
                .map(|(_, line)| line.clone()),
        );
        if listed.len() > GAMES_LISTED {
            let more = listed.len() - GAMES_LISTED;
            lines.push(self.text(ctx.lang, &Msg::new("games-more").arg("count", more as i64)));
        }
        Ok(vec![self.note(ctx, lines.join("\n"))])
    }

    /// `/pgn [id]`: the record; hidden until a hidden-information game is
    /// over (a status this version does not know is not over).
    pub(crate) async fn pgn(&self, ctx: &Ctx, game: Option<String>) -> Outcome {
        let row = self.find_game(ctx, game, Role::Anyone).await?;
        let position = self.replay(&row)?;
        if !row.status.is_over() && position.variant().hidden_information() {
            return Err(Msg::new("error-pgn-hidden").arg("id", row.id).into());
        }
        let text = if row.linked_id.is_some() {
            self.bpgn(&row).await?
        } else {
            self.pgn_text(&row, &position)
        };
        let platform = ctx.req.chat.platform;
        // A record longer than a message goes whole, as a file.
        let record = (text.chars().count() > platform.message_limit()).then(|| Delivery {
            notify: Vec::new(),
            target: Target::Chat(ctx.req.chat.clone()),
            text: self.text(
                ctx.chat_lang,
                &Msg::new("pgn-as-file").arg("id", row.id.clone()),
            ),
            image: Some(Image {
                file_name: format!("{}.pgn", row.id),
                bytes: text.clone().into_bytes(),
            }),
            buttons: Vec::new(),
            game: Some(self.game_ref(ctx.chat_lang, &row, false)),
        });
        let mut delivery = Delivery {
            notify: Vec::new(),
            target: Target::Chat(ctx.req.chat.clone()),
            // With the record in a file, the animation says what it is.
            text: if record.is_some() {
                self.text(
                    ctx.chat_lang,
                    &Msg::new("game-gif").arg("id", row.id.clone()),
                )
            } else {
                text
            },
            image: None,
            buttons: Vec::new(),
            game: Some(self.game_ref(ctx.chat_lang, &row, false)),
        };
        self.busy(&delivery.target, crate::api::Activity::DrawingAnimation)
            .await;
        let limit = platform.file_size_limit();
        delivery.image = self.game_gif(ctx.chat_lang, &row, &position, limit).await;
        let in_file = record.is_some();
        let mut deliveries: Vec<Delivery> = record.into_iter().collect();
        // The animation (none before the first move: then, with the record
        // in a file, nothing more).
        if delivery.image.is_some() || !in_file {
            deliveries.push(delivery);
        }
        Ok(deliveries)
    }

    /// The whole game as an animated GIF of at most `limit` bytes (public:
    /// only for finished or open-information games), or `None` before the
    /// first move or when drawing fails. A long game or a large GIF gets
    /// fewer frames, then smaller squares (see [`gif_within`]).
    pub(crate) async fn game_gif(
        &self,
        lang: Lang,
        row: &crate::store::GameRow,
        position: &kodex_engine::Game,
        limit: usize,
    ) -> Option<Image> {
        if row.linked_id.is_some() {
            return self.pair_gif(lang, row, limit).await;
        }
        if position.ply() == 0 && !position.has_time_travel() {
            return None;
        }
        let decor = self.decor(lang, row, position, Side::WHITE);
        let frames = game_frames(position, &decor, |san| san_in(lang, position, san));
        if frames.len() < 2 {
            return None;
        }
        let bytes = self
            .draw_off_runtime(move || gif_within(&frames, limit))
            .await?;
        if bytes.is_empty() {
            tracing::error!(game = %row.id, limit, "no game animation fits the platform's file limit");
        }
        (!bytes.is_empty()).then(|| Image {
            file_name: format!("{}.gif", row.id),
            bytes,
        })
    }

    /// `/rules <variant>`.
    pub(crate) fn rules(&self, ctx: &Ctx, variant: &str) -> Outcome {
        let name = variant.trim();
        if name.is_empty() {
            return Err(Msg::new("error-rules-usage").into());
        }
        let variant = self.known_variant(name)?;
        let code = ctx.lang.code();
        let text = format!("{}\n{}", variant.name(code), variant.rules_text(code));
        Ok(vec![self.note(ctx, text)])
    }

    /// `/variants`.
    pub(crate) fn variants(&self, ctx: &Ctx) -> Outcome {
        let code = ctx.lang.code();
        let mut lines = vec![self.text(ctx.lang, &Msg::new("variants-header"))];
        let family_of = |id: &str| {
            VARIANT_FAMILIES
                .iter()
                .position(|(_, ids)| ids.contains(&id))
                .unwrap_or(VARIANT_FAMILIES.len())
        };
        let all = self.inner.registry.all();
        for family in 0..=VARIANT_FAMILIES.len() {
            let members: Vec<_> = all
                .iter()
                .filter(|variant| family_of(variant.id()) == family)
                .collect();
            if members.is_empty() {
                continue;
            }
            let key = VARIANT_FAMILIES
                .get(family)
                .map_or("variants-family-other", |(key, _)| *key);
            lines.push(String::new());
            lines.push(self.text(ctx.lang, &Msg::new(key)));
            for variant in members {
                let mut line = format!("{} — {}", variant.id(), variant.name(code));
                if variant.hidden_information() {
                    line.push_str(&self.text(ctx.lang, &Msg::new("variants-hidden-mark")));
                }
                // The drop games, wherever their family puts them.
                if variant.has_drops() {
                    line.push_str(&self.text(ctx.lang, &Msg::new("variants-drops-mark")));
                }
                lines.push(line);
            }
        }
        Ok(vec![self.note(ctx, lines.join("\n"))])
    }

    /// `/help [topic]`: the first steps, with the topics to ask for; or one
    /// topic in full. An unknown topic gets the first steps, which list them.
    pub(crate) fn help(&self, ctx: &Ctx, topic: Option<&str>) -> Outcome {
        if let Some(key) = topic.and_then(help_topic) {
            return Ok(vec![self.reply(ctx, &Msg::new(key))]);
        }
        // The Russian names come from the command table, so none is missed.
        let russian: Vec<String> = crate::command::COMMANDS
            .iter()
            .filter_map(|command| command.russian.first())
            .map(|name| format!("/{name}"))
            .collect();
        let help = Msg::new("help").arg("russian", russian.join(", "));
        Ok(vec![self.reply(ctx, &help)])
    }

    /// `/lang [en|ru]`, or `/lang chat <en|ru>` for the chat's language (by
    /// someone who may change the chat's settings).
    pub(crate) async fn set_lang(
        &self,
        ctx: &Ctx,
        choice: crate::api::LangChoice,
        chat_admin: bool,
    ) -> Outcome {
        use crate::api::LangChoice;
        let (for_chat, lang) = match choice {
            LangChoice::Show => {
                return Ok(vec![self.reply(
                    ctx,
                    &Msg::new("lang-current").arg("lang", ctx.lang.code()),
                )])
            }
            LangChoice::Chat(lang) => (true, lang),
            LangChoice::Mine(lang) => (false, lang),
            LangChoice::Unreadable => return Err(Msg::new("error-bad-lang").into()),
        };
        if for_chat {
            if ctx.req.private {
                return Err(Msg::new("error-bad-lang").into());
            }
            if !chat_admin {
                return Err(Msg::new("error-lang-chat-admin").into());
            }
            self.choose_lang(LangOwner::Chat, ctx.platform(), &ctx.req.chat.id, lang)
                .await?;
        } else {
            self.choose_lang(LangOwner::User, ctx.platform(), &ctx.actor().id, lang)
                .await?;
        }
        // A person hears it in the new language; a chat's change is
        // confirmed in the actor's, naming the chat's new language.
        let text = if for_chat {
            let name = self.text(ctx.lang, &Msg::new(lang_name_key(lang)));
            self.text(ctx.lang, &Msg::new("lang-chat-set").arg("lang", name))
        } else {
            self.text(lang, &Msg::new("lang-set"))
        };
        Ok(vec![Delivery {
            notify: Vec::new(),
            target: Target::Ephemeral(ctx.actor().clone()),
            text,
            image: None,
            buttons: Vec::new(),
            game: None,
        }])
    }

    /// A private answer with ready text.
    pub(crate) fn note(&self, ctx: &Ctx, text: String) -> Delivery {
        Delivery {
            notify: Vec::new(),
            target: Target::Ephemeral(ctx.actor().clone()),
            text,
            image: None,
            buttons: Vec::new(),
            game: None,
        }
    }
}

/// The families `/variants` lists the built-in variants in (as the rule
/// book groups them), each with its heading's key; any other variant (an
/// operator's own) comes last, under "Others".
const VARIANT_FAMILIES: [(&str, &[&str]); 5] = [
    (
        "variants-family-codex",
        &[
            "chess",
            "chess960",
            "timetravel",
            "atomic",
            "kingofthehill",
            "threecheck",
            "crazyhouse",
            "antichess",
            "horde",
            "fogofwar",
            "racingkings",
        ],
    ),
    (
        "variants-family-hidden",
        &[
            "kriegspiel",
            "kriegspielbattle",
            "battle",
            "chessbattle",
            "battlehouse",
        ],
    ),
    (
        "variants-family-historical",
        &[
            "shatranj",
            "chaturanga",
            "citadel",
            "tamerlane",
            "greatchess",
            "diana",
            "whaleshogi",
            "grand",
            "janggi",
            "maharajah",
            "giveaway",
            "frankfurt",
            "frolov",
            "semedo",
            "hexagonal",
        ],
    ),
    (
        "variants-family-four",
        &["bughouse", "fourplayer", "enochian"],
    ),
    (
        "variants-family-lessons",
        &[
            "lesson1", "lesson2", "lesson3", "lesson4", "lesson5", "lesson6",
        ],
    ),
];

/// The topics of `/help <topic>`: the words that name each (English and
/// Russian), and its text's key.
pub const HELP_TOPICS: [(&[&str], &str); 5] = [
    (&["play", "games", "игра", "играть", "партии"], "help-play"),
    (&["moves", "move", "ходы", "ход"], "help-moves"),
    (
        &["hidden", "fog", "setup", "скрытые", "туман", "расстановка"],
        "help-hidden",
    ),
    (&["four", "4", "вчетвером", "четверо"], "help-four"),
    (&["more", "other", "ещё", "еще", "другое"], "help-more"),
];

/// The text key of the help topic `word` names, if any.
pub fn help_topic(word: &str) -> Option<&'static str> {
    let word = word.trim().trim_start_matches('/').to_lowercase();
    HELP_TOPICS
        .iter()
        .find(|(names, _)| names.contains(&word.as_str()))
        .map(|(_, key)| *key)
}

/// The i18n key of a language's name.
fn lang_name_key(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "lang-name-en",
        Lang::Ru => "lang-name-ru",
    }
}
