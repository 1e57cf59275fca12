//! The lobby at the console, across two group chats (`#local` and `#club`)
//! and private chats: public seeks in `/lobby`, `/playnow` pairing two
//! people of two chats into one game played in both, a seek taken after a
//! restart, the nearest rating preferred, invitations used once and
//! expiring, limits per person, and the personal ticker.

use crate::console_support::{game_id, has, to, Chat, EPOCH};
use kodex_bot::store::RawValue;

/// The seat holding white in game `id`: `(white, black)` names.
async fn players(chat: &Chat, id: &str) -> (String, String) {
    let row = chat.row(id).await;
    let name = |seat: usize| row.seats[seat].user_name.clone();
    (name(0), name(1))
}

/// Where `name` plays game `id` from in these tests: alice in the shared
/// chat, bob in #club.
fn said_by(name: &str, text: &str) -> String {
    match name {
        "alice" => format!("alice: {text}"),
        other => format!("{other} (#club): {text}"),
    }
}

#[tokio::test]
async fn play_now_pairs_two_chats_and_the_game_is_played_in_both() {
    let mut chat = Chat::new("lobby-two-chats").await;
    // Nothing to join: alice's /playnow publishes a seek (chess 5+3, rated).
    let seek = chat.say("alice: /playnow").await;
    assert!(has(&seek, "now seeks one"), "{seek:#?}");
    assert!(has(&seek, "Rated game"), "{seek:#?}");
    let id = game_id(&seek);
    let row = chat.row(&id).await;
    assert!(row.public && row.rated, "{row:?}");
    // bob, in another chat, sees it in the lobby with alice's rating.
    let lobby = chat.say("bob (#club): /lobby").await;
    let lines = to(&lobby, "[#club]");
    assert!(
        lines
            .iter()
            .any(|l| l.contains(&id) && l.contains("alice (1500?)") && l.contains("rated")),
        "{lobby:#?}"
    );
    assert!(has(&lobby, &format!("/press acc:{id}")), "{lobby:#?}");
    // alice's own lobby lists it as this chat's, with no button for her.
    let own = chat.say("alice: /lobby").await;
    assert!(has(&own, "in this chat"), "{own:#?}");
    assert!(!has(&own, "/press acc:"), "{own:#?}");
    // bob's /playnow takes it: both chats hear the start.
    let start = chat.say("bob (#club): /playnow").await;
    assert!(
        to(&start, "[#local]").iter().any(|l| l.contains("starts")),
        "{start:#?}"
    );
    assert!(
        to(&start, "[#club]").iter().any(|l| l.contains("starts")),
        "{start:#?}"
    );
    let row = chat.row(&id).await;
    assert_eq!(row.guest_chat_id.as_deref(), Some("club"));
    assert_eq!(row.chat_id, "local");
    // Moves typed in either chat are the game's, and both chats see them.
    let (white, black) = players(&chat, &id).await;
    let first = chat.say(&said_by(&white, "e4")).await;
    assert!(
        to(&first, "[#local]").iter().any(|l| l.contains("e4")),
        "{first:#?}"
    );
    assert!(
        to(&first, "[#club]").iter().any(|l| l.contains("e4")),
        "{first:#?}"
    );
    let second = chat.say(&said_by(&black, "e5")).await;
    assert!(
        to(&second, "[#local]").iter().any(|l| l.contains("e5")),
        "{second:#?}"
    );
    assert!(
        to(&second, "[#club]").iter().any(|l| l.contains("e5")),
        "{second:#?}"
    );
    assert_eq!(chat.row(&id).await.move_list(), vec!["e2e4", "e7e5"]);
    // An offer made in one chat is asked in the other too.
    let offer = chat.say(&said_by(&white, "/draw")).await;
    assert!(
        ["[#local]", "[#club]"].iter().all(|chat| to(&offer, chat)
            .iter()
            .any(|l| l.contains("draw") && l.contains("/press"))),
        "{offer:#?}"
    );
    let accept = chat.say(&said_by(&black, "/draw")).await;
    assert!(has(&accept, "1/2-1/2") || has(&accept, "½"), "{accept:#?}");
    assert!(!to(&accept, "[#club]").is_empty(), "{accept:#?}");
    assert!(!to(&accept, "[#local]").is_empty(), "{accept:#?}");
}

#[tokio::test]
async fn a_public_challenge_is_accepted_from_another_chat_and_a_plain_one_is_not() {
    let mut chat = Chat::new("lobby-public-play").await;
    let public = chat.say("alice: /play chess 10+5 public").await;
    assert!(has(&public, "anywhere on the platform"), "{public:#?}");
    let public_id = game_id(&public);
    let plain = chat.say("alice: /play chess 10+5").await;
    let plain_id = game_id(&plain);
    // Only the public one is in another chat's lobby.
    let lobby = chat.say("bob (#club): /lobby chess").await;
    assert!(has(&lobby, &public_id), "{lobby:#?}");
    assert!(!has(&lobby, &plain_id), "{lobby:#?}");
    // The plain challenge belongs to its chat.
    let refused = chat.say(&format!("bob (#club): /accept {plain_id}")).await;
    assert!(has(&refused, "accept it there"), "{refused:#?}");
    // The public one is taken by the lobby's button, from #club.
    let taken = chat
        .say(&format!("bob (#club): /press acc:{public_id}"))
        .await;
    assert!(
        to(&taken, "[#club]").iter().any(|l| l.contains("starts")),
        "{taken:#?}"
    );
    assert_eq!(
        chat.row(&public_id).await.guest_chat_id.as_deref(),
        Some("club")
    );
    // A public challenge to someone named, or for four, is refused.
    let named = chat.say("alice: /play chess @carol public").await;
    assert!(has(&named, "Only an open challenge"), "{named:#?}");
}

#[tokio::test]
async fn a_seek_is_taken_after_a_restart() {
    let mut chat = Chat::new("lobby-restart").await;
    let seek = chat.say("alice: /playnow atomic 3+2").await;
    let id = game_id(&seek);
    let mut chat = chat.restart().await;
    // A seek of another variant or clock does not fit.
    let other = chat.say("bob (#club): /playnow chess 3+2").await;
    assert!(has(&other, "now seeks one"), "{other:#?}");
    let taken = chat.say("carol (#club): /playnow atomic 3+2").await;
    assert!(has(&taken, "starts"), "{taken:#?}");
    let row = chat.row(&id).await;
    assert!(row.seats.iter().any(|s| s.user_name == "carol"), "{row:?}");
}

#[tokio::test]
async fn play_now_prefers_this_chat_then_the_nearest_rating_within_a_widening_window() {
    let mut chat = Chat::new("lobby-nearest").await;
    // dave is rated 2200, erin 1550, bob 1500 (all settled).
    for (user, rating) in [("dave", 2200.0), ("erin", 1550.0), ("bob", 1500.0)] {
        chat.service
            .store()
            .execute_raw(
                "INSERT INTO ratings (platform, user_id, variant, user_name, rating, rd, \
                 volatility, games, wins, draws, losses, best, rated_at) \
                 VALUES ('console', ?, 'chess', ?, ?, 60, 0.06, 20, 10, 0, 10, NULL, ?)",
                &[
                    RawValue::Text(user.to_owned()),
                    RawValue::Text(user.to_owned()),
                    RawValue::Real(rating),
                    RawValue::Int(EPOCH),
                ],
            )
            .await
            .expect("a rating row");
    }
    // erin's /playnow does not take dave's seek, 650 points away: she
    // publishes her own.
    let far = game_id(&chat.say("dave (#club): /playnow chess 5+3").await);
    let near = game_id(&chat.say("erin (#club): /playnow chess 5+3").await);
    assert_ne!(far, near);
    // bob takes erin's, the nearer, though dave's waited longer.
    let taken = chat.say("bob (#club): /playnow").await;
    assert!(has(&taken, "starts"), "{taken:#?}");
    assert!(chat
        .row(&near)
        .await
        .seats
        .iter()
        .any(|s| s.user_name == "bob"));
    // 700 points apart is beyond the window at first: frank (1500, new)
    // publishes a seek of his own rather than take dave's.
    let frank = chat.say("frank: /playnow").await;
    assert!(has(&frank, "now seeks one"), "{frank:#?}");
    let frank_seek = game_id(&frank);
    chat.say(&format!("frank: /decline {frank_seek}")).await;
    // Once dave's seek has waited four minutes, the window (700) reaches.
    chat.advance(4 * 60_000 + 1_000).await;
    let taken = chat.say("frank: /playnow").await;
    assert!(has(&taken, "starts"), "{taken:#?}");
    assert!(chat
        .row(&far)
        .await
        .seats
        .iter()
        .any(|s| s.user_name == "frank"));
}

#[tokio::test]
async fn an_invitation_is_used_once_and_expires() {
    let mut chat = Chat::new("lobby-invite").await;
    let invite = chat.say("alice: /invite chess 5+3 white").await;
    // Answered privately: the chat hears nothing of it.
    assert!(to(&invite, "[#local]").is_empty(), "{invite:#?}");
    let answer = to(&invite, "[@alice]");
    let code = answer
        .iter()
        .find_map(|l| l.split("/join ").nth(1))
        .map(|rest| rest.split_whitespace().next().unwrap_or("").to_owned())
        .unwrap_or_else(|| panic!("a code in {invite:#?}"));
    assert!(code.len() >= 10, "{code}");
    // Nobody in the chat takes it by /accept.
    let accept = chat.say("bob: /accept").await;
    assert!(!has(&accept, "starts"), "{accept:#?}");
    // alice cannot use her own.
    let own = chat.say(&format!("alice (dm): /join {code}")).await;
    assert!(has(&own, "your own invitation"), "{own:#?}");
    // carol, in her private chat, takes it: both alice's chat and carol's
    // hear the start; alice plays white as she asked.
    let joined = chat.say(&format!("carol (dm): /join {code}")).await;
    assert!(
        to(&joined, "[#local]").iter().any(|l| l.contains("starts")),
        "{joined:#?}"
    );
    assert!(
        to(&joined, "[@carol]").iter().any(|l| l.contains("starts")),
        "{joined:#?}"
    );
    let id = chat
        .service
        .store()
        .invitation("console", &code.to_lowercase())
        .await
        .expect("store")
        .expect("the invitation")
        .id;
    assert_eq!(players(&chat, &id).await, ("alice".into(), "carol".into()));
    // carol moves from her private chat: the shared chat sees it.
    chat.say("alice: e4").await;
    let reply = chat.say("carol (dm): e5").await;
    assert!(
        to(&reply, "[#local]").iter().any(|l| l.contains("e5")),
        "{reply:#?}"
    );
    // Used once.
    let again = chat.say(&format!("dave (dm): /join {code}")).await;
    assert!(has(&again, "already used"), "{again:#?}");
    let unknown = chat.say("dave (dm): /join nosuchcode").await;
    assert!(has(&unknown, "No invitation"), "{unknown:#?}");
    // Another invitation expires like a challenge.
    let second = chat.say("alice: /invite").await;
    let code2 = to(&second, "[@alice]")
        .iter()
        .find_map(|l| l.split("/join ").nth(1))
        .map(|rest| rest.split_whitespace().next().unwrap_or("").to_owned())
        .expect("a second code");
    chat.advance(3_600_000 + 1_000).await;
    let late = chat.say(&format!("dave (dm): /join {code2}")).await;
    assert!(has(&late, "expired"), "{late:#?}");
}

#[tokio::test]
async fn seeks_and_invitations_are_limited_per_person_in_both_languages() {
    let mut chat = Chat::new("lobby-limits").await;
    chat.say("alice: /play chess 5+3 public").await;
    chat.say("alice: /play chess 3+2 public").await;
    let third = chat.say("alice: /playnow crazyhouse").await;
    assert!(has(&third, "2 public seeks"), "{third:#?}");
    chat.say("alice: /lang ru").await;
    let third = chat.say("alice: /play chess 1+0 public").await;
    assert!(has(&third, "2 открытые заявки"), "{third:#?}");
    for _ in 0..5 {
        chat.say("bob: /invite").await;
    }
    let sixth = chat.say("bob: /invite").await;
    assert!(has(&sixth, "5 unused invitations"), "{sixth:#?}");
    let lobby = chat.say("carol (#club): /лобби").await;
    assert!(has(&lobby, "2 open games"), "{lobby:#?}");
}

#[tokio::test]
async fn the_ticker_tells_a_person_privately_of_news_from_another_chat() {
    let mut chat = Chat::new("lobby-ticker").await;
    // bob last wrote in #club; alice challenges him in the shared chat.
    chat.say("bob (#club): /lobby").await;
    let challenge = chat.say("alice: /play chess @bob 1d white").await;
    let id = game_id(&challenge);
    let told = to(&challenge, "[@bob]");
    assert!(
        told.iter().any(|l| l.contains("another chat"))
            && has(&challenge, &format!("/press acc:{id}")),
        "{challenge:#?}"
    );
    // bob accepts from #club (a named opponent answers from anywhere).
    chat.say(&format!("bob (#club): /accept {id}")).await;
    // In a correspondence game the player to move hears of the move where
    // they last wrote: bob, in #club, privately.
    let moved = chat.say("alice: e4").await;
    assert!(
        to(&moved, "[@bob]")
            .iter()
            .any(|l| l.contains("another chat")),
        "{moved:#?}"
    );
    // bob answers in the game's chat; alice, who last wrote there, hears
    // nothing privately.
    let answered = chat.say("bob: e5").await;
    assert!(to(&answered, "[@alice]").is_empty(), "{answered:#?}");
    // A game with a live clock: no private note for a move.
    chat.say("erin (#club): /lobby").await;
    let live = chat.say("alice: /play chess @erin 5+3 white").await;
    let live_id = game_id(&live);
    chat.say(&format!("erin (#club): /accept {live_id}")).await;
    let live_move = chat.say(&format!("alice: /move e4 {live_id}")).await;
    assert!(to(&live_move, "[@erin]").is_empty(), "{live_move:#?}");
    // /notify off stops it.
    let off = chat.say("bob (#club): /notify off").await;
    assert!(has(&off, "ticker is off"), "{off:#?}");
    let again = chat.say("carol: /play chess @bob").await;
    assert!(to(&again, "[@bob]").is_empty(), "{again:#?}");
    let on = chat.say("bob (#club): /notify").await;
    assert!(has(&on, "ticker is off"), "{on:#?}");
    // Somebody who wrote in this chat last hears nothing privately.
    chat.say("dave: hello").await;
    let here = chat.say("alice: /play chess @dave").await;
    assert!(to(&here, "[@dave]").is_empty(), "{here:#?}");
}

#[tokio::test]
async fn an_invitation_posted_in_the_chat_is_taken_by_the_first_to_press_join() {
    let mut chat = Chat::new("lobby-share").await;
    let invite = chat.say("alice: /invite chess 3+2").await;
    let share = invite
        .iter()
        .find_map(|l| l.split("/press share:").nth(1))
        .map(|rest| format!("share:{}", rest.split(']').next().unwrap_or("")))
        .unwrap_or_else(|| panic!("a Post here button in {invite:#?}"));
    // Only the inviter posts it.
    let forged = chat.say(&format!("bob: /press {share}")).await;
    assert!(to(&forged, "[#local]").is_empty(), "{forged:#?}");
    let posted = chat.say(&format!("alice: /press {share}")).await;
    let public = to(&posted, "[#local]");
    assert!(
        public.iter().any(|l| l.contains("alice invites someone")),
        "{posted:#?}"
    );
    let join = posted
        .iter()
        .find_map(|l| l.split("/press join:").nth(1))
        .map(|rest| format!("join:{}", rest.split(']').next().unwrap_or("")))
        .unwrap_or_else(|| panic!("a Join button in {posted:#?}"));
    let taken = chat.say(&format!("bob: /press {join}")).await;
    assert!(has(&taken, "starts"), "{taken:#?}");
    let late = chat.say(&format!("carol: /press {join}")).await;
    assert!(has(&late, "already used"), "{late:#?}");
}
