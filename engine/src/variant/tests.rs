//! The built-in definitions parse; bad keys are errors that name them.

use super::*;

fn lookup(name: &str) -> Option<String> {
    BUILTIN
        .iter()
        .find(|(f, _)| f.trim_end_matches(".toml") == name)
        .map(|(_, t)| t.to_string())
}

#[test]
fn every_builtin_parses() {
    for (file, text) in BUILTIN {
        let def = parse_definition(file, text, &lookup).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            def.names.contains_key("en") && def.names.contains_key("ru"),
            "{file} names"
        );
        assert!(
            def.rules.contains_key("en") && def.rules.contains_key("ru"),
            "{file} rules"
        );
    }
}

#[test]
fn errors_name_file_key_and_problem() {
    let bad = "id = \"x\"\nextends = \"chess\"\n[pieces.a]\nbetza = \"Xq\"\n";
    let e = parse_definition("mine.toml", bad, &lookup).unwrap_err();
    assert_eq!(e.file, "mine.toml");
    assert_eq!(e.key, "pieces.a.betza");
    assert!(e.problem.contains("unknown piece letter"), "{e}");

    let e = parse_definition(
        "u.toml",
        "id = \"x\"\nextends = \"chess\"\nbogus = 1\n",
        &lookup,
    )
    .unwrap_err();
    assert!(e.to_string().contains("bogus"), "{e}");

    let e = parse_definition("t.toml", "this is = not toml [", &lookup).unwrap_err();
    assert!(e.problem.contains("TOML"));

    let e = parse_definition("c.toml", "id = \"x\"\nextends = \"nothing\"\n", &lookup).unwrap_err();
    assert_eq!(e.key, "extends");
}

#[test]
fn keys_of_frankfurt_whale_shogi_and_citadel_are_checked() {
    let check = |text: &str| parse_definition("k.toml", text, &lookup);
    // A royal twin must be royal.
    let e = check("id = \"x\"\nextends = \"chess\"\ncapture_transforms = true\n[pieces.n]\nroyal_twin = \"q\"\n")
        .unwrap_err();
    assert_eq!(e.key, "pieces.n.royal_twin");
    // Links name pieces of the variant.
    let e = check("id = \"x\"\nextends = \"chess\"\n[pieces.p]\nreverts_to = \"z\"\n").unwrap_err();
    assert_eq!(e.key, "pieces.p.reverts_to");
    let e =
        check("id = \"x\"\nextends = \"crazyhouse\"\n[pieces.n]\nin_hand = \"?\"\n").unwrap_err();
    assert_eq!(e.key, "pieces.n.in_hand");
    // Several royal types only where capturers change type.
    let e = check("id = \"x\"\nextends = \"chess\"\n[pieces.q]\nroyal = true\n").unwrap_err();
    assert_eq!(e.key, "pieces");
    let e = check("id = \"x\"\nextends = \"crazyhouse\"\ncapture_transforms = true\n").unwrap_err();
    assert_eq!(e.key, "capture_transforms");
    // Citadel squares must be on the board.
    let e = check("id = \"x\"\nextends = \"chess\"\nroyal_only = [\"z9\"]\n").unwrap_err();
    assert_eq!(e.key, "royal_only");
    let e =
        check("id = \"x\"\nextends = \"chess\"\nroyal_draw = [[\"a1\"], [\"q0\"]]\n").unwrap_err();
    assert_eq!(e.key, "royal_draw");
    // The built-ins read.
    for id in ["frankfurt", "whaleshogi", "citadel"] {
        let text = lookup(id).expect("built in");
        let def = check(&text).unwrap_or_else(|e| panic!("{e}"));
        assert!(def.names.contains_key("ru") && def.rules.contains_key("ru"));
    }
}
