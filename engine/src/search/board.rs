//! A board for search: a position, its rules and its hash, cheap to copy.

use crate::bitboard::{Bits, U256};
use crate::moves::{Move, MoveList};
use crate::outcome::Outcome;
use crate::rules::{Position, Rules};
use crate::side::Side;

/// One position of a game with the rules acting on it and its Zobrist hash,
/// for one bit-set width. `Copy`: a search copies the board, plays a move on
/// the copy ([`Board::make`]) and drops it to take the move back.
///
/// The hash is kept incrementally and always equals [`Rules::hash`] of the
/// position, so it can key a transposition table and detect repetitions
/// alongside [`crate::Game`]'s own history.
///
/// ```
/// use kodex_engine::{Game, Registry, Start};
/// use kodex_engine::search::SearchBoard;
/// let registry = Registry::builtin();
/// let game = Game::new(registry.get("chess").unwrap(), Start::Standard).unwrap();
/// let SearchBoard::B64(board) = game.search_board() else { unreachable!() };
/// let mut moves = Vec::new();
/// board.legal_moves_into(&mut moves);
/// assert_eq!(moves.len(), 20);
/// let mut next = board;
/// next.make(moves[0]);
/// assert_ne!(next.hash(), board.hash());
/// ```
#[derive(Copy, Clone)]
pub struct Board<'a, B: Bits> {
    rules: Rules<'a, B>,
    position: Position<B>,
    hash: u64,
}

impl<'a, B: Bits> Board<'a, B> {
    /// A board for `position` under `rules`.
    pub fn new(rules: Rules<'a, B>, position: Position<B>) -> Self {
        let hash = rules.hash(&position);
        Board {
            rules,
            position,
            hash,
        }
    }

    /// Replaces `list` by the legal moves (none when the game is over by a
    /// rule of the variant). Reuse one list per ply to avoid allocating.
    #[inline]
    pub fn legal_moves_into(&self, list: &mut MoveList) {
        self.rules.legal_moves(&self.position, list);
    }

    /// Plays `mv`, which must be one of [`Board::legal_moves_into`]'s moves
    /// (any other move leaves an unspecified, though memory-safe, position),
    /// updating the hash incrementally.
    #[inline]
    pub fn make(&mut self, mv: Move) {
        self.hash = self.rules.make_hashed(&mut self.position, mv, self.hash);
    }

    /// Passes the turn (a null move, for null-move pruning): the other side
    /// moves next, en passant lapses, the hash follows.
    #[inline]
    pub(crate) fn make_null(&mut self) {
        let before = self.position;
        self.position.side ^= 1;
        self.position.ep = None;
        self.position.ep_victim = None;
        self.hash = self.rules.hash_after(&before, &self.position, self.hash);
    }

    /// The Zobrist hash of the position, equal to [`Rules::hash`].
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Side {
        self.position.turn()
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        let side = self.position.side as usize;
        self.rules.in_check(&self.position, side)
    }

    /// The outcome by the rules of the variant, given the legal moves of the
    /// position (from [`Board::legal_moves_into`]): mate, stalemate and the
    /// variants' own ends. Repetition, the fifty-move rule and material are
    /// the caller's (the search knows its own line).
    pub fn outcome(&self, legal: &[Move]) -> Option<Outcome> {
        self.rules.outcome(&self.position, legal)
    }

    /// The position.
    #[inline]
    pub fn position(&self) -> &Position<B> {
        &self.position
    }

    /// The rules acting on the position.
    #[inline]
    pub fn rules(&self) -> Rules<'a, B> {
        self.rules
    }
}

/// A [`Board`] of whichever width the game's board needs, from
/// [`crate::Game::search_board`]. A search matches once and runs generic
/// code on the inner [`Board`] (monomorphised per width); the methods here
/// dispatch on every call, for callers that do not care.
// Not boxed: a search matches once and copies the inner `Board` of its own
// width, so the enum's size never reaches the hot path, and it stays `Copy`.
#[allow(clippy::large_enum_variant)]
#[derive(Copy, Clone)]
pub enum SearchBoard<'a> {
    /// Boards of up to 64 squares.
    B64(Board<'a, u64>),
    /// Boards of up to 128 squares.
    B128(Board<'a, u128>),
    /// Boards of up to 256 squares.
    B256(Board<'a, U256>),
}

macro_rules! dispatch {
    ($self:expr, $board:ident => $body:expr) => {
        match $self {
            SearchBoard::B64($board) => $body,
            SearchBoard::B128($board) => $body,
            SearchBoard::B256($board) => $body,
        }
    };
}

impl SearchBoard<'_> {
    /// See [`Board::legal_moves_into`].
    pub fn legal_moves_into(&self, list: &mut MoveList) {
        dispatch!(self, board => board.legal_moves_into(list))
    }

    /// See [`Board::make`].
    pub fn make(&mut self, mv: Move) {
        dispatch!(self, board => board.make(mv))
    }

    /// See [`Board::hash`].
    pub fn hash(&self) -> u64 {
        dispatch!(self, board => board.hash())
    }

    /// See [`Board::side_to_move`].
    pub fn side_to_move(&self) -> Side {
        dispatch!(self, board => board.side_to_move())
    }

    /// See [`Board::in_check`].
    pub fn in_check(&self) -> bool {
        dispatch!(self, board => board.in_check())
    }

    /// See [`Board::outcome`].
    pub fn outcome(&self, legal: &[Move]) -> Option<Outcome> {
        dispatch!(self, board => board.outcome(legal))
    }

    /// The hash recomputed from scratch (what [`SearchBoard::hash`] keeps incrementally).
    pub fn hash_from_scratch(&self) -> u64 {
        dispatch!(self, board => board.rules.hash(&board.position))
    }
}
