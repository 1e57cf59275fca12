//! Insufficient winning material, per variant, with the rules lichess uses.

use crate::bitboard::Bits;
use crate::rules::{Position, Rules};
use crate::variant::Verdict;
use crate::view::Art;

struct Material<B> {
    kings: B,
    queens: B,
    rooks: B,
    bishops: B,
    knights: B,
    pawns: B,
    others: B,
    dark: B,
}

fn material<B: Bits>(r: &Rules<B>, pos: &Position<B>) -> Material<B> {
    let def = r.def;
    let mut m = Material {
        kings: B::EMPTY,
        queens: B::EMPTY,
        rooks: B::EMPTY,
        bishops: B::EMPTY,
        knights: B::EMPTY,
        pawns: B::EMPTY,
        others: B::EMPTY,
        dark: B::EMPTY,
    };
    for (ty, p) in def.pieces.iter().enumerate() {
        let b = pos.by_type[ty];
        match p.art {
            Art::King => m.kings |= b,
            Art::Queen => m.queens |= b,
            Art::Rook => m.rooks |= b,
            Art::Bishop => m.bishops |= b,
            Art::Knight => m.knights |= b,
            Art::Pawn => m.pawns |= b,
            Art::Token
            | Art::Janggi(_)
            | Art::Ferz
            | Art::Alfil
            | Art::Marshal
            | Art::Cardinal
            | Art::Amazon
            | Art::Rocket
            | Art::Crowned(_)
            | Art::Whale(_)
            | Art::Tamerlane(_)
            | Art::PawnOf(_) => m.others |= b,
        }
    }
    let g = &def.geometry;
    for sq in 0..g.size() {
        if g.exists(sq) && (g.file_of(sq) + g.rank_of(sq)) % 2 == 0 {
            m.dark.set(sq);
        }
    }
    m
}

/// Whether `side` can never win by the rules (it lacks winning material).
pub fn insufficient<B: Bits>(r: &Rules<B>, pos: &Position<B>, side: usize) -> bool {
    let def = r.def;
    if def.partner_pockets {
        // A partner may send any piece at any time.
        return false;
    }
    let m = material(r, pos);
    if m.others.any() || r.t.flag.any() {
        // Fairy pieces: assume they can win; a lone king can walk to the hill or the goal.
        return false;
    }
    let ours = pos.by_side[side];
    let theirs = pos.by_side[1 - side];
    let occupied = pos.occupied();
    if def.drops {
        let pocketed: u32 = pos.pockets.iter().flatten().map(|&n| n as u32).sum();
        return occupied.count() + pocketed <= 3
            && pos.promoted.is_empty()
            && m.pawns.is_empty()
            && (m.rooks | m.queens).is_empty()
            && pos.pockets.iter().all(|p| {
                def.pieces.iter().enumerate().all(|(ty, piece)| {
                    p[ty] == 0 || matches!(piece.art, Art::Knight | Art::Bishop | Art::King)
                })
            });
    }
    if def.check_limit > 0 {
        return (ours & !m.kings).is_empty();
    }
    if def.atomic {
        return atomic(&m, pos, side, occupied);
    }
    if def.must_capture && def.extinction == Some(Verdict::Win) {
        return antichess(&m, pos, side, occupied);
    }
    if def.extinction.is_some() {
        // Horde: losing every piece can always still happen.
        return false;
    }
    if def.geometry.is_hex() {
        // Gliński's endings differ from the square board's (three bishop
        // colours); only a lone king is surely unable to win.
        return (ours & !m.kings).is_empty();
    }
    if (ours & (m.pawns | m.rooks | m.queens)).any() {
        return false;
    }
    if (ours & m.knights).any() {
        return ours.count() <= 2 && (theirs & !m.kings & !m.queens).is_empty();
    }
    if (ours & m.bishops).any() {
        let same_colour = (m.bishops & m.dark).is_empty() || (m.bishops & !m.dark).is_empty();
        return same_colour && m.knights.is_empty() && m.pawns.is_empty();
    }
    true
}

fn atomic<B: Bits>(m: &Material<B>, pos: &Position<B>, side: usize, occupied: B) -> bool {
    let ours = pos.by_side[side];
    let theirs = pos.by_side[1 - side];
    if (theirs & m.kings).is_empty() {
        return false;
    }
    if (ours & !m.kings).is_empty() {
        return true;
    }
    if (theirs & !m.kings).any() {
        // The enemy may blow up its own king, unless only bishops that cannot meet remain.
        if occupied == m.kings | m.bishops {
            let white = pos.by_side[0] & m.bishops;
            let black = pos.by_side[1] & m.bishops;
            if (white & m.dark).is_empty() {
                return (black & !m.dark).is_empty();
            }
            if (white & !m.dark).is_empty() {
                return (black & m.dark).is_empty();
            }
        }
        return false;
    }
    if m.queens.any() || m.pawns.any() {
        return false;
    }
    if (m.knights | m.bishops | m.rooks).count() == 1 {
        return true;
    }
    if occupied == m.kings | m.knights {
        return m.knights.count() <= 2;
    }
    false
}

fn antichess<B: Bits>(m: &Material<B>, pos: &Position<B>, side: usize, occupied: B) -> bool {
    let ours = pos.by_side[side];
    let theirs = pos.by_side[1 - side];
    if ours.is_empty() {
        return false;
    }
    if theirs.is_empty() {
        return true;
    }
    if occupied == m.bishops {
        let we_light = (ours & !m.dark).any();
        let we_dark = (ours & m.dark).any();
        let they_all_dark = (theirs & !m.dark).is_empty();
        let they_all_light = (theirs & m.dark).is_empty();
        return (we_light && they_all_dark) || (we_dark && they_all_light);
    }
    if occupied == m.knights && pos.by_side[0].count() == 1 && pos.by_side[1].count() == 1 {
        // Two lone knights: whether they can ever meet depends on colours and the turn.
        let white_light = !(pos.by_side[0] & !m.dark).is_empty();
        let black_dark = !(pos.by_side[1] & m.dark).is_empty();
        let mut colour = side;
        if white_light {
            colour ^= 1;
        }
        if black_dark {
            colour ^= 1;
        }
        return pos.side as usize == colour;
    }
    false
}
