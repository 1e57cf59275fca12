//! Challenges: `/play`, `/accept`, `/decline`, and expiry.

mod position;

use crate::api::{Button, ButtonAction, ChatRef, Delivery, Target, UserRef};
use crate::clock::TimeControl;
use crate::i18n::Lang;
use crate::service::kernel::apply::Event;
use crate::service::kernel::ids::new_game_id;
use crate::service::kernel::players::{is_user, stored_user_id};
use crate::service::kernel::terms::{is_team_variant, rated_choice, ColorChoice, PlayTerms, Terms};
use crate::service::kernel::{Ctx, Msg, Outcome, Service};
use crate::service::present::chat_of;
use crate::store::{Color, GameRow, MoveRecord, MoveTimes, SeatRow, SeatSet, Status};
use kodex_engine::{Game, Side, Start, Team, Variant};

/// The colour index (see [`Side::color_name`]) a word names beyond white
/// and black: `red`, `синими`, …
fn variant_color_index(word: &str) -> Option<u8> {
    let name = match word {
        "red" | "красные" | "красными" => "red",
        "blue" | "синие" | "синими" => "blue",
        "yellow" | "жёлтые" | "желтые" | "жёлтыми" | "желтыми" => {
            "yellow"
        }
        _ => return None,
    };
    Side::from_color_name(name).map(|side| side.0)
}

/// The side (0 the first, 1 the second) colour index `index` names in
/// `variant`: one of its two sides' colours (janggi's blue and red), or the
/// colour of one of its armies (Enochian's red and yellow for the first
/// team, black and blue for the second: seats alternate between the teams).
fn side_of_color(variant: &Variant, index: u8) -> Option<usize> {
    let def = variant.definition();
    if !def.colors.is_empty() {
        return def.colors.iter().position(|&c| c == index);
    }
    def.armies
        .iter()
        .position(|&c| c == index)
        .map(|seat| seat % 2)
}

/// The colour words of `variant`'s sides or armies, as colour indices: its
/// own (janggi's blue and red, Enochian's four armies), else white and black.
fn color_words_of(variant: &Variant) -> Vec<u8> {
    let def = variant.definition();
    if !def.colors.is_empty() {
        def.colors.clone()
    } else if !def.armies.is_empty() {
        // The first team's armies, then the second's.
        let (first, second): (Vec<_>, Vec<_>) = def
            .armies
            .iter()
            .enumerate()
            .partition(|(seat, _)| seat % 2 == 0);
        first.into_iter().chain(second).map(|(_, &c)| c).collect()
    } else {
        vec![0, 1]
    }
}

/// Colour words no variant names (beyond [`variant_color_index`]'s):
/// typed in a `/play`, they are told which colours there are.
const OTHER_COLOR_WORDS: &[&str] = &["green", "зелёные", "зеленые"];

impl Service {
    /// `/play <variant> [@opponent] [clock] [color] [rated|casual] [public]
    /// [fen:<FEN>]`.
    pub(crate) async fn play(&self, ctx: &Ctx, variant: &str, asked: PlayTerms) -> Outcome {
        let PlayTerms {
            opponent,
            clock,
            color,
            fen,
            rated,
            public,
        } = asked;
        let terms = self.challenge_terms(ctx, variant, clock, color)?;
        let from_fen = match fen {
            Some(fen) => Some(position::start_position(&terms.variant, &fen)?),
            None => None,
        };
        if public && (opponent.is_some() || is_team_variant(&terms.variant)) {
            // The lobby holds open challenges of two people.
            return Err(Msg::new("error-public-open-only").into());
        }
        if is_team_variant(&terms.variant) {
            // A game for four: the one named is an opponent, the other seats open.
            if rated == Some(true) {
                return Err(Msg::new("error-rated-team").into());
            }
            return self
                .play_teams_with(ctx, terms, Vec::new(), opponent.into_iter().collect())
                .await;
        }
        let computer = opponent.as_ref().and_then(UserRef::computer_level);
        let rated = rated_choice(
            rated,
            computer.is_some(),
            from_fen.is_some(),
            terms.time_control,
        )?;
        let Terms {
            variant,
            time_control,
            color,
        } = terms;
        if opponent
            .as_ref()
            .is_some_and(|o| is_user(ctx.actor(), &o.id))
        {
            return Err(Msg::new("error-self-challenge").into());
        }
        self.check_limits(ctx, true).await?;
        if public {
            self.check_seek_limit(ctx).await?;
        }
        let mut row = self.challenge_row(ctx, &variant, &time_control, color);
        row.rated = rated;
        row.public = public;
        // `@name` (someone the platform has not shown us yet) is kept
        // lowercase: handles are case-insensitive.
        row.opponent_id = opponent.as_ref().map(|o| stored_user_id(&o.id));
        row.opponent_name = opponent.as_ref().map(|o| {
            o.name
                .chars()
                .take(crate::service::kernel::players::MAX_NAME)
                .collect()
        });
        row.from_fen = from_fen;
        self.insert_challenge(&mut row).await?;
        if computer.is_some() {
            tracing::info!(game = %row.id, variant = %row.variant, "game against the computer");
            return self.accept_for_computer(ctx, &row).await;
        }
        tracing::info!(game = %row.id, variant = %row.variant, "challenge created");
        let msg = match &opponent {
            Some(o) => Msg::new("challenge-direct").arg("opponent", o.name.clone()),
            None if public => Msg::new("challenge-public"),
            None => Msg::new("challenge-open"),
        };
        Ok(vec![self.challenge_message(
            ctx.req.chat.clone(),
            ctx.chat_lang,
            &row,
            &variant,
            color,
            msg,
        )])
    }

    /// The public message of the challenge `row` in `chat`: `msg` with the
    /// challenge's terms, the start position if one was asked for, and the
    /// Accept and Decline buttons.
    pub(crate) fn challenge_message(
        &self,
        chat: ChatRef,
        lang: Lang,
        row: &GameRow,
        variant: &Variant,
        color: ColorChoice,
        msg: Msg,
    ) -> Delivery {
        // "alice plays white", or "colours drawn at random" (never "alice
        // plays random colours").
        let side = match color {
            ColorChoice::Random => None,
            ColorChoice::White => Some(Side::WHITE),
            ColorChoice::Black => Some(Side::BLACK),
        };
        // In the variant's own words: "alice plays blue" in janggi.
        let colors_key = match side {
            None => "challenge-colors-random",
            Some(side) => {
                let colors = &variant.definition().colors;
                let color = colors.get(side.index()).copied().unwrap_or(side.0);
                match Side(color).color_name() {
                    "red" => "challenge-plays-red",
                    "yellow" => "challenge-plays-yellow",
                    "blue" => "challenge-plays-blue",
                    "black" => "challenge-plays-black",
                    _ => "challenge-plays-white",
                }
            }
        };
        let colors = self.text(
            lang,
            &Msg::new(colors_key).arg("player", row.challenger_name.clone()),
        );
        let mut text = self.text(
            lang,
            &msg.arg("id", row.id.clone())
                .arg("challenger", row.challenger_name.clone())
                .arg("variant", variant.name(lang.code()).to_owned())
                .arg("clock", self.clock_name(lang, row.time_control))
                .arg("colors", colors),
        );
        if let Some(fen) = &row.from_fen {
            text.push('\n');
            text.push_str(&self.text(
                lang,
                &Msg::new("challenge-position").arg("fen", fen.clone()),
            ));
        }
        text.push('\n');
        text.push_str(&self.rated_text(lang, row));
        // A direct challenge asks the challenged person (never the computer).
        let notify = match (&row.opponent_id, &row.opponent_name) {
            (Some(id), name) if UserRef::level_of(id).is_none() => vec![UserRef {
                platform: chat.platform,
                id: id.clone(),
                name: name.clone().unwrap_or_default(),
                handle: None,
            }],
            _ => Vec::new(),
        };
        Delivery {
            notify,
            target: Target::Chat(chat),
            text,
            image: None,
            buttons: vec![
                Button::new(
                    self.text(lang, &Msg::new("button-accept")),
                    &ButtonAction::Accept {
                        game: row.id.clone(),
                    },
                ),
                Button::new(
                    self.text(lang, &Msg::new("button-decline")),
                    &ButtonAction::Decline {
                        game: row.id.clone(),
                    },
                ),
            ],
            game: Some(self.game_ref(lang, row, false)),
        }
    }

    /// The variant, clock and colour of a `/play`, each checked: an unknown
    /// variant, an unreadable clock or colour is refused with its own message.
    pub(crate) fn challenge_terms(
        &self,
        ctx: &Ctx,
        variant: &str,
        clock: Option<String>,
        color: Option<ColorChoice>,
    ) -> Outcome<Terms> {
        if ctx.req.private {
            return Err(Msg::new("error-play-in-private").into());
        }
        self.game_terms(ctx, variant, clock, color)
    }

    /// [`Service::challenge_terms`] in any chat, a private one too (a seek
    /// or an invitation is answered elsewhere).
    pub(crate) fn game_terms(
        &self,
        ctx: &Ctx,
        variant: &str,
        clock: Option<String>,
        color: Option<ColorChoice>,
    ) -> Outcome<Terms> {
        let variant_text = variant.trim();
        if variant_text.is_empty() {
            return Err(Msg::new("error-play-usage").into());
        }
        let variant = self.known_variant(variant_text)?;
        // The variant's own colour words (janggi's blue and red) name its sides.
        let mut color = color;
        let clock = clock.and_then(|text| {
            let mut rest = Vec::new();
            for word in text.split_whitespace() {
                let named = variant_color_index(&word.to_lowercase())
                    .and_then(|index| side_of_color(&variant, index));
                match named {
                    Some(0) => color = Some(ColorChoice::White),
                    Some(_) => color = Some(ColorChoice::Black),
                    None => rest.push(word),
                }
            }
            (!rest.is_empty()).then(|| rest.join(" "))
        });
        let time_control = match clock.as_deref() {
            None => TimeControl::Unlimited,
            Some(text) => TimeControl::parse(text).map_err(|_| {
                // `level 9`: a level out of range, not a clock.
                let mut words = text.split_whitespace();
                let first = words.next().unwrap_or_default().to_lowercase();
                if crate::command::LEVEL_WORDS.contains(&first.as_str()) {
                    let shown: String = words.next().unwrap_or_default().chars().take(8).collect();
                    return Msg::new("error-bad-level").arg("level", shown);
                }
                // `red` in chess: a colour of other games, not of this one.
                if variant_color_index(&first).is_some()
                    || OTHER_COLOR_WORDS.contains(&first.as_str())
                {
                    return Msg::new("error-no-such-color")
                        .arg("color", first)
                        .arg("variant", variant.name(ctx.lang.code()).to_owned())
                        .arg("colors", self.color_words(ctx.lang, &variant));
                }
                let shown: String = text.chars().take(32).collect();
                Msg::new("error-bad-clock").arg("clock", shown)
            })?,
        };
        Ok(Terms {
            variant,
            time_control,
            color: color.unwrap_or(ColorChoice::Random),
        })
    }

    /// `variant`'s colour words in `lang`, as `/play` takes them ("white,
    /// black"; "blue, red"; "red, yellow, black, blue").
    fn color_words(&self, lang: Lang, variant: &Variant) -> String {
        color_words_of(variant)
            .into_iter()
            .map(|color| self.text(lang, &Msg::new(crate::service::present::color_key(color))))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// A new challenge row by the actor in the request's chat, not yet stored.
    pub(crate) fn challenge_row(
        &self,
        ctx: &Ctx,
        variant: &Variant,
        time_control: &TimeControl,
        color: ColorChoice,
    ) -> GameRow {
        let now = self.now();
        GameRow {
            id: String::new(),
            platform: ctx.platform().to_owned(),
            chat_id: ctx.req.chat.id.clone(),
            home_chat_id: None,
            variant: variant.id().to_owned(),
            // Stamped when stored (`insert_challenge`).
            variant_fingerprint: None,
            status: Status::Challenge,
            challenger_id: ctx.actor().id.clone(),
            challenger_name: ctx.actor().name.clone(),
            opponent_id: None,
            opponent_name: None,
            color: color.color(),
            seats: Vec::new(),
            stored_seats: Vec::new(),
            time_control: *time_control,
            start_fen: None,
            from_fen: None,
            moves: MoveRecord::default(),
            turn_started_at: None,
            deadline: Some(now.saturating_add(self.inner.settings.challenge_expiry)),
            draw_offer: None,
            takeback_offer: None,
            exchange_offer: None,
            reminder_at: None,
            reminded: SeatSet::EMPTY,
            no_increment: SeatSet::EMPTY,
            result: None,
            reason: None,
            created_at: now,
            updated_at: now,
            version: 0,
            linked_id: None,
            board: 0,
            move_times: MoveTimes::default(),
            rated: false,
            public: false,
            guest_chat_id: None,
            invite_code: None,
            rating_changes: Vec::new(),
        }
    }

    /// Stores a new challenge under a fresh id (written into `row`), with
    /// the fingerprint of its variant's definition in force now: the game
    /// is played under that definition or not at all.
    pub(crate) async fn insert_challenge(&self, row: &mut GameRow) -> Outcome<()> {
        // A collision of two random ids of 2^54 is all but impossible; a
        // taken id is drawn again.
        for _ in 0..4 {
            let Some(id) = new_game_id() else {
                tracing::error!("the secure random source failed; no game id");
                return Err(Msg::new("error-internal").into());
            };
            row.id = id;
            if self.insert_challenge_as(row).await? {
                return Ok(());
            }
        }
        Err(Msg::new("error-internal").into())
    }

    /// Stores a new challenge under the id already in `row` (one planned
    /// and stored elsewhere first, as a tournament's round does), stamped
    /// like [`Service::insert_challenge`]; `false` if that id is taken.
    pub(crate) async fn insert_challenge_as(&self, row: &mut GameRow) -> Outcome<bool> {
        let Some(variant) = self.inner.registry.get(&row.variant) else {
            return Err(Msg::new("error-internal").into());
        };
        row.variant_fingerprint = Some(variant.fingerprint().to_owned());
        let stored = self.inner.store.insert(row).await?;
        if stored {
            self.inner.wake.notify_one();
        }
        Ok(stored)
    }

    /// Refuses a new challenge (`challenging`) or an accept when the actor
    /// already has as many open challenges or running games as one person
    /// may (a flood of games is refused, not stored).
    pub(crate) async fn check_limits(&self, ctx: &Ctx, challenging: bool) -> Outcome<()> {
        if ctx.actor().computer_level().is_some() {
            return Ok(());
        }
        let open = self.open_games(ctx).await?;
        let settings = &self.inner.settings;
        let challenges = open
            .iter()
            .filter(|row| row.status == Status::Challenge && row.challenger_id == ctx.actor().id)
            .count();
        if challenging && challenges >= settings.max_open_challenges {
            return Err(Msg::new("error-too-many-challenges")
                .arg("max", settings.max_open_challenges as i64)
                .into());
        }
        let running = open
            .iter()
            .filter(|row| matches!(row.status, Status::Setup | Status::Active))
            .count();
        if running >= settings.max_running_games {
            return Err(Msg::new("error-too-many-games")
                .arg("max", settings.max_running_games as i64)
                .into());
        }
        Ok(())
    }

    /// Refuses a new public seek when the actor already has as many as one
    /// person may.
    pub(crate) async fn check_seek_limit(&self, ctx: &Ctx) -> Outcome<()> {
        let max = self.inner.settings.max_public_seeks;
        let seeks = self
            .open_games(ctx)
            .await?
            .iter()
            .filter(|row| {
                row.status == Status::Challenge && row.public && row.challenger_id == ctx.actor().id
            })
            .count();
        if seeks >= max {
            return Err(Msg::new("error-too-many-seeks")
                .arg("max", max as i64)
                .into());
        }
        Ok(())
    }

    /// `/accept [id]`: starts the game, or its setup phase; in a team
    /// challenge, takes a seat.
    pub(crate) async fn accept(&self, ctx: &Ctx, game: Option<String>) -> Outcome {
        self.check_limits(ctx, false).await?;
        let found = self.find_challenge(ctx, game, true).await?;
        self.take_challenge(ctx, &found).await
    }

    /// The actor takes the challenge `found` (whom it is for was checked):
    /// the game starts, or its setup phase; in a team challenge, a seat.
    pub(crate) async fn take_challenge(&self, ctx: &Ctx, found: &GameRow) -> Outcome {
        let (_lock, row) = self.lock_fresh(found, Status::Challenge).await?;
        let mut row =
            row.ok_or_else(|| Msg::new("error-challenge-gone").arg("id", found.id.clone()))?;
        let variant = self.variant(&row)?;
        if is_team_variant(&variant) {
            return self.take_seat(ctx, row, &variant, None).await;
        }
        let challenger_white = match row.color {
            Color::Side(Side::WHITE) => true,
            Color::Side(Side::BLACK) => false,
            _ => fastrand::bool(),
        };
        let challenger = (row.challenger_id.clone(), row.challenger_name.clone());
        let accepter = (ctx.actor().id.clone(), ctx.actor().name.clone());
        let (white, black) = if challenger_white {
            (challenger, accepter.clone())
        } else {
            (accepter.clone(), challenger)
        };
        row.opponent_id = Some(accepter.0);
        row.opponent_name = Some(accepter.1);
        // A public seek or an invitation taken in another chat (a private
        // one too): the game is played in both. (A named opponent answering
        // elsewhere plays in the challenge's chat, as before.)
        let here = &ctx.req.chat.id;
        let anywhere = row.public || row.invite_code.is_some();
        if anywhere && *here != row.chat_id && row.home_chat_id.as_ref() != Some(here) {
            row.guest_chat_id = Some(here.clone());
        }
        // Two seats: white moves first; each side is a team of its own.
        row.seats = [(Side::WHITE, white), (Side::BLACK, black)]
            .into_iter()
            .enumerate()
            .map(|(seat, (side, (user_id, user_name)))| SeatRow {
                seat,
                user_id,
                user_name,
                side,
                team: Team(side.0),
                remaining_ms: None,
                setup: None,
                ready: false,
            })
            .collect();
        let lang = self.game_chat_lang(ctx, &row).await;
        // Taken from another chat: the challenger, waiting in theirs, is
        // pinged there with the start (the player to move is anyway).
        let waiting = row.guest_chat_id.is_some().then(|| {
            (
                chat_of(&row),
                UserRef {
                    platform: chat_of(&row).platform,
                    id: row.challenger_id.clone(),
                    name: row.challenger_name.clone(),
                    handle: None,
                },
            )
        });
        let mut deliveries = self.start(row, &variant, lang).await?;
        if let Some((home, challenger)) = waiting {
            if let Some(start) = deliveries
                .iter_mut()
                .find(|d| d.target == Target::Chat(home.clone()) && d.game.is_some())
            {
                if !start.notify.iter().any(|u| u.id == challenger.id) {
                    start.notify.push(challenger);
                }
            }
        }
        Ok(deliveries)
    }

    /// Starts the game of `row`, whose seats are filled: its setup phase, or
    /// play with every clock at its initial time.
    pub(crate) async fn start(&self, mut row: GameRow, variant: &Variant, lang: Lang) -> Outcome {
        if variant.definition().boards == 2 {
            return self.start_pair(row, variant, lang).await;
        }
        let now = self.now();
        let initial = row.time_control.initial();
        row.status = Status::Active;
        for seat in &mut row.seats {
            seat.remaining_ms = initial;
            seat.ready = false;
        }
        if row
            .seats
            .iter()
            .any(|s| crate::service::kernel::players::is_computer(&s.user_id))
        {
            // A computer seat (of a team game, named in the challenge): it
            // follows the game from its first delivery on.
            self.inner.thinking.plays(&row.id);
        }
        if variant.setup().is_some() {
            // Play starts once every seat has placed its army.
            return self.begin_setup(row, lang).await;
        }
        let start = if let Some(fen) = &row.from_fen {
            Start::Fen(fen.clone())
        } else if variant.is_chess960() {
            Start::Chess960(fastrand::u16(0..960))
        } else {
            Start::Standard
        };
        let game = Game::new(variant, start).map_err(|e| {
            tracing::error!(game = %row.id, error = %e, "cannot set up the start position");
            Msg::new("error-internal")
        })?;
        row.start_fen = Some(game.start_fen());
        row.turn_started_at = Some(now);
        row.deadline = initial.map(|t| now.saturating_add(t));
        crate::service::kernel::clocks::plan_reminder(&mut row, game.seat_to_move(), now);
        self.save(&mut row).await?;
        tracing::info!(game = %row.id, "game started");
        Ok(self.announce(&row, &game, Event::Started, lang).await)
    }

    /// `/decline [id]`: the challenged declines, or the challenger withdraws.
    pub(crate) async fn decline(&self, ctx: &Ctx, game: Option<String>) -> Outcome {
        let found = self.find_challenge(ctx, game, false).await?;
        let (_lock, row) = self.lock_fresh(&found, Status::Challenge).await?;
        let mut row =
            row.ok_or_else(|| Msg::new("error-challenge-gone").arg("id", found.id.clone()))?;
        row.status = Status::Declined;
        row.deadline = None;
        self.save(&mut row).await?;
        let key = if row.challenger_id == ctx.actor().id {
            "challenge-withdrawn"
        } else {
            "challenge-declined"
        };
        let lang = self.game_chat_lang(ctx, &row).await;
        let text = self.text(
            lang,
            &Msg::new(key)
                .arg("id", row.id.clone())
                .arg("player", ctx.actor().name.clone()),
        );
        Ok(vec![Delivery {
            notify: Vec::new(),
            target: Target::Chat(chat_of(&row)),
            text,
            image: None,
            buttons: Vec::new(),
            game: Some(self.game_ref(lang, &row, false)),
        }])
    }

    /// Marks an unanswered challenge expired (the caller holds its lock).
    pub(crate) async fn expire_challenge(&self, mut row: GameRow) -> Outcome {
        row.status = Status::Expired;
        row.deadline = None;
        self.save(&mut row).await?;
        let lang = self.chat_lang(&row.platform, &row.chat_id).await;
        let text = self.text(
            lang,
            &Msg::new("challenge-expired")
                .arg("id", row.id.clone())
                .arg("challenger", row.challenger_name.clone()),
        );
        Ok(vec![Delivery {
            notify: Vec::new(),
            target: Target::Chat(chat_of(&row)),
            text,
            image: None,
            buttons: Vec::new(),
            game: Some(self.game_ref(lang, &row, false)),
        }])
    }
}
