//! What one audience may see of a game: the input of the renderer.
//!
//! A [`View`] holds only what its audience may see. For a fog-of-war player
//! the hidden squares are [`SquareView::Fog`] and carry nothing else, so a
//! view (and its `Debug` output) can be handed to any code without leaking.

use crate::side::Side;
use serde::Deserialize;

/// What each player may see of the board during play: a policy of the
/// variant (`visibility = "fog"` in its definition).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Visibility {
    /// Everyone sees everything.
    #[default]
    Full,
    /// Fog of war: own pieces, the squares they can move to, and checkers.
    Fog,
    /// Own pieces only (Kriegspiel): the opponent's army is never shown.
    OwnPiecesOnly,
}

/// Who a view is for.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Audience {
    /// Everything: the full position (games without hidden information, or a
    /// finished game).
    Full,
    /// One player's private view (their fog of war).
    Side(Side),
    /// The public: in hidden-information games only what every player may
    /// see; in other games the full position.
    Public,
}

/// The art used to draw a piece. Pieces without art are drawn as a lettered
/// token.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Art {
    /// The classical king.
    King,
    /// The classical queen.
    Queen,
    /// The classical rook.
    Rook,
    /// The classical bishop.
    Bishop,
    /// The classical knight.
    Knight,
    /// The classical pawn.
    Pawn,
    /// A round token showing [`PieceGlyph::letter`].
    Token,
    // Fairy pieces of the historical games (issue 14).
    /// The ferz: one diagonal step (shatranj general, chaturanga counsellor).
    Ferz,
    /// The elephant of shatranj (alfil) and chaturanga.
    Alfil,
    /// Rook + knight (grand chess marshal, great chess war machine).
    Marshal,
    /// Bishop + knight (grand chess cardinal, great chess vizier).
    Cardinal,
    /// Queen + knight (great chess giraffe).
    Amazon,
    /// A cannon that captures by jumping (Semedo's rocket).
    Rocket,
    /// A Janggi piece: an octagonal token with its sign, sized by rank.
    Janggi(JanggiArt),
    /// A classical piece wearing a crown: a royal piece of that type
    /// (Frankfurt: the king that took a knight is a royal knight).
    Crowned(CrownedArt),
    /// A whale shogi piece (`art = "whale-narwhal"`).
    Whale(WhaleArt),
    /// A Tamerlane piece (`art = "tamerlane-giraffe"`).
    Tamerlane(TamerlaneArt),
    /// A typed pawn: a small copy of the piece it belongs to on a pawn's
    /// base (Tamerlane's pawn of rooks: `art = "pawn-of-rook"`).
    PawnOf(PawnOfArt),
}

/// The pieces of Tamerlane chess that have no classical drawing
/// (`art = "tamerlane-<name>"`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum TamerlaneArt {
    /// The vizier (one orthogonal step): a figure in a turban.
    Vizier,
    /// The giraffe: a long neck.
    Giraffe,
    /// The picket: a pike with a pennant.
    Picket,
    /// The camel: a hump.
    Camel,
    /// The war engine: a battering ram on wheels.
    WarEngine,
    /// The prince (the promoted pawn of kings): a coronet.
    Prince,
    /// The adventitious king (the pawn of pawns crowned): a crescent crown.
    AdventitiousKing,
}

impl TamerlaneArt {
    /// The art named `tamerlane-<name>` in a definition, if any.
    pub fn named(name: &str) -> Option<TamerlaneArt> {
        Some(match name.strip_prefix("tamerlane-")? {
            "vizier" => TamerlaneArt::Vizier,
            "giraffe" => TamerlaneArt::Giraffe,
            "picket" => TamerlaneArt::Picket,
            "camel" => TamerlaneArt::Camel,
            "war-engine" => TamerlaneArt::WarEngine,
            "prince" => TamerlaneArt::Prince,
            "adventitious-king" => TamerlaneArt::AdventitiousKing,
            _ => return None,
        })
    }
}

/// The piece a typed pawn belongs to (`art = "pawn-of-<piece>"`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum PawnOfArt {
    /// `pawn-of-pawn`.
    Pawn,
    /// `pawn-of-king`.
    King,
    /// `pawn-of-rook`.
    Rook,
    /// `pawn-of-knight`.
    Knight,
    /// `pawn-of-ferz` (a general).
    Ferz,
    /// `pawn-of-alfil` (an elephant).
    Alfil,
    /// `pawn-of-<tamerlane piece>` (`pawn-of-camel`).
    Tamerlane(TamerlaneArt),
}

impl PawnOfArt {
    /// The art named `pawn-of-<piece>` in a definition, if any.
    pub fn named(name: &str) -> Option<PawnOfArt> {
        Some(match name.strip_prefix("pawn-of-")? {
            "pawn" => PawnOfArt::Pawn,
            "king" => PawnOfArt::King,
            "rook" => PawnOfArt::Rook,
            "knight" => PawnOfArt::Knight,
            "ferz" => PawnOfArt::Ferz,
            "alfil" => PawnOfArt::Alfil,
            other => PawnOfArt::Tamerlane(TamerlaneArt::named(&format!("tamerlane-{other}"))?),
        })
    }

    /// The art of the piece it belongs to.
    pub fn base(self) -> Art {
        match self {
            PawnOfArt::Pawn => Art::Pawn,
            PawnOfArt::King => Art::King,
            PawnOfArt::Rook => Art::Rook,
            PawnOfArt::Knight => Art::Knight,
            PawnOfArt::Ferz => Art::Ferz,
            PawnOfArt::Alfil => Art::Alfil,
            PawnOfArt::Tamerlane(piece) => Art::Tamerlane(piece),
        }
    }
}

/// The crowned (royal) forms of the classical pieces (`art = "crowned-knight"`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum CrownedArt {
    /// A royal queen.
    Queen,
    /// A royal rook.
    Rook,
    /// A royal bishop.
    Bishop,
    /// A royal knight.
    Knight,
    /// A royal pawn.
    Pawn,
}

impl CrownedArt {
    /// The art named `crowned-<name>` in a definition, if any.
    pub fn named(name: &str) -> Option<CrownedArt> {
        Some(match name.strip_prefix("crowned-")? {
            "queen" => CrownedArt::Queen,
            "rook" => CrownedArt::Rook,
            "bishop" => CrownedArt::Bishop,
            "knight" => CrownedArt::Knight,
            "pawn" => CrownedArt::Pawn,
            _ => return None,
        })
    }

    /// The classical piece under the crown.
    pub fn base(self) -> Art {
        match self {
            CrownedArt::Queen => Art::Queen,
            CrownedArt::Rook => Art::Rook,
            CrownedArt::Bishop => Art::Bishop,
            CrownedArt::Knight => Art::Knight,
            CrownedArt::Pawn => Art::Pawn,
        }
    }
}

/// The whale shogi pieces, each its own sea creature (`art = "whale-<name>"`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum WhaleArt {
    /// The white whale (the king): a whale with a crown.
    WhiteWhale,
    /// The porpoise: a small round body.
    Porpoise,
    /// The humpback: a hump and long flippers.
    Humpback,
    /// The grey whale: a whale with mottled spots.
    GreyWhale,
    /// The narwhal: a long tusk.
    Narwhal,
    /// The blue whale: a whale with a spout.
    BlueWhale,
    /// The dolphin: a beak and a curved fin.
    Dolphin,
    /// The killer whale: a tall fin and an eye patch.
    KillerWhale,
}

impl WhaleArt {
    /// The art named `whale-<name>` in a definition, if any.
    pub fn named(name: &str) -> Option<WhaleArt> {
        Some(match name.strip_prefix("whale-")? {
            "white" => WhaleArt::WhiteWhale,
            "porpoise" => WhaleArt::Porpoise,
            "humpback" => WhaleArt::Humpback,
            "grey" => WhaleArt::GreyWhale,
            "narwhal" => WhaleArt::Narwhal,
            "blue" => WhaleArt::BlueWhale,
            "dolphin" => WhaleArt::Dolphin,
            "killer" => WhaleArt::KillerWhale,
            _ => return None,
        })
    }
}

/// The Janggi pieces, drawn as octagonal tokens (`art = "janggi-horse"`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum JanggiArt {
    /// The general (the largest token).
    General,
    /// A guard (the smallest).
    Guard,
    /// A horse.
    Horse,
    /// An elephant.
    Elephant,
    /// A chariot.
    Chariot,
    /// A cannon.
    Cannon,
    /// A soldier (the smallest).
    Soldier,
}

impl JanggiArt {
    /// The art named `janggi-<name>` in a definition, if any.
    pub fn named(name: &str) -> Option<JanggiArt> {
        Some(match name.strip_prefix("janggi-")? {
            "general" => JanggiArt::General,
            "guard" => JanggiArt::Guard,
            "horse" => JanggiArt::Horse,
            "elephant" => JanggiArt::Elephant,
            "chariot" => JanggiArt::Chariot,
            "cannon" => JanggiArt::Cannon,
            "soldier" => JanggiArt::Soldier,
            _ => return None,
        })
    }
}

/// A piece as the renderer draws it.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct PieceGlyph {
    /// Whose piece it is (0 white, 1 black, 2 and 3 in four-player games).
    pub side: Side,
    /// The art to draw.
    pub art: Art,
    /// The piece's letter, upper case (`'Q'`, `'A'` for an archbishop …).
    pub letter: char,
    /// A promoted piece (crazyhouse `~`), drawn with a small mark.
    pub promoted: bool,
}

/// What is shown on one square.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum SquareView {
    /// The square does not exist on this board (corners of the four-handed
    /// cross, outside the citadels). Not drawn.
    Absent,
    /// An empty visible square.
    Empty,
    /// A square hidden from this audience. Carries nothing.
    Fog,
    /// A visible piece.
    Piece(PieceGlyph),
}

/// How the board's cells are coloured.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub enum BoardStyle {
    /// Light and dark squares.
    #[default]
    Checkered,
    /// All squares one colour (shatranj, chaturanga).
    Uniform,
    /// Pieces stand on the intersections of lines (janggi, xiangqi).
    Points,
    /// Gliński's hexagon: flat-topped cells in three colours; the squares
    /// are the hexagonal geometry's indices (axial q + 5, r + 5).
    Hexagonal,
}

/// The pieces one side holds in hand (crazyhouse pockets). Public.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PocketView {
    /// Whose pocket.
    pub side: Side,
    /// Each piece kind held and how many, in the variant's piece order.
    pub pieces: Vec<(PieceGlyph, u8)>,
}

/// Everything an audience may see of a position, ready for the renderer.
///
/// Squares are indexed `rank * files + file`; rank 0 is the first player's
/// edge, file 0 is file `a`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct View {
    /// Number of files (columns).
    pub files: u8,
    /// Number of ranks (rows).
    pub ranks: u8,
    /// The letters people read for the files, in order (`abcdefgh`;
    /// four-handed chess skips `j`). A file past its end reads `a`, `b`, ….
    pub file_letters: String,
    /// One entry per square.
    pub squares: Vec<SquareView>,
    /// How cells are drawn.
    pub style: BoardStyle,
    /// Who the view is for.
    pub audience: Audience,
    /// The side to move.
    pub side_to_move: Side,
    /// The full-move number (1 at the start).
    pub move_number: u32,
    /// Squares of the last move to highlight (origin and destination), only
    /// those the audience sees now and, for another side's move, saw before
    /// it too: nothing the change between its two views does not show.
    pub last_move: Vec<u16>,
    /// Squares of royal pieces in check, only those the audience may see.
    pub checked: Vec<u16>,
    /// Squares the variant marks (the hill, palaces), and in Kriegspiel the
    /// square of the capture the referee just announced to everyone: public
    /// marks, drawn subtly, on a fogged square too (where highlights and
    /// checks are never drawn).
    pub marked: Vec<u16>,
    /// Pockets, one per side, in variants with drops; empty otherwise.
    pub pockets: Vec<PocketView>,
    /// Checks each side still has to give to win (three-check), per side.
    pub remaining_checks: Option<Vec<u8>>,
    /// Marked lines drawn between neighbouring squares (palace diagonals).
    pub lines: Vec<(u16, u16)>,
    /// A river drawn between this rank (0-based) and the next, if any.
    pub river: Option<u8>,
    /// The castling rights the audience knows (FEN letters, upper case for
    /// the first side): all of them where nothing is hidden, a seat's own
    /// where the variant hides the opponent (its own king and rooks tell it),
    /// none for onlookers of a hidden game. Not drawn; the computer reads it.
    pub castling: String,
    /// The en passant square, where the audience may know it: always where
    /// nothing is hidden; in fog of war only for the side to move, which may
    /// take there (a move it is shown). Not drawn.
    pub en_passant: Option<u16>,
    /// Kriegspiel: how many pawn captures the side to move may make, as the
    /// referee announces it to everyone; `None` in other variants. Not drawn.
    pub pawn_tries: Option<u32>,
    /// The colour each seat's army is drawn in, by seat, where it is not the
    /// seat's own index (Enochian chess: red, black, yellow, blue), so that
    /// a seat's marker beside its name matches its pieces. Empty: seat `n`
    /// is drawn in colour `n`.
    pub seat_colors: Vec<Side>,
    /// Squares holding a second piece, and that piece (Enochian chess: a
    /// throne holds its king, in [`View::squares`], and one more piece of
    /// its army until one of the two leaves). Drawn smaller in a corner of
    /// the square; only squares the audience sees.
    pub second_pieces: Vec<(u16, PieceGlyph)>,
}

impl View {
    /// A board of `files` × `ranks` with `squares` (see [`View::squares`])
    /// and nothing else: checkered, seen whole, the first side to move at
    /// move 1, no marks, pockets or highlights. The engine's views start
    /// from it ([`VariantDef::board_view`](crate::variant::VariantDef::board_view)); tests and samples build theirs on it.
    pub fn new(files: u8, ranks: u8, squares: Vec<SquareView>) -> View {
        View {
            files,
            ranks,
            file_letters: String::new(),
            squares,
            style: BoardStyle::Checkered,
            audience: Audience::Full,
            side_to_move: Side::WHITE,
            move_number: 1,
            last_move: Vec::new(),
            checked: Vec::new(),
            marked: Vec::new(),
            pockets: Vec::new(),
            remaining_checks: None,
            lines: Vec::new(),
            river: None,
            castling: String::new(),
            en_passant: None,
            pawn_tries: None,
            seat_colors: Vec::new(),
            second_pieces: Vec::new(),
        }
    }

    /// The letter people read for `file` (0-based).
    pub fn file_letter(&self, file: u8) -> char {
        self.file_letters
            .chars()
            .nth(file as usize)
            .unwrap_or(char::from(b'a' + file.min(25)))
    }

    /// The file (0-based) people call `letter`, if the board has it.
    pub fn file_index(&self, letter: char) -> Option<u8> {
        (0..self.files).find(|&file| self.file_letter(file) == letter)
    }

    /// The square index of `file`, `rank` (both 0-based).
    pub fn index(&self, file: u8, rank: u8) -> usize {
        rank as usize * self.files as usize + file as usize
    }

    /// What is on `file`, `rank`.
    pub fn at(&self, file: u8, rank: u8) -> SquareView {
        self.squares
            .get(self.index(file, rank))
            .copied()
            .unwrap_or(SquareView::Absent)
    }
}
