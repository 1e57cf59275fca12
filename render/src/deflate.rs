//! A DEFLATE (zlib) compressor made for board images.
//!
//! A board image repeats itself in known ways: runs of one colour, the row
//! above, and the same tile one or more squares to the left. Trying exactly
//! those distances finds nearly every match a general compressor finds by
//! hashing, at a fraction of the cost. The matches are then coded in one
//! dynamic-Huffman block.

/// The longest match DEFLATE can express.
const MAX_MATCH: usize = 258;
/// The shortest match worth coding.
const MIN_MATCH: usize = 3;
/// The farthest back a match may reach.
const WINDOW: usize = 32 * 1024;

/// `data` compressed as a zlib stream, trying matches at `distances` (each in 1..=32768),
/// most promising first: a full-length match stops the search.
pub(crate) fn zlib(data: &[u8], distances: &[usize]) -> Vec<u8> {
    let tokens = parse(data, distances);
    let mut out = BitWriter::default();
    // zlib header: deflate, 32 KiB window, no dictionary, "fastest" level hint.
    out.bytes.extend_from_slice(&[0x78, 0x01]);
    write_block(&mut out, &tokens);
    out.flush();
    out.bytes.extend_from_slice(&adler32(data).to_be_bytes());
    out.bytes
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

/// Finds matches greedily, with one step of lazy evaluation.
fn parse(data: &[u8], distances: &[usize]) -> Vec<Token> {
    let mut unique: Vec<usize> = Vec::with_capacity(distances.len());
    for &distance in distances {
        if (1..=WINDOW).contains(&distance) && !unique.contains(&distance) {
            unique.push(distance);
        }
    }
    let distances = unique;
    let mut tokens = Vec::with_capacity(data.len() / 16);
    let mut position = 0;
    while position < data.len() {
        let (length, distance) = best_match(data, position, &distances);
        if length >= MIN_MATCH {
            // If the next byte starts a clearly longer match, take a literal first.
            if length < 32 && position + 1 < data.len() {
                let (next_length, _) = best_match(data, position + 1, &distances);
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

fn length_symbol(length: usize) -> usize {
    LENGTH_BASE.partition_point(|&base| base as usize <= length) - 1
}

fn distance_symbol(distance: usize) -> usize {
    DISTANCE_BASE.partition_point(|&base| base as usize <= distance) - 1
}

fn write_block(out: &mut BitWriter, tokens: &[Token]) {
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

    out.bits(1, 1); // the final block
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
    const MODULUS: u32 = 65521;
    // Sums of 32-byte blocks (which the compiler vectorises): over a block, `a`
    // grows by the bytes' sum and `b` by 32·a plus the bytes weighted 32, 31, … 1.
    // 5536 bytes (a multiple of 32) is within the 5552 before the sums may overflow.
    let (mut a, mut b) = (1u32, 0u32);
    for chunk in data.chunks(5536) {
        let mut blocks = chunk.chunks_exact(32);
        for block in &mut blocks {
            let mut sum = 0u32;
            let mut weighted = 0u32;
            for (i, &byte) in block.iter().enumerate() {
                sum += byte as u32;
                weighted += (32 - i as u32) * byte as u32;
            }
            b += 32 * a + weighted;
            a += sum;
        }
        for &byte in blocks.remainder() {
            a += byte as u32;
            b += a;
        }
        a %= MODULUS;
        b %= MODULUS;
    }
    (b << 16) | a
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
