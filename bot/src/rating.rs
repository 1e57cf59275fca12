//! Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system", 2013),
//! as lichess keeps them: one rating per platform, person and variant,
//! starting at 1500 with a deviation (RD) of 350 and a volatility of 0.06,
//! updated after each rated game (each game is a rating period of its own).
//! A rating is provisional — shown `1500?` — while its RD is above
//! [`PROVISIONAL_RD`]; the RD grows again while its owner does not play
//! ([`Rating::after_idle`]), never beyond [`START_RD`].
//!
//! Pure arithmetic: the store keeps the numbers, the service says them.

/// The rating a newcomer starts with.
pub const START_RATING: f64 = 1500.0;
/// The deviation a newcomer starts with, and the most it grows to.
pub const START_RD: f64 = 350.0;
/// The volatility a newcomer starts with.
pub const START_VOLATILITY: f64 = 0.06;
/// The system constant τ, which bounds how fast the volatility changes
/// (lichess's value; Glickman suggests 0.3 to 1.2).
pub const TAU: f64 = 0.75;
/// A rating whose RD is above this is provisional.
pub const PROVISIONAL_RD: f64 = 110.0;
/// One rating period of inactivity, in milliseconds (a day): the RD grows
/// as if each idle period were a period without games.
pub const PERIOD_MS: i64 = 24 * 60 * 60 * 1000;

/// The factor between the Glicko and the Glicko-2 scale.
const SCALE: f64 = 173.7178;
/// Where the iteration for the new volatility stops.
const EPSILON: f64 = 0.000_001;

/// One person's rating in one variant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The rating (Glicko scale).
    pub rating: f64,
    /// Its deviation (Glicko scale).
    pub rd: f64,
    /// Its volatility.
    pub volatility: f64,
}

impl Default for Rating {
    fn default() -> Rating {
        Rating {
            rating: START_RATING,
            rd: START_RD,
            volatility: START_VOLATILITY,
        }
    }
}

/// A game's result for one player: 1 a win, ½ a draw, 0 a loss.
pub type Score = f64;

impl Rating {
    /// Whether the rating is still provisional (its RD above 110).
    pub fn provisional(&self) -> bool {
        self.rd > PROVISIONAL_RD
    }

    /// The rating as shown: rounded, with `?` while provisional (`1500?`).
    pub fn shown(&self) -> String {
        let mark = if self.provisional() { "?" } else { "" };
        format!("{}{mark}", self.rating.round() as i64)
    }

    /// The rating after `idle_ms` milliseconds without a game: its RD grows
    /// as Glicko-2 grows it over a period without games (φ² + σ² per
    /// period, fractions of a period counted), up to [`START_RD`].
    pub fn after_idle(self, idle_ms: i64) -> Rating {
        if idle_ms <= 0 {
            return self;
        }
        let periods = idle_ms.max(0) as f64 / PERIOD_MS as f64;
        let phi = self.rd / SCALE;
        let grown = (phi * phi + periods * self.volatility * self.volatility).sqrt() * SCALE;
        Rating {
            rd: grown.min(START_RD),
            ..self
        }
    }

    /// The rating after one rating period with `games`: each opponent's
    /// rating (as it was before the period) and this player's score.
    /// Without games only the RD grows (one period). `tau` is the system
    /// constant ([`TAU`] in play; the paper's example uses 0.5).
    pub fn update(self, games: &[(Rating, Score)], tau: f64) -> Rating {
        let mu = (self.rating - START_RATING) / SCALE;
        let phi = self.rd / SCALE;
        let sigma = self.volatility;
        if games.is_empty() {
            let grown = (phi * phi + sigma * sigma).sqrt() * SCALE;
            return Rating {
                rd: grown.min(START_RD),
                ..self
            };
        }
        // Step 3 and 4: the estimated variance and the improvement.
        let mut inverse_v = 0.0;
        let mut sum = 0.0;
        for (opponent, score) in games {
            let mu_j = (opponent.rating - START_RATING) / SCALE;
            let phi_j = opponent.rd / SCALE;
            let g = g(phi_j);
            let e = expected(mu, mu_j, phi_j);
            inverse_v += g * g * e * (1.0 - e);
            sum += g * (score - e);
        }
        let v = 1.0 / inverse_v;
        let delta = v * sum;
        // Step 5: the new volatility (the Illinois algorithm).
        let a = (sigma * sigma).ln();
        let f = |x: f64| {
            let ex = x.exp();
            let d = phi * phi + v + ex;
            ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau)
        };
        let mut big_a = a;
        let mut big_b = if delta * delta > phi * phi + v {
            (delta * delta - phi * phi - v).ln()
        } else {
            let mut k = 1.0;
            while f(a - k * tau) < 0.0 && k < 1000.0 {
                k += 1.0;
            }
            a - k * tau
        };
        let mut f_a = f(big_a);
        let mut f_b = f(big_b);
        // Converges in a few dozen steps; the bound only keeps it finite.
        for _ in 0..200 {
            if (big_b - big_a).abs() <= EPSILON {
                break;
            }
            let big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
            let f_c = f(big_c);
            if f_c * f_b <= 0.0 {
                big_a = big_b;
                f_a = f_b;
            } else {
                f_a /= 2.0;
            }
            big_b = big_c;
            f_b = f_c;
        }
        let new_sigma = (big_a / 2.0).exp();
        // Steps 6 to 8: the new deviation and rating.
        let phi_star = (phi * phi + new_sigma * new_sigma).sqrt();
        let new_phi = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let new_mu = mu + new_phi * new_phi * sum;
        let updated = Rating {
            rating: START_RATING + SCALE * new_mu,
            rd: (SCALE * new_phi).min(START_RD),
            volatility: new_sigma,
        };
        if updated.rating.is_finite() && updated.rd.is_finite() && updated.volatility.is_finite() {
            updated
        } else {
            // Never reached with ratings this module made; a stored value
            // gone wrong changes nothing rather than spreading.
            self
        }
    }

    /// The ratings of two players after a game between them, both from
    /// their ratings before it: `score` is the first player's.
    pub fn after_game(first: Rating, second: Rating, score: Score) -> (Rating, Rating) {
        (
            first.update(&[(second, score)], TAU),
            second.update(&[(first, 1.0 - score)], TAU),
        )
    }
}

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

/// A change as shown after a game: `+23`, `−23` (a minus sign), `±0`.
pub fn change_text(before: f64, after: f64) -> String {
    let change = after.round() as i64 - before.round() as i64;
    match change {
        0 => "±0".to_owned(),
        c if c > 0 => format!("+{c}"),
        c => format!("−{}", -c),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(rating: f64, rd: f64) -> Rating {
        Rating {
            rating,
            rd,
            volatility: START_VOLATILITY,
        }
    }

    #[test]
    fn glickmans_worked_example_to_the_published_precision() {
        let player = at(1500.0, 200.0);
        let games = [
            (at(1400.0, 30.0), 1.0),
            (at(1550.0, 100.0), 0.0),
            (at(1700.0, 300.0), 0.0),
        ];
        let after = player.update(&games, 0.5);
        // The paper works on the Glicko-2 scale to four decimals: μ' =
        // −0.2069, φ' = 0.8722, σ' = 0.05999, which it converts to r' =
        // 1464.06 and RD' = 151.52 (unrounded: 1464.0507 and 151.5165).
        let mu = (after.rating - 1500.0) / SCALE;
        let phi = after.rd / SCALE;
        assert_eq!(format!("{mu:.4}"), "-0.2069");
        assert_eq!(format!("{phi:.4}"), "0.8722");
        // The paper cuts σ' (0.0599960) to five decimals.
        let cut = (after.volatility * 100_000.0).floor() / 100_000.0;
        assert_eq!(format!("{cut:.5}"), "0.05999");
        assert!((after.volatility - 0.059996).abs() < 0.000_001, "{after:?}");
        let published = |x: f64| (x * 10_000.0).round() / 10_000.0 * SCALE;
        assert_eq!(format!("{:.2}", 1500.0 + published(mu)), "1464.06");
        assert_eq!(format!("{:.2}", published(phi)), "151.52");
        assert!((after.rating - 1464.06).abs() < 0.015, "{after:?}");
        assert!((after.rd - 151.52).abs() < 0.01, "{after:?}");
    }

    #[test]
    fn newcomers_start_provisional_and_a_win_moves_both_by_as_much() {
        let fresh = Rating::default();
        assert_eq!(
            (fresh.rating, fresh.rd, fresh.volatility),
            (1500.0, 350.0, 0.06)
        );
        assert!(fresh.provisional());
        assert_eq!(fresh.shown(), "1500?");
        let (winner, loser) = Rating::after_game(fresh, fresh, 1.0);
        assert!(
            winner.rating > 1600.0 && winner.rating < 1700.0,
            "{winner:?}"
        );
        assert!((winner.rating - 1500.0 - (1500.0 - loser.rating)).abs() < 1e-6);
        assert!(winner.rd < 350.0 && (winner.rd - loser.rd).abs() < 1e-9);
        let (a, b) = Rating::after_game(fresh, fresh, 0.5);
        assert!((a.rating - 1500.0).abs() < 1e-9 && (b.rating - 1500.0).abs() < 1e-9);
        assert!(a.rd < 350.0);
    }

    #[test]
    fn provisional_while_the_deviation_is_above_110() {
        assert!(at(1500.0, 110.5).provisional());
        assert!(!at(1500.0, 110.0).provisional());
        assert!(!at(1834.4, 60.0).provisional());
        assert_eq!(at(1834.4, 60.0).shown(), "1834");
        assert_eq!(at(1834.6, 111.0).shown(), "1835?");
        // Games against settled players bring a newcomer below the line.
        let mut newcomer = Rating::default();
        let mut games = 0;
        while newcomer.provisional() {
            newcomer = newcomer.update(&[(at(1500.0, 60.0), 0.5)], TAU);
            games += 1;
            assert!(games < 50, "{newcomer:?}");
        }
        assert!(games > 5, "settled after {games} games");
    }

    #[test]
    fn the_deviation_grows_with_inactivity_up_to_350() {
        let settled = at(1700.0, 60.0);
        assert_eq!(settled.after_idle(0), settled);
        let day = settled.after_idle(PERIOD_MS);
        let month = settled.after_idle(30 * PERIOD_MS);
        // φ² + σ² per period: 60 → √(60² + (0.06·173.7178)²·n).
        let expected = |n: f64| (60.0f64.powi(2) + n * (0.06 * SCALE).powi(2)).sqrt();
        assert!((day.rd - expected(1.0)).abs() < 1e-9, "{day:?}");
        assert!((month.rd - expected(30.0)).abs() < 1e-9, "{month:?}");
        assert!(day.rd > 60.0 && month.rd > day.rd);
        assert_eq!((month.rating, month.volatility), (1700.0, 0.06));
        // Long enough away, a settled rating becomes provisional again, but never beyond 350.
        assert!(settled.after_idle(100 * PERIOD_MS).provisional());
        assert_eq!(settled.after_idle(100_000 * PERIOD_MS).rd, START_RD);
        // A clock gone backwards is no idle time.
        assert_eq!(settled.after_idle(-PERIOD_MS), settled);
    }

    #[test]
    fn changes_are_written_with_their_sign() {
        assert_eq!(change_text(1500.0, 1662.3), "+162");
        assert_eq!(change_text(1500.0, 1337.7), "−162");
        assert_eq!(change_text(1500.2, 1499.9), "±0");
    }
}
