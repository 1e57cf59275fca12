//! The layering of the service and of the engine, read from their sources
//! (see `kodex_tests::structure`): no import cycle anywhere in
//! `bot/src/service`; the kernel imports nothing above it; a command imports
//! the kernel and the presentation, never another command. In
//! `engine/src` no cycle but a child's imports from its own parent (the
//! `impl` blocks of a parent's type in its children).

use kodex_tests::structure::{describe, CycleRules, ModuleGraph};
use std::path::Path;

fn service() -> ModuleGraph {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../bot/src/service");
    ModuleGraph::read(&dir, "service").expect("the service's sources read")
}

#[test]
fn the_service_has_no_import_cycle() {
    let graph = service();
    assert!(graph.modules.len() > 20, "{:?}", graph.modules);
    let cycles = graph.cycles(CycleRules::default());
    assert!(cycles.is_empty(), "{}", describe(&cycles));
}

#[test]
fn the_engine_has_no_import_cycle_but_parent_and_child() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../engine/src");
    let graph = ModuleGraph::read(&dir, "").expect("the engine's sources read");
    assert!(graph.modules.len() > 60, "{:?}", graph.modules);
    let cycles = graph.cycles(CycleRules {
        allow_child_to_parent: true,
    });
    assert!(cycles.is_empty(), "{}", describe(&cycles));
}

/// The layer of a module of the service: 0 the kernel, 1 the presentation,
/// 2 a command (folder), 3 the routing on top.
fn layer(module: &str) -> (usize, Option<&str>) {
    let parts: Vec<&str> = module.split("::").collect();
    match parts.get(1).copied() {
        Some("kernel") => (0, None),
        Some("present") => (1, None),
        Some("commands") => (2, parts.get(2).copied()),
        _ => (3, None),
    }
}

#[test]
fn the_kernel_is_below_the_presentation_below_the_commands_which_import_no_other_command() {
    let graph = service();
    let wrong: Vec<String> = graph
        .imports
        .iter()
        .filter(|import| {
            let (from, from_command) = layer(&import.from);
            let (to, to_command) = layer(&import.to);
            // Upward, or sideways between two commands (`commands/mod.rs`
            // itself only declares them).
            from < to || (from == 2 && to == 2 && from_command != to_command)
        })
        .map(|import| import.to_string())
        .collect();
    assert!(
        wrong.is_empty(),
        "imports against the layers:\n{}",
        wrong.join("\n")
    );
}
