//! Kriegspiel (VARIANTS.md, "Hidden information"): the referee's
//! announcements on hand-made positions, impossible attempts, and the rule
//! that what a player may try, and every answer to it, depends only on their
//! own pieces.

use kodex_engine::{
    Announcement, Attempt, Audience, CheckDirection, Game, MoveError, Registry, Side, SquareView,
    Start, View,
};

fn kriegspiel(fen: Option<&str>) -> Game {
    let registry = Registry::builtin();
    let variant = registry.get("kriegspiel").expect("kriegspiel");
    let start = fen.map_or(Start::Standard, |fen| Start::Fen(fen.to_owned()));
    Game::new(variant, start).expect("start")
}

/// Plays `text` as an attempt that must be legal.
fn play(game: &mut Game, text: &str) {
    match game.parse_attempt(text) {
        Ok(Attempt::Legal(mv)) => {
            game.play(mv);
        }
        other => panic!("{text}: {other:?}"),
    }
}

fn directions_after(fen: &str, text: &str) -> Vec<CheckDirection> {
    let mut game = kriegspiel(Some(fen));
    play(&mut game, text);
    let told = game.announcements(Audience::Public);
    let checks: Vec<&Announcement> = told
        .iter()
        .filter(|a| matches!(a, Announcement::Check { .. }))
        .collect();
    match checks.as_slice() {
        [Announcement::Check { side, directions }] => {
            assert_eq!(*side, Side::BLACK);
            // Every audience hears the same check.
            for audience in [Audience::Side(Side::WHITE), Audience::Side(Side::BLACK)] {
                assert!(game.announcements(audience).contains(checks[0]));
            }
            directions.clone()
        }
        _ => panic!("{text} in {fen}: no single check in {told:?}"),
    }
}

#[test]
fn checks_are_announced_with_their_direction() {
    use CheckDirection::*;
    assert_eq!(
        directions_after("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "Ra8"),
        [Rank]
    );
    assert_eq!(
        directions_after("3k4/8/8/8/8/8/K7/7R w - - 0 1", "Rd1"),
        [File]
    );
    // Through e8 the a4–e8 diagonal has five squares, e8–h5 four.
    assert_eq!(
        directions_after("4k3/8/8/8/8/8/7P/4KB2 w - - 0 1", "Bb5"),
        [LongDiagonal]
    );
    assert_eq!(
        directions_after("4k3/8/8/8/8/5B2/7P/4K3 w - - 0 1", "Bh5"),
        [ShortDiagonal]
    );
    assert_eq!(
        directions_after("4k3/8/8/8/8/8/8/Q3K3 w - - 0 1", "Qa4"),
        [LongDiagonal]
    );
    assert_eq!(
        directions_after("4k3/8/8/8/4N3/8/7P/4K3 w - - 0 1", "Nd6"),
        [Knight]
    );
    // A pawn checks along a diagonal too.
    assert_eq!(
        directions_after("4k3/8/3P4/8/8/8/8/4K3 w - - 0 1", "d7"),
        [LongDiagonal]
    );
    // A discovered double check announces both.
    assert_eq!(
        directions_after("4k3/8/8/8/4N3/8/8/K3R3 w - - 0 1", "Nd6"),
        [File, Knight]
    );
    assert_eq!(
        directions_after("4k3/8/2R5/8/B7/8/7P/K7 w - - 0 1", "Rc8"),
        [Rank, LongDiagonal]
    );
}

#[test]
fn a_capture_names_only_its_square() {
    let mut game = kriegspiel(Some("4k3/8/8/4p3/8/5N2/8/4K3 w - - 0 1"));
    play(&mut game, "Ne5");
    let capture = Announcement::Capture {
        side: Side::WHITE,
        square: "e5".into(),
    };
    assert_eq!(
        game.announcements(Audience::Public),
        [
            Announcement::Moved {
                side: Side::WHITE,
                san: None
            },
            capture.clone()
        ]
    );
    // The mover hears their move in their own words; the opponent does not.
    assert_eq!(
        game.announcements(Audience::Side(Side::WHITE))[0],
        Announcement::Moved {
            side: Side::WHITE,
            san: Some("Ne5".into())
        }
    );
    assert!(game
        .announcements(Audience::Side(Side::BLACK))
        .contains(&capture));
    // Both boards mark the square; neither shows the other's pieces.
    let e5 = game.view(Audience::Public).index(4, 4) as u16;
    for side in [Side::WHITE, Side::BLACK] {
        let view = game.view(Audience::Side(side));
        assert!(view.marked.contains(&e5));
        assert!(view
            .squares
            .iter()
            .all(|sq| !matches!(sq, SquareView::Piece(p) if p.side != side)));
    }
    // Black lost the pawn: e5 is fog on his board, and marked all the same;
    // so it is on the public board, which shows no piece at all.
    assert_eq!(
        game.view(Audience::Side(Side::BLACK)).squares[e5 as usize],
        SquareView::Fog
    );
    let public = game.view(Audience::Public);
    assert!(public.marked.contains(&e5));
    assert!(public.squares.iter().all(|sq| *sq == SquareView::Fog));
    // Neither the capturer's move nor black's loss is lit on black's board.
    assert!(game.view(Audience::Side(Side::BLACK)).last_move.is_empty());
    assert_eq!(game.view(Audience::Side(Side::WHITE)).last_move, vec![e5]);
}

#[test]
fn en_passant_names_the_captured_pawns_square() {
    let mut game = kriegspiel(Some("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"));
    // Written from white's own pieces: the e-pawn takes on d6.
    play(&mut game, "ed6");
    assert!(game
        .announcements(Audience::Public)
        .contains(&Announcement::Capture {
            side: Side::WHITE,
            square: "d5".into()
        }));
    let d5 = game.view(Audience::Public).index(3, 4) as u16;
    assert!(game.view(Audience::Side(Side::BLACK)).marked.contains(&d5));
}

#[test]
fn pawn_tries_of_the_side_to_move_are_announced() {
    let mut game = kriegspiel(None);
    play(&mut game, "e4");
    assert!(!game
        .announcements(Audience::Public)
        .iter()
        .any(|a| matches!(a, Announcement::PawnTries { .. })));
    play(&mut game, "d5");
    let tries = Announcement::PawnTries {
        side: Side::WHITE,
        count: 1,
    };
    for audience in [
        Audience::Public,
        Audience::Side(Side::WHITE),
        Audience::Side(Side::BLACK),
    ] {
        assert!(
            game.announcements(audience).contains(&tries),
            "{audience:?}"
        );
    }
    // A capture that promotes counts once, en passant counts, and so do both
    // captures of one pawn.
    let mut game = kriegspiel(Some("r1r5/1P2k3/8/8/8/8/8/4K3 b - - 0 1"));
    play(&mut game, "Ke6");
    assert!(game
        .announcements(Audience::Public)
        .contains(&Announcement::PawnTries {
            side: Side::WHITE,
            count: 2
        }));
    let mut game = kriegspiel(Some("4k3/2p5/8/1P1P4/8/8/8/4K3 b - - 0 1"));
    play(&mut game, "c5");
    assert!(game
        .announcements(Audience::Public)
        .contains(&Announcement::PawnTries {
            side: Side::WHITE,
            count: 2
        }));
}

#[test]
fn an_impossible_attempt_keeps_the_turn_and_is_announced() {
    let mut game = kriegspiel(None);
    play(&mut game, "e4");
    play(&mut game, "e5");
    let before = game.fen();
    for (text, uci) in [
        ("e5", "e4e5"),
        ("e4e5", "e4e5"),
        ("exd5", "e4d5"),
        ("d5", "e4d5"),
    ] {
        assert_eq!(
            game.parse_attempt(text),
            Ok(Attempt::Impossible(uci.into())),
            "{text}"
        );
    }
    game.record_impossible("e4e5");
    assert_eq!(game.fen(), before);
    assert_eq!(game.side_to_move(), Side::WHITE);
    assert_eq!(game.ply(), 2);
    for audience in [
        Audience::Public,
        Audience::Side(Side::WHITE),
        Audience::Side(Side::BLACK),
    ] {
        assert_eq!(
            game.announcements(audience),
            [Announcement::Impossible { side: Side::WHITE }]
        );
    }
    // Then a legal move, announced as usual.
    play(&mut game, "Nf3");
    assert_eq!(
        game.announcements(Audience::Public)[0],
        Announcement::Moved {
            side: Side::WHITE,
            san: None
        }
    );
    // The record keeps the attempt; replaying it gives the same game.
    let replayed = Game::replay(
        game.variant(),
        &game.start_fen(),
        &["e2e4", "e7e5", "e4e5?", "g1f3"],
    )
    .expect("replay");
    assert_eq!(replayed.impossible_attempts(), game.impossible_attempts());
    assert_eq!(replayed.fen(), game.fen());
    let pgn = game.pgn(&[], "*");
    assert!(pgn.contains("1. e4 e5 {impossible e4e5} 2. Nf3 *"), "{pgn}");
}

#[test]
fn what_the_own_pieces_cannot_do_is_an_error_not_an_attempt() {
    let mut game = kriegspiel(None);
    play(&mut game, "e4");
    play(&mut game, "e5");
    // Blocked by an own pawn, out of reach, or nonsense: nothing is tried.
    assert_eq!(game.parse_attempt("Qd8"), Err(MoveError::Illegal));
    assert_eq!(game.parse_attempt("Nf5"), Err(MoveError::Illegal));
    assert_eq!(game.parse_attempt("e2e4"), Err(MoveError::Illegal));
    assert_eq!(game.parse_attempt("hello"), Err(MoveError::Unparseable));
    // The x is never needed, and never in the way.
    assert!(matches!(game.parse_attempt("Bxb5"), Ok(Attempt::Legal(_))));
    assert!(matches!(game.parse_attempt("Qh5"), Ok(Attempt::Legal(_))));
    // A pawn without its file steps forward before it captures.
    assert!(matches!(game.parse_attempt("d3"), Ok(Attempt::Legal(_))));
}

#[test]
fn ambiguity_is_judged_from_the_own_pieces() {
    // The d-pawn on d4 steps to d5; both the c4 and e4 pawns could take there.
    let game = kriegspiel(Some("4k3/8/8/3p4/2P1P3/8/8/4K3 w - - 0 1"));
    assert!(matches!(
        game.parse_attempt("d5"),
        Err(MoveError::Ambiguous(_))
    ));
    // Two knights reach d2; one is pinned by a bishop white cannot see, yet
    // the move must still be named: Nd2 alone is ambiguous.
    let pinned = kriegspiel(Some("4k3/8/8/3b4/8/5N2/8/1N5K w - - 0 1"));
    let game = kriegspiel(Some("4k3/8/8/8/8/5N2/8/1N5K w - - 0 1"));
    for game in [&game, &pinned] {
        assert!(matches!(
            game.parse_attempt("Nd2"),
            Err(MoveError::Ambiguous(_))
        ));
    }
}

/// Every answer to `texts` in `game`, with "legal" and "impossible" folded
/// together: what the player learns before the referee speaks.
fn answers(game: &Game, texts: &[&str]) -> Vec<Result<String, MoveError>> {
    texts
        .iter()
        .map(|text| {
            game.parse_attempt(text).map(|attempt| match attempt {
                Attempt::Legal(mv) => game.uci(mv),
                Attempt::Impossible(uci) => uci,
            })
        })
        .collect()
}

#[test]
fn answers_and_views_depend_only_on_own_pieces() {
    // The same white army; black's differs (and an en-passant right exists in one).
    let fens = [
        "r3k2r/pp3ppp/8/2Pp4/8/5N2/PP3PPP/R1BQK2R w KQkq d6 0 1",
        "4k3/8/8/2P5/3q4/1n3N2/PP3PPP/R1BQK2R w KQ - 0 1",
        "rnb1kb1r/8/8/2P1p3/8/5N2/PP3PPP/R1BQK2R w KQkq - 0 1",
    ];
    let texts = [
        "cxd6", "cd6", "c6", "d6", "Nd4", "Ne5", "Nxe5", "Bf4", "Bh6", "O-O", "e1g1", "Qd7", "Qa4",
        "Qxd8", "a4", "bxa3", "Kd2", "Ke2", "Rb1", "Nd2", "xyz", "e9", "Bxb5",
    ];
    let games: Vec<Game> = fens.iter().map(|fen| kriegspiel(Some(fen))).collect();
    // The referee's count of pawn tries is announced, so it may differ (and
    // does: 1, 0, 0); everything else the view holds may not.
    let seen = |game: &Game| View {
        pawn_tries: None,
        ..game.view(Audience::Side(Side::WHITE))
    };
    let first = answers(&games[0], &texts);
    for game in &games[1..] {
        assert_eq!(answers(game, &texts), first);
        assert_eq!(seen(game), seen(&games[0]));
    }
}

#[test]
fn a_pin_the_mover_cannot_see_does_not_show_in_their_move() {
    // Knights on b1 and f3 both reach d2 as white sees it; in the real
    // position the f3 knight is pinned. The mover still hears "Nbd2".
    let mut game = kriegspiel(Some("4k3/8/8/3b4/8/5N2/8/1N5K w - - 0 1"));
    play(&mut game, "Nbd2");
    assert_eq!(
        game.announcements(Audience::Side(Side::WHITE))[0],
        Announcement::Moved {
            side: Side::WHITE,
            san: Some("Nbd2".into())
        }
    );
}

#[test]
fn mate_ends_the_game_as_in_chess() {
    let mut game = kriegspiel(None);
    for mv in ["f3", "e5", "g4"] {
        play(&mut game, mv);
    }
    play(&mut game, "Qh4");
    assert!(game.outcome().is_some());
    assert!(game
        .announcements(Audience::Public)
        .contains(&Announcement::Check {
            side: Side::WHITE,
            directions: vec![CheckDirection::ShortDiagonal],
        }));
    assert_eq!(game.parse_attempt("e4"), Err(MoveError::Illegal));
    assert!(!game
        .announcements(Audience::Public)
        .iter()
        .any(|a| matches!(a, Announcement::PawnTries { .. })));
}
