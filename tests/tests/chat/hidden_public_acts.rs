//! What the public of a hidden game hears, probed with pairs of games:
//! spectators of a secret setup hear exactly what the game's chat hears
//! ("ready", the reveal, the start), and the computer's public acts in
//! fog of war and Kriegspiel (its answer to a draw offer) depend only on
//! what it may know, never on the squares it cannot see.

use crate::console_support::{game_id_of_start, has, to, Chat};

/// What `audience` heard, without the audience and with the game id named
/// `ID`.
fn heard(out: &[String], audience: &str, id: &str) -> Vec<String> {
    to(out, audience)
        .into_iter()
        .map(|line| line[audience.len()..].trim_start().replace(id, "ID"))
        .collect()
}

#[tokio::test]
async fn a_spectator_of_a_secret_setup_hears_the_readies_and_the_reveal() {
    let mut chat = Chat::new("watch-setup").await;
    let (id, out) = chat.accepted("alice", "bob", "battle").await;
    assert!(has(&out, "is being set up"), "{out:#?}");
    let out = chat.say(&format!("carol (dm): /watch {id}")).await;
    assert!(
        has(&out, &format!("[@carol] Watching game {id}")),
        "{out:#?}"
    );

    chat.say("alice (dm): random").await;
    let out = chat.say("alice (dm): ready").await;
    let public = heard(&out, "[#local]", &id);
    assert!(
        public.iter().any(|l| l.contains("alice is ready")),
        "{out:#?}"
    );
    assert_eq!(heard(&out, "[@carol]", &id), public, "{out:#?}");
    // Nothing of alice's setup: no image for the public or the spectator.
    assert!(!public.iter().any(|l| l.contains("image:")), "{out:#?}");

    chat.say("bob (dm): random").await;
    let out = chat.say("bob (dm): ready").await;
    let public = heard(&out, "[#local]", &id);
    // The last ready and the reveal, then the start (or the result, when
    // a random setup lost at once) with the revealed board.
    assert!(
        public.iter().any(|l| l.contains("bob is ready")),
        "{out:#?}"
    );
    assert!(
        public.iter().any(|l| l.contains("revealed")),
        "the reveal: {out:#?}"
    );
    assert!(public.iter().any(|l| l.contains("image:")), "{out:#?}");
    let spectator = heard(&out, "[@carol]", &id);
    // Same words; the spectator's copy of the board is the same picture,
    // sent without the players' buttons.
    let words = |lines: &[String]| -> Vec<String> {
        lines
            .iter()
            .filter(|l| !l.contains("/press") && !l.contains("image:"))
            .cloned()
            .collect()
    };
    assert_eq!(words(&spectator), words(&public), "{out:#?}");
    assert_eq!(
        spectator.iter().filter(|l| l.contains("image:")).count(),
        public.iter().filter(|l| l.contains("image:")).count(),
        "{out:#?}"
    );
}

#[tokio::test]
async fn a_spectator_hears_an_abort_during_setup() {
    let mut chat = Chat::new("watch-setup-abort").await;
    let (id, _) = chat.accepted("alice", "bob", "battle").await;
    chat.say(&format!("carol (dm): /watch {id}")).await;
    let out = chat.say("bob: /abort").await;
    let public = heard(&out, "[#local]", &id);
    assert!(public.iter().any(|l| l.contains("aborted")), "{out:#?}");
    assert_eq!(heard(&out, "[@carol]", &id), public, "{out:#?}");
    // The game is over: carol watches it no more.
    let out = chat.say(&format!("carol (dm): /watch {id}")).await;
    assert!(has(&out, "is not running"), "{out:#?}");
}

/// The computer's answer to alice's draw offer in `variant` from `fen`
/// (alice white, the computer black, alice to move), with the game id
/// named `ID`.
async fn computers_answer(name: &str, variant: &str, fen: &str) -> Vec<String> {
    let mut chat = Chat::new(name).await;
    let out = chat
        .say(&format!(
            "alice: /play {variant} computer level 3 white fen:{fen}"
        ))
        .await;
    assert!(has(&out, "starts"), "{out:#?}");
    let id = game_id_of_start(&out);
    let mut out = chat.say("alice (dm): /draw").await;
    let answered = |out: &[String]| {
        out.iter()
            .any(|l| l.contains("declined the draw") || l.contains("½"))
    };
    if !answered(&out) {
        out.extend(chat.wait_for("the computer's answer", answered).await);
    }
    out.iter()
        .filter(|l| l.starts_with("[#local]") || l.starts_with("[@alice]"))
        .map(|l| l.replace(&id, "ID"))
        .filter(|l| !l.contains("image:"))
        .collect()
}

/// The computer (black) answers alice's draw offer in `variant` alike
/// whether white's knight attacks its queen (f3) or not (f1), which it
/// cannot see; by what it knows it is a queen against a knight up, so it
/// declines. (By the true position it accepted one and declined the other.)
async fn the_same_answer_whatever_the_hidden_knight_does(variant: &str) {
    let attacked = computers_answer(
        &format!("{variant}-draw-f3"),
        variant,
        "4k3/pppp1ppp/8/4q3/8/5N2/PPPP1PPP/6K1 w - - 0 1",
    )
    .await;
    let safe = computers_answer(
        &format!("{variant}-draw-f1"),
        variant,
        "4k3/pppp1ppp/8/4q3/8/8/PPPP1PPP/5NK1 w - - 0 1",
    )
    .await;
    assert_eq!(attacked, safe);
    assert!(
        attacked.iter().any(|l| l.contains("declined the draw")),
        "{attacked:#?}"
    );
}

#[tokio::test]
async fn the_computers_draw_answer_in_kriegspiel_comes_from_its_own_pieces() {
    // Black sees only its own pieces.
    the_same_answer_whatever_the_hidden_knight_does("kriegspiel").await;
}

#[tokio::test]
async fn the_computers_draw_answer_in_fog_of_war_comes_from_its_view() {
    // Black sees its pieces and where they may go: neither f3 nor f1 is on
    // its queen's lines.
    the_same_answer_whatever_the_hidden_knight_does("fogofwar").await;
}
