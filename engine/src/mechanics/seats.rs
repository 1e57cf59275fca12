//! Pieces owned by seats (four-handed chess): each of a side's two seats
//! moves its own pieces anywhere and its partner's inside the command zone,
//! or, with command regions, every piece of its side in its own region and
//! the command zone and its own elsewhere but in the partner's region;
//! a seat keeps only its own king out of check; a seat that cannot move
//! passes; and, with `captured_mates`, a mated king whose side has another
//! is taken on the next move, the side losing when its last king is mated.
//!
//! Nothing here is stored in the position: which seat of a side is on turn
//! follows from the move number (seats take turns first, second, first…),
//! and a king of the side that just moved standing attacked can only be
//! one that was mated and passed, since no other move leaves it so.

use crate::bitboard::Bits;
use crate::mechanics::palace::is_pass;
use crate::moves::{Move, MoveKind, MoveList};
use crate::rules::{pieces_of_types, seat_on_turn, Position, Rules};
use crate::tables::SeatTables;

/// A turn a seat rule leaves one thing to do (see [`Rules::forced_turn`]).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum ForcedTurn {
    /// The seat on turn is mated (its side has another king): it passes,
    /// and the next player takes its king.
    Mated,
    /// The seat on turn has no move, but is not in check: it passes.
    NoMove,
    /// The seat on turn must take the king mated on the turn before.
    TakeMatedKing,
}

impl<'a, B: Bits> Rules<'a, B> {
    /// A pass: nothing moves, the turn goes on (the position's counters move).
    pub(crate) fn pass_turn(pos: &mut Position<B>) {
        pos.ep = None;
        pos.ep_victim = None;
        pos.halfmove = pos.halfmove.saturating_add(1);
        if pos.side == 1 {
            pos.fullmove = pos.fullmove.saturating_add(1);
        }
        pos.side = 1 - pos.side;
    }

    /// The pieces the seat on turn may move: its own anywhere, its
    /// partner's inside the command zone — or, where the seats have command
    /// regions, every piece of its side in its own region and in the
    /// command zone, none in the partner's region, and elsewhere its own.
    pub fn commanded(&self, pos: &Position<B>) -> B {
        let us = pos.side as usize;
        let Some(seats) = &self.t.seats else {
            return pos.by_side[us];
        };
        let seat = seat_on_turn(pos, us);
        let own = pieces_of_types(pos, seats.own_types[seat]);
        let Some(regions) = &seats.regions else {
            let partner = pieces_of_types(pos, seats.own_types[1 - seat]) & seats.command_zone;
            return (own | partner) & pos.by_side[us];
        };
        let (mine, partners) = (regions[us][seat], regions[us][1 - seat]);
        (mine | seats.command_zone | (own & !partners)) & pos.by_side[us]
    }

    /// The seat rules on the legal moves of the side to move (legal for the
    /// king of the seat on turn): the capture of a mated king when one
    /// waits, else the moves of the pieces the seat commands, else a pass
    /// — but for the mate that ends the game.
    pub(crate) fn keep_seat_moves(&self, pos: &Position<B>, list: &mut MoveList) {
        let Some(seats) = &self.t.seats else {
            return;
        };
        let us = pos.side as usize;
        let them = 1 - us;
        if self.def.captured_mates {
            // The king of the seat that just moved stands attacked: it was
            // mated and passed, and is taken now, by any piece of our side.
            let mated = self.royals(pos, them);
            if mated.any() && self.in_check(pos, them) {
                let captures: Vec<Move> = list
                    .iter()
                    .copied()
                    .filter(|m| mated.has(m.to as usize))
                    .collect();
                if !captures.is_empty() {
                    list.clear();
                    for mv in captures {
                        list.push(mv);
                    }
                    return;
                }
            }
        }
        let commanded = self.commanded(pos);
        list.retain(|m| commanded.has(m.from as usize));
        if !self.def.king_capture {
            self.keep_partners_king_safe(pos, list);
        }
        if self.def.king_capture {
            self.keep_king_capture_moves(pos, list);
            if self.shared_turns(pos, us) {
                // A partner retired leaving a bare king: the player on turn
                // moves that king or the other army, each by its own king's rules.
                self.partner_moves(pos, list);
            }
            let stalemate_ends = self.royals(pos, us).any()
                && !self.in_check(pos, us)
                && self.partner_out_of_play(pos);
            if list.is_empty() && !stalemate_ends {
                list.push(self.pass_move(pos, commanded));
            }
            return;
        }
        if list.is_empty() && !self.mate_ends_game(pos, seats) {
            list.push(self.pass_move(pos, commanded));
        }
    }

    /// A king may not step onto an attacked square, whoever moves it: the
    /// seat on turn moving its partner's king (in the centre, or in its own
    /// region) keeps it out of check on that move, as its owner would.
    fn keep_partners_king_safe(&self, pos: &Position<B>, list: &mut MoveList) {
        let Some(seats) = &self.t.seats else {
            return;
        };
        let us = pos.side as usize;
        let seat = seat_on_turn(pos, us);
        let kings = pieces_of_types(pos, seats.royal_types[1 - seat]) & pos.by_side[us];
        if kings.is_empty() || !list.iter().any(|m| kings.has(m.from as usize)) {
            return;
        }
        list.retain(|m| {
            let from = m.from as usize;
            if !kings.has(from) {
                return true;
            }
            let mut occupied = pos.occupied();
            occupied.clear(from);
            !self.attacked(pos, m.to as usize, 1 - us, occupied)
        });
    }

    /// Whether the seat on turn, unable to move, is mated for good: its king
    /// is in check and its side has no other king to play on with.
    fn mate_ends_game(&self, pos: &Position<B>, seats: &SeatTables<B>) -> bool {
        let us = pos.side as usize;
        let own = self.royals(pos, us);
        if own.is_empty() || !self.in_check(pos, us) {
            return false;
        }
        let every_royal = pieces_of_types(pos, seats.royal_types[0] | seats.royal_types[1]);
        !self.def.captured_mates || (every_royal & pos.by_side[us] & !own).is_empty()
    }

    /// The pass of the seat on turn, written as a piece of it "moving" to
    /// its own square (its king's, where it has one).
    fn pass_move(&self, pos: &Position<B>, commanded: B) -> Move {
        let us = pos.side as usize;
        let own = self.royals(pos, us);
        let square = if own.any() {
            own.lowest()
        } else if commanded.any() {
            commanded.lowest()
        } else if pos.by_side[us].any() {
            pos.by_side[us].lowest()
        } else {
            self.t.board.lowest()
        };
        Move {
            from: square as u8,
            to: square as u8,
            piece: self.type_at(pos, square).unwrap_or(0) as u8,
            promotion: 0,
            kind: MoveKind::Quiet,
        }
    }

    /// What the seat on turn is left to do by the seat rules, given the
    /// `legal` moves of `pos`: pass (mated, or without a move), or take the
    /// mated king. `None`: an ordinary turn.
    pub fn forced_turn(&self, pos: &Position<B>, legal: &[Move]) -> Option<ForcedTurn> {
        self.t.seats.as_ref()?;
        let us = pos.side as usize;
        match legal {
            [] => None,
            [mv] if is_pass(*mv) => Some(if self.in_check(pos, us) && !self.def.king_capture {
                ForcedTurn::Mated
            } else {
                ForcedTurn::NoMove
            }),
            _ if self.def.king_capture => None,
            moves => {
                let mated = self.royals(pos, 1 - us);
                (mated.any() && moves.iter().all(|m| mated.has(m.to as usize)))
                    .then_some(ForcedTurn::TakeMatedKing)
            }
        }
    }
}
