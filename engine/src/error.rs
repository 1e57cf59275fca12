//! Why input was rejected: FEN, typed moves, stored records. A leaf module:
//! it imports nothing from the crate but [`crate::side`], so every module may use it.

use crate::side::Side;
use std::fmt;

/// Why a FEN was rejected. Each kind is its own variant so the bot can say it
/// in the player's language; [`Display`](fmt::Display) gives English.
///
/// ```
/// use kodex_engine::{FenError, Game, Registry, Start};
/// let registry = Registry::builtin();
/// let chess = registry.get("chess").unwrap();
/// let err = Game::new(chess, Start::Fen("8/8/8 w - - 0 1".into())).unwrap_err();
/// assert_eq!(err, FenError::RankCount { expected: 8, found: 3 });
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum FenError {
    /// Longer than any FEN we read.
    TooLong,
    /// Nothing but whitespace.
    Empty,
    /// The variant's board is wider than the engine's largest bit set.
    BoardTooLarge,
    /// The board has the wrong number of ranks.
    RankCount {
        /// Ranks of the variant's board.
        expected: u8,
        /// Ranks in the FEN.
        found: usize,
    },
    /// A rank describes more squares than the board has files (rank numbers from 1).
    RankTooLong {
        /// The rank, counted from 1.
        rank: u8,
    },
    /// A rank describes fewer squares than the board has files.
    RankTooShort {
        /// The rank, counted from 1.
        rank: u8,
        /// Squares described.
        found: u8,
        /// Files of the board.
        expected: u8,
    },
    /// An empty run of zero squares (`0`).
    ZeroRun,
    /// A letter that names no piece of this variant.
    UnknownPiece(char),
    /// A piece on a square that is a hole in the board.
    PieceOnHole(char),
    /// The promoted marker `~` does not follow a piece.
    StrayPromotedMark,
    /// A pocket `[` not closed by `]` at the end of the board.
    UnclosedPocket,
    /// Pocket contents for a variant without pockets.
    NoPockets,
    /// A letter in the pocket that names no piece of this variant.
    UnknownPocketPiece(char),
    /// More pieces of one kind in a pocket than we count.
    PocketFull,
    /// The side to move is not `w` or `b`.
    BadSide(String),
    /// A side has more than one royal piece.
    TooManyKings(Side),
    /// A royal piece (a king, or any piece the variant marks royal) in a
    /// pocket, as written (`K`, `k`): a royal piece is never captured, so it
    /// is never in hand, and one dropped could be taken.
    RoyalInPocket(char),
    /// A side has no royal piece where its variant gives it one (the
    /// variant's start, e.g. chess's kings, but not horde's white; see
    /// [`crate::variant::VariantDef::needs_royal`]).
    MissingRoyal(Side),
    /// A pawn stands on its promotion rank.
    PawnOnPromotionRank,
    /// A piece other than a king stands on a square only kings may enter (a citadel).
    RoyalOnly(String),
    /// Two pieces in parentheses on one square that may not stand there
    /// together: only a throne at the start of Enochian chess holds two,
    /// its seat's king and one more piece of that seat (`(KB)`).
    BadPair(String),
    /// A castling letter we do not read.
    BadCastling(char),
    /// The en-passant field is not a square.
    BadEnPassant(String),
    /// A check counter (`3+3`, `+1+0`) that does not read.
    BadCheckCounter(String),
    /// A move counter that is not a number.
    BadCounter(String),
    /// More fields than a FEN has.
    TooManyFields,
    /// The side that just moved is left in check.
    OpponentInCheck,
    /// A Chess960 start asked of a variant without Chess960 positions.
    NotChess960,
    /// A Chess960 position number outside 0–959.
    Chess960Number(u16),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("invalid FEN: ")?;
        match self {
            FenError::TooLong => f.write_str("too long"),
            FenError::Empty => f.write_str("empty"),
            FenError::BoardTooLarge => f.write_str("the board does not fit"),
            FenError::RankCount { expected, found } => {
                write!(f, "expected {expected} ranks, found {found}")
            }
            FenError::RankTooLong { rank } => write!(f, "rank {rank} is too long"),
            FenError::RankTooShort {
                rank,
                found,
                expected,
            } => write!(f, "rank {rank} has {found} files, expected {expected}"),
            FenError::ZeroRun => f.write_str("an empty run of 0 squares"),
            FenError::UnknownPiece(c) => write!(f, "unknown piece `{c}`"),
            FenError::PieceOnHole(c) => {
                write!(f, "a piece on a square that does not exist ({c})")
            }
            FenError::StrayPromotedMark => f.write_str("`~` must follow a piece"),
            FenError::UnclosedPocket => {
                f.write_str("a pocket `[` must be closed by `]` at the end of the board")
            }
            FenError::NoPockets => f.write_str("this variant has no pockets"),
            FenError::UnknownPocketPiece(c) => write!(f, "unknown piece `{c}` in the pocket"),
            FenError::PocketFull => f.write_str("too many pieces in a pocket"),
            FenError::BadSide(s) => write!(f, "side to move must be w or b, not `{s}`"),
            FenError::TooManyKings(side) => write!(f, "{side} has more than one king"),
            FenError::RoyalInPocket(c) => {
                write!(f, "a royal piece ({c}) cannot be in a pocket")
            }
            FenError::MissingRoyal(side) => write!(f, "{side} has no king"),
            FenError::PawnOnPromotionRank => f.write_str("a pawn stands on its promotion rank"),
            FenError::RoyalOnly(square) => {
                write!(f, "only a king may stand on {square} (a citadel)")
            }
            FenError::BadPair(square) => write!(
                f,
                "two pieces on {square}: only a throne holds two, its king and one more piece"
            ),
            FenError::BadCastling(c) => write!(f, "bad castling letter `{c}`"),
            FenError::BadEnPassant(s) => write!(f, "`{s}` is not an en-passant square"),
            FenError::BadCheckCounter(s) => write!(f, "bad check counter `{s}`"),
            FenError::BadCounter(s) => write!(f, "`{s}` is not a number"),
            FenError::TooManyFields => f.write_str("too many fields"),
            FenError::OpponentInCheck => f.write_str("the side not to move is in check"),
            FenError::NotChess960 => f.write_str("this variant has no Chess960 positions"),
            FenError::Chess960Number(n) => {
                write!(f, "Chess960 positions are numbered 0–959, not {n}")
            }
        }
    }
}

impl std::error::Error for FenError {}

/// Why typed move text was not played. The three kinds a player must be told apart.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum MoveError {
    /// Not a move in any notation we read.
    Unparseable,
    /// A well-formed move that is not legal here.
    Illegal,
    /// Several legal moves match; the candidates in SAN.
    Ambiguous(Vec<String>),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Unparseable => f.write_str("not a move"),
            MoveError::Illegal => f.write_str("illegal move"),
            MoveError::Ambiguous(c) => write!(f, "ambiguous move: {}", c.join(", ")),
        }
    }
}

impl std::error::Error for MoveError {}

/// Why a stored record could not be replayed.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ReplayError {
    /// The start FEN is invalid.
    Fen(FenError),
    /// Move number `ply` (0-based) is not legal.
    Move {
        /// The half-move, 0-based.
        ply: usize,
        /// The move as stored (at most 16 characters).
        uci: String,
    },
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Fen(e) => write!(f, "invalid start position: {e}"),
            ReplayError::Move { ply, uci } => write!(f, "move {} ({uci}) is not legal", ply + 1),
        }
    }
}

impl std::error::Error for ReplayError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReplayError::Fen(e) => Some(e),
            ReplayError::Move { .. } => None,
        }
    }
}
