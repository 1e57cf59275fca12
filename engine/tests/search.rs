//! The low-level search API: copy-make keeps a hash equal to the one computed
//! from scratch, and follows the friendly `Game::play` path move for move.

use kodex_engine::search::SearchBoard;
use kodex_engine::{Game, Registry, Start};

/// A small deterministic generator (xorshift), so failures replay.
struct Random(u64);

impl Random {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

#[test]
fn incremental_hash_equals_full_hash_on_random_games_of_every_variant() {
    let registry = Registry::builtin();
    let mut random = Random(0x9E37_79B9_7F4A_7C15);
    for variant in registry.all() {
        for game_number in 0..12 {
            let start = Game::new(variant, Start::Standard).expect("start position");
            let mut game = start.clone();
            let mut board = start.search_board();
            let mut moves = Vec::new();
            for ply in 0..120 {
                let context = format!("{} game {game_number} ply {ply}", variant.id());
                assert_eq!(board.hash(), board.hash_from_scratch(), "{context}");
                assert_eq!(board.hash(), game.search_board().hash(), "{context}");
                assert_eq!(board.side_to_move(), game.side_to_move(), "{context}");
                board.legal_moves_into(&mut moves);
                if game.outcome().is_some() {
                    // Repetition, fifty moves or material: the game's own ends, not the board's.
                    break;
                }
                assert_eq!(moves.len(), game.legal_moves().len(), "{context}");
                if moves.is_empty() {
                    assert!(board.outcome(&moves).is_some(), "{context}");
                    break;
                }
                let mv = moves[random.below(moves.len())];
                board.make(mv);
                game.play(mv.into());
                assert_eq!(game.ply(), ply + 1, "{context}: the game refused the move");
            }
        }
    }
}

#[test]
fn an_eight_by_eight_game_searches_on_64_bit_sets() {
    let registry = Registry::builtin();
    let game = Game::new(registry.get("chess").expect("chess"), Start::Standard).expect("start");
    assert!(matches!(game.search_board(), SearchBoard::B64(_)));
}
