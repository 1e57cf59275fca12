//! Perft: counting the leaf nodes of the move tree, the measure of move generation.

use super::{Position, Rules};
use crate::bitboard::Bits;
use crate::moves::MoveList;

impl<'a, B: Bits> Rules<'a, B> {
    /// Counts leaf nodes `depth` plies deep (perft), with bulk counting at depth 1.
    pub fn perft(&self, pos: &Position<B>, depth: u32, buffers: &mut Vec<MoveList>) -> u64 {
        self.perft_until(pos, depth, buffers, &|| false)
            .unwrap_or_else(|counted| counted)
    }

    /// [`Rules::perft`] that gives up once `stopped` says so, with the
    /// leaves counted until then (`Err`). It is asked at every node whose
    /// moves are counted one by one (depth 2 and more), never for the last
    /// ply, which is counted in bulk: a perft of depth 1 always finishes.
    /// The recursion is `depth` calls deep.
    pub fn perft_until(
        &self,
        pos: &Position<B>,
        depth: u32,
        buffers: &mut Vec<MoveList>,
        stopped: &impl Fn() -> bool,
    ) -> Result<u64, u64> {
        if depth == 0 {
            return Ok(1);
        }
        if depth == 1 {
            if let Some(n) = self.count_legal(pos) {
                return Ok(n);
            }
        } else if stopped() {
            return Err(0);
        }
        let level = depth as usize;
        while buffers.len() <= level {
            buffers.push(MoveList::with_capacity(64));
        }
        let mut list = std::mem::take(&mut buffers[level]);
        self.legal_moves(pos, &mut list);
        let nodes = if depth == 1 {
            Ok(list.len() as u64)
        } else {
            let mut total = 0;
            let mut complete = true;
            for &mv in &list {
                let mut next = *pos;
                self.make(&mut next, mv);
                match self.perft_until(&next, depth - 1, buffers, stopped) {
                    Ok(n) => total += n,
                    Err(n) => {
                        total += n;
                        complete = false;
                        break;
                    }
                }
            }
            if complete {
                Ok(total)
            } else {
                Err(total)
            }
        };
        buffers[level] = list;
        nodes
    }
}
