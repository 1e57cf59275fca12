//! The `/timeline` picture of a time-travel game: the present board large,
//! and under it each abandoned timeline as a small labelled board of the
//! moment it was left, in a grid that stays readable on a phone.
//!
//! ```text
//! ┌─────────────────────────┐
//! │                         │
//! │      present board      │
//! │                         │
//! ├────────────┬────────────┤
//! │ 1 · 3. T-1 │ 2 · 6… T-2 │  labels
//! │ ┌────────┐ │ ┌────────┐ │
//! │ │ small  │ │ │ small  │ │  the moment each line was left
//! │ └────────┘ │ └────────┘ │
//! └────────────┴────────────┘
//! ```

use crate::canvas::IndexedImage;
use crate::encode;
use crate::renderer::{shared_renderer, Renderer};
use crate::text::{Face, TextStyle};
use crate::Decor;
use kodex_engine::View;
use std::sync::OnceLock;

/// Telegram's limit for a photo: width + height at most this many pixels.
pub const MAX_WIDTH_PLUS_HEIGHT: u32 = 10_000;

/// The most small boards drawn; older timelines beyond it are left out.
pub const MAX_INSETS: usize = 64;

/// One abandoned timeline in the picture: the board of the moment it was
/// left, drawn with `decor`, under `label` (already localized, e.g.
/// `"1 · 12. T-2:Nf3"`).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Inset {
    /// The board when the timeline was left.
    pub view: View,
    /// Names, status, bottom side of the small board.
    pub decor: Decor,
    /// The caption above the small board.
    pub label: String,
}

/// Draws the present board (`present` with `decor`) large and each inset as a
/// small labelled board in a grid below it, as one PNG. Width + height stay
/// within [`MAX_WIDTH_PLUS_HEIGHT`]; at most [`MAX_INSETS`] insets are drawn
/// (the latest). The same input gives the same bytes.
pub fn render_timelines_png(present: &View, decor: &Decor, insets: &[Inset]) -> Vec<u8> {
    let big = shared_renderer(present);
    let image = compose(big, present, decor, insets);
    encode::png(&image, &big.palette_rgb(), big.square(), &[0])
}

/// The picture as an indexed image, in the palette of `big` (every renderer
/// of one theme shares its palette).
fn compose(big: &Renderer, present: &View, decor: &Decor, insets: &[Inset]) -> IndexedImage {
    let board = big.draw(present, decor);
    let insets = &insets[insets.len().saturating_sub(MAX_INSETS)..];
    let small = inset_renderer(big.square());
    let drawn: Vec<IndexedImage> = insets
        .iter()
        .map(|inset| small.draw(&inset.view, &inset.decor))
        .collect();
    let page = big.tiles.palette().nearest(big.theme().page);
    if drawn.is_empty() {
        return board;
    }

    // Narrow enough that two 8×8 insets sit side by side under an 8×8 board.
    let gap = (big.square() / 8).max(6);
    let label_px = (big.square() as f32 * 0.3).max(14.0);
    let label_height = (label_px * 1.5).round() as u32;
    let cell_width = drawn.iter().map(|image| image.width).max().unwrap_or(0);
    let cell_height = label_height + drawn.iter().map(|image| image.height).max().unwrap_or(0);
    let count = drawn.len() as u32;
    let size = |columns: u32| {
        let rows = count.div_ceil(columns);
        let width = board.width.max(columns * (cell_width + gap) + gap);
        (width, board.height + rows * (cell_height + gap))
    };
    // As many columns as fit under the board; more only to keep within the limit.
    let mut columns = (board.width.saturating_sub(gap) / (cell_width + gap)).clamp(1, count);
    let too_large = |(width, height): (u32, u32)| width + height > MAX_WIDTH_PLUS_HEIGHT;
    while columns < count && too_large(size(columns)) {
        columns += 1;
    }
    let (width, height) = size(columns);
    let mut image = IndexedImage::filled(width, height, page);
    image.blit(&board, ((width - board.width) / 2) as i32, 0);

    let fonts = big.fonts();
    let style = TextStyle::new(Face::Bold, label_px);
    let cap = fonts.cap_height(style);
    let grid_width = columns * (cell_width + gap) + gap;
    let grid_x = (width - grid_width) / 2 + gap;
    for (index, (inset, picture)) in insets.iter().zip(&drawn).enumerate() {
        let index = index as u32;
        let x = grid_x + (index % columns) * (cell_width + gap);
        let y = board.height + (index / columns) * (cell_height + gap);
        let label = fonts.fit(style, &inset.label, cell_width);
        let baseline = y + label_height / 2 + (cap / 2.0).round() as u32;
        let label_x = x + (cell_width - fonts.width(style, &label).min(cell_width)) / 2;
        fonts.draw(
            &mut image,
            style,
            &label,
            label_x as i32,
            baseline as i32,
            &big.inks.text,
        );
        image.blit(
            picture,
            (x + (cell_width - picture.width) / 2) as i32,
            (y + label_height) as i32,
        );
    }
    image
}

/// The renderer of the small boards under a present board of `square` pixels:
/// squares a little under half as large, so two boards sit side by side.
fn inset_renderer(square: u32) -> &'static Renderer {
    static RENDERERS: [OnceLock<Renderer>; 5] = [const { OnceLock::new() }; 5];
    let slot = match square {
        80.. => 0,
        64..=79 => 1,
        56..=63 => 2,
        48..=55 => 3,
        _ => 4,
    };
    RENDERERS[slot].get_or_init(|| Renderer::new(square * 9 / 20))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::samples;

    #[test]
    fn small_and_large_renderers_share_one_palette() {
        let view = samples::view("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR");
        let big = shared_renderer(&view);
        assert_eq!(
            big.palette_rgb(),
            inset_renderer(big.square()).palette_rgb()
        );
    }

    #[test]
    fn many_insets_stay_within_the_photo_limit() {
        let view = samples::view("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR");
        let inset = Inset {
            view: view.clone(),
            decor: Decor::default(),
            label: "1 · 12. T-2:Nf3".into(),
        };
        let insets = vec![inset; MAX_INSETS + 5];
        let image = compose(shared_renderer(&view), &view, &Decor::default(), &insets);
        assert!(image.width + image.height <= MAX_WIDTH_PLUS_HEIGHT);
        assert!(image.height <= image.width * 20 && image.width <= image.height * 20);
    }
}
