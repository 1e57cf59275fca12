//! A game: a variant, a start position and the moves played — the facade the
//! bot uses. Positions are rebuilt by replaying moves, so the record
//! (start FEN + UCI moves) is the source of truth.

use crate::announce::Announcement;
use crate::bitboard::{Bits, U256};
use crate::error::{FenError, MoveError, ReplayError};
use crate::identity::{self, IdBoard};
use crate::material;
use crate::moves::Move;
use crate::notation;
use crate::outcome::{Outcome, Reason};
use crate::record::{looks_like_jump, Entry, Operation, PlayedMove};
use crate::rules::{Position, Rules};
use crate::search::{Board, SearchBoard};
use crate::side::Side;
use crate::tables::{AnyTables, Tables};
use crate::timeline::travel::{Jump, Travel};
use crate::variant::{Variant, VariantDef};
use crate::view::{Audience, View, Visibility};
use crate::visibility::kriegspiel;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

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

/// What a move typed in a Kriegspiel game turned out to be (see
/// [`Game::parse_attempt`]).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Attempt {
    /// A legal move: play it.
    Legal(Move),
    /// A move the player's own pieces could make but the real position does
    /// not allow, in UCI: record it with [`Game::record_impossible`].
    Impossible(String),
}

/// An impossible attempt in the record of a Kriegspiel game.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ImpossibleAttempt {
    /// Moves played before it (it was tried instead of move `ply + 1`).
    pub ply: usize,
    /// Who tried.
    pub side: Side,
    /// The attempt in UCI.
    pub uci: String,
}

/// Reads a Variant's compiled state for one bit-set width.
pub(crate) struct State<B: Bits> {
    pub(crate) tables: Arc<Tables<B>>,
    /// `positions[i]` is the position after `i` half-moves.
    pub(crate) positions: Vec<Position<B>>,
    pub(crate) moves: Vec<Move>,
    pub(crate) hashes: Vec<u64>,
    /// Legal moves of the last position.
    pub(crate) legal: Vec<Move>,
    /// Piece identities per position, parallel to `positions`.
    pub(crate) ids: Vec<IdBoard>,
    /// The next fresh piece identity.
    pub(crate) next_id: u32,
    /// Time travel: the last position of each abandoned timeline and the move
    /// that led to it, by timeline number − 1 (always empty in other variants).
    #[allow(clippy::type_complexity)]
    pub(crate) left: Vec<(Position<B>, Option<(Move, Position<B>)>)>,
}

impl<B: Bits> Clone for State<B> {
    fn clone(&self) -> Self {
        State {
            tables: self.tables.clone(),
            positions: self.positions.clone(),
            moves: self.moves.clone(),
            hashes: self.hashes.clone(),
            legal: self.legal.clone(),
            ids: self.ids.clone(),
            next_id: self.next_id,
            left: self.left.clone(),
        }
    }
}

#[derive(Clone)]
pub(crate) enum Inner {
    B64(State<u64>),
    B128(State<u128>),
    B256(State<U256>),
}

/// Runs `$body` with `$s` bound to the game's state and `$r` to its rules.
macro_rules! with_state {
    ($game:expr, $s:ident, $r:ident => $body:expr) => {
        match &$game.inner {
            Inner::B64($s) => {
                let $r = Rules {
                    def: &$game.variant.0,
                    t: &$s.tables,
                };
                $body
            }
            Inner::B128($s) => {
                let $r = Rules {
                    def: &$game.variant.0,
                    t: &$s.tables,
                };
                $body
            }
            Inner::B256($s) => {
                let $r = Rules {
                    def: &$game.variant.0,
                    t: &$s.tables,
                };
                $body
            }
        }
    };
}
pub(crate) use with_state;

/// A game in progress (or finished): variant, start position, moves.
#[derive(Clone)]
pub struct Game {
    pub(crate) variant: Variant,
    pub(crate) inner: Inner,
    history: Vec<PlayedMove>,
    attempts: Vec<ImpossibleAttempt>,
    /// Prisoner exchanges and retirements (Enochian chess): after how many
    /// half-moves, and what.
    pub(crate) operations: Vec<(usize, Operation)>,
    /// Time travel (only in variants with `[time_travel]`).
    pub(crate) travel: Option<Box<Travel>>,
    start_fen: String,
    chess960_number: Option<u16>,
}

impl fmt::Debug for Game {
    /// Shows only the variant and move count: a game's Debug must never reveal a hidden position.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Game")
            .field("variant", &self.variant.id())
            .field("ply", &self.history.len())
            .finish_non_exhaustive()
    }
}

/// What a perft counted ([`Game::perft_stoppable`]).
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct PerftCount {
    /// Per root move (or jump, in time travel) counted to the end, in UCI,
    /// its leaf nodes, in move order.
    pub divide: Vec<(String, u64)>,
    /// How many root moves (and jumps) there are.
    pub roots: usize,
    /// Whether the count was stopped before the end: `divide` then holds
    /// only the root moves finished before.
    pub stopped: bool,
    /// When stopped, the leaves counted in the root move under way.
    pub partial: u64,
}

impl PerftCount {
    /// The leaf nodes counted: the perft when it finished, what was counted
    /// before the stop otherwise.
    pub fn nodes(&self) -> u64 {
        self.divide.iter().map(|(_, n)| n).sum::<u64>() + self.partial
    }
}

impl<B: Bits> State<B> {
    fn new(rules: &Rules<B>, tables: Arc<Tables<B>>, start: Position<B>) -> State<B> {
        let mut legal = Vec::new();
        rules.legal_moves(&start, &mut legal);
        let (ids, next_id) = identity::number_start(&start, tables.size);
        State {
            ids: vec![ids],
            next_id,
            hashes: vec![rules.hash(&start)],
            positions: vec![start],
            moves: Vec::new(),
            left: Vec::new(),
            legal,
            tables,
        }
    }

    pub(crate) fn current(&self) -> &Position<B> {
        // `positions` always holds the start position.
        &self.positions[self.positions.len() - 1]
    }
}

fn new_state<B: Bits>(
    def: &VariantDef,
    tables: &Arc<Tables<B>>,
    fen: &str,
) -> Result<State<B>, FenError> {
    let pos = crate::fen::parse::<B>(def, fen)?;
    let rules = Rules { def, t: tables };
    // The side that just moved may not be left in check — except after a
    // setup phase, where that side has lost (see `mechanics::setup_check`),
    // and where kings are taken (a king in check may step into another).
    let waiting = 1 - pos.side as usize;
    if rules.royals(&pos, waiting).any()
        && rules.in_check(&pos, waiting)
        && !def.atomic
        && def.setup.is_none()
        && !def.king_capture
    {
        return Err(FenError::OpponentInCheck);
    }
    Ok(State::new(&rules, tables.clone(), pos))
}

impl Game {
    /// A new game of `variant`.
    pub fn new(variant: &Variant, start: Start) -> Result<Game, FenError> {
        let def = &variant.0;
        let (fen, number) = match start {
            Start::Fen(fen) => {
                let number = if def.chess960 {
                    chess960_number_of(&fen)
                } else {
                    None
                };
                (fen, number)
            }
            Start::Chess960(n) => match crate::chess960::start_fen(n) {
                Some(fen) if def.chess960 => (fen, Some(n)),
                Some(_) => return Err(FenError::NotChess960),
                None => return Err(FenError::Chess960Number(n)),
            },
            Start::Standard if def.chess960 => (
                crate::chess960::start_fen(518).unwrap_or_default(),
                Some(518),
            ),
            Start::Standard => (def.start_fen.clone(), None),
        };
        let inner = match variant.tables() {
            AnyTables::B64(t) => Inner::B64(new_state(def, t, &fen)?),
            AnyTables::B128(t) => Inner::B128(new_state(def, t, &fen)?),
            AnyTables::B256(t) => Inner::B256(new_state(def, t, &fen)?),
        };
        let mut game = Game {
            variant: variant.clone(),
            inner,
            history: Vec::new(),
            attempts: Vec::new(),
            operations: Vec::new(),
            travel: None,
            start_fen: String::new(),
            chess960_number: number,
        };
        game.start_fen = game.fen_at(0);
        if let Some(config) = def.time_travel {
            game.travel = Some(Box::new(Travel::new(
                config.charges,
                config.max_back,
                game.start_fen.clone(),
            )));
        }
        Ok(game)
    }

    /// Rebuilds a game from its record: the start FEN and the UCI moves
    /// (Kriegspiel's impossible attempts among them, marked `e2e4?`; in
    /// bughouse the pieces a partner passed on, `+n`, see [`Game::receive`]).
    pub fn replay<S: AsRef<str>>(
        variant: &Variant,
        start_fen: &str,
        moves: &[S],
    ) -> Result<Game, ReplayError> {
        let mut game =
            Game::new(variant, Start::Fen(start_fen.to_string())).map_err(ReplayError::Fen)?;
        for (ply, uci) in moves.iter().enumerate() {
            let uci = uci.as_ref();
            let replayed = match Entry::parse(uci) {
                Some(Entry::Impossible(attempt)) => {
                    game.record_impossible(attempt);
                    true
                }
                Some(entry @ (Entry::Exchange(..) | Entry::Retire(_))) => entry
                    .operation()
                    .is_some_and(|op| game.replay_operation(op)),
                Some(Entry::Gift(letter)) => game.receive(letter),
                Some(Entry::Move(action)) => game.apply_stored(action).is_some(),
                None => false,
            };
            if !replayed {
                return Err(ReplayError::Move {
                    ply,
                    uci: uci.chars().take(16).collect(),
                });
            }
        }
        Ok(game)
    }

    /// Applies one action of a stored record: a UCI move, or in time travel a
    /// jump (`t2f3`). `None` if it is not legal here; `Some(jump)` for a jump.
    pub(crate) fn apply_stored(&mut self, action: &str) -> Option<Option<Jump>> {
        if self.travel.is_some() && looks_like_jump(action) {
            return self.jump_text(action).ok().map(Some);
        }
        let mv = self
            .legal_moves()
            .into_iter()
            .find(|&m| self.uci(m) == action)?;
        self.play(mv);
        Some(None)
    }

    /// The variant.
    pub fn variant(&self) -> &Variant {
        &self.variant
    }
    /// The start position as FEN.
    pub fn start_fen(&self) -> String {
        self.start_fen.clone()
    }
    fn fen_at(&self, ply: usize) -> String {
        let chess960 = self.variant.0.chess960;
        with_state!(self, s, r => {
            let pos = &s.positions[ply.min(s.positions.len() - 1)];
            crate::fen::write(r.def, pos, chess960)
        })
    }
    /// The current position as FEN.
    pub fn fen(&self) -> String {
        self.fen_at(self.history.len())
    }
    /// The Chess960 start position number, for Chess960 games.
    pub fn chess960_number(&self) -> Option<u16> {
        self.chess960_number
    }
    /// Whose turn it is.
    pub fn side_to_move(&self) -> Side {
        with_state!(self, s, _r => s.current().turn())
    }
    /// Half-moves played in the present line (a time-travel jump rolls it
    /// back; [`Game::record`] holds every action).
    pub fn ply(&self) -> usize {
        self.history.len()
    }
    /// The full-move number (1 at the start, +1 after black's move).
    pub fn fullmove_number(&self) -> u32 {
        with_state!(self, s, _r => s.current().fullmove)
    }
    /// The moves of the present line, in both notations (in time travel the
    /// line restored by the last jump and what followed; see [`Game::record`]).
    pub fn history(&self) -> &[PlayedMove] {
        &self.history
    }
    pub(crate) fn history_mut(&mut self) -> &mut Vec<PlayedMove> {
        &mut self.history
    }
    /// The current position as a board for search: copy-make, an incremental
    /// hash, legal moves into a reused buffer (see [`crate::search`]).
    pub fn search_board(&self) -> SearchBoard<'_> {
        let def = &self.variant.0;
        match &self.inner {
            Inner::B64(s) => {
                SearchBoard::B64(Board::new(Rules { def, t: &s.tables }, *s.current()))
            }
            Inner::B128(s) => {
                SearchBoard::B128(Board::new(Rules { def, t: &s.tables }, *s.current()))
            }
            Inner::B256(s) => {
                SearchBoard::B256(Board::new(Rules { def, t: &s.tables }, *s.current()))
            }
        }
    }
    /// The hashes of the positions before the current one, oldest first: a
    /// search's memory of the game for repetitions
    /// ([`crate::search::think_with`]).
    pub fn position_hashes(&self) -> Vec<u64> {
        with_state!(self, s, _r => s.hashes[..s.hashes.len().saturating_sub(1)].to_vec())
    }
    /// The legal moves of the side to move (none when the game is over).
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        with_state!(self, s, _r => s.legal.clone())
    }
    /// The moves the side to move could try knowing only what its own
    /// view shows: the pseudo-legal moves (whether one leaves its own king
    /// in check is not asked), each with its SAN (no check marks)
    /// disambiguated among them alone. For hidden-information games, whose
    /// legal moves would tell of pins by pieces in the fog. None when the
    /// game is over.
    ///
    /// ```
    /// use kodex_engine::{Game, Registry, Start};
    /// let registry = Registry::builtin();
    /// let game = Game::new(registry.get("fogofwar").unwrap(), Start::Standard).unwrap();
    /// let tries = game.pseudo_legal_moves();
    /// assert_eq!(tries.len(), 20);
    /// assert!(tries.iter().any(|(_, san)| san == "Nf3"));
    /// ```
    pub fn pseudo_legal_moves(&self) -> Vec<(Move, String)> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        with_state!(self, s, r => {
            let mut list = Vec::new();
            r.pseudo_moves(s.current(), &mut list);
            list.iter()
                .map(|&raw| (raw, notation::san_body(&r, raw, &list)))
                .collect()
        })
    }
    /// The moves the board allows even where the game has already been
    /// drawn by repetition, the fifty-move rule or insufficient material:
    /// what an engine is asked to go on from (UCI `position … moves`).
    /// Empty where the rules themselves end the game (mate, stalemate, a
    /// king on the hill).
    pub fn board_moves(&self) -> Vec<Move> {
        if self.pending_jump().is_none()
            && with_state!(self, s, r => r.outcome(s.current(), &s.legal).is_some())
        {
            return Vec::new();
        }
        with_state!(self, s, _r => s.legal.clone())
    }
    /// Reads a move typed by a person (SAN, UCI, castling spellings, drops, Russian letters).
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        if self.outcome().is_some() {
            return Err(MoveError::Illegal);
        }
        let chess960 = self.variant.0.chess960;
        with_state!(self, s, r => notation::parse(&r, text, &s.legal, chess960))
    }
    /// Why `text`, which [`Game::parse_move`] refused as illegal, is not
    /// legal here: read from the mover's own pieces, pockets, rights and
    /// legal moves (see [`crate::Refusal`]). `None` where the game is over,
    /// where the text is not a move, and in Kriegspiel, whose referee only
    /// says "impossible".
    ///
    /// ```
    /// use kodex_engine::{Game, Registry, Start, Why};
    /// let registry = Registry::builtin();
    /// let game = Game::new(registry.get("chess").unwrap(), Start::Standard).unwrap();
    /// let refusal = game.why_illegal("Nd4").unwrap();
    /// assert_eq!(refusal.why, Why::NoneReaches);
    /// assert_eq!(refusal.legal, ["Na3", "Nc3", "Nf3", "Nh3"]);
    /// ```
    pub fn why_illegal(&self, text: &str) -> Option<crate::Refusal> {
        if self.outcome().is_some() || self.variant.0.visibility == Visibility::OwnPiecesOnly {
            return None;
        }
        with_state!(self, s, r => crate::refusal::explain(&r, s.current(), &s.legal, text))
    }
    /// Reads a move typed by the side to move as an attempt: in Kriegspiel
    /// from the player's own pieces only (see
    /// [`crate::visibility::kriegspiel`]), so whether it reads, and how,
    /// depends on nothing the player cannot see; then [`Attempt::Legal`] if
    /// the real position allows it, else [`Attempt::Impossible`]. Other
    /// variants read it as [`Game::parse_move`] does.
    ///
    /// ```
    /// use kodex_engine::{Attempt, Game, Registry, Start};
    /// let registry = Registry::builtin();
    /// let variant = registry.get("kriegspiel").unwrap();
    /// let mut game = Game::new(variant, Start::Standard).unwrap();
    /// game.play_text("e4").unwrap();
    /// game.play_text("e5").unwrap();
    /// // The e4 pawn may try to take on d5: nothing is there.
    /// assert_eq!(game.parse_attempt("exd5"), Ok(Attempt::Impossible("e4d5".into())));
    /// ```
    pub fn parse_attempt(&self, text: &str) -> Result<Attempt, MoveError> {
        if self.variant.0.visibility != Visibility::OwnPiecesOnly {
            return self.parse_move(text).map(Attempt::Legal);
        }
        if self.outcome().is_some() {
            return Err(MoveError::Illegal);
        }
        let chess960 = self.variant.0.chess960;
        with_state!(self, s, r => {
            let attempt = kriegspiel::parse_try(&r, s.current(), text, chess960)?;
            Ok(match kriegspiel::resolve(attempt, &s.legal) {
                Some(mv) => Attempt::Legal(mv),
                None => Attempt::Impossible(notation::uci(&r, attempt, chess960)),
            })
        })
    }
    /// Records an impossible attempt of the side to move (from
    /// [`Attempt::Impossible`]): the turn does not pass.
    pub fn record_impossible(&mut self, uci: &str) {
        self.attempts.push(ImpossibleAttempt {
            ply: self.history.len(),
            side: self.side_to_move(),
            uci: uci.chars().take(16).collect(),
        });
    }
    /// The impossible attempts so far, in order.
    pub fn impossible_attempts(&self) -> &[ImpossibleAttempt] {
        &self.attempts
    }
    /// A legal move in UCI.
    pub fn uci(&self, mv: Move) -> String {
        let chess960 = self.variant.0.chess960;
        with_state!(self, _s, r => notation::uci(&r, mv, chess960))
    }
    /// A legal move from square to square as people type it: UCI but for
    /// the variant's own file letters (`k1` where UCI says `j1` in
    /// four-handed chess).
    pub fn coordinates(&self, mv: Move) -> String {
        let chess960 = self.variant.0.chess960;
        with_state!(self, _s, r => notation::coordinates_for_people(&r, mv, chess960))
    }
    /// A legal move in SAN, with `+`/`#`.
    pub fn san(&self, mv: Move) -> String {
        with_state!(self, s, r => notation::san(&r, s.current(), mv, &s.legal))
    }
    /// Plays a legal move (from [`Game::legal_moves`] or [`Game::parse_move`]).
    /// A move that is not legal here is ignored and reported as such.
    pub fn play(&mut self, mv: Move) -> PlayedMove {
        let played = PlayedMove {
            uci: self.uci(mv),
            san: self.san(mv),
        };
        let def = &self.variant.0;
        macro_rules! apply {
            ($s:expr) => {{
                let s = $s;
                if s.legal.contains(&mv) {
                    let rules = Rules { def, t: &s.tables };
                    let mut next = *s.current();
                    rules.make(&mut next, mv);
                    let ids = identity::advance(
                        &rules,
                        &s.ids[s.ids.len() - 1],
                        mv,
                        &next,
                        &mut s.next_id,
                    );
                    s.ids.push(ids);
                    s.hashes.push(rules.hash(&next));
                    s.positions.push(next);
                    s.moves.push(mv);
                    let mut legal = std::mem::take(&mut s.legal);
                    rules.legal_moves(&next, &mut legal);
                    s.legal = legal;
                    true
                } else {
                    false
                }
            }};
        }
        let applied = match &mut self.inner {
            Inner::B64(s) => apply!(s),
            Inner::B128(s) => apply!(s),
            Inner::B256(s) => apply!(s),
        };
        if applied {
            self.history.push(played.clone());
            if let Some(travel) = &mut self.travel {
                travel.moved(&played);
            }
        }
        played
    }
    /// Parses and plays typed move text.
    pub fn play_text(&mut self, text: &str) -> Result<PlayedMove, MoveError> {
        let mv = self.parse_move(text)?;
        Ok(self.play(mv))
    }
    /// Takes back the last half-move (in time travel: the last action of
    /// [`Game::record`], a move or a jump); false at the start.
    pub fn undo(&mut self) -> bool {
        if let Some(travel) = &self.travel {
            let mut record = travel.record.clone();
            if record.pop().is_none() {
                return false;
            }
            return match Game::replay(&self.variant, &self.start_fen, &record) {
                Ok(game) => {
                    *self = game;
                    true
                }
                Err(_) => false,
            };
        }
        if self.history.is_empty() {
            return false;
        }
        let def = &self.variant.0;
        macro_rules! pop {
            ($s:expr) => {{
                let s = $s;
                s.positions.pop();
                s.ids.pop();
                s.hashes.pop();
                s.moves.pop();
                let rules = Rules { def, t: &s.tables };
                let mut legal = std::mem::take(&mut s.legal);
                rules.legal_moves(s.current(), &mut legal);
                s.legal = legal;
            }};
        }
        match &mut self.inner {
            Inner::B64(s) => pop!(s),
            Inner::B128(s) => pop!(s),
            Inner::B256(s) => pop!(s),
        }
        self.history.pop();
        let ply = self.history.len();
        self.attempts.retain(|attempt| attempt.ply <= ply);
        self.operations.retain(|&(at, _)| at <= ply);
        true
    }
    /// The seat whose turn it is: seats take turns in order from the start
    /// position's side to move (see [`VariantDef::side_of_seat`]).
    pub fn seat_to_move(&self) -> usize {
        let seats = self.variant.players().max(1);
        if self.variant.0.pieces.iter().any(|p| p.seat.is_some()) {
            // Pieces owned by seats: the move number says which seat of the
            // side is on turn, as the rules read it (also from a FEN).
            return with_state!(self, s, _r => {
                let pos = s.current();
                pos.side as usize + 2 * crate::rules::seat_on_turn(pos, pos.side as usize)
            });
        }
        let first = with_state!(self, s, _r => s.positions[0].side as usize);
        (first + self.history.len()) % seats
    }
    /// The pass, where it is the only legal move of the seat on turn (a
    /// mated or stalemated player of a game of four): nothing to choose, so
    /// the service plays it at once. `None` where the seat has another move
    /// (Janggi's pass is a choice) or the game is over.
    pub fn forced_pass(&self) -> Option<Move> {
        with_state!(self, s, _r => match s.legal.as_slice() {
            [only] if crate::mechanics::palace::is_pass(*only) => Some(*only),
            _ => None,
        })
    }
    /// What the seat on turn is left to do by the rules of pieces owned by
    /// seats (four-handed chess): pass, or take a mated king. `None` in an
    /// ordinary turn and in every other variant.
    pub fn forced_turn(&self) -> Option<crate::ForcedTurn> {
        with_state!(self, s, r => r.forced_turn(s.current(), &s.legal))
    }
    /// What `audience` is told about the last half-move, by the variant's
    /// visibility policy: in hidden-information games only the mover learns
    /// the move; in fog only the side in check learns of the check; in
    /// Kriegspiel the referee tells everyone the capture square, the check
    /// directions and the pawn tries of the side to move — or, when the
    /// last thing that happened was an impossible attempt, only that.
    pub fn announcements(&self, audience: Audience) -> Vec<Announcement> {
        if let Some(attempt) = self.attempts.last().filter(|a| a.ply == self.history.len()) {
            return vec![Announcement::Impossible { side: attempt.side }];
        }
        let Some(last) = self.history.last() else {
            return Vec::new();
        };
        let kriegspiel = self.variant.0.visibility == Visibility::OwnPiecesOnly;
        let mover = with_state!(self, s, _r => s.positions[s.positions.len() - 2].turn());
        let to_move = self.side_to_move();
        let everything = !self.variant.hidden_information() || audience == Audience::Full;
        let knows_move = everything || audience == Audience::Side(mover);
        let san = if kriegspiel && !everything {
            // The mover's own words for the move: nothing hidden in them.
            with_state!(self, s, r => {
                let ply = s.moves.len() - 1;
                kriegspiel::own_san(&r, &s.positions[ply], s.moves[ply])
            })
        } else {
            last.san.clone()
        };
        let mut told = vec![Announcement::Moved {
            side: mover,
            san: knows_move.then_some(san),
        }];
        if kriegspiel {
            told.extend(with_state!(self, s, r => {
                let ply = s.moves.len() - 1;
                kriegspiel::captured_square(&s.positions[ply], s.moves[ply]).map(|square| {
                    Announcement::Capture {
                        side: mover,
                        square: r.def.geometry.name(square),
                    }
                })
            }));
        }
        if self.in_check() && (kriegspiel || everything || audience == Audience::Side(to_move)) {
            let directions = if kriegspiel {
                with_state!(self, s, r => kriegspiel::check_directions(&r, s.current()))
            } else {
                Vec::new()
            };
            told.push(Announcement::Check {
                side: to_move,
                directions,
            });
        }
        if kriegspiel && self.outcome().is_none() {
            let count = with_state!(self, s, r => kriegspiel::pawn_tries(&r, &s.legal));
            if count > 0 {
                told.push(Announcement::PawnTries {
                    side: to_move,
                    count,
                });
            }
        }
        told
    }
    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        with_state!(self, s, r => {
            let pos = s.current();
            r.in_check(pos, pos.side as usize)
        })
    }
    /// The outcome if the game has ended by the rules.
    pub fn outcome(&self) -> Option<Outcome> {
        if self.pending_jump().is_some() {
            // Half a turn: the jumper moves next, whatever the restored board repeats.
            return None;
        }
        with_state!(self, s, r => {
            let pos = s.current();
            if let Some(o) = r.outcome(pos, &s.legal) {
                return Some(o);
            }
            let hash = s.hashes[s.hashes.len() - 1];
            // `decide_draw`: a draw, or a win on points where the variant counts them.
            if s.hashes.iter().filter(|&&h| h == hash).count() >= 3 {
                return Some(r.decide_draw(pos, Reason::Repetition));
            }
            if pos.halfmove >= 100 {
                return Some(r.decide_draw(pos, Reason::FiftyMoves));
            }
            if material::insufficient(&r, pos, 0) && material::insufficient(&r, pos, 1) {
                return Some(r.decide_draw(pos, Reason::InsufficientMaterial));
            }
            None
        })
    }
    /// Whether `side` could still possibly win (used when the opponent's flag falls:
    /// without mating material the flag is a draw).
    pub fn has_mating_material(&self, side: Side) -> bool {
        with_state!(self, s, r => !material::insufficient(&r, s.current(), side.index() & 1))
    }
    /// What `audience` may see of the current position.
    pub fn view(&self, audience: Audience) -> View {
        self.view_at(self.history.len(), audience)
    }
    /// What `audience` may see after half-move `ply` (0 = the start), for game GIFs.
    pub fn view_at(&self, ply: usize, audience: Audience) -> View {
        with_state!(self, s, r => {
            let ply = ply.min(s.moves.len());
            let last = ply.checked_sub(1).map(|i| (s.moves[i], &s.positions[i]));
            crate::visibility::view(&r, &s.positions[ply], last, audience)
        })
    }
    /// The identity of the piece on `square` after half-move `ply` (0 = the start):
    /// a number that stays with the piece across moves, castling and promotion.
    pub fn piece_id_at(&self, ply: usize, square: u16) -> Option<u32> {
        with_state!(self, s, _r => s
            .ids
            .get(ply)
            .and_then(|ids| ids.get(square as usize))
            .copied()
            .filter(|&id| id != 0))
    }
    /// Where the piece with identity `id` stood after half-move `ply`, if it was on the board.
    pub fn square_of_piece(&self, ply: usize, id: u32) -> Option<u16> {
        with_state!(self, s, _r => s
            .ids
            .get(ply)
            .and_then(|ids| ids.iter().position(|&i| i == id && id != 0))
            .map(|sq| sq as u16))
    }
    /// The squares (origin, destination) of the move played at `ply` (0-based), for highlights.
    pub fn move_squares(&self, ply: usize) -> Option<(u16, u16)> {
        with_state!(self, s, _r => s.moves.get(ply).map(|m| (m.from as u16, m.to as u16)))
    }
    /// The game as PGN, with extra `tags` (Event, White, Black …) and the result
    /// (`"1-0"`, `"0-1"`, `"1/2-1/2"`, `"*"`).
    pub fn pgn(&self, tags: &[(&str, &str)], result: &str) -> String {
        if self.travel.is_some() {
            return self.timelines_pgn(tags, result);
        }
        let mut out = String::new();
        let has = |name: &str| tags.iter().any(|(k, _)| k.eq_ignore_ascii_case(name));
        pgn_tags(&mut out, tags);
        if !has("Variant") && self.variant.id() != "chess" {
            out.push_str(&format!("[Variant \"{}\"]\n", self.variant.name("en")));
        }
        let standard_start = self.start_fen == self.variant.0.start_fen;
        if !standard_start && !has("FEN") {
            out.push_str(&format!("[SetUp \"1\"]\n[FEN \"{}\"]\n", self.start_fen));
        }
        if !has("Result") {
            out.push_str(&format!("[Result \"{result}\"]\n"));
        }
        out.push('\n');
        let start_black = with_state!(self, s, _r => s.positions[0].side == 1);
        let first_number = with_state!(self, s, _r => s.positions[0].fullmove);
        // Kriegspiel's impossible attempts are comments before the move that followed.
        let attempts_at = |ply: usize| -> String {
            let exchanges = self
                .operations
                .iter()
                .filter(|&&(at, _)| at == ply)
                .map(|&(_, op)| op.comment());
            self.attempts
                .iter()
                .filter(|attempt| attempt.ply == ply)
                .map(|attempt| format!("{{impossible {}}} ", attempt.uci))
                .chain(exchanges)
                .collect()
        };
        if self.variant.0.pieces.iter().any(|p| p.seat.is_some()) {
            // Four-handed chess: a number for each round of the four seats.
            let first_turn = with_state!(self, s, _r => {
                let pos = &s.positions[0];
                pos.side as usize + 2 * crate::rules::seat_on_turn(pos, pos.side as usize)
            });
            let first_round = first_number.max(1).div_ceil(2);
            out.push_str(&movetext_in_rounds(
                first_turn,
                4,
                first_round,
                &self.history,
                attempts_at,
                result,
            ));
            return out;
        }
        out.push_str(&pgn_movetext(
            start_black,
            first_number,
            &self.history,
            attempts_at,
            result,
        ));
        out
    }

    /// Counts leaf nodes `depth` plies deep from the current position (perft),
    /// per root move in UCI (`chess960`: castling written king-takes-rook).
    /// The count recurses `depth` calls deep: `kodex uci` takes depths up to
    /// 20 (`kodex_uci::MAX_PERFT_DEPTH`).
    pub fn perft(&self, depth: u32, chess960: bool) -> Vec<(String, u64)> {
        self.perft_stoppable(depth, chess960, &AtomicBool::new(false))
            .divide
    }

    /// [`Game::perft`] that ends early once `stop` is raised (by another
    /// thread): the root moves counted to the end before it, the leaves
    /// counted in the one under way, and whether it stopped. The flag is read
    /// at every node with moves to count one by one, so a perft of depth 1
    /// always finishes.
    pub fn perft_stoppable(&self, depth: u32, chess960: bool, stop: &AtomicBool) -> PerftCount {
        let stopped = || stop.load(Ordering::Relaxed);
        with_state!(self, s, r => {
            let pos = s.current();
            let mut buffers = Vec::new();
            let mut roots = Vec::new();
            r.legal_moves(pos, &mut roots);
            let mut count = PerftCount {
                divide: Vec::with_capacity(roots.len()),
                roots: roots.len(),
                ..PerftCount::default()
            };
            for &mv in &roots {
                let mut next = *pos;
                r.make(&mut next, mv);
                let n = if depth <= 1 {
                    Ok(1)
                } else {
                    r.perft_until(&next, depth - 1, &mut buffers, &stopped)
                };
                match n {
                    Ok(n) => count.divide.push((notation::uci(&r, mv, chess960), n)),
                    Err(n) => {
                        count.partial = n;
                        count.stopped = true;
                        break;
                    }
                }
            }
            count
        })
    }

    /// Counts leaf nodes `depth` plies deep (perft) without dividing.
    pub fn perft_total(&self, depth: u32) -> u64 {
        with_state!(self, s, r => {
            let mut buffers = Vec::new();
            r.perft(s.current(), depth, &mut buffers)
        })
    }

    /// A legal move in UCI with castling written king-takes-rook (`chess960`) or
    /// king-to-destination.
    pub fn uci_with(&self, mv: Move, chess960: bool) -> String {
        with_state!(self, _s, r => notation::uci(&r, mv, chess960))
    }
}

/// Writes PGN tag pairs, escaped.
pub(crate) fn pgn_tags(out: &mut String, tags: &[(&str, &str)]) {
    for (k, v) in tags {
        out.push_str(&format!(
            "[{k} \"{}\"]\n",
            v.replace('\\', "\\\\").replace('"', "\\\"")
        ));
    }
}

/// PGN movetext: numbered SAN moves from a start (`start_black`: black moves
/// first, numbered from `first_number`), `comments_at(i)` before move `i`
/// (and after the last), the result, wrapped at 80 columns.
pub(crate) fn pgn_movetext(
    start_black: bool,
    first_number: u32,
    moves: &[PlayedMove],
    comments_at: impl Fn(usize) -> String,
    result: &str,
) -> String {
    movetext_in_rounds(
        usize::from(start_black),
        2,
        first_number,
        moves,
        comments_at,
        result,
    )
}

/// Movetext numbered by rounds of `turns` moves (two in chess; four in
/// four-handed chess, one a seat), the first move being turn `first_turn`
/// of its round.
fn movetext_in_rounds(
    first_turn: usize,
    turns: usize,
    first_number: u32,
    moves: &[PlayedMove],
    comments_at: impl Fn(usize) -> String,
    result: &str,
) -> String {
    let mut line = String::new();
    for (i, mv) in moves.iter().enumerate() {
        let ply = i + first_turn;
        let number = first_number as usize + ply / turns;
        let comments = comments_at(i);
        if ply % turns == 0 {
            line.push_str(&comments);
            line.push_str(&format!("{number}. "));
        } else if i == 0 || !comments.is_empty() {
            // Black's move after a comment names its number again.
            line.push_str(&comments);
            line.push_str(&format!("{number}... "));
        }
        line.push_str(&mv.san);
        line.push(' ');
    }
    line.push_str(&comments_at(moves.len()));
    line.push_str(result);
    let mut out = String::new();
    let mut width = 0;
    for word in line.split(' ') {
        if width + word.len() + 1 > 80 && width > 0 {
            out.push('\n');
            width = 0;
        } else if width > 0 {
            out.push(' ');
            width += 1;
        }
        out.push_str(word);
        width += word.len();
    }
    out.push('\n');
    out
}

fn chess960_number_of(fen: &str) -> Option<u16> {
    let board = fen.split_whitespace().next()?;
    let white = board.rsplit('/').next()?;
    crate::chess960::number_of(white)
}
