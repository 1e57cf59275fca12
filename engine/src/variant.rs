//! Variant definitions: TOML in, checked rules out.
//!
//! A definition names its board, pieces (movement in the [`crate::betza`]
//! language), start position and rule flags. `extends = "chess"` starts from
//! another definition and overrides keys (pieces merge by letter). Built-ins
//! are the files of `config/variants/`, compiled in.

use crate::betza::{self, Atom};
use crate::geometry::Geometry;
use crate::outcome::Ranking;
use crate::setup::rule::{FirstMove, SetupDef, SetupMode, SetupRule};
use crate::side::{Side, Team, SIDES};
use crate::view::{Art, BoardStyle, Visibility};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt;

/// The built-in definitions: (file name, text).
pub const BUILTIN: &[(&str, &str)] = &[
    (
        "chess.toml",
        include_str!("../../config/variants/chess.toml"),
    ),
    (
        "chess960.toml",
        include_str!("../../config/variants/chess960.toml"),
    ),
    (
        "atomic.toml",
        include_str!("../../config/variants/atomic.toml"),
    ),
    (
        "kingofthehill.toml",
        include_str!("../../config/variants/kingofthehill.toml"),
    ),
    (
        "threecheck.toml",
        include_str!("../../config/variants/threecheck.toml"),
    ),
    (
        "crazyhouse.toml",
        include_str!("../../config/variants/crazyhouse.toml"),
    ),
    (
        "bughouse.toml",
        include_str!("../../config/variants/bughouse.toml"),
    ),
    (
        "antichess.toml",
        include_str!("../../config/variants/antichess.toml"),
    ),
    (
        "horde.toml",
        include_str!("../../config/variants/horde.toml"),
    ),
    (
        "fogofwar.toml",
        include_str!("../../config/variants/fogofwar.toml"),
    ),
    (
        "kriegspiel.toml",
        include_str!("../../config/variants/kriegspiel.toml"),
    ),
    (
        "racingkings.toml",
        include_str!("../../config/variants/racingkings.toml"),
    ),
    (
        "battle.toml",
        include_str!("../../config/variants/battle.toml"),
    ),
    (
        "chessbattle.toml",
        include_str!("../../config/variants/chessbattle.toml"),
    ),
    (
        "battlehouse.toml",
        include_str!("../../config/variants/battlehouse.toml"),
    ),
    (
        "kriegspielbattle.toml",
        include_str!("../../config/variants/kriegspielbattle.toml"),
    ),
    (
        "frolov.toml",
        include_str!("../../config/variants/frolov.toml"),
    ),
    (
        "maharajah.toml",
        include_str!("../../config/variants/maharajah.toml"),
    ),
    (
        "timetravel.toml",
        include_str!("../../config/variants/timetravel.toml"),
    ),
    // Historical games and the teaching ladder (issue 14).
    (
        "shatranj.toml",
        include_str!("../../config/variants/shatranj.toml"),
    ),
    (
        "chaturanga.toml",
        include_str!("../../config/variants/chaturanga.toml"),
    ),
    (
        "giveaway.toml",
        include_str!("../../config/variants/giveaway.toml"),
    ),
    (
        "lesson1.toml",
        include_str!("../../config/variants/lesson1.toml"),
    ),
    (
        "lesson2.toml",
        include_str!("../../config/variants/lesson2.toml"),
    ),
    (
        "lesson3.toml",
        include_str!("../../config/variants/lesson3.toml"),
    ),
    (
        "lesson4.toml",
        include_str!("../../config/variants/lesson4.toml"),
    ),
    (
        "lesson5.toml",
        include_str!("../../config/variants/lesson5.toml"),
    ),
    (
        "lesson6.toml",
        include_str!("../../config/variants/lesson6.toml"),
    ),
    (
        "grand.toml",
        include_str!("../../config/variants/grand.toml"),
    ),
    (
        "greatchess.toml",
        include_str!("../../config/variants/greatchess.toml"),
    ),
    (
        "semedo.toml",
        include_str!("../../config/variants/semedo.toml"),
    ),
    (
        "diana.toml",
        include_str!("../../config/variants/diana.toml"),
    ),
    (
        "janggi.toml",
        include_str!("../../config/variants/janggi.toml"),
    ),
    (
        "frankfurt.toml",
        include_str!("../../config/variants/frankfurt.toml"),
    ),
    (
        "whaleshogi.toml",
        include_str!("../../config/variants/whaleshogi.toml"),
    ),
    (
        "citadel.toml",
        include_str!("../../config/variants/citadel.toml"),
    ),
    (
        "hexagonal.toml",
        include_str!("../../config/variants/hexagonal.toml"),
    ),
    (
        "tamerlane.toml",
        include_str!("../../config/variants/tamerlane.toml"),
    ),
    (
        "fourplayer.toml",
        include_str!("../../config/variants/fourplayer.toml"),
    ),
    (
        "enochian.toml",
        include_str!("../../config/variants/enochian.toml"),
    ),
];

/// A malformed variant definition: the file, the key and the problem.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct VariantError {
    /// The file (or built-in name) the definition came from.
    pub file: String,
    /// The offending key (`pieces.a.betza`), empty when the file as a whole is wrong.
    pub key: String,
    /// What is wrong.
    pub problem: String,
}

impl fmt::Display for VariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.key.is_empty() {
            write!(f, "{}: {}", self.file, self.problem)
        } else {
            write!(f, "{}: `{}`: {}", self.file, self.key, self.problem)
        }
    }
}

impl std::error::Error for VariantError {}

/// What happens to the side that meets a condition (no pieces, stalemated).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// The game is drawn.
    #[default]
    Draw,
    /// That side wins.
    Win,
    /// That side loses.
    Loss,
}

/// How reaching a flag square ends the game.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum FlagRule {
    /// The first royal piece on a flag square wins at once (king of the hill).
    #[default]
    Win,
    /// Racing kings: if the first player gets there, the second may answer by
    /// getting there too on the very next move, which draws.
    Race,
}

/// Which drops may give mate (drop variants).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum DropMate {
    /// Any drop may mate (crazyhouse).
    #[default]
    Allowed,
    /// Only a mate "on the board": one that no drop of any piece by the mated
    /// side could have blocked, whatever its pocket held (seed 004's house
    /// rule as VARIANTS.md decides it for battle crazyhouse).
    OnTheBoard,
}

/// What a captured promoted piece becomes in the captor's pocket.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum PromotedCapture {
    /// Always a pawn (crazyhouse).
    #[default]
    Pawn,
    /// A pawn when captured on the very next move after its promotion, the
    /// promoted piece when captured later (seed 004's house rule).
    PawnOnlyNextMove,
}

/// Which pieces a pawn may promote into (`promotion` in TOML).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum PromotionChoice {
    /// Any piece of its `promotes_to` list.
    #[default]
    Any,
    /// Only a piece of its list that the side has lost: fewer stand on the
    /// board than in the start position (grand chess). Promotion is optional
    /// before the last rank; a pawn with nothing to become may not enter it.
    Captured,
    /// Only the type that started on the promotion square, and only once the
    /// side has lost one of that type; otherwise it stays a pawn (chaturanga).
    CapturedStartSquare,
    /// Its `promotes_to` piece once the pawn's owner (its seat, where pieces
    /// are owned by seats) has lost a pawn; otherwise it stays a pawn on the
    /// edge (Enochian chess).
    AfterPawnLost,
}

/// Time travel (Codex 03): a player may spend a charge to go back in their
/// own moves, bringing one piece from the present (`[time_travel]` in TOML).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeTravel {
    /// Jumps each player may make in a game.
    #[serde(default = "TimeTravel::default_charges")]
    pub charges: u8,
    /// How many of the jumper's own moves a jump may go back, at most.
    #[serde(default = "TimeTravel::default_max_back")]
    pub max_back: u8,
}

impl TimeTravel {
    fn default_charges() -> u8 {
        2
    }
    fn default_max_back() -> u8 {
        3
    }
}

/// A piece type of a variant.
#[derive(Clone, Debug)]
pub struct PieceDef {
    /// FEN letter, lower case.
    pub letter: char,
    /// English name (`knight`).
    pub name: String,
    /// Movement definition as written.
    pub betza: String,
    /// Movement, parsed.
    pub atoms: Vec<Atom>,
    /// Royal: may not be left attacked; mate ends the game.
    pub royal: bool,
    /// Art used to draw it.
    pub art: Art,
    /// Pawn-like: promotes, resets the fifty-move counter, double steps make en passant possible.
    pub pawn: bool,
    /// What it may promote to (piece type indices).
    pub promotes_to: Vec<usize>,
    /// Relative ranks (1 = own first rank) from which `i` moves are allowed.
    pub initial_ranks: Vec<u8>,
    /// Relative ranks from which a double step may be taken en passant
    /// (defaults to `initial_ranks`; horde pawns double-stepping from rank 1 may not).
    pub en_passant_ranks: Vec<u8>,
    /// Relative ranks (inclusive) where it may be dropped.
    pub drop_ranks: (u8, u8),
    /// Russian letter(s) players may type for it.
    pub russian: Option<String>,
    /// Castles with the king (rooks).
    pub castles: bool,
    /// Palaces and lines (Janggi): see [`PalacePiece`].
    pub palace: PalacePiece,
    /// What a royal piece that captures this one becomes, with
    /// `capture_transforms` (Frankfurt: the king taking a knight becomes a
    /// royal knight). Without it a royal capturer keeps its type.
    pub royal_twin: Option<usize>,
    /// The type this piece turns back into once it has moved (the whale
    /// shogi dolphin on the far rank, which makes one bishop move back).
    pub reverts_to: Option<usize>,
    /// The type a captured piece of this type goes to the captor's pocket as
    /// (whale shogi: a captured porpoise is dropped as a killer whale).
    pub in_hand: Option<usize>,
    /// May a drop of this piece give mate (`mating_drop = false`: the whale
    /// shogi dolphin, like the shogi pawn, may not be dropped to mate).
    pub mating_drop: bool,
    /// A drop of this piece is refused on a file where its side already has
    /// this many pieces of this type (whale shogi dolphins: 2).
    pub drop_file_limit: Option<u8>,
    /// The seat of its side that owns it (`seat = 1` or `2` in TOML, games of
    /// four): only that seat moves it, but for the partner inside the
    /// variant's command zone. `None`: every seat of the side may move it.
    pub seat: Option<u8>,
    /// The letter shown in SAN and typed by players (`san = "N"`): pieces
    /// owned by different seats need their own FEN letters but read as one.
    pub san_letter: char,
    /// Its ranks are counted across the board (`sideways = true`): the
    /// initial, en passant and promotion "ranks" are files, counted from the
    /// side's left edge — a pawn moving along the ranks (four-handed chess).
    pub sideways: bool,
    /// The board direction each side's "forward" points to (`forward =
    /// ["up", "right"]`: Enochian chess, where partners' pawns run in
    /// opposite directions and opponents' across). Its moves are turned
    /// accordingly and its ranks counted along that direction. `None`: up
    /// for the first side, down for the second.
    pub forward: Option<[Forward; 2]>,
}

/// A board direction a piece's "forward" may point to.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Forward {
    /// Towards the last rank.
    Up,
    /// Towards the first rank.
    Down,
    /// Towards the last file.
    Right,
    /// Towards the first file.
    Left,
}

impl Forward {
    fn parse(word: &str) -> Option<Forward> {
        Some(match word {
            "up" => Forward::Up,
            "down" => Forward::Down,
            "right" => Forward::Right,
            "left" => Forward::Left,
            _ => return None,
        })
    }

    /// A step written for the first side (forward = +ranks) turned to point
    /// this way.
    pub fn turn(self, (dx, dy): (i32, i32)) -> (i32, i32) {
        match self {
            Forward::Up => (dx, dy),
            Forward::Down => (-dx, -dy),
            Forward::Right => (dy, -dx),
            Forward::Left => (-dy, dx),
        }
    }
}

/// What a piece may do on marked lines and in zones, and whom a hopper may
/// not jump over or take (Janggi: `lines`, `confined`, `hops_not_over`,
/// `captures_not` in a piece's TOML table).
#[derive(Clone, Debug, Default)]
pub struct PalacePiece {
    /// Movement allowed only along the variant's marked lines (the palace diagonals).
    pub line_atoms: Vec<Atom>,
    /// The squares each side's piece may never leave (its palace), by side.
    pub confined: Option<[Vec<usize>; SIDES]>,
    /// Piece types (mask) a hopper may not use as its screen.
    pub not_screens: u32,
    /// Piece types (mask) it may not capture.
    pub not_captured: u32,
}

/// Counting points to decide what would be a draw (Janggi): `[counting]` in TOML.
#[derive(Clone, Debug, PartialEq)]
pub struct Counting {
    /// Points of each piece type, by type index.
    pub values: Vec<f64>,
    /// Points each side gets besides its pieces (the second player's compensation), by side.
    pub bonus: [f64; SIDES],
}

/// Palaces, marked lines, passing and facing royals (Janggi), as variant keys.
#[derive(Clone, Debug, Default)]
pub struct PalaceRules {
    /// Marked straight lines (`lines = ["d1-f3"]`), each as its squares in order.
    pub lines: Vec<Vec<usize>>,
    /// A river drawn between this rank (1-based) and the next (`river = 5`).
    pub river: Option<u8>,
    /// A side not in check may pass (its royal "moves" to its own square);
    /// two passes in a row end the game (by points where counted, else drawn).
    pub pass: bool,
    /// Bikjang: when royals face each other on a line with nothing between,
    /// the side to move must break the facing or pass; a facing that
    /// survives a move ends the game (by points where counted, else drawn).
    pub bikjang: bool,
    /// Draws are decided by points.
    pub counting: Option<Counting>,
}

impl PalaceRules {
    /// Whether `a` and `b` are neighbours on one marked line.
    pub fn linked(&self, a: usize, b: usize) -> bool {
        self.lines
            .iter()
            .any(|line| line.windows(2).any(|w| w == [a, b] || w == [b, a]))
    }
}

/// Most piece types a variant may define.
pub const MAX_TYPES: usize = 24;

/// A compiled variant definition.
pub struct VariantDef {
    /// Id (`chess`).
    pub id: String,
    /// Other names accepted (`3check`, `fischerandom`).
    pub aliases: Vec<String>,
    /// Fairy-Stockfish `UCI_Variant` name.
    pub uci_name: String,
    /// Names by language.
    pub names: BTreeMap<String, String>,
    /// Rules texts by language.
    pub rules: BTreeMap<String, String>,
    /// Board shape.
    pub geometry: Geometry,
    /// Start position.
    pub start_fen: String,
    /// Piece types, in index order.
    pub pieces: Vec<PieceDef>,
    /// Castling.
    pub castling: bool,
    /// Chess960 start positions and castling.
    pub chess960: bool,
    /// Captured pieces go to the captor's pocket and may be dropped.
    pub drops: bool,
    /// Which drops may give mate.
    pub drop_mate: DropMate,
    /// What a captured promoted piece becomes in the captor's pocket.
    pub promoted_capture: PromotedCapture,
    /// Pockets are filled from outside, by a partner's captures on another
    /// board (bughouse; `partner_pockets = true`): a capture does not go to
    /// the captor's pocket, and a side without a legal move that some drop
    /// would save is neither mated nor stalemated — it waits for pieces.
    /// See [`crate::mechanics`] (`partner_pockets`).
    pub partner_pockets: bool,
    /// Captures explode (atomic).
    pub atomic: bool,
    /// Piece types an explosion spares (pawns in atomic).
    pub explosion_immune: Vec<usize>,
    /// Giving this many checks wins (three-check); 0 = no limit.
    pub check_limit: u8,
    /// Squares a royal piece wins by reaching.
    pub flag_squares: Vec<usize>,
    /// How reaching a flag square ends the game.
    pub flag_rule: FlagRule,
    /// Capturing is compulsory (antichess).
    pub must_capture: bool,
    /// What a side with no pieces left gets (`None`: nothing special).
    pub extinction: Option<Verdict>,
    /// What a stalemated side gets.
    pub stalemate: Verdict,
    /// What a side without a royal piece gets when it has no legal move, if
    /// not [`VariantDef::stalemate`] (Maharajah: the maharajah left without a
    /// move loses, while a stalemated black king draws).
    pub kingless_stalemate: Option<Verdict>,
    /// A move giving check is illegal (racing kings).
    pub checks_forbidden: bool,
    /// What each player sees during play.
    pub visibility: Visibility,
    /// The setup phase before play, if the variant has one.
    pub setup: Option<SetupDef>,
    /// Time travel, if the variant has it (see [`crate::timeline`]).
    pub time_travel: Option<TimeTravel>,
    /// Relative rank (1-based) where pawns promote.
    pub promotion_rank: u8,
    /// Squares drawn marked (the hill).
    pub marked: Vec<usize>,
    /// The colour each seat's army is drawn in, by seat (white-1, black-1,
    /// white-2, black-2), as colour indices (see [`crate::Side::color_name`]):
    /// `armies = ["red", "black", "yellow", "blue"]` (Enochian chess). A
    /// colour keeps its side's parity (white, red, yellow for the first side;
    /// black, blue for the second), which text boards letter by. Empty:
    /// pieces are drawn in their side's colour.
    pub armies: Vec<u8>,
    /// The 2×2 squares where a crossing happens (`crossings = ["c4:d5"]`,
    /// Enochian chess): a piece of a `crossing_pieces` group whose move fills
    /// such a square with pieces of its group takes the other three, partners'
    /// included.
    pub crossings: Vec<[usize; 4]>,
    /// The groups of piece types that cross together, as type masks
    /// (`crossing_pieces = [["b", "e"], ["q", "d"]]`: bishops, queens).
    pub crossing_groups: Vec<u32>,
    /// The privileged pawn (`privileged_pawn = true`, Enochian chess): the
    /// last pawn of an owner left with only a king and it, or a king, a
    /// queen or bishop (by SAN letter) and it, promotes on its edge to any
    /// non-royal piece of its owner; a piece of the type chosen already on
    /// the board turns into the pawn of its kind.
    pub privileged_pawn: bool,
    /// Named square sets (`hill`, `palace_white`), usable wherever squares are listed.
    pub zones: BTreeMap<String, Vec<usize>>,
    /// How cells are drawn.
    pub style: BoardStyle,
    /// The team of each side, by side index (`teams = [0, 1]` in TOML); empty:
    /// each side is its own team. See [`VariantDef::team_of`].
    pub teams: Vec<Team>,
    /// How many players take turns (`seats = 4` in TOML; default two, one
    /// per side). Seat `k` plays side `k % 2`.
    pub seats: u8,
    /// How many boards one game is played on (`boards = 2`: bughouse, each
    /// board with its own two players; default one). See [`VariantDef::seating`].
    pub boards: u8,
    /// The file it came from.
    pub source: String,
    /// What identifies the definition's rules (see [`crate::Variant::fingerprint`]). Equal
    /// for the same definition in every process and build; different when
    /// anything but its names, rules texts and aliases changed.
    pub fingerprint: String,
    /// Palaces, lines, passing, facing royals, counting (Janggi).
    pub palace: PalaceRules,
    // Historical games (issue 14).
    /// A side left with only its royal piece loses, unless it bares the
    /// opponent back at once (shatranj; see [`crate::mechanics`]).
    pub bare_king: bool,
    /// A pawn reaching its promotion rank wins at once (the teaching ladder).
    pub promotion_wins: bool,
    /// Once per game, a royal piece not in check may move like this (the
    /// chaturanga king's knight leap).
    pub royal_leap: Option<Vec<Atom>>,
    /// Which pieces a pawn may promote into.
    pub promotion: PromotionChoice,
    /// How many pieces of each type each side starts with, `[side][type]`.
    pub start_counts: [[u8; MAX_TYPES]; SIDES],
    /// The type of the piece standing on each square at the start, if any.
    pub start_types: Vec<Option<usize>>,
    /// Castling swaps the king and the rook (Diana).
    pub castling_swap: bool,
    /// A capturing piece becomes the type it captured (Frankfurt; a royal
    /// capturer becomes the captured type's [`PieceDef::royal_twin`]).
    pub capture_transforms: bool,
    /// Squares only royal pieces may enter (the citadels).
    pub royal_only: Vec<usize>,
    /// Squares where a royal piece of each side, arriving, draws the game
    /// (the opponent's citadels), by side.
    pub royal_draw: [Vec<usize>; SIDES],
    /// The `royal_only` squares each side's royal pieces may enter, by side;
    /// empty for a side: all of them (Tamerlane: a king enters only the
    /// opponent's citadel).
    pub royal_entry: [Vec<usize>; SIDES],
    /// A side may have several royal pieces, of several royal types; while
    /// it has more than one, none of them is protected (each may be left
    /// attacked and captured), and its last one is a king as usual
    /// (Tamerlane's king, prince and adventitious king).
    pub spare_royals: bool,
    /// Once per game, a king not in check may swap places with any other
    /// piece of its side (Tamerlane), a move written king-onto-the-piece
    /// (`g2e2`, SAN `Ke2`). Spent like the royal leap
    /// ([`crate::rules::Position::royal_leaps_used`]).
    pub royal_swap: bool,
    /// Tamerlane's pawn of pawns and its career, if the variant has one.
    pub pawn_of_pawns: Option<PawnOfPawns>,
    /// Squares where partners command each other's pieces (four-handed
    /// chess's central 8×8); see [`PieceDef::seat`].
    pub command_zone: Vec<usize>,
    /// A mated royal whose side has another royal is captured on the next
    /// move and play goes on; the side loses when its last royal is mated
    /// (`captured_mates = true`: four-handed chess; see [`crate::mechanics`]).
    pub captured_mates: bool,
    /// Kings are taken rather than mated (`king_capture = true`: Enochian
    /// chess): a seat whose king is taken is frozen, a king in check must
    /// move, a stalemated seat passes; see [`crate::mechanics`].
    pub king_capture: bool,
    /// Each seat's throne, in seat order (`thrones = ["h1", "a1", "a8",
    /// "h8"]`: Enochian chess, with `king_capture`): a king stepping onto its
    /// partner's throne takes control of the partner's army, and kings
    /// exchanged as prisoners come back to their own thrones; see
    /// [`crate::mechanics`]. Empty: no thrones.
    pub thrones: Vec<usize>,
}

/// The pawn of pawns (Tamerlane, `[pawn_of_pawns]` in TOML): reaching its
/// last rank the first time it stays there, immovable and immune, until its
/// owner places it (as a move) where it attacks two enemy pieces or one that
/// cannot move; the second time it goes to its side's `returns` square; the
/// third time it becomes `becomes` (the adventitious king).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PawnOfPawns {
    /// Its piece type.
    pub piece: usize,
    /// Where it goes on its second arrival, by side.
    pub returns: [usize; SIDES],
    /// What it becomes on its third.
    pub becomes: usize,
}

impl fmt::Debug for VariantDef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("VariantDef")
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
}

impl VariantDef {
    /// The piece type with FEN letter `letter` (either case).
    pub fn piece_by_letter(&self, letter: char) -> Option<usize> {
        let lower = letter.to_ascii_lowercase();
        self.pieces.iter().position(|p| p.letter == lower)
    }

    /// Every piece type that reads as `letter` in SAN (either case; bit `t`
    /// for type `t`): one type, or several owned by different seats.
    pub fn types_by_san_letter(&self, letter: char) -> u32 {
        let lower = letter.to_ascii_lowercase();
        self.pieces
            .iter()
            .enumerate()
            .filter(|(_, p)| p.san_letter == lower)
            .fold(0, |mask, (ty, _)| mask | 1 << ty)
    }

    /// The side seat `seat` plays: seats take turns in order, each playing
    /// the side whose turn it is (with four seats and two armies, partners
    /// take turns commanding their army: seats 0 and 2 play side 0).
    pub fn side_of_seat(&self, seat: usize) -> Side {
        Side((seat % SIDES) as u8)
    }

    /// Every player's place in a game, in seat order: the board, the side on
    /// it and the team. One board: the seats take turns
    /// ([`VariantDef::side_of_seat`]). Two boards (bughouse): seats 0 and 1
    /// play white and black on the first board, seats 2 and 3 white and
    /// black on the second, and partners play opposite colours (seats 0 and
    /// 3 are team 0, seats 1 and 2 team 1).
    ///
    /// ```
    /// use kodex_engine::{Registry, Side, Team};
    /// let registry = Registry::builtin();
    /// let bughouse = registry.get("bughouse").unwrap().definition();
    /// assert_eq!(bughouse.seating()[3], (1, Side::BLACK, Team(0)));
    /// ```
    pub fn seating(&self) -> Vec<(usize, Side, Team)> {
        if self.boards == 2 {
            return (0..4)
                .map(|seat| {
                    let (board, side) = (seat / 2, seat % 2);
                    (board, Side(side as u8), Team(((side + board) % 2) as u8))
                })
                .collect();
        }
        (0..usize::from(self.seats))
            .map(|seat| {
                let side = self.side_of_seat(seat);
                (0, side, self.team_of(side))
            })
            .collect()
    }

    /// The team `side` plays for: the `teams` table of the definition, or by
    /// default the team with the side's own index.
    pub fn team_of(&self, side: Side) -> Team {
        self.teams
            .get(side.index())
            .copied()
            .unwrap_or(Team(side.0))
    }

    /// The royal piece type, if any (the first, where capturers may turn
    /// into royal twins: Frankfurt's king).
    pub fn royal_type(&self) -> Option<usize> {
        self.pieces.iter().position(|p| p.royal)
    }

    /// Every royal piece type (bit `t` for type `t`).
    pub fn royal_mask(&self) -> u32 {
        self.pieces
            .iter()
            .enumerate()
            .filter(|(_, p)| p.royal)
            .fold(0, |mask, (ty, _)| mask | 1 << ty)
    }

    /// Whether `side` (0 white, 1 black) needs a royal piece on the board
    /// to play: where the variant's own start gives it one (chess's king,
    /// Tamerlane's king or any of its spare royals, Frankfurt's king or a
    /// crowned piece), so horde's white, antichess and the teaching ladder
    /// play without. Not where play goes on once kings are taken
    /// (`captured_mates`, `king_capture`), nor for the pieces a setup phase
    /// places (the setup checks its armies).
    pub fn needs_royal(&self, side: usize) -> bool {
        let royal = self.royal_mask();
        !self.captured_mates
            && !self.king_capture
            && self.start_counts.get(side).is_some_and(|counts| {
                counts
                    .iter()
                    .enumerate()
                    .any(|(ty, &n)| n > 0 && royal & (1 << ty) != 0)
            })
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPiece {
    name: Option<String>,
    betza: String,
    #[serde(default)]
    royal: bool,
    art: Option<String>,
    #[serde(default)]
    pawn: bool,
    #[serde(default)]
    promotes_to: Vec<String>,
    initial_ranks: Option<Vec<u8>>,
    en_passant_ranks: Option<Vec<u8>>,
    drop_ranks: Option<[u8; 2]>,
    ru: Option<String>,
    #[serde(default)]
    castles: bool,
    /// Betza movement allowed only along marked lines.
    lines: Option<String>,
    /// Zone names, one per side, the piece may not leave.
    confined: Option<[String; 2]>,
    /// Letters of pieces a hopper may not jump over.
    #[serde(default)]
    hops_not_over: Vec<String>,
    /// Letters of pieces it may not capture.
    #[serde(default)]
    captures_not: Vec<String>,
    royal_twin: Option<String>,
    reverts_to: Option<String>,
    in_hand: Option<String>,
    #[serde(default = "yes")]
    mating_drop: bool,
    drop_file_limit: Option<u8>,
    seat: Option<u8>,
    san: Option<String>,
    #[serde(default)]
    sideways: bool,
    forward: Option<[String; 2]>,
}

fn yes() -> bool {
    true
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawVariant {
    id: String,
    #[serde(default)]
    aliases: Vec<String>,
    uci: Option<String>,
    #[serde(default)]
    names: BTreeMap<String, String>,
    #[serde(default)]
    rules: BTreeMap<String, String>,
    files: u8,
    ranks: u8,
    /// `"hex"`: Gliński's 91-cell hexagon on the 11 × 11 index, with hexagonal Betza atoms.
    geometry: Option<String>,
    /// The files' letters people read, when not `a`, `b`, … (four-handed chess skips `j`).
    file_letters: Option<String>,
    #[serde(default)]
    holes: Vec<String>,
    #[serde(default)]
    zones: BTreeMap<String, Vec<String>>,
    start: String,
    pieces: BTreeMap<String, toml::Value>,
    #[serde(default)]
    castling: bool,
    #[serde(default)]
    chess960: bool,
    #[serde(default)]
    drops: bool,
    #[serde(default)]
    drop_mate: DropMate,
    #[serde(default)]
    promoted_capture: PromotedCapture,
    #[serde(default)]
    partner_pockets: bool,
    #[serde(default)]
    atomic: bool,
    #[serde(default)]
    explosion_immune: Vec<String>,
    #[serde(default)]
    check_limit: u8,
    #[serde(default)]
    flag_squares: Vec<String>,
    #[serde(default)]
    flag_rule: FlagRule,
    #[serde(default)]
    must_capture: bool,
    extinction: Option<Verdict>,
    #[serde(default)]
    stalemate: Verdict,
    kingless_stalemate: Option<Verdict>,
    #[serde(default)]
    checks_forbidden: bool,
    /// The old spelling of `visibility = "fog"`.
    #[serde(default)]
    fog: bool,
    visibility: Option<Visibility>,
    setup: Option<RawSetup>,
    time_travel: Option<TimeTravel>,
    promotion_rank: Option<u8>,
    #[serde(default)]
    marked: Vec<String>,
    #[serde(default)]
    armies: Vec<String>,
    #[serde(default)]
    crossings: Vec<String>,
    #[serde(default)]
    crossing_pieces: Vec<Vec<String>>,
    #[serde(default)]
    privileged_pawn: bool,
    style: Option<String>,
    /// The team of each side, by side index.
    teams: Option<Vec<u8>>,
    seats: Option<u8>,
    // Historical games (issue 14).
    #[serde(default)]
    bare_king: bool,
    #[serde(default)]
    promotion_wins: bool,
    royal_leap: Option<String>,
    #[serde(default)]
    promotion: PromotionChoice,
    #[serde(default)]
    castling_swap: bool,
    #[serde(default)]
    capture_transforms: bool,
    #[serde(default)]
    royal_only: Vec<String>,
    #[serde(default)]
    royal_draw: [Vec<String>; 2],
    #[serde(default)]
    royal_entry: [Vec<String>; 2],
    #[serde(default)]
    spare_royals: bool,
    #[serde(default)]
    royal_swap: bool,
    pawn_of_pawns: Option<RawPawnOfPawns>,
    #[serde(default)]
    lines: Vec<String>,
    river: Option<u8>,
    #[serde(default)]
    pass: bool,
    #[serde(default)]
    bikjang: bool,
    counting: Option<RawCounting>,
    boards: Option<u8>,
    // Four-handed chess (issue 13).
    #[serde(default)]
    command_zone: Vec<String>,
    #[serde(default)]
    captured_mates: bool,
    #[serde(default)]
    king_capture: bool,
    #[serde(default)]
    thrones: Vec<String>,
}

/// A definition's `[pawn_of_pawns]` table.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPawnOfPawns {
    piece: String,
    returns: [String; 2],
    becomes: String,
}

/// A definition's `[counting]` table.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCounting {
    values: BTreeMap<String, f64>,
    #[serde(default)]
    bonus: [f64; 2],
}

/// A definition's `[setup]` table.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSetup {
    #[serde(default)]
    mode: SetupMode,
    /// Both sides' army (upper-case letters), or
    army: Option<String>,
    /// one per side.
    armies: Option<[String; 2]>,
    ranks: Option<[u8; 2]>,
    pawn_ranks: Option<[u8; 2]>,
    #[serde(default)]
    rules: Vec<SetupRule>,
    #[serde(default)]
    first_move: FirstMove,
}

/// Merges `child` over `parent`: tables merge key by key, other values replace.
fn merge(parent: &mut toml::Table, child: toml::Table) {
    for (key, value) in child {
        match (parent.get_mut(&key), value) {
            (Some(toml::Value::Table(p)), toml::Value::Table(c)) => merge(p, c),
            (_, value) => {
                parent.insert(key, value);
            }
        }
    }
}

const CLASSICAL_ORDER: &str = "kqrbnp";

/// Reads a definition. `lookup` resolves `extends` to the parent's text.
/// Whether the start position reads is checked by the registry, which
/// knows FEN (`fen::check_start`).
pub fn parse_definition(
    file: &str,
    text: &str,
    lookup: &dyn Fn(&str) -> Option<String>,
) -> Result<VariantDef, VariantError> {
    let err = |key: &str, problem: String| VariantError {
        file: file.to_string(),
        key: key.to_string(),
        problem,
    };
    let mut table: toml::Table = text
        .parse()
        .map_err(|e: toml::de::Error| err("", format!("not valid TOML: {}", e.message())))?;
    // Resolve inheritance (bounded, so a cycle is an error, not a hang).
    let mut depth = 0;
    while let Some(parent) = table.remove("extends") {
        let Some(name) = parent.as_str().map(str::to_string) else {
            return Err(err("extends", "must be a variant id".into()));
        };
        depth += 1;
        if depth > 8 {
            return Err(err("extends", "inheritance is too deep (a cycle?)".into()));
        }
        let Some(parent_text) = lookup(&name) else {
            return Err(err("extends", format!("unknown variant `{name}`")));
        };
        let mut base: toml::Table = parent_text.parse().map_err(|e: toml::de::Error| {
            err(
                "extends",
                format!("parent is not valid TOML: {}", e.message()),
            )
        })?;
        for key in ["aliases", "uci", "names", "rules", "id"] {
            base.remove(key);
        }
        merge(&mut base, table);
        table = base;
    }
    let print = fingerprint(&table);
    let raw: RawVariant = toml::Value::Table(table)
        .try_into()
        .map_err(|e: toml::de::Error| {
            let message = e.message().to_string();
            let key = message
                .split('`')
                .nth(1)
                .filter(|_| message.contains("field"))
                .unwrap_or("")
                .to_string();
            err(&key, message)
        })?;
    let mut def = build(file, raw)?;
    def.fingerprint = print;
    Ok(def)
}

/// The keys of a definition that only tell people about it: changing them
/// changes no game, so they are left out of its [`fingerprint`].
const PROSE_KEYS: [&str; 3] = ["names", "rules", "aliases"];

/// The fingerprint of a resolved definition (`extends` merged in): 32 hex
/// digits of the 128-bit FNV-1a hash of a canonical encoding of its TOML
/// values, the [`PROSE_KEYS`] left out. The encoding depends on the values
/// alone — keys sorted, every string length-prefixed, floats by their bits
/// — never on how the file was written (order, spacing, comments, quoting)
/// nor on the process (no random hash keys), so a stored game can tell
/// whether the definition it began under is still the one in force.
fn fingerprint(table: &toml::Table) -> String {
    let mut bytes = b"kodex variant definition 1\n".to_vec();
    let mut rules = table.clone();
    for key in PROSE_KEYS {
        rules.remove(key);
    }
    canonical(&toml::Value::Table(rules), &mut bytes);
    format!("{:032x}", fnv1a_128(&bytes))
}

/// Appends `value`'s canonical encoding to `out`: a tag byte, then the
/// content, every variable-length part preceded by its length.
fn canonical(value: &toml::Value, out: &mut Vec<u8>) {
    fn text(tag: u8, text: &str, out: &mut Vec<u8>) {
        out.push(tag);
        out.extend_from_slice(&(text.len() as u64).to_le_bytes());
        out.extend_from_slice(text.as_bytes());
    }
    match value {
        toml::Value::String(s) => text(b's', s, out),
        toml::Value::Integer(i) => {
            out.push(b'i');
            out.extend_from_slice(&i.to_le_bytes());
        }
        toml::Value::Float(f) => {
            out.push(b'f');
            out.extend_from_slice(&f.to_bits().to_le_bytes());
        }
        toml::Value::Boolean(b) => out.extend_from_slice(if *b { b"t" } else { b"n" }),
        toml::Value::Datetime(d) => text(b'd', &d.to_string(), out),
        toml::Value::Array(items) => {
            out.push(b'a');
            out.extend_from_slice(&(items.len() as u64).to_le_bytes());
            for item in items {
                canonical(item, out);
            }
        }
        toml::Value::Table(table) => {
            out.push(b'm');
            out.extend_from_slice(&(table.len() as u64).to_le_bytes());
            let mut keys: Vec<&String> = table.keys().collect();
            keys.sort();
            for key in keys {
                text(b'k', key, out);
                canonical(&table[key.as_str()], out);
            }
        }
    }
}

/// The 128-bit FNV-1a hash (a published constant pair, no key).
fn fnv1a_128(bytes: &[u8]) -> u128 {
    const OFFSET: u128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d;
    const PRIME: u128 = 0x0000_0000_0100_0000_0000_0000_0000_013b;
    bytes.iter().fold(OFFSET, |hash, &b| {
        (hash ^ u128::from(b)).wrapping_mul(PRIME)
    })
}

fn build(file: &str, raw: RawVariant) -> Result<VariantDef, VariantError> {
    let err = |key: &str, problem: String| VariantError {
        file: file.to_string(),
        key: key.to_string(),
        problem,
    };
    if raw.id.is_empty()
        || !raw
            .id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err(err(
            "id",
            "must be non-empty letters, digits, `-` or `_`".into(),
        ));
    }
    if !(1..=16).contains(&raw.files) || !(1..=16).contains(&raw.ranks) {
        return Err(err(
            "files",
            "the board must be 1 to 16 files and ranks".into(),
        ));
    }
    let mut geometry = match raw.geometry.as_deref() {
        None | Some("square") => Geometry::rectangle(raw.files, raw.ranks),
        Some("hex") if raw.files == 11 && raw.ranks == 11 => Geometry::hexagon(),
        Some("hex") => {
            return Err(err(
                "geometry",
                "the hexagonal board is 11 files by 11 ranks".into(),
            ))
        }
        Some(other) => {
            return Err(err(
                "geometry",
                format!("`{other}` is not a geometry (square, hex)"),
            ))
        }
    };
    if let Some(letters) = &raw.file_letters {
        geometry = geometry
            .with_file_letters(letters)
            .map_err(|why| err("file_letters", why))?;
    }
    let hex = geometry.is_hex();
    let squares = |key: &str,
                   names: &[String],
                   geometry: &Geometry,
                   zones: &BTreeMap<String, Vec<usize>>|
     -> Result<Vec<usize>, VariantError> {
        let mut out = Vec::new();
        for name in names {
            if let Some(zone) = zones.get(name) {
                out.extend(zone);
                continue;
            }
            // `a1` or a rectangle `a1:h1`.
            let (from, to) = name.split_once(':').unwrap_or((name, name));
            match (geometry.parse(from), geometry.parse(to)) {
                (Some(a), Some(b)) => {
                    let (f0, f1) = (
                        geometry.file_of(a).min(geometry.file_of(b)),
                        geometry.file_of(a).max(geometry.file_of(b)),
                    );
                    let (r0, r1) = (
                        geometry.rank_of(a).min(geometry.rank_of(b)),
                        geometry.rank_of(a).max(geometry.rank_of(b)),
                    );
                    for r in r0..=r1 {
                        for f in f0..=f1 {
                            out.extend(geometry.square(f, r));
                        }
                    }
                }
                _ => {
                    return Err(err(
                        key,
                        format!("`{name}` is not a square, a range a1:h1 or a zone of this board"),
                    ))
                }
            }
        }
        Ok(out)
    };
    let mut zones = BTreeMap::new();
    for hole in squares("holes", &raw.holes, &geometry, &zones)? {
        geometry.remove(hole);
    }
    for (name, list) in &raw.zones {
        let set = squares(&format!("zones.{name}"), list, &geometry, &zones)?;
        zones.insert(name.clone(), set);
    }

    // Piece types: classical letters first, then the rest alphabetically.
    let mut letters: Vec<(char, &toml::Value)> = Vec::new();
    for (key, value) in &raw.pieces {
        let mut chars = key.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) if c.is_ascii_lowercase() => letters.push((c, value)),
            _ => {
                return Err(err(
                    &format!("pieces.{key}"),
                    "a piece key must be one lower-case letter".into(),
                ))
            }
        }
    }
    letters.sort_by_key(|(c, _)| (CLASSICAL_ORDER.find(*c).unwrap_or(99), *c));
    if letters.len() > MAX_TYPES {
        return Err(err("pieces", format!("at most {} piece types", MAX_TYPES)));
    }
    let mut raw_pieces = Vec::new();
    let mut raw_palace = Vec::new();
    for (letter, value) in &letters {
        let key = format!("pieces.{letter}");
        let piece: RawPiece = (*value)
            .clone()
            .try_into()
            .map_err(|e: toml::de::Error| err(&key, e.message().to_string()))?;
        raw_palace.push(RawPalacePiece {
            lines: piece.lines.clone(),
            confined: piece.confined.clone(),
            hops_not_over: piece.hops_not_over.clone(),
            captures_not: piece.captures_not.clone(),
        });
        raw_pieces.push((*letter, piece));
    }
    let index_of = |c: &str| -> Option<usize> {
        let mut it = c.chars();
        let ch = it.next()?.to_ascii_lowercase();
        if it.next().is_some() {
            return None;
        }
        letters.iter().position(|(l, _)| *l == ch)
    };
    let mut pieces = Vec::new();
    let mut links = Vec::new();
    for (letter, p) in raw_pieces {
        let key = format!("pieces.{letter}");
        let atoms = betza::parse_on(&p.betza, hex)
            .map_err(|e| err(&format!("{key}.betza"), e.to_string()))?;
        let art = match p.art.as_deref() {
            None | Some("token") => Art::Token,
            Some("king") => Art::King,
            Some("queen") => Art::Queen,
            Some("rook") => Art::Rook,
            Some("bishop") => Art::Bishop,
            Some("knight") => Art::Knight,
            Some("pawn") => Art::Pawn,
            Some("ferz") => Art::Ferz,
            Some("alfil") => Art::Alfil,
            Some("marshal") => Art::Marshal,
            Some("cardinal") => Art::Cardinal,
            Some("amazon") => Art::Amazon,
            Some("rocket") => Art::Rocket,
            Some(other) => {
                if let Some(janggi) = crate::view::JanggiArt::named(other) {
                    Art::Janggi(janggi)
                } else if let Some(crowned) = crate::view::CrownedArt::named(other) {
                    Art::Crowned(crowned)
                } else if let Some(whale) = crate::view::WhaleArt::named(other) {
                    Art::Whale(whale)
                } else if let Some(piece) = crate::view::TamerlaneArt::named(other) {
                    Art::Tamerlane(piece)
                } else if let Some(pawn) = crate::view::PawnOfArt::named(other) {
                    Art::PawnOf(pawn)
                } else {
                    return Err(err(&format!("{key}.art"), format!("unknown art `{other}`")));
                }
            }
        };
        let mut promotes_to = Vec::new();
        for target in &p.promotes_to {
            match index_of(target) {
                Some(i) => promotes_to.push(i),
                None => {
                    return Err(err(
                        &format!("{key}.promotes_to"),
                        format!("`{target}` is not a piece of this variant"),
                    ))
                }
            }
        }
        let drop_ranks = match p.drop_ranks {
            Some([lo, hi]) if lo >= 1 && lo <= hi && hi <= raw.ranks => (lo, hi),
            Some(_) => {
                return Err(err(
                    &format!("{key}.drop_ranks"),
                    "must be [lowest, highest] relative ranks on the board".into(),
                ))
            }
            None => (1, raw.ranks),
        };
        pieces.push(PieceDef {
            letter,
            name: p.name.unwrap_or_else(|| letter.to_string()),
            betza: p.betza,
            atoms,
            royal: p.royal,
            art,
            pawn: p.pawn,
            promotes_to,
            en_passant_ranks: p
                .en_passant_ranks
                .or_else(|| p.initial_ranks.clone())
                .unwrap_or_else(|| vec![2]),
            initial_ranks: p.initial_ranks.unwrap_or_else(|| vec![2]),
            drop_ranks,
            russian: p.ru,
            castles: p.castles,
            palace: PalacePiece::default(),
            royal_twin: None,
            reverts_to: None,
            in_hand: None,
            mating_drop: p.mating_drop,
            drop_file_limit: p.drop_file_limit,
            seat: match p.seat {
                None => None,
                Some(seat @ (1 | 2)) if raw.seats == Some(4) => Some(seat),
                Some(_) => {
                    return Err(err(
                        &format!("{key}.seat"),
                        "must be 1 or 2, in a game of four seats".into(),
                    ))
                }
            },
            san_letter: match p.san.as_deref().map(|s| s.chars().collect::<Vec<_>>()) {
                None => letter,
                Some(chars) => match chars.as_slice() {
                    [c] if c.is_ascii_alphabetic() => c.to_ascii_lowercase(),
                    _ => return Err(err(&format!("{key}.san"), "must be one letter".into())),
                },
            },
            sideways: p.sideways,
            forward: match &p.forward {
                None => None,
                Some([a, b]) => match (Forward::parse(a), Forward::parse(b)) {
                    (Some(a), Some(b)) if !p.sideways => Some([a, b]),
                    _ => {
                        return Err(err(
                            &format!("{key}.forward"),
                            "must be two of up, down, right, left (and no `sideways`)".into(),
                        ))
                    }
                },
            },
        });
        links.push([p.royal_twin, p.reverts_to, p.in_hand]);
    }
    for (i, link) in links.into_iter().enumerate() {
        let key = format!("pieces.{}", pieces[i].letter);
        let mut found = [None; 3];
        for (slot, (name, text)) in ["royal_twin", "reverts_to", "in_hand"]
            .iter()
            .zip(link)
            .enumerate()
        {
            if let Some(text) = text {
                found[slot] = Some(index_of(&text).ok_or_else(|| {
                    err(
                        &format!("{key}.{name}"),
                        format!("`{text}` is not a piece of this variant"),
                    )
                })?);
            }
        }
        let [twin, revert, hand] = found;
        if twin.is_some_and(|t| !pieces[t].royal) {
            return Err(err(
                &format!("{key}.royal_twin"),
                "must name a royal piece".into(),
            ));
        }
        pieces[i].royal_twin = twin;
        pieces[i].reverts_to = revert;
        pieces[i].in_hand = hand;
    }
    let palace = build_palace(&raw, &raw_palace, &letters, &geometry, &zones, &mut pieces)
        .map_err(|(key, problem)| err(&key, problem))?;
    let royals_by_seat = pieces.iter().all(|p| !p.royal || p.seat.is_some());
    if pieces.iter().filter(|p| p.royal).count() > 1
        && !raw.capture_transforms
        && !raw.spare_royals
        && !royals_by_seat
    {
        return Err(err(
            "pieces",
            "at most one royal piece type (several need `capture_transforms`, `spare_royals`, or a `seat` each)"
                .into(),
        ));
    }
    let seated = pieces.iter().any(|p| p.seat.is_some());
    if (!raw.command_zone.is_empty() || raw.captured_mates || raw.king_capture) && !seated {
        return Err(err(
            "command_zone",
            "`command_zone`, `captured_mates` and `king_capture` need pieces owned by seats (`seat`)".into(),
        ));
    }
    if seated && (raw.castling || raw.drops || raw.atomic || raw.capture_transforms) {
        return Err(err(
            "seat",
            "pieces owned by seats do not go with castling, drops, explosions or transforms".into(),
        ));
    }
    let command_zone = squares("command_zone", &raw.command_zone, &geometry, &zones)?;
    if raw.capture_transforms && (raw.drops || raw.atomic) {
        return Err(err(
            "capture_transforms",
            "does not go with drops or explosions".into(),
        ));
    }
    let royal_only = squares("royal_only", &raw.royal_only, &geometry, &zones)?;
    let royal_draw = [
        squares("royal_draw", &raw.royal_draw[0], &geometry, &zones)?,
        squares("royal_draw", &raw.royal_draw[1], &geometry, &zones)?,
    ];
    let pawn_of_pawns = match &raw.pawn_of_pawns {
        None => None,
        Some(raw_pp) => {
            let key = "pawn_of_pawns";
            let piece = index_of(&raw_pp.piece)
                .filter(|&i| pieces[i].pawn && pieces[i].promotes_to.is_empty())
                .ok_or_else(|| err(key, "`piece` must name a pawn that does not promote".into()))?;
            let becomes = index_of(&raw_pp.becomes)
                .filter(|&i| pieces[i].royal && raw.spare_royals)
                .ok_or_else(|| {
                    err(
                        key,
                        "`becomes` must name a royal piece (with `spare_royals`)".into(),
                    )
                })?;
            let mut returns = [0; SIDES];
            for (side, name) in raw_pp.returns.iter().enumerate() {
                returns[side] = match geometry.parse(name) {
                    Some(sq) => sq,
                    None => return Err(err(key, format!("`{name}` is not a square"))),
                };
            }
            Some(PawnOfPawns {
                piece,
                returns,
                becomes,
            })
        }
    };
    let royal_entry = [
        squares("royal_entry", &raw.royal_entry[0], &geometry, &zones)?,
        squares("royal_entry", &raw.royal_entry[1], &geometry, &zones)?,
    ];
    if royal_entry
        .iter()
        .flatten()
        .any(|sq| !royal_only.contains(sq))
    {
        return Err(err(
            "royal_entry",
            "lists a square that is not in `royal_only`".into(),
        ));
    }
    let mut explosion_immune = Vec::new();
    for letter in &raw.explosion_immune {
        match index_of(letter) {
            Some(i) => explosion_immune.push(i),
            None => {
                return Err(err(
                    "explosion_immune",
                    format!("`{letter}` is not a piece of this variant"),
                ))
            }
        }
    }
    let style = match raw.style.as_deref() {
        _ if hex => BoardStyle::Hexagonal,
        None | Some("checkered") => BoardStyle::Checkered,
        Some("uniform") => BoardStyle::Uniform,
        Some("points") => BoardStyle::Points,
        Some(other) => {
            return Err(err(
                "style",
                format!("unknown style `{other}` (checkered, uniform, points)"),
            ))
        }
    };
    let promotion_rank = raw.promotion_rank.unwrap_or(raw.ranks);
    if promotion_rank == 0 || promotion_rank > raw.ranks {
        return Err(err("promotion_rank", "must be a rank of the board".into()));
    }
    if !raw.drops && raw.drop_mate != DropMate::Allowed {
        return Err(err("drop_mate", "needs `drops = true`".into()));
    }
    if !raw.drops && raw.partner_pockets {
        return Err(err("partner_pockets", "needs `drops = true`".into()));
    }
    if !raw.drops && raw.promoted_capture != PromotedCapture::Pawn {
        return Err(err("promoted_capture", "needs `drops = true`".into()));
    }
    let flag_squares = squares("flag_squares", &raw.flag_squares, &geometry, &zones)?;
    let marked = squares("marked", &raw.marked, &geometry, &zones)?;
    let thrones = squares("thrones", &raw.thrones, &geometry, &zones)?;
    if !thrones.is_empty() && (!raw.king_capture || thrones.len() != 4) {
        return Err(err(
            "thrones",
            "needs `king_capture = true` and one square for each of four seats".into(),
        ));
    }
    let mut crossings = Vec::new();
    for name in &raw.crossings {
        let cells = squares("crossings", std::slice::from_ref(name), &geometry, &zones)?;
        let square: [usize; 4] = cells
            .try_into()
            .map_err(|_| err("crossings", format!("`{name}` is not a 2×2 square")))?;
        crossings.push(square);
    }
    let mut crossing_groups = Vec::new();
    for group in &raw.crossing_pieces {
        let mut mask = 0u32;
        for letter in group {
            let ty = index_of(letter).ok_or_else(|| {
                err(
                    "crossing_pieces",
                    format!("`{letter}` is not a piece of this variant"),
                )
            })?;
            mask |= 1 << ty;
        }
        crossing_groups.push(mask);
    }
    let armies = raw
        .armies
        .iter()
        .map(|name| crate::side::Side::from_color_name(name).map(|side| side.0))
        .collect::<Option<Vec<u8>>>()
        .filter(|armies| {
            armies.is_empty()
                || (armies.len() == 4
                    && raw.seats == Some(4)
                    && armies.iter().enumerate().all(|(seat, c)| *c as usize % 2 == seat % 2))
        })
        .ok_or_else(|| {
            err(
                "armies",
                "must name four colours, one a seat, in a game of four seats: the first side's (seats 1 and 3) white, red or yellow, the second's black or blue".into(),
            )
        })?;
    let setup = raw
        .setup
        .map(|setup| build_setup(setup, &pieces, raw.ranks))
        .transpose()
        .map_err(|problem| err("setup", problem))?;
    let boards = match raw.boards {
        None | Some(1) => 1,
        Some(2) if raw.drops && raw.seats.is_none_or(|s| s == SIDES as u8) => 2,
        Some(2) => {
            return Err(err(
                "boards",
                "two boards need drops and two players a board (bughouse)".into(),
            ))
        }
        Some(other) => return Err(err("boards", format!("{other} boards: 1 or 2"))),
    };
    let seats = match raw.seats {
        None => SIDES as u8,
        Some(seats @ (2 | 4)) => seats,
        Some(other) => {
            return Err(err(
                "seats",
                format!("{other} seats: a game has 2 or 4 (partners taking turns)"),
            ))
        }
    };
    let teams = match raw.teams {
        None => Vec::new(),
        Some(teams) => {
            if teams.len() != SIDES {
                return Err(err("teams", format!("one team per side: {SIDES} entries")));
            }
            if let Some(bad) = teams.iter().find(|&&t| t as usize >= Ranking::MAX_TEAMS) {
                return Err(err(
                    "teams",
                    format!(
                        "team {bad}: teams are numbered 0–{}",
                        Ranking::MAX_TEAMS - 1
                    ),
                ));
            }
            if teams.iter().all(|&t| t == teams[0]) {
                return Err(err("teams", "at least two teams must play".into()));
            }
            teams.into_iter().map(Team).collect()
        }
    };
    if let Some(travel) = raw.time_travel {
        if !(1..=9).contains(&travel.max_back) {
            return Err(err(
                "time_travel.max_back",
                "must be 1 to 9 own moves".into(),
            ));
        }
        let hidden = raw.fog || raw.visibility.is_some_and(|v| v != Visibility::Full);
        if raw.seats.is_some_and(|s| s != SIDES as u8) || raw.drops || raw.atomic || hidden {
            return Err(err(
                "time_travel",
                "time travel needs two players, full visibility, no drops and no explosions".into(),
            ));
        }
    }
    let royal_leap = raw
        .royal_leap
        .as_deref()
        .map(|text| betza::parse_on(text, hex))
        .transpose()
        .map_err(|e| err("royal_leap", e.to_string()))?;
    if royal_leap.is_some() && !pieces.iter().any(|p| p.royal) {
        return Err(err("royal_leap", "needs a royal piece".into()));
    }
    if raw.royal_swap && (!pieces.iter().any(|p| p.royal) || raw.castling || royal_leap.is_some()) {
        return Err(err(
            "royal_swap",
            "needs a royal piece, and goes with neither castling nor a royal leap".into(),
        ));
    }
    let (start_counts, start_types) = start_census(&raw.start, &geometry, &pieces);
    let def = VariantDef {
        uci_name: raw.uci.unwrap_or_else(|| raw.id.clone()),
        id: raw.id,
        aliases: raw.aliases,
        names: raw.names,
        rules: raw.rules,
        geometry,
        start_fen: raw.start,
        pieces,
        castling: raw.castling,
        chess960: raw.chess960,
        drops: raw.drops,
        drop_mate: raw.drop_mate,
        promoted_capture: raw.promoted_capture,
        partner_pockets: raw.partner_pockets,
        atomic: raw.atomic,
        explosion_immune,
        check_limit: raw.check_limit,
        flag_squares,
        flag_rule: raw.flag_rule,
        must_capture: raw.must_capture,
        extinction: raw.extinction,
        stalemate: raw.stalemate,
        kingless_stalemate: raw.kingless_stalemate,
        checks_forbidden: raw.checks_forbidden,
        setup,
        time_travel: raw.time_travel,
        visibility: raw.visibility.unwrap_or(if raw.fog {
            Visibility::Fog
        } else {
            Visibility::Full
        }),
        promotion_rank,
        marked,
        armies,
        crossings,
        crossing_groups,
        privileged_pawn: raw.privileged_pawn,
        zones,
        style,
        teams,
        seats,
        boards,
        source: file.to_string(),
        fingerprint: String::new(),
        palace,
        bare_king: raw.bare_king,
        promotion_wins: raw.promotion_wins,
        royal_leap,
        promotion: raw.promotion,
        start_counts,
        start_types,
        castling_swap: raw.castling_swap,
        capture_transforms: raw.capture_transforms,
        royal_only,
        royal_draw,
        royal_entry,
        spare_royals: raw.spare_royals,
        royal_swap: raw.royal_swap,
        pawn_of_pawns,
        command_zone,
        captured_mates: raw.captured_mates,
        king_capture: raw.king_capture,
        thrones,
    };
    Ok(def)
}

/// A piece's palace keys, kept apart from the rest of its table.
struct RawPalacePiece {
    lines: Option<String>,
    confined: Option<[String; 2]>,
    hops_not_over: Vec<String>,
    captures_not: Vec<String>,
}

/// Compiles the palace keys (Janggi): marked lines, river, passing, bikjang,
/// counting, and each piece's line moves, confinement and hopping limits.
/// Errors are (key, problem).
fn build_palace(
    raw: &RawVariant,
    raw_pieces: &[RawPalacePiece],
    letters: &[(char, &toml::Value)],
    geometry: &Geometry,
    zones: &BTreeMap<String, Vec<usize>>,
    pieces: &mut [PieceDef],
) -> Result<PalaceRules, (String, String)> {
    let type_of = |key: &str, text: &str| -> Result<usize, (String, String)> {
        let mut chars = text.chars();
        let found = match (chars.next(), chars.next()) {
            (Some(c), None) => letters
                .iter()
                .position(|(l, _)| *l == c.to_ascii_lowercase()),
            _ => None,
        };
        found.ok_or_else(|| {
            (
                key.to_string(),
                format!("`{text}` is not a piece of this variant"),
            )
        })
    };
    let mut lines = Vec::new();
    for text in &raw.lines {
        let ends = text
            .split_once('-')
            .and_then(|(a, b)| Some((geometry.parse(a)?, geometry.parse(b)?)));
        let Some((a, b)) = ends else {
            return Err((
                "lines".into(),
                format!("`{text}` is not a line like d1-f3 between two squares of the board"),
            ));
        };
        let (df, dr) = (
            geometry.file_of(b) - geometry.file_of(a),
            geometry.rank_of(b) - geometry.rank_of(a),
        );
        let straight = (df == 0 || dr == 0 || df.abs() == dr.abs()) && a != b;
        let steps = df.abs().max(dr.abs());
        let squares: Vec<usize> = (0..=steps)
            .filter_map(|k| geometry.offset(a, df.signum() * k, dr.signum() * k))
            .collect();
        if !straight || squares.len() != steps as usize + 1 {
            return Err((
                "lines".into(),
                format!("`{text}` is not a straight line over existing squares"),
            ));
        }
        lines.push(squares);
    }
    if raw.river.is_some_and(|r| r == 0 || r >= raw.ranks) {
        return Err(("river".into(), "must be a rank below the last one".into()));
    }
    let counting = match &raw.counting {
        None => None,
        Some(c) => {
            let mut values = vec![0.0; pieces.len()];
            for (letter, value) in &c.values {
                values[type_of("counting.values", letter)?] = *value;
            }
            Some(Counting {
                values,
                bonus: c.bonus,
            })
        }
    };
    for (((letter, _), rp), piece) in letters.iter().zip(raw_pieces).zip(pieces.iter_mut()) {
        let key = format!("pieces.{letter}");
        if let Some(text) = &rp.lines {
            piece.palace.line_atoms =
                betza::parse(text).map_err(|e| (format!("{key}.lines"), e.to_string()))?;
            if lines.is_empty() {
                return Err((
                    format!("{key}.lines"),
                    "the variant marks no `lines` to move along".into(),
                ));
            }
        }
        if let Some(names) = &rp.confined {
            let mut sets: [Vec<usize>; SIDES] = Default::default();
            for (side, name) in names.iter().enumerate() {
                sets[side] = zones.get(name).cloned().ok_or_else(|| {
                    (
                        format!("{key}.confined"),
                        format!("`{name}` is not a zone of this variant"),
                    )
                })?;
            }
            piece.palace.confined = Some(sets);
        }
        for text in &rp.hops_not_over {
            piece.palace.not_screens |= 1 << type_of(&format!("{key}.hops_not_over"), text)?;
        }
        for text in &rp.captures_not {
            piece.palace.not_captured |= 1 << type_of(&format!("{key}.captures_not"), text)?;
        }
    }
    Ok(PalaceRules {
        lines,
        river: raw.river,
        pass: raw.pass,
        bikjang: raw.bikjang,
        counting,
    })
}

/// The pieces of the board part of a start FEN: how many of each type each
/// side has, and the type on each square. Unreadable parts are skipped (the
/// registry checks the FEN itself).
fn start_census(
    fen: &str,
    geometry: &Geometry,
    pieces: &[PieceDef],
) -> ([[u8; MAX_TYPES]; SIDES], Vec<Option<usize>>) {
    let mut counts = [[0u8; MAX_TYPES]; SIDES];
    let mut types = vec![None; geometry.size()];
    let board = fen.split([' ', '[']).next().unwrap_or("");
    let ranks = geometry.ranks as usize;
    for (row, text) in board.split('/').enumerate() {
        let Some(rank) = ranks.checked_sub(row + 1) else {
            break;
        };
        let mut file = 0usize;
        let mut digits = String::new();
        for c in text.chars() {
            if c.is_ascii_digit() {
                digits.push(c);
                continue;
            }
            file += digits.parse::<usize>().unwrap_or(0);
            digits.clear();
            let Some(ty) = pieces
                .iter()
                .position(|p| p.letter == c.to_ascii_lowercase())
            else {
                continue;
            };
            let side = usize::from(c.is_ascii_lowercase());
            counts[side][ty] = counts[side][ty].saturating_add(1);
            if let Some(square) = geometry.square(file as i32, rank as i32) {
                types[square] = Some(ty);
            }
            file += 1;
        }
    }
    (counts, types)
}

/// Compiles a `[setup]` table against the variant's pieces.
fn build_setup(raw: RawSetup, pieces: &[PieceDef], board_ranks: u8) -> Result<SetupDef, String> {
    let army = |text: &str| -> Result<Vec<usize>, String> {
        text.chars()
            .filter(|c| !c.is_whitespace())
            .map(|c| {
                let lower = c.to_ascii_lowercase();
                pieces
                    .iter()
                    .position(|p| p.letter == lower)
                    .ok_or_else(|| format!("`{c}` is not a piece of this variant"))
            })
            .collect()
    };
    let armies = match (&raw.army, &raw.armies) {
        (Some(both), None) => [army(both)?, army(both)?],
        (None, Some([white, black])) => [army(white)?, army(black)?],
        _ => return Err("give either `army` (both sides) or `armies` (one per side)".into()),
    };
    let range = |r: Option<[u8; 2]>, default: (u8, u8)| -> Result<(u8, u8), String> {
        let (from, to) = r.map_or(default, |[a, b]| (a, b));
        if from == 0 || from > to || to > board_ranks {
            return Err(format!("ranks {from}–{to} are not on the board"));
        }
        Ok((from, to))
    };
    let ranks = range(raw.ranks, (1, board_ranks / 2))?;
    Ok(SetupDef {
        mode: raw.mode,
        armies,
        ranks,
        pawn_ranks: range(raw.pawn_ranks, ranks)?,
        rules: raw.rules,
        first_move: raw.first_move,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lookup(name: &str) -> Option<String> {
        BUILTIN
            .iter()
            .find(|(f, _)| f.trim_end_matches(".toml") == name)
            .map(|(_, t)| t.to_string())
    }

    #[test]
    fn every_builtin_parses() {
        for (file, text) in BUILTIN {
            let def = parse_definition(file, text, &lookup).unwrap_or_else(|e| panic!("{e}"));
            assert!(
                def.names.contains_key("en") && def.names.contains_key("ru"),
                "{file} names"
            );
            assert!(
                def.rules.contains_key("en") && def.rules.contains_key("ru"),
                "{file} rules"
            );
        }
    }

    #[test]
    fn errors_name_file_key_and_problem() {
        let bad = "id = \"x\"\nextends = \"chess\"\n[pieces.a]\nbetza = \"Xq\"\n";
        let e = parse_definition("mine.toml", bad, &lookup).unwrap_err();
        assert_eq!(e.file, "mine.toml");
        assert_eq!(e.key, "pieces.a.betza");
        assert!(e.problem.contains("unknown piece letter"), "{e}");

        let e = parse_definition(
            "u.toml",
            "id = \"x\"\nextends = \"chess\"\nbogus = 1\n",
            &lookup,
        )
        .unwrap_err();
        assert!(e.to_string().contains("bogus"), "{e}");

        let e = parse_definition("t.toml", "this is = not toml [", &lookup).unwrap_err();
        assert!(e.problem.contains("TOML"));

        let e =
            parse_definition("c.toml", "id = \"x\"\nextends = \"nothing\"\n", &lookup).unwrap_err();
        assert_eq!(e.key, "extends");
    }

    #[test]
    fn keys_of_frankfurt_whale_shogi_and_citadel_are_checked() {
        let check = |text: &str| parse_definition("k.toml", text, &lookup);
        // A royal twin must be royal.
        let e = check("id = \"x\"\nextends = \"chess\"\ncapture_transforms = true\n[pieces.n]\nroyal_twin = \"q\"\n")
            .unwrap_err();
        assert_eq!(e.key, "pieces.n.royal_twin");
        // Links name pieces of the variant.
        let e =
            check("id = \"x\"\nextends = \"chess\"\n[pieces.p]\nreverts_to = \"z\"\n").unwrap_err();
        assert_eq!(e.key, "pieces.p.reverts_to");
        let e = check("id = \"x\"\nextends = \"crazyhouse\"\n[pieces.n]\nin_hand = \"?\"\n")
            .unwrap_err();
        assert_eq!(e.key, "pieces.n.in_hand");
        // Several royal types only where capturers change type.
        let e = check("id = \"x\"\nextends = \"chess\"\n[pieces.q]\nroyal = true\n").unwrap_err();
        assert_eq!(e.key, "pieces");
        let e =
            check("id = \"x\"\nextends = \"crazyhouse\"\ncapture_transforms = true\n").unwrap_err();
        assert_eq!(e.key, "capture_transforms");
        // Citadel squares must be on the board.
        let e = check("id = \"x\"\nextends = \"chess\"\nroyal_only = [\"z9\"]\n").unwrap_err();
        assert_eq!(e.key, "royal_only");
        let e = check("id = \"x\"\nextends = \"chess\"\nroyal_draw = [[\"a1\"], [\"q0\"]]\n")
            .unwrap_err();
        assert_eq!(e.key, "royal_draw");
        // The built-ins read.
        for id in ["frankfurt", "whaleshogi", "citadel"] {
            let text = lookup(id).expect("built in");
            let def = check(&text).unwrap_or_else(|e| panic!("{e}"));
            assert!(def.names.contains_key("ru") && def.rules.contains_key("ru"));
        }
    }
}
