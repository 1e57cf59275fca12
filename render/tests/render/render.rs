//! The renderer seen from outside: decoded PNG and GIF properties on hand-built views.

use kodex_engine::{
    Art, Audience, BoardStyle, Game, PieceGlyph, Registry, Side, SquareView, Start, View,
};
use kodex_render::{
    render_gif, render_pair_gif_with, render_pair_png, render_png, render_timelines_png, samples,
    shared_renderer, Decor, Inset, Renderer, Rgb, Theme, MAX_WIDTH_PLUS_HEIGHT,
};
use std::collections::HashSet;

/// A decoded PNG: width, height, and RGB pixels.
struct Decoded {
    width: u32,
    height: u32,
    pixels: Vec<Rgb>,
}

impl Decoded {
    fn at(&self, x: u32, y: u32) -> Rgb {
        self.pixels[(y * self.width + x) as usize]
    }

    /// The colours inside a cell.
    fn cell(&self, (x0, y0, size): (u32, u32, u32)) -> Vec<Rgb> {
        let mut out = Vec::new();
        for y in y0..y0 + size {
            for x in x0..x0 + size {
                out.push(self.at(x, y));
            }
        }
        out
    }
}

fn decode(bytes: &[u8]) -> Decoded {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::EXPAND);
    let mut reader = decoder.read_info().expect("a valid PNG header");
    assert_eq!(
        reader.info().color_type,
        png::ColorType::Indexed,
        "an indexed PNG"
    );
    let mut buffer = vec![0; reader.output_buffer_size().expect("a sane size")];
    let frame = reader.next_frame(&mut buffer).expect("valid PNG data");
    assert_eq!(frame.color_type, png::ColorType::Rgb);
    let pixels = buffer[..frame.buffer_size()]
        .chunks_exact(3)
        .map(|c| Rgb(c[0], c[1], c[2]))
        .collect();
    Decoded {
        width: frame.width,
        height: frame.height,
        pixels,
    }
}

fn decor(bottom: Side) -> Decor {
    Decor {
        bottom,
        names: vec!["Alice".into(), "Bob".into()],
        clocks: vec![Some("5:00".into()), Some("4:59".into())],
        status: None,
        to_move: None,
        ..Decor::default()
    }
}

fn cell(view: &View, decor: &Decor, name: &str) -> (u32, u32, u32) {
    let square = samples::square(view, name) as usize;
    let (file, rank) = (
        (square % view.files as usize) as u8,
        (square / view.files as usize) as u8,
    );
    shared_renderer(view)
        .cell_rect(view, decor, file, rank)
        .expect("the cell is on the board")
}

fn count(pixels: &[Rgb], color: Rgb) -> usize {
    pixels.iter().filter(|&&p| p == color).count()
}

#[test]
fn a_standard_board_is_a_wide_indexed_png_with_the_expected_size() {
    let view = samples::middlegame();
    let decor = decor(Side::WHITE);
    let png = render_png(&view, &decor);
    let image = decode(&png);
    let drawn = shared_renderer(&view).draw(&view, &decor);
    assert_eq!((image.width, image.height), (drawn.width, drawn.height));
    assert!(image.width >= 640, "8×8 boards are at least 640 px wide");
    assert!(
        png.len() <= 30 * 1024,
        "an 8×8 board is {} bytes",
        png.len()
    );
}

#[test]
fn every_board_size_from_5_to_16_renders_with_all_cells_inside() {
    for size in [5u8, 6, 8, 9, 10, 12, 14, 16] {
        let row = size.to_string();
        let placement = vec![row.as_str(); size as usize].join("/");
        let view = samples::view(&placement);
        assert_eq!((view.files, view.ranks), (size, size));
        let decor = Decor::default();
        let image = decode(&render_png(&view, &decor));
        let renderer = shared_renderer(&view);
        assert!(renderer.square() >= 40, "squares stay readable");
        let (x, y, s) = renderer
            .cell_rect(&view, &decor, size - 1, 0)
            .expect("on board");
        assert!(x + s <= image.width && y + s <= image.height);
    }
}

#[test]
fn the_bottom_side_is_drawn_at_the_bottom() {
    // A lone white king on a1 and a black king on h8.
    let view = samples::view("7k/8/8/8/8/8/8/K7");
    let theme = Theme::default();
    let white_fill = theme.pieces[0].fill;
    let black_fill = theme.pieces[1].fill;
    for bottom in [Side::WHITE, Side::BLACK] {
        let decor = decor(bottom);
        let image = decode(&render_png(&view, &decor));
        let a1 = cell(&view, &decor, "a1");
        let h8 = cell(&view, &decor, "h8");
        assert!(
            count(&image.cell(a1), white_fill) > 200,
            "the white king is on a1"
        );
        assert!(
            count(&image.cell(h8), black_fill) > 200,
            "the black king is on h8"
        );
        // a1 sits in the bottom-left corner for white, the top-right for black.
        let board_middle = (a1.0 + h8.0) / 2;
        if bottom == Side::WHITE {
            assert!(a1.1 > h8.1 && a1.0 < board_middle);
        } else {
            assert!(a1.1 < h8.1 && a1.0 > board_middle);
        }
        // And the pixels agree: the lower half of the board holds the bottom side's king.
        let (top, bottom_edge) = (a1.1.min(h8.1), a1.1.max(h8.1) + a1.2);
        let middle = (top + bottom_edge) / 2;
        let lower_half_white: usize = (middle..bottom_edge)
            .flat_map(|y| (0..image.width).map(move |x| (x, y)))
            .filter(|&(x, y)| image.at(x, y) == white_fill)
            .count();
        if bottom == Side::WHITE {
            assert!(lower_half_white > 200);
        } else {
            assert_eq!(lower_half_white, 0);
        }
    }
}

#[test]
fn four_seats_each_see_the_board_from_their_own_edge_with_a_strip_per_seat() {
    // A 10×6 board with a white king on a1: seen from the south a1 is bottom
    // left, from the north top right, from the west bottom right (the board
    // turned a quarter, taller than wide), from the east top left.
    let view = samples::view("10/10/10/10/10/K9");
    let white_fill = Theme::default().pieces[0].fill;
    let four = |bottom: u8| Decor {
        bottom: Side(bottom),
        names: ["Ann", "Bob", "Cid", "Dee"].map(String::from).to_vec(),
        clocks: vec![Some("1:00".into()); 4],
        status: None,
        to_move: None,
        ..Decor::default()
    };
    let two_seat_height = decode(&render_png(&view, &decor(Side::WHITE))).height;
    for bottom in 0..4u8 {
        let decor = four(bottom);
        let image = decode(&render_png(&view, &decor));
        let (x, y, size) = shared_renderer(&view)
            .cell_rect(&view, &decor, 0, 0)
            .expect("a1 is drawn");
        assert!(
            count(&image.cell((x, y, size)), white_fill) > 100,
            "seat {bottom}: the king is drawn where a1 is said to be"
        );
        let (left, top) = (x < image.width / 2, y < image.height / 2);
        let expected = match bottom {
            0 => (true, false),
            1 => (false, true),
            2 => (false, false),
            _ => (true, true),
        };
        assert_eq!((left, top), expected, "seat {bottom}: where a1 is");
        if bottom >= 2 {
            assert!(
                image.height > image.width,
                "seat {bottom}: the board turned"
            );
        } else {
            // Two more strips than a two-player image: one per seat.
            assert!(image.height > two_seat_height, "seat {bottom}");
        }
    }
}

#[test]
fn four_handed_chess_is_drawn_from_each_players_seat() {
    // The start of four-handed chess: every king stands in the middle of its
    // player's edge (white-1 h1, black-1 h14, white-2 a7, black-2 o7; the seed's files skip j), the
    // queen beside it. Drawn for each seat, the board turns so that the
    // seat's own king is on the lowest row, the queen on the player's left
    // for white and on the right for black, as in ordinary chess.
    let registry = Registry::builtin();
    let variant = registry.get("fourplayer").expect("built in");
    let view = Game::new(variant, Start::Standard)
        .expect("the start position")
        .view(Audience::Full);
    let theme = Theme::default();
    let seats = [("h1", "g1"), ("h14", "g14"), ("a7", "a8"), ("o7", "o8")];
    // Where the side's piece colours are inside a cell: the piece's shape.
    let shape = |image: &Decoded, rect: (u32, u32, u32), side: usize| -> Vec<bool> {
        let colors = theme.pieces[side];
        image
            .cell(rect)
            .into_iter()
            .map(|p| p == colors.fill || p == colors.outline || p == colors.detail)
            .collect()
    };
    let mut king_shapes: [Vec<Vec<bool>>; 2] = [Vec::new(), Vec::new()];
    let mut king_fills = Vec::new();
    for (seat, (king, queen)) in seats.into_iter().enumerate() {
        let decor = Decor {
            bottom: Side(seat as u8),
            names: ["Ann", "Bob", "Cid", "Dee"].map(String::from).to_vec(),
            clocks: vec![Some("5:00".into()); 4],
            status: None,
            to_move: None,
            ..Decor::default()
        };
        let image = decode(&render_png(&view, &decor));
        let king_rect = cell(&view, &decor, king);
        let queen_rect = cell(&view, &decor, queen);
        // The cells that exist (not the cross's missing corners).
        let cells: Vec<(u32, u32, u32)> = (0..view.files)
            .flat_map(|file| (0..view.ranks).map(move |rank| (file, rank)))
            .filter(|&(file, rank)| view.at(file, rank) != SquareView::Absent)
            .filter_map(|(file, rank)| shared_renderer(&view).cell_rect(&view, &decor, file, rank))
            .collect();
        let lowest = cells.iter().map(|&(_, y, _)| y).max().expect("cells");
        let x0 = cells.iter().map(|&(x, _, _)| x).min().expect("cells");
        assert_eq!(
            king_rect.1, lowest,
            "seat {seat}: the own king is at the bottom"
        );
        assert_eq!(queen_rect.1, lowest, "seat {seat}: so is the queen");
        let queen_left = queen_rect.0 < king_rect.0;
        assert_eq!(queen_left, seat % 2 == 0, "seat {seat}: the queen's side");
        // The king is in the middle: seven cells of the fourteen on one side.
        let size = king_rect.2;
        let column = (king_rect.0 - x0) / size;
        assert_eq!(column, if seat % 2 == 0 { 7 } else { 6 }, "seat {seat}");
        // Each seat's army in its own colour: white, black, red, blue.
        let side = seat % 2;
        let king_shape = shape(&image, king_rect, seat);
        assert!(
            king_shape.iter().filter(|&&b| b).count() > 100,
            "seat {seat}: a piece"
        );
        assert_ne!(
            king_shape,
            shape(&image, queen_rect, seat),
            "seat {seat}: king ≠ queen"
        );
        // No other army's fill on the king (where it is not one of this
        // army's own three colours).
        let own = theme.pieces[seat];
        for other in (0..4).filter(|&other| other != seat) {
            let fill = theme.pieces[other].fill;
            if fill != own.fill && fill != own.outline && fill != own.detail {
                let pixels = image.cell(king_rect);
                assert_eq!(
                    count(&pixels, fill),
                    0,
                    "seat {seat}: the king has army {other}'s fill"
                );
            }
        }
        king_fills.push(own.fill);
        king_shapes[side].push(king_shape);
    }
    king_fills.sort_by_key(|rgb| format!("{rgb:?}"));
    king_fills.dedup();
    assert_eq!(king_fills.len(), 4, "four armies, four fills");
    // Each seat's king is in its own army's colours (checked above, > 100
    // pixels each), so the four armies differ; the white and black kings'
    // shapes are alike for both partners of a side (one outline colour).
    assert_eq!(king_shapes[0].len(), 2);
    assert_eq!(king_shapes[1].len(), 2);
}

#[test]
fn enochian_armies_are_drawn_in_four_colours_and_the_thrones_marked() {
    // The four kings of Enochian chess: red h1, black a1, yellow a8, blue
    // h8, each with its bishop on its throne. Each is filled with its
    // army's colour, no two alike, and the four corner thrones are marked.
    let registry = Registry::builtin();
    let variant = registry.get("enochian").expect("built in");
    let view = Game::new(variant, Start::Standard)
        .expect("the start position")
        .view(Audience::Full);
    let theme = Theme::default();
    let decor = Decor {
        bottom: Side(0),
        names: ["Ann", "Bob", "Cid", "Dee"].map(String::from).to_vec(),
        clocks: vec![Some("5:00".into()); 4],
        status: None,
        to_move: None,
        ..Decor::default()
    };
    let image = decode(&render_png(&view, &decor));
    let mut fills = Vec::new();
    for (king, color) in [
        ("h1", "red"),
        ("a1", "black"),
        ("a8", "yellow"),
        ("h8", "blue"),
    ] {
        let fill = theme.pieces[Side::from_color_name(color).expect("a colour").index()].fill;
        // The throne holds the king (top left) and its bishop (small, in
        // the bottom right corner): the king's part is the cell but that
        // corner.
        let (x0, y0, size) = cell(&view, &decor, king);
        let corner = size * 2 / 5;
        let mut kings_part = Vec::new();
        let mut bishops_corner = Vec::new();
        for y in y0..y0 + size {
            for x in x0..x0 + size {
                if x >= x0 + corner && y >= y0 + corner {
                    bishops_corner.push(image.at(x, y));
                } else {
                    kings_part.push(image.at(x, y));
                }
            }
        }
        assert!(count(&kings_part, fill) > 50, "{king}: the {color} king");
        assert!(
            count(&bishops_corner, fill) > 20,
            "{king}: the {color} bishop beside the king"
        );
        // No other army's fill on the king (drawn smaller than a lone piece,
        // its dark outline's edge may round to black's dark grey in a pixel
        // or two of the palette, never in a fill's worth).
        for other in ["red", "black", "yellow", "blue"]
            .into_iter()
            .filter(|&c| c != color)
        {
            let other_fill =
                theme.pieces[Side::from_color_name(other).expect("a colour").index()].fill;
            let stray = count(&kings_part, other_fill);
            assert!(stray <= 3, "{king} has {other} in it ({stray} pixels)");
        }
        fills.push(fill);
        let (x, y, _) = cell(&view, &decor, king);
        let corner = image.at(x + 1, y + 1);
        assert!(
            corner == theme.dark_marked || corner == theme.light_marked,
            "the throne {king} is marked"
        );
    }
    fills.dedup();
    assert_eq!(fills.len(), 4, "four different fills");
}

#[test]
fn only_the_seat_to_move_is_marked_when_partners_share_a_side() {
    // Four seats, white to move: seat 0 or its partner seat 2 may be the one.
    let view = samples::view("10/10/10/10/10/K9");
    let four = |to_move: Option<u8>| Decor {
        bottom: Side(0),
        names: ["Ann", "Bob", "Cid", "Dee"].map(String::from).to_vec(),
        clocks: vec![Some("1:00".into()); 4],
        status: None,
        to_move: to_move.map(Side),
        ..Decor::default()
    };
    let seat = |to_move| decode(&render_png(&view, &four(to_move)));
    let (first, partner) = (seat(Some(0)), seat(Some(2)));
    assert_eq!(
        seat(None).pixels,
        first.pixels,
        "by default the view's side"
    );
    // Both strips of the white team are below the board; the images differ
    // there and nowhere else.
    let (_, y, size) = shared_renderer(&view)
        .cell_rect(&view, &four(None), 0, 0)
        .expect("a1");
    let width = first.width as usize;
    let differing: Vec<usize> = (0..first.height as usize)
        .filter(|&row| {
            first.pixels[row * width..(row + 1) * width]
                != partner.pixels[row * width..(row + 1) * width]
        })
        .collect();
    assert!(!differing.is_empty(), "the marked strip moved");
    assert!(
        differing.iter().all(|&row| row >= (y + size) as usize),
        "only strips below the board change: {differing:?}"
    );
}

#[test]
fn last_move_and_check_are_highlighted() {
    let theme = Theme::default();
    let mut view = samples::view("4k3/8/8/8/4Q3/8/8/4K3");
    view.last_move = vec![samples::square(&view, "e2"), samples::square(&view, "e4")];
    view.checked = vec![samples::square(&view, "e8")];
    let decor = decor(Side::WHITE);
    let image = decode(&render_png(&view, &decor));
    // e2 is light, e4 light: the last-move light colour fills their corners.
    for name in ["e2", "e4"] {
        let (x, y, _) = cell(&view, &decor, name);
        assert_eq!(
            image.at(x + 1, y + 1),
            theme.light_last_move,
            "{name} highlighted"
        );
    }
    let (x, y, _) = cell(&view, &decor, "e3");
    assert_eq!(image.at(x + 1, y + 1), theme.dark, "e3 is not highlighted");
    // The checked king stands in a red glow.
    let glow = image
        .cell(cell(&view, &decor, "e8"))
        .iter()
        .filter(|p| p.0 > 200 && p.1 < 120 && p.2 < 120)
        .count();
    assert!(glow > 300, "only {glow} red pixels on e8");
}

#[test]
fn marked_squares_are_tinted() {
    let theme = Theme::default();
    let mut view = samples::view("8/8/8/8/8/8/8/8");
    view.marked = vec![samples::square(&view, "d4"), samples::square(&view, "e4")];
    let decor = decor(Side::WHITE);
    let image = decode(&render_png(&view, &decor));
    let (x, y, _) = cell(&view, &decor, "d4");
    assert_eq!(image.at(x + 1, y + 1), theme.dark_marked);
    let (x, y, _) = cell(&view, &decor, "e4");
    assert_eq!(image.at(x + 1, y + 1), theme.light_marked);
}

#[test]
fn every_fogged_square_looks_the_same_whatever_was_hidden_or_highlighted() {
    // Fog on light and dark squares, on a "last move" square and a "checked" square:
    // a view should never carry those, but if it did the fog must still hide them.
    let mut view = samples::view("****4/5***/8/8/8/8/8/4K3");
    view.last_move = vec![samples::square(&view, "a8"), samples::square(&view, "b8")];
    view.checked = vec![samples::square(&view, "c8")];
    let decor = decor(Side::WHITE);
    let image = decode(&render_png(&view, &decor));
    let reference = image.cell(cell(&view, &decor, "a8"));
    for name in ["b8", "c8", "d8", "f7", "g7", "h7"] {
        assert_eq!(
            image.cell(cell(&view, &decor, name)),
            reference,
            "fog on {name} differs"
        );
    }
    // The same fog in another view, with other visible pieces around.
    let other = samples::view("****4/5***/2q5/8/3N4/8/8/6K1");
    let other_image = decode(&render_png(&other, &decor));
    assert_eq!(other_image.cell(cell(&other, &decor, "f7")), reference);
}

#[test]
fn a_public_mark_shows_on_a_fogged_square_and_nothing_else_does() {
    // The Kriegspiel referee announced a capture on d5 and e5: the mark is
    // public, so a board on which those squares are fog still shows it.
    let theme = Theme::default();
    let decor = decor(Side::WHITE);
    let mut view = samples::view("8/8/8/*****3/*****3/8/8/4K3");
    view.marked = vec![samples::square(&view, "d5"), samples::square(&view, "e5")];
    // Highlights and checks are not public: on fog they draw nothing.
    view.last_move = vec![samples::square(&view, "a5"), samples::square(&view, "b5")];
    view.checked = vec![samples::square(&view, "c5")];
    let image = decode(&render_png(&view, &decor));
    let plain = image.cell(cell(&view, &decor, "a4"));
    for name in ["a5", "b5", "c5", "b4", "c4", "d4", "e4"] {
        assert_eq!(image.cell(cell(&view, &decor, name)), plain, "{name}");
    }
    for (name, tint) in [("d5", theme.light_marked), ("e5", theme.dark_marked)] {
        let marked = image.cell(cell(&view, &decor, name));
        assert_ne!(marked, plain, "the mark on {name} shows");
        let framed = count(&marked, tint);
        let size = cell(&view, &decor, name).2 as usize;
        assert!(framed >= size * 4, "{name}: {framed} pixels of its mark");
        // Still fog: the fog's own colours fill the rest of the cell.
        assert!(count(&marked, theme.fog) > size * size / 3, "{name} is fog");
    }
    // The mark looks the same whatever was hidden on the square.
    let mut other = samples::view("8/8/8/*****3/*****3/8/8/6K1");
    other.marked = view.marked.clone();
    let other_image = decode(&render_png(&other, &decor));
    for name in ["d5", "e5"] {
        assert_eq!(
            other_image.cell(cell(&other, &decor, name)),
            image.cell(cell(&view, &decor, name))
        );
    }
}

#[test]
fn the_kriegspiel_capture_square_is_marked_on_the_board_of_the_player_who_lost_the_piece() {
    let registry = Registry::builtin();
    let kriegspiel = registry.get("kriegspiel").expect("kriegspiel");
    let theme = Theme::default();
    // White's knight or bishop takes the pawn on e5: black sees neither.
    let boards: Vec<Vec<u8>> = [
        ("4k3/8/8/4p3/8/5N2/8/4K3 w - - 0 1", "f3e5"),
        ("4k3/8/8/4p3/8/8/1B6/4K3 w - - 0 1", "b2e5"),
    ]
    .iter()
    .map(|(fen, capture)| {
        let mut game = Game::new(kriegspiel, Start::Fen((*fen).to_owned())).expect("start");
        let mv = game.parse_move(capture).expect("legal");
        game.play(mv);
        let view = game.view(Audience::Side(Side::BLACK));
        let decor = decor(Side::BLACK);
        let png = render_png(&view, &decor);
        let image = decode(&png);
        // e5 is fog on black's board (his pawn is gone) and marked.
        assert_eq!(view.at(4, 4), SquareView::Fog);
        let e5 = image.cell(cell(&view, &decor, "e5"));
        assert_ne!(e5, image.cell(cell(&view, &decor, "e4")), "e5 is marked");
        assert!(count(&e5, theme.dark_marked) > 0, "in the marked colour");
        // The public board (what spectators could be shown) marks it too.
        let public = game.view(Audience::Public);
        assert!(public.marked.contains(&samples::square(&public, "e5")));
        let public_image = decode(&render_png(&public, &decor));
        assert_eq!(public_image.cell(cell(&public, &decor, "e5")), e5);
        png
    })
    .collect();
    assert_eq!(boards[0], boards[1], "black's boards are the same");
}

#[test]
fn rendering_is_deterministic() {
    let view = samples::crazyhouse();
    let decor = decor(Side::BLACK);
    let first = render_png(&view, &decor);
    assert_eq!(render_png(&view, &decor), first);
    // A fresh renderer draws its tiles anew and still gives the same bytes.
    let fresh = Renderer::new(shared_renderer(&view).square());
    assert_eq!(fresh.png(&view, &decor), first);
}

#[test]
fn absent_squares_are_not_drawn() {
    let view = samples::cross();
    assert_eq!(view.at(0, 0), SquareView::Absent);
    let decor = Decor::default();
    let image = decode(&render_png(&view, &decor));
    let page = Theme::default().page;
    let corner = image.cell(cell(&view, &decor, "a1"));
    assert!(
        corner.iter().all(|&p| p == page),
        "a1 of the cross is page background"
    );
    let (x, y, _) = cell(&view, &decor, "d1");
    assert_ne!(image.at(x + 1, y + 1), page, "d1 of the cross is a square");
}

#[test]
fn unknown_pieces_are_lettered_tokens() {
    let view = samples::view("8/8/8/8/8/8/8/AC6");
    let decor = decor(Side::WHITE);
    let image = decode(&render_png(&view, &decor));
    let archbishop = image.cell(cell(&view, &decor, "a1"));
    let chancellor = image.cell(cell(&view, &decor, "b1"));
    let white_fill = Theme::default().pieces[0].fill;
    assert!(
        count(&archbishop, white_fill) > 1000,
        "a round token fills the square"
    );
    // Same token, different letter: a1 is dark, b1 light, so compare the letter area only.
    let letter_pixels = |pixels: &[Rgb]| {
        let outline = Theme::default().pieces[0].outline;
        let s = (pixels.len() as f64).sqrt() as usize;
        (s / 3..2 * s / 3)
            .flat_map(|y| (s / 3..2 * s / 3).map(move |x| y * s + x))
            .filter(|&i| pixels[i] == outline)
            .collect::<HashSet<usize>>()
    };
    assert!(!letter_pixels(&archbishop).is_empty());
    assert_ne!(letter_pixels(&archbishop), letter_pixels(&chancellor));
}

#[test]
fn pockets_and_strips_make_the_image_taller() {
    let plain = samples::middlegame();
    let with_pockets = samples::crazyhouse();
    let decor = decor(Side::WHITE);
    let plain_height = decode(&render_png(&plain, &decor)).height;
    let pocket_image = decode(&render_png(&with_pockets, &decor));
    let square = shared_renderer(&plain).square();
    assert_eq!(pocket_image.height, plain_height + 2 * square);
    // The count badge colour appears (pieces held).
    assert!(count(&pocket_image.pixels, Theme::default().accent) > 100);
}

#[test]
fn uniform_boards_have_one_cell_colour() {
    let mut view = samples::view("8/8/8/8/8/8/8/8");
    view.style = BoardStyle::Uniform;
    let decor = Decor::default();
    let image = decode(&render_png(&view, &decor));
    let uniform = Theme::default().uniform;
    for name in ["a1", "b1", "a2", "h8"] {
        let (x, y, _) = cell(&view, &decor, name);
        assert_eq!(image.at(x + 1, y + 1), uniform, "{name}");
    }
}

#[test]
fn point_boards_draw_lines_between_points() {
    let mut view = samples::view("9/9/9/9/9/9/9/9/9/9");
    view.style = BoardStyle::Points;
    let decor = Decor::default();
    let image = decode(&render_png(&view, &decor));
    let line = Theme::default().points_line;
    let (x, y, s) = cell(&view, &decor, "e5");
    assert_eq!(
        image.at(x + s / 2, y + 1),
        line,
        "a vertical line crosses e5"
    );
    assert_eq!(
        image.at(x + 1, y + s / 2),
        line,
        "a horizontal line crosses e5"
    );
    let (x, y, s) = cell(&view, &decor, "a1");
    assert_ne!(
        image.at(x + 1, y + s / 2),
        line,
        "no line leaves the board at a1"
    );
}

#[test]
fn promoted_pieces_carry_a_mark() {
    let plain = samples::view("8/8/8/8/8/8/8/Q7");
    let promoted = samples::view("8/8/8/8/8/8/8/Q~7");
    assert!(matches!(
        promoted.at(0, 0),
        SquareView::Piece(PieceGlyph {
            promoted: true,
            art: Art::Queen,
            ..
        })
    ));
    let decor = Decor::default();
    let mark = Theme::default().promoted;
    let a = decode(&render_png(&plain, &decor));
    let b = decode(&render_png(&promoted, &decor));
    assert_eq!(count(&a.cell(cell(&plain, &decor, "a1")), mark), 0);
    assert!(count(&b.cell(cell(&promoted, &decor, "a1")), mark) > 40);
}

#[test]
fn a_game_gif_has_one_frame_per_view_and_cheap_difference_frames() {
    let mut frames = Vec::new();
    let mut view = samples::start_position();
    let decor = decor(Side::WHITE);
    frames.push((view.clone(), decor.clone()));
    // Shuffle a knight out and back a few times.
    for (from, to) in [("g1", "f3"), ("g8", "f6"), ("f3", "g1"), ("f6", "g8")] {
        let (from, to) = (
            samples::square(&view, from) as usize,
            samples::square(&view, to) as usize,
        );
        view.squares[to] = view.squares[from];
        view.squares[from] = SquareView::Empty;
        view.last_move = vec![from as u16, to as u16];
        view.side_to_move = view.side_to_move.opponent();
        frames.push((view.clone(), decor.clone()));
    }
    let gif = render_gif(&frames);
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options
        .read_info(std::io::Cursor::new(&gif))
        .expect("a valid GIF");
    let (width, height) = (decoder.width() as u32, decoder.height() as u32);
    let first = render_png(&frames[0].0, &frames[0].1);
    let first = decode(&first);
    assert_eq!((width, height), (first.width, first.height));
    let mut count = 0;
    while let Some(frame) = decoder.read_next_frame().expect("a valid frame") {
        if count > 0 {
            assert_eq!(
                frame.transparent,
                Some(255),
                "unchanged pixels are transparent"
            );
        }
        count += 1;
    }
    assert_eq!(count, frames.len());
    // Four moves cost far less than four more full frames (each well under a quarter).
    let one_frame = render_gif(&frames[..1]).len();
    assert!(
        gif.len() < one_frame * 2,
        "{} bytes vs {one_frame} for one frame",
        gif.len()
    );
}

#[test]
fn odd_views_draw_without_panicking() {
    let decor = Decor {
        bottom: Side(3),
        names: vec![
            "a very long name that cannot possibly fit in the strip beside the clock".into();
            4
        ],
        clocks: vec![Some("123:45:67".into()); 4],
        status: Some(
            "a status line far too long to fit on one line of the footer, cut short".into(),
        ),
        to_move: None,
        ..Decor::default()
    };
    let mut empty = samples::view("8");
    empty.files = 0;
    empty.ranks = 0;
    empty.squares.clear();
    let mut short_squares = samples::start_position();
    short_squares.squares.truncate(10);
    let mut huge = samples::view(&vec!["30"; 30].join("/"));
    huge.remaining_checks = Some(vec![200, 0]);
    let mut crowded_pocket = samples::view("3/3/3");
    crowded_pocket.pockets = vec![kodex_engine::PocketView {
        side: Side::WHITE,
        pieces: "PNBRQACEGHMS"
            .chars()
            .map(|c| (samples::glyph(c), 255))
            .collect(),
    }];
    for view in [empty, short_squares, huge, crowded_pocket] {
        let png = render_png(&view, &decor);
        let image = decode(&png);
        assert!(image.width > 0 && image.height > 0);
    }
}

#[test]
fn a_timeline_picture_is_the_present_board_over_a_grid_of_small_labelled_boards() {
    let theme = Theme::default();
    let present = samples::middlegame();
    let decor = decor(Side::WHITE);
    let alone = decode(&render_png(&present, &decor));
    // No abandoned timeline: just the present board.
    let empty = decode(&render_timelines_png(&present, &decor, &[]));
    assert_eq!((empty.width, empty.height), (alone.width, alone.height));
    assert_eq!(empty.pixels, alone.pixels);

    // Three timelines, each with the traveller's square marked (d4, dark).
    let mut left = samples::view("4k3/8/8/8/3N4/8/8/4K3");
    left.marked = vec![samples::square(&left, "d4")];
    let insets: Vec<Inset> = (1..=3)
        .map(|n| Inset {
            view: left.clone(),
            decor: Decor::default(),
            label: format!("{n} · 12. T-2:Nd4"),
        })
        .collect();
    let picture = decode(&render_timelines_png(&present, &decor, &insets));
    // Two small boards a row under the big one: as wide, two rows taller.
    assert_eq!(picture.width, alone.width);
    let row_height = (picture.height - alone.height) / 2;
    assert!(row_height > alone.height / 3, "{row_height}");
    assert!(picture.height > alone.height + 2 * (alone.height / 3));
    assert!(picture.width + picture.height <= MAX_WIDTH_PLUS_HEIGHT);
    // The present board on top, unchanged.
    let top: Vec<Rgb> = picture.pixels[..(alone.width * alone.height) as usize].to_vec();
    assert_eq!(top, alone.pixels);
    // Below: three marked d4 squares, label text, and the page elsewhere.
    let below = &picture.pixels[(alone.width * alone.height) as usize..];
    let marked = count(below, theme.dark_marked);
    assert!(marked > 0 && marked % 3 == 0, "{marked}");
    // The first row holds two boards: marked squares left and right of the middle.
    let first_row = alone.height..alone.height + row_height;
    let marked_in = |columns: std::ops::Range<u32>| {
        first_row.clone().any(|y| {
            columns
                .clone()
                .any(|x| picture.at(x, y) == theme.dark_marked)
        })
    };
    assert!(marked_in(0..picture.width / 2));
    assert!(marked_in(picture.width / 2..picture.width));
    assert_eq!(
        picture.at(picture.width - 1, picture.height - 1),
        theme.page
    );
    let text_row = (alone.height..alone.height + row_height / 8)
        .any(|y| (0..picture.width / 2).any(|x| picture.at(x, y) == theme.text));
    assert!(text_row, "the first label is written above its board");
}

#[test]
fn a_pair_picture_is_both_boards_side_by_side_each_with_its_strips() {
    // Bughouse: the reader's board (white at the bottom) and the partner's
    // (black at the bottom, the partner's side), each with its reserves.
    let own = samples::crazyhouse();
    let partner = samples::start_position();
    let (own_decor, partner_decor) = (decor(Side::WHITE), decor(Side::BLACK));
    let pair = decode(&render_pair_png(
        (&own, &own_decor),
        (&partner, &partner_decor),
    ));
    let left = decode(&render_png(&own, &own_decor));
    let right = decode(&render_png(&partner, &partner_decor));
    assert!(
        pair.width > left.width + right.width,
        "a gap between the boards"
    );
    assert_eq!(pair.height, left.height.max(right.height));
    let right_x = pair.width - right.width;
    let left_y = (pair.height - left.height) / 2;
    let right_y = (pair.height - right.height) / 2;
    // Each half is exactly that board drawn alone.
    for y in 0..left.height {
        for x in 0..left.width {
            assert_eq!(pair.at(x, y + left_y), left.at(x, y), "left ({x}, {y})");
        }
    }
    for y in 0..right.height {
        for x in 0..right.width {
            assert_eq!(
                pair.at(right_x + x, y + right_y),
                right.at(x, y),
                "right ({x}, {y})"
            );
        }
    }
    // The gap is the page, and the picture fits a Telegram photo.
    let page = pair.at(left.width + 1, pair.height / 2);
    for y in 0..pair.height {
        assert_eq!(pair.at(left.width + 1, y), page);
    }
    assert!(pair.width + pair.height <= MAX_WIDTH_PLUS_HEIGHT);
}

/// A bughouse game's animation: each frame is the pair picture of that
/// moment, both boards side by side, the first frame whole.
#[test]
fn a_pair_gif_frame_is_the_pair_picture_of_its_moment() {
    let (a, b) = (samples::start_position(), samples::crazyhouse());
    let (left, right) = (decor(Side::WHITE), decor(Side::BLACK));
    let mut moved = a.clone();
    let (from, to) = (
        samples::square(&moved, "e2") as usize,
        samples::square(&moved, "e4") as usize,
    );
    moved.squares[to] = moved.squares[from];
    moved.squares[from] = SquareView::Empty;
    let frames = [
        [(a.clone(), left.clone()), (b.clone(), right.clone())],
        [(moved, left.clone()), (b.clone(), right.clone())],
    ];
    let gif = render_pair_gif_with(shared_renderer(&a), &frames);
    let pair = decode(&render_pair_png((&a, &left), (&b, &right)));
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options
        .read_info(std::io::Cursor::new(&gif))
        .expect("a valid GIF");
    assert_eq!(
        (decoder.width() as u32, decoder.height() as u32),
        (pair.width, pair.height),
        "two boards wide"
    );
    let first = decoder
        .read_next_frame()
        .expect("a valid frame")
        .expect("a first frame")
        .buffer
        .to_vec();
    for y in (0..pair.height).step_by(7) {
        for x in (0..pair.width).step_by(7) {
            let i = ((y * pair.width + x) * 4) as usize;
            let Rgb(r, g, b) = pair.at(x, y);
            assert_eq!(&first[i..i + 3], &[r, g, b], "({x}, {y})");
        }
    }
    let second = decoder.read_next_frame().expect("a valid frame");
    assert!(second.is_some(), "one frame per moment");
}

// Gliński's hexagonal board drawn from the engine's `hexagonal` variant: three
// cell colours where Gliński has them, the page outside the hexagon, black's
// view turned 180°.

/// The start position drawn for `bottom`.
fn hexagonal_start_image(bottom: Side) -> Decoded {
    let registry = Registry::builtin();
    let variant = registry.get("hexagonal").expect("hexagonal is built in");
    let game = Game::new(variant, Start::Standard).expect("start");
    let view = game.view(Audience::Full);
    let decor = Decor {
        bottom,
        ..Decor::default()
    };
    decode(&render_png(&view, &decor))
}

/// The bounding box (x0, y0, x1, y1) of the pixels in the three cell colours.
fn board_box(image: &Decoded, colours: &[Rgb]) -> (f32, f32, f32, f32) {
    let (mut x0, mut y0, mut x1, mut y1) = (u32::MAX, u32::MAX, 0, 0);
    for y in 0..image.height {
        for x in 0..image.width {
            if colours.contains(&image.pixels[(y * image.width + x) as usize]) {
                (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
            }
        }
    }
    (x0 as f32, y0 as f32, x1 as f32, y1 as f32)
}

#[test]
fn glinski_boards_have_three_colours_on_a_hexagon_with_white_at_the_bottom() {
    let theme = Theme::default();
    let (light, middle, dark) = (theme.light, theme.uniform, theme.dark);
    for bottom in [Side::WHITE, Side::BLACK] {
        let image = hexagonal_start_image(bottom);
        // Within Telegram's photo limits (width + height ≤ 10000, ratio ≤ 20).
        assert!(image.width + image.height < 10_000);
        let (x0, y0, x1, y1) = board_box(&image, &[light, middle, dark]);
        // 11 cells high; flat-topped cells 2/√3 as wide as high, columns 3/4 of that apart.
        let s = (y1 - y0 + 1.0) / 11.0;
        let radius = s / 3f32.sqrt();
        let width = x1 - x0 + 1.0;
        assert!(
            (width - 17.0 * radius).abs() < 4.0,
            "{width} vs {}",
            17.0 * radius
        );
        let (mx, my) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
        let flip = if bottom == Side::WHITE { 1.0 } else { -1.0 };
        // The centre of axial (q, r), a little off centre so no piece covers the probe.
        let probe = |q: f32, r: f32| {
            let (dx, dy) = (1.5 * radius * q, -s * (r + q / 2.0));
            image.at(
                (mx + flip * dx + 0.3 * radius).round() as u32,
                (my + flip * dy + 0.3 * s).round() as u32,
            )
        };
        // Empty cells of the start position: f6 is middle; g6 (1, 0) dark; g5 (1, -1) light;
        // e6 (-1, 1) dark; f4 (0, -2) light; f8 (0, 2) dark.
        assert_eq!(probe(0.0, 0.0), middle, "f6");
        assert_eq!(probe(1.0, 0.0), dark, "g6");
        assert_eq!(probe(1.0, -1.0), light, "g5");
        assert_eq!(probe(-1.0, 1.0), dark, "e6");
        assert_eq!(probe(0.0, -2.0), light, "f4");
        assert_eq!(probe(0.0, 2.0), dark, "f8");
        // Outside the hexagon (the corners of the 11 × 11 square) is the page.
        for (x, y) in [
            (x0 + 2.0, y0 + 2.0),
            (x1 - 2.0, y0 + 2.0),
            (x0 + 2.0, y1 - 2.0),
        ] {
            assert_eq!(image.at(x as u32, y as u32), theme.page);
        }
        // White's pieces fill the lower half for white, the upper half for black.
        let white = theme.piece_colors(0).fill;
        let (mut lower, mut upper) = (0, 0);
        for y in y0 as u32..=y1 as u32 {
            for x in x0 as u32..=x1 as u32 {
                if image.pixels[(y * image.width + x) as usize] == white {
                    if y as f32 > my {
                        lower += 1;
                    } else {
                        upper += 1;
                    }
                }
            }
        }
        assert!(lower + upper > 0, "no white piece drawn");
        assert_eq!(
            bottom == Side::WHITE,
            lower > upper,
            "{lower} below, {upper} above"
        );
    }
}

#[test]
fn tamerlane_citadels_are_squares_beside_the_main_board() {
    let registry = kodex_engine::Registry::builtin();
    let variant = registry.get("tamerlane").expect("tamerlane is built in");
    let game = kodex_engine::Game::new(variant, kodex_engine::Start::Standard).expect("start");
    let view = game.view(kodex_engine::Audience::Public);
    let decor = Decor::default();
    let image = decode(&render_png(&view, &decor));
    let page = Theme::default().page;
    for hole in ["a1", "a8", "a10", "m1", "m3", "m10"] {
        let pixels = image.cell(cell(&view, &decor, hole));
        assert!(pixels.iter().all(|&p| p == page), "{hole} is not drawn");
    }
    for square in ["a9", "m2", "b1", "l10"] {
        let (x, y, _) = cell(&view, &decor, square);
        assert_ne!(image.at(x + 1, y + 1), page, "{square} is a square");
    }
}

#[test]
fn boards_without_checkering_have_grid_lines_between_their_squares() {
    // A one-colour board (shatranj's start): an empty square is the board's
    // colour inside and the grid colour on its edges, so squares can be
    // counted; a checkered board (chess) draws no grid colour at all.
    let registry = Registry::builtin();
    let theme = Theme::default();
    let start = |variant: &str| {
        Game::new(registry.get(variant).expect("built in"), Start::Standard)
            .expect("the start position")
            .view(Audience::Full)
    };
    let view = start("shatranj");
    let decor = decor(Side::WHITE);
    let image = decode(&render_png(&view, &decor));
    for square in ["a4", "d4", "e5", "h3"] {
        let (x0, y0, size) = cell(&view, &decor, square);
        let middle = image.at(x0 + size / 2, y0 + size / 2);
        assert_eq!(middle, theme.uniform, "{square}: the board's colour inside");
        let edges = [
            image.at(x0, y0 + size / 2),
            image.at(x0 + size - 1, y0 + size / 2),
            image.at(x0 + size / 2, y0),
            image.at(x0 + size / 2, y0 + size - 1),
        ];
        assert!(
            edges.iter().all(|&p| p == theme.uniform_grid),
            "{square}: grid lines on every edge, got {edges:?}"
        );
    }
    let chess = start("chess");
    let image = decode(&render_png(&chess, &decor));
    assert_eq!(
        count(&image.pixels, theme.uniform_grid),
        0,
        "no grid on chess"
    );
}

/// The rows of `image` below the board and its strips: the footer.
fn footer_rows(view: &View, decor: &Decor, image: &Decoded) -> std::ops::Range<u32> {
    footer_rows_below(view, decor, image, 1)
}

/// [`footer_rows`] with `strips` player strips below the board.
fn footer_rows_below(
    view: &View,
    decor: &Decor,
    image: &Decoded,
    strips: u32,
) -> std::ops::Range<u32> {
    let renderer = shared_renderer(view);
    let bottom = (0..view.files)
        .flat_map(|file| (0..view.ranks).map(move |rank| (file, rank)))
        .filter_map(|(file, rank)| renderer.cell_rect(view, decor, file, rank))
        .map(|(_, y, size)| y + size)
        .max()
        .expect("cells");
    // Below the coordinates (a margin) and the bottom strips (one per seat below).
    let square = renderer.square();
    let strip = ((square as f32 * 0.58).round() as u32).max(30);
    let margin = ((square as f32 * 0.32).round() as u32).max(18);
    let footer_y = bottom + margin + strips * strip;
    footer_y..image.height
}

/// The columns where `color` appears in `rows` of `image`.
fn columns_with(image: &Decoded, rows: std::ops::Range<u32>, color: Rgb) -> Vec<u32> {
    (0..image.width)
        .filter(|&x| rows.clone().any(|y| image.at(x, y) == color))
        .collect()
}

#[test]
fn the_final_board_marks_the_mate_and_shows_the_last_move_before_the_result() {
    // Fool's mate: the engine's final view marks the mated king, and the
    // footer reads the mating move, then the result.
    let registry = Registry::builtin();
    let mut game =
        Game::new(registry.get("chess").expect("built in"), Start::Standard).expect("the start");
    for mv in ["f3", "e5", "g4", "Qh4#"] {
        game.play_text(mv).expect("legal");
    }
    let view = game.view(Audience::Full);
    assert!(!view.checked.is_empty(), "the final view marks the check");
    let theme = Theme::default();
    let result = Decor {
        status: Some("0–1 · checkmate".into()),
        ..decor(Side::WHITE)
    };
    let with_move = Decor {
        last_move: Some("2… Qh4#".into()),
        ..result.clone()
    };
    let plain = decode(&render_png(&view, &result));
    let image = decode(&render_png(&view, &with_move));
    let red = |image: &Decoded| {
        image
            .cell(cell(&view, &with_move, "e1"))
            .iter()
            .filter(|p| p.0 > 200 && p.1 < 120 && p.2 < 120)
            .count()
    };
    let unmarked = View {
        checked: Vec::new(),
        ..view.clone()
    };
    let no_glow = decode(&render_png(&unmarked, &with_move));
    assert!(red(&image) > 100, "the mated king stands in red");
    assert_eq!(red(&no_glow), 0, "no red without the mark");
    // The move label is wider than the move number alone: the result's
    // text starts further right, and only the footer changed.
    let rows = footer_rows(&view, &with_move, &image);
    let text = |image: &Decoded| columns_with(image, rows.clone(), theme.text);
    assert!(!text(&plain).is_empty() && !text(&image).is_empty());
    assert!(
        text(&image).last() > text(&plain).last(),
        "the footer holds more text"
    );
    let width = image.width as usize;
    for y in 0..rows.start as usize {
        assert_eq!(
            image.pixels[y * width..(y + 1) * width],
            plain.pixels[y * width..(y + 1) * width],
            "row {y} above the footer changed"
        );
    }
}

#[test]
fn a_long_result_line_fits_inside_the_narrowest_board() {
    // Whale shogi's 6×6 board is the narrowest the bot draws. A long
    // result (names and reason) is set smaller or on two lines, and every
    // pixel of it lies inside the image, left of the right margin and
    // above the bottom edge — also with the last move beside it.
    let registry = Registry::builtin();
    let view = Game::new(
        registry.get("whaleshogi").expect("built in"),
        Start::Standard,
    )
    .expect("the start")
    .view(Audience::Full);
    let theme = Theme::default();
    let long = "0–1 · победа чёрных (Александра Константинопольская): время истекло, \
                а у соперника остался материал для мата";
    for last_move in [None, Some("41… Kxh12+".to_string())] {
        let decor = Decor {
            status: Some(long.into()),
            last_move: last_move.clone(),
            ..decor(Side::WHITE)
        };
        let image = decode(&render_png(&view, &decor));
        assert!(image.width <= 540, "narrow: {} px", image.width);
        let rows = footer_rows(&view, &decor, &image);
        let columns = columns_with(&image, rows.clone(), theme.text);
        let (first, last) = (columns[0], *columns.last().expect("text"));
        let (x0, _, _) = shared_renderer(&view)
            .cell_rect(&view, &decor, 0, 0)
            .expect("a1");
        let right_margin = image.width - x0;
        assert!(
            first >= x0,
            "{last_move:?}: text starts at the board's edge"
        );
        assert!(
            last < right_margin,
            "{last_move:?}: text ends at {last}, inside {right_margin}"
        );
        let text_rows: Vec<u32> = rows
            .clone()
            .filter(|&y| (0..image.width).any(|x| image.at(x, y) == theme.text))
            .collect();
        assert!(
            *text_rows.last().expect("text") < image.height - 2,
            "{last_move:?}: above the bottom edge"
        );
    }
}

#[test]
fn the_material_a_seat_is_up_is_drawn_in_its_strip_after_the_name() {
    // White is up a black queen (+9): small black pieces appear in white's
    // strip (below the board) and nowhere else off the board; black's
    // strip is as before.
    let view = samples::middlegame();
    let theme = Theme::default();
    let plain = decor(Side::WHITE);
    let up = Decor {
        material: vec![
            kodex_render::Material {
                pieces: vec![
                    samples::glyph('p'),
                    samples::glyph('p'),
                    samples::glyph('q'),
                ],
                advantage: Some(11),
            },
            kodex_render::Material::default(),
        ],
        ..plain.clone()
    };
    let before = decode(&render_png(&view, &plain));
    let after = decode(&render_png(&view, &up));
    assert_eq!((before.width, before.height), (after.width, after.height));
    let (_, board_top, size) = cell(&view, &up, "a8");
    let (_, a1_y, _) = cell(&view, &up, "a1");
    let board_bottom = a1_y + size;
    let black_fill = theme.pieces[1].fill;
    let in_rows = |image: &Decoded, rows: std::ops::Range<u32>| -> usize {
        rows.flat_map(|y| (0..image.width).map(move |x| (x, y)))
            .filter(|&(x, y)| image.at(x, y) == black_fill)
            .count()
    };
    // White's strip: below the board and its coordinates; black's: above it.
    let square = shared_renderer(&view).square();
    let strip_top = board_bottom + ((square as f32 * 0.32).round() as u32).max(18);
    let strip = strip_top..strip_top + ((square as f32 * 0.58).round() as u32).max(30);
    assert_eq!(in_rows(&before, strip.clone()), 0);
    assert!(
        in_rows(&after, strip.clone()) > 40,
        "the captured black pieces in white's strip"
    );
    assert_eq!(
        in_rows(&after, board_bottom..after.height) - in_rows(&after, strip.clone()),
        in_rows(&before, board_bottom..after.height),
        "nothing new outside the strip"
    );
    assert_eq!(
        in_rows(&after, 0..board_top),
        in_rows(&before, 0..board_top),
        "black's strip unchanged"
    );
    // The "+11" in the dim ink, right of the pieces.
    let dim = columns_with(&after, strip.clone(), theme.text_dim);
    let pieces = columns_with(&after, strip, black_fill);
    assert!(
        dim.iter().any(|&x| x > *pieces.last().expect("pieces")),
        "+N after the pieces"
    );
}

#[test]
fn the_footer_disc_is_in_the_colour_of_the_seat_to_move() {
    // Four-handed chess, red (white's second seat) to move: the disc in the
    // footer is red, not the white of the side it shares.
    let registry = Registry::builtin();
    let view = Game::new(
        registry.get("fourplayer").expect("built in"),
        Start::Standard,
    )
    .expect("the start")
    .view(Audience::Full);
    let theme = Theme::default();
    let names = ["Ann", "Bob", "Cid", "Dee"].map(String::from).to_vec();
    for (seat, fill) in [(0u8, theme.pieces[0].fill), (2, theme.pieces[2].fill)] {
        let decor = Decor {
            bottom: Side::WHITE,
            names: names.clone(),
            to_move: Some(Side(seat)),
            ..Decor::default()
        };
        let image = decode(&render_png(&view, &decor));
        let rows = footer_rows_below(&view, &decor, &image, 2);
        assert!(
            !columns_with(&image, rows.clone(), fill).is_empty(),
            "seat {seat}: its colour in the footer"
        );
        let other = theme.pieces[if seat == 0 { 2 } else { 0 }].fill;
        assert!(
            columns_with(&image, rows, other).is_empty(),
            "seat {seat}: no other seat's colour in the footer"
        );
    }
}
