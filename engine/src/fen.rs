//! FEN in and out, in Fairy-Stockfish conventions: pockets `[Qn]` (or a
//! ninth rank `/Qn`), promoted pieces `~`, remaining checks `3+3` (or
//! lichess's `+0+0` checks given), X-FEN / Shredder castling letters,
//! multi-digit empty runs (`10`), two pieces of a doubled throne in
//! parentheses (`(KB)`, Enochian chess). Squares and castling files are named the
//! machine's way, like UCI: files `a`, `b`, … by index
//! ([`crate::Geometry::uci_name`]).

use crate::bitboard::Bits;
pub use crate::error::FenError;
use crate::rules::Position;
use crate::side::Side;
use crate::tables::{relative_line, MAX_TYPES, SIDES};
use crate::variant::{PromotionChoice, VariantDef};
use std::fmt::Write;

/// Keeps a piece of user input short enough to show back.
fn shown(text: &str) -> String {
    text.chars().take(16).collect()
}

/// Longest FEN we read (a 16×16 board with pockets fits easily).
const MAX_FEN_LEN: usize = 1024;

/// Checks that `fen`'s board part reads for `def` (used when loading definitions).
pub fn parse_board_only(def: &VariantDef, fen: &str) -> Result<(), FenError> {
    parse::<crate::bitboard::U256>(def, fen).map(|_| ())
}

/// Checks that the start position of a definition reads (the registry does
/// this when it loads a definition).
pub fn check_start(def: &VariantDef) -> Result<(), FenError> {
    if def.geometry.size() > 256 {
        return Err(FenError::BoardTooLarge);
    }
    if def.chess960 {
        return Ok(());
    }
    parse_board_only(def, &def.start_fen)
}

/// Reads a FEN for `def`.
pub fn parse<B: Bits>(def: &VariantDef, fen: &str) -> Result<Position<B>, FenError> {
    if fen.len() > MAX_FEN_LEN {
        return Err(FenError::TooLong);
    }
    let g = &def.geometry;
    if g.size() > B::CAPACITY {
        return Err(FenError::BoardTooLarge);
    }
    let mut fields = fen.split_whitespace();
    let Some(mut board) = fields.next() else {
        return Err(FenError::Empty);
    };
    let mut pos = Position::<B>::default();
    // Pockets: `[...]` suffix, or one extra rank.
    let mut pocket_text = None;
    if let Some(open) = board.find('[') {
        if !board.ends_with(']') {
            return Err(FenError::UnclosedPocket);
        }
        pocket_text = Some(&board[open + 1..board.len() - 1]);
        board = &board[..open];
    }
    let mut rows: Vec<&str> = board.split('/').collect();
    if rows.len() == g.ranks as usize + 1 && def.drops && pocket_text.is_none() {
        pocket_text = rows.pop();
    }
    if rows.len() != g.ranks as usize {
        return Err(FenError::RankCount {
            expected: g.ranks,
            found: rows.len(),
        });
    }
    for (i, row) in rows.iter().enumerate() {
        let rank = g.ranks as i32 - 1 - i as i32;
        let mut file: i32 = 0;
        let mut chars = row.chars().peekable();
        while let Some(c) = chars.next() {
            if c.is_ascii_digit() {
                let mut run = c.to_digit(10).unwrap_or(0) as i32;
                while let Some(d) = chars.peek().and_then(|d| d.to_digit(10)) {
                    run = run * 10 + d as i32;
                    chars.next();
                }
                if run == 0 {
                    return Err(FenError::ZeroRun);
                }
                file += run;
            } else if c == '*' {
                file += 1;
            } else if c == '~' {
                return Err(FenError::StrayPromotedMark);
            } else if c == '(' {
                // Two pieces on one square: a doubled throne (Enochian chess).
                if file >= g.files as i32 {
                    return Err(FenError::RankTooLong {
                        rank: rank as u8 + 1,
                    });
                }
                let Some(square) = g.square(file, rank) else {
                    return Err(FenError::PieceOnHole(c));
                };
                let mut letters = Vec::new();
                loop {
                    match chars.next() {
                        Some(')') => break,
                        Some(l) if letters.len() < 2 => letters.push(l),
                        _ => return Err(FenError::BadPair(g.name(square))),
                    }
                }
                put_pair(def, &mut pos, square, &letters)?;
                file += 1;
            } else {
                let Some(ty) = def.piece_by_letter(c) else {
                    return Err(FenError::UnknownPiece(c));
                };
                let side = if c.is_ascii_uppercase() { 0 } else { 1 };
                if file >= g.files as i32 {
                    return Err(FenError::RankTooLong {
                        rank: rank as u8 + 1,
                    });
                }
                let Some(square) = g.square(file, rank) else {
                    return Err(FenError::PieceOnHole(c));
                };
                pos.put(square, side, ty);
                if chars.peek() == Some(&'~') {
                    chars.next();
                    pos.promoted.set(square);
                }
                file += 1;
            }
            if file > g.files as i32 {
                return Err(FenError::RankTooLong {
                    rank: rank as u8 + 1,
                });
            }
        }
        if file != g.files as i32 {
            return Err(FenError::RankTooShort {
                rank: rank as u8 + 1,
                found: file as u8,
                expected: g.files,
            });
        }
    }
    if let Some(pocket) = pocket_text {
        if !def.drops {
            if !pocket.is_empty() {
                return Err(FenError::NoPockets);
            }
        } else {
            for c in pocket.chars() {
                if c == '-' {
                    continue;
                }
                let Some(ty) = def.piece_by_letter(c) else {
                    return Err(FenError::UnknownPocketPiece(c));
                };
                if def.pieces[ty].royal {
                    return Err(FenError::RoyalInPocket(c));
                }
                let side = if c.is_ascii_uppercase() { 0 } else { 1 };
                let count = &mut pos.pockets[side][ty];
                if *count == u8::MAX {
                    return Err(FenError::PocketFull);
                }
                *count += 1;
            }
        }
    }
    pos.side = match fields.next() {
        Some("w") | None => 0,
        Some("b") => 1,
        Some(other) => return Err(FenError::BadSide(shown(other))),
    };
    // Royal pieces: at most one per side (per seat, where seats own them;
    // any number with spare royals), none in a pocket (above).
    let royal_mask = def.royal_mask();
    let by_seat = def.pieces.iter().any(|p| p.seat.is_some());
    for side in (0..SIDES).filter(|_| !def.spare_royals) {
        let mut royals = B::EMPTY;
        for (ty, squares) in pos.by_type.iter().enumerate().take(def.pieces.len()) {
            if royal_mask & (1 << ty) != 0 {
                if by_seat && (*squares & pos.by_side[side]).more_than_one() {
                    return Err(FenError::TooManyKings(Side(side as u8)));
                }
                royals |= *squares;
            }
        }
        if !by_seat && (royals & pos.by_side[side]).more_than_one() {
            return Err(FenError::TooManyKings(Side(side as u8)));
        }
    }
    // And at least one where the variant's start gives the side one.
    for side in 0..SIDES {
        if def.needs_royal(side) {
            let royals = pos
                .by_type
                .iter()
                .enumerate()
                .take(def.pieces.len())
                .filter(|&(ty, _)| royal_mask & (1 << ty) != 0)
                .fold(B::EMPTY, |all, (_, squares)| all | *squares);
            if (royals & pos.by_side[side]).is_empty() {
                return Err(FenError::MissingRoyal(Side(side as u8)));
            }
        }
    }
    // Squares only kings (the first royal type, and Tamerlane's adventitious
    // king) may enter hold no other piece.
    let adventitious = def.pawn_of_pawns.as_ref().map(|pp| pp.becomes);
    for &sq in &def.royal_only {
        if let Some((_, ty)) = pos.piece_at(sq) {
            if def.royal_type() != Some(ty) && adventitious != Some(ty) {
                return Err(FenError::RoyalOnly(def.geometry.name(sq)));
            }
        }
    }
    // Pawns may not stand on their promotion rank.
    for (ty, piece) in def.pieces.iter().enumerate() {
        // Where promotion is restricted a pawn may stay on the zone's ranks
        // (grand: before the last; chaturanga: anywhere).
        let lowest = match def.promotion {
            PromotionChoice::Any => def.promotion_rank,
            PromotionChoice::Captured => def.geometry.ranks,
            PromotionChoice::CapturedStartSquare | PromotionChoice::AfterPawnLost => u8::MAX,
        };
        if piece.pawn && !piece.promotes_to.is_empty() {
            for side in 0..SIDES {
                for sq in (pos.by_type[ty] & pos.by_side[side]).squares() {
                    let on_zone = match &piece.promotion_squares {
                        Some(squares) => {
                            def.promotion == PromotionChoice::Any && squares[side].contains(&sq)
                        }
                        None => relative_line(def, piece, side, sq) >= lowest,
                    };
                    if on_zone {
                        return Err(FenError::PawnOnPromotionRank);
                    }
                }
            }
        }
    }
    if def.royal_swap {
        // The castling field says who may still swap king and piece (`Kk`).
        pos.royal_leaps_used = 0b11;
    }
    if let Some(castling) = fields.next() {
        if castling != "-" {
            let mut chars = castling.chars();
            while let Some(c) = chars.next() {
                match c {
                    'K' if def.royal_swap => pos.royal_leaps_used &= !1,
                    'k' if def.royal_swap => pos.royal_leaps_used &= !2,
                    // The pawn of pawns' stage: `P2` white's, `p1` black's.
                    'P' | 'p' if def.pawn_of_pawns.is_some() => {
                        let stage = chars
                            .next()
                            .and_then(|d| d.to_digit(10))
                            .filter(|&d| d <= 4)
                            .ok_or(FenError::BadCastling(c))?;
                        pos.pawn_stages[usize::from(c == 'p')] = stage as u8;
                    }
                    'T' | 'X' | 'R' | 'U' if !def.thrones.is_empty() => {
                        pos.thrones
                            .read_letter(c, &mut chars)
                            .ok_or(FenError::BadCastling(c))?;
                    }
                    _ if def.royal_swap
                        || def.pawn_of_pawns.is_some()
                        || !def.thrones.is_empty() =>
                    {
                        return Err(FenError::BadCastling(c))
                    }
                    _ => parse_castling(def, &mut pos, c)?,
                }
            }
        }
    }
    if let Some(ep) = fields.next() {
        if ep != "-" {
            let Some(square) = g.parse_uci(ep) else {
                return Err(FenError::BadEnPassant(shown(ep)));
            };
            set_en_passant(def, &mut pos, square);
        }
    }
    let rest: Vec<&str> = fields.collect();
    let mut numbers = Vec::new();
    for field in rest {
        if let Some((a, b)) = field.split_once('+').filter(|(a, _)| !a.is_empty()) {
            // Fairy-Stockfish: remaining checks `3+3`.
            let (Ok(white), Ok(black)) = (a.parse::<u8>(), b.parse::<u8>()) else {
                return Err(FenError::BadCheckCounter(shown(field)));
            };
            if def.check_limit > 0 {
                pos.checks = [
                    def.check_limit.saturating_sub(white),
                    def.check_limit.saturating_sub(black),
                ];
            }
        } else if let Some(given) = field.strip_prefix('+') {
            // lichess: checks given `+1+0`.
            let Some((a, b)) = given.split_once('+') else {
                return Err(FenError::BadCheckCounter(shown(field)));
            };
            let (Ok(white), Ok(black)) = (a.parse::<u8>(), b.parse::<u8>()) else {
                return Err(FenError::BadCheckCounter(shown(field)));
            };
            if def.check_limit > 0 {
                pos.checks = [white.min(def.check_limit), black.min(def.check_limit)];
            }
        } else {
            match field.parse::<u32>() {
                Ok(n) => numbers.push(n),
                Err(_) => return Err(FenError::BadCounter(shown(field))),
            }
        }
    }
    match numbers.as_slice() {
        [] => {}
        [half] => pos.halfmove = (*half).min(u16::MAX as u32) as u16,
        [half, full] => {
            pos.halfmove = (*half).min(u16::MAX as u32) as u16;
            pos.fullmove = (*full).clamp(1, 1_000_000);
        }
        _ => return Err(FenError::TooManyFields),
    }
    Ok(pos)
}

fn castlers_on_first_rank<B: Bits>(def: &VariantDef, pos: &Position<B>, side: usize) -> Vec<usize> {
    let g = &def.geometry;
    let rank = if side == 0 { 0 } else { g.ranks as i32 - 1 };
    (0..g.files as i32)
        .filter_map(|f| g.square(f, rank))
        .filter(|&sq| {
            pos.by_side[side].has(sq)
                && def
                    .pieces
                    .iter()
                    .enumerate()
                    .any(|(ty, p)| p.castles && pos.by_type[ty].has(sq))
        })
        .collect()
}

fn king_square<B: Bits>(def: &VariantDef, pos: &Position<B>, side: usize) -> Option<usize> {
    let royal = def.royal_type()?;
    let kings = pos.by_type[royal] & pos.by_side[side];
    (!kings.is_empty()).then(|| kings.lowest())
}

fn parse_castling<B: Bits>(
    def: &VariantDef,
    pos: &mut Position<B>,
    c: char,
) -> Result<(), FenError> {
    let side = if c.is_ascii_uppercase() { 0 } else { 1 };
    let lower = c.to_ascii_lowercase();
    let g = &def.geometry;
    let rooks = castlers_on_first_rank(def, pos, side);
    let king = king_square(def, pos, side);
    let rank = if side == 0 { 0 } else { g.ranks as i32 - 1 };
    let rook = match lower {
        'k' => king.and_then(|k| rooks.iter().rev().copied().find(|&r| r > k)),
        'q' => king.and_then(|k| rooks.iter().copied().find(|&r| r < k)),
        'a'..='p' => {
            let file = (lower as u8 - b'a') as i32;
            g.square(file, rank).filter(|sq| rooks.contains(sq))
        }
        _ => return Err(FenError::BadCastling(c)),
    };
    // Rights without a rook or king in place are ignored, as Fairy-Stockfish does.
    if let (Some(rook), Some(king)) = (rook, king) {
        if g.rank_of(king) == rank {
            pos.castling.set(rook);
        }
    }
    Ok(())
}

/// Puts the two pieces `letters` of a doubled throne on `square`: the king
/// and one more piece of the seat whose throne it is (Enochian chess).
fn put_pair<B: Bits>(
    def: &VariantDef,
    pos: &mut Position<B>,
    square: usize,
    letters: &[char],
) -> Result<(), FenError> {
    let bad = || FenError::BadPair(def.geometry.name(square));
    let seat = def
        .thrones
        .iter()
        .position(|&throne| throne == square)
        .ok_or_else(bad)?;
    let [a, b] = letters else {
        return Err(bad());
    };
    let mut types = Vec::new();
    for &c in [a, b] {
        let ty = def.piece_by_letter(c).ok_or(FenError::UnknownPiece(c))?;
        let side = usize::from(!c.is_ascii_uppercase());
        if side != seat % SIDES || def.pieces[ty].seat != Some((seat / SIDES) as u8 + 1) {
            return Err(bad());
        }
        types.push((side, ty));
    }
    let royals = types
        .iter()
        .filter(|&&(_, ty)| def.pieces[ty].royal)
        .count();
    if royals != 1 {
        return Err(bad());
    }
    for (side, ty) in types {
        pos.put(square, side, ty);
    }
    Ok(())
}

fn set_en_passant<B: Bits>(def: &VariantDef, pos: &mut Position<B>, square: usize) {
    let g = &def.geometry;
    let mover = 1 - pos.side as usize;
    let forward = if mover == 0 { 1 } else { -1 };
    let Some(victim) = g.offset(square, 0, forward) else {
        return;
    };
    let is_pawn = |sq: usize| {
        def.pieces
            .iter()
            .enumerate()
            .any(|(ty, p)| p.pawn && pos.by_type[ty].has(sq) && pos.by_side[mover].has(sq))
    };
    if is_pawn(victim) && !pos.occupied().has(square) {
        pos.ep = Some(square as u8);
        pos.ep_victim = Some(victim as u8);
    }
}

/// Writes `pos` as FEN. `shredder` writes castling as file letters (Chess960).
pub fn write<B: Bits>(def: &VariantDef, pos: &Position<B>, chess960: bool) -> String {
    let g = &def.geometry;
    let mut out = String::new();
    for rank in (0..g.ranks as i32).rev() {
        let mut empty = 0;
        for file in 0..g.files as i32 {
            let square = rank as usize * g.files as usize + file as usize;
            match pos.piece_at(square) {
                Some((side, ty)) => {
                    if empty > 0 {
                        let _ = write!(out, "{empty}");
                        empty = 0;
                    }
                    let cased = |ty: usize| {
                        let letter = def.pieces[ty].letter;
                        if side == 0 {
                            letter.to_ascii_uppercase()
                        } else {
                            letter
                        }
                    };
                    match pos.second_at(square) {
                        // A doubled throne (Enochian chess): `(KB)`.
                        Some(second) => {
                            out.push('(');
                            out.push(cased(ty));
                            out.push(cased(second));
                            out.push(')');
                        }
                        None => out.push(cased(ty)),
                    }
                    if def.drops && pos.promoted.has(square) {
                        out.push('~');
                    }
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            let _ = write!(out, "{empty}");
        }
        if rank > 0 {
            out.push('/');
        }
    }
    if def.drops {
        out.push('[');
        for side in 0..SIDES {
            for ty in 0..def.pieces.len().min(MAX_TYPES) {
                let letter = def.pieces[ty].letter;
                let letter = if side == 0 {
                    letter.to_ascii_uppercase()
                } else {
                    letter
                };
                for _ in 0..pos.pockets[side][ty] {
                    out.push(letter);
                }
            }
        }
        out.push(']');
    }
    out.push_str(if pos.side == 0 { " w " } else { " b " });
    let castling = castling_field(def, pos, chess960);
    out.push_str(if castling.is_empty() { "-" } else { &castling });
    out.push(' ');
    match pos.ep {
        Some(ep) => out.push_str(&g.uci_name(ep as usize)),
        None => out.push('-'),
    }
    if def.check_limit > 0 {
        let _ = write!(
            out,
            " {}+{}",
            def.check_limit.saturating_sub(pos.checks[0]),
            def.check_limit.saturating_sub(pos.checks[1])
        );
    }
    let _ = write!(out, " {} {}", pos.halfmove, pos.fullmove);
    out
}

/// The castling rights of `pos` as FEN letters (`KQkq`, file letters with
/// `chess960`; with the king's swap, `K` and `k` for the sides that may
/// still swap, then `P<stage>` / `p<stage>` for a pawn of pawns under way);
/// empty without rights (the FEN writes `-`).
pub(crate) fn castling_field<B: Bits>(
    def: &VariantDef,
    pos: &Position<B>,
    chess960: bool,
) -> String {
    let g = &def.geometry;
    let mut castling = String::new();
    if !def.thrones.is_empty() {
        // Thrones and prisoners (Enochian chess), where castling never is.
        return pos.thrones.fen_letters();
    }
    if def.royal_swap || def.pawn_of_pawns.is_some() {
        // Who may still swap king and piece (Tamerlane), in the castling letters.
        for (side, letter) in [(0, 'K'), (1, 'k')] {
            if def.royal_swap && pos.royal_leaps_used & (1 << side) == 0 {
                castling.push(letter);
            }
        }
        // And the pawn of pawns' stage, where it has left stage 0.
        for (side, letter) in [(0, 'P'), (1, 'p')] {
            if pos.pawn_stages[side] > 0 {
                castling.push(letter);
                castling.push_str(&pos.pawn_stages[side].to_string());
            }
        }
        return castling;
    }
    for side in 0..SIDES {
        let rights = pos.castling & pos.by_side[side];
        let king = king_square(def, pos, side);
        let rooks = castlers_on_first_rank(def, pos, side);
        let mut letters: Vec<char> = Vec::new();
        for rook in rights.squares() {
            let outer_right = rooks.last() == Some(&rook) && king.is_some_and(|k| rook > k);
            let outer_left = rooks.first() == Some(&rook) && king.is_some_and(|k| rook < k);
            let letter = if !chess960 && outer_right {
                'k'
            } else if !chess960 && outer_left {
                'q'
            } else {
                (b'a' + g.file_of(rook) as u8) as char
            };
            letters.push(letter);
        }
        // K before Q, and files from the king side: h-side first.
        letters.sort_by_key(|&l| match l {
            'k' => 0,
            'q' => 1,
            f => 2 + (b'z' - f as u8) as i32,
        });
        for l in letters {
            castling.push(if side == 0 { l.to_ascii_uppercase() } else { l });
        }
    }
    castling
}
