//! Passing captured pieces to a partner (bughouse): a capture on one board
//! goes at once to the pocket of the capturer's partner on the other board.
//! Each board is a [`Game`] of its own; a piece passed on is recorded in the
//! receiving board's record as a gift (`+n`: a black knight for black), so
//! each board replays deterministically from its own record.

use crate::bitboard::Bits;
use crate::game::{with_state, Game, Inner};
use crate::rules::Rules;

impl Game {
    /// The piece the last move captured, as it passes to the capturer's
    /// partner: its FEN letter in the captured piece's colour (the partner
    /// plays that colour on the other board), a promoted piece as a pawn.
    /// `None` when the last move captured nothing (or there was none).
    ///
    /// ```
    /// use kodex_engine::{Game, Registry, Start};
    /// let registry = Registry::builtin();
    /// let mut game = Game::new(registry.get("bughouse").unwrap(), Start::Standard).unwrap();
    /// for m in ["e4", "d5", "exd5"] {
    ///     game.play_text(m).unwrap();
    /// }
    /// assert_eq!(game.captured_for_partner(), Some('p'));
    /// assert!(game.fen().contains("[]"), "nothing in the capturer's own pocket");
    /// ```
    pub fn captured_for_partner(&self) -> Option<char> {
        with_state!(self, s, r => {
            let n = s.positions.len();
            if n < 2 {
                return None;
            }
            let (before, after) = (&s.positions[n - 2], &s.positions[n - 1]);
            let them = 1 - before.side as usize;
            let lost = before.by_side[them] & !after.by_side[them];
            let square = lost.squares().next()?;
            let (_, ty) = before.piece_at(square)?;
            let ty = r.demoted(before, square, ty);
            let letter = r.def.pieces[ty].letter;
            Some(if them == 0 { letter.to_ascii_uppercase() } else { letter })
        })
    }

    /// Adds a piece a partner passed on to a pocket of the current position:
    /// `letter` is its FEN letter (upper case for white's pocket). False,
    /// changing nothing, when the variant's pockets are not a partner's to
    /// fill or `letter` names no piece that may be dropped.
    pub fn receive(&mut self, letter: char) -> bool {
        let def = &self.variant.0;
        if !def.partner_pockets {
            return false;
        }
        let Some(ty) = def.piece_by_letter(letter) else {
            return false;
        };
        if def.pieces[ty].royal {
            return false;
        }
        let side = usize::from(letter.is_ascii_lowercase());
        macro_rules! give {
            ($s:expr) => {{
                let s = $s;
                let rules = Rules { def, t: &s.tables };
                let last = s.positions.len() - 1;
                let pos = &mut s.positions[last];
                pos.pockets[side][ty] = pos.pockets[side][ty].saturating_add(1);
                let pos = *pos;
                let hash = s.hashes.len() - 1;
                s.hashes[hash] = rules.hash(&pos);
                let mut legal = std::mem::take(&mut s.legal);
                rules.legal_moves(&pos, &mut legal);
                s.legal = legal;
            }};
        }
        match &mut self.inner {
            Inner::B64(s) => give!(s),
            Inner::B128(s) => give!(s),
            Inner::B256(s) => give!(s),
        }
        true
    }
}
