//! The sequential probability ratio test for a two-engine match (logistic Elo, trinomial W/D/L),
//! in the generalised form fishtest and cutechess use: with `N` games, mean score `s` and per-game
//! score variance `σ²`, and `sᵢ = 1/(1 + 10^(−eloᵢ/400))`,
//!
//! `LLR = N (s₁ − s₀)(2s − s₀ − s₁) / (2σ²)`.
//!
//! The test accepts H1 (the engine is at least `elo1` stronger) when `LLR ≥ ln((1−β)/α)` and H0
//! (`elo0`) when `LLR ≤ ln(β/(1−α))`.

use crate::rating::{Wdl, expected_score};

/// Mean score and per-game variance of a W/D/L count.
fn mean_var(w: f64, d: f64, l: f64) -> (f64, f64) {
    let n = w + d + l;
    let s = (w + 0.5 * d) / n;
    let var = (w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2)) / n;
    (s, var)
}

/// The hypotheses and error rates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtParams {
    /// Elo of H0.
    pub elo0: f64,
    /// Elo of H1.
    pub elo1: f64,
    /// False-positive rate (accepting H1 when H0 holds).
    pub alpha: f64,
    /// False-negative rate.
    pub beta: f64,
}

impl Default for SprtParams {
    fn default() -> Self {
        SprtParams {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        }
    }
}

/// Where the test stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// Keep playing.
    Continue,
    /// H0 accepted: the engine is not `elo1` stronger.
    AcceptH0,
    /// H1 accepted: the engine is stronger.
    AcceptH1,
}

impl SprtParams {
    /// The lower bound `ln(β/(1−α))`.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// The upper bound `ln((1−β)/α)`.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The log-likelihood ratio for the first engine's W/D/L (zero with no games).
    pub fn llr(&self, r: Wdl) -> f64 {
        if r.games() == 0 {
            return 0.0;
        }
        let (w, d, l) = (r.wins as f64, r.draws as f64, r.losses as f64);
        let (mut s, mut var) = mean_var(w, d, l);
        if var <= 0.0 {
            // All wins, all draws or all losses: the variance is zero and the formula says
            // nothing. Half a virtual win and half a virtual loss make it finite (a one-sided
            // run of wins then decides H1 after about 14 games at elo1 = 10).
            (s, var) = mean_var(w + 0.5, d, l + 0.5);
        }
        let n = w + d + l;
        let s0 = expected_score(self.elo0);
        let s1 = expected_score(self.elo1);
        n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
    }

    /// The decision for these results.
    pub fn decide(&self, r: Wdl) -> SprtDecision {
        let llr = self.llr(r);
        if llr >= self.upper_bound() {
            SprtDecision::AcceptH1
        } else if llr <= self.lower_bound() {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_for_five_percent() {
        let p = SprtParams::default();
        assert!((p.upper_bound() - 2.944_439).abs() < 1e-6);
        assert!((p.lower_bound() + 2.944_439).abs() < 1e-6);
    }

    #[test]
    fn llr_by_hand() {
        // 60 wins, 40 losses: s = 0.6, σ² = 0.24; s0 = 0.5, s1 = 1/(1+10^−0.025) = 0.514387.
        // LLR = 100 · 0.014387 · (1.2 − 1.014387) / 0.48 = 0.5563.
        let p = SprtParams::default();
        let r = Wdl {
            wins: 60,
            draws: 0,
            losses: 40,
        };
        assert!((p.llr(r) - 0.5563).abs() < 1e-3, "{}", p.llr(r));
        assert_eq!(p.decide(r), SprtDecision::Continue);
        // Even results push towards H0: s = 0.5 gives −N (s1−s0)² / (2σ²) = −3.31 here.
        let even = Wdl {
            wins: 4000,
            draws: 0,
            losses: 4000,
        };
        assert!(p.llr(even) < 0.0);
        assert_eq!(p.decide(even), SprtDecision::AcceptH0);
        let strong = Wdl {
            wins: 300,
            draws: 100,
            losses: 200,
        };
        assert_eq!(p.decide(strong), SprtDecision::AcceptH1);
        assert_eq!(p.llr(Wdl::default()), 0.0);
    }

    #[test]
    fn one_sided_runs_decide() {
        let p = SprtParams::default();
        let wins = |n| Wdl {
            wins: n,
            draws: 0,
            losses: 0,
        };
        assert_eq!(p.decide(wins(5)), SprtDecision::Continue);
        assert_eq!(p.decide(wins(20)), SprtDecision::AcceptH1);
        assert_eq!(p.decide(wins(20).flipped()), SprtDecision::AcceptH0);
        // All draws: equal engines, evidence for H0.
        let draws = Wdl {
            wins: 0,
            draws: 5,
            losses: 0,
        };
        assert!(p.llr(draws) < 0.0);
    }
}
