//! The fixed palette of a theme and the mapping of drawn colours onto it.
//!
//! Every image is an indexed PNG (one byte per pixel) with the theme's palette:
//! small files and fast encoding. The palette holds the theme's colours plus
//! ramps between the pairs of colours that meet at anti-aliased edges (piece
//! outlines on each square colour, text on its background), so edges stay smooth.

use crate::theme::{Rgb, Theme};
use std::collections::HashMap;

/// Palette index left free for "transparent" in GIF difference frames.
pub(crate) const TRANSPARENT: u8 = 255;

/// Colours a palette may hold (index 255 stays free).
const MAX_COLORS: usize = 255;

/// Intermediate colours between the two ends of a ramp.
const RAMP_STEPS: usize = 6;

/// A theme's palette: at most 255 colours.
#[derive(Clone, Debug)]
pub(crate) struct Palette {
    colors: Vec<Rgb>,
}

impl Palette {
    /// The palette of `theme`.
    pub(crate) fn for_theme(theme: &Theme) -> Palette {
        let mut colors: Vec<Rgb> = Vec::with_capacity(MAX_COLORS);
        let mut add = |color: Rgb| {
            if colors.len() < MAX_COLORS && !colors.contains(&color) {
                colors.push(color);
            }
        };
        let square_colors = [
            theme.light,
            theme.dark,
            theme.light_last_move,
            theme.dark_last_move,
            theme.light_marked,
            theme.dark_marked,
            theme.uniform,
            theme.uniform_last_move,
            theme.uniform_marked,
            theme.points,
        ];
        let backgrounds: Vec<Rgb> = square_colors
            .iter()
            .copied()
            .chain([theme.page, theme.clock_active, theme.clock_idle])
            .collect();
        let solids = [
            theme.text,
            theme.text_dim,
            theme.points_line,
            theme.uniform_grid,
            theme.check,
            theme.fog,
            theme.fog_cloud,
            theme.promoted,
            theme.accent,
            theme.accent_text,
            theme.clock_active_text,
            theme.clock_idle_text,
            theme.check_counter,
        ];
        for color in backgrounds.iter().chain(solids.iter()) {
            add(*color);
        }
        for side in &theme.pieces {
            add(side.fill);
            add(side.outline);
            add(side.detail);
        }

        // Ramps, most visible first: should the palette overflow, the last ramps go.
        let mut ramps: Vec<(Rgb, Rgb)> = Vec::new();
        let outlines = [theme.pieces[0].outline, theme.pieces[1].outline];
        for ground in square_colors.iter().chain([&theme.page]) {
            ramps.push((theme.pieces[0].outline, *ground));
        }
        for side in &theme.pieces {
            ramps.push((side.outline, side.fill));
            if side.detail != side.outline {
                ramps.push((side.detail, side.fill));
            }
        }
        ramps.push((outlines[1], theme.pieces[1].fill));
        ramps.push((theme.text, theme.page));
        ramps.push((theme.text_dim, theme.page));
        ramps.push((theme.clock_active_text, theme.clock_active));
        ramps.push((theme.clock_idle_text, theme.clock_idle));
        ramps.push((theme.accent_text, theme.accent));
        ramps.push((theme.accent, theme.page));
        ramps.push((theme.clock_active, theme.page));
        ramps.push((theme.clock_idle, theme.page));
        ramps.push((theme.check, theme.light));
        ramps.push((theme.check, theme.dark));
        ramps.push((theme.check, theme.uniform));
        ramps.push((theme.points_line, theme.points));
        ramps.push((theme.fog_cloud, theme.fog));
        ramps.push((theme.check_counter, theme.page));
        ramps.push((theme.promoted, theme.page));
        ramps.push((theme.pieces[0].fill, theme.page));
        ramps.push((theme.pieces[1].fill, theme.page));
        // Janggi tokens: red and blue ink on ivory, ivory on the point board.
        for ink in [theme.janggi_ink(0), theme.janggi_ink(1)] {
            ramps.push((ink, theme.pieces[0].fill));
            ramps.push((ink, theme.points));
        }
        for (from, to) in ramps {
            for step in 1..=RAMP_STEPS {
                add(from.mix(to, step as f32 / (RAMP_STEPS + 1) as f32));
            }
        }
        Palette { colors }
    }

    /// The colours, in index order.
    #[cfg(test)]
    pub(crate) fn colors(&self) -> &[Rgb] {
        &self.colors
    }

    /// The palette as `r g b r g b …` bytes, as PNG and GIF want it; padded to 256
    /// entries so index 255 (GIF transparency) exists.
    pub(crate) fn rgb_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(256 * 3);
        for color in &self.colors {
            bytes.extend_from_slice(&[color.0, color.1, color.2]);
        }
        bytes.resize(256 * 3, 0);
        bytes
    }

    /// The index of the palette colour nearest to `color`.
    pub(crate) fn nearest(&self, color: Rgb) -> u8 {
        let distance = |c: &Rgb| {
            let d = |a: u8, b: u8| {
                let x = a as i32 - b as i32;
                x * x
            };
            // Weighted towards green, to which the eye is most sensitive.
            2 * d(c.0, color.0) + 4 * d(c.1, color.1) + 3 * d(c.2, color.2)
        };
        let mut best = 0;
        let mut best_distance = i32::MAX;
        for (index, candidate) in self.colors.iter().enumerate() {
            let dist = distance(candidate);
            if dist < best_distance {
                best = index;
                best_distance = dist;
                if dist == 0 {
                    break;
                }
            }
        }
        best as u8
    }

    /// The ink for drawing anti-aliased `foreground` on a flat `background`.
    pub(crate) fn ink(&self, foreground: Rgb, background: Rgb) -> Ink {
        let mut levels = [0u8; INK_LEVELS];
        for (level, slot) in levels.iter_mut().enumerate() {
            *slot =
                self.nearest(background.mix(foreground, level as f32 / (INK_LEVELS - 1) as f32));
        }
        Ink { levels }
    }
}

/// Coverage levels of an [`Ink`].
pub(crate) const INK_LEVELS: usize = 16;

/// Palette indices for a foreground colour over a known background, by coverage
/// (0 = background, 15 = foreground): how text is drawn straight onto the indexed canvas.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Ink {
    levels: [u8; INK_LEVELS],
}

impl Ink {
    /// The index for `coverage` (0–255).
    pub(crate) fn at(&self, coverage: u8) -> u8 {
        self.levels[(coverage as usize * (INK_LEVELS - 1) + 127) / 255]
    }
}

/// Maps many colours onto a palette, remembering answers (pictures repeat colours a lot).
pub(crate) struct Quantizer<'a> {
    palette: &'a Palette,
    memo: HashMap<Rgb, u8>,
}

impl<'a> Quantizer<'a> {
    /// A quantizer for `palette`.
    pub(crate) fn new(palette: &'a Palette) -> Quantizer<'a> {
        Quantizer {
            palette,
            memo: HashMap::new(),
        }
    }

    /// The index of the palette colour nearest to `color`.
    pub(crate) fn index(&mut self, color: Rgb) -> u8 {
        let palette = self.palette;
        *self
            .memo
            .entry(color)
            .or_insert_with(|| palette.nearest(color))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_theme_colour_is_exact_and_index_255_stays_free() {
        for theme in [Theme::green(), Theme::brown()] {
            let palette = Palette::for_theme(&theme);
            assert!(palette.colors().len() <= 255);
            for color in [theme.light, theme.dark, theme.page, theme.text, theme.fog] {
                assert_eq!(palette.colors()[palette.nearest(color) as usize], color);
            }
        }
    }

    #[test]
    fn ink_runs_from_background_to_foreground() {
        let theme = Theme::green();
        let palette = Palette::for_theme(&theme);
        let ink = palette.ink(theme.text, theme.page);
        assert_eq!(palette.colors()[ink.at(0) as usize], theme.page);
        assert_eq!(palette.colors()[ink.at(255) as usize], theme.text);
    }
}
