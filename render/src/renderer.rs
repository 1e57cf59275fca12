//! A renderer: one theme at one square size, with its palette, tiles and inks
//! prepared once and reused for every image.

use crate::board;
use crate::canvas::IndexedImage;
use crate::encode;
use crate::palette::{Ink, Palette};
use crate::text::Fonts;
use crate::theme::Theme;
use crate::tiles::{CellLook, Ground, TileKey, Tiles};
use crate::Decor;
use kodex_engine::{Art, PieceGlyph, Side, View};
use std::sync::OnceLock;

/// The smallest and largest square sizes a renderer accepts, in pixels.
pub const SQUARE_SIZES: std::ops::RangeInclusive<u32> = 16..=256;

/// The fonts are the same for every renderer (their glyph cache is keyed by size).
fn fonts() -> &'static Fonts {
    static FONTS: OnceLock<Fonts> = OnceLock::new();
    FONTS.get_or_init(Fonts::load)
}

/// The inks for text on the theme's flat backgrounds.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Inks {
    /// Names and the status line on the page.
    pub text: Ink,
    /// Coordinates and the move number on the page.
    pub dim: Ink,
    /// The clock of the side to move.
    pub clock_active: Ink,
    /// The clock of the waiting side.
    pub clock_idle: Ink,
}

/// Draws views in one theme at one square size. Build it once and reuse it: its
/// tiles (pieces on every kind of square, already mapped onto the palette) are
/// drawn on first use and cached.
///
/// ```no_run
/// use kodex_render::{Decor, Renderer, Theme};
/// # fn view() -> kodex_engine::View { unimplemented!() }
/// let renderer = Renderer::with_theme(Theme::brown(), 64);
/// let png: Vec<u8> = renderer.png(&view(), &Decor::default());
/// ```
#[derive(Debug)]
pub struct Renderer {
    square: u32,
    pub(crate) tiles: Tiles,
    pub(crate) inks: Inks,
}

impl Renderer {
    /// A renderer of the default (green) theme with squares of `square` pixels
    /// (clamped to [`SQUARE_SIZES`]).
    pub fn new(square: u32) -> Renderer {
        Renderer::with_theme(Theme::default(), square)
    }

    /// A renderer of `theme` with squares of `square` pixels (clamped to [`SQUARE_SIZES`]).
    pub fn with_theme(theme: Theme, square: u32) -> Renderer {
        let square = square.clamp(*SQUARE_SIZES.start(), *SQUARE_SIZES.end());
        let palette = Palette::for_theme(&theme);
        let inks = Inks {
            text: palette.ink(theme.text, theme.page),
            dim: palette.ink(theme.text_dim, theme.page),
            clock_active: palette.ink(theme.clock_active_text, theme.clock_active),
            clock_idle: palette.ink(theme.clock_idle_text, theme.clock_idle),
        };
        let renderer = Renderer {
            square,
            tiles: Tiles::new(theme, palette, square),
            inks,
        };
        renderer.prepare_common_tiles();
        renderer
    }

    /// The side of a board square, in pixels.
    pub fn square(&self) -> u32 {
        self.square
    }

    /// The theme.
    pub fn theme(&self) -> &Theme {
        self.tiles.theme()
    }

    /// The palette as `r g b` triples, 256 entries (index 255 unused: GIF transparency).
    pub fn palette_rgb(&self) -> Vec<u8> {
        self.tiles.palette().rgb_bytes()
    }

    /// Draws `view` with `decor` as an indexed image (palette: [`Renderer::palette_rgb`]).
    pub fn draw(&self, view: &View, decor: &Decor) -> IndexedImage {
        board::draw(self, view, decor)
    }

    /// Draws `view` with `decor` as PNG bytes. The same input gives the same bytes.
    pub fn png(&self, view: &View, decor: &Decor) -> Vec<u8> {
        let layout = board::layout(self.square, view, decor);
        thread_local! {
            // The image drawn last on this thread, its pixels reused: a fresh
            // half-megabyte image per board costs allocation and page faults.
            static IMAGE: std::cell::RefCell<IndexedImage> =
                const { std::cell::RefCell::new(IndexedImage { width: 0, height: 0, pixels: Vec::new() }) };
        }
        IMAGE.with_borrow_mut(|image| {
            board::draw_into(self, view, decor, image);
            encode::png(image, &self.palette_rgb(), self.square, &layout.bands())
        })
    }

    /// Draws a game as an animated GIF, one frame per view; frames after the first
    /// store only the pixels that changed.
    pub fn gif(&self, frames: &[(View, Decor)]) -> Vec<u8> {
        let images: Vec<IndexedImage> = frames
            .iter()
            .map(|(view, decor)| self.draw(view, decor))
            .collect();
        encode::gif(&images, &self.palette_rgb())
    }

    /// Where the cell `file`, `rank` of `view` is drawn with `decor`: its top-left
    /// pixel and side, `None` off the board.
    pub fn cell_rect(
        &self,
        view: &View,
        decor: &Decor,
        file: u8,
        rank: u8,
    ) -> Option<(u32, u32, u32)> {
        let layout = board::layout(self.square, view, decor);
        if file >= layout.files || rank >= layout.ranks {
            return None;
        }
        let (x, y) = layout.cell_origin(file, rank);
        Some((x as u32, y as u32, self.square))
    }

    pub(crate) fn fonts(&self) -> &'static Fonts {
        fonts()
    }

    /// Draws the tiles nearly every board needs, so the first image is as fast as the rest.
    fn prepare_common_tiles(&self) {
        let arts = [
            Art::King,
            Art::Queen,
            Art::Rook,
            Art::Bishop,
            Art::Knight,
            Art::Pawn,
        ];
        for ground in [Ground::Light, Ground::Dark] {
            let mut pieces = vec![None];
            for side in [Side::WHITE, Side::BLACK] {
                for art in arts {
                    pieces.push(Some(PieceGlyph {
                        side,
                        art,
                        letter: ' ',
                        promoted: false,
                    }));
                }
            }
            for piece in pieces {
                let look = CellLook {
                    ground,
                    last_move: false,
                    checked: false,
                    marked: false,
                    piece,
                    second: None,
                };
                self.tiles.get(fonts(), TileKey::Cell(look));
            }
        }
    }
}

/// The square size the shared renderers use for a board of `files` × `ranks`:
/// 80 px up to 8×8 (a 640 px board), smaller squares for larger boards so
/// images stay around 700 px wide, never below 40 px.
pub fn square_size_for(files: u8, ranks: u8) -> u32 {
    match files.max(ranks) {
        0..=8 => 80,
        9..=10 => 64,
        11..=12 => 56,
        13..=14 => 48,
        _ => 40,
    }
}

/// The shared renderer (default theme) for boards the size of `view`, built on first use.
pub fn shared_renderer(view: &View) -> &'static Renderer {
    static RENDERERS: [OnceLock<Renderer>; 5] = [const { OnceLock::new() }; 5];
    let square = square_size_for(view.files, view.ranks);
    let slot = match square {
        80 => 0,
        64 => 1,
        56 => 2,
        48 => 3,
        _ => 4,
    };
    RENDERERS[slot].get_or_init(|| Renderer::new(square))
}
