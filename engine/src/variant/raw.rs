//! A definition's TOML tables as written, before they are checked.

use super::def::{DropMate, FlagRule, PromotedCapture, PromotionChoice, TimeTravel, Verdict};
use crate::setup::rule::{FirstMove, SetupMode, SetupRule};
use crate::view::Visibility;
use serde::Deserialize;
use std::collections::BTreeMap;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawPiece {
    pub(super) name: Option<String>,
    pub(super) betza: String,
    #[serde(default)]
    pub(super) royal: bool,
    pub(super) art: Option<String>,
    #[serde(default)]
    pub(super) pawn: bool,
    #[serde(default)]
    pub(super) promotes_to: Vec<String>,
    pub(super) initial_ranks: Option<Vec<u8>>,
    pub(super) en_passant_ranks: Option<Vec<u8>>,
    pub(super) drop_ranks: Option<[u8; 2]>,
    pub(super) ru: Option<String>,
    #[serde(default)]
    pub(super) castles: bool,
    /// Betza movement allowed only along marked lines.
    pub(super) lines: Option<String>,
    /// Zone names, one per side, the piece may not leave.
    pub(super) confined: Option<[String; 2]>,
    /// Letters of pieces a hopper may not jump over.
    #[serde(default)]
    pub(super) hops_not_over: Vec<String>,
    /// Letters of pieces it may not capture.
    #[serde(default)]
    pub(super) captures_not: Vec<String>,
    pub(super) royal_twin: Option<String>,
    pub(super) reverts_to: Option<String>,
    pub(super) in_hand: Option<String>,
    #[serde(default = "yes")]
    pub(super) mating_drop: bool,
    pub(super) drop_file_limit: Option<u8>,
    pub(super) seat: Option<u8>,
    pub(super) san: Option<String>,
    #[serde(default)]
    pub(super) sideways: bool,
    pub(super) forward: Option<[String; 2]>,
    /// The first side's promotion squares, instead of the last ranks.
    pub(super) promotion_squares: Option<Vec<String>>,
}

fn yes() -> bool {
    true
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawVariant {
    pub(super) id: String,
    #[serde(default)]
    pub(super) aliases: Vec<String>,
    pub(super) uci: Option<String>,
    #[serde(default)]
    pub(super) names: BTreeMap<String, String>,
    #[serde(default)]
    pub(super) rules: BTreeMap<String, String>,
    pub(super) files: u8,
    pub(super) ranks: u8,
    /// `"hex"`: Gliński's 91-cell hexagon on the 11 × 11 index, with hexagonal Betza atoms.
    pub(super) geometry: Option<String>,
    /// The files' letters people read, when not `a`, `b`, … (four-handed chess skips `j`).
    pub(super) file_letters: Option<String>,
    #[serde(default)]
    pub(super) holes: Vec<String>,
    #[serde(default)]
    pub(super) zones: BTreeMap<String, Vec<String>>,
    pub(super) start: String,
    pub(super) pieces: BTreeMap<String, toml::Value>,
    #[serde(default)]
    pub(super) castling: bool,
    #[serde(default)]
    pub(super) chess960: bool,
    #[serde(default)]
    pub(super) drops: bool,
    #[serde(default)]
    pub(super) drop_mate: DropMate,
    #[serde(default)]
    pub(super) promoted_capture: PromotedCapture,
    #[serde(default)]
    pub(super) partner_pockets: bool,
    #[serde(default)]
    pub(super) atomic: bool,
    #[serde(default)]
    pub(super) explosion_immune: Vec<String>,
    #[serde(default)]
    pub(super) check_limit: u8,
    #[serde(default)]
    pub(super) flag_squares: Vec<String>,
    #[serde(default)]
    pub(super) flag_rule: FlagRule,
    #[serde(default)]
    pub(super) must_capture: bool,
    pub(super) extinction: Option<Verdict>,
    #[serde(default)]
    pub(super) stalemate: Verdict,
    pub(super) kingless_stalemate: Option<Verdict>,
    #[serde(default)]
    pub(super) checks_forbidden: bool,
    /// The old spelling of `visibility = "fog"`.
    #[serde(default)]
    pub(super) fog: bool,
    pub(super) visibility: Option<Visibility>,
    pub(super) setup: Option<RawSetup>,
    pub(super) time_travel: Option<TimeTravel>,
    pub(super) promotion_rank: Option<u8>,
    #[serde(default)]
    pub(super) marked: Vec<String>,
    #[serde(default)]
    pub(super) armies: Vec<String>,
    #[serde(default)]
    pub(super) colors: Vec<String>,
    #[serde(default)]
    pub(super) crossings: Vec<String>,
    #[serde(default)]
    pub(super) crossing_pieces: Vec<Vec<String>>,
    #[serde(default)]
    pub(super) privileged_pawn: bool,
    pub(super) style: Option<String>,
    /// The team of each side, by side index.
    pub(super) teams: Option<Vec<u8>>,
    pub(super) seats: Option<u8>,
    // Historical games (issue 14).
    #[serde(default)]
    pub(super) bare_king: bool,
    #[serde(default)]
    pub(super) promotion_wins: bool,
    pub(super) royal_leap: Option<String>,
    #[serde(default)]
    pub(super) promotion: PromotionChoice,
    #[serde(default)]
    pub(super) castling_swap: bool,
    #[serde(default)]
    pub(super) capture_transforms: bool,
    #[serde(default)]
    pub(super) royal_only: Vec<String>,
    #[serde(default)]
    pub(super) royal_draw: [Vec<String>; 2],
    #[serde(default)]
    pub(super) royal_entry: [Vec<String>; 2],
    #[serde(default)]
    pub(super) spare_royals: bool,
    #[serde(default)]
    pub(super) royal_swap: bool,
    pub(super) pawn_of_pawns: Option<RawPawnOfPawns>,
    #[serde(default)]
    pub(super) lines: Vec<String>,
    pub(super) river: Option<u8>,
    #[serde(default)]
    pub(super) pass: bool,
    #[serde(default)]
    pub(super) bikjang: bool,
    pub(super) counting: Option<RawCounting>,
    pub(super) boards: Option<u8>,
    // Four-handed chess (issue 13).
    #[serde(default)]
    pub(super) command_zone: Vec<String>,
    /// Each seat's arm, in seat order (issue 31).
    #[serde(default)]
    pub(super) command_regions: Vec<String>,
    #[serde(default)]
    pub(super) captured_mates: bool,
    #[serde(default)]
    pub(super) king_capture: bool,
    #[serde(default)]
    pub(super) thrones: Vec<String>,
}

/// A definition's `[pawn_of_pawns]` table.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawPawnOfPawns {
    pub(super) piece: String,
    pub(super) returns: [String; 2],
    pub(super) becomes: String,
}

/// A definition's `[counting]` table.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawCounting {
    pub(super) values: BTreeMap<String, f64>,
    #[serde(default)]
    pub(super) bonus: [f64; 2],
}

/// A definition's `[setup]` table.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawSetup {
    #[serde(default)]
    pub(super) mode: SetupMode,
    /// Both sides' army (upper-case letters), or
    pub(super) army: Option<String>,
    /// one per side.
    pub(super) armies: Option<[String; 2]>,
    pub(super) ranks: Option<[u8; 2]>,
    pub(super) pawn_ranks: Option<[u8; 2]>,
    #[serde(default)]
    pub(super) rules: Vec<SetupRule>,
    #[serde(default)]
    pub(super) first_move: FirstMove,
}
