//! Where games live and who may answer them, driven through the service's
//! platform-neutral [`Handler`] the way adapters do: a game moved into a
//! thread, a challenge to an `@handle` nobody had seen, a private request
//! about one of several games, the game named on every delivery.

use crate::console_support::Chat;
use kodex_bot::api::{Action, ChatRef, Delivery, Handler, Platform, Request, Target, UserRef};
use kodex_bot::store::Status;

fn user(id: &str, name: &str, handle: Option<&str>) -> UserRef {
    UserRef {
        platform: Platform::Console,
        id: id.to_owned(),
        name: name.to_owned(),
        handle: handle.map(str::to_owned),
    }
}

fn chat(id: &str) -> ChatRef {
    ChatRef {
        platform: Platform::Console,
        id: id.to_owned(),
    }
}

async fn ask(
    chat: &Chat,
    at: &str,
    private: bool,
    actor: &UserRef,
    action: Action,
) -> Vec<Delivery> {
    chat.service
        .handle(Request {
            chat: self::chat(at),
            private,
            actor: actor.clone(),
            locale: None,
            chat_locale: None,
            action,
        })
        .await
}

fn play(opponent: &UserRef) -> Action {
    Action::Play {
        variant: "chess".into(),
        opponent: Some(opponent.clone()),
        clock: None,
        color: Some(kodex_bot::api::ColorChoice::White),
        fen: None,
        rated: None,
        public: false,
    }
}

fn accept(id: &str) -> Action {
    Action::Accept {
        game: Some(id.to_owned()),
    }
}

fn mv(text: &str) -> Action {
    Action::Move {
        text: text.to_owned(),
        game: None,
    }
}

/// The id of the game a set of deliveries is about.
fn game_of(deliveries: &[Delivery]) -> String {
    deliveries
        .iter()
        .find_map(|d| d.game.as_ref().map(|g| g.id.clone()))
        .unwrap_or_else(|| panic!("no game named in {deliveries:#?}"))
}

/// Starts a chess game in chat `at`, `white` against `black`; returns its id.
async fn start(chat: &Chat, at: &str, white: &UserRef, black: &UserRef) -> String {
    let id = game_of(&ask(chat, at, false, white, play(black)).await);
    let started = ask(chat, at, false, black, accept(&id)).await;
    assert!(
        started.iter().any(|d| d.text.contains("starts")),
        "{started:#?}"
    );
    id
}

#[tokio::test]
async fn the_start_names_the_game_and_an_adapter_may_move_it_into_a_thread() {
    let chat = Chat::new("relocate").await;
    let (alice, bob) = (user("alice", "alice", None), user("bob", "bob", None));
    let id = game_of(&ask(&chat, "hall", false, &alice, play(&bob)).await);
    let started = ask(&chat, "hall", false, &bob, accept(&id)).await;
    let public = started
        .iter()
        .find(|d| d.target == Target::Chat(self::chat("hall")))
        .expect("a public start message");
    let game = public.game.as_ref().expect("the start names its game");
    assert!(game.started && game.id == id, "{game:?}");
    assert_eq!(game.title, format!("Standard: alice vs bob · {id}"));

    // Only the game's own chat may move it; the request is silent.
    let elsewhere = Action::Relocate {
        game: id.clone(),
        chat: "stolen".into(),
    };
    assert!(ask(&chat, "other", false, &alice, elsewhere)
        .await
        .is_empty());
    assert_eq!(chat.row(&id).await.chat_id, "hall");

    // Nor may anyone but its players.
    let carol = user("carol", "carol", None);
    let stranger = Action::Relocate {
        game: id.clone(),
        chat: "stolen".into(),
    };
    assert!(ask(&chat, "hall", false, &carol, stranger).await.is_empty());
    assert_eq!(chat.row(&id).await.chat_id, "hall");

    let relocate = Action::Relocate {
        game: id.clone(),
        chat: "thread-1".into(),
    };
    assert!(ask(&chat, "hall", false, &bob, relocate).await.is_empty());
    assert_eq!(chat.row(&id).await.chat_id, "thread-1");

    // Moves typed in the thread are the game's, and so are those typed in
    // the chat it started in: answered in the thread.
    for (place, player, san) in [("hall", &alice, "e4"), ("thread-1", &bob, "e5")] {
        let moved = ask(&chat, place, false, player, mv(san)).await;
        assert_eq!(moved[0].target, Target::Chat(self::chat("thread-1")));
        let game = moved[0].game.as_ref().expect("named");
        assert!(!game.started && game.id == id);
    }
    assert_eq!(chat.row(&id).await.moves, "e2e4 e7e5");

    // A finished game stays where it is.
    let resign = ask(
        &chat,
        "thread-1",
        false,
        &bob,
        Action::Resign { game: None },
    )
    .await;
    let confirm = resign[0].buttons[0].data.clone();
    let press = Action::Button { data: confirm };
    let ended = ask(&chat, "thread-1", false, &bob, press).await;
    assert_eq!(chat.row(&id).await.status, Status::Finished);
    // The summary goes to the thread; the chat it came from hears the result only.
    let in_hall: Vec<&Delivery> = ended
        .iter()
        .filter(|d| d.target == Target::Chat(self::chat("hall")))
        .collect();
    assert_eq!(in_hall.len(), 1, "{ended:#?}");
    assert!(
        in_hall[0].text.starts_with(&format!("{id}: 1-0"))
            && in_hall[0].text.contains("bob resigned")
            && in_hall[0].image.is_none(),
        "{:?}",
        in_hall[0].text
    );
    assert!(ended
        .iter()
        .any(|d| d.target == Target::Chat(self::chat("thread-1")) && d.image.is_some()));
    let back = Action::Relocate {
        game: id.clone(),
        chat: "hall".into(),
    };
    assert!(ask(&chat, "thread-1", false, &bob, back).await.is_empty());
    assert_eq!(chat.row(&id).await.chat_id, "thread-1");
}

#[tokio::test]
async fn a_challenge_to_an_unseen_handle_is_accepted_by_its_holder_only() {
    let chat = Chat::new("handle").await;
    let alice = user("1", "@alice", Some("alice"));
    // The adapter knew no id for @Carol: the challenge names the handle.
    let unseen = user("@Carol", "@Carol", None);
    let id = game_of(&ask(&chat, "group", false, &alice, play(&unseen)).await);
    assert_eq!(chat.row(&id).await.opponent_id.as_deref(), Some("@carol"));

    // A display name that looks like the handle is not the handle.
    let impostor = user("2", "@carol", None);
    let out = ask(&chat, "group", false, &impostor, accept(&id)).await;
    assert!(out[0].text.contains("meant for someone else"), "{out:#?}");
    let other = user("3", "@dave", Some("dave"));
    let out = ask(&chat, "group", false, &other, Action::Accept { game: None }).await;
    assert!(!out.iter().any(|d| d.text.contains("starts")), "{out:#?}");
    assert_eq!(chat.row(&id).await.status, Status::Challenge);

    // Carol, whose platform handle is `carol`, accepts (here by a plain /accept).
    let carol = user("4", "@carol", Some("Carol"));
    let out = ask(&chat, "group", false, &carol, Action::Accept { game: None }).await;
    assert!(out.iter().any(|d| d.text.contains("starts")), "{out:#?}");
    let row = chat.row(&id).await;
    assert_eq!(row.status, Status::Active);
    assert_eq!(row.opponent_id.as_deref(), Some("4"));
    assert_eq!(row.player_id(1), Some("4"));
    // And plays under her id from now on.
    ask(&chat, "group", false, &alice, mv("e4")).await;
    ask(&chat, "group", false, &carol, mv("e5")).await;
    assert_eq!(chat.row(&id).await.moves, "e2e4 e7e5");
}

#[tokio::test]
async fn a_handle_cannot_be_used_to_challenge_oneself() {
    let chat = Chat::new("self-handle").await;
    let alice = user("1", "@alice", Some("alice"));
    let out = ask(
        &chat,
        "group",
        false,
        &alice,
        play(&user("@ALICE", "@ALICE", None)),
    )
    .await;
    assert!(out[0].text.contains("yourself"), "{out:#?}");
}

#[tokio::test]
async fn a_private_request_prefers_the_games_of_the_chat_it_came_from() {
    let chat = Chat::new("prefer").await;
    let (alice, bob) = (user("alice", "alice", None), user("bob", "bob", None));
    let first = start(&chat, "one", &alice, &bob).await;
    let second = start(&chat, "two", &alice, &bob).await;
    // From her DM (a chat with no game) alice must say which game she means.
    let out = ask(&chat, "dm:alice", true, &alice, mv("e4")).await;
    assert!(out[0].text.contains("several games"), "{out:#?}");
    // Input nobody else saw, made in channel "two" (Discord's /move): game two.
    ask(&chat, "two", true, &alice, mv("d4")).await;
    assert_eq!(chat.row(&second).await.moves, "d2d4");
    assert_eq!(chat.row(&first).await.moves, "");
}

/// Game `id` of `platform` (chess, just started) is given a record of
/// `plies` quiet moves (random, from a fixed seed; fewer if the game would
/// end before), as if they had been played.
pub(crate) async fn lengthen(
    service: &kodex_bot::Service,
    platform: Platform,
    id: &str,
    plies: usize,
) {
    let store = service.store();
    let mut row = store
        .get(platform.key(), id)
        .await
        .expect("store")
        .expect("the game");
    let variant = service.registry().get("chess").expect("chess").clone();
    let start = row.start_fen.clone().expect("a started game");
    let mut game = kodex_engine::Game::replay(&variant, &start, &[] as &[&str]).expect("the start");
    let mut rng = fastrand::Rng::with_seed(11);
    let mut record = Vec::new();
    while record.len() < plies && game.outcome().is_none() {
        // Mostly quiet piece moves (no capture, so that material stays);
        // a pawn move or a capture now and then, before the fifty-move rule.
        let moves = game.legal_moves();
        let resets = record.len() % 12 == 0;
        let pool: Vec<_> = moves
            .iter()
            .copied()
            .filter(|&mv| {
                let san = game.san(mv);
                let pawn_or_capture =
                    san.contains('x') || san.starts_with(|c: char| c.is_ascii_lowercase());
                pawn_or_capture == resets
            })
            .collect();
        let mut pool = if pool.is_empty() { moves } else { pool };
        rng.shuffle(&mut pool);
        // A move that ends the game is kept only when every move does.
        let last = pool.len() - 1;
        for (index, mv) in pool.into_iter().enumerate() {
            let uci = game.uci(mv);
            game.play(mv);
            if game.outcome().is_none() || index == last {
                record.push(uci);
                break;
            }
            game.undo();
        }
    }
    row.moves = kodex_bot::store::MoveRecord::parse(&record.join(" ")).expect("a record");
    assert!(store.save(&mut row).await.expect("store"), "saved");
}

/// A game between alice and bob on `platform`, started in chat `300`, whose
/// record is then `plies` quiet moves long (random, from a fixed seed; fewer
/// if the game ends before). Returns the chat, alice and the game id.
async fn a_long_game(chat: &Chat, platform: Platform, plies: usize) -> (ChatRef, UserRef, String) {
    let person = |id: &str, name: &str| UserRef {
        platform,
        id: id.to_owned(),
        name: name.to_owned(),
        handle: None,
    };
    let (alice, bob) = (person("1", "alice"), person("2", "bob"));
    let at = ChatRef {
        platform,
        id: "300".to_owned(),
    };
    let ask = |actor: &UserRef, action: Action| {
        chat.service.handle(Request {
            chat: at.clone(),
            private: false,
            actor: actor.clone(),
            locale: None,
            chat_locale: None,
            action,
        })
    };
    let id = game_of(&ask(&alice, play(&bob)).await);
    ask(&bob, accept(&id)).await;
    lengthen(&chat.service, platform, &id, plies).await;
    (at, alice, id)
}

#[tokio::test]
async fn a_record_too_long_for_a_message_goes_as_a_pgn_file() {
    let chat = Chat::new("long-pgn").await;
    for platform in [Platform::Discord, Platform::Console] {
        let (at, alice, id) = a_long_game(&chat, platform, 400).await;
        let answer = chat
            .service
            .handle(Request {
                chat: at.clone(),
                private: false,
                actor: alice.clone(),
                locale: None,
                chat_locale: None,
                action: Action::Pgn {
                    game: Some(id.clone()),
                },
            })
            .await;
        let record = |d: &Delivery| d.text.contains("[Event ");
        match platform {
            Platform::Discord => {
                let file = answer[0].image.as_ref().expect("the record as a file");
                assert_eq!(file.file_name, format!("{id}.pgn"));
                let pgn = String::from_utf8(file.bytes.clone()).expect("text");
                assert!(pgn.chars().count() > platform.message_limit(), "{pgn}");
                assert!(pgn.starts_with("[Event ") && pgn.contains("100."), "{pgn}");
                assert!(answer[0].text.contains("PGN file"), "{}", answer[0].text);
                assert!(!answer.iter().any(record), "no record split into messages");
                let gif = answer[1].image.as_ref().expect("the animation");
                assert!(gif.bytes.starts_with(b"GIF8"));
            }
            _ => {
                // No limit on a message: the record is the text.
                assert!(record(&answer[0]), "{}", answer[0].text);
                assert!(answer[0].text.chars().count() > 2000);
            }
        }
    }
}
