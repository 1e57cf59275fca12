//! Four-handed chess (VARIANTS.md "Multi-player games", seed 002): turn
//! order, pawns of every seat, the command zone, the mated king taken on the
//! next move, the game going on and ending with the side's second king.
//!
//! Squares are named as the seed names them: files a–o without j.

use crate::common::{board_fen, new_game, play, random_game_to_end};
use kodex_engine::Geometry;
use kodex_engine::{ForcedTurn, Game, Reason, Registry, Start, Team};

/// The seed's file letters.
const FILES: &str = "abcdefghiklmno";

/// The board's squares: people's names (the seed's) and the machine's (UCI).
fn cross() -> Geometry {
    Geometry::rectangle(14, 14)
        .with_file_letters(FILES)
        .expect("14 letters")
}

/// A FEN of the 14×14 cross from `(square, letter)` pieces named the seed's
/// way (holes count as empty squares in FEN), white to move in full move
/// `fullmove`.
fn fen(pieces: &[(&str, char)], black_to_move: bool, fullmove: u32) -> String {
    let g = cross();
    let by_index: Vec<(String, char)> = pieces
        .iter()
        .map(|&(name, letter)| {
            let square = g.parse(name).unwrap_or_else(|| panic!("no square {name}"));
            (g.uci_name(square), letter)
        })
        .collect();
    let by_index: Vec<(&str, char)> = by_index.iter().map(|(s, c)| (s.as_str(), *c)).collect();
    let side = if black_to_move { "b" } else { "w" };
    format!("{} {side} - - 0 {fullmove}", board_fen(14, 14, &by_index))
}

/// The legal moves of `game` from square to square as people type them, sorted.
fn legal(game: &Game) -> Vec<String> {
    let mut moves: Vec<String> = game
        .legal_moves()
        .into_iter()
        .map(|m| game.coordinates(m))
        .collect();
    moves.sort();
    moves
}

#[test]
fn squares_are_named_as_the_seed_names_them() {
    let game = start();
    let g = &game.variant().definition().geometry;
    // k1 is the tenth file; there is no j; the cross's corners are holes.
    assert_eq!(g.parse("k1").map(|sq| g.file_of(sq)), Some(9));
    assert_eq!(g.parse("j1"), None);
    assert_eq!(g.parse("o7").map(|sq| g.file_of(sq)), Some(13));
    assert_eq!(g.parse("m1"), None);
    assert_eq!(g.parse("l1").map(|sq| g.uci_name(sq)), Some("k1".into()));
    // White-1's army stands on d1–l2 (the seed's d1–l3), black-2's on n4–o11.
    let moves = legal(&game);
    assert!(moves.contains(&"l2l4".to_string()), "{moves:?}");
    assert!(moves.contains(&"k1l3".to_string()), "{moves:?}");
    // UCI keeps the machine's letters: people's l2l4 is UCI k2k4.
    let push = game.parse_move("l2l4").expect("legal");
    assert_eq!(game.uci(push), "k2k4");
    assert_eq!(game.coordinates(push), "l2l4");
    assert_eq!(game.san(push), "l4");
    // A record stored before the seed's letters (UCI, files by index) replays
    // as it was played: k2k4 then black-1's k13k11 are people's l4 and l11.
    let replayed = Game::replay(game.variant(), &game.fen(), &["k2k4", "k13k11"]).expect("replays");
    let sans: Vec<&str> = replayed.history().iter().map(|m| m.san.as_str()).collect();
    assert_eq!(sans, ["l4", "l11"]);
    // A square name round-trips on every square of the cross.
    let cells: Vec<usize> = (0..g.size()).filter(|&sq| g.exists(sq)).collect();
    assert_eq!(cells.len(), 14 * 14 - 4 * 9);
    for sq in cells {
        assert_eq!(g.parse(&g.name(sq)), Some(sq));
        assert!(!g.name(sq).starts_with('j'));
    }
}

#[test]
fn the_definition_reads() {
    let mut registry = Registry::builtin();
    let text = include_str!("../../../config/variants/fourplayer.toml");
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
const KINGS: [(&str, char); 4] = [("h1", 'K'), ("a7", 'C'), ("h14", 'k'), ("o7", 'c')];

#[test]
fn seats_take_turns_white1_black1_white2_black2() {
    let mut game = start();
    let variant = game.variant().clone();
    let def = variant.definition();
    let mut seats = Vec::new();
    for mv in ["e2e4", "e13e11", "b7d7", "n7l7", "f2f3"] {
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
    assert!(black1.contains(&"e13e11".to_string()) && !black1.iter().any(|m| m.starts_with("n")));
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
    assert!(black2.contains(&"n5l5".to_string()) && black2.contains(&"n5m5".to_string()));
    assert!(!black2
        .iter()
        .any(|m| m.starts_with("n5") && m.ends_with('6')));
}

#[test]
fn pawns_promote_on_the_far_edge_of_their_own_direction() {
    // White-1's pawn on e13 promotes on rank 14, white-2's on n9 on file o.
    let mut pieces = KINGS.to_vec();
    pieces.extend([("e13", 'P'), ("n9", 'S'), ("e2", 'p'), ("b9", 's')]);
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
    assert!(white2.iter().any(|m| m.starts_with("n9o9")), "{white2:?}");
    let promoted = game.play_text("o9=B").expect("promotes");
    assert_eq!(promoted.san, "o9=B");
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
fn partners_share_the_centre_and_each_commands_their_own_arm() {
    // White-1 owns the knights on f6 (centre) and e1 (its arm); white-2
    // owns the rook on k8 (centre) and the bishop on b9 (its arm).
    let mut pieces = KINGS.to_vec();
    pieces.extend([
        ("f6", 'N'),
        ("e1", 'N'),
        ("k8", 'T'),
        ("b9", 'E'),
        ("o11", 't'),
    ]);
    // White-2 on turn (full move 2, white to move).
    let mut game = game(&fen(&pieces, false, 2));
    assert_eq!(game.seat_to_move(), 2);
    let white2 = legal(&game);
    assert!(white2.iter().any(|m| m.starts_with("f6")), "{white2:?}");
    assert!(white2.iter().any(|m| m.starts_with("k8")), "{white2:?}");
    assert!(white2.iter().any(|m| m.starts_with("b9")), "{white2:?}");
    assert!(!white2.iter().any(|m| m.starts_with("e1")), "{white2:?}");
    // SAN reads white-1's knight for white-2, too.
    play(&mut game, &["Nd5", "o11o10"]);
    // White-1 on turn: its own knights anywhere, white-2's rook in the
    // centre, not white-2's bishop in white-2's arm.
    assert_eq!(game.seat_to_move(), 0);
    let white1 = legal(&game);
    assert!(white1.iter().any(|m| m.starts_with("d5")), "{white1:?}");
    assert!(white1.iter().any(|m| m.starts_with("e1")), "{white1:?}");
    assert!(white1.iter().any(|m| m.starts_with("k8")), "{white1:?}");
    assert!(!white1.iter().any(|m| m.starts_with("b9")), "{white1:?}");
    // A piece that leaves the centre for white-1's arm is white-1's to
    // move, whoever owns it (issue 31: command goes by region).
    play(&mut game, &["k8k1"]);
    play(&mut game, &["h14h13"]);
    assert_eq!(game.seat_to_move(), 2);
    assert!(!legal(&game).iter().any(|m| m.starts_with("k1")));
    play(&mut game, &["a7a6", "o10o9"]);
    assert_eq!(game.seat_to_move(), 0);
    assert!(legal(&game).iter().any(|m| m.starts_with("k1")));
}

#[test]
fn a_player_keeps_only_their_own_king_out_of_check() {
    // White-1 checks black-2's king; black-1 need not answer it, and
    // white-2 may not take the king that is not mated.
    let mut pieces = KINGS.to_vec();
    pieces.extend([("d5", 'R'), ("g13", 'p'), ("m4", 'T')]);
    let mut game = game(&fen(&pieces, false, 1));
    play(&mut game, &["d5o5"]);
    let black1 = legal(&game);
    assert!(black1.contains(&"g13g12".to_string()), "{black1:?}");
    play(&mut game, &["g13g12"]);
    let white2 = legal(&game);
    assert!(!white2.iter().any(|m| m.ends_with("o7")), "{white2:?}");
    play(&mut game, &["m4m5"]);
    // Black-2 must answer its own check.
    let black2 = legal(&game);
    assert!(!black2.is_empty());
    assert!(
        black2
            .iter()
            .all(|m| m.starts_with("o7") && !m.ends_with("o6") && !m.ends_with("o8")),
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
        ("o7", 'c'),
        ("n6", 's'),
        ("n7", 's'),
        ("n8", 's'),
        ("n10", 's'),
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
    play(&mut game, &["n10l10", "h1h2"]);
    assert_eq!(game.seat_to_move(), 1);
    let kingless = legal(&game);
    assert!(kingless.contains(&"g13g12".to_string()), "{kingless:?}");
    play(&mut game, &["g13g12"]);
    // White-2 mates black-2's king: the second black king, so white wins.
    play(&mut game, &["d4o4"]);
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
        ("o7", 'c'),
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
    "h2h3", "i13i12", "b7d7", "n4m4", // round 1
    "g1l5", "k13k11", "a8d5", "n6m6", // round 2
    "l5l11", "pass", "l11h14", "n11m11", // round 3: the first mate and the capture
    "h1h2", "g13g12", "d5m5", // round 4: the second mate
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
    assert_eq!(sans[8..11], ["Ql11#", "pass", "Qxh14"]);
    assert_eq!(sans[14], "Qm5#");
    let outcome = game.outcome().expect("over");
    assert_eq!(
        (outcome.winner(), outcome.reason),
        (Some(Team(0)), Reason::Checkmate)
    );
    // The record numbers rounds of the four seats.
    let pgn = game.pgn(&[], "1-0").replace('\n', " ");
    assert!(
        pgn.contains(
            "1. h3 i12 d7 m4 2. Ql5 k11 Qad5 m6 3. Ql11# pass Qxh14 m11 4. Kh2 g12 Qm5# 1-0"
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
        let mut list = Vec::new();
        board.legal_moves_into(&mut list);
        let raw = list
            .iter()
            .copied()
            .find(|&raw| replay.uci(raw) == replay.uci(played))
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
    // White-2's pawn may have strayed to rank 14, white-1's to file o.
    assert!(with(("e14", 'S')));
    assert!(with(("o9", 'P')));
    // Neither may stand on its own promotion edge.
    assert!(!with(("o9", 'S')));
    assert!(!with(("e14", 'P')));
}

/// The SAN of every legal move of `game`.
fn all_sans(game: &Game) -> Vec<String> {
    game.legal_moves()
        .into_iter()
        .map(|m| game.san(m))
        .collect()
}

#[test]
fn partners_pawns_reaching_one_square_are_told_apart_by_their_origin() {
    // White-1 to move: its own pawn on e5 and white-2's pawn on d6 (in the
    // centre, so white-1 commands it) both step to the empty e6.
    let mut pieces = KINGS.to_vec();
    pieces.extend([("e5", 'P'), ("d6", 'S'), ("d5", 'P'), ("d7", 'S')]);
    let pushes = game(&fen(&pieces, false, 1));
    let sans = all_sans(&pushes);
    // Both pushes to e6 name their origin; d5's and e5's own pushes do not clash.
    assert!(sans.contains(&"e5-e6".to_string()), "{sans:?}");
    assert!(sans.contains(&"d6-e6".to_string()), "{sans:?}");
    assert!(!sans.contains(&"e6".to_string()), "{sans:?}");
    for typed in ["e5-e6", "d6-e6", "d6e6", "Pe5e6"] {
        assert!(pushes.parse_move(typed).is_ok(), "{typed}");
    }
    assert!(pushes.parse_move("e6").is_err(), "e6 is ambiguous");

    let mut pieces = KINGS.to_vec();
    pieces.extend([("d5", 'P'), ("d7", 'S'), ("e6", 'n')]);
    let takes = game(&fen(&pieces, false, 1));
    let sans = all_sans(&takes);
    // Two pawns of file d take on e6: white-1's up, white-2's rightwards.
    assert!(sans.contains(&"d5xe6".to_string()), "{sans:?}");
    assert!(sans.contains(&"d7xe6".to_string()), "{sans:?}");
    assert!(!sans.contains(&"dxe6".to_string()), "{sans:?}");
}

/// Every legal move's SAN reads back as that move, and no two legal moves
/// print alike.
fn assert_sans_round_trip(game: &Game) {
    let moves = game.legal_moves();
    let mut seen = std::collections::HashSet::new();
    for mv in moves {
        let san = game.san(mv);
        assert!(seen.insert(san.clone()), "{san} twice at {}", game.fen());
        assert_eq!(
            game.parse_move(&san).ok(),
            Some(mv),
            "{san} at {}",
            game.fen()
        );
    }
}

#[test]
fn every_san_of_random_positions_reads_back_and_none_is_printed_twice() {
    let registry = Registry::builtin();
    let variant = registry.get("fourplayer").expect("built in");
    let mut positions = 0;
    for g in 0..2 {
        random_game_to_end(variant, 77, g, |game, _| {
            if game.ply() % 5 == 0 {
                assert_sans_round_trip(game);
                positions += 1;
            }
        });
    }
    assert!(positions > 40, "{positions} positions");
}

/// The placement field of a FEN.
fn placement(fen: &str) -> String {
    fen.split(' ').next().unwrap_or("").to_string()
}

#[test]
fn a_white1_pawn_reaching_m11_in_black2s_arm_promotes() {
    // Seed 002: «Полями превращений являются концевые поля доски на стороне
    // противника; дорога к нему имеет разную длину для разных пешек».
    // White-1's pawn on file m: its road ends on m11 (m12 is a hole), in
    // black-2's arm.
    let mut pieces = KINGS.to_vec();
    pieces.push(("m10", 'P'));
    let mut game = game(&fen(&pieces, false, 1));
    let moves = legal(&game);
    for piece in ['q', 'r', 'b', 'n'] {
        assert!(moves.contains(&format!("m10m11{piece}")), "{moves:?}");
    }
    assert!(!moves.contains(&"m10m11".to_string()), "{moves:?}");
    // The promoted piece is white-1's queen (FEN Q, not white-2's D), and
    // the record reads back: SAN, and UCI with files by index (l10l11q).
    let queen = game.parse_move("m11=Q").expect("a promotion");
    assert_eq!(game.san(queen), "m11=Q");
    assert_eq!(game.uci(queen), "l10l11q");
    let origin = game.fen();
    play(&mut game, &["m11=Q"]);
    let mut promoted = KINGS.to_vec();
    promoted.push(("m11", 'Q'));
    assert_eq!(placement(&game.fen()), placement(&fen(&promoted, true, 1)));
    let replayed = Game::replay(game.variant(), &origin, &["l10l11q"]).expect("replays");
    assert_eq!(replayed.fen(), game.fen());
    assert_eq!(replayed.history()[0].san, "m11=Q");
    // White-1 moves its new queen next time (it stands in black-2's arm,
    // an opponent's: its owner commands it).
    play(&mut game, &["h14g14", "a7a6", "o7o6"]);
    assert!(legal(&game).iter().any(|m| m.starts_with("m11")));
}

/// A pawn's step, on one seat's turn: whether it promotes (the end of its
/// road on the opponents' side) or stays a pawn (the end of its road in the
/// partner's arm).
struct Road {
    /// The pawn: its square and FEN letter.
    pawn: (&'static str, char),
    /// The seat on turn: black to move, and the full move (1: the first
    /// seats, 2: the second).
    turn: (bool, u32),
    /// The step, from-to.
    step: &'static str,
    promotes: bool,
}

#[test]
fn every_seats_road_ends_on_the_opponents_side_promote_and_the_partners_do_not() {
    let road = |pawn, turn, step, promotes| Road {
        pawn,
        turn,
        step,
        promotes,
    };
    let roads = [
        // White-1: rank 14, and m11–o11 in black-2's arm. Its pawn on b10
        // stands in white-2's arm, so white-2 moves it, and b11 ends its
        // road in the partner's arm.
        road(("f13", 'P'), (false, 1), "f13f14", true),
        road(("n10", 'P'), (false, 1), "n10n11", true),
        road(("b10", 'P'), (false, 2), "b10b11", false),
        // White-2: file o, and l12–l14 in black-1's arm (m13 is a hole);
        // on k2 (white-1's arm, moved by white-1) it reaches l2 and stays.
        road(("n6", 'S'), (false, 2), "n6o6", true),
        road(("k13", 'S'), (false, 2), "k13l13", true),
        road(("k2", 'S'), (false, 1), "k2l2", false),
        // Black-1: rank 1, and a4–c4 in white-2's arm; n4 is its partner's.
        road(("e2", 'p'), (true, 1), "e2e1", true),
        road(("b5", 'p'), (true, 1), "b5b4", true),
        road(("n5", 'p'), (true, 2), "n5n4", false),
        // Black-2: file a, and d1–d3 in white-1's arm; d13 is its partner's.
        road(("b9", 's'), (true, 2), "b9a9", true),
        road(("e2", 's'), (true, 2), "e2d2", true),
        road(("e13", 's'), (true, 1), "e13d13", false),
    ];
    for Road {
        pawn,
        turn: (black, fullmove),
        step,
        promotes,
    } in roads
    {
        let mut pieces = KINGS.to_vec();
        pieces.push(pawn);
        let moves = legal(&game(&fen(&pieces, black, fullmove)));
        let promotions = moves
            .iter()
            .filter(|m| m.starts_with(step) && m.len() > step.len())
            .count();
        let plain = moves.iter().any(|m| m == step);
        assert_eq!(
            (promotions, plain),
            if promotes { (4, false) } else { (0, true) },
            "{step}: {moves:?}"
        );
    }
}

#[test]
fn a_pawn_may_not_stand_where_its_road_promotes() {
    let registry = Registry::builtin();
    let variant = registry.get("fourplayer").expect("built in");
    let with = |extra: (&str, char)| {
        let mut pieces = KINGS.to_vec();
        pieces.push(extra);
        Game::new(variant, Start::Fen(fen(&pieces, false, 1))).is_ok()
    };
    assert!(!with(("m11", 'P')));
    assert!(!with(("l12", 'S')));
    assert!(!with(("b4", 'p')));
    assert!(!with(("d2", 's')));
    // The end of a road in the partner's arm is no promotion square.
    assert!(with(("b11", 'P')));
}

#[test]
fn a_white_piece_brought_into_white1s_arm_by_white2_is_moved_by_white1() {
    // Seed 002: «Первый "белый" игрок распоряжается белыми фигурами и
    // пешками в прямоугольнике d1-d3-l1-l3, второй — в прямоугольнике
    // d11-c11-c4-a4». White-2's own rook on e5 (centre) goes to e2, in
    // white-1's arm.
    let mut pieces = KINGS.to_vec();
    pieces.extend([("e5", 'T'), ("o11", 't')]);
    let mut game = game(&fen(&pieces, false, 2));
    assert_eq!(game.seat_to_move(), 2);
    play(&mut game, &["e5e2", "o11o10"]);
    // White-1 on turn: it moves white-2's rook in its arm.
    assert_eq!(game.seat_to_move(), 0);
    let white1 = legal(&game);
    assert!(white1.iter().any(|m| m.starts_with("e2")), "{white1:?}");
    // SAN names it as a rook, and it reads back.
    let up = game.parse_move("Re3").expect("white-1 moves the rook");
    assert_eq!(game.san(up), "Re3");
    // Had white-1 passed it over, white-2 may not move it there.
    play(&mut game, &["h1g1", "h14g14"]);
    assert_eq!(game.seat_to_move(), 2);
    let white2 = legal(&game);
    assert!(!white2.iter().any(|m| m.starts_with("e2")), "{white2:?}");
    assert!(game.parse_move("Re3").is_err());
}

#[test]
fn command_goes_by_region_for_every_seat() {
    // White-1's knight in white-2's arm (b6) and white-2's bishop in
    // white-1's arm (f2); white-1's rook in the centre (f6); white-2's
    // knight in black-1's arm (e13) and white-1's bishop in black-2's (n10).
    let mut pieces = KINGS.to_vec();
    pieces.extend([
        ("b6", 'N'),
        ("f2", 'E'),
        ("f6", 'R'),
        ("e13", 'H'),
        ("n10", 'B'),
    ]);
    let white1 = game(&fen(&pieces, false, 1));
    let moves = legal(&white1);
    let from = |moves: &[String], sq: &str| moves.iter().any(|m| m.starts_with(sq));
    assert!(from(&moves, "f2") && from(&moves, "f6") && from(&moves, "n10"));
    assert!(!from(&moves, "b6") && !from(&moves, "e13"), "{moves:?}");
    let white2 = game(&fen(&pieces, false, 2));
    let moves = legal(&white2);
    assert!(from(&moves, "b6") && from(&moves, "f6") && from(&moves, "e13"));
    assert!(!from(&moves, "f2") && !from(&moves, "n10"), "{moves:?}");
    // The same for black: black-1's bishop in black-2's arm (n5), black-2's
    // knight in black-1's arm (g12).
    let mut pieces = KINGS.to_vec();
    pieces.extend([("n5", 'b'), ("g12", 'h')]);
    let black1 = game(&fen(&pieces, true, 1));
    let moves = legal(&black1);
    assert!(from(&moves, "g12") && !from(&moves, "n5"), "{moves:?}");
    let black2 = game(&fen(&pieces, true, 2));
    let moves = legal(&black2);
    assert!(from(&moves, "n5") && !from(&moves, "g12"), "{moves:?}");
}

#[test]
fn a_partner_moving_the_other_kings_king_does_not_step_into_check() {
    // White-1's king stands in white-2's arm (b6), so white-2 moves it;
    // black-1's rook on g5 watches rank 5: the king may not step there.
    let pieces = [
        ("b6", 'K'),
        ("a10", 'C'),
        ("h14", 'k'),
        ("o7", 'c'),
        ("g5", 'r'),
    ];
    let game = game(&fen(&pieces, false, 2));
    let moves = legal(&game);
    assert!(moves.contains(&"b6b7".to_string()), "{moves:?}");
    for into_check in ["b6a5", "b6b5", "b6c5"] {
        assert!(!moves.contains(&into_check.to_string()), "{moves:?}");
    }
}
