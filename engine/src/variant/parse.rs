//! Reading a definition: its TOML, `extends` merged in, into the tables of
//! [`super::raw`], and the fingerprint of the result.

use super::raw::RawVariant;
use super::{VariantDef, VariantError};

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
