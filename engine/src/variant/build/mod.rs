//! Compiling a read definition ([`RawVariant`]) into a checked
//! [`VariantDef`]. [`build`] reads the board first ([`board`]: size,
//! geometry, holes, zones), then the pieces ([`pieces`]), then each
//! mechanic's keys in its own module: the palace (Janggi), royal pieces and
//! their squares, seats and teams, captures (explosions, transforms, flags),
//! drops and boards, promotion, time travel, and the start ([`setup`]).
//! Each part checks its keys against what came before it; the first
//! problem found is the error.

mod board;
mod captures;
mod drops;
mod palace;
mod pieces;
mod promotion;
mod royals;
mod seats;
mod setup;
mod travel;

use super::raw::RawVariant;
use super::{VariantDef, VariantError};
use crate::geometry::Geometry;
use std::collections::BTreeMap;

/// What every part of [`build`] reads: the file (for errors), the board,
/// its zones, and the piece letters in type order.
struct Context<'a> {
    file: &'a str,
    geometry: Geometry,
    zones: BTreeMap<String, Vec<usize>>,
    /// Empty until [`pieces::pieces`] has read the pieces.
    letters: Vec<char>,
}

impl Context<'_> {
    /// The error for `key` of this file.
    fn err(&self, key: &str, problem: String) -> VariantError {
        VariantError {
            file: self.file.to_string(),
            key: key.to_string(),
            problem,
        }
    }

    /// The squares `names` lists: squares (`a1`), rectangles (`a1:h1`) and
    /// zones of this board.
    fn squares(&self, key: &str, names: &[String]) -> Result<Vec<usize>, VariantError> {
        let geometry = &self.geometry;
        let mut out = Vec::new();
        for name in names {
            if let Some(zone) = self.zones.get(name) {
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
                    return Err(self.err(
                        key,
                        format!("`{name}` is not a square, a range a1:h1 or a zone of this board"),
                    ))
                }
            }
        }
        Ok(out)
    }

    /// The piece type of a one-letter name (either case).
    fn index_of(&self, c: &str) -> Option<usize> {
        let mut it = c.chars();
        let ch = it.next()?.to_ascii_lowercase();
        if it.next().is_some() {
            return None;
        }
        self.letters.iter().position(|l| *l == ch)
    }

    /// The piece types of `letters`, or an error for `key` naming the first
    /// that is not a piece of this variant.
    fn types_of(&self, key: &str, letters: &[String]) -> Result<Vec<usize>, VariantError> {
        letters
            .iter()
            .map(|letter| {
                self.index_of(letter).ok_or_else(|| {
                    self.err(key, format!("`{letter}` is not a piece of this variant"))
                })
            })
            .collect()
    }
}

/// Checks a definition and compiles it.
pub(super) fn build(file: &str, mut raw: RawVariant) -> Result<VariantDef, VariantError> {
    let mut cx = board::context(file, &raw)?;
    let (mut pieces, raw_palace) = pieces::pieces(&mut cx, &raw)?;
    let palace = palace::build_palace(
        &raw,
        &raw_palace,
        &cx.letters,
        &cx.geometry,
        &cx.zones,
        &mut pieces,
    )
    .map_err(|(key, problem)| cx.err(&key, problem))?;
    pieces::check_royals(&cx, &raw, &pieces)?;
    let command_zone = seats::command_zone(&cx, &raw, &pieces)?;
    let command_regions = seats::command_regions(&cx, &raw)?;
    captures::check_transforms(&cx, &raw)?;
    let royal_squares = royals::squares(&cx, &raw)?;
    let pawn_of_pawns = promotion::pawn_of_pawns(&cx, &raw, &pieces)?;
    let explosion_immune = captures::explosion_immune(&cx, &raw)?;
    let style = board::style(&cx, &raw)?;
    let promotion_rank = promotion::rank(&cx, &raw)?;
    drops::check(&cx, &raw)?;
    let flag_squares = cx.squares("flag_squares", &raw.flag_squares)?;
    let marked = cx.squares("marked", &raw.marked)?;
    let thrones = seats::thrones(&cx, &raw)?;
    let (crossings, crossing_groups) = seats::crossings(&cx, &raw)?;
    let armies = seats::armies(&cx, &raw)?;
    let colors = seats::colors(&cx, &raw)?;
    let setup = raw
        .setup
        .take()
        .map(|setup| setup::build_setup(setup, &pieces, raw.ranks))
        .transpose()
        .map_err(|problem| cx.err("setup", problem))?;
    let boards = drops::boards(&cx, &raw)?;
    let seats = seats::seats(&cx, &raw)?;
    let teams = seats::teams(&cx, &raw)?;
    travel::check(&cx, &raw)?;
    let royal_leap = royals::leap(&cx, &raw, &pieces)?;
    let (start_counts, start_types) = setup::start_census(&raw.start, &cx.geometry, &pieces);
    let Context {
        geometry, zones, ..
    } = cx;
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
            crate::view::Visibility::Fog
        } else {
            crate::view::Visibility::Full
        }),
        promotion_rank,
        marked,
        armies,
        colors,
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
        royal_only: royal_squares.only,
        royal_draw: royal_squares.draw,
        royal_entry: royal_squares.entry,
        spare_royals: raw.spare_royals,
        royal_swap: raw.royal_swap,
        pawn_of_pawns,
        command_zone,
        command_regions,
        captured_mates: raw.captured_mates,
        king_capture: raw.king_capture,
        thrones,
    };
    Ok(def)
}
