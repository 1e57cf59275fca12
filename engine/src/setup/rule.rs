//! What a variant's setup phase asks of each side: the data of a definition's
//! `[setup]` table and the typed ways a setup can be wrong.

use serde::Deserialize;
use std::fmt;

/// How the sides set up.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SetupMode {
    /// At the same time, each in private; nothing is revealed until every
    /// side is ready (battle chess).
    #[default]
    Secret,
    /// In turn, one piece at a time, in view of everyone (Frolov chess).
    Public,
}

/// A constraint a complete setup must meet, beyond where pieces may stand.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SetupRule {
    /// A side's bishops stand on squares of different colours.
    BishopsOppositeColours,
    /// No two pawns of a side on one file.
    OnePawnPerFile,
    /// No placed piece may attack the enemy king.
    NoCheck,
}

/// What decides the game before the first move, once the setups stand.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FirstMove {
    /// Mironov's rule (battle chess): a side in check while the other is to
    /// move loses at once.
    #[default]
    CheckLoses,
    /// Frolov's rule: if the side to move can take the enemy king (without
    /// its own king standing in check after it) or mate at once, it wins at
    /// once; otherwise play starts, a king in check answering it as usual.
    Frolov,
    /// Maharajah (seed 002): the pieces stand wherever they were placed; a
    /// side placed in check moves first and answers it (the first side would
    /// otherwise take the king), else the start position's side moves first.
    CheckedMovesFirst,
}

/// A variant's setup phase (compiled from its `[setup]` table).
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct SetupDef {
    /// Secret and simultaneous, or public and alternating.
    pub mode: SetupMode,
    /// The piece types each side places, one entry per piece (`[side]`).
    pub armies: [Vec<usize>; 2],
    /// Relative ranks (1 = own first rank, inclusive) where pieces may stand.
    pub ranks: (u8, u8),
    /// Relative ranks where pawns may stand.
    pub pawn_ranks: (u8, u8),
    /// Further constraints on a complete setup.
    pub rules: Vec<SetupRule>,
    /// What decides the game before the first move.
    pub first_move: FirstMove,
}

/// Why a setup (or a placement in it) was refused. Each names the rule it
/// breaks, so a player can be told what to change.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum SetupError {
    /// The variant has no setup phase, or this side places nothing.
    NothingToPlace,
    /// A word that is neither a placement (`Ke1`) nor a half-board FEN.
    Unreadable(String),
    /// A piece letter this variant does not have, or not in this side's army.
    NotInArmy(char),
    /// Every piece of that kind is placed already (and there are several,
    /// so which one to move is unclear).
    AllPlaced(char),
    /// The square is outside the side's setup zone.
    OutsideZone {
        /// The square's name.
        square: String,
        /// The lowest rank allowed, as the board names it (black's zone of
        /// relative ranks 1–3 is ranks 6–8).
        from: u8,
        /// The highest rank allowed, as the board names it.
        to: u8,
    },
    /// A pawn on a rank where pawns may not stand.
    PawnRank {
        /// The square's name.
        square: String,
        /// The lowest rank allowed for pawns, as the board names it.
        from: u8,
        /// The highest rank allowed for pawns, as the board names it.
        to: u8,
    },
    /// The square already holds a piece.
    Occupied(String),
    /// The setup is not complete: pieces still to place (letters).
    Missing(String),
    /// Two bishops of the side on squares of one colour.
    BishopsSameColour,
    /// Two pawns of the side on one file (the file's letter).
    PawnsShareFile(char),
    /// In a public setup pieces are placed one at a time, by one placement.
    OneAtATime,
    /// A piece on this square would attack the enemy king.
    GivesCheck(String),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::NothingToPlace => f.write_str("there is nothing to set up"),
            SetupError::Unreadable(word) => write!(f, "not a placement: {word}"),
            SetupError::NotInArmy(letter) => write!(f, "no piece {letter} in your army"),
            SetupError::AllPlaced(letter) => {
                write!(
                    f,
                    "every {letter} is placed already; `clear` to start again"
                )
            }
            SetupError::OutsideZone { square, from, to } => {
                write!(f, "{square} is outside your setup zone (ranks {from}–{to})")
            }
            SetupError::PawnRank { square, from, to } => {
                write!(
                    f,
                    "a pawn may not stand on {square} (pawns: ranks {from}–{to})"
                )
            }
            SetupError::Occupied(square) => write!(f, "{square} is occupied"),
            SetupError::Missing(letters) => write!(f, "still to place: {letters}"),
            SetupError::BishopsSameColour => {
                f.write_str("bishops must stand on squares of different colours")
            }
            SetupError::PawnsShareFile(file) => {
                write!(f, "exactly one pawn per file (two on the {file}-file)")
            }
            SetupError::OneAtATime => f.write_str("place one piece at a time, like Ke1"),
            SetupError::GivesCheck(square) => {
                write!(f, "a piece on {square} would attack the enemy king")
            }
        }
    }
}

impl std::error::Error for SetupError {}
