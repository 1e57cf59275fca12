//! What each audience is told about a game: texts, boards and who gets them.
//!
//! The only place that decides what a public delivery of a hidden-information
//! game contains: whose turn, the move number, clocks, and at the end the
//! result and the whole game — never a move, a square or a private view.
//!
//! # The hidden-information audit
//!
//! A player's information is the sequence of their own [`View`]s plus their
//! own legal moves (and, in Kriegspiel, the referee's announcements, which
//! are public). Every place that builds something for a player, the chat or
//! a spectator of a hidden game while the true position is in reach, and why
//! what it sends depends only on that audience's information:
//!
//! - **Public turn messages** ([`Service::public_message`]): texts from
//!   [`Game::announcements`] for [`Audience::Public`] (whose turn, "has
//!   moved", the referee's words), the turn line, the clocks; no board until
//!   the end, when the whole record is public. Spectators get the same
//!   message in their language (`watch.rs`, `spectator_copies`).
//! - **Private boards** ([`Service::private_view`]): `game.view(Side(seat))`
//!   (the engine's visibility rules decide every square and
//!   mark), announcements for that seat, the seat's own clock; the file name
//!   holds the id, the ply count (public) and the seat's colour.
//! - **Setup phase** (`setup.rs`): a player's setup board is drawn from their
//!   own placement only (the other half is fog); the chat and spectators
//!   hear only who is ready, the start, an abort or a timeout
//!   ([`Service::public_note`]); Kriegspiel from a setup reveals nothing.
//! - **`/board`, `/pgn`, `/gif`** (`info.rs`): in a running hidden game a
//!   player gets their private view, anyone else the turn line; the record
//!   and the animation only once the game is over. `/watch` on a running
//!   hidden game answers the turn line without a board (`watch.rs`).
//! - **Move refusals and suggestions** (`apply.rs`, `suggest.rs`): a typed
//!   move is read against the player's own legal moves ("not legal",
//!   "ambiguous" are answers their legal moves give); in Kriegspiel
//!   [`Game::parse_attempt`] answers from the player's own pieces, and an
//!   impossible attempt is the referee's public "impossible". Autocomplete
//!   offers in fog of war the legal moves to squares the player sees, in
//!   Kriegspiel nothing. A hidden move typed in public is refused (and
//!   deleted where the platform allows) before it is read.
//! - **Buttons**: the same for every seat of a kind (draw, resign, show
//!   board), never dependent on the position.
//! - **The computer** (`computer.rs`): it moves from positions sampled from
//!   its own view and among its own legal moves (in Kriegspiel it tries its
//!   pieces' moves, each refusal public); its answer to a draw offer is the
//!   mean evaluation of positions sampled from its view
//!   ([`kodex_engine::search::evaluate_from_view`]) with the enemy army it
//!   may believe ([`kodex_engine::search::believed_enemy_army`]: the start's
//!   less what it saw itself take), seeded by the game id and ply (public);
//!   it never resigns a hidden game (its resignation reads the true
//!   evaluation); it approves every takeback; it sets up blind. Its thinking
//!   time is bounded by its level's budget and deadline, not by the
//!   position's hidden part.
//! - **Game titles and thread names** ([`GameRef::title`]): variant and
//!   players only.

pub(crate) mod gif;
pub(crate) mod strips;

use crate::api::{
    Button, ButtonAction, ChatRef, ClockReading, Delivery, GameRef, Image, Platform, Target,
    TurnCard, UserRef,
};
use crate::clock::{format_remaining, TimeControl};
use crate::i18n::Lang;
use crate::service::kernel::apply::{AutoPasses, Event};
use crate::service::kernel::{Msg, Service};
use crate::store::{EndReason, GameResult, GameRow, Status};
use crate::time::Millis;
use kodex_engine::{
    Announcement, Audience, CheckDirection, ForcedTurn, Game, Side, SquareView, Team, Variant,
    View, Visibility,
};
use kodex_render::Decor;

/// The longest game title: Discord's limit for a thread name.
const GAME_TITLE_MAX: usize = 100;

/// The variants lichess plays: Kodex's id, lichess's key in analysis URLs,
/// and the PGN `Variant` tag lichess reads (none for standard chess).
const LICHESS_VARIANTS: [(&str, &str, Option<&str>); 9] = [
    ("chess", "standard", None),
    ("chess960", "chess960", Some("Chess960")),
    ("crazyhouse", "crazyhouse", Some("Crazyhouse")),
    ("antichess", "antichess", Some("Antichess")),
    ("atomic", "atomic", Some("Atomic")),
    ("horde", "horde", Some("Horde")),
    ("kingofthehill", "kingOfTheHill", Some("King of the Hill")),
    ("racingkings", "racingKings", Some("Racing Kings")),
    ("threecheck", "threeCheck", Some("Three-check")),
];

/// The longest analysis link given; a longer record links its last position.
const MAX_LINK_CHARS: usize = 1800;

/// `https://lichess.org/analysis/` followed by `segments`, each
/// percent-encoded as one path segment by the `url` crate.
fn lichess_analysis(segments: &[&str]) -> String {
    let mut url = url::Url::parse("https://lichess.org/analysis").expect("a fixed, valid URL");
    if let Ok(mut path) = url.path_segments_mut() {
        path.extend(segments);
    }
    url.into()
}

impl Service {
    /// The deliveries announcing `event` in `row` (already saved) whose
    /// position is `game`. Public texts are in `lang`, private ones in each
    /// player's language.
    pub(crate) async fn announce(
        &self,
        row: &GameRow,
        game: &Game,
        event: Event,
        lang: Lang,
    ) -> Vec<Delivery> {
        self.announce_with(row, game, event, lang, &[]).await
    }

    /// Like [`Service::announce`], the public message (the chat's and each
    /// spectator's, in their language) opening with `notes` (a hidden
    /// setup's last "ready" and its reveal).
    pub(crate) async fn announce_with(
        &self,
        row: &GameRow,
        game: &Game,
        event: Event,
        lang: Lang,
        notes: &[Msg],
    ) -> Vec<Delivery> {
        let hidden = game.variant().hidden_information();
        let ended = row.status.is_over();
        let mut deliveries = Vec::new();
        let mut public = self.public_message(row, game, &event, lang, notes).await;
        let spectators = self
            .spectator_copies(row, game, &event, lang, &public, notes)
            .await;
        // Watch sends a game's public messages to the presser privately. A
        // Discord channel keeps its history in view, and its Watch would
        // only copy what it shows into DMs: none there.
        let watch_offered = row.platform != crate::api::Platform::Discord.key();
        if matches!(event, Event::Started) && watch_offered {
            public.buttons.push(Button::new(
                self.text(lang, &Msg::new("button-watch")),
                &ButtonAction::Watch {
                    game: row.id.clone(),
                },
            ));
        }
        if ended && row.seats.len() == 2 {
            public.buttons.push(Button::new(
                self.text(lang, &Msg::new("button-rematch")),
                &ButtonAction::Rematch {
                    game: row.id.clone(),
                },
            ));
        }
        deliveries.push(public);
        deliveries.extend(spectators);
        if ended {
            let mut result = self.result_text(lang, row);
            if let Some(ratings) = self.rating_changes_text(lang, row) {
                result.push('\n');
                result.push_str(&ratings);
            }
            deliveries.extend(self.home_chat_result(lang, row, result));
        }
        if ended {
            deliveries.extend(self.game_end_gif(lang, row, game).await);
        }
        if hidden && !ended {
            // The first two private boards are drawn at once (one per core).
            let (white, black) = tokio::join!(
                self.private_view(row, game, 0, Some(&event)),
                self.private_view(row, game, 1, Some(&event)),
            );
            deliveries.extend([white, black]);
            for seat in 2..row.seats.len() {
                deliveries.push(self.private_view(row, game, seat, Some(&event)).await);
            }
        }
        deliveries
    }

    /// For a game that left its chat for a thread of its own: the result
    /// `text` for the chat it started in.
    pub(crate) fn home_chat_result(
        &self,
        lang: Lang,
        row: &GameRow,
        text: String,
    ) -> Option<Delivery> {
        let home = row
            .home_chat_id
            .as_ref()
            .filter(|home| **home != row.chat_id)?;
        Some(Delivery {
            notify: Vec::new(),
            target: Target::Chat(ChatRef {
                platform: chat_of(row).platform,
                id: home.clone(),
            }),
            text,
            image: None,
            buttons: Vec::new(),
            game: Some(self.game_ref(lang, row, false)),
        })
    }

    /// The game-end summary for the chat of `row`: the whole game, move by
    /// move, as an animation (none before a move, or when drawing fails).
    pub(crate) async fn game_end_gif(
        &self,
        lang: Lang,
        row: &GameRow,
        game: &Game,
    ) -> Option<Delivery> {
        let limit = chat_of(row).platform.file_size_limit();
        self.busy(
            &Target::Chat(chat_of(row)),
            crate::api::Activity::DrawingAnimation,
        )
        .await;
        let gif = self.game_gif(lang, row, game, limit).await?;
        let mut text = self.text(lang, &Msg::new("game-gif").arg("id", row.id.clone()));
        // Something to learn from: the game in lichess's analysis board,
        // for the variants lichess plays.
        if let Some(url) = self.lichess_analysis_url(row, game) {
            text.push('\n');
            text.push_str(&self.text(lang, &Msg::new("game-analyse").arg("url", url)));
        }
        Some(Delivery {
            notify: Vec::new(),
            target: Target::Chat(chat_of(row)),
            text,
            image: Some(gif),
            buttons: Vec::new(),
            game: Some(self.game_ref(lang, row, false)),
        })
    }

    /// The finished game `row` in lichess's analysis board, for a variant
    /// lichess plays: its record in the URL
    /// (`https://lichess.org/analysis/pgn/<PGN>`), or, for a record too long
    /// for a link, its last position (`/analysis/<variant>/<FEN>`).
    pub(crate) fn lichess_analysis_url(&self, row: &GameRow, game: &Game) -> Option<String> {
        let (key, name) = LICHESS_VARIANTS
            .iter()
            .find(|(id, _, _)| *id == row.variant)
            .map(|(_, key, name)| (*key, *name))?;
        let pgn = self.pgn_text(row, game);
        let (tags, movetext) = pgn.split_once("\n\n").unwrap_or(("", pgn.as_str()));
        let mut kept: Vec<String> = Vec::new();
        if let Some(name) = name {
            kept.push(format!("[Variant \"{name}\"]"));
        }
        kept.extend(
            tags.lines()
                .filter(|tag| tag.starts_with("[FEN ") || tag.starts_with("[SetUp "))
                .map(str::to_owned),
        );
        kept.push(movetext.split_whitespace().collect::<Vec<_>>().join(" "));
        // One line: a URL keeps no line breaks, and PGN takes spaces
        // between its tags and moves as well.
        let url = lichess_analysis(&["pgn", &kept.join(" ")]);
        if url.len() <= MAX_LINK_CHARS {
            return Some(url);
        }
        // The FEN's ranks as path segments, spaces as `_`, as lichess writes it.
        let fen = game.fen().replace(' ', "_");
        let segments: Vec<&str> = std::iter::once(key).chain(fen.split('/')).collect();
        Some(lichess_analysis(&segments))
    }

    /// The message about `event` in `row` for everyone, in `lang`: what the
    /// game's chat hears (and its spectators, in theirs) — the public view,
    /// never a hidden square; at the end of a hidden game, its record.
    pub(crate) async fn public_message(
        &self,
        row: &GameRow,
        game: &Game,
        event: &Event,
        lang: Lang,
        notes: &[Msg],
    ) -> Delivery {
        let hidden = game.variant().hidden_information();
        let ended = row.status.is_over();
        let mut lines: Vec<String> = notes.iter().map(|note| self.text(lang, note)).collect();
        match event {
            Event::Started => lines.push(self.started_text(lang, row, game)),
            Event::Moved { passes } => {
                let moved = passes.as_ref().map_or(game, |p| &p.before);
                let told = moved.announcements(Audience::Public);
                lines.extend(self.moves_told(lang, lang, row, moved, &told, Audience::Public));
                lines.extend(self.throne_text(lang, row, moved));
                lines.extend(self.passes_told(lang, row, game, passes.as_ref()));
            }
            Event::Impossible { .. } => {
                let told = game.announcements(Audience::Public);
                lines.extend(self.moves_told(lang, lang, row, game, &told, Audience::Public));
            }
            Event::Travelled { jump, moved } => {
                lines.push(self.jump_text(lang, row, game, jump));
                if *moved {
                    let told = game.announcements(Audience::Public);
                    lines.extend(self.moves_told(lang, lang, row, game, &told, Audience::Public));
                }
            }
            Event::TakenBack => {
                lines.push(self.text(lang, &Msg::new("takeback-done").arg("id", row.id.clone())))
            }
            Event::Exchanged { a, b } => lines.push(self.exchange_text(lang, row, game, *a, *b)),
            Event::Retired { seat } => lines.push(self.retire_text(lang, row, game, *seat)),
            Event::Passed { passes } => {
                lines.extend(self.passes_told(lang, row, game, Some(passes)))
            }
            Event::Ended => {}
        }
        let mut events = lines.clone();
        let status = if ended {
            self.result_text(lang, row)
        } else {
            self.turn_text(lang, row, game)
        };
        lines.push(status.clone());
        if ended {
            let lesson = self.lesson_end_text(lang, row);
            lines.extend(lesson.clone());
            events.extend(lesson);
            if let Some(ratings) = self.rating_changes_text(lang, row) {
                lines.push(ratings.clone());
                events.push(ratings);
            }
        } else if let Some(clocks) = self.clock_line(row, game) {
            lines.push(clocks);
        }
        // An impossible attempt changes no board: words only.
        let boards = !matches!(event, Event::Impossible { .. });
        let public_view = if (hidden && !ended) || !boards {
            None
        } else {
            Some(with_jump_marks(game.view(Audience::Full), game, event))
        };
        if hidden && ended {
            lines.push(self.pgn_text(row, game));
        }
        let mut game_ref = self.game_ref(lang, row, matches!(event, Event::Started));
        // A hidden game's end carries its whole record, which only the text has room for.
        if !(hidden && ended) {
            game_ref.turn = Some(self.turn_card(lang, row, game, events, status));
        }
        // A move the computer answers: its move follows shortly, and an
        // adapter may show both in one message (both public).
        if matches!(
            event,
            Event::Moved { .. } | Event::Travelled { .. } | Event::Impossible { .. }
        ) {
            game_ref.reply_within = crate::service::kernel::thinking::reply_within(row, game);
        }
        // The chat may keep one board message per game, edited each turn.
        if game_ref.turn.is_some() {
            game_ref.edit_board = self.board_messages(&row.platform, &row.chat_id).await
                == crate::api::BoardMessages::Edit;
        }
        // The player to move is asked to act (whose turn it is is public,
        // also in a hidden game); not again for an impossible attempt.
        let notify = if ended || matches!(event, Event::Impossible { .. }) {
            Vec::new()
        } else {
            to_notify(row, [game.controller(game.seat_to_move())])
        };
        let mut public = Delivery {
            notify,
            target: Target::Chat(chat_of(row)),
            text: lines.join("\n"),
            image: None,
            buttons: Vec::new(),
            game: Some(game_ref),
        };
        if let Some(view) = public_view {
            let bottom = self.chat_bottom(row, game, ended).await;
            let decor = self.public_decor(lang, row, game, bottom, &view);
            // Numbered by the record, which (unlike the present line of a
            // time-travel game) only grows.
            let file_name = format!("{}-{}.png", row.id, row.move_list().len());
            self.attach_board(&mut public, view, decor, file_name).await;
        }
        public
    }

    /// "alice travels in time: T-2:Nf3 (1 time charge left)."
    fn jump_text(&self, lang: Lang, row: &GameRow, game: &Game, jump: &str) -> String {
        let side = game
            .last_turn_jump()
            .map_or(game.side_to_move(), |made| made.side);
        let seat = row.seat_of_side(side).map_or(0, |seat| seat.seat);
        self.text(
            lang,
            &Msg::new("time-jump")
                .arg("id", row.id.clone())
                .arg("player", row.player_name(seat).to_owned())
                .arg("jump", jump.to_owned())
                .arg("charges", i64::from(game.charges(side).unwrap_or(0))),
        )
    }

    /// The board of the player in `seat` of a hidden-information game,
    /// sent privately: what the side they play may see.
    pub(crate) async fn private_view(
        &self,
        row: &GameRow,
        game: &Game,
        seat: usize,
        event: Option<&Event>,
    ) -> Delivery {
        let (Some(user), Some(side)) = (player_ref(row, seat), row.seat(seat).map(|s| s.side))
        else {
            return self.nothing(row);
        };
        let lang = self.user_lang(&row.platform, &user.id).await;
        let notation = self.notation_of(&row.platform, &user.id, lang).await;
        let to_move = game.seat_to_move() == seat;
        let audience = Audience::Side(side);
        let (told, moved) = match event {
            Some(Event::Moved { passes: Some(p) }) => {
                (p.before.announcements(audience), &*p.before)
            }
            Some(Event::Moved { .. } | Event::Impossible { .. }) => {
                (game.announcements(audience), game)
            }
            _ => (Vec::new(), game),
        };
        let mut lines = self.moves_told(lang, notation, row, moved, &told, audience);
        match event {
            Some(Event::Moved { passes }) => {
                lines.extend(self.passes_told(lang, row, game, passes.as_ref()))
            }
            Some(Event::Passed { passes }) => {
                lines.extend(self.passes_told(lang, row, game, Some(passes)))
            }
            _ => {}
        }
        if let Some(Event::Impossible { text }) = event.filter(|_| to_move) {
            lines.push(
                self.text(
                    lang,
                    &Msg::new("you-impossible")
                        .arg("id", row.id.clone())
                        .arg("move", text.clone()),
                ),
            );
        }
        let key = if to_move { "your-turn" } else { "their-turn" };
        lines.push(
            self.text(
                lang,
                &Msg::new(key)
                    .arg("id", row.id.clone())
                    .arg("number", game.fullmove_number() as i64),
            ),
        );
        let checked = told.iter().any(
            |told| matches!(told, Announcement::Check { side: checked, .. } if *checked == side),
        );
        // A board asked for (no event) repeats a check the player was told of.
        if checked || (event.is_none() && to_move && game.in_check()) {
            lines.push(self.text(lang, &Msg::new("you-are-in-check")));
        }
        if let Some(clocks) = self.clock_line(row, game) {
            lines.push(clocks);
        }
        let mut delivery = Delivery {
            notify: Vec::new(),
            target: Target::Private(user),
            text: lines.join("\n"),
            image: None,
            buttons: Vec::new(),
            game: Some(self.game_ref(lang, row, false)),
        };
        if matches!(event, Some(Event::Impossible { .. })) {
            return delivery;
        }
        let view = game.view(audience);
        // Drawn from the player's own seat; the file is named by it too.
        let decor = self.decor(lang, row, game, Side(seat as u8));
        let color = Side(seat as u8).color_name();
        let file_name = format!("{}-{}-{color}.png", row.id, game.ply());
        self.attach_board(&mut delivery, view, decor, file_name)
            .await;
        delivery
    }

    /// The engine's announcements `told` to `audience`, in words (moves in
    /// `notation`'s piece letters): "alice
    /// played Nf3", or "you played Nf3" to the mover; in Kriegspiel the
    /// referee's words too. A move hidden from the audience says nothing,
    /// except in Kriegspiel, where the referee says that a side has moved.
    /// An impossible attempt is told to its author by the caller, with the
    /// text they typed.
    pub(crate) fn moves_told(
        &self,
        lang: Lang,
        notation: Lang,
        row: &GameRow,
        game: &Game,
        told: &[Announcement],
        audience: Audience,
    ) -> Vec<String> {
        // The seat that just moved: seats take turns in order (in Enochian
        // chess its moves are typed by the player who took its throne).
        let seats = game.variant().players().max(1);
        let mover = game.controller((game.seat_to_move() + seats - 1) % seats);
        let referee = game.variant().visibility() == Visibility::OwnPiecesOnly;
        // "alice (white)": the player of a side, for the referee's words.
        let side_of = |msg: Msg, side: &Side| {
            msg.arg("player", row.player_name(side.index()).to_owned())
                .arg("color", self.side_color_name(lang, game.variant(), *side))
        };
        let direction = |direction: &CheckDirection| {
            let name = match direction {
                CheckDirection::Rank => "rank",
                CheckDirection::File => "file",
                CheckDirection::LongDiagonal => "long",
                CheckDirection::ShortDiagonal => "short",
                CheckDirection::Knight => "knight",
            };
            self.text(lang, &Msg::new("check-direction").arg("direction", name))
        };
        told.iter()
            .filter_map(|told| match told {
                Announcement::Moved {
                    side,
                    san: Some(san),
                } if audience == Audience::Side(*side) => {
                    Some(Msg::new("you-moved").arg("san", san_in(notation, game, san)))
                }
                Announcement::Moved { san: Some(san), .. } => Some(
                    Msg::new("moved")
                        .arg("player", row.player_name(mover).to_owned())
                        .arg("san", san_in(notation, game, san)),
                ),
                Announcement::Moved { side, san: None } if referee => {
                    Some(side_of(Msg::new("referee-moved"), side))
                }
                Announcement::Capture { side, square } => {
                    Some(side_of(Msg::new("referee-capture"), side).arg("square", square.clone()))
                }
                Announcement::Check { directions, .. } => match directions.as_slice() {
                    [] => None,
                    [one] => Some(Msg::new("referee-check").arg("direction", direction(one))),
                    [first, second, ..] => Some(
                        Msg::new("referee-double-check")
                            .arg("first", direction(first))
                            .arg("second", direction(second)),
                    ),
                },
                Announcement::PawnTries { side, count } => {
                    Some(side_of(Msg::new("referee-pawn-tries"), side).arg("count", *count as i64))
                }
                Announcement::Impossible { side } if audience != Audience::Side(*side) => {
                    Some(side_of(Msg::new("referee-impossible"), side))
                }
                Announcement::Moved { san: None, .. } | Announcement::Impossible { .. } => None,
            })
            .map(|msg| self.text(lang, &msg.arg("id", row.id.clone())))
            .collect()
    }

    /// "bob (black) is checkmated and passes": one line per pass the
    /// service played for a seat without another move.
    fn passes_told(
        &self,
        lang: Lang,
        row: &GameRow,
        game: &Game,
        passes: Option<&AutoPasses>,
    ) -> Vec<String> {
        let Some(passes) = passes else {
            return Vec::new();
        };
        passes
            .seats
            .iter()
            .map(|&(seat, mated)| {
                let side = row.seat(seat).map_or(Side((seat % 2) as u8), |s| s.side);
                let key = if mated {
                    "auto-pass-mated"
                } else {
                    "auto-pass-no-move"
                };
                let color = self.seat_color_name(lang, game.variant(), seat, side);
                self.text(
                    lang,
                    &Msg::new(key)
                        .arg("player", row.player_name(seat).to_owned())
                        .arg("color", color),
                )
            })
            .collect()
    }

    fn nothing(&self, row: &GameRow) -> Delivery {
        Delivery {
            notify: Vec::new(),
            target: Target::Chat(chat_of(row)),
            text: String::new(),
            image: None,
            buttons: Vec::new(),
            game: None,
        }
    }

    /// Attaches the board: a PNG from the renderer, plus a text board where
    /// the operator asked for one (the console) — text only from the view
    /// this audience may see. Drawing is CPU work: see [`Service::draw_off_runtime`].
    pub(crate) async fn attach_board(
        &self,
        delivery: &mut Delivery,
        view: View,
        decor: Decor,
        file_name: String,
    ) {
        let text = self
            .inner
            .settings
            .text_boards
            .then(|| text_board(&view, decor.bottom));
        self.busy(&delivery.target, crate::api::Activity::DrawingImage)
            .await;
        if let Some(bytes) = self
            .draw_off_runtime(move || kodex_render::render_png(&view, &decor))
            .await
        {
            delivery.image = Some(Image { file_name, bytes });
        }
        if let Some(text) = text {
            if !delivery.text.is_empty() {
                delivery.text.push('\n');
            }
            delivery.text.push_str(&text);
        }
    }

    /// The name of variant `id` in `lang` (the id itself for a variant
    /// no longer offered).
    pub(crate) fn variant_name(&self, lang: Lang, id: &str) -> String {
        self.inner.registry.get(id).map_or_else(
            || id.to_owned(),
            |variant| variant.name(lang.code()).to_owned(),
        )
    }

    /// The side drawn at the bottom of `row`'s board posted in its chat:
    /// [`public_bottom`], or white where the chat chose so
    /// (`/settings board white`).
    pub(crate) async fn chat_bottom(&self, row: &GameRow, game: &Game, ended: bool) -> Side {
        match self.board_orientation(&row.platform, &row.chat_id).await {
            crate::api::BoardOrientation::White => Side::WHITE,
            crate::api::BoardOrientation::SideToMove => public_bottom(game, ended),
        }
    }

    /// [`Service::decor`] for `view`, the whole board of a public game,
    /// with what such boards carry besides (see [`strips`]): the material
    /// each player is up and the last move, in `lang`'s notation.
    pub(crate) fn public_decor(
        &self,
        lang: Lang,
        row: &GameRow,
        game: &Game,
        bottom: Side,
        view: &View,
    ) -> Decor {
        let mut decor = self.decor(lang, row, game, bottom);
        strips::add_public_facts(&mut decor, |san| san_in(lang, game, san), game, view);
        decor
    }

    pub(crate) fn decor(&self, lang: Lang, row: &GameRow, game: &Game, bottom: Side) -> Decor {
        let clocks = self.clock_readings(row, game);
        // Time travel: each strip shows its player's charges left.
        let charges = |seat: usize| {
            let side = row.seat(seat).map_or(Side(seat as u8), |s| s.side);
            game.charges(side)
                .map_or_else(String::new, |n| format!(" · T×{n}"))
        };
        Decor {
            bottom,
            names: (0..self.seat_count(row))
                .map(|seat| format!("{}{}", row.player_name(seat), charges(seat)))
                .collect(),
            clocks: clocks.into_iter().map(Some).collect(),
            status: row.status.is_over().then(|| self.result_text(lang, row)),
            to_move: Some(Side(game.seat_to_move() as u8)),
            ..Decor::default()
        }
    }

    /// What adapters learn about the game a delivery is about: its id and a
    /// title naming variant and players (never anything hidden).
    pub(crate) fn game_ref(&self, lang: Lang, row: &GameRow, started: bool) -> GameRef {
        let variant = self
            .inner
            .registry
            .get(&row.variant)
            .map_or_else(|| row.variant.clone(), |v| v.name(lang.code()).to_owned());
        let (first, second) = if row.seats.is_empty() {
            (
                row.challenger_name.clone(),
                row.opponent_name.clone().unwrap_or_else(|| "?".to_owned()),
            )
        } else {
            (row.team_names(Team(0)), row.team_names(Team(1)))
        };
        let title = self.text(
            lang,
            &Msg::new("game-title")
                .arg("id", row.id.clone())
                .arg("variant", variant)
                .arg("white", first)
                .arg("black", second),
        );
        GameRef {
            id: row.id.clone(),
            title: title.chars().take(GAME_TITLE_MAX).collect(),
            started,
            turn: None,
            over: row.status.is_over(),
            settles: false,
            reply_within: None,
            edit_board: false,
        }
    }

    fn started_text(&self, lang: Lang, row: &GameRow, game: &Game) -> String {
        let variant = game.variant();
        let mut text = self.text(
            lang,
            &Msg::new("game-started")
                .arg("id", row.id.clone())
                .arg("variant", variant.name(lang.code()).to_owned())
                .arg("white", row.team_names(Team(0)))
                .arg("black", row.team_names(Team(1)))
                .arg(
                    "white_color",
                    self.team_color_name(lang, row, variant, Team(0)),
                )
                .arg(
                    "black_color",
                    self.team_color_name(lang, row, variant, Team(1)),
                )
                .arg("clock", self.clock_phrase(lang, row.time_control)),
        );
        if row.seats.len() == 2 {
            text.push('\n');
            text.push_str(&self.rated_text(lang, row));
        }
        if let Some(number) = game.chess960_number() {
            text.push('\n');
            text.push_str(&self.text(
                lang,
                &Msg::new("chess960-position").arg("number", number as i64),
            ));
        }
        if variant.hidden_information() {
            text.push('\n');
            let key = if variant.visibility() == Visibility::OwnPiecesOnly {
                "kriegspiel-started"
            } else {
                "fog-started"
            };
            text.push_str(&self.text(lang, &Msg::new(key)));
        }
        text
    }

    /// "k7m2 · move 3 · bob (black) to move".
    pub(crate) fn turn_text(&self, lang: Lang, row: &GameRow, game: &Game) -> String {
        let seat = game.seat_to_move();
        // Enochian chess: the player who took the army's throne moves it.
        let mover = game.controller(seat);
        let player = row.player_name(mover).to_owned();
        let mut text = self.text(
            lang,
            &Msg::new("turn")
                .arg("id", row.id.clone())
                .arg("number", game.fullmove_number() as i64)
                .arg("player", player.clone())
                .arg(
                    "color",
                    self.seat_color_name(
                        lang,
                        game.variant(),
                        game.seat_to_move(),
                        game.side_to_move(),
                    ),
                ),
        );
        // Enochian chess: who moves for whom, and why (a throne, a retirement),
        // and on a shared turn the bare king of the retired partner.
        let for_seat = |key: &'static str, army: usize| {
            let color = self.seat_color_name(lang, game.variant(), army, Side((army % 2) as u8));
            let line = Msg::new(key)
                .arg("player", player.clone())
                .arg("color", color)
                .arg("owner", row.player_name(army).to_owned());
            self.text(lang, &line)
        };
        // Each addition is a sentence of its own after the turn line.
        let append = |text: &mut String, sentence: String| {
            if !text.ends_with(['.', '!', '?', ':']) {
                text.push('.');
            }
            text.push(' ');
            text.push_str(&sentence);
        };
        if mover != seat {
            let key = if game.retired(seat) {
                "retired-moves-for"
            } else {
                "throne-moves-for"
            };
            append(&mut text, for_seat(key, seat));
        }
        if game.shares_turns(seat) {
            let retired = if game.retired(seat) {
                seat
            } else {
                (seat + 2) % 4
            };
            append(&mut text, for_seat("retired-shares-turns", retired));
        }
        // Four-handed chess: a mated king, a turn without a move, a king to take.
        if let Some(forced) = game.forced_turn() {
            let key = match forced {
                ForcedTurn::Mated => "fourplayer-mated",
                ForcedTurn::NoMove => "fourplayer-no-move",
                ForcedTurn::TakeMatedKing => "fourplayer-take-king",
            };
            append(
                &mut text,
                self.text(lang, &Msg::new(key).arg("player", player)),
            );
        }
        text
    }

    /// How many seats the game has (two before its seats are filled).
    fn seat_count(&self, row: &GameRow) -> usize {
        row.seats.len().max(2)
    }

    /// The colour of `seat`'s army where the variant colours armies
    /// (Enochian chess: red, black, yellow, blue), else of its `side`.
    pub(crate) fn seat_color_name(
        &self,
        lang: Lang,
        variant: &Variant,
        seat: usize,
        side: Side,
    ) -> String {
        match variant.definition().armies.get(seat) {
            Some(&color) => self.text(lang, &Msg::new(color_key(color))),
            None => self.side_color_name(lang, variant, side),
        }
    }

    /// What `variant` calls `side` ("blue" in janggi), else white or black.
    pub(crate) fn side_color_name(&self, lang: Lang, variant: &Variant, side: Side) -> String {
        match variant.definition().colors.get(side.index()) {
            Some(&color) => self.text(lang, &Msg::new(color_key(color))),
            None => self.color_name(lang, side),
        }
    }

    /// The colours of team `team`'s armies where the variant colours armies
    /// ("red & yellow" in Enochian chess), else the colour of its side.
    fn team_color_name(&self, lang: Lang, row: &GameRow, variant: &Variant, team: Team) -> String {
        if variant.definition().armies.is_empty() {
            // Two teams of one side each: team 0 plays white.
            return self.side_color_name(lang, variant, Side(team.0));
        }
        let colours: Vec<String> = row
            .seats
            .iter()
            .filter(|seat| seat.team == team)
            .map(|seat| self.seat_color_name(lang, variant, seat.seat, seat.side))
            .collect();
        colours.join(" & ")
    }

    pub(crate) fn color_name(&self, lang: Lang, side: Side) -> String {
        let key = if side == Side::WHITE {
            "color-white"
        } else {
            "color-black"
        };
        self.text(lang, &Msg::new(key))
    }

    /// "Rated game: the result changes both ratings." or "Casual game."
    pub(crate) fn rated_text(&self, lang: Lang, row: &GameRow) -> String {
        let key = if row.rated {
            "game-rated"
        } else {
            "game-casual"
        };
        self.text(lang, &Msg::new(key))
    }

    /// "Ratings: alice 1523 (+23), bob 1477 (−23)" after the save that ended
    /// a rated game; `None` otherwise.
    pub(crate) fn rating_changes_text(&self, lang: Lang, row: &GameRow) -> Option<String> {
        if row.rating_changes.is_empty() {
            return None;
        }
        let changes: Vec<String> = row
            .rating_changes
            .iter()
            .map(|change| {
                let mark = if change.provisional { "?" } else { "" };
                format!(
                    "{} {}{mark} ({})",
                    change.name,
                    change.after,
                    crate::rating::change_text(change.before as f64, change.after as f64)
                )
            })
            .collect();
        Some(self.text(
            lang,
            &Msg::new("rating-changes").arg("changes", changes.join(", ")),
        ))
    }

    /// The clock as a start message says it: "clock: 3+2", or "no clock"
    /// (never "clock: no clock").
    pub(crate) fn clock_phrase(&self, lang: Lang, clock: TimeControl) -> String {
        match clock {
            TimeControl::Unlimited => self.text(lang, &Msg::new("clock-none")),
            clock => self.text(
                lang,
                &Msg::new("clock-phrase").arg("clock", self.clock_name(lang, clock)),
            ),
        }
    }

    pub(crate) fn clock_name(&self, lang: Lang, clock: TimeControl) -> String {
        match clock {
            TimeControl::Unlimited => self.text(lang, &Msg::new("clock-none")),
            TimeControl::PerMove { per_move } => self.text(
                lang,
                &Msg::new("clock-per-move").arg("days", per_move / 86_400_000),
            ),
            tc => tc.code(),
        }
    }

    /// Each seat's time now (the clock of the seat to move is running).
    fn clock_readings(&self, row: &GameRow, game: &Game) -> Vec<String> {
        self.clock_times(row, game)
            .into_iter()
            .map(|(left, _)| format_remaining(left))
            .collect()
    }

    /// Each seat's time left now, in milliseconds, and whether it is
    /// running; empty without a clock.
    fn clock_times(&self, row: &GameRow, game: &Game) -> Vec<(Millis, bool)> {
        if row.remaining(0).is_none() {
            return Vec::new();
        }
        let to_move = game.seat_to_move();
        let active = row.status == Status::Active;
        (0..self.seat_count(row))
            .map(|seat| {
                let mut left = row.remaining(seat).unwrap_or(0);
                let running = active && seat == to_move;
                if running {
                    left -= self.now() - row.turn_started_at.unwrap_or_else(|| self.now());
                }
                (left, running)
            })
            .collect()
    }

    /// The turn of `row` as a card for adapters that show one (see
    /// [`TurnCard`]): `events` are the lines saying what happened, `status`
    /// whose turn it is or how the game ended. Only public facts: the
    /// players, the clocks, and the buttons every player has.
    pub(crate) fn turn_card(
        &self,
        lang: Lang,
        row: &GameRow,
        game: &Game,
        events: Vec<String>,
        status: String,
    ) -> TurnCard {
        let over = row.status.is_over();
        let clocks = if over {
            Vec::new()
        } else {
            self.clock_times(row, game)
                .into_iter()
                .enumerate()
                .map(|(seat, (left, running))| ClockReading {
                    player: row.player_name(seat).to_owned(),
                    remaining: format_remaining(left),
                    deadline: running.then(|| self.now().saturating_add(left.max(0))),
                })
                .collect()
        };
        let title = self.game_ref(lang, row, false).title;
        TurnCard {
            title,
            events,
            status,
            clocks,
            buttons: if over {
                Vec::new()
            } else {
                self.game_buttons(lang, row, game)
            },
        }
    }

    /// What a player may do now in a running game, as buttons: offer a
    /// draw, resign, ask for a takeback (where the variant allows one and a
    /// move was made), show one's board.
    fn game_buttons(&self, lang: Lang, row: &GameRow, game: &Game) -> Vec<Button> {
        let id = row.id.clone();
        let label = |key: &'static str| self.text(lang, &Msg::new(key));
        let mut buttons = vec![
            Button::new(
                label("button-offer-draw"),
                &ButtonAction::Draw { game: id.clone() },
            ),
            Button::new(
                label("button-resign"),
                &ButtonAction::AskResign { game: id.clone() },
            ),
        ];
        // Bughouse boards feed each other: no takebacks.
        if !game.variant().hidden_information() && game.turns() > 0 && row.linked_id.is_none() {
            buttons.push(Button::new(
                label("button-takeback"),
                &ButtonAction::Takeback { game: id.clone() },
            ));
        }
        buttons.push(Button::new(
            label("button-show-board"),
            &ButtonAction::Board { game: Some(id) },
        ));
        buttons
    }

    /// "⏱ alice 4:58 · bob 5:00", or `None` without a clock.
    pub(crate) fn clock_line(&self, row: &GameRow, game: &Game) -> Option<String> {
        let readings = self.clock_readings(row, game);
        (!readings.is_empty()).then(|| {
            let clocks: Vec<String> = readings
                .iter()
                .enumerate()
                .map(|(seat, reading)| format!("{} {reading}", row.player_name(seat)))
                .collect();
            format!("⏱ {}", clocks.join(" · "))
        })
    }

    /// Why a game ended, in words: the stored `reason`, naming `loser`.
    pub(crate) fn reason_text(
        &self,
        lang: Lang,
        reason: Option<&EndReason>,
        loser: String,
    ) -> String {
        let key = reason.map_or("reason-other", EndReason::message_key);
        self.text(lang, &Msg::new(key).arg("loser", loser))
    }

    /// "k7m2: alice (white) wins — bob resigned."
    pub(crate) fn result_text(&self, lang: Lang, row: &GameRow) -> String {
        let result = row.result.clone().unwrap_or(GameResult::NoResult);
        // A team is named by its players and the colour of the side it plays.
        let winner = result
            .winner()
            .and_then(|team| row.seats.iter().find(|seat| seat.team == team));
        let loser = winner.map(|seat| row.opponent_names(seat.seat));
        let reason = self.reason_text(lang, row.reason.as_ref(), loser.unwrap_or_default());
        let msg = match (&result, winner) {
            (_, Some(seat)) => Msg::new("result-win")
                .arg("winner", row.team_names(seat.team))
                // The colour as a word a language may decline ("победа
                // чёрных"), the same colour as `color` names.
                .arg(
                    "side",
                    self.inner
                        .registry
                        .get(&row.variant)
                        .and_then(|variant| {
                            variant.definition().colors.get(seat.side.index()).copied()
                        })
                        .map_or(
                            if seat.side == Side::WHITE {
                                "white"
                            } else {
                                "black"
                            },
                            |color| Side(color).color_name(),
                        ),
                )
                .arg(
                    "color",
                    match self.inner.registry.get(&row.variant) {
                        Some(variant) => self.side_color_name(lang, variant, seat.side),
                        None => self.color_name(lang, seat.side),
                    },
                ),
            (GameResult::Draw, None) => Msg::new("result-draw"),
            _ => Msg::new("result-aborted"),
        };
        self.text(
            lang,
            &msg.arg("id", row.id.clone())
                .arg("result", result.to_text())
                .arg("reason", reason),
        )
    }

    /// The game as PGN.
    pub(crate) fn pgn_text(&self, row: &GameRow, game: &Game) -> String {
        let variant = game.variant().name("en").to_owned();
        let event = format!("Kodex {variant} game {}", row.id);
        let result = row.result.as_ref().map_or("*", GameResult::pgn);
        let (white, black) = (row.team_names(Team(0)), row.team_names(Team(1)));
        let mut tags: Vec<(&str, &str)> = vec![
            ("Event", &event),
            ("Site", "Kodex"),
            ("White", &white),
            ("Black", &black),
        ];
        // Standard chess carries no Variant tag, so other programs read it as chess.
        if row.variant != "chess" {
            tags.push(("Variant", &variant));
        }
        let time_control = pgn_time_control(row.time_control);
        tags.push(("TimeControl", &time_control));
        game.pgn(&tags, result)
    }

    /// "k7m2 · Atomic · alice – bob" (or a challenge).
    pub(crate) fn describe(&self, lang: Lang, row: &GameRow) -> String {
        let variant = self
            .inner
            .registry
            .get(&row.variant)
            .map(|v| v.name(lang.code()).to_owned())
            .unwrap_or_else(|| row.variant.clone());
        if row.status == Status::Challenge {
            let opponent = row.opponent_name.clone().unwrap_or_else(|| "?".to_owned());
            format!(
                "{} · {variant} · {} → {opponent} ({})",
                row.id,
                row.challenger_name,
                self.clock_name(lang, row.time_control)
            )
        } else {
            format!(
                "{} · {variant} · {} – {}",
                row.id,
                row.team_names(Team(0)),
                row.team_names(Team(1))
            )
        }
    }
}

/// The chat a game belongs to.
pub(crate) fn chat_of(row: &GameRow) -> ChatRef {
    ChatRef {
        platform: Platform::from_key(&row.platform).unwrap_or(Platform::Console),
        id: row.chat_id.clone(),
    }
}

/// The player of seat `index` as a user.
pub(crate) fn player_ref(row: &GameRow, index: usize) -> Option<UserRef> {
    Some(UserRef {
        platform: Platform::from_key(&row.platform)?,
        id: row.player_id(index)?.to_owned(),
        name: row.player_name(index).to_owned(),
        handle: None,
    })
}

/// The people in `seats` of `row` whom a message asks to act (see
/// [`Delivery::notify`]): each once, in order, never the computer.
pub(crate) fn to_notify(row: &GameRow, seats: impl IntoIterator<Item = usize>) -> Vec<UserRef> {
    let mut people: Vec<UserRef> = Vec::new();
    for seat in seats {
        if let Some(user) = player_ref(row, seat).filter(|user| user.computer_level().is_none()) {
            if !people.iter().any(|known| known.id == user.id) {
                people.push(user);
            }
        }
    }
    people
}

/// The people of the other team than seat `seat`'s in `row`: whom an offer
/// by `seat` asks (see [`to_notify`]).
pub(crate) fn opponents_to_notify(row: &GameRow, seat: usize) -> Vec<UserRef> {
    let mine = row.team_of_seat(seat);
    let theirs: Vec<usize> = row
        .seats
        .iter()
        .filter(|other| other.team != mine)
        .map(|other| other.seat)
        .collect();
    to_notify(row, theirs)
}

/// The PGN `TimeControl` tag: `-`, `180+2` (seconds), `1/86400` (per move).
pub(crate) fn pgn_time_control(clock: TimeControl) -> String {
    match clock {
        TimeControl::Increment { base, increment } => {
            format!("{}+{}", base / 1000, increment / 1000)
        }
        TimeControl::PerMove { per_move } => format!("1/{}", per_move / 1000),
        TimeControl::Unlimited => "-".to_owned(),
    }
}

/// After a time-travel jump, the board marks the square where the
/// traveller appeared and the one it vanished from in the past.
fn with_jump_marks(mut view: View, game: &Game, event: &Event) -> View {
    if matches!(event, Event::Travelled { .. }) {
        if let Some(jump) = game.last_turn_jump() {
            view.marked.push(jump.appeared);
            view.marked.extend(jump.vanished);
        }
    }
    view
}

/// One cell of a text board: a piece letter (white upper case), `.` empty,
/// `?` fogged, a space off the board.
fn cell_char(square: SquareView) -> char {
    match square {
        SquareView::Absent => ' ',
        SquareView::Empty => '.',
        SquareView::Fog => '?',
        // Armies of four colours keep their side's parity (red and yellow
        // with white): see `VariantDef::armies`.
        SquareView::Piece(piece) if piece.side.0 % 2 == 0 => piece.letter.to_ascii_uppercase(),
        SquareView::Piece(piece) => piece.letter.to_ascii_lowercase(),
    }
}

/// Gliński's hexagonal board as text: one line per half cell of height, each
/// file in its own column, so a cell's neighbours sit diagonally above and
/// below it; file letters (no j) underneath. The view's squares are axial
/// (file = q + 5, rank = r + 5); a cell stands at height 2r + q.
fn hex_text_board(view: &View, bottom: Side) -> String {
    let white = bottom == Side::WHITE;
    let files: Vec<u8> = if white {
        (0..view.files).collect()
    } else {
        (0..view.files).rev().collect()
    };
    let heights: Vec<i32> = if white {
        (-10..=10).rev().collect()
    } else {
        (-10..=10).collect()
    };
    let mut out = String::from("```\n");
    for height in heights {
        let mut line = String::new();
        for &file in &files {
            let q = file as i32 - 5;
            let doubled = height - q;
            let cell = if doubled.rem_euclid(2) == 0 && (doubled / 2).abs() <= 5 {
                cell_char(view.at(file, (doubled / 2 + 5) as u8))
            } else {
                ' '
            };
            line.push(cell);
            line.push(' ');
        }
        let line = line.trim_end();
        if !line.is_empty() {
            out.push_str(line);
            out.push('\n');
        }
    }
    let letters: Vec<String> = files
        .iter()
        .map(|&f| (b"abcdefghikl"[f as usize % 11] as char).to_string())
        .collect();
    out.push_str(&letters.join(" "));
    out.push_str("\n```");
    out
}

/// A monospace board: upper case for the first side, lower case for the
/// second, `.` empty, `?` fog. Drawn from `bottom`'s seat, turned as the
/// image is: seats 0 and 1 from south and north, seats 2 and 3 of a game of
/// four from west and east (rows are then files, columns ranks).
pub(crate) fn text_board(view: &View, bottom: Side) -> String {
    if view.style == kodex_engine::BoardStyle::Hexagonal {
        return hex_text_board(view, bottom);
    }
    let (files, ranks) = (view.files, view.ranks);
    let seat = bottom.0 % 4;
    let turned = seat >= 2;
    let (rows, columns) = if turned {
        (files, ranks)
    } else {
        (ranks, files)
    };
    // The cell (file, rank) at a row from the top and a column from the left.
    let cell_at = |row: u8, column: u8| match seat {
        0 => (column, ranks - 1 - row),
        1 => (files - 1 - column, row),
        2 => (files - 1 - row, ranks - 1 - column),
        _ => (row, column),
    };
    let file_letter = |file: u8| view.file_letter(file).to_string();
    // Two-digit rank numbers under the columns need wider cells.
    let width = if turned { 3 } else { 2 };
    let mut out = String::from("```\n");
    for row in 0..rows {
        let (file, rank) = cell_at(row, 0);
        let label = if turned {
            file_letter(file)
        } else {
            (rank as u32 + 1).to_string()
        };
        let mut line = format!("{label:>2} ");
        for column in 0..columns {
            let (file, rank) = cell_at(row, column);
            let cell = cell_char(view.at(file, rank));
            line.push_str(&format!("{cell:<width$}"));
        }
        // The last cell's padding goes (a missing square stays a space).
        line.truncate(line.len() - (width - 1));
        out.push_str(&line);
        out.push('\n');
    }
    let labels: Vec<String> = (0..columns)
        .map(|column| {
            let (file, rank) = cell_at(0, column);
            let label = if turned {
                (rank as u32 + 1).to_string()
            } else {
                file_letter(file)
            };
            format!("{label:<width$}")
        })
        .collect();
    out.push_str("   ");
    out.push_str(labels.concat().trim_end());
    // Pockets (crazyhouse) are public: "in hand: white P N · black p".
    if !view.pockets.is_empty() {
        let hands: Vec<String> = view
            .pockets
            .iter()
            .map(|pocket| {
                let pieces: Vec<String> = pocket
                    .pieces
                    .iter()
                    .filter(|(_, count)| *count > 0)
                    .map(|(glyph, count)| {
                        let letter = if pocket.side == Side::WHITE {
                            glyph.letter.to_ascii_uppercase()
                        } else {
                            glyph.letter.to_ascii_lowercase()
                        };
                        if *count > 1 {
                            format!("{letter}×{count}")
                        } else {
                            letter.to_string()
                        }
                    })
                    .collect();
                let pieces = if pieces.is_empty() {
                    "-".to_owned()
                } else {
                    pieces.join(" ")
                };
                format!("{} {pieces}", pocket.side.color_name())
            })
            .collect();
        out.push_str("\n   in hand: ");
        out.push_str(&hands.join(" · "));
    }
    // Enochian doubled thrones: the board shows the king, this line both.
    if !view.second_pieces.is_empty() {
        let pairs: Vec<String> = view
            .second_pieces
            .iter()
            .map(|&(square, second)| {
                let square = usize::from(square);
                let (file, rank) = (square % usize::from(files), square / usize::from(files));
                let king = cell_char(view.at(file as u8, rank as u8));
                let other = cell_char(SquareView::Piece(second));
                format!("{}{} {king}+{other}", file_letter(file as u8), rank + 1)
            })
            .collect();
        out.push_str("\n   two on a throne: ");
        out.push_str(&pairs.join(" · "));
    }
    out.push_str("\n```");
    out
}

/// A move as its audience reads it: SAN with Russian piece letters
/// (`Кf3`, `exd8=Ф`) in Russian, the usual letters otherwise.
pub(crate) fn san_in(lang: Lang, game: &Game, san: &str) -> String {
    match lang {
        Lang::Ru => game.variant().russian_san(san),
        _ => san.to_owned(),
    }
}

/// The side drawn at the bottom of the board posted in a game's chat: in a
/// two-player game the side of the player to move, so each player reads the
/// board from their own side on their turn (whose turn it is is public, also
/// in a hidden game, whose public board is drawn only at the end anyway).
/// Games for four, and the final board of any game, keep white at the bottom.
pub(crate) fn public_bottom(game: &Game, ended: bool) -> Side {
    if ended || game.variant().players() != 2 {
        Side::WHITE
    } else {
        game.side_to_move()
    }
}

/// The message naming colour index `color` (see [`Side::color_name`]).
pub(crate) fn color_key(color: u8) -> &'static str {
    match Side(color).color_name() {
        "white" => "color-white",
        "black" => "color-black",
        "red" => "color-red",
        "yellow" => "color-yellow",
        _ => "color-blue",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kodex_engine::{Audience, Game, Registry, Start};

    /// The board's bottom-left cell on screen, and how many of its pixels
    /// are in the fill colour of `side`'s pieces.
    fn bottom_left(view: &View, bottom: Side, side: Side) -> ((u8, u8), usize) {
        let decor = Decor {
            bottom,
            ..Decor::default()
        };
        let renderer = kodex_render::shared_renderer(view);
        let image = renderer.draw(view, &decor);
        let palette = renderer.palette_rgb();
        let fill = renderer.theme().piece_colors(side.0).fill;
        let cells = (0..view.files).flat_map(|file| (0..view.ranks).map(move |rank| (file, rank)));
        let ((file, rank), (x0, y0, size)) = cells
            .filter_map(|cell| Some((cell, renderer.cell_rect(view, &decor, cell.0, cell.1)?)))
            .max_by_key(|&(_, (x, y, _))| (y, std::cmp::Reverse(x)))
            .expect("cells");
        let count = (y0..y0 + size)
            .flat_map(|y| (x0..x0 + size).map(move |x| (x, y)))
            .filter_map(|(x, y)| image.get(x, y))
            .filter(|&index| {
                let at = index as usize * 3;
                palette[at..at + 3] == [fill.0, fill.1, fill.2]
            })
            .count();
        ((file, rank), count)
    }

    #[test]
    fn the_chat_board_on_blacks_turn_has_blacks_rook_in_the_bottom_left_corner() {
        let registry = Registry::builtin();
        let mut game = Game::new(registry.get("chess").unwrap(), Start::Standard).unwrap();
        game.play_text("e4").unwrap();
        let bottom = public_bottom(&game, false);
        assert_eq!(bottom, Side::BLACK);
        let view = game.view(Audience::Full);
        // h8, black's rook, in the corner a player of black sees at the bottom left.
        let (cell, black) = bottom_left(&view, bottom, Side::BLACK);
        assert_eq!(cell, (7, 7), "h8 at the bottom left");
        assert!(black > 200, "black's rook stands there ({black} pixels)");
        assert_eq!(bottom_left(&view, bottom, Side::WHITE).1, 0);
        // White's turn: a1 and white's rook there; a final board keeps white below.
        game.play_text("e5").unwrap();
        let bottom = public_bottom(&game, false);
        let view = game.view(Audience::Full);
        let (cell, white) = bottom_left(&view, bottom, Side::WHITE);
        assert_eq!((bottom, cell), (Side::WHITE, (0, 0)));
        assert!(white > 200, "white's rook stands there ({white} pixels)");
        game.play_text("Qh5").unwrap();
        assert_eq!(public_bottom(&game, true), Side::WHITE);
    }

    #[test]
    fn hexagonal_text_board_stands_cells_by_height() {
        let registry = Registry::builtin();
        let game = Game::new(registry.get("hexagonal").unwrap(), Start::Standard).unwrap();
        let view = game.view(Audience::Full);
        let text = text_board(&view, Side::WHITE);
        let lines: Vec<&str> = text.lines().collect();
        // ``` + 21 half-cell heights + the file letters + ```.
        assert_eq!(lines.len(), 24, "{text}");
        // f11 (a black bishop) alone on top, f1 (a white bishop) alone at the bottom.
        assert_eq!(lines[1].trim(), "b");
        assert_eq!(lines[21].trim(), "B");
        assert_eq!(lines[22], "a b c d e f g h i k l");
        // 91 cells in all.
        let cells = text
            .chars()
            .filter(|c| *c == '.' || c.is_ascii_alphabetic())
            .count()
            - 11;
        assert_eq!(cells, 91, "{text}");
        // Black's view is the same picture turned round.
        let black = text_board(&view, Side::BLACK);
        let black_lines: Vec<&str> = black.lines().collect();
        assert_eq!(black_lines[1].trim(), "B");
        assert_eq!(black_lines[22], "l k i h g f e d c b a");
    }
}

#[cfg(test)]
mod analysis_link_tests {
    use super::lichess_analysis;

    #[test]
    fn each_segment_is_encoded_and_ranks_stay_apart() {
        assert_eq!(
            lichess_analysis(&["pgn", "[Variant \"Atomic\"] 1. e4 e5 1/2-1/2"]),
            "https://lichess.org/analysis/pgn/[Variant%20%22Atomic%22]%201.%20e4%20e5%201%2F2-1%2F2"
        );
        assert_eq!(
            lichess_analysis(&["atomic", "8", "4k3", "8_w_-_-_0_1"]),
            "https://lichess.org/analysis/atomic/8/4k3/8_w_-_-_0_1"
        );
    }
}
