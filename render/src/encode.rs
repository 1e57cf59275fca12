//! Encoding indexed images as PNG and animated GIF.

use crate::canvas::IndexedImage;
use crate::palette::TRANSPARENT;

/// An indexed image as PNG bytes with `palette` (`r g b` triples). `tile` is the
/// side of the squares, whose repetition the compressor looks for; `bands` are
/// the rows where independent bands start (a board's ranks), each compressed
/// on its own so that a band drawn before costs little (see `deflate`).
pub(crate) fn png(image: &IndexedImage, palette: &[u8], tile: u32, bands: &[u32]) -> Vec<u8> {
    thread_local! {
        // The filtered rows, kept between images: a fresh half-megabyte buffer
        // per board costs page faults.
        static RAW: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    let width = image.width as usize;
    // Each row starts with its filter type: 0, none (filters do not suit palette indices).
    let stride = width + 1;
    // Runs, the row above, the same spot one or more tiles to the left, two rows up.
    let mut distances = vec![1, stride];
    distances.extend(
        (1..)
            .map(|k| k * tile.max(1) as usize)
            .take_while(|&d| d < stride),
    );
    distances.push(2 * stride);
    let bands: Vec<usize> = bands.iter().map(|&row| row as usize * stride).collect();
    let compressed = RAW.with_borrow_mut(|raw| {
        raw.clear();
        raw.reserve(stride * image.height as usize);
        for row in image.pixels.chunks_exact(width.max(1)) {
            raw.push(0);
            raw.extend_from_slice(row);
        }
        crate::deflate::zlib_banded(raw, &distances, &bands)
    });

    let mut bytes = Vec::with_capacity(compressed.len() + palette.len() + 64);
    bytes.extend_from_slice(b"\x89PNG\r\n\x1a\n");
    let mut header = Vec::with_capacity(13);
    header.extend_from_slice(&image.width.to_be_bytes());
    header.extend_from_slice(&image.height.to_be_bytes());
    // 8 bits per pixel, palette colour, deflate, adaptive filtering method, no interlace.
    header.extend_from_slice(&[8, 3, 0, 0, 0]);
    chunk(&mut bytes, b"IHDR", &header);
    chunk(&mut bytes, b"PLTE", &used_palette(image, palette));
    chunk(&mut bytes, b"IDAT", &compressed);
    chunk(&mut bytes, b"IEND", &[]);
    bytes
}

/// Appends one PNG chunk: length, type, data, CRC-32 of type and data.
fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let mut crc = crc32fast::Hasher::new();
    crc.update(kind);
    crc.update(data);
    out.extend_from_slice(&crc.finalize().to_be_bytes());
}

/// The palette cut after the highest index `image` uses (a PNG palette may be shorter than 256).
fn used_palette(image: &IndexedImage, palette: &[u8]) -> Vec<u8> {
    let highest = image.pixels.iter().copied().max().unwrap_or(0) as usize;
    palette[..((highest + 1) * 3).min(palette.len())].to_vec()
}

/// Frames as an endlessly looping animated GIF with `palette` (256 `r g b` triples).
/// After the first, a frame holds only the rectangle that changed, with unchanged
/// pixels transparent, so a game of small moves costs little per move.
pub(crate) fn gif(frames: &[IndexedImage], palette: &[u8]) -> Vec<u8> {
    let width = frames
        .iter()
        .map(|f| f.width)
        .max()
        .unwrap_or(1)
        .min(u16::MAX as u32) as u16;
    let height = frames
        .iter()
        .map(|f| f.height)
        .max()
        .unwrap_or(1)
        .min(u16::MAX as u32) as u16;
    let mut bytes = Vec::new();
    let Ok(mut encoder) = gif::Encoder::new(&mut bytes, width, height, palette) else {
        return bytes;
    };
    let _ = encoder.set_repeat(gif::Repeat::Infinite);
    let background = frames
        .first()
        .and_then(|f| f.pixels.first().copied())
        .unwrap_or(0);
    let mut screen = IndexedImage::filled(width as u32, height as u32, background);
    let last = frames.len().saturating_sub(1);
    for (number, frame) in frames.iter().enumerate() {
        let mut next = screen.clone();
        next.blit(frame, 0, 0);
        // Hold each position a second, the final one three.
        let delay = if number == last { 300 } else { 100 };
        let gif_frame = if number == 0 {
            full_frame(&next, delay)
        } else {
            match difference_frame(&screen, &next, delay) {
                Some(frame) => frame,
                None => {
                    // Nothing changed: still show the position for its time.
                    let mut frame = gif::Frame {
                        width: 1,
                        height: 1,
                        buffer: vec![TRANSPARENT].into(),
                        transparent: Some(TRANSPARENT),
                        delay,
                        ..gif::Frame::default()
                    };
                    frame.dispose = gif::DisposalMethod::Keep;
                    frame
                }
            }
        };
        if encoder.write_frame(&gif_frame).is_err() {
            break;
        }
        screen = next;
    }
    drop(encoder);
    bytes
}

fn full_frame(image: &IndexedImage, delay: u16) -> gif::Frame<'static> {
    gif::Frame {
        width: image.width as u16,
        height: image.height as u16,
        buffer: image.pixels.clone().into(),
        delay,
        dispose: gif::DisposalMethod::Keep,
        ..gif::Frame::default()
    }
}

/// The smallest rectangle where `next` differs from `previous`, unchanged pixels
/// transparent; `None` when nothing changed.
fn difference_frame(
    previous: &IndexedImage,
    next: &IndexedImage,
    delay: u16,
) -> Option<gif::Frame<'static>> {
    let width = next.width as usize;
    let (mut left, mut top, mut right, mut bottom) = (usize::MAX, usize::MAX, 0, 0);
    for (row, (old, new)) in previous
        .pixels
        .chunks_exact(width)
        .zip(next.pixels.chunks_exact(width))
        .enumerate()
    {
        if old == new {
            continue;
        }
        let first = old.iter().zip(new).position(|(a, b)| a != b).unwrap_or(0);
        let last = old.iter().zip(new).rposition(|(a, b)| a != b).unwrap_or(0);
        left = left.min(first);
        right = right.max(last);
        top = top.min(row);
        bottom = row;
    }
    if top == usize::MAX {
        return None;
    }
    let mut buffer = Vec::with_capacity((right - left + 1) * (bottom - top + 1));
    for row in top..=bottom {
        let start = row * width;
        for column in left..=right {
            let new = next.pixels[start + column];
            buffer.push(if previous.pixels[start + column] == new {
                TRANSPARENT
            } else {
                new
            });
        }
    }
    Some(gif::Frame {
        left: left as u16,
        top: top as u16,
        width: (right - left + 1) as u16,
        height: (bottom - top + 1) as u16,
        buffer: buffer.into(),
        transparent: Some(TRANSPARENT),
        delay,
        dispose: gif::DisposalMethod::Keep,
        ..gif::Frame::default()
    })
}
