//! Game ids cannot be guessed: new ids are long and random; a short form (a
//! prefix, or the short id of a game stored by an earlier version) names
//! only the caller's own games — never a stranger's in another chat; and
//! whoever names too many unknown ids is refused for a while. Console chats
//! on a temporary database with a hand-moved clock.

use crate::console_support::{self, has, Chat};
use kodex_bot::service::{GAME_ID_ALPHABET, GAME_ID_LEN, MAX_UNKNOWN_IDS, UNKNOWN_ID_WINDOW};

/// Renames game `from` to `to` in the database of `chat`, seats and all, as
/// if it had been stored so (an older version's short id, or a chosen one).
async fn rename_game(chat: &Chat, from: &str, to: &str) {
    use sqlx::sqlite::SqliteConnectOptions;
    use std::str::FromStr;
    let options = SqliteConnectOptions::from_str(&console_support::database_url(&chat.dir))
        .expect("url")
        .foreign_keys(false);
    let pool = sqlx::SqlitePool::connect_with(options)
        .await
        .expect("connects");
    for sql in [
        "UPDATE games SET id = ? WHERE id = ?",
        "UPDATE seats SET game_id = ? WHERE game_id = ?",
    ] {
        sqlx::query(sql)
            .bind(to.to_owned())
            .bind(from.to_owned())
            .execute(&pool)
            .await
            .expect("renamed");
    }
    pool.close().await;
}

/// Whether `out` shows a board image to `audience`.
fn board_for(out: &[String], audience: &str) -> bool {
    out.iter()
        .any(|line| line.starts_with(audience) && line.contains("image:"))
}

#[tokio::test]
async fn new_game_ids_are_long_and_of_the_alphabet_that_never_reads_as_a_move() {
    let mut chat = Chat::new("ids-new").await;
    let mut ids = Vec::new();
    for _ in 0..5 {
        let id = chat.start("alice", "bob", "chess").await;
        chat.say(&format!("alice: /abort {id}")).await;
        ids.push(id);
    }
    for id in &ids {
        assert_eq!(id.len(), 12, "{id}");
        assert_eq!(id.len(), GAME_ID_LEN, "{id}");
        assert!(id.chars().all(|c| GAME_ID_ALPHABET.contains(c)), "{id}");
        assert!(!id.chars().any(|c| ('a'..='h').contains(&c)), "{id}");
    }
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 5);
}

#[tokio::test]
async fn a_short_form_names_ones_own_games_and_never_a_strangers() {
    if crate::console_support::sqlite_only(
        "a_short_form_names_ones_own_games_and_never_a_strangers",
    ) {
        return;
    }
    let mut chat = Chat::new("ids-short").await;
    let id = chat.start("alice", "bob", "chess").await;
    chat.say("alice: e4").await;
    let short = &id[..4];
    let longer = &id[..7];

    // Its players, anywhere; the chat it is played in.
    let out = chat.say(&format!("alice (dm): /board {short}")).await;
    assert!(board_for(&out, "[@alice]"), "{out:#?}");
    let out = chat.say(&format!("bob: /move e5 {longer}")).await;
    assert!(has(&out, "bob played e5"), "{out:#?}");
    let out = chat
        .say(&format!("carol: /board {}", short.to_uppercase()))
        .await;
    assert!(board_for(&out, "[#local]"), "{out:#?}");
    let out = chat.say(&format!("carol: /pgn #{short}")).await;
    assert!(has(&out, "1. e4 e5"), "{out:#?}");

    // A stranger in another chat: the short form names nothing, and is
    // told so exactly as for an id of no game at all.
    for line in [
        format!("erin (dm): /board {short}"),
        format!("erin (dm): /pgn {longer}"),
        format!("erin (dm): /watch {short}"),
        format!("erin (dm): /board {}", &id[..GAME_ID_LEN - 1]),
    ] {
        let out = chat.say(&line).await;
        let typed = line.rsplit(' ').next().unwrap();
        assert_eq!(
            out,
            vec![format!(
                "[@erin] There is no game “{typed}”. /games lists yours."
            )],
            "{line}"
        );
    }
    // The whole id names it for anyone.
    let out = chat.say(&format!("erin (dm): /board {id}")).await;
    assert!(board_for(&out, "[@erin]"), "{out:#?}");
    // Once erin watches it, the short form names it for her too.
    let out = chat.say(&format!("erin (dm): /watch {id}")).await;
    assert!(has(&out, "[@erin]"), "{out:#?}");
    let out = chat.say(&format!("erin (dm): /pgn {short}")).await;
    assert!(has(&out, "1. e4 e5"), "{out:#?}");
    let out = chat.say(&format!("erin (dm): /unwatch {short}")).await;
    assert!(has(&out, &id), "{out:#?}");
    let out = chat.say(&format!("erin (dm): /pgn {short}")).await;
    assert!(has(&out, "There is no game"), "{out:#?}");

    // Fewer than four letters name nothing.
    let out = chat.say(&format!("alice: /board {}", &id[..3])).await;
    assert!(has(&out, "There is no game"), "{out:#?}");

    // Two of one's games sharing a short form: which one is asked.
    let other = chat.start("alice", "carol", "chess").await;
    let (first, second) = ("qqqqjjjjjjjj", "qqqqkkkkkkkk");
    rename_game(&chat, &id, first).await;
    rename_game(&chat, &other, second).await;
    let out = chat.say("alice (dm): /board qqqq").await;
    assert!(has(&out, "several games"), "{out:#?}");
    assert!(has(&out, first) && has(&out, second), "{out:#?}");
    let out = chat.say("alice (dm): /board qqqqk").await;
    assert!(board_for(&out, "[@alice]"), "{out:#?}");
    assert!(has(&out, second), "{out:#?}");
}

#[tokio::test]
async fn a_short_id_stored_by_an_earlier_version_still_names_its_game() {
    if crate::console_support::sqlite_only(
        "a_short_id_stored_by_an_earlier_version_still_names_its_game",
    ) {
        return;
    }
    let mut chat = Chat::new("ids-old").await;
    let id = chat.start("alice", "bob", "chess").await;
    rename_game(&chat, &id, "k7m2").await;
    // Its players and its chat name it as before; moves and buttons work.
    let out = chat.say("alice: /move e4 k7m2").await;
    assert!(has(&out, "alice played e4"), "{out:#?}");
    let out = chat.say("bob (dm): /board k7m2").await;
    assert!(board_for(&out, "[@bob]"), "{out:#?}");
    let out = chat.say("carol: /pgn K7M2").await;
    assert!(has(&out, "1. e4"), "{out:#?}");
    let out = chat.say("bob: /draw k7m2").await;
    assert!(has(&out, "/press draw:k7m2"), "{out:#?}");
    let out = chat.say("alice: /press nodraw:k7m2").await;
    assert!(has(&out, "[#local]"), "{out:#?}");
    // A stranger elsewhere cannot guess it: a short id is a short form.
    let out = chat.say("erin (dm): /board k7m2").await;
    assert!(has(&out, "There is no game"), "{out:#?}");

    // An old id that is also the start of a new one: the old game is the
    // one it names; a longer form names the new one.
    let newer = chat.start("alice", "carol", "chess").await;
    rename_game(&chat, &newer, "k7m2pppppppp").await;
    let out = chat.say("alice (dm): /pgn k7m2").await;
    assert!(has(&out, "1. e4") && !has(&out, "k7m2pppppppp"), "{out:#?}");
    let out = chat.say("alice (dm): /board k7m2p").await;
    assert!(has(&out, "k7m2pppppppp"), "{out:#?}");
}

#[tokio::test]
async fn naming_too_many_unknown_ids_is_refused_for_a_while() {
    let mut chat = Chat::new("ids-limit").await;
    let theirs = chat.start("alice", "bob", "chess").await;
    let own = chat.start("erin", "frank", "chess").await;
    let unknown = |n: usize| format!("{:j>width$}", n % 8 + 2, width = GAME_ID_LEN);

    // Plain chat text that names no game of the sender says nothing and
    // counts for nothing.
    for n in 0..2 * MAX_UNKNOWN_IDS {
        let out = chat.say(&format!("erin (dm): e4 {}", unknown(n))).await;
        assert!(out.is_empty(), "{out:#?}");
    }
    for n in 0..MAX_UNKNOWN_IDS {
        let out = chat.say(&format!("erin (dm): /board {}", unknown(n))).await;
        assert!(has(&out, "There is no game"), "{n}: {out:#?}");
    }
    // Now even a real id is refused to erin, in her language.
    let out = chat.say(&format!("erin (dm): /board {theirs}")).await;
    assert_eq!(
        out,
        vec![
            "[@erin] You named too many game ids that are no game. Wait 10 minutes before \
             naming a game by its id again; your own games you can still name."
                .to_owned()
        ]
    );
    chat.say("erin: /lang ru").await;
    let out = chat.say(&format!("erin (dm): /watch {theirs}")).await;
    assert!(has(&out, "Подождите 10 минут"), "{out:#?}");
    // Her own games she still names, in full or short.
    let out = chat.say(&format!("erin (dm): /board {}", &own[..5])).await;
    assert!(board_for(&out, "[@erin]"), "{out:#?}");
    let out = chat.say(&format!("erin: /move e4 {own}")).await;
    assert!(has(&out, "erin"), "{out:#?}");
    assert_eq!(chat.row(&own).await.moves, "e2e4");
    // The limit is hers alone.
    let out = chat.say(&format!("dave (dm): /board {theirs}")).await;
    assert!(board_for(&out, "[@dave]"), "{out:#?}");

    // The oldest miss ages out of the window: one more lookup, then wait.
    chat.time.advance(UNKNOWN_ID_WINDOW - 60_000);
    let out = chat.say(&format!("erin (dm): /board {theirs}")).await;
    assert!(has(&out, "Подождите 1 минуту"), "{out:#?}");
    chat.time.advance(60_000);
    let out = chat.say(&format!("erin (dm): /board {theirs}")).await;
    assert!(board_for(&out, "[@erin]"), "{out:#?}");
}
