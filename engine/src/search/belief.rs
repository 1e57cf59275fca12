//! What a seat that does not see everything may believe: positions that
//! agree with everything it was told since the start, found by following
//! the game ply by ply (a particle filter). Each believed position is played
//! forward by the seat's own moves and by a move of the opponent's chosen at
//! random, and kept only if the seat would have been told exactly what it
//! was told: in fog of war its view after every ply and its own legal moves
//! on its turns; in Kriegspiel the referee's capture squares, check
//! directions and pawn tries, and its own attempts that were impossible.
//! The believed positions keep the opponent's castling rights and en
//! passant square, which a position built from the last view alone cannot
//! know.
//!
//! Only the seat's own information is read ([`Information::of`]): its views,
//! its own moves, legal moves and attempts, and the public announcements,
//! never the opponent's pieces or moves.

use crate::bitboard::Bits;
use crate::game::{with_state, Game, Inner};
use crate::moves::{Move, MoveList};
use crate::rules::{Position, Rules};
use crate::side::Side;
use crate::view::{Audience, SquareView, Visibility};
use crate::visibility::kriegspiel::{self, CheckDirection};
use crate::visibility::{fog, piece_glyph};

/// How many positions are followed through the game.
const FOLLOWED: usize = 96;

/// What a seat was told after one ply.
struct Told {
    /// The seat's own move, when it moved.
    own: Option<Move>,
    /// The seat's own impossible attempts before its move, in UCI.
    impossible: Vec<String>,
    /// Fog of war: the seat's view after the ply.
    view: Option<Vec<SquareView>>,
    /// Fog of war: the seat's own legal moves after the ply, when it is to
    /// move then (sorted).
    legal: Option<Vec<(u8, u8, u8)>>,
    /// Kriegspiel: the square of the capture the referee announced.
    capture: Option<usize>,
    /// Kriegspiel: the directions of the check announced after the ply.
    checks: Vec<CheckDirection>,
    /// Kriegspiel: the pawn tries announced for the side to move after it.
    pawn_tries: u32,
}

/// Everything a seat was told since the start of the game.
struct Information {
    us: usize,
    /// The start position when it is public (no secret setup).
    start: Option<String>,
    /// The seat's own view of the start (its own setup).
    start_view: Vec<SquareView>,
    plies: Vec<Told>,
}

impl Information {
    /// What `us` was told in `game`: its views, its own moves, legal moves
    /// and attempts, and the referee's public announcements. Nothing else of
    /// the game is read.
    fn of(game: &Game, us: Side) -> Information {
        let variant = game.variant();
        let fogged = variant.visibility() == Visibility::Fog;
        let kriegspiel = variant.visibility() == Visibility::OwnPiecesOnly;
        let side = us.index() & 1;
        let plies = with_state!(game, s, r => {
            (0..s.moves.len())
                .map(|ply| {
                    let (before, after) = (&s.positions[ply], &s.positions[ply + 1]);
                    let mover = before.side as usize;
                    let mine = mover == side;
                    let to_move_is_us = after.side as usize == side;
                    let mut told = Told {
                        own: mine.then_some(s.moves[ply]),
                        impossible: game
                            .impossible_attempts()
                            .iter()
                            .filter(|a| a.ply == ply && a.side.index() & 1 == side)
                            .map(|a| a.uci.clone())
                            .collect(),
                        view: None,
                        legal: None,
                        capture: None,
                        checks: Vec::new(),
                        pawn_tries: 0,
                    };
                    if fogged {
                        told.view = Some(game.view_at(ply + 1, Audience::Side(us)).squares);
                        if to_move_is_us {
                            let mut legal = MoveList::new();
                            r.legal_moves(after, &mut legal);
                            told.legal = Some(move_keys(&legal));
                        }
                    }
                    if kriegspiel {
                        told.capture = kriegspiel::captured_square(before, s.moves[ply]);
                        told.checks = if r.in_check(after, after.side as usize) {
                            kriegspiel::check_directions(&r, after)
                        } else {
                            Vec::new()
                        };
                        let mut legal = MoveList::new();
                        r.legal_moves(after, &mut legal);
                        told.pawn_tries = kriegspiel::pawn_tries(&r, &legal);
                    }
                    told
                })
                .collect()
        });
        Information {
            us: side,
            start: variant
                .definition()
                .setup
                .is_none()
                .then(|| game.start_fen()),
            start_view: game.view_at(0, Audience::Side(us)).squares,
            plies,
        }
    }
}

/// Moves as (from, to, promotion), sorted, for comparing move sets.
fn move_keys(list: &[Move]) -> Vec<(u8, u8, u8)> {
    let mut keys: Vec<(u8, u8, u8)> = list.iter().map(|m| (m.from, m.to, m.promotion)).collect();
    keys.sort_unstable();
    keys
}

/// Up to `count` distinct positions (as games) that `us` may believe the
/// current position of `game` to be, from its own information only (see the
/// module), followed with a generator seeded by `seed`. Empty when the seat
/// lost track of the game (no followed position agreed with what it was
/// told, nor one built from its view then) or when the variant hides
/// nothing.
///
/// ```
/// use kodex_engine::search::believed_positions;
/// use kodex_engine::{Game, Registry, Side, Start};
/// let registry = Registry::builtin();
/// let mut game = Game::new(registry.get("kriegspiel").unwrap(), Start::Standard).unwrap();
/// for san in ["e4", "d5", "exd5"] {
///     game.play_text(san).unwrap();
/// }
/// // White took on d5: every position Black may believe has a white piece there.
/// for sample in believed_positions(&game, Side::BLACK, 7, 6) {
///     assert!(sample.fen().starts_with("rnbqkbnr/ppp1pppp/8/3P4/"));
/// }
/// ```
pub fn believed_positions(game: &Game, us: Side, seed: u64, count: usize) -> Vec<Game> {
    believed_with_history(game, us, seed, count)
        .into_iter()
        .map(|(game, _)| game)
        .collect()
}

/// [`believed_positions`], each with the hashes of the positions that led
/// to it in its own history since the last capture or pawn move (for the
/// search to tell repetitions; [`Game::position_hashes`]).
pub(crate) fn believed_with_history(
    game: &Game,
    us: Side,
    seed: u64,
    count: usize,
) -> Vec<(Game, Vec<u64>)> {
    if !game.variant().hidden_information() || game.has_time_travel() {
        return Vec::new();
    }
    let info = Information::of(game, us);
    with_state!(game, _s, r => {
        let followed = follow(&r, game, &info, seed);
        let mut distinct: Vec<Followed<_>> = Vec::new();
        for one in followed {
            if !distinct.iter().any(|d| d.pos == one.pos) {
                distinct.push(one);
            }
        }
        distinct
            .into_iter()
            .take(count)
            .filter_map(|one| {
                let fen = crate::fen::write(r.def, &one.pos, r.def.chess960);
                let game = Game::new(game.variant(), crate::game::Start::Fen(fen)).ok()?;
                Some((game, one.history))
            })
            .collect()
    })
}

/// A followed position and the hashes of those before it since the last
/// capture or pawn move.
#[derive(Clone)]
struct Followed<B: Bits> {
    pos: Position<B>,
    history: Vec<u64>,
}

impl<B: Bits> Followed<B> {
    /// The position that follows this one, `after`.
    fn child(&self, r: &Rules<B>, after: Position<B>) -> Followed<B> {
        let history = if after.halfmove == 0 {
            Vec::new()
        } else {
            let mut history = self.history.clone();
            history.push(r.hash(&self.pos));
            history
        };
        Followed {
            pos: after,
            history,
        }
    }
}

/// The positions of the start that agree with what `info.us` sees of it.
fn start_positions<B: Bits>(
    r: &Rules<B>,
    game: &Game,
    info: &Information,
    random: &mut impl FnMut(usize) -> usize,
) -> Vec<Position<B>> {
    if let Some(fen) = &info.start {
        return crate::fen::parse::<B>(r.def, fen)
            .map(|pos| vec![pos; FOLLOWED])
            .unwrap_or_default();
    }
    // A secret setup: the seat's own as it sees it, the opponent's any
    // setup its rules allow.
    let us = info.us;
    let enemy = Side((1 - us) as u8);
    let mut out = Vec::new();
    for _ in 0..FOLLOWED {
        let seed = random(usize::MAX) as u64;
        let Ok(theirs) = crate::setup::Placement::random(game.variant(), enemy, seed) else {
            return Vec::new();
        };
        let Ok(mut pos) = crate::fen::parse::<B>(r.def, &r.def.start_fen) else {
            return Vec::new();
        };
        for (square, ty) in theirs.placed() {
            pos.put(square, 1 - us, ty);
        }
        for (square, seen) in info.start_view.iter().enumerate() {
            if let SquareView::Piece(glyph) = seen {
                if glyph.side.index() & 1 == us {
                    match r.def.piece_by_letter(glyph.letter) {
                        Some(ty) if pos.piece_at(square).is_none() => pos.put(square, us, ty),
                        _ => return Vec::new(),
                    }
                }
            }
        }
        out.push(pos);
    }
    out
}

/// The followed positions after the last ply (see the module).
fn follow<B: Bits>(r: &Rules<B>, game: &Game, info: &Information, seed: u64) -> Vec<Followed<B>> {
    let mut random = crate::setup::picker(seed ^ 0x6C62_272E_07BB_0142);
    let mut positions: Vec<Followed<B>> = start_positions(r, game, info, &mut random)
        .into_iter()
        .map(|pos| Followed {
            pos,
            history: Vec::new(),
        })
        .collect();
    let mut legal = MoveList::new();
    let mut after_legal = MoveList::new();
    for (ply, told) in info.plies.iter().enumerate() {
        let mut next = Vec::with_capacity(FOLLOWED);
        let last = ply + 1 == info.plies.len();
        // `mv` played in `one`: its child is kept in `next` if it agrees
        // with what the seat was told.
        let mut follows = |one: &Followed<B>, mv: Move, next: &mut Vec<Followed<B>>| {
            let mut child = one.pos;
            r.make(&mut child, mv);
            let kept = agrees(
                r,
                &one.pos,
                mv,
                &child,
                told,
                info.us,
                last,
                &mut after_legal,
            );
            if kept {
                next.push(one.child(r, child));
            }
            kept
        };
        if let Some(own) = told.own {
            for one in &positions {
                let pos = &one.pos;
                r.legal_moves(pos, &mut legal);
                let tried_possible = told.impossible.iter().any(|uci| {
                    legal
                        .iter()
                        .any(|&m| crate::notation::uci(r, m, r.def.chess960) == *uci)
                });
                let Some(mv) = kriegspiel::resolve(own, &legal).filter(|_| !tried_possible) else {
                    continue;
                };
                follows(one, mv, &mut next);
            }
        } else {
            // Each followed position gets its share of children.
            let share = FOLLOWED.div_ceil(positions.len().max(1));
            for one in &positions {
                let pos = &one.pos;
                r.legal_moves(pos, &mut legal);
                let mut order: Vec<Move> = legal.to_vec();
                let mut kept = 0;
                while !order.is_empty() && kept < share {
                    let mv = order.swap_remove(random(order.len()));
                    if told.capture.is_some()
                        && kriegspiel::captured_square(pos, mv) != told.capture
                    {
                        continue;
                    }
                    if follows(one, mv, &mut next) {
                        kept += 1;
                    }
                }
            }
        }
        if next.is_empty() {
            // Lost track: start again from what the seat sees now.
            next = resample(r, game, info, ply, &mut random)
                .into_iter()
                .map(|pos| Followed {
                    pos,
                    history: Vec::new(),
                })
                .collect();
        }
        next.truncate(FOLLOWED);
        positions = next;
    }
    // Attempts found impossible in this turn already (Kriegspiel).
    let now = info.plies.len();
    let tried: Vec<&str> = game
        .impossible_attempts()
        .iter()
        .filter(|a| a.ply == now && a.side.index() & 1 == info.us)
        .map(|a| a.uci.as_str())
        .collect();
    if !tried.is_empty() {
        positions.retain(|one| {
            r.legal_moves(&one.pos, &mut legal);
            !legal
                .iter()
                .any(|&m| tried.contains(&crate::notation::uci(r, m, r.def.chess960).as_str()))
        });
    }
    positions
}

/// Whether the seat would have been told `told` after `mv` led from
/// `before` to `after`.
#[allow(clippy::too_many_arguments)]
fn agrees<B: Bits>(
    r: &Rules<B>,
    before: &Position<B>,
    mv: Move,
    after: &Position<B>,
    told: &Told,
    us: usize,
    last: bool,
    legal: &mut MoveList,
) -> bool {
    if kriegspiel::captured_square(before, mv) != told.capture && told.view.is_none() {
        return false;
    }
    if r.variant_outcome(after).is_some() {
        return false;
    }
    if let Some(view) = &told.view {
        if !sees_as(r, after, us, view) {
            return false;
        }
    }
    let to_move = after.side as usize;
    if told.view.is_none() {
        let checks = if r.in_check(after, to_move) {
            kriegspiel::check_directions(r, after)
        } else {
            Vec::new()
        };
        if checks != told.checks {
            return false;
        }
    }
    if told.view.is_none() || told.legal.is_some() || last {
        r.legal_moves(after, legal);
        // The game went on: the side to move had a move.
        if legal.is_empty() {
            return false;
        }
        if told.view.is_none() && kriegspiel::pawn_tries(r, legal) != told.pawn_tries {
            return false;
        }
        if let Some(keys) = &told.legal {
            if move_keys(legal) != *keys {
                return false;
            }
        }
    }
    true
}

/// Whether `us` sees `pos` as `view` shows it (fog of war).
fn sees_as<B: Bits>(r: &Rules<B>, pos: &Position<B>, us: usize, view: &[SquareView]) -> bool {
    let visible = fog::visible(r, pos, us);
    view.iter().enumerate().all(|(square, seen)| match seen {
        SquareView::Fog => !visible.has(square),
        SquareView::Empty => visible.has(square) && pos.piece_at(square).is_none(),
        SquareView::Piece(glyph) => {
            visible.has(square)
                && pos.piece_at(square).is_some_and(|(side, ty)| {
                    let drawn = piece_glyph(r.def, side, ty, false);
                    drawn.side == glyph.side
                        && drawn.art == glyph.art
                        && drawn.letter == glyph.letter
                })
        }
        _ => true,
    })
}

/// Positions that agree with the seat's view after ply `ply` alone (the
/// sampler of [`super::sample_positions`]), to follow on from.
fn resample<B: Bits>(
    r: &Rules<B>,
    game: &Game,
    info: &Information,
    ply: usize,
    random: &mut impl FnMut(usize) -> usize,
) -> Vec<Position<B>> {
    let us = Side(info.us as u8);
    let view = game.view_at(ply + 1, Audience::Side(us));
    let army = super::believed_enemy_army(game, us);
    let seed = random(usize::MAX) as u64;
    super::sample_positions(game.variant(), &view, Some(&army), seed, FOLLOWED / 4)
        .iter()
        .filter_map(|sample| crate::fen::parse::<B>(r.def, &sample.fen()).ok())
        .collect()
}

/// The moves the side to move of `game` may try in Kriegspiel, from its own
/// pieces alone, in UCI.
pub(crate) fn own_tries(game: &Game) -> Vec<String> {
    with_state!(game, s, r => {
        kriegspiel::tries(&r, s.current())
            .into_iter()
            .map(|m| crate::notation::uci(&r, m, r.def.chess960))
            .collect()
    })
}
