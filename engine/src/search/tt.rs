//! The transposition table: a fixed-size array of results keyed by the
//! board's Zobrist hash, replaced by depth (deeper results stay, results of
//! an older search give way).

use crate::moves::Move;

/// What a stored score says about the true score.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum Bound {
    /// The score is exact.
    Exact,
    /// The true score is at least this (a beta cut-off).
    Lower,
    /// The true score is at most this (no move reached alpha).
    Upper,
}

/// One stored result.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Entry {
    pub key: u64,
    pub best: Option<Move>,
    pub score: i32,
    pub depth: i16,
    pub bound: Bound,
    generation: u8,
}

/// A fixed-size table of [`Entry`]s.
pub(crate) struct TranspositionTable {
    entries: Vec<Option<Entry>>,
    generation: u8,
}

impl TranspositionTable {
    /// A table of about `megabytes` MB (at least one entry).
    pub fn new(megabytes: usize) -> TranspositionTable {
        let size = std::mem::size_of::<Option<Entry>>().max(1);
        let count = (megabytes.max(1) * 1024 * 1024 / size).max(1);
        TranspositionTable {
            entries: vec![None; count],
            generation: 0,
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.entries.iter_mut().for_each(|e| *e = None);
        self.generation = 0;
    }

    /// Starts a new search: older entries give way first.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        // Multiply-shift maps the hash onto the table without a division.
        ((key as u128 * self.entries.len() as u128) >> 64) as usize
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.entries[self.index(key)].filter(|e| e.key == key)
    }

    /// Stores a result, unless a deeper one of this search holds the slot.
    #[inline]
    pub fn store(&mut self, key: u64, best: Option<Move>, score: i32, depth: i32, bound: Bound) {
        let generation = self.generation;
        let index = self.index(key);
        let slot = &mut self.entries[index];
        if let Some(old) = slot {
            let replace = old.key == key
                || old.generation != generation
                || depth as i16 >= old.depth
                || bound == Bound::Exact;
            if !replace {
                return;
            }
        }
        // Keep the old best move when the new result has none for the same position.
        let best = best.or_else(|| slot.filter(|e| e.key == key).and_then(|e| e.best));
        *slot = Some(Entry {
            key,
            best,
            score,
            depth: depth.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            bound,
            generation,
        });
    }
}
