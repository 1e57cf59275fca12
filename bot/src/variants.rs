//! Operator-added variant definitions: reads a directory of `*.toml` files
//! and hands their texts to the engine's [`Registry`] (the engine does no I/O).

use kodex_engine::{Registry, VariantError};
use std::path::Path;

/// Adds (or replaces, by id) every `*.toml` definition in `dir`, in file-name
/// order. Definitions may extend built-ins or each other. A file that cannot
/// be read, or a malformed definition, is an error naming the file (and the
/// key and the problem). Returns how many definitions were added.
pub fn load_variant_dir(registry: &mut Registry, dir: &Path) -> Result<usize, VariantError> {
    let io_error = |file: &Path, e: std::io::Error| VariantError {
        file: file.display().to_string(),
        key: String::new(),
        problem: e.to_string(),
    };
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| io_error(dir, e))?
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|x| x == "toml"))
        .collect();
    paths.sort();
    let mut files = Vec::with_capacity(paths.len());
    for path in &paths {
        let text = std::fs::read_to_string(path).map_err(|e| io_error(path, e))?;
        files.push((path.display().to_string(), text));
    }
    registry.add_definitions(&files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_toml_files_of_a_directory() {
        let dir = std::env::temp_dir().join(format!("kodex-bot-variants-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("base.toml"),
            "id = \"base\"\nextends = \"chess\"\n",
        )
        .unwrap();
        std::fs::write(
            dir.join("child.toml"),
            "id = \"child\"\nextends = \"base\"\n",
        )
        .unwrap();
        std::fs::write(dir.join("notes.txt"), "not a definition").unwrap();
        let mut registry = Registry::builtin();
        assert_eq!(load_variant_dir(&mut registry, &dir), Ok(2));
        assert!(registry.get("child").is_some());
        let missing = load_variant_dir(&mut registry, &dir.join("missing")).unwrap_err();
        assert!(missing.file.ends_with("missing"), "{missing}");
        std::fs::remove_dir_all(&dir).ok();
    }
}
