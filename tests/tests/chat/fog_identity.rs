//! The test of hidden information through the console: two fog-of-war games
//! that differ only in what bob may not know must give bob, and the chat,
//! identical texts and identical images, byte for byte.

use crate::console_support::{told_bob_and_chat, told_watcher_and_chat};

/// Plays `alice`'s moves (her information differs between the games) against
/// the same inputs from bob, and returns everything bob and the chat were told.
async fn play(name: &str, alice: &[&[&str]]) -> Vec<(String, Vec<u8>)> {
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
    told_bob_and_chat(name, "fogofwar 5+3", alice, &bob).await
}

#[tokio::test]
async fn two_fog_games_that_differ_only_in_what_bob_cannot_see_tell_him_the_same() {
    // Alice's pawn goes to e4 or d4, her knights out; bob's pieces never
    // reach those squares, so bob's view and legal moves are the same.
    let first = play("fog-identity-a", &[&["e4"], &["Nf3"], &["Nc3"], &["a3"]]).await;
    let second = play("fog-identity-b", &[&["d4"], &["Nh3"], &["Na3"], &["b3"]]).await;
    assert_eq!(first.len(), second.len());
    for ((line_a, image_a), (line_b, image_b)) in first.iter().zip(&second) {
        assert_eq!(line_a, line_b);
        assert!(image_a == image_b, "the images differ after {line_a}");
    }
}

/// The rook example of the hidden-information issue: black (bob) moves
/// first; alice (white) sees the a-file up to bob's rook on a5.
async fn rooks(name: &str, bob: &[&[&str]]) -> Vec<(String, Vec<u8>)> {
    let alice = [
        vec![
            "alice (dm): /board",
            "alice (dm): Ra6",
            "alice: /board",
            "alice (dm): Kd1",
        ],
        vec![
            "alice (dm): /board",
            "carol: /board",
            "carol: /pgn",
            "alice (dm): Ra7",
        ],
    ];
    told_watcher_and_chat(
        name,
        "fogofwar 5+3 fen:7r/4k3/8/r7/8/8/1PPPPPPP/R3K3 b - - 0 1",
        "bob",
        bob,
        "alice",
        &alice,
    )
    .await
}

#[tokio::test]
async fn a_rook_leaving_the_line_it_blocked_looks_the_same_whichever_rook_came() {
    // Either the h8 rook goes to h6 and the a5 rook up to a8, or the h8
    // rook goes to a8 and the a5 rook across to h5: alice sees a rook come
    // to a8 up an open a-file either way, and must not see which it was.
    let first = rooks("fog-rooks-a", &[&["h8h6"], &["a5a8"]]).await;
    let second = rooks("fog-rooks-b", &[&["h8a8"], &["a5h5"]]).await;
    assert_eq!(first.len(), second.len());
    for ((line_a, image_a), (line_b, image_b)) in first.iter().zip(&second) {
        assert_eq!(line_a, line_b);
        assert!(image_a == image_b, "the images differ after {line_a}");
    }
    // Alice was shown her boards, and answered.
    assert!(
        first
            .iter()
            .filter(|(line, image)| line.starts_with("[@alice]") && !image.is_empty())
            .count()
            >= 4,
        "{first:#?}"
    );
    assert!(
        first
            .iter()
            .any(|(line, _)| line.contains("you played Ra7")),
        "{:#?}",
        first.iter().map(|(line, _)| line).collect::<Vec<_>>()
    );
}
