//! Tie-breaks and final standings (FIDE Handbook C.07): Buchholz, Buchholz
//! cut 1, Sonneborn-Berger, direct encounter and the number of wins.
//!
//! Unplayed games are handled as C.07 handles them for Buchholz-like
//! scores, so a bye or a forfeit neither gifts nor costs tie-break points:
//!
//! - A player's own unplayed round is a game against a *virtual opponent*
//!   who starts the round with the player's score, gets the opposite of the
//!   player's result in it, and draws every later round:
//!   `Svon = SPR + (1 − SfPR) + 0.5·(n − R)` (score before round R, the
//!   forfeit or bye result of round R, n rounds played).
//! - An opponent's own unplayed rounds count as draws when the opponent's
//!   score is summed (their forfeits are not their opponents' merit).
//!
//! Scores are kept in half points (and Sonneborn-Berger in quarter points)
//! internally, so equal tie-breaks compare equal; they are shown as
//! decimals.

use super::swiss::SwissPlayer;
use super::{PlayerNumber, RoundResult};
use std::collections::HashMap;

/// One tie-break of C.07.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TieBreak {
    /// The sum of the opponents' scores.
    Buchholz,
    /// Buchholz without its lowest contribution.
    BuchholzCut1,
    /// The sum of the scores of the opponents beaten, and half those drawn.
    SonnebornBerger,
    /// The points scored against the other tied players, when all of them
    /// met each other (otherwise it separates nobody).
    DirectEncounter,
    /// The rounds won, over the board or by forfeit (not byes).
    Wins,
}

/// The order Kodex uses for a Swiss: what lichess and most arbiters use.
pub const SWISS_ORDER: [TieBreak; 4] = [
    TieBreak::DirectEncounter,
    TieBreak::BuchholzCut1,
    TieBreak::Buchholz,
    TieBreak::SonnebornBerger,
];

/// One line of the final standings.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    /// 1 for the winner; tied players (equal in everything) share a place.
    pub place: u32,
    pub player: PlayerNumber,
    /// The score in points.
    pub points: f64,
    /// The tie-breaks, in the order asked for.
    pub tiebreaks: Vec<f64>,
}

/// Why standings cannot be computed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TieBreakError {
    #[error("player {player} met {opponent}, who is not in the tournament")]
    UnknownOpponent {
        player: PlayerNumber,
        opponent: PlayerNumber,
    },
    #[error("pairing number {0} is used twice")]
    DuplicatePlayer(PlayerNumber),
}

/// The tie-break values of every player, in a common unit (quarter points)
/// so that they compare exactly.
struct Calculator<'a> {
    players: &'a [SwissPlayer],
    index: HashMap<PlayerNumber, usize>,
}

impl<'a> Calculator<'a> {
    fn new(players: &'a [SwissPlayer]) -> Result<Calculator<'a>, TieBreakError> {
        let mut index = HashMap::new();
        for (place, player) in players.iter().enumerate() {
            if index.insert(player.number, place).is_some() {
                return Err(TieBreakError::DuplicatePlayer(player.number));
            }
        }
        for player in players {
            for opponent in player.history.iter().filter_map(|record| record.opponent) {
                if !index.contains_key(&opponent) {
                    return Err(TieBreakError::UnknownOpponent {
                        player: player.number,
                        opponent,
                    });
                }
            }
        }
        Ok(Calculator { players, index })
    }

    fn player(&self, number: PlayerNumber) -> &SwissPlayer {
        // Every opponent was checked in `new`.
        &self.players[self.index[&number]]
    }

    /// A score in half points.
    fn half_points(player: &SwissPlayer) -> u32 {
        player
            .history
            .iter()
            .map(|record| record.result.half_points())
            .sum()
    }

    /// An opponent's score with their unplayed rounds as draws.
    fn adjusted_half_points(player: &SwissPlayer) -> u32 {
        player
            .history
            .iter()
            .map(|record| {
                if record.result.played() {
                    record.result.half_points()
                } else {
                    1
                }
            })
            .sum()
    }

    /// Each round's contribution to Buchholz (half points) and to
    /// Sonneborn-Berger (quarter points): the opponent's score, or the
    /// virtual opponent's, and that times the player's result.
    fn contributions(&self, player: &SwissPlayer) -> Vec<(u32, u32)> {
        let rounds = player.history.len() as u32;
        let mut before = 0;
        let mut contributions = Vec::with_capacity(player.history.len());
        for (played_rounds, record) in player.history.iter().enumerate() {
            let result = record.result.half_points();
            let opponent_score = match record.opponent {
                Some(opponent) if record.result.played() => {
                    Self::adjusted_half_points(self.player(opponent))
                }
                _ => {
                    let round = played_rounds as u32 + 1;
                    before + (2 - result.min(2)) + (rounds - round)
                }
            };
            contributions.push((opponent_score, opponent_score * result));
            before += result;
        }
        contributions
    }

    /// The tie-break's value for `player`, in quarter points (wins: count).
    fn value(&self, player: &SwissPlayer, tiebreak: TieBreak, tied: &[PlayerNumber]) -> u32 {
        match tiebreak {
            TieBreak::Buchholz => self.contributions(player).iter().map(|c| 2 * c.0).sum(),
            TieBreak::BuchholzCut1 => {
                let values: Vec<u32> = self.contributions(player).iter().map(|c| 2 * c.0).collect();
                values.iter().sum::<u32>() - values.iter().min().copied().unwrap_or(0)
            }
            TieBreak::SonnebornBerger => self.contributions(player).iter().map(|c| c.1).sum(),
            TieBreak::DirectEncounter => self.direct_encounter(player, tied),
            TieBreak::Wins => player
                .history
                .iter()
                .filter(|r| matches!(r.result, RoundResult::Win | RoundResult::ForfeitWin))
                .count() as u32,
        }
    }

    /// Points (in quarter points) against the other players of `tied`, if
    /// every two of them met; 0 for everyone otherwise.
    fn direct_encounter(&self, player: &SwissPlayer, tied: &[PlayerNumber]) -> u32 {
        let met = |a: PlayerNumber, b: PlayerNumber| {
            self.player(a).history.iter().any(|r| r.opponent == Some(b))
        };
        let all_met = tied
            .iter()
            .all(|&a| tied.iter().all(|&b| a == b || met(a, b)));
        if !all_met {
            return 0;
        }
        player
            .history
            .iter()
            .filter(|r| {
                r.opponent
                    .is_some_and(|o| o != player.number && tied.contains(&o))
            })
            .map(|r| 2 * r.result.half_points())
            .sum()
    }
}

/// The final standings: by points, then the tie-breaks in `order`, then the
/// pairing number (whose order is the rating order); players equal in
/// points and every tie-break share a place.
pub fn standings(
    players: &[SwissPlayer],
    order: &[TieBreak],
) -> Result<Vec<Standing>, TieBreakError> {
    let calculator = Calculator::new(players)?;
    let score = |player: &SwissPlayer| Calculator::half_points(player);
    let mut rows: Vec<(u32, Vec<u32>, PlayerNumber)> = players
        .iter()
        .map(|player| {
            let tied: Vec<PlayerNumber> = players
                .iter()
                .filter(|other| score(other) == score(player))
                .map(|other| other.number)
                .collect();
            let values = order
                .iter()
                .map(|&tiebreak| calculator.value(player, tiebreak, &tied))
                .collect();
            (score(player), values, player.number)
        })
        .collect();
    rows.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)).then(a.2.cmp(&b.2)));
    let mut standings: Vec<Standing> = Vec::with_capacity(rows.len());
    for (position, (half_points, values, player)) in rows.iter().enumerate() {
        let place = match standings.last() {
            Some(previous)
                if position > 0
                    && rows[position - 1].0 == *half_points
                    && rows[position - 1].1 == *values =>
            {
                previous.place
            }
            _ => position as u32 + 1,
        };
        let shown = values
            .iter()
            .zip(order)
            .map(|(&value, tiebreak)| match tiebreak {
                TieBreak::Wins => f64::from(value),
                _ => f64::from(value) / 4.0,
            })
            .collect();
        standings.push(Standing {
            place,
            player: *player,
            points: f64::from(*half_points) / 2.0,
            tiebreaks: shown,
        });
    }
    Ok(standings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::{Colour, RoundRecord};

    /// Players 1..=count whose rounds are written by `games`: (round, white,
    /// black, white's result); a player with no game in a round gets `idle`.
    fn tournament(
        count: u32,
        rounds: usize,
        games: &[(usize, u32, u32, RoundResult)],
    ) -> Vec<SwissPlayer> {
        let mut players: Vec<SwissPlayer> = (1..=count)
            .map(|number| SwissPlayer {
                number,
                rating: 2000,
                history: vec![RoundRecord::without_opponent(RoundResult::ZeroPointBye); rounds],
                present: true,
            })
            .collect();
        for &(round, white, black, result) in games {
            let answer = result.for_opponent();
            players[white as usize - 1].history[round - 1] =
                RoundRecord::game(black, Colour::White, result);
            players[black as usize - 1].history[round - 1] =
                RoundRecord::game(white, Colour::Black, answer);
        }
        players
    }

    /// Worked by hand (see each value's sum in the comments):
    /// R1 1-2 1-0, 3-4 ½; R2 1-3 ½, 2-4 won by 2 on forfeit; R3 1-4 1-0, 2-3 0-1.
    /// Scores 1: 2½, 2: 1, 3: 2, 4: ½. For Buchholz, 2's and 4's forfeited
    /// round counts as a draw: adjusted scores 1: 2½, 2: ½, 3: 2, 4: 1.
    #[test]
    fn buchholz_and_sonneborn_berger_with_a_forfeit_match_the_hand_computation() {
        use RoundResult::{Draw, ForfeitWin, Loss, Win};
        let players = tournament(
            4,
            3,
            &[
                (1, 1, 2, Win),
                (1, 3, 4, Draw),
                (2, 1, 3, Draw),
                (2, 2, 4, ForfeitWin),
                (3, 1, 4, Win),
                (3, 2, 3, Loss),
            ],
        );
        let order = [
            TieBreak::Buchholz,
            TieBreak::BuchholzCut1,
            TieBreak::SonnebornBerger,
            TieBreak::Wins,
        ];
        let table = standings(&players, &order).unwrap();
        let line = |player| table.iter().find(|s| s.player == player).unwrap();
        // 1: ½ + 2 + 1; cut the ½; SB 1·½ + ½·2 + 1·1.
        assert_eq!(line(1).tiebreaks, [3.5, 3.0, 2.5, 2.0]);
        // 2: 2½ + virtual opponent (0 + (1 − 1) + ½·1 = ½) + 2; SB: only ½·1.
        assert_eq!(line(2).tiebreaks, [5.0, 4.5, 0.5, 1.0]);
        // 3: 1 + 2½ + ½; SB ½·1 + ½·2½ + 1·½.
        assert_eq!(line(3).tiebreaks, [4.0, 3.5, 2.25, 1.0]);
        // 4: 2 + virtual opponent (½ + (1 − 0) + ½·1 = 2) + 2½; SB ½·2.
        assert_eq!(line(4).tiebreaks, [6.5, 4.5, 1.0, 0.0]);
        let order: Vec<(u32, u32, f64)> = table
            .iter()
            .map(|s| (s.place, s.player, s.points))
            .collect();
        assert_eq!(order, [(1, 1, 2.5), (2, 3, 2.0), (3, 2, 1.0), (4, 4, 0.5)]);
    }

    /// 2 beat 1 and 3 beat 4; 1 and 2 end on 2 points with equal Buchholz.
    fn two_ties() -> Vec<SwissPlayer> {
        use RoundResult::{Loss, Win};
        tournament(
            4,
            3,
            &[
                (1, 1, 2, Loss),
                (1, 3, 4, Win),
                (2, 1, 3, Win),
                (2, 2, 4, Loss),
                (3, 1, 4, Win),
                (3, 2, 3, Win),
            ],
        )
    }

    #[test]
    fn direct_encounter_orders_players_who_met() {
        let table = standings(&two_ties(), &SWISS_ORDER).unwrap();
        let order: Vec<(u32, u32)> = table.iter().map(|s| (s.place, s.player)).collect();
        assert_eq!(order, [(1, 2), (2, 1), (3, 3), (4, 4)]);
        assert_eq!(table[0].tiebreaks[0], 1.0);
        assert_eq!(table[1].tiebreaks[0], 0.0);
    }

    #[test]
    fn players_equal_in_everything_share_a_place() {
        let table = standings(&two_ties(), &[TieBreak::Buchholz]).unwrap();
        let order: Vec<(u32, u32, Vec<f64>)> = table
            .iter()
            .map(|s| (s.place, s.player, s.tiebreaks.clone()))
            .collect();
        assert_eq!(
            order,
            [
                (1, 1, vec![4.0]),
                (1, 2, vec![4.0]),
                (3, 3, vec![5.0]),
                (3, 4, vec![5.0])
            ]
        );
        // Sonneborn-Berger separates them: 2 beat 1 (2) and 3 (1), 1 beat 3 and 4 (1 each).
        let table = standings(&two_ties(), &[TieBreak::SonnebornBerger]).unwrap();
        assert_eq!(table[0].player, 2);
        assert_eq!(table[0].tiebreaks, [3.0]);
        assert_eq!(table[1].tiebreaks, [2.0]);
    }

    #[test]
    fn direct_encounter_separates_nobody_when_the_tied_did_not_all_meet() {
        use RoundResult::{Draw, Win};
        // 1 and 2 both beat 3 and 4 respectively and never met.
        let players = tournament(4, 1, &[(1, 1, 3, Win), (1, 2, 4, Win)]);
        let table = standings(&players, &[TieBreak::DirectEncounter]).unwrap();
        assert_eq!((table[0].place, table[1].place), (1, 1));
        let players = tournament(3, 1, &[(1, 2, 3, Draw)]);
        // 1 was idle (a zero-point bye): its virtual opponent scored 1.
        let table = standings(&players, &[TieBreak::Buchholz]).unwrap();
        let one = table.iter().find(|s| s.player == 1).unwrap();
        assert_eq!(one.tiebreaks, [1.0]);
    }

    #[test]
    fn an_unknown_opponent_or_a_repeated_number_is_an_error() {
        let mut players = tournament(2, 1, &[]);
        players[0].history[0] = RoundRecord::game(7, Colour::White, RoundResult::Win);
        assert_eq!(
            standings(&players, &SWISS_ORDER),
            Err(TieBreakError::UnknownOpponent {
                player: 1,
                opponent: 7
            })
        );
        let mut players = tournament(2, 1, &[]);
        players[1].number = 1;
        assert_eq!(
            standings(&players, &SWISS_ORDER),
            Err(TieBreakError::DuplicatePlayer(1))
        );
    }
}
