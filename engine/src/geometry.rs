//! Board geometry: rectangular boards of any size up to 16×16, with squares
//! that may not exist (the corners of the four-handed cross, citadels).
//!
//! Square index = `rank * files + file`; rank 0 is the first player's edge.
//! Names are `a1`, `b2`, … `a10` (no file letter skipped).

/// The shape of a board.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Geometry {
    /// Number of files (columns), 1–16.
    pub files: u8,
    /// Number of ranks (rows), 1–16.
    pub ranks: u8,
    exists: Vec<bool>,
}

impl Geometry {
    /// A full rectangular board.
    pub fn rectangle(files: u8, ranks: u8) -> Geometry {
        Geometry {
            files,
            ranks,
            exists: vec![true; files as usize * ranks as usize],
        }
    }

    /// Removes `square` from the board.
    pub fn remove(&mut self, square: usize) {
        if let Some(e) = self.exists.get_mut(square) {
            *e = false;
        }
    }

    /// Number of square indices (including ones that do not exist).
    #[inline]
    pub fn size(&self) -> usize {
        self.exists.len()
    }

    /// Whether `square` exists on the board.
    #[inline]
    pub fn exists(&self, square: usize) -> bool {
        self.exists.get(square).copied().unwrap_or(false)
    }

    /// The square at `file`, `rank` if it exists.
    #[inline]
    pub fn square(&self, file: i32, rank: i32) -> Option<usize> {
        if file < 0 || rank < 0 || file >= self.files as i32 || rank >= self.ranks as i32 {
            return None;
        }
        let square = rank as usize * self.files as usize + file as usize;
        self.exists[square].then_some(square)
    }

    /// The file (0-based) of `square`.
    #[inline]
    pub fn file_of(&self, square: usize) -> i32 {
        (square % self.files as usize) as i32
    }

    /// The rank (0-based) of `square`.
    #[inline]
    pub fn rank_of(&self, square: usize) -> i32 {
        (square / self.files as usize) as i32
    }

    /// The square `df` files and `dr` ranks away, if it exists.
    #[inline]
    pub fn offset(&self, square: usize, df: i32, dr: i32) -> Option<usize> {
        self.square(self.file_of(square) + df, self.rank_of(square) + dr)
    }

    /// The name of `square` (`e4`, `a10`).
    pub fn name(&self, square: usize) -> String {
        let file = (b'a' + self.file_of(square) as u8) as char;
        format!("{file}{}", self.rank_of(square) + 1)
    }

    /// Reads a square name at the start of `text`, returning the square and the
    /// number of bytes read. `a10` is read whole on boards with ten ranks.
    pub fn parse_prefix(&self, text: &str) -> Option<(usize, usize)> {
        let bytes = text.as_bytes();
        let file = *bytes.first()?;
        if !file.is_ascii_lowercase() {
            return None;
        }
        let file = (file - b'a') as i32;
        let mut len = 1;
        let mut rank: i32 = 0;
        while len < bytes.len() && len <= 2 && bytes[len].is_ascii_digit() {
            let next = rank * 10 + (bytes[len] - b'0') as i32;
            if next > self.ranks as i32 || (len == 1 && next == 0) {
                break;
            }
            rank = next;
            len += 1;
        }
        if rank == 0 {
            return None;
        }
        self.square(file, rank - 1).map(|sq| (sq, len))
    }

    /// Reads a whole square name.
    pub fn parse(&self, text: &str) -> Option<usize> {
        match self.parse_prefix(text) {
            Some((square, len)) if len == text.len() => Some(square),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_past_rank_nine() {
        let g = Geometry::rectangle(10, 10);
        let a10 = g.parse("a10").unwrap();
        assert_eq!(g.rank_of(a10), 9);
        assert_eq!(g.name(a10), "a10");
        assert_eq!(g.parse_prefix("a10b9"), Some((a10, 3)));
        assert_eq!(g.parse("j1"), Some(9));
        assert_eq!(g.parse("k1"), None);
        assert_eq!(g.parse("a11"), None);
        assert_eq!(g.parse("a0"), None);
        let g8 = Geometry::rectangle(8, 8);
        assert_eq!(g8.parse_prefix("e10"), Some((g8.parse("e1").unwrap(), 2)));
    }

    #[test]
    fn holes_do_not_exist() {
        let mut g = Geometry::rectangle(14, 14);
        g.remove(0);
        assert!(!g.exists(0));
        assert_eq!(g.square(0, 0), None);
        assert_eq!(g.offset(15, -1, -1), None);
        assert_eq!(g.offset(15, 0, -1), Some(1));
    }
}
