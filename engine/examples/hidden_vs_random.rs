//! The computer in hidden-information games against a player of random
//! legal moves, as the bot plays them:
//! `cargo run --release -p kodex-engine --example hidden_vs_random -- [games] [level] [variants…]`
//! (30 games at level 4 in fog of war, Kriegspiel and Kriegspiel from a
//! secret setup by default).
//!
//! The computer takes the colours in turn. It decides from its own seat's
//! view and the army it believes the opponent has
//! ([`search::believed_enemy_army`]), as the bot does. In fog of war it plays
//! the first ranked move that is legal (its own legal moves are part of what
//! it knows); in Kriegspiel it tries its ranked moves in turn, each
//! impossible one recorded, and resigns after 40 (the bot's limit). A game
//! ends by the rules (mate, stalemate, repetition, fifty moves, material) or
//! after 600 plies. Prints wins, draws (stalemates among them) and losses;
//! `HIDDEN_VERBOSE=1` prints each game's end, and `HIDDEN_VIEW_ONLY=1` plays
//! from the current view alone ([`search::pick_move_from_view`], as the bot
//! did before [`search::pick_move_for_seat`]), for comparison. Without a
//! deadline the games are the same on every machine.

use kodex_engine::search::{self, Level};
use kodex_engine::setup::{start_fen, Placement};
use kodex_engine::{Attempt, Audience, Game, Reason, Registry, Side, Start, Variant};
use std::time::Instant;

/// As the bot: positions sampled per decision, attempts before resigning.
const SAMPLES: usize = 6;
const MAX_ATTEMPTS: usize = 40;
const MAX_PLIES: usize = 600;

struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[derive(Default)]
struct Tally {
    won: u32,
    drawn: u32,
    stalemates: u32,
    unfinished: u32,
    lost: u32,
    resigned: u32,
}

/// The computer's move in `game`, played; `false` when it resigns.
fn computer_plays(game: &mut Game, variant: &Variant, side: Side, level: Level, seed: u64) -> bool {
    let ranked = if std::env::var_os("HIDDEN_VIEW_ONLY").is_some() {
        let view = game.view(Audience::Side(side));
        let army = search::believed_enemy_army(game, side);
        search::pick_move_from_view(variant, &view, Some(&army), level, seed, SAMPLES, None)
    } else {
        search::pick_move_for_seat(game, side, level, seed, SAMPLES, None)
    };
    if variant.visibility() == kodex_engine::Visibility::OwnPiecesOnly {
        for uci in ranked.iter().take(MAX_ATTEMPTS) {
            match game.parse_attempt(uci) {
                Ok(Attempt::Legal(mv)) => {
                    game.play(mv);
                    return true;
                }
                Ok(Attempt::Impossible(uci)) => game.record_impossible(&uci),
                Err(_) => {}
            }
        }
        return false;
    }
    let legal = game.legal_moves();
    let best = ranked
        .iter()
        .find_map(|uci| legal.iter().find(|&&mv| game.uci(mv) == *uci))
        .or_else(|| legal.first())
        .copied();
    match best {
        Some(mv) => {
            game.play(mv);
            true
        }
        None => false,
    }
}

fn play(variant: &Variant, level: Level, g: u64, tally: &mut Tally) {
    let computer = if g % 2 == 0 { Side::WHITE } else { Side::BLACK };
    let mut random = SplitMix(0x2545_F491_4F6C_DD1D ^ (g * 7919 + 1));
    let mut game = if variant.definition().setup.is_some() {
        let mine = search::pick_setup(variant, computer, level, g).expect("a setup");
        let theirs = Placement::random(variant, computer.opponent(), g + 1_000).expect("a setup");
        let placements = if computer == Side::WHITE {
            [&mine, &theirs]
        } else {
            [&theirs, &mine]
        };
        let fen = start_fen(variant, placements).expect("setups compose");
        Game::new(variant, Start::Fen(fen)).expect("a start")
    } else {
        Game::new(variant, Start::Standard).expect("a start")
    };
    let mut ply = 0;
    while game.outcome().is_none() && ply < MAX_PLIES {
        if game.side_to_move() == computer {
            if !computer_plays(&mut game, variant, computer, level, g * 1_000 + ply as u64) {
                tally.lost += 1;
                tally.resigned += 1;
                return;
            }
        } else {
            let legal = game.legal_moves();
            game.play(legal[random.below(legal.len())]);
        }
        ply += 1;
    }
    let team = variant.definition().team_of(computer);
    if std::env::var_os("HIDDEN_VERBOSE").is_some() {
        eprintln!(
            "game {g}: {:?} after {ply} plies, {}",
            game.outcome(),
            game.fen()
        );
    }
    match game.outcome() {
        None => tally.unfinished += 1,
        Some(outcome) => match outcome.winner() {
            Some(winner) if winner == team => tally.won += 1,
            Some(_) => tally.lost += 1,
            None => {
                tally.drawn += 1;
                if outcome.reason == Reason::Stalemate {
                    tally.stalemates += 1;
                }
            }
        },
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(30);
    let level = Level::new(args.get(2).and_then(|s| s.parse().ok()).unwrap_or(4)).expect("1-8");
    let mut names: Vec<String> = args.iter().skip(3).cloned().collect();
    if names.is_empty() {
        names = ["fogofwar", "kriegspiel", "kriegspielbattle"]
            .map(String::from)
            .to_vec();
    }
    let registry = Registry::builtin();
    for name in &names {
        let variant = registry.get(name).expect("a variant");
        let start = Instant::now();
        let mut tally = Tally::default();
        for g in 0..games {
            play(variant, level, g, &mut tally);
        }
        println!(
            "{name:17} level {}: won {} of {games} ({:.0}%), drawn {} ({} stalemates), unfinished {}, lost {} ({} resigned); {:.0} s",
            level.number(),
            tally.won,
            100.0 * f64::from(tally.won) / games as f64,
            tally.drawn,
            tally.stalemates,
            tally.unfinished,
            tally.lost,
            tally.resigned,
            start.elapsed().as_secs_f64()
        );
    }
}
