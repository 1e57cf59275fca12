//! Tamerlane chess art, drawn for Kodex in the house style of [`crate::art`]
//! (a 100 × 100 box, the piece standing on y = 89, classes `b` body, `d`
//! detail, `k` dark-only detail, `e` solid detail): the seven pieces without a
//! classical drawing, each with its own silhouette, and the typed pawns as
//! small copies of their pieces on a pawn's round base, as the seed's
//! diagram shows them.

use kodex_engine::TamerlaneArt;

/// The base plate the pieces stand on (as [`crate::art`]'s).
const PLATE: &str =
    r#"<path class="b" d="M23 89 V84 C23 82 24.5 81 26.5 81 H73.5 C75.5 81 77 82 77 84 V89 Z"/>"#;

/// The vizier: a robed figure in a tall turban with a plume.
const VIZIER: &str = r#"
<path class="b" d="M31 81 C33 70 36 62 41 56 H59 C64 62 67 70 69 81 Z"/>
<circle class="b" cx="50" cy="46" r="10"/>
<path class="b" d="M33 37 C33 22 67 22 67 37 C67 41 33 41 33 37 Z"/>
<path class="b" d="M50 24 C48 17 51 11 57 8 C56 13 55 18 53 24 Z"/>
<path class="d" d="M36 33 C45 29 55 29 64 33 M50 57 V79"/>
"#;

/// The giraffe: a long neck rising from a small body, two ossicones.
const GIRAFFE: &str = r#"
<path class="b" d="M30 81 V66 C30 58 37 54 46 54 H62 C68 54 72 59 72 66 V81 H65 V68 H38 V81 Z"/>
<path class="b" d="M56 56 L63 22 L72 24 L68 58 Z"/>
<path class="b" d="M58 25 C58 16 66 12 76 15 C82 17 84 22 80 25 C75 28 66 29 58 25 Z"/>
<path class="d" d="M62 16 V8 M68 15 V7"/>
<circle class="e" cx="70" cy="19" r="2.4"/>
<circle class="e" cx="44" cy="60" r="2.6"/>
<circle class="e" cx="54" cy="62" r="2.2"/>
<circle class="e" cx="63" cy="38" r="2.2"/>
"#;

/// The picket: a pike planted in a base, with a pennant.
const PICKET: &str = r#"
<path class="b" d="M36 81 C38 76 41 72 43 68 H57 C59 72 62 76 64 81 Z"/>
<path class="b" d="M46.5 68 V24 H53.5 V68 Z"/>
<path class="b" d="M50 6 L58 26 H42 Z"/>
<path class="b" d="M53.5 30 L78 37 L53.5 45 Z"/>
<path class="d" d="M43 60 H57"/>
"#;

/// The camel: one large hump, a bent neck and a low head.
const CAMEL: &str = r#"
<path class="b" d="M24 81 V64 C22 56 26 50 33 50 C37 36 51 32 58 46 C62 52 66 54 70 50 L73 35 C74 30 79 28 84 31 L88 35 L84 38 L80 37 L77 56 C75 63 70 66 66 66 V81 H59 V67 H32 V81 Z"/>
<path class="d" d="M33 52 C40 48 52 48 58 52"/>
<circle class="e" cx="80" cy="32.5" r="2"/>
"#;

/// The war engine: a battering ram under a pitched roof, on two wheels.
const WAR_ENGINE: &str = r#"
<path class="b" d="M24 70 V50 L50 30 L76 50 V70 Z"/>
<path class="b" d="M10 56 H90 V64 H10 Z"/>
<path class="b" d="M6 52 H14 V68 H6 Z"/>
<path class="d" d="M34 48 L50 36 L66 48"/>
<circle class="b" cx="34" cy="76" r="8"/>
<circle class="b" cx="66" cy="76" r="8"/>
<circle class="e" cx="34" cy="76" r="2.4"/>
<circle class="e" cx="66" cy="76" r="2.4"/>
"#;

/// The foot of the royal pieces (as the king's), under their bodies.
const ROYAL_FOOT: &str = r#"
<path class="b" d="M30.5 81 C32 75 33.5 70.5 34.5 66 H65.5 C66.5 70.5 68 75 69.5 81 Z"/>
<path class="d" d="M34.5 66 C44 63 56 63 65.5 66"/>
"#;

/// The round base of a pawn, on which a typed pawn's small piece stands:
/// low, so that the piece, which tells the pawns apart, can be large.
const PAWN_BASE: &str =
    r#"<path class="b" d="M22 89 C22 84 27 80.5 34 80 L66 80 C73 80.5 78 84 78 89 Z"/>"#;

/// The prince: a coronet of three points and pearls over a king's body, no cross.
const PRINCE: &str = r#"
<path class="b" d="M34.5 66 C28 58 26 50 29 43 H71 C74 50 72 58 65.5 66 Z"/>
<path class="b" d="M29 43 L27 20 L39 32 L50 14 L61 32 L73 20 L71 43 Z"/>
<circle class="b" cx="27" cy="17" r="4"/>
<circle class="b" cx="50" cy="11" r="4"/>
<circle class="b" cx="73" cy="17" r="4"/>
<path class="d" d="M31 50 H69"/>
"#;

/// The adventitious king: a king's body under a tall crown with a crescent.
const ADVENTITIOUS_KING: &str = r#"
<path class="b" d="M34.5 66 C27 57 26 48 30 40 H70 C74 48 73 57 65.5 66 Z"/>
<path class="b" d="M32 40 L36 24 H64 L68 40 Z"/>
<path class="b" d="M43 21 C39 13 44 5 53 4 C47 8 46 15 51 20 C54 22 58 22 61 20 C58 25 49 26 43 21 Z"/>
<path class="d" d="M35 32 H65"/>
"#;

/// The drawing of a Tamerlane piece.
pub(crate) fn drawing(piece: TamerlaneArt) -> String {
    let body = match piece {
        TamerlaneArt::Vizier => VIZIER,
        TamerlaneArt::Giraffe => GIRAFFE,
        TamerlaneArt::Picket => PICKET,
        TamerlaneArt::Camel => CAMEL,
        TamerlaneArt::WarEngine => WAR_ENGINE,
        TamerlaneArt::Prince => return format!("{PLATE}{PRINCE}{ROYAL_FOOT}"),
        TamerlaneArt::AdventitiousKing => return format!("{PLATE}{ADVENTITIOUS_KING}{ROYAL_FOOT}"),
    };
    format!("{PLATE}{body}")
}

/// A typed pawn: the drawing of its piece, `piece`, at four fifths of its
/// size on a pawn's low base (at two thirds the types were hard to tell
/// apart on a 660 px board).
pub(crate) fn pawn_of(piece: &str) -> String {
    format!(
        r#"{PAWN_BASE}
<g transform="translate(50 81) scale(0.8) translate(-50 -89)">{piece}</g>"#
    )
}

/// The pawn of pawns: two small pawns side by side on the pawn's base.
pub(crate) fn pawn_of_pawns(pawn: &str) -> String {
    format!(
        r#"{PAWN_BASE}
<g transform="translate(35 81) scale(0.66) translate(-50 -89)">{pawn}</g>
<g transform="translate(65 81) scale(0.66) translate(-50 -89)">{pawn}</g>"#
    )
}
