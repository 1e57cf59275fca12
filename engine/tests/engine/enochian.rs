//! Enochian chess (VARIANTS.md "Multi-player games", seed 000): the seed's
//! setup, the clockwise turn order of four armies in two teams, the queen's
//! leaps, pawns running four ways and promoting to their own kind, kings
//! taken rather than mated, frozen armies and stalemate passes; thrones,
//! prisoners, retirement (and the bare king's shared turns) and the draws
//! of a team out of play.

use crate::common::{board_fen, legal, new_game, play, random_game_to_end};
use kodex_engine::{Audience, FenError, ForcedTurn, Game, Reason, Registry, Start, Team};

/// A FEN of the 8×8 board from `(square, letter)` pieces; the seat on turn
/// is red (0), black (1), yellow (2) or blue (3).
fn fen(pieces: &[(&str, char)], seat: u32) -> String {
    let side = if seat % 2 == 1 { "b" } else { "w" };
    format!("{} {side} - - 0 {}", board_fen(8, 8, pieces), 1 + seat / 2)
}

fn game(fen: &str) -> Game {
    new_game("enochian", Start::Fen(fen.to_owned()))
}

fn start() -> Game {
    new_game("enochian", Start::Standard)
}

/// The four kings on their thrones: red h1, black a1, yellow a8, blue h8.
const KINGS: [(&str, char); 4] = [("h1", 'K'), ("a1", 'k'), ("a8", 'C'), ("h8", 'c')];

fn with_kings(more: &[(&str, char)]) -> Vec<(&'static str, char)> {
    let mut pieces: Vec<(&'static str, char)> = KINGS.to_vec();
    for &(sq, letter) in more {
        let sq: &'static str = Box::leak(sq.to_string().into_boxed_str());
        pieces.retain(|&(s, _)| s != sq);
        pieces.push((sq, letter));
    }
    pieces
}

#[test]
fn the_definition_reads() {
    let mut registry = Registry::builtin();
    let text = include_str!("../../../config/variants/enochian.toml");
    let added = registry
        .add_definition("enochian.toml", text)
        .map(|v| v.id().to_string());
    assert_eq!(added, Ok("enochian".to_string()));
}

#[test]
fn turns_go_clockwise_red_black_yellow_blue_and_each_moves_its_own_army() {
    let mut game = start();
    // Red (bottom right): pawns e2-h2 step up, the knight f1, the queen g1
    // and the rook e1 (the king and the bishop on h1 are hemmed in).
    let red = legal(&game);
    assert!(red.contains(&"e2e3".to_string()) && red.contains(&"h2h3".to_string()));
    assert!(
        red.contains(&"f1e3".to_string()) && red.contains(&"e1c1".to_string()),
        "{red:?}"
    );
    assert!(red
        .iter()
        .all(|m| ["e", "f", "g", "h"].iter().any(|f| m.starts_with(f))));
    play(&mut game, &["e2e3"]);
    // Black (bottom left): pawns on the b-file step right.
    let black = legal(&game);
    assert!(black.contains(&"b2c2".to_string()) && black.contains(&"b4c4".to_string()));
    assert!(
        !black.iter().any(|m| m.starts_with("b2") && m != "b2c2"),
        "{black:?}"
    );
    assert!(black
        .iter()
        .all(|m| m.starts_with('a') || m.starts_with('b')));
    play(&mut game, &["b2c2"]);
    // Yellow (top left): pawns on rank 7 step down.
    assert_eq!(game.seat_to_move(), 2);
    let yellow = legal(&game);
    assert!(yellow.contains(&"b7b6".to_string()) && !yellow.contains(&"b7b5".to_string()));
    assert!(yellow.iter().all(|m| m.starts_with('a')
        || m.starts_with('b')
        || m.starts_with('c')
        || m.starts_with('d')));
    play(&mut game, &["b7b6"]);
    // Blue (top right): pawns on the g-file step left.
    assert_eq!(game.seat_to_move(), 3);
    let blue = legal(&game);
    assert!(blue.contains(&"g7f7".to_string()) && blue.contains(&"g5f5".to_string()));
    assert!(blue
        .iter()
        .all(|m| m.starts_with('f') || m.starts_with('g') || m.starts_with('h')));
    play(&mut game, &["g7f7"]);
    assert_eq!(game.seat_to_move(), 0);
}

#[test]
fn the_queen_leaps_two_squares_in_eight_directions() {
    let mut game = game(&fen(
        &with_kings(&[("d4", 'Q'), ("d5", 'u'), ("e5", 'p')]),
        0,
    ));
    let queen: Vec<String> = legal(&game)
        .into_iter()
        .filter(|m| m.starts_with("d4"))
        .collect();
    // Over the pieces on d5 and e5: alfil and dabbaba leaps only.
    assert_eq!(
        queen,
        ["d4b2", "d4b4", "d4b6", "d4d2", "d4d6", "d4f2", "d4f4", "d4f6"]
    );
    play(&mut game, &["d4d6"]);
}

#[test]
fn pawns_promote_on_their_far_edge_to_their_own_kind() {
    // Red's queen's pawn on e7, black's knight's pawn on g5, yellow's queen's
    // pawn on c2, blue's bishop's pawn on b4.
    // (Red's rook on e4 keeps red's pawn from being privileged.)
    let pieces = with_kings(&[
        ("e7", 'O'),
        ("e4", 'R'),
        ("g5", 'w'),
        ("c2", 'X'),
        ("b4", 's'),
    ]);
    let mut game = game(&fen(&pieces, 0));
    assert!(
        legal(&game).contains(&"e7e8q".to_string()),
        "{:?}",
        legal(&game)
    );
    assert!(!legal(&game).iter().any(|m| m == "e7e8r" || m == "e7e8"));
    play(&mut game, &["e7e8q"]);
    assert!(
        legal(&game).contains(&"g5h5n".to_string()),
        "{:?}",
        legal(&game)
    );
    play(&mut game, &["g5h5n"]);
    assert!(
        legal(&game).contains(&"c2c1d".to_string()),
        "{:?}",
        legal(&game)
    );
    play(&mut game, &["c2c1d"]);
    assert!(
        legal(&game).contains(&"b4a4e".to_string()),
        "{:?}",
        legal(&game)
    );
    play(&mut game, &["b4a4e"]);
    assert!(
        game.fen().starts_with("C3Q2c/8/8/7n/e3R3/8/8/k1D4K"),
        "{}",
        game.fen()
    );
}

#[test]
fn a_pawn_promotes_only_once_its_player_has_lost_a_pawn() {
    // Red has all four pawns: the queen's pawn reaches e8 and stays a pawn.
    // (Blue's pawn on g6 keeps black and blue from bare kings, a draw.)
    let pieces = with_kings(&[
        ("e7", 'O'),
        ("c2", 'U'),
        ("d2", 'P'),
        ("f2", 'W'),
        ("g6", 'z'),
    ]);
    let mut game = game(&fen(&pieces, 0));
    let red = legal(&game);
    assert!(red.contains(&"e7e8".to_string()), "{red:?}");
    assert!(
        !red.iter().any(|m| m.starts_with("e7e8") && m.len() > 4),
        "{red:?}"
    );
    play(&mut game, &["e7e8"]);
    assert!(game.fen().starts_with("C3O2c/"), "{}", game.fen());
    // With a pawn fewer, the same step promotes, and only to a queen.
    let pieces = with_kings(&[("e7", 'O'), ("c2", 'U'), ("d2", 'P'), ("g6", 'z')]);
    let game = game_at(&pieces, 0);
    let red = legal(&game);
    assert!(red.contains(&"e7e8q".to_string()), "{red:?}");
    assert!(!red.contains(&"e7e8".to_string()), "{red:?}");
}

/// Seed 000: «"Превращение" откладывается, если ни одна из пешек игрока не взята» — the
/// pawn that reached its edge before its player lost a pawn waits there, and becomes the
/// piece of its kind when a pawn of that player is taken (not a partner's pawn, nor an
/// opponent's).
#[test]
fn a_waiting_pawn_promotes_once_a_pawn_of_its_player_is_taken() {
    // Red: all four pawns, the queen's pawn on e7. Yellow (red's partner): all four, the
    // queen's pawn already waiting on c1. Black: a knight on e4 eyeing red's d2 and f2.
    let pieces = with_kings(&[
        ("e7", 'O'),
        ("c2", 'U'),
        ("d2", 'P'),
        ("f2", 'W'),
        ("c1", 'X'),
        ("b7", 'Y'),
        ("c7", 'S'),
        ("d7", 'Z'),
        ("e4", 'n'),
    ]);
    let start = fen(&pieces, 0);
    let mut game = game(&start);
    play(&mut game, &["e7e8"]);
    assert!(game.fen().starts_with("C3O2c/"), "{}", game.fen());
    // Black takes red's bishop's pawn: red's waiting pawn becomes a queen at once; yellow's
    // waiting pawn stays a pawn (yellow has lost none).
    let played = game.play_text("Nxd2").unwrap();
    assert_eq!(played.uci, "e4d2");
    let fen_after = game.fen();
    assert!(fen_after.starts_with("C3Q2c/"), "{fen_after}");
    assert!(fen_after.contains("k1X"), "{fen_after}");
    // Replayed from the record: the same position, the same hashes.
    let record: Vec<String> = game.history().iter().map(|m| m.uci.clone()).collect();
    let registry = Registry::builtin();
    let replayed = Game::replay(registry.get("enochian").unwrap(), &start, &record).unwrap();
    assert_eq!(replayed.fen(), fen_after);
    assert_eq!(replayed.position_hashes(), game.position_hashes());
    // The new queen moves as one (red's turn comes after yellow's and blue's).
    play(&mut game, &["b7b6", "h8h7"]);
    assert!(
        legal(&game).contains(&"e8e6".to_string()),
        "{:?}",
        legal(&game)
    );
}

#[test]
fn a_privileged_pawn_promotes_to_any_piece_and_demotes_its_twin() {
    // The seed's figures 4 and 5: black has king, queen and bishop's pawn;
    // the pawn may become any piece, and becoming a queen turns black's
    // queen into a queen's pawn.
    // (Yellow's pawn on d7 keeps red and yellow from bare kings, a draw.)
    let pieces = with_kings(&[("g5", 'p'), ("c3", 'q'), ("d7", 'Y')]);
    let mut game = game(&fen(&pieces, 1));
    let black: Vec<String> = legal(&game)
        .into_iter()
        .filter(|m| m.starts_with("g5"))
        .collect();
    assert_eq!(black, ["g5h5b", "g5h5n", "g5h5q", "g5h5r"]);
    play(&mut game, &["g5h5q"]);
    assert!(
        game.fen().starts_with("C6c/3Y4/8/7q/8/2o5/8/k6K"),
        "{}",
        game.fen()
    );
    // With a rook besides, the pawn is not privileged: only its own kind.
    let pieces = with_kings(&[("g5", 'p'), ("c3", 'q'), ("c4", 'r'), ("d7", 'Y')]);
    let game = game_at(&pieces, 1);
    let black: Vec<String> = legal(&game)
        .into_iter()
        .filter(|m| m.starts_with("g5"))
        .collect();
    assert_eq!(black, ["g5h5b"]);
}

#[test]
fn a_king_may_not_step_into_attack_but_in_check_must_move() {
    // Red's king on h1 is checked by black's rook on h4; red's rook on e3
    // could block on h3, but a king in check that can move must move.
    let pieces = with_kings(&[("h4", 'r'), ("e3", 'R'), ("c6", 'b')]);
    let game = game(&fen(&pieces, 0));
    let red = legal(&game);
    assert!(
        !red.is_empty() && red.iter().all(|m| m.starts_with("h1")),
        "{red:?}"
    );
    // g1 and g2 are free of live attacks; h2 stays on the rook's file but is
    // still a king move, allowed when in check.
    assert!(red.contains(&"h1g1".to_string()) && red.contains(&"h1h2".to_string()));
    // Not in check: the king may not step onto an attacked square.
    let quiet = game_not_in_check();
    let moves = legal(&quiet);
    assert!(!moves.contains(&"h1g1".to_string()), "{moves:?}");
    assert!(moves.contains(&"h1h2".to_string()), "{moves:?}");
}

fn game_not_in_check() -> Game {
    // Black's rook on g4 attacks g1 and g2.
    // (Yellow's pawn on d7 keeps red and yellow from bare kings.)
    game(&fen(&with_kings(&[("g4", 'r'), ("d7", 'Y')]), 0))
}

#[test]
fn a_hemmed_in_king_in_check_lets_another_piece_move() {
    // Red's king on h1 is checked by the knight on g3 and hemmed in by its
    // own pieces: another piece moves.
    let pieces = with_kings(&[("g3", 'n'), ("g1", 'Q'), ("g2", 'O'), ("h2", 'P')]);
    let game = game(&fen(&pieces, 0));
    let red = legal(&game);
    // The queen takes the checker, or leaps elsewhere; the king has no move.
    assert!(red.contains(&"g1g3".to_string()), "{red:?}");
    assert!(red.contains(&"g1e3".to_string()), "{red:?}");
    assert!(!red.iter().any(|m| m.starts_with("h1")), "{red:?}");
}

#[test]
fn a_taken_king_freezes_its_army_and_the_team_loses_with_the_second() {
    // Red's rook takes black's king on a1; black's rook on a4 is frozen.
    let pieces = with_kings(&[("e1", 'R'), ("a4", 'r'), ("d4", 'N')]);
    let mut game = game(&fen(&pieces, 0));
    play(&mut game, &["e1a1"]);
    assert!(game.outcome().is_none());
    // Black passes: its army is frozen.
    assert_eq!(legal(&game), ["a4a4"]);
    assert_eq!(game.forced_turn(), Some(ForcedTurn::NoMove));
    play(&mut game, &["pass"]);
    // Yellow's king on a8 stands on the frozen rook's file: no check, and
    // yellow may not take the frozen rook.
    play(&mut game, &["a8b8"]);
    play(&mut game, &["h8g8"]);
    // Red's rook on a1 may not take the frozen rook on a4.
    let red = legal(&game);
    assert!(red.contains(&"a1a3".to_string()), "{red:?}");
    assert!(!red.iter().any(|m| m.ends_with("a4")), "{red:?}");
    // Blue's king is taken too, black's being gone already: the team loses.
    let pieces = [
        ("h1", 'K'),
        ("a8", 'C'),
        ("g8", 'c'),
        ("g1", 'R'),
        ("a4", 'r'),
    ];
    let mut last = game_at(&pieces, 0);
    play(&mut last, &["g1g8"]);
    let outcome = last
        .outcome()
        .expect("both kings of black and blue are gone");
    assert_eq!(outcome.reason, Reason::KingsTaken);
    assert_eq!(outcome.winner(), Some(Team(0)));
}

fn game_at(pieces: &[(&str, char)], seat: u32) -> Game {
    game(&fen(pieces, seat))
}

#[test]
fn a_stalemated_player_passes_until_freed() {
    // Black's king on a1 cannot move without stepping into attack and has
    // nothing else: black passes; yellow and blue play on.
    // (Blue's pawn on g6 keeps black and blue from bare kings.)
    let pieces = with_kings(&[("b3", 'R'), ("c2", 'Q'), ("g6", 'z')]);
    let mut game = game(&fen(&pieces, 1));
    assert_eq!(legal(&game), ["a1a1"]);
    play(&mut game, &["pass"]);
    assert_eq!(game.seat_to_move(), 2);
    assert!(game.outcome().is_none());
}

#[test]
fn a_stalemate_with_the_partner_kingless_is_a_draw() {
    let pieces = [
        ("h1", 'K'),
        ("a1", 'k'),
        ("a8", 'C'),
        ("b3", 'R'),
        ("c2", 'Q'),
    ];
    let game = game(&fen(&pieces, 1));
    let outcome = game.outcome().expect("a draw");
    assert_eq!(outcome.winner(), None);
    assert_eq!(outcome.reason, Reason::TeamStalemated);
}

#[test]
fn a_bishop_completing_a_crossing_takes_the_other_three() {
    // Yellow's bishop on c5, black's on d4, blue's on d5: red's bishop
    // arriving on c4 takes all three, its partner's included. (Red's pawn
    // on g2 shields the king from blue's bishop.)
    let pieces = with_kings(&[
        ("a2", 'B'),
        ("c5", 'E'),
        ("d4", 'b'),
        ("d5", 'e'),
        ("g2", 'O'),
    ]);
    let mut game = game(&fen(&pieces, 0));
    play(&mut game, &["a2c4"]);
    assert!(
        game.fen().starts_with("C6c/8/8/8/2B5/8/6O1/k6K"),
        "{}",
        game.fen()
    );
    // A queen does not cross with bishops.
    let pieces = with_kings(&[("a2", 'B'), ("c5", 'E'), ("d4", 'b'), ("d5", 'd')]);
    let mut game = game_at(&pieces, 0);
    play(&mut game, &["a2c4"]);
    assert!(
        game.fen().starts_with("C6c/8/8/2Ed4/2Bb4/"),
        "{}",
        game.fen()
    );
    // Nor does a square outside the five crossings: c3:d4 is none.
    let pieces = with_kings(&[
        ("a1", 'k'),
        ("a5", 'B'),
        ("c4", 'E'),
        ("d3", 'b'),
        ("d4", 'e'),
    ]);
    let mut game = game_at(&pieces, 0);
    play(&mut game, &["a5c3"]);
    assert!(game.fen().contains("/2Ee4/2Bb4/"), "{}", game.fen());
}

#[test]
fn a_frozen_piece_gives_no_check() {
    // Black has no king: its rook on g4 is frozen, and red's king may step
    // onto g1, which the rook would otherwise attack.
    let pieces = [
        ("h1", 'K'),
        ("a8", 'C'),
        ("h8", 'c'),
        ("g4", 'r'),
        ("d7", 'Y'),
    ];
    let game = game_at(&pieces, 0);
    assert!(
        legal(&game).contains(&"h1g1".to_string()),
        "{:?}",
        legal(&game)
    );
}

/// Plays `games` random games to their end; none may leave a seat without
/// a move, and random play must reach taken kings.
fn random_games(games: u64, seed: u64) {
    let registry = Registry::builtin();
    let variant = registry.get("enochian").expect("built in");
    let mut kings_taken = 0;
    for g in 0..games {
        let game = random_game_to_end(variant, seed, g, |_, _| {});
        if game
            .outcome()
            .is_some_and(|o| o.reason == Reason::KingsTaken)
        {
            kings_taken += 1;
        }
    }
    eprintln!("{kings_taken} of {games} games ended with both kings of a team taken");
    assert!(kings_taken > 0, "no team lost its kings in {games} games");
}

#[test]
fn random_games_never_panic_and_always_end() {
    random_games(30, 1);
}

#[test]
#[ignore = "slow: five hundred random games"]
fn many_random_games_never_panic_and_always_end() {
    random_games(500, 1000);
}

// Thrones, prisoners and the draws of a team out of play.

/// A FEN as [`fen`] writes it, with what the thrones remember in the
/// castling field (`T0`: red controls yellow; `X30`: red took blue's king).
fn fen_remembering(pieces: &[(&str, char)], seat: u32, memory: &str) -> String {
    let side = if seat % 2 == 1 { "b" } else { "w" };
    format!(
        "{} {side} {memory} - 0 {}",
        board_fen(8, 8, pieces),
        1 + seat / 2
    )
}

/// Whether the incremental hash of the search board agrees with the hash
/// from scratch after every legal move of `game`.
fn hashes_agree_after_every_move(game: &Game) {
    let board = game.search_board();
    let mut list = Vec::new();
    board.legal_moves_into(&mut list);
    assert!(!list.is_empty(), "{}", game.fen());
    for &mv in &list {
        let mut after = board;
        after.make(mv);
        assert_eq!(after.hash(), after.hash_from_scratch(), "{}", game.uci(mv));
    }
}

#[test]
fn a_king_on_its_partners_throne_takes_control_and_keeps_it_after_leaving() {
    // Red's king steps from b7 onto yellow's throne a8 (yellow's king is
    // on c5): yellow's army is red's to play, on yellow's own turns.
    let pieces = [
        ("b7", 'K'),
        ("a1", 'k'),
        ("c5", 'C'),
        ("h8", 'c'),
        ("d4", 'T'),
        ("g6", 'z'),
    ];
    let mut game = game_at(&pieces, 0);
    assert_eq!(game.controller(2), 2);
    hashes_agree_after_every_move(&game);
    play(&mut game, &["b7a8"]);
    assert_eq!((game.controller(2), game.controller(0)), (0, 0));
    assert!(game.fen().contains(" b T0 "), "{}", game.fen());
    play(&mut game, &["a1b1"]);
    // Yellow's turn, red's choice: the armies still move in turn.
    assert_eq!(game.seat_to_move(), 2);
    assert_eq!(game.controller(2), 0);
    play(&mut game, &["d4d3", "h8g8"]);
    // Red's king leaves the throne: control stays.
    play(&mut game, &["a8b8"]);
    assert_eq!(game.controller(2), 0);
    // Blue's and black's armies are their own.
    assert_eq!((game.controller(1), game.controller(3)), (1, 3));
    // Restarted from its record, the game is the same.
    let record = game.record();
    let replayed = Game::replay(game.variant(), &game.start_fen(), &record).expect("replays");
    assert_eq!(replayed.fen(), game.fen());
    assert_eq!(replayed.position_hashes(), game.position_hashes());
    assert_eq!(replayed.controller(2), 0);
    // Taken back, control is gone with the step onto the throne.
    let mut back = game.clone();
    for _ in 0..5 {
        assert_eq!(back.undo_turn(), 1);
    }
    assert_eq!(back.controller(2), 2);
    assert_eq!(back.fen(), game_at(&pieces, 0).fen());
}

#[test]
fn a_frozen_army_moves_again_under_its_partners_control() {
    // Yellow's king is gone: its rook on d4 is frozen and yellow passes.
    let pieces = [
        ("b8", 'K'),
        ("a1", 'k'),
        ("h8", 'c'),
        ("d4", 'T'),
        ("g6", 'z'),
    ];
    assert_eq!(legal(&game_at(&pieces, 2)), ["d4d4"]);
    // Red's king takes yellow's throne: the rook moves on yellow's turns.
    let mut game = game_at(&pieces, 0);
    play(&mut game, &["b8a8", "a1b1"]);
    let yellow = legal(&game);
    assert!(
        yellow.contains(&"d4d8".to_string()) && yellow.contains(&"d4a4".to_string()),
        "{yellow:?}"
    );
    assert_eq!(game.forced_turn(), None);
    hashes_agree_after_every_move(&game);
    // The revived rook attacks again: black's king may not step onto the c-file.
    play(&mut game, &["d4c4", "h8g8", "a8b8"]);
    let black = legal(&game);
    assert!(
        !black.contains(&"b1c1".to_string()) && !black.contains(&"b1c2".to_string()),
        "{black:?}"
    );
    assert!(black.contains(&"b1b2".to_string()), "{black:?}");
}

#[test]
fn control_goes_back_when_the_usurper_is_taken() {
    // Red's king on a8 controls yellow's army (yellow's king is on c5);
    // black's rook takes it: yellow plays its own army again.
    let pieces = [
        ("a8", 'K'),
        ("a1", 'k'),
        ("c5", 'C'),
        ("h8", 'c'),
        ("d6", 'Y'),
        ("e8", 'r'),
    ];
    let mut game = game(&fen_remembering(&pieces, 1, "T0"));
    assert_eq!(game.controller(2), 0);
    play(&mut game, &["e8a8"]);
    assert!(game.outcome().is_none());
    assert_eq!(game.controller(2), 2);
    assert_eq!(game.prisoner_of(1), Some(0));
    assert!(game.fen().contains(" X01 "), "{}", game.fen());
}

#[test]
fn the_team_loses_when_the_usurper_is_taken_and_its_partner_has_no_king() {
    // Yellow's king is gone; red's king on a8 controls yellow's army. Black
    // takes it: both armies are kingless and red and yellow lose.
    let pieces = [
        ("a8", 'K'),
        ("a1", 'k'),
        ("h8", 'c'),
        ("d4", 'T'),
        ("e8", 'r'),
    ];
    let mut game = game(&fen_remembering(&pieces, 1, "T0"));
    assert!(game.outcome().is_none());
    play(&mut game, &["e8a8"]);
    let outcome = game
        .outcome()
        .expect("both kings of red and yellow are gone");
    assert_eq!(outcome.reason, Reason::KingsTaken);
    assert_eq!(outcome.winner(), Some(Team(1)));
}

#[test]
fn a_taken_king_is_the_prisoner_of_the_army_that_took_it() {
    // Red's rook takes blue's king on h8.
    let pieces = with_kings(&[("h3", 'R'), ("c6", 'r')]);
    let mut game = game_at(&pieces, 0);
    assert_eq!(game.prisoner_of(0), None);
    play(&mut game, &["h3h8"]);
    assert_eq!(game.prisoner_of(0), Some(3));
    assert_eq!(game.prisoner_of(1), None);
    assert!(game.fen().contains(" X30 "), "{}", game.fen());
    // One prisoner is not an exchange.
    assert_eq!(
        game.may_exchange(0, 1),
        Err(kodex_engine::ExchangeError::NoPrisoner(1))
    );
}

/// Red holds blue's king, black holds yellow's: red and black may exchange.
const PRISONERS: [(&str, char); 6] = [
    ("h1", 'K'),
    ("a1", 'k'),
    ("d4", 'R'),
    ("e5", 'r'),
    ("c6", 'T'),
    ("f3", 't'),
];

#[test]
fn exchanged_prisoners_come_back_to_their_thrones_and_their_armies_play() {
    let mut game = game(&fen_remembering(&PRISONERS, 0, "X30X21"));
    assert_eq!(
        (game.prisoner_of(0), game.prisoner_of(1)),
        (Some(3), Some(2))
    );
    // Yellow's rook is frozen before the exchange.
    assert_eq!(game.may_exchange(1, 0), Ok(()));
    assert_eq!(game.exchange(1, 0), Ok("&01".to_string()));
    assert!(game.fen().starts_with("C6c/"), "{}", game.fen());
    assert!(game.fen().contains(" w - "), "{}", game.fen());
    assert_eq!((game.prisoner_of(0), game.prisoner_of(1)), (None, None));
    // The turn has not passed; yellow's rook plays on yellow's turn.
    assert_eq!(game.seat_to_move(), 0);
    play(&mut game, &["h1g1", "a1b1"]);
    assert!(
        legal(&game).contains(&"c6c8".to_string()),
        "{:?}",
        legal(&game)
    );
    hashes_agree_after_every_move(&game);
}

#[test]
fn a_king_whose_throne_is_taken_comes_back_to_the_nearest_empty_square() {
    // Black's rook stands on a8, red's rook on h8 and red's knight on g7.
    // Yellow's king: b7, a7 and b8 are one step away, b7 nearest the centre.
    // Blue's king: g8 and h7 are one step away and as near the centre:
    // the lower file, g8.
    let mut pieces = PRISONERS.to_vec();
    pieces.extend([("a8", 'r'), ("h8", 'R'), ("g7", 'N')]);
    let mut game = game(&fen_remembering(&pieces, 0, "X30X21"));
    game.exchange(0, 1).expect("an exchange");
    let fen = game.fen();
    assert!(fen.starts_with("r5cR/1C4N1/"), "{fen}");
}

#[test]
fn no_exchange_for_a_captor_that_lost_its_own_king() {
    // Red took blue's king, black took red's: red's king is gone.
    let pieces = [
        ("a8", 'C'),
        ("a1", 'k'),
        ("d4", 'R'),
        ("e5", 'r'),
        ("c6", 'T'),
        ("f3", 't'),
    ];
    let mut game = game(&fen_remembering(&pieces, 0, "X30X01"));
    use kodex_engine::ExchangeError;
    assert_eq!(game.exchange(0, 1), Err(ExchangeError::OwnKingTaken(0)));
    assert_eq!(game.may_exchange(2, 1), Err(ExchangeError::NoPrisoner(2)));
    assert_eq!(game.may_exchange(0, 2), Err(ExchangeError::NotOpponents));
    // Nothing changed.
    assert_eq!(
        game.fen(),
        self::game(&fen_remembering(&pieces, 0, "X30X01")).fen()
    );
}

#[test]
fn an_exchange_replays_from_the_record_and_is_taken_back_with_its_move() {
    let start = fen_remembering(&PRISONERS, 0, "X30X21");
    let mut game = game(&start);
    play(&mut game, &["h1g1"]);
    game.exchange(0, 1).expect("an exchange");
    play(&mut game, &["a1b1"]);
    assert_eq!(game.record(), ["h1g1", "&01", "a1b1"]);
    let replayed = Game::replay(game.variant(), &start, &game.record()).expect("replays");
    assert_eq!(replayed.fen(), game.fen());
    assert_eq!(replayed.position_hashes(), game.position_hashes());
    assert!(game
        .pgn(&[], "*")
        .contains("{prisoners exchanged by seats 1 and 2}"));
    // A record whose exchange is not allowed does not replay.
    assert!(Game::replay(game.variant(), &start, &["&02"]).is_err());
    // Taking back black's move, then red's with the exchange after it.
    assert_eq!(game.undo_turn(), 1);
    assert_eq!(game.undo_turn(), 2);
    assert_eq!(game.fen(), self::game(&start).fen());
    assert_eq!(
        (game.prisoner_of(0), game.prisoner_of(1)),
        (Some(3), Some(2))
    );
}

#[test]
fn a_stalemate_draws_when_the_partner_is_stalemated_too() {
    // Black's king on a1 and blue's on h8 have no safe square, and blue's
    // pawn on b5 is blocked by red's knight: both are stalemated.
    let pieces = with_kings(&[
        ("b3", 'R'),
        ("c2", 'Q'),
        ("g4", 'T'),
        ("e7", 'R'),
        ("b5", 'z'),
        ("a5", 'N'),
    ]);
    let game = game_at(&pieces, 1);
    let outcome = game.outcome().expect("a draw");
    assert_eq!(outcome.winner(), None);
    assert_eq!(outcome.reason, Reason::TeamStalemated);
    // With blue's king free to move, black only passes.
    let mut pieces = pieces;
    pieces.retain(|&(sq, _)| sq != "e7");
    let game = game_at(&pieces, 1);
    assert!(game.outcome().is_none());
    assert_eq!(legal(&game), ["a1a1"]);
}

#[test]
fn a_stalemated_king_on_its_partners_throne_draws() {
    // Black's king stands stalemated on blue's throne h8 (blue's king is on
    // d5, free to move).
    let pieces = [
        ("h1", 'K'),
        ("h8", 'k'),
        ("a8", 'C'),
        ("d5", 'c'),
        ("g1", 'R'),
        ("a7", 'T'),
        ("b4", 'z'),
    ];
    let game = game_at(&pieces, 1);
    let outcome = game.outcome().expect("a draw");
    assert_eq!(outcome.reason, Reason::TeamStalemated);
}

#[test]
fn bare_kings_of_a_team_draw_at_once() {
    // Red's rook takes blue's last pawn: black and blue have bare kings.
    let pieces = with_kings(&[("c3", 'R'), ("c6", 'z')]);
    let mut game = game_at(&pieces, 0);
    assert!(game.outcome().is_none());
    play(&mut game, &["c3c6"]);
    let outcome = game.outcome().expect("a draw");
    assert_eq!(outcome.winner(), None);
    assert_eq!(outcome.reason, Reason::BareKings);
}

// Retirement: a player leaves the game, handing the army to the partner.

/// Kings on their thrones, red's rook on d4, yellow's rook on c6 and
/// blue's pawn on g6 (so no team has bare kings).
fn retiring() -> Vec<(&'static str, char)> {
    with_kings(&[("d4", 'R'), ("c6", 'T'), ("g6", 'z')])
}

#[test]
fn a_retired_players_army_is_moved_by_the_partner_on_its_own_turns() {
    let start = fen(&retiring(), 0);
    let mut game = game(&start);
    play(&mut game, &["h1g1", "a1b1"]);
    // Yellow's turn: yellow retires. The turn does not pass; red now
    // chooses yellow's moves, on yellow's turns only.
    assert_eq!(game.may_retire(2), Ok(()));
    assert_eq!(game.retire(2), Ok("&r2".to_string()));
    assert!(game.retired(2) && !game.retired(0));
    assert_eq!(game.seat_to_move(), 2);
    assert_eq!((game.controller(2), game.controller(0)), (0, 0));
    assert_eq!((game.controller(1), game.controller(3)), (1, 3));
    assert!(!game.shares_turns(2) && !game.shares_turns(0));
    assert!(game.fen().contains(" w R2 "), "{}", game.fen());
    // Yellow's turn: yellow's army moves, red's does not.
    let yellow = legal(&game);
    assert!(yellow.contains(&"c6c8".to_string()), "{yellow:?}");
    assert!(!yellow
        .iter()
        .any(|m| m.starts_with("d4") || m.starts_with("g1")));
    hashes_agree_after_every_move(&game);
    play(&mut game, &["c6c7", "h8g8"]);
    // Red's turn: red's own army only.
    let red = legal(&game);
    assert!(red.contains(&"d4d8".to_string()), "{red:?}");
    assert!(!red
        .iter()
        .any(|m| m.starts_with("c7") || m.starts_with("a8")));
    // The record keeps the retirement where it was made and replays exactly.
    assert_eq!(game.record(), ["h1g1", "a1b1", "&r2", "c6c7", "h8g8"]);
    let replayed = Game::replay(game.variant(), &start, &game.record()).expect("replays");
    assert_eq!(replayed.fen(), game.fen());
    assert_eq!(replayed.position_hashes(), game.position_hashes());
    assert_eq!(replayed.controller(2), 0);
    assert!(game.pgn(&[], "*").contains("{seat 3 retired}"));
    // The retirement is part of the position: same board, other hash.
    let mut stayed = self::game(&start);
    play(&mut stayed, &["h1g1", "a1b1", "c6c7", "h8g8"]);
    assert_ne!(stayed.fen(), game.fen());
    assert_ne!(
        stayed.position_hashes().last(),
        game.position_hashes().last()
    );
    // The FEN carries it.
    let from_fen = self::game(&game.fen());
    assert!(from_fen.retired(2) && from_fen.controller(2) == 0);
    // Taken back: blue's move, then yellow's; then black's move with the
    // retirement after it.
    assert_eq!(game.undo_turn(), 1);
    assert_eq!(game.undo_turn(), 1);
    assert!(game.retired(2));
    assert_eq!(game.undo_turn(), 2);
    assert!(!game.retired(2));
    assert_eq!(game.controller(2), 2);
    assert_eq!(game.record(), ["h1g1"]);
}

#[test]
fn who_may_not_retire() {
    use kodex_engine::RetireError;
    let mut game = game(&fen(&retiring(), 0));
    assert_eq!(game.may_retire(4), Err(RetireError::NoSeat));
    game.retire(2).expect("yellow retires");
    assert_eq!(game.retire(2), Err(RetireError::AlreadyRetired));
    // The last player of a team stays.
    assert_eq!(game.retire(0), Err(RetireError::PartnerRetired));
    // The other team may still.
    assert_eq!(game.may_retire(1), Ok(()));
    // A record with a retirement not allowed does not replay.
    let start = fen(&retiring(), 0);
    assert!(Game::replay(game.variant(), &start, &["&r2", "&r0"]).is_err());
    assert!(Game::replay(game.variant(), &start, &["&r7"]).is_err());
    // Own king taken, partner's king taken.
    let pieces: Vec<_> = retiring().into_iter().filter(|p| p.0 != "h8").collect();
    let kingless = self::game(&fen(&pieces, 0));
    assert_eq!(kingless.may_retire(3), Err(RetireError::OwnKingTaken));
    assert_eq!(kingless.may_retire(1), Err(RetireError::PartnerKingTaken));
    // Red's king took yellow's throne: red plays two armies and may not
    // retire; yellow, whose army red moves, may.
    let mut pieces = retiring();
    pieces.retain(|p| p.0 != "a8" && p.0 != "h1");
    pieces.extend([("a8", 'K'), ("c5", 'C')]);
    let usurped = self::game(&fen_remembering(&pieces, 0, "T0"));
    assert_eq!(usurped.may_retire(0), Err(RetireError::ControlsPartner));
    assert_eq!(usurped.may_retire(2), Ok(()));
    // Not a game of four in teams.
    let chess = new_game("chess", Start::Standard);
    assert_eq!(chess.may_retire(0), Err(RetireError::NoThrones));
    // Nor once the game is over.
    let pieces = with_kings(&[("c3", 'R'), ("c6", 'z')]);
    let mut over = game_at(&pieces, 0);
    play(&mut over, &["c3c6"]);
    assert!(over.outcome().is_some());
    assert_eq!(over.may_retire(0), Err(RetireError::GameOver));
}

/// Whether the legal moves of `game` hold both `ours` and `theirs` (one of
/// each army of a team sharing turns), the hashes agreeing after each.
fn offers_both(game: &Game, ours: &str, theirs: &str) {
    let moves = legal(game);
    assert!(
        moves.iter().any(|m| m == ours) && moves.iter().any(|m| m == theirs),
        "{moves:?}"
    );
    hashes_agree_after_every_move(game);
}

#[test]
fn a_player_leaving_a_bare_king_lets_the_partner_move_either_army_on_both_turns() {
    // Yellow has only its king on a8; red its king and a knight on e5.
    let pieces = with_kings(&[("e5", 'N'), ("d6", 'z'), ("e2", 'r')]);
    let start = fen(&pieces, 0);
    let mut game = game(&start);
    game.retire(2).expect("yellow retires");
    assert!(game.fen().contains(" w U2 "), "{}", game.fen());
    assert!(game.shares_turns(0) && game.shares_turns(2));
    assert!(!game.shares_turns(1));
    // Red's turn: red's knight or yellow's bare king.
    offers_both(&game, "e5g6", "a8b8");
    // The king moves on red's turn, and the turn passes to black.
    play(&mut game, &["a8b8"]);
    assert_eq!(game.seat_to_move(), 1);
    play(&mut game, &["a1b1"]);
    // Yellow's turn: again either army; red's knight checks blue's king.
    assert_eq!(game.seat_to_move(), 2);
    assert_eq!(game.controller(2), 0);
    offers_both(&game, "e5g6", "b8a8");
    // The knight moves on yellow's turn; blue's king in check steps aside.
    play(&mut game, &["e5g6"]);
    assert_eq!(game.seat_to_move(), 3);
    play(&mut game, &["h8g7"]);
    // Replays exactly.
    let replayed = Game::replay(game.variant(), &start, &game.record()).expect("replays");
    assert_eq!(replayed.fen(), game.fen());
    assert_eq!(replayed.position_hashes(), game.position_hashes());
    // With yellow's bare king taken, the shared turns end and yellow's turns pass.
    let pieces = [
        ("h1", 'K'),
        ("a1", 'k'),
        ("h8", 'c'),
        ("e5", 'N'),
        ("d6", 'z'),
    ];
    let mut kingless = self::game(&fen_remembering(&pieces, 2, "U2"));
    assert!(!kingless.shares_turns(0));
    assert_eq!(kingless.forced_turn(), Some(ForcedTurn::NoMove));
    play(&mut kingless, &["pass"]);
    assert_eq!(kingless.seat_to_move(), 3);
}

#[test]
fn a_king_taken_on_a_shared_turn_is_the_prisoner_of_the_army_that_took_it() {
    // Yellow retired with a bare king; red's knight checks blue's king on
    // red's turn and takes it on yellow's, before blue moves.
    let pieces = with_kings(&[("e5", 'N'), ("d6", 'z')]);
    let mut game = game(&fen_remembering(&pieces, 0, "U2"));
    play(&mut game, &["e5g6", "a1b1", "g6h8"]);
    assert_eq!(game.prisoner_of(0), Some(3));
    assert_eq!(game.prisoner_of(2), None);
    assert!(game.fen().contains("X30"), "{}", game.fen());
}

#[test]
fn a_player_who_retires_with_more_than_a_king_keeps_turns_apart() {
    // Yellow has a pawn besides its king: red moves each army on its own turn.
    let pieces = with_kings(&[("d4", 'R'), ("g6", 'z'), ("c6", 'X')]);
    let mut game = game_at(&pieces, 0);
    game.retire(2).expect("yellow retires");
    assert!(!game.shares_turns(0));
    let red = legal(&game);
    assert!(!red
        .iter()
        .any(|m| m.starts_with("a8") || m.starts_with("c6")));
    // Yellow's pawn taken later: the turns still stay apart (the army was
    // more than a king when yellow left).
    let mut pieces = with_kings(&[("d4", 'R'), ("g6", 'z')]);
    pieces.push(("c6", 'X'));
    pieces.push(("c8", 'r'));
    let mut game = game_at(&pieces, 0);
    game.retire(2).expect("yellow retires");
    play(&mut game, &["h1g1", "c8c6", "a8b8", "h8g8"]);
    let red = legal(&game);
    assert!(!red.iter().any(|m| m.starts_with("b8")), "{red:?}");
}

#[test]
fn a_stalemate_draws_when_the_partner_has_retired() {
    // Black's king on a1 is stalemated (see `a_stalemated_player_passes_until_freed`)
    // and passes while blue plays; once blue retires, the game is drawn.
    let pieces = with_kings(&[("b3", 'R'), ("c2", 'Q'), ("g6", 'z')]);
    let mut game = game(&fen(&pieces, 1));
    assert_eq!(legal(&game), ["a1a1"]);
    assert!(game.outcome().is_none());
    game.retire(3).expect("blue retires");
    let outcome = game.outcome().expect("a draw");
    assert_eq!(outcome.winner(), None);
    assert_eq!(outcome.reason, Reason::TeamStalemated);
    // The same from a FEN remembering it.
    let game = self::game(&fen_remembering(&pieces, 1, "R3"));
    assert_eq!(
        game.outcome().map(|o| o.reason),
        Some(Reason::TeamStalemated)
    );
}

#[test]
fn random_games_with_a_retirement_replay_and_end() {
    random_games_with_a_retirement(12);
}

#[test]
#[ignore = "slow: three hundred random games"]
fn many_random_games_with_a_retirement_replay_and_end() {
    random_games_with_a_retirement(300);
}

/// Plays `games` random games, a seat retiring in each where it may; each
/// ends, and replays from its record to the same position.
fn random_games_with_a_retirement(games: u64) {
    let registry = Registry::builtin();
    let variant = registry.get("enochian").expect("built in");
    let mut retired = 0;
    for g in 0..games {
        let mut rng = crate::common::SplitMix(77 + g);
        let mut game = Game::new(variant, Start::Standard).expect("start");
        let at = 8 + (g as usize % 5) * 6;
        let mut plies = 0;
        while game.outcome().is_none() {
            if plies == at && game.retire((g % 4) as usize).is_ok() {
                retired += 1;
            }
            let mv = crate::common::random_move(&game, &mut rng);
            game.play(mv);
            plies += 1;
            assert!(plies < 20_000, "game {g} does not end: {}", game.fen());
        }
        let replayed = Game::replay(variant, &game.start_fen(), &game.record()).expect("replays");
        assert_eq!(replayed.fen(), game.fen());
    }
    assert!(retired > games / 2, "only {retired} retirements");
}

#[test]
fn random_games_with_shared_turns_replay_and_end() {
    // Yellow retired leaving a bare king: red moves either army on both turns.
    let pieces = with_kings(&[
        ("d4", 'R'),
        ("e5", 'N'),
        ("e2", 'r'),
        ("c3", 'n'),
        ("d6", 'z'),
    ]);
    let start = fen_remembering(&pieces, 0, "U2");
    let mut shared_moves = 0;
    for g in 0..20u64 {
        let mut rng = crate::common::SplitMix(500 + g);
        let mut game = game(&start);
        let mut plies = 0;
        while game.outcome().is_none() {
            let seat = game.seat_to_move();
            let mv = crate::common::random_move(&game, &mut rng);
            // A move of the other army of the team on this turn: yellow's
            // king on red's turn, or red's army on yellow's.
            let king = square_of(&game.fen(), 'C');
            let by_king = king.is_some_and(|sq| game.uci(mv).starts_with(&sq));
            if game.shares_turns(seat) && (seat == 0) == by_king {
                shared_moves += 1;
            }
            game.play(mv);
            plies += 1;
            assert!(plies < 20_000, "game {g} does not end: {}", game.fen());
        }
        let replayed = Game::replay(game.variant(), &start, &game.record()).expect("replays");
        assert_eq!(replayed.fen(), game.fen());
        assert_eq!(replayed.position_hashes(), game.position_hashes());
    }
    assert!(
        shared_moves > 0,
        "no move of the other army on a shared turn"
    );
}

/// The square (`b7`) of the first piece `letter` on the board of `fen`.
fn square_of(fen: &str, letter: char) -> Option<String> {
    let board = fen.split(' ').next()?;
    for (row, rank) in board.split('/').enumerate() {
        let mut file = 0u8;
        let mut pair = false;
        for c in rank.chars() {
            match c.to_digit(10) {
                Some(n) => file += n as u8,
                // A doubled throne `(KB)` is one square.
                None if c == '(' => pair = true,
                None if c == ')' => {
                    pair = false;
                    file += 1;
                }
                None if c == letter => {
                    return Some(format!("{}{}", (b'a' + file) as char, 8 - row));
                }
                None if !pair => file += 1,
                None => {}
            }
        }
    }
    None
}

// Doubled thrones (seed 000): «Во всех восьми начальных расстановках каждый престол занимают
// две фигуры: королем и еще одной, в приведенном выше случае слоном. Эта сдвоенная расстановка
// допускается только в начале игры. После того, как король или другая фигура будет переведена с
// престола, он не может быть занят одновременно двумя фигурами на всем протяжении игры. Если одна
// из фигур противника перемещается на престол, занятый двумя фигурами, обе они считаются взятыми.»

/// The seed's start: every throne holds its king and its bishop, so red's
/// first move Re1-c1 takes nothing (it took the bishop standing on c1
/// before); red has twelve moves, the king and the bishop none.
#[test]
fn each_throne_starts_with_its_king_and_its_bishop() {
    let game = start();
    assert_eq!(
        game.fen(),
        "(CE)DHT2s(ce)/SXZY2xd/6zh/6yt/ru6/nw6/qo2UWOP/(kb)p2RNQ(KB) w - - 0 1"
    );
    let red = legal(&game);
    assert_eq!(
        red,
        [
            "e1b1", "e1c1", "e1d1", "e2e3", "f1d2", "f1e3", "f1g3", "f2f3", "g1e3", "g1g3", "g2g3",
            "h2h3"
        ]
    );
    let rook_to_c1 = game
        .legal_moves()
        .into_iter()
        .find(|&m| game.uci(m) == "e1c1")
        .expect("Rc1");
    assert_eq!(game.san(rook_to_c1), "Rc1");
    assert_eq!(game.perft_total(1), 12);
    // The board shows each king with its bishop beside it.
    let view = game.view(Audience::Full);
    let mut seconds: Vec<(u16, char)> = view
        .second_pieces
        .iter()
        .map(|&(square, glyph)| (square, glyph.letter))
        .collect();
    seconds.sort();
    // Bishops on a1, h1, a8 and h8, each beside its own army's king.
    assert_eq!(seconds, [(0, 'B'), (7, 'B'), (56, 'B'), (63, 'B')]);
    for &(square, bishop) in &view.second_pieces {
        assert!(
            matches!(view.squares[square as usize],
                kodex_engine::SquareView::Piece(king) if king.letter == 'K' && king.side == bishop.side),
            "{square}"
        );
    }
    hashes_agree_after_every_move(&game);
}

/// A doubled throne as a FEN: black's king and bishop on a1, the other
/// kings on their thrones (red's alone on h1), and `more`.
fn doubled_fen(rows: [&str; 8], seat: u32) -> String {
    let side = if seat % 2 == 1 { "b" } else { "w" };
    format!("{} {side} - - 0 {}", rows.join("/"), 1 + seat / 2)
}

#[test]
fn an_enemy_piece_moving_onto_a_doubled_throne_takes_both() {
    // Black's king and bishop on a1, red's rook on a5; blue's pawn g6 keeps
    // black and blue from bare kings.
    let start = doubled_fen(["C6c", "8", "6z1", "R7", "8", "8", "8", "(kb)6K"], 0);
    let mut game = game(&start);
    let played = game.play_text("Rxa1").expect("the rook takes the throne");
    assert_eq!(played.uci, "a5a1");
    // Both are gone: black's king (its army frozen, the king red's
    // prisoner) and its bishop.
    assert_eq!(
        game.fen(),
        "C6c/8/6z1/8/8/8/8/R6K b X10 - 0 1",
        "both pieces of the throne taken"
    );
    assert!(game.view(Audience::Full).second_pieces.is_empty());
    let record: Vec<String> = game.history().iter().map(|m| m.uci.clone()).collect();
    let replayed = Game::replay(game.variant(), &start, &record).expect("replays");
    assert_eq!(replayed.fen(), game.fen());
    assert_eq!(replayed.position_hashes(), game.position_hashes());
}

#[test]
fn either_piece_leaves_a_doubled_throne_and_it_holds_one_piece_from_then_on() {
    // Red's king and bishop on h1 (g2 free); black's, yellow's and blue's
    // kings on their thrones; blue's pawn g6.
    let start = doubled_fen(["C6c", "8", "6z1", "8", "8", "8", "8", "k6(KB)"], 0);
    let mut game = game(&start);
    hashes_agree_after_every_move(&game);
    let red = legal(&game);
    // The king's steps, the bishop's diagonal (a8 is yellow's king): on g2
    // both may step, the bishop's step written with its letter.
    assert_eq!(
        red,
        ["h1b7", "h1c6", "h1d5", "h1e4", "h1f3", "h1g1", "h1g2", "h1g2b", "h1h2"]
    );
    let sans: Vec<String> = game
        .legal_moves()
        .into_iter()
        .filter(|&m| game.uci(m).starts_with("h1g2"))
        .map(|m| game.san(m))
        .collect();
    assert_eq!(sans, ["Kg2", "Bg2"]);
    // The bishop leaves: the king stays, alone.
    let played = game.play_text("Bg2").expect("the bishop steps off");
    assert_eq!(played.uci, "h1g2b");
    assert!(
        game.fen().starts_with("C6c/8/6z1/8/8/8/6B1/k6K b "),
        "{}",
        game.fen()
    );
    assert!(game.view(Audience::Full).second_pieces.is_empty());
    play(&mut game, &["a1b1", "a8b8", "g6f6"]);
    // It may not come back while the king is there.
    let red = legal(&game);
    assert!(!red.iter().any(|m| m.ends_with("h1")), "{red:?}");
    play(&mut game, &["Kh2", "b1a1", "b8a8", "f6e6"]);
    // The throne empty, the bishop may return; then the king may not join it.
    play(&mut game, &["Bh1", "a1b1", "a8b8", "e6d6"]);
    assert!(
        game.fen().starts_with("1C5c/8/3z4/8/8/8/7K/1k5B w "),
        "{}",
        game.fen()
    );
    let red = legal(&game);
    assert!(!red.contains(&"h2h1".to_string()), "{red:?}");
    // The record replays: the bishop's step from the throne reads back as
    // the bishop's.
    let record: Vec<String> = game.history().iter().map(|m| m.uci.clone()).collect();
    assert_eq!(record[0], "h1g2b");
    let replayed = Game::replay(game.variant(), &start, &record).expect("replays");
    assert_eq!(replayed.fen(), game.fen());
    assert_eq!(replayed.position_hashes(), game.position_hashes());
    // The king's step from the doubled throne is the plain one.
    let mut king = self::game(&start);
    assert_eq!(
        king.play_text("Kg2").expect("the king steps off").uci,
        "h1g2"
    );
    assert!(
        king.fen().starts_with("C6c/8/6z1/8/8/8/6K1/k6B b "),
        "{}",
        king.fen()
    );
    let mut typed = self::game(&start);
    assert_eq!(typed.play_text("h1g2").expect("typed squares").uci, "h1g2");
}

#[test]
fn a_king_in_check_on_a_doubled_throne_must_move_and_its_bishop_may_not() {
    // Black's rook on h5 checks red's king on h1 (with its bishop).
    let start = doubled_fen(["C6c", "8", "6z1", "7r", "8", "8", "8", "k6(KB)"], 0);
    let game = game(&start);
    assert_eq!(legal(&game), ["h1g1", "h1g2", "h1h2"]);
}

#[test]
fn a_doubled_throne_reads_only_as_a_throne_of_its_own_king_and_one_more_piece() {
    let registry = Registry::builtin();
    let variant = registry.get("enochian").expect("built in");
    let bad = |board: &str| {
        let fen = format!("{board} w - - 0 1");
        match Game::new(variant, Start::Fen(fen.clone())) {
            Err(FenError::BadPair(square)) => square,
            other => panic!("{fen}: {:?}", other.map(|g| g.fen())),
        }
    };
    // Not a throne; a throne of another seat; two pieces but no king; a
    // partner's piece; two armies; three pieces.
    assert_eq!(bad("C6c/8/8/8/3(KB)4/8/8/k6K"), "d4");
    assert_eq!(bad("C6c/8/8/8/8/8/8/(KB)6K"), "a1");
    assert_eq!(bad("C6c/8/8/8/8/8/8/k6(RB)"), "h1");
    assert_eq!(bad("C6c/8/8/8/8/8/8/k6(KE)"), "h1");
    assert_eq!(bad("C6c/8/8/8/8/8/8/k6(Kb)"), "h1");
    assert_eq!(bad("C6c/8/8/8/8/8/8/k6(KBR)"), "h1");
    assert_eq!(bad("C6c/8/8/8/8/8/8/k6(KB"), "h1");
    // Each seat's own, in either order, reads and is written king first.
    let game = game("C6c/8/6z1/8/8/8/8/(bk)6(BK) w - - 0 1");
    assert_eq!(game.fen(), "C6c/8/6z1/8/8/8/8/(kb)6(KB) w - - 0 1");
}
