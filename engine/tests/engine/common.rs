//! Helpers shared by the engine's rule tests.

use kodex_engine::{Game, Move, Registry, Start};

/// The legal moves of `game` as UCI, sorted.
pub fn legal(game: &Game) -> Vec<String> {
    let mut moves: Vec<String> = game
        .legal_moves()
        .into_iter()
        .map(|m| game.uci(m))
        .collect();
    moves.sort();
    moves
}

/// The board part of a FEN of a `files`×`ranks` board holding `(square,
/// letter)` pieces (squares named `a1`…; holes count as empty squares).
pub fn board_fen(files: usize, ranks: usize, pieces: &[(&str, char)]) -> String {
    let mut board = vec![vec![None; files]; ranks];
    for (square, letter) in pieces {
        let file = (square.as_bytes()[0] - b'a') as usize;
        let rank: usize = square[1..].parse().expect("a rank");
        board[rank - 1][file] = Some(*letter);
    }
    let rows: Vec<String> = board
        .iter()
        .rev()
        .map(|row| {
            let mut out = String::new();
            let mut empty = 0;
            for cell in row {
                match cell {
                    None => empty += 1,
                    Some(letter) => {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        out.push(*letter);
                    }
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            out
        })
        .collect();
    rows.join("/")
}

/// A small deterministic generator (the engine takes randomness as input).
pub struct SplitMix(pub u64);

impl SplitMix {
    /// A number below `n`.
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

/// A game of the built-in variant `id` from `start`, which must read.
pub fn new_game(id: &str, start: Start) -> Game {
    let registry = Registry::builtin();
    let variant = registry.get(id).expect("a built-in variant");
    Game::new(variant, start.clone()).unwrap_or_else(|e| panic!("{id} from {start:?}: {e}"))
}

/// Plays `moves` (as players type them), each of which must be legal.
pub fn play(game: &mut Game, moves: &[&str]) {
    for mv in moves {
        game.play_text(mv)
            .unwrap_or_else(|e| panic!("{mv} at {}: {e:?} (legal: {:?})", game.fen(), legal(game)));
    }
}

/// A random legal move of `game` (which must have one, the game not being
/// over): half the time a capture, where there is one, so that random games
/// reach taken and mated kings.
pub fn random_move(game: &Game, rng: &mut SplitMix) -> Move {
    let moves = game.legal_moves();
    assert!(!moves.is_empty(), "no move and no outcome: {}", game.fen());
    let captures: Vec<_> = moves
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

/// Game `g` of a batch of random games of `variant` from its start, seeded
/// with `seed`, played to its end (it must end within 20,000 plies); `each`
/// sees every position and the move about to be played there.
pub fn random_game_to_end(
    variant: &kodex_engine::Variant,
    seed: u64,
    g: u64,
    mut each: impl FnMut(&Game, Move),
) -> Game {
    let mut rng = SplitMix(seed + g);
    let mut game = Game::new(variant, Start::Standard).expect("start");
    let mut plies = 0;
    while game.outcome().is_none() {
        let mv = random_move(&game, &mut rng);
        each(&game, mv);
        game.play(mv);
        plies += 1;
        assert!(plies < 20_000, "game {g} does not end: {}", game.fen());
    }
    game
}
