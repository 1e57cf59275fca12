//! Draws an engine [`View`] as a PNG board (and a finished game as a GIF).
//! Knows no rules: everything it draws comes in the view and the decorations.
//!
//! Images are indexed (one byte per pixel, a fixed palette per theme): piece
//! art and every square kind are drawn once per square size in full colour,
//! mapped onto the palette and cached as tiles, so an image is only tile copies,
//! a little text and a PNG encode.
//!
//! ```no_run
//! use kodex_engine::{Audience, Game, Registry, Start};
//! use kodex_render::{render_png, Decor};
//! let registry = Registry::builtin();
//! let chess = registry.get("chess").expect("chess is built in");
//! let game = Game::new(chess, Start::Standard).expect("the start position is valid");
//! let png: Vec<u8> = render_png(&game.view(Audience::Full), &Decor::default());
//! # let _ = png;
//! ```

#![warn(missing_docs)]

mod art;
mod board;
mod canvas;
pub mod cli;
mod deflate;
mod encode;
mod hex;
mod janggi;
mod layout;
mod pair;
mod palette;
mod renderer;
pub mod samples;
mod tamerlane;
mod text;
mod theme;
mod tiles;
mod timeline;

pub use canvas::IndexedImage;
pub use pair::{render_pair_gif_with, render_pair_png};
pub use renderer::{shared_renderer, square_size_for, Renderer, SQUARE_SIZES};
pub use theme::{PieceColors, Rgb, Theme};
pub use timeline::{render_timelines_png, Inset, MAX_INSETS, MAX_WIDTH_PLUS_HEIGHT};

use kodex_engine::{PieceGlyph, Side, View};

/// What is drawn around the board: names, clocks, a status line.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Decor {
    /// The side drawn at the bottom.
    pub bottom: Side,
    /// Player names, indexed by side (may be empty).
    pub names: Vec<String>,
    /// Clock readings, indexed by side, already formatted (`"4:58"`), `None` without a clock.
    pub clocks: Vec<Option<String>>,
    /// A status line (`"1–0 · checkmate"`), already localized; `None` to show whose turn it is.
    pub status: Option<String>,
    /// The seat whose turn it is, where partners take turns commanding one
    /// side (seat 2 plays white after seat 0); `None`: the view's side to move.
    pub to_move: Option<Side>,
    /// The last move as the reader reads it, with its number (`"12… Nf6"`,
    /// `"23. Qxf7#"`), drawn at the start of the footer; `None`: the move
    /// number of the turn only.
    pub last_move: Option<String>,
    /// What each seat is ahead by, indexed by seat, drawn in its strip after
    /// the name (as lichess shows captured pieces); empty: nothing drawn.
    pub material: Vec<Material>,
}

/// The material one seat is ahead by, drawn in its strip: small copies of
/// the opponent's pieces it is up, then `+N`.
///
/// ```
/// use kodex_render::{samples, Material};
/// let ahead = Material { pieces: vec![samples::glyph('q')], advantage: Some(9) };
/// assert_eq!(ahead.pieces.len(), 1);
/// ```
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Material {
    /// The pieces, one entry each, in the order drawn (alike ones together).
    pub pieces: Vec<PieceGlyph>,
    /// The balance in pawns where it is known and positive (`+3`); `None`:
    /// no number drawn.
    pub advantage: Option<u32>,
}

/// Forgets the compressed bands of earlier images (a board's ranks seen
/// before are compressed once, see the PNG encoder), so that the next image is
/// compressed from scratch. For benchmarks; images are the same either way.
#[doc(hidden)]
pub fn forget_remembered_bands() {
    deflate::forget();
}

/// Draws `view` with `decor` as PNG bytes. The same input gives the same bytes.
///
/// Uses the shared renderer for the board's size (see [`square_size_for`]).
pub fn render_png(view: &View, decor: &Decor) -> Vec<u8> {
    shared_renderer(view).png(view, decor)
}

/// Draws `view` with `decor` as PNG bytes with a renderer of your choice (theme, square size).
pub fn render_png_with(renderer: &Renderer, view: &View, decor: &Decor) -> Vec<u8> {
    renderer.png(view, decor)
}

/// Draws a game as an animated GIF, one frame per view (one per ply), holding the
/// last position longer. Frames after the first store only what changed.
pub fn render_gif(frames: &[(View, Decor)]) -> Vec<u8> {
    match frames.first() {
        Some((view, _)) => shared_renderer(view).gif(frames),
        None => Vec::new(),
    }
}
