//! Variant definitions: TOML in, checked rules out.

use std::fmt;

/// A compiled variant definition.
#[derive(Debug)]
pub struct VariantDef {}

/// A malformed variant definition: the file, the key and the problem.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct VariantError {
    /// The file (or built-in name) the definition came from.
    pub file: String,
    /// The offending key (`pieces.archbishop.betza`), empty when the file as a whole is wrong.
    pub key: String,
    /// What is wrong.
    pub problem: String,
}

impl fmt::Display for VariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.key.is_empty() {
            write!(f, "{}: {}", self.file, self.problem)
        } else {
            write!(f, "{}: `{}`: {}", self.file, self.key, self.problem)
        }
    }
}

impl std::error::Error for VariantError {}
