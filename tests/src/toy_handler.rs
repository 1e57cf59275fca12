//! A small scripted stand-in for the game service, so adapter tests can run
//! before (and independently of) the real one: challenges with Accept/Decline
//! buttons, turns, resign with a game GIF, and a "fog" variant
//! whose boards only go to each player privately.
//!
//! It validates moves only by shape (`e4`, `Nf3`, `exd5`), which is all an
//! adapter test needs.

use std::sync::Mutex;

use kodex_bot::api::{
    Action, Button, ChatRef, Delivery, Handler, HandlerFuture, Image, Request, Target, UserRef,
};

/// The smallest valid PNG (1×1), standing in for a rendered board.
pub const BOARD_PNG: &[u8] = &[
    0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4,
    0x89, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x00, 0x01, 0x00, 0x00,
    0x05, 0x00, 0x01, 0x0D, 0x0A, 0x2D, 0xB4, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE,
    0x42, 0x60, 0x82,
];

/// A minimal GIF standing in for the game-end animation.
pub const GAME_GIF: &[u8] = b"GIF89a\x01\x00\x01\x00\x00\x00\x00;";

#[derive(Clone, Debug, PartialEq, Eq)]
enum Status {
    Challenged,
    Playing,
    Over,
}

#[derive(Clone, Debug)]
struct ToyGame {
    id: String,
    chat: ChatRef,
    variant: String,
    white: UserRef,
    black: Option<UserRef>,
    status: Status,
    moves: Vec<String>,
}

impl ToyGame {
    fn is_hidden(&self) -> bool {
        self.variant == "fog"
    }

    fn to_move(&self) -> Option<&UserRef> {
        if self.moves.len() % 2 == 0 {
            Some(&self.white)
        } else {
            self.black.as_ref()
        }
    }

    fn has_player(&self, user: &UserRef) -> bool {
        same(&self.white, user) || self.black.as_ref().is_some_and(|black| same(black, user))
    }

    fn board(&self) -> Image {
        Image {
            file_name: format!("board-{}-{}.png", self.id, self.moves.len()),
            bytes: BOARD_PNG.to_vec(),
        }
    }
}

/// Whether two references are the same person: by id, or by the `@username`
/// a challenger typed for someone the adapter had not seen yet.
fn same(expected: &UserRef, actual: &UserRef) -> bool {
    expected.id == actual.id || expected.name.eq_ignore_ascii_case(&actual.name)
}

/// The toy service. Every request it handled is kept for assertions.
#[derive(Default)]
pub struct ToyHandler {
    games: Mutex<Vec<ToyGame>>,
    requests: Mutex<Vec<Request>>,
}

impl ToyHandler {
    /// The requests received so far, in order.
    pub fn requests(&self) -> Vec<Request> {
        self.requests
            .lock()
            .map(|requests| requests.clone())
            .unwrap_or_default()
    }

    /// The moves of a game so far.
    pub fn moves(&self, game: &str) -> Vec<String> {
        self.games
            .lock()
            .ok()
            .and_then(|games| games.iter().find(|g| g.id == game).map(|g| g.moves.clone()))
            .unwrap_or_default()
    }

    fn answer(&self, request: Request) -> Vec<Delivery> {
        let Ok(mut games) = self.games.lock() else {
            return Vec::new();
        };
        let chat = Target::Chat(request.chat.clone());
        let me = Target::Ephemeral(request.actor.clone());
        let note = |target: Target, text: String| Delivery {
            target,
            text,
            image: None,
            buttons: Vec::new(),
            game: None,
        };
        match request.action.clone() {
            Action::Play { variant, .. } if variant.is_empty() => {
                vec![note(me, "Usage: /play <variant>.".into())]
            }
            Action::Play {
                variant, opponent, ..
            } => {
                vec![challenge(
                    &mut games,
                    &request.chat,
                    &request.actor,
                    &variant,
                    opponent,
                )]
            }
            Action::Button { data } => {
                let mut parts = data.split(':');
                match (parts.next(), parts.next()) {
                    (Some("acc"), Some(id)) => {
                        let Some(game) = games.iter_mut().find(|game| game.id == id) else {
                            return vec![note(me, "That challenge is gone.".into())];
                        };
                        let for_me = game.status == Status::Challenged
                            && !same(&game.white, &request.actor)
                            && game.black.as_ref().is_none_or(|b| same(b, &request.actor));
                        if !for_me {
                            return vec![note(me, "This challenge is not for you.".into())];
                        }
                        game.black = Some(request.actor.clone());
                        game.status = Status::Playing;
                        announce_start(game)
                    }
                    _ => vec![note(me, "Unknown button.".into())],
                }
            }
            Action::Move { text, .. } => play_move(&mut games, &request, &text, true),
            Action::Text { text } => play_move(&mut games, &request, &text, false),
            Action::Board { game } => {
                let found = games.iter().find(|g| {
                    g.has_player(&request.actor) && game.as_ref().is_none_or(|id| *id == g.id)
                });
                match found {
                    Some(game) if game.is_hidden() => vec![Delivery {
                        target: Target::Private(request.actor.clone()),
                        text: format!("Your board in game {}.", game.id),
                        image: Some(game.board()),
                        buttons: Vec::new(),
                        game: None,
                    }],
                    Some(game) => vec![Delivery {
                        target: Target::Chat(game.chat.clone()),
                        text: format!("Game {} after {} moves.", game.id, game.moves.len()),
                        image: Some(game.board()),
                        buttons: Vec::new(),
                        game: None,
                    }],
                    None => vec![note(me, "You have no game.".into())],
                }
            }
            Action::Resign { .. } => {
                let Some(game) = games
                    .iter_mut()
                    .find(|g| g.status == Status::Playing && g.has_player(&request.actor))
                else {
                    return vec![note(me, "You have no game to resign.".into())];
                };
                game.status = Status::Over;
                let winner = if same(&game.white, &request.actor) {
                    game.black
                        .as_ref()
                        .map(|b| b.name.clone())
                        .unwrap_or_default()
                } else {
                    game.white.name.clone()
                };
                vec![Delivery {
                    target: Target::Chat(game.chat.clone()),
                    text: format!("{} resigns. {winner} wins.", request.actor.name),
                    image: Some(Image {
                        file_name: format!("game-{}.gif", game.id),
                        bytes: GAME_GIF.to_vec(),
                    }),
                    buttons: Vec::new(),
                    game: None,
                }]
            }
            Action::Help => vec![note(chat, "Kodex help.".into())],
            _ => vec![note(me, "Not in the toy.".into())],
        }
    }
}

fn challenge(
    games: &mut Vec<ToyGame>,
    chat: &ChatRef,
    challenger: &UserRef,
    variant: &str,
    opponent: Option<UserRef>,
) -> Delivery {
    let id = format!("g{}", games.len() + 1);
    let whom = opponent
        .as_ref()
        .map_or("anyone".to_owned(), |o| o.name.clone());
    games.push(ToyGame {
        id: id.clone(),
        chat: chat.clone(),
        variant: variant.to_owned(),
        white: challenger.clone(),
        black: opponent,
        status: Status::Challenged,
        moves: Vec::new(),
    });
    Delivery {
        target: Target::Chat(chat.clone()),
        text: format!("{} challenges {whom} to {variant}.", challenger.name),
        image: None,
        buttons: vec![
            Button {
                label: "Accept".into(),
                data: format!("acc:{id}"),
            },
            Button {
                label: "Decline".into(),
                data: format!("dec:{id}"),
            },
        ],
        game: None,
    }
}

fn announce_start(game: &ToyGame) -> Vec<Delivery> {
    let black = game.black.clone().unwrap_or_else(|| game.white.clone());
    if game.is_hidden() {
        let mut deliveries = vec![Delivery {
            target: Target::Chat(game.chat.clone()),
            text: format!(
                "Fog game {}: {} vs {}. Boards are sent privately.",
                game.id, game.white.name, black.name
            ),
            image: None,
            buttons: Vec::new(),
            game: None,
        }];
        for player in [&game.white, &black] {
            deliveries.push(Delivery {
                target: Target::Private(player.clone()),
                text: format!("Your board in game {}.", game.id),
                image: Some(game.board()),
                buttons: Vec::new(),
                game: None,
            });
        }
        deliveries
    } else {
        vec![Delivery {
            target: Target::Chat(game.chat.clone()),
            text: format!(
                "Game {}: {} vs {}. White to move.",
                game.id, game.white.name, black.name
            ),
            image: Some(game.board()),
            buttons: Vec::new(),
            game: None,
        }]
    }
}

fn looks_like_a_move(text: &str) -> bool {
    let text = text.trim();
    let body = text.trim_start_matches(['K', 'Q', 'R', 'B', 'N']);
    let body = body.replace('x', "");
    let bytes = body.as_bytes();
    (2..=4).contains(&bytes.len())
        && bytes.len() % 2 == 0
        && bytes
            .chunks(2)
            .all(|square| (b'a'..=b'h').contains(&square[0]) && (b'1'..=b'8').contains(&square[1]))
}

fn play_move(
    games: &mut [ToyGame],
    request: &Request,
    text: &str,
    explicit: bool,
) -> Vec<Delivery> {
    let me = Target::Ephemeral(request.actor.clone());
    let note = |text: String| {
        if explicit {
            vec![Delivery {
                target: me.clone(),
                text,
                image: None,
                buttons: Vec::new(),
                game: None,
            }]
        } else {
            Vec::new()
        }
    };
    let Some(game) = games
        .iter_mut()
        .find(|g| g.status == Status::Playing && g.has_player(&request.actor))
    else {
        return note("You have no game here.".into());
    };
    if !looks_like_a_move(text) {
        return note(format!("“{}” is not a move.", text.trim()));
    }
    if !game
        .to_move()
        .is_some_and(|player| same(player, &request.actor))
    {
        return note("It is not your turn.".into());
    }
    game.moves.push(text.trim().to_owned());
    if game.is_hidden() {
        let mut deliveries = vec![Delivery {
            target: Target::Chat(game.chat.clone()),
            text: format!("{} moved in game {}.", request.actor.name, game.id),
            image: None,
            buttons: Vec::new(),
            game: None,
        }];
        for player in [Some(game.white.clone()), game.black.clone()]
            .into_iter()
            .flatten()
        {
            deliveries.push(Delivery {
                target: Target::Private(player),
                text: format!(
                    "Your board in game {} after {} moves.",
                    game.id,
                    game.moves.len()
                ),
                image: Some(game.board()),
                buttons: Vec::new(),
                game: None,
            });
        }
        deliveries
    } else {
        vec![Delivery {
            target: Target::Chat(game.chat.clone()),
            text: format!("{}. {} — {} moves.", game.moves.len(), text.trim(), game.id),
            image: Some(game.board()),
            buttons: Vec::new(),
            game: None,
        }]
    }
}

impl Handler for ToyHandler {
    fn handle(&self, request: Request) -> HandlerFuture<'_> {
        if let Ok(mut requests) = self.requests.lock() {
            requests.push(request.clone());
        }
        let deliveries = self.answer(request);
        Box::pin(async move { deliveries })
    }
}
