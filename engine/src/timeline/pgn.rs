//! PGN of a time-travel game: one game per timeline start.

use crate::game::Game;
use crate::side::Side;

impl Game {
    /// A time-travel game as PGN: a board that changes by a jump cannot be
    /// a move of a PGN line, so the record is a collection of games, one per
    /// timeline start — the game from the start, then one from each jump's
    /// restored moment (`[SetUp "1"]`, `[FEN …]`) — each plain chess that
    /// any viewer replays. A `[TimeTravel]` tag and a comment say which jump
    /// began it; the last game is the present timeline and carries `result`.
    pub(crate) fn timelines_pgn(&self, tags: &[(&str, &str)], result: &str) -> String {
        let Some(travel) = &self.travel else {
            return String::new();
        };
        let def = &self.variant.0;
        let classical = def.pieces.iter().map(|p| p.letter).collect::<String>() == "kqrbnp"
            && !def.chess960
            && def.check_limit == 0
            && def.flag_squares.is_empty()
            && !def.must_capture;
        let skip = ["Result", "FEN", "SetUp", "TimeTravel"];
        let kept: Vec<(&str, &str)> = tags
            .iter()
            .copied()
            .filter(|(k, _)| !skip.iter().any(|s| k.eq_ignore_ascii_case(s)))
            .filter(|(k, _)| !(classical && k.eq_ignore_ascii_case("Variant")))
            .collect();
        let mut out = String::new();
        let count = travel.segments.len();
        for (index, segment) in travel.segments.iter().enumerate() {
            if index > 0 {
                out.push('\n');
            }
            crate::game::pgn_tags(&mut out, &kept);
            let has_variant = kept.iter().any(|(k, _)| k.eq_ignore_ascii_case("Variant"));
            if !classical && !has_variant {
                out.push_str(&format!("[Variant \"{}\"]\n", self.variant.name("en")));
            }
            let jump = segment.jump.and_then(|j| travel.jumps.get(j));
            let description = match jump {
                None => "timeline 0: the game from the start".to_string(),
                Some(jump) => format!(
                    "after jump {}: {} {}",
                    jump.number,
                    side_name(jump.side),
                    jump.text
                ),
            };
            crate::game::pgn_tags(&mut out, &[("TimeTravel", &description)]);
            if segment.start_fen != def.start_fen {
                out.push_str(&format!("[SetUp \"1\"]\n[FEN \"{}\"]\n", segment.start_fen));
            }
            let last = index + 1 == count;
            let game_result = if last { result } else { "*" };
            out.push_str(&format!("[Result \"{game_result}\"]\n\n"));
            let mut fields = segment.start_fen.split_whitespace().skip(1);
            let start_black = fields.next() == Some("b");
            let first_number = fields.nth(3).and_then(|n| n.parse().ok()).unwrap_or(1);
            let opening = jump
                .map(|jump| {
                    let left = travel
                        .timelines
                        .get(jump.number - 1)
                        .and_then(|t| t.moves.last())
                        .map(|m| format!(" after {}", m.san))
                        .unwrap_or_default();
                    format!(
                        "{{Jump {}: {} {}{left}, back {} own move(s); the line it left is timeline {}.}} ",
                        jump.number,
                        side_name(jump.side),
                        jump.text,
                        jump.back,
                        jump.number
                    )
                })
                .unwrap_or_default();
            // Where a later jump came back to, the line this game follows was left.
            let comments = |i: usize| {
                let mut text = if i == 0 {
                    opening.clone()
                } else {
                    String::new()
                };
                for &(_, j) in segment.left_by.iter().filter(|(at, _)| *at == i) {
                    if let Some(jump) = travel.jumps.get(j) {
                        text.push_str(&format!(
                            "{{Jump {} ({} {}) came back to this moment: from here on this \
                             is timeline {}.}} ",
                            jump.number,
                            side_name(jump.side),
                            jump.text,
                            jump.number
                        ));
                    }
                }
                text
            };
            out.push_str(&crate::game::pgn_movetext(
                start_black,
                first_number,
                &segment.moves,
                comments,
                game_result,
            ));
        }
        out
    }
}

fn side_name(side: Side) -> &'static str {
    match side.index() {
        0 => "White",
        _ => "Black",
    }
}
