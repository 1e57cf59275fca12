//! The computer in games of four through the console: named for any seat of
//! a one-board team game (four-handed chess, the crosstest variant), it
//! moves on its seat's turn, passes when its king is mated, takes a mated
//! king when it must, stops when the game ends and moves again after a
//! restart. People here play scripted moves: the best of a short search on
//! one team, the first legal move on the other, so games end quickly.

use crate::console_support::{
    self, enochian_prisoners_walk, enochian_throne_walk, has, play_moves, team_game_id, temp_dir,
    Chat,
};
use kodex_bot::store::{GameResult, Status};
use kodex_engine::search::{Limits, Searcher};
use kodex_engine::{ForcedTurn, Game, Registry};
use std::time::{Duration, Instant};

const CROSS: &str = include_str!("../../variants/crosstest.toml");

/// How the people of a test choose their moves.
#[derive(Copy, Clone)]
enum Person {
    /// The first legal move.
    First,
    /// The best move of a depth-2 search.
    Searching,
}

fn choose(game: &Game, person: Person) -> String {
    let mv = match person {
        Person::First => game.legal_moves().into_iter().next(),
        Person::Searching => {
            let limits = Limits {
                depth: Some(2),
                ..Limits::default()
            };
            kodex_engine::search::think(&game.search_board(), &limits, &mut Searcher::new(1))
                .map(|r| r.best)
        }
    };
    let mv = mv.expect("a person on turn has a move");
    // People type SAN: partners' pawns reaching one square from two
    // directions name their origin (`d10-e10`), so it reads back.
    game.san(mv)
}

/// What a played-out game showed about the computer's turns.
#[derive(Default)]
struct Seen {
    /// Moves the computer made.
    computer_moves: usize,
    /// Passes in the record: the service plays them for mated seats.
    passes: usize,
    /// Turns on which the computer had to take a mated king, and whether it did.
    takes: Vec<bool>,
}

/// Plays game `id` to its end: people (seat → how they choose) type their
/// moves, the computer seats are waited for. Panics after `max_plies`.
async fn play_out(
    chat: &mut Chat,
    id: &str,
    people: &[(usize, &str, Person)],
    max_plies: usize,
) -> Seen {
    let mut seen = Seen::default();
    for _ in 0..max_plies {
        let row = chat.row(id).await;
        if row.status.is_over() {
            return seen;
        }
        // The record replays: every move in it, the computer's too, is legal.
        let game = chat.position(id).await;
        if game.outcome().is_some() {
            // A computer's last move landed since the row was read.
            continue;
        }
        // A seat whose only move is the pass is never left on turn: the
        // service passes for it right after the move before.
        assert!(
            game.forced_pass().is_none(),
            "seat {} left to pass: {:?}",
            game.seat_to_move(),
            row.moves
        );
        seen.passes = row.move_list().iter().filter(|m| is_pass(m)).count();
        // Enochian chess: the player who took a throne moves that army too.
        let seat = game.controller(game.seat_to_move());
        let plies = row.move_list().len();
        if let Some(&(_, who, person)) = people.iter().find(|(s, _, _)| *s == seat) {
            let mv = choose(&game, person);
            let out = chat.say(&format!("{who}: /move {mv}")).await;
            assert!(has(&out, &format!("{who} played")), "{who} {mv}: {out:#?}");
            continue;
        }
        let forced = game.forced_turn();
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            chat.advance(0).await;
            let now = chat.row(id).await;
            if now.move_list().len() > plies || now.status.is_over() {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "the computer of seat {seat} did not move within a minute"
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        let after = chat.row(id).await;
        let Some(&last) = after.move_list().get(plies) else {
            continue;
        };
        seen.computer_moves += 1;
        if forced == Some(ForcedTurn::TakeMatedKing) {
            let only = game
                .legal_moves()
                .into_iter()
                .map(|m| game.uci(m))
                .collect::<Vec<_>>();
            seen.takes.push(only.iter().any(|m| m == last));
        }
    }
    panic!("game {id} did not end within {max_plies} plies");
}

#[tokio::test]
async fn the_computer_sits_in_two_seats_of_four_handed_chess_until_the_end() {
    let mut chat = Chat::new("fourplayer-computer").await;
    // The same computer twice needs two levels: a seat is known by its player.
    let out = chat
        .say("alice: /play fourplayer computer level 4 vs @bob computer level 4 white")
        .await;
    assert!(has(&out, "computer is named twice"), "{out:#?}");
    let out = chat
        .say("alice: /play fourplayer computer level 4 vs @bob computer level 1 5+0 white")
        .await;
    let id = team_game_id(&out);
    assert!(has(&out, "seat 3 (white) Kodex L4"), "{out:#?}");
    assert!(has(&out, "seat 4 (black) Kodex L1"), "{out:#?}");
    let out = chat.say(&format!("bob: /accept {id}")).await;
    assert!(has(&out, "starts"), "{out:#?}");
    let seen = play_out(
        &mut chat,
        &id,
        &[(0, "alice", Person::Searching), (1, "bob", Person::First)],
        1_500,
    )
    .await;
    let row = chat.row(&id).await;
    assert_eq!(row.status, Status::Finished);
    assert!(seen.computer_moves > 0);
    // Whenever the computer had a mated king to take it took it; no seat
    // was left to pass (see `play_out`).
    assert!(seen.takes.iter().all(|&took| took), "{:?}", seen.takes);
    eprintln!("{} passes played by the service", seen.passes);
    // It stops with the game: nothing more is played.
    let plies = row.move_list().len();
    tokio::time::sleep(Duration::from_millis(300)).await;
    chat.advance(0).await;
    assert_eq!(chat.row(&id).await.move_list().len(), plies);
}

fn cross_registry() -> Registry {
    let mut registry = Registry::builtin();
    registry
        .add_definition("crosstest.toml", CROSS)
        .expect("the test variant");
    registry
}

#[tokio::test]
async fn three_computers_and_one_person_play_a_game_of_four_to_the_end() {
    let mut chat = Chat::with_registry(temp_dir("cross-computers"), cross_registry()).await;
    let out = chat
        .say("alice: /play crosstest computer level 1 vs computer level 2 computer level 3 5+0 white")
        .await;
    // Nobody but the challenger is a person: the game starts at once.
    assert!(has(&out, "starts"), "{out:#?}");
    let id = console_support::game_id_of_start(&out);
    let seen = play_out(&mut chat, &id, &[(0, "alice", Person::First)], 400).await;
    let row = chat.row(&id).await;
    assert_eq!(row.status, Status::Finished);
    assert!(
        matches!(
            row.result,
            Some(GameResult::Win { .. }) | Some(GameResult::Draw)
        ),
        "{:?}",
        row.result
    );
    // Rooks fall fast here: the game may end before every computer moved.
    assert!(seen.computer_moves > 0, "the computers played");
}

#[tokio::test]
async fn after_a_restart_the_computer_of_a_game_of_four_moves_on_its_turn() {
    let dir = temp_dir("cross-computer-restart");
    let mut chat = Chat::with_registry(dir, cross_registry()).await;
    let out = chat
        .say("alice: /play crosstest @carol vs computer level 2 @dave 5+0 white")
        .await;
    let id = team_game_id(&out);
    chat.say(&format!("carol: /accept {id}")).await;
    let out = chat.say(&format!("dave: /accept {id}")).await;
    assert!(has(&out, "starts"), "{out:#?}");
    let game = chat.position(&id).await;
    let mv = choose(&game, Person::First);
    chat.say(&format!("alice: /move {mv}")).await;
    // Restarted before it answered: the new process picks the game up.
    let mut chat = chat.restart().await;
    chat.service.resume_computers().await;
    let deadline = Instant::now() + Duration::from_secs(60);
    while chat.row(&id).await.move_list().len() < 2 {
        assert!(Instant::now() < deadline, "no move after the restart");
        chat.advance(0).await;
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // Black-1's move was the computer's: carol (white-2) is on turn.
    assert_eq!(chat.position(&id).await.seat_to_move(), 2);
}

/// A draw offer is answered by the computer of the other team by its own
/// evaluation: lost, it accepts (it is not better).
#[tokio::test]
async fn the_computer_of_the_other_team_accepts_a_draw_in_a_lost_position() {
    let mut chat = Chat::with_registry(temp_dir("cross-computer-draw"), cross_registry()).await;
    let out = chat
        .say("alice: /play crosstest @carol vs @bob computer level 2 5+0 white")
        .await;
    let id = team_game_id(&out);
    assert!(has(&out, "seat 4 (black) Kodex L2"), "{out:#?}");
    chat.say(&format!("carol: /accept {id}")).await;
    let out = chat.say(&format!("bob: /accept {id}")).await;
    assert!(has(&out, "starts"), "{out:#?}");
    // Alice takes a black rook, bob leaves the other one where carol takes it.
    let out = chat
        .script(&["alice: /move d1d14", "bob: /move k14k13"])
        .await;
    assert!(has(&out, "bob played"), "{out:#?}");
    // The white team offers a draw: the computer, black-2, is lost and
    // agrees; bob, its partner, agrees too, and it is drawn.
    let out = chat.say("alice: /draw").await;
    assert!(has(&out, "offers a draw"), "{out:#?}");
    chat.wait_for("the computer's answer", |out| {
        has(out, "Kodex L2 agrees to a draw") && has(out, "Still to agree: bob")
    })
    .await;
    assert_eq!(chat.row(&id).await.status, Status::Active);
    let out = chat.say("bob: /draw").await;
    assert!(has(&out, "draw: agreed"), "{out:#?}");
    let row = chat.row(&id).await;
    assert_eq!(row.status, Status::Finished);
    assert_eq!(row.result, Some(GameResult::Draw));
}

/// Enochian chess: three computers and one person play it to its end
/// (kings taken, frozen armies and passes are the engine's).
#[tokio::test]
async fn three_computers_and_one_person_play_enochian_chess_to_the_end() {
    let mut chat = Chat::new("enochian-computers").await;
    let out = chat
        .say(
            "alice: /play enochian computer level 1 vs computer level 2 computer level 3 5+0 white",
        )
        .await;
    assert!(has(&out, "starts"), "{out:#?}");
    let id = console_support::game_id_of_start(&out);
    let seen = play_out(&mut chat, &id, &[(0, "alice", Person::First)], 1_500).await;
    assert_eq!(chat.row(&id).await.status, Status::Finished);
    assert!(seen.computer_moves > 0, "the computers played");
}

/// Whether a stored move is a pass: a square to itself (`h14h14`).
fn is_pass(uci: &str) -> bool {
    let half = uci.len() / 2;
    uci.len() % 2 == 0 && uci.get(..half) == uci.get(half..)
}

/// Enochian chess: blue's king takes black's throne (the scripted walk of
/// `enochian_throne_walk`), so blue's player moves black's army. Where the
/// computer plays blue, it moves black's army on black's turn; where it
/// plays black, it leaves black's army to dave, who took its throne.
#[tokio::test]
async fn the_computer_moves_the_army_whose_throne_it_took_and_no_other() {
    for computer_seat in [3, 1] {
        let (mut chat, id) =
            enochian_of_four(&format!("enochian-throne-computer-{computer_seat}")).await;
        play_moves(&mut chat.console, &enochian_throne_walk()).await;
        let mut chat = computer_takes_seat(chat, &id, computer_seat).await;
        // Red moves; black's turn is blue's player's.
        let out = chat.say("alice: /move Kg2").await;
        assert!(has(&out, "alice played Kg2"), "{out:#?}");
        // One read: the computer may move at any moment after Kg2.
        let (row, before) = chat.row_and_position(&id).await;
        assert_eq!((before.seat_to_move(), before.controller(1)), (1, 3));
        let black = legal_ucis(&before);
        let plies = row.move_list().len();
        if computer_seat == 3 {
            computer_moves_black(&mut chat, &id, plies, &black).await;
        } else {
            // The computer sits at black but does not move black's army:
            // not in a second, ten times what it thinks at level 1.
            for _ in 0..50 {
                chat.advance(0).await;
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            assert_eq!(chat.row(&id).await.move_list().len(), plies);
            let out = chat.say("dave: /move Ra5").await;
            assert!(has(&out, "dave played Ra5"), "{out:#?}");
        }
    }
}

/// An Enochian game of alice and carol against bob and dave, accepted by
/// all, in a new chat named `name`; with its id.
async fn enochian_of_four(name: &str) -> (Chat, String) {
    let mut chat = Chat::new(name).await;
    let out = chat
        .say("alice: /play enochian @carol vs @bob @dave 5+0 white")
        .await;
    let id = team_game_id(&out);
    for who in ["bob", "carol", "dave"] {
        chat.say(&format!("{who}: /accept {id}")).await;
    }
    (chat, id)
}

/// The computer (level 1) takes over seat `seat` of game `id`, as if it had
/// sat there all along, and the service restarts.
async fn computer_takes_seat(chat: Chat, id: &str, seat: usize) -> Chat {
    let mut row = chat.row(id).await;
    let computer = kodex_bot::api::UserRef::computer(kodex_bot::api::Platform::Console, 1);
    let place = row
        .seats
        .iter_mut()
        .find(|s| s.seat == seat)
        .expect("the seat");
    place.user_id = computer.id.clone();
    place.user_name = computer.name.clone();
    assert!(chat.service.store().save(&mut row).await.expect("store"));
    let chat = chat.restart().await;
    chat.service.resume_computers().await;
    chat
}

/// Enochian chess: yellow holds black's king and blue red's (the moves of
/// the console test of thrones and prisoners). The computer at yellow, its
/// partner red's army frozen and full of pieces, offers the exchange before
/// its move; declined, it does not offer it again; offered by dave, it
/// accepts, and both kings come back.
#[tokio::test]
async fn the_computer_offers_an_exchange_of_prisoners_that_revives_its_partner() {
    // The game goes on between searches (the computer's, dave's) for a few
    // turns and may end first (a king left hanging): then it is played again.
    for attempt in 0..4 {
        if offered_declined_and_accepted(attempt).await {
            return;
        }
    }
    panic!("the game ended early four times");
}

/// The scenario of the test above: `false` if the game ended before it was
/// played through.
async fn offered_declined_and_accepted(attempt: usize) -> bool {
    let (mut chat, id) = enochian_of_four(&format!("enochian-exchange-computer-{attempt}")).await;
    play_moves(&mut chat.console, &enochian_throne_walk()).await;
    play_moves(&mut chat.console, &[("alice", "Kg2")]).await;
    play_moves(&mut chat.console, &enochian_prisoners_walk()).await;
    let position = chat.position(&id).await;
    assert_eq!(
        (position.prisoner_of(2), position.prisoner_of(3)),
        (Some(1), Some(0))
    );
    let mut chat = computer_takes_seat(chat, &id, 2).await;
    // Black's move (dave's, who took its throne); then it is yellow's turn.
    // (Counted before: the computer may move as soon as dave has.)
    let mut plies = chat.row(&id).await.move_list().len() + 1;
    let out = chat.say("dave: /move Ra6").await;
    assert!(has(&out, "dave played Ra6"), "{out:#?}");
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut told = out;
    while chat.row(&id).await.exchange_offer.is_none() {
        told.extend(chat.advance(0).await);
        assert!(Instant::now() < deadline, "no offer: {told:#?}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(chat.row(&id).await.exchange_offer, Some(2));
    // Declined, the offer is not made again for the same prisoners: the
    // computer moves (the offer does not pass its turn), now and on its
    // next turn.
    let out = chat.say("dave: /noexchange").await;
    if has(&out, "no game running") {
        return false;
    }
    assert!(has(&out, "declines"), "{out:#?}");
    for _ in 0..2 {
        if !wait_for_moves(&mut chat, &id, plies + 1).await {
            return false;
        }
        assert_eq!(chat.row(&id).await.exchange_offer, None);
        // Dave plays blue and black, never leaving a king to be taken,
        // until yellow is to move again.
        loop {
            let (row, game) = chat.row_and_position(&id).await;
            if game.outcome().is_some() {
                return false;
            }
            if game.controller(game.seat_to_move()) == 2 {
                plies = row.move_list().len();
                break;
            }
            let mv = safe_move(&game, 2);
            let out = chat.say(&format!("dave: /move {mv}")).await;
            assert!(has(&out, "dave played"), "{out:#?}");
        }
    }
    // Offered by the other side, the exchange is accepted at once.
    let out = chat.say("dave: /exchange").await;
    if has(&out, "no game running") {
        return false;
    }
    assert!(has(&out, "offers to exchange prisoners"), "{out:#?}");
    let deadline = Instant::now() + Duration::from_secs(60);
    while !chat.row(&id).await.moves.as_str().contains(" &23") {
        chat.advance(0).await;
        assert!(Instant::now() < deadline, "the computer did not accept");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    true
}

/// Waits until game `id` has `plies` entries in its record: `false` if it
/// ended first.
async fn wait_for_moves(chat: &mut Chat, id: &str, plies: usize) -> bool {
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut told = Vec::new();
    loop {
        let row = chat.row(id).await;
        if row.move_list().len() >= plies {
            return true;
        }
        if row.status != Status::Active {
            return false;
        }
        told.extend(chat.advance(0).await);
        assert!(
            Instant::now() < deadline,
            "the computer did not move: {:?} offer {:?} {told:#?}",
            row.moves,
            row.exchange_offer
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// The first legal move (SAN) after which seat `them`, when next to move,
/// cannot end the game: a move that leaves no king to be taken.
fn safe_move(game: &Game, them: usize) -> String {
    let safe = |mv| {
        let mut after = game.clone();
        after.play(mv);
        while let Some(pass) = after.forced_pass() {
            after.play(pass);
        }
        after.outcome().is_none()
            && (after.seat_to_move() != them
                || after.legal_moves().into_iter().all(|reply| {
                    let mut next = after.clone();
                    next.play(reply);
                    next.outcome().is_none()
                }))
    };
    let moves = game.legal_moves();
    let mv = moves
        .iter()
        .copied()
        .find(|&mv| safe(mv))
        .unwrap_or(moves[0]);
    game.san(mv)
}

/// Enochian chess: bob (black) retires and his partner is the computer
/// (blue), which then moves black's army on black's turn; it never retires.
#[tokio::test]
async fn the_computer_moves_the_army_of_a_partner_who_retired() {
    let mut chat = Chat::new("enochian-retire-computer").await;
    let out = chat
        .say("alice: /play enochian @carol vs @bob computer level 1 5+0 white")
        .await;
    let id = team_game_id(&out);
    for who in ["carol", "bob"] {
        chat.say(&format!("{who}: /accept {id}")).await;
    }
    let out = chat.say("alice: /move g3").await;
    assert!(has(&out, "bob (black) to move"), "{out:#?}");
    let before = chat.position(&id).await;
    let black = legal_ucis(&before);
    let out = chat.say("bob: /retire").await;
    assert!(has(&out, "Kodex L1 now moves black too"), "{out:#?}");
    // Black's turn is the computer's: it moves black's army.
    computer_moves_black(&mut chat, &id, 2, &black).await;
    assert_eq!(chat.row(&id).await.move_list()[..2], ["g2g3", "&r1"]);
    let position = chat.position(&id).await;
    assert!(position.retired(1) && !position.retired(3));
}

/// The legal moves of `game`, in UCI.
fn legal_ucis(game: &Game) -> Vec<String> {
    game.legal_moves()
        .into_iter()
        .map(|m| game.uci(m))
        .collect()
}

/// Waits for the computer to make the move after the first `plies` entries
/// of game `id`'s record, which must be one of `black`'s moves; yellow is
/// to move then.
async fn computer_moves_black(chat: &mut Chat, id: &str, plies: usize, black: &[String]) {
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut told = Vec::new();
    while chat.row(id).await.move_list().len() <= plies {
        told.extend(chat.advance(0).await);
        assert!(
            Instant::now() < deadline,
            "the computer did not move black's army: {told:#?}"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let row = chat.row(id).await;
    let played = row.move_list()[plies].to_owned();
    assert!(
        black.contains(&played),
        "{played} is no move of black's: {black:?}"
    );
    assert_eq!(chat.position(id).await.seat_to_move(), 2);
}
