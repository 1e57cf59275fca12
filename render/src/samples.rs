//! Views built by hand, without the engine: for tests, benchmarks and the
//! example images in `docs/`.

use kodex_engine::{Art, Audience, PieceGlyph, PocketView, Side, SquareView, View};

/// The glyph of a FEN piece letter: upper case white, lower case black; `K Q R B N P`
/// get classical art, every other letter a token.
pub fn glyph(letter: char) -> PieceGlyph {
    let side = if letter.is_ascii_uppercase() {
        Side::WHITE
    } else {
        Side::BLACK
    };
    let upper = letter.to_ascii_uppercase();
    let art = match upper {
        'K' => Art::King,
        'Q' => Art::Queen,
        'R' => Art::Rook,
        'B' => Art::Bishop,
        'N' => Art::Knight,
        'P' => Art::Pawn,
        _ => Art::Token,
    };
    PieceGlyph {
        side,
        art,
        letter: upper,
        promoted: false,
    }
}

/// A view of a FEN-like placement (`rnbqkbnr/pppppppp/8/…`, rank 8 first): digits
/// (several in a row make one number) are empty squares, `*` a fogged square, `-`
/// an absent one, `~` after a piece marks it promoted. White to move, move 1.
pub fn view(placement: &str) -> View {
    let mut rows: Vec<Vec<SquareView>> = Vec::new();
    for row_text in placement.split('/') {
        let mut row = Vec::new();
        let mut empties = 0usize;
        for ch in row_text.chars() {
            if let Some(digit) = ch.to_digit(10) {
                empties = empties * 10 + digit as usize;
                continue;
            }
            row.extend(std::iter::repeat_n(SquareView::Empty, empties));
            empties = 0;
            match ch {
                '*' => row.push(SquareView::Fog),
                '-' => row.push(SquareView::Absent),
                '~' => {
                    if let Some(SquareView::Piece(glyph)) = row.last_mut() {
                        glyph.promoted = true;
                    }
                }
                letter => row.push(SquareView::Piece(glyph(letter))),
            }
        }
        row.extend(std::iter::repeat_n(SquareView::Empty, empties));
        rows.push(row);
    }
    let files = rows.iter().map(Vec::len).max().unwrap_or(0);
    let ranks = rows.len();
    let mut squares = Vec::with_capacity(files * ranks);
    for row in rows.iter().rev() {
        for file in 0..files {
            squares.push(row.get(file).copied().unwrap_or(SquareView::Absent));
        }
    }
    View::new(files as u8, ranks as u8, squares)
}

/// The square index of a name like `e4` or `j10` on `view`'s board.
pub fn square(view: &View, name: &str) -> u16 {
    let mut chars = name.chars();
    let file = chars.next().and_then(|c| view.file_index(c)).unwrap_or(0);
    let rank: u8 = chars.as_str().parse::<u8>().unwrap_or(1).saturating_sub(1);
    view.index(file, rank) as u16
}

/// The chess start position.
pub fn start_position() -> View {
    view("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR")
}

/// A middlegame (after 12 moves of a Ruy Lopez), black to move, last move highlighted.
pub fn middlegame() -> View {
    let mut view = view("r1bq1rk1/2p1bppp/p1np1n2/1p2p3/3PP3/1BP2N1P/PP3PP1/RNBQR1K1");
    view.side_to_move = Side::BLACK;
    view.move_number = 10;
    view.last_move = vec![square(&view, "d2"), square(&view, "d4")];
    view
}

/// A crazyhouse middlegame with full pockets, a promoted piece and a king in check.
pub fn crazyhouse() -> View {
    let mut view = view("r2q1rk1/ppp2ppp/2n1pP2/3p4/1b1P2Q~1/2N2N2/PPP2PPP/R1B1KB1R");
    view.side_to_move = Side::BLACK;
    view.move_number = 11;
    view.last_move = vec![square(&view, "e5"), square(&view, "f6")];
    let piece = |letter| glyph(letter);
    view.pockets = vec![
        PocketView {
            side: Side::WHITE,
            pieces: vec![
                (piece('P'), 2),
                (piece('N'), 1),
                (piece('B'), 0),
                (piece('R'), 0),
                (piece('Q'), 0),
            ],
        },
        PocketView {
            side: Side::BLACK,
            pieces: vec![
                (piece('p'), 1),
                (piece('n'), 0),
                (piece('b'), 1),
                (piece('r'), 0),
                (piece('q'), 0),
            ],
        },
    ];
    view
}

/// Fog of war seen by black: its own pieces and the squares they reach; the rest fogged.
pub fn fog() -> View {
    let mut view = view("rnbqkb1r/pp2pppp/5n2/2pp4/*3****/********/********/********");
    view.audience = Audience::Side(Side::BLACK);
    view.side_to_move = Side::BLACK;
    view.move_number = 4;
    view
}

/// A 10 × 10 board (grand chess) with fairy pieces drawn as tokens.
pub fn ten_by_ten() -> View {
    let mut view = view("r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R");
    view.last_move = vec![];
    view
}

/// A three-check position with counters.
pub fn three_check() -> View {
    let mut view = view("r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R");
    view.side_to_move = Side::BLACK;
    view.move_number = 3;
    view.remaining_checks = Some(vec![2, 3]);
    view.checked = vec![square(&view, "e8")];
    view
}

/// A 14 × 14 cross (four-handed chess board shape) with absent corners.
pub fn cross() -> View {
    let corner = "---";
    let mut rows = Vec::new();
    for rank in 0..14 {
        if !(3..11).contains(&rank) {
            rows.push(format!("{corner}8{corner}"));
        } else {
            rows.push("14".to_string());
        }
    }
    view(&rows.join("/"))
}
