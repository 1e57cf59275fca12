//! The fog-of-war information principle (VARIANTS.md, "Hidden information"):
//! a player's information is their view plus their own legal moves, and
//! nothing the engine gives them may depend on anything else. Two games that
//! give a player the same information must give that player identical views
//! (highlights included) and identical answers to anything they may type.

use kodex_engine::{Announcement, Audience, Game, Registry, Side, SquareView, Start};

fn fog() -> Game {
    Game::new(
        Registry::builtin().get("fogofwar").expect("fogofwar"),
        Start::Standard,
    )
    .expect("start")
}

fn played(moves: &[&str]) -> Game {
    let mut game = fog();
    for mv in moves {
        game.play_text(mv)
            .unwrap_or_else(|e| panic!("{mv} in {moves:?}: {e}"));
    }
    game
}

/// A small deterministic generator (xorshift), so failures replay.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// A fog game after `plies` random moves; `None` when it ended on the way.
fn random_game(rng: &mut Rng, plies: usize) -> Option<Game> {
    let mut game = fog();
    for _ in 0..plies {
        if game.outcome().is_some() {
            return None;
        }
        let moves = game.legal_moves();
        game.play(moves[rng.below(moves.len())]);
    }
    game.outcome().is_none().then_some(game)
}

/// What `side` knows of `game` now: the squares of its view and its legal
/// moves when it is to move (its pseudo-legal reach is already in the view).
fn information(game: &Game, side: Side) -> (Vec<SquareView>, Vec<String>) {
    let view = game.view(Audience::Side(side));
    let mut moves: Vec<String> = if game.side_to_move() == side {
        game.legal_moves()
            .into_iter()
            .map(|m| game.uci(m))
            .collect()
    } else {
        Vec::new()
    };
    moves.sort();
    (view.squares, moves)
}

/// Everything a player may type: each square alone and after every piece
/// letter, castling, captures, promotions, drops, and the legal moves of both
/// games in UCI and SAN.
fn inputs(games: [&Game; 2]) -> Vec<String> {
    let mut out = Vec::new();
    for file in 'a'..='h' {
        for rank in 1..=8 {
            let square = format!("{file}{rank}");
            for piece in ["", "N", "B", "R", "Q", "K", "Кр", "x", "P@", "N@"] {
                out.push(format!("{piece}{square}"));
            }
            out.push(format!("{square}=Q"));
            for from in ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'] {
                out.push(format!("{from}x{square}"));
            }
        }
    }
    out.extend(["O-O", "O-O-O", "0-0", "Kg1", "Kc1", "Kg8", "Kc8"].map(String::from));
    for game in games {
        for mv in game.legal_moves() {
            out.push(game.uci(mv));
            out.push(game.san(mv));
        }
    }
    out
}

/// Asserts that `side` is told the same by both games.
fn assert_same_replies(a: &Game, b: &Game, side: Side, context: &str) {
    assert_eq!(
        a.view(Audience::Side(side)),
        b.view(Audience::Side(side)),
        "{context}: the views differ"
    );
    assert_eq!(
        a.announcements(Audience::Side(side)),
        b.announcements(Audience::Side(side)),
        "{context}: the announcements differ"
    );
    assert_eq!(
        a.announcements(Audience::Public),
        b.announcements(Audience::Public),
        "{context}: the public announcements differ"
    );
    if a.side_to_move() != side {
        return;
    }
    // The check mark of a move (`+`) belongs to the position after it, where
    // the checked king is in the mover's view; the reply to the typed text is
    // the move it names.
    for text in inputs([a, b]) {
        let reply = |g: &Game| {
            g.parse_move(&text)
                .map(|mv| (g.uci(mv), g.san(mv).trim_end_matches(['+', '#']).to_owned()))
                .map_err(|e| e.to_string())
        };
        assert_eq!(reply(a), reply(b), "{context}: typed {text:?}");
    }
}

#[test]
fn an_enemy_move_lights_its_origin_only_if_it_was_seen_before() {
    // The queen reaches g4 from h5 in one game and from e2 in the other; black
    // never saw either square before the capture.
    let from_h5 = played(&["e4", "g5", "Qh5", "g4", "Qxg4"]);
    let from_e2 = played(&["e4", "g5", "Qe2", "g4", "Qxg4"]);
    assert_eq!(
        information(&from_h5, Side::BLACK),
        information(&from_e2, Side::BLACK),
        "the pair must give black the same information"
    );
    assert_same_replies(&from_h5, &from_e2, Side::BLACK, "Qxg4 from h5 / e2");
    let view = from_h5.view(Audience::Side(Side::BLACK));
    let h5 = 4 * 8 + 7;
    assert!(
        !view.last_move.contains(&h5),
        "h5 was in fog before the move"
    );
    // A destination black sees after the move is still lit.
    let g4 = 3 * 8 + 6;
    if view.squares[g4 as usize] != SquareView::Fog {
        assert!(view.last_move.contains(&g4));
    }
    // A seen origin is lit: white's own move shows both squares to white.
    let white = from_h5.view(Audience::Side(Side::WHITE));
    assert!(white.last_move.contains(&h5) && white.last_move.contains(&g4));
}

/// Plays random fog games; wherever the side not to move could have reached
/// the same square by two routes of one piece that the other side cannot tell
/// apart, the other side must be told exactly the same in both games.
#[test]
fn two_routes_the_opponent_cannot_tell_apart_give_identical_replies() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut compared = 0;
    for game_number in 0..120 {
        let plies = 4 + rng.below(30);
        let Some(game) = random_game(&mut rng, plies) else {
            continue;
        };
        let mover = game.side_to_move();
        let watcher = Side(1 - mover.0);
        // Two first steps of one piece to different squares …
        let firsts = game.legal_moves();
        for _ in 0..12 {
            let a = firsts[rng.below(firsts.len())];
            let b = firsts[rng.below(firsts.len())];
            let (ua, ub) = (game.uci(a), game.uci(b));
            if ua[..2] != ub[..2] || ua == ub {
                continue;
            }
            let (mut ga, mut gb) = (game.clone(), game.clone());
            ga.play(a);
            gb.play(b);
            if ga.outcome().is_some()
                || gb.outcome().is_some()
                || information(&ga, watcher) != information(&gb, watcher)
            {
                continue;
            }
            // … the same answer by the watcher …
            let replies = ga.legal_moves();
            let reply = replies[rng.below(replies.len())];
            let Ok(reply_b) = gb.parse_move(&ga.uci(reply)) else {
                continue;
            };
            ga.play(reply);
            gb.play(reply_b);
            if ga.outcome().is_some()
                || gb.outcome().is_some()
                || information(&ga, watcher) != information(&gb, watcher)
            {
                continue;
            }
            // … and both routes end on the same square.
            let (from_a, from_b) = (ua[2..4].to_string(), ub[2..4].to_string());
            for second in ga.legal_moves() {
                let text = ga.uci(second);
                if !text.starts_with(&from_a) {
                    continue;
                }
                let twin = format!("{from_b}{}", &text[2..]);
                let Ok(second_b) = gb.parse_move(&twin) else {
                    continue;
                };
                let (mut fa, mut fb) = (ga.clone(), gb.clone());
                fa.play(second);
                fb.play(second_b);
                if information(&fa, watcher) != information(&fb, watcher) {
                    continue;
                }
                compared += 1;
                assert_same_replies(
                    &fa,
                    &fb,
                    watcher,
                    &format!("game {game_number}: {ua} / {ub}, then {text} / {twin}"),
                );
            }
        }
    }
    assert!(
        compared > 50,
        "too few indistinguishable pairs were found ({compared}) to test anything"
    );
}

/// Random fog positions changed only where a player cannot see (a hidden
/// enemy piece moved to another hidden empty square) answer that player the
/// same, whenever the change leaves their view and legal moves alone.
#[test]
fn moving_a_hidden_piece_changes_nothing_a_player_is_told() {
    let variant = Registry::builtin()
        .get("fogofwar")
        .expect("fogofwar")
        .clone();
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut compared = 0;
    for game_number in 0..200 {
        let plies = rng.below(40);
        let Some(game) = random_game(&mut rng, plies) else {
            continue;
        };
        let watcher = if rng.below(2) == 0 {
            Side::WHITE
        } else {
            Side::BLACK
        };
        let view = game.view(Audience::Side(watcher));
        let fen = game.fen();
        let mut board = expand(fen.split(' ').next().unwrap_or_default());
        let hidden: Vec<usize> = (0..64)
            .filter(|&sq| view.squares[sq] == SquareView::Fog)
            .collect();
        // Only pieces that carry no castling or en-passant rights move.
        let enemy = |c: char| {
            if watcher == Side::WHITE {
                c.is_ascii_lowercase()
            } else {
                c.is_ascii_uppercase()
            }
        };
        let movable: Vec<usize> = hidden
            .iter()
            .copied()
            .filter(|&sq| {
                let c = board[sq];
                enemy(c) && matches!(c.to_ascii_lowercase(), 'n' | 'b' | 'q')
            })
            .collect();
        let empty: Vec<usize> = hidden
            .iter()
            .copied()
            .filter(|&sq| board[sq] == '.')
            .collect();
        if movable.is_empty() || empty.is_empty() {
            continue;
        }
        let from = movable[rng.below(movable.len())];
        let to = empty[rng.below(empty.len())];
        board[to] = board[from];
        board[from] = '.';
        let mut fields: Vec<String> = fen.split(' ').map(String::from).collect();
        fields[0] = collapse(&board);
        let other_fen = fields.join(" ");
        // Same start position for both, so the comparison is not about history.
        let (Ok(a), Ok(b)) = (
            Game::new(&variant, Start::Fen(fen.clone())),
            Game::new(&variant, Start::Fen(other_fen.clone())),
        ) else {
            continue;
        };
        if a.outcome().is_some()
            || b.outcome().is_some()
            || information(&a, watcher) != information(&b, watcher)
        {
            continue;
        }
        compared += 1;
        assert_same_replies(
            &a,
            &b,
            watcher,
            &format!("game {game_number}: {fen} / {other_fen}"),
        );
    }
    assert!(compared > 50, "too few pairs compared ({compared})");
}

/// A FEN board field as 64 characters, a1 first, `.` for empty.
fn expand(board: &str) -> Vec<char> {
    let mut out = vec!['.'; 64];
    for (row, rank) in board.split('/').enumerate() {
        let mut file = 0;
        for c in rank.chars() {
            if let Some(n) = c.to_digit(10) {
                file += n as usize;
            } else if file < 8 && row < 8 {
                out[(7 - row) * 8 + file] = c;
                file += 1;
            }
        }
    }
    out
}

/// The inverse of [`expand`].
fn collapse(board: &[char]) -> String {
    let mut ranks = Vec::new();
    for rank in (0..8).rev() {
        let mut text = String::new();
        let mut empty = 0;
        for file in 0..8 {
            let c = board[rank * 8 + file];
            if c == '.' {
                empty += 1;
            } else {
                if empty > 0 {
                    text.push_str(&empty.to_string());
                    empty = 0;
                }
                text.push(c);
            }
        }
        if empty > 0 {
            text.push_str(&empty.to_string());
        }
        ranks.push(text);
    }
    ranks.join("/")
}

#[test]
fn only_the_mover_is_told_a_hidden_move() {
    let game = played(&["e4", "e5", "Qh5", "Nc6", "Qxf7"]);
    let moved = |san: Option<&str>| Announcement::Moved {
        side: Side::WHITE,
        san: san.map(String::from),
    };
    let check = Announcement::Check {
        side: Side::BLACK,
        directions: Vec::new(),
    };
    assert_eq!(
        game.announcements(Audience::Side(Side::WHITE)),
        vec![moved(Some("Qxf7+"))]
    );
    assert_eq!(
        game.announcements(Audience::Side(Side::BLACK)),
        vec![moved(None), check.clone()]
    );
    assert_eq!(game.announcements(Audience::Public), vec![moved(None)]);
    assert_eq!(
        game.announcements(Audience::Full),
        vec![moved(Some("Qxf7+")), check.clone()]
    );
    // Without hidden information everyone is told everything.
    let mut chess = Game::new(
        Registry::builtin().get("chess").expect("chess"),
        Start::Standard,
    )
    .expect("start");
    for mv in ["e4", "e5", "Qh5", "Nc6", "Qxf7"] {
        chess.play_text(mv).expect("legal");
    }
    assert_eq!(
        chess.announcements(Audience::Public),
        vec![moved(Some("Qxf7+")), check]
    );
    assert!(fog().announcements(Audience::Public).is_empty());
}

/// A fog game from `fen` after `moves` (as typed).
fn from_fen(fen: &str, moves: &[&str]) -> Game {
    let mut game = Game::new(
        Registry::builtin().get("fogofwar").expect("fogofwar"),
        Start::Fen(fen.to_owned()),
    )
    .expect("start");
    for mv in moves {
        game.play_text(mv)
            .unwrap_or_else(|e| panic!("{mv} in {moves:?}: {e}"));
    }
    game
}

/// The square index of `name` on the 8×8 board.
fn at(name: &str) -> u16 {
    let bytes = name.as_bytes();
    u16::from(bytes[1] - b'1') * 8 + u16::from(bytes[0] - b'a')
}

#[test]
fn a_rook_leaving_the_line_it_blocked_does_not_light_where_it_came_from() {
    // White's a1 rook sees up the a-file to the black rook on a5. Black
    // either brings the h8 rook to h6 and then the a5 rook to a8, or the h8
    // rook to a8 and then the a5 rook to h5: either way white, after the
    // second move, sees a2–a8 open up to a rook on a8, and nothing on the h-file above h4.
    let fen = "7r/4k3/8/r7/8/8/1PPPPPPP/R3K3 b - - 0 1";
    let first = from_fen(fen, &["h8h6", "Kd1", "a5a8"]);
    let second = from_fen(fen, &["h8a8", "Kd1", "a5h5"]);
    let white = Audience::Side(Side::WHITE);
    // The two games give white the same views all along, and the same moves.
    for ply in 0..=3 {
        assert_eq!(
            first.view_at(ply, white).squares,
            second.view_at(ply, white).squares,
            "white's view after ply {ply}"
        );
    }
    assert_eq!(
        information(&first, Side::WHITE),
        information(&second, Side::WHITE)
    );
    // So her whole board is the same: a8 was fog before the move, and is
    // not lit as the arrival of the rook in one game only.
    let view = first.view(white);
    assert_eq!(view, second.view(white));
    assert!(!view.last_move.contains(&at("a8")), "{:?}", view.last_move);
    // a5, seen before and after, is lit: she saw the rook leave it.
    assert_eq!(view.last_move, vec![at("a5")]);
    assert_same_replies(&first, &second, Side::WHITE, "a5a8 / a5h5");
}

#[test]
fn own_moves_stay_lit_and_an_enemy_move_seen_whole_lights_both_squares() {
    // White's own move: both squares are lit on her board.
    let game = played(&["e4"]);
    assert_eq!(
        game.view(Audience::Side(Side::WHITE)).last_move,
        vec![at("e2"), at("e4")]
    );
    // Black's rook crosses from the a-file to the h-file, both of which
    // white's rooks see before and after: both squares are lit for her.
    let game = from_fen("4k3/8/8/r7/8/8/8/R3K2R b - - 0 1", &["Rh5"]);
    let view = game.view(Audience::Side(Side::WHITE));
    assert_eq!(view.last_move, vec![at("a5"), at("h5")]);
    // Black, the mover, sees his own move too.
    let view = game.view(Audience::Side(Side::BLACK));
    assert_eq!(view.last_move, vec![at("a5"), at("h5")]);
}
