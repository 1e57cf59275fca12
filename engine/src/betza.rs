//! A Betza-like movement language: pieces are defined as text, not code.
//!
//! A definition is a sequence of groups `modifiers ATOM [range]`:
//!
//! - Atoms (leaps): `W` (1,0), `F` (1,1), `D` (2,0), `N` (2,1), `A` (2,2),
//!   `H` (3,0), `C`/`L` (3,1), `Z` (3,2), `G` (3,3), or any `(x,y)`.
//!   Shorthands: `K` = `WF`, `R` = `WW`, `B` = `FF`, `Q` = `RB`.
//! - Range: a doubled atom (`WW`, `NN`) or `0` rides without limit; a number
//!   limits the ride (`B2`); `[2-]` or `[2-5]` gives a minimum (and maximum).
//! - Directions (relative to the piece's owner): `f` forward, `b` back,
//!   `l` left, `r` right, `v` vertical, `s` sideways; pairs narrow down
//!   (`fl` forward-left, `ff` the narrow forward leaps of an oblique atom).
//! - Modes: `m` move only, `c` capture only, `i` only from the piece's
//!   initial ranks, `e` captures en passant, `n` lame (blocked by a piece on
//!   the way, like the xiangqi horse), `p` hops over exactly one piece like a
//!   cannon, `g` grasshopper (lands right behind the first piece).
//! - On a hexagonal board ([`parse_on`] with `hex`) the letters are Gliński's: `W` the
//!   six orthogonal steps (through cell edges), `F` the six diagonal ones
//!   (through vertices), `D` two orthogonal steps, `N` the twelve knight
//!   leaps; `K`, `R`, `B`, `Q` as on squares. Directions are read from the
//!   step's true angle, so `ffW` is straight forward and `fsW` the two
//!   forward-sideways steps (the Gliński pawn's captures).
//! - Bent riders: `F>W[3-]` makes one step of the first atom onto an empty
//!   square, then rides outward with the second (the Tamerlane giraffe).
//!
//! `parse("fmWfceFifmnD")` is the chess pawn's three atoms; `parse("fmX")`
//! is an error (see the unit tests).

use std::fmt;

/// How a movement hops over other pieces.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub enum Hop {
    /// No hopping: a rider stops at the first piece.
    #[default]
    None,
    /// Cannon: jumps exactly one piece (the screen), lands anywhere behind it.
    Cannon,
    /// Grasshopper: lands on the square right behind the first piece.
    Grasshopper,
}

/// One movement of a piece: a set of step vectors with a range and modes.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Atom {
    /// Step vectors `(files, ranks)` for the first player (forward = +ranks).
    pub steps: Vec<(i32, i32)>,
    /// Maximum number of steps: 1 for a leaper, 0 for unlimited.
    pub max_range: u8,
    /// Minimum number of steps (1 unless `[k-]` is given).
    pub min_range: u8,
    /// May move to an empty square.
    pub moves: bool,
    /// May capture.
    pub captures: bool,
    /// Only from the piece's initial ranks (the pawn's double step).
    pub initial: bool,
    /// Captures en passant.
    pub en_passant: bool,
    /// Lame: blocked by a piece on an intermediate square.
    pub lame: bool,
    /// Hopping behaviour.
    pub hop: Hop,
    /// Bent rider: after one step of `steps`, rides outward along these.
    pub then: Option<Box<Atom>>,
}

impl Atom {
    /// Whether this atom slides over several squares (a rider).
    pub fn is_rider(&self) -> bool {
        self.max_range != 1
    }
}

/// A definition that could not be read, with the position of the problem.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct BetzaError {
    /// Byte offset in the definition.
    pub at: usize,
    /// What is wrong.
    pub problem: String,
}

impl fmt::Display for BetzaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at character {}: {}", self.at + 1, self.problem)
    }
}

impl std::error::Error for BetzaError {}

fn leap(letter: char) -> Option<(i32, i32)> {
    Some(match letter {
        'W' => (1, 0),
        'F' => (1, 1),
        'D' => (2, 0),
        'N' => (2, 1),
        'A' => (2, 2),
        'H' => (3, 0),
        'C' | 'L' => (3, 1),
        'Z' => (3, 2),
        'G' => (3, 3),
        _ => return None,
    })
}

/// All eight (or four) symmetric images of a leap.
pub fn symmetric_steps((a, b): (i32, i32)) -> Vec<(i32, i32)> {
    let mut steps = Vec::new();
    for (x, y) in [(a, b), (b, a)] {
        for (sx, sy) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
            let step = (x * sx, y * sy);
            if !steps.contains(&step) {
                steps.push(step);
            }
        }
    }
    steps
}

/// The six orthogonal steps of the hexagon, in axial (q, r) vectors (see
/// [`crate::geometry::Geometry::hexagon`]): (0, 1) is straight up.
pub const HEX_ORTHOGONAL: [(i32, i32); 6] = [(0, 1), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1)];

/// The six diagonal steps of the hexagon: each the sum of two neighbouring orthogonal steps.
pub const HEX_DIAGONAL: [(i32, i32); 6] = [(1, 1), (2, -1), (1, -2), (-1, -1), (-2, 1), (-1, 2)];

/// The twelve knight leaps of the hexagon: an orthogonal step, then a
/// diagonal one outward (neither straight on nor back).
pub const HEX_KNIGHT: [(i32, i32); 12] = [
    (1, 2),
    (2, 1),
    (3, -1),
    (3, -2),
    (2, -3),
    (1, -3),
    (-1, -2),
    (-2, -1),
    (-3, 1),
    (-3, 2),
    (-2, 3),
    (-1, 3),
];

/// An axial step's direction on the drawn board: horizontal `x = q`, vertical
/// `y = q + 2r` in half cells; horizontal distances weigh √3 more.
fn hex_direction((q, r): (i32, i32)) -> Direction {
    let (x, y) = (q, q + 2 * r);
    Direction {
        dx: x,
        dy: y,
        narrow: y * y > 3 * x * x,
        wide: 3 * x * x > y * y,
    }
}

/// A step's signs and whether it is nearer the vertical (narrow) or the horizontal (wide).
#[derive(Clone, Copy)]
struct Direction {
    dx: i32,
    dy: i32,
    narrow: bool,
    wide: bool,
}

fn square_direction((dx, dy): (i32, i32)) -> Direction {
    Direction {
        dx,
        dy,
        narrow: dy.abs() > dx.abs(),
        wide: dx.abs() > dy.abs(),
    }
}

fn direction_matches(chunk: &[u8], d: Direction) -> bool {
    let Direction {
        dx,
        dy,
        narrow,
        wide,
    } = d;
    let single = |c: u8| match c {
        b'f' => dy > 0,
        b'b' => dy < 0,
        b'l' => dx < 0,
        b'r' => dx > 0,
        b'v' => dx == 0 || narrow,
        b's' => dy == 0 || wide,
        _ => false,
    };
    match *chunk {
        [c] => single(c),
        [a, b] if a == b && (a == b'f' || a == b'b') => single(a) && (dx == 0 || narrow),
        [a, b] if a == b && (a == b'l' || a == b'r') => single(a) && (dy == 0 || wide),
        [a, b's'] if a == b'f' || a == b'b' => single(a) && wide,
        [a, b'v'] if a == b'l' || a == b'r' => single(a) && narrow,
        [a, b] => single(a) && single(b),
        _ => false,
    }
}

fn split_directions(letters: &[u8]) -> Vec<Vec<u8>> {
    let vertical = |c: u8| c == b'f' || c == b'b';
    let lateral = |c: u8| c == b'l' || c == b'r';
    let mut chunks = Vec::new();
    let mut i = 0;
    while i < letters.len() {
        let c = letters[i];
        if let Some(&d) = letters.get(i + 1) {
            let pair = (vertical(c) && (lateral(d) || d == b's' || d == c))
                || (lateral(c) && (vertical(d) || d == b'v' || d == c));
            if pair {
                chunks.push(vec![c, d]);
                i += 2;
                continue;
            }
        }
        chunks.push(vec![c]);
        i += 1;
    }
    chunks
}

/// An atom's steps, its letter (`(` for `(x,y)`), and whether it is a rider shorthand.
type AtomSteps = (Vec<(i32, i32)>, char, bool);

struct Parser<'a> {
    text: &'a [u8],
    at: usize,
    /// Gliński's hexagonal atoms.
    hex: bool,
}

impl Parser<'_> {
    fn error<T>(&self, problem: impl Into<String>) -> Result<T, BetzaError> {
        Err(BetzaError {
            at: self.at,
            problem: problem.into(),
        })
    }

    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    fn number(&mut self) -> Option<u32> {
        let start = self.at;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.at += 1;
        }
        std::str::from_utf8(&self.text[start..self.at])
            .ok()?
            .parse()
            .ok()
    }

    /// Reads the leap vector(s) of one atom letter or `(x,y)`, and whether it is a shorthand rider.
    fn atom_steps(&mut self) -> Result<AtomSteps, BetzaError> {
        let Some(c) = self.peek() else {
            return self.error("expected a piece letter (W F D N A H C Z G K R B Q) or (x,y)");
        };
        self.at += 1;
        let letter = c as char;
        if self.hex {
            let orthogonal = HEX_ORTHOGONAL.to_vec();
            let diagonal = HEX_DIAGONAL.to_vec();
            let steps = match letter {
                'W' | 'R' => orthogonal,
                'F' | 'B' => diagonal,
                'K' | 'Q' => [orthogonal, diagonal].concat(),
                'D' => orthogonal.iter().map(|&(q, r)| (2 * q, 2 * r)).collect(),
                'N' => HEX_KNIGHT.to_vec(),
                _ => {
                    self.at -= 1;
                    return self.error(format!(
                        "`{letter}` has no meaning on a hexagonal board (W F D N K R B Q)"
                    ));
                }
            };
            return Ok((steps, letter, matches!(letter, 'R' | 'B' | 'Q')));
        }
        if letter == '(' {
            let x = self.number();
            if self.peek() != Some(b',') {
                return self.error("expected `,` in (x,y)");
            }
            self.at += 1;
            let y = self.number();
            if self.peek() != Some(b')') {
                return self.error("expected `)` after (x,y)");
            }
            self.at += 1;
            return match (x, y) {
                (Some(x), Some(y)) if x + y > 0 && x <= 15 && y <= 15 => {
                    Ok((symmetric_steps((x as i32, y as i32)), '(', false))
                }
                _ => self.error("a leap (x,y) needs numbers from 0 to 15, not both 0"),
            };
        }
        let steps = match letter {
            'K' => [symmetric_steps((1, 0)), symmetric_steps((1, 1))].concat(),
            'R' => symmetric_steps((1, 0)),
            'B' => symmetric_steps((1, 1)),
            'Q' => [symmetric_steps((1, 0)), symmetric_steps((1, 1))].concat(),
            _ => match leap(letter) {
                Some(v) => symmetric_steps(v),
                None => {
                    self.at -= 1;
                    return self.error(format!("unknown piece letter `{letter}`"));
                }
            },
        };
        Ok((steps, letter, matches!(letter, 'R' | 'B' | 'Q')))
    }

    /// Reads the range after an atom: doubling, a number, or `[min-max]`.
    fn range(&mut self, letter: char, rider: bool) -> Result<(u8, u8), BetzaError> {
        let mut max = if rider { 0 } else { 1 };
        let mut min = 1;
        if letter != '(' && self.peek() == Some(letter as u8) && !rider {
            self.at += 1;
            max = 0;
        } else if self.peek().is_some_and(|c| c.is_ascii_digit()) {
            let Some(n) = self.number().filter(|n| *n <= 32) else {
                return self.error("a range must be a number up to 32");
            };
            max = n as u8;
        }
        if self.peek() == Some(b'[') {
            self.at += 1;
            let Some(lo) = self.number().filter(|n| (1..=32).contains(n)) else {
                return self.error("expected a minimum range in [min-max]");
            };
            min = lo as u8;
            if self.peek() != Some(b'-') {
                return self.error("expected `-` in [min-max]");
            }
            self.at += 1;
            max = match self.number() {
                Some(hi) if hi as u8 >= min && hi <= 32 => hi as u8,
                Some(_) => return self.error("the maximum range is below the minimum"),
                None => 0,
            };
            if self.peek() != Some(b']') {
                return self.error("expected `]`");
            }
            self.at += 1;
        }
        Ok((max, min))
    }

    fn group(&mut self) -> Result<Atom, BetzaError> {
        let start = self.at;
        while self.peek().is_some_and(|c| c.is_ascii_lowercase()) {
            self.at += 1;
        }
        let modifiers = &self.text[start..self.at];
        let mut directions = Vec::new();
        let (mut moves, mut captures) = (false, false);
        let mut atom = Atom {
            steps: Vec::new(),
            max_range: 1,
            min_range: 1,
            moves: true,
            captures: true,
            initial: false,
            en_passant: false,
            lame: false,
            hop: Hop::None,
            then: None,
        };
        for (i, &m) in modifiers.iter().enumerate() {
            match m {
                b'f' | b'b' | b'l' | b'r' | b'v' | b's' => directions.push(m),
                b'm' => moves = true,
                b'c' => captures = true,
                b'i' => atom.initial = true,
                b'e' => atom.en_passant = true,
                b'n' => atom.lame = true,
                b'p' => atom.hop = Hop::Cannon,
                b'g' => atom.hop = Hop::Grasshopper,
                other => {
                    self.at = start + i;
                    return self.error(format!("unknown modifier `{}`", other as char));
                }
            }
        }
        if moves || captures || atom.en_passant {
            atom.moves = moves;
            atom.captures = captures;
        }
        let (steps, letter, rider) = self.atom_steps()?;
        let (max, min) = self.range(letter, rider)?;
        atom.max_range = max;
        atom.min_range = min;
        let hex = self.hex;
        let direction = move |v: (i32, i32)| {
            if hex {
                hex_direction(v)
            } else {
                square_direction(v)
            }
        };
        // A pair that selects nothing on this atom (`fs` on `W`) means its letters separately.
        let chunks: Vec<Vec<u8>> = split_directions(&directions)
            .into_iter()
            .flat_map(|chunk| {
                if chunk.len() == 2
                    && !steps
                        .iter()
                        .any(|&v| direction_matches(&chunk, direction(v)))
                {
                    chunk.iter().map(|&c| vec![c]).collect()
                } else {
                    vec![chunk]
                }
            })
            .collect();
        atom.steps = if chunks.is_empty() {
            steps
        } else {
            steps
                .into_iter()
                .filter(|&v| chunks.iter().any(|c| direction_matches(c, direction(v))))
                .collect()
        };
        if atom.steps.is_empty() {
            return self.error("the direction modifiers leave no move");
        }
        if self.peek() == Some(b'>') {
            self.at += 1;
            let (steps, letter, rider) = self.atom_steps()?;
            let (max, min) = self.range(letter, rider)?;
            let mut second = atom.clone();
            second.steps = steps;
            second.max_range = max;
            second.min_range = min;
            second.then = None;
            atom.then = Some(Box::new(second));
        }
        Ok(atom)
    }
}

/// Parses a movement definition into atoms.
pub fn parse(definition: &str) -> Result<Vec<Atom>, BetzaError> {
    parse_on(definition, false)
}

/// Parses a definition for a square (`hex` false) or hexagonal board.
pub fn parse_on(definition: &str, hex: bool) -> Result<Vec<Atom>, BetzaError> {
    let mut parser = Parser {
        text: definition.as_bytes(),
        at: 0,
        hex,
    };
    let mut atoms = Vec::new();
    while parser.peek().is_some() {
        if parser.peek() == Some(b' ') {
            parser.at += 1;
            continue;
        }
        let atom = parser.group()?;
        // `Q` and `K` expand to orthogonal and diagonal parts; keep one atom per kind of step.
        atoms.push(atom);
    }
    if atoms.is_empty() {
        return parser.error("the movement is empty");
    }
    Ok(atoms)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pawn_is_three_atoms_and_an_unknown_letter_an_error() {
        let pawn = parse("fmWfceFifmnD").unwrap();
        assert_eq!(pawn.len(), 3);
        assert!(parse("fmX").is_err());
    }

    fn steps(def: &str) -> Vec<(i32, i32)> {
        steps_on(def, false)
    }

    fn steps_on(def: &str, hex: bool) -> Vec<(i32, i32)> {
        let mut s: Vec<_> = parse_on(def, hex)
            .unwrap()
            .into_iter()
            .flat_map(|a| a.steps)
            .collect();
        s.sort();
        s
    }

    #[test]
    fn classical_pieces() {
        assert_eq!(steps("N").len(), 8);
        let rook = parse("R").unwrap();
        assert_eq!(rook[0].max_range, 0);
        assert_eq!(parse("WW").unwrap()[0].max_range, 0);
        assert_eq!(steps("Q").len(), 8);
        assert_eq!(steps("K").len(), 8);
        assert_eq!(parse("K").unwrap()[0].max_range, 1);
        let pawn = parse("fmWfceFifmnD").unwrap();
        assert_eq!(pawn[0].steps, vec![(0, 1)]);
        assert!(pawn[0].moves && !pawn[0].captures);
        assert_eq!(pawn[1].steps.len(), 2);
        assert!(pawn[1].captures && pawn[1].en_passant && !pawn[1].moves);
        assert!(pawn[2].initial && pawn[2].lame && pawn[2].steps == vec![(0, 2)]);
    }

    /// Every piece of VARIANTS.md's later sections can be written down.
    #[test]
    fn fairy_pieces_of_the_catalogue_parse() {
        let catalogue = [
            ("ferz", "F"),
            ("alfil", "A"),
            ("chaturanga elephant", "B2"),
            ("marshal", "RN"),
            ("cardinal", "BN"),
            ("amazon", "QN"),
            ("janggi horse", "nN"),
            ("janggi elephant", "nZ"),
            ("janggi chariot", "R"),
            ("janggi cannon", "pR"),
            ("janggi soldier", "fsW"),
            ("janggi guard", "W"),
            ("xiangqi cannon", "mRcpR"),
            ("porpoise", "sW"),
            ("humpback whale", "fRbB"),
            ("grey whale", "fRbF"),
            ("narwhal", "sbWfD"),
            ("blue whale", "fWfFbW"),
            ("dolphin", "fW"),
            ("killer whale", "RF"),
            ("tamerlane general", "F"),
            ("tamerlane vizier", "W"),
            ("tamerlane giraffe", "F>W[3-]"),
            ("tamerlane picket", "B[2-]"),
            ("tamerlane elephant", "nA"),
            ("camel", "C"),
            ("war engine", "D"),
            ("semedo rocket", "mRcpR"),
            ("non-capturing king", "mK"),
            ("grasshopper", "gQ"),
            ("nightrider", "NN"),
        ];
        for (name, def) in catalogue {
            assert!(
                parse(def).is_ok(),
                "{name}: {def} did not parse: {:?}",
                parse(def)
            );
        }
        assert_eq!(steps("sW"), vec![(-1, 0), (1, 0)]);
        assert_eq!(steps("fsW"), vec![(-1, 0), (0, 1), (1, 0)]);
        assert_eq!(steps("ffN"), vec![(-1, 2), (1, 2)]);
        assert_eq!(steps("flF"), vec![(-1, 1)]);
        let giraffe = parse("F>W[3-]").unwrap();
        let leg = giraffe[0].then.as_ref().unwrap();
        assert_eq!((leg.min_range, leg.max_range), (3, 0));
        let picket = parse("B[2-]").unwrap();
        assert_eq!((picket[0].min_range, picket[0].max_range), (2, 0));
        assert_eq!(parse("pR").unwrap()[0].hop, Hop::Cannon);
        assert_eq!(parse("(3,1)").unwrap()[0].steps.len(), 8);
    }

    fn hex_steps(def: &str) -> Vec<(i32, i32)> {
        steps_on(def, true)
    }

    #[test]
    fn hexagonal_atoms_and_directions() {
        assert_eq!(hex_steps("W").len(), 6);
        assert_eq!(hex_steps("F").len(), 6);
        assert_eq!(hex_steps("K").len(), 12);
        assert_eq!(hex_steps("Q").len(), 12);
        assert_eq!(hex_steps("N").len(), 12);
        assert_eq!(parse_on("R", true).unwrap()[0].max_range, 0);
        // Straight forward, and the two forward-sideways orthogonal steps.
        assert_eq!(hex_steps("ffW"), vec![(0, 1)]);
        assert_eq!(hex_steps("fsW"), vec![(-1, 1), (1, 0)]);
        assert_eq!(hex_steps("ffD"), vec![(0, 2)]);
        let pawn = parse_on("ffmWfsceWiffmnD", true).unwrap();
        assert_eq!(pawn.len(), 3);
        assert!(pawn[1].en_passant && pawn[1].captures && !pawn[1].moves);
        // Letters without a hexagonal meaning are refused, not guessed.
        for bad in ["A", "H", "C", "Z", "G", "(1,2)"] {
            assert!(parse_on(bad, true).is_err(), "{bad}");
        }
        // Every knight leap is an orthogonal step plus a diagonal one, at hexagonal distance 3.
        for (q, r) in HEX_KNIGHT {
            let distance = q.abs().max(r.abs()).max((q + r).abs());
            assert_eq!(distance, 3);
            assert!(HEX_ORTHOGONAL
                .iter()
                .any(|&(a, b)| HEX_DIAGONAL.contains(&(q - a, r - b))));
        }
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        for bad in [
            "", "x", "fX", "(1,", "(0,0)", "W[", "W[3-1]", "B99", "lfbB>", "vF",
        ] {
            assert!(parse(bad).is_err(), "{bad} should be rejected");
        }
    }
}
