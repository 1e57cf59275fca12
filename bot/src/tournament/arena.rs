//! Lichess's arena: a tournament of fixed duration in which a player who
//! finishes a game is paired again as soon as someone else is free.
//!
//! **Points** (as lichess's arena FAQ states them): a win is 2, a draw 1, a
//! loss 0. Two wins in a row light a *fire*: while it burns every game is
//! worth double (a win 4, a draw 2), and the first game not won puts it
//! out. So the streak's double points start with the third win in a row,
//! and a draw on fire is worth 2 and ends the streak. **Berserk** halves
//! the berserker's clock and removes the increment; a berserked win is
//! worth one point more (not doubled by the fire), provided the game lasted
//! [`BERSERK_MIN_MOVES`] moves, so a berserk cannot be cashed by a quick
//! resignation. Lichess's further rules (no points for a draw in the first
//! moves, the streak of a player who is paused) are not modelled here.
//!
//! **Pairing** the waiting players: ranked by score (then rating, then
//! number), the top waiting player meets the waiting player of the nearest
//! score who is not their last opponent, provided the others can still make
//! as many pairs as before ([`matching`] checks it), so nobody waits who
//! could play. The last opponent is avoided whenever anyone else is in the
//! arena: two players who just met wait for a third to be free rather than
//! play again, except in an arena of two. Colours go to even each player's
//! whites and blacks.

use super::matching::maximum_matching;
use super::{Pairing, PlayerNumber};

/// The moves a berserked game needs for the berserk point.
pub const BERSERK_MIN_MOVES: u32 = 7;

/// How a game ended for one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win,
    Draw,
    Loss,
}

/// One player's finished arena game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameEnd {
    pub outcome: Outcome,
    /// Whether this player berserked.
    pub berserked: bool,
    /// The player's own moves in the game.
    pub moves: u32,
}

/// A player's arena score and streak.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Score {
    pub points: u32,
    /// Wins in a row, up to the last game.
    pub wins_in_a_row: u32,
}

impl Score {
    /// Whether the next game counts double.
    pub fn on_fire(&self) -> bool {
        self.wins_in_a_row >= 2
    }

    /// Records a finished game; the points it brought.
    ///
    /// ```
    /// use kodex_bot::tournament::arena::{GameEnd, Outcome, Score};
    /// let mut score = Score::default();
    /// let win = GameEnd { outcome: Outcome::Win, berserked: false, moves: 30 };
    /// assert_eq!([score.record(win), score.record(win), score.record(win)], [2, 2, 4]);
    /// ```
    pub fn record(&mut self, game: GameEnd) -> u32 {
        let factor = if self.on_fire() { 2 } else { 1 };
        let base = match game.outcome {
            Outcome::Win => 2,
            Outcome::Draw => 1,
            Outcome::Loss => 0,
        };
        let berserk = u32::from(
            game.outcome == Outcome::Win && game.berserked && game.moves >= BERSERK_MIN_MOVES,
        );
        let points = base * factor + berserk;
        self.points += points;
        self.wins_in_a_row = if game.outcome == Outcome::Win {
            self.wins_in_a_row + 1
        } else {
            0
        };
        points
    }
}

/// A berserker's starting time (milliseconds): half the clock's. The
/// increment is removed too: a berserker's clock has none.
pub fn berserk_time(initial_ms: u64) -> u64 {
    initial_ms / 2
}

/// A player waiting for a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Waiting {
    pub player: PlayerNumber,
    pub points: u32,
    pub rating: u32,
    /// The opponent of the player's last game, if any.
    pub last_opponent: Option<PlayerNumber>,
    /// Whites minus blacks so far.
    pub colour_balance: i32,
}

/// Pairs the waiting players (see the module's rules); `arena_size` is the
/// number of players in the arena, playing or not. Players not paired keep
/// waiting.
pub fn pair_waiting(waiting: &[Waiting], arena_size: usize) -> Vec<Pairing> {
    let mut ranked: Vec<Waiting> = waiting.to_vec();
    ranked.sort_by(|a, b| {
        b.points
            .cmp(&a.points)
            .then(b.rating.cmp(&a.rating))
            .then(a.player.cmp(&b.player))
    });
    ranked.dedup_by_key(|w| w.player);
    let may_meet = |a: &Waiting, b: &Waiting| {
        let rematch = a.last_opponent == Some(b.player) || b.last_opponent == Some(a.player);
        a.player != b.player && (!rematch || arena_size <= 2)
    };
    let pairs_among = |players: &[usize]| {
        maximum_matching(players.len(), |x, y| {
            may_meet(&ranked[players[x]], &ranked[players[y]])
        })
        .iter()
        .flatten()
        .count()
            / 2
    };
    let mut left: Vec<usize> = (0..ranked.len()).collect();
    let mut pairings = Vec::new();
    while let Some((&top, rest)) = left.split_first() {
        let most = pairs_among(&left);
        if most == 0 {
            break;
        }
        let mut candidates: Vec<usize> = rest
            .iter()
            .copied()
            .filter(|&other| may_meet(&ranked[top], &ranked[other]))
            .collect();
        // Nearest score first; among equals, the higher ranked.
        candidates.sort_by_key(|&other| (ranked[top].points.abs_diff(ranked[other].points), other));
        let partner = candidates.into_iter().find(|&other| {
            let others: Vec<usize> = rest.iter().copied().filter(|&o| o != other).collect();
            pairs_among(&others) + 1 == most
        });
        match partner {
            Some(partner) => {
                pairings.push(colours(&ranked[top], &ranked[partner]));
                left.retain(|&o| o != top && o != partner);
            }
            // Pairing the top player would cost a pair: they wait.
            None => {
                left.remove(0);
            }
        }
    }
    pairings
}

/// White to the player with fewer whites; if equal, to the higher ranked.
fn colours(higher: &Waiting, lower: &Waiting) -> Pairing {
    if lower.colour_balance < higher.colour_balance {
        Pairing {
            white: lower.player,
            black: higher.player,
        }
    } else {
        Pairing {
            white: higher.player,
            black: lower.player,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn end(outcome: Outcome) -> GameEnd {
        GameEnd {
            outcome,
            berserked: false,
            moves: 40,
        }
    }

    #[test]
    fn the_fire_doubles_from_the_third_win_and_a_draw_puts_it_out() {
        use Outcome::{Draw, Loss, Win};
        let mut score = Score::default();
        let points: Vec<u32> = [
            Win, Win, Win, Win, Draw, Win, Draw, Loss, Win, Win, Loss, Draw,
        ]
        .into_iter()
        .map(|outcome| score.record(end(outcome)))
        .collect();
        assert_eq!(points, [2, 2, 4, 4, 2, 2, 1, 0, 2, 2, 0, 1]);
        assert_eq!(score.points, points.iter().sum::<u32>());
        assert!(!score.on_fire());
    }

    #[test]
    fn a_berserked_win_is_one_point_more_if_the_game_lasted() {
        use Outcome::{Draw, Win};
        let mut score = Score::default();
        let berserk = |outcome, moves| GameEnd {
            outcome,
            berserked: true,
            moves,
        };
        assert_eq!(score.record(berserk(Win, 7)), 3);
        assert_eq!(score.record(berserk(Win, 6)), 2, "too short for the point");
        // On fire: 4 for the win, the berserk point not doubled.
        assert_eq!(score.record(berserk(Win, 30)), 5);
        assert_eq!(
            score.record(berserk(Draw, 30)),
            2,
            "no berserk point for a draw"
        );
        assert_eq!(score.points, 12);
        assert_eq!(berserk_time(180_000), 90_000);
        assert_eq!(berserk_time(1), 0);
    }

    fn waiting(player: u32, points: u32, last_opponent: Option<u32>) -> Waiting {
        Waiting {
            player,
            points,
            rating: 1500,
            last_opponent,
            colour_balance: 0,
        }
    }

    #[test]
    fn the_nearest_scores_meet() {
        let pairs = pair_waiting(
            &[
                waiting(1, 2, None),
                waiting(2, 10, None),
                waiting(3, 1, None),
                waiting(4, 9, None),
            ],
            10,
        );
        assert_eq!(
            pairs,
            [
                Pairing { white: 2, black: 4 },
                Pairing { white: 1, black: 3 }
            ]
        );
    }

    #[test]
    fn the_last_opponent_is_avoided_without_leaving_anyone_out() {
        // 1 just played 2; 3 and 4 just played each other. Pairing 1 with
        // the nearest allowed score (3) still lets 2 and 4 play.
        let field = [
            waiting(1, 10, Some(2)),
            waiting(2, 9, Some(1)),
            waiting(3, 8, Some(4)),
            waiting(4, 1, Some(3)),
        ];
        let pairs = pair_waiting(&field, 8);
        assert_eq!(
            pairs,
            [
                Pairing { white: 1, black: 3 },
                Pairing { white: 2, black: 4 }
            ]
        );
        // Only two who just met: they wait for someone else…
        assert!(pair_waiting(&field[..2], 8).is_empty());
        // …unless nobody else is in the arena.
        assert_eq!(
            pair_waiting(&field[..2], 2),
            [Pairing { white: 1, black: 2 }]
        );
        // If the top player's nearest partner would leave two who met
        // unpaired, the top player takes another.
        let field = [
            waiting(1, 10, None),
            waiting(2, 9, Some(3)),
            waiting(3, 8, Some(2)),
        ];
        let pairs = pair_waiting(&[field[0], field[1], field[2], waiting(4, 0, None)], 8);
        assert_eq!(
            pairs,
            [
                Pairing { white: 1, black: 2 },
                Pairing { white: 3, black: 4 }
            ]
        );
    }

    #[test]
    fn colours_even_out_each_players_balance() {
        let mut first = waiting(1, 5, None);
        let mut second = waiting(2, 5, None);
        first.colour_balance = 1;
        second.colour_balance = -1;
        assert_eq!(
            pair_waiting(&[first, second], 5),
            [Pairing { white: 2, black: 1 }]
        );
        first.colour_balance = -2;
        assert_eq!(
            pair_waiting(&[first, second], 5),
            [Pairing { white: 1, black: 2 }]
        );
    }

    /// An arena of `players` run on simulated events: games end at random
    /// times, whoever is free is paired. Every pairing is checked.
    fn simulate(seed: u64, players: u32) {
        let mut rng = fastrand::Rng::with_seed(seed);
        let ratings: Vec<u32> = (0..players).map(|_| rng.u32(1000..2500)).collect();
        let mut scores = vec![Score::default(); players as usize];
        let mut last: Vec<Option<u32>> = vec![None; players as usize];
        let mut balance = vec![0i32; players as usize];
        let mut busy_until: Vec<Option<u32>> = vec![None; players as usize];
        let mut games = 0;
        for now in 0..600u32 {
            // Games ending now: results by rating, sometimes berserked.
            let ending: Vec<usize> = (0..players as usize)
                .filter(|&player| busy_until[player] == Some(now))
                .collect();
            for &player in &ending {
                busy_until[player] = None;
            }
            for player in ending {
                let Some(opponent) = last[player] else {
                    continue;
                };
                let opponent = opponent as usize - 1;
                if player > opponent {
                    continue;
                }
                let roll = rng.f64();
                let (mine, theirs) = if roll < 0.2 {
                    (Outcome::Draw, Outcome::Draw)
                } else if (roll < 0.6) == (ratings[player] > ratings[opponent]) {
                    (Outcome::Win, Outcome::Loss)
                } else {
                    (Outcome::Loss, Outcome::Win)
                };
                let moves = rng.u32(1..60);
                for (who, outcome) in [(player, mine), (opponent, theirs)] {
                    let before = scores[who];
                    let berserked = rng.f64() < 0.2;
                    let won = scores[who].record(GameEnd {
                        outcome,
                        berserked,
                        moves,
                    });
                    // The points, recomputed from the rules' text.
                    let base = match outcome {
                        Outcome::Win => 2,
                        Outcome::Draw => 1,
                        Outcome::Loss => 0,
                    };
                    let doubled = if before.wins_in_a_row >= 2 {
                        2 * base
                    } else {
                        base
                    };
                    let bonus = u32::from(berserked && outcome == Outcome::Win && moves >= 7);
                    assert_eq!(won, doubled + bonus);
                }
            }
            let free: Vec<Waiting> = (0..players as usize)
                .filter(|&p| busy_until[p].is_none())
                .map(|p| Waiting {
                    player: p as u32 + 1,
                    points: scores[p].points,
                    rating: ratings[p],
                    last_opponent: last[p],
                    colour_balance: balance[p],
                })
                .collect();
            let pairs = pair_waiting(&free, players as usize);
            let mut paired = Vec::new();
            for pair in &pairs {
                for player in [pair.white, pair.black] {
                    assert!(
                        free.iter().any(|w| w.player == player),
                        "{player} is not free"
                    );
                    assert!(!paired.contains(&player), "{player} paired twice at once");
                    paired.push(player);
                }
                let (white, black) = (pair.white as usize - 1, pair.black as usize - 1);
                assert_ne!(last[white], Some(pair.black), "an immediate rematch");
                let length = rng.u32(1..12);
                for (player, opponent, colour) in [(white, pair.black, 1), (black, pair.white, -1)]
                {
                    last[player] = Some(opponent);
                    balance[player] += colour;
                    busy_until[player] = Some(now + length);
                }
                games += 1;
            }
            // Nobody left waiting could have played anybody else left.
            let left: Vec<&Waiting> = free
                .iter()
                .filter(|w| !paired.contains(&w.player))
                .collect();
            for a in &left {
                for b in &left {
                    assert!(
                        a.player == b.player
                            || a.last_opponent == Some(b.player)
                            || b.last_opponent == Some(a.player),
                        "{} and {} were both left waiting",
                        a.player,
                        b.player
                    );
                }
            }
        }
        // Games last 1 to 11 ticks: about one a tick for every 12 players.
        assert!(games * 12 >= 600 * (players as usize / 2), "{games} games");
        assert!(
            balance.iter().all(|b| b.abs() <= 3),
            "colours stay even: {balance:?}"
        );
    }

    #[test]
    fn simulated_arenas_never_rematch_at_once_and_leave_no_pair_waiting() {
        for (seed, players) in [(1, 3), (2, 4), (3, 9), (4, 16), (5, 31)] {
            simulate(seed, players);
        }
    }
}
