//! The board posted in a game's chat after each turn is drawn from the side
//! of the player to move in two-player games (issue 32, item 3); the final
//! board and games for four keep white at the bottom.

use crate::console_support::{has, to, Chat};

/// The rank labels of the last text board the chat was shown in `out`, top to
/// bottom ("8", "7", … for white at the bottom): the lines that are a
/// number followed by one-character cells.
fn public_ranks(out: &[String]) -> Vec<String> {
    let ranks: Vec<String> = to(out, "[#local]")
        .into_iter()
        .filter_map(|line| {
            let mut words = line.strip_prefix("[#local]")?.split_whitespace();
            let label = words.next()?;
            let cells: Vec<&str> = words.collect();
            (label.chars().all(|c| c.is_ascii_digit())
                && cells.len() == 8
                && cells.iter().all(|cell| cell.chars().count() == 1))
            .then(|| label.to_owned())
        })
        .collect();
    assert!(ranks.len() >= 8, "no text board in {out:#?}");
    ranks[ranks.len() - 8..].to_vec()
}

/// Everything the chat was shown in `out`, one text.
fn public_text(out: &[String]) -> String {
    let public: Vec<&str> = to(out, "[#local]")
        .into_iter()
        .map(String::as_str)
        .collect();
    public.join("\n")
}

fn ranks(order: impl Iterator<Item = u8>) -> Vec<String> {
    order.map(|rank| rank.to_string()).collect()
}

#[tokio::test]
async fn the_chat_board_turns_to_the_player_to_move() {
    let mut chat = Chat::new("orientation").await;
    let id = chat.start("alice", "bob", "chess").await;
    let black_bottom = ranks(1..=8);
    let white_bottom = ranks((1..=8).rev());

    // After white's move black is to move: rank 1 on top, rank 8 at the bottom.
    let out = chat.say("alice: e4").await;
    assert_eq!(public_ranks(&out), black_bottom, "{out:#?}");
    let public = public_text(&out);
    // From black's side the files run h to a and the first rank reads
    // white's back rank mirrored.
    assert!(public.contains(" 1 R N B K Q B N R"), "{public}");
    assert!(public.contains("h g f e d c b a"), "{public}");

    // After black's reply, from white's side again.
    let out = chat.say("bob: e5").await;
    assert_eq!(public_ranks(&out), white_bottom, "{out:#?}");
    let public = public_text(&out);
    assert!(public.contains(" 8 r n b q k b n r"), "{public}");
    assert!(public.contains("a b c d e f g h"), "{public}");

    // The final board keeps white at the bottom, whoever would move next.
    let out = chat
        .script(&[
            "alice: Qh5",
            "bob: Nc6",
            "alice: Bc4",
            "bob: Nf6",
            "alice: Qxf7",
        ])
        .await;
    assert!(chat.row(&id).await.status.is_over(), "{out:#?}");
    assert_eq!(public_ranks(&out), white_bottom, "{out:#?}");
}

/// `/settings board white` fixes white at the bottom of every board the
/// chat is shown after a turn; `/settings board side-to-move` turns it to
/// the player to move again. The Russian words set it too, and words that
/// name no choice are answered with the choices.
#[tokio::test]
async fn a_chat_that_fixes_white_at_the_bottom_sees_every_turn_from_whites_side() {
    let mut chat = Chat::new("orientation-setting").await;
    let white_bottom = ranks((1..=8).rev());
    let black_bottom = ranks(1..=8);

    let out = chat.say("carol: /settings").await;
    assert!(
        has(&out, "board: the player to move at the bottom"),
        "{out:#?}"
    );
    let out = chat.say("carol: /settings board purple").await;
    assert!(has(&out, "/settings board white"), "{out:#?}");
    let out = chat.say("carol: /settings board-orientation white").await;
    assert!(has(&out, "now have white always at the bottom"), "{out:#?}");
    let out = chat.say("dave: /settings").await;
    assert!(has(&out, "board: white always at the bottom"), "{out:#?}");

    chat.start("alice", "bob", "chess").await;
    for (line, ranks) in [("alice: e4", &white_bottom), ("bob: e5", &white_bottom)] {
        let out = chat.say(line).await;
        assert_eq!(&public_ranks(&out), ranks, "{line}: {out:#?}");
    }
    // Back to the side to move, in Russian words.
    let out = chat.say("carol: /настройки доска ходящий").await;
    assert!(!has(&out, "/settings board white ("), "{out:#?}");
    let out = chat.say("alice: Nf3").await;
    assert_eq!(public_ranks(&out), black_bottom, "{out:#?}");
}
