//! The size an image file declares in its header, as the fakes read it to
//! answer (and refuse) like the real services.

/// The first eight bytes of every PNG file.
pub const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";

/// Width and height of a PNG (IHDR) or GIF (logical screen).
pub fn image_size(bytes: &[u8]) -> Option<(u32, u32)> {
    let number = |range: std::ops::Range<usize>| -> Option<u32> {
        let slice = bytes.get(range)?;
        Some(
            slice
                .iter()
                .fold(0, |sum, byte| (sum << 8) | u32::from(*byte)),
        )
    };
    if bytes.starts_with(PNG_SIGNATURE) {
        return Some((number(16..20)?, number(20..24)?));
    }
    if bytes.starts_with(b"GIF8") {
        let little = |at: usize| -> Option<u32> {
            Some(u32::from(*bytes.get(at)?) | (u32::from(*bytes.get(at + 1)?) << 8))
        };
        return Some((little(6)?, little(8)?));
    }
    None
}
