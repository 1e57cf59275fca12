//! A small scripted stand-in for the game service, so adapter tests can run
//! before (and independently of) the real one: challenges with Accept/Decline
//! buttons, turns, fool's mate, a resign question with Resign/Keep playing
//! buttons and a game GIF at the end, games moved into another chat (a
//! thread), and a "fog" variant whose boards only go to each player privately.
//!
//! It validates moves only by shape (`e4`, `Nf3`, `exd5`, `Qh4#`), which is
//! all an adapter test needs.

use std::sync::Mutex;

use kodex_bot::api::{
    Action, Button, ButtonAction, ChatRef, Delivery, GameRef, Handler, HandlerFuture, Image,
    Request, Target, UserRef, VariantChoice,
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

/// The variants the toy knows.
const VARIANTS: [&str; 2] = ["chess", "fog"];

/// The toy's variants as an adapter offers them.
pub fn variants() -> Vec<VariantChoice> {
    vec![
        VariantChoice {
            id: "chess".into(),
            name_en: "Chess".into(),
            name_ru: "Шахматы".into(),
        },
        VariantChoice {
            id: "fog".into(),
            name_en: "Fog of war".into(),
            name_ru: "Туман войны".into(),
        },
    ]
}

/// Where a toy game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Challenged, not yet accepted.
    Challenged,
    /// Accepted and being played.
    Playing,
    /// Ended by mate or resignation.
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

    /// `w` or `b`: the side `player` plays, as a resign button names it.
    fn side_of(&self, player: &UserRef) -> &'static str {
        if same(&self.white, player) {
            "w"
        } else {
            "b"
        }
    }

    fn board(&self) -> Image {
        Image {
            file_name: format!("board-{}-{}.png", self.id, self.moves.len()),
            bytes: BOARD_PNG.to_vec(),
        }
    }

    /// A delivery about this game, named so an adapter can give it a thread.
    fn delivery(&self, target: Target, text: String, image: Option<Image>) -> Delivery {
        let black = self.black.as_ref().map_or("anyone", |black| &black.name);
        Delivery {
            notify: Vec::new(),
            target,
            text,
            image,
            buttons: Vec::new(),
            game: Some(GameRef {
                id: self.id.clone(),
                title: format!(
                    "{}: {} vs {black} · {}",
                    self.variant, self.white.name, self.id
                ),
                started: false,
                turn: None,
                over: false,
                settles: false,
                reply_within: None,
                edit_board: false,
            }),
        }
    }

    /// The delivery in the game's chat announcing that it has just started.
    fn start(&self, text: String, image: Option<Image>) -> Delivery {
        let mut start = self.delivery(Target::Chat(self.chat.clone()), text, image);
        if let Some(game) = &mut start.game {
            game.started = true;
        }
        start
    }

    /// `player`'s own board, with the secret only they may see: their last move.
    fn private_board(&self, player: &UserRef) -> Delivery {
        let white = same(&self.white, player);
        let mut text = format!(
            "Your board ({}) in game {} after {} moves.",
            if white { "white" } else { "black" },
            self.id,
            self.moves.len()
        );
        if let Some(last) = self
            .moves
            .last()
            .filter(|_| white == (self.moves.len() % 2 == 1))
        {
            text.push_str(&format!(" You played {last}."));
        }
        self.delivery(Target::Private(player.clone()), text, Some(self.board()))
    }

    /// Both players' private boards.
    fn private_boards(&self) -> Vec<Delivery> {
        [Some(&self.white), self.black.as_ref()]
            .into_iter()
            .flatten()
            .map(|player| self.private_board(player))
            .collect()
    }
}

/// Whether two references are the same person, as the service decides: by
/// id, or — for a challenge to an `@username` the adapter had not seen yet
/// (stored with the id `"@name"`) — by the handle the platform vouches for.
/// Never by display name, which anyone can set to anything.
fn same(expected: &UserRef, actual: &UserRef) -> bool {
    if expected.platform != actual.platform {
        return false;
    }
    if expected.id == actual.id {
        return true;
    }
    let wanted = expected.id.strip_prefix('@');
    wanted.is_some_and(|wanted| actual.handle.as_deref() == Some(&*wanted.to_lowercase()))
}

/// A plain text delivery, with no image, buttons or game.
pub fn note(target: Target, text: &str) -> Delivery {
    Delivery {
        notify: Vec::new(),
        target,
        text: text.to_owned(),
        image: None,
        buttons: Vec::new(),
        game: None,
    }
}

fn button(label: &str, action: ButtonAction) -> Button {
    Button::new(label, &action)
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

    fn game(&self, id: &str) -> Option<ToyGame> {
        let games = self.games.lock().ok()?;
        games.iter().find(|game| game.id == id).cloned()
    }

    /// The moves of a game so far.
    pub fn moves(&self, game: &str) -> Vec<String> {
        self.game(game).map(|game| game.moves).unwrap_or_default()
    }

    /// Where a game stands; `None` if there is no such game.
    pub fn status(&self, game: &str) -> Option<Status> {
        self.game(game).map(|game| game.status)
    }

    /// The chat a game is played in; `None` if there is no such game.
    pub fn chat(&self, game: &str) -> Option<ChatRef> {
        self.game(game).map(|game| game.chat)
    }

    fn answer(&self, request: Request) -> Vec<Delivery> {
        let Ok(mut games) = self.games.lock() else {
            return Vec::new();
        };
        let me = Target::Ephemeral(request.actor.clone());
        let action = match request.action.clone() {
            // A "show my board" button is the same as /board.
            Action::Button { data } => match ButtonAction::decode(&data) {
                Some(ButtonAction::Board { game }) => Action::Board { game },
                _ => Action::Button { data },
            },
            action => action,
        };
        match action {
            Action::Play {
                variant, opponent, ..
            } => {
                if !VARIANTS.contains(&variant.as_str()) {
                    let text = format!("Unknown variant “{variant}”. Try /variants.");
                    return vec![note(me, &text)];
                }
                vec![challenge(&mut games, &request, &variant, opponent)]
            }
            Action::Button { data } => {
                let (id, side) = match ButtonAction::decode(&data) {
                    Some(ButtonAction::Accept { game }) => (game, None),
                    Some(ButtonAction::Resign { game, side, .. }) => (game, Some(side)),
                    _ => return vec![note(me, "Unknown button.")],
                };
                let Some(game) = games.iter_mut().find(|game| game.id == id) else {
                    return vec![note(me, "That game is gone.")];
                };
                match side {
                    None => accept(game, &request.actor),
                    Some(side)
                        if game.status == Status::Playing
                            && game.has_player(&request.actor)
                            && side == game.side_of(&request.actor) =>
                    {
                        resign(game, &request.actor)
                    }
                    Some(_) => vec![note(me, "This button is not for you.")],
                }
            }
            Action::Move { text, .. } => play_move(&mut games, &request, &text, true),
            Action::Text { text } => play_move(&mut games, &request, &text, false),
            Action::Board { game } => {
                let found = games.iter().find(|g| {
                    g.has_player(&request.actor) && game.as_ref().is_none_or(|id| *id == g.id)
                });
                match found {
                    Some(game) if game.is_hidden() => vec![game.private_board(&request.actor)],
                    Some(game) => vec![game.delivery(
                        Target::Chat(game.chat.clone()),
                        format!("Game {} after {} moves.", game.id, game.moves.len()),
                        Some(game.board()),
                    )],
                    None => vec![note(me, "You have no game.")],
                }
            }
            Action::Resign { game } => {
                let Some(game) = games.iter().find(|g| {
                    g.status == Status::Playing
                        && g.has_player(&request.actor)
                        && game.as_ref().is_none_or(|id| *id == g.id)
                }) else {
                    return vec![note(me, "You have no game to resign.")];
                };
                // Like the real service: a question only the player sees.
                let text = format!("Resign game {}? This cannot be undone.", game.id);
                let side = game.side_of(&request.actor);
                let mut question = note(me, &text);
                question.buttons = vec![
                    button(
                        "Resign",
                        ButtonAction::Resign {
                            game: game.id.clone(),
                            side: side.to_owned(),
                            ply: None,
                        },
                    ),
                    button(
                        "Keep playing",
                        ButtonAction::KeepPlaying {
                            game: game.id.clone(),
                        },
                    ),
                ];
                vec![question]
            }
            Action::Relocate { game, chat } => {
                // Like the real service: only from the game's own chat, silently.
                if let Some(game) = games
                    .iter_mut()
                    .find(|g| g.id == game && g.chat == request.chat)
                {
                    game.chat.id = chat;
                }
                Vec::new()
            }
            Action::Help { .. } => vec![note(Target::Chat(request.chat), "Kodex help.")],
            _ => vec![note(me, "Not in the toy.")],
        }
    }
}

fn challenge(
    games: &mut Vec<ToyGame>,
    request: &Request,
    variant: &str,
    opponent: Option<UserRef>,
) -> Delivery {
    let whom = opponent.as_ref().map_or("anyone", |o| &o.name).to_owned();
    let game = ToyGame {
        id: format!("g{}", games.len() + 1),
        chat: request.chat.clone(),
        variant: variant.to_owned(),
        white: request.actor.clone(),
        black: opponent,
        status: Status::Challenged,
        moves: Vec::new(),
    };
    let text = format!("{} challenges {whom} to {variant}.", request.actor.name);
    let mut delivery = game.delivery(Target::Chat(game.chat.clone()), text, None);
    delivery.buttons = vec![
        button(
            "Accept",
            ButtonAction::Accept {
                game: game.id.clone(),
            },
        ),
        button(
            "Decline",
            ButtonAction::Decline {
                game: game.id.clone(),
            },
        ),
    ];
    games.push(game);
    delivery
}

fn accept(game: &mut ToyGame, actor: &UserRef) -> Vec<Delivery> {
    let for_me = game.status == Status::Challenged
        && !same(&game.white, actor)
        && game.black.as_ref().is_none_or(|b| same(b, actor));
    if !for_me {
        let me = Target::Ephemeral(actor.clone());
        return vec![note(me, "This challenge is not for you.")];
    }
    game.black = Some(actor.clone());
    game.status = Status::Playing;
    let players = format!("{} vs {}", game.white.name, actor.name);
    if game.is_hidden() {
        let text = format!(
            "Fog game {}: {players}. Boards are sent privately.",
            game.id
        );
        let mut deliveries = vec![game.start(text, None)];
        deliveries.extend(game.private_boards());
        deliveries
    } else {
        let text = format!("Game {}: {players}. White to move.", game.id);
        vec![game.start(text, Some(game.board()))]
    }
}

fn resign(game: &mut ToyGame, actor: &UserRef) -> Vec<Delivery> {
    game.status = Status::Over;
    let winner = if same(&game.white, actor) {
        game.black.as_ref().map_or("", |b| &b.name)
    } else {
        &game.white.name
    };
    let text = format!("{} resigns. {winner} wins.", actor.name);
    let gif = Image {
        file_name: format!("game-{}.gif", game.id),
        bytes: GAME_GIF.to_vec(),
    };
    vec![game.delivery(Target::Chat(game.chat.clone()), text, Some(gif))]
}

/// Whether `text` has the shape of a move (`e4`, `Nf3`, `exd5`, `Qh4#`, even
/// `e9`); anything else typed in a chat is chatter.
fn looks_like_a_move(text: &str) -> bool {
    let text = text.trim_end_matches(['#', '+']);
    (2..=5).contains(&text.len())
        && !text.contains(char::is_whitespace)
        && text.starts_with(|c: char| "abcdefghKQRBN".contains(c))
        && text.ends_with(|c: char| c.is_ascii_digit())
}

/// Whether a move of the right shape ends on the board (`e9` does not).
fn is_on_the_board(text: &str) -> bool {
    text.trim_end_matches(['#', '+'])
        .ends_with(|rank: char| ('1'..='8').contains(&rank))
}

/// A move typed in a chat (`explicit` when by `/move`): only a player to move
/// changes the game; others are told why, except chatter, which is ignored.
fn play_move(
    games: &mut [ToyGame],
    request: &Request,
    text: &str,
    explicit: bool,
) -> Vec<Delivery> {
    let me = Target::Ephemeral(request.actor.clone());
    let text = text.trim();
    let Some(game) = games.iter_mut().find(|g| {
        g.status == Status::Playing
            && g.has_player(&request.actor)
            && (g.chat == request.chat || (request.private && g.is_hidden()))
    }) else {
        return if explicit {
            vec![note(me, "You are not playing a game here.")]
        } else {
            Vec::new()
        };
    };
    if !looks_like_a_move(text) {
        return if explicit {
            vec![note(me, &format!("“{text}” is not a move."))]
        } else {
            Vec::new()
        };
    }
    if !game
        .to_move()
        .is_some_and(|player| same(player, &request.actor))
    {
        return vec![note(me, "It is not your turn.")];
    }
    let chat = Target::Chat(game.chat.clone());
    if !is_on_the_board(text) {
        return vec![game.delivery(chat, format!("Illegal move “{text}”."), None)];
    }
    game.moves.push(text.to_owned());
    if game.is_hidden() {
        let moved = format!("{} moved in game {}.", request.actor.name, game.id);
        let mut deliveries = vec![game.delivery(chat, moved, None)];
        deliveries.extend(game.private_boards());
        return deliveries;
    }
    let ply = game.moves.len();
    let text = if text.ends_with('#') {
        game.status = Status::Over;
        let result = if ply % 2 == 0 { "0-1" } else { "1-0" };
        format!("{ply}. {text} Checkmate. {result}")
    } else {
        format!("{ply}. {text} in game {}.", game.id)
    };
    vec![game.delivery(chat, text, Some(game.board()))]
}

impl Handler for ToyHandler {
    fn handle(&self, request: Request) -> HandlerFuture<'_> {
        if let Ok(mut requests) = self.requests.lock() {
            requests.push(request.clone());
        }
        let deliveries = self.answer(request);
        Box::pin(async move { deliveries })
    }

    fn handle_watched(
        &self,
        request: Request,
        _watcher: kodex_bot::api::ActivityWatcher,
    ) -> HandlerFuture<'_> {
        // The toy draws nothing worth watching.
        self.handle(request)
    }

    fn text(
        &self,
        reader: kodex_bot::api::Reader,
        key: &'static str,
        args: Vec<(&'static str, String)>,
    ) -> kodex_bot::api::TextFuture<'_> {
        let text = kodex_bot::api::text_without_service(&reader, key, &args);
        Box::pin(async move { text })
    }

    fn suggest(
        &self,
        _request: kodex_bot::api::SuggestionRequest,
    ) -> kodex_bot::api::SuggestionFuture<'_> {
        // The toy knows no moves or games to suggest.
        Box::pin(async { Vec::new() })
    }
}
