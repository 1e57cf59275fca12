//! Why a typed move is not legal: the text is read into what it names
//! (piece type, destination, origin hints, castling, a drop) and set
//! against the pseudo-legal moves (own-royal safety not asked), the legal
//! ones and the variant's confinements. Only the mover's own information
//! is used: their pieces, pockets and rights, their pseudo-legal and legal
//! moves, and whether they are in check.

use crate::betza::Hop;
use crate::bitboard::Bits;
use crate::moves::{Move, MoveKind};
use crate::notation::{self, BoardPattern, SanPattern, Typed};
use crate::rules::{pieces_of_types, Position, Rules, VisitTargets};
use crate::tables::PieceTables;
use crate::view::Visibility;

/// Most legal moves a refusal lists.
const MAX_LISTED: usize = 16;

/// Why no legal move matches a typed move (see [`crate::Game::why_illegal`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The reason.
    pub why: Why,
    /// The piece type the text names: its English name and SAN letter
    /// (upper case).
    pub piece: Option<(String, char)>,
    /// The square the reason speaks of (the destination; for
    /// [`Why::NoPieceOn`] the origin), as people read it.
    pub square: Option<String>,
    /// The legal moves of the piece named (of every piece of its type, or
    /// the one on the origin typed), in SAN: at most [`MAX_LISTED`].
    pub legal: Vec<String>,
}

/// The reason of a [`Refusal`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    /// The mover has no piece of the type named.
    NoPiece,
    /// The origin typed (`g1f3`) holds no piece of the mover.
    NoPieceOn,
    /// No piece of the type named reaches the square, whatever the king.
    NoneReaches,
    /// One of the mover's own pieces stands on the square.
    OwnPieceThere,
    /// The piece reaches the square, but may not promote (or not to that
    /// piece) there.
    Promotion,
    /// The piece would reach the square on an empty board: other pieces
    /// stand in its way (not said in hidden-information games).
    Blocked,
    /// The square is a citadel the piece may not enter (Tamerlane,
    /// citadel chess).
    Citadel,
    /// The piece could go there but would expose its own king.
    Pinned,
    /// The king would step onto an attacked square.
    IntoCheck,
    /// The king is in check and the move does not answer it.
    InCheck,
    /// The variant has no castling.
    CastleNotInGame,
    /// The right to castle that way is lost.
    CastleNoRight,
    /// Pieces stand between king and rook, or where they go.
    CastleBlocked,
    /// Castling out of check.
    CastleInCheck,
    /// The king would pass through or land on an attacked square.
    CastleThroughCheck,
    /// Nothing of that type in the mover's hand.
    NotInHand,
    /// The variant has no drops.
    NoDrops,
    /// Capturing is compulsory and this move does not capture.
    MustCapture,
    /// The piece may not leave its palace.
    Palace,
    /// The move would give check, and checks are not allowed (racing
    /// kings).
    GivesCheck,
    /// The royals face each other (bikjang): a move must break the facing,
    /// or the side passes.
    Facing,
    /// A drop of this piece may not give mate (the shogi pawn, the whale
    /// shogi dolphin), or not a mate that could have been blocked by a drop.
    DropMate,
    /// The piece moves only by jumping over exactly one piece (the janggi
    /// cannon), and none stands as its screen on the way.
    NeedsScreen,
    /// None of the above: the plain refusal.
    Other,
}

impl Refusal {
    fn new(why: Why) -> Refusal {
        Refusal {
            why,
            piece: None,
            square: None,
            legal: Vec::new(),
        }
    }
}

/// Why `text`, which matches none of `legal` (the legal moves of `pos`),
/// is refused; `None` where it is not a move at all.
pub(crate) fn explain<B: Bits>(
    r: &Rules<B>,
    pos: &Position<B>,
    legal: &[Move],
    text: &str,
) -> Option<Refusal> {
    let us = pos.side as usize;
    let g = &r.def.geometry;
    if let Some((from, pattern)) = coordinates(r, pos, text) {
        let Some(pattern) = pattern else {
            let mut refusal = Refusal::new(Why::NoPieceOn);
            refusal.square = Some(g.name(from));
            return Some(refusal);
        };
        return Some(board_move(r, pos, legal, &pattern));
    }
    Some(match notation::typed(r, text)? {
        Typed::Pass if r.in_check(pos, us) => Refusal::new(Why::InCheck),
        Typed::Pass => Refusal::new(Why::Other),
        Typed::Castle { long } => castle(r, pos, legal, long),
        Typed::San(SanPattern::Drop { ty, to }) => drop(r, pos, ty, to),
        Typed::San(SanPattern::Board(pattern)) => board_move(r, pos, legal, &pattern),
    })
}

/// A move typed from square to square (`g1f3`, `e7e8q`): its origin, and
/// the pattern of a move of the piece standing there (`None` where none of
/// the mover's pieces does).
fn coordinates<B: Bits>(
    r: &Rules<B>,
    pos: &Position<B>,
    text: &str,
) -> Option<(usize, Option<BoardPattern>)> {
    let g = &r.def.geometry;
    let text = notation::latinize(r, text.trim());
    let text: String = text
        .trim_end_matches(['+', '#', '!', '?'])
        .chars()
        .filter(|c| !matches!(c, '-' | 'x' | ':' | '='))
        .collect();
    let (from, len) = g.parse_prefix(&text)?;
    let rest = &text[len..];
    let (to, promotion) = match g.parse_prefix(rest) {
        Some((to, n)) if n == rest.len() => (to, None),
        Some((to, n)) => {
            let mut tail = rest[n..].chars();
            let letter = tail.next().filter(|c| c.is_ascii_alphabetic())?;
            if tail.next().is_some() {
                return None;
            }
            let types = r.def.types_by_san_letter(letter);
            (to, (types != 0).then_some(types))
        }
        None => return None,
    };
    let us = pos.side as usize;
    let ty = r.type_at(pos, from).filter(|_| pos.by_side[us].has(from));
    let pattern = ty.map(|ty| BoardPattern {
        piece: Some(1 << ty),
        wanted: Some(1 << ty),
        to,
        square_hint: Some(from),
        file_hint: None,
        rank_hint: None,
        promotion,
    });
    Some((from, pattern))
}

/// The name and SAN letter of the first type in `types`.
fn name_of<B: Bits>(r: &Rules<B>, types: u32) -> Option<(String, char)> {
    let ty = (0..r.types()).find(|ty| types & (1 << ty) != 0)?;
    let piece = &r.def.pieces[ty];
    Some((piece.name.clone(), piece.san_letter.to_ascii_uppercase()))
}

/// The SAN of the legal moves in `legal` that `keep` selects.
fn listed<B: Bits>(r: &Rules<B>, legal: &[Move], keep: impl Fn(&Move) -> bool) -> Vec<String> {
    let mut sans: Vec<String> = legal
        .iter()
        .filter(|m| keep(m))
        .take(MAX_LISTED)
        .map(|&m| notation::san_body(r, m, legal))
        .collect();
    sans.sort();
    sans
}

/// A board move (SAN or from square to square).
fn board_move<B: Bits>(
    r: &Rules<B>,
    pos: &Position<B>,
    legal: &[Move],
    pattern: &BoardPattern,
) -> Refusal {
    let us = pos.side as usize;
    let g = &r.def.geometry;
    let Some(types) = pattern.wanted else {
        return Refusal::new(Why::Other);
    };
    let mut refusal = Refusal::new(Why::Other);
    // No letter: a pawn, whatever pawn types the variant has (Tamerlane's).
    refusal.piece = match pattern.piece {
        Some(named) => name_of(r, named),
        None => Some(("pawn".to_owned(), 'P')),
    };
    refusal.square = Some(g.name(pattern.to));
    // A pawn typed without its origin: the moves of the pawns on the file
    // typed, and those to the square typed, rather than every pawn's.
    let pawn_unplaced = pattern.piece.is_none()
        && pattern.square_hint.is_none()
        && pattern.file_hint.is_none()
        && pattern.rank_hint.is_none();
    refusal.legal = listed(r, legal, |m| {
        m.kind != MoveKind::Drop
            && pattern.fits_piece(m)
            && pattern.fits_origin(r, m)
            && (!pawn_unplaced
                || m.to as usize == pattern.to
                || g.file_of(m.from as usize) == g.file_of(pattern.to))
    });
    let ours = pieces_of_types(pos, types) & pos.by_side[us];
    if ours.is_empty() {
        refusal.why = Why::NoPiece;
        return refusal;
    }
    let mut pseudo = Vec::new();
    r.pseudo_moves(pos, &mut pseudo);
    let matching: Vec<Move> = pseudo
        .iter()
        .copied()
        .filter(|m| pattern.fits(r, m))
        .collect();
    if matching.is_empty() {
        let confined = (0..r.types())
            .filter(|&ty| types & (1 << ty) != 0 && (pos.by_type[ty] & ours).any())
            .all(|ty| {
                r.def.pieces[ty]
                    .palace
                    .confined
                    .as_ref()
                    .is_some_and(|zones| !zones[us].contains(&pattern.to))
            });
        let unpromoted = BoardPattern {
            promotion: None,
            ..*pattern
        };
        let locked_out = r.t.royal_only.has(pattern.to)
            && (0..r.types())
                .filter(|&ty| types & (1 << ty) != 0 && (pos.by_type[ty] & ours).any())
                .all(|ty| r.closed_to(ty, us).has(pattern.to));
        refusal.why = if confined {
            Why::Palace
        } else if locked_out {
            Why::Citadel
        } else if pos.by_side[us].has(pattern.to) {
            Why::OwnPieceThere
        } else if pattern.promotion.is_some() && pseudo.iter().any(|m| unpromoted.fits(r, m)) {
            Why::Promotion
        } else if blocked(r, pos, pattern, ours) {
            Why::Blocked
        } else if only_hops(r, pos, types, ours) {
            Why::NeedsScreen
        } else {
            Why::NoneReaches
        };
        return refusal;
    }
    if r.def.must_capture
        && legal.iter().any(|m| m.is_capture())
        && !matching.iter().any(|m| m.is_capture())
    {
        refusal.why = Why::MustCapture;
        return refusal;
    }
    refusal.why = exposes(r, pos, &matching);
    refusal
}

/// The squares one piece's moves reach ([`Rules::visit_targets`]).
struct Reach<B> {
    from: usize,
    targets: B,
}

impl<B: Bits> VisitTargets<B> for Reach<B> {
    fn visit(&mut self, _: usize, _: &PieceTables<B>, from: usize, targets: B, _: MoveKind) {
        if from == self.from {
            self.targets |= targets;
        }
    }
}

/// Whether one of the pieces `ours` that fits the origin typed would reach
/// the destination were it alone on the board: the way is blocked. Never
/// in hidden-information games (what blocks may be unseen).
fn blocked<B: Bits>(r: &Rules<B>, pos: &Position<B>, pattern: &BoardPattern, ours: B) -> bool {
    if r.def.visibility != Visibility::Full {
        return false;
    }
    ours.squares().any(|from| {
        let Some(ty) = r.type_at(pos, from) else {
            return false;
        };
        let probe = Move {
            from: from as u8,
            to: pattern.to as u8,
            piece: ty as u8,
            promotion: 0,
            kind: MoveKind::Quiet,
        };
        if !pattern.fits_origin(r, &probe) {
            return false;
        }
        let mut alone = *pos;
        for square in pos.occupied().squares().filter(|&sq| sq != from) {
            alone.remove(square);
        }
        alone.ep = None;
        alone.ep_victim = None;
        let mut reach = Reach {
            from,
            targets: B::EMPTY,
        };
        r.visit_targets(&alone, &mut reach);
        reach.targets.has(pattern.to)
    })
}

/// Whether every piece of `types` among `ours` moves only by hopping over
/// a screen (the janggi cannon): with no screen on the way, it goes nowhere.
fn only_hops<B: Bits>(r: &Rules<B>, pos: &Position<B>, types: u32, ours: B) -> bool {
    let us = pos.side as usize;
    let mut named = (0..r.types())
        .filter(|&ty| types & (1 << ty) != 0 && (pos.by_type[ty] & ours).any())
        .peekable();
    named.peek().is_some()
        && named.all(|ty| {
            let tables = &r.t.pieces[ty][us];
            !tables.riders.is_empty()
                && tables.riders.iter().all(|rider| rider.hop == Hop::Cannon)
                && tables.leap_quiet.iter().all(|leaps| leaps.is_empty())
                && tables.leap_capture.iter().all(|leaps| leaps.is_empty())
        })
}

/// Why pseudo-legal moves that are not legal are refused: they leave the
/// mover's own royal attacked (a royal stepping into check, a pinned piece,
/// a check not answered), they break a rule of the variant about what a
/// move may lead to, or something else.
fn exposes<B: Bits>(r: &Rules<B>, pos: &Position<B>, moves: &[Move]) -> Why {
    let us = pos.side as usize;
    if r.def.atomic || r.def.king_capture || r.t.seats.is_some() {
        return Why::Other;
    }
    let exposing = moves.iter().find(|&&m| {
        let mut after = *pos;
        r.make(&mut after, m);
        r.royals(&after, us).any() && r.in_check(&after, us)
    });
    let Some(m) = exposing else {
        return leads_where_forbidden(r, pos, moves);
    };
    if r.def.royal_mask() & (1 << m.piece) != 0 {
        Why::IntoCheck
    } else if r.in_check(pos, us) {
        Why::InCheck
    } else {
        Why::Pinned
    }
}

/// Why moves that leave the mover's royal safe are still refused: every
/// one of them keeps the royals facing each other (bikjang), or gives a
/// check where checks are not allowed.
fn leads_where_forbidden<B: Bits>(r: &Rules<B>, pos: &Position<B>, moves: &[Move]) -> Why {
    let them = 1 - pos.side as usize;
    let all_after = |holds: &dyn Fn(&Position<B>) -> bool| {
        !moves.is_empty()
            && moves.iter().all(|&m| {
                let mut after = *pos;
                r.make(&mut after, m);
                holds(&after)
            })
    };
    if r.royals_facing_rule(pos) && all_after(&|after| r.royals_facing(after)) {
        Why::Facing
    } else if r.def.checks_forbidden
        && all_after(&|after| r.royals(after, them).any() && r.in_check(after, them))
    {
        Why::GivesCheck
    } else {
        Why::Other
    }
}

/// Whether drop `m` mates: the other side is in check and has no move.
fn mates<B: Bits>(r: &Rules<B>, pos: &Position<B>, m: Move) -> bool {
    let them = 1 - pos.side as usize;
    let mut after = *pos;
    r.make(&mut after, m);
    if !r.in_check(&after, them) {
        return false;
    }
    let mut replies = crate::moves::MoveList::new();
    r.legal_moves_on_board(&after, &mut replies);
    replies.is_empty()
}

/// Castling (`long`: towards the lower files).
fn castle<B: Bits>(r: &Rules<B>, pos: &Position<B>, legal: &[Move], long: bool) -> Refusal {
    let us = pos.side as usize;
    let Some(royal) = r.royal_type().filter(|_| r.def.castling) else {
        return Refusal::new(Why::CastleNotInGame);
    };
    let mut refusal = Refusal::new(Why::CastleNoRight);
    refusal.piece = name_of(r, 1 << royal);
    refusal.legal = listed(r, legal, |m| m.piece as usize == royal);
    let kings = r.royals(pos, us) & pos.by_type[royal] & r.t.first_rank[us];
    if kings.is_empty() || kings.more_than_one() {
        return refusal;
    }
    let king = kings.lowest();
    let rights = pos.castling & pos.by_side[us] & r.t.first_rank[us];
    let Some(rook) = rights.squares().find(|&rook| (rook < king) == long) else {
        return refusal;
    };
    if r.in_check(pos, us) {
        refusal.why = Why::CastleInCheck;
        return refusal;
    }
    let (king_to, rook_to) = r.castling_destinations(king, rook);
    let lo = king.min(rook).min(king_to).min(rook_to);
    let hi = king.max(rook).max(king_to).max(rook_to);
    let occupied = pos.occupied();
    refusal.why = if (lo..=hi).any(|sq| sq != king && sq != rook && occupied.has(sq)) {
        Why::CastleBlocked
    } else {
        Why::CastleThroughCheck
    };
    refusal
}

/// A drop of type `ty` on `to`.
fn drop<B: Bits>(r: &Rules<B>, pos: &Position<B>, ty: usize, to: usize) -> Refusal {
    let us = pos.side as usize;
    if !r.def.drops {
        return Refusal::new(Why::NoDrops);
    }
    let mut refusal = Refusal::new(Why::Other);
    refusal.piece = name_of(r, 1 << ty);
    refusal.square = Some(r.def.geometry.name(to));
    if pos.pockets[us][ty] == 0 {
        refusal.why = Why::NotInHand;
        return refusal;
    }
    let mut pseudo = Vec::new();
    r.pseudo_moves(pos, &mut pseudo);
    let matching: Vec<Move> = pseudo
        .into_iter()
        .filter(|m| m.kind == MoveKind::Drop && m.piece as usize == ty && m.to as usize == to)
        .collect();
    if !matching.is_empty() {
        refusal.why = exposes(r, pos, &matching);
        if refusal.why == Why::Other && matching.iter().all(|&m| mates(r, pos, m)) {
            refusal.why = Why::DropMate;
        }
    }
    refusal
}
