//! Tiles: every square, pocket cell and badge the renderer copies onto an image,
//! drawn once in full colour (anti-aliased), mapped onto the palette, and cached.
//! Drawing a board is then only copying tiles and laying text.

use crate::art;
use crate::canvas::IndexedImage;
use crate::palette::{Palette, Quantizer};
use crate::text::{Face, Fonts, TextStyle};
use crate::theme::{Rgb, Theme};
use kodex_engine::{PieceGlyph, Side};
use resvg::tiny_skia::{Pixmap, PixmapPaint, Transform};
use resvg::usvg;
use std::collections::HashMap;
use std::sync::{Arc, RwLock};

/// The base of a board cell.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub(crate) enum Ground {
    /// A light square of a checkered board.
    Light,
    /// A dark square of a checkered board.
    Dark,
    /// A cell of a one-colour board.
    Uniform,
    /// A point of a point board: which of the lines up, down, left, right leave it
    /// (bits 0–3), so edges and holes end their lines.
    Points(u8),
    /// A flat-topped hexagonal cell of Gliński's board in one of its three
    /// colours (0 light, 1 middle, 2 dark), on the page colour outside it.
    Hex(u8),
}

/// Line directions of [`Ground::Points`].
pub(crate) mod line {
    /// A line leaves the point towards the top of the image.
    pub const UP: u8 = 1;
    /// … towards the bottom.
    pub const DOWN: u8 = 2;
    /// … towards the left.
    pub const LEFT: u8 = 4;
    /// … towards the right.
    pub const RIGHT: u8 = 8;
    /// A marked diagonal line leaves towards the top left corner.
    pub const UP_LEFT: u8 = 16;
    /// … towards the top right corner.
    pub const UP_RIGHT: u8 = 32;
    /// … towards the bottom left corner.
    pub const DOWN_LEFT: u8 = 64;
    /// … towards the bottom right corner.
    pub const DOWN_RIGHT: u8 = 128;
}

/// How one visible board cell looks.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub(crate) struct CellLook {
    pub ground: Ground,
    pub last_move: bool,
    pub checked: bool,
    pub marked: bool,
    pub piece: Option<PieceGlyph>,
    /// A second piece on the cell (an Enochian doubled throne: `piece` is
    /// its king): the king drawn smaller towards the top left, this piece
    /// small in the bottom right corner.
    pub second: Option<PieceGlyph>,
}

/// Everything the renderer copies as a tile.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub(crate) enum TileKey {
    /// A visible board cell.
    Cell(CellLook),
    /// A fogged cell: one texture, whatever is hidden.
    Fog,
    /// A fogged cell carrying a public mark ([`kodex_engine::View::marked`]:
    /// the square of a capture the referee announced): the same fog, framed
    /// in the marked colour of its ground ([`Ground::Light`], [`Ground::Dark`]
    /// or [`Ground::Uniform`]), whatever is hidden.
    MarkedFog(Ground),
    /// A pocket cell: the piece with its count (faded when none are held).
    Pocket { piece: PieceGlyph, count: u8 },
    /// The disc of a side's colour before its name, ringed when it is that side's turn.
    SideDisc {
        side: Side,
        size: u16,
        to_move: bool,
    },
    /// Three-check counters: one pip per check still to give.
    CheckPips { remaining: u8, height: u16 },
    /// A piece a seat is up, small, in its strip (see [`crate::Material`]),
    /// on the page colour.
    Captured { piece: PieceGlyph, size: u16 },
    /// The box behind a clock.
    ClockBox {
        width: u16,
        height: u16,
        active: bool,
    },
}

/// A piece sprite's identity: tokens differ by letter, classical art does not.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
struct SpriteKey {
    piece: PieceGlyph,
}

impl SpriteKey {
    fn of(mut piece: PieceGlyph) -> SpriteKey {
        if piece.art != kodex_engine::Art::Token {
            piece.letter = ' ';
        }
        SpriteKey { piece }
    }
}

/// Makes and caches the tiles of one theme at one square size.
pub(crate) struct Tiles {
    theme: Theme,
    palette: Palette,
    square: u32,
    tiles: RwLock<HashMap<TileKey, Arc<IndexedImage>>>,
    sprites: RwLock<HashMap<SpriteKey, Arc<Pixmap>>>,
}

impl std::fmt::Debug for Tiles {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tiles")
            .field("square", &self.square)
            .finish_non_exhaustive()
    }
}

impl Tiles {
    /// An empty cache for `theme` at `square` pixels.
    pub(crate) fn new(theme: Theme, palette: Palette, square: u32) -> Tiles {
        Tiles {
            theme,
            palette,
            square,
            tiles: RwLock::new(HashMap::new()),
            sprites: RwLock::new(HashMap::new()),
        }
    }

    /// The theme.
    pub(crate) fn theme(&self) -> &Theme {
        &self.theme
    }

    /// The palette.
    pub(crate) fn palette(&self) -> &Palette {
        &self.palette
    }

    /// The tile for `key`, from the cache or drawn now.
    pub(crate) fn get(&self, fonts: &Fonts, key: TileKey) -> Arc<IndexedImage> {
        if let Some(found) = self.tiles.read().ok().and_then(|t| t.get(&key).cloned()) {
            return found;
        }
        let pixmap = self.draw(fonts, key);
        let tile = Arc::new(self.quantize(&pixmap));
        if let Ok(mut tiles) = self.tiles.write() {
            tiles.insert(key, tile.clone());
        }
        tile
    }

    fn quantize(&self, pixmap: &Pixmap) -> IndexedImage {
        let mut quantizer = Quantizer::new(&self.palette);
        let pixels = pixmap
            .pixels()
            .iter()
            .map(|p| {
                let c = p.demultiply();
                quantizer.index(Rgb(c.red(), c.green(), c.blue()))
            })
            .collect();
        IndexedImage {
            width: pixmap.width(),
            height: pixmap.height(),
            pixels,
        }
    }

    fn sprite(&self, fonts: &Fonts, piece: PieceGlyph) -> Arc<Pixmap> {
        let key = SpriteKey::of(piece);
        if let Some(found) = self.sprites.read().ok().and_then(|s| s.get(&key).cloned()) {
            return found;
        }
        let colors = self.theme.piece_colors(piece.side.0);
        let made = Arc::new(self.draw_sprite(fonts, piece, &colors, self.square));
        if let Ok(mut sprites) = self.sprites.write() {
            sprites.insert(key, made.clone());
        }
        made
    }

    /// `piece` drawn `size` pixels square in `colors`, on a transparent ground.
    fn draw_sprite(
        &self,
        fonts: &Fonts,
        piece: PieceGlyph,
        colors: &crate::theme::PieceColors,
        size: u32,
    ) -> Pixmap {
        match piece.art {
            kodex_engine::Art::Janggi(kind) => {
                art::janggi_sprite(kind, piece.side.0, &self.theme, size)
            }
            _ => art::piece_sprite(
                fonts,
                piece.art,
                piece.letter,
                piece.promoted,
                piece.side.0,
                colors,
                self.theme.promoted,
                size,
            ),
        }
    }

    fn draw(&self, fonts: &Fonts, key: TileKey) -> Pixmap {
        let s = self.square;
        let theme = &self.theme;
        match key {
            TileKey::Cell(look) if matches!(look.ground, Ground::Hex(_)) => {
                self.hex_cell(fonts, look)
            }
            TileKey::Cell(look) => {
                let mut pixmap = solid(s, s, self.ground_color(look));
                if let Ground::Points(lines) = look.ground {
                    paint_svg(&mut pixmap, &self.point_lines(lines));
                }
                if look.checked {
                    paint_svg(&mut pixmap, &check_glow(s, theme.check));
                }
                if look.ground == Ground::Uniform {
                    // Half a grid line on every edge: two neighbours make a whole one.
                    frame(&mut pixmap, theme.uniform_grid, grid_half_width(s));
                }
                match (look.piece, look.second) {
                    (Some(piece), Some(second)) => {
                        // Two pieces on a throne: the king at four fifths of
                        // the cell in its top left, the other piece at a
                        // little over half of it in the bottom right corner,
                        // in front.
                        let big = (s as f32 * 0.8).round() as u32;
                        let small = (s as f32 * 0.56).round() as u32;
                        let colors = theme.piece_colors(piece.side.0);
                        let king = self.draw_sprite(fonts, piece, &colors, big);
                        overlay_at(&mut pixmap, &king, 0, 0);
                        let colors = theme.piece_colors(second.side.0);
                        let other = self.draw_sprite(fonts, second, &colors, small);
                        let corner = (s - small) as i32;
                        overlay_at(&mut pixmap, &other, corner, corner);
                    }
                    (Some(piece), None) => {
                        overlay(&mut pixmap, &self.sprite(fonts, piece), 1.0);
                    }
                    _ => {}
                }
                pixmap
            }
            TileKey::Fog => fog(s, theme.fog, theme.fog_cloud),
            TileKey::MarkedFog(ground) => {
                let mut pixmap = fog(s, theme.fog, theme.fog_cloud);
                let tint = self.ground_color(CellLook {
                    ground,
                    last_move: false,
                    checked: false,
                    marked: true,
                    piece: None,
                    second: None,
                });
                frame(&mut pixmap, tint, (s as f32 * 0.08).round().max(2.0) as u32);
                pixmap
            }
            TileKey::Pocket { piece, count } => {
                let mut pixmap = solid(s, s, theme.page);
                if count == 0 {
                    overlay(&mut pixmap, &self.sprite(fonts, piece), 0.28);
                } else {
                    overlay(&mut pixmap, &self.sprite(fonts, piece), 1.0);
                    let radius = (s as f32 * 0.17).max(7.0);
                    let center = s as f32 - radius - 1.0;
                    paint_svg(
                        &mut pixmap,
                        &svg(
                            s,
                            s,
                            &format!(
                                r#"<circle cx="{center}" cy="{center}" r="{radius}" fill="{}" stroke="{}" stroke-width="1.5"/>"#,
                                theme.accent.css(),
                                theme.page.css()
                            ),
                        ),
                    );
                    fonts.paint_centered(
                        &mut pixmap,
                        TextStyle::new(Face::Bold, radius * 1.25),
                        &count.to_string(),
                        center,
                        center,
                        theme.accent_text,
                    );
                }
                pixmap
            }
            TileKey::SideDisc {
                side,
                size,
                to_move,
            } => {
                let size = size as u32;
                let mut pixmap = solid(size, size, theme.page);
                let colors = theme.piece_colors(side.0);
                let c = size as f32 / 2.0;
                let mut shapes = String::new();
                if to_move {
                    shapes += &format!(
                        r#"<circle cx="{c}" cy="{c}" r="{}" fill="none" stroke="{}" stroke-width="{}"/>"#,
                        size as f32 * 0.36,
                        theme.accent.css(),
                        (size as f32 * 0.07).max(1.5)
                    );
                }
                shapes += &format!(
                    r#"<circle cx="{c}" cy="{c}" r="{}" fill="{}" stroke="{}" stroke-width="{}"/>"#,
                    size as f32 * 0.23,
                    colors.fill.css(),
                    theme.text_dim.css(),
                    (size as f32 * 0.03).max(1.0)
                );
                paint_svg(&mut pixmap, &svg(size, size, &shapes));
                pixmap
            }
            TileKey::CheckPips { remaining, height } => {
                let height = height as u32;
                let pitch = height as f32 * 0.62;
                let width = (pitch * remaining as f32).ceil().max(1.0) as u32;
                let mut pixmap = solid(width, height, theme.page);
                let radius = height as f32 * 0.25;
                let arm = radius * 0.5;
                let stroke = (radius * 0.28).max(1.2);
                let mut shapes = String::new();
                for pip in 0..remaining {
                    let cx = pitch * (pip as f32 + 0.5);
                    let cy = height as f32 / 2.0;
                    shapes += &format!(
                        r#"<circle cx="{cx}" cy="{cy}" r="{radius}" fill="{}"/><path d="M{} {cy} H{} M{cx} {} V{}" stroke="{}" stroke-width="{stroke}" stroke-linecap="round"/>"#,
                        theme.check_counter.css(),
                        cx - arm,
                        cx + arm,
                        cy - arm,
                        cy + arm,
                        theme.accent_text.css(),
                    );
                }
                paint_svg(&mut pixmap, &svg(width, height, &shapes));
                pixmap
            }
            TileKey::Captured { piece, size } => {
                let size = size as u32;
                let mut pixmap = solid(size, size, theme.page);
                // Drawn at its own size (not scaled down): crisp outlines;
                // a dark piece outlined light, to stand out from the dark page.
                let mut colors = theme.piece_colors(piece.side.0);
                if art::is_dark(&colors) {
                    colors.outline = theme.text_dim;
                }
                overlay(
                    &mut pixmap,
                    &self.draw_sprite(fonts, piece, &colors, size),
                    1.0,
                );
                pixmap
            }
            TileKey::ClockBox {
                width,
                height,
                active,
            } => {
                let (width, height) = (width as u32, height as u32);
                let mut pixmap = solid(width, height, theme.page);
                let fill = if active {
                    theme.clock_active
                } else {
                    theme.clock_idle
                };
                paint_svg(
                    &mut pixmap,
                    &svg(
                        width,
                        height,
                        &format!(
                            r#"<rect x="0" y="0" width="{width}" height="{height}" rx="{}" fill="{}"/>"#,
                            height as f32 * 0.16,
                            fill.css()
                        ),
                    ),
                );
                pixmap
            }
        }
    }

    fn ground_color(&self, look: CellLook) -> Rgb {
        let t = &self.theme;
        match (look.ground, look.last_move, look.marked) {
            (Ground::Hex(0), ..) => self.ground_color(CellLook {
                ground: Ground::Light,
                ..look
            }),
            (Ground::Hex(2), ..) => self.ground_color(CellLook {
                ground: Ground::Dark,
                ..look
            }),
            (Ground::Hex(_), ..) => self.ground_color(CellLook {
                ground: Ground::Uniform,
                ..look
            }),
            (Ground::Light, true, _) => t.light_last_move,
            (Ground::Light, false, true) => t.light_marked,
            (Ground::Light, false, false) => t.light,
            (Ground::Dark, true, _) => t.dark_last_move,
            (Ground::Dark, false, true) => t.dark_marked,
            (Ground::Dark, false, false) => t.dark,
            (Ground::Uniform | Ground::Points(_), true, _) => t.uniform_last_move,
            (Ground::Uniform | Ground::Points(_), false, true) => t.uniform_marked,
            (Ground::Uniform, false, false) => t.uniform,
            (Ground::Points(_), false, false) => t.points,
        }
    }

    /// A hexagonal cell: [`hex_tile_width`] by one square, the hexagon (its
    /// height one square, flat top and bottom) inset by half a pixel so the
    /// page colour between cells draws their outlines; the page colour
    /// elsewhere, which [`IndexedImage::blit_keyed`] leaves out.
    fn hex_cell(&self, fonts: &Fonts, look: CellLook) -> Pixmap {
        let s = self.square;
        let width = hex_tile_width(s);
        let mut pixmap = solid(width, s, self.theme.page);
        let points = hexagon_points(
            width as f32 / 2.0,
            s as f32 / 2.0,
            s as f32 / 3f32.sqrt() - 0.6,
        );
        paint_svg(
            &mut pixmap,
            &svg(
                width,
                s,
                &format!(
                    r#"<polygon points="{points}" fill="{}" shape-rendering="crispEdges"/>"#,
                    self.ground_color(look).css()
                ),
            ),
        );
        if look.checked {
            let glow = glow_gradient(
                width as f32 / 2.0,
                s as f32 / 2.0,
                s as f32 * 0.6,
                self.theme.check,
            );
            paint_svg(
                &mut pixmap,
                &svg(
                    width,
                    s,
                    &format!(
                        r#"{glow}<polygon points="{points}" fill="url(#g)" shape-rendering="crispEdges"/>"#
                    ),
                ),
            );
        }
        if let Some(piece) = look.piece {
            let paint = PixmapPaint::default();
            let x = (width as i32 - s as i32) / 2;
            let sprite = self.sprite(fonts, piece);
            pixmap.draw_pixmap(
                x,
                0,
                sprite.as_ref().as_ref(),
                &paint,
                Transform::identity(),
                None,
            );
        }
        pixmap
    }

    /// The lines through a point of a point board, pixel-aligned to stay crisp.
    fn point_lines(&self, lines: u8) -> String {
        let s = self.square;
        let width = (s / 36).max(1);
        let start = s / 2 - width / 2;
        let color = self.theme.points_line.css();
        let mut shapes = format!(
            r#"<rect x="{start}" y="{start}" width="{width}" height="{width}" fill="{color}"/>"#
        );
        let mut rect = |x: u32, y: u32, w: u32, h: u32| {
            shapes +=
                &format!(r#"<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="{color}"/>"#);
        };
        if lines & line::UP != 0 {
            rect(start, 0, width, start);
        }
        if lines & line::DOWN != 0 {
            rect(start, start + width, width, s - start - width);
        }
        if lines & line::LEFT != 0 {
            rect(0, start, start, width);
        }
        if lines & line::RIGHT != 0 {
            rect(start + width, start, s - start - width, width);
        }
        let c = s as f32 / 2.0;
        for (bit, x, y) in [
            (line::UP_LEFT, 0.0, 0.0),
            (line::UP_RIGHT, s as f32, 0.0),
            (line::DOWN_LEFT, 0.0, s as f32),
            (line::DOWN_RIGHT, s as f32, s as f32),
        ] {
            if lines & bit != 0 {
                shapes += &format!(
                    r#"<line x1="{c}" y1="{c}" x2="{x}" y2="{y}" stroke="{color}" stroke-width="{width}"/>"#
                );
            }
        }
        svg(s, s, &shapes)
    }
}

/// The width of half a grid line of a one-colour board with squares of
/// `square` pixels: 1 px up to 95 px squares (a 2 px line between cells).
pub(crate) fn grid_half_width(square: u32) -> u32 {
    (square / 96).max(1)
}

/// An opaque pixmap of one colour.
fn solid(width: u32, height: u32, color: Rgb) -> Pixmap {
    let mut pixmap = Pixmap::new(width.max(1), height.max(1)).expect("a non-empty pixmap");
    pixmap.fill(resvg::tiny_skia::Color::from_rgba8(
        color.0, color.1, color.2, 255,
    ));
    pixmap
}

/// The width of a hexagonal cell's tile for squares of `square` pixels: the
/// hexagon's corner-to-corner width, 2 / √3 of its height.
pub(crate) fn hex_tile_width(square: u32) -> u32 {
    (square as f32 * 2.0 / 3f32.sqrt()).ceil() as u32
}

/// The corners of a flat-topped hexagon of circumradius `radius` round `cx`, `cy`, for SVG.
fn hexagon_points(cx: f32, cy: f32, radius: f32) -> String {
    (0..6)
        .map(|k| {
            let angle = std::f32::consts::PI / 3.0 * k as f32;
            format!(
                "{:.2},{:.2}",
                cx + radius * angle.cos(),
                cy + radius * angle.sin()
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// An SVG document in pixel units.
fn svg(width: u32, height: u32, body: &str) -> String {
    format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}">{body}</svg>"#
    )
}

/// Paints an SVG document (in pixel units) over `pixmap`.
fn paint_svg(pixmap: &mut Pixmap, document: &str) {
    // The documents are built by this module; a parse failure would be a bug caught by tests.
    if let Ok(tree) = usvg::Tree::from_str(document, &usvg::Options::default()) {
        resvg::render(&tree, Transform::identity(), &mut pixmap.as_mut());
    }
}

/// Draws `sprite` over `pixmap` at `opacity`.
fn overlay(pixmap: &mut Pixmap, sprite: &Pixmap, opacity: f32) {
    let paint = PixmapPaint {
        opacity,
        ..PixmapPaint::default()
    };
    pixmap.draw_pixmap(0, 0, sprite.as_ref(), &paint, Transform::identity(), None);
}

/// Draws `sprite` over `pixmap` with its top left corner at `x`, `y`.
fn overlay_at(pixmap: &mut Pixmap, sprite: &Pixmap, x: i32, y: i32) {
    pixmap.draw_pixmap(
        x,
        y,
        sprite.as_ref(),
        &PixmapPaint::default(),
        Transform::identity(),
        None,
    );
}

/// The radial gradient `#g` of the check glow, round `cx`, `cy`.
fn glow_gradient(cx: f32, cy: f32, r: f32, color: Rgb) -> String {
    let css = color.css();
    format!(
        r#"<defs><radialGradient id="g" cx="{cx}" cy="{cy}" r="{r}" gradientUnits="userSpaceOnUse">
<stop offset="0" stop-color="{css}" stop-opacity="1"/>
<stop offset="0.3" stop-color="{css}" stop-opacity="0.9"/>
<stop offset="1" stop-color="{css}" stop-opacity="0"/>
</radialGradient></defs>"#
    )
}

/// The red glow under a king in check.
fn check_glow(size: u32, color: Rgb) -> String {
    let c = size as f32 / 2.0;
    svg(
        size,
        size,
        &format!(
            r#"{}<rect width="{size}" height="{size}" fill="url(#g)"/>"#,
            glow_gradient(c, c, size as f32 * 0.68, color)
        ),
    )
}

/// Paints a frame `width` pixels wide in `color` inside the edges of
/// `pixmap`, on whole pixels (no blended edge colours for the palette).
fn frame(pixmap: &mut Pixmap, color: Rgb, width: u32) {
    let (w, h) = (pixmap.width(), pixmap.height());
    let width = width.min(w / 2).min(h / 2);
    let mut paint = resvg::tiny_skia::Paint::default();
    paint.set_color_rgba8(color.0, color.1, color.2, 255);
    paint.anti_alias = false;
    let bands = [
        (0, 0, w, width),
        (0, h - width, w, width),
        (0, width, width, h - 2 * width),
        (w - width, width, width, h - 2 * width),
    ];
    for (x, y, bw, bh) in bands {
        if let Some(rect) =
            resvg::tiny_skia::Rect::from_xywh(x as f32, y as f32, bw as f32, bh as f32)
        {
            pixmap.fill_rect(rect, &paint, Transform::identity(), None);
        }
    }
}

/// The fog texture: a soft cloud on a flat ground, the same in every fogged cell.
/// Flat rows keep images small and fast to compress.
fn fog(size: u32, base: Rgb, cloud: Rgb) -> Pixmap {
    let mut pixmap = solid(size, size, base);
    let scale = size as f32 / 100.0;
    paint_svg(
        &mut pixmap,
        &svg(
            size,
            size,
            &format!(
                r#"<g transform="scale({scale})" fill="{}"><circle cx="38" cy="52" r="13"/><circle cx="55" cy="45" r="17"/><circle cx="69" cy="55" r="10"/><rect x="25" y="52" width="54" height="13" rx="6.5"/></g>"#,
                cloud.css()
            ),
        ),
    );
    pixmap
}
