//! Tournaments in a chat: `/tournament new|join|leave|pause|standings|
//! start|add computer|cancel|trf`, `/berserk` in an arena, and the rounds
//! that play themselves on.
//!
//! A tournament belongs to the chat it was announced in. It takes entries
//! (`/tournament join`, or the announcement's Join button) until it starts —
//! at the time it was given, or at once with `/tournament start` — then
//! pairs a round (a Swiss by the FIDE Dutch system, a round robin by the
//! Berger tables; `crate::tournament`), posts its pairings in one message,
//! and starts each game as an accepted challenge of that chat would start
//! (`Service::take_challenge`: the same clocks, ratings, and private boards
//! of hidden-information games). The games are ordinary stored games; when
//! the last game of a round ends, the next round is paired, and after the
//! last, the final standings with their tie-breaks (FIDE C.07) are posted.
//!
//! A player who makes no first move within the first-move time (at most
//! the clock's starting time) loses the game without it being played: a
//! forfeit, as FIDE scores it (the opponent's technical win). An aborted
//! game is the same forfeit for the side that did not move.
//!
//! A player absent in two rounds (a game lost without a move each) is
//! withdrawn; a Swiss or an arena takes them back, takes newcomers while
//! it pairs, and lets a player pause (not paired, no points, no forfeit).
//! The computer plays only when its creator (or a chat admin) adds it.
//!
//! A round is stored, its games' ids planned, before any of its games
//! starts (`Round::pending`), so a process that stops while starting them
//! leaves a round to finish, never one to pair again.
//!
//! Everything is stored (`store/tournaments.rs`): the tournament moves on
//! when one of its games ends (`Service::tournament_news`, which every
//! request's answer and every deadline passes through), when its own time
//! comes (`next_at`: the start, a first-move time), and once after a
//! restart, so a round in progress continues where it was.

use crate::api::{
    Action, Button, ButtonAction, ChatRef, Delivery, Image, Platform, Request, Target,
    TournamentCommand, UserRef,
};
use crate::clock::TimeControl;
use crate::i18n::Lang;
use crate::service::kernel::ids::new_game_id;
use crate::service::kernel::players::{for_computer, is_computer};
use crate::service::kernel::terms::{is_team_variant, rated_choice, ColorChoice};
use crate::service::kernel::{Ctx, Failure, Msg, Outcome, Service};
use crate::store::{
    Board, BoardResult, Entrant, Entry, GameResult, GameRow, Round, Status, TournamentFormat,
    TournamentRow, TournamentState, TournamentStatus,
};
use crate::time::Millis;
use crate::tournament::arena;
use crate::tournament::knockout::{self, Bracket, GameOutcome, KnockoutError, MatchRules};
use crate::tournament::tiebreak::{self, TieBreak};
use crate::tournament::{
    berger, swiss, trf, Colour, Pairing, PlayerNumber, RoundPairing, RoundRecord, RoundResult,
};
use kodex_engine::Team;
use std::collections::HashMap;

/// Minutes from the announcement to the start when none are given.
const DEFAULT_START_IN: u32 = 10;
/// The latest start one may ask for: a week.
const MAX_START_IN: u32 = 7 * 24 * 60;
/// An arena's minutes when none are given.
const DEFAULT_ARENA_MINUTES: u32 = 30;
/// The longest arena, in minutes.
const MAX_ARENA_MINUTES: u32 = 24 * 60;
/// The most games a knockout match may have (before its tie-break).
const MAX_MATCH_GAMES: u32 = 7;
/// A Swiss's rounds when none are given.
const DEFAULT_SWISS_ROUNDS: u32 = 5;
/// The most rounds a Swiss may have.
const MAX_SWISS_ROUNDS: u32 = 15;
/// The fewest players a tournament starts with.
const MIN_PLAYERS: usize = 2;
/// The standings lines one message shows.
const STANDINGS_SHOWN: usize = 30;
/// The rounds a player may be absent in (lose a game without moving)
/// before they are withdrawn.
const ABSENCES_TO_WITHDRAW: u32 = 2;

/// The format a typed word names.
fn format_of(word: &str) -> Option<TournamentFormat> {
    Some(match word {
        "swiss" | "швейцарка" | "швейцарский" | "швейцарская" => {
            TournamentFormat::Swiss
        }
        "roundrobin" | "round-robin" | "robin" | "rr" | "круговой" | "круговая" => {
            TournamentFormat::RoundRobin
        }
        "double" | "doubleroundrobin" | "drr" | "двухкруговой" | "двухкруговая" => {
            TournamentFormat::DoubleRoundRobin
        }
        "knockout" | "ko" | "cup" | "нокаут" | "олимпийка" | "кубок" => {
            TournamentFormat::Knockout
        }
        "arena" | "арена" => TournamentFormat::Arena,
        _ => return None,
    })
}

/// The catalogue key of a format's name.
/// The number `asked` (or `default`), refused with `refusal` (naming
/// `max`) outside 1 to `max`.
fn within(
    asked: Option<u32>,
    default: u32,
    max: u32,
    refusal: &'static str,
) -> Result<u32, Failure> {
    let value = asked.unwrap_or(default);
    if !(1..=max).contains(&value) {
        return Err(Msg::new(refusal).arg("max", i64::from(max)).into());
    }
    Ok(value)
}

fn format_key(format: TournamentFormat) -> &'static str {
    match format {
        TournamentFormat::Swiss => "tournament-format-swiss",
        TournamentFormat::RoundRobin => "tournament-format-round-robin",
        TournamentFormat::DoubleRoundRobin => "tournament-format-double-round-robin",
        TournamentFormat::Knockout => "tournament-format-knockout",
        TournamentFormat::Arena => "tournament-format-arena",
    }
}

/// The tie-breaks a format's standings use, in order.
fn tiebreaks_of(format: TournamentFormat) -> &'static [TieBreak] {
    match format {
        TournamentFormat::Swiss => &tiebreak::SWISS_ORDER,
        TournamentFormat::RoundRobin
        | TournamentFormat::DoubleRoundRobin
        | TournamentFormat::Knockout
        | TournamentFormat::Arena => &[
            TieBreak::DirectEncounter,
            TieBreak::SonnebornBerger,
            TieBreak::Wins,
        ],
    }
}

/// The short label of a tie-break in the standings.
fn tiebreak_key(tiebreak: TieBreak) -> &'static str {
    match tiebreak {
        TieBreak::Buchholz => "tournament-tb-buchholz",
        TieBreak::BuchholzCut1 => "tournament-tb-buchholz-cut1",
        TieBreak::SonnebornBerger => "tournament-tb-sonneborn-berger",
        TieBreak::DirectEncounter => "tournament-tb-direct",
        TieBreak::Wins => "tournament-tb-wins",
    }
}

/// A score in points as standings show it (`2`, `2.5`).
fn points_text(points: f64) -> String {
    if points.fract() == 0.0 {
        format!("{points:.0}")
    } else {
        format!("{points}")
    }
}

/// What a board's result was for white and for black, as a Swiss table
/// records it.
fn round_results(result: BoardResult) -> (RoundResult, RoundResult) {
    match result {
        BoardResult::WhiteWins => (RoundResult::Win, RoundResult::Loss),
        BoardResult::BlackWins => (RoundResult::Loss, RoundResult::Win),
        BoardResult::Draw => (RoundResult::Draw, RoundResult::Draw),
        BoardResult::WhiteForfeits => (RoundResult::ForfeitLoss, RoundResult::ForfeitWin),
        BoardResult::BlackForfeits => (RoundResult::ForfeitWin, RoundResult::ForfeitLoss),
    }
}

/// The score of a board as written in the pairings (`1–0`, `½–½`, `+–−`).
fn board_score(result: BoardResult) -> &'static str {
    match result {
        BoardResult::WhiteWins => "1–0",
        BoardResult::BlackWins => "0–1",
        BoardResult::Draw => "½–½",
        BoardResult::WhiteForfeits => "−–+",
        BoardResult::BlackForfeits => "+–−",
    }
}

/// How many moves the players of a two-player game have made.
fn moves_made(row: &GameRow) -> usize {
    row.moves
        .entries()
        .filter(|entry| matches!(entry, Entry::Move(_)))
        .count()
}

/// The result a game that is over means for its board: a loss by the side
/// that never moved (no first move in time, an abort) is a forfeit.
fn board_result(row: &GameRow) -> BoardResult {
    let made = moves_made(row);
    let white_moved = made >= 1;
    let black_moved = made >= 2;
    match (&row.status, &row.result) {
        (Status::Aborted, _) => {
            if white_moved {
                BoardResult::BlackForfeits
            } else {
                BoardResult::WhiteForfeits
            }
        }
        (_, Some(GameResult::Win { team })) if *team == Team(0) => {
            if black_moved {
                BoardResult::WhiteWins
            } else {
                BoardResult::BlackForfeits
            }
        }
        (_, Some(GameResult::Win { .. })) => {
            if white_moved {
                BoardResult::BlackWins
            } else {
                BoardResult::WhiteForfeits
            }
        }
        _ => BoardResult::Draw,
    }
}

/// The players as the Swiss pairing and the tie-breaks see them, after the
/// rounds of `state` whose every board is decided.
fn swiss_players(state: &TournamentState) -> Vec<swiss::SwissPlayer> {
    let decided: Vec<&Round> = state
        .played
        .iter()
        .filter(|round| round.boards.iter().all(|board| board.result.is_some()))
        .collect();
    let bye_result = match state.format {
        TournamentFormat::Swiss => RoundResult::PairingBye,
        // Everyone sits out once in an odd round robin: for nothing.
        _ => RoundResult::ZeroPointBye,
    };
    state
        .players
        .iter()
        .enumerate()
        .map(|(index, entrant)| {
            let number = index as PlayerNumber + 1;
            let history = decided
                .iter()
                .map(|round| {
                    if round.bye == Some(number) {
                        return RoundRecord::without_opponent(bye_result);
                    }
                    for board in &round.boards {
                        let Some(result) = board.result else { continue };
                        let (white, black) = round_results(result);
                        if board.white == number {
                            return RoundRecord::game(board.black, Colour::White, white);
                        }
                        if board.black == number {
                            return RoundRecord::game(board.white, Colour::Black, black);
                        }
                    }
                    RoundRecord::without_opponent(RoundResult::ZeroPointBye)
                })
                .collect();
            swiss::SwissPlayer {
                number,
                rating: entrant.rating,
                history,
                present: entrant.pairable(),
            }
        })
        .collect()
}

/// The TRF file of a tournament: its rounds decided so far.
pub(crate) fn trf_text(id: &str, state: &TournamentState) -> String {
    let players = swiss_players(state);
    let tournament = trf::Tournament {
        name: format!("Kodex {id}"),
        total_rounds: Some(state.rounds),
        initial_colour: Some(if state.initial_white {
            Colour::White
        } else {
            Colour::Black
        }),
        players: players
            .iter()
            .zip(&state.players)
            .map(|(player, entrant)| trf::Player::from_swiss(player, &entrant.name))
            .collect(),
    };
    trf::write(&tournament)
}

/// The terms of `/tournament new` after its format and variant.
struct NewTerms {
    clock: Option<String>,
    rounds: Option<u32>,
    start_in: Option<u32>,
    start_at: Option<Option<(u32, u32)>>,
    rated: Option<bool>,
    armageddon: bool,
}

/// The next round a format pairs: its games, the header of its message,
/// and (a knockout's first round) the players who go through without a game.
struct Next {
    pairing: RoundPairing,
    header: Msg,
    advancing: Vec<PlayerNumber>,
}

/// Where a knockout stands.
enum KnockoutNext {
    /// The next game of every match still undecided: bracket round `round`
    /// (from 1), game `game` of its matches.
    Wave {
        round: usize,
        game: usize,
        pairings: Vec<Pairing>,
        advancing: Vec<PlayerNumber>,
    },
    /// The final is won.
    Champion,
}

/// The rules of a knockout's matches.
fn match_rules(state: &TournamentState) -> MatchRules {
    MatchRules {
        games: state.match_games.max(1),
        tiebreak: if state.armageddon {
            knockout::TieBreakGame::Armageddon
        } else {
            knockout::TieBreakGame::Decisive
        },
    }
}

/// The bracket of a knockout after its decided rounds (seeded by pairing
/// number), each match's winner recorded once its games decide it.
fn knockout_bracket(state: &TournamentState) -> Result<Bracket, KnockoutError> {
    let (bracket, _) = knockout_with_results(state)?;
    Ok(bracket)
}

/// Each knockout match's games so far, by its two pairing numbers (higher
/// seed first), from the higher seed's side.
type MatchGames = HashMap<(u32, u32), Vec<GameOutcome>>;

/// [`knockout_bracket`], with each match's games so far (by its two
/// pairing numbers, higher seed first).
fn knockout_with_results(state: &TournamentState) -> Result<(Bracket, MatchGames), KnockoutError> {
    let mut bracket = Bracket::seeded(state.players.len() as u32)?;
    let mut results = MatchGames::new();
    for round in &state.played {
        for board in &round.boards {
            let Some(result) = board.result else { continue };
            let higher = board.white.min(board.black);
            let (white, _) = round_results(result);
            let white_scored = white.half_points();
            let outcome = match (white_scored, board.white == higher) {
                (1, _) => GameOutcome::Draw,
                (2, true) | (0, false) => GameOutcome::HigherWins,
                _ => GameOutcome::LowerWins,
            };
            results
                .entry((higher, board.white.max(board.black)))
                .or_default()
                .push(outcome);
        }
    }
    let rules = match_rules(state);
    // Record each decided match; a record may open the next bracket round.
    'record: loop {
        let current = bracket.current_round().to_vec();
        for (index, found) in current.iter().enumerate() {
            let (None, Some(lower)) = (found.winner, found.lower) else {
                continue;
            };
            let games = results
                .get(&(found.higher, lower))
                .cloned()
                .unwrap_or_default();
            if let knockout::MatchState::Won { by_higher } = knockout::match_state(&rules, &games)?
            {
                let winner = if by_higher { found.higher } else { lower };
                bracket.record(index, winner)?;
                continue 'record;
            }
        }
        return Ok((bracket, results));
    }
}

/// The next wave of a knockout's games, or its champion.
fn knockout_next(state: &TournamentState) -> Result<KnockoutNext, KnockoutError> {
    let (bracket, results) = knockout_with_results(state)?;
    if bracket.champion().is_some() {
        return Ok(KnockoutNext::Champion);
    }
    let rules = match_rules(state);
    let round = bracket.rounds().len();
    let (mut game, mut pairings) = (1, Vec::new());
    for found in bracket.current_round() {
        let (None, Some(lower)) = (found.winner, found.lower) else {
            continue;
        };
        let games = results
            .get(&(found.higher, lower))
            .cloned()
            .unwrap_or_default();
        if let knockout::MatchState::Next {
            number,
            higher_colour,
            ..
        } = knockout::match_state(&rules, &games)?
        {
            game = number;
            pairings.push(match higher_colour {
                Colour::White => Pairing {
                    white: found.higher,
                    black: lower,
                },
                Colour::Black => Pairing {
                    white: lower,
                    black: found.higher,
                },
            });
        }
    }
    let advancing = if state.played.is_empty() {
        bracket.rounds()[0]
            .iter()
            .filter(|found| found.lower.is_none())
            .map(|found| found.higher)
            .collect()
    } else {
        Vec::new()
    };
    Ok(KnockoutNext::Wave {
        round,
        game,
        pairings,
        advancing,
    })
}

/// A knockout's places so far: the champion first, then the losers of
/// each bracket round from the final down (the two semi-final losers
/// share third place); the players still in are not placed.
fn knockout_places(state: &TournamentState) -> Vec<(u32, Vec<PlayerNumber>)> {
    let Ok(bracket) = knockout_bracket(state) else {
        return Vec::new();
    };
    let mut places = Vec::new();
    if let Some(champion) = bracket.champion() {
        places.push((1, vec![champion]));
    }
    let total = state.rounds.max(1) as usize;
    for (index, round) in bracket.rounds().iter().enumerate().rev() {
        let mut losers: Vec<PlayerNumber> = round
            .iter()
            .filter_map(|found| {
                let winner = found.winner?;
                let lower = found.lower?;
                Some(if winner == found.higher {
                    lower
                } else {
                    found.higher
                })
            })
            .collect();
        losers.sort_unstable();
        if !losers.is_empty() {
            let above = total.saturating_sub(index + 1).min(30);
            places.push(((1u32 << above) + 1, losers));
        }
    }
    places
}

/// The winners of a finished tournament: a knockout's champion, else
/// whoever shares first place.
fn winners(state: &TournamentState) -> Vec<PlayerNumber> {
    if state.format == TournamentFormat::Arena {
        return arena_standings(state)
            .into_iter()
            .filter(|row| row.0 == 1 && row.2 > 0)
            .map(|row| row.1)
            .collect();
    }
    if state.format == TournamentFormat::Knockout {
        return knockout_bracket(state)
            .ok()
            .and_then(|bracket| bracket.champion())
            .into_iter()
            .collect();
    }
    tiebreak::standings(&swiss_players(state), tiebreaks_of(state.format))
        .map(|table| {
            table
                .iter()
                .filter(|s| s.place == 1)
                .map(|s| s.player)
                .collect()
        })
        .unwrap_or_default()
}

/// The boards of every round whose result is not known yet: the games under way.
fn undecided(state: &TournamentState) -> impl Iterator<Item = &Board> {
    state
        .played
        .iter()
        .flat_map(|round| &round.boards)
        .filter(|board| board.result.is_none())
}

/// What each arena player has (by pairing number less one): their score
/// and streak, their last opponent, and whites minus blacks.
fn arena_scores(state: &TournamentState) -> Vec<(arena::Score, Option<PlayerNumber>, i32)> {
    let mut scores = vec![(arena::Score::default(), None, 0); state.players.len()];
    for board in state.played.iter().flat_map(|round| &round.boards) {
        let Some(result) = board.result else { continue };
        let (white, black) = round_results(result);
        for (player, opponent, got, colour) in [
            (board.white, board.black, white, 1),
            (board.black, board.white, black, -1),
        ] {
            let Some(entry) = scores.get_mut(player as usize - 1) else {
                continue;
            };
            let outcome = match got.half_points() {
                2 => arena::Outcome::Win,
                1 => arena::Outcome::Draw,
                _ => arena::Outcome::Loss,
            };
            // A player's own moves: white makes the odd plies.
            let (berserked, moves) = if colour == 1 {
                (board.white_berserk, board.plies.div_ceil(2))
            } else {
                (board.black_berserk, board.plies / 2)
            };
            entry.0.record(arena::GameEnd {
                outcome,
                berserked,
                moves,
            });
            entry.1 = Some(opponent);
            if got.played() {
                entry.2 += colour;
            }
        }
    }
    scores
}

/// An arena's standings: (place, pairing number, points, on fire), by
/// points, then rating at the start (the pairing number); equal points
/// share a place.
fn arena_standings(state: &TournamentState) -> Vec<(u32, PlayerNumber, u32, bool)> {
    let scores = arena_scores(state);
    let mut rows: Vec<(PlayerNumber, u32, bool)> = scores
        .iter()
        .enumerate()
        .map(|(index, (score, _, _))| (index as PlayerNumber + 1, score.points, score.on_fire()))
        .collect();
    rows.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut placed: Vec<(u32, PlayerNumber, u32, bool)> = Vec::with_capacity(rows.len());
    for (position, (player, points, fire)) in rows.into_iter().enumerate() {
        let place = match placed.last() {
            Some(previous) if previous.2 == points => previous.0,
            _ => position as u32 + 1,
        };
        placed.push((place, player, points, fire));
    }
    placed
}

/// The first moment after `now` (milliseconds since 1970, UTC) at which a
/// UTC clock reads `hours`:`minutes`: today, or else tomorrow.
fn next_time_of_day(now: Millis, hours: u32, minutes: u32) -> Millis {
    const DAY: Millis = 24 * 60 * 60_000;
    let midnight = now - now.rem_euclid(DAY);
    let at = midnight + Millis::from(hours) * 60 * 60_000 + Millis::from(minutes) * 60_000;
    if at > now {
        at
    } else {
        at + DAY
    }
}

/// Whether a format takes players once under way (a Swiss from its next
/// round, an arena at once) and lets them sit out and come back.
fn takes_late_entries(format: TournamentFormat) -> bool {
    matches!(format, TournamentFormat::Swiss | TournamentFormat::Arena)
}

/// The boards of `pairings` in `row`, each game's id drawn now (a board
/// with a withdrawn player is decided without a game: a round robin
/// pairs everyone).
fn plan_boards(row: &TournamentRow, pairings: &[Pairing]) -> Outcome<Vec<Board>> {
    let mut boards = Vec::new();
    for game in pairings {
        let (Some(white), Some(black)) = (
            row.state.players.get(game.white as usize - 1),
            row.state.players.get(game.black as usize - 1),
        ) else {
            continue;
        };
        let forfeit = match (white.withdrawn, black.withdrawn) {
            (true, _) => Some(BoardResult::WhiteForfeits),
            (false, true) => Some(BoardResult::BlackForfeits),
            _ => None,
        };
        let id = match forfeit {
            Some(_) => String::new(),
            None => new_game_id().ok_or_else(|| Msg::new("error-internal"))?,
        };
        boards.push(Board::new(game.white, game.black, id, forfeit));
    }
    Ok(boards)
}

/// A request of tournament player `entrant` in `chat`: the context their
/// game's challenge and its acceptance are made in.
fn tournament_request(chat: &ChatRef, platform: &str, entrant: &Entrant) -> Request {
    Request {
        chat: chat.clone(),
        private: false,
        actor: user_of(platform, entrant),
        locale: None,
        chat_locale: None,
        action: Action::Games,
    }
}

/// A chat of `platform`.
fn chat_ref(platform: &str, id: &str) -> ChatRef {
    ChatRef {
        platform: Platform::from_key(platform).unwrap_or(Platform::Console),
        id: id.to_owned(),
    }
}

/// An entrant as a user to ping.
fn user_of(platform: &str, entrant: &Entrant) -> UserRef {
    UserRef {
        platform: Platform::from_key(platform).unwrap_or(Platform::Console),
        id: entrant.user_id.clone(),
        name: entrant.name.clone(),
        handle: None,
    }
}

impl Service {
    /// `/tournament …`.
    pub(crate) async fn tournament(
        &self,
        ctx: &Ctx,
        command: TournamentCommand,
        chat_admin: bool,
    ) -> Outcome {
        match command {
            TournamentCommand::New {
                format,
                variant,
                clock,
                rounds,
                start_in,
                start_at,
                rated,
                armageddon,
            } => {
                let terms = NewTerms {
                    clock,
                    rounds,
                    start_in,
                    start_at,
                    rated,
                    armageddon,
                };
                self.tournament_new(ctx, &format, &variant, terms).await
            }
            TournamentCommand::Join { id } => self.tournament_join(ctx, id).await,
            TournamentCommand::Leave { id } => self.tournament_leave(ctx, id).await,
            TournamentCommand::Standings { id } => self.tournament_standings(ctx, id).await,
            TournamentCommand::Cancel { id } => self.tournament_cancel(ctx, id, chat_admin).await,
            TournamentCommand::Start { id } => self.tournament_start(ctx, id, chat_admin).await,
            TournamentCommand::Trf { id } => self.tournament_trf(ctx, id).await,
            TournamentCommand::Pause { id } => self.tournament_pause(ctx, id).await,
            TournamentCommand::AddComputer { level, id } => {
                self.tournament_add_computer(ctx, level, id, chat_admin)
                    .await
            }
            TournamentCommand::Usage => Err(Msg::new("tournament-usage").into()),
        }
    }

    /// `/tournament new <format> <variant> <clock> [rounds] [in <minutes>]
    /// [rated|casual]`: announces it in the chat with a Join button.
    async fn tournament_new(
        &self,
        ctx: &Ctx,
        format: &str,
        variant: &str,
        terms: NewTerms,
    ) -> Outcome {
        let NewTerms {
            clock,
            rounds: asked,
            start_in,
            start_at,
            rated,
            armageddon,
        } = terms;
        if ctx.req.private {
            return Err(Msg::new("tournament-in-private").into());
        }
        let format = format_of(format).ok_or_else(|| {
            Msg::new("tournament-unknown-format")
                .arg("format", format.chars().take(32).collect::<String>())
        })?;
        if variant.trim().is_empty() {
            return Err(Msg::new("tournament-usage").into());
        }
        let variant = self.known_variant(variant)?;
        if is_team_variant(&variant) || variant.definition().boards > 1 {
            return Err(Msg::new("tournament-two-players-only").into());
        }
        let Some(clock_text) = clock else {
            return Err(Msg::new("tournament-needs-clock").into());
        };
        let time_control = TimeControl::parse(&clock_text).map_err(|_| {
            Msg::new("error-bad-clock")
                .arg("clock", clock_text.chars().take(32).collect::<String>())
        })?;
        if time_control == TimeControl::Unlimited {
            return Err(Msg::new("tournament-needs-clock").into());
        }
        let rated = rated_choice(Some(rated.unwrap_or(false)), false, false, time_control)?;
        let rounds = match format {
            TournamentFormat::Swiss => within(
                asked,
                DEFAULT_SWISS_ROUNDS,
                MAX_SWISS_ROUNDS,
                "tournament-bad-rounds",
            )?,
            TournamentFormat::Arena => within(
                asked,
                DEFAULT_ARENA_MINUTES,
                MAX_ARENA_MINUTES,
                "tournament-bad-arena",
            )?,
            // Set at the start, from the number of players.
            _ => 0,
        };
        let match_games = match format {
            TournamentFormat::Knockout => {
                within(asked, 1, MAX_MATCH_GAMES, "tournament-bad-match")?
            }
            _ => 0,
        };
        let now = self.now();
        let (starts_at, at) = match start_at {
            Some(None) => return Err(Msg::new("tournament-bad-time").into()),
            Some(Some((hours, minutes))) => (
                next_time_of_day(now, hours, minutes),
                Some(format!("{hours:02}:{minutes:02}")),
            ),
            None => {
                let start_in = start_in.unwrap_or(DEFAULT_START_IN);
                if start_in > MAX_START_IN {
                    return Err(Msg::new("tournament-bad-start")
                        .arg("max", i64::from(MAX_START_IN))
                        .into());
                }
                (now.saturating_add(Millis::from(start_in) * 60_000), None)
            }
        };
        // Whole minutes to the start, rounded up.
        let start_in = (starts_at - now + 59_999) / 60_000;
        let store = &self.inner.store;
        let live = store
            .live_tournaments_in(ctx.platform(), &ctx.req.chat.id)
            .await?;
        let max = self.inner.settings.max_tournaments;
        if live.len() >= max {
            return Err(Msg::new("tournament-too-many")
                .arg("max", max as i64)
                .into());
        }
        let mut row = TournamentRow {
            platform: ctx.platform().to_owned(),
            id: String::new(),
            chat_id: ctx.req.chat.id.clone(),
            status: TournamentStatus::Open,
            state: TournamentState {
                format,
                variant: variant.id().to_owned(),
                clock: time_control.code(),
                rounds,
                rated,
                creator_id: ctx.actor().id.clone(),
                creator_name: ctx.actor().name.clone(),
                starts_at,
                initial_white: true,
                players: Vec::new(),
                played: Vec::new(),
                match_games,
                armageddon: armageddon && format == TournamentFormat::Knockout,
                ends_at: 0,
            },
            version: 0,
            next_at: Some(starts_at),
            created_at: now,
        };
        let mut stored = false;
        for _ in 0..4 {
            let Some(id) = new_game_id() else {
                return Err(Msg::new("error-internal").into());
            };
            row.id = id;
            if store.insert_tournament(&row).await? {
                stored = true;
                break;
            }
        }
        if !stored {
            return Err(Msg::new("error-internal").into());
        }
        self.inner.wake.notify_one();
        tracing::info!(tournament = %row.id, variant = %row.state.variant, "tournament announced");
        let lang = ctx.chat_lang;
        let mut text = self.text(
            lang,
            &self
                .tournament_terms(lang, &row, Msg::new("tournament-announced"))
                .arg("creator", ctx.actor().name.clone())
                .arg("minutes", start_in),
        );
        if let Some(at) = at {
            let line = self.text(
                lang,
                &Msg::new("tournament-starts-at")
                    .arg("time", at)
                    .arg("minutes", start_in),
            );
            text = format!("{text}\n{line}");
        }
        Ok(vec![Delivery {
            notify: Vec::new(),
            target: Target::Chat(ctx.req.chat.clone()),
            text,
            image: None,
            buttons: vec![self.join_button(lang, &row.id)],
            game: None,
        }])
    }

    /// `msg` with the terms of tournament `row`: id, format, variant,
    /// clock, rounds and whether it is rated.
    fn tournament_terms(&self, lang: Lang, row: &TournamentRow, msg: Msg) -> Msg {
        let state = &row.state;
        let clock = TimeControl::parse(&state.clock).unwrap_or(TimeControl::Unlimited);
        msg.arg("id", row.id.clone())
            .arg(
                "format",
                self.text(lang, &Msg::new(format_key(state.format))),
            )
            .arg("variant", self.variant_name(lang, &state.variant))
            .arg("clock", self.clock_name(lang, clock))
            .arg("rounds", self.rounds_text(lang, state))
            .arg("rated", if state.rated { "yes" } else { "no" })
    }

    /// How many rounds (a round robin before its start: everyone plays everyone).
    fn rounds_text(&self, lang: Lang, state: &TournamentState) -> String {
        if state.format == TournamentFormat::Arena {
            self.text(
                lang,
                &Msg::new("tournament-arena-terms").arg("minutes", i64::from(state.rounds)),
            )
        } else if state.format == TournamentFormat::Knockout {
            self.text(
                lang,
                &Msg::new("tournament-knockout-terms")
                    .arg("count", i64::from(state.match_games.max(1)))
                    .arg("armageddon", if state.armageddon { "yes" } else { "no" }),
            )
        } else if state.rounds == 0 {
            self.text(lang, &Msg::new("tournament-rounds-robin"))
        } else {
            self.text(
                lang,
                &Msg::new("tournament-rounds").arg("count", i64::from(state.rounds)),
            )
        }
    }

    /// The Join button of tournament `id`.
    fn join_button(&self, lang: Lang, id: &str) -> Button {
        Button::new(
            self.text(lang, &Msg::new("button-tournament-join")),
            &ButtonAction::TournamentJoin { id: id.to_owned() },
        )
    }

    /// The tournament a command of this chat means: the one named (of this
    /// chat), else the chat's only live one; with `any_status`, else its
    /// latest.
    async fn find_tournament(
        &self,
        ctx: &Ctx,
        id: Option<String>,
        any_status: bool,
    ) -> Outcome<TournamentRow> {
        let store = &self.inner.store;
        let here = &ctx.req.chat.id;
        if let Some(id) = id {
            return store
                .tournament(ctx.platform(), &id)
                .await?
                .filter(|row| row.chat_id == *here)
                .ok_or_else(|| {
                    Msg::new("tournament-unknown")
                        .arg("id", id.chars().take(32).collect::<String>())
                        .into()
                });
        }
        let mut live = store.live_tournaments_in(ctx.platform(), here).await?;
        match live.len() {
            1 => Ok(live.remove(0)),
            0 if any_status => store
                .latest_tournament_in(ctx.platform(), here)
                .await?
                .ok_or_else(|| Msg::new("tournament-none").into()),
            0 => Err(Msg::new("tournament-none").into()),
            _ => Err(Msg::new("tournament-which")
                .arg(
                    "ids",
                    live.iter()
                        .map(|row| row.id.clone())
                        .collect::<Vec<_>>()
                        .join(", "),
                )
                .into()),
        }
    }

    /// A public message about tournament `row` in its chat.
    fn tournament_message(&self, row: &TournamentRow, text: String) -> Delivery {
        Delivery {
            notify: Vec::new(),
            target: Target::Chat(chat_ref(&row.platform, &row.chat_id)),
            text,
            image: None,
            buttons: Vec::new(),
            game: None,
        }
    }

    /// Saves `row` under its version check, waking the scheduler.
    async fn save_tournament(&self, row: &mut TournamentRow) -> Outcome<()> {
        if self.inner.store.save_tournament(row).await? {
            self.inner.wake.notify_one();
            Ok(())
        } else {
            Err(Failure::Conflict)
        }
    }

    /// `user`'s rating in `variant` now, rounded (a new player's 1500).
    async fn rating_for_pairing(&self, platform: &str, user: &str, variant: &str) -> Outcome<u32> {
        let row = self.inner.store.rating_of(platform, user, variant).await?;
        let rating = row.map_or_else(crate::rating::Rating::default, |row| {
            row.current(self.now())
        });
        Ok(rating.rating.round().clamp(0.0, 9999.0) as u32)
    }

    /// `/tournament join` (or the Join button): enters the actor. Once a
    /// Swiss or an arena is under way it still takes newcomers (a Swiss
    /// from its next round, with no points for the rounds before, as FIDE
    /// allows; an arena at once), and brings back a player who paused or
    /// was withdrawn.
    pub(crate) async fn tournament_join(&self, ctx: &Ctx, id: Option<String>) -> Outcome {
        if ctx.req.private {
            return Err(Msg::new("tournament-in-private").into());
        }
        let _guard = self.inner.tournaments.lock().await;
        let mut row = self.find_tournament(ctx, id, false).await?;
        let running = row.status == TournamentStatus::Running;
        let late = running && takes_late_entries(row.state.format);
        if row.status != TournamentStatus::Open && !late {
            return Err(Msg::new("tournament-not-open")
                .arg("id", row.id.clone())
                .into());
        }
        let actor = ctx.actor();
        if let Some(entrant) = row.state.players.iter_mut().find(|p| p.user_id == actor.id) {
            if !running || entrant.pairable() {
                return Err(Msg::new("tournament-already-in")
                    .arg("id", row.id.clone())
                    .into());
            }
            // Back from a pause or a withdrawal: paired from the next round on.
            entrant.paused = false;
            entrant.withdrawn = false;
            entrant.absences = 0;
            return self.late_entry(ctx, row, "tournament-back").await;
        }
        if late && !self.pairs_again(&row) {
            return Err(Msg::new("tournament-too-late")
                .arg("id", row.id.clone())
                .into());
        }
        self.add_entrant(&mut row, actor).await?;
        if late {
            return self.late_entry(ctx, row, "tournament-joined-late").await;
        }
        self.save_tournament(&mut row).await?;
        let text = self.text(
            ctx.chat_lang,
            &Msg::new("tournament-joined")
                .arg("player", actor.name.clone())
                .arg("id", row.id.clone())
                .arg("count", row.state.players.len() as i64),
        );
        Ok(vec![self.tournament_message(&row, text)])
    }

    /// Enters `user` in `row` (not saved) with their rating now, unless
    /// it is full.
    async fn add_entrant(&self, row: &mut TournamentRow, user: &UserRef) -> Outcome<()> {
        let max = self.inner.settings.max_tournament_players;
        if row.state.players.len() >= max {
            return Err(Msg::new("tournament-full").arg("max", max as i64).into());
        }
        let rating = self
            .rating_for_pairing(&row.platform, &user.id, &row.state.variant)
            .await?;
        row.state
            .players
            .push(Entrant::new(&user.id, &user.name, rating));
        Ok(())
    }

    /// Whether running tournament `row` pairs anyone again: a Swiss before
    /// its last round is paired, an arena before its end.
    fn pairs_again(&self, row: &TournamentRow) -> bool {
        match row.state.format {
            TournamentFormat::Arena => self.now() < row.state.ends_at,
            _ => (row.state.played.len() as u32) < row.state.rounds,
        }
    }

    /// The actor (re)entered running tournament `row` (its lock held):
    /// saved and announced with `key`; an arena pairs them at once if
    /// someone is free.
    async fn late_entry(&self, ctx: &Ctx, mut row: TournamentRow, key: &'static str) -> Outcome {
        let lang = ctx.chat_lang;
        let text = self.text(
            lang,
            &Msg::new(key)
                .arg("player", ctx.actor().name.clone())
                .arg("id", row.id.clone())
                .arg("round", row.state.played.len() as i64 + 1)
                .arg(
                    "arena",
                    if row.state.format == TournamentFormat::Arena {
                        "yes"
                    } else {
                        "no"
                    },
                ),
        );
        let mut deliveries = vec![self.tournament_message(&row, text)];
        if row.state.format == TournamentFormat::Arena {
            deliveries.extend(self.settle_arena(&mut row, lang).await?);
        }
        self.save_tournament(&mut row).await?;
        Ok(deliveries)
    }

    /// `/berserk [game]`: in an arena game the actor has not moved in yet,
    /// their own clock is halved (`arena::berserk_time`); a win after it is
    /// worth a point more (`arena::Score`). Told to the chat.
    pub(crate) async fn berserk(&self, ctx: &Ctx, game: Option<String>) -> Outcome {
        let actor = ctx.actor();
        let mut arena_game = None;
        for found in self.open_games(ctx).await? {
            if found.status != Status::Active || game.as_ref().is_some_and(|id| *id != found.id) {
                continue;
            }
            let Some(tournament) = self
                .inner
                .store
                .tournament_of_game(ctx.platform(), &found.id)
                .await?
            else {
                continue;
            };
            arena_game = Some((found, tournament));
            break;
        }
        let Some((found, tournament)) = arena_game else {
            return Err(Msg::new("tournament-berserk-no-game").into());
        };
        let _guard = self.inner.tournaments.lock().await;
        let Some(mut row) = self
            .inner
            .store
            .tournament(ctx.platform(), &tournament)
            .await?
            .filter(|row| row.state.format == TournamentFormat::Arena)
        else {
            return Err(Msg::new("tournament-berserk-no-game").into());
        };
        let Some(seat) = found.seats.iter().position(|s| s.user_id == actor.id) else {
            return Err(Msg::new("tournament-berserk-no-game").into());
        };
        let Some(board) = row
            .state
            .played
            .iter_mut()
            .flat_map(|round| &mut round.boards)
            .find(|board| board.game == found.id && board.result.is_none())
        else {
            return Err(Msg::new("tournament-berserk-no-game").into());
        };
        let (_lock, fresh) = self.lock_fresh(&found, Status::Active).await?;
        let Some(mut game_row) = fresh else {
            return Err(Msg::new("tournament-berserk-no-game").into());
        };
        let berserked = if seat == 0 {
            &mut board.white_berserk
        } else {
            &mut board.black_berserk
        };
        if *berserked {
            return Err(Msg::new("tournament-berserk-already").into());
        }
        // White's first move is ply 1, black's ply 2.
        let made = moves_made(&game_row);
        if made > seat {
            return Err(Msg::new("tournament-berserk-too-late").into());
        }
        let Some(left) = game_row.remaining(seat) else {
            return Err(Msg::new("tournament-berserk-no-game").into());
        };
        let halved = arena::berserk_time(left.max(0) as u64) as Millis;
        game_row.set_remaining(seat, Some(halved));
        if made == seat {
            // Their clock is running: it falls at the new time.
            let started = game_row.turn_started_at.unwrap_or_else(|| self.now());
            game_row.deadline = Some(started.saturating_add(halved));
            crate::service::kernel::clocks::plan_reminder(&mut game_row, seat, started);
        }
        *berserked = true;
        // As on lichess: half the time and no increment.
        game_row.no_increment = game_row.no_increment.with(seat);
        self.save(&mut game_row).await?;
        self.save_tournament(&mut row).await?;
        tracing::info!(tournament = %row.id, game = %game_row.id, "berserk");
        let text = self.text(
            ctx.chat_lang,
            &Msg::new("tournament-berserked")
                .arg("player", actor.name.clone())
                .arg("game", game_row.id.clone())
                .arg("clock", crate::clock::format_remaining(halved)),
        );
        Ok(vec![Delivery {
            notify: Vec::new(),
            target: Target::Chat(chat_ref(&game_row.platform, &game_row.chat_id)),
            text,
            image: None,
            buttons: Vec::new(),
            game: None,
        }])
    }

    /// `/tournament pause`: a player of a running Swiss or arena sits out
    /// from the next pairing on (a game under way is played out): not
    /// paired, no points, no forfeit, until `/tournament join`.
    async fn tournament_pause(&self, ctx: &Ctx, id: Option<String>) -> Outcome {
        let _guard = self.inner.tournaments.lock().await;
        let mut row = self.find_tournament(ctx, id, false).await?;
        if !takes_late_entries(row.state.format) {
            return Err(Msg::new("tournament-no-pause").into());
        }
        if row.status != TournamentStatus::Running {
            return Err(Msg::new("tournament-pause-not-running")
                .arg("id", row.id.clone())
                .into());
        }
        let actor = ctx.actor();
        let Some(entrant) = row
            .state
            .players
            .iter_mut()
            .find(|p| p.user_id == actor.id && p.pairable())
        else {
            return Err(Msg::new("tournament-not-in")
                .arg("id", row.id.clone())
                .into());
        };
        entrant.paused = true;
        self.save_and_say(ctx, &mut row, "tournament-paused").await
    }

    /// Saves `row` and tells its chat `key`, naming the actor and the
    /// tournament.
    async fn save_and_say(&self, ctx: &Ctx, row: &mut TournamentRow, key: &'static str) -> Outcome {
        self.save_tournament(row).await?;
        let text = self.text(
            ctx.chat_lang,
            &Msg::new(key)
                .arg("player", ctx.actor().name.clone())
                .arg("id", row.id.clone()),
        );
        Ok(vec![self.tournament_message(row, text)])
    }

    /// `/tournament add computer level N`: the computer of that level
    /// enters (the creator or a chat admin, before the start); it plays
    /// its games as in any game against it. It enters no other way.
    async fn tournament_add_computer(
        &self,
        ctx: &Ctx,
        level: u8,
        id: Option<String>,
        chat_admin: bool,
    ) -> Outcome {
        if !(1..=8).contains(&level) {
            return Err(Msg::new("tournament-bad-level").into());
        }
        let _guard = self.inner.tournaments.lock().await;
        let mut row = self.open_to_direct(ctx, id, chat_admin).await?;
        let computer = UserRef::computer(ctx.req.chat.platform, level);
        if row.state.players.iter().any(|p| p.user_id == computer.id) {
            return Err(Msg::new("tournament-computer-in")
                .arg("player", computer.name.clone())
                .arg("id", row.id.clone())
                .into());
        }
        self.add_entrant(&mut row, &computer).await?;
        self.save_tournament(&mut row).await?;
        let text = self.text(
            ctx.chat_lang,
            &Msg::new("tournament-computer-added")
                .arg("player", computer.name.clone())
                .arg("level", i64::from(level))
                .arg("id", row.id.clone())
                .arg("count", row.state.players.len() as i64),
        );
        Ok(vec![self.tournament_message(&row, text)])
    }

    /// `/tournament leave`: before the start the entry goes; after it the
    /// player is withdrawn (a game under way is played out, or resigned).
    async fn tournament_leave(&self, ctx: &Ctx, id: Option<String>) -> Outcome {
        let _guard = self.inner.tournaments.lock().await;
        let mut row = self.find_tournament(ctx, id, false).await?;
        if !row.status.is_live() {
            return Err(Msg::new("tournament-over").arg("id", row.id.clone()).into());
        }
        let actor = ctx.actor();
        let Some(index) = row
            .state
            .players
            .iter()
            .position(|p| p.user_id == actor.id && !p.withdrawn)
        else {
            return Err(Msg::new("tournament-not-in")
                .arg("id", row.id.clone())
                .into());
        };
        if row.status == TournamentStatus::Open {
            row.state.players.remove(index);
        } else {
            row.state.players[index].withdrawn = true;
        }
        self.save_and_say(ctx, &mut row, "tournament-left").await
    }

    /// Whether the actor may start or cancel `row`: its creator, or an
    /// administrator of the chat.
    fn may_direct(ctx: &Ctx, row: &TournamentRow, chat_admin: bool) -> Outcome<()> {
        if chat_admin || row.state.creator_id == ctx.actor().id {
            Ok(())
        } else {
            Err(Msg::new("tournament-not-yours")
                .arg("creator", row.state.creator_name.clone())
                .into())
        }
    }

    /// `/tournament cancel`: called off; games under way are played out
    /// as ordinary games.
    async fn tournament_cancel(&self, ctx: &Ctx, id: Option<String>, chat_admin: bool) -> Outcome {
        let _guard = self.inner.tournaments.lock().await;
        let mut row = self.find_tournament(ctx, id, false).await?;
        Self::may_direct(ctx, &row, chat_admin)?;
        if !row.status.is_live() {
            return Err(Msg::new("tournament-over").arg("id", row.id.clone()).into());
        }
        row.status = TournamentStatus::Cancelled;
        row.next_at = None;
        self.save_tournament(&mut row).await?;
        tracing::info!(tournament = %row.id, "tournament cancelled");
        let text = self.text(
            ctx.chat_lang,
            &Msg::new("tournament-cancelled")
                .arg("id", row.id.clone())
                .arg("player", ctx.actor().name.clone()),
        );
        Ok(vec![self.tournament_message(&row, text)])
    }

    /// The open tournament a command of its creator (or a chat admin)
    /// means (the caller holds the tournaments' lock).
    async fn open_to_direct(
        &self,
        ctx: &Ctx,
        id: Option<String>,
        chat_admin: bool,
    ) -> Outcome<TournamentRow> {
        let row = self.find_tournament(ctx, id, false).await?;
        Self::may_direct(ctx, &row, chat_admin)?;
        if row.status != TournamentStatus::Open {
            return Err(Msg::new("tournament-not-open")
                .arg("id", row.id.clone())
                .into());
        }
        Ok(row)
    }

    /// `/tournament start`: starts it now.
    async fn tournament_start(&self, ctx: &Ctx, id: Option<String>, chat_admin: bool) -> Outcome {
        let _guard = self.inner.tournaments.lock().await;
        let mut row = self.open_to_direct(ctx, id, chat_admin).await?;
        let deliveries = self.begin_tournament(&mut row, ctx.chat_lang).await?;
        self.save_tournament(&mut row).await?;
        Ok(deliveries)
    }

    /// `/tournament standings`: the table after the rounds decided so far
    /// (the final one once over).
    async fn tournament_standings(&self, ctx: &Ctx, id: Option<String>) -> Outcome {
        let row = self.find_tournament(ctx, id, true).await?;
        let text = self.standings_text(ctx.chat_lang, &row);
        Ok(vec![self.tournament_message(&row, text)])
    }

    /// `/tournament trf`: the tournament report file (FIDE's TRF), as a file.
    async fn tournament_trf(&self, ctx: &Ctx, id: Option<String>) -> Outcome {
        let row = self.find_tournament(ctx, id, true).await?;
        let mut delivery = self.tournament_message(
            &row,
            self.text(
                ctx.chat_lang,
                &Msg::new("tournament-trf").arg("id", row.id.clone()),
            ),
        );
        delivery.image = Some(Image {
            file_name: format!("tournament-{}.trf", row.id),
            bytes: trf_text(&row.id, &row.state).into_bytes(),
        });
        Ok(vec![delivery])
    }

    /// The standings of `row` as a message: a line per player, place,
    /// name, points and tie-breaks.
    fn standings_text(&self, lang: Lang, row: &TournamentRow) -> String {
        let state = &row.state;
        let decided = state
            .played
            .iter()
            .filter(|round| round.boards.iter().all(|b| b.result.is_some()))
            .count();
        let header = match row.status {
            TournamentStatus::Finished => Msg::new("tournament-final-standings"),
            _ => Msg::new("tournament-standings").arg("round", decided as i64),
        };
        let mut lines = vec![self.text(lang, &header.arg("id", row.id.clone()))];
        if state.players.is_empty() {
            lines.push(self.text(lang, &Msg::new("tournament-no-players")));
            return lines.join("\n");
        }
        if state.format == TournamentFormat::Knockout {
            lines.extend(self.knockout_lines(lang, state));
            return lines.join("\n");
        }
        if state.format == TournamentFormat::Arena {
            for (place, player, points, fire) in
                arena_standings(state).into_iter().take(STANDINGS_SHOWN)
            {
                let Some(entrant) = state.players.get(player as usize - 1) else {
                    continue;
                };
                lines.push(
                    self.text(
                        lang,
                        &Msg::new("tournament-arena-standing")
                            .arg("place", i64::from(place))
                            .arg("player", entrant.name.clone())
                            .arg("points", i64::from(points))
                            .arg("fire", if fire { "yes" } else { "no" }),
                    ),
                );
            }
            return lines.join("\n");
        }
        let order = tiebreaks_of(state.format);
        let players = swiss_players(state);
        let Ok(table) = tiebreak::standings(&players, order) else {
            return lines.join("\n");
        };
        let labels: Vec<String> = order
            .iter()
            .map(|tb| self.text(lang, &Msg::new(tiebreak_key(*tb))))
            .collect();
        for standing in table.iter().take(STANDINGS_SHOWN) {
            let Some(entrant) = state.players.get(standing.player as usize - 1) else {
                continue;
            };
            let tiebreaks = labels
                .iter()
                .zip(&standing.tiebreaks)
                .map(|(label, value)| format!("{label} {}", points_text(*value)))
                .collect::<Vec<_>>()
                .join(", ");
            let key = if entrant.withdrawn {
                "tournament-standing-withdrawn"
            } else {
                "tournament-standing"
            };
            lines.push(
                self.text(
                    lang,
                    &Msg::new(key)
                        .arg("place", i64::from(standing.place))
                        .arg("player", entrant.name.clone())
                        .arg("points", points_text(standing.points))
                        .arg("tiebreaks", tiebreaks),
                ),
            );
        }
        lines.join("\n")
    }

    /// Starts tournament `row` (its lock held, status open): seeds the
    /// players by rating and pairs round 1; with too few players it is
    /// called off. The caller saves `row`.
    async fn begin_tournament(&self, row: &mut TournamentRow, lang: Lang) -> Outcome {
        if row.state.players.len() < MIN_PLAYERS {
            row.status = TournamentStatus::Cancelled;
            row.next_at = None;
            let text = self.text(
                lang,
                &Msg::new("tournament-too-few")
                    .arg("id", row.id.clone())
                    .arg("min", MIN_PLAYERS as i64),
            );
            return Ok(vec![self.tournament_message(row, text)]);
        }
        // Seeded by the ratings of now (games played since joining count).
        let mut seeded = Vec::with_capacity(row.state.players.len());
        for entrant in &row.state.players {
            let rating = self
                .rating_for_pairing(&row.platform, &entrant.user_id, &row.state.variant)
                .await?;
            seeded.push(Entrant {
                rating,
                ..entrant.clone()
            });
        }
        // Stable: equal ratings keep the order of entry.
        seeded.sort_by_key(|entrant| std::cmp::Reverse(entrant.rating));
        let count = seeded.len() as u32;
        row.state.players = seeded;
        row.state.initial_white = fastrand::bool();
        row.state.starts_at = self.now();
        match row.state.format {
            TournamentFormat::Swiss => {
                // Each pair meets at most once: more rounds than that cannot be paired.
                let most = if count % 2 == 0 { count - 1 } else { count };
                row.state.rounds = row.state.rounds.min(most.max(1));
            }
            TournamentFormat::RoundRobin => {
                row.state.rounds = self.berger_rounds(count, berger::Cycles::Single).len() as u32;
            }
            TournamentFormat::DoubleRoundRobin => {
                row.state.rounds = self.berger_rounds(count, berger::Cycles::Double).len() as u32;
            }
            TournamentFormat::Knockout => {
                row.state.rounds = count.next_power_of_two().trailing_zeros();
            }
            TournamentFormat::Arena => {
                row.state.ends_at = self
                    .now()
                    .saturating_add(Millis::from(row.state.rounds) * 60_000);
            }
        }
        row.status = TournamentStatus::Running;
        tracing::info!(tournament = %row.id, players = count, "tournament started");
        let mut deliveries = Vec::new();
        let start = self.text(
            lang,
            &self
                .tournament_terms(lang, row, Msg::new("tournament-started"))
                .arg("count", i64::from(count)),
        );
        let mut round = if row.state.format == TournamentFormat::Arena {
            self.settle_arena(row, lang).await?
        } else {
            self.next_round(row, lang).await?
        };
        // The start and round 1 are one message.
        if let Some(first) = round.first_mut() {
            first.text = format!("{start}\n{}", first.text);
        } else {
            deliveries.push(self.tournament_message(row, start));
        }
        deliveries.extend(round);
        Ok(deliveries)
    }

    /// The Berger table of `count` players (none for fewer than two).
    fn berger_rounds(&self, count: u32, cycles: berger::Cycles) -> Vec<RoundPairing> {
        berger::round_robin(count, cycles).unwrap_or_default()
    }

    /// The next round of `row` as its format pairs it, with the header of
    /// its message; `None` when the tournament is over.
    fn next_pairing(&self, row: &TournamentRow) -> Option<Next> {
        let state = &row.state;
        let number = state.played.len() as u32 + 1;
        let count = state.players.len() as u32;
        let header = || {
            Msg::new("tournament-round")
                .arg("round", i64::from(number))
                .arg("rounds", i64::from(state.rounds))
        };
        match state.format {
            TournamentFormat::Swiss => {
                if number > state.rounds {
                    return None;
                }
                let settings = swiss::Settings {
                    total_rounds: state.rounds,
                    initial_colour: if state.initial_white {
                        Colour::White
                    } else {
                        Colour::Black
                    },
                };
                match swiss::pair_round(&swiss_players(state), &settings) {
                    Ok(pairing) => Some(Next {
                        pairing,
                        header: header(),
                        advancing: Vec::new(),
                    }),
                    Err(e) => {
                        // Nobody left to pair without a rematch: it ends here.
                        tracing::info!(tournament = %row.id, error = %e, "no further round");
                        None
                    }
                }
            }
            TournamentFormat::RoundRobin | TournamentFormat::DoubleRoundRobin => {
                let cycles = if state.format == TournamentFormat::RoundRobin {
                    berger::Cycles::Single
                } else {
                    berger::Cycles::Double
                };
                let table = self.berger_rounds(count, cycles);
                table.get(number as usize - 1).map(|round| Next {
                    pairing: round.clone(),
                    header: header(),
                    advancing: Vec::new(),
                })
            }
            // An arena pairs whoever is free (`Service::settle_arena`).
            TournamentFormat::Arena => None,
            TournamentFormat::Knockout => match knockout_next(state) {
                Ok(KnockoutNext::Wave {
                    round,
                    game,
                    pairings,
                    advancing,
                }) => Some(Next {
                    pairing: RoundPairing {
                        pairings,
                        bye: None,
                    },
                    header: Msg::new("tournament-knockout-round")
                        .arg("round", round as i64)
                        .arg("rounds", i64::from(state.rounds))
                        .arg("game", game as i64),
                    advancing,
                }),
                Ok(KnockoutNext::Champion) => None,
                Err(e) => {
                    tracing::error!(tournament = %row.id, error = %e, "the bracket cannot go on");
                    None
                }
            },
        }
    }

    /// Pairs and starts the next round of `row` (running; its lock held),
    /// or ends the tournament after its last: one message for the chat,
    /// first, then what the games' starts tell the players privately.
    async fn next_round(&self, row: &mut TournamentRow, lang: Lang) -> Outcome {
        let Some(next) = self.next_pairing(row) else {
            return Ok(vec![self.finish_tournament(row, lang)]);
        };
        let Next {
            pairing,
            header,
            advancing,
        } = next;
        let count = row.state.players.len() as u32;
        let boards = plan_boards(row, &pairing.pairings)?;
        let paired = pairing.players();
        let absent = (1..=count).filter(|n| !paired.contains(n)).collect();
        let round = Round {
            started_at: self.now(),
            boards,
            bye: pairing.bye,
            absent,
            pending: true,
        };
        let (private, notify) = self.store_and_start(row, round).await?;
        let mut lines = vec![self.text(lang, &header.arg("id", row.id.clone()))];
        lines.extend(self.board_lines(lang, row));
        if !advancing.is_empty() {
            let names = advancing
                .iter()
                .filter_map(|n| row.state.players.get(*n as usize - 1))
                .map(|p| p.name.clone())
                .collect::<Vec<_>>()
                .join(", ");
            lines.push(self.text(
                lang,
                &Msg::new("tournament-knockout-byes").arg("players", names),
            ));
        }
        if let Some(bye) = pairing.bye {
            let name = row.state.players[bye as usize - 1].name.clone();
            let key = match row.state.format {
                TournamentFormat::Swiss => "tournament-bye",
                _ => "tournament-sits-out",
            };
            lines.push(self.text(lang, &Msg::new(key).arg("player", name)));
        }
        lines.push(self.text(lang, &Msg::new("tournament-round-how")));
        let mut message = self.tournament_message(row, lines.join("\n"));
        message.notify = notify;
        row.next_at = self.first_move_due(row).await?;
        let mut deliveries = vec![message];
        deliveries.extend(private);
        // A round whose every board was decided without a game (all forfeits) is over at once.
        if row
            .state
            .played
            .last()
            .is_some_and(|round| round.boards.iter().all(|b| b.result.is_some()))
        {
            deliveries.extend(Box::pin(self.round_over(row, lang)).await?);
        }
        Ok(deliveries)
    }

    /// Stores `round` (pending) as the latest of `row`, then starts its
    /// games: the pairing is kept before any game of it exists, so an
    /// interruption in between leaves a round to finish, not one to pair
    /// again. Returns what the starts tell players privately and whom to ping.
    async fn store_and_start(
        &self,
        row: &mut TournamentRow,
        mut round: Round,
    ) -> Outcome<(Vec<Delivery>, Vec<UserRef>)> {
        round.pending = true;
        row.state.played.push(round);
        self.save_tournament(row).await?;
        self.start_pending(row).await
    }

    /// Starts the games of the latest round of `row` if it is pending, each
    /// under the id its board planned (one started before an interruption
    /// is left as it is), and marks it started. Returns what the starts
    /// tell players privately and whom to ping.
    async fn start_pending(
        &self,
        row: &mut TournamentRow,
    ) -> Outcome<(Vec<Delivery>, Vec<UserRef>)> {
        let mut private = Vec::new();
        let mut notify = Vec::new();
        let Some(round) = row.state.played.last().filter(|round| round.pending) else {
            return Ok((private, notify));
        };
        let boards: Vec<Board> = round.boards.clone();
        let variant = self.known_variant(&row.state.variant)?;
        let clock = TimeControl::parse(&row.state.clock).map_err(|_| Msg::new("error-internal"))?;
        for board in boards.iter().filter(|b| b.result.is_none()) {
            let (Some(white), Some(black)) = (
                row.state.players.get(board.white as usize - 1).cloned(),
                row.state.players.get(board.black as usize - 1).cloned(),
            ) else {
                continue;
            };
            let told = self
                .tournament_game(row, &board.game, (&white, &black), &variant, clock)
                .await?;
            private.extend(told);
            notify.extend(
                [&white, &black]
                    .into_iter()
                    .filter(|p| !is_computer(&p.user_id))
                    .map(|p| user_of(&row.platform, p)),
            );
        }
        if let Some(round) = row.state.played.last_mut() {
            round.pending = false;
        }
        Ok((private, notify))
    }

    /// A round of `row` left pending by an interruption (stored, its games
    /// not all started): its games started now and its boards posted again.
    async fn resume_pending(&self, row: &mut TournamentRow, lang: Lang) -> Outcome {
        if !row.state.played.last().is_some_and(|round| round.pending) {
            return Ok(Vec::new());
        }
        tracing::warn!(tournament = %row.id, "starting the games of an interrupted round");
        let (private, notify) = self.start_pending(row).await?;
        let mut lines = vec![self.text(
            lang,
            &Msg::new("tournament-round-resumed")
                .arg("id", row.id.clone())
                .arg("round", row.state.played.len() as i64),
        )];
        lines.extend(self.board_lines(lang, row));
        lines.push(self.text(lang, &Msg::new("tournament-round-how")));
        let mut message = self.tournament_message(row, lines.join("\n"));
        message.notify = notify;
        let mut deliveries = vec![message];
        deliveries.extend(private);
        Ok(deliveries)
    }

    /// An arena (running; its lock held): records the games that ended,
    /// ends those whose first move is overdue, and while its time lasts
    /// pairs everyone free (`arena::pair_waiting`: near scores, never the
    /// last opponent), posting the new pairings in one message; once its
    /// time is up and its last game over, the final standings.
    async fn settle_arena(&self, row: &mut TournamentRow, lang: Lang) -> Outcome {
        let mut deliveries = self.resume_pending(row, lang).await?;
        deliveries.extend(self.first_moves_missed(row).await?);
        self.record_results(row).await?;
        deliveries.extend(self.withdraw_absent(row, lang));
        let now = self.now();
        let playing: Vec<PlayerNumber> = undecided(&row.state)
            .flat_map(|board| [board.white, board.black])
            .collect();
        if now < row.state.ends_at {
            let scores = arena_scores(&row.state);
            let present = row.state.players.iter().filter(|p| p.pairable()).count();
            let waiting: Vec<arena::Waiting> = row
                .state
                .players
                .iter()
                .zip(&scores)
                .enumerate()
                .map(|(index, (entrant, score))| (index as PlayerNumber + 1, entrant, score))
                .filter(|(number, entrant, _)| entrant.pairable() && !playing.contains(number))
                .map(|(number, entrant, (score, last, balance))| arena::Waiting {
                    player: number,
                    points: score.points,
                    rating: entrant.rating,
                    last_opponent: *last,
                    colour_balance: *balance,
                })
                .collect();
            let pairings = arena::pair_waiting(&waiting, present);
            if !pairings.is_empty() {
                let round = Round {
                    started_at: now,
                    boards: plan_boards(row, &pairings)?,
                    bye: None,
                    absent: Vec::new(),
                    pending: true,
                };
                let (private, notify) = self.store_and_start(row, round).await?;
                let left = (row.state.ends_at - now + 59_999) / 60_000;
                let mut lines = vec![self.text(
                    lang,
                    &Msg::new("tournament-arena-pairings")
                        .arg("id", row.id.clone())
                        .arg("minutes", left),
                )];
                lines.extend(self.board_lines(lang, row));
                lines.push(self.text(lang, &Msg::new("tournament-round-how")));
                let mut message = self.tournament_message(row, lines.join("\n"));
                message.notify = notify;
                deliveries.push(message);
                deliveries.extend(private);
            }
        } else if undecided(&row.state).next().is_none() {
            deliveries.push(self.finish_tournament(row, lang));
            return Ok(deliveries);
        }
        let first_move = self.first_move_due(row).await?;
        let end = (now < row.state.ends_at).then_some(row.state.ends_at);
        row.next_at = match (first_move, end) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        Ok(deliveries)
    }

    /// Records the result of every game under way in `row` that has ended;
    /// a game lost without a move counts an absence of its loser.
    async fn record_results(&self, row: &mut TournamentRow) -> Outcome<()> {
        let mut absent: Vec<u32> = Vec::new();
        for round in &mut row.state.played {
            for board in round.boards.iter_mut().filter(|b| b.result.is_none()) {
                match self.inner.store.get(&row.platform, &board.game).await? {
                    Some(game) if game.status.is_over() => {
                        let result = board_result(&game);
                        board.result = Some(result);
                        board.plies = moves_made(&game) as u32;
                        match result {
                            BoardResult::WhiteForfeits => absent.push(board.white),
                            BoardResult::BlackForfeits => absent.push(board.black),
                            _ => {}
                        }
                    }
                    Some(_) => {}
                    None => {
                        tracing::warn!(tournament = %row.id, game = %board.game, "game gone; a draw");
                        board.result = Some(BoardResult::Draw);
                    }
                }
            }
        }
        for number in absent {
            if let Some(entrant) = row.state.players.get_mut(number as usize - 1) {
                entrant.absences += 1;
            }
        }
        Ok(())
    }

    /// Withdraws the players of `row` absent (a game lost without a move)
    /// in two rounds, announced in one message; `None` when nobody is.
    fn withdraw_absent(&self, row: &mut TournamentRow, lang: Lang) -> Option<Delivery> {
        let mut names = Vec::new();
        for entrant in &mut row.state.players {
            if !entrant.withdrawn && entrant.absences >= ABSENCES_TO_WITHDRAW {
                entrant.withdrawn = true;
                entrant.absences = 0;
                names.push(entrant.name.clone());
            }
        }
        if names.is_empty() {
            return None;
        }
        tracing::info!(tournament = %row.id, players = ?names, "withdrawn for absence");
        let text = self.text(
            lang,
            &Msg::new("tournament-withdrawn-absent")
                .arg("id", row.id.clone())
                .arg("players", names.join(", "))
                .arg("count", names.len() as i64)
                .arg(
                    "back",
                    if takes_late_entries(row.state.format) {
                        "yes"
                    } else {
                        "no"
                    },
                ),
        );
        Some(self.tournament_message(row, text))
    }

    /// The boards of the current round, one line each, with the results known.
    fn board_lines(&self, lang: Lang, row: &TournamentRow) -> Vec<String> {
        let Some(round) = row.state.played.last() else {
            return Vec::new();
        };
        let name = |n: u32| {
            row.state
                .players
                .get(n as usize - 1)
                .map_or_else(String::new, |p| p.name.clone())
        };
        round
            .boards
            .iter()
            .enumerate()
            .map(|(index, board)| {
                let msg = match board.result {
                    Some(result) => {
                        Msg::new("tournament-board-result").arg("score", board_score(result))
                    }
                    None => Msg::new("tournament-board"),
                };
                self.text(
                    lang,
                    &msg.arg("board", index as i64 + 1)
                        .arg("white", name(board.white))
                        .arg("black", name(board.black))
                        .arg("game", board.game.clone()),
                )
            })
            .collect()
    }

    /// Starts game `id` of `white` against `black` for tournament `row`,
    /// as an accepted challenge in its chat would start: the challenge by
    /// white (with white), taken by black. A game of that id already
    /// started (before an interruption) is left as it is; one stored but
    /// not yet taken is taken now. Returns what its start tells anyone but
    /// the chat (the private boards of a hidden game); the chat hears the
    /// round's one message instead.
    async fn tournament_game(
        &self,
        row: &TournamentRow,
        id: &str,
        (white, black): (&Entrant, &Entrant),
        variant: &kodex_engine::Variant,
        clock: TimeControl,
    ) -> Outcome<Vec<Delivery>> {
        let chat = chat_ref(&row.platform, &row.chat_id);
        // Linked first: a game of the round is never stored unlinked.
        self.inner
            .store
            .add_tournament_game(&row.platform, id, &row.id)
            .await?;
        let game = match self.inner.store.get(&row.platform, id).await? {
            Some(found)
                if found.challenger_id == white.user_id
                    && found.opponent_id.as_deref() == Some(black.user_id.as_str()) =>
            {
                if found.status != Status::Challenge {
                    return Ok(Vec::new());
                }
                found
            }
            Some(_) => {
                tracing::error!(tournament = %row.id, game = %id, "a planned game id is taken");
                return Err(Msg::new("error-internal").into());
            }
            None => {
                let white_ctx = self
                    .context(tournament_request(&chat, &row.platform, white))
                    .await;
                let mut game = self.challenge_row(&white_ctx, variant, &clock, ColorChoice::White);
                game.id = id.to_owned();
                game.opponent_id = Some(black.user_id.clone());
                game.opponent_name = Some(black.name.clone());
                // A game against the computer is never rated (as any such game).
                game.rated =
                    row.state.rated && !is_computer(&white.user_id) && !is_computer(&black.user_id);
                if !self.insert_challenge_as(&mut game).await? {
                    return Err(Msg::new("error-internal").into());
                }
                game
            }
        };
        let black_ctx = self
            .context(tournament_request(&chat, &row.platform, black))
            .await;
        let started = self.take_challenge(&black_ctx, &game).await?;
        let told = started
            .into_iter()
            .filter(|d| d.target != Target::Chat(chat.clone()) && !for_computer(d))
            .collect();
        tracing::info!(tournament = %row.id, game = %game.id, "tournament game started");
        if is_computer(&white.user_id) || is_computer(&black.user_id) {
            // It plays as in any game against it (`Service::start` marked
            // the game as one it plays); nothing the chat hears names the
            // game, so it is told to look now.
            self.computer_follow(chat.platform, &game.id);
        }
        Ok(told)
    }

    /// The first-move time of a game of `clock`: the configured time, at
    /// most the clock's starting time; none for a clock per move (its own
    /// flag is the limit).
    fn first_move_time(&self, clock: TimeControl) -> Option<Millis> {
        match clock {
            TimeControl::Increment { base, .. } => {
                Some(self.inner.settings.tournament_first_move.min(base))
            }
            _ => None,
        }
    }

    /// When the next first move of the games under way falls due (a game
    /// whose player to move has not moved yet).
    async fn first_move_due(&self, row: &TournamentRow) -> Outcome<Option<Millis>> {
        let clock = TimeControl::parse(&row.state.clock).unwrap_or(TimeControl::Unlimited);
        let Some(limit) = self.first_move_time(clock) else {
            return Ok(None);
        };
        let mut due: Option<Millis> = None;
        for board in undecided(&row.state) {
            let Some(game) = self.inner.store.get(&row.platform, &board.game).await? else {
                continue;
            };
            if game.status != Status::Active || moves_made(&game) >= 2 {
                continue;
            }
            if let Some(started) = game.turn_started_at {
                let at = started.saturating_add(limit);
                due = Some(due.map_or(at, |d| d.min(at)));
            }
        }
        Ok(due)
    }

    /// Ends the games under way whose player to move let the first-move
    /// time pass: the flag falls for them (a loss without a
    /// move: a forfeit). Returns what those endings say.
    async fn first_moves_missed(&self, row: &TournamentRow) -> Outcome {
        let clock = TimeControl::parse(&row.state.clock).unwrap_or(TimeControl::Unlimited);
        let Some(limit) = self.first_move_time(clock) else {
            return Ok(Vec::new());
        };
        let now = self.now();
        let mut deliveries = Vec::new();
        for board in undecided(&row.state) {
            let Some(found) = self.inner.store.get(&row.platform, &board.game).await? else {
                continue;
            };
            let (_lock, game) = self.lock_fresh(&found, Status::Active).await?;
            let Some(mut game) = game else { continue };
            let late = game
                .turn_started_at
                .is_some_and(|started| started.saturating_add(limit) <= now);
            if moves_made(&game) < 2 && late {
                tracing::info!(tournament = %row.id, game = %game.id, "no first move in time");
                deliveries.extend(self.flag(&mut game).await?);
            }
        }
        Ok(deliveries)
    }

    /// Looks at tournament `platform`/`id` (taking its lock): starts it when
    /// its time has come; for a running one, records the results of its
    /// round's ended games, ends those whose first move is overdue, and
    /// when the round is over pairs the next one (or ends the tournament).
    pub(crate) async fn advance_tournament(&self, platform: &str, id: &str) -> Outcome {
        let _guard = self.inner.tournaments.lock().await;
        let Some(mut row) = self.inner.store.tournament(platform, id).await? else {
            return Ok(Vec::new());
        };
        let lang = self.chat_lang(platform, &row.chat_id).await;
        let now = self.now();
        let before = row.clone();
        let deliveries = match row.status {
            TournamentStatus::Open if row.state.starts_at <= now => {
                self.begin_tournament(&mut row, lang).await?
            }
            TournamentStatus::Open => {
                row.next_at = Some(row.state.starts_at);
                Vec::new()
            }
            TournamentStatus::Running if row.state.format == TournamentFormat::Arena => {
                self.settle_arena(&mut row, lang).await?
            }
            TournamentStatus::Running => self.settle_round(&mut row, lang).await?,
            _ => {
                row.next_at = None;
                Vec::new()
            }
        };
        if row != before {
            self.save_tournament(&mut row).await?;
        }
        Ok(deliveries)
    }

    /// [`Service::advance_tournament`] for a running tournament.
    async fn settle_round(&self, row: &mut TournamentRow, lang: Lang) -> Outcome {
        let mut deliveries = self.resume_pending(row, lang).await?;
        deliveries.extend(self.first_moves_missed(row).await?);
        if row.state.played.is_empty() {
            return self.next_round(row, lang).await;
        }
        self.record_results(row).await?;
        deliveries.extend(self.withdraw_absent(row, lang));
        if undecided(&row.state).next().is_none() {
            deliveries.extend(self.round_over(row, lang).await?);
        } else {
            row.next_at = self.first_move_due(row).await?;
        }
        Ok(deliveries)
    }

    /// The current round of `row` is over: its results, and the next
    /// round's pairings (or the final standings), in one message.
    async fn round_over(&self, row: &mut TournamentRow, lang: Lang) -> Outcome {
        let number = row.state.played.len() as i64;
        let mut lines = vec![self.text(
            lang,
            &Msg::new("tournament-round-over")
                .arg("id", row.id.clone())
                .arg("round", number),
        )];
        lines.extend(self.board_lines(lang, row));
        let results = lines.join("\n");
        let mut next = self.next_round(row, lang).await?;
        match next.first_mut() {
            Some(first) if first.target == Target::Chat(chat_ref(&row.platform, &row.chat_id)) => {
                first.text = format!("{results}\n\n{}", first.text);
            }
            _ => next.insert(0, self.tournament_message(row, results)),
        }
        Ok(next)
    }

    /// Ends `row`: finished, with the final standings as the message.
    fn finish_tournament(&self, row: &mut TournamentRow, lang: Lang) -> Delivery {
        row.status = TournamentStatus::Finished;
        row.next_at = None;
        tracing::info!(tournament = %row.id, "tournament finished");
        let mut text = self.standings_text(lang, row);
        let winners: Vec<String> = winners(&row.state)
            .iter()
            .filter_map(|n| row.state.players.get(*n as usize - 1))
            .map(|p| p.name.clone())
            .collect();
        if !winners.is_empty() {
            let won = self.text(
                lang,
                &Msg::new("tournament-winner")
                    .arg("id", row.id.clone())
                    .arg("player", winners.join(", ")),
            );
            text = format!("{won}\n{text}");
        }
        self.tournament_message(row, text)
    }

    /// A knockout's places so far, a line each, and who is still in.
    fn knockout_lines(&self, lang: Lang, state: &TournamentState) -> Vec<String> {
        let names = |numbers: &[PlayerNumber]| {
            numbers
                .iter()
                .filter_map(|n| state.players.get(*n as usize - 1))
                .map(|p| p.name.clone())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let places = knockout_places(state);
        let mut lines: Vec<String> = places
            .iter()
            .map(|(place, players)| {
                self.text(
                    lang,
                    &Msg::new("tournament-knockout-place")
                        .arg("place", i64::from(*place))
                        .arg("players", names(players)),
                )
            })
            .collect();
        let placed: Vec<PlayerNumber> = places.iter().flat_map(|(_, p)| p.clone()).collect();
        let still_in: Vec<PlayerNumber> = (1..=state.players.len() as PlayerNumber)
            .filter(|n| !placed.contains(n))
            .collect();
        if !still_in.is_empty() {
            lines.push(self.text(
                lang,
                &Msg::new("tournament-knockout-still-in").arg("players", names(&still_in)),
            ));
        }
        lines
    }

    /// The tournaments the games that `deliveries` say are over belong to,
    /// moved on: what that says (a round's results and the next pairings).
    /// Every request's answer and every deadline's news pass through here.
    pub(crate) async fn tournament_news(&self, deliveries: &[Delivery]) -> Vec<Delivery> {
        let mut seen: Vec<(Platform, String)> = Vec::new();
        for delivery in deliveries {
            let Some(game) = delivery.game.as_ref().filter(|g| g.over) else {
                continue;
            };
            let platform = crate::service::kernel::service::target_platform(delivery);
            if !seen.iter().any(|(p, id)| *p == platform && *id == game.id) {
                seen.push((platform, game.id.clone()));
            }
        }
        let mut tournaments: Vec<(Platform, String)> = Vec::new();
        for (platform, game) in seen {
            match self
                .inner
                .store
                .tournament_of_game(platform.key(), &game)
                .await
            {
                Ok(Some(id)) if !tournaments.contains(&(platform, id.clone())) => {
                    tournaments.push((platform, id));
                }
                Ok(_) => {}
                Err(e) => {
                    tracing::error!(game = %game, error = %e, "cannot read a game's tournament")
                }
            }
        }
        let mut news = Vec::new();
        for (platform, id) in tournaments {
            match self.advance_tournament(platform.key(), &id).await {
                Ok(said) => news.extend(said),
                Err(e) => {
                    tracing::error!(tournament = %id, error = ?e, "cannot move a tournament on")
                }
            }
        }
        news
    }

    /// The tournaments whose time has come (a start, a first-move time),
    /// moved on and their news sent. Returns how many had news and how
    /// many failed.
    pub(crate) async fn run_due_tournaments(&self) -> (usize, usize) {
        let due = match self.inner.store.due_tournaments(self.now()).await {
            Ok(due) => due,
            Err(e) => {
                tracing::error!(error = %e, "cannot read due tournaments");
                return (0, 1);
            }
        };
        let (mut moved, mut failed) = (0, 0);
        for (platform, id) in due.into_iter().filter(|(p, _)| self.serves_key(p)) {
            match self.advance_tournament(&platform, &id).await {
                Ok(deliveries) => {
                    moved += usize::from(!deliveries.is_empty());
                    self.send(deliveries);
                }
                Err(e) => {
                    failed += 1;
                    tracing::error!(tournament = %id, error = ?e, "cannot move a tournament on");
                }
            }
        }
        (moved, failed)
    }

    /// After a restart: every running tournament is looked at once (a game
    /// may have ended as the last process stopped).
    pub async fn resume_tournaments(&self) {
        let running = match self.inner.store.running_tournaments().await {
            Ok(running) => running,
            Err(e) => {
                tracing::error!(error = %e, "cannot read the running tournaments");
                return;
            }
        };
        for (platform, id) in running {
            match self.advance_tournament(&platform, &id).await {
                Ok(deliveries) => self.send(deliveries),
                Err(e) => {
                    tracing::error!(tournament = %id, error = ?e, "cannot resume a tournament")
                }
            }
        }
    }

    /// The earliest time a tournament wants looking at (for the scheduler).
    pub(crate) async fn next_tournament_deadline(&self) -> Option<Millis> {
        match self.inner.store.next_tournaments_at().await {
            // Those of a platform whose adapter runs elsewhere are another
            // process's.
            Ok(next) => next
                .into_iter()
                .filter(|(platform, _)| self.serves_key(platform))
                .map(|(_, at)| at)
                .min(),
            Err(e) => {
                tracing::error!(error = %e, "cannot read the tournaments' deadlines");
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entrant(name: &str) -> Entrant {
        Entrant::new(name, name, 1500)
    }

    #[test]
    fn a_forfeit_and_a_bye_are_recorded_as_fide_scores_them_and_the_trf_reads_back() {
        let state = TournamentState {
            format: TournamentFormat::Swiss,
            variant: "chess".to_owned(),
            clock: "3+2".to_owned(),
            rounds: 3,
            rated: false,
            creator_id: "a".to_owned(),
            creator_name: "a".to_owned(),
            starts_at: 0,
            initial_white: true,
            players: ["a", "b", "c"].into_iter().map(entrant).collect(),
            played: vec![Round {
                started_at: 0,
                boards: vec![Board::new(
                    1,
                    2,
                    "g".to_owned(),
                    Some(BoardResult::BlackForfeits),
                )],
                bye: Some(3),
                absent: vec![],
                pending: false,
            }],
            match_games: 0,
            armageddon: false,
            ends_at: 0,
        };
        let players = swiss_players(&state);
        assert_eq!(players[0].history[0].result, RoundResult::ForfeitWin);
        assert_eq!(players[1].history[0].result, RoundResult::ForfeitLoss);
        assert_eq!(players[2].history[0].result, RoundResult::PairingBye);
        let text = trf_text("t", &state);
        let read = trf::read(&text).expect("parses");
        assert_eq!(read.total_rounds, Some(3));
        let back: Vec<_> = read.players.iter().map(|p| p.to_swiss()).collect();
        assert_eq!(back, players);
    }

    #[test]
    fn a_drawn_match_goes_to_armageddon_where_a_draw_wins_for_black() {
        let board = |white, black, result| Board::new(white, black, "g".to_owned(), Some(result));
        let round = |boards| Round {
            started_at: 0,
            boards,
            bye: None,
            absent: vec![],
            pending: false,
        };
        let mut state = TournamentState {
            format: TournamentFormat::Knockout,
            variant: "chess".to_owned(),
            clock: "3+2".to_owned(),
            rounds: 1,
            rated: false,
            creator_id: "a".to_owned(),
            creator_name: "a".to_owned(),
            starts_at: 0,
            initial_white: true,
            players: ["a", "b"].into_iter().map(entrant).collect(),
            played: vec![round(vec![board(1, 2, BoardResult::Draw)])],
            match_games: 1,
            armageddon: true,
            ends_at: 0,
        };
        match knockout_next(&state) {
            Ok(KnockoutNext::Wave { game, pairings, .. }) => {
                assert_eq!(game, 2);
                assert_eq!(pairings, [Pairing { white: 2, black: 1 }]);
            }
            _ => panic!("a second game"),
        }
        state
            .played
            .push(round(vec![board(2, 1, BoardResult::Draw)]));
        assert!(matches!(knockout_next(&state), Ok(KnockoutNext::Champion)));
        assert_eq!(winners(&state), [1]);
        assert_eq!(knockout_places(&state), [(1, vec![1]), (2, vec![2])]);
    }
}
