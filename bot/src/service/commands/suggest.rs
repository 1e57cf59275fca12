//! Suggestions while someone types a command's option (Discord's
//! autocomplete): the caller's legal moves, clocks, their games. Nothing is
//! changed or stored, and nothing is suggested that the caller may not see.

use crate::api::{Action, Request, Suggestion, SuggestionKind, SuggestionRequest, MAX_SUGGESTIONS};
use crate::clock::{suggested, TimeControl};
use crate::i18n::Lang;
use crate::service::kernel::lookup::Role;
use crate::service::kernel::{Ctx, Msg, Service};
use crate::service::present::san_in;
use crate::store::Status;
use kodex_engine::{Audience, Side, SquareView, View, Visibility};

/// The longest label or value a suggestion may have (Discord's 100).
const MAX_SUGGESTION_CHARS: usize = 100;

impl Service {
    /// Suggestions for `request`, best first, at most [`MAX_SUGGESTIONS`].
    pub(crate) async fn suggestions(&self, request: SuggestionRequest) -> Vec<Suggestion> {
        let typed = request.typed.trim().to_lowercase();
        let req = Request {
            chat: request.chat,
            private: request.private,
            actor: request.actor,
            locale: request.locale,
            chat_locale: None,
            action: Action::Games,
        };
        let lang = self.actor_lang(&req).await;
        let ctx = Ctx {
            req,
            lang,
            chat_lang: lang,
            open_games: std::sync::OnceLock::new(),
            // Suggestions follow every key typed: a half-typed id is no miss.
            quiet_lookups: true,
        };
        let mut found = match request.kind {
            SuggestionKind::Move { game } => self.suggest_moves(&ctx, game, &typed).await,
            SuggestionKind::Clock => self.suggest_clocks(lang, &typed),
            SuggestionKind::Game => self.suggest_games(&ctx, &typed).await,
        };
        found.retain(|suggestion| {
            let label = suggestion.label.chars().count();
            (1..=MAX_SUGGESTION_CHARS).contains(&label)
                && !suggestion.value.is_empty()
                && suggestion.value.chars().count() <= MAX_SUGGESTION_CHARS
        });
        found.truncate(MAX_SUGGESTIONS);
        found
    }

    /// The caller's moves in their game when it is their turn, as SAN in
    /// their language, starting with `typed`. In a hidden-information game
    /// only what the caller's own information decides: pseudo-legal moves
    /// between squares their view shows, SAN without check marks (either
    /// could tell of pieces in the fog); none in Kriegspiel, where a player
    /// sees no destination at all.
    async fn suggest_moves(&self, ctx: &Ctx, game: Option<String>, typed: &str) -> Vec<Suggestion> {
        let Ok(row) = self.find_game(ctx, game, Role::Player).await else {
            return Vec::new();
        };
        let (Some(seat), Ok(position)) = (row.seat_of(&ctx.actor().id), self.replay(&row)) else {
            return Vec::new();
        };
        let variant = position.variant();
        if row.status != Status::Active
            || position.controller(position.seat_to_move()) != seat
            || variant.visibility() == Visibility::OwnPiecesOnly
        {
            return Vec::new();
        }
        // In a hidden game, what the player's own information allows: the
        // pseudo-legal moves between squares their view shows; elsewhere
        // the legal moves.
        let view = variant.hidden_information().then(|| {
            let side = row.seat(seat).map_or(Side(seat as u8), |s| s.side);
            position.view(Audience::Side(side))
        });
        // Each move as people type it from square to square (the variant's
        // own file letters), and its SAN.
        let candidates: Vec<(String, String)> = match &view {
            Some(view) => position
                .pseudo_legal_moves()
                .into_iter()
                .filter(|(mv, _)| squares_seen(view, &position.uci(*mv)))
                .map(|(mv, san)| (position.coordinates(mv), san))
                .collect(),
            None => position
                .legal_moves()
                .into_iter()
                .map(|mv| (position.coordinates(mv), position.san(mv)))
                .collect(),
        };
        // In the caller's notation (their letters for the pieces).
        let notation = self
            .notation_of(ctx.platform(), &ctx.actor().id, ctx.lang)
            .await;
        let mut moves: Vec<Suggestion> = candidates
            .into_iter()
            .filter_map(|(coordinates, san)| {
                let label = san_in(notation, &position, &san);
                let wanted = typed.is_empty()
                    || [&san, &label, &coordinates]
                        .iter()
                        .any(|text| text.to_lowercase().starts_with(typed));
                // The move goes to the service from square to square, which
                // reads the same whatever the SAN's disambiguation.
                wanted.then_some(Suggestion {
                    label,
                    value: coordinates,
                })
            })
            .collect();
        moves.sort_by(|a, b| a.label.cmp(&b.label));
        moves.dedup_by(|a, b| a.value == b.value);
        moves
    }

    /// The suggested clocks matching `typed`, after what was typed itself
    /// when it is a clock of its own (`4+4`).
    fn suggest_clocks(&self, lang: Lang, typed: &str) -> Vec<Suggestion> {
        let mut clocks: Vec<Suggestion> = suggested()
            .into_iter()
            .map(|(code, preset)| {
                let label = match preset.and_then(preset_key) {
                    Some(key) => format!("{code} · {}", self.text(lang, &Msg::new(key))),
                    None => TimeControl::parse(&code)
                        .map_or_else(|_| code.clone(), |clock| self.clock_name(lang, clock)),
                };
                Suggestion { label, value: code }
            })
            .filter(|clock| {
                typed.is_empty()
                    || clock.value.starts_with(typed)
                    || clock.label.to_lowercase().contains(typed)
            })
            .collect();
        if let Ok(clock) = TimeControl::parse(typed) {
            let own = clock.code();
            if own != "-" && !clocks.iter().any(|clock| clock.value == own) {
                clocks.insert(
                    0,
                    Suggestion {
                        label: self.clock_name(lang, clock),
                        value: own,
                    },
                );
            }
        }
        clocks
    }

    /// The caller's challenges and games whose id or description has `typed`.
    async fn suggest_games(&self, ctx: &Ctx, typed: &str) -> Vec<Suggestion> {
        let Ok(rows) = self.open_games(ctx).await else {
            return Vec::new();
        };
        rows.iter()
            .map(|row| Suggestion {
                label: self
                    .describe(ctx.lang, row)
                    .chars()
                    .take(MAX_SUGGESTION_CHARS)
                    .collect(),
                value: row.id.clone(),
            })
            .filter(|game| {
                typed.is_empty()
                    || game.value.starts_with(typed)
                    || game.label.to_lowercase().contains(typed)
            })
            .collect()
    }
}

/// The catalogue key naming a clock preset of [`crate::clock::PRESETS`].
fn preset_key(name: &str) -> Option<&'static str> {
    Some(match name {
        "bullet" => "clock-preset-bullet",
        "blitz" => "clock-preset-blitz",
        "rapid" => "clock-preset-rapid",
        "classical" => "clock-preset-classical",
        _ => return None,
    })
}

/// Whether every square a move in UCI names (`e2e4`, `P@e4`, `a10a9`) is one
/// `view` shows, not fog.
fn squares_seen(view: &View, uci: &str) -> bool {
    let bytes = uci.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        let letter = bytes[at];
        let digits = bytes[at + 1..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        if letter.is_ascii_lowercase() && digits > 0 {
            // UCI names files by index (`a` is 0), whatever letters people read.
            let file = letter - b'a';
            let rank = uci[at + 1..at + 1 + digits]
                .parse::<u8>()
                .ok()
                .and_then(|rank| rank.checked_sub(1));
            match rank {
                Some(rank) if !matches!(view.at(file, rank), SquareView::Fog) => {}
                _ => return false,
            }
            at += 1 + digits;
        } else {
            at += 1;
        }
    }
    true
}
