//! A random differential of hidden information (VARIANTS.md, "Hidden
//! information"): pairs of fog-of-war and Kriegspiel games built so that one
//! player — the watcher — gets the same information in both all along (the
//! same view squares after every half-move, the same legal moves whenever it
//! is their turn, the same announcements, the same outcome), while the other
//! player's hidden pieces differ. Every mark the watcher's board carries
//! (last-move highlights, checks, capture marks, castling and en passant
//! knowledge, pawn tries) must then be the same in both games: a `View` is a
//! function of its audience's information, never of the true position.
//!
//! The pairs are twin walks: both games start alike; the watcher makes the
//! same move in both; the hidden side makes a random move in each game
//! independently (so the games drift apart wherever the watcher cannot see),
//! and a step is kept only when the watcher's information stays equal. The
//! fast run plays [`FAST_GAMES`] walks per variant; set `KODEX_HIDDEN_GAMES`
//! for more (`KODEX_HIDDEN_GAMES=2000 cargo test -p kodex-engine --test
//! hidden_differential -- --include-ignored`), the ignored test plays 1,000.

use crate::common::SplitMix;
use kodex_engine::{
    Announcement, Audience, Game, Move, Outcome, Registry, Side, SquareView, Start,
};

/// Walks per variant in the fast run.
const FAST_GAMES: usize = 40;

/// Half-moves a walk plays at most.
const PLIES: usize = 80;

/// Attempts at each half-move to find a step that keeps the information equal.
const TRIES: usize = 24;

/// What the watcher knows after a half-move: the squares of their view,
/// their legal moves when it is their turn, what they were told, and
/// whether (and how) the game ended.
#[derive(PartialEq, Debug)]
struct Information {
    squares: Vec<SquareView>,
    legal: Vec<String>,
    told: Vec<Announcement>,
    outcome: Option<Outcome>,
}

fn information(game: &Game, watcher: Side) -> Information {
    let mut legal: Vec<String> = if game.side_to_move() == watcher {
        game.legal_moves()
            .into_iter()
            .map(|m| game.uci(m))
            .collect()
    } else {
        Vec::new()
    };
    legal.sort();
    Information {
        squares: game.view(Audience::Side(watcher)).squares,
        legal,
        told: game.announcements(Audience::Side(watcher)),
        outcome: game.outcome(),
    }
}

/// A random move of `game`: half the time a capture where there is one, so
/// that the walks reach captures (Kriegspiel's marks) and checks.
fn random_move(game: &Game, rng: &mut SplitMix) -> Move {
    let moves = game.legal_moves();
    let captures: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|&m| game.san(m).contains('x'))
        .collect();
    if !captures.is_empty() && rng.below(2) == 0 {
        captures[rng.below(captures.len())]
    } else {
        moves[rng.below(moves.len())]
    }
}

/// The board field of a game's FEN: where the pieces truly stand.
fn board(game: &Game) -> String {
    game.fen().split(' ').next().unwrap_or_default().to_owned()
}

/// What a batch of walks compared.
#[derive(Default, Debug)]
struct Tally {
    /// Half-moves after which the watcher's views were compared.
    compared: usize,
    /// … of which the true boards differed.
    hidden_apart: usize,
    /// … of which the watcher's board lit a square of the last move.
    lit_apart: usize,
    /// … of which the watcher's board marked a capture square (Kriegspiel).
    marked_apart: usize,
}

/// One twin walk of `variant` seeded by `seed`; asserts after every kept
/// half-move that the watcher's views are equal.
fn walk(variant: &str, seed: u64, tally: &mut Tally) {
    let registry = Registry::builtin();
    let definition = registry.get(variant).expect("a built-in variant");
    let mut rng = SplitMix(seed);
    let watcher = Side(rng.below(2) as u8);
    let start = Game::new(definition, Start::Standard).expect("start");
    let (mut a, mut b) = (start.clone(), start);
    let mut line = Vec::new();
    for _ in 0..PLIES {
        if a.outcome().is_some() {
            break;
        }
        let stepped = if a.side_to_move() == watcher {
            // The same move in both (the legal moves are the same), one that
            // tells the watcher the same in both games.
            let mut moves = a.legal_moves();
            let mut found = None;
            for _ in 0..TRIES.min(moves.len()) {
                let mv = moves.swap_remove(rng.below(moves.len()));
                let text = a.uci(mv);
                let twin = b
                    .parse_move(&text)
                    .unwrap_or_else(|e| panic!("{text} legal in one twin only: {e}"));
                let (mut next_a, mut next_b) = (a.clone(), b.clone());
                next_a.play(mv);
                next_b.play(twin);
                if information(&next_a, watcher) == information(&next_b, watcher) {
                    found = Some((next_a, next_b, text.clone(), text));
                    break;
                }
            }
            found
        } else {
            // A move of the hidden side in each game, chosen apart.
            let mut found = None;
            for _ in 0..TRIES {
                let (mv_a, mv_b) = (random_move(&a, &mut rng), random_move(&b, &mut rng));
                let (mut next_a, mut next_b) = (a.clone(), b.clone());
                let (text_a, text_b) = (a.uci(mv_a), b.uci(mv_b));
                next_a.play(mv_a);
                next_b.play(mv_b);
                if information(&next_a, watcher) == information(&next_b, watcher) {
                    found = Some((next_a, next_b, text_a, text_b));
                    break;
                }
            }
            found
        };
        let Some((next_a, next_b, text_a, text_b)) = stepped else {
            break;
        };
        (a, b) = (next_a, next_b);
        line.push(if text_a == text_b {
            text_a
        } else {
            format!("{text_a}/{text_b}")
        });
        let (view_a, view_b) = (
            a.view(Audience::Side(watcher)),
            b.view(Audience::Side(watcher)),
        );
        assert_eq!(
            view_a,
            view_b,
            "{variant} walk {seed:#x}, watcher {watcher:?}, after {}:\n{}\n{}",
            line.join(" "),
            a.fen(),
            b.fen()
        );
        tally.compared += 1;
        if board(&a) != board(&b) {
            tally.hidden_apart += 1;
            if !view_a.last_move.is_empty() && a.side_to_move() == watcher {
                tally.lit_apart += 1;
            }
            if !view_a.marked.is_empty() {
                tally.marked_apart += 1;
            }
        }
    }
}

/// The number of walks per variant: `KODEX_HIDDEN_GAMES`, or `default`.
fn games(default: usize) -> usize {
    std::env::var("KODEX_HIDDEN_GAMES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(default)
}

fn walks(variant: &str, seed: u64, count: usize) -> Tally {
    let mut tally = Tally::default();
    for g in 0..count as u64 {
        walk(
            variant,
            seed.wrapping_add(g.wrapping_mul(0x9E37_79B9)),
            &mut tally,
        );
    }
    tally
}

#[test]
fn fog_views_depend_only_on_the_watchers_information() {
    let count = games(FAST_GAMES);
    let tally = walks("fogofwar", 0x00f0_9f09, count);
    // The walks must drift apart and light enemy moves there, or they test nothing.
    assert!(
        tally.hidden_apart > count * 10 && tally.lit_apart > count,
        "{tally:?}"
    );
}

#[test]
fn kriegspiel_views_depend_only_on_the_watchers_information() {
    let count = games(FAST_GAMES);
    let tally = walks("kriegspiel", 0x0c41_e965, count);
    assert!(
        tally.hidden_apart > count * 10 && tally.marked_apart > count / 4,
        "{tally:?}"
    );
}

#[test]
#[ignore = "the long run: a thousand walks per variant"]
fn many_hidden_walks_keep_the_views_equal() {
    for (variant, seed) in [("fogofwar", 0x1f09_u64), ("kriegspiel", 0x1c41_u64)] {
        let tally = walks(variant, seed, games(1000));
        assert!(tally.hidden_apart > 0, "{variant}: {tally:?}");
    }
}
