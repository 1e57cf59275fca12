//! Two boards side by side in one picture: bughouse, where each player sees
//! their own board and their partner's at once.
//!
//! ```text
//! ┌────────────┬─┬────────────┐
//! │ names/clock│ │ names/clock│
//! │   board    │ │   board    │   the reader's own board on the left,
//! │ names/clock│ │ names/clock│   the partner's board on the right
//! └────────────┴─┴────────────┘
//! ```
//!
//! Each board keeps its own strips (names, clocks, reserves): the boards'
//! clocks run on their own. Both are drawn at one size, so neither looks
//! more important, and a partner's board is drawn from the partner's side.

use crate::canvas::IndexedImage;
use crate::encode;
use crate::renderer::{shared_renderer, Renderer};
use crate::Decor;
use kodex_engine::View;

/// Draws `left` and `right` (each a board with its strips) side by side, as
/// one PNG. The boards are of one size (one variant); the same input gives
/// the same bytes.
pub fn render_pair_png(left: (&View, &Decor), right: (&View, &Decor)) -> Vec<u8> {
    let renderer = shared_renderer(left.0);
    let image = compose(
        renderer.draw(left.0, left.1),
        renderer.draw(right.0, right.1),
        renderer.tiles.palette().nearest(renderer.theme().page),
        gap(renderer.square()),
    );
    encode::png(&image, &renderer.palette_rgb(), renderer.square(), &[0])
}

/// Draws a game of two boards as an animated GIF with `renderer`: each
/// frame is both boards side by side (left first), as
/// [`render_pair_png`] draws them; frames after the first store only what
/// changed. The boards are of one size in every frame.
pub fn render_pair_gif_with(renderer: &Renderer, frames: &[[(View, Decor); 2]]) -> Vec<u8> {
    let page = renderer.tiles.palette().nearest(renderer.theme().page);
    let images: Vec<IndexedImage> = frames
        .iter()
        .map(|[left, right]| {
            compose(
                renderer.draw(&left.0, &left.1),
                renderer.draw(&right.0, &right.1),
                page,
                gap(renderer.square()),
            )
        })
        .collect();
    encode::gif(&images, &renderer.palette_rgb())
}

/// The space between the two boards, for squares of `square` pixels.
pub fn gap(square: u32) -> u32 {
    (square / 3).max(8)
}

fn compose(left: IndexedImage, right: IndexedImage, page: u8, gap: u32) -> IndexedImage {
    let width = left.width + gap + right.width;
    let height = left.height.max(right.height);
    let mut image = IndexedImage::filled(width, height, page);
    image.blit(&left, 0, ((height - left.height) / 2) as i32);
    image.blit(
        &right,
        (left.width + gap) as i32,
        ((height - right.height) / 2) as i32,
    );
    image
}
