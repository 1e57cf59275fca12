//! Move notation: UCI and SAN out; moves typed by people in.
//!
//! Input accepts SAN (`Nf3`, `exd5`, `e8=Q`, `e8Q`, `O-O`, `0-0-0`),
//! over-disambiguated SAN (`Ngf3`, `Ng1f3`), with or without `+ # x - : =`,
//! UCI (`g1f3`, `e7e8q`, `e1h1` king-takes-rook), drops (`N@f3`, `@e4`), and
//! Russian piece letters (Кр Ф Л С К; Cyrillic К is the knight).

use crate::bitboard::Bits;
use crate::error::MoveError;
use crate::moves::{Move, MoveKind};
use crate::rules::{Position, Rules};

/// Longest move text we try to read.
pub const MAX_MOVE_TEXT: usize = 40;

/// The UCI text of `mv`. `chess960` writes castling king-takes-rook.
///
/// UCI names files by index (`a`, `b`, … without skipping a letter) even
/// where people read the variant's own letters (four-handed chess skips `j`):
/// stored game records and engines use this spelling.
pub fn uci<B: Bits>(r: &Rules<B>, mv: Move, chess960: bool) -> String {
    let g = &r.def.geometry;
    coordinates(r, mv, chess960, |sq| g.uci_name(sq))
}

/// `mv` from square to square as people type it (`e2e4`, `e7e8q`), with the
/// squares they read: UCI but for the variant's own file letters.
pub fn coordinates_for_people<B: Bits>(r: &Rules<B>, mv: Move, chess960: bool) -> String {
    let g = &r.def.geometry;
    coordinates(r, mv, chess960, |sq| g.name(sq))
}

/// Whether `mv` is a step of the piece that may share a throne with its
/// king (Enochian chess: a non-royal piece leaving a throne square for a
/// square next to it), which the king could make from the same square to
/// the same square: written with the piece's letter after the squares
/// (`h1g2b`), the king's step without (`h1g2`).
fn shares_a_throne_step<B: Bits>(r: &Rules<B>, mv: Move) -> bool {
    let def = r.def;
    let (from, to) = (mv.from as usize, mv.to as usize);
    if def.thrones.is_empty() || !def.thrones.contains(&from) {
        return false;
    }
    let g = &def.geometry;
    let near = (g.file_of(from) - g.file_of(to)).abs() <= 1
        && (g.rank_of(from) - g.rank_of(to)).abs() <= 1;
    near && from != to && def.pieces.get(mv.piece as usize).is_some_and(|p| !p.royal)
}

/// `mv` written from-square to-square like UCI, with the square names `name`
/// (the machine's, or the ones people read).
fn coordinates<B: Bits>(
    r: &Rules<B>,
    mv: Move,
    chess960: bool,
    name: impl Fn(usize) -> String,
) -> String {
    match mv.kind {
        MoveKind::Drop => format!(
            "{}@{}",
            r.def.pieces[mv.piece as usize].letter.to_ascii_uppercase(),
            name(mv.to as usize)
        ),
        MoveKind::Castle if !chess960 => {
            let (king_to, _) = r.castling_destinations(mv.from as usize, mv.to as usize);
            format!("{}{}", name(mv.from as usize), name(king_to))
        }
        _ => {
            let mut s = format!("{}{}", name(mv.from as usize), name(mv.to as usize));
            if let Some(p) = mv.promotion() {
                s.push(r.def.pieces[p].letter);
            } else if shares_a_throne_step(r, mv) {
                s.push(r.def.pieces[mv.piece as usize].letter);
            }
            s
        }
    }
}

/// The SAN of `mv` without the check suffix; `legal` are the legal moves of `pos`.
///
/// A SAN that would not read back as `mv` alone names the origin square:
/// `d6-e6`, `d5xe6`, `Nd5xe6`. That happens where partners command each
/// other's pawns (four-handed chess): two pawns reach one square from two
/// directions, and the file of a capture does not tell them apart.
pub fn san_body<B: Bits>(r: &Rules<B>, mv: Move, legal: &[Move]) -> String {
    let s = short_san(r, mv, legal);
    let plain = !matches!(mv.kind, MoveKind::Castle | MoveKind::Drop)
        && !crate::mechanics::palace::is_pass(mv);
    if !plain || matches!(read(r, &s, legal, r.def.chess960).as_deref(), Ok([only]) if *only == mv)
    {
        return s;
    }
    let g = &r.def.geometry;
    let piece = &r.def.pieces[mv.piece as usize];
    let mut s = String::new();
    if !piece.pawn {
        s.push(piece.san_letter.to_ascii_uppercase());
    }
    s.push_str(&g.name(mv.from as usize));
    s.push(if mv.is_capture() { 'x' } else { '-' });
    s.push_str(&g.name(mv.to as usize));
    if let Some(p) = mv.promotion() {
        s.push('=');
        s.push(r.def.pieces[p].san_letter.to_ascii_uppercase());
    }
    s
}

/// SAN as usual: the piece letter, as little of the origin as tells the
/// move from another of the same piece letter, the destination.
fn short_san<B: Bits>(r: &Rules<B>, mv: Move, legal: &[Move]) -> String {
    let g = &r.def.geometry;
    let piece = &r.def.pieces[mv.piece as usize];
    match mv.kind {
        MoveKind::Castle if r.def.royal_swap => {
            // The king's swap: the king "moves" onto the piece it trades with.
            return format!(
                "{}{}",
                piece.letter.to_ascii_uppercase(),
                g.name(mv.to as usize)
            );
        }
        MoveKind::Castle => {
            return if mv.to > mv.from {
                "O-O".into()
            } else {
                "O-O-O".into()
            };
        }
        MoveKind::Drop => {
            return format!(
                "{}@{}",
                piece.letter.to_ascii_uppercase(),
                g.name(mv.to as usize)
            );
        }
        _ => {}
    }
    if crate::mechanics::palace::is_pass(mv) {
        return "pass".into();
    }
    let mut s = String::new();
    let from = mv.from as usize;
    if piece.pawn {
        if mv.is_capture() {
            s.push(g.file_letter(g.file_of(from)));
        } else if r
            .def
            .pawn_of_pawns
            .as_ref()
            .is_some_and(|pp| pp.piece == mv.piece as usize)
            && (g.file_of(from) != g.file_of(mv.to as usize)
                || (g.rank_of(from) - g.rank_of(mv.to as usize)).abs() != 1)
        {
            // The pawn of pawns placed elsewhere (Tamerlane): its square.
            s.push_str(&g.name(from));
        }
    } else {
        s.push(piece.san_letter.to_ascii_uppercase());
        let rivals: Vec<&Move> = legal
            .iter()
            .filter(|m| {
                r.def.pieces[m.piece as usize].san_letter == piece.san_letter
                    && m.to == mv.to
                    && m.from != mv.from
                    && m.kind != MoveKind::Drop
                    && m.kind != MoveKind::Castle
            })
            .collect();
        if !rivals.is_empty() {
            let same_file = rivals
                .iter()
                .any(|m| g.file_of(m.from as usize) == g.file_of(from));
            let same_rank = rivals
                .iter()
                .any(|m| g.rank_number(m.from as usize) == g.rank_number(from));
            if !same_file {
                s.push(g.file_letter(g.file_of(from)));
            } else if !same_rank {
                s.push_str(&g.rank_number(from).to_string());
            } else {
                s.push_str(&g.name(from));
            }
        }
    }
    if mv.is_capture() {
        s.push('x');
    }
    s.push_str(&g.name(mv.to as usize));
    if let Some(p) = mv.promotion() {
        s.push('=');
        s.push(r.def.pieces[p].san_letter.to_ascii_uppercase());
    }
    s
}

/// The full SAN of `mv` with `+` or `#`.
pub fn san<B: Bits>(r: &Rules<B>, pos: &Position<B>, mv: Move, legal: &[Move]) -> String {
    let mut s = san_body(r, mv, legal);
    let mut after = *pos;
    r.make(&mut after, mv);
    let them = after.side as usize;
    if r.royals(&after, them).any() && r.live_check(&after, them) {
        let mut replies = Vec::new();
        r.legal_moves(&after, &mut replies);
        // A mated player of four-handed chess is left only a pass (where
        // kings are taken, a king in check is never mated).
        let only_pass = r.t.seats.is_some()
            && !r.def.king_capture
            && matches!(replies.as_slice(), [only] if crate::mechanics::palace::is_pass(*only));
        let mated = (replies.is_empty() || only_pass) && r.variant_outcome(&after).is_none();
        s.push(if mated { '#' } else { '+' });
    }
    s
}

/// Replaces Russian piece letters and look-alike Cyrillic file letters by Latin ones.
pub(crate) fn latinize<B: Bits>(r: &Rules<B>, text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    'outer: while let Some(c) = rest.chars().next() {
        // Russian piece names, longest first (Кр before К).
        let mut names: Vec<(&str, char)> = r
            .def
            .pieces
            .iter()
            .filter_map(|p| {
                p.russian
                    .as_deref()
                    .map(|ru| (ru, p.letter.to_ascii_uppercase()))
            })
            .collect();
        names.sort_by_key(|(ru, _)| std::cmp::Reverse(ru.chars().count()));
        for (ru, latin) in names {
            let len = ru.len();
            let matches = rest.get(..len).is_some_and(|head| {
                head == ru
                    || head.to_lowercase() == ru.to_lowercase()
                        && head.chars().next().is_some_and(|h| h.is_uppercase())
            });
            if matches {
                out.push(latin);
                rest = &rest[len..];
                continue 'outer;
            }
        }
        let mapped = match c {
            'а' => 'a',
            'с' => 'c',
            'е' => 'e',
            'х' | 'Х' => 'x',
            'О' | 'о' => 'O',
            other => other,
        };
        out.push(mapped);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// Reads a move typed by a person against the legal moves of `pos`.
pub fn parse<B: Bits>(
    r: &Rules<B>,
    text: &str,
    legal: &[Move],
    chess960: bool,
) -> Result<Move, MoveError> {
    match read(r, text, legal, chess960)?.as_slice() {
        [] => Err(MoveError::Illegal),
        [mv] => Ok(*mv),
        many => Err(MoveError::Ambiguous(
            many.iter().map(|&m| san_body(r, m, legal)).collect(),
        )),
    }
}

/// The legal moves `text` may mean (one where it is clear; none where it
/// is not legal); an error where it is not a move at all.
fn read<B: Bits>(
    r: &Rules<B>,
    text: &str,
    legal: &[Move],
    chess960: bool,
) -> Result<Vec<Move>, MoveError> {
    let text = text.trim();
    if text.is_empty() || text.len() > MAX_MOVE_TEXT {
        return Err(MoveError::Unparseable);
    }
    // A pass may be printed `pass+` (the next player is in check).
    if is_pass_word(text.trim_end_matches(['+', '#', '!', '?'])) {
        return Ok(legal
            .iter()
            .copied()
            .filter(|&m| crate::mechanics::palace::is_pass(m))
            .take(1)
            .collect());
    }
    let text = latinize(r, text);
    let text = text.trim_end_matches(['+', '#', '!', '?']);
    // UCI, exactly: the game's own castling spelling first, then the other
    // (in Chess960 `f1g1` is the king's step even where castling also puts
    // the king on g1; that castle is `f1h1`, or `O-O`).
    // People type squares as they read them (the variant's own file letters).
    let lower = text.to_string();
    for form in [chess960, !chess960] {
        let matches: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|&m| coordinates_for_people(r, m, form) == lower)
            .collect();
        if let [_] = matches.as_slice() {
            return Ok(matches);
        }
    }
    // Castling.
    let castle: String = text.chars().filter(|c| !matches!(c, '-' | ' ')).collect();
    let castle = castle.to_ascii_uppercase().replace('0', "O");
    if (castle == "OO" || castle == "OOO") && !r.def.royal_swap {
        let long = castle == "OOO";
        return Ok(legal
            .iter()
            .copied()
            .filter(|m| m.kind == MoveKind::Castle && (m.to < m.from) == long)
            .take(1)
            .collect());
    }
    parse_san(r, &compact(text), legal)
}

/// What a SAN text (without `x - : =`) names: a drop, or a board move by
/// piece types, destination, origin hints and promotion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SanPattern {
    /// `N@f3`, `@e4`: a drop of type `ty` on `to`.
    Drop { ty: usize, to: usize },
    /// A move on the board.
    Board(BoardPattern),
}

/// The parts of a SAN board move (see [`SanPattern`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BoardPattern {
    /// The types the piece letter names (bits); `None`: no letter typed.
    pub piece: Option<u32>,
    /// The types that may move: the named ones, or the pawns without a letter.
    pub wanted: Option<u32>,
    /// The destination.
    pub to: usize,
    /// The origin square, file or rank typed.
    pub square_hint: Option<usize>,
    pub file_hint: Option<i32>,
    pub rank_hint: Option<i32>,
    /// The types a promotion suffix names (bits).
    pub promotion: Option<u32>,
}

impl BoardPattern {
    /// Whether the board move `m` (not a drop, not castling) fits, but for
    /// its destination and piece type.
    pub(crate) fn fits_origin<B: Bits>(&self, r: &Rules<B>, m: &Move) -> bool {
        let g = &r.def.geometry;
        self.square_hint.is_none_or(|s| m.from as usize == s)
            && self
                .file_hint
                .is_none_or(|f| g.file_of(m.from as usize) == f)
            && self
                .rank_hint
                .is_none_or(|rk| g.rank_number(m.from as usize) == rk)
    }

    /// Whether `m` moves one of the wanted types.
    pub(crate) fn fits_piece(&self, m: &Move) -> bool {
        self.wanted.is_some_and(|types| types & (1 << m.piece) != 0)
            || (self.piece.is_none() && self.wanted.is_none())
    }

    /// Whether `m` is the move this pattern names.
    pub(crate) fn fits<B: Bits>(&self, r: &Rules<B>, m: &Move) -> bool {
        m.kind != MoveKind::Drop
            && m.kind != MoveKind::Castle
            && m.to as usize == self.to
            && self.fits_piece(m)
            && self.fits_origin(r, m)
            && self
                .promotion
                .is_none_or(|types| m.promotion().is_some_and(|p| types & (1 << p) != 0))
    }
}

/// Reads a SAN `text` (without `x - : =`) into its parts.
pub(crate) fn san_pattern<B: Bits>(r: &Rules<B>, text: &str) -> Result<SanPattern, MoveError> {
    let g = &r.def.geometry;
    let def = r.def;
    let pawn_type = def.pieces.iter().position(|p| p.pawn);
    // Drops: `N@f3`, `@e4`.
    if let Some((piece, square)) = text.split_once('@') {
        let ty = match piece.chars().collect::<Vec<_>>().as_slice() {
            [] => pawn_type,
            [c] if c.is_ascii_alphabetic() => def.piece_by_letter(*c),
            _ => return Err(MoveError::Unparseable),
        };
        let (Some(ty), Some(to)) = (ty, g.parse(square)) else {
            return Err(MoveError::Unparseable);
        };
        return Ok(SanPattern::Drop { ty, to });
    }
    let mut chars: Vec<char> = text.chars().collect();
    // Piece letter: upper case (a lower-case first letter is a pawn's file).
    // A letter names every type that reads so (pieces owned by seats).
    let mut piece = None;
    if let Some(&c) = chars.first() {
        if c.is_ascii_uppercase() {
            let types = def.types_by_san_letter(c);
            if types == 0 {
                return Err(MoveError::Unparseable);
            }
            piece = Some(types);
            chars.remove(0);
        }
    }
    // Promotion suffix: a trailing letter.
    let mut promotion = None;
    if let Some(&c) = chars.last() {
        if c.is_ascii_alphabetic() && chars.len() >= 3 {
            let types = def.types_by_san_letter(c);
            if types == 0 {
                return Err(MoveError::Unparseable);
            }
            promotion = Some(types);
            chars.pop();
        }
    }
    let rest: String = chars.iter().collect();
    // The destination is the last square; anything before it disambiguates.
    let mut destination = None;
    for start in (0..rest.len()).rev() {
        if !rest.is_char_boundary(start) {
            continue;
        }
        if let Some(sq) = g.parse(&rest[start..]) {
            destination = Some((start, sq));
            break;
        }
    }
    let Some((start, to)) = destination else {
        return Err(MoveError::Unparseable);
    };
    let hint = &rest[..start];
    let (mut file_hint, mut rank_hint, mut square_hint) = (None, None, None);
    if !hint.is_empty() {
        if let Some(sq) = g.parse(hint) {
            square_hint = Some(sq);
        } else if hint.len() == 1 && hint.as_bytes()[0].is_ascii_lowercase() {
            file_hint = Some(
                g.file_index(hint.as_bytes()[0])
                    .ok_or(MoveError::Unparseable)?,
            );
        } else if let Ok(rank) = hint.parse::<i32>() {
            rank_hint = Some(rank);
        } else {
            return Err(MoveError::Unparseable);
        }
    }
    let pawn_types = def
        .pieces
        .iter()
        .enumerate()
        .filter(|(_, p)| p.pawn)
        .fold(0u32, |mask, (ty, _)| mask | 1 << ty);
    Ok(SanPattern::Board(BoardPattern {
        piece,
        wanted: piece.or((pawn_types != 0).then_some(pawn_types)),
        to,
        square_hint,
        file_hint,
        rank_hint,
        promotion,
    }))
}

/// A typed move reduced to what it names (see [`read`]).
pub(crate) enum Typed {
    /// A pass word.
    Pass,
    /// `O-O` or `O-O-O`.
    Castle { long: bool },
    /// SAN (or UCI read as SAN).
    San(SanPattern),
}

/// What `text` names, read as [`read`] reads it once no legal move matches
/// its UCI spelling; `None` where it is not a move at all.
pub(crate) fn typed<B: Bits>(r: &Rules<B>, text: &str) -> Option<Typed> {
    let text = text.trim();
    if text.is_empty() || text.len() > MAX_MOVE_TEXT {
        return None;
    }
    if is_pass_word(text.trim_end_matches(['+', '#', '!', '?'])) {
        return Some(Typed::Pass);
    }
    let text = latinize(r, text);
    let text = text.trim_end_matches(['+', '#', '!', '?']);
    let castle: String = text.chars().filter(|c| !matches!(c, '-' | ' ')).collect();
    let castle = castle.to_ascii_uppercase().replace('0', "O");
    if (castle == "OO" || castle == "OOO") && !r.def.royal_swap {
        return Some(Typed::Castle {
            long: castle == "OOO",
        });
    }
    san_pattern(r, &compact(text)).ok().map(Typed::San)
}

/// SAN without the signs people may type between its parts.
fn compact(text: &str) -> String {
    text.chars()
        .filter(|c| !matches!(c, 'x' | '-' | ':' | '=' | ' ' | '(' | ')' | '/'))
        .collect()
}

/// The legal moves a SAN `text` (without `x - : =`) may mean.
fn parse_san<B: Bits>(r: &Rules<B>, text: &str, legal: &[Move]) -> Result<Vec<Move>, MoveError> {
    let def = r.def;
    let pattern = match san_pattern(r, text)? {
        SanPattern::Drop { ty, to } => {
            return Ok(legal
                .iter()
                .copied()
                .filter(|m| {
                    m.kind == MoveKind::Drop && m.piece as usize == ty && m.to as usize == to
                })
                .take(1)
                .collect());
        }
        SanPattern::Board(pattern) => pattern,
    };
    let candidates: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| pattern.fits(r, m))
        .collect();
    let royal_named = pattern
        .piece
        .is_some_and(|types| def.royal_type().is_some_and(|k| types & (1 << k) != 0));
    if candidates.is_empty() && royal_named {
        // `Kg1` for castling: the king's destination names the castle.
        if let Some(castle) = legal.iter().copied().find(|m| {
            m.kind == MoveKind::Castle
                && r.castling_destinations(m.from as usize, m.to as usize).0 == pattern.to
        }) {
            return Ok(vec![castle]);
        }
    }
    Ok(candidates)
}

/// Whether `text` is a pass (Janggi, a mated seat of four-handed chess):
/// `pass`, `пас` or `пропуск`, in any case.
///
/// ```
/// assert!(kodex_engine::is_pass_word("ПАС"));
/// assert!(!kodex_engine::is_pass_word("passed"));
/// ```
pub fn is_pass_word(text: &str) -> bool {
    matches!(text.to_lowercase().as_str(), "pass" | "пас" | "пропуск")
}
