//! The test of hidden information through the console: two fog-of-war games
//! that differ only in what bob may not know must give bob, and the chat,
//! identical texts and identical images, byte for byte.

mod console_support;

use console_support::{to, Chat};

/// What `audience` was told: the lines with the game id and the test's
/// folder replaced, and the
/// bytes of every image they were sent.
fn told(chat: &Chat, id: &str, out: &[String], audience: &str) -> Vec<(String, Vec<u8>)> {
    to(out, audience)
        .into_iter()
        .map(|line| {
            let image = line
                .split_once("image: ")
                .map(|(_, path)| {
                    let path = chat.dir.join("boards").join(
                        std::path::Path::new(path.trim())
                            .file_name()
                            .expect("an image file name"),
                    );
                    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
                })
                .unwrap_or_default();
            let dir = chat.dir.display().to_string();
            (line.replace(&dir, "DIR").replace(id, "ID"), image)
        })
        .collect()
}

/// Plays `alice`'s moves (her information differs between the games) against
/// the same inputs from bob, and returns everything bob and the chat were told.
async fn play(name: &str, alice: &[&str]) -> Vec<(String, Vec<u8>)> {
    let mut chat = Chat::new(name).await;
    let id = chat.start("alice", "bob", "fogofwar 5+3").await;
    // Bob answers the same whatever alice did, and tries input of every kind.
    let bob = [
        vec!["bob (dm): h6"],
        vec![
            "bob (dm): /move Qxh2",
            "bob (dm): e9",
            "bob (dm): exd4",
            "bob (dm): a6",
        ],
        vec!["bob: /board", "bob (dm): /board", "bob (dm): a5"],
        vec!["carol: /board", "carol: /pgn", "bob (dm): h5"],
    ];
    let mut seen = Vec::new();
    for (alice_move, bob_lines) in alice.iter().zip(bob) {
        chat.time.advance(1_500);
        let out = chat.say(&format!("alice (dm): {alice_move}")).await;
        assert!(
            out.iter().any(|l| l.contains("you played")),
            "{alice_move}: {out:#?}"
        );
        seen.extend(told(&chat, &id, &out, "[@bob]"));
        seen.extend(told(&chat, &id, &out, "[#local]"));
        for line in bob_lines {
            chat.time.advance(2_000);
            let out = chat.say(line).await;
            seen.extend(told(&chat, &id, &out, "[@bob]"));
            seen.extend(told(&chat, &id, &out, "[#local]"));
        }
    }
    assert!(
        seen.iter().filter(|(_, image)| !image.is_empty()).count() >= 4,
        "bob must have been sent boards: {:#?}",
        seen.iter().map(|(line, _)| line).collect::<Vec<_>>()
    );
    seen
}

#[tokio::test]
async fn two_fog_games_that_differ_only_in_what_bob_cannot_see_tell_him_the_same() {
    // Alice's pawn goes to e4 or d4, her knights out; bob's pieces never
    // reach those squares, so bob's view and legal moves are the same.
    let first = play("fog-identity-a", &["e4", "Nf3", "Nc3", "a3"]).await;
    let second = play("fog-identity-b", &["d4", "Nh3", "Na3", "b3"]).await;
    assert_eq!(first.len(), second.len());
    for ((line_a, image_a), (line_b, image_b)) in first.iter().zip(&second) {
        assert_eq!(line_a, line_b);
        assert!(image_a == image_b, "the images differ after {line_a}");
    }
}
