//! Variants as data: operator-added definitions, rule texts and zones.

use kodex_engine::{Game, Reason, Registry, Start, Team};

#[test]
fn an_operator_adds_a_variant_without_recompiling() {
    // What the bot reads from its variants directory: (file, text) pairs.
    let amazons = (
        "variants/amazons.toml".to_string(),
        r#"
id = "amazons"
extends = "chess"
start = "rnbakbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBAKBNR w KQkq - 0 1"
[names]
en = "Amazons"
ru = "Амазонки"
[rules]
en = "Queens are amazons (queen + knight)."
ru = "Ферзи — амазонки (ферзь + конь)."
[pieces.a]
name = "amazon"
betza = "QN"
ru = "А"
[pieces.q]
betza = "Q"
[pieces.p]
promotes_to = ["a", "r", "b", "n"]
"#
        .to_string(),
    );
    let mut registry = Registry::builtin();
    assert_eq!(
        registry
            .add_definitions(std::slice::from_ref(&amazons))
            .unwrap(),
        1
    );
    let variant = registry.get("amazons").expect("loaded").clone();
    assert_eq!(variant.name("ru"), "Амазонки");
    let mut game = Game::new(&variant, Start::Standard).unwrap();
    // The amazon jumps like a knight from d1.
    for mv in ["e4", "e5", "Ae2", "Nc6", "Ac3"] {
        game.play_text(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    }
    assert_eq!(game.history()[4].uci, "e2c3");

    let broken = (
        "variants/broken.toml".to_string(),
        "id = \"broken\"\nextends = \"chess\"\n[pieces.z]\nbetza = \"Q?\"\n".to_string(),
    );
    let err = Registry::builtin()
        .add_definitions(&[amazons, broken])
        .unwrap_err();
    assert!(err.file.ends_with("broken.toml"), "{err}");
    assert_eq!(err.key, "pieces.z.betza");

    // A start position that does not read is an error of the `start` key.
    let err = Registry::builtin()
        .add_definition(
            "f.toml",
            "id = \"x\"\nextends = \"chess\"\nstart = \"zzz\"\n",
        )
        .unwrap_err();
    assert_eq!((err.file.as_str(), err.key.as_str()), ("f.toml", "start"));
    assert!(err.problem.contains("invalid FEN"), "{err}");
}

#[test]
fn every_builtin_has_names_rules_and_plays() {
    let registry = Registry::builtin();
    let ids: Vec<&str> = registry.all().iter().map(|v| v.id()).collect();
    for id in [
        "chess",
        "chess960",
        "atomic",
        "kingofthehill",
        "threecheck",
        "crazyhouse",
        "antichess",
        "horde",
        "fogofwar",
        "kriegspiel",
        "racingkings",
    ] {
        assert!(ids.contains(&id), "{id} missing");
        let v = registry.get(id).unwrap();
        assert!(!v.rules_text("en").is_empty() && !v.rules_text("ru").is_empty());
        assert_ne!(v.name("en"), v.name("ru"));
        let g = Game::new(v, Start::Standard).unwrap();
        assert!(!g.legal_moves().is_empty());
    }
    for alias in ["3check", "fischerandom", "koth", "zh", "Three-Check"] {
        assert!(registry.get(alias).is_some(), "{alias}");
    }
}

#[test]
fn outcomes_carry_their_reason() {
    let registry = Registry::builtin();
    let play = |variant: &str, fen: &str, moves: &[&str]| {
        let mut g = Game::new(registry.get(variant).unwrap(), Start::Fen(fen.into())).unwrap();
        for m in moves {
            g.play_text(m)
                .unwrap_or_else(|e| panic!("{variant} {m}: {e}"));
        }
        g.outcome()
    };
    let hill = play(
        "kingofthehill",
        "4k3/8/8/8/8/8/4K3/8 w - - 0 1",
        &["Ke3", "Kd7", "Ke4"],
    )
    .unwrap();
    assert_eq!((hill.winner(), hill.reason), (Some(Team(0)), Reason::Hill));
    let checks = play("threecheck", "4k3/8/8/8/8/8/8/R3K3 w - - 1+3 0 1", &["Ra8"]).unwrap();
    assert_eq!(
        (checks.winner(), checks.reason),
        (Some(Team(0)), Reason::ThreeChecks)
    );
    let boom = play("atomic", "4k3/4q3/8/8/8/8/4R3/4K3 w - - 0 1", &["Rxe7"]).unwrap();
    assert_eq!(
        (boom.winner(), boom.reason),
        (Some(Team(0)), Reason::ExplodedKing)
    );
    let race = play("racingkings", "8/1K6/8/8/8/8/6k1/8 w - - 0 1", &["Kb8"]).unwrap();
    assert_eq!((race.winner(), race.reason), (Some(Team(0)), Reason::Race));
    assert_eq!(
        play("racingkings", "8/1K4k1/8/8/8/8/8/8 w - - 0 1", &["Kb8"]),
        None,
        "black may still equalise"
    );
    let drawn = play(
        "racingkings",
        "8/1K4k1/8/8/8/8/8/8 w - - 0 1",
        &["Kb8", "Kg8"],
    )
    .unwrap();
    assert_eq!((drawn.winner(), drawn.reason), (None, Reason::Race));
    let gone = play("antichess", "8/8/8/8/8/8/1p6/2B5 w - - 0 1", &["Bxb2"]).unwrap();
    assert_eq!(
        (gone.winner(), gone.reason),
        (Some(Team(1)), Reason::NoPieces)
    );
    let stale = play("chess", "7k/8/6Q1/8/8/8/8/K7 w - - 0 1", &["Qf7"]).unwrap();
    assert_eq!((stale.winner(), stale.reason), (None, Reason::Stalemate));
    assert_eq!(
        play("chess", "7k/8/8/8/8/8/5n2/K3R3 w - - 0 1", &["Rf1"]),
        None
    );
    let minor = play("chess", "7k/8/8/8/8/8/5n2/K3B3 w - - 0 1", &["Bxf2"]).unwrap();
    assert_eq!(minor.reason, Reason::InsufficientMaterial, "{minor:?}");
    let mut g = Game::new(registry.get("chess").unwrap(), Start::Standard).unwrap();
    for m in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"] {
        g.play_text(m).unwrap();
    }
    assert_eq!(g.outcome().map(|o| o.reason), Some(Reason::Repetition));
    assert!(g.undo());
    assert_eq!(g.outcome(), None);
}

#[test]
fn an_outcome_ranks_the_teams_sides_play_for() {
    let registry = Registry::builtin();
    let chess = registry.get("chess").expect("chess").definition();
    assert_eq!(chess.team_of(kodex_engine::Side::WHITE), Team(0));
    assert_eq!(chess.team_of(kodex_engine::Side::BLACK), Team(1));

    // A definition may name the teams; the outcome then names the winner's team.
    let mut registry = Registry::builtin();
    let swapped = registry
        .add_definition(
            "swapped.toml",
            "id = \"swapped\"\nextends = \"chess\"\nteams = [1, 0]\n",
        )
        .expect("definition")
        .clone();
    let mut game = Game::new(&swapped, Start::Standard).unwrap();
    for mv in ["f3", "e5", "g4", "Qh4#"] {
        game.play_text(mv).unwrap();
    }
    let mate = game.outcome().expect("mate");
    assert_eq!(mate.winner(), Some(Team(0)), "black plays for team 0");
    assert_eq!(mate.standing, kodex_engine::Standing::Win(Team(0)));
    assert_eq!(mate.standing.place(Team(1)), Some(2));

    for (teams, problem) in [
        ("[0]", "one team per side"),
        ("[0, 7]", "numbered"),
        ("[1, 1]", "two teams"),
    ] {
        let err = Registry::builtin()
            .add_definition(
                "bad.toml",
                &format!("id = \"bad\"\nextends = \"chess\"\nteams = {teams}\n"),
            )
            .unwrap_err();
        assert_eq!(err.key, "teams");
        assert!(err.problem.contains(problem), "{err}");
    }
}

#[test]
fn an_operators_file_may_not_replace_a_built_in_variant() {
    // A fog-of-war game begun under the built-in must not turn public
    // because a file defines `fogofwar` again with full visibility.
    let public_fog = (
        "variants/fog.toml".to_string(),
        "id = \"fogofwar\"\nextends = \"chess\"\nvisibility = \"full\"\n".to_string(),
    );
    let mut registry = Registry::builtin();
    let err = registry
        .add_definitions(std::slice::from_ref(&public_fog))
        .unwrap_err();
    assert_eq!(
        (err.file.as_str(), err.key.as_str()),
        ("variants/fog.toml", "id")
    );
    assert!(err.problem.contains("`fogofwar`"), "{err}");
    assert!(err.problem.contains("built-in"), "{err}");
    let shown = err.to_string();
    assert!(
        shown.starts_with("variants/fog.toml: `id`: `fogofwar`"),
        "{shown}"
    );
    // Nothing of the refused folder was added, not even its good files.
    let good = (
        "variants/a.toml".to_string(),
        "id = \"darkish\"\nextends = \"fogofwar\"\n".to_string(),
    );
    let err = registry
        .add_definitions(&[good.clone(), public_fog])
        .unwrap_err();
    assert!(err.file.ends_with("fog.toml"), "{err}");
    assert!(registry.get("darkish").is_none());
    assert!(registry.get("fogofwar").unwrap().hidden_information());

    // An alias or Fairy-Stockfish name of a built-in is refused too: the
    // id would name two variants.
    for (id, builtin) in [("glinski", "hexagonal"), ("Fog", "fogofwar")] {
        let file = (
            "x.toml".to_string(),
            format!("id = \"{id}\"\nextends = \"chess\"\n"),
        );
        let err = Registry::builtin().add_definitions(&[file]).unwrap_err();
        assert_eq!(err.key, "id", "{err}");
        assert!(err.problem.contains(&format!("`{builtin}`")), "{err}");
    }

    // Extending a built-in under a new id stays allowed.
    assert_eq!(registry.add_definitions(&[good]), Ok(1));
    let darkish = registry.get("darkish").expect("added");
    assert!(darkish.hidden_information());
    assert!(registry.get("fogofwar").unwrap().hidden_information());

    // One folder defining an id twice is refused, naming both files.
    let twice = [
        (
            "v/one.toml".to_string(),
            "id = \"same\"\nextends = \"chess\"\n".to_string(),
        ),
        (
            "v/two.toml".to_string(),
            "id = \"same\"\nextends = \"atomic\"\n".to_string(),
        ),
    ];
    let err = Registry::builtin().add_definitions(&twice).unwrap_err();
    assert_eq!((err.file.as_str(), err.key.as_str()), ("v/two.toml", "id"));
    assert!(err.problem.contains("v/one.toml"), "{err}");
}

/// A definition that extends nothing, so its fingerprint does not change
/// when a built-in's file does.
const PINNED: &str = r#"
id = "pinned"
files = 4
ranks = 4
start = "k3/4/4/R2K w - - 0 1"
[pieces.k]
betza = "K"
royal = true
art = "king"
[pieces.r]
betza = "R"
art = "rook"
"#;

#[test]
fn a_definition_has_a_fingerprint_that_only_its_rules_change() {
    let add = |text: &str| {
        Registry::builtin()
            .add_definition("f.toml", text)
            .expect("reads")
            .fingerprint()
            .to_owned()
    };
    let pinned = add(PINNED);
    assert_eq!(pinned.len(), 32);
    assert!(pinned.chars().all(|c| c.is_ascii_hexdigit()), "{pinned}");
    // The same in every process and build: the value is pinned (and was
    // checked against an independent implementation of the encoding).
    assert_eq!(pinned, PINNED_FINGERPRINT);
    // The same definition written otherwise: keys reordered, comments,
    // spaces, quoting, an inline table.
    let rewritten = r#"# the same variant
ranks=4
files   =   4
id = 'pinned'
pieces = { r = { art = "rook", betza = 'R' }, k = { royal = true, betza = "K", art = "king" } }
start = "k3/4/4/R2K w - - 0 1"
"#;
    assert_eq!(add(rewritten), pinned);
    // Names, rules texts and aliases tell people about the variant only.
    let described =
        format!("{PINNED}\n[names]\nen = \"Pinned\"\n[rules]\nen = \"Mate with the rook.\"\n");
    let described = described.replace("id = \"pinned\"", "id = \"pinned\"\naliases = [\"pin\"]");
    assert_eq!(add(&described), pinned);
    // Anything else changes it.
    for changed in [
        PINNED.replace("id = \"pinned\"", "id = \"pinned\"\nvisibility = \"fog\""),
        PINNED
            .replace("R2K", "3K")
            .replace("[pieces.r]\nbetza = \"R\"\nart = \"rook\"\n", ""),
        PINNED.replace("betza = \"R\"", "betza = \"Q\""),
        PINNED.replace("id = \"pinned\"", "id = \"pinned2\""),
    ] {
        assert_ne!(add(&changed), pinned, "{changed}");
    }

    // A resolved definition: a child's fingerprint follows its parent's.
    let registry = Registry::builtin();
    let fog = registry.get("fogofwar").unwrap().fingerprint().to_owned();
    let chess = registry.get("chess").unwrap().fingerprint().to_owned();
    assert_ne!(fog, chess);
    let mut operator = Registry::builtin();
    let files = [
        (
            "v/base.toml".to_string(),
            "id = \"base\"\nextends = \"fogofwar\"\n".to_string(),
        ),
        (
            "v/child.toml".to_string(),
            "id = \"child\"\nextends = \"base\"\n".to_string(),
        ),
    ];
    operator.add_definitions(&files).unwrap();
    let child = operator.get("child").unwrap().fingerprint().to_owned();
    let mut again = Registry::builtin();
    again.add_definitions(&files).unwrap();
    assert_eq!(again.get("child").unwrap().fingerprint(), child);
    let public_base = [
        (
            "v/base.toml".to_string(),
            "id = \"base\"\nextends = \"fogofwar\"\nvisibility = \"full\"\n".to_string(),
        ),
        files[1].clone(),
    ];
    let mut edited = Registry::builtin();
    edited.add_definitions(&public_base).unwrap();
    assert_ne!(edited.get("child").unwrap().fingerprint(), child);
}

/// [`PINNED`]'s fingerprint.
const PINNED_FINGERPRINT: &str = "05c4302018af4014f0e3c853c4851d92";
