//! Rated games end to end at the console: which games are rated, both
//! ratings changed by Glicko-2 at the end of a rated game (and only then),
//! `/rating`, `/leaderboard` and `/stats` in English and Russian, the
//! deviation growing while nobody plays, and ratings kept over a restart.

use crate::console_support::{game_id, has, play_moves, to, Chat, EPOCH};
use kodex_bot::store::RawValue;

/// Fool's mate: black (the second player) mates on move two.
const FOOLS_MATE: [&str; 4] = ["f3", "e5", "g4", "Qh4#"];

/// `white` challenges `black` to `args` as white, `black` accepts; returns
/// the game id, the challenge and what the accept printed.
async fn challenge_accepted(
    chat: &mut Chat,
    white: &str,
    black: &str,
    args: &str,
) -> (String, Vec<String>, Vec<String>) {
    let challenge = chat
        .say(&format!("{white}: /play chess @{black} {args} white"))
        .await;
    let id = game_id(&challenge);
    let accepted = chat.say(&format!("{black}: /accept {id}")).await;
    assert!(has(&accepted, "starts"), "{accepted:#?}");
    (id, challenge, accepted)
}

/// Says `line` and asserts that the output holds each of `expected`.
async fn says(chat: &mut Chat, line: &str, expected: &[&str]) {
    let out = chat.say(line).await;
    for text in expected {
        assert!(has(&out, text), "{line}: {text:?} in {out:#?}");
    }
}

/// Plays fool's mate in game of `white` and `black`; returns what the mate printed.
async fn fools_mate(chat: &mut Chat, white: &str, black: &str) -> Vec<String> {
    let players = [white, black, white];
    let moves: Vec<(&str, &str)> = players.iter().copied().zip(FOOLS_MATE).collect();
    play_moves(&mut chat.console, &moves).await;
    chat.say(&format!("{black}: /move Qh4#")).await
}

#[tokio::test]
async fn a_rated_game_changes_both_ratings_and_the_commands_show_them() {
    let mut chat = Chat::new("ratings").await;
    // With a clock a game between two people is rated, and says so.
    let (id, challenge, started) = challenge_accepted(&mut chat, "alice", "bob", "5+3").await;
    assert!(has(&challenge, "Rated game"), "{challenge:#?}");
    assert!(
        to(&started, "[#local]")
            .iter()
            .any(|l| l.contains("Rated game: the result changes both players' ratings.")),
        "{started:#?}"
    );
    assert!(chat.row(&id).await.rated);
    says(
        &mut chat,
        "alice: /rating",
        &["[@alice] alice has no rated games yet."],
    )
    .await;
    // bob mates: both start at 1500/350, Glicko-2 moves each by 162.
    let out = fools_mate(&mut chat, "alice", "bob").await;
    assert!(
        has(&out, "0-1 — bob (black) wins")
            && has(&out, "Ratings: alice 1338? (−162), bob 1662? (+162)"),
        "{out:#?}"
    );
    // A draw by agreement between them, a minute later (the games' order is
    // the order they ended in): the lower-rated alice gains 85.
    chat.advance(60_000).await;
    let (id2, _, _) = challenge_accepted(&mut chat, "alice", "bob", "5+3").await;
    chat.script(&["alice: e4", "bob: e5", "alice: /draw"]).await;
    says(
        &mut chat,
        "bob: /draw",
        &[
            "draw: agreed",
            "Ratings: alice 1423? (+85), bob 1577? (−85)",
        ],
    )
    .await;
    assert_ne!(id, id2);

    says(
        &mut chat,
        "alice: /rating",
        &[
            "[@alice] Ratings of alice:",
            "Standard: 1423? (RD ?) · 2 games: 0 won, 1 drawn, 1 lost · best —",
        ],
    )
    .await;
    says(
        &mut chat,
        "alice: /rating @bob",
        &[
            "Ratings of bob:",
            "Standard: 1577? (RD ?) · 2 games: 1 won, 1 drawn, 0 lost · best —",
        ],
    )
    .await;
    says(
        &mut chat,
        "carol: /stats @bob",
        &[
            "[@carol] bob: 2 games — 1 won, 1 drawn, 0 lost.",
            "Standard: 2 — 1 won, 1 drawn, 0 lost",
            "Winning streak: 0 now, 1 at best.",
        ],
    )
    .await;
    // Provisional ratings are not on the leaderboard.
    says(
        &mut chat,
        "alice: /leaderboard",
        &["Nobody here has a settled Standard rating yet"],
    )
    .await;

    // In Russian.
    chat.say("alice: /lang ru").await;
    says(
        &mut chat,
        "alice: /рейтинг",
        &[
            "Рейтинг игрока alice:",
            "Классика: 1423? (RD ?) · 2 партии: побед 0, ничьих 1, поражений 1 · лучший —",
        ],
    )
    .await;
    says(
        &mut chat,
        "alice: /статистика @bob",
        &[
            "bob: 2 партии — побед 1, ничьих 1, поражений 0.",
            "Серия побед: сейчас 0, лучшая 1.",
        ],
    )
    .await;
    says(
        &mut chat,
        "alice: /лидеры",
        &["Здесь пока ни у кого нет устоявшегося рейтинга"],
    )
    .await;

    // A restart keeps them (the SQLite file).
    let mut chat = chat.restart().await;
    says(
        &mut chat,
        "bob: /rating",
        &["Standard: 1577? (RD ?) · 2 games: 1 won, 1 drawn, 0 lost · best —"],
    )
    .await;
}

#[tokio::test]
async fn casual_computer_position_and_unfinished_games_change_no_rating() {
    let mut chat = Chat::new("casual").await;
    // Asked casual: said so, and the mate changes nothing.
    let (id, challenge, started) =
        challenge_accepted(&mut chat, "alice", "bob", "5+3 casual").await;
    assert!(
        has(&challenge, "Casual game: ratings do not change."),
        "{challenge:#?}"
    );
    assert!(has(&started, "Casual game"), "{started:#?}");
    assert!(!chat.row(&id).await.rated);
    let out = fools_mate(&mut chat, "alice", "bob").await;
    assert!(has(&out, "0-1") && !has(&out, "Ratings:"), "{out:#?}");
    // Without a clock: casual by default, and rated cannot be asked for.
    let (id, challenge, _) = challenge_accepted(&mut chat, "alice", "bob", "").await;
    assert!(has(&challenge, "Casual game"), "{challenge:#?}");
    assert!(!chat.row(&id).await.rated);
    chat.say(&format!("alice: /abort {id}")).await;
    says(
        &mut chat,
        "alice: /play chess @bob rated",
        &["[@alice] Only games with a clock are rated"],
    )
    .await;
    let out = chat
        .say("alice: /play chess computer 5+3 рейтинговая")
        .await;
    assert!(
        has(&out, "Games against the computer are never rated"),
        "{out:#?}"
    );
    let out = chat
        .say("alice: /play chess @bob 5+3 rated fen:4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
        .await;
    assert!(
        has(&out, "Games from a set position are never rated"),
        "{out:#?}"
    );
    says(
        &mut chat,
        "alice: /play bughouse @bob 3+0 rated",
        &["Games of more than two players are never rated"],
    )
    .await;
    // A rated game resigned before both sides moved is no rated game.
    let (id, _, _) = challenge_accepted(&mut chat, "alice", "bob", "5+3").await;
    assert!(chat.row(&id).await.rated);
    chat.say("alice: e4").await;
    chat.say("bob: /resign").await;
    let out = chat.say(&format!("bob: /press rsg:{id}:b")).await;
    assert!(
        has(&out, "bob resigned") && !has(&out, "Ratings:"),
        "{out:#?}"
    );
    // A rated game aborted is no game at all.
    let (id, _, _) = challenge_accepted(&mut chat, "alice", "bob", "5+3").await;
    let out = chat.say(&format!("bob: /abort {id}")).await;
    assert!(!has(&out, "Ratings:"), "{out:#?}");
    for who in ["alice", "bob"] {
        let out = chat.say(&format!("{who}: /rating")).await;
        assert!(has(&out, "has no rated games yet"), "{who}: {out:#?}");
    }
    // /stats counts every finished game, rated or not.
    says(
        &mut chat,
        "bob: /stats",
        &[
            "bob: 2 games — 1 won, 0 drawn, 1 lost.",
            "Winning streak: 0 now, 1 at best.",
        ],
    )
    .await;
}

/// Writes settled ratings (RD 60) straight into the database of `chat`:
/// `(name, rating, chat)` each, with one rated game in that chat.
async fn settled_players(chat: &Chat, players: &[(&str, f64, &str)]) {
    let store = chat.service.store();
    for (i, (name, rating, in_chat)) in players.iter().enumerate() {
        let name = RawValue::Text((*name).to_owned());
        store
            .execute_raw(
                "INSERT INTO ratings (platform, user_id, variant, user_name, rating, rd, \
                 volatility, games, wins, draws, losses, best, rated_at) \
                 VALUES ('console', ?, 'chess', ?, ?, 60, 0.06, 30, 15, 0, 15, ?, ?)",
                &[
                    name.clone(),
                    name.clone(),
                    RawValue::Real(*rating),
                    RawValue::Real(*rating),
                    RawValue::Int(EPOCH),
                ],
            )
            .await
            .expect("rating");
        store
            .execute_raw(
                "INSERT INTO rating_history (platform, game_id, user_id, variant, chat_id, \
                 opponent_id, score, rating_before, rd_before, rating_after, rd_after, \
                 played_at) VALUES ('console', ?, ?, 'chess', ?, 'x', 1, ?, 61, ?, 60, ?)",
                &[
                    RawValue::Text(format!("g{i}")),
                    name,
                    RawValue::Text((*in_chat).to_owned()),
                    RawValue::Real(*rating),
                    RawValue::Real(*rating),
                    RawValue::Int(EPOCH),
                ],
            )
            .await
            .expect("history");
    }
}

#[tokio::test]
async fn the_leaderboard_lists_settled_ratings_of_this_chat_or_all_ten_to_a_page() {
    let mut chat = Chat::new("leaderboard").await;
    let names: Vec<String> = (1..=11).map(|n| format!("p{n:02}")).collect();
    let mut players: Vec<(&str, f64, &str)> = names
        .iter()
        .enumerate()
        .map(|(i, name)| (name.as_str(), 2000.0 - 10.0 * i as f64, "local"))
        .collect();
    // The best of all played elsewhere only.
    players.push(("zed", 2500.0, "elsewhere"));
    settled_players(&chat, &players).await;
    // A newcomer's provisional rating is not listed.
    fools_mate_rated(&mut chat).await;

    let out = chat.say("alice: /leaderboard chess").await;
    let text = to(&out, "[@alice]")
        .iter()
        .map(|l| l.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        text.contains("Standard: the best rated players of this chat (page 1 of 2)")
            && text.contains("1. p01 2000 (30 games)")
            && text.contains("10. p10 1910 (30 games)")
            && !text.contains("p11")
            && !text.contains("zed")
            && !text.contains("bob")
            && text.contains("Next page: /leaderboard chess 2"),
        "{out:#?}"
    );
    says(
        &mut chat,
        "alice: /leaderboard chess 2",
        &["(page 2 of 2)", "11. p11 1900 (30 games)"],
    )
    .await;
    says(
        &mut chat,
        "alice: /leaderboard global",
        &[
            "the best rated players of the whole platform (page 1 of 2)",
            "1. zed 2500 (30 games)",
            "2. p01 2000",
            "Next page: /leaderboard chess global 2",
        ],
    )
    .await;
    says(
        &mut chat,
        "alice: /leaderboard chess 3",
        &["[@alice] There is no page 3: the list has 2 pages."],
    )
    .await;
    let out = chat.say("alice: /leaderboard xyzzy").await;
    assert!(has(&out, "I don't know the variant “xyzzy”"), "{out:#?}");
    chat.say("alice: /lang ru").await;
    says(
        &mut chat,
        "alice: /топ",
        &[
            "Классика: лучшие игроки этого чата по рейтингу (страница 1 из 2)",
            "1. p01 2000 (30 партий)",
            "Следующая страница: /leaderboard chess 2",
        ],
    )
    .await;
    // Nobody plays for a hundred days: every deviation grows past 110 and
    // the ratings are provisional again.
    let day = 24 * 60 * 60 * 1000;
    chat.advance(100 * day).await;
    says(
        &mut chat,
        "bob: /leaderboard global",
        &["Nobody has a settled Standard rating yet"],
    )
    .await;
    let out = chat.say("bob: /rating @p01").await;
    assert!(has(&out, "Standard: 2000? (RD ?)"), "{out:#?}");
}

/// alice and bob play one rated game (bob mates).
async fn fools_mate_rated(chat: &mut Chat) {
    challenge_accepted(chat, "alice", "bob", "5+3").await;
    let out = fools_mate(chat, "alice", "bob").await;
    assert!(has(&out, "Ratings:"), "{out:#?}");
}
