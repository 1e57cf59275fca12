//! Board geometry: rectangular boards of any size up to 16×16, with squares
//! that may not exist (the corners of the four-handed cross, citadels).
//!
//! Square index = `rank * files + file`; rank 0 is the first player's edge.
//! Names are `a1`, `b2`, … `a10` (no file letter skipped) unless the variant
//! names its files itself ([`Geometry::with_file_letters`]: four-handed chess
//! skips `j`, as its seed does).
//!
//! Two spellings of a square: [`Geometry::name`] is what people read and type
//! (the variant's own letters); [`Geometry::uci_name`] is the machine's
//! (UCI, stored game records): files `a`, `b`, … by index, never skipping a
//! letter, so a record stays readable whatever the people's letters are. The
//! two differ only on a rectangle with its own file letters; on the hexagon
//! both are Gliński's.
//!
//! A hexagonal board ([`Geometry::hexagon`], Gliński's 91 cells) keeps the
//! same index: file = q + 5 and rank = r + 5 for axial coordinates (q, r)
//! with |q|, |r|, |q + r| ≤ 5, so a hexagonal step is a constant (file, rank)
//! offset; the 30 cells of the 11 × 11 rectangle outside the hexagon are
//! holes. Names follow Gliński: files a–l without j, each file counted from
//! its own bottom cell (a1–a6, f1–f11, l1–l6).

/// The shape of a board.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Geometry {
    /// Number of files (columns), 1–16.
    pub files: u8,
    /// Number of ranks (rows), 1–16.
    pub ranks: u8,
    exists: Vec<bool>,
    hex: bool,
    /// The people's file letters, when they are not `a`, `b`, … in order.
    letters: Option<Vec<u8>>,
}

/// Gliński's file letters: no `j`.
const HEX_FILES: &[u8; 11] = b"abcdefghikl";

impl Geometry {
    /// A full rectangular board.
    pub fn rectangle(files: u8, ranks: u8) -> Geometry {
        Geometry {
            files,
            ranks,
            exists: vec![true; files as usize * ranks as usize],
            hex: false,
            letters: None,
        }
    }

    /// Names the files with `letters` (one distinct lower-case ASCII letter
    /// per file, in order) instead of `a`, `b`, …; an error says why not.
    pub fn with_file_letters(mut self, letters: &str) -> Result<Geometry, String> {
        let bytes = letters.as_bytes();
        if self.hex {
            return Err("the hexagon's files are Gliński's".into());
        }
        if bytes.len() != self.files as usize {
            return Err(format!(
                "{} letters for {} files",
                letters.chars().count(),
                self.files
            ));
        }
        if !bytes.iter().all(u8::is_ascii_lowercase) {
            return Err("file letters are lower-case a-z".into());
        }
        if (1..bytes.len()).any(|i| bytes[..i].contains(&bytes[i])) {
            return Err("a file letter is repeated".into());
        }
        self.letters = Some(bytes.to_vec());
        Ok(self)
    }

    /// Whether people name the files differently from the machine
    /// ([`Geometry::name`] differs from [`Geometry::uci_name`]).
    #[inline]
    pub fn has_own_file_letters(&self) -> bool {
        self.letters.is_some()
    }

    /// Gliński's hexagonal board: 91 cells on an 11 × 11 index (see the module notes).
    pub fn hexagon() -> Geometry {
        let mut g = Geometry::rectangle(11, 11);
        g.hex = true;
        for square in 0..g.size() {
            let sum = g.file_of(square) + g.rank_of(square);
            if !(5..=15).contains(&sum) {
                g.remove(square);
            }
        }
        g
    }

    /// Whether the board is hexagonal: steps are axial (q, r) vectors.
    #[inline]
    pub fn is_hex(&self) -> bool {
        self.hex
    }

    /// The rank of `square` counted from `side`'s edge (1 = its first rank).
    /// On the hexagon it is counted along the file from the far border
    /// (11 there), so that the chevron of pawns stands on one rank (5).
    #[inline]
    pub fn relative_rank(&self, side: usize, square: usize) -> u8 {
        let rank = self.rank_of(square);
        if self.hex {
            let q = self.file_of(square) - 5;
            return if side == 0 {
                (rank + q.max(0) + 1) as u8
            } else {
                (11 - rank - q.min(0)) as u8
            };
        }
        if side == 0 {
            rank as u8 + 1
        } else {
            self.ranks - rank as u8
        }
    }

    /// Gliński's rank (0-based, from the file's bottom cell) of a hexagonal index.
    fn hex_rank(&self, square: usize) -> i32 {
        self.rank_of(square) + (self.file_of(square) - 5).min(0)
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

    /// The letter people read for a file index (`a` for 0; Gliński's
    /// letters, without `j`, on the hexagon; the variant's own letters).
    pub fn file_letter(&self, file: i32) -> char {
        if self.hex {
            return HEX_FILES[file.clamp(0, 10) as usize] as char;
        }
        if let Some(letters) = &self.letters {
            return letters[file.clamp(0, letters.len() as i32 - 1) as usize] as char;
        }
        Self::index_letter(file)
    }

    /// The machine's letter of a file index: `a` for 0, `b` for 1, ….
    fn index_letter(file: i32) -> char {
        (b'a' + file.clamp(0, 25) as u8) as char
    }

    /// The file index of a file letter people type, if the board has that file.
    pub fn file_index(&self, letter: u8) -> Option<i32> {
        let file = if self.hex {
            HEX_FILES.iter().position(|&c| c == letter)? as i32
        } else if let Some(letters) = &self.letters {
            letters.iter().position(|&c| c == letter)? as i32
        } else {
            letter.checked_sub(b'a')? as i32
        };
        (file < self.files as i32).then_some(file)
    }

    /// The rank number in `square`'s name (1-based): the rank on a
    /// rectangle, Gliński's rank within the file on the hexagon.
    pub fn rank_number(&self, square: usize) -> i32 {
        if self.hex {
            self.hex_rank(square) + 1
        } else {
            self.rank_of(square) + 1
        }
    }

    /// The name people read of `square` (`e4`, `a10`; `k1` for the tenth
    /// file where `j` is skipped).
    pub fn name(&self, square: usize) -> String {
        let file = self.file_letter(self.file_of(square));
        format!("{file}{}", self.rank_number(square))
    }

    /// The machine's name of `square` (UCI, stored records): files by index.
    pub fn uci_name(&self, square: usize) -> String {
        if self.hex {
            return self.name(square);
        }
        let file = Self::index_letter(self.file_of(square));
        format!("{file}{}", self.rank_of(square) + 1)
    }

    /// Reads a square name at the start of `text`, returning the square and the
    /// number of bytes read. `a10` is read whole on boards with ten ranks.
    pub fn parse_prefix(&self, text: &str) -> Option<(usize, usize)> {
        let file = self.file_index(*text.as_bytes().first()?)?;
        self.parse_rank(text, file)
    }

    /// Reads a machine's square name ([`Geometry::uci_name`]) at the start of
    /// `text`, like [`Geometry::parse_prefix`].
    pub fn parse_uci_prefix(&self, text: &str) -> Option<(usize, usize)> {
        if self.hex {
            return self.parse_prefix(text);
        }
        let file = text.as_bytes().first()?.checked_sub(b'a')? as i32;
        if file >= self.files as i32 {
            return None;
        }
        self.parse_rank(text, file)
    }

    /// Reads the rank after the file letter of a square name at the start of `text`.
    fn parse_rank(&self, text: &str, file: i32) -> Option<(usize, usize)> {
        let bytes = text.as_bytes();
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
        if self.hex {
            // Gliński's rank counts from the file's bottom cell.
            let index = rank - 1 - (file - 5).min(0);
            if index > 10 {
                return None;
            }
            return self.square(file, index).map(|sq| (sq, len));
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

    /// Reads a whole machine's square name ([`Geometry::uci_name`]).
    pub fn parse_uci(&self, text: &str) -> Option<usize> {
        match self.parse_uci_prefix(text) {
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
    fn hexagon_has_glinski_names() {
        let g = Geometry::hexagon();
        let cells: Vec<usize> = (0..g.size()).filter(|&s| g.exists(s)).collect();
        assert_eq!(cells.len(), 91);
        for &sq in &cells {
            assert_eq!(g.parse(&g.name(sq)), Some(sq), "{}", g.name(sq));
        }
        // Each file holds its cells 1..=len: a1–a6, f1–f11, l1–l6; no file j.
        for (letter, len) in "abcdefghikl"
            .chars()
            .zip([6, 7, 8, 9, 10, 11, 10, 9, 8, 7, 6])
        {
            assert!(g.parse(&format!("{letter}{len}")).is_some());
            assert!(g.parse(&format!("{letter}{}", len + 1)).is_none());
        }
        assert_eq!(g.parse("j1"), None);
        // f1 is the bottom cell of the middle file; f6 the centre.
        let f1 = g.parse("f1").unwrap();
        assert_eq!((g.file_of(f1), g.rank_of(f1)), (5, 0));
        let f6 = g.parse("f6").unwrap();
        assert_eq!((g.file_of(f6), g.rank_of(f6)), (5, 5));
        // The step (1, 0) goes up-right: e4 → f5, f5 → g5.
        let e4 = g.parse("e4").unwrap();
        assert_eq!(g.name(g.offset(e4, 1, 0).unwrap()), "f5");
        assert_eq!(
            g.name(g.offset(g.parse("f5").unwrap(), 1, 0).unwrap()),
            "g5"
        );
        // The pawn chevrons stand on relative rank 5, the far borders on 11.
        for name in ["b1", "c2", "d3", "e4", "f5", "g4", "h3", "i2", "k1"] {
            assert_eq!(g.relative_rank(0, g.parse(name).unwrap()), 5, "{name}");
        }
        for name in ["b7", "c7", "d7", "e7", "f7", "g7", "h7", "i7", "k7"] {
            assert_eq!(g.relative_rank(1, g.parse(name).unwrap()), 5, "{name}");
        }
        for name in [
            "a6", "b7", "c8", "d9", "e10", "f11", "g10", "h9", "i8", "k7", "l6",
        ] {
            assert_eq!(g.relative_rank(0, g.parse(name).unwrap()), 11, "{name}");
        }
        for name in ["a1", "c1", "f1", "k1", "l1"] {
            assert_eq!(g.relative_rank(1, g.parse(name).unwrap()), 11, "{name}");
        }
    }

    #[test]
    fn own_file_letters_name_squares_for_people_only() {
        let g = Geometry::rectangle(14, 14)
            .with_file_letters("abcdefghiklmno")
            .unwrap();
        assert!(g.has_own_file_letters());
        for sq in 0..g.size() {
            assert_eq!(g.parse(&g.name(sq)), Some(sq), "{}", g.name(sq));
            assert_eq!(g.parse_uci(&g.uci_name(sq)), Some(sq), "{}", g.uci_name(sq));
        }
        let k1 = g.parse("k1").unwrap();
        assert_eq!((g.file_of(k1), g.rank_of(k1)), (9, 0));
        assert_eq!(g.uci_name(k1), "j1");
        assert_eq!(g.parse("j1"), None);
        assert_eq!(g.parse("o14").map(|sq| g.uci_name(sq)), Some("n14".into()));
        assert_eq!(g.parse_uci("o1"), None);
        assert_eq!(g.file_letter(13), 'o');
        assert_eq!(g.file_index(b'j'), None);
        // A plain board reads both spellings alike.
        let plain = Geometry::rectangle(14, 14);
        assert_eq!(plain.parse("j1"), Some(9));
        assert_eq!(plain.name(9), plain.uci_name(9));
        // Wrong letter lists are refused.
        for bad in ["abc", "abcdefghiklmnn", "abcdefghiklmnO"] {
            assert!(
                Geometry::rectangle(14, 14).with_file_letters(bad).is_err(),
                "{bad}"
            );
        }
        assert!(Geometry::hexagon()
            .with_file_letters("abcdefghikl")
            .is_err());
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
