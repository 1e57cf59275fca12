//! The low-level search API: copy-make keeps a hash equal to the one computed
//! from scratch, and follows the friendly `Game::play` path move for move.

use kodex_engine::search::SearchBoard;
use kodex_engine::{Game, Registry, Start};

use crate::common::SplitMix;

#[test]
fn incremental_hash_equals_full_hash_on_random_games_of_every_variant() {
    let registry = Registry::builtin();
    let mut random = SplitMix(0x9E37_79B9_7F4A_7C15);
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
                game.play(mv);
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

// ---------------------------------------------------------------------------
// The computer player: mates in every family, legality, determinism, levels,
// play from a view.

use kodex_engine::search::{
    pick_move, pick_move_from_view, think, Level, Limits, SearchResult, Searcher, MATE_BOUND,
};
use kodex_engine::{Audience, Side, SquareView};

fn game_from(variant: &str, fen: &str) -> Game {
    let registry = Registry::builtin();
    let variant = registry.get(variant).expect("variant");
    Game::new(variant, Start::Fen(fen.to_string())).expect("fen")
}

fn search(game: &Game, depth: u32) -> SearchResult {
    let mut searcher = Searcher::new(4);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    think(&game.search_board(), &limits, &mut searcher).expect("a move")
}

/// The search finds a forced win in `moves` moves, and (for a win in one) the
/// move it names wins by the rules at once.
fn assert_wins_in(variant: &str, fen: &str, moves: i32, expected_first: &[&str]) {
    let game = game_from(variant, fen);
    let result = search(&game, (2 * moves + 1) as u32);
    let first = game.uci(result.best);
    assert_eq!(
        result.mate_in(),
        Some(moves),
        "{variant} {fen}: score {} best {first}",
        result.score
    );
    if !expected_first.is_empty() {
        assert!(
            expected_first.contains(&first.as_str()),
            "{variant} {fen}: played {first}, expected one of {expected_first:?}"
        );
    }
    // Play the line out against the defender's best replies: it must end in a win.
    let mover = game.side_to_move();
    let mut line = game.clone();
    for _ in 0..(2 * moves + 2) {
        if line.outcome().is_some() {
            break;
        }
        let reply = search(&line, (2 * moves + 1) as u32);
        line.play(reply.best);
    }
    let outcome = line.outcome().expect("the game ended");
    assert_eq!(
        outcome.winner(),
        Some(game.variant().definition().team_of(mover)),
        "{variant} {fen}: {outcome:?}"
    );
}

#[test]
fn chess_mates_in_one_two_and_three() {
    assert_wins_in("chess", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 1, &["a1a8"]);
    assert_wins_in(
        "chess",
        "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
        2,
        &["d5f6"],
    );
    assert_wins_in(
        "chess",
        "r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1",
        3,
        &["f6a6"],
    );
}

#[test]
fn atomic_wins_by_explosion() {
    // Nxd7 explodes the king on e8.
    assert_wins_in("atomic", "4k3/3p4/8/4N3/8/8/8/4K3 w - - 0 1", 1, &["e5d7"]);
    // Ne5 threatens both f7 and d7 next to the king.
    assert_wins_in(
        "atomic",
        "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 1",
        2,
        &["f3e5"],
    );
}

#[test]
fn crazyhouse_mates_with_a_drop() {
    assert_wins_in(
        "crazyhouse",
        "6k1/5ppp/8/8/8/8/8/6K1[R] w - - 0 1",
        1,
        &["R@a8", "R@b8", "R@c8", "R@d8", "R@e8"],
    );
}

/// A drop mate one move behind the horizon is seen: at depth 1 the
/// quiescence search tries checking drops, so the greedy Rxa7 (a pawn,
/// which may not be dropped on the first rank to block, after which a rook
/// dropped on the back rank mates) is not played.
#[test]
fn crazyhouse_quiescence_sees_a_drop_mate_behind_the_horizon() {
    let fen = "7k/p5pp/8/8/8/8/5PPP/R5K1[r] w - - 0 1";
    let game = game_from("crazyhouse", fen);
    let mut greedy = game.clone();
    greedy.play_text("a1a7").expect("Rxa7 is legal");
    let punished = search(&greedy, 1);
    assert_eq!(
        punished.mate_in(),
        Some(1),
        "after Rxa7 black mates by a drop"
    );
    let mate = greedy.uci(punished.best);
    assert!(
        ["R@b1", "R@c1", "R@d1", "R@e1"].contains(&mate.as_str()),
        "{mate}"
    );
    let result = search(&game, 1);
    let played = game.uci(result.best);
    assert_ne!(played, "a1a7", "score {}", result.score);
    assert!(result.mate_in().is_none(), "score {}", result.score);
}

/// King of the hill: a king one step from a free hill square wins next
/// move, so at depth 1 the search cuts it off (Ra5 guards d5 and e5)
/// instead of taking the knight.
#[test]
fn king_of_the_hill_stops_a_king_next_to_the_hill() {
    let game = game_from("kingofthehill", "n7/8/4k3/8/8/8/8/R5K1 w - - 0 1");
    let result = search(&game, 1);
    assert_eq!(game.uci(result.best), "a1a5", "score {}", result.score);
    assert!(result.mate_in().is_none(), "score {}", result.score);
    // Taking the knight instead loses to the king's step.
    let mut greedy = game.clone();
    greedy.play_text("a1a8").expect("Rxa8 is legal");
    assert_eq!(search(&greedy, 1).mate_in(), Some(1));
}

#[test]
fn antichess_wins_by_losing_everything() {
    // White offers the last rook; black must take it and white has nothing left.
    assert_wins_in("antichess", "7r/8/8/8/8/8/8/R7 w - - 0 1", 1, &[]);
}

#[test]
fn racing_kings_and_king_of_the_hill_race_to_their_squares() {
    assert_wins_in(
        "racingkings",
        "8/6K1/8/8/8/8/k7/8 w - - 0 1",
        1,
        &["g7g8", "g7h8", "g7f8"],
    );
    assert_wins_in("racingkings", "8/8/6K1/8/8/8/k7/8 w - - 0 1", 2, &[]);
    assert_wins_in(
        "kingofthehill",
        "8/8/8/8/8/4K3/8/k7 w - - 0 1",
        1,
        &["e3e4", "e3d4"],
    );
    assert_wins_in("kingofthehill", "8/8/8/8/8/8/4K3/k7 w - - 0 1", 2, &[]);
}

#[test]
fn three_check_gives_the_third_check() {
    assert_wins_in(
        "threecheck",
        "rnbqkbnr/ppp2ppp/8/3pp3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1+3 0 3",
        1,
        &["f1b5"],
    );
}

#[test]
fn horde_is_won_by_taking_the_last_pawn() {
    assert_wins_in("horde", "4k3/8/8/8/8/8/3P4/3r4 b - - 0 1", 1, &["d1d2"]);
}

/// Four-handed chess on the 14×14 cross: command goes by region, and the
/// mate that ends the game is the mate of a side's last king.
#[test]
fn four_handed_white_2_mates_with_a_rook_it_commands() {
    // Black-1's king was taken; white-2 (full move 2) mates black-2's king
    // walled in by its own pawns, with its own rook from the centre (d4,
    // UCI d4n4) or with white-1's rook, which stands in white-2's arm (b5,
    // UCI b5n5: the seat commanding a region moves every piece of its
    // colour there, issue 31).
    let fen = "14/6p7/14/14/12s1/14/12s1/C11sc/12s1/1R12/3T10/14/14/7K6 w - - 0 2";
    assert_wins_in("fourplayer", fen, 1, &["d4n4", "b5n5"]);
    // With white-1's rook in white-1's own arm (d3), white-2 may not move it.
    let fen = "14/6p7/14/14/12s1/14/12s1/C11sc/12s1/14/3T10/3R10/14/7K6 w - - 0 2";
    assert_wins_in("fourplayer", fen, 1, &["d4n4"]);
}

#[test]
fn four_handed_a_mated_seat_passes_and_the_next_takes_its_king() {
    // White-1 to move mates black-1 on the back rank; the search then
    // passes for black-1 and takes the mated king for white-2.
    let fen = "7k6/6ppp5/14/14/12s1/14/12s1/C11sc/12s1/3R10/3T10/14/14/7K6 w - - 0 1";
    let mut game = game_from("fourplayer", fen);
    let mate = game.parse_move("d5d14").expect("a legal move");
    game.play(mate);
    assert_eq!(game.seat_to_move(), 1);
    let pass = search(&game, 3).best;
    assert_eq!(game.san(pass), "pass");
    game.play(pass);
    assert_eq!(game.seat_to_move(), 2);
    let take = game.uci(search(&game, 3).best);
    assert_eq!(take, "d14h14");
}

/// Extra variants: a 10×10 board with compound pieces (128-bit sets).
fn registry_with_big_boards() -> Registry {
    let mut registry = Registry::builtin();
    registry
        .add_definition(
            "grandish.toml",
            "id = \"grandish\"\nextends = \"chess\"\nfiles = 10\nranks = 10\ncastling = false\n\
             start = \"rnbqkacbnr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RNBQKACBNR w - - 0 1\"\n\
             [pieces.a]\nname = \"archbishop\"\nbetza = \"BN\"\n\
             [pieces.c]\nname = \"chancellor\"\nbetza = \"RN\"\n",
        )
        .expect("grandish");
    registry
}

#[test]
fn piece_values_follow_mobility() {
    let registry = registry_with_big_boards();
    let game =
        Game::new(registry.get("grandish").expect("grandish"), Start::Standard).expect("start");
    let SearchBoard::B128(board) = game.search_board() else {
        panic!("a 10×10 board searches on 128-bit sets");
    };
    let ev = kodex_engine::search::Evaluator::new(board.rules());
    let def = game.variant().definition();
    let value = |letter| ev.value(def.piece_by_letter(letter).expect("piece"));
    assert!(
        value('n') < value('b'),
        "knight {} bishop {}",
        value('n'),
        value('b')
    );
    assert!(value('b') < value('r'));
    assert!(value('r') < value('c') && value('a') < value('c'));
    assert!(value('c') < value('q'));
    assert_eq!(value('p'), 100);

    let chess = Game::new(
        Registry::builtin().get("chess").expect("chess"),
        Start::Standard,
    )
    .expect("start");
    let SearchBoard::B64(board) = chess.search_board() else {
        panic!("8×8");
    };
    let ev = kodex_engine::search::Evaluator::new(board.rules());
    let def = chess.variant().definition();
    let value = |letter| ev.value(def.piece_by_letter(letter).expect("piece"));
    assert!((280..=330).contains(&value('n')), "knight {}", value('n'));
    assert!((300..=350).contains(&value('b')), "bishop {}", value('b'));
    assert!((470..=530).contains(&value('r')), "rook {}", value('r'));
    assert!((850..=950).contains(&value('q')), "queen {}", value('q'));
}

/// Random positions of every variant (and a 10×10 one): the search's move is legal.
fn random_positions_get_legal_moves(positions_per_variant: usize, nodes: u64) {
    let registry = registry_with_big_boards();
    let mut random = SplitMix(0x2545_F491_4F6C_DD1D);
    let mut searcher = Searcher::new(2);
    for variant in registry.all() {
        if variant.setup().is_some() {
            // Set-up variants start empty: their play is chess, covered by the others.
            continue;
        }
        let mut done = 0;
        let mut game = Game::new(variant, Start::Standard).expect("start");
        while done < positions_per_variant {
            if game.outcome().is_some() || game.ply() > 160 {
                game = Game::new(variant, Start::Standard).expect("start");
            }
            let moves = game.legal_moves();
            let limits = Limits {
                nodes: Some(nodes),
                ..Limits::default()
            };
            let result = think(&game.search_board(), &limits, &mut searcher).expect("a move");
            let best: kodex_engine::Move = result.best;
            assert!(
                moves.contains(&best),
                "{} {}: {} is not legal",
                variant.id(),
                game.fen(),
                game.uci(best)
            );
            assert!(result.score.abs() <= kodex_engine::search::MATE);
            done += 1;
            // Walk on at random, with a searched move now and then.
            let next = if random.below(4) == 0 {
                best
            } else {
                moves[random.below(moves.len())]
            };
            game.play(next);
            for _ in 0..random.below(3) {
                let moves = game.legal_moves();
                if moves.is_empty() {
                    break;
                }
                game.play(moves[random.below(moves.len())]);
            }
        }
    }
}

#[test]
fn the_search_plays_legal_moves_in_every_variant() {
    random_positions_get_legal_moves(30, 600);
}

/// The long version: `cargo test -p kodex-engine --test engine search:: -- --ignored`.
#[test]
#[ignore]
fn the_search_plays_legal_moves_in_every_variant_at_length() {
    random_positions_get_legal_moves(400, 5_000);
}

#[test]
fn the_same_seed_plays_the_same_move() {
    let registry = Registry::builtin();
    for id in ["chess", "crazyhouse", "atomic", "antichess"] {
        let mut game = Game::new(registry.get(id).expect(id), Start::Standard).expect("start");
        for ply in 0..6 {
            let level = Level::new(1 + (ply % 7) as u8 + 1).expect("level");
            let a = pick_move(&game, level, 42 + ply, None).expect("a move");
            let b = pick_move(&game, level, 42 + ply, None).expect("a move");
            assert_eq!(a, b, "{id} ply {ply}");
            game.play(a);
        }
    }
}

#[test]
fn node_limited_search_is_deterministic() {
    let game = game_from(
        "chess",
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    );
    let limits = Limits {
        nodes: Some(20_000),
        ..Limits::default()
    };
    let a = think(&game.search_board(), &limits, &mut Searcher::new(2)).expect("a move");
    let b = think(&game.search_board(), &limits, &mut Searcher::new(2)).expect("a move");
    assert_eq!(
        (a.best, a.score, a.depth, a.nodes),
        (b.best, b.score, b.depth, b.nodes)
    );
}

#[test]
fn the_stop_flag_ends_an_infinite_search() {
    let registry = Registry::builtin();
    let game = Game::new(registry.get("chess").expect("chess"), Start::Standard).expect("start");
    let mut searcher = Searcher::new(2);
    let stop = searcher.stop_flag();
    let board = game.search_board();
    let handle = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(200));
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
    });
    let started = std::time::Instant::now();
    let result = think(&board, &Limits::default(), &mut searcher).expect("a move");
    handle.join().expect("the stopper");
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    assert!(game.legal_moves().contains(&result.best));
}

#[test]
fn a_hanging_queen_is_taken_for_a_material_score_not_a_mate_score() {
    let game = game_from("chess", "4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1");
    let result = search(&game, 4);
    assert_eq!(game.uci(result.best), "d1d5");
    assert!(result.score > 300 && result.score < MATE_BOUND);
}

/// Level 8's search (no margin, no noise) on a budget of 8,000 nodes a move,
/// where level 8 itself spends up to 1.5 million, against level 1 from the
/// start: it wins, or at least ends far ahead on material.
#[test]
fn an_unhandicapped_search_of_8000_nodes_beats_level_one() {
    let registry = Registry::builtin();
    for (game_number, id) in ["chess", "chess", "atomic"].iter().enumerate() {
        let variant = registry.get(id).expect(id);
        let mut game = Game::new(variant, Start::Standard).expect("start");
        let strong = Side(game_number as u8 % 2);
        let mut searcher = Searcher::new(4);
        while game.outcome().is_none() && game.ply() < 120 {
            let mv = if game.side_to_move() == strong {
                // A small node budget keeps the test fast and repeatable.
                let limits = Limits {
                    nodes: Some(8_000),
                    ..Limits::default()
                };
                let history = game.position_hashes();
                kodex_engine::search::think_with(
                    &game.search_board(),
                    &history,
                    &limits,
                    &mut searcher,
                    &mut |_| {},
                )
                .expect("a move")
                .best
            } else {
                pick_move(&game, Level::WEAKEST, game.ply() as u64, None).expect("a move")
            };
            game.play(mv);
        }
        let team = variant.definition().team_of(strong);
        match game.outcome() {
            Some(outcome) => assert_eq!(
                outcome.winner(),
                Some(team),
                "{id} game {game_number}: {outcome:?} {}",
                game.fen()
            ),
            None => {
                let score = kodex_engine::search::evaluate(&game, strong);
                assert!(
                    score > 500,
                    "{id} game {game_number}: the search only {score} ahead: {}",
                    game.fen()
                );
            }
        }
    }
}

#[test]
fn two_positions_with_the_same_view_get_the_same_move() {
    let registry = Registry::builtin();
    let variant = registry.get("fogofwar").expect("fog");
    // Black's hidden queen stands on d8 in one game and on a far square in the
    // other; white sees neither.
    let a = Game::new(
        variant,
        Start::Fen("3qk3/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1".into()),
    )
    .expect("a");
    let b = Game::new(
        variant,
        Start::Fen("4k2q/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1".into()),
    )
    .expect("b");
    let view_a = a.view(Audience::Side(Side::WHITE));
    let view_b = b.view(Audience::Side(Side::WHITE));
    assert_eq!(view_a, view_b, "the test needs equal views");
    assert!(view_a.squares.iter().any(|s| matches!(s, SquareView::Fog)));
    let level = Level::new(4).expect("level");
    let moves_a = pick_move_from_view(variant, &view_a, None, level, 9, 4, None);
    let moves_b = pick_move_from_view(variant, &view_b, None, level, 9, 4, None);
    assert!(!moves_a.is_empty());
    assert_eq!(moves_a, moves_b);
    assert!(a.parse_move(&moves_a[0]).is_ok(), "{}", moves_a[0]);
}

#[test]
fn a_view_sees_a_capture_it_can_make() {
    let registry = Registry::builtin();
    let variant = registry.get("fogofwar").expect("fog");
    // The black queen on d5 is visible to the white rook on d1 and hangs.
    let game = Game::new(
        variant,
        Start::Fen("4k3/pppppppp/8/3q4/8/8/PPP1PPPP/3RK3 w - - 0 1".into()),
    )
    .expect("fen");
    let view = game.view(Audience::Side(Side::WHITE));
    let moves = pick_move_from_view(variant, &view, None, Level::STRONGEST, 3, 4, None);
    assert_eq!(moves[0], "d1d5");
}

#[test]
fn kriegspiel_views_are_played_too() {
    let registry = Registry::builtin();
    let variant = registry.get("kriegspiel").expect("kriegspiel");
    let mut game = Game::new(variant, Start::Standard).expect("start");
    game.play_text("e4").expect("e4");
    let view = game.view(Audience::Side(Side::BLACK));
    let moves = pick_move_from_view(
        variant,
        &view,
        None,
        Level::new(3).expect("level"),
        5,
        3,
        None,
    );
    // The referee's position decides; some proposals may be impossible attempts.
    let legal = moves.iter().position(|uci| game.parse_move(uci).is_ok());
    assert!(matches!(legal, Some(i) if i < 5), "{moves:?}");
}

#[test]
fn a_seat_that_promoted_still_finds_positions_behind_its_fog() {
    use kodex_engine::search::sample_positions;
    let registry = Registry::builtin();
    let variant = registry.get("fogofwar").expect("fog");
    // White's pawn becomes a queen; a view marks it promoted, a FEN cannot.
    let mut game = Game::new(
        variant,
        Start::Fen("4k3/1P5p/8/8/8/8/6PP/6K1 w - - 0 1".into()),
    )
    .expect("fen");
    game.play_text("b8=Q+").expect("promotes");
    game.play_text("Kd7").expect("black moves");
    let view = game.view(Audience::Side(Side::WHITE));
    assert!(view
        .squares
        .iter()
        .any(|s| matches!(s, SquareView::Piece(g) if g.promoted)));
    let samples = sample_positions(variant, &view, None, 4, 4);
    assert_eq!(samples.len(), 4);
    let moves = pick_move_from_view(variant, &view, None, Level::new(4).unwrap(), 4, 4, None);
    assert!(game.parse_move(&moves[0]).is_ok(), "{moves:?}");
}

#[test]
fn a_pawn_that_cannot_step_has_a_piece_in_front_of_it() {
    use kodex_engine::search::sample_positions;
    let registry = Registry::builtin();
    let variant = registry.get("fogofwar").expect("fog");
    let mut game = Game::new(variant, Start::Standard).expect("start");
    for mv in ["e4", "e5"] {
        game.play_text(mv).expect("opening");
    }
    let view = game.view(Audience::Side(Side::WHITE));
    let square = |name: &str| {
        let file = name.as_bytes()[0] - b'a';
        let rank = name.as_bytes()[1] - b'1';
        view.index(file, rank)
    };
    // e5 is fogged (the pawn on e4 cannot step there); d5 and f5 too, and
    // the pawn on e4 would take a piece standing there.
    for name in ["e5", "d5", "f5"] {
        assert!(
            matches!(view.squares[square(name)], SquareView::Fog),
            "{name}"
        );
    }
    let samples = sample_positions(variant, &view, None, 11, 6);
    assert_eq!(samples.len(), 6);
    for sample in &samples {
        let seen = sample.view(Audience::Full);
        assert!(
            matches!(seen.squares[square("e5")], SquareView::Piece(g) if g.side == Side::BLACK),
            "{}",
            sample.fen()
        );
        for name in ["d5", "f5"] {
            assert!(
                matches!(seen.squares[square(name)], SquareView::Empty),
                "{name}: {}",
                sample.fen()
            );
        }
    }
}

/// Fog of war: level 4 from everything its seat was told
/// ([`kodex_engine::search::pick_move_for_seat`], as the bot plays) against
/// a player of random legal moves, `games` games of at most 200 plies: how
/// many it won.
fn fog_wins_against_random_moves(games: u64) -> u64 {
    let registry = Registry::builtin();
    let variant = registry.get("fogofwar").expect("fog");
    let level = Level::new(4).expect("level");
    let mut won = 0;
    for g in 0..games {
        let mut game = Game::new(variant, Start::Standard).expect("start");
        let mut random = SplitMix(0x9E37_79B9_7F4A_7C15 ^ (g * 7919 + 1));
        let mut ply = 0;
        while game.outcome().is_none() && ply < 200 {
            let legal = game.legal_moves();
            let mv = if game.side_to_move() == Side::WHITE {
                // From everything White was told, as the bot plays.
                let ranked = kodex_engine::search::pick_move_for_seat(
                    &game,
                    Side::WHITE,
                    level,
                    g * 1_000 + ply,
                    6,
                    None,
                );
                // Its view tells its own legal moves; ranked, the best of them.
                let ucis: Vec<String> = legal.iter().map(|&m| game.uci(m)).collect();
                let best = ranked.iter().find(|u| ucis.contains(u));
                game.parse_move(best.expect("a ranked legal move"))
                    .expect("legal")
            } else {
                legal[random.below(legal.len())]
            };
            game.play(mv);
            ply += 1;
        }
        let white = variant.definition().team_of(Side::WHITE);
        won += u64::from(game.outcome().and_then(|o| o.winner()) == Some(white));
    }
    won
}

/// Before, a seat that had promoted found no position behind its fog and
/// played its first legal move from then on, and pawns' blocked squares
/// were left to chance: 9 of 30 such games won; then 24 (5 stalemates)
/// from its current view alone. The more thorough measurement, with both
/// colours, Kriegspiel and no ply limit short of 600, is the
/// `hidden_vs_random` example.
#[test]
fn the_fog_computer_mates_a_random_mover() {
    let won = fog_wins_against_random_moves(6);
    assert!(won >= 4, "won {won} of 6");
}

#[test]
#[ignore = "30 games: cargo test -p kodex-engine --release --test engine search::the_fog -- --ignored"]
fn the_fog_computer_mates_a_random_mover_in_most_of_30_games() {
    let won = fog_wins_against_random_moves(30);
    eprintln!("fog of war, level 4 against random moves: won {won} of 30");
    assert!(won >= 20, "won {won} of 30");
}

/// The castling and en passant fields of a FEN.
fn castling_and_en_passant(fen: &str) -> (String, String) {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    (fields[2].to_owned(), fields[3].to_owned())
}

#[test]
fn sampled_positions_keep_the_seats_own_castling_and_en_passant() {
    use kodex_engine::search::sample_positions;
    let registry = Registry::builtin();
    let variant = registry.get("fogofwar").expect("fog");
    // White just played d2-d4 past Black's pawn on e4; both may still castle.
    let game = Game::new(
        variant,
        Start::Fen("r3k2r/pppp1ppp/8/8/3Pp3/8/PPP2PPP/R3K2R b KQkq d3 0 1".into()),
    )
    .expect("fen");
    let view = game.view(Audience::Side(Side::BLACK));
    assert_eq!(view.castling, "kq", "a seat knows its own rights only");
    assert!(view.en_passant.is_some(), "Black may take en passant");
    let white = game.view(Audience::Side(Side::WHITE));
    assert_eq!(white.castling, "KQ");
    assert_eq!(white.en_passant, None, "not White's to take");
    assert_eq!(game.view(Audience::Public).castling, "");

    let samples = sample_positions(variant, &view, None, 11, 6);
    assert!(!samples.is_empty());
    for sample in &samples {
        let (castling, en_passant) = castling_and_en_passant(&sample.fen());
        assert_eq!(castling, "kq", "{}", sample.fen());
        assert_eq!(en_passant, "d3", "{}", sample.fen());
    }
    // A hidden piece may pin or attack, but the moves exist in the samples.
    for uci in ["e4d3", "e8g8", "e8c8"] {
        assert!(
            samples.iter().any(|sample| sample.parse_move(uci).is_ok()),
            "{uci}"
        );
    }
    // Without the rights (the king went away and came back) nobody castles.
    let moved = Game::new(
        variant,
        Start::Fen("r3k2r/pppp1ppp/8/8/4p3/8/PPP2PPP/R3K2R b KQ - 0 1".into()),
    )
    .expect("fen");
    let view = moved.view(Audience::Side(Side::BLACK));
    assert_eq!(view.castling, "");
    for sample in sample_positions(variant, &view, None, 11, 6) {
        assert_eq!(castling_and_en_passant(&sample.fen()).0, "-");
    }
}

#[test]
fn kriegspiel_samples_put_a_piece_where_the_referee_announced_a_capture() {
    use kodex_engine::search::sample_positions;
    let registry = Registry::builtin();
    let variant = registry.get("kriegspiel").expect("kriegspiel");
    let mut game = Game::new(variant, Start::Standard).expect("start");
    for san in ["e4", "d5", "exd5", "Qxd5"] {
        game.play_text(san).expect(san);
    }
    // Black's queen took on d5: White is told "capture on d5", nothing more.
    let view = game.view(Audience::Side(Side::WHITE));
    let d5 = view.index(3, 4);
    assert!(view.marked.contains(&(d5 as u16)), "{:?}", view.marked);
    let samples = sample_positions(variant, &view, None, 3, 6);
    assert!(!samples.is_empty());
    for sample in &samples {
        let full = sample.view(Audience::Full);
        assert!(
            matches!(full.squares[d5], SquareView::Piece(glyph) if glyph.side == Side::BLACK),
            "an enemy piece on d5 in {}",
            sample.fen()
        );
    }
}

#[test]
fn kriegspiel_samples_give_as_many_pawn_tries_as_the_referee_announced() {
    use kodex_engine::search::sample_positions;
    let registry = Registry::builtin();
    let variant = registry.get("kriegspiel").expect("kriegspiel");
    let mut game = Game::new(variant, Start::Standard).expect("start");
    for san in ["e4", "d5"] {
        game.play_text(san).expect(san);
    }
    // White is told "one pawn try": some black piece stands on d5 or f5.
    let view = game.view(Audience::Side(Side::WHITE));
    assert_eq!(view.pawn_tries, Some(1));
    let pawn_captures = |sample: &Game| {
        sample
            .legal_moves()
            .into_iter()
            .map(|mv| sample.san(mv))
            .filter(|san| san.contains('x') && san.starts_with(|c: char| c.is_ascii_lowercase()))
            .count()
    };
    for seed in 0..4 {
        let samples = sample_positions(variant, &view, None, seed, 6);
        assert!(!samples.is_empty());
        for sample in &samples {
            assert_eq!(pawn_captures(sample), 1, "{}", sample.fen());
        }
    }
    // The count is public: the onlookers' view tells it too.
    assert_eq!(game.view(Audience::Public).pawn_tries, Some(1));
}

/// How a battle-chess setup of Black's fares against `whites` random White
/// setups the chooser never saw: the starts it loses at once, and the sum
/// of a short evaluation of the others.
fn battle_setup_record(
    variant: &kodex_engine::Variant,
    black: &kodex_engine::setup::Placement,
    whites: &[kodex_engine::setup::Placement],
) -> (usize, i64) {
    use kodex_engine::search::evaluate;
    use kodex_engine::setup::start_fen;
    let mut lost = 0;
    let mut total = 0;
    for white in whites {
        let fen = start_fen(variant, [white, black]).expect("setups compose");
        let game = Game::new(variant, Start::Fen(fen)).expect("a position");
        if let Some(winner) = game.outcome().and_then(|o| o.winner()) {
            if winner != variant.definition().team_of(kodex_engine::Side::BLACK) {
                lost += 1;
            }
            continue;
        }
        total += i64::from(evaluate(&game, kodex_engine::Side::BLACK).clamp(-2_000, 2_000));
    }
    (lost, total)
}

#[test]
fn the_computers_battle_setups_shield_the_king_and_stay_random() {
    use kodex_engine::search::{pick_setup, Level};
    use kodex_engine::setup::Placement;
    use kodex_engine::Side;
    let registry = Registry::builtin();
    let battle = registry.get("battle").unwrap();
    let whites: Vec<Placement> = (0..40)
        .map(|i| Placement::random(battle, Side::WHITE, 9_000 + i).unwrap())
        .collect();
    let level = Level::new(6).unwrap();
    let (mut random_lost, mut random_total) = (0, 0);
    let (mut chosen_lost, mut chosen_total) = (0, 0);
    let mut texts = std::collections::HashSet::new();
    for seed in 0..6u64 {
        let random = Placement::random(battle, Side::BLACK, 100 + seed).unwrap();
        let chosen = pick_setup(battle, Side::BLACK, level, 100 + seed).unwrap();
        assert!(chosen.validate(battle, Side::BLACK).is_ok());
        // A seed repeats its choice.
        let again = pick_setup(battle, Side::BLACK, level, 100 + seed).unwrap();
        assert_eq!(chosen.to_text(battle), again.to_text(battle));
        texts.insert(chosen.to_text(battle));
        let (lost, total) = battle_setup_record(battle, &random, &whites);
        random_lost += lost;
        random_total += total;
        let (lost, total) = battle_setup_record(battle, &chosen, &whites);
        chosen_lost += lost;
        chosen_total += total;
    }
    // Still a different army each game.
    assert_eq!(texts.len(), 6);
    // Against setups it never saw, it loses fewer starts and stands better.
    assert!(
        chosen_lost < random_lost.max(1),
        "lost at the start: chosen {chosen_lost}, random {random_lost}"
    );
    assert!(
        chosen_total > random_total,
        "evaluation: chosen {chosen_total}, random {random_total}"
    );
    // The lowest level sets up at random.
    let level_one = pick_setup(battle, Side::BLACK, Level::new(1).unwrap(), 5).unwrap();
    assert!(level_one.validate(battle, Side::BLACK).is_ok());
}

/// The pieces of `side` in a game's full view.
fn pieces_of(game: &Game, side: Side) -> Vec<(usize, char)> {
    game.view(Audience::Full)
        .squares
        .iter()
        .enumerate()
        .filter_map(|(square, seen)| match seen {
            SquareView::Piece(glyph) if glyph.side == side => Some((square, glyph.letter)),
            _ => None,
        })
        .collect()
}

#[test]
fn kriegspiel_believed_positions_agree_with_every_announcement() {
    use kodex_engine::search::believed_positions;
    let registry = Registry::builtin();
    let variant = registry.get("kriegspiel").expect("kriegspiel");
    let mut game = Game::new(variant, Start::Standard).expect("start");
    for san in ["e4", "d5"] {
        game.play_text(san).expect(san);
    }
    // "White has one pawn try": a black piece stands where a white pawn takes.
    assert_eq!(game.view(Audience::Side(Side::WHITE)).pawn_tries, Some(1));
    let pawn_captures = |sample: &Game| {
        sample
            .legal_moves()
            .into_iter()
            .map(|mv| sample.san(mv))
            .filter(|san| san.contains('x') && san.starts_with(|c: char| c.is_ascii_lowercase()))
            .count()
    };
    for seed in 0..4 {
        let believed = believed_positions(&game, Side::WHITE, seed, 6);
        assert!(
            believed.len() >= 2,
            "seed {seed}: {} positions",
            believed.len()
        );
        for sample in &believed {
            assert_eq!(pawn_captures(sample), 1, "{}", sample.fen());
        }
    }
    // White takes on d5 (the referee says where), Black takes back there.
    for san in ["exd5", "Qxd5"] {
        game.play_text(san).expect(san);
    }
    let d5 = game.view(Audience::Full).index(3, 4);
    for sample in believed_positions(&game, Side::WHITE, 5, 6) {
        let black = pieces_of(&sample, Side::BLACK);
        assert!(black.iter().any(|&(sq, _)| sq == d5), "{}", sample.fen());
        // White's capture took one of Black's sixteen pieces.
        assert_eq!(black.len(), 15, "{}", sample.fen());
        assert_eq!(
            pieces_of(&sample, Side::WHITE).len(),
            15,
            "{}",
            sample.fen()
        );
    }
    // The attempts found impossible this turn are impossible in every
    // believed position: Qd1-h5 was refused, so something stands between.
    let mut game = Game::new(variant, Start::Standard).expect("start");
    for san in ["e4", "e5"] {
        game.play_text(san).expect(san);
    }
    match game.parse_attempt("e4e5") {
        Ok(kodex_engine::Attempt::Impossible(uci)) => game.record_impossible(&uci),
        other => panic!("e4e5 should be impossible: {other:?}"),
    }
    let e5 = game.view(Audience::Full).index(4, 4);
    let believed = believed_positions(&game, Side::WHITE, 2, 6);
    assert!(!believed.is_empty());
    for sample in &believed {
        assert!(
            pieces_of(sample, Side::BLACK)
                .iter()
                .any(|&(sq, _)| sq == e5),
            "{}",
            sample.fen()
        );
    }
}

#[test]
fn fog_believed_positions_keep_the_opponents_castling_rights_and_agree_with_every_view() {
    use kodex_engine::search::believed_positions;
    let registry = Registry::builtin();
    let variant = registry.get("fogofwar").expect("fog");
    let mut game = Game::new(variant, Start::Standard).expect("start");
    for san in ["e4", "e5"] {
        game.play_text(san).expect(san);
    }
    // The pawn on e4 cannot step: only 1...e5 fits what White saw.
    let believed = believed_positions(&game, Side::WHITE, 3, 6);
    assert_eq!(believed.len(), 1);
    let real = game.view(Audience::Side(Side::WHITE));
    for sample in &believed {
        // Black's first move can have moved neither its king nor a rook.
        assert_eq!(
            castling_and_en_passant(&sample.fen()).0,
            "KQkq",
            "{}",
            sample.fen()
        );
        assert_eq!(
            sample.view(Audience::Side(Side::WHITE)).squares,
            real.squares,
            "{}",
            sample.fen()
        );
    }
    // A black king that stepped out and back has lost its rights in every
    // position White believes once White saw it leave (and White's rook
    // that went to a8 and back has lost White's long castling).
    let mut game = Game::new(
        variant,
        Start::Fen("4k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1".into()),
    )
    .expect("fen");
    for uci in ["a1a8", "e8e7", "a8a1", "e7e8"] {
        let mv = game.parse_move(uci).expect(uci);
        game.play(mv);
    }
    for sample in believed_positions(&game, Side::WHITE, 1, 6) {
        assert_eq!(
            castling_and_en_passant(&sample.fen()).0,
            "K",
            "{}",
            sample.fen()
        );
    }
}

#[test]
fn believed_positions_depend_only_on_what_the_seat_was_told() {
    use kodex_engine::search::{believed_positions, pick_move_for_seat};
    let registry = Registry::builtin();
    // Twins: Black's first moves differ where White cannot see (in fog,
    // neither g8 nor h6 is in White's view; in Kriegspiel the referee says
    // nothing of either), so White was told the same in both.
    for (id, a, b) in [
        ("fogofwar", ["e4", "Nh6"], ["e4", "h6"]),
        ("kriegspiel", ["e4", "Nf6"], ["e4", "Nc6"]),
    ] {
        let variant = registry.get(id).expect(id);
        let twins: Vec<Game> = [a, b]
            .iter()
            .map(|moves| {
                let mut game = Game::new(variant, Start::Standard).expect("start");
                for san in moves {
                    game.play_text(san).expect(san);
                }
                game
            })
            .collect();
        let (first, second) = (&twins[0], &twins[1]);
        assert_ne!(first.fen(), second.fen());
        assert_eq!(
            first.view(Audience::Side(Side::WHITE)).squares,
            second.view(Audience::Side(Side::WHITE)).squares,
            "{id}"
        );
        for seed in 0..3 {
            let fens = |game: &Game| -> Vec<String> {
                believed_positions(game, Side::WHITE, seed, 6)
                    .iter()
                    .map(Game::fen)
                    .collect()
            };
            assert_eq!(fens(first), fens(second), "{id} seed {seed}");
            let level = Level::new(2).expect("level");
            assert_eq!(
                pick_move_for_seat(first, Side::WHITE, level, seed, 4, None),
                pick_move_for_seat(second, Side::WHITE, level, seed, 4, None),
                "{id} seed {seed}"
            );
        }
    }
}
