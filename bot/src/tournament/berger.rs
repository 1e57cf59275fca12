//! Round robins by FIDE's Berger tables (FIDE Handbook C.05, Annex 1).
//!
//! With `n` players (an odd count gets a dummy player `n + 1`, and whoever
//! meets the dummy has a bye), round 1 is `1-n, 2-(n-1), …, n/2-(n/2+1)`.
//! From there the table is a rotation: player `n` stays on board 1 and
//! alternates colours (black in odd rounds, white in even ones); the others
//! sit on a circle of `n - 1` places that turns by `n/2` places a round, the
//! player facing `n` in round `r` being `((r - 1)·n/2 mod (n - 1)) + 1`, and
//! board `j` pairing the players `j - 1` places after (white) and before
//! (black) that one. This reproduces the printed tables exactly (the tests
//! compare them for 4, 6, 8 and 10 players), so an arbiter's printed sheet
//! and the bot agree on every board.
//!
//! A double round robin plays the table twice, colours reversed the second
//! time; as C.05 recommends, the last two rounds of the first cycle swap
//! places, so that nobody plays three games in a row with the same colour
//! where the cycles meet.

use super::{Pairing, RoundPairing};

/// The most players a table is built for: a round robin of more would not
/// end in any chat's lifetime, and the bound keeps allocation small.
pub const MAX_PLAYERS: u32 = 1000;

/// How many times everyone meets everyone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cycles {
    /// Each pair meets once.
    Single,
    /// Each pair meets twice, once with each colour.
    Double,
}

/// Why no table can be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BergerError {
    #[error("a round robin needs at least two players, not {0}")]
    TooFewPlayers(u32),
    #[error("a round robin of {0} players is more than the {MAX_PLAYERS} allowed")]
    TooManyPlayers(u32),
}

/// Every round of a round robin of `players` players (pairing numbers
/// `1..=players`), in playing order.
///
/// ```
/// use kodex_bot::tournament::{berger::{round_robin, Cycles}, Pairing};
/// let rounds = round_robin(4, Cycles::Single).unwrap();
/// assert_eq!(rounds[1].pairings[0], Pairing { white: 4, black: 3 });
/// ```
pub fn round_robin(players: u32, cycles: Cycles) -> Result<Vec<RoundPairing>, BergerError> {
    if players < 2 {
        return Err(BergerError::TooFewPlayers(players));
    }
    if players > MAX_PLAYERS {
        return Err(BergerError::TooManyPlayers(players));
    }
    let table_size = players + players % 2;
    let mut first_cycle: Vec<RoundPairing> = (1..table_size)
        .map(|round| table_round(table_size, round, players))
        .collect();
    match cycles {
        Cycles::Single => Ok(first_cycle),
        Cycles::Double => {
            let second_cycle: Vec<RoundPairing> = first_cycle.iter().map(reversed).collect();
            let last = first_cycle.len() - 1;
            if last >= 1 {
                first_cycle.swap(last - 1, last);
            }
            first_cycle.extend(second_cycle);
            Ok(first_cycle)
        }
    }
}

/// Round `round` (from 1) of the Berger table for an even `table_size`;
/// a player numbered above `players` is the dummy, and its opponent sits out.
fn table_round(table_size: u32, round: u32, players: u32) -> RoundPairing {
    let circle = table_size - 1;
    let half = table_size / 2;
    // Places on the circle count from 0; player p sits at place p - 1.
    let facing_last = ((round - 1) * half) % circle;
    let mut boards = Vec::with_capacity(half as usize);
    boards.push(if round % 2 == 1 {
        Pairing {
            white: facing_last + 1,
            black: table_size,
        }
    } else {
        Pairing {
            white: table_size,
            black: facing_last + 1,
        }
    });
    for board in 1..half {
        boards.push(Pairing {
            white: (facing_last + board) % circle + 1,
            black: (facing_last + circle - board) % circle + 1,
        });
    }
    let mut bye = None;
    boards.retain(|pairing| {
        if pairing.white > players {
            bye = Some(pairing.black);
            false
        } else if pairing.black > players {
            bye = Some(pairing.white);
            false
        } else {
            true
        }
    });
    RoundPairing {
        pairings: boards,
        bye,
    }
}

/// The same round with every game's colours swapped.
fn reversed(round: &RoundPairing) -> RoundPairing {
    RoundPairing {
        pairings: round
            .pairings
            .iter()
            .map(|pairing| Pairing {
                white: pairing.black,
                black: pairing.white,
            })
            .collect(),
        bye: round.bye,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::{Colour, PlayerNumber};
    use std::collections::HashMap;

    /// A table as the handbook prints it: one line a round, `white-black`.
    fn printed(lines: &[&str]) -> Vec<Vec<Pairing>> {
        lines
            .iter()
            .map(|line| {
                line.split(", ")
                    .map(|game| {
                        let (white, black) = game.split_once('-').expect("a printed game");
                        Pairing {
                            white: white.parse().expect("a number"),
                            black: black.parse().expect("a number"),
                        }
                    })
                    .collect()
            })
            .collect()
    }

    fn games(rounds: &[RoundPairing]) -> Vec<Vec<Pairing>> {
        rounds.iter().map(|round| round.pairings.clone()).collect()
    }

    #[test]
    fn four_players_match_the_printed_table() {
        let table = printed(&["1-4, 2-3", "4-3, 1-2", "2-4, 3-1"]);
        assert_eq!(games(&round_robin(4, Cycles::Single).unwrap()), table);
    }

    #[test]
    fn six_players_match_the_printed_table() {
        let table = printed(&[
            "1-6, 2-5, 3-4",
            "6-4, 5-3, 1-2",
            "2-6, 3-1, 4-5",
            "6-5, 1-4, 2-3",
            "3-6, 4-2, 5-1",
        ]);
        assert_eq!(games(&round_robin(6, Cycles::Single).unwrap()), table);
    }

    #[test]
    fn eight_players_match_the_printed_table() {
        let table = printed(&[
            "1-8, 2-7, 3-6, 4-5",
            "8-5, 6-4, 7-3, 1-2",
            "2-8, 3-1, 4-7, 5-6",
            "8-6, 7-5, 1-4, 2-3",
            "3-8, 4-2, 5-1, 6-7",
            "8-7, 1-6, 2-5, 3-4",
            "4-8, 5-3, 6-2, 7-1",
        ]);
        assert_eq!(games(&round_robin(8, Cycles::Single).unwrap()), table);
    }

    #[test]
    fn ten_players_match_the_printed_table() {
        let table = printed(&[
            "1-10, 2-9, 3-8, 4-7, 5-6",
            "10-6, 7-5, 8-4, 9-3, 1-2",
            "2-10, 3-1, 4-9, 5-8, 6-7",
            "10-7, 8-6, 9-5, 1-4, 2-3",
            "3-10, 4-2, 5-1, 6-9, 7-8",
            "10-8, 9-7, 1-6, 2-5, 3-4",
            "4-10, 5-3, 6-2, 7-1, 8-9",
            "10-9, 1-8, 2-7, 3-6, 4-5",
            "5-10, 6-4, 7-3, 8-2, 9-1",
        ]);
        assert_eq!(games(&round_robin(10, Cycles::Single).unwrap()), table);
    }

    #[test]
    fn an_odd_count_plays_the_next_even_table_with_the_dummy_as_a_bye() {
        let five = round_robin(5, Cycles::Single).unwrap();
        let six = round_robin(6, Cycles::Single).unwrap();
        assert_eq!(five.len(), 5);
        for (odd, even) in five.iter().zip(&six) {
            let dummy_game = even.pairings.iter().find(|game| game.involves(6)).unwrap();
            assert_eq!(odd.bye, dummy_game.opponent_of(6));
            let rest: Vec<Pairing> = even
                .pairings
                .iter()
                .copied()
                .filter(|game| !game.involves(6))
                .collect();
            assert_eq!(odd.pairings, rest);
        }
    }

    /// Each player's colours, round by round (`None` for a bye).
    fn colours(
        rounds: &[RoundPairing],
        players: u32,
    ) -> HashMap<PlayerNumber, Vec<Option<Colour>>> {
        let mut colours: HashMap<PlayerNumber, Vec<Option<Colour>>> = HashMap::new();
        for round in rounds {
            for player in 1..=players {
                let colour = round.pairings.iter().find_map(|game| {
                    if game.white == player {
                        Some(Colour::White)
                    } else if game.black == player {
                        Some(Colour::Black)
                    } else {
                        None
                    }
                });
                colours.entry(player).or_default().push(colour);
            }
        }
        colours
    }

    #[test]
    fn from_three_to_sixteen_players_everyone_meets_everyone_once_with_balanced_colours() {
        for players in 3..=16 {
            let rounds = round_robin(players, Cycles::Single).unwrap();
            let expected_rounds = if players % 2 == 0 {
                players - 1
            } else {
                players
            };
            assert_eq!(rounds.len() as u32, expected_rounds, "{players} players");
            let mut met: HashMap<(u32, u32), u32> = HashMap::new();
            for round in &rounds {
                let seen = round.players();
                assert_eq!(seen, (1..=players).collect::<Vec<_>>(), "{players} players");
                assert_eq!(round.bye.is_some(), players % 2 == 1);
                for game in &round.pairings {
                    let pair = (game.white.min(game.black), game.white.max(game.black));
                    *met.entry(pair).or_default() += 1;
                }
            }
            assert_eq!(met.len() as u32, players * (players - 1) / 2);
            assert!(met.values().all(|&times| times == 1), "{players} players");
            for (player, list) in colours(&rounds, players) {
                let whites = list.iter().filter(|c| **c == Some(Colour::White)).count();
                let blacks = list.iter().filter(|c| **c == Some(Colour::Black)).count();
                assert!(
                    whites.abs_diff(blacks) <= 1,
                    "{players} players, player {player}"
                );
            }
            // Round 1 opens 1-n, or, with a bye for 1, 2-(n-1).
            let first = rounds[0].pairings[0];
            if players % 2 == 0 {
                assert_eq!(
                    first,
                    Pairing {
                        white: 1,
                        black: players
                    }
                );
            } else {
                assert_eq!(rounds[0].bye, Some(1));
                assert_eq!(
                    first,
                    Pairing {
                        white: 2,
                        black: players
                    }
                );
            }
        }
    }

    #[test]
    fn a_double_round_robin_meets_twice_with_both_colours_and_never_three_in_a_row() {
        for players in 3..=16 {
            let rounds = round_robin(players, Cycles::Double).unwrap();
            let single = round_robin(players, Cycles::Single).unwrap();
            assert_eq!(rounds.len(), 2 * single.len());
            let mut met: HashMap<(u32, u32), u32> = HashMap::new();
            for game in rounds.iter().flat_map(|round| &round.pairings) {
                *met.entry((game.white, game.black)).or_default() += 1;
            }
            for white in 1..=players {
                for black in (1..=players).filter(|&black| black != white) {
                    assert_eq!(
                        met.get(&(white, black)),
                        Some(&1),
                        "{players}: {white}-{black}"
                    );
                }
            }
            for (player, list) in colours(&rounds, players) {
                let played: Vec<Colour> = list.into_iter().flatten().collect();
                for window in played.windows(3) {
                    assert!(
                        !(window[0] == window[1] && window[1] == window[2]),
                        "{players} players: player {player} has {played:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn too_few_or_too_many_players_are_refused() {
        assert_eq!(
            round_robin(1, Cycles::Single),
            Err(BergerError::TooFewPlayers(1))
        );
        assert_eq!(
            round_robin(0, Cycles::Double),
            Err(BergerError::TooFewPlayers(0))
        );
        assert_eq!(
            round_robin(MAX_PLAYERS + 1, Cycles::Single),
            Err(BergerError::TooManyPlayers(MAX_PLAYERS + 1))
        );
        let two = round_robin(2, Cycles::Double).unwrap();
        assert_eq!(
            games(&two),
            vec![
                vec![Pairing { white: 1, black: 2 }],
                vec![Pairing { white: 2, black: 1 }]
            ]
        );
    }
}
