//! The games with a public placement phase (VARIANTS.md): Frolov chess — its
//! placement zones and its first-move rule (take the king, mate at once,
//! "mate by the king") — and Maharajah and the Sepoys — the maharajah's
//! placement and its ends. Also Kriegspiel from a secret setup.

use kodex_engine::setup::{start_fen, turn_to_place, Placement, SetupError};
use kodex_engine::{
    Audience, Game, Reason, Registry, Side, SquareView, Standing, Start, Team, Variant,
};

fn variant(id: &str) -> Variant {
    Registry::builtin()
        .get(id)
        .unwrap_or_else(|| panic!("{id} is built in"))
        .clone()
}

fn game(variant: &Variant, fen: &str) -> Game {
    Game::new(variant, Start::Fen(fen.to_string())).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// `(winner, reason)` of a finished game, `None` for a draw; panics when the
/// game goes on.
fn result(game: &Game) -> (Option<Side>, Reason) {
    let outcome = game.outcome().expect("the game is over");
    let winner = match outcome.standing {
        Standing::Win(Team(team)) => Some(Side(team)),
        Standing::Draw => None,
        Standing::Ranked(_) => panic!("two teams"),
    };
    (winner, outcome.reason)
}

#[test]
fn the_games_are_built_in_with_names_and_rules_in_both_languages() {
    for (id, en, ru) in [
        ("frolov", "Frolov chess", "Шахматы Фролова"),
        ("maharajah", "Maharajah and the Sepoys", "Махараджа и сипаи"),
        (
            "kriegspielbattle",
            "Kriegspiel from a secret setup",
            "Кригшпиль с тайной расстановкой",
        ),
    ] {
        let variant = variant(id);
        assert_eq!((variant.name("en"), variant.name("ru")), (en, ru));
        assert!(variant.rules_text("en").len() > 300, "{id}");
        assert!(variant.rules_text("ru").len() > 300, "{id}");
        assert!(variant.setup().is_some(), "{id} has a setup phase");
    }
}

// ---- Frolov chess ----

#[test]
fn frolov_placement_zones_and_turns() {
    let frolov = variant("frolov");
    let mut white = Placement::default();
    let mut black = Placement::default();
    assert_eq!(turn_to_place(&frolov, [&white, &black]), Some(Side::WHITE));
    // Pawns only on ranks 2–4 (white), 7–5 (black); pieces anywhere.
    assert!(matches!(
        white.place_in_turn(&frolov, Side::WHITE, "a1", &black),
        Err(SetupError::PawnRank { from: 2, to: 4, .. })
    ));
    assert!(matches!(
        white.place_in_turn(&frolov, Side::WHITE, "e5", &black),
        Err(SetupError::PawnRank { .. })
    ));
    white
        .place_in_turn(&frolov, Side::WHITE, "Ke7", &black)
        .expect("a white king may stand on the seventh rank");
    assert_eq!(turn_to_place(&frolov, [&white, &black]), Some(Side::BLACK));
    assert!(matches!(
        black.place_in_turn(&frolov, Side::BLACK, "e4", &white),
        Err(SetupError::PawnRank { from: 5, to: 7, .. })
    ));
    assert_eq!(
        black.place_in_turn(&frolov, Side::BLACK, "Ke7", &white),
        Err(SetupError::Occupied("e7".into()))
    );
    // A king may be placed in check (next to the enemy king, even).
    black
        .place_in_turn(&frolov, Side::BLACK, "Kd8", &white)
        .expect("a king may be placed in check");
    black
        .place_in_turn(&frolov, Side::BLACK, "e5", &white)
        .expect("black pawns may stand on rank 5");
}

#[test]
fn frolov_random_placements_always_start_a_game() {
    let frolov = variant("frolov");
    let mut decided = 0;
    for seed in 1..=12u64 {
        let mut placements = [Placement::default(), Placement::default()];
        let mut turns = 0;
        while let Some(side) = turn_to_place(&frolov, [&placements[0], &placements[1]]) {
            let (ours, theirs) = if side == Side::WHITE {
                let (a, b) = placements.split_at_mut(1);
                (&mut a[0], &b[0])
            } else {
                let (a, b) = placements.split_at_mut(1);
                (&mut b[0], &a[0])
            };
            ours.place_random_in_turn(&frolov, side, theirs, seed * 1000 + turns)
                .expect("a random placement exists");
            turns += 1;
        }
        assert_eq!(turns, 32, "sixteen pieces each, in turn");
        let fen = start_fen(&frolov, [&placements[0], &placements[1]]).expect("composes");
        let game = game(&frolov, &fen);
        match game.outcome() {
            Some(outcome) => {
                decided += 1;
                assert!(
                    matches!(
                        outcome.reason,
                        Reason::KingCapture
                            | Reason::MateAtOnce
                            | Reason::Checkmate
                            | Reason::Stalemate
                    ),
                    "{fen}: {outcome:?}"
                );
            }
            None => assert!(!game.legal_moves().is_empty(), "{fen}"),
        }
    }
    // Random armies thrown on a board leave kings attacked often enough that
    // a dozen games are not all decided, nor all open.
    assert!(decided < 12);
}

#[test]
fn frolov_white_takes_the_king_at_once() {
    let frolov = variant("frolov");
    // The queen sees the black king up the e-file.
    let game = game(&frolov, "4k3/8/8/8/8/8/4Q3/K7 w - - 0 1");
    assert_eq!(result(&game), (Some(Side::WHITE), Reason::KingCapture));
    assert!(
        game.legal_moves().is_empty(),
        "nothing is played after the end"
    );
    // So does the white king itself, next to an undefended black king.
    let kings = game_of(&frolov, "8/8/8/8/8/3k4/3K4/8 w - - 0 1");
    assert_eq!(result(&kings), (Some(Side::WHITE), Reason::KingCapture));
}

fn game_of(variant: &Variant, fen: &str) -> Game {
    game(variant, fen)
}

#[test]
fn frolov_no_king_capture_that_leaves_the_own_king_in_check() {
    let frolov = variant("frolov");
    // The queen on b2 sees the king on b8 but is pinned by the bishop on h8:
    // taking would leave the white king in check. No mate at once either,
    // so play starts and the pinned queen may not take.
    let game = game(&frolov, "1k5b/8/8/8/8/8/1Q6/K7 w - - 0 1");
    assert_eq!(game.outcome(), None);
    let moves: Vec<String> = game
        .legal_moves()
        .into_iter()
        .map(|m| game.uci(m))
        .collect();
    assert!(!moves.contains(&"b2b8".to_string()), "{moves:?}");
    assert!(moves.contains(&"b2h8".to_string()), "{moves:?}");
}

#[test]
fn frolov_white_mates_at_once() {
    let frolov = variant("frolov");
    let start = game(&frolov, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    assert_eq!(result(&start), (Some(Side::WHITE), Reason::MateAtOnce));
    // Only before the first move: the same position later is plain chess.
    let later = game(&frolov, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 2");
    assert_eq!(later.outcome(), None);
    let mut later = later;
    later.play_text("Ra8").expect("the mate is played");
    assert_eq!(result(&later), (Some(Side::WHITE), Reason::Checkmate));
}

#[test]
fn frolov_mate_by_the_king() {
    let frolov = variant("frolov");
    // The black king on b2, defended by the rook on b8, attacks the white
    // king on a1: white may not take it and cannot escape — black wins.
    let game = game(&frolov, "1r6/8/8/8/8/8/1k6/K7 w - - 0 1");
    assert_eq!(result(&game), (Some(Side::BLACK), Reason::Checkmate));
    // Undefended, the same black king is simply taken.
    let taken = self::game(&frolov, "8/8/8/8/8/8/1k6/K7 w - - 0 1");
    assert_eq!(result(&taken), (Some(Side::WHITE), Reason::KingCapture));
}

#[test]
fn frolov_a_white_king_in_check_answers_it() {
    let frolov = variant("frolov");
    // Black's rook checks the white king; white cannot take the black king
    // or mate, so it must answer the check.
    let mut game = game(&frolov, "k7/8/8/8/8/8/8/r3K3 w - - 0 1");
    assert_eq!(game.outcome(), None);
    for mv in game.legal_moves() {
        let uci = game.uci(mv);
        assert_eq!(uci[..2], *"e1", "only the king can move: {uci}");
    }
    game.play_text("Ke2").expect("out of check");
}

// ---- Maharajah and the Sepoys ----

/// Seed 002: the maharajah "stands on any free square of the board and, making the first move,
/// starts the game". A square from which it attacks the black king is no exception.
#[test]
fn maharajah_is_placed_by_white_alone_on_any_free_square() {
    let maharajah = variant("maharajah");
    let none = Placement::default();
    let mut white = Placement::default();
    assert_eq!(
        turn_to_place(&maharajah, [&white, &none]),
        Some(Side::WHITE)
    );
    assert_eq!(
        Placement::default().place_in_turn(&maharajah, Side::BLACK, "Ke4", &white),
        Err(SetupError::NothingToPlace)
    );
    assert_eq!(
        white.place_in_turn(&maharajah, Side::WHITE, "Ke1", &none),
        Err(SetupError::NotInArmy('K'))
    );
    assert_eq!(
        white.place_in_turn(&maharajah, Side::WHITE, "Me7", &none),
        Err(SetupError::Occupied("e7".into()))
    );
    white
        .place_in_turn(&maharajah, Side::WHITE, "Me4", &none)
        .expect("e4 is free");
    assert_eq!(turn_to_place(&maharajah, [&white, &none]), None);
    let fen = start_fen(&maharajah, [&white, &none]).expect("composes");
    assert_eq!(fen, "rnbqkbnr/pppppppp/8/8/4M3/8/8/8 w kq - 0 1");
    let game = game(&maharajah, &fen);
    assert_eq!(game.outcome(), None);
    assert_eq!(game.side_to_move(), Side::WHITE);
    // Every free square is taken, by a typed placement and by a random one.
    for rank in 1..=6 {
        for file in 'a'..='h' {
            let word = format!("M{file}{rank}");
            let mut placed = Placement::default();
            placed
                .place_in_turn(&maharajah, Side::WHITE, &word, &none)
                .unwrap_or_else(|e| panic!("{word}: {e}"));
            let fen = start_fen(&maharajah, [&placed, &none]).expect("composes");
            assert_eq!(self::game(&maharajah, &fen).outcome(), None, "{fen}");
        }
    }
    for seed in 1..40 {
        let mut random = Placement::default();
        random
            .place_random_in_turn(&maharajah, Side::WHITE, &none, seed)
            .expect("a square exists");
        let fen = start_fen(&maharajah, [&random, &none]).expect("composes");
        assert_eq!(self::game(&maharajah, &fen).outcome(), None, "{fen}");
    }
}

/// A maharajah placed where it attacks the black king (d6: a knight's jump from e8) gives
/// check; the game neither ends nor lets white take the king: black, in check, moves first
/// and must answer it (here only by taking the maharajah, which wins for black).
#[test]
fn a_maharajah_placed_giving_check_puts_black_in_check_to_move() {
    let maharajah = variant("maharajah");
    let none = Placement::default();
    let mut white = Placement::default();
    white
        .place_in_turn(&maharajah, Side::WHITE, "Md6", &none)
        .expect("d6 is free");
    let fen = start_fen(&maharajah, [&white, &none]).expect("composes");
    assert_eq!(fen, "rnbqkbnr/pppppppp/3M4/8/8/8/8/8 b kq - 0 1");
    let mut game = game(&maharajah, &fen);
    assert_eq!(game.outcome(), None);
    assert_eq!(game.side_to_move(), Side::BLACK);
    assert!(game.in_check());
    let mut answers: Vec<String> = game
        .legal_moves()
        .into_iter()
        .map(|m| game.uci(m))
        .collect();
    answers.sort();
    assert_eq!(answers, ["c7d6", "e7d6"]);
    game.play_text("cxd6").expect("legal");
    assert_eq!(result(&game), (Some(Side::BLACK), Reason::NoPieces));
    // From h5 it attacks the king along the diagonal h5-e8 once f7 is gone; with f7 standing
    // it gives no check and white moves first as usual.
    let mut white = Placement::default();
    white
        .place_in_turn(&maharajah, Side::WHITE, "Mh5", &none)
        .expect("h5 is free");
    let fen = start_fen(&maharajah, [&white, &none]).expect("composes");
    assert_eq!(fen, "rnbqkbnr/pppppppp/8/7M/8/8/8/8 w kq - 0 1");
}

#[test]
fn maharajah_ends() {
    let maharajah = variant("maharajah");
    // White mates the black king.
    let mut mate = game(&maharajah, "k7/8/8/8/8/8/8/1M6 w - - 0 10");
    mate.play_text("Mb6").expect("legal");
    assert_eq!(result(&mate), (Some(Side::WHITE), Reason::Checkmate));
    // Black takes the maharajah.
    let mut taken = game(&maharajah, "4k3/8/8/8/8/8/3q4/4M3 b - - 0 10");
    taken.play_text("Qxe1").expect("legal");
    assert_eq!(result(&taken), (Some(Side::BLACK), Reason::NoPieces));
    // A stalemated black king draws.
    let stalemate = game(&maharajah, "k7/8/8/1M6/8/8/8/8 b - - 0 10");
    assert_eq!(result(&stalemate), (None, Reason::Stalemate));
    // The maharajah is never in check: it may stand attacked, and a lone
    // black king is no draw by material against it.
    let attacked = game(&maharajah, "k7/8/8/8/8/8/3p4/4M3 w - - 0 10");
    assert!(!attacked.in_check());
    assert_eq!(attacked.outcome(), None);
}

#[test]
fn a_kingless_side_without_moves_loses_where_the_variant_says_so() {
    let mut registry = Registry::builtin();
    let files = [
        (
            "stuck.toml".to_string(),
            "id = \"stuck\"\nextends = \"chess\"\nkingless_stalemate = \"loss\"\n\
             start = \"4k3/8/8/8/8/4p3/4P3/8 w - - 0 1\"\n"
                .to_string(),
        ),
        (
            "plain.toml".to_string(),
            "id = \"plain\"\nextends = \"chess\"\n\
             start = \"4k3/8/8/8/8/4p3/4P3/8 w - - 0 1\"\n"
                .to_string(),
        ),
    ];
    registry
        .add_definitions(&files)
        .expect("the definition reads");
    let stuck = registry.get("stuck").expect("added").clone();
    // White's only pawn is blocked: white has no move and no king.
    let game = Game::new(&stuck, Start::Standard).expect("starts");
    assert_eq!(result(&game), (Some(Side::BLACK), Reason::NoMoves));
    // Without the key, the same position is an ordinary stalemate. (Chess
    // itself refuses it: its start gives white a king.)
    let plain = registry.get("plain").expect("added").clone();
    let plain = Game::new(&plain, Start::Standard).expect("a kingless start reads");
    assert_eq!(result(&plain), (None, Reason::Stalemate));
    let chess = variant("chess");
    assert_eq!(
        Game::new(&chess, Start::Fen("4k3/8/8/8/8/4p3/4P3/8 w - - 0 1".into())).err(),
        Some(kodex_engine::FenError::MissingRoyal(Side::WHITE))
    );
}

// ---- Kriegspiel from a secret setup ----

#[test]
fn kriegspielbattle_sets_up_as_chessbattle_and_shows_own_pieces_only() {
    let krieg = variant("kriegspielbattle");
    assert!(krieg.hidden_information());
    let mut white = Placement::default();
    assert_eq!(
        white.apply(&krieg, Side::WHITE, "RNBQKBNR/PPPPPPP1/P7"),
        Err(SetupError::PawnsShareFile('a'))
    );
    white
        .apply(&krieg, Side::WHITE, "RNBQKBNR/PPPPPPPP")
        .expect("the classical half is a chess-battle setup");
    let mut black = Placement::default();
    black
        .apply(&krieg, Side::BLACK, "rnbqkbnr/8/pppppppp")
        .expect("pawns on the third rank");
    let fen = start_fen(&krieg, [&white, &black]).expect("composes");
    assert_eq!(fen, "rnbqkbnr/8/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1");
    let game = game(&krieg, &fen);
    // No castling, and white's board holds white's pieces only.
    let view = game.view(Audience::Side(Side::WHITE));
    let black_seen = view
        .squares
        .iter()
        .filter(|sq| matches!(sq, SquareView::Piece(g) if g.side == Side::BLACK))
        .count();
    assert_eq!(black_seen, 0);
    assert_eq!(game.legal_moves().len(), 20);
}
