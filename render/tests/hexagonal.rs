//! Gliński's hexagonal board drawn from the engine's `hexagonal` variant:
//! the decoded PNG shows three cell colours where Gliński has them, the page
//! colour outside the hexagon, and black's view turned 180°.

use kodex_engine::{Audience, Game, Registry, Side, Start};
use kodex_render::{render_png, Decor, Rgb, Theme};

struct Decoded {
    width: u32,
    height: u32,
    pixels: Vec<Rgb>,
}

impl Decoded {
    fn at(&self, x: f32, y: f32) -> Rgb {
        self.pixels[(y.round() as u32 * self.width + x.round() as u32) as usize]
    }
}

fn decode(bytes: &[u8]) -> Decoded {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::EXPAND);
    let mut reader = decoder.read_info().expect("a valid PNG header");
    let mut buffer = vec![0; reader.output_buffer_size().expect("a sane size")];
    let frame = reader.next_frame(&mut buffer).expect("valid PNG data");
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

/// The start position drawn for `bottom`.
fn start_image(bottom: Side) -> Decoded {
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
fn three_colours_on_a_hexagon_with_white_at_the_bottom() {
    let theme = Theme::default();
    let (light, middle, dark) = (theme.light, theme.uniform, theme.dark);
    for bottom in [Side::WHITE, Side::BLACK] {
        let image = start_image(bottom);
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
            image.at(mx + flip * dx + 0.3 * radius, my + flip * dy + 0.3 * s)
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
            assert_eq!(image.at(x, y), theme.page);
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
