//! Where everything goes in the image: the player strips, pockets, the board
//! with its coordinate margin, and the footer — from the board's size and the
//! square size.
//!
//! ```text
//! ┌───────────────────────────┐
//! │ ● top player     ●●  4:58 │  strip
//! │ ♟3 ♞ ♝                    │  pocket (variants with drops)
//! │  ┌─────────────────────┐  │
//! │ 8│       board         │  │  margin with coordinates
//! │  └─────────────────────┘  │
//! │   a  b  c  d  e  f  g  h  │
//! │ ♟ ♜2                      │  pocket
//! │ ● bottom player     5:01  │  strip
//! │ 12. ●  / status           │  footer
//! └───────────────────────────┘
//! ```

use kodex_engine::View;

/// The largest board side drawn; larger views are cropped (the engine supports up to 16).
pub(crate) const MAX_BOARD_SIDE: u8 = 26;

/// The geometry of one image.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) struct Layout {
    /// Side of a board square, in pixels.
    pub square: u32,
    pub files: u8,
    pub ranks: u8,
    /// Whether the board is turned (the first player's edge at the top).
    pub flipped: bool,
    pub width: u32,
    pub height: u32,
    /// Width of the coordinate margin around the board.
    pub margin: u32,
    /// Height of a player strip.
    pub strip: u32,
    /// Rows of pocket cells per side (0 without pockets).
    pub pocket_rows: u32,
    /// Height of the footer line.
    pub footer: u32,
    pub top_strip_y: u32,
    pub top_pocket_y: u32,
    /// The top-left corner of the cells.
    pub board_x: u32,
    pub board_y: u32,
    pub bottom_pocket_y: u32,
    pub bottom_strip_y: u32,
    pub footer_y: u32,
}

impl Layout {
    /// The layout of `view` with squares of `square` pixels, turned when `flipped`.
    pub(crate) fn new(view: &View, square: u32, flipped: bool) -> Layout {
        let files = view.files.min(MAX_BOARD_SIDE);
        let ranks = view.ranks.min(MAX_BOARD_SIDE);
        let margin = ((square as f32 * 0.32).round() as u32).max(18);
        let strip = ((square as f32 * 0.58).round() as u32).max(30);
        let footer = ((square as f32 * 0.42).round() as u32).max(24);
        let pocket_rows = if view.pockets.is_empty() {
            0
        } else {
            let kinds = view
                .pockets
                .iter()
                .map(|pocket| pocket.pieces.len())
                .max()
                .unwrap_or(0) as u32;
            kinds.div_ceil(files.max(1) as u32).max(1)
        };
        let pocket_height = pocket_rows * square;
        // A little air above the top strip and below the footer.
        let padding = ((square as f32 * 0.1).round() as u32).max(4);
        let top_strip_y = padding;
        let top_pocket_y = top_strip_y + strip;
        let board_y = top_pocket_y + pocket_height + margin;
        let bottom_pocket_y = board_y + ranks as u32 * square + margin;
        let bottom_strip_y = bottom_pocket_y + pocket_height;
        let footer_y = bottom_strip_y + strip;
        Layout {
            square,
            files,
            ranks,
            flipped,
            width: margin * 2 + files as u32 * square,
            height: footer_y + footer + padding,
            margin,
            strip,
            pocket_rows,
            footer,
            top_strip_y,
            top_pocket_y,
            board_x: margin,
            board_y,
            bottom_pocket_y,
            bottom_strip_y,
            footer_y,
        }
    }

    /// The column (0 = left) where `file` is drawn.
    pub(crate) fn column(&self, file: u8) -> u32 {
        if self.flipped {
            (self.files - 1 - file) as u32
        } else {
            file as u32
        }
    }

    /// The row (0 = top) where `rank` is drawn.
    pub(crate) fn row(&self, rank: u8) -> u32 {
        if self.flipped {
            rank as u32
        } else {
            (self.ranks - 1 - rank) as u32
        }
    }

    /// The top-left pixel of the cell `file`, `rank`.
    pub(crate) fn cell_origin(&self, file: u8, rank: u8) -> (i32, i32) {
        (
            (self.board_x + self.column(file) * self.square) as i32,
            (self.board_y + self.row(rank) * self.square) as i32,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kodex_engine::{Audience, BoardStyle, Side, SquareView};

    fn empty_view(files: u8, ranks: u8) -> View {
        View {
            files,
            ranks,
            squares: vec![SquareView::Empty; files as usize * ranks as usize],
            style: BoardStyle::Checkered,
            audience: Audience::Full,
            side_to_move: Side::WHITE,
            move_number: 1,
            last_move: vec![],
            checked: vec![],
            marked: vec![],
            pockets: vec![],
            remaining_checks: None,
        }
    }

    #[test]
    fn a1_is_bottom_left_for_white_and_top_right_for_black() {
        let view = empty_view(8, 8);
        let white = Layout::new(&view, 80, false);
        let black = Layout::new(&view, 80, true);
        assert_eq!(
            white.cell_origin(0, 0),
            (white.board_x as i32, (white.board_y + 7 * 80) as i32)
        );
        assert_eq!(
            black.cell_origin(0, 0),
            ((black.board_x + 7 * 80) as i32, black.board_y as i32)
        );
        assert!(white.width >= 640);
    }
}
