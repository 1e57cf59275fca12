//! Magic bitboards for the full 8×8 board: the squares an unlimited rider
//! along the four orthogonal (rook) or four diagonal (bishop) lines reaches,
//! by one multiplication and one lookup instead of a walk per line. Used by
//! the rules only where a piece's riders include a whole set of four lines on
//! an 8×8 board with every square; every other rider keeps the ray tables.
//! Built once per process, on first use, from fixed magic numbers.

use std::sync::OnceLock;

/// The magic entry of one square.
#[derive(Clone, Copy, Default)]
struct Entry {
    /// The blockers that matter (the line without its last square).
    mask: u64,
    magic: u64,
    shift: u32,
    /// Start of this square's slice of [`Magics::table`].
    offset: u32,
}

/// Rook and bishop attack tables for 8×8.
pub struct Magics {
    rook: [Entry; 64],
    bishop: [Entry; 64],
    table: Vec<u64>,
    /// `[a * 64 + b]`: the squares strictly between `a` and `b` on a common
    /// line (rank, file or diagonal); empty when they share none.
    between: Vec<u64>,
}

const ROOK_STEPS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_STEPS: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

/// The squares reached from `sq` along `steps`, each line stopping at the first occupied square.
fn walk(sq: usize, occupied: u64, steps: &[(i32, i32); 4]) -> u64 {
    let mut out = 0u64;
    for &(dx, dy) in steps {
        let (mut f, mut r) = ((sq % 8) as i32, (sq / 8) as i32);
        loop {
            f += dx;
            r += dy;
            if !(0..8).contains(&f) || !(0..8).contains(&r) {
                break;
            }
            let to = (r * 8 + f) as usize;
            out |= 1 << to;
            if occupied >> to & 1 != 0 {
                break;
            }
        }
    }
    out
}

/// The blockers that matter from `sq`: every line without its edge square.
fn relevant(sq: usize, steps: &[(i32, i32); 4]) -> u64 {
    let mut out = 0u64;
    for &(dx, dy) in steps {
        let (mut f, mut r) = ((sq % 8) as i32, (sq / 8) as i32);
        loop {
            let (nf, nr) = (f + dx, r + dy);
            if !(0..8).contains(&(nf + dx)) || !(0..8).contains(&(nr + dy)) {
                break;
            }
            f = nf;
            r = nr;
            out |= 1 << (r * 8 + f);
        }
    }
    out
}

/// Rook magics, one per square (found once by a search over sparse random
/// numbers; any multiplier without destructive collisions will do).
const ROOK_MAGICS: [u64; 64] = [
    0x1180004000E08110,
    0x3840100040002000,
    0x8680200008801000,
    0x0100100020040900,
    0x00800800A64C0080,
    0x0500010002240028,
    0x0480008001000200,
    0x070001000288C4AA,
    0x0000802040008002,
    0x0A00400020005000,
    0x2108802000801000,
    0x0000800800801000,
    0x0011000801001004,
    0x000E000200241028,
    0x0086000402000801,
    0x0002000402144C81,
    0x808000C020004008,
    0x005048C000201000,
    0x0410110020004502,
    0x00100A0040120020,
    0x8005010004080012,
    0x0080808004000200,
    0x000C940022100148,
    0x0108020000812C44,
    0x20800141C0006004,
    0x03C0200040100044,
    0x0000100080200081,
    0x0104B90100100222,
    0x9000240280080080,
    0x0018040080800200,
    0x0008080400010270,
    0x8000090600026284,
    0x0000400020800081,
    0x1240004080802000,
    0x1E04190041002001,
    0x0020800802801000,
    0x8008020040400400,
    0x2402000280800400,
    0x0848425004000108,
    0xC100800869800300,
    0x1000208040008000,
    0x8060003000404001,
    0x8120050010410020,
    0x90C0082200120040,
    0x0402008810060020,
    0x0081000400090002,
    0x0001421081040048,
    0x005041005492000C,
    0x0080002000400040,
    0x0201002040008100,
    0x4880102042008200,
    0x0200A10010000B00,
    0x0801000410080100,
    0x0010020080040080,
    0x0242800100020080,
    0x0040142050810200,
    0x1200201080010041,
    0x8142112201094082,
    0x002001000C104021,
    0x40150004D0002109,
    0x090201200410C802,
    0x004A0004411008A2,
    0x1080022081104804,
    0x8180010080441022,
];

/// Bishop magics, one per square.
const BISHOP_MAGICS: [u64; 64] = [
    0x0108202400802304,
    0x1090010800989004,
    0x00C2208311004000,
    0x0024050201410020,
    0x8401104050002800,
    0x0023100211200082,
    0x0041080844040000,
    0x2001040882080200,
    0x04101110100084A0,
    0x0010040102620200,
    0x0010840810810028,
    0x0480282841000020,
    0x0000020210000584,
    0x10184201242280A0,
    0x002D008210508400,
    0x0162070409040228,
    0x80900008B0108080,
    0x2004801041080108,
    0x22422010040610A0,
    0x2028002402420A18,
    0x00020084030C0082,
    0x000500008080C030,
    0x0812000088040301,
    0x1404220114011420,
    0x001040050A680110,
    0x2A04200010020080,
    0x4808081004002020,
    0x0AA4010080200880,
    0x80B0840000802010,
    0xB000802012021000,
    0x8002008040441000,
    0x0001002001040101,
    0x1042082004042004,
    0x0001010800501080,
    0x5002002200302480,
    0x0810400820360200,
    0x0000408020120200,
    0x0042020200041040,
    0x003220A902140420,
    0x0042141020204200,
    0x00208404400E2288,
    0x0802861022001084,
    0x0002010041004808,
    0x01120C2128000405,
    0x4041087900400400,
    0x5240102400E00844,
    0x800288080100E086,
    0x0032848401020084,
    0x4020480808080004,
    0x0088410808A20090,
    0x0008020222090000,
    0x0400020108482010,
    0x08208288103400D2,
    0x0008082064042081,
    0x0220204129012500,
    0x0810101101002802,
    0x0011008070080400,
    0x0100420244042500,
    0x021204024208D020,
    0x0020000000208840,
    0x443A000150204848,
    0x0440800410020210,
    0x1002400809056200,
    0x0104182224140410,
];

/// Fills `table` for every square from `magics` (shift: the bits of the mask).
fn build(steps: &[(i32, i32); 4], magics: &[u64; 64], table: &mut Vec<u64>) -> [Entry; 64] {
    let mut entries = [Entry::default(); 64];
    for (sq, entry) in entries.iter_mut().enumerate() {
        let mask = relevant(sq, steps);
        let bits = mask.count_ones();
        let shift = 64 - bits;
        let magic = magics[sq];
        let offset = table.len();
        table.resize(offset + (1 << bits), u64::MAX);
        // Every subset of the mask (carry-rippler).
        let mut subset = 0u64;
        loop {
            let attacks = walk(sq, subset, steps);
            let slot = &mut table[offset + (subset.wrapping_mul(magic) >> shift) as usize];
            assert!(*slot == u64::MAX || *slot == attacks, "bad magic");
            *slot = attacks;
            subset = subset.wrapping_sub(mask) & mask;
            if subset == 0 {
                break;
            }
        }
        *entry = Entry {
            mask,
            magic,
            shift,
            offset: offset as u32,
        };
    }
    entries
}

impl Magics {
    /// The tables, built on first use.
    pub fn get() -> &'static Magics {
        static MAGICS: OnceLock<Magics> = OnceLock::new();
        MAGICS.get_or_init(|| {
            let mut table = Vec::with_capacity(107_648);
            let rook = build(&ROOK_STEPS, &ROOK_MAGICS, &mut table);
            let bishop = build(&BISHOP_STEPS, &BISHOP_MAGICS, &mut table);
            let mut between = vec![0u64; 64 * 64];
            for a in 0..64 {
                for &(dx, dy) in ROOK_STEPS.iter().chain(&BISHOP_STEPS) {
                    let (mut f, mut r) = ((a % 8) as i32, (a / 8) as i32);
                    let mut passed = 0u64;
                    loop {
                        f += dx;
                        r += dy;
                        if !(0..8).contains(&f) || !(0..8).contains(&r) {
                            break;
                        }
                        let b = (r * 8 + f) as usize;
                        between[a * 64 + b] = passed;
                        passed |= 1 << b;
                    }
                }
            }
            Magics {
                rook,
                bishop,
                table,
                between,
            }
        })
    }

    #[inline(always)]
    fn lookup(&self, e: &Entry, occupied: u64) -> u64 {
        let i = e.offset as usize + ((occupied & e.mask).wrapping_mul(e.magic) >> e.shift) as usize;
        self.table[i]
    }

    /// The squares a rook on `sq` reaches (the first blocker of each line included).
    #[inline(always)]
    pub fn rook(&self, sq: usize, occupied: u64) -> u64 {
        self.lookup(&self.rook[sq & 63], occupied)
    }

    /// The squares a bishop on `sq` reaches (the first blocker of each line included).
    #[inline(always)]
    pub fn bishop(&self, sq: usize, occupied: u64) -> u64 {
        self.lookup(&self.bishop[sq & 63], occupied)
    }

    /// The squares strictly between `a` and `b` if they share a line, else none.
    #[inline(always)]
    pub fn between(&self, a: usize, b: usize) -> u64 {
        self.between[(a & 63) * 64 + (b & 63)]
    }

    /// The step vectors of the rook's lines.
    pub const ROOK_STEPS: [(i32, i32); 4] = ROOK_STEPS;
    /// The step vectors of the bishop's lines.
    pub const BISHOP_STEPS: [(i32, i32); 4] = BISHOP_STEPS;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magics_match_walking_the_lines() {
        let m = Magics::get();
        let mut x = 12345u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for sq in 0..64 {
            for _ in 0..200 {
                let occ = next() & next();
                assert_eq!(m.rook(sq, occ), walk(sq, occ, &ROOK_STEPS));
                assert_eq!(m.bishop(sq, occ), walk(sq, occ, &BISHOP_STEPS));
            }
        }
    }
}
