//! Drawing one view: cells, coordinates, pockets, the player strips and the footer.

use crate::canvas::IndexedImage;
use crate::layout::{Edge, Layout};
use crate::renderer::Renderer;
use crate::text::{Face, TextStyle};
use crate::tiles::{line, CellLook, Ground, TileKey};
use crate::Decor;
use kodex_engine::{BoardStyle, PocketView, Side, SquareView, View};

/// The seats drawn above and below the board: below, the seat the image is
/// for and then its partners; above, the other team. Teams are sides of one
/// parity (white 0 and 2, black 1 and 3).
pub(crate) fn seats(view: &View, decor: &Decor) -> (Vec<Side>, Vec<Side>) {
    let count = decor
        .names
        .len()
        .max(decor.clocks.len())
        .max(view.pockets.len())
        .max(2) as u8;
    let bottom = decor.bottom;
    let mut below = vec![bottom];
    let mut above = Vec::new();
    for side in (0..count).map(Side) {
        if side == bottom {
            continue;
        }
        if side.0 % 2 == bottom.0 % 2 {
            below.push(side);
        } else {
            above.push(side);
        }
    }
    (above, below)
}

/// The layout of `view` drawn for `decor`'s bottom seat.
pub(crate) fn layout(square: u32, view: &View, decor: &Decor) -> Layout {
    let (above, below) = seats(view, decor);
    Layout::new(
        view,
        square,
        Edge::of(decor.bottom),
        above.len() as u32,
        below.len() as u32,
    )
}

/// Draws `view` with `decor`.
pub(crate) fn draw(renderer: &Renderer, view: &View, decor: &Decor) -> IndexedImage {
    let mut image = IndexedImage::filled(0, 0, 0);
    draw_into(renderer, view, decor, &mut image);
    image
}

/// Draws `view` with `decor` into `image`, whatever it held (its pixel
/// buffer is reused).
pub(crate) fn draw_into(renderer: &Renderer, view: &View, decor: &Decor, image: &mut IndexedImage) {
    let layout = layout(renderer.square(), view, decor);
    let page = renderer.tiles.palette().nearest(renderer.theme().page);
    image.width = layout.width;
    image.height = layout.height;
    image.pixels.clear();
    image
        .pixels
        .resize(layout.width as usize * layout.height as usize, page);

    if view.style == BoardStyle::Hexagonal {
        crate::hex::draw_cells(renderer, image, &layout, view);
        crate::hex::draw_coordinates(renderer, image, &layout);
    } else {
        draw_cells(renderer, image, &layout, view);
        draw_coordinates(renderer, image, &layout);
    }

    let (above, below) = seats(view, decor);
    let show_turn = decor.status.is_none();
    if layout.pocket_rows > 0 {
        draw_pocket(
            renderer,
            image,
            &layout,
            above.first().and_then(|&side| pocket_of(view, side)),
            layout.top_pocket_y,
        );
        draw_pocket(
            renderer,
            image,
            &layout,
            pocket_of(view, decor.bottom),
            layout.bottom_pocket_y,
        );
    }
    let strips = above
        .iter()
        .enumerate()
        .map(|(i, &side)| (side, layout.top_strip_y + i as u32 * layout.strip))
        .chain(
            below
                .iter()
                .enumerate()
                .map(|(i, &side)| (side, layout.bottom_strip_y + i as u32 * layout.strip)),
        );
    let seat_to_move = decor.to_move.unwrap_or(view.side_to_move);
    for (side, y) in strips {
        let to_move = show_turn && seat_to_move == side;
        draw_strip(renderer, image, &layout, view, decor, side, y, to_move);
    }
    draw_footer(renderer, image, &layout, view, decor);
}

/// The colour `seat`'s army is drawn in (see [`View::seat_colors`]).
fn seat_color(view: &View, seat: Side) -> Side {
    view.seat_colors.get(seat.index()).copied().unwrap_or(seat)
}

fn pocket_of(view: &View, side: Side) -> Option<&PocketView> {
    view.pockets.iter().find(|pocket| pocket.side == side)
}

fn draw_cells(renderer: &Renderer, image: &mut IndexedImage, layout: &Layout, view: &View) {
    let fonts = renderer.fonts();
    let fog = renderer.tiles.get(fonts, TileKey::Fog);
    for rank in 0..layout.ranks {
        for file in 0..layout.files {
            let (x, y) = layout.cell_origin(file, rank);
            let index = view.index(file, rank);
            let has = |list: &[u16]| list.iter().any(|&square| square as usize == index);
            let piece = match view.at(file, rank) {
                SquareView::Absent => continue,
                SquareView::Fog if has(&view.marked) => {
                    // A public mark (the square of an announced capture)
                    // shows through the fog: every audience may know it.
                    let ground = match view.style {
                        BoardStyle::Checkered if (file + rank) % 2 == 0 => Ground::Dark,
                        BoardStyle::Checkered => Ground::Light,
                        _ => Ground::Uniform,
                    };
                    let tile = renderer.tiles.get(fonts, TileKey::MarkedFog(ground));
                    image.blit(&tile, x, y);
                    continue;
                }
                SquareView::Fog => {
                    // Nothing else about a fogged cell is drawn but the fog
                    // itself: no highlight, no check, whatever the view says.
                    image.blit(&fog, x, y);
                    continue;
                }
                SquareView::Empty => None,
                SquareView::Piece(glyph) => Some(glyph),
            };
            let ground = match view.style {
                BoardStyle::Checkered if (file + rank) % 2 == 0 => Ground::Dark,
                BoardStyle::Checkered => Ground::Light,
                BoardStyle::Uniform => Ground::Uniform,
                BoardStyle::Points => Ground::Points(point_lines(view, layout, file, rank)),
                BoardStyle::Hexagonal => Ground::Hex((file + rank) % 3),
            };
            let look = CellLook {
                ground,
                last_move: has(&view.last_move),
                checked: has(&view.checked),
                marked: has(&view.marked),
                piece,
                second: view
                    .second_pieces
                    .iter()
                    .find(|&&(square, _)| square as usize == index)
                    .map(|&(_, glyph)| glyph),
            };
            let tile = renderer.tiles.get(fonts, TileKey::Cell(look));
            image.blit(&tile, x, y);
        }
    }
}

/// Which lines leave the point `file`, `rank` on screen: towards every neighbour
/// that exists.
fn point_lines(view: &View, layout: &Layout, file: u8, rank: u8) -> u8 {
    let (column, row) = layout.screen(file, rank);
    let (column, row) = (column as i32, row as i32);
    let exists = |column: i32, row: i32| {
        layout
            .cell_at(column, row)
            .is_some_and(|(file, rank)| view.at(file, rank) != SquareView::Absent)
    };
    // The river cuts the vertical lines between its banks but on the edge files.
    let crosses_river = |other_row: i32| {
        let edge = file == 0 || file + 1 == view.files;
        let other = layout.cell_at(column, other_row).map(|(_, r)| r);
        !edge
            && view.river.is_some_and(|bank| {
                other.is_some_and(|other| rank.min(other) == bank && rank.max(other) == bank + 1)
            })
    };
    let mut lines = 0;
    if exists(column, row - 1) && !crosses_river(row - 1) {
        lines |= line::UP;
    }
    if exists(column, row + 1) && !crosses_river(row + 1) {
        lines |= line::DOWN;
    }
    if exists(column - 1, row) {
        lines |= line::LEFT;
    }
    if exists(column + 1, row) {
        lines |= line::RIGHT;
    }
    // Marked diagonals (palaces) towards the neighbours they join.
    let here = view.index(file, rank) as u16;
    for (bit, dc, dr) in [
        (line::UP_LEFT, -1, -1),
        (line::UP_RIGHT, 1, -1),
        (line::DOWN_LEFT, -1, 1),
        (line::DOWN_RIGHT, 1, 1),
    ] {
        if let Some((f, r)) = layout.cell_at(column + dc, row + dr) {
            let there = view.index(f, r) as u16;
            if view
                .lines
                .iter()
                .any(|&pair| pair == (here, there) || pair == (there, here))
            {
                lines |= bit;
            }
        }
    }
    lines
}

fn draw_coordinates(renderer: &Renderer, image: &mut IndexedImage, layout: &Layout) {
    let fonts = renderer.fonts();
    let style = TextStyle::new(Face::Regular, (layout.margin as f32 * 0.56).max(9.0));
    let cap = fonts.cap_height(style);
    let s = layout.square as i32;
    for row in 0..layout.rows {
        let label = layout.row_label(row);
        let width = fonts.width(style, &label) as i32;
        let x = (layout.margin as i32 - width) / 2;
        let y = layout.board_y as i32 + row as i32 * s + s / 2 + (cap / 2.0).round() as i32;
        fonts.draw(image, style, &label, x, y, &renderer.inks.dim);
    }
    let baseline = (layout.board_y + layout.rows as u32 * layout.square) as i32
        + (layout.margin as f32 / 2.0 + cap / 2.0).round() as i32;
    for column in 0..layout.columns {
        let label = layout.column_label(column);
        let width = fonts.width(style, &label) as i32;
        let x = layout.board_x as i32 + column as i32 * s + (s - width) / 2;
        fonts.draw(image, style, &label, x, baseline, &renderer.inks.dim);
    }
}

fn draw_pocket(
    renderer: &Renderer,
    image: &mut IndexedImage,
    layout: &Layout,
    pocket: Option<&PocketView>,
    y: u32,
) {
    let Some(pocket) = pocket else {
        return;
    };
    let per_row = layout.columns.max(1) as usize;
    for (slot, &(piece, count)) in pocket.pieces.iter().enumerate() {
        let x = layout.board_x + (slot % per_row) as u32 * layout.square;
        let row_y = y + (slot / per_row) as u32 * layout.square;
        let tile = renderer
            .tiles
            .get(renderer.fonts(), TileKey::Pocket { piece, count });
        image.blit(&tile, x as i32, row_y as i32);
    }
}

#[allow(clippy::too_many_arguments)]
fn draw_strip(
    renderer: &Renderer,
    image: &mut IndexedImage,
    layout: &Layout,
    view: &View,
    decor: &Decor,
    side: Side,
    y: u32,
    to_move: bool,
) {
    let fonts = renderer.fonts();
    let h = layout.strip;
    let right_edge = (layout.width - layout.margin) as i32;

    // The clock, right-aligned; its box is as wide as "00:00" at least, so it does not
    // jump between frames.
    let clock_style = TextStyle::new(Face::Bold, (h as f32 * 0.46).max(10.0));
    let mut clock_left = right_edge;
    if let Some(Some(clock)) = decor.clocks.get(side.index()) {
        let text_width = fonts
            .width(clock_style, clock)
            .max(fonts.width(clock_style, "00:00"));
        let box_height = (h as f32 * 0.74).round() as u32;
        let padding = (box_height as f32 * 0.45).round() as u32;
        let box_width = text_width + 2 * padding;
        clock_left = right_edge - box_width as i32;
        let box_y = y as i32 + (h - box_height) as i32 / 2;
        let tile = renderer.tiles.get(
            fonts,
            TileKey::ClockBox {
                width: box_width.min(u16::MAX as u32) as u16,
                height: box_height as u16,
                active: to_move,
            },
        );
        image.blit(&tile, clock_left, box_y);
        let ink = if to_move {
            &renderer.inks.clock_active
        } else {
            &renderer.inks.clock_idle
        };
        let width = fonts.width(clock_style, clock) as i32;
        let cap = fonts.cap_height(clock_style);
        let baseline = box_y + box_height as i32 / 2 + (cap / 2.0).round() as i32;
        fonts.draw(
            image,
            clock_style,
            clock,
            clock_left + (box_width as i32 - width) / 2,
            baseline,
            ink,
        );
    }

    // The seat's disc in its army's colour (ringed on its turn), aligned
    // with the board's left edge.
    let disc = renderer.tiles.get(
        fonts,
        TileKey::SideDisc {
            side: seat_color(view, side),
            size: h as u16,
            to_move,
        },
    );
    let disc_x = layout.board_x as i32 - (h as f32 * 0.14).round() as i32;
    image.blit(&disc, disc_x, y as i32);
    let mut x = disc_x + h as i32 + (h as f32 * 0.05).round() as i32;

    // Three-check counters, then the name in the space left.
    let pips = view
        .remaining_checks
        .as_ref()
        .and_then(|remaining| remaining.get(side.index()).copied())
        .map(|remaining| {
            renderer.tiles.get(
                fonts,
                TileKey::CheckPips {
                    remaining: remaining.min(9),
                    height: h as u16,
                },
            )
        });
    let gap = (h as f32 * 0.3).round() as i32;
    let pips_width = pips.as_ref().map_or(0, |tile| tile.width as i32 + gap);
    let name_style = TextStyle::new(Face::Regular, (h as f32 * 0.44).max(10.0));
    let room = (clock_left - gap - pips_width - x).max(0) as u32;
    let name = decor.names.get(side.index()).map_or("", String::as_str);
    // The material after the name where both fit; the name shortened for
    // it while it keeps half the room; else the name alone.
    let material = decor
        .material
        .get(side.index())
        .map(|material| MaterialRow::new(renderer, material, h))
        .filter(|row| row.width > 0 && row.width + gap as u32 <= room / 2);
    let name_room = room - material.as_ref().map_or(0, |row| row.width + gap as u32);
    let name = fonts.fit(name_style, name, name_room);
    let cap = fonts.cap_height(name_style);
    let baseline = y as i32 + h as i32 / 2 + (cap / 2.0).round() as i32;
    fonts.draw(image, name_style, &name, x, baseline, &renderer.inks.text);
    if !name.is_empty() {
        x += fonts.width(name_style, &name) as i32 + gap;
    }
    if let Some(material) = material {
        material.draw(renderer, image, x, y, h);
        x += material.width as i32 + gap;
    }
    if let Some(pips) = pips {
        image.blit(&pips, x, y as i32);
    }
}

/// How a seat's [`Material`](crate::Material) is laid in a strip `h`
/// pixels high: small pieces, alike ones overlapping as a stack (lichess),
/// then `+N`.
struct MaterialRow<'a> {
    material: &'a crate::Material,
    /// The side of a small piece.
    size: u32,
    /// Where each piece starts, from the row's left edge.
    offsets: Vec<u32>,
    /// Where `+N` starts, and its style.
    advantage_x: u32,
    style: TextStyle,
    /// The whole row.
    width: u32,
}

impl<'a> MaterialRow<'a> {
    fn new(renderer: &Renderer, material: &'a crate::Material, h: u32) -> MaterialRow<'a> {
        let size = ((h as f32 * 0.6).round() as u32).max(8);
        let mut offsets = Vec::with_capacity(material.pieces.len());
        let mut pen = 0;
        for (i, piece) in material.pieces.iter().enumerate() {
            if i > 0 {
                let alike = material.pieces[i - 1] == *piece;
                pen += (size as f32 * if alike { 0.4 } else { 0.85 }).round() as u32;
            }
            offsets.push(pen);
        }
        let mut width = if offsets.is_empty() { 0 } else { pen + size };
        let style = TextStyle::new(Face::Regular, (h as f32 * 0.38).max(9.0));
        let advantage_x = if width > 0 {
            width + (size as f32 * 0.2).round() as u32
        } else {
            0
        };
        if let Some(advantage) = material.advantage {
            width = advantage_x + renderer.fonts().width(style, &format!("+{advantage}"));
        }
        MaterialRow {
            material,
            size,
            offsets,
            advantage_x,
            style,
            width,
        }
    }

    /// Draws the row from `x` in the strip at `y`.
    fn draw(&self, renderer: &Renderer, image: &mut IndexedImage, x: i32, y: u32, h: u32) {
        let fonts = renderer.fonts();
        let page = renderer.tiles.palette().nearest(renderer.theme().page);
        let top = y as i32 + (h - self.size) as i32 / 2;
        for (&piece, &offset) in self.material.pieces.iter().zip(&self.offsets) {
            let tile = renderer.tiles.get(
                fonts,
                TileKey::Captured {
                    piece,
                    size: self.size as u16,
                },
            );
            // The page round a piece left out, so a stack overlaps.
            image.blit_keyed(&tile, x + offset as i32, top, page);
        }
        if let Some(advantage) = self.material.advantage {
            let cap = fonts.cap_height(self.style);
            let baseline = y as i32 + h as i32 / 2 + (cap / 2.0).round() as i32;
            fonts.draw(
                image,
                self.style,
                &format!("+{advantage}"),
                x + self.advantage_x as i32,
                baseline,
                &renderer.inks.dim,
            );
        }
    }
}

fn draw_footer(
    renderer: &Renderer,
    image: &mut IndexedImage,
    layout: &Layout,
    view: &View,
    decor: &Decor,
) {
    let fonts = renderer.fonts();
    let h = layout.footer;
    let style = TextStyle::new(Face::Regular, (h as f32 * 0.52).max(10.0));
    let cap = fonts.cap_height(style);
    let baseline = layout.footer_y as i32 + h as i32 / 2 + (cap / 2.0).round() as i32;
    let left = layout.board_x as i32;
    let right = (layout.width - layout.margin) as i32;
    let pad = (h as f32 * 0.25).round() as i32;
    // "12." when the first player is to move, "12…" for the second: notation every player reads.
    let suffix = if view.side_to_move == Side::WHITE {
        "."
    } else {
        "…"
    };
    let number = (format!("{}{suffix}", view.move_number), &renderer.inks.dim);
    // The last move, where the caller gives it, else the turn's number; on
    // a final board only while the result still fits whole beside it.
    let label = match (&decor.last_move, &decor.status) {
        (Some(last_move), Some(status)) => {
            let taken = fonts.width(style, last_move) as i32 + pad;
            let room = (right - left - taken).max(0) as u32;
            if status_fits(fonts, status, room, h) {
                (last_move.clone(), &renderer.inks.text)
            } else {
                number
            }
        }
        (Some(last_move), None) => (
            fonts.fit(style, last_move, (right - left).max(0) as u32),
            &renderer.inks.text,
        ),
        (None, _) => number,
    };
    fonts.draw(image, style, &label.0, left, baseline, label.1);
    let x = left + fonts.width(style, &label.0) as i32 + pad;
    match &decor.status {
        Some(status) => {
            let room = (right - x).max(0) as u32;
            let (style, lines) = status_lines(fonts, status, room, h);
            let cap = fonts.cap_height(style);
            let pitch = (style.px as f32 * 1.15).round() as i32;
            let count = lines.len() as i32;
            // The lines centred on the footer as one block.
            let first = layout.footer_y as i32 + h as i32 / 2 - (count - 1) * pitch / 2
                + (cap / 2.0).round() as i32;
            for (i, line) in lines.iter().enumerate() {
                let y = first + i as i32 * pitch;
                fonts.draw(image, style, line, x, y, &renderer.inks.text);
            }
        }
        None => {
            // The disc of the seat to move, in its army's colour.
            let seat = decor.to_move.unwrap_or(view.side_to_move);
            let disc = renderer.tiles.get(
                fonts,
                TileKey::SideDisc {
                    side: seat_color(view, seat),
                    size: h as u16,
                    to_move: false,
                },
            );
            image.blit(
                &disc,
                x - (h as f32 * 0.2).round() as i32,
                layout.footer_y as i32,
            );
        }
    }
}

/// Whether `status` is laid whole (no ellipsis) in `room` pixels of a
/// footer `height` pixels high (see [`status_lines`]).
pub(crate) fn status_fits(
    fonts: &crate::text::Fonts,
    status: &str,
    room: u32,
    height: u32,
) -> bool {
    let (_, lines) = status_lines(fonts, status, room, height);
    lines.join(" ") == status
}

/// How the status line `status` is laid in `room` pixels of a footer
/// `height` pixels high: the bold style and its lines. A long result is never
/// cut: it is set smaller (down to 60 %), then on two lines; only what would
/// not fit even so ends in an ellipsis.
pub(crate) fn status_lines(
    fonts: &crate::text::Fonts,
    status: &str,
    room: u32,
    height: u32,
) -> (TextStyle, Vec<String>) {
    let full = (height as f32 * 0.52).max(10.0);
    let style = |px: f32| TextStyle::new(Face::Bold, px);
    let mut px = full;
    while px >= full * 0.6 {
        if fonts.width(style(px), status) <= room {
            return (style(px), vec![status.to_string()]);
        }
        px -= 1.0;
    }
    // Two lines, each at most half the footer's height.
    let words: Vec<&str> = status.split(' ').collect();
    let mut px = (height as f32 * 0.42).max(8.0);
    while px >= 6.0 {
        let style = style(px);
        // The break that leaves the longer line shortest.
        let best = (1..words.len())
            .map(|at| (words[..at].join(" "), words[at..].join(" ")))
            .min_by_key(|(a, b)| fonts.width(style, a).max(fonts.width(style, b)));
        if let Some((a, b)) = best {
            if fonts.width(style, &a).max(fonts.width(style, &b)) <= room {
                return (style, vec![a, b]);
            }
        }
        px -= 1.0;
    }
    let style = style(full * 0.6);
    (style, vec![fonts.fit(style, status, room)])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_result_is_laid_whole_in_the_narrowest_footer() {
        // The narrowest board drawn (6 files: whale shogi) with the longest
        // move number: the result is smaller or on two lines, never cut.
        let view = crate::samples::view("6/6/6/6/6/6");
        let renderer = crate::shared_renderer(&view);
        let layout = layout(renderer.square(), &view, &Decor::default());
        let fonts = renderer.fonts();
        let number = TextStyle::new(Face::Regular, (layout.footer as f32 * 0.52).max(10.0));
        let room = layout.width
            - 2 * layout.margin
            - fonts.width(number, "199…")
            - (layout.footer as f32 * 0.25).round() as u32;
        let long = "0–1 · победа чёрных (Александра Константинопольская): время истекло, \
                    а у соперника остался материал для мата";
        assert!(status_fits(fonts, long, room, layout.footer));
        let (style, lines) = status_lines(fonts, long, room, layout.footer);
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(lines.iter().all(|line| fonts.width(style, line) <= room));
        // A line that cannot fit even so is the only one shortened.
        assert!(!status_fits(fonts, &long.repeat(4), room, layout.footer));
    }
}
