//! Four-handed chess (VARIANTS.md "Multi-player games", seed 002): turn
//! order, pawns of every seat, the command zone, the mated king taken on the
//! next move, the game going on and ending with the side's second king.

mod common;
use common::{board_fen, legal, new_game, play, random_game_to_end};
use kodex_engine::{ForcedTurn, Game, Reason, Registry, Start, Team};

/// A FEN of the 14×14 cross from `(square, letter)` pieces (holes count as
/// empty squares in FEN), white to move in full move `fullmove`.
fn fen(pieces: &[(&str, char)], black_to_move: bool, fullmove: u32) -> String {
    let side = if black_to_move { "b" } else { "w" };
    format!("{} {side} - - 0 {fullmove}", board_fen(14, 14, pieces))
}

#[test]
fn the_definition_reads() {
    let mut registry = Registry::builtin();
    let text = include_str!("../../config/variants/fourplayer.toml");
    let added = registry
        .add_definition("fourplayer.toml", text)
        .map(|v| v.id().to_string());
    assert_eq!(added, Ok("fourplayer".to_string()));
}

fn game(fen: &str) -> Game {
    new_game("fourplayer", Start::Fen(fen.to_owned()))
}

fn start() -> Game {
    new_game("fourplayer", Start::Standard)
}

/// The kings of the four seats, out of the way, so that positions are legal.
const KINGS: [(&str, char); 4] = [("h1", 'K'), ("a7", 'C'), ("h14", 'k'), ("n7", 'c')];

#[test]
fn seats_take_turns_white1_black1_white2_black2() {
    let mut game = start();
    let variant = game.variant().clone();
    let def = variant.definition();
    let mut seats = Vec::new();
    for mv in ["e2e4", "e13e11", "b7d7", "m7k7", "f2f3"] {
        seats.push(game.seat_to_move());
        play(&mut game, &[mv]);
    }
    seats.push(game.seat_to_move());
    assert_eq!(seats, [0, 1, 2, 3, 0, 1]);
    let sides: Vec<u8> = (0..4).map(|seat| def.side_of_seat(seat).0).collect();
    assert_eq!(sides, [0, 1, 0, 1]);
    let teams: Vec<Team> = def.seating().iter().map(|&(_, _, team)| team).collect();
    assert_eq!(teams, [Team(0), Team(1), Team(0), Team(1)]);
}

#[test]
fn each_seat_moves_only_its_own_army_from_the_start() {
    let mut game = start();
    // White-1: eight pawns, one or two steps up, and two knights: 20 moves,
    // every one from its own arm (ranks 1-2).
    let moves = legal(&game);
    assert_eq!(moves.len(), 20, "{moves:?}");
    assert!(moves.iter().all(|m| m.ends_with(['3', '4'])), "{moves:?}");
    // Black-1 moves down, white-2 right, black-2 left: each 20 moves, and
    // none of the partner's pieces.
    play(&mut game, &["d2d4"]);
    let black1 = legal(&game);
    assert_eq!(black1.len(), 20, "{black1:?}");
    assert!(black1.contains(&"e13e11".to_string()) && !black1.iter().any(|m| m.starts_with("m")));
    play(&mut game, &["e13e11"]);
    let white2 = legal(&game);
    assert_eq!(white2.len(), 20, "{white2:?}");
    assert!(white2.contains(&"b5d5".to_string()), "{white2:?}");
    assert!(white2.contains(&"a10c9".to_string()), "{white2:?}");
    // White-1's pawn stands in the centre now, and the partner may move it.
    assert!(white2.contains(&"d4d5".to_string()), "{white2:?}");
    assert!(!white2.iter().any(|m| m.starts_with("e2")), "{white2:?}");
    play(&mut game, &["b5d5"]);
    let black2 = legal(&game);
    assert!(black2.contains(&"m5k5".to_string()) && black2.contains(&"m5l5".to_string()));
    assert!(!black2
        .iter()
        .any(|m| m.starts_with("m5") && m.ends_with('6')));
}

#[test]
fn pawns_promote_on_the_far_edge_of_their_own_direction() {
    // White-1's pawn on e13 promotes on rank 14, white-2's on m9 on file n.
    let mut pieces = KINGS.to_vec();
    pieces.extend([("e13", 'P'), ("m9", 'S'), ("e2", 'p'), ("b9", 's')]);
    let mut game = game(&fen(&pieces, false, 1));
    assert!(legal(&game).contains(&"e13e14q".to_string()));
    // (A knight, which does not check black-1's king on h14.)
    play(&mut game, &["e13e14n"]);
    // Black-1's pawn on e2 promotes on rank 1.
    assert!(
        legal(&game).contains(&"e2e1q".to_string()),
        "{:?}",
        legal(&game)
    );
    play(&mut game, &["e1=Q"]);
    // White-2's pawn reaches file n, written with the usual letters.
    let white2 = legal(&game);
    assert!(white2.iter().any(|m| m.starts_with("m9n9")), "{white2:?}");
    let promoted = game.play_text("n9=B").expect("promotes");
    assert_eq!(promoted.san, "n9=B");
    // Black-2's pawn promotes on file a.
    play(&mut game, &["a9=N"]);
    let placement = game.fen();
    let board = placement.split(' ').next().unwrap_or("");
    // White-1's knight N, black-1's queen q, white-2's bishop E, black-2's knight h.
    assert!(board.starts_with("4N"), "{board}");
    assert!(
        board.contains('E') && board.contains('h') && board.contains('q'),
        "{board}"
    );
}

#[test]
fn a_pawn_double_steps_only_from_its_first_line() {
    let mut pieces = KINGS.to_vec();
    pieces.extend([("e3", 'P'), ("f2", 'P'), ("b5", 'S'), ("c6", 'S')]);
    let mut game = game(&fen(&pieces, false, 1));
    let white1 = legal(&game);
    assert!(white1.contains(&"f2f4".to_string()) && !white1.contains(&"e3e5".to_string()));
    play(&mut game, &["h1g1", "h14g14"]);
    let white2 = legal(&game);
    assert!(white2.contains(&"b5d5".to_string()) && !white2.contains(&"c6e6".to_string()));
    assert!(white2.contains(&"c6d6".to_string()), "{white2:?}");
}

#[test]
fn partners_command_each_others_pieces_only_in_the_centre() {
    // White-1 owns the knights on f6 (centre) and e1 (its arm); white-2
    // owns the rook on j8 (centre) and the bishop on b9 (its arm).
    let mut pieces = KINGS.to_vec();
    pieces.extend([
        ("f6", 'N'),
        ("e1", 'N'),
        ("j8", 'T'),
        ("b9", 'E'),
        ("n11", 't'),
    ]);
    // White-2 on turn (full move 2, white to move).
    let mut game = game(&fen(&pieces, false, 2));
    assert_eq!(game.seat_to_move(), 2);
    let white2 = legal(&game);
    assert!(white2.iter().any(|m| m.starts_with("f6")), "{white2:?}");
    assert!(white2.iter().any(|m| m.starts_with("j8")), "{white2:?}");
    assert!(white2.iter().any(|m| m.starts_with("b9")), "{white2:?}");
    assert!(!white2.iter().any(|m| m.starts_with("e1")), "{white2:?}");
    // SAN reads white-1's knight for white-2, too.
    play(&mut game, &["Nd5", "n11n10"]);
    // White-1 on turn: its own knights anywhere, white-2's rook in the
    // centre, not white-2's bishop in white-2's arm.
    assert_eq!(game.seat_to_move(), 0);
    let white1 = legal(&game);
    assert!(white1.iter().any(|m| m.starts_with("d5")), "{white1:?}");
    assert!(white1.iter().any(|m| m.starts_with("e1")), "{white1:?}");
    assert!(white1.iter().any(|m| m.starts_with("j8")), "{white1:?}");
    assert!(!white1.iter().any(|m| m.starts_with("b9")), "{white1:?}");
    // A piece that leaves the centre goes back to its owner alone.
    play(&mut game, &["j8j1"]);
    play(&mut game, &["h14h13"]);
    assert_eq!(game.seat_to_move(), 2);
    assert!(legal(&game).iter().any(|m| m.starts_with("j1")));
}

#[test]
fn a_player_keeps_only_their_own_king_out_of_check() {
    // White-1 checks black-2's king; black-1 need not answer it, and
    // white-2 may not take the king that is not mated.
    let mut pieces = KINGS.to_vec();
    pieces.extend([("d5", 'R'), ("g13", 'p'), ("l4", 'T')]);
    let mut game = game(&fen(&pieces, false, 1));
    play(&mut game, &["d5n5"]);
    let black1 = legal(&game);
    assert!(black1.contains(&"g13g12".to_string()), "{black1:?}");
    play(&mut game, &["g13g12"]);
    let white2 = legal(&game);
    assert!(!white2.iter().any(|m| m.ends_with("n7")), "{white2:?}");
    play(&mut game, &["l4l5"]);
    // Black-2 must answer its own check.
    let black2 = legal(&game);
    assert!(!black2.is_empty());
    assert!(
        black2
            .iter()
            .all(|m| m.starts_with("n7") && !m.ends_with("n6") && !m.ends_with("n8")),
        "{black2:?}"
    );
}

#[test]
fn the_first_mated_king_is_taken_and_the_second_mate_ends_the_game() {
    let pieces = [
        ("h1", 'K'),
        ("d5", 'R'),
        ("a7", 'C'),
        ("d4", 'T'),
        ("h14", 'k'),
        ("g13", 'p'),
        ("h13", 'p'),
        ("i13", 'p'),
        ("n7", 'c'),
        ("m6", 's'),
        ("m7", 's'),
        ("m8", 's'),
        ("m10", 's'),
    ];
    let mut game = game(&fen(&pieces, false, 1));
    // White-1 mates black-1's king on the back rank.
    play(&mut game, &["Rd14"]);
    assert!(game.outcome().is_none());
    // Black-1 is mated: its only move is a pass.
    assert_eq!(game.seat_to_move(), 1);
    assert_eq!(legal(&game), ["h14h14"]);
    assert_eq!(game.forced_turn(), Some(ForcedTurn::Mated));
    let pass = game.play_text("pass").expect("the mated player passes");
    assert_eq!(pass.san, "pass");
    // White-2 must take the mated king, here with white-1's rook outside the centre.
    assert_eq!(game.seat_to_move(), 2);
    assert_eq!(legal(&game), ["d14h14"]);
    assert_eq!(game.forced_turn(), Some(ForcedTurn::TakeMatedKing));
    play(&mut game, &["d14h14"]);
    assert_eq!(game.forced_turn(), None);
    assert!(game.outcome().is_none(), "one black king is left");
    assert!(!game.fen().contains('k'), "{}", game.fen());
    // Play goes on: black-2, white-1, and the kingless black-1 with its pawns.
    play(&mut game, &["m10k10", "h1h2"]);
    assert_eq!(game.seat_to_move(), 1);
    let kingless = legal(&game);
    assert!(kingless.contains(&"g13g12".to_string()), "{kingless:?}");
    play(&mut game, &["g13g12"]);
    // White-2 mates black-2's king: the second black king, so white wins.
    play(&mut game, &["d4n4"]);
    let outcome = game.outcome().expect("the second king is mated");
    assert_eq!(outcome.winner(), Some(Team(0)));
    assert_eq!(outcome.reason, Reason::Checkmate);
    assert!(game.legal_moves().is_empty());
}

#[test]
fn a_player_who_cannot_move_passes() {
    // Black-1 has only a blocked pawn and a king with no safe square.
    let pieces = [
        ("h1", 'K'),
        ("a7", 'C'),
        ("h14", 'k'),
        ("h13", 'p'),
        ("h12", 'P'),
        ("g11", 'R'),
        ("i11", 'R'),
        ("n7", 'c'),
    ];
    let mut game = game(&fen(&pieces, true, 1));
    assert_eq!(legal(&game), ["h14h14"]);
    assert_eq!(game.forced_turn(), Some(ForcedTurn::NoMove));
    play(&mut game, &["pass"]);
    assert_eq!(game.forced_turn(), None);
    assert_eq!(game.seat_to_move(), 2);
    assert!(game.outcome().is_none());
    // The king was not in check: white-2 plays on as usual.
    assert!(legal(&game).iter().any(|m| m.starts_with("a7")));
}

/// Plays `games` random games to their end; each must end within the
/// fifty-move rule's reach and never leave a seat without a move.
fn random_games(games: u64, seed: u64) {
    let registry = Registry::builtin();
    let variant = registry.get("fourplayer").expect("built in");
    let mut ended_by_mate = 0;
    let mut passes = 0;
    let mut kings_taken = 0;
    for g in 0..games {
        let game = random_game_to_end(variant, seed, g, |game, mv| {
            if game.san(mv) == "pass" {
                passes += 1;
            }
            if game.forced_turn() == Some(ForcedTurn::TakeMatedKing) {
                kings_taken += 1;
            }
        });
        if game
            .outcome()
            .is_some_and(|o| o.reason == Reason::Checkmate)
        {
            ended_by_mate += 1;
        }
    }
    eprintln!(
        "{ended_by_mate} of {games} games ended by mate; {passes} passes; {kings_taken} mated kings taken"
    );
    // Random play reaches the rule of the mated king (the seeds are fixed).
    assert!(kings_taken > 0, "no mated king was taken in {games} games");
}

#[test]
fn random_games_never_panic_and_always_end() {
    random_games(100, 1);
}

#[test]
#[ignore = "slow: a thousand random games"]
fn many_random_games_never_panic_and_always_end() {
    random_games(1000, 1000);
}

/// A short game from the start (all four players helping): white-1's queen
/// mates black-1, black-1 passes, white-2 takes the king with white-1's
/// queen, and white-2's queen mates black-2, the second black king.
const SHORT_GAME: [&str; 15] = [
    "h2h3", "i13i12", "b7d7", "m4l4", // round 1
    "g1k5", "j13j11", "a8d5", "m6l6", // round 2
    "k5k11", "pass", "k11h14", "m11l11", // round 3: the first mate and the capture
    "h1h2", "g13g12", "d5l5", // round 4: the second mate
];

#[test]
fn a_short_game_from_the_start_ends_with_the_second_black_king_mated() {
    let mut game = start();
    let mut sans = Vec::new();
    for mv in SHORT_GAME {
        assert!(game.outcome().is_none(), "over before {mv}");
        let played = game
            .play_text(mv)
            .unwrap_or_else(|e| panic!("{mv}: {e:?} (legal: {:?})", legal(&game)));
        sans.push(played.san);
    }
    assert_eq!(sans[8..11], ["Qk11#", "pass", "Qxh14"]);
    assert_eq!(sans[14], "Ql5#");
    let outcome = game.outcome().expect("over");
    assert_eq!(
        (outcome.winner(), outcome.reason),
        (Some(Team(0)), Reason::Checkmate)
    );
    // The record numbers rounds of the four seats.
    let pgn = game.pgn(&[], "1-0").replace('\n', " ");
    assert!(
        pgn.contains(
            "1. h3 i12 d7 l4 2. Qk5 j11 Qad5 l6 3. Qk11# pass Qxh14 l11 4. Kh2 g12 Ql5# 1-0"
        ),
        "{pgn}"
    );
}

#[test]
fn the_same_board_with_the_other_partner_to_move_is_another_position() {
    let mut pieces = KINGS.to_vec();
    pieces.push(("e2", 'P'));
    let first = game(&fen(&pieces, false, 1));
    let second = game(&fen(&pieces, false, 2));
    assert_eq!((first.seat_to_move(), second.seat_to_move()), (0, 2));
    assert_ne!(first.search_board().hash(), second.search_board().hash());
    // The search keeps the hash move by move, passes included.
    let origin = start();
    let mut board = origin.search_board();
    let mut replay = start();
    for mv in SHORT_GAME {
        let played = replay.parse_move(mv).expect("legal");
        let mut list = kodex_engine::moves::MoveList::new();
        board.legal_moves_into(&mut list);
        let raw = list
            .iter()
            .copied()
            .find(|&raw| replay.uci(raw.into()) == replay.uci(played))
            .expect("the search sees the move");
        board.make(raw);
        replay.play(played);
        assert_eq!(board.hash(), board.hash_from_scratch(), "after {mv}");
    }
}

#[test]
fn a_pawn_stands_anywhere_but_on_its_own_promotion_edge() {
    let registry = Registry::builtin();
    let variant = registry.get("fourplayer").expect("built in");
    let with = |extra: (&str, char)| {
        let mut pieces = KINGS.to_vec();
        pieces.push(extra);
        Game::new(variant, Start::Fen(fen(&pieces, false, 1))).is_ok()
    };
    // White-2's pawn may have strayed to rank 14, white-1's to file n.
    assert!(with(("e14", 'S')));
    assert!(with(("n9", 'P')));
    // Neither may stand on its own promotion edge.
    assert!(!with(("n9", 'S')));
    assert!(!with(("e14", 'P')));
}
