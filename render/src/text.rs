//! Text: the DejaVu Sans font (embedded by the `dejavu` crate), rasterised by
//! `ab_glyph` once per glyph and size, then laid onto images as coverage masks.

use crate::canvas::IndexedImage;
use crate::palette::Ink;
use ab_glyph::{point, Font, FontRef, PxScale, ScaleFont};
use resvg::tiny_skia::Pixmap;
use std::collections::HashMap;
use std::sync::{Arc, RwLock};

/// Which cut of the font.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub(crate) enum Face {
    /// Names, coordinates, the move number.
    Regular,
    /// Clocks, counts, token letters, the status line.
    Bold,
}

/// A face at a pixel size: how a piece of text is set.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub(crate) struct TextStyle {
    pub face: Face,
    pub px: u16,
}

impl TextStyle {
    /// `face` at `px` pixels (at least 6).
    pub(crate) fn new(face: Face, px: f32) -> TextStyle {
        TextStyle {
            face,
            px: px.round().clamp(6.0, 400.0) as u16,
        }
    }
}

/// One rasterised glyph: its coverage mask and where it sits relative to the pen.
#[derive(Debug)]
struct GlyphMask {
    /// Offset of the mask's left edge from the pen position.
    left: i32,
    /// Offset of the mask's top edge from the baseline (negative: above).
    top: i32,
    width: u32,
    coverage: Vec<u8>,
    advance: f32,
}

/// The fonts and a cache of rasterised glyphs.
pub(crate) struct Fonts {
    regular: FontRef<'static>,
    bold: FontRef<'static>,
    glyphs: RwLock<HashMap<(TextStyle, char), Arc<GlyphMask>>>,
}

impl std::fmt::Debug for Fonts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Fonts(DejaVu Sans)")
    }
}

impl Fonts {
    /// Loads the embedded fonts.
    pub(crate) fn load() -> Fonts {
        // The font bytes are compiled in from the `dejavu` crate, not read at run time.
        let regular = FontRef::try_from_slice(dejavu::sans::regular())
            .expect("the embedded DejaVu Sans font parses");
        let bold = FontRef::try_from_slice(dejavu::sans::bold())
            .expect("the embedded DejaVu Sans Bold font parses");
        Fonts {
            regular,
            bold,
            glyphs: RwLock::new(HashMap::new()),
        }
    }

    fn font(&self, face: Face) -> &FontRef<'static> {
        match face {
            Face::Regular => &self.regular,
            Face::Bold => &self.bold,
        }
    }

    /// The distance from the baseline to the top of capital letters, in pixels.
    pub(crate) fn cap_height(&self, style: TextStyle) -> f32 {
        self.glyph(style, 'H')
            .map(|glyph| -glyph.top as f32)
            .unwrap_or(style.px as f32 * 0.7)
    }

    /// The width of `text` in pixels.
    pub(crate) fn width(&self, style: TextStyle, text: &str) -> u32 {
        let mut pen = 0.0f32;
        for ch in text.chars() {
            if let Some(glyph) = self.glyph(style, ch) {
                pen += glyph.advance;
            }
        }
        pen.round().max(0.0) as u32
    }

    /// `text`, shortened with `…` to fit in `max_width` pixels.
    pub(crate) fn fit(&self, style: TextStyle, text: &str, max_width: u32) -> String {
        if self.width(style, text) <= max_width {
            return text.to_string();
        }
        let mut chars: Vec<char> = text.chars().collect();
        while !chars.is_empty() {
            chars.pop();
            let candidate: String = chars.iter().collect::<String>().trim_end().to_string() + "…";
            if self.width(style, &candidate) <= max_width {
                return candidate;
            }
        }
        String::new()
    }

    /// Lays `text` onto `image` with the pen starting at `x` on the baseline `baseline`.
    pub(crate) fn draw(
        &self,
        image: &mut IndexedImage,
        style: TextStyle,
        text: &str,
        x: i32,
        baseline: i32,
        ink: &Ink,
    ) {
        let mut pen = x as f32;
        for ch in text.chars() {
            let Some(glyph) = self.glyph(style, ch) else {
                continue;
            };
            image.lay_mask(
                &glyph.coverage,
                glyph.width,
                pen.round() as i32 + glyph.left,
                baseline + glyph.top,
                ink,
            );
            pen += glyph.advance;
        }
    }

    /// Paints `text` in an opaque colour onto an RGBA pixmap, centred on `center_x`
    /// with capitals centred on `center_y` (token letters).
    pub(crate) fn paint_centered(
        &self,
        pixmap: &mut Pixmap,
        style: TextStyle,
        text: &str,
        center_x: f32,
        center_y: f32,
        color: crate::theme::Rgb,
    ) {
        let width = self.width(style, text) as f32;
        let mut pen = center_x - width / 2.0;
        let baseline = (center_y + self.cap_height(style) / 2.0).round() as i32;
        let pixmap_width = pixmap.width() as i32;
        let pixmap_height = pixmap.height() as i32;
        let data = pixmap.data_mut();
        for ch in text.chars() {
            let Some(glyph) = self.glyph(style, ch) else {
                continue;
            };
            let left = pen.round() as i32 + glyph.left;
            let top = baseline + glyph.top;
            for (i, &coverage) in glyph.coverage.iter().enumerate() {
                let x = left + (i as u32 % glyph.width.max(1)) as i32;
                let y = top + (i as u32 / glyph.width.max(1)) as i32;
                if coverage == 0 || x < 0 || y < 0 || x >= pixmap_width || y >= pixmap_height {
                    continue;
                }
                let offset = (y * pixmap_width + x) as usize * 4;
                let alpha = coverage as u32;
                // Premultiplied source-over with an opaque source colour.
                for (channel, value) in [color.0, color.1, color.2, 255].into_iter().enumerate() {
                    let below = data[offset + channel] as u32;
                    data[offset + channel] =
                        ((value as u32 * alpha + below * (255 - alpha) + 127) / 255) as u8;
                }
            }
            pen += glyph.advance;
        }
    }

    /// The rasterised glyph for `ch`, from the cache or made now.
    fn glyph(&self, style: TextStyle, ch: char) -> Option<Arc<GlyphMask>> {
        let key = (style, ch);
        if let Some(found) = self.glyphs.read().ok()?.get(&key) {
            return Some(found.clone());
        }
        let made = Arc::new(self.rasterise(style, ch));
        if let Ok(mut glyphs) = self.glyphs.write() {
            glyphs.insert(key, made.clone());
        }
        Some(made)
    }

    fn rasterise(&self, style: TextStyle, ch: char) -> GlyphMask {
        let font = self.font(style.face);
        let scale = PxScale::from(style.px as f32);
        let id = font.glyph_id(ch);
        let advance = font.as_scaled(scale).h_advance(id);
        let glyph = id.with_scale_and_position(scale, point(0.0, 0.0));
        let Some(outlined) = font.outline_glyph(glyph) else {
            return GlyphMask {
                left: 0,
                top: 0,
                width: 0,
                coverage: Vec::new(),
                advance,
            };
        };
        let bounds = outlined.px_bounds();
        let width = bounds.width().max(0.0) as u32;
        let height = bounds.height().max(0.0) as u32;
        let mut coverage = vec![0u8; width as usize * height as usize];
        outlined.draw(|x, y, c| {
            if x < width && y < height {
                coverage[(y * width + x) as usize] = (c.clamp(0.0, 1.0) * 255.0).round() as u8;
            }
        });
        GlyphMask {
            left: bounds.min.x as i32,
            top: bounds.min.y as i32,
            width,
            coverage,
            advance,
        }
    }
}
