//! Thrones (Enochian chess, `thrones = [...]` with `king_capture`): a live
//! king stepping onto its partner's throne takes control of the partner's
//! army — the armies still move each on its own turn, but the usurper's
//! player chooses both, and a frozen army so controlled moves again. Control
//! stays when the usurper leaves the throne and ends when its king is taken.
//! Prisoners: two opposing seats that each took a king, their own kings
//! still on the board, may exchange them: both kings come back to their
//! thrones (or, the throne taken, to the nearest empty square), and their
//! armies play again. Retirement: a player may leave the game, handing
//! their army to their partner, who moves it on its turns from then on; a
//! player who leaves only a bare king lets the partner move either army
//! (that king or the partner's own) on both seats' turns, as long as that
//! king stands. Also the draws of a team out of play: a stalemated seat
//! whose partner is out of play (retired included), and bare kings on both
//! seats of a team.
//!
//! What is remembered lives in [`ThroneMemory`]: seats are numbered there in
//! turn order (side + 2 × the seat of the side), as [`crate::Game`] numbers
//! them.

use crate::bitboard::Bits;
use crate::game::{with_state, Game, Inner, State};
use crate::moves::{Move, MoveList};
use crate::outcome::{Outcome, Reason};
use crate::record::{exchange_token, retire_token, Operation};
use crate::rules::{pieces_of_types, seat_on_turn, Position, Rules, ThroneMemory};
use crate::tables::SIDES;
use crate::variant::VariantDef;

/// Why two seats may not exchange their prisoners.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum ExchangeError {
    /// The variant has no thrones, so no prisoners to exchange.
    NoThrones,
    /// The game is over.
    GameOver,
    /// The two seats play for the same side, or one is no seat.
    NotOpponents,
    /// This seat (in turn order) has lost its own king.
    OwnKingTaken(usize),
    /// This seat (in turn order) holds no enemy king.
    NoPrisoner(usize),
}

/// Why a seat may not retire from the game.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum RetireError {
    /// The variant has no thrones and teams of two: only Enochian chess
    /// lets a player retire.
    NoThrones,
    /// The game is over.
    GameOver,
    /// No such seat.
    NoSeat,
    /// This seat has already retired.
    AlreadyRetired,
    /// Its partner has retired: the last player of a team stays.
    PartnerRetired,
    /// Its own king was taken: a frozen army is no army to hand over.
    OwnKingTaken,
    /// Its partner's king was taken: the partner is out of play.
    PartnerKingTaken,
    /// It controls its partner's army (its king took the partner's throne):
    /// a player of two armies may not retire.
    ControlsPartner,
}

/// Why an [`Operation`] was refused.
enum Refusal {
    Exchange(ExchangeError),
    Retire(RetireError),
}

impl Operation {
    /// How the record stores it ([`exchange_token`], [`retire_token`]).
    pub(crate) fn token(self) -> String {
        match self {
            Operation::Exchange(a, b) => exchange_token(a, b),
            Operation::Retire(seat) => retire_token(seat),
        }
    }

    /// The PGN comment telling it (seats numbered from 1).
    pub(crate) fn comment(self) -> String {
        match self {
            Operation::Exchange(a, b) => {
                format!("{{prisoners exchanged by seats {} and {}}} ", a + 1, b + 1)
            }
            Operation::Retire(seat) => format!("{{seat {} retired}} ", seat + 1),
        }
    }

    /// Does it to `pos`.
    fn apply<B: Bits>(self, rules: &Rules<'_, B>, pos: &mut Position<B>) -> Result<(), Refusal> {
        match self {
            Operation::Exchange(a, b) => rules.exchange(pos, a, b).map_err(Refusal::Exchange),
            Operation::Retire(seat) => rules.retire(pos, seat).map_err(Refusal::Retire),
        }
    }
}

/// Does `op` to the current position of `s`: its hash, the identities of
/// pieces back on the board and the legal moves follow.
fn operate<B: Bits>(def: &VariantDef, s: &mut State<B>, op: Operation) -> Result<(), Refusal> {
    let rules = Rules { def, t: &s.tables };
    let last = s.positions.len() - 1;
    let before = s.positions[last];
    let mut pos = before;
    op.apply(&rules, &mut pos)?;
    s.positions[last] = pos;
    s.hashes[last] = rules.hash(&pos);
    // Kings back on the board are new pieces for the pictures.
    for square in (pos.occupied() & !before.occupied()).squares() {
        if let Some(id) = s.ids[last].get_mut(square) {
            *id = s.next_id;
            s.next_id += 1;
        }
    }
    let mut legal = std::mem::take(&mut s.legal);
    rules.legal_moves(&pos, &mut legal);
    s.legal = legal;
    Ok(())
}

/// The seat of `global` (turn order) in its side: (side, seat of the side).
#[inline]
fn split(global: usize) -> (usize, usize) {
    (global % SIDES, global / SIDES)
}

impl<'a, B: Bits> Rules<'a, B> {
    /// The throne of seat `seat` of `side`, where the variant has thrones.
    #[inline]
    fn throne(&self, side: usize, seat: usize) -> Option<usize> {
        self.def.thrones.get(side + SIDES * seat).copied()
    }

    /// The king of seat `seat` of `side` (empty once taken).
    #[inline]
    pub(crate) fn seat_king(&self, pos: &Position<B>, side: usize, seat: usize) -> B {
        match &self.t.seats {
            Some(seats) => pieces_of_types(pos, seats.royal_types[seat]) & pos.by_side[side],
            None => B::EMPTY,
        }
    }

    /// Before `mv` of the side to move: the seat whose piece moves (the seat
    /// on turn but where a partner's bare king shares the turns) and, if `mv`
    /// takes a king, the seat of the other side whose king it takes. `None`
    /// without thrones.
    pub(crate) fn throne_note(
        &self,
        pos: &Position<B>,
        mv: Move,
    ) -> Option<(usize, Option<usize>)> {
        if self.def.thrones.is_empty() {
            return None;
        }
        let us = pos.side as usize;
        let them = 1 - us;
        let captive = (0..2).find(|&seat| self.seat_king(pos, them, seat).has(mv.to as usize));
        let owner =
            self.t.seats.as_ref().and_then(|seats| {
                (0..2).find(|&seat| seats.own_types[seat] & (1 << mv.piece) != 0)
            });
        Some((owner.unwrap_or_else(|| seat_on_turn(pos, us)), captive))
    }

    /// After the move `mv` of seat `mover` of side `us` (see
    /// [`Rules::throne_note`]): the king it took is remembered as this
    /// seat's prisoner, a king arriving on its partner's throne takes
    /// control of the partner's army (but for a retired seat's king, whose
    /// partner moves both already), and control ends with the usurper's king.
    pub(crate) fn after_throne_move(
        &self,
        pos: &mut Position<B>,
        us: usize,
        (mover, captive): (usize, Option<usize>),
        mv: Move,
    ) {
        if let Some(captive) = captive {
            pos.thrones.taken_by[1 - us + SIDES * captive] = mover as u8 + 1;
        }
        let arrived = mv.to as usize;
        if pos.thrones.control[us] == 0
            && pos.thrones.retired(us) != Some(mover)
            && self.throne(us, 1 - mover) == Some(arrived)
            && self.seat_king(pos, us, mover).has(arrived)
        {
            pos.thrones.control[us] = mover as u8 + 1;
        }
        for side in 0..SIDES {
            let usurper = pos.thrones.control[side];
            if usurper != 0 && self.seat_king(pos, side, usurper as usize - 1).is_empty() {
                pos.thrones.control[side] = 0;
            }
        }
    }

    /// Whether seat `seat` of `side` has no king but moves under its
    /// partner's control.
    #[inline]
    pub(crate) fn revived(&self, pos: &Position<B>, side: usize, seat: usize) -> bool {
        pos.thrones.controlled(side) == Some(seat) && self.seat_king(pos, side, seat).is_empty()
    }

    /// Whether the partner of the seat on turn is out of play, so that a
    /// stalemate of the seat on turn draws the game: it retired, or its king
    /// was taken (and no one moves its army), or it cannot move either (not
    /// in check), or the king on turn stands on the partner's throne.
    pub(crate) fn partner_out_of_play(&self, pos: &Position<B>) -> bool {
        if self.t.seats.is_none() {
            return false;
        }
        let us = pos.side as usize;
        let seat = seat_on_turn(pos, us);
        let partner = 1 - seat;
        if pos.thrones.retired(us) == Some(partner) {
            return true;
        }
        if self
            .throne(us, partner)
            .is_some_and(|throne| self.seat_king(pos, us, seat).has(throne))
        {
            return true;
        }
        if self.seat_king(pos, us, partner).is_empty() {
            return pos.thrones.controlled(us) != Some(partner);
        }
        let theirs = Self::partner_on_turn(pos);
        if self.live_check(&theirs, us) {
            return false;
        }
        let mut list = MoveList::new();
        self.partner_moves(pos, &mut list);
        list.is_empty()
    }

    /// `pos` with the partner of the seat on turn on turn instead: the other
    /// parity of the move number.
    fn partner_on_turn(pos: &Position<B>) -> Position<B> {
        let mut theirs = *pos;
        theirs.fullmove = if pos.fullmove > 1 {
            pos.fullmove - 1
        } else {
            pos.fullmove + 1
        };
        theirs
    }

    /// Adds to `list` the moves the partner of the seat on turn would have,
    /// were it on turn (by its own king's rules).
    pub(crate) fn partner_moves(&self, pos: &Position<B>, list: &mut MoveList) {
        let theirs = Self::partner_on_turn(pos);
        let mut more = MoveList::new();
        self.pseudo_moves(&theirs, &mut more);
        let commanded = self.commanded(&theirs);
        more.retain(|m| commanded.has(m.from as usize));
        self.keep_king_capture_moves(&theirs, &mut more);
        for &mv in more.iter() {
            list.push(mv);
        }
    }

    /// Whether `side`'s two seats share their turns: one retired leaving a
    /// bare king, which still stands, so that on either seat's turn its
    /// partner moves that king or its own army.
    #[inline]
    pub(crate) fn shared_turns(&self, pos: &Position<B>, side: usize) -> bool {
        pos.thrones.shares_turns(side)
            && pos
                .thrones
                .retired(side)
                .is_some_and(|seat| self.seat_king(pos, side, seat).any())
    }

    /// Whether seat `seat` (turn order) may retire from the game: a seat of
    /// a game with thrones (four players in two teams) that has not retired,
    /// whose partner has not either, with its own king and its partner's on
    /// the board, and that does not control its partner's army.
    pub fn may_retire(&self, pos: &Position<B>, seat: usize) -> Result<(), RetireError> {
        if self.def.thrones.is_empty() || self.t.seats.is_none() {
            return Err(RetireError::NoThrones);
        }
        if seat >= 4 {
            return Err(RetireError::NoSeat);
        }
        let (side, own) = split(seat);
        match pos.thrones.retired(side) {
            Some(retired) if retired == own => return Err(RetireError::AlreadyRetired),
            Some(_) => return Err(RetireError::PartnerRetired),
            None => {}
        }
        if pos.thrones.controlled(side) == Some(1 - own) {
            return Err(RetireError::ControlsPartner);
        }
        if self.seat_king(pos, side, own).is_empty() {
            return Err(RetireError::OwnKingTaken);
        }
        if self.seat_king(pos, side, 1 - own).is_empty() {
            return Err(RetireError::PartnerKingTaken);
        }
        Ok(())
    }

    /// Seat `seat` (turn order) retires (see [`Rules::may_retire`]): its
    /// partner moves its army from now on, on its own turns — or, where the
    /// army is a bare king, on both seats' turns either that king or its own
    /// army. The turn does not pass.
    pub fn retire(&self, pos: &mut Position<B>, seat: usize) -> Result<(), RetireError> {
        self.may_retire(pos, seat)?;
        let seats = self.t.seats.as_ref().ok_or(RetireError::NoThrones)?;
        let (side, own) = split(seat);
        // Its army but the king (on a doubled throne the other piece shares
        // the king's square).
        let others = seats.own_types[own] & !seats.royal_types[own];
        let bare = (pieces_of_types(pos, others) & pos.by_side[side]).is_empty();
        pos.thrones.retired[side] = own as u8 + if bare { 3 } else { 1 };
        Ok(())
    }

    /// Bare kings (Enochian chess): a side whose two seats are left with
    /// their kings alone draws the game.
    pub(crate) fn bare_kings_outcome(&self, pos: &Position<B>) -> Option<Outcome> {
        let seats = self.t.seats.as_ref().filter(|_| self.def.king_capture)?;
        let royal = seats.royal_types[0] | seats.royal_types[1];
        let all = (1u32 << self.types()) - 1;
        // Pieces but kings, by type: a doubled throne's other piece shares
        // its king's square.
        let others = pieces_of_types(pos, all & !royal);
        (0..SIDES)
            .any(|side| {
                (pos.by_side[side] & others).is_empty()
                    && (0..2).all(|seat| self.seat_king(pos, side, seat).any())
            })
            .then(|| Outcome::draw(Reason::BareKings))
    }

    /// The seat (turn order) whose king seat `captor` (turn order) holds.
    pub fn prisoner_of(&self, pos: &Position<B>, captor: usize) -> Option<usize> {
        let (side, seat) = split(captor);
        (0..2)
            .map(|captive| 1 - side + SIDES * captive)
            .find(|&captive| {
                pos.thrones.taken_by[captive] == seat as u8 + 1
                    && self.seat_king(pos, 1 - side, captive / SIDES).is_empty()
            })
    }

    /// Whether seats `a` and `b` (turn order) may exchange prisoners.
    pub fn may_exchange(&self, pos: &Position<B>, a: usize, b: usize) -> Result<(), ExchangeError> {
        if self.def.thrones.is_empty() || self.t.seats.is_none() {
            return Err(ExchangeError::NoThrones);
        }
        if a >= 4 || b >= 4 || a % SIDES == b % SIDES {
            return Err(ExchangeError::NotOpponents);
        }
        for captor in [a, b] {
            let (side, seat) = split(captor);
            if self.seat_king(pos, side, seat).is_empty() {
                return Err(ExchangeError::OwnKingTaken(captor));
            }
        }
        for captor in [a, b] {
            if self.prisoner_of(pos, captor).is_none() {
                return Err(ExchangeError::NoPrisoner(captor));
            }
        }
        Ok(())
    }

    /// Exchanges the prisoners of seats `a` and `b` (turn order; see
    /// [`Rules::may_exchange`]): each king comes back to its throne, or to
    /// the nearest empty square — the fewest king steps away, then the
    /// nearest the centre of the board, then the lowest file, then the
    /// lowest rank. The prisoner of the lower seat comes back first.
    pub fn exchange(&self, pos: &mut Position<B>, a: usize, b: usize) -> Result<(), ExchangeError> {
        self.may_exchange(pos, a, b)?;
        let mut captives: Vec<usize> = [a, b]
            .iter()
            .filter_map(|&captor| self.prisoner_of(pos, captor))
            .collect();
        captives.sort_unstable();
        let seats = self.t.seats.as_ref().ok_or(ExchangeError::NoThrones)?;
        for captive in captives {
            let (side, seat) = split(captive);
            let throne = self.throne(side, seat).ok_or(ExchangeError::NoThrones)?;
            let king = seats.royal_types[seat].trailing_zeros() as usize;
            let square = self.return_square(pos, throne);
            pos.put(square, side, king);
            pos.thrones.taken_by[captive] = 0;
        }
        pos.halfmove = 0;
        Ok(())
    }

    /// Where a king coming back to `throne` stands (see [`Rules::exchange`]).
    fn return_square(&self, pos: &Position<B>, throne: usize) -> usize {
        let g = &self.def.geometry;
        let (files, ranks) = (g.files as i32, g.ranks as i32);
        let (tf, tr) = (g.file_of(throne), g.rank_of(throne));
        let occupied = pos.occupied();
        (0..(files * ranks) as usize)
            .filter(|&sq| g.exists(sq) && !occupied.has(sq))
            .min_by_key(|&sq| {
                let (f, r) = (g.file_of(sq), g.rank_of(sq));
                let steps = (f - tf).abs().max((r - tr).abs());
                // Twice the distance to the centre, squared.
                let centre = (2 * f - files + 1).pow(2) + (2 * r - ranks + 1).pow(2);
                (steps, centre, f, r)
            })
            .unwrap_or(throne)
    }
}

impl ThroneMemory {
    /// The castling-field letters of what is remembered (see [`ThroneMemory`]).
    pub(crate) fn fen_letters(&self) -> String {
        let mut out = String::new();
        for side in 0..SIDES {
            if self.control[side] != 0 {
                let usurper = side + SIDES * (self.control[side] as usize - 1);
                out.push_str(&format!("T{usurper}"));
            }
        }
        for seat in 0..4 {
            if self.taken_by[seat] != 0 {
                let captor = 1 - seat % SIDES + SIDES * (self.taken_by[seat] as usize - 1);
                out.push_str(&format!("X{seat}{captor}"));
            }
        }
        for side in 0..SIDES {
            if let Some(seat) = self.retired(side) {
                let letter = if self.shares_turns(side) { 'U' } else { 'R' };
                out.push_str(&format!("{letter}{}", side + SIDES * seat));
            }
        }
        out
    }

    /// Reads one remembered fact from the castling field: `T<seat>`,
    /// `X<seat><captor>`, `R<seat>` or `U<seat>` (the letter already read).
    /// `None`: not one.
    pub(crate) fn read_letter(
        &mut self,
        letter: char,
        digits: &mut impl Iterator<Item = char>,
    ) -> Option<()> {
        let mut digit = || {
            digits
                .next()
                .and_then(|d| d.to_digit(10))
                .filter(|&d| d < 4)
        };
        match letter {
            'T' => {
                let usurper = digit()? as usize;
                self.control[usurper % SIDES] = (usurper / SIDES) as u8 + 1;
            }
            'X' => {
                let (seat, captor) = (digit()? as usize, digit()? as usize);
                if seat % SIDES == captor % SIDES {
                    return None;
                }
                self.taken_by[seat] = (captor / SIDES) as u8 + 1;
            }
            'R' | 'U' => {
                let seat = digit()? as usize;
                let bare = if letter == 'U' { 3 } else { 1 };
                self.retired[seat % SIDES] = (seat / SIDES) as u8 + bare;
            }
            _ => return None,
        }
        Some(())
    }
}

impl Game {
    /// The seat (turn order) whose player chooses the moves of seat `seat`:
    /// the partner whose king took its throne, or to whom it retired, else
    /// the seat itself.
    pub fn controller(&self, seat: usize) -> usize {
        let (side, own) = split(seat);
        with_state!(self, s, _r => {
            let thrones = s.current().thrones;
            if thrones.controlled(side) == Some(own) || thrones.retired(side) == Some(own) {
                side + SIDES * (1 - own)
            } else {
                seat
            }
        })
    }

    /// Whether seat `seat` (turn order) retired from the game (see
    /// [`Game::retire`]).
    pub fn retired(&self, seat: usize) -> bool {
        let (side, own) = split(seat);
        with_state!(self, s, _r => s.current().thrones.retired(side) == Some(own))
    }

    /// Whether on the turns of seat `seat` (turn order) its controller may
    /// move either army of its team: a partner retired leaving a bare king,
    /// which still stands (see [`Game::retire`]).
    pub fn shares_turns(&self, seat: usize) -> bool {
        with_state!(self, s, r => r.shared_turns(s.current(), seat % SIDES))
    }

    /// Whether seat `seat` (turn order) may retire now (see [`Rules::may_retire`]).
    pub fn may_retire(&self, seat: usize) -> Result<(), RetireError> {
        if self.outcome().is_some() {
            return Err(RetireError::GameOver);
        }
        with_state!(self, s, r => r.may_retire(s.current(), seat))
    }

    /// Seat `seat` (turn order) retires from the game, handing its army to
    /// its partner (see [`Rules::retire`]); the turn does not pass. Returns
    /// what the stored record gains ([`retire_token`]).
    pub fn retire(&mut self, seat: usize) -> Result<String, RetireError> {
        self.may_retire(seat)?;
        match self.operate(Operation::Retire(seat)) {
            Err(Refusal::Retire(error)) => Err(error),
            Err(Refusal::Exchange(_)) => Err(RetireError::NoThrones),
            Ok(token) => Ok(token),
        }
    }

    /// Does `op` to the current position and records it.
    fn operate(&mut self, op: Operation) -> Result<String, Refusal> {
        let def = &self.variant.0;
        match &mut self.inner {
            Inner::B64(s) => operate(def, s, op)?,
            Inner::B128(s) => operate(def, s, op)?,
            Inner::B256(s) => operate(def, s, op)?,
        }
        self.operations.push((self.ply(), op));
        Ok(op.token())
    }

    /// Replays one operation of a stored record; `false` if it is not allowed here.
    pub(crate) fn replay_operation(&mut self, op: Operation) -> bool {
        self.operate(op).is_ok()
    }

    /// Whether the last move took a throne: the seat (turn order) whose
    /// king stepped onto its partner's throne, and the partner's seat, whose
    /// army it now controls.
    ///
    /// ```
    /// use kodex_engine::{Game, Registry, Start};
    /// let registry = Registry::builtin();
    /// let variant = registry.get("enochian").unwrap();
    /// // Red's king on b7 steps onto yellow's throne a8.
    /// let fen = "7c/1K6/6z1/2C5/3T4/8/8/k7 w - - 0 1";
    /// let mut game = Game::new(variant, Start::Fen(fen.into())).unwrap();
    /// assert_eq!(game.throne_taken(), None);
    /// game.play_text("Ka8").unwrap();
    /// assert_eq!(game.throne_taken(), Some((0, 2)));
    /// ```
    pub fn throne_taken(&self) -> Option<(usize, usize)> {
        with_state!(self, s, _r => {
            let n = s.positions.len();
            let (before, after) = (&s.positions[n.checked_sub(2)?], &s.positions[n - 1]);
            let side = before.side as usize;
            (before.thrones.control[side] == 0 && after.thrones.control[side] != 0).then(|| {
                let usurper = after.thrones.control[side] as usize - 1;
                (side + SIDES * usurper, side + SIDES * (1 - usurper))
            })
        })
    }

    /// The seat (turn order) whose king seat `captor` took and holds (a
    /// prisoner it may exchange), if any.
    pub fn prisoner_of(&self, captor: usize) -> Option<usize> {
        with_state!(self, s, r => r.prisoner_of(s.current(), captor))
    }

    /// Whether seats `a` and `b` (turn order) may exchange their prisoners now.
    pub fn may_exchange(&self, a: usize, b: usize) -> Result<(), ExchangeError> {
        if self.outcome().is_some() {
            return Err(ExchangeError::GameOver);
        }
        with_state!(self, s, r => r.may_exchange(s.current(), a, b))
    }

    /// Exchanges the prisoners of seats `a` and `b` (turn order), both
    /// agreeing: each taken king comes back to its throne (see
    /// [`Rules::exchange`]) and its army plays again; the turn does not
    /// pass. Returns what the stored record gains ([`exchange_token`]).
    pub fn exchange(&mut self, a: usize, b: usize) -> Result<String, ExchangeError> {
        self.may_exchange(a, b)?;
        match self.operate(Operation::Exchange(a.min(b), a.max(b))) {
            Err(Refusal::Exchange(error)) => Err(error),
            Err(Refusal::Retire(_)) => Err(ExchangeError::NoThrones),
            Ok(token) => Ok(token),
        }
    }

    /// How many operations (prisoner exchanges, retirements) followed the
    /// last move (0 without one).
    pub(crate) fn operations_after_last_move(&self) -> usize {
        let ply = self.ply();
        self.operations
            .iter()
            .filter(|e| e.0 == ply && ply > 0)
            .count()
    }

    /// The record of a game without time travel: its moves in UCI, with
    /// the exchanges of prisoners and retirements where they were made.
    pub(crate) fn record_with_operations(&self) -> Vec<String> {
        let done_at = |ply: usize| {
            self.operations
                .iter()
                .filter(move |e| e.0 == ply)
                .map(|&(_, op)| op.token())
        };
        let mut record: Vec<String> = done_at(0).collect();
        for (i, played) in self.history().iter().enumerate() {
            record.push(played.uci.clone());
            record.extend(done_at(i + 1));
        }
        record
    }
}
