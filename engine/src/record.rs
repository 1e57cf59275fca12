//! The record of a game as it is stored: its entries (moves, Kriegspiel's
//! impossible attempts, bughouse gifts, Enochian exchanges and
//! retirements, time-travel jumps among the moves), their marks, and the
//! one parser of them, [`Entry::parse`], which the replay and the bot's
//! store share. The lowest layer of the game: it imports nothing of the
//! engine.

use std::fmt;

/// A move as it was played, in both notations.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PlayedMove {
    /// UCI (`e2e4`, `e7e8q`, `N@f3`, `e1h1` for Chess960 castling).
    pub uci: String,
    /// SAN with check/mate suffix (`Nf3`, `exd5`, `O-O`, `e8=Q#`).
    pub san: String,
}

/// How an impossible attempt is written in a stored move list: its UCI and
/// this mark (`e2e4?`), among the moves played.
pub const IMPOSSIBLE_MARK: char = '?';

/// The mark of a gift in a stored record: `+` and the piece's FEN letter.
pub const GIFT_MARK: char = '+';

/// The piece letter of a stored gift (`+n` → `n`), if `action` is one.
///
/// ```
/// assert_eq!(kodex_engine::gift_letter("+Q"), Some('Q'));
/// assert_eq!(kodex_engine::gift_letter("e2e4"), None);
/// ```
pub fn gift_letter(action: &str) -> Option<char> {
    let mut chars = action.strip_prefix(GIFT_MARK)?.chars();
    match (chars.next(), chars.next()) {
        (Some(letter), None) if letter.is_ascii_alphabetic() => Some(letter),
        _ => None,
    }
}

/// The stored form of a gift of `letter`.
pub fn gift_token(letter: char) -> String {
    format!("{GIFT_MARK}{letter}")
}

/// The mark of a prisoner exchange in a stored record: `&` and the two
/// seats (turn order) that exchanged, the lower first (`&03`).
pub const EXCHANGE_MARK: char = '&';

/// The stored form of the exchange between seats `a` and `b` (turn order).
///
/// ```
/// assert_eq!(kodex_engine::exchange_token(3, 0), "&03");
/// assert_eq!(kodex_engine::exchange_seats("&03"), Some((0, 3)));
/// assert_eq!(kodex_engine::exchange_seats("e2e4"), None);
/// ```
pub fn exchange_token(a: usize, b: usize) -> String {
    format!("{EXCHANGE_MARK}{}{}", a.min(b), a.max(b))
}

/// The two seats of a stored exchange (`&03` → 0 and 3), if `action` is one.
pub fn exchange_seats(action: &str) -> Option<(usize, usize)> {
    let mut digits = action.strip_prefix(EXCHANGE_MARK)?.chars();
    let mut digit = || {
        digits
            .next()
            .and_then(|d| d.to_digit(10))
            .map(|d| d as usize)
    };
    let (a, b) = (digit()?, digit()?);
    digits.next().is_none().then_some((a, b))
}

/// The mark of a retirement in a stored record, after [`EXCHANGE_MARK`]:
/// `&r` and the seat (turn order) that retired (`&r1`).
pub const RETIRE_MARK: char = 'r';

/// The stored form of the retirement of seat `seat` (turn order).
///
/// ```
/// assert_eq!(kodex_engine::retire_token(1), "&r1");
/// assert_eq!(kodex_engine::retired_seat("&r1"), Some(1));
/// assert_eq!(kodex_engine::retired_seat("&01"), None);
/// assert_eq!(kodex_engine::exchange_seats("&r1"), None);
/// ```
pub fn retire_token(seat: usize) -> String {
    format!("{EXCHANGE_MARK}{RETIRE_MARK}{seat}")
}

/// The seat of a stored retirement (`&r1` → 1), if `action` is one.
pub fn retired_seat(action: &str) -> Option<usize> {
    let rest = action
        .strip_prefix(EXCHANGE_MARK)?
        .strip_prefix(RETIRE_MARK)?;
    let mut digits = rest.chars();
    let seat = digits.next()?.to_digit(10)? as usize;
    digits.next().is_none().then_some(seat)
}

/// Whether `text` starts like a jump: `T`, `t` or Cyrillic `Т`/`т`, an
/// optional `-`, then a digit.
pub fn looks_like_jump(text: &str) -> bool {
    let mut chars = text.trim_start().chars();
    if !matches!(chars.next(), Some('T' | 't' | 'Т' | 'т')) {
        return false;
    }
    let rest = chars.as_str();
    let rest = rest.strip_prefix(['-', '−', '–']).unwrap_or(rest);
    rest.starts_with(|c: char| c.is_ascii_digit())
}

/// What is done between moves by the players rather than by a move, and
/// kept in the record among the moves: a prisoner exchange, a retirement.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum Operation {
    /// Seats `a` and `b` (turn order, `a < b`) exchanged their prisoners.
    Exchange(usize, usize),
    /// The seat (turn order) retired from the game.
    Retire(usize),
}

/// One entry of a game's record: a move, an impossible attempt, a gift, an
/// exchange of prisoners or a retirement.
///
/// ```
/// use kodex_engine::Entry;
/// assert_eq!(Entry::parse("e2e4?"), Some(Entry::Impossible("e2e4")));
/// assert_eq!(Entry::parse("+n"), Some(Entry::Gift('n')));
/// assert_eq!(Entry::parse("&r1"), Some(Entry::Retire(1)));
/// assert_eq!(Entry::Exchange(0, 3).to_string(), "&03");
/// assert_eq!(Entry::parse("+"), None);
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Entry<'a> {
    /// A move (or pass, or time-travel jump, see [`looks_like_jump`]) in the
    /// engine's UCI form.
    Move(&'a str),
    /// A move tried that was impossible (Kriegspiel), marked `e2e4?`.
    Impossible(&'a str),
    /// A piece a partner passed on (bughouse), `+n`.
    Gift(char),
    /// Seats (turn order) that exchanged prisoners, the lower first, `&03`.
    Exchange(usize, usize),
    /// A seat (turn order) that retired, `&r1`.
    Retire(usize),
}

impl<'a> Entry<'a> {
    /// Reads a stored entry; `None` when it is empty or bears a mark (`?`,
    /// `+`) the engine does not make. (Whether a move is legal is the
    /// replay's to say.)
    pub fn parse(text: &'a str) -> Option<Entry<'a>> {
        if let Some(attempt) = text.strip_suffix(IMPOSSIBLE_MARK) {
            return (!attempt.is_empty()).then_some(Entry::Impossible(attempt));
        }
        if let Some((a, b)) = exchange_seats(text) {
            return Some(Entry::Exchange(a.min(b), a.max(b)));
        }
        if let Some(seat) = retired_seat(text) {
            return Some(Entry::Retire(seat));
        }
        if text.starts_with(GIFT_MARK) {
            return gift_letter(text).map(Entry::Gift);
        }
        (!text.is_empty()).then_some(Entry::Move(text))
    }

    /// The operation between moves this entry is, if it is one.
    pub(crate) fn operation(self) -> Option<Operation> {
        match self {
            Entry::Exchange(a, b) => Some(Operation::Exchange(a, b)),
            Entry::Retire(seat) => Some(Operation::Retire(seat)),
            _ => None,
        }
    }
}

impl fmt::Display for Entry<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Entry::Move(uci) => f.write_str(uci),
            Entry::Impossible(uci) => write!(f, "{uci}{IMPOSSIBLE_MARK}"),
            Entry::Gift(letter) => f.write_str(&gift_token(letter)),
            Entry::Exchange(a, b) => f.write_str(&exchange_token(a, b)),
            Entry::Retire(seat) => f.write_str(&retire_token(seat)),
        }
    }
}
