//! The random differential of hidden information through the chat: twin
//! fog-of-war and Kriegspiel games that give one player (the watcher) the
//! same information all along — the same view after every half-move, the
//! same legal moves on their turn, the same announcements — while the other
//! player's pieces differ, are played through two console chats. Everything
//! the watcher, the game's chat and a spectator are told must be the same,
//! byte for byte (texts and board images), and so must the answers to what
//! the watcher may send on their turn: `/board`, `/pgn`, `/games`, `/draw`
//! …`/nodraw`, a move that cannot be read, a move their pieces cannot make.
//!
//! `KODEX_HIDDEN_CHAT_GAMES` sets the walks per variant (3 by default).

use crate::console_support::{told, Chat};
use kodex_engine::{Audience, Game, Registry, Side, Start};

/// Half-moves a walk plays at most.
const PLIES: usize = 30;
/// Attempts at each half-move to find a step that keeps the information equal.
const TRIES: usize = 24;

/// What the watcher knows after a half-move (see the engine's
/// `hidden_differential` test).
fn information(game: &Game, watcher: Side) -> String {
    let mut legal: Vec<String> = if game.side_to_move() == watcher {
        game.legal_moves()
            .into_iter()
            .map(|m| game.uci(m))
            .collect()
    } else {
        Vec::new()
    };
    legal.sort();
    format!(
        "{:?} {legal:?} {:?} {:?}",
        game.view(Audience::Side(watcher)).squares,
        game.announcements(Audience::Side(watcher)),
        game.outcome()
    )
}

/// A twin walk: the moves of game A and of game B, in turn, as UCI.
fn twin_walk(variant: &str, watcher: Side, rng: &mut fastrand::Rng) -> Vec<(String, String)> {
    let registry = Registry::builtin();
    let definition = registry.get(variant).expect("a built-in variant");
    let start = Game::new(definition, Start::Standard).expect("start");
    let (mut a, mut b) = (start.clone(), start);
    let mut line = Vec::new();
    for _ in 0..PLIES {
        if a.outcome().is_some() {
            break;
        }
        let mut found = None;
        for _ in 0..TRIES {
            let pick = |game: &Game, rng: &mut fastrand::Rng| {
                let moves = game.legal_moves();
                game.uci(moves[rng.usize(..moves.len())])
            };
            let text_a = pick(&a, rng);
            // The watcher makes the same move in both; the other side its own.
            let text_b = if a.side_to_move() == watcher {
                text_a.clone()
            } else {
                pick(&b, rng)
            };
            let (mut next_a, mut next_b) = (a.clone(), b.clone());
            if next_a.play_text(&text_a).is_err() || next_b.play_text(&text_b).is_err() {
                continue;
            }
            if information(&next_a, watcher) == information(&next_b, watcher) {
                found = Some((next_a, next_b, text_a, text_b));
                break;
            }
        }
        let Some((next_a, next_b, text_a, text_b)) = found else {
            break;
        };
        (a, b) = (next_a, next_b);
        line.push((text_a, text_b));
    }
    line
}

/// Plays one side of a twin walk (`which`: 0 for game A, 1 for B) through
/// a console chat: returns everything the watcher, the chat and dave (a
/// spectator) were told, with the watcher's probes on each of their turns.
async fn play(
    name: &str,
    variant: &str,
    watcher: Side,
    line: &[(String, String)],
    which: usize,
    across: bool,
) -> Vec<(String, Vec<u8>)> {
    let mut chat = Chat::new(name).await;
    let id = if across {
        // A public challenge taken from another chat (#club): the game is
        // played in both, and #club hears exactly what the chat hears.
        let out = chat
            .say(&format!("alice: /play {variant} public white"))
            .await;
        let id = crate::console_support::game_id(&out);
        let out = chat.say(&format!("bob (#club): /accept {id}")).await;
        assert!(
            out.iter()
                .any(|l| l.starts_with("[#club]") && l.contains("starts")),
            "{out:#?}"
        );
        id
    } else {
        chat.start("alice", "bob", variant).await
    };
    let (me, other) = if watcher == Side::WHITE {
        ("alice", "bob")
    } else {
        ("bob", "alice")
    };
    let audiences = [
        format!("[@{me}]"),
        "[#local]".to_owned(),
        "[@dave]".to_owned(),
        "[#club]".to_owned(),
    ];
    let mut seen = Vec::new();
    let record = |chat: &Chat, out: &[String], seen: &mut Vec<(String, Vec<u8>)>| {
        for audience in &audiences {
            seen.extend(told(chat, &id, out, audience));
        }
    };
    let out = chat.say(&format!("dave (dm): /watch {id}")).await;
    record(&chat, &out, &mut seen);
    for (ply, moves) in line.iter().enumerate() {
        let mover_is_watcher = (ply % 2 == 0) == (watcher == Side::WHITE);
        if mover_is_watcher {
            // A move the watcher cannot play (unless, in both games alike,
            // it is legal: then it is no probe).
            let game = chat.position(&id).await;
            let legal: Vec<String> = game
                .legal_moves()
                .into_iter()
                .map(|m| game.uci(m))
                .collect();
            let far = ["a1a8", "h8h1", "b1b8"]
                .into_iter()
                .find(|mv| !legal.iter().any(|l| l == mv))
                .unwrap_or("Qz9");
            for probe in ["/board", "/pgn", "/games", "Qz9", far, "/draw"] {
                let out = chat.say(&format!("{me} (dm): {probe}")).await;
                seen.push((format!("probe {probe}"), Vec::new()));
                record(&chat, &out, &mut seen);
            }
            // The offer is declined by the other player: the same words in
            // both games, and nothing stands at the next move.
            let out = chat.say(&format!("{other} (dm): /nodraw")).await;
            record(&chat, &out, &mut seen);
        }
        let mover = if ply % 2 == 0 { "alice" } else { "bob" };
        let mv = if which == 0 { &moves.0 } else { &moves.1 };
        chat.time.advance(1_000);
        let out = chat.say(&format!("{mover} (dm): {mv}")).await;
        assert!(
            out.iter().any(|l| l.contains("you played")),
            "{mover} {mv}: {out:#?}"
        );
        record(&chat, &out, &mut seen);
    }
    seen
}

async fn differential(variant: &str, seed: u64) {
    differential_in(variant, seed, false, 3).await;
}

/// The differential of `walks` walks (`KODEX_HIDDEN_CHAT_GAMES` overrides),
/// `across` two chats or in one.
async fn differential_in(variant: &str, seed: u64, across: bool, walks: u64) {
    let walks: u64 = std::env::var("KODEX_HIDDEN_CHAT_GAMES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(walks);
    let mut apart = 0;
    for walk in 0..walks {
        let mut rng = fastrand::Rng::with_seed(seed.wrapping_add(walk));
        let watcher = if walk % 2 == 0 {
            Side::WHITE
        } else {
            Side::BLACK
        };
        let line = twin_walk(variant, watcher, &mut rng);
        apart += line.iter().filter(|(a, b)| a != b).count();
        let name = format!("{variant}-twin-{seed}-{walk}");
        let a = play(&format!("{name}-a"), variant, watcher, &line, 0, across).await;
        let b = play(&format!("{name}-b"), variant, watcher, &line, 1, across).await;
        if across {
            // The second chat heard the game: as much as its own chat did.
            let heard = |told: &[(String, Vec<u8>)], chat: &str| {
                told.iter()
                    .filter(|(text, _)| text.starts_with(chat))
                    .count()
            };
            assert!(heard(&a, "[#club]") > 0, "{variant}: #club heard nothing");
            assert_eq!(heard(&a, "[#club]"), heard(&a, "[#local]"), "{variant}");
        }
        assert_eq!(a.len(), b.len(), "{variant} walk {walk}: {line:?}");
        for (told_a, told_b) in a.iter().zip(&b) {
            assert_eq!(told_a.0, told_b.0, "{variant} walk {walk}: {line:?}");
            assert!(
                told_a.1 == told_b.1,
                "{variant} walk {walk}: the image of {} differs; {line:?}",
                told_a.0
            );
        }
        assert!(
            a.iter().any(|(_, image)| !image.is_empty()),
            "boards were sent"
        );
    }
    // The walks must reach games that differ where the watcher cannot see.
    assert!(apart > 0, "{variant}: the twins never moved apart");
}

#[tokio::test]
async fn fog_of_war_twins_tell_the_watcher_the_chat_and_a_spectator_the_same() {
    differential("fogofwar", 0xf09).await;
}

#[tokio::test]
async fn kriegspiel_twins_tell_the_watcher_the_chat_and_a_spectator_the_same() {
    differential("kriegspiel", 0xc41).await;
}

#[tokio::test]
async fn fog_of_war_twins_played_across_two_chats_tell_both_chats_the_same() {
    differential_in("fogofwar", 0xf0c, true, 1).await;
}
