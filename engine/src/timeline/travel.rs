//! The time-travel state a game keeps: the jumps made, the timelines they
//! left, and the runs of moves PGN tells. Plain data, below the game.

use crate::record::PlayedMove;
use crate::side::Side;

/// A jump that was made.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Jump {
    /// Its number in the game, from 1; the timeline it left has the same number.
    pub number: usize,
    /// Who jumped.
    pub side: Side,
    /// How many own moves back.
    pub back: u8,
    /// On the wire and in the record: `t2f3`.
    pub uci: String,
    /// For people: `T-2:Nf3` (a pawn: `T-1:e5`).
    pub text: String,
    /// The square where the traveller stands now and appeared in the past.
    pub appeared: u16,
    /// The square it vanished from in the past (`None`: it was not on the board then).
    pub vanished: Option<u16>,
    /// Whether an enemy piece on the landing square was destroyed.
    pub destroyed: bool,
    /// Half-moves of the present line when the jump was made.
    pub from_ply: usize,
    /// Half-moves of the restored moment: the present line continues from here.
    pub to_ply: usize,
}

/// A line abandoned by a jump, kept for the record and for `/timeline`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Timeline {
    /// Its number, from 1: the number of the jump that left it.
    pub number: usize,
    /// Half-moves from the start where it leaves the present line's past
    /// (the restored moment of the jump).
    pub branch_ply: usize,
    /// The full-move number at `branch_ply`.
    pub branch_move_number: u32,
    /// The abandoned moves, from `branch_ply` on.
    pub moves: Vec<PlayedMove>,
    /// The position at the moment it was left, as FEN (see [`crate::Game::timeline_view`]).
    pub left_fen: String,
    /// The jump that left it.
    pub jump: Jump,
}

/// The time-travel state of a game (only in variants with `[time_travel]`).
#[derive(Clone, Debug)]
pub(crate) struct Travel {
    pub(crate) max_back: u8,
    pub(crate) charges: [u8; 2],
    pub(crate) pending: Option<Jump>,
    pub(crate) jumps: Vec<Jump>,
    pub(crate) timelines: Vec<Timeline>,
    /// Every action in order, as stored: UCI moves and `t2f3` jumps.
    pub(crate) record: Vec<String>,
    /// Runs of moves on one unmodified board, for PGN: the first from the
    /// start, then one from each jump's restored moment.
    pub(crate) segments: Vec<Segment>,
    /// Where each position of the present line stands in `segments`:
    /// (segment, moves of that segment before it), by ply.
    pub(crate) line: Vec<(usize, usize)>,
}

/// Moves played on one board without a jump in between (a PGN game of its own).
#[derive(Clone, Debug)]
pub(crate) struct Segment {
    pub(crate) start_fen: String,
    pub(crate) jump: Option<usize>,
    pub(crate) moves: Vec<PlayedMove>,
    /// Jumps that came back to a moment of this segment: (moves of the
    /// segment before that moment, jump index).
    pub(crate) left_by: Vec<(usize, usize)>,
}

impl Travel {
    pub(crate) fn new(charges: u8, max_back: u8, start_fen: String) -> Travel {
        Travel {
            max_back,
            charges: [charges; 2],
            pending: None,
            jumps: Vec::new(),
            timelines: Vec::new(),
            record: Vec::new(),
            segments: vec![Segment {
                start_fen,
                jump: None,
                moves: Vec::new(),
                left_by: Vec::new(),
            }],
            line: vec![(0, 0)],
        }
    }

    /// Notes a move played on the present board.
    pub(crate) fn moved(&mut self, played: &PlayedMove) {
        self.pending = None;
        self.record.push(played.uci.clone());
        let index = self.segments.len() - 1;
        if let Some(segment) = self.segments.last_mut() {
            segment.moves.push(played.clone());
            self.line.push((index, segment.moves.len()));
        }
    }
}
