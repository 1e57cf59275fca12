//! A game: a variant, a start position and the moves played — the facade the
//! bot uses. Positions are rebuilt by replaying moves, so the record
//! (start FEN + UCI moves) is the source of truth.

use crate::side::Side;
use crate::view::{Audience, View};
use std::fmt;
use std::sync::Arc;

/// A variant definition (built-in or loaded from a TOML file). Cheap to clone.
#[derive(Clone, Debug)]
pub struct Variant(pub(crate) Arc<crate::variant::VariantDef>);

/// How a new game starts.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Start {
    /// The variant's start position (Chess960: position 518, the classical one).
    Standard,
    /// A Chess960 start position by its Scharnagl number (0–959). The bot picks a random number.
    Chess960(u16),
    /// A position given as FEN.
    Fen(String),
}

/// A move in the engine's internal encoding; turn it into text with
/// [`Game::uci`] or [`Game::san`].
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Move(pub(crate) crate::moves::Move);

/// A move as it was played, in both notations.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PlayedMove {
    /// UCI (`e2e4`, `e7e8q`, `N@f3`, `e1h1` for Chess960 castling).
    pub uci: String,
    /// SAN with check/mate suffix (`Nf3`, `exd5`, `O-O`, `e8=Q#`).
    pub san: String,
}

/// Why a game ended by the rules (resignation, time-out and agreement are the
/// service's business).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Reason {
    /// Checkmate.
    Checkmate,
    /// Stalemate (a draw, or a win where the variant says so).
    Stalemate,
    /// Threefold repetition.
    Repetition,
    /// Fifty moves without capture or pawn move.
    FiftyMoves,
    /// Neither side can mate.
    InsufficientMaterial,
    /// A king exploded (atomic).
    ExplodedKing,
    /// The third check (three-check).
    ThreeChecks,
    /// A king reached the hill (king of the hill).
    Hill,
    /// A king reached the last rank (racing kings).
    Race,
    /// A side has no pieces left (antichess, horde).
    NoPieces,
    /// A side has no legal move and wins or loses by the variant (antichess).
    NoMoves,
}

impl Reason {
    /// A stable key for i18n (`"checkmate"`, `"three-checks"`, …).
    pub fn key(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::Repetition => "repetition",
            Reason::FiftyMoves => "fifty-moves",
            Reason::InsufficientMaterial => "insufficient-material",
            Reason::ExplodedKing => "exploded-king",
            Reason::ThreeChecks => "three-checks",
            Reason::Hill => "hill",
            Reason::Race => "race",
            Reason::NoPieces => "no-pieces",
            Reason::NoMoves => "no-moves",
        }
    }
}

/// How a game ended by the rules.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Outcome {
    /// The winner, `None` for a draw.
    pub winner: Option<Side>,
    /// Why.
    pub reason: Reason,
}

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
    Fen(String),
    /// Move number `ply` (0-based) is not legal.
    Move { ply: usize, uci: String },
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Fen(e) => write!(f, "invalid start position: {e}"),
            ReplayError::Move { ply, uci } => write!(f, "move {} ({uci}) is not legal", ply + 1),
        }
    }
}

impl std::error::Error for ReplayError {}

/// A game in progress (or finished): variant, start position, moves.
#[derive(Clone, Debug)]
pub struct Game {
    pub(crate) variant: Variant,
}

/// The built-in variants and any loaded from files.
#[derive(Clone, Debug, Default)]
pub struct Registry {
    pub(crate) variants: Vec<Variant>,
}

impl Registry {
    /// The built-in variants (`config/variants/*.toml`, compiled in).
    pub fn builtin() -> Registry {
        todo!()
    }
    /// Adds (or replaces, by id) every `*.toml` definition in `dir`. A malformed file is an
    /// error naming the file, the key and the problem.
    pub fn load_dir(
        &mut self,
        dir: &std::path::Path,
    ) -> Result<usize, crate::variant::VariantError> {
        let _ = dir;
        todo!()
    }
    /// A variant by id or alias (`threecheck`, `3check`, `fischerandom`…), case-insensitive.
    pub fn get(&self, name: &str) -> Option<&Variant> {
        let _ = name;
        todo!()
    }
    /// All variants, in catalogue order.
    pub fn all(&self) -> &[Variant] {
        &self.variants
    }
}

impl Variant {
    /// The id (`chess`, `atomic`, …).
    pub fn id(&self) -> &str {
        todo!()
    }
    /// The name in `lang` (`en`, `ru`), falling back to English.
    pub fn name(&self, lang: &str) -> &str {
        let _ = lang;
        todo!()
    }
    /// The player-facing rules text in `lang`, falling back to English.
    pub fn rules_text(&self, lang: &str) -> &str {
        let _ = lang;
        todo!()
    }
    /// Whether players see different things (fog of war): moves go privately,
    /// the public sees only [`Audience::Public`] views.
    pub fn hidden_information(&self) -> bool {
        todo!()
    }
    /// Whether start positions are Chess960 (a Scharnagl number is shown).
    pub fn is_chess960(&self) -> bool {
        todo!()
    }
    /// Number of players.
    pub fn players(&self) -> usize {
        2
    }
}

impl Game {
    /// A new game of `variant`.
    pub fn new(variant: &Variant, start: Start) -> Result<Game, crate::fen::FenError> {
        let _ = (variant, start);
        todo!()
    }
    /// Rebuilds a game from its record: the start FEN and the UCI moves.
    pub fn replay<S: AsRef<str>>(
        variant: &Variant,
        start_fen: &str,
        moves: &[S],
    ) -> Result<Game, ReplayError> {
        let _ = (variant, start_fen, moves);
        todo!()
    }
    /// The variant.
    pub fn variant(&self) -> &Variant {
        &self.variant
    }
    /// The start position as FEN.
    pub fn start_fen(&self) -> String {
        todo!()
    }
    /// The current position as FEN.
    pub fn fen(&self) -> String {
        todo!()
    }
    /// The Chess960 start position number, for Chess960 games.
    pub fn chess960_number(&self) -> Option<u16> {
        todo!()
    }
    /// Whose turn it is.
    pub fn side_to_move(&self) -> Side {
        todo!()
    }
    /// Half-moves played.
    pub fn ply(&self) -> usize {
        todo!()
    }
    /// The full-move number (1 at the start, +1 after black's move).
    pub fn fullmove_number(&self) -> u32 {
        todo!()
    }
    /// The moves played, in both notations.
    pub fn history(&self) -> &[PlayedMove] {
        todo!()
    }
    /// The legal moves of the side to move (none when the game is over).
    pub fn legal_moves(&self) -> Vec<Move> {
        todo!()
    }
    /// Reads a move typed by a person (SAN, UCI, castling spellings, drops, Russian letters).
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let _ = text;
        todo!()
    }
    /// A legal move in UCI.
    pub fn uci(&self, mv: Move) -> String {
        let _ = mv;
        todo!()
    }
    /// A legal move in SAN, with `+`/`#`.
    pub fn san(&self, mv: Move) -> String {
        let _ = mv;
        todo!()
    }
    /// Plays a legal move (from [`Game::legal_moves`] or [`Game::parse_move`]).
    pub fn play(&mut self, mv: Move) -> PlayedMove {
        let _ = mv;
        todo!()
    }
    /// Parses and plays typed move text.
    pub fn play_text(&mut self, text: &str) -> Result<PlayedMove, MoveError> {
        let mv = self.parse_move(text)?;
        Ok(self.play(mv))
    }
    /// Takes back the last half-move; false at the start.
    pub fn undo(&mut self) -> bool {
        todo!()
    }
    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        todo!()
    }
    /// The outcome if the game has ended by the rules.
    pub fn outcome(&self) -> Option<Outcome> {
        todo!()
    }
    /// Whether `side` could still possibly win (used when the opponent's flag falls:
    /// without mating material the flag is a draw).
    pub fn has_mating_material(&self, side: Side) -> bool {
        let _ = side;
        todo!()
    }
    /// What `audience` may see of the current position.
    pub fn view(&self, audience: Audience) -> View {
        let _ = audience;
        todo!()
    }
    /// What `audience` may see after half-move `ply` (0 = the start), for game GIFs.
    pub fn view_at(&self, ply: usize, audience: Audience) -> View {
        let _ = (ply, audience);
        todo!()
    }
    /// The game as PGN, with extra `tags` (Event, White, Black …) and the result
    /// (`"1-0"`, `"0-1"`, `"1/2-1/2"`, `"*"`).
    pub fn pgn(&self, tags: &[(&str, &str)], result: &str) -> String {
        let _ = (tags, result);
        todo!()
    }
}
