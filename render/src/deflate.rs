//! A DEFLATE (zlib) compressor made for board images.
//!
//! A board image repeats itself in known ways: runs of one colour, the row
//! above, and the same tile one or more squares to the left. Trying exactly
//! those distances finds nearly every match a general compressor finds by
//! hashing, at a fraction of the cost. The matches are then coded in one
//! dynamic-Huffman block.
//!
//! An image is also cut into bands (a board's ranks), each coded as a block of
//! its own whose matches stay inside the band, so a band's block depends on its
//! bytes alone: a band drawn before (a rank no move touched, an empty rank of
//! any game) reuses the block coded then, once its matches are checked
//! against the bytes.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// The longest match DEFLATE can express.
const MAX_MATCH: usize = 258;
/// The shortest match worth coding.
const MIN_MATCH: usize = 3;
/// The farthest back a match may reach.
const WINDOW: usize = 32 * 1024;

/// `data` compressed as a zlib stream, trying matches at `distances` (each in 1..=32768),
/// most promising first: a full-length match stops the search.
#[cfg(test)]
pub(crate) fn zlib(data: &[u8], distances: &[usize]) -> Vec<u8> {
    zlib_banded(data, distances, &[])
}

/// `data` compressed as a zlib stream like [`zlib`], cut into bands at the byte
/// offsets `bands` (ascending): each band is a block whose matches stay inside
/// it, and the block of a band coded before is reused.
pub(crate) fn zlib_banded(data: &[u8], distances: &[usize], bands: &[usize]) -> Vec<u8> {
    let distances = usable(distances);
    let mut starts: Vec<usize> = bands.iter().copied().filter(|&b| b < data.len()).collect();
    starts.push(0);
    starts.sort_unstable();
    starts.dedup();
    let mut out = BitWriter::default();
    // zlib header: deflate, 32 KiB window, no dictionary, "fastest" level hint.
    out.bytes.extend_from_slice(&[0x78, 0x01]);
    // Always one band at least (empty data: one empty final block).
    for (i, &start) in starts.iter().enumerate() {
        let end = starts.get(i + 1).copied().unwrap_or(data.len());
        let block = band_block(&data[start..end], &distances);
        out.append(&block.bits, block.bit_count, end == data.len());
    }
    out.flush();
    out.bytes.extend_from_slice(&adler32(data).to_be_bytes());
    out.bytes
}

/// The distances DEFLATE can express, each once, in the given order.
fn usable(distances: &[usize]) -> Vec<usize> {
    let mut unique: Vec<usize> = Vec::with_capacity(distances.len());
    for &distance in distances {
        if (1..=WINDOW).contains(&distance) && !unique.contains(&distance) {
            unique.push(distance);
        }
    }
    unique
}

/// A literal byte or a match, packed: literals are `0..256`, matches
/// `length << 16 | distance` with `length >= 3`.
type Token = u32;

fn literal(byte: u8) -> Token {
    byte as Token
}

fn backref(length: usize, distance: usize) -> Token {
    ((length as u32) << 16) | distance as u32
}

/// Bands remembered per generation; two generations are kept, so a band used
/// in either stays (a band costs some kilobytes: its matches and its block).
const CACHED_BANDS: usize = 1024;

/// A band coded: its matches, and its block (not final) as bits.
struct Block {
    tokens: Vec<Token>,
    bits: Vec<u8>,
    bit_count: usize,
}

/// Blocks of bands seen lately, by a hash of the band and the distances tried.
#[derive(Default)]
struct BandCache {
    current: HashMap<u64, Arc<Block>>,
    previous: HashMap<u64, Arc<Block>>,
}

static BANDS: Mutex<Option<BandCache>> = Mutex::new(None);

/// Forgets every remembered band.
pub(crate) fn forget() {
    *BANDS.lock().unwrap_or_else(|e| e.into_inner()) = None;
}

/// The block of one band: a remembered one when its matches reproduce the
/// band exactly, otherwise a new one (then remembered).
fn band_block(band: &[u8], distances: &[usize]) -> Arc<Block> {
    let key = band_hash(band, distances);
    let remembered = {
        let mut cache = BANDS.lock().unwrap_or_else(|e| e.into_inner());
        let cache = cache.get_or_insert_with(BandCache::default);
        match cache.current.get(&key) {
            Some(block) => Some(block.clone()),
            None => cache.previous.remove(&key).inspect(|block| {
                cache.current.insert(key, block.clone());
            }),
        }
    };
    // A hash may collide: a block is used only if it decodes to this band.
    if let Some(block) = remembered.filter(|block| reproduces(&block.tokens, band)) {
        return block;
    }
    let tokens = parse(band, distances);
    let mut out = BitWriter::default();
    write_block(&mut out, &tokens, false);
    let bit_count = out.bytes.len() * 8 + out.filled as usize;
    out.flush();
    let block = Arc::new(Block {
        tokens,
        bits: out.bytes,
        bit_count,
    });
    let mut cache = BANDS.lock().unwrap_or_else(|e| e.into_inner());
    let cache = cache.get_or_insert_with(BandCache::default);
    if cache.current.len() >= CACHED_BANDS {
        cache.previous = std::mem::take(&mut cache.current);
    }
    cache.current.insert(key, block.clone());
    block
}

/// Whether `tokens` decode to exactly `band` (every match copying from inside it).
fn reproduces(tokens: &[Token], band: &[u8]) -> bool {
    let mut position = 0;
    for &token in tokens {
        if token < 256 {
            if band.get(position) != Some(&(token as u8)) {
                return false;
            }
            position += 1;
        } else {
            let (length, distance) = ((token >> 16) as usize, (token & 0xffff) as usize);
            if distance > position || position + length > band.len() {
                return false;
            }
            // Comparing with the bytes `distance` back is the overlapping copy's rule.
            if band[position..position + length]
                != band[position - distance..position - distance + length]
            {
                return false;
            }
            position += length;
        }
    }
    position == band.len()
}

/// A fast 64-bit hash of `band` and `distances` (four interleaved lanes of
/// multiply-xor; collisions only cost a parse, see [`reproduces`]).
fn band_hash(band: &[u8], distances: &[usize]) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let mix = |h: u64, word: u64| (h.rotate_left(23) ^ word).wrapping_mul(K);
    let mut lanes = [band.len() as u64, 1, 2, 3];
    for &distance in distances {
        lanes[0] = mix(lanes[0], distance as u64);
    }
    let mut blocks = band.chunks_exact(32);
    for block in &mut blocks {
        for (lane, word) in lanes.iter_mut().zip(block.chunks_exact(8)) {
            *lane = mix(*lane, u64::from_le_bytes(word.try_into().unwrap_or([0; 8])));
        }
    }
    for &byte in blocks.remainder() {
        lanes[1] = mix(lanes[1], byte as u64);
    }
    lanes
        .iter()
        .fold(0u64, |h, &lane| mix(h, lane ^ (lane >> 29)))
}

/// Finds matches greedily, with one step of lazy evaluation.
fn parse(data: &[u8], distances: &[usize]) -> Vec<Token> {
    let mut tokens = Vec::with_capacity(data.len() / 16);
    let mut position = 0;
    while position < data.len() {
        let (length, distance) = best_match(data, position, distances);
        if length >= MIN_MATCH {
            // If the next byte starts a clearly longer match, take a literal first.
            if length < 32 && position + 1 < data.len() {
                let (next_length, _) = best_match(data, position + 1, distances);
                if next_length > length + 1 {
                    tokens.push(literal(data[position]));
                    position += 1;
                    continue;
                }
            }
            tokens.push(backref(length, distance));
            position += length;
        } else {
            tokens.push(literal(data[position]));
            position += 1;
        }
    }
    tokens
}

/// The longest match at `position` among `distances`: `(length, distance)`.
fn best_match(data: &[u8], position: usize, distances: &[usize]) -> (usize, usize) {
    let limit = (data.len() - position).min(MAX_MATCH);
    if limit < MIN_MATCH {
        return (0, 0);
    }
    let mut best = (0, 0);
    for &distance in distances {
        if distance > position {
            continue;
        }
        let from = position - distance;
        // Cheap reject before measuring the match.
        if data[from] != data[position]
            || data[from + best.0.min(limit - 1)] != data[position + best.0.min(limit - 1)]
        {
            continue;
        }
        let length = common_prefix(&data[from..], &data[position..], limit);
        if length > best.0 {
            best = (length, distance);
            if length == limit {
                break;
            }
        }
    }
    best
}

/// How many leading bytes `a` and `b` share, up to `limit`, eight at a time.
/// (The two may overlap: a match may copy bytes it is still producing.)
fn common_prefix(a: &[u8], b: &[u8], limit: usize) -> usize {
    let mut length = 0;
    while length + 8 <= limit {
        let x = u64::from_le_bytes(a[length..length + 8].try_into().unwrap_or([0; 8]));
        let y = u64::from_le_bytes(b[length..length + 8].try_into().unwrap_or([0; 8]));
        let difference = x ^ y;
        if difference != 0 {
            return length + (difference.trailing_zeros() / 8) as usize;
        }
        length += 8;
    }
    while length < limit && a[length] == b[length] {
        length += 1;
    }
    length
}

/// Base lengths of the length symbols 257–285 and their extra bits.
const LENGTH_BASE: [u16; 29] = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131,
    163, 195, 227, 258,
];
const LENGTH_EXTRA: [u8; 29] = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
];
/// Base distances of the distance symbols 0–29 and their extra bits.
const DISTANCE_BASE: [u16; 30] = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
    2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
];
const DISTANCE_EXTRA: [u8; 30] = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13,
    13,
];
/// The order in which code-length code lengths are stored.
const CODE_LENGTH_ORDER: [usize; 19] = [
    16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
];

/// The length symbol (0-based, add 257) of each match length 0..=258.
const LENGTH_SYMBOL: [u8; MAX_MATCH + 1] = {
    let mut table = [0u8; MAX_MATCH + 1];
    let mut symbol = 0;
    let mut length = 3;
    while length <= MAX_MATCH {
        while symbol + 1 < LENGTH_BASE.len() && LENGTH_BASE[symbol + 1] as usize <= length {
            symbol += 1;
        }
        table[length] = symbol as u8;
        length += 1;
    }
    table
};

/// The distance symbol of distances 1..=256 (index `distance - 1`), and of
/// longer ones by `(distance - 1) >> 7` (index 256 onwards), as zlib does.
const DISTANCE_SYMBOL: [u8; 512] = {
    let mut table = [0u8; 512];
    let mut index = 0;
    while index < 512 {
        let distance = if index < 256 {
            index + 1
        } else {
            ((index - 256) << 7) + 1
        };
        let mut symbol = 0;
        while symbol + 1 < DISTANCE_BASE.len() && DISTANCE_BASE[symbol + 1] as usize <= distance {
            symbol += 1;
        }
        table[index] = symbol as u8;
        index += 1;
    }
    table
};

fn length_symbol(length: usize) -> usize {
    LENGTH_SYMBOL[length.min(MAX_MATCH)] as usize
}

fn distance_symbol(distance: usize) -> usize {
    let index = distance.saturating_sub(1);
    if index < 256 {
        DISTANCE_SYMBOL[index] as usize
    } else {
        DISTANCE_SYMBOL[(256 + (index >> 7)).min(511)] as usize
    }
}

/// Writes `tokens` as one dynamic-Huffman block, `last` marking the final one.
fn write_block(out: &mut BitWriter, tokens: &[Token], last: bool) {
    let mut literal_counts = [0u32; 286];
    let mut distance_counts = [0u32; 30];
    for &token in tokens {
        if token < 256 {
            literal_counts[token as usize] += 1;
        } else {
            literal_counts[257 + length_symbol((token >> 16) as usize)] += 1;
            distance_counts[distance_symbol((token & 0xffff) as usize)] += 1;
        }
    }
    literal_counts[256] = 1;
    let literal_lengths = code_lengths(&literal_counts, 15);
    let distance_lengths = code_lengths(&distance_counts, 15);
    let literal_codes = canonical_codes(&literal_lengths);
    let distance_codes = canonical_codes(&distance_lengths);

    let literal_count = 257.max(last_used(&literal_lengths));
    let distance_count = 1.max(last_used(&distance_lengths));
    let mut all_lengths = literal_lengths[..literal_count].to_vec();
    all_lengths.extend_from_slice(&distance_lengths[..distance_count]);
    let length_runs = run_length_code(&all_lengths);
    let mut run_counts = [0u32; 19];
    for &(symbol, _) in &length_runs {
        run_counts[symbol as usize] += 1;
    }
    let run_lengths = code_lengths(&run_counts, 7);
    let run_codes = canonical_codes(&run_lengths);
    let stored_run_lengths = 4.max(
        CODE_LENGTH_ORDER
            .iter()
            .rposition(|&symbol| run_lengths[symbol] > 0)
            .map_or(0, |i| i + 1),
    );

    out.bits(last as u32, 1); // the final block?
    out.bits(2, 2); // dynamic Huffman codes
    out.bits((literal_count - 257) as u32, 5);
    out.bits((distance_count - 1) as u32, 5);
    out.bits((stored_run_lengths - 4) as u32, 4);
    for &symbol in &CODE_LENGTH_ORDER[..stored_run_lengths] {
        out.bits(run_lengths[symbol] as u32, 3);
    }
    for &(symbol, extra) in &length_runs {
        out.code(run_codes[symbol as usize], run_lengths[symbol as usize]);
        match symbol {
            16 => out.bits(extra as u32, 2),
            17 => out.bits(extra as u32, 3),
            18 => out.bits(extra as u32, 7),
            _ => {}
        }
    }
    for &token in tokens {
        if token < 256 {
            out.code(
                literal_codes[token as usize],
                literal_lengths[token as usize],
            );
        } else {
            let length = (token >> 16) as usize;
            let distance = (token & 0xffff) as usize;
            let symbol = length_symbol(length);
            out.code(literal_codes[257 + symbol], literal_lengths[257 + symbol]);
            out.bits(
                (length - LENGTH_BASE[symbol] as usize) as u32,
                LENGTH_EXTRA[symbol],
            );
            let symbol = distance_symbol(distance);
            out.code(distance_codes[symbol], distance_lengths[symbol]);
            out.bits(
                (distance - DISTANCE_BASE[symbol] as usize) as u32,
                DISTANCE_EXTRA[symbol],
            );
        }
    }
    out.code(literal_codes[256], literal_lengths[256]);
}

/// One past the last symbol with a code.
fn last_used(lengths: &[u8]) -> usize {
    lengths.iter().rposition(|&l| l > 0).map_or(0, |i| i + 1)
}

/// Code lengths as DEFLATE stores them: symbols 0–15 literally, 16 repeats the
/// previous length 3–6 times, 17 and 18 repeat zero 3–10 and 11–138 times.
/// Each entry is `(symbol, extra bits value)`.
fn run_length_code(lengths: &[u8]) -> Vec<(u8, u8)> {
    let mut runs = Vec::new();
    let mut i = 0;
    while i < lengths.len() {
        let value = lengths[i];
        let mut run = 1;
        while i + run < lengths.len() && lengths[i + run] == value {
            run += 1;
        }
        i += run;
        if value == 0 {
            while run >= 11 {
                let n = run.min(138);
                runs.push((18, (n - 11) as u8));
                run -= n;
            }
            if run >= 3 {
                runs.push((17, (run - 3) as u8));
                run = 0;
            }
        } else {
            runs.push((value, 0));
            run -= 1;
            while run >= 3 {
                let n = run.min(6);
                runs.push((16, (n - 3) as u8));
                run -= n;
            }
        }
        for _ in 0..run {
            runs.push((value, 0));
        }
    }
    runs
}

/// Huffman code lengths for `counts`, none longer than `limit`. Every alphabet
/// gets at least two codes, so the code is complete for any decoder.
fn code_lengths(counts: &[u32], limit: u8) -> Vec<u8> {
    let mut counts = counts.to_vec();
    let mut symbol = 0;
    while counts_used(&counts) < 2 && symbol < counts.len() {
        counts[symbol] = counts[symbol].max(1);
        symbol += 1;
    }
    loop {
        let lengths = huffman_lengths(&counts);
        if lengths.iter().all(|&l| l <= limit) {
            return lengths;
        }
        // Too deep: flatten the distribution and try again.
        for count in counts.iter_mut().filter(|c| **c > 0) {
            *count = (*count >> 1).max(1);
        }
    }
}

fn counts_used(counts: &[u32]) -> usize {
    counts.iter().filter(|&&c| c > 0).count()
}

/// Plain Huffman code lengths (no limit), ties broken by symbol for determinism.
fn huffman_lengths(counts: &[u32]) -> Vec<u8> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    // Nodes: leaves are symbols; parents are appended. Heap holds (count, order, node).
    let mut parent: Vec<usize> = vec![usize::MAX; counts.len()];
    let mut heap = BinaryHeap::new();
    for (symbol, &count) in counts.iter().enumerate() {
        if count > 0 {
            heap.push(Reverse((count as u64, symbol, symbol)));
        }
    }
    let mut order = counts.len();
    while heap.len() > 1 {
        let (Some(Reverse((a, _, left))), Some(Reverse((b, _, right)))) = (heap.pop(), heap.pop())
        else {
            break;
        };
        let node = parent.len();
        parent.push(usize::MAX);
        parent[left] = node;
        parent[right] = node;
        heap.push(Reverse((a + b, order, node)));
        order += 1;
    }
    (0..counts.len())
        .map(|symbol| {
            if counts[symbol] == 0 {
                return 0;
            }
            let mut depth = 0u8;
            let mut node = symbol;
            while parent[node] != usize::MAX {
                node = parent[node];
                depth = depth.saturating_add(1);
            }
            depth
        })
        .collect()
}

/// Canonical Huffman codes for `lengths`, bit-reversed for LSB-first writing.
fn canonical_codes(lengths: &[u8]) -> Vec<u16> {
    let mut length_counts = [0u16; 16];
    for &length in lengths {
        length_counts[length as usize] += 1;
    }
    length_counts[0] = 0;
    let mut next = [0u16; 16];
    let mut code = 0u16;
    for bits in 1..16 {
        code = (code + length_counts[bits - 1]) << 1;
        next[bits] = code;
    }
    lengths
        .iter()
        .map(|&length| {
            if length == 0 {
                return 0;
            }
            let code = next[length as usize];
            next[length as usize] += 1;
            code.reverse_bits() >> (16 - length)
        })
        .collect()
}

/// Writes bits least-significant first, as DEFLATE wants.
#[derive(Default)]
struct BitWriter {
    bytes: Vec<u8>,
    buffer: u64,
    filled: u32,
}

impl BitWriter {
    fn bits(&mut self, value: u32, count: u8) {
        self.buffer |= (value as u64) << self.filled;
        self.filled += count as u32;
        while self.filled >= 8 {
            self.bytes.push(self.buffer as u8);
            self.buffer >>= 8;
            self.filled -= 8;
        }
    }

    /// Appends the first `bit_count` bits of `bits` (a block written by a
    /// writer of its own), setting its first bit when it is the `last` block.
    fn append(&mut self, bits: &[u8], bit_count: usize, last: bool) {
        let whole = bit_count / 8;
        let mut words = bits[..whole].chunks_exact(4);
        let mut first = true;
        let mark = |value: u32, first: &mut bool| {
            let marked = if *first && last { value | 1 } else { value };
            *first = false;
            marked
        };
        for word in &mut words {
            let value = u32::from_le_bytes([word[0], word[1], word[2], word[3]]);
            let value = mark(value, &mut first);
            self.bits(value, 32);
        }
        for &byte in words.remainder() {
            let value = mark(byte as u32, &mut first);
            self.bits(value, 8);
        }
        let rest = (bit_count % 8) as u8;
        if rest > 0 {
            let value = mark(bits[whole] as u32 & ((1 << rest) - 1), &mut first);
            self.bits(value, rest);
        }
    }

    fn code(&mut self, code: u16, length: u8) {
        self.bits(code as u32, length);
    }

    fn flush(&mut self) {
        if self.filled > 0 {
            self.bytes.push(self.buffer as u8);
        }
        self.buffer = 0;
        self.filled = 0;
    }
}

/// The Adler-32 checksum zlib streams end with.
fn adler32(data: &[u8]) -> u32 {
    const MODULUS: u64 = 65521;
    const LANES: usize = 32;
    // Over a chunk of 32-byte blocks, `a` grows by every byte and `b` by `a`
    // after every byte. Per lane (byte i of each block) two sums are kept, which
    // the compiler vectorises: `sums[i]`, the lane's bytes so far, and
    // `before[i]`, the total of `sums[i]` before each block. Then
    // b grows by 32·(blocks·a + Σ before) + Σ (32 − i)·sums[i]. 5536 bytes keep
    // every sum within u32.
    let (mut a, mut b) = (1u64, 0u64);
    for chunk in data.chunks(5536) {
        let mut blocks = chunk.chunks_exact(LANES);
        let mut sums = [0u32; LANES];
        let mut before = [0u32; LANES];
        let mut count = 0u64;
        for block in &mut blocks {
            for i in 0..LANES {
                before[i] += sums[i];
                sums[i] += block[i] as u32;
            }
            count += 1;
        }
        let lane_total: u64 = sums.iter().map(|&s| s as u64).sum();
        let before_total: u64 = before.iter().map(|&s| s as u64).sum();
        let weighted: u64 = sums
            .iter()
            .enumerate()
            .map(|(i, &s)| (LANES - i) as u64 * s as u64)
            .sum();
        b += LANES as u64 * (count * a + before_total) + weighted;
        a += lane_total;
        for &byte in blocks.remainder() {
            a += byte as u64;
            b += a;
        }
        a %= MODULUS;
        b %= MODULUS;
    }
    ((b << 16) | a) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(data: &[u8], distances: &[usize]) {
        let compressed = zlib(data, distances);
        let restored =
            miniz_oxide::inflate::decompress_to_vec_zlib(&compressed).expect("a valid zlib stream");
        assert_eq!(restored, data);
    }

    #[test]
    fn bands_round_trip_and_reuse_gives_the_same_stream() {
        // Rows of "squares" (runs of 80) whose bands repeat.
        let row =
            |shade: u8| -> Vec<u8> { (0..693u32).map(|i| shade ^ ((i / 80) % 2) as u8).collect() };
        let mut image = Vec::new();
        for band in 0..6u8 {
            for _ in 0..40 {
                image.extend(row(band % 3));
            }
        }
        let bands: Vec<usize> = (0..6).map(|b| b * 40 * 693).collect();
        let first = zlib_banded(&image, &[1, 80, 693], &bands);
        let again = zlib_banded(&image, &[1, 80, 693], &bands);
        assert_eq!(first, again, "remembered bands code the same stream");
        let restored = miniz_oxide::inflate::decompress_to_vec_zlib(&first).expect("valid");
        assert_eq!(restored, image);
        // Bands out of order or beyond the end are harmless.
        let odd = zlib_banded(&image, &[1, 693], &[image.len() + 5, 3 * 693, 0, 17]);
        let restored = miniz_oxide::inflate::decompress_to_vec_zlib(&odd).expect("valid");
        assert_eq!(restored, image);
    }

    #[test]
    fn remembered_tokens_are_used_only_for_the_band_they_decode_to() {
        let a: Vec<u8> = (0..500u32).map(|i| (i / 7) as u8).collect();
        let mut b = a.clone();
        b[250] ^= 1;
        let tokens = parse(&a, &[1, 7, 50]);
        assert!(reproduces(&tokens, &a));
        assert!(!reproduces(&tokens, &b), "one changed byte is caught");
        assert!(!reproduces(&tokens, &a[..499]), "a shorter band is caught");
        assert!(
            !reproduces(&[backref(3, 1)], &[5, 5, 5]),
            "no copy from before the band"
        );
    }

    #[test]
    fn round_trips_runs_rows_and_noise() {
        round_trip(b"", &[1]);
        round_trip(b"a", &[1]);
        round_trip(&[7; 100_000], &[1, 300]);
        let mut pseudo_random = Vec::new();
        let mut state = 12345u32;
        for _ in 0..50_000 {
            state = state.wrapping_mul(1_103_515_245).wrapping_add(12345);
            pseudo_random.push((state >> 24) as u8 % 7);
        }
        round_trip(&pseudo_random, &[1, 2, 3, 80, 160, 693]);
        let rows: Vec<u8> = (0..40_000u32).map(|i| ((i % 693) / 80) as u8).collect();
        round_trip(&rows, &[1, 80, 693]);
    }

    #[test]
    fn symbol_tables_agree_with_the_bases() {
        for length in MIN_MATCH..=MAX_MATCH {
            let expected = LENGTH_BASE.partition_point(|&base| base as usize <= length) - 1;
            assert_eq!(length_symbol(length), expected, "length {length}");
        }
        for distance in 1..=WINDOW {
            let expected = DISTANCE_BASE.partition_point(|&base| base as usize <= distance) - 1;
            assert_eq!(distance_symbol(distance), expected, "distance {distance}");
        }
    }

    #[test]
    fn adler32_matches_the_reference() {
        // The example from RFC 1950's reference implementation, and a long run.
        assert_eq!(adler32(b"Wikipedia"), 0x11E6_0398);
        let long: Vec<u8> = (0..100_000u32).map(|i| (i * 7 % 251) as u8).collect();
        let (mut a, mut b) = (1u32, 0u32);
        for &byte in &long {
            a = (a + byte as u32) % 65521;
            b = (b + a) % 65521;
        }
        assert_eq!(adler32(&long), (b << 16) | a);
    }

    #[test]
    fn every_symbol_used_still_fits_fifteen_bits() {
        let data: Vec<u8> = (0..=255u8)
            .cycle()
            .take(70_000)
            .enumerate()
            .map(|(i, b)| b ^ (i / 256) as u8)
            .collect();
        round_trip(&data, &[1, 256, 512]);
    }
}
