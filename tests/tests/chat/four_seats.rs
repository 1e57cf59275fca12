//! A game of four seats in two teams through the console: seats take turns in
//! order (white-1, black-1, white-2, black-2), each seat only on its own turn,
//! a clock and a strip per seat, and the result is the team's.
//!
//! The test variant has two armies of two rooks on the 14×14 cross; partners
//! take turns commanding their army. The game is a team challenge: people
//! named are invited to their seats, the others open, and it starts when
//! every seat is taken.

use crate::console_support::{
    self, enochian_prisoners_walk, enochian_throne_walk, has, play_moves, team_game_id, temp_dir,
    to, EPOCH,
};
use kodex_bot::config::Config;
use kodex_bot::console::Console;
use kodex_bot::store::{GameResult, Status};
use kodex_bot::time::ManualTime;
use kodex_bot::Service;
use kodex_engine::{Registry, Team};

const CROSS: &str = include_str!("../../variants/crosstest.toml");

#[tokio::test]
async fn four_seats_take_turns_in_order_and_a_team_wins() {
    let dir = temp_dir("four-seats");
    let mut config = Config::defaults();
    config.database.url = crate::console_support::chat_database(&dir).await;
    config.boards.dir = dir.join("boards");
    config.boards.text = true;
    let mut registry = Registry::builtin();
    registry
        .add_definition("crosstest.toml", CROSS)
        .expect("the test variant");
    let service = Service::open(&config, registry, ManualTime::new(EPOCH))
        .await
        .expect("service opens");
    let mut console = Console::new(service.clone(), config.boards.dir.clone());

    // Two people for two seats make no team game; a team has one partner.
    let out = console.line("alice: /play chess @carol vs @bob").await;
    assert!(has(&out, "is a game for two"), "{out:#?}");
    let out = console
        .line("alice: /play crosstest @carol @erin vs @bob 5+0")
        .await;
    assert!(
        has(&out, "1 partner seat(s) and 2 opponent seat(s)"),
        "{out:#?}"
    );
    let out = console
        .line("alice: /play crosstest @carol vs @carol")
        .await;
    assert!(has(&out, "named twice"), "{out:#?}");

    // Alice and carol (white) against bob and an open seat (black): seats,
    // partners and colours are shown before the start.
    let out = console
        .line("alice: /play crosstest @carol vs @bob 5+0 white")
        .await;
    let id = team_game_id(&out);
    assert!(
        has(
            &out,
            "Team 1: seat 1 (white) alice · seat 3 (white) carol (invited)"
        ),
        "{out:#?}"
    );
    assert!(
        has(
            &out,
            "Team 2: seat 2 (black) bob (invited) · seat 4 (black) open"
        ),
        "{out:#?}"
    );
    assert!(has(&out, &format!("/press seat:{id}:3")), "{out:#?}");
    // A seat kept for bob is not dave's; the challenger sits already.
    let out = console.line(&format!("dave: /press seat:{id}:1")).await;
    assert!(has(&out, "Seat 2 is taken by bob"), "{out:#?}");
    let out = console.line(&format!("alice: /press seat:{id}:3")).await;
    assert!(has(&out, "your own challenge"), "{out:#?}");
    let out = console.line(&format!("dave: /press seat:{id}:3")).await;
    assert!(has(&out, "dave takes seat 4"), "{out:#?}");
    assert!(has(&out, "seat 4 (black) dave"), "{out:#?}");
    let out = console.line(&format!("dave: /accept {id}")).await;
    assert!(has(&out, "already sit in game"), "{out:#?}");
    let out = console.line(&format!("erin: /accept {id}")).await;
    assert!(has(&out, "taken or kept for someone"), "{out:#?}");
    let out = console.line("bob: /accept").await;
    assert!(has(&out, "bob takes seat 2"), "{out:#?}");
    // Nothing starts before the last seat is taken.
    let store = service.store();
    let row = store
        .get("console", &id)
        .await
        .expect("store")
        .expect("game");
    assert_eq!(row.status, Status::Challenge);
    let out = console.line(&format!("carol: /accept {id}")).await;
    assert!(has(&out, "starts"), "{out:#?}");
    assert!(
        has(&out, "alice & carol (white) against bob & dave (black)"),
        "{out:#?}"
    );
    let row = store
        .get("console", &id)
        .await
        .expect("store")
        .expect("game");
    assert_eq!(row.status, Status::Active);
    let seats: Vec<(usize, &str, usize, usize)> = row
        .seats
        .iter()
        .map(|s| (s.seat, s.user_id.as_str(), s.side.index(), s.team.index()))
        .collect();
    assert_eq!(
        seats,
        vec![
            (0, "alice", 0, 0),
            (1, "bob", 1, 1),
            (2, "carol", 0, 0),
            (3, "dave", 1, 1)
        ]
    );
    assert!(row.seats.iter().all(|s| s.remaining_ms == Some(300_000)));

    // Seat 0 (alice) moves first; nobody else may.
    for (who, line) in [("dave", "d14d13"), ("carol", "d1d13"), ("bob", "d14d13")] {
        let out = console.line(&format!("{who}: /move {line}")).await;
        assert!(has(&out, "not your turn"), "{who}: {out:#?}");
    }
    let out = console.line("alice: /move d1d14").await;
    assert!(has(&out, "alice played Rxd14"), "{out:#?}");
    // Four strips: every seat's clock is on the board's line of clocks.
    assert!(
        has(&out, "⏱ alice 5:00 · bob 5:00 · carol 5:00 · dave 5:00"),
        "{out:#?}"
    );
    assert!(has(&out, "bob (black) to move"), "{out:#?}");
    // White moved; now black's first player, not carol and not dave.
    let out = console.line("dave: /move k14k13").await;
    assert!(has(&out, "not your turn"), "{out:#?}");
    let out = console.line("bob: /move k14k13").await;
    assert!(has(&out, "carol (white) to move"), "{out:#?}");
    // Alice's army, but carol's turn.
    let out = console.line("alice: /move k1k13").await;
    assert!(has(&out, "not your turn"), "{out:#?}");
    let out = console.line("carol: /move k1k13").await;
    assert!(has(&out, "carol played Rxk13"), "{out:#?}");
    // Black has no rook left: the white team wins, named by both players.
    let public = to(&out, "[#local]");
    assert!(
        public
            .iter()
            .any(|l| l.contains("alice & carol (white) wins")),
        "{out:#?}"
    );
    assert_white_team_won(&service, &id).await;
    let out = console.line(&format!("dave: /pgn {id}")).await;
    assert!(has(&out, "[White \"alice & carol\"]"), "{out:#?}");
    assert!(has(&out, "[Black \"bob & dave\"]"), "{out:#?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The first moves of a short four-handed game: alice's queen goes to l5,
/// from where it mates bob's king on l11 two moves later.
const OPENING: [(&str, &str); 6] = [
    ("alice", "h3"),
    ("bob", "i12"),
    ("carol", "d7"),
    ("dave", "m4"),
    ("alice", "Ql5"),
    ("bob", "k11"),
];

/// Four-handed chess through the console: four people, the seed's turn
/// order, each board turned to its player's seat, partners sharing the
/// centre, black-1's mated king taken on the next move, and the game
/// going on until black-2, the second black king, is mated.
#[tokio::test]
async fn a_four_handed_game_with_a_captured_king() {
    let (dir, config, service, mut console, id, out) = team_game("four-handed", "fourplayer").await;
    assert!(
        has(&out, "alice & carol (white) against bob & dave (black)"),
        "{out:#?}"
    );

    // Each player's board is drawn from their own seat: their own back rank
    // at the bottom (white-2 on the left edge, file a; black-2 on the right,
    // file o), the queen where ordinary chess has it.
    for (who, bottom_row) in [
        ("alice", " 1       R N B Q K B N R"),
        ("bob", "14       r n b k q b n r"),
        ("carol", " a          R  N  B  Q  K  B  N  R"),
        ("dave", " o          r  n  b  k  q  b  n  r"),
    ] {
        let out = console.line(&format!("{who}: /board {id}")).await;
        assert!(
            out.iter().any(|line| line.contains(bottom_row)),
            "{who}: {out:#?}"
        );
    }

    // Seat order white-1, black-1, white-2, black-2; carol (white-2) moves
    // her own pawns to the right.
    for (who, mv) in OPENING {
        let out = console.line(&format!("{who}: /move {mv}")).await;
        assert!(has(&out, &format!("{who} played")), "{who} {mv}: {out:#?}");
    }
    // White-1's queen stands in the centre, so carol commands it too: two
    // queens reach d5.
    let out = console.line("carol: /move Qd5").await;
    assert!(has(&out, "ambiguous"), "{out:#?}");
    let out = console.line("carol: /move Qad5").await;
    assert!(has(&out, "carol played Qad5"), "{out:#?}");
    let out = console.line("dave: /move m6").await;
    assert!(has(&out, "dave played m6"), "{out:#?}");
    // Alice mates bob's king; bob's only move is the pass, which the
    // service plays for him at once: carol is to move.
    let out = console.line("alice: /move Ql11").await;
    assert!(has(&out, "alice played Ql11#"), "{out:#?}");
    assert!(
        has(&out, "bob (black) is checkmated and passes"),
        "{out:#?}"
    );
    assert!(has(&out, "carol (white) to move"), "{out:#?}");
    assert!(has(&out, "carol must capture the mated king"), "{out:#?}");
    let out = console.line("bob: /move pass").await;
    assert!(has(&out, "not your turn"), "{out:#?}");
    // Carol must take the mated king, with alice's queen.
    let out = console.line("carol: /move b8c8").await;
    assert!(has(&out, "not legal"), "{out:#?}");
    let out = console.line("carol: /move Qxh14").await;
    assert!(has(&out, "carol played Qxh14"), "{out:#?}");
    let position = {
        let store = service.store();
        let row = store
            .get("console", &id)
            .await
            .expect("store")
            .expect("game");
        assert_eq!(row.status, Status::Active, "one black king is left");
        row
    };
    // The record keeps UCI's letters (files by index): people's l11 is UCI k11.
    assert!(position.move_list().contains(&"k11h14"));
    // The pass is in the record like any move.
    assert!(
        position.move_list().contains(&"h14h14"),
        "{:?}",
        position.moves
    );
    // A restart replays the record, the pass and the taken king included.
    let (service, mut console) = restart(&config, service, console).await;
    // The game goes on; bob, without a king, plays his pawns.
    for (who, mv) in [("dave", "m11"), ("alice", "Kh2"), ("bob", "g12")] {
        let out = console.line(&format!("{who}: /move {mv}")).await;
        assert!(has(&out, &format!("{who} played")), "{who} {mv}: {out:#?}");
    }
    // Carol mates dave: the second black king, and the white team wins.
    let out = console.line("carol: /move Qm5").await;
    assert!(has(&out, "carol played Qm5#"), "{out:#?}");
    let public = to(&out, "[#local]");
    assert!(
        public
            .iter()
            .any(|l| l.contains("alice & carol (white) wins")),
        "{out:#?}"
    );
    assert_white_team_won(&service, &id).await;
    let out = console.line(&format!("dave: /pgn {id}")).await;
    assert!(has(&out, "pass"), "{out:#?}");
    assert!(has(&out, "Qxh14"), "{out:#?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Enochian chess through the console: red (alice), black (bob), yellow
/// (carol) and blue (dave) take turns clockwise; red's rook checks black's
/// king, which leaves its throne (its bishop stays there) to take it and is
/// taken by yellow's knight; black's frozen army passes; blue's king,
/// checked, must move — into another check — and red's pawn takes it: both
/// kings of black and blue are gone.
#[tokio::test]
async fn an_enochian_game_ends_when_both_kings_of_a_team_are_taken() {
    let (dir, _config, service, mut console, id, start) = team_game("enochian", "enochian").await;
    // The teams are named by their armies' colours.
    assert!(
        has(
            &start,
            "alice & carol (red & yellow) against bob & dave (black & blue)"
        ),
        "{start:#?}"
    );
    // Each moves only their own army: bob may not move red's pawn.
    let out = console.line("alice: /move g3").await;
    assert!(has(&out, "alice played g3"), "{out:#?}");
    // The turn line names the seat's army colour.
    assert!(has(&out, "bob (black) to move"), "{out:#?}");
    let out = console.line("bob: /move e3").await;
    assert!(has(&out, "not legal"), "{out:#?}");
    let out = console.line("bob: /move Ra5").await;
    assert!(has(&out, "carol (yellow) to move"), "{out:#?}");
    let out = console.line("carol: /move Nb6").await;
    assert!(has(&out, "dave (blue) to move"), "{out:#?}");
    play_moves(
        &mut console,
        &[
            ("dave", "f7"),
            ("alice", "Rd1"),
            ("bob", "c2"),
            ("carol", "Nc4"),
            ("dave", "Kg7"),
            ("alice", "Ne3"),
            ("bob", "c3"),
            ("carol", "Nd2"),
            ("dave", "Kf6"),
            ("alice", "Rxb1+"),
            // Black's king, in check, must move (its bishop on the throne
            // may not): it takes the rook.
            ("bob", "Kxb1"),
            ("carol", "Nxb1"),
            ("dave", "e7"),
        ],
    )
    .await;
    // Black's king is gone: its army is frozen, and the service passes for
    // bob right after alice's move, each time.
    let out = console.line("alice: /move g4").await;
    assert!(has(&out, "bob (black) has no move and passes"), "{out:#?}");
    assert!(has(&out, "carol (yellow) to move"), "{out:#?}");
    let out = console.line("bob: /move Ra6").await;
    assert!(has(&out, "not your turn"), "{out:#?}");
    play_moves(&mut console, &[("carol", "Qd6+")]).await;
    // Blue's king in check must move: a rook move is refused.
    let out = console.line("dave: /move Rh4").await;
    assert!(has(&out, "not legal"), "{out:#?}");
    let out = console.line("dave: /move Kf5").await;
    assert!(has(&out, "dave played Kf5"), "{out:#?}");
    let out = console.line("alice: /move gxf5").await;
    assert!(has(&out, "alice played gxf5"), "{out:#?}");
    let public = to(&out, "[#local]");
    assert!(
        public
            .iter()
            .any(|l| l.contains("alice & carol") && l.contains("wins")),
        "{out:#?}"
    );
    assert_white_team_won(&service, &id).await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// Enochian chess, thrones and prisoners: yellow's knight takes black's
/// king and bishop together on their throne a1; blue's king walks there,
/// takes the knight and so takes control of black's frozen army, which dave
/// then moves on black's turns (bob may not); blue's knight takes red's
/// king; yellow and blue, each holding a king, exchange them: black's king
/// comes back beside its throne (blue's king holds it), red's beside its
/// own (its bishop holds h1), and red plays again.
#[tokio::test]
async fn an_enochian_king_takes_a_throne_and_prisoners_are_exchanged() {
    let (dir, _config, service, mut console, id, _) =
        team_game("enochian-thrones", "enochian").await;
    let walk = enochian_throne_walk();
    let (before, ka1) = walk.split_at(walk.len() - 1);
    play_moves(&mut console, before).await;
    // One prisoner is no exchange; a player whose army took no king has none.
    let out = console.line("alice: /exchange").await;
    assert!(has(&out, "holds no taken king"), "{out:#?}");
    let out = console.line("carol: /exchange").await;
    assert!(has(&out, "dave holds no king of your team"), "{out:#?}");
    assert_eq!(ka1, [("dave", "Kxa1")]);
    let out = console.line("dave: /move Kxa1").await;
    assert!(has(&out, "dave played Kxa1"), "{out:#?}");
    assert!(
        has(
            &out,
            "dave's king takes the throne of black: dave now moves bob's army too"
        ),
        "{out:#?}"
    );
    // Black's turn is dave's now: the turn line says so, and bob may not move.
    let out = console.line("alice: /move Kg2").await;
    assert!(has(&out, "dave (black) to move"), "{out:#?}");
    assert!(has(&out, "dave moves black for bob"), "{out:#?}");
    let out = console.line("bob: /move Ra6").await;
    assert!(has(&out, "not your turn"), "{out:#?}");
    play_moves(&mut console, &enochian_prisoners_walk()).await;
    // Bob's king is gone: bob cannot exchange. Carol offers, alice (carol's
    // partner) cannot decline for the other team, dave accepts.
    let out = console.line("bob: /exchange").await;
    assert!(has(&out, "Your own king was taken"), "{out:#?}");
    let out = console.line("carol: /exchange").await;
    assert!(
        has(&out, "carol offers to exchange prisoners in game")
            && has(
                &out,
                "black's king for red's king. dave: /exchange to accept"
            ),
        "{out:#?}"
    );
    let out = console.line("carol: /exchange").await;
    assert!(has(&out, "already offered"), "{out:#?}");
    let out = console.line("alice: /noexchange").await;
    assert!(has(&out, "cannot be withdrawn"), "{out:#?}");
    let out = console.line("dave: /exchange").await;
    assert!(
        has(
            &out,
            "prisoners exchanged. black's king and red's king come back"
        ),
        "{out:#?}"
    );
    // Red's frozen army passed by itself after dave took its king; black
    // (dave's) is to move.
    assert!(has(&out, "dave moves black for bob"), "{out:#?}");
    let row = stored(&service, &id).await;
    assert!(
        row.moves.as_str().ends_with(" h4f3 c1c1 &23"),
        "{}",
        row.moves
    );
    assert_eq!(row.exchange_offer, None);
    // Black's king is back beside its throne (blue's king holds a1), on b2,
    // the only empty square next to it; red's rook on c1 is guarded by red's
    // queen.
    let out = console.line("dave: /move Kxc1").await;
    assert!(has(&out, "not legal"), "{out:#?}");
    play_moves(
        &mut console,
        &[("dave", "Kb3"), ("carol", "Rf8"), ("dave", "Rh4")],
    )
    .await;
    // Red's king is back beside its throne (its bishop holds h1), on g2:
    // red plays again, and takes the knight that took it.
    let out = console.line("alice: /move Kxf3").await;
    assert!(has(&out, "alice played Kxf3"), "{out:#?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Enochian chess, retiring: bob (black) retires on his turn, and dave
/// (blue) moves black's army on black's turns as well as his own; bob may
/// move, retire again or exchange no more, dave may not retire (the last
/// player of the team stays), erin is in no such game, and a game of chess
/// has no retiring. After a restart the record still hands black to dave;
/// bob may neither offer a draw nor resign, and a draw needs only dave of
/// his team; once it is over no one retires.
#[tokio::test]
async fn an_enochian_player_retires_and_the_partner_moves_both_armies() {
    let (dir, config, service, mut console, id, _) = team_game("enochian-retire", "enochian").await;
    let retired = format!("bob retires from game {id}: dave now moves black too.");
    let erin = format!("erin: /retire {id}");
    let not_playing = format!("You are not playing in game {id}");
    answers(
        &mut console,
        &[
            ("alice: /move g3", "bob (black) to move"),
            ("bob: /retire", &retired),
            ("bob: /move Ra5", "You retired from game"),
            ("bob: /retire", "dave plays your army now"),
            ("bob: /exchange", "You retired from game"),
            ("dave: /retire", "bob has already retired"),
            (&erin, &not_playing),
            // Dave plays black's move, then his own.
            ("dave: /move Ra5", "carol (yellow) to move"),
            ("carol: /move Nb6", "dave (blue) to move"),
            ("dave: /move f7", "alice (red) to move"),
            // Black's turn is dave's, and the turn line says why.
            // A sentence of its own after the turn line (issue 32, item 8).
            (
                "alice: /move Rd1",
                "(black) to move. dave moves black for bob, who retired.",
            ),
            ("bob: /lang ru", "Язык: русский"),
            ("bob: /move c2", "Вы вышли из партии"),
        ],
    )
    .await;
    let row = stored(&service, &id).await;
    assert!(
        row.moves.as_str().starts_with("g2g3 &r1 a4a5 "),
        "{}",
        row.moves
    );
    // A restart replays the retirement with the record.
    let (service, mut console) = restart(&config, service, console).await;
    answers(
        &mut console,
        &[
            ("bob: /move c2", "Вы вышли из партии"),
            ("dave: /move c2", "carol (yellow) to move"),
        ],
    )
    .await;
    assert!(stored(&service, &id)
        .await
        .moves
        .as_str()
        .ends_with(" b2c2"));
    // Bob has no say any more: a draw needs dave alone of his team.
    let (over, dave) = (format!("Game {id} is over"), format!("dave: /retire {id}"));
    answers(
        &mut console,
        &[
            ("bob: /draw", "Вы вышли из партии"),
            ("bob: /resign", "Вы вышли из партии"),
            ("alice: /draw", "It is a draw when all of dave agree"),
            ("dave: /draw", "draw: agreed"),
            (&dave, &over),
        ],
    )
    .await;
    // Not a game of four in teams: no one retires from chess.
    let out = console.line("alice: /play chess @erin").await;
    let chess = console_support::game_id(&out);
    let (accept, retire) = (
        format!("erin: /accept {chess}"),
        format!("erin: /retire {chess}"),
    );
    let refused = format!("No one can retire from game {chess}");
    answers(&mut console, &[(&accept, "starts"), (&retire, &refused)]).await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// Enochian chess, a bare king left behind: the game is set (as stored) to
/// kings on their thrones, red's knight on e5, blue's pawn on d6 and black's
/// rook on e2. Carol (yellow, a bare king) retires on red's turn: alice may
/// move yellow's king or her own army on red's turn and on yellow's (the
/// turn line says so, in English and in Russian).
#[tokio::test]
async fn an_enochian_player_leaving_a_bare_king_lets_the_partner_move_on_both_turns() {
    let (dir, config, service, console, id, _) = team_game("enochian-bare-king", "enochian").await;
    let mut row = stored(&service, &id).await;
    row.start_fen = Some("C6c/8/3z4/4N3/8/8/4r3/k6K w - - 0 1".to_owned());
    assert!(service.store().save(&mut row).await.expect("store"));
    let (service, mut console) = restart(&config, service, console).await;
    let retired = format!(
        "carol retires from game {id}: alice now moves yellow too. yellow is a bare king: on both \
         turns alice moves that king or their own army."
    );
    answers(
        &mut console,
        &[
            ("carol: /retire", &retired),
            ("alice: /move Kb1", "not legal"),
            // Red's turn: yellow's king moves.
            ("alice: /move Kb8", "bob (black) to move"),
            (
                "bob: /move Kb1",
                "alice may move yellow's bare king or their own army on this turn (carol retired).",
            ),
            // Yellow's turn: red's knight moves.
            ("alice: /move Ng6", "dave (blue) to move"),
            // In a Russian chat, in Russian.
            ("alice: /lang chat ru", "now Russian"),
            (
                "dave: /move Kg7",
                "В этот ход alice может пойти голым королём (жёлтые) или своей армией: carol — вне игры.",
            ),
        ],
    )
    .await;
    let row = stored(&service, &id).await;
    assert_eq!(row.move_list(), ["&r2", "a8b8", "a1b1", "e5g6", "h8g7"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A draw in a game of four on one board needs every player of the other
/// team: one agreeing is not enough, a player asked who plays on declines,
/// and the offerer's partner has nothing to answer.
#[tokio::test]
async fn a_team_draw_needs_every_player_of_the_other_team() {
    let (dir, _config, service, mut console, id, _) = team_game("team-draw", "enochian").await;
    answers(
        &mut console,
        &[
            ("alice: /draw", "all of bob & dave agree"),
            ("carol: /draw", "already offered"),
            ("carol: /nodraw", "cannot be withdrawn"),
            ("bob: /draw", "Still to agree: dave"),
        ],
    )
    .await;
    assert_eq!(stored(&service, &id).await.status, Status::Active);
    // Alice, bob (who agreed) and carol play on: the offer stands.
    play_moves(
        &mut console,
        &[("alice", "g3"), ("bob", "Ra5"), ("carol", "Nb6")],
    )
    .await;
    assert!(stored(&service, &id).await.draw_offer.is_some());
    // Dave, asked, plays on: that declines it.
    play_moves(&mut console, &[("dave", "f7")]).await;
    assert_eq!(stored(&service, &id).await.draw_offer, None);
    // Offered again, and both bob and dave agree: a draw.
    answers(
        &mut console,
        &[
            ("bob: /nodraw", "no draw offer"),
            ("carol: /draw", "all of bob & dave agree"),
            ("dave: /draw", "Still to agree: bob"),
        ],
    )
    .await;
    assert_eq!(stored(&service, &id).await.status, Status::Active);
    let out = console.line("bob: /draw").await;
    let finished = stored(&service, &id).await;
    assert_eq!(finished.status, Status::Finished, "{out:#?}");
    assert_eq!(finished.result, Some(GameResult::Draw));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A game of four stored before passes were played at once, with the mated
/// bob on turn and his only move the pass: after a restart the service
/// passes for him, tells the chat, and carol takes the king.
#[tokio::test]
async fn a_seat_left_waiting_to_pass_passes_after_a_restart() {
    let (_dir, config, service, mut console, id, _) =
        team_game("four-handed-waiting", "fourplayer").await;
    for (who, mv) in
        OPENING
            .iter()
            .copied()
            .chain([("carol", "Qad5"), ("dave", "m6"), ("alice", "Ql11")])
    {
        let out = console.line(&format!("{who}: /move {mv}")).await;
        assert!(has(&out, &format!("{who} played")), "{who} {mv}: {out:#?}");
    }
    // As an older version stored it: bob's pass not yet played.
    let mut row = stored(&service, &id).await;
    assert!(row.moves.as_str().ends_with(" h14h14"), "{}", row.moves);
    row.moves.truncate(row.moves.len() - 1);
    assert!(service.store().save(&mut row).await.expect("store"));
    let (service, console) = restart(&config, service, console).await;
    let mut outbox = service.outbox(kodex_bot::api::Platform::Console);
    service.resume_passes().await;
    let mut out = Vec::new();
    while let Ok(delivery) = outbox.try_recv() {
        out.extend(console.show(&delivery));
    }
    assert!(
        has(&out, "bob (black) is checkmated and passes"),
        "{out:#?}"
    );
    assert!(has(&out, "carol (white) to move"), "{out:#?}");
    assert!(stored(&service, &id)
        .await
        .moves
        .as_str()
        .ends_with(" h14h14"));
    // Once only: the next restart finds nothing to pass.
    service.resume_passes().await;
    assert!(outbox.try_recv().is_err());
    let mut console = console;
    let out = console.line("carol: /move Qxh14").await;
    assert!(has(&out, "carol played Qxh14"), "{out:#?}");
}

/// A console service on a fresh database and a game of `variant` for four
/// that has started: alice (white-1) and carol (white-2) against bob
/// (black-1) and dave (black-2). Returns the start's output last.
async fn team_game(
    name: &str,
    variant: &str,
) -> (
    std::path::PathBuf,
    Config,
    Service,
    Console,
    String,
    Vec<String>,
) {
    let dir = temp_dir(name);
    let mut config = Config::defaults();
    config.database.url = crate::console_support::chat_database(&dir).await;
    config.boards.dir = dir.join("boards");
    config.boards.text = true;
    let service = Service::open(&config, Registry::builtin(), ManualTime::new(EPOCH))
        .await
        .expect("service opens");
    let mut console = Console::new(service.clone(), config.boards.dir.clone());
    let out = console
        .line(&format!(
            "alice: /play {variant} @carol vs @bob @dave 5+0 white"
        ))
        .await;
    let id = team_game_id(&out);
    for who in ["bob", "carol"] {
        let out = console.line(&format!("{who}: /accept {id}")).await;
        assert!(has(&out, &format!("{who} takes seat")), "{out:#?}");
    }
    let out = console.line(&format!("dave: /accept {id}")).await;
    assert!(has(&out, "starts"), "{out:#?}");
    (dir, config, service, console, id, out)
}

/// The service and console stopped and started again on the same database.
async fn restart(config: &Config, service: Service, console: Console) -> (Service, Console) {
    drop(console);
    drop(service);
    let service = Service::open(config, Registry::builtin(), ManualTime::new(EPOCH))
        .await
        .expect("service opens again");
    let console = Console::new(service.clone(), config.boards.dir.clone());
    (service, console)
}

/// Says each line through the console; each answer must contain its text.
async fn answers(console: &mut Console, lines: &[(&str, &str)]) {
    for (line, expected) in lines {
        let out = console.line(line).await;
        assert!(has(&out, expected), "{line}: {out:#?}");
    }
}

/// Game `id` as stored.
async fn stored(service: &Service, id: &str) -> kodex_bot::store::GameRow {
    service
        .store()
        .get("console", id)
        .await
        .expect("store")
        .expect("game")
}

/// Asserts that game `id` is over and the white team (alice and carol) won.
async fn assert_white_team_won(service: &Service, id: &str) {
    let row = stored(service, id).await;
    assert_eq!(row.status, Status::Finished);
    assert_eq!(row.result, Some(GameResult::Win { team: Team(0) }));
}

/// The service's pass for a mated seat costs that seat nothing: no time and
/// no increment; the next seat's clock starts with the move before it. On
/// the way, carol's move suggestions are every legal move once.
#[tokio::test]
async fn a_mated_players_pass_takes_none_of_their_time() {
    let mut chat = console_support::Chat::new("four-handed-pass-clock").await;
    let out = chat
        .say("alice: /play fourplayer @carol vs @bob @dave 5+3 white")
        .await;
    let id = team_game_id(&out);
    for who in ["bob", "carol", "dave"] {
        chat.say(&format!("{who}: /accept {id}")).await;
    }
    // The moves of the short game up to alice's mate of bob, each after 2 s.
    for (who, mv) in OPENING {
        chat.advance(2_000).await;
        let out = chat.say(&format!("{who}: /move {mv}")).await;
        assert!(has(&out, &format!("{who} played")), "{who} {mv}: {out:#?}");
    }
    assert_suggestions_are_the_legal_moves_once(&chat, &id, "carol").await;
    for (who, mv) in [("carol", "Qad5"), ("dave", "m6")] {
        chat.advance(2_000).await;
        let out = chat.say(&format!("{who}: /move {mv}")).await;
        assert!(has(&out, &format!("{who} played")), "{who} {mv}: {out:#?}");
    }
    let before = chat.row(&id).await;
    chat.advance(2_000).await;
    let out = chat.say("alice: /move Ql11").await;
    assert!(
        has(&out, "bob (black) is checkmated and passes"),
        "{out:#?}"
    );
    let after = chat.row(&id).await;
    // Bob's clock: untouched by the pass (5+3 would add 3 s to a move).
    assert_eq!(after.remaining(1), before.remaining(1));
    // Alice paid 2 s and got 3; carol's turn started with alice's move.
    assert_eq!(
        after.remaining(0),
        before.remaining(0).map(|ms| ms - 2_000 + 3_000)
    );
    assert_eq!(
        after.deadline,
        after
            .turn_started_at
            .zip(after.remaining(2))
            .map(|(at, left)| at + left)
    );
    assert_eq!(chat.position(&id).await.seat_to_move(), 2);
}

/// `who`'s move suggestions (Discord's autocomplete) in game `id`: typed
/// the SAN of any legal move, that move is suggested once, its label that
/// SAN and its value (what the option receives) read as that move; no label
/// is listed twice. Partners' queens both reaching d5 included.
async fn assert_suggestions_are_the_legal_moves_once(
    chat: &console_support::Chat,
    id: &str,
    who: &str,
) {
    let game = chat.position(id).await;
    let sans: Vec<String> = game
        .legal_moves()
        .into_iter()
        .map(|m| game.san(m))
        .collect();
    let to_d5 = sans
        .iter()
        .filter(|san| san.starts_with('Q') && san.ends_with("d5"))
        .count();
    assert_eq!(to_d5, 2, "{sans:?}");
    let all = suggestions(chat, id, who, "").await;
    let mut labels = std::collections::HashSet::new();
    assert!(
        all.iter().all(|s| labels.insert(s.label.clone())),
        "{all:?}"
    );
    for mv in game.legal_moves() {
        let san = game.san(mv);
        let found = suggestions(chat, id, who, &san.to_lowercase()).await;
        let same: Vec<_> = found.iter().filter(|s| s.label == san).collect();
        assert_eq!(same.len(), 1, "{san}: {found:?}");
        assert_eq!(game.parse_move(&same[0].value).ok(), Some(mv), "{san}");
    }
}

/// The move suggestions for `who` in game `id` after `typed`.
async fn suggestions(
    chat: &console_support::Chat,
    id: &str,
    who: &str,
    typed: &str,
) -> Vec<kodex_bot::api::Suggestion> {
    use kodex_bot::api::{Handler, SuggestionKind, SuggestionRequest};
    chat.service
        .suggest(SuggestionRequest {
            chat: console_support::shared_chat(),
            private: false,
            actor: kodex_bot::console::console_user(who),
            locale: None,
            kind: SuggestionKind::Move {
                game: Some(id.to_owned()),
            },
            typed: typed.to_owned(),
        })
        .await
}

/// Seed 002: «Первый "белый" игрок распоряжается белыми фигурами и пешками
/// в прямоугольнике d1-d3-l1-l3». Carol (white-2) brings her knight from
/// a5 through c4 to e3, in alice's (white-1's) arm: from then on alice
/// moves it and carol may not. The rules say so, in English and Russian.
#[tokio::test]
async fn a_knight_brought_into_white_1s_arm_by_white_2_is_moved_by_white_1() {
    let (dir, _config, service, mut console, id, _) =
        team_game("four-handed-region", "fourplayer").await;
    answers(
        &mut console,
        &[
            ("alice: /move h3", "alice played h3"),
            ("bob: /move i12", "bob played i12"),
            ("carol: /move Nc4", "carol played Nc4"),
            ("dave: /move m4", "dave played m4"),
            ("alice: /move l3", "alice played l3"),
            ("bob: /move k11", "bob played k11"),
            ("carol: /move Ne3", "carol played Ne3"),
            ("dave: /move m6", "dave played m6"),
            ("alice: /move h4", "alice played h4"),
            ("bob: /move i11", "bob played i11"),
            // The knight is carol's own, but stands in alice's arm.
            ("carol: /move Nf5", "is not legal"),
            ("carol: /move e3f5", "is not legal"),
            ("carol: /move d7", "carol played d7"),
            ("dave: /move m5", "dave played m5"),
            ("alice: /move Nf5", "alice played Nf5"),
        ],
    )
    .await;
    let row = stored(&service, &id).await;
    let moves = row.move_list();
    assert_eq!(moves.last().copied(), Some("e3f5"), "{moves:?}");
    let out = console.line("alice: /rules fourplayer").await;
    assert!(has(&out, "Command goes by region"), "{out:#?}");
    assert!(has(&out, "m11–o11"), "{out:#?}");
    console.line("alice: /lang ru").await;
    let out = console.line("alice: /rules fourplayer").await;
    assert!(has(&out, "Командуют по областям"), "{out:#?}");
    assert!(has(&out, "дорога имеет разную длину"), "{out:#?}");
    drop(console);
    let _ = std::fs::remove_dir_all(&dir);
}
