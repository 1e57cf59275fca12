//! Piece art: SVG drawings written for Kodex (a 100 × 100 box, the piece
//! standing on y = 89), rasterised with resvg once per square size.
//!
//! Each drawing uses four CSS classes, so one drawing serves every side:
//! `b` body parts (fill and outline), `d` detail lines shown on every side,
//! `k` detail lines shown only on dark pieces (where outlines between parts
//! vanish into the dark body), `e` small solid details (eye, nostril).

use crate::text::{Face, Fonts, TextStyle};
use crate::theme::{PieceColors, Rgb};
use kodex_engine::Art;
use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg;

/// The drawing of one piece (its SVG elements, without colours).
fn drawing(art: Art) -> String {
    match art {
        Art::Pawn => PAWN.into(),
        Art::Knight => KNIGHT.into(),
        Art::Bishop => BISHOP.into(),
        Art::Rook => ROOK.into(),
        Art::Queen => QUEEN.into(),
        Art::King => KING.into(),
        Art::Token | Art::Janggi(_) => TOKEN.into(),
        Art::Ferz => FERZ.into(),
        Art::Alfil => ALFIL.into(),
        Art::Marshal => MARSHAL.into(),
        Art::Cardinal => CARDINAL.into(),
        Art::Amazon => AMAZON.into(),
        Art::Rocket => ROCKET.into(),
        Art::Crowned(crowned) => format!("{}{CROWN_BADGE}", drawing(crowned.base())),
        Art::Whale(whale) => whale_drawing(whale),
        Art::Tamerlane(piece) => crate::tamerlane::drawing(piece),
        Art::PawnOf(kodex_engine::PawnOfArt::Pawn) => crate::tamerlane::pawn_of_pawns(PAWN),
        Art::PawnOf(pawn) => crate::tamerlane::pawn_of(&drawing(pawn.base())),
    }
}

const PAWN: &str = r#"
<path class="b" d="M25 88.5 C25 80 31 75.5 38.5 74 L61.5 74 C69 75.5 75 80 75 88.5 Z"/>
<path class="b" d="M39 75 C41 66 42.5 60 43.5 51 L56.5 51 C57.5 60 59 66 61 75 Z"/>
<path class="b" d="M35 51 C35 45 65 45 65 51 C65 56 35 56 35 51 Z"/>
<circle class="b" cx="50" cy="33" r="12.5"/>
<path class="k" d="M40 49.5 H60 M36 79 C42 77.6 58 77.6 64 79"/>
"#;

const ROOK: &str = r#"
<path class="b" d="M22.5 88.5 V81.5 H77.5 V88.5 Z"/>
<path class="b" d="M27.5 81.5 V74.5 H72.5 V81.5 Z"/>
<path class="b" d="M33 74.5 L35.5 40 H64.5 L67 74.5 Z"/>
<path class="b" d="M29.5 40 V33.5 H70.5 V40 Z"/>
<path class="b" d="M27 33.5 V15 H36.5 V21.5 H45.5 V15 H54.5 V21.5 H63.5 V15 H73 V33.5 Z"/>
<path class="k" d="M31.5 78 H68.5 M37.5 43.5 H62.5 M63.5 71 H36.5 M30.5 30 H69.5"/>
"#;

const KNIGHT: &str = r#"
<path class="b" d="M30 84 C29 70 36 62 45 55.5 C47 54 48 51.5 47 49.5 C43 54 38 56.5 31 59 C26 60.5 21.5 60 18.5 56.5 C16.5 54 17 50.5 19.5 48 C26 40 31.5 33 35.5 25 L37.5 17.5 L42.5 22.5 L47.5 11 L52.5 20 C68 24 79 38 79 58 C79 68 77.5 76 77 84 Z"/>
<path class="b" d="M23 89 V83.5 C23 81.8 24.5 80.5 26.5 80.5 H73.5 C75.5 80.5 77 81.8 77 83.5 V89 Z"/>
<path class="d" d="M52.5 20 C52.5 20 55 22 56.5 24"/>
<path class="k" d="M56 25.5 C68 31 74.5 44 74.5 58 C74.5 67 73.5 73 73 78"/>
<path class="e" d="M38.5 35.5 C40.5 32.5 44 32 45.5 33.5 C44 36.5 41 37.5 38.5 35.5 Z"/>
<circle class="e" cx="22.5" cy="52" r="1.9"/>
"#;

const BISHOP: &str = r#"
<path class="b" d="M23 89 V84 C23 82 24.5 81 26.5 81 H73.5 C75.5 81 77 82 77 84 V89 Z"/>
<path class="b" d="M36 81 C38.5 76 40.5 72 41.5 67 H58.5 C59.5 72 61.5 76 64 81 Z"/>
<path class="b" d="M34 66.5 C34 61 66 61 66 66.5 C66 71 34 71 34 66.5 Z"/>
<path class="b" d="M50 20.5 C62 28 69.5 40 67 51.5 C65.5 58 60 62.5 50 62.5 C40 62.5 34.5 58 33 51.5 C30.5 40 38 28 50 20.5 Z"/>
<circle class="b" cx="50" cy="15.5" r="5.5"/>
<path class="d" d="M57.5 32 L48 45.5"/>
<path class="k" d="M39.5 64.5 H60.5 M40 57 C46 59 54 59 60 57"/>
"#;

const QUEEN: &str = r#"
<path class="b" d="M22.5 89 V84 C22.5 82 24 81 26 81 H74 C76 81 77.5 82 77.5 84 V89 Z"/>
<path class="b" d="M30.5 81 C32 75 33.5 70.5 34.5 66 H65.5 C66.5 70.5 68 75 69.5 81 Z"/>
<path class="b" d="M34 66 L20.5 29.5 L35 47 L36.5 22.5 L45 44.5 L50 19 L55 44.5 L63.5 22.5 L65 47 L79.5 29.5 L66 66 Z"/>
<circle class="b" cx="20.5" cy="27" r="4.5"/>
<circle class="b" cx="36.5" cy="20" r="4.5"/>
<circle class="b" cx="50" cy="16.5" r="4.5"/>
<circle class="b" cx="63.5" cy="20" r="4.5"/>
<circle class="b" cx="79.5" cy="27" r="4.5"/>
<path class="d" d="M34.5 66 C44 63 56 63 65.5 66"/>
<path class="k" d="M36 62 C45 59.5 55 59.5 64 62 M33.5 77 C44 74.5 56 74.5 66.5 77"/>
"#;

const KING: &str = r#"
<path class="b" d="M22.5 89 V84 C22.5 82 24 81 26 81 H74 C76 81 77.5 82 77.5 84 V89 Z"/>
<path class="b" d="M30.5 81 C32 75 33.5 70.5 34.5 66 H65.5 C66.5 70.5 68 75 69.5 81 Z"/>
<path class="b" d="M34.5 66 C24 59 17.5 50 21 42.5 C25 34 38 34 44 43 L50 52 L56 43 C62 34 75 34 79 42.5 C82.5 50 76 59 65.5 66 Z"/>
<path class="b" d="M50 52 C44.5 45 43.5 38 50 29.5 C56.5 38 55.5 45 50 52 Z"/>
<path class="b" d="M47.5 29.5 V22 H42 V16.5 H47.5 V10.5 H52.5 V16.5 H58 V22 H52.5 V29.5 Z"/>
<path class="d" d="M34.5 66 C44 63 56 63 65.5 66"/>
<path class="k" d="M36 62 C45 59.5 55 59.5 64 62 M33.5 77 C44 74.5 56 74.5 66.5 77 M26 47 C28 42 35 41 39 46 M74 47 C72 42 65 41 61 46"/>
"#;

const TOKEN: &str = r#"
<circle class="b" cx="50" cy="50" r="38"/>
<circle class="d" cx="50" cy="50" r="32" style="stroke-width:1.6"/>
"#;

// Fairy pieces of the historical games (issue 14). The knight's share of a
// compound piece is a horseshoe on the body of its rider (rook, bishop, queen).

/// The base plate most pieces stand on.
macro_rules! plate {
    () => {
        r#"<path class="b" d="M23 89 V84 C23 82 24.5 81 26.5 81 H73.5 C75.5 81 77 82 77 84 V89 Z"/>"#
    };
}

/// A horseshoe mark centred at x = 50 between `y0` (top) and `y1` (feet).
macro_rules! horseshoe {
    ($top:literal, $feet:literal) => {
        concat!(
            r#"<path class="d" style="stroke-width:5" d="M41 "#,
            $feet,
            r#" C39 "#,
            $top,
            r#" 61 "#,
            $top,
            r#" 59 "#,
            $feet,
            r#""/>"#
        )
    };
}

const FERZ: &str = concat!(
    plate!(),
    r#"
<path class="b" d="M37 81 C40 75 42 70 43 64 H57 C58 70 60 75 63 81 Z"/>
<path class="b" d="M50 14 L75 39.5 L50 65 L25 39.5 Z"/>
<path class="d" d="M50 25 L64.5 39.5 L50 54 L35.5 39.5 Z"/>
<circle class="e" cx="50" cy="39.5" r="4"/>
"#
);

const ALFIL: &str = concat!(
    plate!(),
    r#"
<path class="b" d="M30 81 C28 70 30 60 34 53 C26 50 21 41 24 31 C27 22 36 17 47 17 C62 17 73 26 74 41 C75 50 72 57 68 62 C66 65 65 70 63 81 Z"/>
<path class="b" d="M40 50 C40 60 38 68 33 73 C31 75 32 78 35 77 C43 73 48 64 48 52 Z"/>
<path class="b" d="M55 25 C66 22 77 29 78 42 C79 52 71 57 63 55 C60 45 59 34 55 25 Z"/>
<path class="d" d="M42 56 C38 60 33 60 29 58"/>
<circle class="e" cx="42" cy="35" r="3.2"/>
"#
);

const MARSHAL: &str = concat!(
    plate!(),
    r#"
<path class="b" d="M31 81 L34 36 H66 L69 81 Z"/>
<path class="b" d="M27 36 V15 H37 V22 H45.5 V15 H54.5 V22 H63 V15 H73 V36 Z"/>
"#,
    horseshoe!("44", "72")
);

const CARDINAL: &str = concat!(
    plate!(),
    r#"
<path class="b" d="M36 81 C38.5 76 40.5 72 41.5 67 H58.5 C59.5 72 61.5 76 64 81 Z"/>
<path class="b" d="M50 16 C64 25 72 38 69.5 51 C67.5 59 61 64 50 64 C39 64 32.5 59 30.5 51 C28 38 36 25 50 16 Z"/>
<circle class="b" cx="50" cy="11" r="5"/>
"#,
    horseshoe!("34", "58")
);

const AMAZON: &str = concat!(
    plate!(),
    r#"
<path class="b" d="M30.5 81 C32 75 33.5 70.5 34.5 66 H65.5 C66.5 70.5 68 75 69.5 81 Z"/>
<path class="b" d="M32 66 L18 24 L35 38 L40 16 L50 33 L60 16 L65 38 L82 24 L68 66 Z"/>
<circle class="b" cx="18" cy="22" r="4.5"/>
<circle class="b" cx="40" cy="14" r="4.5"/>
<circle class="b" cx="60" cy="14" r="4.5"/>
<circle class="b" cx="82" cy="22" r="4.5"/>
"#,
    horseshoe!("40", "63")
);

const ROCKET: &str = concat!(
    plate!(),
    r#"
<path class="b" d="M38 79 L25 81 L29 64 L38 58 Z"/>
<path class="b" d="M62 79 L75 81 L71 64 L62 58 Z"/>
<path class="b" d="M50 9 C60 18 63 30 63 44 V80 H37 V44 C37 30 40 18 50 9 Z"/>
<circle class="d" cx="50" cy="40" r="6"/>
<path class="d" d="M40 70 H60"/>
"#
);

// Frankfurt's royal pieces: the classical drawing with a crown in the corner.
const CROWN_BADGE: &str = r#"
<path class="b" style="fill:#e8b923" d="M4 34 L1 8 L11.5 17 L18.5 2 L25.5 17 L36 8 L33 34 Z"/>
<circle class="e" cx="18.5" cy="26" r="3.4"/>
"#;

// Whale shogi: sea creatures seen from the side, facing left, on a plate.
// Most share one whale body; each has its own mark (crown, hump, spots,
// tusk, spout, tall fin); the porpoise is small and round, the dolphin slim
// with a beak.
const WHALE_BODY: &str = r#"
<path class="b" d="M40 81 L44 74 H56 L60 81 Z"/>
<path class="b" d="M14 61 C14 47 29 39 48 39 C64 39 74 47 80 55 L88 45 C90 43 93 44 92 47 L86 59 L92 69 C93 72 90 73 88 71 L80 63 C72 71 60 75 46 75 C27 75 14 71 14 61 Z"/>
<path class="d" d="M16 64 C23 67 31 67 38 64"/>
<circle class="e" cx="25" cy="55" r="2.8"/>
"#;

const DOLPHIN_BODY: &str = r#"
<path class="b" d="M40 81 L44 72 H56 L60 81 Z"/>
<path class="b" d="M8 60 L19 57 C25 46 39 42 53 42 C66 42 76 48 82 54 L90 45 C92 43 95 44 94 47 L88 59 L94 69 C95 72 92 73 90 71 L82 65 C72 71 58 73 44 71 C34 69 26 66 19 63 Z"/>
<path class="b" d="M45 43 C49 34 56 28 63 25 C60 32 60 38 62 44 Z"/>
<circle class="e" cx="26" cy="54" r="2.5"/>
"#;

fn whale_drawing(whale: kodex_engine::WhaleArt) -> String {
    use kodex_engine::WhaleArt;
    let whale_with = |mark: &str| format!("{}{WHALE_BODY}{mark}", plate!());
    match whale {
        WhaleArt::WhiteWhale => whale_with(
            r#"<path class="b" d="M34 40 L31 21 L40 29 L48 16 L56 29 L65 21 L62 40 Z"/>"#,
        ),
        WhaleArt::Humpback => whale_with(
            r#"<path class="b" d="M38 41 C42 28 58 28 62 41 Z"/>
<path class="b" d="M36 68 C35 77 30 82 22 83 C26 77 29 72 30 66 Z"/>"#,
        ),
        WhaleArt::GreyWhale => whale_with(
            r#"<circle class="e" cx="44" cy="50" r="3.4"/>
<circle class="e" cx="57" cy="55" r="2.8"/>
<circle class="e" cx="68" cy="50" r="2.4"/>
<circle class="e" cx="50" cy="63" r="2.8"/>
<circle class="e" cx="37" cy="58" r="2.2"/>"#,
        ),
        WhaleArt::Narwhal => whale_with(
            r#"<path class="b" d="M17 55 L2 37 L5 35 L21 51 Z"/>
<path class="d" d="M8 40 L11 39 M12 45 L15 44"/>"#,
        ),
        WhaleArt::BlueWhale => whale_with(
            r#"<path class="d" style="stroke-width:4" d="M43 37 C41 28 35 23 29 21 M48 37 V15 M53 37 C55 28 61 23 67 21"/>"#,
        ),
        WhaleArt::KillerWhale => whale_with(
            r#"<path class="b" d="M47 41 L53 12 L63 42 Z"/>
<ellipse class="e" cx="34" cy="51" rx="7" ry="3.4"/>
<path class="d" d="M30 70 C44 74 60 72 72 64"/>"#,
        ),
        WhaleArt::Porpoise => format!(
            r#"{}<g transform="translate(50 81) scale(0.78) translate(-50 -81)">{WHALE_BODY}<path class="b" d="M44 40 C48 34 52 31 57 30 C55 34 56 37 58 40 Z"/></g>"#,
            plate!()
        ),
        WhaleArt::Dolphin => format!("{}{DOLPHIN_BODY}", plate!()),
    }
}

/// The SVG document of `art` in `colors`.
fn document(art: Art, colors: &PieceColors, dark: bool, mirrored: bool) -> String {
    let flip = if mirrored {
        "translate(100 0) scale(-1 1) "
    } else {
        ""
    };
    let dark_details = if dark {
        colors.detail.css()
    } else {
        "none".to_string()
    };
    format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" width="100" height="100">
<style>
.b {{ fill: {fill}; stroke: {outline}; stroke-width: 3.2; stroke-linejoin: round; stroke-linecap: round }}
.d {{ fill: none; stroke: {detail}; stroke-width: 2.6; stroke-linejoin: round; stroke-linecap: round }}
.k {{ fill: none; stroke: {dark_details}; stroke-width: 2.4; stroke-linejoin: round; stroke-linecap: round }}
.e {{ fill: {detail}; stroke: none }}
</style>
<g transform="{flip}translate(50 91) scale(1.06) translate(-50 -89)">{body}</g>
</svg>"#,
        fill = colors.fill.css(),
        outline = colors.outline.css(),
        detail = colors.detail.css(),
        body = drawing(art),
    )
}

/// Whether pieces in `colors` are dark (they need light detail lines).
pub(crate) fn is_dark(colors: &PieceColors) -> bool {
    let Rgb(r, g, b) = colors.fill;
    (r as u32 * 299 + g as u32 * 587 + b as u32 * 114) / 1000 < 128
}

/// Rasterises an SVG document into a transparent `size` × `size` pixmap.
fn rasterise(svg: &str, size: u32) -> Pixmap {
    let mut pixmap = Pixmap::new(size.max(1), size.max(1)).expect("a non-empty pixmap");
    // The documents are constants of this crate; a parse failure would be a bug caught by tests.
    if let Ok(tree) = usvg::Tree::from_str(svg, &usvg::Options::default()) {
        let scale = size as f32 / 100.0;
        resvg::render(
            &tree,
            Transform::from_scale(scale, scale),
            &mut pixmap.as_mut(),
        );
    }
    pixmap
}

/// The sprite of a Janggi piece of `side` (blue for the first player, red
/// for the second, as tradition has them) on a transparent `size` × `size` square.
pub(crate) fn janggi_sprite(
    kind: kodex_engine::JanggiArt,
    side: u8,
    theme: &crate::theme::Theme,
    size: u32,
) -> Pixmap {
    let blue = side % 2 == 0;
    rasterise(
        &crate::janggi::document(kind, blue, theme.janggi_ink(side), theme.pieces[0].fill),
        size,
    )
}

/// The sprite of a piece: `art` in `colors` on a transparent `size` × `size` square,
/// with `letter` on tokens and a small mark when `promoted`. Sea creatures of
/// the second player face right, toward the first player's, as shogi pieces
/// of the two sides point at each other.
#[allow(clippy::too_many_arguments)]
pub(crate) fn piece_sprite(
    fonts: &Fonts,
    art: Art,
    letter: char,
    promoted: bool,
    side: u8,
    colors: &PieceColors,
    promoted_color: Rgb,
    size: u32,
) -> Pixmap {
    let dark = is_dark(colors);
    let mirrored = matches!(art, Art::Whale(_)) && side % 2 == 1;
    let mut pixmap = rasterise(&document(art, colors, dark, mirrored), size);
    if art == Art::Token {
        let style = TextStyle::new(Face::Bold, size as f32 * 0.42);
        let letter_color = if dark { colors.detail } else { colors.outline };
        let center = size as f32 / 2.0;
        fonts.paint_centered(
            &mut pixmap,
            style,
            &letter.to_uppercase().to_string(),
            center,
            center,
            letter_color,
        );
    }
    if promoted {
        let mark = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" width="100" height="100">
<circle cx="83" cy="17" r="12" fill="{fill}" stroke="{outline}" stroke-width="3"/>
<path d="M83 11 V23 M77 17 H89" stroke="{outline}" stroke-width="3.4" stroke-linecap="round"/>
</svg>"#,
            fill = promoted_color.css(),
            outline = colors.outline.css(),
        );
        let overlay = rasterise(&mark, size);
        pixmap.draw_pixmap(
            0,
            0,
            overlay.as_ref(),
            &resvg::tiny_skia::PixmapPaint::default(),
            Transform::identity(),
            None,
        );
    }
    pixmap
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::theme::Theme;
    use kodex_engine::TamerlaneArt;

    /// Tamerlane's 23 piece types at the smallest square size (40 px): every two
    /// silhouettes differ in many pixels, so none is told apart by colour or
    /// a letter alone.
    #[test]
    fn tamerlane_pieces_have_distinct_silhouettes_at_phone_size() {
        use kodex_engine::PawnOfArt;
        let pieces = [
            TamerlaneArt::Vizier,
            TamerlaneArt::Giraffe,
            TamerlaneArt::Picket,
            TamerlaneArt::Camel,
            TamerlaneArt::WarEngine,
            TamerlaneArt::Prince,
            TamerlaneArt::AdventitiousKing,
        ];
        let mut arts = vec![Art::King, Art::Rook, Art::Knight, Art::Ferz, Art::Alfil];
        arts.extend(pieces.map(Art::Tamerlane));
        let mut pawns = vec![
            PawnOfArt::Pawn,
            PawnOfArt::King,
            PawnOfArt::Rook,
            PawnOfArt::Knight,
            PawnOfArt::Ferz,
            PawnOfArt::Alfil,
        ];
        pawns.extend(
            pieces
                .into_iter()
                .filter(|p| !matches!(p, TamerlaneArt::Prince | TamerlaneArt::AdventitiousKing))
                .map(PawnOfArt::Tamerlane),
        );
        arts.extend(pawns.into_iter().map(Art::PawnOf));
        assert_eq!(arts.len(), 23);
        let theme = Theme::green();
        let masks: Vec<Vec<bool>> = arts
            .iter()
            .map(|&art| {
                let svg = document(art, &theme.piece_colors(0), false, false);
                rasterise(&svg, 40)
                    .pixels()
                    .iter()
                    .map(|p| p.alpha() > 127)
                    .collect()
            })
            .collect();
        for (i, a) in masks.iter().enumerate() {
            for (j, b) in masks.iter().enumerate().skip(i + 1) {
                let differ = a.iter().zip(b).filter(|(x, y)| x != y).count();
                assert!(
                    differ >= 40,
                    "{:?} and {:?} differ in {differ} pixels",
                    arts[i],
                    arts[j]
                );
            }
        }
    }

    #[test]
    fn every_drawing_parses_and_paints_something() {
        let theme = Theme::green();
        for art in [
            Art::Pawn,
            Art::Knight,
            Art::Bishop,
            Art::Rook,
            Art::Queen,
            Art::King,
            Art::Token,
            Art::Ferz,
            Art::Alfil,
            Art::Marshal,
            Art::Cardinal,
            Art::Amazon,
            Art::Rocket,
            Art::Crowned(kodex_engine::CrownedArt::Knight),
            Art::Crowned(kodex_engine::CrownedArt::Pawn),
            Art::Whale(kodex_engine::WhaleArt::WhiteWhale),
            Art::Whale(kodex_engine::WhaleArt::Porpoise),
            Art::Whale(kodex_engine::WhaleArt::Humpback),
            Art::Whale(kodex_engine::WhaleArt::GreyWhale),
            Art::Whale(kodex_engine::WhaleArt::Narwhal),
            Art::Whale(kodex_engine::WhaleArt::BlueWhale),
            Art::Whale(kodex_engine::WhaleArt::Dolphin),
            Art::Whale(kodex_engine::WhaleArt::KillerWhale),
            Art::Tamerlane(TamerlaneArt::Vizier),
            Art::Tamerlane(TamerlaneArt::Giraffe),
            Art::Tamerlane(TamerlaneArt::Picket),
            Art::Tamerlane(TamerlaneArt::Camel),
            Art::Tamerlane(TamerlaneArt::WarEngine),
            Art::Tamerlane(TamerlaneArt::Prince),
            Art::Tamerlane(TamerlaneArt::AdventitiousKing),
            Art::PawnOf(kodex_engine::PawnOfArt::Pawn),
            Art::PawnOf(kodex_engine::PawnOfArt::Tamerlane(TamerlaneArt::Camel)),
        ] {
            for side in 0..2 {
                let svg = document(art, &theme.piece_colors(side), side == 1, side == 1);
                assert!(usvg::Tree::from_str(&svg, &usvg::Options::default()).is_ok());
                let pixmap = rasterise(&svg, 40);
                let painted = pixmap.pixels().iter().filter(|p| p.alpha() > 0).count();
                assert!(painted > 200, "{art:?} paints only {painted} pixels");
            }
        }
    }
}
