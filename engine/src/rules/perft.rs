//! Perft: counting the leaf nodes of the move tree, the measure of move generation.

use super::{Position, Rules};
use crate::bitboard::Bits;
use crate::moves::MoveList;

impl<'a, B: Bits> Rules<'a, B> {
    /// Counts leaf nodes `depth` plies deep (perft), with bulk counting at depth 1.
    pub fn perft(&self, pos: &Position<B>, depth: u32, buffers: &mut Vec<MoveList>) -> u64 {
        if depth == 0 {
            return 1;
        }
        if depth == 1 {
            if let Some(n) = self.count_legal(pos) {
                return n;
            }
        }
        let level = depth as usize;
        while buffers.len() <= level {
            buffers.push(MoveList::with_capacity(64));
        }
        let mut list = std::mem::take(&mut buffers[level]);
        self.legal_moves(pos, &mut list);
        let nodes = if depth == 1 {
            list.len() as u64
        } else {
            let mut total = 0;
            for &mv in &list {
                let mut next = *pos;
                self.make(&mut next, mv);
                total += self.perft(&next, depth - 1, buffers);
            }
            total
        };
        buffers[level] = list;
        nodes
    }
}
