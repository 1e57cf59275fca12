//! Janggi pieces: flat octagonal tokens in three sizes (general; chariot,
//! cannon, horse, elephant; guard and soldier), each with its sign — the
//! usual Hanja (車 包 馬 象 士, 楚 and 卒 for blue, 漢 and 兵 for red) drawn as
//! simplified brush strokes for Kodex (the renderer embeds no CJK font), in
//! the side's colour on an ivory body.

use crate::theme::Rgb;
use kodex_engine::JanggiArt;

/// The strokes of a sign in a 100 × 100 box (SVG path data).
fn strokes(kind: JanggiArt, blue: bool) -> &'static str {
    match (kind, blue) {
        // 楚: two trees over a foot.
        (JanggiArt::General, true) => {
            "M20 22 H46 M33 10 V46 M33 24 L20 40 M33 24 L46 36 \
             M54 22 H80 M67 10 V46 M67 24 L54 40 M67 24 L80 36 \
             M32 54 H68 M50 54 V76 M50 66 H66 M36 64 V80 M26 88 Q52 74 82 90"
        }
        // 漢: water on the left, the phonetic on the right.
        (JanggiArt::General, false) => {
            "M18 18 L26 26 M16 40 L24 47 M16 76 L28 56 \
             M36 18 H82 M48 10 V26 M70 10 V26 M40 32 H78 V48 H40 Z M40 40 H78 \
             M34 58 H84 M59 48 V64 M59 64 L36 90 M59 64 L84 90"
        }
        // 士
        (JanggiArt::Guard, _) => "M22 38 H78 M50 14 V80 M30 80 H70",
        // 馬
        (JanggiArt::Horse, _) => {
            "M30 14 V62 M30 14 H72 M30 29 H68 M30 44 H68 M51 14 V62 M30 62 H78 L73 88 L64 84 \
             M36 71 L33 80 M46 71 L46 80 M56 71 L58 80 M65 71 L69 80"
        }
        // 象
        (JanggiArt::Elephant, _) => {
            "M46 8 L36 20 M42 14 H64 L56 24 M34 24 H68 V40 H34 Z M51 24 V40 \
             M26 48 H74 M52 40 L28 64 M50 50 Q56 72 80 88 M44 60 L24 80 M48 68 L34 90 \
             M60 58 L76 50 M62 68 L80 62"
        }
        // 車
        (JanggiArt::Chariot, _) => {
            "M28 16 H72 M50 8 V92 M31 28 H69 V62 H31 Z M31 45 H69 M20 75 H80"
        }
        // 包
        (JanggiArt::Cannon, _) => {
            "M42 10 L28 34 M36 24 H74 Q78 24 77 32 L73 78 L64 73 \
             M38 42 H62 V58 H38 M38 42 V76 Q38 86 48 86 H82"
        }
        // 卒
        (JanggiArt::Soldier, true) => {
            "M50 8 V18 M24 20 H76 M40 26 L30 42 M38 32 L48 42 M63 26 L53 42 M61 32 L72 42 \
             M20 54 H80 M50 54 V92"
        }
        // 兵
        (JanggiArt::Soldier, false) => {
            "M64 10 L36 18 M36 18 V54 M36 36 H66 M60 18 V54 M20 54 H80 M42 64 L26 86 M58 64 L74 86"
        }
    }
}

/// The token's radius (of 50): the general largest, guards and soldiers smallest.
fn radius(kind: JanggiArt) -> f32 {
    match kind {
        JanggiArt::General => 47.0,
        JanggiArt::Guard | JanggiArt::Soldier => 34.0,
        _ => 41.0,
    }
}

/// An octagon of radius `r` around the centre, flat sides facing the edges.
fn octagon(r: f32) -> String {
    let mut points = String::new();
    for k in 0..8 {
        let angle = std::f32::consts::PI / 8.0 * (2 * k + 1) as f32;
        points += &format!(
            "{:.2},{:.2} ",
            50.0 + r * angle.cos(),
            50.0 + r * angle.sin()
        );
    }
    points
}

/// The SVG document of a Janggi piece: an octagon with `body` fill and an
/// `ink` outline and sign (`blue`: the first player's signs).
pub(crate) fn document(kind: JanggiArt, blue: bool, ink: Rgb, body: Rgb) -> String {
    let r = radius(kind);
    let scale = r / 47.0 * 0.62;
    let ink = ink.css();
    format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" width="100" height="100">
<polygon points="{outer}" fill="{body}" stroke="{ink}" stroke-width="3.6" stroke-linejoin="round"/>
<polygon points="{inner}" fill="none" stroke="{ink}" stroke-width="1.4" stroke-linejoin="round"/>
<g transform="translate(50 50) scale({scale}) translate(-50 -50)">
<path d="{sign}" fill="none" stroke="{ink}" stroke-width="{width}" stroke-linecap="round" stroke-linejoin="round"/>
</g>
</svg>"#,
        outer = octagon(r),
        inner = octagon(r - 5.0),
        body = body.css(),
        sign = strokes(kind, blue),
        width = 7.5,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use resvg::usvg;

    #[test]
    fn every_sign_parses_in_both_colours() {
        let kinds = [
            JanggiArt::General,
            JanggiArt::Guard,
            JanggiArt::Horse,
            JanggiArt::Elephant,
            JanggiArt::Chariot,
            JanggiArt::Cannon,
            JanggiArt::Soldier,
        ];
        for kind in kinds {
            for blue in [true, false] {
                let svg = document(kind, blue, Rgb(200, 30, 30), Rgb(250, 250, 240));
                assert!(usvg::Tree::from_str(&svg, &usvg::Options::default()).is_ok());
            }
        }
        assert!(radius(JanggiArt::General) > radius(JanggiArt::Chariot));
        assert!(radius(JanggiArt::Chariot) > radius(JanggiArt::Soldier));
        assert_ne!(
            strokes(JanggiArt::General, true),
            strokes(JanggiArt::General, false)
        );
    }
}
