//! An operator's variants folder cannot turn a running hidden game public:
//! a file may not redefine a built-in variant, and a stored game whose
//! variant's definition changed (or is gone) since it began is neither
//! shown nor played, to anyone, until the definition it began under is
//! back. Console chats on a temporary database and a temporary folder.

use crate::console_support::{has, temp_dir, Chat};
use kodex_bot::store::Status;
use kodex_engine::Registry;
use std::path::{Path, PathBuf};

/// The operator's fog variant, extending the built-in fog of war.
const MY_FOG: &str = "id = \"myfog\"\nextends = \"fogofwar\"\n[names]\nen = \"My fog\"\n";

/// The same file after the operator's edit: everything visible.
const MY_FOG_PUBLIC: &str =
    "id = \"myfog\"\nextends = \"fogofwar\"\nvisibility = \"full\"\n[names]\nen = \"My fog\"\n";

/// An operator's full-information variant, and an edit of its rules.
const MY_CHESS: &str = "id = \"mychess\"\nextends = \"chess\"\n";
const MY_CHESS_EDITED: &str = "id = \"mychess\"\nextends = \"chess\"\ncastling = false\n";

/// The variants of `folder` added to the built-ins, as `kodex` loads them.
fn registry_of(folder: &Path) -> Registry {
    let mut registry = Registry::builtin();
    kodex_bot::variants::load_variant_dir(&mut registry, folder).expect("the folder loads");
    registry
}

/// A folder `variants` in `dir` holding `files` (name, text).
fn variants_folder(dir: &Path, files: &[(&str, &str)]) -> PathBuf {
    let folder = dir.join("variants");
    std::fs::create_dir_all(&folder).expect("variants folder");
    for (name, text) in files {
        std::fs::write(folder.join(name), text).expect("definition written");
    }
    folder
}

/// Asserts that `out`, the answer to `line`, is the one refusal line to
/// `asker` and nothing else: no board (image or text), no record, no move,
/// nothing in the chat.
fn assert_refused_alone(line: &str, out: &[String], asker: &str, why: &str) {
    assert_eq!(out.len(), 1, "{line}: {out:#?}");
    let answer = &out[0];
    assert!(
        answer.starts_with(&format!("[@{asker}] ")),
        "{line}: {answer}"
    );
    assert!(
        answer.contains("cannot be shown or played"),
        "{line}: {answer}"
    );
    assert!(answer.contains(why), "{line}: {answer}");
    for leak in ["image", "e4", "e5", "e2", "[Event", "1.", "?", "♙", "P "] {
        assert!(!answer.contains(leak), "{line}: `{leak}` in {answer}");
    }
}

#[tokio::test]
async fn a_folder_redefining_a_built_in_is_refused_naming_the_file_and_the_id() {
    let dir = temp_dir("builtin-redefined");
    let folder = variants_folder(
        &dir,
        &[
            (
                "fog.toml",
                "id = \"fogofwar\"\nextends = \"chess\"\nvisibility = \"full\"\n",
            ),
            ("mine.toml", MY_FOG),
        ],
    );
    let mut registry = Registry::builtin();
    let err = kodex_bot::variants::load_variant_dir(&mut registry, &folder).unwrap_err();
    let shown = err.to_string();
    assert!(shown.contains("fog.toml"), "{shown}");
    assert!(
        shown.contains("`fogofwar`") && shown.contains("built-in"),
        "{shown}"
    );
    // Nothing of the folder was taken; the built-in is what it was.
    assert!(registry.get("myfog").is_none());
    assert!(registry.get("fogofwar").unwrap().hidden_information());
    // Extending the built-in under a new id is allowed.
    std::fs::remove_file(folder.join("fog.toml")).unwrap();
    assert_eq!(
        kodex_bot::variants::load_variant_dir(&mut registry, &folder),
        Ok(1)
    );
    assert!(registry.get("myfog").unwrap().hidden_information());
}

#[tokio::test]
async fn a_fog_game_whose_definition_turned_public_shows_and_plays_nothing() {
    let dir = temp_dir("definition-changed");
    let folder = variants_folder(&dir, &[("myfog.toml", MY_FOG)]);
    let mut chat = Chat::with_registry(dir.clone(), registry_of(&folder)).await;
    let id = chat.start("alice", "bob", "myfog 5+3").await;
    let out = chat.script(&["alice (dm): e4", "bob (dm): e5"]).await;
    assert!(has(&out, "you played e5"), "{out:#?}");
    // While the definition holds, a stranger sees no board.
    let out = chat.say(&format!("carol: /board {id}")).await;
    assert!(!has(&out, "image") && !has(&out, "e4"), "{out:#?}");

    // The operator makes the variant public and restarts.
    std::fs::write(folder.join("myfog.toml"), MY_FOG_PUBLIC).unwrap();
    let mut chat = chat.restart_with(registry_of(&folder)).await;
    assert!(!chat
        .service
        .registry()
        .get("myfog")
        .unwrap()
        .hidden_information());
    let before = chat.row(&id).await;

    for (line, asker) in [
        (format!("carol: /board {id}"), "carol"),
        (format!("carol (dm): /board {id}"), "carol"),
        (format!("carol: /pgn {id}"), "carol"),
        (format!("carol (dm): /pgn {id}"), "carol"),
        ("carol: /board".to_owned(), "carol"),
        ("carol: /pgn".to_owned(), "carol"),
        (format!("dave (dm): /watch {id}"), "dave"),
        (format!("carol: /timeline {id}"), "carol"),
        (format!("alice (dm): /board {id}"), "alice"),
        ("alice (dm): /board".to_owned(), "alice"),
        (format!("alice (dm): /move Nf3 {id}"), "alice"),
        ("alice (dm): /move Nf3".to_owned(), "alice"),
        (format!("alice: /draw {id}"), "alice"),
        (format!("bob: /resign {id}"), "bob"),
        (format!("alice: /abort {id}"), "alice"),
    ] {
        let out = chat.say(&line).await;
        assert_refused_alone(&line, &out, asker, &id);
    }
    // A move typed as plain text goes nowhere either (and says nothing).
    let out = chat.say("alice (dm): Nf3").await;
    assert!(out.len() <= 1, "{out:#?}");
    for line in &out {
        assert!(line.contains("cannot be shown or played"), "{line}");
    }
    // Nobody watches it now, and the clock does not end it either.
    let out = chat.advance(10 * 60 * 1000).await;
    assert!(out.is_empty(), "{out:#?}");
    let after = chat.row(&id).await;
    assert_eq!(
        (&after.moves, &after.status, &after.result),
        (&before.moves, &Status::Active, &None)
    );
    assert!(chat
        .service
        .store()
        .watchers_of("console", &id)
        .await
        .unwrap()
        .is_empty());
    // The players' /games still lists it, naming no move.
    let out = chat.say("alice: /games").await;
    assert!(has(&out, &id), "{out:#?}");
    assert!(!has(&out, "e4") && !has(&out, "image"), "{out:#?}");

    // The operator puts the definition back: the game is as it was.
    std::fs::write(folder.join("myfog.toml"), MY_FOG).unwrap();
    let mut chat = chat.restart_with(registry_of(&folder)).await;
    let out = chat.say(&format!("alice (dm): /board {id}")).await;
    assert!(has(&out, "[@alice]") && has(&out, "image"), "{out:#?}");
    let out = chat.say(&format!("carol: /board {id}")).await;
    assert!(
        !has(&out, "image") && !has(&out, "cannot be shown"),
        "{out:#?}"
    );
}

#[tokio::test]
async fn a_game_of_a_removed_or_edited_full_information_variant_fails_closed_too() {
    let dir = temp_dir("definition-gone");
    let folder = variants_folder(&dir, &[("myfog.toml", MY_FOG), ("mychess.toml", MY_CHESS)]);
    let mut chat = Chat::with_registry(dir.clone(), registry_of(&folder)).await;
    let fog = chat.start("alice", "bob", "myfog").await;
    chat.script(&["alice (dm): e4", "bob (dm): e5"]).await;
    let plain = chat.start("carol", "dave", "mychess").await;
    chat.script(&["carol: e4", "dave: e5"]).await;

    // The fog variant's file is removed, the other one's rules edited.
    std::fs::remove_file(folder.join("myfog.toml")).unwrap();
    std::fs::write(folder.join("mychess.toml"), MY_CHESS_EDITED).unwrap();
    let mut chat = chat.restart_with(registry_of(&folder)).await;
    for line in [
        format!("erin: /board {fog}"),
        format!("erin: /pgn {fog}"),
        format!("alice (dm): /move Nf3 {fog}"),
    ] {
        let out = chat.say(&line).await;
        let asker = line.split([':', ' ']).next().unwrap();
        assert_refused_alone(&line, &out, asker, "no longer available");
    }
    for line in [
        format!("erin: /board {plain}"),
        format!("erin: /pgn {plain}"),
        format!("carol: /move Nf3 {plain}"),
    ] {
        let out = chat.say(&line).await;
        let asker = line.split([':', ' ']).next().unwrap();
        assert_refused_alone(&line, &out, asker, "definition of its variant has changed");
    }
    assert_eq!(chat.row(&plain).await.moves, "e2e4 e7e5");
}

#[tokio::test]
async fn games_stored_before_fingerprints_take_the_definition_of_their_first_start() {
    let dir = temp_dir("definition-legacy");
    let folder = variants_folder(&dir, &[("myfog.toml", MY_FOG)]);
    let mut chat = Chat::with_registry(dir.clone(), registry_of(&folder)).await;
    let id = chat.start("alice", "bob", "myfog").await;
    chat.script(&["alice (dm): e4", "bob (dm): e5"]).await;
    let stamped = chat.row(&id).await.variant_fingerprint;
    assert_eq!(
        stamped.as_deref(),
        Some(chat.service.registry().get("myfog").unwrap().fingerprint())
    );
    // As an older version stored it: no fingerprint.
    chat.service
        .store()
        .execute_raw(
            "UPDATE games SET variant_fingerprint = NULL WHERE id = ?",
            &[kodex_bot::store::RawValue::Text(id.clone())],
        )
        .await
        .unwrap();

    // The first start of this version stamps it with the definition then.
    let mut chat = chat.restart().await;
    assert_eq!(chat.row(&id).await.variant_fingerprint, stamped);
    let out = chat.say(&format!("alice (dm): /board {id}")).await;
    assert!(has(&out, "image"), "{out:#?}");

    // A later edit is seen.
    std::fs::write(folder.join("myfog.toml"), MY_FOG_PUBLIC).unwrap();
    let mut chat = chat.restart_with(registry_of(&folder)).await;
    assert_eq!(chat.row(&id).await.variant_fingerprint, stamped);
    let line = format!("carol: /board {id}");
    let out = chat.say(&line).await;
    assert_refused_alone(&line, &out, "carol", &id);
}
