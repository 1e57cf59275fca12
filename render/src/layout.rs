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

/// Which edge of the board is drawn at the bottom: the edge of the player
/// the image is for. Two-player games use south (the first player) and north;
/// four-player boards add west and east (the second player of each team).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum Edge {
    South,
    North,
    West,
    East,
}

impl Edge {
    /// The home edge of `side`: 0 south, 1 north, 2 west, 3 east.
    pub(crate) fn of(side: kodex_engine::Side) -> Edge {
        match side.0 % 4 {
            0 => Edge::South,
            1 => Edge::North,
            2 => Edge::West,
            _ => Edge::East,
        }
    }
}

/// The geometry of one image.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) struct Layout {
    /// Side of a board square, in pixels.
    pub square: u32,
    /// The view's files and ranks.
    pub files: u8,
    pub ranks: u8,
    /// The file letters written beside the board (the view's, `a`, `b`, … past its list).
    pub file_letters: [char; MAX_BOARD_SIDE as usize],
    /// The board edge drawn at the bottom.
    pub edge: Edge,
    /// Cells across and down on screen (files and ranks swap when the board
    /// is seen from west or east).
    pub columns: u8,
    pub rows: u8,
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
    /// The first of the strips above the board (one per seat drawn there).
    pub top_strip_y: u32,
    pub top_pocket_y: u32,
    /// The top-left corner of the cells.
    pub board_x: u32,
    pub board_y: u32,
    pub bottom_pocket_y: u32,
    /// The first of the strips below the board.
    pub bottom_strip_y: u32,
    pub footer_y: u32,
}

impl Layout {
    /// The layout of `view` with squares of `square` pixels, seen from `edge`,
    /// with `top_strips` player strips above the board and `bottom_strips` below.
    pub(crate) fn new(
        view: &View,
        square: u32,
        edge: Edge,
        top_strips: u32,
        bottom_strips: u32,
    ) -> Layout {
        let files = view.files.min(MAX_BOARD_SIDE);
        let ranks = view.ranks.min(MAX_BOARD_SIDE);
        let (columns, rows) = match edge {
            Edge::South | Edge::North => (files, ranks),
            Edge::West | Edge::East => (ranks, files),
        };
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
            kinds.div_ceil(columns.max(1) as u32).max(1)
        };
        let pocket_height = pocket_rows * square;
        // A little air above the top strip and below the footer.
        let padding = ((square as f32 * 0.1).round() as u32).max(4);
        let top_strip_y = padding;
        let top_pocket_y = top_strip_y + strip * top_strips;
        let board_y = top_pocket_y + pocket_height + margin;
        let bottom_pocket_y = board_y + rows as u32 * square + margin;
        let bottom_strip_y = bottom_pocket_y + pocket_height;
        let footer_y = bottom_strip_y + strip * bottom_strips;
        Layout {
            square,
            files,
            ranks,
            file_letters: std::array::from_fn(|file| view.file_letter(file as u8)),
            edge,
            columns,
            rows,
            width: margin * 2 + columns as u32 * square,
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

    /// The rows where the image's horizontal bands start, top to bottom: each
    /// player strip, each row of pocket cells, the coordinate margins, each
    /// row of board cells, the footer. What changes from one move to the
    /// next (a clock, a rank) then changes few bands (see the PNG encoder).
    pub(crate) fn bands(&self) -> Vec<u32> {
        let strip = self.strip.max(1);
        let mut bands = vec![0, self.top_strip_y];
        bands.extend((self.top_strip_y..self.top_pocket_y).step_by(strip as usize));
        let pockets = self.pocket_rows * self.square;
        bands.extend((0..self.pocket_rows).map(|row| self.top_pocket_y + row * self.square));
        bands.push(self.top_pocket_y + pockets);
        bands.extend((0..=self.rows as u32).map(|row| self.board_y + row * self.square));
        bands.extend((0..self.pocket_rows).map(|row| self.bottom_pocket_y + row * self.square));
        bands.extend((self.bottom_strip_y..self.footer_y).step_by(strip as usize));
        bands.push(self.footer_y);
        bands.push(self.footer_y + self.footer);
        bands.retain(|&row| row < self.height);
        bands.sort_unstable();
        bands.dedup();
        bands
    }

    /// Where the cell `file`, `rank` is drawn: (column from the left, row from the top).
    pub(crate) fn screen(&self, file: u8, rank: u8) -> (u32, u32) {
        let (file, rank) = (file as u32, rank as u32);
        let (last_file, last_rank) = (self.files as u32 - 1, self.ranks as u32 - 1);
        match self.edge {
            Edge::South => (file, last_rank - rank),
            Edge::North => (last_file - file, rank),
            // West at the bottom: the west edge is the bottom row, south on the right.
            Edge::West => (last_rank - rank, last_file - file),
            // East at the bottom: the east edge is the bottom row, south on the left.
            Edge::East => (rank, file),
        }
    }

    /// The cell drawn at `column`, `row`, if that is on the board.
    pub(crate) fn cell_at(&self, column: i32, row: i32) -> Option<(u8, u8)> {
        if column < 0 || row < 0 || column >= self.columns as i32 || row >= self.rows as i32 {
            return None;
        }
        let (column, row) = (column as u8, row as u8);
        let (last_file, last_rank) = (self.files - 1, self.ranks - 1);
        Some(match self.edge {
            Edge::South => (column, last_rank - row),
            Edge::North => (last_file - column, row),
            Edge::West => (last_file - row, last_rank - column),
            Edge::East => (row, column),
        })
    }

    /// The coordinate written beside screen row `row`: a rank number, or a
    /// file letter when the board is seen from west or east.
    pub(crate) fn row_label(&self, row: u8) -> String {
        match self.cell_at(0, row as i32) {
            Some((file, rank)) => match self.edge {
                Edge::South | Edge::North => rank_name(rank),
                Edge::West | Edge::East => self.file_name(file),
            },
            None => String::new(),
        }
    }

    /// The coordinate written under screen column `column`.
    pub(crate) fn column_label(&self, column: u8) -> String {
        match self.cell_at(column as i32, 0) {
            Some((file, rank)) => match self.edge {
                Edge::South | Edge::North => self.file_name(file),
                Edge::West | Edge::East => rank_name(rank),
            },
            None => String::new(),
        }
    }

    /// The name of file `file`: the view's letter.
    fn file_name(&self, file: u8) -> String {
        self.file_letters
            .get(file as usize)
            .map_or_else(String::new, char::to_string)
    }

    /// The top-left pixel of the cell `file`, `rank`.
    pub(crate) fn cell_origin(&self, file: u8, rank: u8) -> (i32, i32) {
        let (column, row) = self.screen(file, rank);
        (
            (self.board_x + column * self.square) as i32,
            (self.board_y + row * self.square) as i32,
        )
    }
}

/// The name of rank `rank` (0-based): `1` … `26`.
fn rank_name(rank: u8) -> String {
    (rank as u32 + 1).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use kodex_engine::{Audience, BoardStyle, Side, SquareView};

    fn empty_view(files: u8, ranks: u8) -> View {
        View {
            files,
            ranks,
            file_letters: String::new(),
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
            castling: String::new(),
            en_passant: None,
            pawn_tries: None,
            lines: vec![],
            river: None,
            seat_colors: vec![],
            second_pieces: vec![],
        }
    }

    #[test]
    fn a1_is_bottom_left_for_white_and_top_right_for_black() {
        let view = empty_view(8, 8);
        let white = Layout::new(&view, 80, Edge::South, 1, 1);
        let black = Layout::new(&view, 80, Edge::North, 1, 1);
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

    #[test]
    fn bands_part_strips_margins_ranks_and_footer() {
        let view = empty_view(8, 8);
        let layout = Layout::new(&view, 80, Edge::South, 2, 2);
        let bands = layout.bands();
        assert_eq!(bands[0], 0);
        assert!(bands.windows(2).all(|pair| pair[0] < pair[1]), "{bands:?}");
        assert!(bands.iter().all(|&row| row < layout.height));
        // Each strip, each rank and the footer starts a band of its own.
        for row in (0..2)
            .map(|i| layout.top_strip_y + i * layout.strip)
            .chain((0..2).map(|i| layout.bottom_strip_y + i * layout.strip))
            .chain((0..=8).map(|rank| layout.board_y + rank * 80))
            .chain([layout.footer_y])
        {
            assert!(bands.contains(&row), "{row} in {bands:?}");
        }
    }

    #[test]
    fn every_edge_maps_cells_one_to_one_and_back() {
        let view = empty_view(10, 6);
        for edge in [Edge::South, Edge::North, Edge::West, Edge::East] {
            let layout = Layout::new(&view, 40, edge, 2, 2);
            let mut seen = std::collections::HashSet::new();
            for file in 0..10 {
                for rank in 0..6 {
                    let (column, row) = layout.screen(file, rank);
                    assert!(column < layout.columns as u32 && row < layout.rows as u32);
                    assert!(
                        seen.insert((column, row)),
                        "{edge:?}: two cells on one spot"
                    );
                    assert_eq!(
                        layout.cell_at(column as i32, row as i32),
                        Some((file, rank)),
                        "{edge:?}"
                    );
                }
            }
        }
        // Seen from the west, a1 is bottom right and the files run upwards.
        let west = Layout::new(&view, 40, Edge::West, 1, 1);
        assert_eq!((west.columns, west.rows), (6, 10));
        assert_eq!(west.screen(0, 0), (5, 9));
        assert_eq!(west.row_label(9), "a");
        assert_eq!(west.column_label(5), "1");
        // From the east, a1 is bottom left.
        let east = Layout::new(&view, 40, Edge::East, 1, 1);
        assert_eq!(east.screen(0, 0), (0, 0));
        assert_eq!(east.screen(9, 0), (0, 9));
    }

    #[test]
    fn files_are_labelled_with_the_views_letters() {
        let mut view = empty_view(14, 14);
        view.file_letters = "abcdefghiklmno".into();
        let south = Layout::new(&view, 40, Edge::South, 2, 2);
        let labels: String = (0..14).map(|c| south.column_label(c)).collect();
        assert_eq!(labels, "abcdefghiklmno");
        // Seen from the west the files run up the side: the top row is file o.
        let west = Layout::new(&view, 40, Edge::West, 2, 2);
        assert_eq!(west.row_label(0), "o");
        assert_eq!(west.row_label(4), "k");
        // Without a list, files are a, b, ….
        let plain = Layout::new(&empty_view(14, 14), 40, Edge::South, 2, 2);
        assert_eq!(plain.column_label(9), "j");
    }
}
