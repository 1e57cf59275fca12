//! Tournaments at the console: a Swiss of three rounds for five players
//! (a bye each round, a forfeit for a first move not made in time, a
//! restart in the middle of a round), a round robin of four by the Berger
//! table, standings with tie-breaks, and the TRF export read back.

use crate::console_support::{has, to, Chat};
use kodex_bot::store::{Board, BoardResult, Entrant, Round, TournamentRow, TournamentStatus};
use kodex_bot::tournament::{trf, Pairing, RoundResult};

/// The tournament id on the Join button of an announcement.
fn tournament_id(out: &[String]) -> String {
    out.iter()
        .find_map(|line| {
            let (_, rest) = line.split_once("/press tjoin:")?;
            Some(rest.trim_end_matches(']').to_owned())
        })
        .unwrap_or_else(|| panic!("no Join button: {out:#?}"))
}

async fn stored(chat: &Chat, id: &str) -> TournamentRow {
    chat.service
        .store()
        .tournament("console", id)
        .await
        .expect("store")
        .expect("tournament exists")
}

/// How a test game ends.
#[derive(Clone, Copy)]
enum Ending {
    WhiteMates,
    BlackMates,
    Draw,
}

/// Plays the game of `white` and `black` (their only one) to `ending`.
async fn play(chat: &mut Chat, white: &str, black: &str, ending: Ending) -> Vec<String> {
    let moves: &[&str] = match ending {
        Ending::WhiteMates => &["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"],
        Ending::BlackMates => &["f3", "e5", "g4", "Qh4#"],
        Ending::Draw => &["e4", "e5"],
    };
    let mut out = Vec::new();
    for (ply, text) in moves.iter().enumerate() {
        let who = if ply % 2 == 0 { white } else { black };
        out.extend(chat.say(&format!("{who}: {text}")).await);
    }
    if let Ending::Draw = ending {
        out.extend(chat.say(&format!("{white}: /draw")).await);
        out.extend(chat.say(&format!("{black}: /draw")).await);
    }
    out
}

/// The names of white and black on each board of the current round.
async fn boards(chat: &Chat, id: &str) -> Vec<(String, String, String)> {
    let row = stored(chat, id).await;
    let name = |n: u32| row.state.players[n as usize - 1].name.clone();
    row.state
        .played
        .last()
        .expect("a round")
        .boards
        .iter()
        .map(|b| (name(b.white), name(b.black), b.game.clone()))
        .collect()
}

#[tokio::test]
async fn a_swiss_of_five_plays_three_rounds_with_byes_a_forfeit_and_a_restart() {
    let mut chat = Chat::new("tournament-swiss").await;
    let out = chat
        .say("alice: /tournament new swiss chess 5+0 3 in 10")
        .await;
    assert!(has(&out, "announces tournament"), "{out:#?}");
    let id = tournament_id(&out);
    // Joined by command and by the button; a second entry is refused.
    chat.say("alice: /tournament join").await;
    for name in ["bob", "carol", "dave", "eve"] {
        let out = chat.say(&format!("{name}: /press tjoin:{id}")).await;
        assert!(
            has(&out, &format!("{name} is in tournament {id}")),
            "{out:#?}"
        );
    }
    let again = chat.say("bob: /tournament join").await;
    assert!(has(&again, "already in tournament"), "{again:#?}");
    // Only its creator (or a chat admin) starts it early.
    let refused = chat.say("bob: /tournament start").await;
    assert!(has(&refused, "Only alice"), "{refused:#?}");
    // Nothing happens before its time; then round 1 is paired in one message.
    assert!(chat.advance(9 * 60_000).await.is_empty());
    let start = chat.advance(60_000).await;
    let headers: Vec<&String> = start
        .iter()
        .filter(|line| line.contains("Round 1 of 3"))
        .collect();
    assert_eq!(headers.len(), 1, "{start:#?}");
    assert!(
        has(&start, "Tournament") && has(&start, "begins"),
        "{start:#?}"
    );
    assert!(has(&start, "has the bye"), "{start:#?}");
    // The games' own start messages are not posted one by one.
    assert!(
        !to(&start, "[#local]").iter().any(|l| l.contains("image:")),
        "{start:#?}"
    );
    let row = stored(&chat, &id).await;
    assert_eq!(row.status, TournamentStatus::Running);
    assert_eq!(row.state.played[0].boards.len(), 2);
    // Every game is a stored game of this chat, started like any.
    for (white, black, game) in boards(&chat, &id).await {
        let game_row = chat.row(&game).await;
        assert_eq!(game_row.chat_id, "local");
        assert_eq!(game_row.seats[0].user_name, white);
        assert_eq!(game_row.seats[1].user_name, black);
    }

    // Round 1: white wins on board 1, black on board 2.
    let round = boards(&chat, &id).await;
    play(&mut chat, &round[0].0, &round[0].1, Ending::WhiteMates).await;
    let out = play(&mut chat, &round[1].0, &round[1].1, Ending::BlackMates).await;
    assert!(has(&out, "Round 1 of tournament"), "{out:#?}");
    assert!(has(&out, "Round 2 of 3"), "{out:#?}");

    // Round 2: board 1 drawn; on board 2 white never moves: a forfeit.
    let round = boards(&chat, &id).await;
    play(&mut chat, &round[0].0, &round[0].1, Ending::Draw).await;
    assert!(chat.advance(59_000).await.is_empty());
    let out = chat.advance(2_000).await;
    assert!(has(&out, "Round 2 of tournament"), "{out:#?}");
    assert!(has(&out, "−–+"), "{out:#?}");
    assert!(has(&out, "Round 3 of 3"), "{out:#?}");
    let row = stored(&chat, &id).await;
    assert_eq!(
        row.state.played[1].boards[1].result,
        Some(BoardResult::WhiteForfeits)
    );

    // Round 3: one game ends, the process restarts, the other ends.
    let round = boards(&chat, &id).await;
    play(&mut chat, &round[0].0, &round[0].1, Ending::WhiteMates).await;
    let mut chat = chat.restart().await;
    let standings = chat.say("carol: /tournament standings").await;
    assert!(has(&standings, "standings after round 2"), "{standings:#?}");
    let out = play(&mut chat, &round[1].0, &round[1].1, Ending::WhiteMates).await;
    assert!(has(&out, "Round 3 of tournament"), "{out:#?}");
    assert!(has(&out, "final standings"), "{out:#?}");
    assert!(has(&out, "The winner"), "{out:#?}");
    let row = stored(&chat, &id).await;
    assert_eq!(row.status, TournamentStatus::Finished);
    assert_eq!(row.next_at, None);

    // Byes: three different players, once each; nobody met twice.
    let byes: Vec<u32> = row.state.played.iter().filter_map(|r| r.bye).collect();
    assert_eq!(byes.len(), 3);
    let mut distinct = byes.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), 3, "{byes:?}");
    let mut met: Vec<(u32, u32)> = Vec::new();
    for board in row.state.played.iter().flat_map(|r| &r.boards) {
        let pair = (board.white.min(board.black), board.white.max(board.black));
        assert!(!met.contains(&pair), "{pair:?} met twice");
        met.push(pair);
    }

    // The final standings list all five with points and tie-breaks.
    let standings = chat.say("eve: /tournament standings").await;
    assert!(has(&standings, "final standings"), "{standings:#?}");
    let lines: Vec<&String> = standings
        .iter()
        .filter(|l| l.contains(" — ") && l.contains("BH-1"))
        .collect();
    assert_eq!(lines.len(), 5, "{standings:#?}");

    // The TRF export reads back: five players, three rounds each, the
    // forfeit and the byes as FIDE writes them.
    let out = chat.say("dave: /tournament trf").await;
    let path = out
        .iter()
        .find_map(|l| l.split_once("image: ").map(|(_, p)| p.to_owned()))
        .unwrap_or_else(|| panic!("no file: {out:#?}"));
    let text = std::fs::read_to_string(&path).expect("trf file");
    let read = trf::read(&text).expect("the TRF parses");
    assert_eq!(read.total_rounds, Some(3));
    assert_eq!(read.players.len(), 5);
    assert!(read.players.iter().all(|p| p.rounds.len() == 3));
    let results: Vec<RoundResult> = read
        .players
        .iter()
        .flat_map(|p| p.rounds.iter().map(|r| r.result))
        .collect();
    for wanted in [
        RoundResult::ForfeitWin,
        RoundResult::ForfeitLoss,
        RoundResult::PairingBye,
        RoundResult::Draw,
        RoundResult::Win,
    ] {
        assert!(results.contains(&wanted), "{wanted:?}: {text}");
    }
    // It is over: no more entries or cancelling.
    let late = chat.say("frank: /tournament join").await;
    assert!(has(&late, "no tournament"), "{late:#?}");
}

#[tokio::test]
async fn a_round_robin_of_four_follows_the_berger_table() {
    let mut chat = Chat::new("tournament-robin").await;
    let out = chat
        .say("dave: /tournament new roundrobin chess 3+2 in 5")
        .await;
    assert!(has(&out, "everyone plays everyone"), "{out:#?}");
    let id = tournament_id(&out);
    for name in ["alice", "bob", "carol", "dave"] {
        chat.say(&format!("{name}: /tournament join")).await;
    }
    let out = chat.say("dave: /tournament start").await;
    assert!(has(&out, "Round 1 of 3"), "{out:#?}");
    let row = stored(&chat, &id).await;
    // Equal ratings: seeded in the order of entry.
    let names: Vec<&str> = row.state.players.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["alice", "bob", "carol", "dave"]);
    let table = kodex_bot::tournament::berger::round_robin(
        4,
        kodex_bot::tournament::berger::Cycles::Single,
    )
    .expect("table");
    for (round, scheduled) in table.iter().enumerate() {
        let row = stored(&chat, &id).await;
        let played: Vec<Pairing> = row.state.played[round]
            .boards
            .iter()
            .map(|b| Pairing {
                white: b.white,
                black: b.black,
            })
            .collect();
        assert_eq!(played, scheduled.pairings, "round {}", round + 1);
        // The higher seed's white wins; the other board is drawn.
        let round_boards = boards(&chat, &id).await;
        play(
            &mut chat,
            &round_boards[0].0,
            &round_boards[0].1,
            Ending::WhiteMates,
        )
        .await;
        play(
            &mut chat,
            &round_boards[1].0,
            &round_boards[1].1,
            Ending::Draw,
        )
        .await;
    }
    let row = stored(&chat, &id).await;
    assert_eq!(row.status, TournamentStatus::Finished);
    let standings = chat.say("bob: /tournament standings").await;
    assert!(has(&standings, "final standings"), "{standings:#?}");
    let lines: Vec<&String> = standings
        .iter()
        .filter(|l| l.contains(" — ") && l.contains("SB"))
        .collect();
    assert_eq!(lines.len(), 4, "{standings:#?}");
    // Points add up to the six games played.
    let total: f64 = lines
        .iter()
        .map(|l| {
            let after = l.split(" — ").nth(1).expect("points");
            after
                .split_whitespace()
                .next()
                .and_then(|p| p.parse::<f64>().ok())
                .expect("a number")
        })
        .sum();
    assert_eq!(total, 6.0, "{standings:#?}");
}

#[tokio::test]
async fn tournaments_refuse_what_they_cannot_play_and_keep_their_limits() {
    let mut chat = Chat::configured("tournament-limits", |config| {
        config.games.max_tournaments = 1;
        config.games.max_tournament_players = 2;
    })
    .await;
    let out = chat.say("alice: /tournament new ladder chess 3+2").await;
    assert!(has(&out, "no tournament format"), "{out:#?}");
    let out = chat.say("alice: /tournament new swiss chess").await;
    assert!(has(&out, "needs a clock"), "{out:#?}");
    let out = chat.say("alice: /tournament new swiss bughouse 3+0").await;
    assert!(has(&out, "two players on one board"), "{out:#?}");
    let out = chat
        .say("alice (dm): /tournament new swiss chess 3+2")
        .await;
    assert!(has(&out, "group chat"), "{out:#?}");
    let out = chat.say("alice: /tournament").await;
    assert!(has(&out, "/tournament new"), "{out:#?}");
    let out = chat.say("alice: /tournament new swiss chess 3+2 3").await;
    let id = tournament_id(&out);
    let out = chat.say("bob: /tournament new swiss chess 3+2 3").await;
    assert!(has(&out, "as many tournaments as it may"), "{out:#?}");
    chat.say("alice: /tournament join").await;
    chat.say("bob: /tournament join").await;
    let out = chat.say("carol: /tournament join").await;
    assert!(has(&out, "full"), "{out:#?}");
    // Leaving before the start frees the place.
    let out = chat.say("bob: /tournament leave").await;
    assert!(has(&out, "bob leaves tournament"), "{out:#?}");
    let out = chat.say("carol: /tournament join").await;
    assert!(has(&out, "carol is in tournament"), "{out:#?}");
    let out = chat.say("carol: /tournament cancel").await;
    assert!(has(&out, "Only alice"), "{out:#?}");
    let out = chat.say("alice: /tournament cancel").await;
    assert!(
        has(&out, &format!("Tournament {id} is cancelled")),
        "{out:#?}"
    );
    // Nothing starts at the old time.
    assert!(chat.advance(11 * 60_000).await.is_empty());
    // Too few players at the start: called off.
    let out = chat
        .say("alice: /tournament new swiss chess 3+2 3 in 1")
        .await;
    let id = tournament_id(&out);
    chat.say("alice: /tournament join").await;
    let out = chat.advance(60_000).await;
    assert!(
        has(&out, &format!("Tournament {id} is called off")),
        "{out:#?}"
    );
}

#[tokio::test]
async fn a_fog_of_war_tournament_keeps_each_players_board_private() {
    let mut chat = Chat::new("tournament-fog").await;
    let out = chat
        .say("alice: /tournament new swiss fogofwar 5+3 1")
        .await;
    let id = tournament_id(&out);
    chat.say("alice: /tournament join").await;
    chat.say("bob: /tournament join").await;
    let start = chat.say("alice: /tournament start").await;
    assert!(has(&start, "Round 1 of 1"), "{start:#?}");
    // Each player gets their own board privately; the chat gets no board.
    let to_alice = to(&start, "[@alice]");
    let to_bob = to(&start, "[@bob]");
    assert!(to_alice.iter().any(|l| l.contains("image:")), "{start:#?}");
    assert!(to_bob.iter().any(|l| l.contains("image:")), "{start:#?}");
    assert!(
        !to(&start, "[#local]").iter().any(|l| l.contains("image:")),
        "{start:#?}"
    );
    let (white, black, game) = boards(&chat, &id).await.remove(0);
    // Moves are sent privately, as in any fog-of-war game.
    let out = chat.say(&format!("{white} (dm): e4")).await;
    assert!(
        !to(&out, "[#local]").iter().any(|l| l.contains("e4")),
        "{out:#?}"
    );
    chat.say(&format!("{black} (dm): e5")).await;
    // The game ends; the tournament with it.
    let out = chat.say(&format!("{white}: /resign")).await;
    let confirm = out
        .iter()
        .find_map(|l| {
            let (_, rest) = l.split_once("/press rsg:")?;
            Some(format!("rsg:{}", rest.split(']').next()?))
        })
        .unwrap_or_else(|| panic!("no confirmation: {out:#?}"));
    let out = chat.say(&format!("{white}: /press {confirm}")).await;
    assert!(has(&out, "final standings"), "{out:#?}");
    assert_eq!(chat.result(&game).await.as_deref(), Some("0-1"));
    let row = stored(&chat, &id).await;
    assert_eq!(
        row.state.played[0].boards[0].result,
        Some(BoardResult::BlackWins)
    );
}

#[tokio::test]
async fn a_knockout_of_five_seeds_byes_replays_a_drawn_match_and_crowns_a_champion() {
    let mut chat = Chat::new("tournament-knockout").await;
    let out = chat.say("alice: /tournament new knockout chess 3+2").await;
    assert!(has(&out, "one-game matches"), "{out:#?}");
    let id = tournament_id(&out);
    for name in ["alice", "bob", "carol", "dave", "eve"] {
        chat.say(&format!("{name}: /tournament join")).await;
    }
    // Eight places: seeds 1–3 go through; 4 meets 5, the higher seed white.
    let out = chat.say("alice: /tournament start").await;
    assert!(has(&out, "Knockout round 1 of 3, game 1"), "{out:#?}");
    assert!(has(&out, "without a game: alice, bob, carol"), "{out:#?}");
    let round = boards(&chat, &id).await;
    assert_eq!(round.len(), 1);
    assert_eq!((round[0].0.as_str(), round[0].1.as_str()), ("dave", "eve"));
    // A draw: a decisive game follows, colours swapped, until one wins.
    let out = play(&mut chat, "dave", "eve", Ending::Draw).await;
    assert!(has(&out, "Knockout round 1 of 3, game 2"), "{out:#?}");
    let round = boards(&chat, &id).await;
    assert_eq!((round[0].0.as_str(), round[0].1.as_str()), ("eve", "dave"));
    let out = play(&mut chat, "eve", "dave", Ending::WhiteMates).await;
    assert!(has(&out, "Knockout round 2 of 3, game 1"), "{out:#?}");
    let round = boards(&chat, &id).await;
    let pairs: Vec<(&str, &str)> = round
        .iter()
        .map(|(w, b, _)| (w.as_str(), b.as_str()))
        .collect();
    assert_eq!(pairs, [("alice", "eve"), ("bob", "carol")]);
    play(&mut chat, "alice", "eve", Ending::WhiteMates).await;
    let out = play(&mut chat, "bob", "carol", Ending::BlackMates).await;
    assert!(has(&out, "Knockout round 3 of 3, game 1"), "{out:#?}");
    let standings = chat.say("dave: /tournament standings").await;
    assert!(has(&standings, "Still in: alice, carol"), "{standings:#?}");
    let out = play(&mut chat, "alice", "carol", Ending::BlackMates).await;
    assert!(has(&out, "The winner: carol"), "{out:#?}");
    assert!(has(&out, "1. carol"), "{out:#?}");
    assert!(has(&out, "2. alice"), "{out:#?}");
    assert!(has(&out, "3. bob, eve"), "{out:#?}");
    assert!(has(&out, "5. dave"), "{out:#?}");
    assert_eq!(stored(&chat, &id).await.status, TournamentStatus::Finished);
}

/// Plays the game `name` has under way in tournament `id` to a win for `name`.
async fn win_for(chat: &mut Chat, id: &str, name: &str) -> (Vec<String>, String) {
    let row = stored(chat, id).await;
    let player = |n: u32| row.state.players[n as usize - 1].name.clone();
    let board = row
        .state
        .played
        .iter()
        .flat_map(|r| &r.boards)
        .find(|b| b.result.is_none() && (player(b.white) == name || player(b.black) == name))
        .unwrap_or_else(|| panic!("{name} plays no game"));
    let (white, black) = (player(board.white), player(board.black));
    let opponent = if white == name { &black } else { &white };
    let ending = if white == name {
        Ending::WhiteMates
    } else {
        Ending::BlackMates
    };
    (play(chat, &white, &black, ending).await, opponent.clone())
}

#[tokio::test]
async fn an_arena_pairs_whoever_is_free_never_the_last_opponent_and_doubles_a_streak() {
    let mut chat = Chat::new("tournament-arena").await;
    let out = chat.say("alice: /tournament new arena chess 3+2 10").await;
    assert!(has(&out, "whoever is free"), "{out:#?}");
    let id = tournament_id(&out);
    for name in ["alice", "bob", "carol"] {
        chat.say(&format!("{name}: /tournament join")).await;
    }
    let out = chat.say("alice: /tournament start").await;
    assert!(has(&out, "new pairings (10 min left)"), "{out:#?}");
    // Three players: one game, the third waits.
    let first = boards(&chat, &id).await;
    assert_eq!(first.len(), 1, "{out:#?}");
    let (a, b) = (first[0].0.clone(), first[0].1.clone());
    let waiting = ["alice", "bob", "carol"]
        .into_iter()
        .find(|n| *n != a && *n != b)
        .expect("a third")
        .to_owned();
    // The winner is paired at once with the one who waited, not again
    // with the loser.
    let (out, loser) = win_for(&mut chat, &id, &a).await;
    assert!(has(&out, "new pairings"), "{out:#?}");
    let second = boards(&chat, &id).await;
    let names = [second[0].0.as_str(), second[0].1.as_str()];
    assert!(
        names.contains(&a.as_str()) && names.contains(&waiting.as_str()),
        "{second:?}"
    );
    // The winner's two last opponents each met the winner last: they play
    // each other, and the winner waits.
    let (out, _) = win_for(&mut chat, &id, &a).await;
    assert!(has(&out, "new pairings"), "{out:#?}");
    let third = boards(&chat, &id).await;
    let names = [third[0].0.as_str(), third[0].1.as_str()];
    assert!(
        names.contains(&loser.as_str()) && names.contains(&waiting.as_str()),
        "{third:?}"
    );
    win_for(&mut chat, &id, &loser).await;
    let fourth = boards(&chat, &id).await;
    let names = [fourth[0].0.as_str(), fourth[0].1.as_str()];
    assert!(
        names.contains(&a.as_str()) && names.contains(&loser.as_str()),
        "{fourth:?}"
    );
    // Two wins light the fire: the third is worth 4, so 2 + 2 + 4.
    win_for(&mut chat, &id, &a).await;
    let standings = chat.say("bob: /tournament standings").await;
    assert!(has(&standings, &format!("1. {a} — 8 🔥")), "{standings:#?}");
    // Time is up: the game under way is played out (here: nobody moves, a
    // forfeit), no new pairings, and the final standings.
    let out = chat.advance(10 * 60_000).await;
    assert!(has(&out, "final standings"), "{out:#?}");
    assert!(has(&out, &format!("The winner: {a}")), "{out:#?}");
    assert!(!has(&out, "new pairings"), "{out:#?}");
    assert_eq!(stored(&chat, &id).await.status, TournamentStatus::Finished);
}

/// The name of pairing number `n` in `row`.
fn name_of(row: &TournamentRow, n: u32) -> String {
    row.state.players[n as usize - 1].name.clone()
}

/// The names the last round of `row` pairs (in games or with the bye).
fn paired_last(row: &TournamentRow) -> Vec<String> {
    let round = row.state.played.last().expect("a round");
    round
        .boards
        .iter()
        .flat_map(|b| [b.white, b.black])
        .chain(round.bye)
        .map(|n| name_of(row, n))
        .collect()
}

/// Draws every game under way in tournament `id` that none of `absent`
/// plays in; in a game of an absent black, white makes a first move (so
/// only the absent player lets the first-move time pass).
async fn draw_all_but(chat: &mut Chat, id: &str, absent: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    let row = stored(chat, id).await;
    let round = row.state.played.last().expect("a round").clone();
    for board in round.boards.iter().filter(|b| b.result.is_none()) {
        let (white, black) = (name_of(&row, board.white), name_of(&row, board.black));
        if absent.contains(&black.as_str()) {
            out.extend(chat.say(&format!("{white}: e4")).await);
        } else if !absent.contains(&white.as_str()) {
            out.extend(play(chat, &white, &black, Ending::Draw).await);
        }
    }
    out
}

/// The TRF export of tournament `id`, read back.
async fn trf_of(chat: &mut Chat) -> trf::Tournament {
    let out = chat.say("alice: /tournament trf").await;
    let path = out
        .iter()
        .find_map(|l| l.split_once("image: ").map(|(_, p)| p.to_owned()))
        .unwrap_or_else(|| panic!("no file: {out:#?}"));
    trf::read(&std::fs::read_to_string(&path).expect("trf file")).expect("the TRF parses")
}

#[tokio::test]
async fn a_player_absent_twice_is_withdrawn_and_a_paused_one_sits_out_without_a_bye() {
    let mut chat = Chat::new("tournament-withdraw").await;
    let out = chat.say("alice: /tournament new swiss chess 5+0 3").await;
    let id = tournament_id(&out);
    for name in ["alice", "bob", "carol", "dave", "eve", "frank"] {
        chat.say(&format!("{name}: /tournament join")).await;
    }
    // Before the start there is nothing to sit out.
    let early = chat.say("carol: /tournament pause").await;
    assert!(has(&early, "is not under way"), "{early:#?}");
    let out = chat.say("alice: /tournament start").await;
    assert!(has(&out, "Round 1 of 3"), "{out:#?}");
    // Round 1 (1–4, 2–5, 3–6): dave never moves; the higher seeds win.
    let round = boards(&chat, &id).await;
    assert_eq!(round.len(), 3, "{round:?}");
    // carol sits out from the next pairing on; her game now is played out.
    let out = chat.say("carol: /tournament pause").await;
    assert!(has(&out, "carol sits out tournament"), "{out:#?}");
    win_for(&mut chat, &id, "bob").await;
    win_for(&mut chat, &id, "carol").await;
    draw_all_but(&mut chat, &id, &["dave"]).await;
    let out = chat.advance(61_000).await;
    assert!(has(&out, "Round 1 of tournament"), "{out:#?}");
    assert!(has(&out, "Round 2 of 3"), "{out:#?}");
    assert!(!has(&out, "withdrawn"), "one absence is not two: {out:#?}");
    let row = stored(&chat, &id).await;
    assert_eq!(row.state.players[3].absences, 1);
    // Round 2: carol is not paired and has no bye; dave, absent again, is.
    let paired = paired_last(&row);
    assert!(!paired.contains(&"carol".to_owned()), "{paired:?}");
    assert!(paired.contains(&"dave".to_owned()), "{paired:?}");
    let round2 = row.state.played[1].clone();
    assert_ne!(round2.bye, Some(3), "a pause earns no bye");
    assert!(round2.absent.contains(&3), "{round2:?}");
    // She comes back for round 3.
    let out = chat.say("carol: /tournament join").await;
    assert!(has(&out, "carol is back in tournament"), "{out:#?}");
    draw_all_but(&mut chat, &id, &["dave"]).await;
    let out = chat.advance(61_000).await;
    assert!(
        has(
            &out,
            "dave did not start a game in two rounds and is withdrawn"
        ),
        "{out:#?}"
    );
    assert!(has(&out, "Round 3 of 3"), "{out:#?}");
    let row = stored(&chat, &id).await;
    assert!(row.state.players[3].withdrawn);
    let paired = paired_last(&row);
    assert!(!paired.contains(&"dave".to_owned()), "{paired:?}");
    assert!(paired.contains(&"carol".to_owned()), "{paired:?}");
    // carol's round 2 is a zero-point bye, not a forfeit; dave's two are forfeits.
    let read = trf_of(&mut chat).await;
    assert_eq!(read.players[2].rounds[1].result, RoundResult::ZeroPointBye);
    assert_eq!(read.players[3].rounds[0].result, RoundResult::ForfeitLoss);
    assert_eq!(read.players[3].rounds[1].result, RoundResult::ForfeitLoss);
    let out = draw_all_but(&mut chat, &id, &[]).await;
    assert!(has(&out, "final standings"), "{out:#?}");
    assert!(has(&out, "dave (withdrawn)"), "{out:#?}");
}

#[tokio::test]
async fn the_computer_enters_only_when_added_and_plays_its_games() {
    let mut chat = Chat::new("tournament-computer").await;
    let out = chat
        .say("alice: /tournament new swiss chess 5+3 1 rated")
        .await;
    let id = tournament_id(&out);
    chat.say("alice: /tournament join").await;
    let out = chat.say("bob: /tournament add computer level 1").await;
    assert!(has(&out, "Only alice"), "{out:#?}");
    let out = chat.say("alice: /tournament add computer level 9").await;
    assert!(has(&out, "level 1 to 8"), "{out:#?}");
    let out = chat.say("alice: /tournament add computer level 1").await;
    assert!(
        has(&out, "Kodex L1 (the computer, level 1) is in tournament"),
        "{out:#?}"
    );
    let out = chat.say("alice: /tournament add computer level 1").await;
    assert!(has(&out, "already in tournament"), "{out:#?}");
    let out = chat.say("alice: /tournament start").await;
    assert!(has(&out, "Round 1 of 1"), "{out:#?}");
    let late = chat.say("alice: /tournament add computer level 2").await;
    assert!(has(&late, "not taking entries"), "{late:#?}");
    let (white, black, game) = boards(&chat, &id).await.remove(0);
    let row = chat.row(&game).await;
    assert!(
        row.seats.iter().any(|s| s.user_id == "computer:1"),
        "{:?}",
        row.seats
    );
    // As any game against the computer: not rated.
    assert!(!row.rated);
    // It moves when it is its turn, also after a restart.
    if white == "Kodex L1" {
        chat.wait_for("the computer's first move", |out| {
            has(out, "Kodex L1 played")
        })
        .await;
    }
    let mut chat = chat.restart().await;
    // What the new process's scheduler does first.
    chat.service.resume_computers().await;
    let position = chat.position(&game).await;
    let mv = position.uci(position.legal_moves()[0]);
    let out = chat.say(&format!("alice: {mv}")).await;
    assert!(has(&out, "alice played"), "{out:#?}");
    chat.wait_for("the computer's answer", |out| has(out, "Kodex L1 played"))
        .await;
    // alice resigns: the computer wins the tournament.
    let out = chat.say("alice: /resign").await;
    let confirm = out
        .iter()
        .find_map(|l| {
            let (_, rest) = l.split_once("/press rsg:")?;
            Some(format!("rsg:{}", rest.split(']').next()?))
        })
        .unwrap_or_else(|| panic!("no confirmation: {out:#?}"));
    let out = chat.say(&format!("alice: /press {confirm}")).await;
    assert!(
        has(&out, "The winner: Kodex L1"),
        "{out:#?} ({white}–{black})"
    );
    assert_eq!(stored(&chat, &id).await.status, TournamentStatus::Finished);
}

#[tokio::test]
async fn late_joiners_enter_a_swiss_from_its_next_round_and_an_arena_at_once() {
    let mut chat = Chat::new("tournament-late").await;
    let out = chat.say("alice: /tournament new swiss chess 5+0 3").await;
    let id = tournament_id(&out);
    for name in ["alice", "bob", "carol", "dave"] {
        chat.say(&format!("{name}: /tournament join")).await;
    }
    chat.say("alice: /tournament start").await;
    let out = chat.say(&format!("frank: /press tjoin:{id}")).await;
    assert!(
        has(&out, "frank joins tournament") && has(&out, "paired from round 2 on"),
        "{out:#?}"
    );
    let row = stored(&chat, &id).await;
    assert_eq!(row.state.players.len(), 5);
    assert!(!paired_last(&row).contains(&"frank".to_owned()));
    let out = draw_all_but(&mut chat, &id, &[]).await;
    assert!(has(&out, "Round 2 of 3"), "{out:#?}");
    let row = stored(&chat, &id).await;
    assert!(paired_last(&row).contains(&"frank".to_owned()), "{out:#?}");
    // Round 1 counted nothing for frank: a zero-point bye.
    let read = trf_of(&mut chat).await;
    assert_eq!(read.players[4].rounds[0].result, RoundResult::ZeroPointBye);
    draw_all_but(&mut chat, &id, &[]).await;
    // The last round is under way: no round is left to pair a newcomer in.
    let out = chat.say("grace: /tournament join").await;
    assert!(has(&out, "too late to join"), "{out:#?}");

    // An arena takes a newcomer at once and pairs them when someone is free.
    let mut chat = Chat::new("tournament-late-arena").await;
    let out = chat.say("alice: /tournament new arena chess 3+2 10").await;
    let id = tournament_id(&out);
    chat.say("alice: /tournament join").await;
    chat.say("bob: /tournament join").await;
    chat.say("alice: /tournament start").await;
    let out = chat.say("carol: /tournament join").await;
    assert!(
        has(&out, "carol joins tournament") && has(&out, "as soon as someone is free"),
        "{out:#?}"
    );
    // bob sits out after this game: alice, free, meets carol, not him.
    let out = chat.say("bob: /tournament pause").await;
    assert!(has(&out, "bob sits out tournament"), "{out:#?}");
    let (out, _) = win_for(&mut chat, &id, "alice").await;
    assert!(has(&out, "new pairings"), "{out:#?}");
    let row = stored(&chat, &id).await;
    let paired = paired_last(&row);
    assert!(
        paired.contains(&"carol".to_owned()) && paired.contains(&"alice".to_owned()),
        "{out:#?}"
    );
    let out = chat.say("bob: /tournament join").await;
    assert!(has(&out, "bob is back in tournament"), "{out:#?}");
    // Back, and paired once someone is free.
    let (out, _) = win_for(&mut chat, &id, "carol").await;
    assert!(has(&out, "new pairings"), "{out:#?}");
    assert!(paired_last(&stored(&chat, &id).await).contains(&"bob".to_owned()));
    chat.advance(10 * 60_000).await;
    let out = chat.say("dave: /tournament join").await;
    assert!(
        has(&out, "too late to join") || has(&out, "no tournament"),
        "{out:#?}"
    );
}

#[tokio::test]
async fn a_berserk_win_in_an_arena_earns_a_point_more() {
    let mut chat = Chat::new("tournament-berserk").await;
    let out = chat.say("alice: /tournament new arena chess 4+0 10").await;
    let id = tournament_id(&out);
    chat.say("alice: /tournament join").await;
    chat.say("bob: /tournament join").await;
    // No arena game: nothing to berserk in.
    let out = chat.say("alice: /berserk").await;
    assert!(has(&out, "Berserk is for a game"), "{out:#?}");
    chat.say("alice: /tournament start").await;
    let (white, black, game) = boards(&chat, &id).await.remove(0);
    let out = chat.say(&format!("{white}: /berserk")).await;
    assert!(
        has(&out, &format!("{white} berserks in game {game}")) && has(&out, "2:00"),
        "{out:#?}"
    );
    let row = chat.row(&game).await;
    assert_eq!(row.seats[0].remaining_ms, Some(120_000));
    assert_eq!(row.seats[1].remaining_ms, Some(240_000));
    assert_eq!(row.deadline, row.turn_started_at.map(|t| t + 120_000));
    let again = chat.say(&format!("{white}: /berserk")).await;
    assert!(has(&again, "already berserked"), "{again:#?}");
    // Seven moves of white's to a mate: the berserk point counts.
    let moves = [
        "a3", "a6", "b3", "b6", "h3", "h6", "e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6",
    ];
    for (ply, text) in moves.iter().enumerate() {
        let who = if ply % 2 == 0 { &white } else { &black };
        chat.say(&format!("{who}: {text}")).await;
        if ply == 1 {
            // Black has moved: too late for black to berserk.
            let late = chat.say(&format!("{black}: /berserk")).await;
            assert!(has(&late, "only before your first move"), "{late:#?}");
        }
    }
    let stored_row = stored(&chat, &id).await;
    assert!(stored_row.state.played[0].boards[0].white_berserk);
    assert!(!stored_row.state.played[0].boards[0].black_berserk);
    let out = chat.say(&format!("{white}: Qxf7#")).await;
    assert!(has(&out, "new pairings"), "{out:#?}");
    let standings = chat.say("bob: /tournament standings").await;
    assert!(
        has(&standings, &format!("1. {white} — 3")),
        "{standings:#?}"
    );
}

/// Berserk takes the increment too, as on lichess: on 3+2 the berserker
/// plays on 1:30 with nothing added per move, the opponent on 3:00 + 2 s.
#[tokio::test]
async fn a_berserker_gets_no_increment() {
    let mut chat = Chat::new("tournament-berserk-increment").await;
    let out = chat.say("alice: /tournament new arena chess 3+2 10").await;
    let id = tournament_id(&out);
    chat.say("alice: /tournament join").await;
    chat.say("bob: /tournament join").await;
    chat.say("alice: /tournament start").await;
    let (white, black, game) = boards(&chat, &id).await.remove(0);
    let out = chat.say(&format!("{white}: /berserk")).await;
    assert!(has(&out, "with no increment"), "{out:#?}");
    for (who, text) in [(&white, "e4"), (&black, "e5"), (&white, "Nf3")] {
        chat.say(&format!("{who}: {text}")).await;
    }
    // The test clock stands still: what changed is the increment alone.
    let row = chat.row(&game).await;
    assert_eq!(row.moves.len(), 3);
    assert_eq!(row.seats[0].remaining_ms, Some(90_000), "white, berserked");
    assert_eq!(row.seats[1].remaining_ms, Some(182_000), "black");
}

#[tokio::test]
async fn a_tournament_starts_at_a_time_of_day_in_utc() {
    // The test clock starts at 22:13:20 UTC: 22:00 is tomorrow's.
    let mut chat = Chat::new("tournament-at").await;
    for (line, said) in [
        ("at 25:00", "a time of day, UTC"),
        ("at 22:00", "Start at 22:00 UTC (in 1427 min)"),
    ] {
        let out = chat
            .say(&format!("alice: /tournament new swiss chess 3+2 3 {line}"))
            .await;
        assert!(has(&out, said), "{out:#?}");
    }
    chat.say("alice: /tournament cancel").await;
    let out = chat
        .say("alice: /турнир новый swiss chess 3+2 3 в 23:00")
        .await;
    assert!(has(&out, "Start at 23:00 UTC (in 47 min)"), "{out:#?}");
    let id = tournament_id(&out);
    chat.say("alice: /tournament join").await;
    chat.say("bob: /tournament join").await;
    assert!(chat.advance(46 * 60_000).await.is_empty());
    let out = chat.advance(60_000).await;
    assert!(has(&out, &format!("Tournament {id} begins")), "{out:#?}");
}

#[tokio::test]
async fn a_round_stored_before_its_games_started_is_started_once_after_a_restart() {
    let mut chat = Chat::new("tournament-pending").await;
    let out = chat.say("alice: /tournament new swiss chess 5+0 2").await;
    let id = tournament_id(&out);
    // As a process leaves it that stopped right after storing round 1's
    // pairing (its game ids planned), before starting its games.
    let mut row = stored(&chat, &id).await;
    row.status = TournamentStatus::Running;
    row.state.players = ["alice", "bob", "carol", "dave"]
        .map(|name| Entrant::new(name, name, 1500))
        .to_vec();
    let planned = [("pq2rs3tu4vw5", 1, 3), ("xy6zk7mn8pq9", 4, 2)];
    row.state.played = vec![Round {
        started_at: row.created_at,
        boards: planned
            .iter()
            .map(|(game, white, black)| Board::new(*white, *black, (*game).to_owned(), None))
            .collect(),
        bye: None,
        absent: Vec::new(),
        pending: true,
    }];
    row.next_at = None;
    assert!(chat
        .service
        .store()
        .save_tournament(&mut row)
        .await
        .expect("save"));
    let mut chat = chat.restart().await;
    chat.service.resume_tournaments().await;
    let out = chat.advance(0).await;
    assert!(
        has(
            &out,
            &format!("Round 1 of tournament {id}: its games are started")
        ),
        "{out:#?}"
    );
    for (game, white, black) in [
        ("pq2rs3tu4vw5", "alice", "carol"),
        ("xy6zk7mn8pq9", "dave", "bob"),
    ] {
        let row = chat.row(game).await;
        assert_eq!(row.status, kodex_bot::store::Status::Active, "{game}");
        assert_eq!(row.seats[0].user_name, white);
        assert_eq!(row.seats[1].user_name, black);
    }
    let row = stored(&chat, &id).await;
    assert!(!row.state.played[0].pending);
    assert_eq!(row.state.played.len(), 1);
    // Looked at again after another restart: nothing is started or paired twice.
    let mut chat = chat.restart().await;
    chat.service.resume_tournaments().await;
    assert!(chat.advance(0).await.is_empty());
    for name in ["alice", "bob", "carol", "dave"] {
        let games = chat
            .service
            .store()
            .open_games_of("console", name)
            .await
            .expect("games");
        assert_eq!(games.len(), 1, "{name}: {games:#?}");
    }
    // The round plays on as any.
    play(&mut chat, "alice", "carol", Ending::WhiteMates).await;
    let out = play(&mut chat, "dave", "bob", Ending::Draw).await;
    assert!(has(&out, "Round 2 of 2"), "{out:#?}");
    assert_eq!(stored(&chat, &id).await.state.played.len(), 2);
}
