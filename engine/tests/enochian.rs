//! Enochian chess (VARIANTS.md "Multi-player games", seed 000): the seed's
//! setup, the clockwise turn order of four armies in two teams, the queen's
//! leaps, pawns running four ways and promoting to their own kind, kings
//! taken rather than mated, frozen armies and stalemate passes.

mod common;
use common::{board_fen, legal, new_game, play, random_game_to_end};
use kodex_engine::{ForcedTurn, Game, Reason, Registry, Start, Team};

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
    let text = include_str!("../../config/variants/enochian.toml");
    let added = registry
        .add_definition("enochian.toml", text)
        .map(|v| v.id().to_string());
    assert_eq!(added, Ok("enochian".to_string()));
}

#[test]
fn turns_go_clockwise_red_black_yellow_blue_and_each_moves_its_own_army() {
    let mut game = start();
    // Red (bottom right): pawns e2-h2 step up (h2 is blocked by the bishop
    // on h3), the knight f1 and the bishop h3.
    let red = legal(&game);
    assert!(red.contains(&"e2e3".to_string()) && red.contains(&"g2g3".to_string()));
    assert!(!red.iter().any(|m| m.starts_with("h2")), "{red:?}");
    assert!(
        red.contains(&"f1e3".to_string()) && red.contains(&"h3e6".to_string()),
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
        .all(|m| m.starts_with('a') || m.starts_with('b') || m.starts_with("c1")));
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
    let pieces = with_kings(&[("e7", 'O'), ("c2", 'U'), ("d2", 'P'), ("f2", 'W')]);
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
    let pieces = with_kings(&[("e7", 'O'), ("c2", 'U'), ("d2", 'P')]);
    let game = game_at(&pieces, 0);
    let red = legal(&game);
    assert!(red.contains(&"e7e8q".to_string()), "{red:?}");
    assert!(!red.contains(&"e7e8".to_string()), "{red:?}");
}

#[test]
fn a_privileged_pawn_promotes_to_any_piece_and_demotes_its_twin() {
    // The seed's figures 4 and 5: black has king, queen and bishop's pawn;
    // the pawn may become any piece, and becoming a queen turns black's
    // queen into a queen's pawn.
    let pieces = with_kings(&[("g5", 'p'), ("c3", 'q')]);
    let mut game = game(&fen(&pieces, 1));
    let black: Vec<String> = legal(&game)
        .into_iter()
        .filter(|m| m.starts_with("g5"))
        .collect();
    assert_eq!(black, ["g5h5b", "g5h5n", "g5h5q", "g5h5r"]);
    play(&mut game, &["g5h5q"]);
    assert!(
        game.fen().starts_with("C6c/8/8/7q/8/2o5/8/k6K"),
        "{}",
        game.fen()
    );
    // With a rook besides, the pawn is not privileged: only its own kind.
    let pieces = with_kings(&[("g5", 'p'), ("c3", 'q'), ("c4", 'r')]);
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
    game(&fen(&with_kings(&[("g4", 'r')]), 0))
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
    let pieces = with_kings(&[("b3", 'R'), ("c2", 'Q')]);
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
    assert_eq!(outcome.reason, Reason::Stalemate);
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
    let pieces = [("h1", 'K'), ("a8", 'C'), ("h8", 'c'), ("g4", 'r')];
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
