//! `/review [game]`: after a game, the computer's short summary of its
//! biggest mistakes — each move that lost the most by a short search's
//! judgement, what it cost and what was better ("24…Qxb2? costs about a
//! rook; 24…Qd7 was better") — in the chat's language. Only a game that is
//! over is reviewed: its record is then public (hidden games too), and a
//! review during play would be advice.

use crate::api::{Delivery, Target};
use crate::i18n::Lang;
use crate::service::kernel::background::run_search;
use crate::service::kernel::lookup::Role;
use crate::service::kernel::{Ctx, Msg, Outcome, Service};
use crate::service::present::san_in;
use kodex_engine::search::{think_with, Limits, Searcher, MATE, MATE_BOUND};
use kodex_engine::{Game, Variant};

/// The most mistakes one review names.
const SHOWN: usize = 3;
/// A move is a mistake when it loses at least this much (centipawns).
const MISTAKE: i32 = 150;
/// The longest record reviewed, in entries.
const MAX_PLIES: usize = 400;
/// The search behind each position: short and deterministic.
const NODES: u64 = 30_000;
const DEPTH: u32 = 8;

/// One mistake: the position before it, the move played and the better
/// one (SAN, as the engine writes them), and what it cost.
#[derive(Clone, Debug)]
pub(crate) struct Mistake {
    /// Before the move.
    position: Game,
    /// The move played, in SAN.
    played: String,
    /// The search's best move there, in SAN.
    better: String,
    /// What the move lost, in centipawns (mates beyond [`MATE_BOUND`]).
    loss: i32,
    /// Whether it let a forced win slip or allowed a forced loss.
    mate: Option<MateKind>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum MateKind {
    /// A forced mate was there and the move let it go.
    Missed,
    /// The move allowed a forced mate.
    Allowed,
}

/// A score of the mover's from a short search of `game` (its outcome's,
/// when it is over).
fn score(game: &Game, searcher: &mut Searcher) -> Option<(i32, Option<kodex_engine::Move>)> {
    if let Some(outcome) = game.outcome() {
        let mover = game.variant().definition().team_of(game.side_to_move());
        let value = match outcome.winner() {
            Some(winner) if winner == mover => MATE,
            Some(_) => -MATE,
            None => 0,
        };
        return Some((value, None));
    }
    let limits = Limits {
        depth: Some(DEPTH),
        nodes: Some(NODES),
        ..Limits::default()
    };
    let history = game.position_hashes();
    let result = think_with(
        &game.search_board(),
        &history,
        &limits,
        searcher,
        &mut |_| {},
    )?;
    Some((result.score, Some(result.best)))
}

/// The biggest mistakes of the game recorded as `moves` from `start`, at
/// most [`SHOWN`], in the order they were played. `None` when the record
/// does not replay.
pub(crate) fn mistakes(variant: &Variant, start: &str, moves: &[&str]) -> Option<Vec<Mistake>> {
    let mut searcher = Searcher::new(8);
    let mut found: Vec<(usize, Mistake)> = Vec::new();
    let mut before = Game::replay(variant, start, &[] as &[&str]).ok()?;
    for (ply, entry) in moves.iter().enumerate().take(MAX_PLIES) {
        let after = Game::replay(variant, start, &moves[..=ply]).ok()?;
        let played = before
            .legal_moves()
            .into_iter()
            .find(|&mv| before.uci(mv) == *entry);
        let mover = before.variant().definition().team_of(before.side_to_move());
        let next = after.variant().definition().team_of(after.side_to_move());
        // Only a move of one side that hands the turn to the other is
        // judged (not an impossible attempt, a gift or a pass).
        if let (Some(played), true) = (played, mover != next || after.outcome().is_some()) {
            let (best_score, best) = score(&before, &mut searcher)?;
            let (reply_score, _) = score(&after, &mut searcher)?;
            let played_value = -reply_score;
            let best = best.filter(|&best| best != played);
            let loss = best_score.saturating_sub(played_value);
            if let (Some(best), true) = (best, loss >= MISTAKE) {
                let mate = if best_score > MATE_BOUND && played_value <= MATE_BOUND {
                    Some(MateKind::Missed)
                } else if played_value < -MATE_BOUND && best_score >= -MATE_BOUND {
                    Some(MateKind::Allowed)
                } else {
                    None
                };
                found.push((
                    ply,
                    Mistake {
                        played: before.san(played),
                        better: before.san(best),
                        position: before.clone(),
                        loss,
                        mate,
                    },
                ));
            }
        }
        before = after;
    }
    // The biggest losses, then told in the order they were played.
    found.sort_by_key(|(ply, mistake)| (std::cmp::Reverse(mistake.loss), *ply));
    found.truncate(SHOWN);
    found.sort_by_key(|(ply, _)| *ply);
    Some(found.into_iter().map(|(_, mistake)| mistake).collect())
}

/// "24." before white's move, "24…" before black's.
fn move_number(game: &Game) -> String {
    let dots = if game.side_to_move().index() == 0 {
        "."
    } else {
        "…"
    };
    format!("{}{dots}", game.fullmove_number())
}

impl Service {
    /// `/review [game]`: the biggest mistakes of a game that is over (the
    /// chat's latest without an id), said in the chat.
    pub(crate) async fn review(&self, ctx: &Ctx, game: Option<String>) -> Outcome {
        let row = self.find_game(ctx, game, Role::Anyone).await?;
        if !row.status.is_over() {
            return Err(Msg::new("error-review-not-over")
                .arg("id", row.id.clone())
                .into());
        }
        let variant = self.variant(&row)?;
        if variant.players() != 2 || variant.definition().boards > 1 {
            return Err(Msg::new("error-review-two-players").into());
        }
        let Some(start) = row.start_fen.clone() else {
            return Err(Msg::new("error-review-not-over")
                .arg("id", row.id.clone())
                .into());
        };
        let moves: Vec<String> = row.move_list().iter().map(|m| (*m).to_owned()).collect();
        let Ok(permit) = self.inner.computing.clone().acquire_owned().await else {
            return Err(Msg::new("error-internal").into());
        };
        let searched = variant.clone();
        let found = run_search(move || {
            let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
            mistakes(&searched, &start, &moves)
        })
        .await
        .flatten();
        drop(permit);
        let Some(found) = found else {
            return Err(Msg::new("error-corrupt-game")
                .arg("id", row.id.clone())
                .into());
        };
        let lang = if ctx.req.private {
            ctx.lang
        } else {
            ctx.chat_lang
        };
        let mut lines = vec![self.text(lang, &Msg::new("review-header").arg("id", row.id.clone()))];
        if found.is_empty() {
            lines.push(self.text(lang, &Msg::new("review-clean")));
        }
        for mistake in &found {
            lines.push(self.mistake_line(lang, mistake));
        }
        let target = if ctx.req.private {
            Target::Ephemeral(ctx.actor().clone())
        } else {
            Target::Chat(ctx.req.chat.clone())
        };
        Ok(vec![Delivery {
            notify: Vec::new(),
            target,
            text: lines.join("\n"),
            image: None,
            buttons: Vec::new(),
            game: None,
        }])
    }

    /// One mistake in `lang`: "24…Qxb2? costs about a rook; 24…Qd7 was better."
    fn mistake_line(&self, lang: Lang, mistake: &Mistake) -> String {
        let number = move_number(&mistake.position);
        let played = format!(
            "{number}{}?",
            san_in(lang, &mistake.position, &mistake.played)
        );
        let better = format!(
            "{number}{}",
            san_in(lang, &mistake.position, &mistake.better)
        );
        let cost = match mistake.mate {
            Some(MateKind::Missed) => Msg::new("review-cost-missed-mate"),
            Some(MateKind::Allowed) => Msg::new("review-cost-allowed-mate"),
            None => match mistake.loss {
                800.. => Msg::new("review-cost-queen"),
                420.. => Msg::new("review-cost-rook"),
                250.. => Msg::new("review-cost-piece"),
                loss => Msg::new("review-cost-pawns")
                    .arg("pawns", format!("{:.1}", f64::from(loss) / 100.0)),
            },
        };
        self.text(
            lang,
            &Msg::new("review-line")
                .arg("played", played)
                .arg("cost", self.text(lang, &cost))
                .arg("better", better),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kodex_engine::Registry;

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn a_hung_queen_is_the_biggest_mistake_and_the_better_move_is_named() {
        let registry = Registry::builtin();
        let chess = registry.get("chess").expect("chess");
        // Black hangs the queen: 1.e4 e5 2.Nf3 Qg5?? 3.Nxg5.
        let moves = ["e2e4", "e7e5", "g1f3", "d8g5", "f3g5"];
        let found = mistakes(chess, START, &moves).expect("replays");
        let hung = found
            .iter()
            .find(|m| m.played == "Qg5")
            .unwrap_or_else(|| panic!("{found:?}"));
        assert!(hung.loss >= 800, "{hung:?}");
        assert_ne!(hung.better, "Qg5");
        assert_eq!(move_number(&hung.position), "2…");
    }

    #[test]
    fn a_missed_mate_in_one_is_named_as_such() {
        let registry = Registry::builtin();
        let chess = registry.get("chess").expect("chess");
        // Fool's mate is on the board for black, who plays something else.
        let moves = ["f2f3", "e7e5", "g2g4", "a7a6"];
        let found = mistakes(chess, START, &moves).expect("replays");
        let missed = found
            .iter()
            .find(|m| m.played == "a6")
            .unwrap_or_else(|| panic!("{found:?}"));
        assert_eq!(missed.mate, Some(MateKind::Missed));
        assert_eq!(missed.better, "Qh4#");
    }

    #[test]
    fn a_record_that_does_not_replay_gives_nothing() {
        let registry = Registry::builtin();
        let chess = registry.get("chess").expect("chess");
        assert!(mistakes(chess, START, &["e2e5"]).is_none());
    }
}
