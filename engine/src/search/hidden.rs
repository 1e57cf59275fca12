//! Playing without seeing everything (fog of war): the computer takes only
//! what its seat may see — a [`View`] — never the true position. It samples
//! positions consistent with the view (determinization: the enemy pieces it
//! cannot see placed on squares it cannot see, by a seeded generator),
//! searches each with a small budget and ranks its moves by their summed
//! scores.

use super::alphabeta::{think_with, Limits, Searcher, MATE_BOUND};
use super::board::SearchBoard;
use super::level::Level;
use crate::game::{Game, Start};
use crate::side::Side;
use crate::variant::Variant;
use crate::view::{Audience, SquareView, View};
use std::collections::BTreeMap;
use std::time::Instant;

/// How many positions [`pick_move_from_view`] samples by default.
pub const DEFAULT_SAMPLES: usize = 8;

/// A seat's moves from what it sees, in UCI, best first: its own moves as
/// the sampled positions allow them. A hidden piece may make a move illegal
/// in the true position (a block, a pin), so the caller plays the first one
/// [`Game::parse_move`] accepts (in Kriegspiel the others are attempts).
/// Empty when the view is not a seat's view of its own turn, or no position
/// fits it.
///
/// `enemy_army` is every piece the opponent is believed to still have
/// (letters, case ignored; seen or not); `None` assumes its army of the
/// variant's start position. `samples` positions are searched, each with a
/// share of `level`'s budget; the same view, army, level and seed give the
/// same moves (unless the deadline cut a search).
///
/// ```
/// use kodex_engine::search::{pick_move_from_view, Level};
/// use kodex_engine::{Audience, Game, Registry, Side, Start};
/// let registry = Registry::builtin();
/// let variant = registry.get("fogofwar").unwrap();
/// let game = Game::new(variant, Start::Standard).unwrap();
/// let view = game.view(Audience::Side(Side::WHITE));
/// let ranked = pick_move_from_view(variant, &view, None, Level::new(3).unwrap(), 1, 4, None);
/// assert!(game.parse_move(&ranked[0]).is_ok());
/// ```
pub fn pick_move_from_view(
    variant: &Variant,
    view: &View,
    enemy_army: Option<&[char]>,
    level: Level,
    seed: u64,
    samples: usize,
    deadline: Option<Instant>,
) -> Vec<String> {
    let Audience::Side(us) = view.audience else {
        return Vec::new();
    };
    if us != view.side_to_move {
        return Vec::new();
    }
    let positions: Vec<(Game, Vec<u64>)> =
        sample_positions(variant, view, enemy_army, seed, samples.max(1))
            .into_iter()
            .map(|game| (game, Vec::new()))
            .collect();
    rank_moves(&positions, level, deadline)
        .into_iter()
        .map(|(uci, _)| uci)
        .collect()
}

/// The moves of the side to move in `positions`, in UCI, ranked by their
/// mean score over searches of each with a share of `level`'s budget; a
/// move missing from a position (illegal there) counts as a heavy loss.
/// Each position comes with the hashes of those before it, for repetitions.
/// The moves come with their mean scores.
pub(super) fn rank_moves(
    positions: &[(Game, Vec<u64>)],
    level: Level,
    deadline: Option<Instant>,
) -> Vec<(String, i64)> {
    if positions.is_empty() {
        return Vec::new();
    }
    let strength = level.strength();
    let budget = strength.nodes.unwrap_or(400_000);
    let per_sample = (budget / positions.len() as u64).max(500);
    let mut searcher = Searcher::new(4);
    // Summed scores by move, in UCI.
    let mut totals: BTreeMap<String, i64> = BTreeMap::new();
    let count = positions.len() as i64;
    for (game, history) in positions {
        let limits = Limits {
            depth: strength.depth,
            nodes: Some(per_sample),
            deadline,
            root_margin: 400,
            ..Limits::default()
        };
        let Some(result) = think_with(
            &game.search_board(),
            history,
            &limits,
            &mut searcher,
            &mut |_| {},
        ) else {
            continue;
        };
        for &(mv, score) in &result.root_scores {
            let uci = game.uci(mv);
            let score = score.clamp(-MATE_BOUND / 10, MATE_BOUND / 10) as i64;
            *totals.entry(uci).or_insert(0) += score;
        }
        // Each sample a move is missing from (illegal there) counts as a heavy loss.
        let seen: Vec<String> = result
            .root_scores
            .iter()
            .map(|&(mv, _)| game.uci(mv))
            .collect();
        for (uci, total) in totals.iter_mut() {
            if !seen.contains(uci) {
                *total -= 1_000;
            }
        }
    }
    let mut ranked: Vec<(String, i64)> = totals
        .into_iter()
        .map(|(uci, score)| (uci, score / count))
        .collect();
    // Best first; ties by notation, so the order never depends on anything else.
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    ranked
}

/// How good the game looks to `view`'s seat from what it sees (centipawns,
/// for that seat, as [`super::evaluate`]): the mean evaluation of `samples`
/// positions consistent with the view ([`sample_positions`] with
/// `enemy_army`, seeded by `seed`). What a computer that may not see the
/// whole board says in public (its answer to a draw offer) is decided by
/// this, so it depends only on its own information; 0 (even) when no
/// position fits the view.
///
/// ```
/// use kodex_engine::search::evaluate_from_view;
/// use kodex_engine::{Audience, Game, Registry, Side, Start};
/// let registry = Registry::builtin();
/// let variant = registry.get("kriegspiel").unwrap();
/// let fen = "4k3/8/8/8/8/8/8/QQQ1K3 w - - 0 1".to_string();
/// let game = Game::new(variant, Start::Fen(fen)).unwrap();
/// let view = game.view(Audience::Side(Side::WHITE));
/// assert!(evaluate_from_view(variant, &view, Some(&['k']), 1, 4) > 1000);
/// ```
pub fn evaluate_from_view(
    variant: &Variant,
    view: &View,
    enemy_army: Option<&[char]>,
    seed: u64,
    samples: usize,
) -> i32 {
    let Audience::Side(us) = view.audience else {
        return 0;
    };
    let positions = sample_positions(variant, view, enemy_army, seed, samples.max(1));
    if positions.is_empty() {
        return 0;
    }
    let total: i64 = positions
        .iter()
        .map(|game| i64::from(super::evaluate(game, us)))
        .sum();
    (total / positions.len() as i64) as i32
}

/// The pieces `us` may believe the opponent still has (letters, lower
/// case), from `us`'s own information only: the opponent's army in the
/// game's start position (public: the challenge shows it), less every enemy
/// piece `us` saw itself take — one standing, in `us`'s own view before
/// the move, on the square `us` moved to. (In Kriegspiel nothing of the
/// enemy is ever seen, so its army stays whole.) For
/// [`pick_move_from_view`] and [`evaluate_from_view`].
pub fn believed_enemy_army(game: &Game, us: Side) -> Vec<char> {
    let enemy = us.opponent();
    let mut army: Vec<char> = game
        .view_at(0, Audience::Full)
        .squares
        .iter()
        .filter_map(|square| match square {
            SquareView::Piece(glyph) if glyph.side == enemy => {
                Some(glyph.letter.to_ascii_lowercase())
            }
            _ => None,
        })
        .collect();
    for ply in 0..game.ply() {
        let before = game.view_at(ply, Audience::Side(us));
        if before.side_to_move != us {
            continue;
        }
        let Some((_, to)) = game.move_squares(ply) else {
            continue;
        };
        if let Some(SquareView::Piece(glyph)) = before.squares.get(usize::from(to)) {
            if glyph.side == enemy {
                let letter = glyph.letter.to_ascii_lowercase();
                if let Some(i) = army.iter().position(|&c| c == letter) {
                    army.remove(i);
                }
            }
        }
    }
    army
}

/// Up to `samples` positions that `view`'s seat would see exactly as `view`,
/// the unseen enemy pieces placed on fogged squares by a generator seeded with
/// `seed`. Only what the view shows is read. In Kriegspiel a sample also
/// gives the side to move as many pawn tries as the referee announced (when
/// any sample can; else the samples that fit the rest).
pub fn sample_positions(
    variant: &Variant,
    view: &View,
    enemy_army: Option<&[char]>,
    seed: u64,
    samples: usize,
) -> Vec<Game> {
    let Audience::Side(us) = view.audience else {
        return Vec::new();
    };
    let def = variant.definition();
    let enemy = us.opponent();
    let enemy_upper = enemy.index() & 1 == 0;
    let believed: Vec<char> = match enemy_army {
        Some(army) => army.iter().map(|c| c.to_ascii_lowercase()).collect(),
        None => start_army(&def.start_fen, enemy_upper),
    };
    // The believed pieces not in sight.
    let mut unseen = believed;
    for square in &view.squares {
        if let SquareView::Piece(glyph) = square {
            if glyph.side == enemy {
                let letter = glyph.letter.to_ascii_lowercase();
                if let Some(i) = unseen.iter().position(|&c| c == letter) {
                    unseen.remove(i);
                }
            }
        }
    }
    // The royal piece first, so it always finds a square.
    let royal = def.royal_type().map(|ty| def.pieces[ty].letter);
    unseen.sort_by_key(|&c| (Some(c) != royal, c));
    let royal_seen = view.squares.iter().any(|s| {
        matches!(s, SquareView::Piece(g) if g.side == enemy && Some(g.letter.to_ascii_lowercase()) == royal)
    });
    if royal.is_some() && !royal_seen && unseen.first().is_none_or(|&c| Some(c) != royal) {
        if let Some(king) = royal {
            unseen.insert(0, king);
        }
    }
    let fogged: Vec<usize> = view
        .squares
        .iter()
        .enumerate()
        .filter(|(_, s)| matches!(s, SquareView::Fog))
        .map(|(i, _)| i)
        .collect();

    // Fog of war shows every square a piece of ours could move to, so a
    // fogged square right in front of a pawn of ours (or two in front, from
    // its second rank, the square between being empty) holds a piece: the
    // pawn would see it empty; and a fogged square a pawn of ours could
    // take on holds no enemy piece. Kriegspiel shows nothing but our pieces.
    let (blocked, pawn_takes) = if variant.visibility() == crate::view::Visibility::OwnPiecesOnly
        || def.geometry.is_hex()
    {
        (Vec::new(), Vec::new())
    } else {
        pawn_squares(def, view, us, &fogged)
    };

    // Where each enemy piece stands at the start of the variant (public knowledge).
    let mut home: BTreeMap<char, Vec<usize>> = BTreeMap::new();
    if let Ok(start) = Game::new(variant, Start::Standard) {
        for (square, seen) in start.view(Audience::Full).squares.iter().enumerate() {
            if let SquareView::Piece(glyph) = seen {
                if glyph.side == enemy && fogged.contains(&square) {
                    home.entry(glyph.letter.to_ascii_lowercase())
                        .or_default()
                        .push(square);
                }
            }
        }
    }
    // Squares the view marks beyond the variant's own marks: the referee's
    // capture announcement (Kriegspiel), where an unseen enemy piece stands.
    let capture_squares: Vec<usize> = view
        .marked
        .iter()
        .map(|&sq| sq as usize)
        .filter(|&sq| !def.marked.contains(&sq) && fogged.contains(&sq))
        .collect();
    // The square of the pawn that just stepped two: one step past the en
    // passant square in the opponent's direction.
    let en_passant_victim = view.en_passant.and_then(|square| {
        let files = usize::from(view.files);
        let square = usize::from(square);
        if enemy.index() & 1 == 0 {
            Some(square + files).filter(|&sq| sq < view.squares.len())
        } else {
            square.checked_sub(files)
        }
    });
    // A letter as the enemy's FEN writes it.
    let enemy_letter = |letter: char| {
        if enemy_upper {
            letter.to_ascii_uppercase()
        } else {
            letter
        }
    };
    let mut random = crate::setup::picker(seed ^ 0xA076_1D64_78BD_642F);
    let mut found = Vec::new();
    // Positions that fit everything seen but the referee's count of pawn
    // tries: used only when none fits that too.
    let mut near = Vec::new();
    let mut attempts = 0;
    while found.len() < samples && attempts < samples * 16 {
        attempts += 1;
        // After many misfits, try with fewer hidden pieces (only the royal one).
        let army: &[char] = if attempts > samples * 8 {
            &unseen[..unseen.len().min(1)]
        } else {
            &unseen
        };
        let mut board: Vec<Option<char>> = view
            .squares
            .iter()
            .map(|s| match s {
                SquareView::Piece(g) => Some(if g.side.index() & 1 == 0 {
                    g.letter.to_ascii_uppercase()
                } else {
                    g.letter.to_ascii_lowercase()
                }),
                _ => None,
            })
            .collect();
        let mut free = fogged.clone();
        free.retain(|sq| !pawn_takes.contains(sq));
        // Kriegspiel: the referee announced where our piece was taken; the
        // taker stands there (unless it is the king, any piece may be).
        let mut army: Vec<char> = army.to_vec();
        // The pawn that may be taken en passant stands behind the square.
        if let Some(square) = en_passant_victim.filter(|sq| fogged.contains(sq)) {
            let pawn = army.iter().position(|&letter| {
                def.piece_by_letter(letter)
                    .is_some_and(|ty| def.pieces[ty].pawn)
            });
            if let Some(i) = pawn {
                let letter = army.remove(i);
                free.retain(|&sq| sq != square);
                board[square] = Some(enemy_letter(letter));
            }
        }
        for &square in &capture_squares {
            let takers: Vec<usize> = (0..army.len())
                .filter(|&i| Some(army[i]) != royal || army.len() == 1)
                .collect();
            if takers.is_empty() {
                break;
            }
            let letter = army.remove(takers[random(takers.len())]);
            free.retain(|&sq| sq != square);
            board[square] = Some(enemy_letter(letter));
        }
        for &square in &blocked {
            if !free.contains(&square) {
                continue;
            }
            let rank = crate::tables::relative_rank(def, enemy.index() & 1, square);
            let fits = |letter: char| {
                let pawn = def
                    .piece_by_letter(letter)
                    .is_some_and(|ty| def.pieces[ty].pawn);
                !(pawn && (rank <= 1 || rank >= def.promotion_rank))
                    && (Some(letter) != royal || army.len() == 1)
            };
            let blockers: Vec<usize> = (0..army.len()).filter(|&i| fits(army[i])).collect();
            if blockers.is_empty() {
                break;
            }
            let letter = army.remove(blockers[random(blockers.len())]);
            free.retain(|&sq| sq != square);
            board[square] = Some(enemy_letter(letter));
        }
        for &letter in &army {
            let Some(ty) = def.piece_by_letter(letter) else {
                continue;
            };
            let pawn = def.pieces[ty].pawn;
            // Plausibly: most often a piece not seen is still at home, else
            // somewhere on its own half, else anywhere unseen.
            let homes: Vec<usize> = home
                .get(&letter)
                .map(|squares| {
                    squares
                        .iter()
                        .copied()
                        .filter(|sq| free.contains(sq))
                        .collect()
                })
                .unwrap_or_default();
            let roll = random(100);
            let square = if roll < 60 && !homes.is_empty() {
                Some(homes[random(homes.len())])
            } else {
                let own_half: Vec<usize> = free
                    .iter()
                    .copied()
                    .filter(|&sq| {
                        crate::tables::relative_rank(def, enemy.index() & 1, sq) as u32 * 2
                            <= def.geometry.ranks as u32
                    })
                    .collect();
                let pool = if roll < 85 && !own_half.is_empty() {
                    own_half
                } else {
                    free.clone()
                };
                let fits = |sq: usize| {
                    let rank = crate::tables::relative_rank(def, enemy.index() & 1, sq);
                    !(pawn && (rank <= 1 || rank >= def.promotion_rank))
                };
                if pool.is_empty() {
                    None
                } else {
                    (0..12)
                        .map(|_| pool[random(pool.len())])
                        .find(|&sq| fits(sq))
                }
            };
            let Some(square) = square else {
                continue;
            };
            free.retain(|&sq| sq != square);
            board[square] = Some(enemy_letter(letter));
        }
        let fen = fen_of(view, &board);
        let Ok(game) = Game::new(variant, Start::Fen(fen)) else {
            continue;
        };
        if game.outcome().is_some() || waiting_side_in_check(&game) {
            continue;
        }
        let seen_again = game.view(Audience::Side(us));
        if same_squares(&seen_again.squares, &view.squares) && seen_again.checked == view.checked {
            if seen_again.pawn_tries == view.pawn_tries {
                found.push(game);
            } else if near.len() < samples {
                near.push(game);
            }
        }
    }
    if found.is_empty() {
        near
    } else {
        found
    }
}

/// Whether the side that just moved stands in check (an impossible position:
/// its royal piece could be taken). Kriegspiel views do not rule it out.
fn waiting_side_in_check(game: &Game) -> bool {
    let waiting = game.side_to_move().opponent().index() & 1;
    match game.search_board() {
        SearchBoard::B64(b) => b.rules().in_check(b.position(), waiting),
        SearchBoard::B128(b) => b.rules().in_check(b.position(), waiting),
        SearchBoard::B256(b) => b.rules().in_check(b.position(), waiting),
    }
}

/// The letters (lower case) of one side's army in a start FEN.
/// What the pawns of `us` tell of the fogged squares: those that hold a
/// piece, since the pawn would otherwise see them (right in front of it, or
/// two in front from its second rank when the square between is empty), and
/// those that hold no enemy piece, since the pawn could take it there (one
/// step diagonally forward).
fn pawn_squares(
    def: &crate::variant::VariantDef,
    view: &View,
    us: Side,
    fogged: &[usize],
) -> (Vec<usize>, Vec<usize>) {
    let files = usize::from(view.files);
    let size = view.squares.len();
    let ahead = |square: usize| -> Option<usize> {
        if us.index() & 1 == 0 {
            Some(square + files).filter(|&sq| sq < size)
        } else {
            square.checked_sub(files)
        }
    };
    let mut blocked = Vec::new();
    let mut takes = Vec::new();
    for (square, seen) in view.squares.iter().enumerate() {
        let SquareView::Piece(glyph) = seen else {
            continue;
        };
        let ours_pawn = glyph.side == us
            && def
                .piece_by_letter(glyph.letter.to_ascii_lowercase())
                .is_some_and(|ty| def.pieces[ty].pawn);
        let Some(one) = ours_pawn.then(|| ahead(square)).flatten() else {
            continue;
        };
        let file = def.geometry.file_of(square);
        for side_step in [one.wrapping_sub(1), one + 1] {
            let diagonal = side_step < size && (def.geometry.file_of(side_step) - file).abs() == 1;
            if diagonal && fogged.contains(&side_step) {
                takes.push(side_step);
            }
        }
        if fogged.contains(&one) {
            blocked.push(one);
        } else if matches!(view.squares[one], SquareView::Empty)
            && crate::tables::relative_rank(def, us.index() & 1, square) == 2
        {
            if let Some(two) = ahead(one).filter(|sq| fogged.contains(sq)) {
                blocked.push(two);
            }
        }
    }
    blocked.sort_unstable();
    blocked.dedup();
    takes.sort_unstable();
    takes.dedup();
    (blocked, takes)
}

/// Whether a sample shows the squares as the view does. Whether a piece was
/// promoted is not compared: a sample is made from a FEN, which does not
/// say (the seat's own queen from a pawn stays a queen).
fn same_squares(sample: &[SquareView], view: &[SquareView]) -> bool {
    sample.len() == view.len()
        && sample.iter().zip(view).all(|(a, b)| match (a, b) {
            (SquareView::Piece(a), SquareView::Piece(b)) => {
                a.side == b.side && a.art == b.art && a.letter == b.letter
            }
            _ => a == b,
        })
}

fn start_army(fen: &str, upper: bool) -> Vec<char> {
    let placement = fen.split_whitespace().next().unwrap_or("");
    let placement = placement.split('[').next().unwrap_or("");
    placement
        .chars()
        .filter(|c| c.is_ascii_alphabetic() && c.is_ascii_uppercase() == upper)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// A FEN for the view's board with `board`'s pieces: pockets, check
/// counters, castling rights and the en passant square as the view tells
/// them (a seat's own rights only; the opponent's are not known).
fn fen_of(view: &View, board: &[Option<char>]) -> String {
    let mut fen = String::new();
    for rank in (0..view.ranks).rev() {
        let mut empty = 0;
        for file in 0..view.files {
            match board.get(view.index(file, rank)).copied().flatten() {
                Some(letter) => {
                    if empty > 0 {
                        fen.push_str(&empty.to_string());
                        empty = 0;
                    }
                    fen.push(letter);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            fen.push_str(&empty.to_string());
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    if !view.pockets.is_empty() {
        fen.push('[');
        for pocket in &view.pockets {
            for (glyph, count) in &pocket.pieces {
                let letter = if pocket.side.index() & 1 == 0 {
                    glyph.letter.to_ascii_uppercase()
                } else {
                    glyph.letter.to_ascii_lowercase()
                };
                for _ in 0..*count {
                    fen.push(letter);
                }
            }
        }
        fen.push(']');
    }
    fen.push_str(if view.side_to_move.index() & 1 == 0 {
        " w "
    } else {
        " b "
    });
    fen.push_str(if view.castling.is_empty() {
        "-"
    } else {
        &view.castling
    });
    match view.en_passant {
        Some(square) => {
            let (file, rank) = (
                square % u16::from(view.files),
                square / u16::from(view.files),
            );
            // FEN names squares the machine's way (files by index), as UCI does.
            fen.push_str(&format!(" {}{}", (b'a' + file as u8) as char, rank + 1));
        }
        None => fen.push_str(" -"),
    }
    if let Some(remaining) = &view.remaining_checks {
        if let [white, black, ..] = remaining.as_slice() {
            fen.push_str(&format!(" {white}+{black}"));
        }
    }
    fen.push_str(&format!(" 0 {}", view.move_number.max(1)));
    fen
}
