//! Reading a definition: the TOML tables as written, `extends` merged in,
//! and the fingerprint of the result.

use super::def::{DropMate, FlagRule, PromotedCapture, PromotionChoice, TimeTravel, Verdict};
use super::{VariantDef, VariantError};
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

pub(super) const CLASSICAL_ORDER: &str = "kqrbnp";

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
    let mut def = super::build::build(file, raw)?;
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
