//! One language per audience: what the bot posts in a chat is in the chat's
//! language (`/lang chat`, else the platform's locale of the chat, else the
//! default), whoever acted; what it says to one person is in theirs. Moves
//! are written with Russian piece letters for a Russian audience.

use crate::console_support::{self, has, to, Chat};
use kodex_bot::api::{Action, ChatRef, Delivery, Handler, Platform, Request, Target, UserRef};

fn cyrillic(text: &str) -> bool {
    text.chars()
        .any(|c| ('а'..='я').contains(&c.to_lowercase().next().unwrap_or(c)))
}

/// The text lines of the chat's own messages: those with a word of four
/// letters or more that is not a name (board drawings and file names aside).
fn public_words(out: &[String]) -> Vec<&String> {
    to(out, "[#local]")
        .into_iter()
        .filter(|l| !l.contains("image:"))
        .filter(|l| {
            l.trim_start_matches("[#local]")
                .split_whitespace()
                .any(|word| {
                    word.chars().filter(|c| c.is_alphabetic()).count() >= 4
                        && !["alice", "bob"].iter().any(|name| word.contains(name))
                })
        })
        .collect()
}

#[tokio::test]
async fn a_chat_hears_one_language_whoever_acts() {
    let mut chat = Chat::new("languages-audience").await;
    // alice reads Russian, bob English; the chat has chosen nothing.
    chat.say("alice: /lang ru").await;
    chat.say("bob: /lang en").await;
    let mut out = chat.say("alice: /play chess @bob white").await;
    let id = console_support::game_id(&out);
    out.extend(chat.say(&format!("bob: /accept {id}")).await);
    out.extend(
        chat.script(&["alice: Nf3", "bob: d5", "alice: /draw"])
            .await,
    );
    out.extend(chat.say("bob: /nodraw").await);
    let public = public_words(&out);
    assert!(public.len() >= 5, "{out:#?}");
    for line in &public {
        assert!(!cyrillic(line), "the chat hears English: {line}");
    }
    assert!(has(&out, &format!("{id}: alice played Nf3")), "{out:#?}");
    // What is said to alice alone is in Russian.
    let out = chat.say("alice: Qd4").await;
    let private = to(&out, "[@alice]");
    assert!(
        !private.is_empty() && private.iter().all(|l| cyrillic(l)),
        "{out:#?}"
    );

    // The chat chooses Russian: now everything posted there is Russian,
    // including bob's moves, and moves carry Russian letters.
    chat.say("bob: /lang chat ru").await;
    let mut out = chat.script(&["alice: e3", "bob: Nc6", "alice: Bb5"]).await;
    out.extend(chat.say("bob: /takeback").await);
    let public = public_words(&out);
    assert!(public.len() >= 4, "{out:#?}");
    for line in &public {
        assert!(cyrillic(line), "the chat hears Russian: {line}");
    }
    assert!(has(&out, &format!("{id}: ход bob: Кc6.")), "{out:#?}");
    assert!(has(&out, &format!("{id}: ход alice: Сb5.")), "{out:#?}");
    // bob's own errors stay English.
    let out = chat.say("bob: Qd4").await;
    let private = to(&out, "[@bob]");
    assert!(
        !private.is_empty() && private.iter().all(|l| !cyrillic(l)),
        "{out:#?}"
    );

    // The Russian words choose too: «/язык чат английский».
    let out = chat.say("alice: /язык чат английский").await;
    assert!(
        has(&out, "[@alice] Язык этого чата теперь английский."),
        "{out:#?}"
    );
    let out = chat.say("alice: /draw").await;
    let public = public_words(&out);
    assert!(!public.is_empty(), "{out:#?}");
    for line in &public {
        assert!(!cyrillic(line), "the chat hears English again: {line}");
    }
}

fn request(chat_locale: Option<&str>, actor: &str, action: Action) -> Request {
    Request {
        chat: ChatRef {
            platform: Platform::Console,
            id: "guild-channel".to_owned(),
        },
        private: false,
        actor: UserRef {
            platform: Platform::Console,
            id: actor.to_owned(),
            name: actor.to_owned(),
            handle: None,
        },
        locale: Some("en-US".to_owned()),
        chat_locale: chat_locale.map(str::to_owned),
        action,
    }
}

fn in_chat(deliveries: &[Delivery]) -> Vec<&str> {
    deliveries
        .iter()
        .filter(|d| matches!(d.target, Target::Chat(_)))
        .map(|d| d.text.as_str())
        .collect()
}

#[tokio::test]
async fn a_guild_locale_is_the_chat_language_until_the_chat_chooses() {
    let chat = Chat::new("languages-guild").await;
    let service = &chat.service;
    // Players with English clients in a guild whose locale is Russian.
    let challenge = service
        .handle(request(
            Some("ru"),
            "alice",
            Action::Play {
                variant: "chess".to_owned(),
                opponent: None,
                clock: None,
                color: None,
                fen: None,
                rated: None,
                public: false,
            },
        ))
        .await;
    let posted = in_chat(&challenge);
    assert!(
        !posted.is_empty() && posted.iter().all(|t| cyrillic(t)),
        "{challenge:#?}"
    );
    let id = challenge
        .iter()
        .flat_map(|d| &d.buttons)
        .find_map(|b| b.data.strip_prefix("acc:"))
        .expect("an accept button")
        .to_owned();
    let accepted = service
        .handle(request(
            Some("ru"),
            "bob",
            Action::Accept { game: Some(id) },
        ))
        .await;
    let posted = in_chat(&accepted);
    assert!(
        !posted.is_empty() && posted.iter().all(|t| cyrillic(t)),
        "{accepted:#?}"
    );
    // An error for one person is in their own language.
    let refused = service
        .handle(request(
            Some("ru"),
            "carol",
            Action::Move {
                text: "e4".to_owned(),
                game: None,
            },
        ))
        .await;
    assert!(refused.iter().all(|d| !cyrillic(&d.text)), "{refused:#?}");
    assert!(in_chat(&refused).is_empty(), "{refused:#?}");
}
