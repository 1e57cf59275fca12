//! Around a game, at the console: a rematch, a game from a position,
//! spectators, clock reminders and the notation one reads privately.

use crate::console_support::{game_id, game_id_of_start, has, last_image, to, Chat};

const HOUR: i64 = 3_600_000;

/// The lines for `audience` without the audience mark.
fn heard<'a>(out: &'a [String], audience: &str) -> Vec<&'a str> {
    to(out, audience)
        .into_iter()
        .map(|line| line[audience.len()..].trim_start())
        .collect()
}

async fn resign(chat: &mut Chat, player: &str, id: &str, side: &str) -> Vec<String> {
    chat.say(&format!("{player}: /resign")).await;
    chat.say(&format!("{player}: /press rsg:{id}:{side}")).await
}

#[tokio::test]
async fn a_rematch_swaps_colours_and_needs_the_other_player() {
    let mut chat = Chat::new("rematch").await;
    let id = chat.start("alice", "bob", "atomic 3+2").await;
    chat.say("alice: e4").await;
    let out = resign(&mut chat, "bob", &id, "b").await;
    assert!(has(&out, &format!("/press again:{id}]")), "{out:#?}");

    // Only a player of the game may ask.
    let out = chat.say(&format!("carol: /press again:{id}")).await;
    assert!(
        has(&out, &format!("[@carol] You did not play in game {id}")),
        "{out:#?}"
    );
    let out = chat.say(&format!("bob: /press again:{id}")).await;
    let rematch = game_id(&out);
    assert_ne!(rematch, id);
    assert!(
        has(&out, &format!("bob offers alice a rematch of game {id}"))
            && has(&out, "3+2, bob plays white"),
        "{out:#?}"
    );
    // carol's game here since then is not bob's latest.
    let other = chat.start("carol", "dave", "chess").await;
    resign(&mut chat, "dave", &other, "b").await;
    // Asked twice: the first offer is waiting.
    let out = chat.say("bob: /rematch").await;
    assert!(
        has(
            &out,
            &format!("Your rematch offer is waiting: game {rematch}")
        ),
        "{out:#?}"
    );
    // Nothing starts until alice agrees; her own rematch request agrees.
    assert_eq!(
        chat.row(&rematch).await.status,
        kodex_bot::store::Status::Challenge
    );
    let out = chat.say(&format!("alice: /rematch {id}")).await;
    assert!(has(&out, &format!("Game {rematch} starts")), "{out:#?}");
    let row = chat.row(&rematch).await;
    assert_eq!(
        (row.player_id(0), row.player_id(1)),
        (Some("bob"), Some("alice"))
    );
    assert_eq!(
        (row.variant.as_str(), row.time_control.code().as_str()),
        ("atomic", "3+2")
    );
    // A game still running has no rematch.
    let out = chat.say(&format!("alice: /rematch {rematch}")).await;
    assert!(
        has(&out, &format!("Game {rematch} is not over yet")),
        "{out:#?}"
    );
}

#[tokio::test]
async fn the_computer_accepts_a_rematch_at_once() {
    let mut chat = Chat::new("rematch-computer").await;
    let out = chat.say("alice: /play chess computer white").await;
    let id = game_id_of_start(&out);
    resign(&mut chat, "alice", &id, "w").await;
    let out = chat.say("alice: /rematch").await;
    let rematch = game_id_of_start(&out);
    assert_ne!(rematch, id);
    let row = chat.row(&rematch).await;
    assert_eq!(row.player_id(1), Some("alice"), "alice now plays black");
}

#[tokio::test]
async fn a_game_starts_from_a_checked_position_and_its_record_says_so() {
    let mut chat = Chat::new("from-fen").await;
    let fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
    let out = chat
        .say(&format!("alice: /play chess @bob white fen:{fen}"))
        .await;
    assert!(
        has(&out, &format!("Starts from the position {fen}")),
        "{out:#?}"
    );
    let id = game_id(&out);
    chat.say(&format!("bob: /accept {id}")).await;
    let out = chat.say("alice: e4").await;
    assert!(has(&out, &format!("{id}: alice played e4")), "{out:#?}");
    // Black has a king alone: no queen to move.
    let out = chat.say("bob: /move Qd8").await;
    assert!(
        has(&out, "[@bob] ") && to(&out, "[#local]").is_empty(),
        "{out:#?}"
    );
    let out = chat.say(&format!("alice: /pgn {id}")).await;
    assert!(
        has(&out, "[SetUp \"1\"]") && has(&out, &format!("[FEN \"{fen}\"]")),
        "{out:#?}"
    );

    // Refused with the engine's reason, in the asker's language.
    let out = chat.say("bob: /play chess fen:8/8/8 w - - 0 1").await;
    assert!(
        has(
            &out,
            "[@bob] This position does not read: the board has 8 ranks, the position 3."
        ),
        "{out:#?}"
    );
    chat.say("carol: /lang ru").await;
    let out = chat
        .say("carol: /play chess fen:4k3/8/8/8/8/8/4P3/4X3 w - - 0 1")
        .await;
    assert!(has(&out, "[@carol] Позицию не прочитать: «X»"), "{out:#?}");
    let out = chat
        .say("carol: /play chess fen:R3k3/8/4K3/8/8/8/8/8 b - - 0 1")
        .await;
    assert!(
        has(&out, "[@carol] В этой позиции партия уже окончена"),
        "{out:#?}"
    );
    // A variant whose sides place their pieces first has no start position.
    let out = chat.say(&format!("bob: /play battle fen:{fen}")).await;
    assert!(
        has(&out, "[@bob] battle begins with each side placing"),
        "{out:#?}"
    );
    assert!(!has(&out, "/press acc:"), "nothing was offered: {out:#?}");
}

#[tokio::test]
async fn a_spectator_hears_what_the_chat_hears_until_the_end_and_after_a_restart() {
    let mut chat = Chat::new("watch").await;
    let (id, started) = chat.accepted("alice", "bob", "chess").await;
    assert!(
        has(&started, &format!("/press watch:{id}]")),
        "{started:#?}"
    );
    let out = chat.say(&format!("carol (dm): /watch {id}")).await;
    assert!(
        has(&out, &format!("[@carol] Watching game {id}")),
        "{out:#?}"
    );
    // Where the game stands now: whose turn, and the board.
    assert!(
        has(&out, &format!("{id} · move 1 · alice (white) to move")) && has(&out, "image:"),
        "{out:#?}"
    );
    let out = chat.say(&format!("carol (dm): /watch {id}")).await;
    assert!(has(&out, "is watched here already"), "{out:#?}");

    let out = chat.say("alice: e4").await;
    let public = heard(&out, "[#local]");
    assert!(has(&out, &format!("{id}: alice played e4")), "{out:#?}");
    assert_eq!(heard(&out, "[@carol]"), public, "{out:#?}");
    assert!(public.iter().any(|l| l.contains("image:")), "{out:#?}");

    // Watching is stored: a restarted bot goes on.
    let mut chat = chat.restart().await;
    let out = chat.say("bob: e5").await;
    assert_eq!(heard(&out, "[@carol]"), heard(&out, "[#local]"), "{out:#?}");
    assert!(
        has(&out, "[@carol] ") && has(&out, "bob played e5"),
        "{out:#?}"
    );

    // dave watches by the button; carol stops.
    chat.say(&format!("dave: /press watch:{id}")).await;
    let out = chat.say(&format!("carol (dm): /unwatch {id}")).await;
    assert!(
        has(&out, &format!("No longer watching game {id}")),
        "{out:#?}"
    );
    let out = chat.say("alice: Nf3").await;
    assert!(to(&out, "[@carol]").is_empty(), "{out:#?}");
    assert!(
        has(&out, "[@dave] ") && has(&out, "alice played Nf3"),
        "{out:#?}"
    );

    // The end is the last they hear; then the game is no longer watched.
    let out = resign(&mut chat, "bob", &id, "b").await;
    assert!(
        has(&out, "[@dave] ") && has(&out, "bob resigned"),
        "{out:#?}"
    );
    assert!(
        !to(&out, "[@dave]").iter().any(|l| l.contains("/press")),
        "no buttons for spectators: {out:#?}"
    );
    let out = chat.say(&format!("dave (dm): /watch {id}")).await;
    assert!(has(&out, &format!("Game {id} is not running")), "{out:#?}");
    let out = chat.say("dave (dm): /watch nosuch").await;
    assert!(has(&out, "There is no game"), "{out:#?}");
}

#[tokio::test]
async fn one_chat_watches_a_limited_number_of_games() {
    let mut chat = Chat::new("watch-limit").await;
    let mut ids = Vec::new();
    for player in ["p1", "p2", "p3", "p4", "p5", "p6"] {
        ids.push(game_id(&chat.say(&format!("{player}: /play chess")).await));
    }
    for id in &ids[..kodex_bot::service::MAX_WATCHED] {
        let out = chat.say(&format!("carol (dm): /watch {id}")).await;
        assert!(has(&out, "Watching game"), "{out:#?}");
    }
    let out = chat.say(&format!("carol (dm): /watch {}", ids[5])).await;
    assert!(has(&out, "watches at most 5 games"), "{out:#?}");
    // A challenge withdrawn is watched no more.
    chat.say(&format!("p1: /decline {}", ids[0])).await;
    let out = chat.say(&format!("carol (dm): /watch {}", ids[5])).await;
    assert!(has(&out, "Watching game"), "{out:#?}");
    // The game's own chat needs no watching.
    let out = chat.say(&format!("carol: /watch {}", ids[5])).await;
    assert!(has(&out, "is played in this chat already"), "{out:#?}");
}

#[tokio::test]
async fn a_spectator_of_a_fog_game_sees_only_the_public_view_and_the_record_at_the_end() {
    let mut chat = Chat::new("watch-fog").await;
    let id = chat.start("alice", "bob", "fogofwar").await;
    let out = chat.say(&format!("carol (dm): /watch {id}")).await;
    assert!(
        has(&out, "Watching game") && !has(&out, "image:"),
        "no board of a fog game: {out:#?}"
    );
    let mut out = chat.script(&["alice (dm): e4", "bob (dm): e5"]).await;
    let carol = heard(&out, "[@carol]");
    assert!(!carol.is_empty(), "{out:#?}");
    assert_eq!(carol, heard(&out, "[#local]"), "{out:#?}");
    assert!(
        carol
            .iter()
            .all(|l| !l.contains("e4") && !l.contains("e5") && !l.contains("image:")),
        "{out:#?}"
    );
    out = resign(&mut chat, "alice", &id, "w").await;
    assert!(has(&out, "[@carol] ") && has(&out, "1. e4 e5"), "{out:#?}");
}

#[tokio::test]
async fn a_player_is_reminded_once_when_their_time_runs_low() {
    let mut chat = Chat::new("reminders").await;
    let id = chat.start("alice", "bob", "chess 1d").await;
    // A quarter of a day is left after 18 hours.
    assert!(chat.advance(17 * HOUR).await.is_empty());
    let out = chat.advance(2 * HOUR).await;
    assert_eq!(out.len(), 1, "{out:#?}");
    assert!(
        has(
            &out,
            &format!("[@alice] ⏰ Game {id} against bob: your move, and 5:00:00 left")
        ),
        "{out:#?}"
    );
    // Once, even across a restart.
    let mut chat = chat.restart().await;
    assert!(chat.advance(HOUR).await.is_empty());
    // A new move, a new reminder (correspondence: once per move).
    chat.say("alice: e4").await;
    assert!(chat.advance(17 * HOUR).await.is_empty());
    let out = chat.advance(2 * HOUR).await;
    assert!(
        has(&out, "[@bob] ⏰") && to(&out, "[@alice]").is_empty(),
        "{out:#?}"
    );
}

#[tokio::test]
async fn private_moves_use_the_notation_a_player_chose() {
    let mut chat = Chat::new("notation").await;
    let out = chat.say("bob (dm): /notation ru").await;
    assert!(
        has(&out, "[@bob] From now on your moves are shown with Russian"),
        "{out:#?}"
    );
    let out = chat.say("bob (dm): /notation").await;
    assert!(has(&out, "Russian piece letters (Кр Ф Л С К)"), "{out:#?}");
    assert!(has(&chat.say("bob: /notation xx").await, "/notation auto"));
    let id = chat.start("alice", "bob", "fogofwar").await;
    let out = chat.script(&["alice (dm): Nf3", "bob (dm): Nc6"]).await;
    assert!(
        has(&out, &format!("[@bob] {id}: you played Кc6")),
        "{out:#?}"
    );
    assert!(
        !to(&out, "[#local]").iter().any(|l| l.contains('К')),
        "{out:#?}"
    );
    let out = chat.script(&["alice (dm): e4"]).await;
    assert!(
        has(&out, &format!("[@alice] {id}: you played e4")),
        "{out:#?}"
    );
    chat.say("bob (dm): /notation auto").await;
    let out = chat.say("bob (dm): Nf6").await;
    assert!(
        has(&out, &format!("[@bob] {id}: you played Nf6")),
        "{out:#?}"
    );
}

#[tokio::test]
async fn a_live_clock_reminds_each_player_once_per_game() {
    let mut chat = Chat::new("reminders-live").await;
    let id = chat.start("alice", "bob", "chess 1+0").await;
    // 6 s is a tenth of a minute: alice hears it at 54 s.
    assert!(chat.advance(53_000).await.is_empty());
    let out = chat.advance(2_000).await;
    assert!(
        has(
            &out,
            &format!("[@alice] ⏰ Game {id} against bob: your move, and 0:05 left")
        ),
        "{out:#?}"
    );
    chat.say("alice: e4").await;
    chat.say("bob: e5").await;
    // Back on the move with 5 s: no second reminder, only the flag.
    assert!(chat.advance(4_000).await.is_empty());
    let out = chat.advance(2_000).await;
    assert!(
        has(&out, "alice ran out of time") && to(&out, "[@alice]").is_empty(),
        "{out:#?}"
    );
}

#[tokio::test]
async fn a_spectator_hears_the_game_in_their_own_language() {
    let mut chat = Chat::new("watch-language").await;
    let id = chat.start("alice", "bob", "chess").await;
    chat.say("carol: /lang ru").await;
    let out = chat.say(&format!("carol (dm): /watch {id}")).await;
    assert!(
        has(&out, &format!("[@carol] Партия {id} теперь видна здесь")),
        "{out:#?}"
    );
    let out = chat.script(&["alice: e4", "bob: Nc6"]).await;
    assert!(
        has(&out, &format!("[#local] {id}: alice played e4")),
        "{out:#?}"
    );
    assert!(
        has(&out, &format!("[@carol] {id}: ход alice: e4")),
        "{out:#?}"
    );
    assert!(
        has(&out, &format!("[@carol] {id}: ход bob: Кc6")),
        "{out:#?}"
    );
    assert!(
        to(&out, "[@carol]").iter().any(|l| l.contains("image:")),
        "with the board: {out:#?}"
    );
}

#[tokio::test]
async fn review_names_a_finished_games_biggest_mistakes_in_the_chats_language() {
    let mut chat = Chat::new("review").await;
    let id = chat.start("alice", "bob", "chess").await;
    chat.say("alice: f3").await;
    // Not before the end: a review during play would be advice.
    let early = chat.say("bob: /review").await;
    assert!(has(&early, "not over yet"), "{early:#?}");
    chat.say("bob: e5").await;
    chat.say("alice: g4").await;
    let mate = chat.say("bob: Qh4#").await;
    assert!(has(&mate, "0-1"), "{mate:#?}");
    let review = chat.say("carol: /review").await;
    let said = heard(&review, "[#local]");
    assert!(said.iter().any(|l| l.contains(&id)), "{review:#?}");
    assert!(
        said.iter()
            .any(|l| l.starts_with("2.g4?") && l.contains("allows a forced mate")),
        "{review:#?}"
    );
    // In Russian, with Russian piece letters in the better move.
    chat.say("alice: /lang chat ru").await;
    let review = chat.say(&format!("carol: /review {id}")).await;
    let said = heard(&review, "[#local]");
    assert!(
        said.iter()
            .any(|l| l.starts_with("2.g4?") && l.contains("допускает форсированный мат")),
        "{review:#?}"
    );
    assert!(!has(&review, "allows"), "{review:#?}");
}

#[tokio::test]
async fn board_and_watch_show_the_material_and_last_move_the_turns_board_shows() {
    let mut chat = Chat::new("board-strips").await;
    let id = chat.start("alice", "bob", "chess").await;
    chat.say("alice: e4").await;
    chat.say("bob: d5").await;
    // White takes a pawn: black to move, the chat's board from black's side
    // with white's pawn up and "2. exd5" in the footer.
    let taken = chat.say("alice: exd5").await;
    let turn_board = last_image(&chat, &taken);
    // Black's /board is drawn from the same side: the same image.
    let board = chat.say("bob: /board").await;
    assert_eq!(last_image(&chat, &board), turn_board, "{board:#?}");
    // A spectator's first board too.
    let watched = chat.say(&format!("dave (#club): /watch {id}")).await;
    assert_eq!(last_image(&chat, &watched), turn_board, "{watched:#?}");
}
