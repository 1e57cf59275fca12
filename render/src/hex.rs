//! Gliński's hexagonal board ([`BoardStyle::Hexagonal`]): flat-topped cells
//! in three colours, file letters below each file and rank numbers along the
//! left edges, white at the bottom (black's own view turned 180°).
//!
//! The view's squares are the engine's hexagonal indices: file = q + 5,
//! rank = r + 5 for axial (q, r) with |q|, |r|, |q + r| ≤ 5; (0, 1) is one
//! cell straight up. The board fills the layout's 11 × 11 square area: a cell
//! is one square high and 2 / √3 of a square wide, columns 1.5 radii apart.

use crate::canvas::IndexedImage;
use crate::layout::{Edge, Layout};
use crate::renderer::Renderer;
use crate::text::{Face, TextStyle};
use crate::tiles::{hex_tile_width, CellLook, Ground, TileKey};
#[cfg(doc)]
use kodex_engine::BoardStyle;
use kodex_engine::{SquareView, View};

/// Gliński's file letters: no `j`.
const FILES: &[u8; 11] = b"abcdefghikl";

/// The centre on screen of the cell at axial (`q`, `r`) (possibly off the board, for labels).
fn centre(layout: &Layout, q: i32, r: i32) -> (f32, f32) {
    let s = layout.square as f32;
    let radius = s / 3f32.sqrt();
    let (mut dx, mut dy) = (1.5 * radius * q as f32, -s * (r as f32 + q as f32 / 2.0));
    if layout.edge == Edge::North {
        (dx, dy) = (-dx, -dy);
    }
    let middle_x = layout.board_x as f32 + layout.columns as f32 * s / 2.0;
    let middle_y = layout.board_y as f32 + layout.rows as f32 * s / 2.0;
    (middle_x + dx, middle_y + dy)
}

/// The colour of a cell: 0 light (f1), 1 middle (the centre f6), 2 dark (f11);
/// a diagonal step keeps it, an orthogonal one changes it.
pub(crate) fn colour(q: i32, r: i32) -> u8 {
    match (q - r).rem_euclid(3) {
        0 => 1,
        2 => 0,
        _ => 2,
    }
}

/// Draws the cells of a hexagonal view.
pub(crate) fn draw_cells(
    renderer: &Renderer,
    image: &mut IndexedImage,
    layout: &Layout,
    view: &View,
) {
    let fonts = renderer.fonts();
    let page = renderer.tiles.palette().nearest(renderer.theme().page);
    let s = layout.square as i32;
    let width = hex_tile_width(layout.square) as i32;
    for rank in 0..view.ranks {
        for file in 0..view.files {
            let (q, r) = (file as i32 - 5, rank as i32 - 5);
            let index = view.index(file, rank);
            let (piece, fogged) = match view.at(file, rank) {
                SquareView::Absent => continue,
                // Fog is not offered on this board; draw such a cell empty,
                // with its public mark but no highlight or check.
                SquareView::Fog => (None, true),
                SquareView::Empty => (None, false),
                SquareView::Piece(glyph) => (Some(glyph), false),
            };
            let has = |list: &[u16]| list.iter().any(|&square| square as usize == index);
            let look = CellLook {
                ground: Ground::Hex(colour(q, r)),
                last_move: !fogged && has(&view.last_move),
                checked: !fogged && has(&view.checked),
                marked: has(&view.marked),
                piece,
                second: None,
            };
            let tile = renderer.tiles.get(fonts, TileKey::Cell(look));
            let (cx, cy) = centre(layout, q, r);
            let x = cx.round() as i32 - width / 2;
            let y = cy.round() as i32 - s / 2;
            image.blit_keyed(&tile, x, y, page);
        }
    }
}

/// The Gliński name parts of axial (`q`, `r`): file letter and rank number.
fn label(q: i32, r: i32) -> (char, i32) {
    (FILES[(q + 5) as usize] as char, r + 6 + q.min(0))
}

/// File letters below each file's first cell; rank numbers left of file a
/// (1–6) and above the top cells of files b–f (7–11).
pub(crate) fn draw_coordinates(renderer: &Renderer, image: &mut IndexedImage, layout: &Layout) {
    let fonts = renderer.fonts();
    let style = TextStyle::new(Face::Regular, (layout.square as f32 * 0.3).max(9.0));
    let cap = fonts.cap_height(style);
    let mut put = |text: &str, (x, y): (f32, f32)| {
        let width = fonts.width(style, text) as f32;
        let (x, y) = (
            (x - width / 2.0).round() as i32,
            (y + cap / 2.0).round() as i32,
        );
        fonts.draw(image, style, text, x, y, &renderer.inks.dim);
    };
    let s = layout.square as f32;
    for q in -5..=5 {
        // The first cell of the file: r = -5 right of the middle, -5 - q left of it.
        let bottom = -5 - q.min(0);
        let (letter, _) = label(q, bottom);
        let (x, y) = centre(layout, q, bottom);
        let below = if layout.edge == Edge::North {
            -0.78
        } else {
            0.78
        };
        put(&letter.to_string(), (x, y + below * s));
    }
    // File a: q = -5, r = 0 … 5; the label half a column left of the cell.
    let left = if layout.edge == Edge::North {
        1.0
    } else {
        -1.0
    };
    for r in 0..=5 {
        let (x, y) = centre(layout, -5, r);
        put(&label(-5, r).1.to_string(), (x + left * 0.85 * s, y));
    }
    // Files b–f: the top cell r = 5 holds ranks 7–11.
    for q in -4..=0 {
        let (x, y) = centre(layout, q, 5);
        let above = if layout.edge == Edge::North {
            0.78
        } else {
            -0.78
        };
        put(&label(q, 5).1.to_string(), (x, y + above * s));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_colours_as_glinski_draws_them() {
        // f1 light, f6 (the centre) middle, f11 dark; 30 / 31 / 30 cells.
        assert_eq!(colour(0, -5), 0);
        assert_eq!(colour(0, 0), 1);
        assert_eq!(colour(0, 5), 2);
        let mut counts = [0; 3];
        for q in -5i32..=5 {
            for r in -5i32..=5 {
                if (q + r).abs() <= 5 {
                    counts[colour(q, r) as usize] += 1;
                    // Orthogonal neighbours differ.
                    assert_ne!(colour(q, r), colour(q, r + 1));
                    assert_ne!(colour(q, r), colour(q + 1, r));
                }
            }
        }
        assert_eq!(counts, [30, 31, 30]);
        assert_eq!(label(-5, 0), ('a', 1));
        assert_eq!(label(0, 5), ('f', 11));
        assert_eq!(label(5, -5), ('l', 1));
    }
}
