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

#[test]
fn jumps_read_in_russian_and_in_uci() {
    let text = "e4 e5 Nf3 Nc6 Bc4 Nf6";
    for typed in [
        "Т-2:Сc4 d4",
        "т2Сc4 d4",
        "T2Bc4 d4",
        "t2c4 d2d4",
        "T-2:Bc4  d4",
    ] {
        let mut g = game(text);
        let turn = g
            .play_turn(typed)
            .unwrap_or_else(|e| panic!("{typed}: {e}"));
        assert_eq!(turn.record(), ["t2c4", "d2d4"], "{typed}");
    }
    let mut g = game(text);
    assert_eq!(
        g.play_turn("Т-2:Кc4"),
        Err(TurnError::Jump(JumpError::WrongPiece))
    );
    // A jump is a turn of its own kind: `play_text` reads moves only.
    assert!(g.play_text("T-2:Bc4").is_err());
    // Every refusal says which rule it breaks.
    for error in [
        JumpError::GivesCheck,
        JumpError::PawnOnEdgeRank,
        JumpError::NoMoveAfter,
        JumpError::TooFarBack { max: 3 },
    ] {
        assert!(!error.to_string().is_empty());
    }
    assert_eq!(
        JumpError::KingThere.to_string(),
        "in the past a king stands on that square"
    );
}

#[test]
fn a_jump_destroys_the_enemy_piece_on_the_landing_square() {
    let mut game = game("e4 d5 exd5 Nf6");
    let turn = game.play_turn("T-1:d5 c4").unwrap();
    let jump = turn.jump.unwrap();
    assert!(jump.destroyed);
    assert_eq!(jump.vanished, Some(28)); // e4
    assert_eq!(jump.to_ply, 2);
    // The pawn left e4 for d5 and took black's d-pawn with it; then c4.
    assert_eq!(
        game.fen(),
        "rnbqkbnr/ppp1pppp/8/3P4/2P5/8/PP1P1PPP/RNBQKBNR b KQkq - 0 2"
    );
}

#[test]
fn a_promoted_piece_travels_back_and_its_pawn_is_removed() {
    let mut game = from_fen("8/P7/8/7k/8/8/8/K7 w - - 0 1", "a8=Q Kh4 Qb8 Kh3");
    let turn = game.play_turn("T-2:Qb8 Kb1").unwrap();
    let jump = turn.jump.unwrap();
    // Two own moves back the queen was the pawn on a7: that pawn goes.
    assert_eq!(jump.vanished, Some(48)); // a7
    assert_eq!(jump.to_ply, 0);
    assert_eq!(game.fen(), "1Q6/8/8/7k/8/8/8/1K6 b - - 1 1");
}

#[test]
fn a_jump_that_would_give_check_is_refused() {
    let mut game = from_fen("8/P6k/8/8/8/8/8/K7 w - - 0 1", "a8=Q Kh6 Qb7 Kh5");
    // Back then the black king stood on h7, on the queen's rank.
    assert_eq!(jump_error(&mut game, "T-2:Qb7"), JumpError::GivesCheck);
    assert_eq!(game.charges(kodex_engine::Side(0)), Some(2));
    assert_eq!(game.record().len(), 4);
}

#[test]
fn refusals_name_the_rule() {
    // An own piece on the square then (the e2 pawn under the queen).
    let mut g = game("e4 e5 Qe2 Nc6");
    assert_eq!(jump_error(&mut g, "T-2:Qe2"), JumpError::OwnPieceThere);
    // A king on the square then.
    let mut g = game("e4 e5 Ke2 Nc6 Kd3 Nf6 Qe2 Ng8");
    assert_eq!(jump_error(&mut g, "T-2:Qe2"), JumpError::KingThere);
    assert_eq!(jump_error(&mut g, "T-1:Kd3"), JumpError::KingCannotTravel);
    // The knight already stood on f3 then.
    let mut g = game("Nf3 e5 e3 Nc6");
    assert_eq!(jump_error(&mut g, "T-1:Nf3"), JumpError::SameSquare);
    // Not far enough into the game, too far, nothing of ours there, wrong letter.
    let mut g = game("e4 e5");
    assert_eq!(
        jump_error(&mut g, "T-2:e4"),
        JumpError::NotThatManyMoves { made: 1 }
    );
    assert_eq!(
        jump_error(&mut g, "T-4:e4"),
        JumpError::TooFarBack { max: 3 }
    );
    assert_eq!(
        jump_error(&mut g, "T-0:e4"),
        JumpError::TooFarBack { max: 3 }
    );
    assert_eq!(jump_error(&mut g, "T-1:e5"), JumpError::NotYourPiece);
    assert_eq!(jump_error(&mut g, "T-1:e3"), JumpError::NotYourPiece);
    assert_eq!(jump_error(&mut g, "T-1:Ne4"), JumpError::WrongPiece);
    // Garbage never panics.
    for bad in [
        "T",
        "T-",
        "T-x",
        "T-1",
        "T-1:",
        "T-1:Z9",
        "T-1:e9",
        "T-99999999999:e4",
        "t1e4e4",
        "T-1:Кр",
        "Т-1:",
        "t",
        "T1:\u{0}",
        "T-1:@e4",
    ] {
        assert!(g.play_turn(bad).is_err(), "{bad} accepted");
    }
    assert_eq!(g.record(), ["e2e4", "e7e5"]);
    // The pawn rule: a pawn standing on its first rank may not be landed there.
    let mut g = from_fen("k7/8/8/8/8/8/8/K3P3 w - - 0 1", "Kb1 Kb8");
    assert_eq!(jump_error(&mut g, "T-1:e1"), JumpError::PawnOnEdgeRank);
    // Plain chess has no time travel.
    let chess = Registry::builtin().get("chess").unwrap().clone();
    let mut g = Game::new(&chess, Start::Standard).unwrap();
    g.play_text("e4").unwrap();
    g.play_text("e5").unwrap();
    assert_eq!(g.jump_text("T-1:e4"), Err(JumpError::NotTimeTravel));
    assert_eq!(g.charges(kodex_engine::Side(0)), None);
    assert!(matches!(g.play_turn("T-1:e4"), Err(TurnError::Move(_))));
}

#[test]
fn charges_run_out_and_a_pending_jump_allows_only_the_move() {
    let mut g = game("e4 e5 Nf3 Nc6 Bc4 Nf6");
    let jump = g.play_turn("T-2:Bc4").unwrap().jump.unwrap();
    assert_eq!(g.pending_jump(), Some(&jump));
    assert_eq!(g.outcome(), None);
    assert_eq!(
        jump_error(&mut g, "T-1:c4"),
        JumpError::MoveAfterJumpPending
    );
    assert!(g.legal_jumps().is_empty());
    g.play_turn("d4").unwrap();
    assert_eq!(g.pending_jump(), None);
    g.play_turn("d6").unwrap();
    g.play_turn("Т-1:d4 Кc3").unwrap(); // Cyrillic Т and К
    assert_eq!(g.charges(kodex_engine::Side(0)), Some(0));
    g.play_turn("Nf6").unwrap();
    assert_eq!(jump_error(&mut g, "T-1:Nc3"), JumpError::NoCharges);
    // Black still has both.
    assert_eq!(g.charges(kodex_engine::Side(1)), Some(2));
    assert_eq!(g.jumps().len(), 2);
    assert_eq!(g.timelines().len(), 2);
}

#[test]
fn a_refused_follow_up_undoes_the_jump() {
    let mut g = game("e4 e5 Nf3 Nc6 Bc4 Nf6");
    let before = g.record();
    assert!(matches!(
        g.play_turn("T-2:Bc4 Ke3"),
        Err(TurnError::Move(_))
    ));
    assert_eq!(g.record(), before);
    assert_eq!(g.charges(kodex_engine::Side(0)), Some(2));
    assert!(g.timelines().is_empty());
}

#[test]
fn a_jump_followed_by_mate() {
    let mut g = game("f3 e5 g4 Nc6 a3");
    let turn = g.play_turn("T-1:Nc6 Qh4#").unwrap();
    assert_eq!(turn.moved.unwrap().san, "Qh4#");
    let outcome = g.outcome().expect("mate");
    assert_eq!(outcome.reason, kodex_engine::Reason::Checkmate);
}

#[test]
fn repetition_counts_the_restored_past_but_not_abandoned_lines() {
    // 3. Nh4 Nb8 reaches P; jumping back two moves with the knight from h4
    // recreates P exactly at move 2. P then occurs once in the abandoned line
    // and counts only in the present one.
    let mut g = game("e4 e5 Nf3 Nc6 Nh4 Nb8");
    let present = g.fen();
    g.play_turn("T-2:Nh4").unwrap();
    assert_eq!(g.fen().split(' ').next(), present.split(' ').next());
    for mv in ["Nf3", "Nc6", "Nh4", "Nb8"] {
        g.play_turn(mv).unwrap();
    }
    // Twice in the present line, three times counting the abandoned one: no draw.
    assert_eq!(g.outcome(), None);
    for mv in ["Nf3", "Nc6", "Nh4", "Nb8"] {
        g.play_turn(mv).unwrap();
    }
    assert_eq!(
        g.outcome().map(|o| o.reason),
        Some(kodex_engine::Reason::Repetition)
    );
}

#[test]
fn move_counters_are_those_of_the_restored_moment() {
    let mut g = game("Nf3 Nc6 Nc3 Nf6 Ne4 Nd4");
    assert!(g.fen().ends_with(" 6 4"));
    g.play_turn("T-1:Ne4").unwrap();
    // Back to move 3 with four quiet half-moves behind it, not six.
    assert!(g.fen().ends_with(" 4 3"), "{}", g.fen());
}

#[test]
fn a_travelling_rook_takes_its_castling_right_along() {
    let mut g = game("h4 h5 Rh3 Nc6 Rg3 Nf6");
    g.play_turn("T-2:Rg3").unwrap();
    let castling = g.fen().split(' ').nth(2).unwrap().to_string();
    assert_eq!(castling, "Qkq");
}

/// VARIANTS.md: "only the board (with castling rights, en-passant, move counters of that moment)
/// is" rolled back. The moment right after 2...d5 holds the right to take that pawn en passant;
/// nobody could use it then (the e-pawn stood on e4), but the pawn brought back to e5 can.
#[test]
fn the_restored_moment_keeps_its_en_passant_right() {
    let mut g = game("e4 a6 Nc3 d5 e5 a5");
    let turn = g.play_turn("T-1:e5 exd6").unwrap();
    assert_eq!(turn.record(), ["t1e5", "e5d6"]);
    assert_eq!(
        g.fen(),
        "rnbqkbnr/1pp1pppp/p2P4/8/8/2N5/PPPP1PPP/R1BQKBNR b KQkq - 0 3"
    );
    let replayed = Game::replay(&variant(), &g.start_fen(), &g.record()).unwrap();
    assert_eq!(replayed.fen(), g.fen());
    // Right after the jump, before its move: the restored moment's FEN names the square.
    let mut g = game("e4 a6 Nc3 d5 e5 a5");
    g.play_turn("T-1:e5").unwrap();
    assert_eq!(g.fen().split(' ').nth(3), Some("d6"), "{}", g.fen());
    // A pawn that came by single steps (d7-d6-d5) leaves no such right.
    let mut g = game("e4 d6 Nc3 d5 e5 a6");
    assert!(g.play_turn("T-1:e5 exd6").is_err());
    // Nor does a moment whose last move was not that pawn's double step.
    let mut g = game("e4 d5 Nc3 a6 e5 a5");
    assert!(g.play_turn("T-1:e5 exd6").is_err());
}

#[test]
fn a_jump_with_no_move_after_it_is_refused() {
    // Back then the d-pawn stood on d3 and the queen on c2 boxed the king in:
    // with the pawn on d4 (blocked by d5) white would have no move.
    let mut g = from_fen("8/6k1/8/3p3p/7P/3P4/2q5/K7 w - - 0 1", "d4 Qe2");
    assert_eq!(jump_error(&mut g, "T-1:d4"), JumpError::NoMoveAfter);
}

#[test]
fn the_record_replays_to_the_same_tree_and_undo_takes_back_one_action() {
    let mut g = game("e4 e5 Nf3 Nc6 Bc4 Nf6");
    g.play_turn("T-2:Bc4 d4").unwrap();
    g.play_turn("exd4").unwrap();
    g.play_turn("c3 T-1:e5").unwrap_err();
    g.play_turn("c3").unwrap();
    g.play_turn("t1d4 Nf6").unwrap();
    let replayed = Game::replay(&variant(), &g.start_fen(), &g.record()).unwrap();
    assert_eq!(replayed.fen(), g.fen());
    assert_eq!(replayed.timelines(), g.timelines());
    assert_eq!(replayed.pgn(&[], "*"), g.pgn(&[], "*"));
    let mut undone = g.clone();
    assert!(undone.undo());
    assert_eq!(undone.pending_jump().map(|j| j.uci.as_str()), Some("t1d4"));
    assert!(undone.undo());
    assert_eq!(undone.timelines().len(), 1);
    assert_eq!(undone.charges(kodex_engine::Side(1)), Some(2));
    assert_eq!(undone.fen(), {
        let mut again = g.clone();
        again.undo();
        again.undo();
        again.fen()
    });
    // A stored jump that is not legal is a replay error, not a panic.
    let mut bad = g.record();
    bad.push("t3a1".into());
    assert!(Game::replay(&variant(), &g.start_fen(), &bad).is_err());
}

#[test]
fn highlights_and_timeline_boards_for_the_renderer() {
    let mut g = game("e4 e5 Nf3 Nc6 Bc4 Nf6");
    g.play_turn("T-2:Bc4 d4").unwrap();
    let jump = g.last_turn_jump().unwrap();
    assert_eq!((jump.appeared, jump.vanished), (26, Some(5)));
    let view = g
        .timeline_view(1, kodex_engine::Audience::Full)
        .expect("timeline 1");
    // The abandoned board: black's knight on f6, the last move g8-f6 lit.
    assert!(matches!(
        view.squares[45],
        kodex_engine::SquareView::Piece(_)
    ));
    assert_eq!(view.last_move, vec![62, 45]);
    assert!(g.timeline_view(2, kodex_engine::Audience::Full).is_none());
    g.play_turn("exd4").unwrap();
    assert!(g.last_turn_jump().is_none());
}

#[test]
fn perft_counts_turns_with_jumps() {
    // 1. e4 e5: 29 moves, and the jump T-1:e4 (the pawn leaves e2 for e4 at the
    // start) followed by 30 moves: 20 − 2 (e2 pawn) + 1 (e4-e5) + 5 (bishop)
    // + 4 (queen) + 1 (king) + 1 (knight to e2). Other pieces stood where they stand.
    let g = game("e4 e5");
    let divide = g.perft_turns(1);
    let total: u64 = divide.iter().map(|(_, n)| n).sum();
    assert_eq!(total, 59);
    assert_eq!(
        divide.iter().find(|(m, _)| m == "t1e4").map(|(_, n)| *n),
        Some(30)
    );
    // The start: no history, no jumps; same as chess.
    let start = game("");
    let total: u64 = start.perft_turns(2).iter().map(|(_, n)| n).sum();
    assert_eq!(total, 400);
    // K+R v K after 1. Ra2 Kd8: the only jump is T-1:Ra2 (the rook from a1 to
    // a2 at the start, no check on c8), then 14 rook moves + 3 king moves; the
    // present has the same 17 moves.
    let g = from_fen("2k5/8/8/8/8/8/8/R6K w - - 0 1", "Ra2 Kd8");
    let divide = g.perft_turns(1);
    let jumps: Vec<&(String, u64)> = divide.iter().filter(|(m, _)| m.starts_with('t')).collect();
    assert_eq!(jumps, [&("t1a2".to_string(), 17)]);
    assert_eq!(divide.iter().map(|(_, n)| n).sum::<u64>(), 34);
}

/// Plays a random game where a quarter of the turns try a jump, checking
/// every position reached; returns the finished game.
fn random_game(seed: u64, max_turns: usize) -> Game {
    // A deterministic generator, so failures repeat.
    let mut below = kodex_engine::setup::picker(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut game = Game::new(&variant(), Start::Standard).unwrap();
    for _ in 0..max_turns {
        if game.outcome().is_some() {
            break;
        }
        let jumps = game.legal_jumps();
        if !jumps.is_empty() && below(4) == 0 {
            let request = jumps[below(jumps.len())];
            let jump = game.jump(request).unwrap();
            assert_eq!(game.pending_jump(), Some(&jump));
            check_position(&game, seed);
        }
        let moves = game.legal_moves();
        assert!(!moves.is_empty() || game.pending_jump().is_none());
        if moves.is_empty() {
            break;
        }
        game.play(moves[below(moves.len())]);
        check_position(&game, seed);
    }
    game
}

/// The position reads back from its FEN as a legal position (so the side
/// that moved is not in check, kings are single, pawns off the edge ranks).
fn check_position(game: &Game, seed: u64) {
    let fen = game.fen();
    let again = Game::new(&variant(), Start::Fen(fen.clone()))
        .unwrap_or_else(|e| panic!("seed {seed}: {fen}: {e}"));
    assert_eq!(again.fen(), fen, "seed {seed}");
    let board = fen.split(' ').next().unwrap_or("");
    assert_eq!(board.matches('K').count(), 1, "seed {seed}: {fen}");
    assert_eq!(board.matches('k').count(), 1, "seed {seed}: {fen}");
    let ranks: Vec<&str> = board.split('/').collect();
    for edge in [ranks[0], ranks[7]] {
        assert!(!edge.contains(['P', 'p']), "seed {seed}: {fen}");
    }
    let pieces = board.chars().filter(char::is_ascii_alphabetic).count();
    assert!(pieces <= 32, "seed {seed}: a piece was duplicated: {fen}");
}

fn check_replay(game: &Game, seed: u64) {
    let record = game.record();
    let replayed = Game::replay(&variant(), &game.start_fen(), &record)
        .unwrap_or_else(|e| panic!("seed {seed}: {e}: {}", record.join(" ")));
    assert_eq!(replayed.fen(), game.fen(), "seed {seed}");
    assert_eq!(replayed.timelines(), game.timelines(), "seed {seed}");
    assert_eq!(replayed.jumps(), game.jumps(), "seed {seed}");
    assert_eq!(replayed.record(), record, "seed {seed}");
    assert_eq!(replayed.pgn(&[], "*"), game.pgn(&[], "*"), "seed {seed}");
    for side in [kodex_engine::Side(0), kodex_engine::Side(1)] {
        assert_eq!(replayed.charges(side), game.charges(side), "seed {seed}");
    }
    // The record as the bot stores it: one space-separated string.
    let stored = record.join(" ");
    let split: Vec<&str> = stored.split(' ').filter(|m| !m.is_empty()).collect();
    let again = Game::replay(&variant(), &game.start_fen(), &split).unwrap();
    assert_eq!(again.fen(), game.fen(), "seed {seed}");
}

#[test]
fn random_games_stay_valid_and_replay_to_the_same_tree() {
    let mut jumps = 0;
    for seed in 1..=40 {
        let game = random_game(seed, 60);
        jumps += game.jumps().len();
        check_replay(&game, seed);
    }
    assert!(jumps >= 40, "too few jumps tried: {jumps}");
}

/// Thousands of random games: `KODEX_TT_GAMES=5000 cargo test -p kodex-engine
/// --release --test engine timetravel:: -- --ignored`.
#[test]
#[ignore]
fn many_random_games() {
    let count: u64 = std::env::var("KODEX_TT_GAMES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(2000);
    for seed in 1..=count {
        let game = random_game(seed, 120);
        check_replay(&game, seed);
    }
}

#[test]
fn frames_show_every_action_with_its_jump() {
    let mut g = game("e4 e5 Nf3 Nc6 Bc4 Nf6");
    g.play_turn("T-2:Bc4 d4").unwrap();
    let frames = g.frames(kodex_engine::Audience::Full);
    assert_eq!(frames.len(), 1 + g.record().len());
    let jumps: Vec<usize> = frames
        .iter()
        .enumerate()
        .filter(|(_, f)| f.jump.is_some())
        .map(|(i, _)| i)
        .collect();
    assert_eq!(jumps, [7]);
    assert_eq!(frames[8].view, g.view(kodex_engine::Audience::Full));
}

#[test]
fn operators_enable_time_travel_with_two_keys() {
    let mut registry = Registry::builtin();
    let text = "id = \"tt1\"\nextends = \"chess\"\n[time_travel]\ncharges = 1\nmax_back = 1\n";
    let tt1 = registry.add_definition("tt1.toml", text).unwrap().clone();
    let mut g = Game::new(&tt1, Start::Standard).unwrap();
    for mv in ["e4", "e5", "Nf3", "Nc6"] {
        g.play_turn(mv).unwrap();
    }
    assert_eq!(g.charges(kodex_engine::Side(0)), Some(1));
    assert_eq!(
        g.play_turn("T-2:Nf3"),
        Err(TurnError::Jump(JumpError::TooFarBack { max: 1 }))
    );
    g.play_turn("T-1:Nf3 d4").unwrap();
    g.play_turn("d6").unwrap();
    assert_eq!(
        g.play_turn("T-1:d4"),
        Err(TurnError::Jump(JumpError::NoCharges))
    );
    for bad in [
        "id = \"x\"\nextends = \"chess\"\n[time_travel]\nmax_back = 0\n",
        "id = \"x\"\nextends = \"crazyhouse\"\n[time_travel]\n",
        "id = \"x\"\nextends = \"fogofwar\"\n[time_travel]\n",
        "id = \"x\"\nextends = \"chess\"\n[time_travel]\ncharge = 2\n",
    ] {
        let err = registry.add_definition("x.toml", bad).unwrap_err();
        assert!(
            err.to_string().contains("time_travel") || err.key.contains("charge"),
            "{err}"
        );
    }
}

#[test]
fn pgn_is_one_game_per_timeline_start() {
    let mut g = game("e4 e5 Nf3 Nc6 Bc4 Nf6");
    g.play_turn("T-2:Bc4 d4").unwrap();
    let pgn = g.pgn(&[("Event", "test"), ("Variant", "Time travel")], "1-0");
    assert_eq!(pgn.matches("[Event \"test\"]").count(), 2, "{pgn}");
    // Every game is plain chess from its position: no Variant tag to trip a reader.
    assert!(!pgn.contains("[Variant"), "{pgn}");
    assert!(
        pgn.contains("[FEN \"rnbqkbnr/pppp1ppp/8/4p3/2B1P3/8/PPPP1PPP/RNBQK1NR w KQkq - 0 2\"]")
    );
    assert!(pgn.contains("1. e4 e5 {Jump 1 (White T-2:Bc4) came back to this moment"));
    assert!(pgn.contains("2. Nf3 Nc6 3. Bc4 Nf6 *"), "{pgn}");
    assert!(pgn.trim_end().ends_with("2. d4 1-0"), "{pgn}");
}

#[test]
fn undo_turn_takes_back_a_jump_with_its_move_or_a_pending_jump() {
    let mut whole = game("e4 e5 Nf3 Nc6");
    whole.play_turn("T-1:Nf3 d4").unwrap();
    assert_eq!(whole.turns(), 5);
    assert_eq!(whole.undo_turn(), 2);
    assert_eq!(whole.record(), game("e4 e5 Nf3 Nc6").record());
    assert_eq!(whole.charges(kodex_engine::Side::WHITE), Some(2));
    assert!(whole.timelines().is_empty() && whole.jumps().is_empty());

    let mut pending = game("e4 e5 Nf3 Nc6");
    pending.play_turn("T-2:e4").unwrap();
    assert_eq!(pending.turns(), 5, "a jump begun is a turn");
    assert_eq!(pending.undo_turn(), 1);
    assert!(pending.pending_jump().is_none());
    assert_eq!(pending.fen(), game("e4 e5 Nf3 Nc6").fen());
    assert_eq!(pending.charges(kodex_engine::Side::WHITE), Some(2));
    // A plain move is one action; nothing left, nothing taken.
    assert_eq!(pending.undo_turn(), 1);
    assert_eq!(pending.turns(), 3);
    let mut start = game("");
    assert_eq!(start.undo_turn(), 0);
}

/// After 1.e4 e5 2.Qh5 Nc6 3.Bc4 g6 the queen is attacked and nothing
/// mates; back one move with the bishop now on c4, Qxf7 is scholar's mate.
fn scholars_jump() -> Game {
    game("e4 e5 Qh5 Nc6 Bc4 g6")
}

#[test]
fn the_computer_jumps_back_for_a_mate_the_present_does_not_have() {
    use kodex_engine::search::{pick_move, pick_turn_with, Level, Searcher};
    let game = scholars_jump();
    for number in 2..=8 {
        let level = Level::new(number).unwrap();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(3);
        let turn = pick_turn_with(&mut Searcher::new(1), &game, level, 11, Some(deadline))
            .expect("a turn");
        assert_eq!(turn.text, "t1c4 h5f7", "level {number}");
        let mut played = game.clone();
        played.play_turn(&turn.text).unwrap();
        assert!(played.outcome().is_some(), "mate");
        // Without its jumps the same level has no mate.
        let mv = pick_move(&game, level, 11, Some(deadline)).unwrap();
        let mut plain = game.clone();
        plain.play(mv);
        assert!(plain.outcome().is_none());
    }
}

#[test]
fn the_computers_turns_are_legal_jumps_included() {
    use kodex_engine::search::{pick_turn_with, Level, Searcher};
    let mut jumps = 0;
    for seed in 0..4u64 {
        let mut game = game("");
        let mut searcher = Searcher::new(1);
        for ply in 0..40u64 {
            let level = Level::new(1 + ((seed + ply) % 4) as u8).unwrap();
            let Some(turn) = pick_turn_with(&mut searcher, &game, level, seed * 100 + ply, None)
            else {
                break;
            };
            let played = game
                .play_turn(&turn.text)
                .unwrap_or_else(|e| panic!("{}: {e}", turn.text));
            assert_eq!(played.record().join(" "), turn.text);
            assert!(game.pending_jump().is_none(), "a whole turn");
            jumps += usize::from(turn.jump.is_some());
        }
        let replayed = Game::replay(&variant(), &game.start_fen(), &game.record()).unwrap();
        assert_eq!(replayed.fen(), game.fen());
    }
    assert!(jumps > 0, "the computer travels too");
}
