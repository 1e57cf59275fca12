//! FIDE's Tournament Report File, TRF(x) (TRF16 with the extensions that
//! bbpPairings and JaVaFo read), for the Swiss: written so a tournament's
//! pairings can be checked by another pairing program, read so one can be
//! imported.
//!
//! Only what the pairing needs is kept: the tournament's name (`012`), its
//! number of rounds (`XXR`), the initial colour (`XXC white1|black1`), and
//! for each player line (`001`) the starting rank, name, rating and one
//! column group per round: the opponent's starting rank (`0000` for none),
//! the colour (`w`, `b`, `-`) and the result (`1 0 = + - U H F Z`, and the
//! unrated `W D L`, read as ordinary results). Columns are counted in
//! characters, not bytes, so a UTF-8 name does not shift the rounds. Other
//! lines are skipped. Reading never panics: a malformed line is an error
//! naming the line and what is wrong with it.

use super::swiss::{half_points, SwissPlayer};
use super::{Colour, PlayerNumber, RoundRecord, RoundResult};

/// Where a player line's first round starts (0-based character index).
const FIRST_ROUND: usize = 91;
/// The width of one round's columns.
const ROUND_WIDTH: usize = 10;
/// The width of the name column.
const NAME_WIDTH: usize = 33;

/// A tournament as a TRF file holds it.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Tournament {
    pub name: String,
    /// `XXR`: the planned number of rounds.
    pub total_rounds: Option<u32>,
    /// `XXC`: the colour of player 1 in round 1.
    pub initial_colour: Option<Colour>,
    pub players: Vec<Player>,
}

/// One `001` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    pub number: PlayerNumber,
    pub name: String,
    pub rating: u32,
    pub rounds: Vec<RoundRecord>,
}

impl Player {
    /// A Swiss player's line, named `name`.
    pub fn from_swiss(player: &SwissPlayer, name: &str) -> Player {
        Player {
            number: player.number,
            name: name.to_owned(),
            rating: player.rating,
            rounds: player.history.clone(),
        }
    }

    /// The Swiss player this line describes (present for the next round).
    pub fn to_swiss(&self) -> SwissPlayer {
        SwissPlayer {
            number: self.number,
            rating: self.rating,
            history: self.rounds.clone(),
            present: true,
        }
    }
}

/// What is wrong with a TRF file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("TRF line {line}: {problem}")]
pub struct TrfError {
    /// The line, from 1.
    pub line: usize,
    pub problem: Problem,
}

/// What is wrong with one line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Problem {
    #[error("the {0} is not a number")]
    BadNumber(&'static str),
    #[error("the starting rank is missing or 0")]
    NoStartingRank,
    #[error("round {round}: '{found}' is not a colour (w, b or -)")]
    BadColour { round: usize, found: char },
    #[error("round {round}: '{found}' is not a result")]
    BadResult { round: usize, found: char },
    #[error("round {round}: a game result without an opponent")]
    MissingOpponent { round: usize },
    #[error("round {round}: a bye with an opponent")]
    ByeWithOpponent { round: usize },
    #[error("round {round}: a played game without a colour")]
    MissingColour { round: usize },
    #[error("'{0}' is not an initial colour (white1 or black1)")]
    BadInitialColour(String),
    #[error("starting rank {0} is used twice")]
    DuplicatePlayer(PlayerNumber),
}

/// Reads a TRF file.
///
/// ```
/// use kodex_bot::tournament::trf;
/// let text = "012 Club\nXXR 5\nXXC black1\n";
/// let tournament = trf::read(text).unwrap();
/// assert_eq!((tournament.name.as_str(), tournament.total_rounds), ("Club", Some(5)));
/// assert_eq!(trf::write(&tournament), text);
/// assert!(trf::read("001 abc").is_err());
/// ```
pub fn read(text: &str) -> Result<Tournament, TrfError> {
    let mut tournament = Tournament::default();
    for (index, line) in text.lines().enumerate() {
        let at = |problem| TrfError {
            line: index + 1,
            problem,
        };
        let line = line.trim_end_matches('\r');
        let (code, rest) = line.split_at(line.char_indices().nth(3).map_or(line.len(), |(i, _)| i));
        match code {
            "001" => {
                let player = read_player(line).map_err(at)?;
                if tournament.players.iter().any(|p| p.number == player.number) {
                    return Err(at(Problem::DuplicatePlayer(player.number)));
                }
                tournament.players.push(player);
            }
            "012" => tournament.name = rest.trim().to_owned(),
            "XXR" => {
                let rounds = rest
                    .trim()
                    .parse()
                    .map_err(|_| at(Problem::BadNumber("number of rounds")))?;
                tournament.total_rounds = Some(rounds);
            }
            "XXC" => {
                let value = rest.split_whitespace().next().unwrap_or("");
                tournament.initial_colour = Some(match value.to_ascii_lowercase().as_str() {
                    "white1" => Colour::White,
                    "black1" => Colour::Black,
                    _ => return Err(at(Problem::BadInitialColour(value.to_owned()))),
                });
            }
            _ => {}
        }
    }
    Ok(tournament)
}

/// The characters `from..to` of a line (fewer, or none, past its end).
fn columns(line: &[char], from: usize, to: usize) -> String {
    line.iter()
        .skip(from)
        .take(to.saturating_sub(from))
        .collect()
}

fn read_player(line: &str) -> Result<Player, Problem> {
    // Trailing blanks are padding, not empty rounds.
    let chars: Vec<char> = line.trim_end().chars().collect();
    let number: PlayerNumber = columns(&chars, 4, 8)
        .trim()
        .parse()
        .map_err(|_| Problem::BadNumber("starting rank"))?;
    if number == 0 {
        return Err(Problem::NoStartingRank);
    }
    let name = columns(&chars, 14, 47).trim().to_owned();
    let rating_text = columns(&chars, 48, 52);
    let rating = if rating_text.trim().is_empty() {
        0
    } else {
        rating_text
            .trim()
            .parse()
            .map_err(|_| Problem::BadNumber("rating"))?
    };
    let mut rounds = Vec::new();
    let mut start = FIRST_ROUND;
    while start < chars.len() {
        let round = rounds.len() + 1;
        let at = |offset: usize| chars.get(start + offset).copied().unwrap_or(' ');
        let opponent_text = columns(&chars, start, start + 4);
        let opponent: PlayerNumber = match opponent_text.trim() {
            "" => 0,
            text => text.parse().map_err(|_| Problem::BadNumber("opponent"))?,
        };
        let colour = match at(5) {
            'w' | 'W' => Some(Colour::White),
            'b' | 'B' => Some(Colour::Black),
            '-' | ' ' => None,
            found => return Err(Problem::BadColour { round, found }),
        };
        let result = match at(7) {
            '1' | 'W' => RoundResult::Win,
            '=' | 'D' => RoundResult::Draw,
            '0' | 'L' => RoundResult::Loss,
            '+' => RoundResult::ForfeitWin,
            '-' => RoundResult::ForfeitLoss,
            'U' => RoundResult::PairingBye,
            'H' => RoundResult::HalfPointBye,
            'F' => RoundResult::FullPointBye,
            'Z' | ' ' => RoundResult::ZeroPointBye,
            found => return Err(Problem::BadResult { round, found }),
        };
        let has_opponent = !matches!(
            result,
            RoundResult::PairingBye
                | RoundResult::HalfPointBye
                | RoundResult::FullPointBye
                | RoundResult::ZeroPointBye
        );
        let record = match (has_opponent, opponent) {
            (true, 0) => return Err(Problem::MissingOpponent { round }),
            (false, 0) => RoundRecord::without_opponent(result),
            (false, _) => return Err(Problem::ByeWithOpponent { round }),
            (true, opponent) => {
                if result.played() && colour.is_none() {
                    return Err(Problem::MissingColour { round });
                }
                RoundRecord {
                    opponent: Some(opponent),
                    colour,
                    result,
                }
            }
        };
        rounds.push(record);
        start += ROUND_WIDTH;
    }
    Ok(Player {
        number,
        name,
        rating,
        rounds,
    })
}

/// Writes a TRF file: `012`, `XXR`, `XXC` when known, then the players.
pub fn write(tournament: &Tournament) -> String {
    let mut text = String::new();
    if !tournament.name.is_empty() {
        text.push_str(&format!("012 {}\n", single_line(&tournament.name)));
    }
    if let Some(rounds) = tournament.total_rounds {
        text.push_str(&format!("XXR {rounds}\n"));
    }
    if let Some(colour) = tournament.initial_colour {
        let value = match colour {
            Colour::White => "white1",
            Colour::Black => "black1",
        };
        text.push_str(&format!("XXC {value}\n"));
    }
    for player in &tournament.players {
        text.push_str(&player_line(player));
        text.push('\n');
    }
    text
}

/// A name as one line, without the characters that would break the columns.
fn single_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

fn player_line(player: &Player) -> String {
    let name: String = single_line(&player.name).chars().take(NAME_WIDTH).collect();
    let points = f64::from(half_points(&player.rounds)) / 2.0;
    let mut line = format!(
        "001 {:>4}      {:<33} {:>4} {:<3} {:>11} {:<10} {:>4.1} {:>4}",
        player.number.min(9999),
        name,
        player.rating.min(9999),
        "",
        "",
        "",
        points,
        player.number.min(9999)
    );
    for record in &player.rounds {
        let opponent = record.opponent.unwrap_or(0).min(9999);
        let colour = match record.colour {
            Some(Colour::White) => 'w',
            Some(Colour::Black) => 'b',
            None => '-',
        };
        let result = match record.result {
            RoundResult::Win => '1',
            RoundResult::Draw => '=',
            RoundResult::Loss => '0',
            RoundResult::ForfeitWin => '+',
            RoundResult::ForfeitLoss => '-',
            RoundResult::PairingBye => 'U',
            RoundResult::HalfPointBye => 'H',
            RoundResult::FullPointBye => 'F',
            RoundResult::ZeroPointBye => 'Z',
        };
        line.push_str(&format!("  {opponent:04} {colour} {result}"));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Tournament {
        use RoundResult::*;
        let game = RoundRecord::game;
        Tournament {
            name: "Kodex club Swiss".to_owned(),
            total_rounds: Some(3),
            initial_colour: Some(Colour::White),
            players: vec![
                Player {
                    number: 1,
                    name: "Ёжиков, Пётр".to_owned(),
                    rating: 2105,
                    rounds: vec![game(3, Colour::White, Win), game(2, Colour::Black, Draw)],
                },
                Player {
                    number: 2,
                    name: "Smith, Ann".to_owned(),
                    rating: 1990,
                    rounds: vec![
                        RoundRecord::without_opponent(PairingBye),
                        game(1, Colour::White, Draw),
                    ],
                },
                Player {
                    number: 3,
                    name: "A very long name that does not fit its column"
                        .chars()
                        .take(NAME_WIDTH)
                        .collect(),
                    rating: 0,
                    rounds: vec![
                        game(1, Colour::Black, Loss),
                        RoundRecord {
                            opponent: Some(4),
                            colour: None,
                            result: ForfeitWin,
                        },
                    ],
                },
                Player {
                    number: 4,
                    name: "Late, Joiner".to_owned(),
                    rating: 1500,
                    rounds: vec![
                        RoundRecord::without_opponent(ZeroPointBye),
                        RoundRecord {
                            opponent: Some(3),
                            colour: Some(Colour::Black),
                            result: ForfeitLoss,
                        },
                    ],
                },
                Player {
                    number: 5,
                    name: "Bye, Half".to_owned(),
                    rating: 1400,
                    rounds: vec![
                        RoundRecord::without_opponent(HalfPointBye),
                        RoundRecord::without_opponent(FullPointBye),
                    ],
                },
            ],
        }
    }

    #[test]
    fn a_written_tournament_reads_back_the_same() {
        let tournament = sample();
        let text = write(&tournament);
        assert_eq!(read(&text), Ok(tournament));
    }

    #[test]
    fn player_lines_put_each_field_in_its_fide_columns() {
        let text = write(&sample());
        let line = text
            .lines()
            .find(|line| line.starts_with("001    2"))
            .unwrap();
        let chars: Vec<char> = line.chars().collect();
        let column = |from: usize, to: usize| -> String { chars[from - 1..to].iter().collect() };
        assert_eq!(column(1, 3), "001");
        assert_eq!(column(5, 8), "   2");
        assert_eq!(column(15, 47).trim_end(), "Smith, Ann");
        assert_eq!(column(49, 52), "1990");
        assert_eq!(column(81, 84), " 1.5");
        assert_eq!(column(92, 99), "0000 - U");
        assert_eq!(column(102, 109), "0001 w =");
        // A Cyrillic name takes characters, not bytes: the rounds stay put.
        let line = text
            .lines()
            .find(|line| line.starts_with("001    1"))
            .unwrap();
        let chars: Vec<char> = line.chars().collect();
        assert_eq!(chars[91..99].iter().collect::<String>(), "0003 w 1");
        assert!(text.starts_with("012 Kodex club Swiss\nXXR 3\nXXC white1\n"));
    }

    #[test]
    fn unrated_results_and_padding_are_read() {
        let mut line: String = write(&sample())
            .lines()
            .find(|l| l.starts_with("001    1"))
            .unwrap()
            .to_owned();
        line = line.replacen("0003 w 1", "0003 w W", 1);
        line.push_str("      ");
        let tournament = read(&line).unwrap();
        assert_eq!(tournament.players[0].rounds.len(), 2);
        assert_eq!(tournament.players[0].rounds[0].result, RoundResult::Win);
    }

    #[test]
    fn garbage_is_an_error_and_never_a_panic() {
        let good = write(&sample());
        let line_two = |problem| Err(TrfError { line: 2, problem });
        assert_eq!(
            read("012 x\n001 abcd"),
            line_two(Problem::BadNumber("starting rank"))
        );
        assert_eq!(read("012 x\n001    0"), line_two(Problem::NoStartingRank));
        assert_eq!(
            read("012 x\nXXR many"),
            line_two(Problem::BadNumber("number of rounds"))
        );
        assert_eq!(
            read("012 x\nXXC green"),
            line_two(Problem::BadInitialColour("green".to_owned()))
        );
        let player = good.lines().find(|l| l.starts_with("001    1")).unwrap();
        let broken = |from: &str, to: &str| {
            read(&player.replacen(from, to, 1))
                .map(|_| ())
                .unwrap_err()
                .problem
        };
        assert_eq!(
            broken("0003 w 1", "0003 x 1"),
            Problem::BadColour {
                round: 1,
                found: 'x'
            }
        );
        assert_eq!(
            broken("0003 w 1", "0003 w ?"),
            Problem::BadResult {
                round: 1,
                found: '?'
            }
        );
        assert_eq!(
            broken("0003 w 1", "0000 w 1"),
            Problem::MissingOpponent { round: 1 }
        );
        assert_eq!(
            broken("0003 w 1", "0003 w U"),
            Problem::ByeWithOpponent { round: 1 }
        );
        assert_eq!(
            broken("0003 w 1", "0003 - 1"),
            Problem::MissingColour { round: 1 }
        );
        assert_eq!(
            broken("0003 w 1", "00x3 w 1"),
            Problem::BadNumber("opponent")
        );
        assert_eq!(broken("2105", "21x5"), Problem::BadNumber("rating"));
        assert_eq!(
            read(&format!("{player}\n{player}")).unwrap_err(),
            TrfError {
                line: 2,
                problem: Problem::DuplicatePlayer(1)
            }
        );
        // Random bytes, and every prefix of a good file, never panic.
        let mut rng = fastrand::Rng::with_seed(7);
        for _ in 0..2000 {
            let length = rng.usize(0..200);
            let text: String = (0..length)
                .map(|_| {
                    let pool = "001 XXRC012wb-=+10UHFZ\n 0123456789ёж";
                    pool.chars()
                        .nth(rng.usize(..pool.chars().count()))
                        .unwrap_or(' ')
                })
                .collect();
            let _ = read(&text);
        }
        for end in (0..good.len()).filter(|&end| good.is_char_boundary(end)) {
            let _ = read(&good[..end]);
        }
    }

    #[test]
    fn swiss_players_convert_both_ways() {
        let tournament = sample();
        for player in &tournament.players {
            let swiss = player.to_swiss();
            assert!(swiss.present);
            assert_eq!(Player::from_swiss(&swiss, &player.name), *player);
        }
    }
}
