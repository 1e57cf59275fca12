//! The historical games and the teaching ladder (issue 14): every built-in
//! loads, perft vectors of the start positions (Fairy-Stockfish's numbers
//! where it has our rules: tests/differential_fsf.py), and a rule test per
//! mechanic on hand-made positions.

use kodex_engine::{Game, Registry, Start, VariantError};

fn load_all() -> Vec<VariantError> {
    let mut registry = Registry::builtin();
    let files: Vec<(String, String)> = kodex_engine::variant::BUILTIN
        .iter()
        .map(|(file, text)| (file.to_string(), text.to_string()))
        .collect();
    match registry.add_definitions(&files) {
        Ok(_) => Vec::new(),
        Err(e) => vec![e],
    }
}

#[test]
fn every_new_builtin_loads() {
    assert_eq!(load_all(), Vec::new());
    let registry = Registry::builtin();
    for id in [
        "shatranj",
        "chaturanga",
        "giveaway",
        "lesson1",
        "lesson2",
        "lesson3",
        "lesson4",
        "lesson5",
        "lesson6",
        "grand",
        "greatchess",
        "semedo",
        "diana",
    ] {
        let variant = registry.get(id).unwrap_or_else(|| panic!("{id} is missing"));
        Game::new(variant, Start::Standard).unwrap();
    }
}

