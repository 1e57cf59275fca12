//! Games from a position: `/play <variant> fen:<FEN>` is checked by the
//! engine, and a refusal says the engine's typed reason in the player's
//! language.

use crate::service::kernel::terms::is_team_variant;
use crate::service::kernel::{Msg, Outcome};
use kodex_engine::{FenError, Game, Start, Variant};

/// The longest FEN text read; the engine refuses longer ones too, but the
/// refusal echoes none of it.
const MAX_FEN_TEXT: usize = 256;

/// The start position `fen` asks for in `variant`, as the engine writes it;
/// refused when the variant places its pieces in a setup phase or is a game
/// for four, when the FEN does not read, and when the game would be over
/// before its first move.
pub(crate) fn start_position(variant: &Variant, fen: &str) -> Outcome<String> {
    let name = variant.id().to_owned();
    if variant.setup().is_some() {
        return Err(Msg::new("error-fen-setup").arg("variant", name).into());
    }
    if is_team_variant(variant) {
        return Err(Msg::new("error-fen-teams").arg("variant", name).into());
    }
    let fen = fen.trim();
    if fen.chars().count() > MAX_FEN_TEXT {
        return Err(fen_error(&FenError::TooLong).into());
    }
    let game = Game::new(variant, Start::Fen(fen.to_owned())).map_err(|e| fen_error(&e))?;
    if game.outcome().is_some() {
        return Err(Msg::new("error-fen-over").into());
    }
    Ok(game.start_fen())
}

/// Why a FEN was refused, in words: the engine's [`FenError`] as a message.
pub(crate) fn fen_error(error: &FenError) -> Msg {
    let piece = |key: &'static str, c: &char| Msg::new(key).arg("piece", c.to_string());
    let text = |key: &'static str, t: &String| {
        Msg::new(key).arg("text", t.chars().take(16).collect::<String>())
    };
    match error {
        FenError::TooLong => Msg::new("error-fen-too-long"),
        FenError::Empty => Msg::new("error-fen-empty"),
        FenError::BoardTooLarge => Msg::new("error-fen-board-too-large"),
        FenError::RankCount { expected, found } => Msg::new("error-fen-rank-count")
            .arg("expected", i64::from(*expected))
            .arg("found", *found as i64),
        FenError::RankTooLong { rank } => {
            Msg::new("error-fen-rank-too-long").arg("rank", i64::from(*rank))
        }
        FenError::RankTooShort {
            rank,
            found,
            expected,
        } => Msg::new("error-fen-rank-too-short")
            .arg("rank", i64::from(*rank))
            .arg("found", i64::from(*found))
            .arg("expected", i64::from(*expected)),
        FenError::ZeroRun => Msg::new("error-fen-zero-run"),
        FenError::UnknownPiece(c) => piece("error-fen-unknown-piece", c),
        FenError::PieceOnHole(c) => piece("error-fen-piece-on-hole", c),
        FenError::StrayPromotedMark => Msg::new("error-fen-stray-promoted"),
        FenError::UnclosedPocket => Msg::new("error-fen-unclosed-pocket"),
        FenError::NoPockets => Msg::new("error-fen-no-pockets"),
        FenError::UnknownPocketPiece(c) => piece("error-fen-unknown-pocket-piece", c),
        FenError::PocketFull => Msg::new("error-fen-pocket-full"),
        FenError::BadSide(t) => text("error-fen-bad-side", t),
        FenError::TooManyKings(side) => {
            Msg::new("error-fen-too-many-kings").arg("side", side.color_name())
        }
        FenError::RoyalInPocket(c) => piece("error-fen-royal-in-pocket", c),
        FenError::MissingRoyal(side) => {
            Msg::new("error-fen-missing-royal").arg("side", side.color_name())
        }
        FenError::PawnOnPromotionRank => Msg::new("error-fen-pawn-on-promotion-rank"),
        FenError::RoyalOnly(square) => {
            Msg::new("error-fen-royal-only").arg("square", square.clone())
        }
        FenError::BadPair(square) => Msg::new("error-fen-bad-pair").arg("square", square.clone()),
        FenError::BadCastling(c) => piece("error-fen-bad-castling", c),
        FenError::BadEnPassant(t) => text("error-fen-bad-en-passant", t),
        FenError::BadCheckCounter(t) => text("error-fen-bad-check-counter", t),
        FenError::BadCounter(t) => text("error-fen-bad-counter", t),
        FenError::TooManyFields => Msg::new("error-fen-too-many-fields"),
        FenError::OpponentInCheck => Msg::new("error-fen-opponent-in-check"),
        FenError::NotChess960 | FenError::Chess960Number(_) => Msg::new("error-fen-other"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::kernel::Failure;

    fn key_of(result: Outcome<String>) -> &'static str {
        match result {
            Err(Failure::User(msg)) => msg.key,
            other => panic!("a refusal, not {other:?}"),
        }
    }

    #[test]
    fn positions_are_checked_by_the_engine_and_refused_by_reason() {
        let registry = kodex_engine::Registry::builtin();
        let chess = registry.get("chess").expect("chess");
        let fen = start_position(chess, "  4k3/8/8/8/8/8/4P3/4K3 b - - 0 1 ").expect("valid");
        assert!(fen.starts_with("4k3/8/8/8/8/8/4P3/4K3 b"), "{fen}");
        for (text, key) in [
            ("", "error-fen-empty"),
            ("8/8/8 w - - 0 1", "error-fen-rank-count"),
            ("4k3/8/8/8/8/8/4P3/4X3 w - - 0 1", "error-fen-unknown-piece"),
            ("4k3/8/8/8/8/8/4P3/4K3 x - - 0 1", "error-fen-bad-side"),
            // Black is mated: nothing to play.
            ("R3k3/8/4K3/8/8/8/8/8 b - - 0 1", "error-fen-over"),
        ] {
            assert_eq!(key_of(start_position(chess, text)), key, "{text:?}");
        }
        let crazyhouse = registry.get("crazyhouse").expect("crazyhouse");
        for (text, key) in [
            // Kings in hand would be dropped into check and taken.
            (
                "8/pppppppp/8/8/8/8/PPPPPPPP/8[Kk] w - - 0 1",
                "error-fen-royal-in-pocket",
            ),
            ("4k3/8/8/8/8/8/4P3/8[] w - - 0 1", "error-fen-missing-royal"),
        ] {
            assert_eq!(key_of(start_position(crazyhouse, text)), key, "{text:?}");
        }
        let long = "8/".repeat(200);
        assert_eq!(key_of(start_position(chess, &long)), "error-fen-too-long");
        let battle = registry
            .all()
            .iter()
            .find(|variant| variant.setup().is_some())
            .expect("a variant with a setup phase");
        assert_eq!(
            key_of(start_position(battle, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")),
            "error-fen-setup"
        );
    }
}
