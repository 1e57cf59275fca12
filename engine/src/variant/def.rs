//! What a definition compiles to: [`VariantDef`], its pieces ([`PieceDef`])
//! and the rule choices its keys name.

use crate::betza::Atom;
use crate::geometry::Geometry;
use crate::setup::rule::SetupDef;
use crate::side::{Side, Team, SIDES};
use crate::view::{Art, Audience, BoardStyle, SquareView, View, Visibility};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt;

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
    /// Where it promotes, by side, in place of the last ranks
    /// (`promotion_squares` in TOML names the first side's; the second
    /// side's are those turned half round the board): four-handed chess,
    /// where each pawn's road ends at another square and it promotes only
    /// where that square lies on an opponent's side. `None`: the ranks from
    /// the variant's promotion rank on.
    pub promotion_squares: Option<[Vec<usize>; 2]>,
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
    pub(super) fn parse(word: &str) -> Option<Forward> {
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

    /// The board marks of the palace keys: each marked line as pairs of
    /// neighbouring squares, and the river's rank (0-based, for
    /// [`crate::View::river`]).
    pub fn marks(&self) -> (Vec<(u16, u16)>, Option<u8>) {
        let lines = self
            .lines
            .iter()
            .flat_map(|line| line.windows(2).map(|w| (w[0] as u16, w[1] as u16)))
            .collect();
        (lines, self.river.map(|rank| rank - 1))
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
    /// pieces are drawn in their side's colour, but in games of four a
    /// seat-2 piece in red (white-2) or blue (black-2), as the seats'
    /// markers; texts still call the sides white and black.
    pub armies: Vec<u8>,
    /// What texts call the two sides (`colors = ["blue", "red"]`, janggi:
    /// "alice (blue)"), as colour indices; `/play` takes these words for
    /// the sides. Empty: white and black. Drawing is unchanged (the board
    /// style colours the pieces).
    pub colors: Vec<u8>,
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
    /// Each seat's own region, in seat order (`command_regions = ["d1:l3",
    /// "d12:l14", "a4:c11", "m4:o11"]`: four-handed chess's arms of the
    /// cross). Where
    /// given, command goes by region: a seat moves every piece of its side
    /// in its own arm and in the command zone, none in its partner's arm,
    /// and elsewhere (the opponents' arms) its own pieces. Empty: command
    /// goes by ownership ([`PieceDef::seat`]) and the command zone.
    pub command_regions: Vec<Vec<usize>>,
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

impl VariantDef {
    /// [`View::new`] on this variant's board for `audience`: its size, file
    /// letters, style, marked squares and palace lines and river — what
    /// every view of the variant shows whatever the position (the position
    /// view and the setup view start from it).
    pub(crate) fn board_view(&self, audience: Audience, squares: Vec<SquareView>) -> View {
        let g = &self.geometry;
        let (lines, river) = self.palace.marks();
        View {
            file_letters: (0..g.files as i32).map(|f| g.file_letter(f)).collect(),
            style: self.style,
            audience,
            marked: self.marked.iter().map(|&s| s as u16).collect(),
            lines,
            river,
            seat_colors: self.armies.iter().map(|&color| Side(color)).collect(),
            ..View::new(g.files, g.ranks, squares)
        }
    }
}
