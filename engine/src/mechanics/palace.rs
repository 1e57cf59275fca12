//! Palaces (Janggi): cannons that may not hop over or take certain pieces,
//! passing, facing royals (bikjang), and deciding draws by counting points.
//! Marked lines and confinement to a palace are compiled into the tables
//! ([`crate::tables`]); what needs the position lives here.

use crate::betza::Hop;
use crate::bitboard::Bits;
use crate::moves::{Move, MoveKind, MoveList};
use crate::outcome::{Outcome, Reason};
use crate::rules::{pieces_of_types, Position, Rules};
use crate::side::Side;
use crate::tables::{PieceTables, Rider, SIDES};

/// Whether `mv` is a pass: the royal "moving" to its own square (`e2e2`).
#[inline]
pub fn is_pass(mv: Move) -> bool {
    mv.from == mv.to && mv.kind == MoveKind::Quiet
}

impl<'a, B: Bits> Rules<'a, B> {
    /// The squares rider `r` of a piece with tables `pt` on `from` reaches:
    /// [`crate::tables::Tables::rider_reach`], less what a hopper may not do
    /// (the Janggi cannon neither jumps over nor takes a cannon).
    #[inline]
    pub(crate) fn hopper_reach(
        &self,
        pos: &Position<B>,
        pt: &PieceTables<B>,
        r: &Rider,
        from: usize,
        occupied: B,
    ) -> B {
        let reach = self.t.rider_reach(r, from, occupied);
        if r.hop == Hop::None || (pt.not_screens | pt.not_captured) == 0 || reach.is_empty() {
            return reach;
        }
        if let Some(screen) = self.t.first_blocker(r.ray, from, occupied) {
            if pieces_of_types(pos, pt.not_screens).has(screen) {
                return B::EMPTY;
            }
        }
        reach & !pieces_of_types(pos, pt.not_captured)
    }

    /// Adds the pass of the side to move (its royal to its own square) where
    /// the variant allows passing; whether it is legal is decided later (not
    /// in check, unless the royals face each other).
    pub(crate) fn push_pass(&self, pos: &Position<B>, list: &mut MoveList) {
        if !self.def.palace.pass {
            return;
        }
        let royals = self.royals(pos, pos.side as usize);
        if let (Some(ty), true) = (self.royal_type(), royals.any() && !royals.more_than_one()) {
            let king = royals.lowest() as u8;
            list.push(Move {
                from: king,
                to: king,
                piece: ty as u8,
                promotion: 0,
                kind: MoveKind::Quiet,
            });
        }
    }

    /// Whether the two sides' royals stand on one file or rank with nothing
    /// between them (bikjang; never in a variant without that rule).
    pub fn royals_facing(&self, pos: &Position<B>) -> bool {
        let (ours, theirs) = (self.royals(pos, 0), self.royals(pos, 1));
        if ours.is_empty() || theirs.is_empty() || ours.more_than_one() || theirs.more_than_one() {
            return false;
        }
        let (a, b) = (ours.lowest(), theirs.lowest());
        let Some(lines) = self.t.orthogonal_rays.get(a) else {
            return false;
        };
        let occupied = pos.occupied();
        (0..4).any(|dir| {
            let between = lines[dir] & !self.t.orthogonal_rays[b][dir] & !B::bit(b);
            lines[dir].has(b) && (between & occupied).is_empty()
        })
    }

    /// Whether the royals face each other in `pos` and the variant has the
    /// bikjang rule.
    pub(crate) fn royals_facing_rule(&self, pos: &Position<B>) -> bool {
        self.def.palace.bikjang && self.royals_facing(pos)
    }

    /// With bikjang, whether the pseudo-legal `mv` is legal by the facing
    /// rule (`facing_before`: [`Rules::royals_facing_rule`] before it):
    /// `None` when the rule has nothing to say. While the royals face
    /// each other, a pass is always legal (it ends the game) and any other
    /// move must break the facing.
    pub(crate) fn facing_legality(
        &self,
        mv: Move,
        after: &Position<B>,
        facing_before: bool,
    ) -> Option<bool> {
        if !facing_before {
            return None;
        }
        if is_pass(mv) {
            return Some(true);
        }
        (self.royals_facing(after)).then_some(false)
    }

    /// Records in `after` what the palace rules remember of `mv`, played from `before`.
    #[inline]
    pub(crate) fn remember_palace(&self, before: &Position<B>, after: &mut Position<B>, mv: Move) {
        let rules = &self.def.palace;
        if rules.bikjang {
            after.palace.facing_before = self.royals_facing(before);
        }
        if rules.pass {
            after.palace.passes = if is_pass(mv) {
                before.palace.passes.saturating_add(1)
            } else {
                0
            };
        }
    }

    /// The end by the palace rules: a facing of the royals that survived a
    /// move (bikjang), or two passes in a row; decided by points where the
    /// variant counts them, drawn otherwise.
    pub(crate) fn palace_outcome(&self, pos: &Position<B>) -> Option<Outcome> {
        let rules = &self.def.palace;
        if rules.bikjang && pos.palace.facing_before && self.royals_facing(pos) {
            return Some(self.decide_draw(pos, Reason::Bikjang));
        }
        if rules.pass && pos.palace.passes >= 2 {
            return Some(self.decide_draw(pos, Reason::Passes));
        }
        None
    }

    /// Each side's points: its pieces' values plus its bonus (Janggi counting).
    pub fn points(&self, pos: &Position<B>) -> Option<[f64; SIDES]> {
        let counting = self.def.palace.counting.as_ref()?;
        Some(std::array::from_fn(|side| {
            let pieces: f64 = (0..self.types())
                .map(|ty| {
                    counting.values[ty] * (pos.by_type[ty] & pos.by_side[side]).count() as f64
                })
                .sum();
            pieces + counting.bonus[side]
        }))
    }

    /// What would be a draw for `reason`: where the variant counts points,
    /// the side with more wins (for `reason`, or [`Reason::Points`] for a
    /// draw by repetition, fifty moves or material); a draw otherwise.
    pub fn decide_draw(&self, pos: &Position<B>, reason: Reason) -> Outcome {
        let Some([first, second]) = self.points(pos) else {
            return Outcome::draw(reason);
        };
        let reason = match reason {
            Reason::Bikjang | Reason::Passes => reason,
            _ => Reason::Points,
        };
        if first > second {
            self.win(Side(0), reason)
        } else if second > first {
            self.win(Side(1), reason)
        } else {
            Outcome::draw(reason)
        }
    }
}
