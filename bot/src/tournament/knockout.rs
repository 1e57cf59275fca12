//! Knockout tournaments: a bracket seeded by rating and matches of a few
//! games with a tie-break.
//!
//! **The bracket.** Players are seeded 1 (the highest rated) to n; the
//! bracket has the next power of two of places, the missing players being
//! byes. Places follow the standard bracket order (1 v 8, 4 v 5, 2 v 7, 3 v
//! 6 for eight): each round pairs seed `s` with seed `2k + 1 − s` of a
//! bracket of `2k`, recursively, so the top seeds get the byes, the seeds'
//! sum is the same in every match while favourites win, and seeds 1 and 2
//! sit in different halves and can only meet in the final.
//!
//! **A match** is `games` games, colours alternating (the higher seed has
//! white in the first). It ends as soon as one player cannot be caught.
//! Level after the games, tie-break games follow: either decisive games
//! repeated until one is won, or one Armageddon game in which a draw counts
//! as a win for black (the usual compensation for white's extra time).
//! Colours keep alternating in the tie-break.

use super::{Colour, PlayerNumber};

/// The most players a bracket takes (2¹⁶ places).
pub const MAX_PLAYERS: u32 = 1 << 16;

/// Why a bracket or a match cannot go on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KnockoutError {
    #[error("a knockout needs at least two players, not {0}")]
    TooFewPlayers(u32),
    #[error("a knockout of {0} players is more than the {MAX_PLAYERS} allowed")]
    TooManyPlayers(u32),
    #[error("a match needs at least one game")]
    NoGames,
    #[error("the match was already decided before game {0}")]
    AlreadyDecided(usize),
    #[error("there is no match {0} in the current round")]
    NoSuchMatch(usize),
    #[error("player {0} does not play in that match")]
    NotInMatch(PlayerNumber),
    #[error("that match already has a winner")]
    MatchOver,
}

/// The seeds in bracket order for a bracket of `size` places (a power of
/// two): adjacent places meet in the first round.
pub fn bracket_order(size: u32) -> Vec<u32> {
    let mut order = vec![1];
    while (order.len() as u32) < size {
        let places = 2 * order.len() as u32;
        order = order
            .iter()
            .flat_map(|&seed| [seed, places + 1 - seed])
            .collect();
    }
    order
}

/// Seeds by rating: the ids, highest rating first (equal ratings: lower id
/// first, so the order never depends on the input's).
pub fn seed_by_rating<T: Ord + Copy>(players: &[(T, u32)]) -> Vec<T> {
    let mut sorted = players.to_vec();
    sorted.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    sorted.into_iter().map(|(id, _)| id).collect()
}

/// One match of a bracket, between seeds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Match {
    /// The better seed (the lower number).
    pub higher: PlayerNumber,
    /// The other seed; none for a bye.
    pub lower: Option<PlayerNumber>,
    pub winner: Option<PlayerNumber>,
}

/// A knockout bracket: the rounds so far, the last one being played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bracket {
    rounds: Vec<Vec<Match>>,
}

impl Bracket {
    /// The bracket of seeds `1..=players`, byes already won.
    pub fn seeded(players: u32) -> Result<Bracket, KnockoutError> {
        if players < 2 {
            return Err(KnockoutError::TooFewPlayers(players));
        }
        if players > MAX_PLAYERS {
            return Err(KnockoutError::TooManyPlayers(players));
        }
        let order = bracket_order(players.next_power_of_two());
        let first = order
            .chunks(2)
            .map(|pair| {
                let (higher, lower) = (pair[0].min(pair[1]), pair[0].max(pair[1]));
                if lower > players {
                    Match {
                        higher,
                        lower: None,
                        winner: Some(higher),
                    }
                } else {
                    Match {
                        higher,
                        lower: Some(lower),
                        winner: None,
                    }
                }
            })
            .collect();
        let mut bracket = Bracket {
            rounds: vec![first],
        };
        bracket.advance();
        Ok(bracket)
    }

    /// Every round so far, the first first.
    pub fn rounds(&self) -> &[Vec<Match>] {
        &self.rounds
    }

    /// The round being played (the final once it is decided).
    pub fn current_round(&self) -> &[Match] {
        self.rounds.last().map_or(&[], Vec::as_slice)
    }

    /// The winner of the final, once there is one.
    pub fn champion(&self) -> Option<PlayerNumber> {
        match self.current_round() {
            [final_match] => final_match.winner,
            _ => None,
        }
    }

    /// Records that `winner` won match `index` of the current round; when
    /// it was the round's last match, the next round is drawn.
    pub fn record(&mut self, index: usize, winner: PlayerNumber) -> Result<(), KnockoutError> {
        let round = self
            .rounds
            .last_mut()
            .ok_or(KnockoutError::NoSuchMatch(index))?;
        let found = round
            .get_mut(index)
            .ok_or(KnockoutError::NoSuchMatch(index))?;
        if found.winner.is_some() {
            return Err(KnockoutError::MatchOver);
        }
        if winner != found.higher && Some(winner) != found.lower {
            return Err(KnockoutError::NotInMatch(winner));
        }
        found.winner = Some(winner);
        self.advance();
        Ok(())
    }

    /// Draws the next round while the current one is complete.
    fn advance(&mut self) {
        while let Some(round) = self.rounds.last() {
            if round.len() < 2 || round.iter().any(|m| m.winner.is_none()) {
                return;
            }
            let next = round
                .chunks(2)
                .filter_map(|pair| match pair {
                    [a, b] => {
                        let (x, y) = (a.winner?, b.winner?);
                        Some(Match {
                            higher: x.min(y),
                            lower: Some(x.max(y)),
                            winner: None,
                        })
                    }
                    _ => None,
                })
                .collect();
            self.rounds.push(next);
        }
    }
}

/// What breaks a level match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TieBreakGame {
    /// A decisive game, played again after every draw.
    Decisive,
    /// One game in which black wins on a draw.
    Armageddon,
}

/// How a match is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchRules {
    /// The games of the match proper.
    pub games: u32,
    pub tiebreak: TieBreakGame,
}

/// A game of a match, seen from the higher seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameOutcome {
    HigherWins,
    Draw,
    LowerWins,
}

/// Where a match stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchState {
    /// Game `number` (from 1) is next; the higher seed has `higher_colour`.
    Next {
        number: usize,
        higher_colour: Colour,
        /// Whether it is the Armageddon game.
        armageddon: bool,
    },
    /// The match is over.
    Won { by_higher: bool },
}

/// The state of a match after `results` (its games so far, in order).
pub fn match_state(
    rules: &MatchRules,
    results: &[GameOutcome],
) -> Result<MatchState, KnockoutError> {
    if rules.games == 0 {
        return Err(KnockoutError::NoGames);
    }
    let games = rules.games as usize;
    let colour_of_game = |index: usize| {
        if index % 2 == 0 {
            Colour::White
        } else {
            Colour::Black
        }
    };
    // Half points of the higher and the lower seed in the match proper.
    let (mut higher, mut lower) = (0usize, 0usize);
    for (index, outcome) in results.iter().enumerate() {
        let decided = |higher: usize, lower: usize, played: usize| {
            let left = 2 * games.saturating_sub(played);
            higher > lower + left || lower > higher + left
        };
        if index < games {
            if decided(higher, lower, index) {
                return Err(KnockoutError::AlreadyDecided(index + 1));
            }
            match outcome {
                GameOutcome::HigherWins => higher += 2,
                GameOutcome::Draw => {
                    higher += 1;
                    lower += 1;
                }
                GameOutcome::LowerWins => lower += 2,
            }
            continue;
        }
        // A tie-break game: the match was level after the games.
        if higher != lower {
            return Err(KnockoutError::AlreadyDecided(index + 1));
        }
        let decisive = match (outcome, rules.tiebreak) {
            (GameOutcome::Draw, TieBreakGame::Decisive) => None,
            (GameOutcome::Draw, TieBreakGame::Armageddon) => {
                Some(colour_of_game(index) == Colour::Black)
            }
            (GameOutcome::HigherWins, _) => Some(true),
            (GameOutcome::LowerWins, _) => Some(false),
        };
        if let Some(by_higher) = decisive {
            if index + 1 != results.len() {
                return Err(KnockoutError::AlreadyDecided(index + 2));
            }
            return Ok(MatchState::Won { by_higher });
        }
    }
    let played = results.len().min(games);
    let left = 2 * (games - played);
    if higher > lower + left {
        return Ok(MatchState::Won { by_higher: true });
    }
    if lower > higher + left {
        return Ok(MatchState::Won { by_higher: false });
    }
    Ok(MatchState::Next {
        number: results.len() + 1,
        higher_colour: colour_of_game(results.len()),
        armageddon: results.len() >= games && rules.tiebreak == TieBreakGame::Armageddon,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bracket_order_is_the_standard_one() {
        assert_eq!(bracket_order(1), [1]);
        assert_eq!(bracket_order(2), [1, 2]);
        assert_eq!(bracket_order(4), [1, 4, 2, 3]);
        assert_eq!(bracket_order(8), [1, 8, 4, 5, 2, 7, 3, 6]);
        assert_eq!(
            bracket_order(16),
            [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]
        );
    }

    #[test]
    fn seeding_is_by_rating_then_id() {
        assert_eq!(
            seed_by_rating(&[(7, 1500), (3, 1900), (9, 1500), (1, 1200)]),
            [3, 7, 9, 1]
        );
    }

    /// Plays a bracket to its end with `pick` choosing each match's winner;
    /// the round in which seeds 1 and 2 met, if they did.
    fn play(
        players: u32,
        mut pick: impl FnMut(&Match) -> PlayerNumber,
    ) -> (Bracket, Option<usize>) {
        let mut bracket = Bracket::seeded(players).unwrap();
        let mut met = None;
        while bracket.champion().is_none() {
            let round = bracket.rounds().len();
            let (index, next) = bracket
                .current_round()
                .iter()
                .enumerate()
                .find(|(_, m)| m.winner.is_none())
                .map(|(index, m)| (index, *m))
                .unwrap();
            if next.higher == 1 && next.lower == Some(2) {
                met = Some(round);
            }
            bracket.record(index, pick(&next)).unwrap();
        }
        (bracket, met)
    }

    #[test]
    fn brackets_of_three_to_seventeen_give_the_top_seeds_the_byes() {
        for players in 3..=17u32 {
            let bracket = Bracket::seeded(players).unwrap();
            let first = &bracket.rounds()[0];
            let size = players.next_power_of_two();
            assert_eq!(first.len() as u32, size / 2, "{players} players");
            let mut seen: Vec<u32> = first
                .iter()
                .flat_map(|m| std::iter::once(m.higher).chain(m.lower))
                .collect();
            seen.sort_unstable();
            assert_eq!(
                seen,
                (1..=players).collect::<Vec<_>>(),
                "{players}: everyone once"
            );
            let mut byes: Vec<u32> = first
                .iter()
                .filter(|m| m.lower.is_none())
                .map(|m| m.higher)
                .collect();
            byes.sort_unstable();
            assert_eq!(
                byes,
                (1..=size - players).collect::<Vec<_>>(),
                "{players}: byes to the top"
            );
            assert!(first
                .iter()
                .filter(|m| m.lower.is_none())
                .all(|m| m.winner == Some(m.higher)));
            // Favourites winning: every round's seed sums are equal, the
            // final is 1 v 2.
            let (played, met) = play(players, |m| m.higher);
            assert_eq!(played.champion(), Some(1));
            let rounds = played.rounds();
            assert_eq!(
                rounds.len() as u32,
                size.trailing_zeros(),
                "{players} players"
            );
            assert_eq!(met, Some(rounds.len()));
            for round in &rounds[1..] {
                let sums: Vec<u32> = round
                    .iter()
                    .map(|m| m.higher + m.lower.unwrap_or(0))
                    .collect();
                assert!(
                    sums.windows(2).all(|w| w[0] == w[1]),
                    "{players}: {round:?}"
                );
            }
        }
    }

    #[test]
    fn seeds_one_and_two_can_only_meet_in_the_final() {
        let mut rng = fastrand::Rng::with_seed(2);
        for _ in 0..300 {
            let players = rng.u32(3..=40);
            let (bracket, met) = play(players, |m| match m.lower {
                Some(lower) if rng.bool() => lower,
                _ => m.higher,
            });
            if let Some(round) = met {
                assert_eq!(round, bracket.rounds().len(), "{players} players");
            }
            assert!(bracket.champion().is_some());
        }
    }

    #[test]
    fn recording_a_wrong_winner_is_refused() {
        let mut bracket = Bracket::seeded(4).unwrap();
        assert_eq!(bracket.record(0, 2), Err(KnockoutError::NotInMatch(2)));
        assert_eq!(bracket.record(5, 1), Err(KnockoutError::NoSuchMatch(5)));
        bracket.record(0, 4).unwrap();
        assert_eq!(bracket.record(0, 1), Err(KnockoutError::MatchOver));
        bracket.record(1, 2).unwrap();
        assert_eq!(
            bracket.current_round(),
            [Match {
                higher: 2,
                lower: Some(4),
                winner: None
            }]
        );
        assert_eq!(Bracket::seeded(1), Err(KnockoutError::TooFewPlayers(1)));
        assert!(matches!(
            Bracket::seeded(MAX_PLAYERS + 1),
            Err(KnockoutError::TooManyPlayers(_))
        ));
    }

    #[test]
    fn a_match_ends_when_it_cannot_be_caught_and_a_level_one_goes_to_a_tie_break() {
        use GameOutcome::{Draw, HigherWins, LowerWins};
        let best_of_three = MatchRules {
            games: 3,
            tiebreak: TieBreakGame::Decisive,
        };
        assert_eq!(
            match_state(&best_of_three, &[]),
            Ok(MatchState::Next {
                number: 1,
                higher_colour: Colour::White,
                armageddon: false
            })
        );
        assert_eq!(
            match_state(&best_of_three, &[HigherWins, HigherWins]),
            Ok(MatchState::Won { by_higher: true })
        );
        assert_eq!(
            match_state(&best_of_three, &[HigherWins, HigherWins, LowerWins]),
            Err(KnockoutError::AlreadyDecided(3))
        );
        assert_eq!(
            match_state(&best_of_three, &[Draw, HigherWins]),
            Ok(MatchState::Next {
                number: 3,
                higher_colour: Colour::White,
                armageddon: false
            })
        );
        assert_eq!(
            match_state(&best_of_three, &[Draw, LowerWins, Draw]),
            Ok(MatchState::Won { by_higher: false })
        );
        // Level: decisive games until one is won, colours alternating.
        let level = [Draw, Draw, Draw];
        assert_eq!(
            match_state(&best_of_three, &level),
            Ok(MatchState::Next {
                number: 4,
                higher_colour: Colour::Black,
                armageddon: false
            })
        );
        assert_eq!(
            match_state(&best_of_three, &[Draw, Draw, Draw, Draw]),
            Ok(MatchState::Next {
                number: 5,
                higher_colour: Colour::White,
                armageddon: false
            })
        );
        assert_eq!(
            match_state(&best_of_three, &[Draw, Draw, Draw, Draw, LowerWins]),
            Ok(MatchState::Won { by_higher: false })
        );
        assert_eq!(
            match_state(&best_of_three, &[Draw, Draw, Draw, HigherWins, Draw]),
            Err(KnockoutError::AlreadyDecided(5))
        );
    }

    #[test]
    fn an_armageddon_draw_goes_to_black() {
        use GameOutcome::{Draw, HigherWins, LowerWins};
        let two_games = MatchRules {
            games: 2,
            tiebreak: TieBreakGame::Armageddon,
        };
        let level = [HigherWins, LowerWins];
        assert_eq!(
            match_state(&two_games, &level),
            Ok(MatchState::Next {
                number: 3,
                higher_colour: Colour::White,
                armageddon: true
            })
        );
        // The higher seed has white in game 3: a draw is the lower seed's.
        assert_eq!(
            match_state(&two_games, &[HigherWins, LowerWins, Draw]),
            Ok(MatchState::Won { by_higher: false })
        );
        let one_game = MatchRules {
            games: 1,
            tiebreak: TieBreakGame::Armageddon,
        };
        // Game 2 (the Armageddon) has the higher seed black: a draw is theirs.
        assert_eq!(
            match_state(&one_game, &[Draw, Draw]),
            Ok(MatchState::Won { by_higher: true })
        );
        assert_eq!(
            match_state(&one_game, &[Draw, Draw, Draw]),
            Err(KnockoutError::AlreadyDecided(3))
        );
        let none = MatchRules {
            games: 0,
            tiebreak: TieBreakGame::Armageddon,
        };
        assert_eq!(match_state(&none, &[]), Err(KnockoutError::NoGames));
    }
}
