//! [`Variant`], a compiled definition, and the [`Registry`] of them: the
//! built-ins and an operator's files.

use super::{parse_definition, VariantDef, VariantError, BUILTIN};
use crate::tables::AnyTables;
use crate::view::Visibility;
use std::fmt;
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// A variant definition (built-in or loaded from a TOML file), with its
/// lookup tables compiled on first use. Cheap to clone; clones share the tables.
#[derive(Clone)]
pub struct Variant(pub(crate) Arc<VariantDef>, Arc<OnceLock<AnyTables>>);

impl fmt::Debug for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Variant").field(&self.0).finish()
    }
}

/// The built-in variants and any loaded from files.
#[derive(Clone, Debug)]
pub struct Registry {
    variants: Vec<Variant>,
}

fn builtin_text(name: &str) -> Option<String> {
    BUILTIN
        .iter()
        .find(|(file, _)| file.trim_end_matches(".toml") == name)
        .map(|(_, text)| text.to_string())
}

/// The built-in variants, compiled once.
fn builtins() -> &'static [Variant] {
    static BUILTINS: OnceLock<Vec<Variant>> = OnceLock::new();
    BUILTINS.get_or_init(|| {
        BUILTIN
            .iter()
            .filter_map(|(file, text)| {
                // Built-ins are checked by tests; a broken one is skipped rather than fatal.
                compile_definition(file, text, &builtin_text).ok()
            })
            .map(Variant::new)
            .collect()
    })
}

/// The built-in variant that `name` (an id) would shadow: one whose id,
/// alias or Fairy-Stockfish name it is.
fn builtin_named(name: &str) -> Option<&'static Variant> {
    let name = name.to_lowercase();
    builtins().iter().find(|v| {
        v.0.id == name
            || v.0.uci_name == name
            || v.0.aliases.iter().any(|a| a.to_lowercase() == name)
    })
}

/// Reads a definition and checks that its start position reads.
fn compile_definition(
    file: &str,
    text: &str,
    lookup: &dyn Fn(&str) -> Option<String>,
) -> Result<VariantDef, VariantError> {
    let def = parse_definition(file, text, lookup)?;
    crate::fen::check_start(&def).map_err(|e| VariantError {
        file: file.to_string(),
        key: "start".to_string(),
        problem: e.to_string(),
    })?;
    Ok(def)
}

impl Registry {
    /// The built-in variants (`config/variants/*.toml`, compiled in).
    pub fn builtin() -> Registry {
        Registry {
            variants: builtins().to_vec(),
        }
    }

    /// Adds several definitions given as `(file, text)` pairs, in order:
    /// what an operator's variants directory holds (the bot reads the
    /// files). A definition may extend a built-in or another of `files`,
    /// named by its file stem, under an id of its own. A malformed
    /// definition is an error naming the file, the key and the problem; so
    /// is one whose id is a built-in variant's (its id, alias or
    /// Fairy-Stockfish name: a built-in is never replaced, so no definition
    /// turns a running fog-of-war game public) or that another of `files`
    /// already defined. Returns how many were added.
    ///
    /// ```
    /// use kodex_engine::Registry;
    /// let mut registry = Registry::builtin();
    /// let files = [
    ///     ("base.toml".to_string(), "id = \"base\"\nextends = \"chess\"\n".to_string()),
    ///     ("child.toml".to_string(), "id = \"child\"\nextends = \"base\"\n".to_string()),
    /// ];
    /// assert_eq!(registry.add_definitions(&files), Ok(2));
    /// assert!(registry.get("child").is_some());
    /// ```
    pub fn add_definitions(&mut self, files: &[(String, String)]) -> Result<usize, VariantError> {
        let lookup = |name: &str| -> Option<String> {
            files
                .iter()
                .find(|(file, _)| Path::new(file).file_stem().is_some_and(|s| s == name))
                .map(|(_, text)| text.clone())
                .or_else(|| builtin_text(name))
        };
        // All or nothing: every file is read and checked before any is added.
        let mut added: Vec<(&str, Variant)> = Vec::with_capacity(files.len());
        for (file, text) in files {
            let variant = Variant::new(compile_definition(file, text, &lookup)?);
            let refuse = |problem: String| VariantError {
                file: file.clone(),
                key: "id".to_owned(),
                problem,
            };
            if let Some(builtin) = builtin_named(variant.id()) {
                let id = builtin.id();
                return Err(refuse(format!(
                    "`{}` is the built-in variant `{id}`, which a definition may not \
                     replace (a game begun under it would change its rules); extend it \
                     under a new id instead: `id = \"my{id}\"`, `extends = \"{id}\"`",
                    variant.id(),
                )));
            }
            if let Some((other, _)) = added.iter().find(|(_, v)| v.id() == variant.id()) {
                return Err(refuse(format!(
                    "`{}` is defined twice (also in {other})",
                    variant.id()
                )));
            }
            added.push((file, variant));
        }
        for (_, variant) in added {
            match self.variants.iter_mut().find(|v| v.id() == variant.id()) {
                Some(slot) => *slot = variant,
                None => self.variants.push(variant),
            }
        }
        Ok(files.len())
    }

    /// Adds one definition from text (`file` names it in errors), replacing
    /// any variant of the same id — built-ins too (tests and tools; an
    /// operator's files go through [`Registry::add_definitions`]).
    pub fn add_definition(&mut self, file: &str, text: &str) -> Result<&Variant, VariantError> {
        let variant = Variant::new(compile_definition(file, text, &builtin_text)?);
        let index = match self.variants.iter().position(|v| v.id() == variant.id()) {
            Some(i) => {
                self.variants[i] = variant;
                i
            }
            None => {
                self.variants.push(variant);
                self.variants.len() - 1
            }
        };
        Ok(&self.variants[index])
    }

    /// A variant by id, alias or Fairy-Stockfish name, case-insensitive.
    /// An id wins over another variant's alias or Fairy-Stockfish name, so a
    /// stored game's variant id always names that variant.
    pub fn get(&self, name: &str) -> Option<&Variant> {
        let name = name.trim().to_lowercase();
        self.variants.iter().find(|v| v.0.id == name).or_else(|| {
            self.variants.iter().find(|v| {
                v.0.uci_name == name || v.0.aliases.iter().any(|a| a.to_lowercase() == name)
            })
        })
    }

    /// All variants, in catalogue order.
    pub fn all(&self) -> &[Variant] {
        &self.variants
    }
}

impl Variant {
    pub(crate) fn new(def: VariantDef) -> Variant {
        Variant(Arc::new(def), Arc::new(OnceLock::new()))
    }
    /// The id (`chess`, `atomic`, …).
    pub fn id(&self) -> &str {
        &self.0.id
    }
    /// What identifies this definition's rules: 32 hex digits, the same for
    /// the same definition in every process and build of the engine (the
    /// definition's TOML values, `extends` merged in, in a canonical
    /// encoding, hashed without a key), different when anything but its
    /// names, rules texts and aliases changed — an operator's edit, or a
    /// parent's. A stored game keeps the fingerprint it began under.
    pub fn fingerprint(&self) -> &str {
        &self.0.fingerprint
    }
    /// The Fairy-Stockfish `UCI_Variant` name.
    pub fn uci_name(&self) -> &str {
        &self.0.uci_name
    }
    /// The name in `lang` (`en`, `ru`), falling back to English, then the id.
    pub fn name(&self, lang: &str) -> &str {
        self.0
            .names
            .get(lang)
            .or_else(|| self.0.names.get("en"))
            .map(String::as_str)
            .unwrap_or(&self.0.id)
    }
    /// The player-facing rules text in `lang`, falling back to English.
    pub fn rules_text(&self, lang: &str) -> &str {
        self.0
            .rules
            .get(lang)
            .or_else(|| self.0.rules.get("en"))
            .map(String::as_str)
            .unwrap_or("")
    }
    /// Whether players see different things (fog of war, Kriegspiel): moves
    /// go privately, the public sees only [`crate::Audience::Public`] views.
    pub fn hidden_information(&self) -> bool {
        self.0.visibility != Visibility::Full
    }
    /// The setup phase before play, if the variant has one (see [`crate::setup`]).
    pub fn setup(&self) -> Option<&crate::setup::SetupDef> {
        self.0.setup.as_ref()
    }
    /// What each player sees during play.
    pub fn visibility(&self) -> Visibility {
        self.0.visibility
    }
    /// Whether start positions are Chess960 (a Scharnagl number is shown).
    pub fn is_chess960(&self) -> bool {
        self.0.chess960
    }
    /// Whether the variant has pockets and drops.
    pub fn has_drops(&self) -> bool {
        self.0.drops
    }
    /// Number of players.
    pub fn players(&self) -> usize {
        self.0.seats as usize
    }
    /// The definition.
    pub fn definition(&self) -> &VariantDef {
        &self.0
    }
    /// `san` with Russian piece letters (`Nf3` → `Кf3`, `exd8=Q` →
    /// `exd8=Ф`, `N@f3` → `К@f3`) for the pieces that have them; castling,
    /// squares and pieces without a Russian letter stay as they are. What it
    /// writes, [`crate::Game::parse_move`] reads back.
    pub fn russian_san(&self, san: &str) -> String {
        if san.starts_with("O-O") {
            return san.to_owned();
        }
        let mut out = String::with_capacity(san.len() + 4);
        for c in san.chars() {
            let russian = c
                .is_ascii_uppercase()
                .then(|| self.0.piece_by_letter(c))
                .flatten()
                .and_then(|piece| self.0.pieces[piece].russian.as_deref());
            match russian {
                Some(name) => out.push_str(name),
                None => out.push(c),
            }
        }
        out
    }
    pub(crate) fn tables(&self) -> &AnyTables {
        self.1.get_or_init(|| AnyTables::build(&self.0))
    }
}
