//! Time travel (Codex 03): jumps into the jumper's own past, and the
//! timelines they leave behind.
//!
//! A jump spends a charge, rolls the board back `back` of the jumper's own
//! moves and brings one piece (by identity, see [`crate::identity`]) from the
//! present to the square where it stands now; then the jumper moves again.
//! The jump and that move are one turn. Only a variant with `[time_travel]`
//! pays for any of this: other games carry an empty `Option`.
//!
//! Notation: people write `T-2:Nf3` (`Т-2:Кf3` in Russian, `T2Nf3`, `t2f3`);
//! the record stores `t2f3`, among the UCI moves.
//!
//! ```
//! use kodex_engine::{Game, Registry, Start};
//! let registry = Registry::builtin();
//! let mut game = Game::new(registry.get("timetravel").unwrap(), Start::Standard).unwrap();
//! for mv in ["e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6"] {
//!     game.play_text(mv).unwrap();
//! }
//! let turn = game.play_turn("T-2:Bc4 d4").unwrap();
//! assert_eq!(turn.record(), ["t2c4", "d2d4"]);
//! assert_eq!(game.charges(game.side_to_move().opponent()), Some(1));
//! assert_eq!(game.timelines().len(), 1);
//! ```

mod landing;
mod perft;
mod pgn;
pub(crate) mod travel;

use crate::bitboard::Bits;
use crate::error::MoveError;
use crate::game::{Game, Inner};
use crate::notation;
use crate::record::{looks_like_jump, PlayedMove};
use crate::rules::Rules;
use crate::side::Side;
use crate::view::{Audience, View};
use landing::{commit, prepare};
use std::fmt;
use travel::Segment;
pub use travel::{Jump, Timeline};

/// Longest jump text we try to read.
const MAX_JUMP_TEXT: usize = 24;

/// Why a jump was refused: each rule of VARIANTS.md "03 Time travel" is its
/// own variant so the bot can say it in the player's language;
/// [`Display`](fmt::Display) gives English.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum JumpError {
    /// The variant has no time travel.
    NotTimeTravel,
    /// Not a jump in any notation we read (`T-2:Nf3`, `t2f3`).
    Unparseable,
    /// The game is over.
    GameOver,
    /// A jump was made this turn; now the jumper must move.
    MoveAfterJumpPending,
    /// The jumper has spent all charges.
    NoCharges,
    /// A jump goes back 1 to `max` own moves.
    TooFarBack {
        /// The most own moves a jump may go back.
        max: u8,
    },
    /// The jumper has not made that many moves in the present timeline.
    NotThatManyMoves {
        /// Own moves made in the present timeline.
        made: usize,
    },
    /// No piece of the jumper stands on that square now.
    NotYourPiece,
    /// The king does not travel.
    KingCannotTravel,
    /// The piece letter typed is not the piece on that square.
    WrongPiece,
    /// In the past the square holds one of the jumper's own pieces.
    OwnPieceThere,
    /// In the past the square holds a king.
    KingThere,
    /// The piece already stood on that square then: not a jump.
    SameSquare,
    /// The appearance would give check to the opponent.
    GivesCheck,
    /// A pawn may not be landed on the first or last rank.
    PawnOnEdgeRank,
    /// After the jump the jumper would have no legal move.
    NoMoveAfter,
}

impl fmt::Display for JumpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JumpError::NotTimeTravel => f.write_str("this variant has no time travel"),
            JumpError::Unparseable => f.write_str("not a jump (write it like T-2:Nf3)"),
            JumpError::GameOver => f.write_str("the game is over"),
            JumpError::MoveAfterJumpPending => {
                f.write_str("you have jumped this turn: now make your move")
            }
            JumpError::NoCharges => f.write_str("no time charges left"),
            JumpError::TooFarBack { max } => {
                write!(f, "a jump goes back 1 to {max} of your own moves")
            }
            JumpError::NotThatManyMoves { made } => {
                write!(f, "you have made only {made} own move(s) in this timeline")
            }
            JumpError::NotYourPiece => f.write_str("none of your pieces stands on that square"),
            JumpError::KingCannotTravel => f.write_str("the king cannot travel in time"),
            JumpError::WrongPiece => f.write_str("that is not the piece on that square"),
            JumpError::OwnPieceThere => {
                f.write_str("in the past your own piece stands on that square")
            }
            JumpError::KingThere => f.write_str("in the past a king stands on that square"),
            JumpError::SameSquare => {
                f.write_str("the piece already stood on that square then: that is no jump")
            }
            JumpError::GivesCheck => f.write_str("the appearance would give check"),
            JumpError::PawnOnEdgeRank => {
                f.write_str("a pawn may not appear on the first or last rank")
            }
            JumpError::NoMoveAfter => f.write_str("after that jump you would have no legal move"),
        }
    }
}

impl std::error::Error for JumpError {}

/// One turn typed as text: a move, a jump, or a jump and its move (see [`Game::play_turn`]).
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Turn {
    /// The jump, if the turn began with one.
    pub jump: Option<Jump>,
    /// The move, if one was made (a jump alone leaves the follow-up pending).
    pub moved: Option<PlayedMove>,
}

impl Turn {
    /// What to append to the stored move list, in order (`t2f3`, `e7e5`).
    pub fn record(&self) -> Vec<String> {
        self.jump
            .iter()
            .map(|j| j.uci.clone())
            .chain(self.moved.iter().map(|m| m.uci.clone()))
            .collect()
    }
}

/// Why typed turn text was not played.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum TurnError {
    /// The jump was refused.
    Jump(JumpError),
    /// The move was refused (after a refused follow-up the jump is not made either).
    Move(MoveError),
}

impl fmt::Display for TurnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TurnError::Jump(e) => e.fmt(f),
            TurnError::Move(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for TurnError {}

/// A jump as read: how far back, and the square of the traveller now.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct JumpRequest {
    /// Own moves back.
    pub back: u8,
    /// The traveller's square now.
    pub square: u16,
    /// The piece type typed, if any (checked against the square).
    piece: Option<usize>,
}

impl JumpRequest {
    /// A jump `back` own moves with the piece now on `square` (an index, as
    /// in [`View::squares`]).
    pub fn new(back: u8, square: u16) -> JumpRequest {
        JumpRequest {
            back,
            square,
            piece: None,
        }
    }
}

/// One step of the game as it happened, for a game-end animation: the
/// board after each action of [`Game::record`].
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Frame {
    /// The board after the action (its `last_move` lights a move; after a
    /// jump it still shows the restored moment's last move).
    pub view: View,
    /// The jump, when the action was one: light [`Jump::appeared`] and [`Jump::vanished`].
    pub jump: Option<Jump>,
}

impl Game {
    /// Whether this game has time travel.
    pub fn has_time_travel(&self) -> bool {
        self.travel.is_some()
    }

    /// The time charges `side` has left (`None` without time travel).
    pub fn charges(&self, side: Side) -> Option<u8> {
        let travel = self.travel.as_ref()?;
        travel.charges.get(side.index()).copied()
    }

    /// The jump made this turn whose follow-up move is still to come: only
    /// the jumper's move is legal now.
    pub fn pending_jump(&self) -> Option<&Jump> {
        self.travel.as_ref()?.pending.as_ref()
    }

    /// Every jump made, in order.
    pub fn jumps(&self) -> &[Jump] {
        self.travel.as_ref().map_or(&[], |t| &t.jumps)
    }

    /// The jump of the current or the last completed turn, for highlights on
    /// the present board: [`Jump::appeared`] (the traveller's landing square)
    /// and [`Jump::vanished`] (where it stood in the past).
    pub fn last_turn_jump(&self) -> Option<&Jump> {
        let travel = self.travel.as_ref()?;
        if let Some(pending) = &travel.pending {
            return Some(pending);
        }
        let n = travel.record.len();
        let before_last = travel.record.get(n.checked_sub(2)?)?;
        if looks_like_jump(before_last) {
            travel.jumps.last()
        } else {
            None
        }
    }

    /// The abandoned timelines, numbered from 1 in the order they were left.
    pub fn timelines(&self) -> &[Timeline] {
        self.travel.as_ref().map_or(&[], |t| &t.timelines)
    }

    /// The board of timeline `number` at the moment it was left, for `/timeline`.
    pub fn timeline_view(&self, number: usize, audience: Audience) -> Option<View> {
        let index = number.checked_sub(1)?;
        crate::game::with_state!(self, s, r => {
            let (position, last) = s.left.get(index)?;
            let last = last.as_ref().map(|(mv, before)| (*mv, before));
            Some(crate::visibility::view(&r, position, last, audience))
        })
    }

    /// The game as it happened, one frame per action of [`Game::record`]
    /// (the start first), jumps included: what a game-end GIF shows.
    pub fn frames(&self, audience: Audience) -> Vec<Frame> {
        let Some(travel) = &self.travel else {
            return (0..=self.ply())
                .map(|ply| Frame {
                    view: self.view_at(ply, audience),
                    jump: None,
                })
                .collect();
        };
        let Ok(mut game) = Game::new(&self.variant, crate::game::Start::Fen(self.start_fen()))
        else {
            return Vec::new();
        };
        let mut frames = vec![Frame {
            view: game.view(audience),
            jump: None,
        }];
        for action in &travel.record {
            let Some(jump) = game.apply_stored(action) else {
                break;
            };
            frames.push(Frame {
                view: game.view(audience),
                jump,
            });
        }
        frames
    }

    /// Every action of the game in order, as the bot stores it (UCI moves and
    /// `t2f3` jumps); [`Game::replay`] rebuilds the same game, timelines and all.
    pub fn record(&self) -> Vec<String> {
        match &self.travel {
            Some(travel) => travel.record.clone(),
            None => self.record_with_operations(),
        }
    }

    /// Reads a jump typed by a person (`T-2:Nf3`, `T2Nf3`, `Т-2:Кf3`, `T-1:e5`)
    /// or from the wire (`t2f3`), without checking its rules.
    pub fn parse_jump(&self, text: &str) -> Result<JumpRequest, JumpError> {
        if self.travel.is_none() {
            return Err(JumpError::NotTimeTravel);
        }
        let text = text.trim();
        if text.len() > MAX_JUMP_TEXT || !looks_like_jump(text) {
            return Err(JumpError::Unparseable);
        }
        let mut chars = text.chars();
        chars.next();
        let rest = chars.as_str();
        let rest = rest.strip_prefix(['-', '−', '–']).unwrap_or(rest);
        let digits = rest.chars().take_while(char::is_ascii_digit).count();
        let back: u8 = rest[..digits].parse().map_err(|_| JumpError::Unparseable)?;
        let rest = rest[digits..].trim_start_matches([':', ' ']);
        crate::game::with_state!(self, _s, r => {
            let rest = notation::latinize(&r, rest);
            let (piece, square) = match rest.chars().next() {
                Some(c) if c.is_ascii_uppercase() => {
                    let piece = r.def.piece_by_letter(c).ok_or(JumpError::Unparseable)?;
                    (Some(piece), &rest[1..])
                }
                _ => (None, rest.as_str()),
            };
            let square = r.def.geometry.parse(square).ok_or(JumpError::Unparseable)?;
            Ok(JumpRequest { back, square: square as u16, piece })
        })
    }

    /// Checks a jump against every rule without making it.
    pub fn check_jump(&self, request: JumpRequest) -> Result<(), JumpError> {
        self.jump_landing_check(request).map(|_| ())
    }

    fn jump_landing_check(&self, request: JumpRequest) -> Result<usize, JumpError> {
        let travel = self.travel.as_ref().ok_or(JumpError::NotTimeTravel)?;
        if travel.pending.is_some() {
            return Err(JumpError::MoveAfterJumpPending);
        }
        if self.outcome().is_some() {
            return Err(JumpError::GameOver);
        }
        let side = self.side_to_move().index();
        if travel.charges.get(side).copied().unwrap_or(0) == 0 {
            return Err(JumpError::NoCharges);
        }
        if request.back == 0 || request.back > travel.max_back {
            return Err(JumpError::TooFarBack {
                max: travel.max_back,
            });
        }
        let square = request.square as usize;
        crate::game::with_state!(self, s, r => {
            if !r.def.geometry.exists(square) || square >= s.ids[0].len() {
                return Err(JumpError::Unparseable);
            }
            let landing = prepare(&r, s, request.back, square)?;
            if request.piece.is_some_and(|p| p != landing.piece) {
                return Err(JumpError::WrongPiece);
            }
            Ok(landing.piece)
        })
    }

    /// Makes a jump typed as text (see [`Game::parse_jump`]); then only the
    /// jumper's follow-up move is legal ([`Game::pending_jump`]). Store
    /// [`Jump::uci`] in the record.
    pub fn jump_text(&mut self, text: &str) -> Result<Jump, JumpError> {
        let request = self.parse_jump(text)?;
        self.jump(request)
    }

    /// Makes a jump: spends a charge, restores the board `request.back` own
    /// moves ago with the traveller on its present square, and keeps the
    /// abandoned line as a timeline.
    pub fn jump(&mut self, request: JumpRequest) -> Result<Jump, JumpError> {
        let piece = self.jump_landing_check(request)?;
        let side = self.side_to_move();
        let square = request.square as usize;
        let from_ply = self.ply();
        let chess960 = self.variant.0.chess960;
        let def = self.variant.0.clone();
        let piece_def = &def.pieces[piece];
        let square_name = def.geometry.name(square);
        let letter = if piece_def.pawn {
            String::new()
        } else {
            piece_def.letter.to_ascii_uppercase().to_string()
        };
        let left_fen = self.fen();
        macro_rules! apply {
            ($s:expr) => {{
                let s = $s;
                let tables = s.tables.clone();
                let r = Rules {
                    def: &def,
                    t: &tables,
                };
                let landing = prepare(&r, s, request.back, square)?;
                let made = (landing.to_ply, landing.vanished, landing.destroyed);
                commit(&r, s, landing);
                let fen = crate::fen::write(&def, s.current(), chess960);
                (made, fen, s.current().fullmove)
            }};
        }
        let ((to_ply, vanished, destroyed), start_fen, branch_move_number) = match &mut self.inner {
            Inner::B64(s) => apply!(s),
            Inner::B128(s) => apply!(s),
            Inner::B256(s) => apply!(s),
        };
        let abandoned = self.history_mut().split_off(to_ply);
        let Some(travel) = self.travel.as_mut() else {
            return Err(JumpError::NotTimeTravel);
        };
        let number = travel.jumps.len() + 1;
        let jump = Jump {
            number,
            side,
            back: request.back,
            uci: format!("t{}{}", request.back, square_name),
            text: format!("T-{}:{letter}{square_name}", request.back),
            appeared: square as u16,
            vanished: vanished.map(|v| v as u16),
            destroyed,
            from_ply,
            to_ply,
        };
        if let Some(charges) = travel.charges.get_mut(side.index()) {
            *charges = charges.saturating_sub(1);
        }
        travel.timelines.push(Timeline {
            number,
            branch_ply: to_ply,
            branch_move_number,
            moves: abandoned,
            left_fen,
            jump: jump.clone(),
        });
        if let Some(&(segment, moves)) = travel.line.get(to_ply) {
            if let Some(left) = travel.segments.get_mut(segment) {
                left.left_by.push((moves, travel.jumps.len()));
            }
        }
        travel.line.truncate(to_ply);
        travel.line.push((travel.segments.len(), 0));
        travel.segments.push(Segment {
            left_by: Vec::new(),
            start_fen,
            jump: Some(travel.jumps.len()),
            moves: Vec::new(),
        });
        travel.jumps.push(jump.clone());
        travel.record.push(jump.uci.clone());
        travel.pending = Some(jump.clone());
        Ok(jump)
    }

    /// Turns played, for takebacks: a jump and the move after it are one
    /// turn, and so is a jump whose move is still to come. Without time
    /// travel, the half-moves played ([`Game::ply`]).
    pub fn turns(&self) -> usize {
        match &self.travel {
            Some(travel) => {
                travel.record.len() - travel.jumps.len() + usize::from(travel.pending.is_some())
            }
            None => self.ply(),
        }
    }

    /// Takes back the last turn: in time travel a jump together with the move
    /// after it (the charge comes back and the timeline the jump left is gone),
    /// or a pending jump alone; otherwise one half-move (see [`Game::undo`]).
    /// Returns how many entries of [`Game::record`] went (0: nothing to take back).
    ///
    /// ```
    /// use kodex_engine::{Game, Registry, Side, Start};
    /// let registry = Registry::builtin();
    /// let mut game = Game::new(registry.get("timetravel").unwrap(), Start::Standard).unwrap();
    /// for turn in ["e4", "e5", "T-1:e4 d4"] {
    ///     game.play_turn(turn).unwrap();
    /// }
    /// assert_eq!(game.undo_turn(), 2);
    /// assert_eq!(game.record(), ["e2e4", "e7e5"]);
    /// assert_eq!(game.charges(Side::WHITE), Some(2));
    /// assert!(game.timelines().is_empty());
    /// ```
    pub fn undo_turn(&mut self) -> usize {
        let Some(travel) = &self.travel else {
            // Prisoners exchanged and retirements after the last move go
            // back with it.
            let exchanged = self.operations_after_last_move();
            return if self.undo() { 1 + exchanged } else { 0 };
        };
        let mut record = travel.record.clone();
        let Some(last) = record.pop() else {
            return 0;
        };
        let mut removed = 1;
        if !looks_like_jump(&last) && record.last().is_some_and(|a| looks_like_jump(a)) {
            record.pop();
            removed += 1;
        }
        match Game::replay(&self.variant, &self.start_fen(), &record) {
            Ok(game) => {
                *self = game;
                removed
            }
            Err(_) => 0,
        }
    }

    /// Every jump the side to move could make now (none while a jump is
    /// pending or without charges), for perft and the computer.
    pub fn legal_jumps(&self) -> Vec<JumpRequest> {
        let Some(travel) = &self.travel else {
            return Vec::new();
        };
        if travel.pending.is_some() {
            return Vec::new();
        }
        let squares: Vec<usize> = crate::game::with_state!(self, s, r => {
            let pos = s.current();
            (pos.by_side[pos.side as usize] & !r.royals(pos, pos.side as usize))
                .squares()
                .collect()
        });
        let mut out = Vec::new();
        for back in 1..=travel.max_back {
            for &square in &squares {
                let request = JumpRequest {
                    back,
                    square: square as u16,
                    piece: None,
                };
                if self.check_jump(request).is_ok() {
                    out.push(request);
                }
            }
        }
        out
    }

    /// Plays one turn typed as text: a move (`e4`), a jump (`T-2:Nf3`,
    /// leaving its follow-up pending) or a jump and its move (`T-2:Nf3 e5`).
    /// All or nothing: if the follow-up is refused, the jump is not made.
    /// Append [`Turn::record`] to the stored move list.
    pub fn play_turn(&mut self, text: &str) -> Result<Turn, TurnError> {
        let text = text.trim();
        if self.travel.is_none() || !looks_like_jump(text) {
            let moved = self.play_text(text).map_err(TurnError::Move)?;
            return Ok(Turn {
                jump: None,
                moved: Some(moved),
            });
        }
        let (jump_text, move_text) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
        let move_text = move_text.trim();
        let before = self.clone();
        let jump = self.jump_text(jump_text).map_err(TurnError::Jump)?;
        if move_text.is_empty() {
            return Ok(Turn {
                jump: Some(jump),
                moved: None,
            });
        }
        match self.play_text(move_text) {
            Ok(moved) => Ok(Turn {
                jump: Some(jump),
                moved: Some(moved),
            }),
            Err(e) => {
                *self = before;
                Err(TurnError::Move(e))
            }
        }
    }
}
