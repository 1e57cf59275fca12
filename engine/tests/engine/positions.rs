//! Positions that cannot be played are refused when a game starts from a
//! FEN (`/play … fen:`, `position fen`), whatever the variant: a royal piece
//! in a pocket, a side without the royal piece its variant gives it, a
//! second royal piece where a side has one. Every built-in variant's own
//! start still reads.

use kodex_engine::{FenError, Game, Registry, Side, Start};

/// Why `fen` is refused in `variant`, or `None` when it starts a game.
fn refusal(variant: &str, fen: &str) -> Option<FenError> {
    let registry = Registry::builtin();
    let variant = registry.get(variant).expect("variant");
    Game::new(variant, Start::Fen(fen.into())).err()
}

#[test]
fn a_king_in_a_pocket_is_refused() {
    // The position: both kings in hand, nothing royal on the board.
    assert_eq!(
        refusal("crazyhouse", "8/pppppppp/8/8/8/8/PPPPPPPP/8[Kk] w - - 0 1"),
        Some(FenError::RoyalInPocket('K'))
    );
    // A spare king in hand besides the one on the board, either side's.
    assert_eq!(
        refusal("crazyhouse", "4k3/8/8/8/8/8/8/4K3[Qk] w - - 0 1"),
        Some(FenError::RoyalInPocket('k'))
    );
    // The ninth-rank pocket spelling, and bughouse's pockets.
    assert_eq!(
        refusal("crazyhouse", "4k3/8/8/8/8/8/8/4K3/K w - - 0 1"),
        Some(FenError::RoyalInPocket('K'))
    );
    assert_eq!(
        refusal("bughouse", "4k3/8/8/8/8/8/8/4K3[k] b - - 0 1"),
        Some(FenError::RoyalInPocket('k'))
    );
    // Whale shogi's king is royal too.
    assert_eq!(
        refusal("whaleshogi", "bnpkgh/dddddd/6/6/DDDDDD/HGKPNB[K] w - - 0 1"),
        Some(FenError::RoyalInPocket('K'))
    );
    // Other pieces in hand are fine.
    assert_eq!(
        refusal("crazyhouse", "4k3/8/8/8/8/8/8/4K3[QNqn] w - - 0 1"),
        None
    );
}

#[test]
fn a_side_without_its_king_is_refused() {
    assert_eq!(
        refusal("chess", "4k3/8/8/8/8/8/4P3/8 w - - 0 1"),
        Some(FenError::MissingRoyal(Side::WHITE))
    );
    assert_eq!(
        refusal("chess", "8/8/8/8/8/8/4P3/4K3 b - - 0 1"),
        Some(FenError::MissingRoyal(Side::BLACK))
    );
    // The board without the pocket: pawns only.
    assert_eq!(
        refusal("crazyhouse", "8/pppppppp/8/8/8/8/PPPPPPPP/8[] w - - 0 1"),
        Some(FenError::MissingRoyal(Side::WHITE))
    );
    for variant in [
        "atomic",
        "kingofthehill",
        "threecheck",
        "racingkings",
        "fogofwar",
        "kriegspiel",
        "timetravel",
    ] {
        let fen = "4k3/8/8/8/8/8/4N3/8 w - - 0 1";
        assert_eq!(
            refusal(variant, fen),
            Some(FenError::MissingRoyal(Side::WHITE)),
            "{variant}"
        );
    }
    // Horde: black keeps its king; the horde never had one.
    assert_eq!(
        refusal(
            "horde",
            "rnbqqbnr/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w - - 0 1"
        ),
        Some(FenError::MissingRoyal(Side::BLACK))
    );
    assert_eq!(
        refusal(
            "horde",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w kq - 0 1"
        ),
        None
    );
    // Maharajah: black's king is on the board from the start, the
    // maharajah is no king.
    assert_eq!(
        refusal("maharajah", "rnbq1bnr/pppppppp/8/8/8/8/8/4M3 w - - 0 1"),
        Some(FenError::MissingRoyal(Side::BLACK))
    );
    // Janggi's generals.
    assert_eq!(
        refusal(
            "janggi",
            "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w - - 0 1"
        ),
        Some(FenError::MissingRoyal(Side::WHITE))
    );
}

#[test]
fn variants_without_kings_keep_playing_without_them() {
    // Antichess has no royal pieces: no king, or two, is fine.
    assert_eq!(refusal("antichess", "8/p7/8/8/8/8/P7/8 w - - 0 1"), None);
    assert_eq!(refusal("antichess", "8/p7/8/8/8/8/P7/KK6 w - - 0 1"), None);
    // The teaching ladder's first steps have no kings.
    assert_eq!(
        refusal("lesson1", "8/pppp4/8/8/8/8/4PPPP/8 w - - 0 1"),
        None
    );
    // Tamerlane: a prince alone is a side's royal (spare royals), and a
    // king with a prince is two royals, as play makes them.
    let start = Registry::builtin()
        .get("tamerlane")
        .expect("tamerlane")
        .definition()
        .start_fen
        .clone();
    let prince_only = start.replacen("1RNTZGKVZTNR1", "1RNTZGIVZTNR1", 1);
    assert_ne!(prince_only, start);
    assert_eq!(refusal("tamerlane", &prince_only), None);
    let king_and_prince = start.replacen("/13/13/13/13/", "/13/13/13/6I6/", 1);
    assert_ne!(king_and_prince, start);
    assert_eq!(refusal("tamerlane", &king_and_prince), None);
    // …but a side with no royal piece at all cannot play.
    let no_royal = start.replacen("1RNTZGKVZTNR1", "1RNTZG1VZTNR1", 1);
    assert_eq!(
        refusal("tamerlane", &no_royal),
        Some(FenError::MissingRoyal(Side::WHITE))
    );
    // Frankfurt: the crowned queen is the side's royal piece.
    assert_eq!(refusal("frankfurt", "4k3/8/8/8/8/8/8/3U4 w - - 0 1"), None);
    // Four-handed chess: a seat whose king was taken plays on.
    let four = Registry::builtin()
        .get("fourplayer")
        .expect("fourplayer")
        .definition()
        .start_fen
        .clone();
    let kingless_seat = four.replacen("/CS10sc/", "/1S10sc/", 1);
    assert_ne!(kingless_seat, four);
    assert_eq!(refusal("fourplayer", &kingless_seat), None);
}

#[test]
fn a_second_king_is_refused_where_a_side_has_one() {
    assert_eq!(
        refusal("chess", "4k3/8/8/8/8/8/8/3KK3 w - - 0 1"),
        Some(FenError::TooManyKings(Side::WHITE))
    );
    assert_eq!(
        refusal("crazyhouse", "3kk3/8/8/8/8/8/8/4K3[] w - - 0 1"),
        Some(FenError::TooManyKings(Side::BLACK))
    );
    assert_eq!(
        refusal(
            "horde",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/PPPKKPPP w kq - 0 1"
        ),
        Some(FenError::TooManyKings(Side::WHITE))
    );
    // Frankfurt: a king and a crowned queen are two royal pieces.
    assert_eq!(
        refusal("frankfurt", "4k3/8/8/8/8/8/8/3UK3 w - - 0 1"),
        Some(FenError::TooManyKings(Side::WHITE))
    );
}

#[test]
fn every_built_in_start_still_plays() {
    let registry = Registry::builtin();
    // A built-in whose start stopped reading would be left out of the
    // catalogue without a word: every file is there.
    assert_eq!(registry.all().len(), kodex_engine::variant::BUILTIN.len());
    for variant in registry.all() {
        let game =
            Game::new(variant, Start::Standard).unwrap_or_else(|e| panic!("{}: {e}", variant.id()));
        // The same start read back from its FEN.
        let fen = game.start_fen();
        Game::new(variant, Start::Fen(fen.clone()))
            .unwrap_or_else(|e| panic!("{}: {fen}: {e}", variant.id()));
        // And as the definition writes it.
        if !variant.is_chess960() {
            let written = variant.definition().start_fen.clone();
            Game::new(variant, Start::Fen(written.clone()))
                .unwrap_or_else(|e| panic!("{}: {written}: {e}", variant.id()));
        }
    }
    let chess960 = registry.get("chess960").expect("chess960");
    for n in 0..960 {
        Game::new(chess960, Start::Chess960(n)).unwrap_or_else(|e| panic!("{n}: {e}"));
    }
}

#[test]
fn refusals_are_said_in_words() {
    assert_eq!(
        FenError::RoyalInPocket('K').to_string(),
        "invalid FEN: a royal piece (K) cannot be in a pocket"
    );
    assert_eq!(
        FenError::MissingRoyal(Side::BLACK).to_string(),
        "invalid FEN: black has no king"
    );
}
