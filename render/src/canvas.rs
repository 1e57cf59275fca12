//! An indexed image (one palette index per pixel) and the few operations the
//! renderer needs: fill a rectangle, copy a tile, lay anti-aliased text.

use crate::palette::Ink;

/// A rectangle of palette indices: a finished image or a prepared tile.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct IndexedImage {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Palette indices, row by row.
    pub pixels: Vec<u8>,
}

impl IndexedImage {
    /// An image of one colour.
    pub fn filled(width: u32, height: u32, index: u8) -> IndexedImage {
        IndexedImage {
            width,
            height,
            pixels: vec![index; width as usize * height as usize],
        }
    }

    /// The index at `x`, `y` (`None` outside).
    pub fn get(&self, x: u32, y: u32) -> Option<u8> {
        if x < self.width && y < self.height {
            self.pixels
                .get(y as usize * self.width as usize + x as usize)
                .copied()
        } else {
            None
        }
    }

    /// Copies `tile` with its top-left corner at `x`, `y` (clipped to the image).
    pub(crate) fn blit(&mut self, tile: &IndexedImage, x: i32, y: i32) {
        let Some((x0, y0, x1, y1)) = self.clip(x, y, tile.width, tile.height) else {
            return;
        };
        let tile_x = (x0 as i64 - x as i64) as usize;
        for row in y0..y1 {
            let tile_row = (row as i64 - y as i64) as usize;
            let source = tile_row * tile.width as usize + tile_x;
            let target = row * self.width as usize;
            self.pixels[target + x0..target + x1]
                .copy_from_slice(&tile.pixels[source..source + (x1 - x0)]);
        }
    }

    /// Copies the pixels of `tile` that are not `key` (the page colour round
    /// a hexagonal cell), with its top-left corner at `x`, `y` (clipped).
    pub(crate) fn blit_keyed(&mut self, tile: &IndexedImage, x: i32, y: i32, key: u8) {
        let Some((x0, y0, x1, y1)) = self.clip(x, y, tile.width, tile.height) else {
            return;
        };
        for row in y0..y1 {
            let tile_row = (row as i64 - y as i64) as usize * tile.width as usize;
            for column in x0..x1 {
                let pixel = tile.pixels[tile_row + (column as i64 - x as i64) as usize];
                if pixel != key {
                    self.pixels[row * self.width as usize + column] = pixel;
                }
            }
        }
    }

    /// Lays a coverage mask (0 = untouched, 255 = full ink) at `x`, `y`.
    pub(crate) fn lay_mask(&mut self, mask: &[u8], mask_width: u32, x: i32, y: i32, ink: &Ink) {
        if mask_width == 0 {
            return;
        }
        let mask_height = (mask.len() / mask_width as usize) as u32;
        let Some((x0, y0, x1, y1)) = self.clip(x, y, mask_width, mask_height) else {
            return;
        };
        for row in y0..y1 {
            let mask_row = (row as i64 - y as i64) as usize * mask_width as usize;
            for column in x0..x1 {
                let coverage = mask[mask_row + (column as i64 - x as i64) as usize];
                if coverage > 0 {
                    self.pixels[row * self.width as usize + column] = ink.at(coverage);
                }
            }
        }
    }

    /// The part of a rectangle inside the image, as `(x0, y0, x1, y1)` (end exclusive).
    fn clip(
        &self,
        x: i32,
        y: i32,
        width: u32,
        height: u32,
    ) -> Option<(usize, usize, usize, usize)> {
        let x0 = x.max(0) as i64;
        let y0 = y.max(0) as i64;
        let x1 = (x as i64 + width as i64).min(self.width as i64);
        let y1 = (y as i64 + height as i64).min(self.height as i64);
        (x0 < x1 && y0 < y1).then_some((x0 as usize, y0 as usize, x1 as usize, y1 as usize))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blit_clips_at_every_edge() {
        let mut image = IndexedImage::filled(4, 4, 0);
        let tile = IndexedImage::filled(3, 3, 7);
        image.blit(&tile, -1, -1);
        image.blit(&tile, 3, 3);
        assert_eq!(image.get(0, 0), Some(7));
        assert_eq!(image.get(1, 1), Some(7));
        assert_eq!(image.get(2, 2), Some(0));
        assert_eq!(image.get(3, 3), Some(7));
        assert_eq!(image.get(4, 4), None);
    }
}
