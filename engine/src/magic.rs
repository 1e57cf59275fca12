//! Magic bitboards for the full 8×8 board: the squares an unlimited rider
//! along the four orthogonal (rook) or four diagonal (bishop) lines reaches,
//! by one multiplication and one lookup instead of a walk per line. Used by
//! the rules only where a piece's riders include a whole set of four lines on
//! an 8×8 board with every square; every other rider keeps the ray tables.
//! Built once per process, on first use, from a fixed seed.

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

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

/// Finds a magic for every square and fills `table`.
fn build(steps: &[(i32, i32); 4], table: &mut Vec<u64>, rng: &mut Rng) -> [Entry; 64] {
    let mut entries = [Entry::default(); 64];
    let mut occupancies = Vec::with_capacity(4096);
    let mut attacks = Vec::with_capacity(4096);
    let mut used = vec![0u64; 4096];
    let mut epoch = vec![0u32; 4096];
    let mut round = 0u32;
    for (sq, entry) in entries.iter_mut().enumerate() {
        let mask = relevant(sq, steps);
        let bits = mask.count_ones();
        occupancies.clear();
        attacks.clear();
        // Every subset of the mask (carry-rippler).
        let mut subset = 0u64;
        loop {
            occupancies.push(subset);
            attacks.push(walk(sq, subset, steps));
            subset = subset.wrapping_sub(mask) & mask;
            if subset == 0 {
                break;
            }
        }
        let size = 1usize << bits;
        let shift = 64 - bits;
        let magic = loop {
            let magic = rng.sparse();
            if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
                continue;
            }
            round += 1;
            let ok = occupancies.iter().zip(&attacks).all(|(&occ, &att)| {
                let i = (occ.wrapping_mul(magic) >> shift) as usize;
                if epoch[i] != round {
                    epoch[i] = round;
                    used[i] = att;
                    true
                } else {
                    used[i] == att
                }
            });
            if ok {
                break magic;
            }
        };
        let offset = table.len();
        table.resize(offset + size, 0);
        for (&occ, &att) in occupancies.iter().zip(&attacks) {
            table[offset + (occ.wrapping_mul(magic) >> shift) as usize] = att;
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
            let mut rng = Rng(0x6B6F_6465_786D_6167);
            let mut table = Vec::with_capacity(107_648);
            let rook = build(&ROOK_STEPS, &mut table, &mut rng);
            let bishop = build(&BISHOP_STEPS, &mut table, &mut rng);
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
        let mut rng = Rng(12345);
        for sq in 0..64 {
            for _ in 0..200 {
                let occ = rng.next() & rng.next();
                assert_eq!(m.rook(sq, occ), walk(sq, occ, &ROOK_STEPS));
                assert_eq!(m.bishop(sq, occ), walk(sq, occ, &BISHOP_STEPS));
            }
        }
    }
}
