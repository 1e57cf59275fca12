//! Time travel (VARIANTS.md "03 Time travel — our decisions"): every rule and
//! refusal on hand-made games, notation, timelines, the record, perft with
//! jumps and random games.

use kodex_engine::{Game, JumpError, Registry, Start, TurnError, Variant};

fn variant() -> Variant {
    Registry::builtin()
        .get("timetravel")
        .expect("timetravel is built in")
        .clone()
}

fn game(moves: &str) -> Game {
    let mut game = Game::new(&variant(), Start::Standard).unwrap();
    for mv in moves.split_whitespace() {
        game.play_turn(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    }
    game
}

fn from_fen(fen: &str, moves: &str) -> Game {
    let mut game = Game::new(&variant(), Start::Fen(fen.into())).unwrap();
    for mv in moves.split_whitespace() {
        game.play_turn(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    }
    game
}

fn jump_error(game: &mut Game, text: &str) -> JumpError {
    match game.play_turn(text) {
        Err(TurnError::Jump(e)) => e,
        other => panic!("{text}: expected a refused jump, got {other:?}"),
    }
}

#[test]
fn the_rules_example_works() {
    let mut game = game("e4 e5 Nf3 Nc6 Bc4 Nf6");
    let turn = game.play_turn("T-2:Bc4 d4").unwrap();
    assert_eq!(turn.record(), ["t2c4", "d2d4"]);
    let jump = turn.jump.unwrap();
    assert_eq!(jump.text, "T-2:Bc4");
    assert_eq!(jump.vanished, Some(5)); // f1
    assert_eq!(jump.appeared, 26); // c4
    assert!(!jump.destroyed);
    assert_eq!(
        game.fen(),
        "rnbqkbnr/pppp1ppp/8/4p3/2BPP3/8/PPP2PPP/RNBQK1NR b KQkq - 0 2"
    );
    assert_eq!(game.charges(kodex_engine::Side(0)), Some(1));
    assert_eq!(game.charges(kodex_engine::Side(1)), Some(2));
    let timelines = game.timelines();
    assert_eq!(timelines.len(), 1);
    assert_eq!(timelines[0].number, 1);
    assert_eq!(timelines[0].branch_ply, 2);
    let abandoned: Vec<&str> = timelines[0].moves.iter().map(|m| m.san.as_str()).collect();
    assert_eq!(abandoned, ["Nf3", "Nc6", "Bc4", "Nf6"]);
    assert_eq!(game.last_turn_jump().map(|j| j.number), Some(1));
    assert_eq!(
        game.record(),
        ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "t2c4", "d2d4"]
    );
}
