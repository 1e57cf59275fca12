//! What one person may do, tried as an attacker would: open challenges and
//! running games are limited (configurable), with a clear refusal in their
//! language that stores nothing; an open challenge is taken only in its
//! chat; console input that is not UTF-8 is read, not fatal.

use crate::console_support::{self, game_id, has, Chat};

#[tokio::test]
async fn open_challenges_and_running_games_are_limited() {
    let mut chat = Chat::configured("limits", |config| {
        config.games.max_open_challenges = 2;
        config.games.max_running_games = 1;
    })
    .await;
    let mut ids = Vec::new();
    for _ in 0..2 {
        let out = chat.say("alice: /play chess").await;
        ids.push(game_id(&out));
    }
    let out = chat.say("alice: /play atomic").await;
    assert!(has(&out, "You have 2 open challenges already"), "{out:#?}");
    assert!(!has(&out, "/press acc:"), "{out:#?}");
    chat.say("alice: /lang ru").await;
    let out = chat.say("alice: /play atomic").await;
    assert!(has(&out, "У вас уже 2 открытых вызова:"), "{out:#?}");

    // bob takes one: now alice plays one game, which is her limit…
    let out = chat.say(&format!("bob: /accept {}", ids[0])).await;
    assert!(has(&out, "starts"), "{out:#?}");
    let out = chat.say("carol: /play chess @alice").await;
    assert!(has(&out, "/press acc:"), "{out:#?}");
    let out = chat.say("alice: /accept").await;
    assert!(has(&out, "Вы уже играете 1 партию:"), "{out:#?}");
    // …and bob's: he cannot challenge the computer as well.
    let out = chat.say("bob: /play chess computer").await;
    assert!(has(&out, "You are playing 1 game already"), "{out:#?}");
}

#[tokio::test]
async fn an_open_challenge_is_accepted_only_in_its_chat() {
    let mut chat = Chat::new("accept-elsewhere").await;
    let out = chat.say("alice: /play chess").await;
    let open = game_id(&out);
    let out = chat.say(&format!("bob (dm): /accept {open}")).await;
    assert!(
        has(&out, "is open to the chat where it was made"),
        "{out:#?}"
    );
    assert!(!has(&out, "starts"), "{out:#?}");
    let out = chat.say(&format!("bob: /accept {open}")).await;
    assert!(has(&out, "starts"), "{out:#?}");
    // A challenge to bob by name he may accept from his private chat.
    let out = chat.say("carol: /play chess @bob").await;
    let named = game_id(&out);
    let out = chat.say(&format!("bob (dm): /accept {named}")).await;
    assert!(has(&out, "starts"), "{out:#?}");
}

#[tokio::test]
async fn console_input_that_is_not_utf8_is_replaced_not_fatal() {
    let chat = Chat::new("not-utf8").await;
    let input: &'static [u8] =
        b"alice: /play chess @bob white\n\xff\xfe\xfd e4 \xc3\n\r\nbob: /accept\nalice: e4\n";
    let console = kodex_bot::console::Console::new(chat.service.clone(), chat.dir.join("boards"));
    console
        .run(input)
        .await
        .expect("the console reads to the end");
    // The lines after the garbage were read: the game started and e4 stands.
    let rows = chat
        .service
        .store()
        .open_games_of("console", "alice")
        .await
        .expect("the store answers");
    assert_eq!(rows.len(), 1, "{rows:#?}");
    assert_eq!(rows[0].moves, "e2e4");
}

#[tokio::test]
async fn the_list_of_games_stays_short() {
    let mut chat = Chat::new("many-games").await;
    for i in 0..15 {
        let out = chat.say(&format!("alice: /play chess @p{i} black")).await;
        let id = game_id(&out);
        chat.say(&format!("p{i}: /accept {id}")).await;
    }
    // One game waits for alice: it is listed first.
    chat.say("p3: /play atomic @alice white").await;
    let out = chat.say("alice: /accept").await;
    let id = console_support::game_id_of_start(&out);
    chat.say(&format!("p3: e4 {id}")).await;
    let out = chat.say("alice: /games").await;
    let lines: Vec<&String> = out.iter().filter(|l| l.starts_with("[@alice]")).collect();
    assert_eq!(lines.len(), 1 + 12 + 1, "{out:#?}");
    assert!(
        lines[1].contains(&id) && lines[1].contains("your move"),
        "{out:#?}"
    );
    assert!(lines[13].contains("…and 4 more."), "{out:#?}");
}
