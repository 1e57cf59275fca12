//! Bughouse through the console, four people on two linked boards: alice
//! (white) and bob (black) on board A, carol (white) and dave (black) on
//! board B; alice and dave are partners against bob and carol. Whole games:
//! a drop-mate with a piece the partner captured, a flag on one board that
//! ends both, a resignation for the team, a restart with both clocks
//! running, `/partner` reaching the partner alone, and the BPGN record.

use crate::console_support::{has, last_image, team_game_id, to, Chat};
use kodex_bot::store::{GameResult, GameRow, Status};
use kodex_engine::Team;

/// Alice challenges with dave as her partner against bob and carol (who
/// take their seats); returns the ids of board A and board B.
async fn bughouse(chat: &mut Chat, clock: &str) -> (String, String) {
    let out = chat
        .say(&format!(
            "alice: /play bughouse @dave vs @bob @carol {clock} white"
        ))
        .await;
    let id = team_game_id(&out);
    assert!(has(&out, "seat 1 (white) alice"), "{out:#?}");
    assert!(has(&out, "seat 4 (black) dave (invited)"), "{out:#?}");
    chat.say(&format!("bob: /accept {id}")).await;
    chat.say(&format!("carol: /accept {id}")).await;
    let out = chat.say(&format!("dave: /accept {id}")).await;
    assert!(has(&out, "Bughouse game"), "{out:#?}");
    assert!(
        has(
            &out,
            "board A alice (white) – bob (black), board B carol (white) – dave (black)"
        ),
        "{out:#?}"
    );
    assert!(
        has(&out, "Partners: alice & dave against bob & carol"),
        "{out:#?}"
    );
    let a = chat.row(&id).await;
    let b_id = a.linked_id.clone().expect("board A names board B");
    let b = chat.row(&b_id).await;
    assert_eq!(b.linked_id.as_deref(), Some(id.as_str()));
    assert_eq!((a.board, b.board), (0, 1));
    assert_eq!(players(&a), vec![("alice", 0, 0), ("bob", 1, 1)]);
    assert_eq!(players(&b), vec![("carol", 0, 1), ("dave", 1, 0)]);
    (id, b_id)
}

/// Each seat of a board: player, side, team.
fn players(row: &GameRow) -> Vec<(&str, usize, usize)> {
    row.seats
        .iter()
        .map(|s| (s.user_id.as_str(), s.side.index(), s.team.index()))
        .collect()
}

/// `who` resigns, confirming with the button; what the confirmation printed.
async fn resign(chat: &mut Chat, who: &str) -> Vec<String> {
    let out = chat.say(&format!("{who}: /resign")).await;
    let press = out
        .iter()
        .find_map(|l| l.split_once("/press rsg:"))
        .map(|(_, rest)| rest.split(']').next().unwrap_or_default().to_owned())
        .unwrap_or_else(|| panic!("a resign button in {out:#?}"));
    chat.say(&format!("{who}: /press rsg:{press}")).await
}

/// Both boards `ids` are over, won by `team`, their clocks stopped.
async fn assert_team_won(chat: &Chat, ids: [&String; 2], team: u8) {
    for id in ids {
        let row = chat.row(id).await;
        assert_eq!(row.status, Status::Finished, "{id}");
        assert_eq!(
            row.result,
            Some(GameResult::Win { team: Team(team) }),
            "{id}"
        );
        assert_eq!(row.deadline, None, "{id}: the clock stopped");
    }
}

/// Width of the PNG named on the last `image:` line of `out`.
fn last_image_width(chat: &Chat, out: &[String]) -> u32 {
    kodex_tests::image_header::image_size(&last_image(chat, out))
        .expect("a PNG")
        .0
}

#[tokio::test]
async fn a_piece_the_partner_captured_is_dropped_to_mate_and_the_team_wins() {
    let mut chat = Chat::new("bughouse-drop-mate").await;
    // The width of one crazyhouse board, drawn alone, to compare the pair with.
    let single = chat.start("erin", "frank", "crazyhouse").await;
    let out = chat.say(&format!("erin: /board {single}")).await;
    let one_board = last_image_width(&chat, &out);
    chat.say(&format!("erin: /abort {single}")).await;

    let (a, b) = bughouse(&mut chat, "5+0").await;
    // Board A: alice weakens nothing; bob opens the king's diagonal.
    let out = chat.say("alice: e4").await;
    assert!(has(&out, "alice played e4"), "{out:#?}");
    // One message for both boards: each board's turn, one image of both.
    assert!(has(&out, "A · "), "{out:#?}");
    assert!(has(&out, "B · "), "{out:#?}");
    let pair = last_image_width(&chat, &out);
    assert!(
        pair > 2 * one_board && pair <= 2 * one_board + one_board / 4,
        "two boards side by side: {pair} px against {one_board} px for one"
    );
    chat.advance(1_000).await;
    // Both boards are played at once; each player finds their own board.
    chat.say("carol: e4").await;
    chat.advance(1_000).await;
    chat.say("bob: f5").await;
    chat.advance(1_000).await;
    chat.say("dave: d5").await;
    chat.advance(1_000).await;
    let out = chat.say("carol: Qg4").await;
    assert!(has(&out, "carol played Qg4"), "{out:#?}");
    // Not bob's turn on his board, and not dave's board at all.
    let out = chat.say("bob: /move a6").await;
    assert!(has(&out, "not your turn"), "{out:#?}");
    chat.advance(1_000).await;
    chat.say("alice: Bc4").await;
    chat.advance(1_000).await;
    // Alice has nothing to drop yet.
    let out = chat.say("alice: /move Q@f7").await;
    assert!(has(&out, "not your turn"), "{out:#?}");
    chat.say("bob: a6").await;
    let out = chat.say("alice: /move Q@f7").await;
    assert!(!has(&out, "alice played Q@f7"), "{out:#?}");
    chat.advance(1_000).await;
    // Dave takes carol's queen: it goes at once to alice's reserve.
    let out = chat.say("dave: Bxg4").await;
    assert!(has(&out, "dave played Bxg4"), "{out:#?}");
    assert!(has(&out, "alice gets a queen on board A"), "{out:#?}");
    let row = chat.row(&a).await;
    assert!(row.move_list().contains(&"+Q"), "{:?}", row.moves);
    assert!(chat.position(&a).await.fen().contains("[Q]"));
    // The move list of dave's board does not hold it.
    assert!(!chat.row(&b).await.moves.as_str().contains('+'));
    chat.advance(1_000).await;
    let out = chat.say("alice: Q@f7").await;
    assert!(has(&out, "alice played Q@f7#"), "{out:#?}");
    let public = to(&out, "[#local]");
    assert!(
        public
            .iter()
            .any(|l| l.contains("alice & dave win: checkmate on board A")),
        "{out:#?}"
    );
    // The game-end animation shows both boards: the start, then one frame
    // after each of the nine moves on either board.
    let gif = last_image(&chat, &out);
    let (width, _) = kodex_tests::image_header::image_size(&gif).expect("a GIF");
    assert_eq!(width, pair, "both boards in the animation");
    let mut decoder = gif::DecodeOptions::new()
        .read_info(std::io::Cursor::new(&gif))
        .expect("a valid GIF");
    let mut frames = 0;
    while decoder.read_next_frame().expect("a valid frame").is_some() {
        frames += 1;
    }
    assert_eq!(frames, 10);
    // The game ended on both boards, for the teams.
    assert_team_won(&chat, [&a, &b], 0).await;
    let out = chat.say("carol: e5").await;
    assert!(!has(&out, "carol played"), "{out:#?}");

    // The BPGN record: both boards' moves in the order played, with times.
    let out = chat.say(&format!("bob: /pgn {b}")).await;
    let text = out.join("\n");
    for tag in [
        "[WhiteA \"alice\"]",
        "[BlackA \"bob\"]",
        "[WhiteB \"carol\"]",
        "[BlackB \"dave\"]",
        "[Result \"1-0\"]",
    ] {
        assert!(text.contains(tag), "{tag}: {text}");
    }
    // (Each mover's time left: alice moved at once, carol after 1 s, …)
    let order = [
        "1A. e4 {300.0}",
        "1B. e4 {299.0}",
        "1a. f5 {298.0}",
        "1b. d5 {298.0}",
        "2B. Qg4 {298.0}",
        "2A. Bc4 {297.0}",
        "2a. a6 {297.0}",
        "2b. Bxg4 {295.0}",
        "3A. Q@f7# {295.0}",
    ];
    let places: Vec<usize> = order
        .iter()
        .map(|m| text.find(m).unwrap_or_else(|| panic!("{m} in {text}")))
        .collect();
    assert!(places.windows(2).all(|w| w[0] < w[1]), "{text}");
}

#[tokio::test]
async fn a_flag_on_one_board_ends_both_and_resigning_is_for_the_team() {
    let mut chat = Chat::new("bughouse-flag").await;
    let (a, b) = bughouse(&mut chat, "1+0").await;
    chat.say("alice: e4").await;
    chat.advance(10_000).await;
    chat.say("carol: e4").await;
    // Bob's clock on board A runs out first (dave has 10 s more on B).
    let out = chat.advance(49_000).await;
    assert!(!has(&out, "ran out of time"), "{out:#?}");
    assert_eq!(chat.row(&b).await.status, Status::Active);
    let out = chat.advance(2_000).await;
    assert!(has(&out, "bob ran out of time on board A"), "{out:#?}");
    assert!(has(&out, "alice & dave win"), "{out:#?}");
    assert_team_won(&chat, [&a, &b], 0).await;
    let row_b = chat.row(&b).await;
    // Dave's clock stopped where it was: 60 s less the 51 s he had the move.
    assert_eq!(row_b.remaining(1), Some(9_000));
    let out = chat.say("dave: e5").await;
    assert!(!has(&out, "dave played"), "{out:#?}");

    // A resignation on board B loses for carol's team on both boards.
    let (a, b) = bughouse(&mut chat, "5+0").await;
    chat.script(&["alice: d4", "carol: d4", "bob: d5"]).await;
    let out = resign(&mut chat, "carol").await;
    assert!(
        has(&out, "alice & dave win: carol resigned on board B"),
        "{out:#?}"
    );
    assert_team_won(&chat, [&a, &b], 0).await;
}

/// Both boards' flags fell before the bot looked (a pause, a restart): the
/// flag that fell first decides, whatever order the boards are read in.
#[tokio::test]
async fn of_two_flags_fallen_at_once_the_first_decides() {
    // The boards' ids are random. Reading the deadlines in id order would
    // let board A decide whenever its id sorts first, so the game is played
    // until that order has been seen too.
    let mut board_a_sorted_first = false;
    for attempt in 0..24 {
        let mut chat = Chat::new(&format!("bughouse-two-flags-{attempt}")).await;
        let (a, b) = bughouse(&mut chat, "1+0").await;
        // Carol's clock on board B ran from the start; dave's from her move.
        chat.advance(5_000).await;
        chat.say("carol: e4").await;
        chat.advance(10_000).await;
        chat.say("alice: e4").await;
        // Dave's flag fell at 65 s, bob's at 75 s; the bot looks at 80 s.
        let out = chat.advance(65_000).await;
        assert!(has(&out, "dave ran out of time on board B"), "{out:#?}");
        assert!(!has(&out, "bob ran out of time"), "{out:#?}");
        assert_team_won(&chat, [&a, &b], 1).await;
        if a < b {
            board_a_sorted_first = true;
            break;
        }
    }
    assert!(board_a_sorted_first, "board A's id never sorted first");
}

#[tokio::test]
async fn a_restart_resumes_both_boards_and_their_clocks() {
    let mut chat = Chat::new("bughouse-restart").await;
    let (a, b) = bughouse(&mut chat, "1+0").await;
    chat.say("alice: e4").await;
    chat.advance(5_000).await;
    chat.say("carol: d4").await;
    chat.advance(5_000).await;
    chat.say("bob: d5").await;
    let before = (chat.row(&a).await, chat.row(&b).await);
    let mut chat = chat.restart().await;
    // Both boards go on where they were, with the same records and clocks.
    let after = (chat.row(&a).await, chat.row(&b).await);
    assert_eq!(before.0.moves, after.0.moves);
    assert_eq!(before.1.moves, after.1.moves);
    assert_eq!(before.0.deadline, after.0.deadline);
    assert_eq!(before.1.deadline, after.1.deadline);
    let out = chat.say("alice: exd5").await;
    assert!(has(&out, "alice played exd5"), "{out:#?}");
    // The pawn alice took goes to dave's reserve on board B.
    assert!(has(&out, "dave gets a pawn on board B"), "{out:#?}");
    let out = chat.say("dave: @e5").await;
    assert!(has(&out, "dave played"), "{out:#?}");
    assert!(
        chat.row(&b).await.moves.as_str().ends_with("+p P@e5"),
        "{:?}",
        chat.row(&b).await.moves
    );
    chat.say("bob: Nf6").await;
    // Carol has had the move on board B since dave's drop (55 s left, alice
    // 60 s on board A): her flag falls first, and the game ends on both
    // boards.
    let carol_left = chat.row(&b).await.remaining(0).expect("a clock");
    let out = chat.advance(carol_left + 1_000).await;
    assert!(has(&out, "carol ran out of time on board B"), "{out:#?}");
    assert_team_won(&chat, [&a, &b], 0).await;
}

#[tokio::test]
async fn partners_talk_privately_and_no_one_else_hears() {
    let mut chat = Chat::new("bughouse-partner").await;
    let out = chat.say("alice: /partner hello").await;
    assert!(has(&out, "no running bughouse game"), "{out:#?}");
    let (a, b) = bughouse(&mut chat, "-").await;
    let out = chat.say("alice: /partner send me a knight, please").await;
    let told: Vec<&String> = out
        .iter()
        .filter(|l| l.contains("send me a knight"))
        .collect();
    assert_eq!(told.len(), 1, "{out:#?}");
    assert!(told[0].starts_with("[@dave]"), "{out:#?}");
    assert!(told[0].contains("alice (your partner"), "{out:#?}");
    assert!(
        to(&out, "[@alice]")
            .iter()
            .any(|l| l.contains("Sent to dave only")),
        "{out:#?}"
    );
    let out = chat.say("carol: /partner his king is weak").await;
    let told: Vec<&String> = out.iter().filter(|l| l.contains("king is weak")).collect();
    assert_eq!(told.len(), 1, "{out:#?}");
    assert!(told[0].starts_with("[@bob]"), "{out:#?}");
    let out = chat.say("dave: /partner").await;
    assert!(has(&out, "/partner <text>"), "{out:#?}");
    // Words in a private chat with the bot that are no move go to the
    // partner too.
    let out = chat.say("dave (dm): a knight is coming").await;
    let told: Vec<&String> = out
        .iter()
        .filter(|l| l.contains("a knight is coming"))
        .collect();
    assert_eq!(told.len(), 1, "{out:#?}");
    assert!(told[0].starts_with("[@alice]"), "{out:#?}");
    // Each reads it in their own language.
    chat.say("bob: /lang ru").await;
    let out = chat.say("carol: /partner он открыл короля").await;
    assert!(
        has(&out, "[@bob] 💬 carol (ваш партнёр, партия"),
        "{out:#?}"
    );
    // Asked for privately, both boards come with the asker's own at the
    // left, drawn from their side (dave: board B, black).
    let out = chat.say("dave (dm): /board").await;
    let image = to(&out, "[@dave]")
        .into_iter()
        .find(|l| l.contains("image:"))
        .unwrap_or_else(|| panic!("a private image in {out:#?}"));
    assert!(image.contains(&format!("{b}-")), "{image}");
    assert!(image.ends_with("-black.png"), "{image}");
    assert!(to(&out, "[#local]").is_empty(), "{out:#?}");
    // No takebacks: a move may already have fed the other board.
    chat.say("alice: e4").await;
    let out = chat.say("alice: /takeback").await;
    assert!(has(&out, "No takebacks in bughouse"), "{out:#?}");
    // A draw needs both players of the other team.
    let out = chat.say("alice: /draw").await;
    assert!(has(&out, "both bob & carol agree"), "{out:#?}");
    chat.say("bob: /draw").await;
    assert_eq!(chat.row(&a).await.status, Status::Active);
    // Carol answers with board A's id (the offer's button): either id
    // names the pair, and hers is the board meant.
    let out = chat.say(&format!("carol: /draw {a}")).await;
    assert!(has(&out, "draw"), "{out:#?}");
    assert_eq!(chat.row(&a).await.result, Some(GameResult::Draw));
}

#[tokio::test]
async fn an_open_bughouse_challenge_fills_its_seats_and_may_be_aborted() {
    let mut chat = Chat::new("bughouse-open").await;
    let out = chat.say("alice: /play bughouse").await;
    let id = team_game_id(&out);
    assert!(has(&out, "open"), "{out:#?}");
    for who in ["bob", "carol", "dave"] {
        chat.say(&format!("{who}: /accept {id}")).await;
    }
    let row = chat.row(&id).await;
    assert_eq!(row.status, Status::Active);
    let b = row.linked_id.clone().expect("two boards");
    let out = chat.say("bob: /abort").await;
    assert!(has(&out, "aborted"), "{out:#?}");
    for id in [&id, &b] {
        assert_eq!(chat.row(id).await.status, Status::Aborted, "{id}");
    }
}

#[tokio::test]
async fn the_computer_plays_a_board_until_the_game_ends_on_the_other() {
    let mut chat = Chat::new("bughouse-computer").await;
    // The computer sits where it is named: here an opponent, white on board B.
    let out = chat
        .say("alice: /play bughouse @dave vs @bob computer level 1 5+0 white")
        .await;
    let id = team_game_id(&out);
    assert!(has(&out, "seat 3 (white) Kodex L1"), "{out:#?}");
    chat.say(&format!("bob: /accept {id}")).await;
    chat.say(&format!("dave: /accept {id}")).await;
    let a = chat.row(&id).await;
    let b = a.linked_id.clone().expect("board B");
    assert_eq!(
        players(&chat.row(&b).await),
        vec![("computer:1", 0, 1), ("dave", 1, 0)]
    );
    // White on its board, it moves at once; then after each of dave's moves.
    let computer_played = |lines: &[String]| lines.iter().any(|l| l.contains("Kodex L1 played"));
    chat.wait_for("the computer's first move", computer_played)
        .await;
    for _ in 0..2 {
        let board = chat.position(&b).await;
        let reply = board
            .legal_moves()
            .into_iter()
            .map(|mv| board.san(mv))
            .next()
            .expect("dave has a move");
        let out = chat.say(&format!("dave: /move {reply}")).await;
        assert!(has(&out, "dave played"), "{out:#?}");
        chat.wait_for("the computer's answer", computer_played)
            .await;
    }
    assert_eq!(chat.row(&b).await.move_list().len(), 5);
    // Board A is played by people meanwhile; bob's resignation ends both
    // boards, and the computer stops.
    chat.script(&["alice: e4", "bob: e5"]).await;
    let out = resign(&mut chat, "bob").await;
    assert!(
        has(&out, "alice & dave win: bob resigned on board A"),
        "{out:#?}"
    );
    assert_team_won(&chat, [&id, &b], 0).await;
}

/// A move typed by `who` in the console's shared chat, as a request.
fn typed(who: &str, text: &str) -> kodex_bot::api::Request {
    use kodex_bot::api::{Action, ChatRef, Platform, Request};
    Request {
        chat: ChatRef {
            platform: Platform::Console,
            id: kodex_bot::console::SHARED_CHAT.to_owned(),
        },
        private: false,
        actor: kodex_bot::console::console_user(who),
        locale: None,
        chat_locale: None,
        action: Action::Text {
            text: text.to_owned(),
        },
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn captures_on_both_boards_at_once_each_reach_the_other_board() {
    use kodex_bot::api::Handler;
    let mut chat = Chat::new("bughouse-at-once").await;
    let (a, b) = bughouse(&mut chat, "5+0").await;
    chat.script(&["alice: e4", "bob: d5", "carol: e4", "dave: d5"])
        .await;
    // Alice and carol take a pawn each at the same moment.
    let service = chat.service.clone();
    let (on_a, on_b) = tokio::join!(
        service.handle(typed("alice", "exd5")),
        service.handle(typed("carol", "exd5")),
    );
    for (out, mover) in [(&on_a, "alice"), (&on_b, "carol")] {
        assert!(
            out.iter()
                .any(|d| d.text.contains(&format!("{mover} played exd5"))),
            "{out:#?}"
        );
    }
    // Each board has its move and the pawn the other board took, for black.
    for id in [&a, &b] {
        let row = chat.row(id).await;
        let mut record = row.move_list();
        record.sort_unstable();
        assert_eq!(record, vec!["+p", "d7d5", "e2e4", "e4d5"], "{id}");
        assert!(chat.position(id).await.fen().contains("[p]"), "{id}");
    }
}

#[tokio::test]
async fn an_answer_to_a_bughouse_draw_offer_agrees_with_it_and_the_offerers_partner_cannot_complete_it(
) {
    let mut chat = Chat::new("bughouse-draw-answers").await;
    let (a, b) = bughouse(&mut chat, "3+0").await;
    chat.say("alice: e4").await;
    chat.say("carol: e4").await;
    chat.say("bob: e5").await;
    chat.say("dave: e5").await;
    // Carol (of bob & carol) offers; alice agrees: dave must still agree.
    let out = chat.say("carol: /draw").await;
    assert!(has(&out, "both dave & alice agree"), "{out:#?}");
    let out = chat.say("alice: /draw").await;
    assert!(has(&out, "alice agrees to a draw"), "{out:#?}");
    assert!(has(&out, "Still to agree: dave"), "{out:#?}");
    // Bob is of the offering team: his /draw is no answer and ends nothing.
    let out = chat.say("bob: /draw").await;
    assert!(has(&out, "Your team has offered a draw"), "{out:#?}");
    let out = chat.say("alice: /draw").await;
    assert!(has(&out, "already agreed"), "{out:#?}");
    for id in [&a, &b] {
        assert_eq!(chat.row(id).await.status, Status::Active, "{id}");
    }
    // Nor may the offering team decline its own offer.
    let out = chat.say("bob: /nodraw").await;
    assert!(has(&out, "cannot be withdrawn"), "{out:#?}");
    // Dave agrees too: a draw on both boards.
    let out = chat.say("dave: /draw").await;
    assert!(has(&out, "draw"), "{out:#?}");
    for id in [&a, &b] {
        assert_eq!(chat.row(id).await.result, Some(GameResult::Draw), "{id}");
    }
}

#[tokio::test]
async fn a_bughouse_draw_agreed_by_one_player_is_declined_by_the_other() {
    let mut chat = Chat::new("bughouse-draw-declined").await;
    let (a, _) = bughouse(&mut chat, "-").await;
    chat.say("alice: /draw").await;
    let out = chat.say("bob: /draw").await;
    assert!(has(&out, "Still to agree: carol"), "{out:#?}");
    let out = chat.say("carol: /nodraw").await;
    assert!(has(&out, "carol declined the draw offer"), "{out:#?}");
    assert_eq!(chat.row(&a).await.draw_offer, None);
    // A new offer may come from either team.
    let out = chat.say("carol: /draw").await;
    assert!(has(&out, "both dave & alice agree"), "{out:#?}");
}
