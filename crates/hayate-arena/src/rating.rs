//! Maximum-likelihood Elo ratings (the logistic Bradley–Terry model that Ordo and BayesElo fit),
//! with error bars and likelihood of superiority.
//!
//! Model: the expected score of `i` against `j` is `1 / (1 + 10^((r_j − r_i)/400))`; a draw counts
//! as half a win (Ordo's convention). Ratings are centred on a mean of zero. Error bars come from
//! the Fisher information at the maximum (the inverse Hessian of the log-likelihood), which is the
//! usual normal approximation; treating draws as half wins slightly overstates the variance when
//! there are many draws (a conservative error bar).
//!
//! Results where some group of engines won every game against the rest (a perfect or zero score
//! is the simplest case) have no finite maximum; then `prior_draws` adds that many virtual draws
//! to every pair that played (as BayesElo's prior does) so the fit stays finite.

/// W/D/L of one engine against another, from the first's view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Wins.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Losses.
    pub losses: u32,
}

impl Wdl {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points: a win 1, a draw ½.
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// The Elo difference these games measure and its 95 % interval, from the score and the
    /// spread of the per-game results (normal approximation, draws counted as they fell);
    /// `None` without games or with a score of 0 or 1.
    pub fn elo_interval(&self) -> Option<(f64, f64, f64)> {
        let n = f64::from(self.games());
        let s = self.points() / n;
        if !(s > 0.0 && s < 1.0) {
            return None;
        }
        let var = (f64::from(self.wins) * (1.0 - s).powi(2)
            + f64::from(self.losses) * s.powi(2)
            + f64::from(self.draws) * (0.5 - s).powi(2))
            / n;
        let half = 1.96 * (var / n).sqrt();
        let elo = |p: f64| elo_from_score(p.clamp(1e-6, 1.0 - 1e-6));
        Some((elo(s), elo(s - half), elo(s + half)))
    }

    /// The same games from the other side.
    pub fn flipped(&self) -> Wdl {
        Wdl {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }
}

/// The results of a league as a square table: `table[i][j]` is `i`'s W/D/L against `j`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Crosstable {
    n: usize,
    cells: Vec<Wdl>,
}

impl Crosstable {
    /// An empty table for `n` engines.
    pub fn new(n: usize) -> Crosstable {
        Crosstable {
            n,
            cells: vec![Wdl::default(); n * n],
        }
    }

    /// Number of engines.
    pub fn len(&self) -> usize {
        self.n
    }

    /// Whether there are no engines.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// `i`'s W/D/L against `j`.
    pub fn get(&self, i: usize, j: usize) -> Wdl {
        self.cells[i * self.n + j]
    }

    /// Records one game: `score` is `i`'s points (1, ½ or 0).
    pub fn add(&mut self, i: usize, j: usize, score: f64) {
        let (a, b) = (i * self.n + j, j * self.n + i);
        if score > 0.75 {
            self.cells[a].wins += 1;
            self.cells[b].losses += 1;
        } else if score < 0.25 {
            self.cells[a].losses += 1;
            self.cells[b].wins += 1;
        } else {
            self.cells[a].draws += 1;
            self.cells[b].draws += 1;
        }
    }

    /// `i`'s total against everyone.
    pub fn total(&self, i: usize) -> Wdl {
        let mut t = Wdl::default();
        for j in 0..self.n {
            let c = self.get(i, j);
            t.wins += c.wins;
            t.draws += c.draws;
            t.losses += c.losses;
        }
        t
    }
}

/// Ratings for every engine.
#[derive(Clone, Debug, PartialEq)]
pub struct Ratings {
    /// Elo of each engine, mean zero.
    pub elo: Vec<f64>,
    /// Standard error of each engine's Elo (relative to the mean of the pool).
    pub std_err: Vec<f64>,
    /// Covariance matrix of the ratings (row-major, `n × n`).
    pub covariance: Vec<f64>,
    /// The virtual draws per pair that were used (0 unless needed to keep the fit finite).
    pub prior_draws: f64,
    /// Newton iterations used.
    pub iterations: usize,
}

impl Ratings {
    /// 95% error bar half-width (1.96 standard errors).
    pub fn error95(&self, i: usize) -> f64 {
        1.96 * self.std_err[i]
    }

    /// Standard error of the difference `elo[i] − elo[j]`.
    pub fn diff_std_err(&self, i: usize, j: usize) -> f64 {
        let n = self.elo.len();
        let v = self.covariance[i * n + i] + self.covariance[j * n + j]
            - 2.0 * self.covariance[i * n + j];
        v.max(0.0).sqrt()
    }

    /// Likelihood of superiority: the probability that `i` is truly stronger than `j`
    /// (normal approximation of the rating difference).
    pub fn los(&self, i: usize, j: usize) -> f64 {
        let d = self.elo[i] - self.elo[j];
        let s = self.diff_std_err(i, j);
        if s == 0.0 {
            return if d > 0.0 {
                1.0
            } else if d < 0.0 {
                0.0
            } else {
                0.5
            };
        }
        normal_cdf(d / s)
    }
}

/// The logistic Elo constant: `d/dr` of the expected score is `K · p (1 − p)`.
const K: f64 = std::f64::consts::LN_10 / 400.0;

/// Expected score for an Elo difference.
pub fn expected_score(diff: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-diff / 400.0))
}

/// Elo difference for an expected score in (0, 1): `−400 log10(1/s − 1)`.
pub fn elo_from_score(s: f64) -> f64 {
    -400.0 * (1.0 / s - 1.0).log10()
}

/// The standard normal CDF (Abramowitz–Stegun 7.1.26 erf, error below 1.5e-7).
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * (1.0 + erf(x / std::f64::consts::SQRT_2))
}

fn erf(x: f64) -> f64 {
    let sign = if x < 0.0 { -1.0 } else { 1.0 };
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let y = 1.0
        - (((((1.061_405_429 * t - 1.453_152_027) * t) + 1.421_413_741) * t - 0.284_496_736) * t
            + 0.254_829_592)
            * t
            * (-x * x).exp();
    sign * y
}

/// Likelihood of superiority from a head-to-head W/L count (draws carry no information):
/// `½ (1 + erf((W − L) / √(2 (W + L))))`.
pub fn los_from_wl(wins: u32, losses: u32) -> f64 {
    let n = (wins + losses) as f64;
    if n == 0.0 {
        return 0.5;
    }
    0.5 * (1.0 + erf((wins as f64 - losses as f64) / (2.0 * n).sqrt()))
}

/// Whether the results have no finite maximum: the likelihood has one exactly when, among the
/// engines that played, every engine can reach every other along "scored at least half a point
/// against" edges (the graph is strongly connected). A perfect score, or a group that won every
/// game against the rest, breaks that.
fn needs_prior(t: &Crosstable) -> bool {
    let n = t.len();
    let played: Vec<usize> = (0..n).filter(|&i| t.total(i).games() > 0).collect();
    let Some(&root) = played.first() else {
        return false;
    };
    // `forward`: i → j when i scored against j; the reverse search uses j → i.
    let reach = |forward: bool| {
        let mut seen = vec![false; n];
        let mut stack = vec![root];
        seen[root] = true;
        while let Some(i) = stack.pop() {
            for (j, seen_j) in seen.iter_mut().enumerate() {
                let c = if forward { t.get(i, j) } else { t.get(j, i) };
                if !*seen_j && i != j && c.points() > 0.0 {
                    *seen_j = true;
                    stack.push(j);
                }
            }
        }
        played.iter().all(|&i| seen[i])
    };
    !(reach(true) && reach(false))
}

/// Fits the ratings, adding one virtual draw per played pair only when the results have no
/// finite maximum (see the module notes).
pub fn fit_ratings(t: &Crosstable) -> Ratings {
    let prior = if needs_prior(t) { 1.0 } else { 0.0 };
    fit_ratings_with_prior(t, prior)
}

/// Fits the ratings by Newton's method with `prior_draws` virtual draws per played pair.
/// Engines that played no game get 0 ± 0.
pub fn fit_ratings_with_prior(t: &Crosstable, prior_draws: f64) -> Ratings {
    let n = t.len();
    // Games and points per ordered pair, prior included.
    let mut games = vec![0.0; n * n];
    let mut points = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..n {
            let c = t.get(i, j);
            if i != j && c.games() > 0 {
                games[i * n + j] = c.games() as f64 + prior_draws;
                points[i * n + j] = c.points() + 0.5 * prior_draws;
            }
        }
    }
    let played: Vec<usize> = (0..n)
        .filter(|&i| (0..n).any(|j| games[i * n + j] > 0.0))
        .collect();
    let mut r = vec![0.0; n];
    let mut iterations = 0;
    // The likelihood is invariant to a common shift: fix the last played engine at 0 while
    // iterating (its row and column dropped), then centre.
    let free: Vec<usize> = if played.len() > 1 {
        played[..played.len() - 1].to_vec()
    } else {
        Vec::new()
    };
    let m = free.len();
    let mut hess = vec![0.0; m * m];
    for it in 0..100 {
        iterations = it + 1;
        let (grad, h) = gradient_hessian(&r, &games, &points, n, &free);
        hess = h;
        let neg: Vec<f64> = hess.iter().map(|v| -v).collect();
        let Some(step) = solve(&neg, &grad, m) else {
            break;
        };
        let mut max_step: f64 = 0.0;
        for (k, &i) in free.iter().enumerate() {
            // Damped: a step of more than 400 Elo at once only overshoots.
            let s = step[k].clamp(-400.0, 400.0);
            r[i] += s;
            max_step = max_step.max(s.abs());
        }
        if max_step < 1e-9 {
            let (_, h) = gradient_hessian(&r, &games, &points, n, &free);
            hess = h;
            break;
        }
    }
    // Covariance of the anchored ratings: the inverse of the Fisher information (−H).
    let neg: Vec<f64> = hess.iter().map(|v| -v).collect();
    let inv = invert(&neg, m).unwrap_or_else(|| vec![0.0; m * m]);
    let mut cov_anchored = vec![0.0; n * n];
    for (a, &i) in free.iter().enumerate() {
        for (b, &j) in free.iter().enumerate() {
            cov_anchored[i * n + j] = inv[a * m + b];
        }
    }
    // Centre on the mean of the played engines: r' = P r, Cov' = P Cov Pᵀ.
    let p = played.len() as f64;
    let mut proj = vec![0.0; n * n];
    for &i in &played {
        for &j in &played {
            proj[i * n + j] = if i == j { 1.0 } else { 0.0 } - 1.0 / p;
        }
    }
    let mean = if played.is_empty() {
        0.0
    } else {
        played.iter().map(|&i| r[i]).sum::<f64>() / p
    };
    for &i in &played {
        r[i] -= mean;
    }
    let pc = matmul(&proj, &cov_anchored, n);
    let mut pt = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..n {
            pt[i * n + j] = proj[j * n + i];
        }
    }
    let covariance = matmul(&pc, &pt, n);
    let std_err = (0..n)
        .map(|i| covariance[i * n + i].max(0.0).sqrt())
        .collect();
    Ratings {
        elo: r,
        std_err,
        covariance,
        prior_draws,
        iterations,
    }
}

fn gradient_hessian(
    r: &[f64],
    games: &[f64],
    points: &[f64],
    n: usize,
    free: &[usize],
) -> (Vec<f64>, Vec<f64>) {
    let m = free.len();
    let mut grad = vec![0.0; m];
    let mut hess = vec![0.0; m * m];
    let index_of = |i: usize| free.iter().position(|&f| f == i);
    for (a, &i) in free.iter().enumerate() {
        for j in 0..n {
            let g = games[i * n + j];
            if i == j || g == 0.0 {
                continue;
            }
            let p = expected_score(r[i] - r[j]);
            grad[a] += K * (points[i * n + j] - g * p);
            let w = K * K * g * p * (1.0 - p);
            hess[a * m + a] -= w;
            if let Some(b) = index_of(j) {
                hess[a * m + b] += w;
            }
        }
    }
    (grad, hess)
}

fn matmul(a: &[f64], b: &[f64], n: usize) -> Vec<f64> {
    let mut c = vec![0.0; n * n];
    for i in 0..n {
        for k in 0..n {
            let x = a[i * n + k];
            if x == 0.0 {
                continue;
            }
            for j in 0..n {
                c[i * n + j] += x * b[k * n + j];
            }
        }
    }
    c
}

/// Solves `a x = b` (Gauss–Jordan with partial pivoting); `None` if singular.
fn solve(a: &[f64], b: &[f64], m: usize) -> Option<Vec<f64>> {
    let mut aug: Vec<f64> = Vec::with_capacity(m * (m + 1));
    for i in 0..m {
        aug.extend_from_slice(&a[i * m..(i + 1) * m]);
        aug.push(b[i]);
    }
    let x = gauss_jordan(&mut aug, m, 1)?;
    Some(x)
}

fn invert(a: &[f64], m: usize) -> Option<Vec<f64>> {
    let mut aug: Vec<f64> = Vec::with_capacity(m * 2 * m);
    for i in 0..m {
        aug.extend_from_slice(&a[i * m..(i + 1) * m]);
        for j in 0..m {
            aug.push(if i == j { 1.0 } else { 0.0 });
        }
    }
    gauss_jordan(&mut aug, m, m)
}

/// Reduces `[A | B]` (m rows, m + k columns) and returns B's columns solved, row-major.
fn gauss_jordan(aug: &mut [f64], m: usize, k: usize) -> Option<Vec<f64>> {
    let w = m + k;
    for col in 0..m {
        let piv =
            (col..m).max_by(|&x, &y| aug[x * w + col].abs().total_cmp(&aug[y * w + col].abs()))?;
        if aug[piv * w + col].abs() < 1e-300 {
            return None;
        }
        if piv != col {
            for c in 0..w {
                aug.swap(piv * w + c, col * w + c);
            }
        }
        let d = aug[col * w + col];
        for c in 0..w {
            aug[col * w + c] /= d;
        }
        for row in 0..m {
            if row != col {
                let f = aug[row * w + col];
                if f != 0.0 {
                    for c in 0..w {
                        aug[row * w + c] -= f * aug[col * w + c];
                    }
                }
            }
        }
    }
    let mut out = Vec::with_capacity(m * k);
    for row in 0..m {
        out.extend_from_slice(&aug[row * w + m..row * w + w]);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pair_elo_interval_is_the_score_s_with_its_spread() {
        let close = |a: f64, b: f64| (a - b).abs() < 1e-6;
        let (e, lo, hi) = Wdl {
            wins: 35,
            draws: 0,
            losses: 69,
        }
        .elo_interval()
        .expect("mixed");
        assert!(close(e, -117.912_418_554_791_8), "{e}");
        assert!(close(lo, -194.834_970_198_717_5), "{lo}");
        assert!(close(hi, -50.838_720_101_487_74), "{hi}");
        let (e, lo, hi) = Wdl {
            wins: 40,
            draws: 2,
            losses: 78,
        }
        .elo_interval()
        .expect("mixed");
        assert!(close(e, -113.937_293_828_282_4) && close(lo, -183.877_833_290_069_9));
        assert!(close(hi, -51.989_605_727_931_21), "{hi}");
        assert_eq!(
            Wdl {
                wins: 3,
                draws: 0,
                losses: 0
            }
            .elo_interval(),
            None
        );
        assert_eq!(Wdl::default().elo_interval(), None);
    }

    fn table(n: usize, games: &[(usize, usize, u32, u32, u32)]) -> Crosstable {
        let mut t = Crosstable::new(n);
        for &(i, j, w, d, l) in games {
            for _ in 0..w {
                t.add(i, j, 1.0);
            }
            for _ in 0..d {
                t.add(i, j, 0.5);
            }
            for _ in 0..l {
                t.add(i, j, 0.0);
            }
        }
        t
    }

    #[test]
    fn two_engines_at_75_percent_are_191_apart() {
        // 75%: 400·log10(3) = 190.85 Elo.
        let t = table(2, &[(0, 1, 75, 0, 25)]);
        let r = fit_ratings(&t);
        assert_eq!(r.prior_draws, 0.0);
        assert!((r.elo[0] - r.elo[1] - 190.848).abs() < 0.01, "{:?}", r.elo);
        assert!((r.elo[0] + r.elo[1]).abs() < 1e-9);
        // Draws count as half: 50 wins, 50 draws is 75% too.
        let t = table(2, &[(0, 1, 50, 50, 0)]);
        let r = fit_ratings(&t);
        assert!((r.elo[0] - r.elo[1] - 190.848).abs() < 0.01);
    }

    #[test]
    fn two_engine_error_bar_is_the_binomial_one() {
        // Var(diff) = 1 / (N K² p (1−p)); N = 100, p = 0.75.
        let t = table(2, &[(0, 1, 75, 0, 25)]);
        let r = fit_ratings(&t);
        let expect = 1.0 / (100.0 * K * K * 0.75 * 0.25);
        let se = r.diff_std_err(0, 1);
        assert!((se * se - expect).abs() < 1e-6 * expect, "{se}");
        // Around the mean each engine carries half the difference: se/2.
        assert!((r.std_err[0] - se / 2.0).abs() < 1e-9);
        // 40.1 Elo standard error of the difference; LOS ≈ Φ(190.85 / 40.2) ≈ 1.
        assert!((se - 40.12).abs() < 0.01, "{se}");
        assert!(r.los(0, 1) > 0.999_99);
    }

    #[test]
    fn even_score_is_zero_with_even_los() {
        let t = table(3, &[(0, 1, 5, 10, 5), (1, 2, 5, 10, 5), (0, 2, 5, 10, 5)]);
        let r = fit_ratings(&t);
        for i in 0..3 {
            assert!(r.elo[i].abs() < 1e-9);
        }
        assert!((r.los(0, 1) - 0.5).abs() < 1e-9);
        assert!((r.std_err[0] - r.std_err[2]).abs() < 1e-9);
    }

    #[test]
    fn a_chain_is_transitive() {
        // A beats B 75%, B beats C 75%, no A–C games: A is 2·190.85 above C.
        let t = table(3, &[(0, 1, 75, 0, 25), (1, 2, 75, 0, 25)]);
        let r = fit_ratings(&t);
        assert!((r.elo[0] - r.elo[2] - 381.70).abs() < 0.02, "{:?}", r.elo);
        assert!(r.elo[1].abs() < 1e-6);
    }

    #[test]
    fn perfect_scores_stay_finite_with_a_prior() {
        let t = table(2, &[(0, 1, 10, 0, 0)]);
        let r = fit_ratings(&t);
        assert_eq!(r.prior_draws, 1.0);
        // 10.5 of 11: 400 log10(21) = 528.9.
        assert!((r.elo[0] - r.elo[1] - 528.88).abs() < 0.05, "{:?}", r.elo);
    }

    #[test]
    fn a_group_that_won_everything_needs_the_prior() {
        // A and B split their games, both beat C every time: C's rating has no finite maximum
        // though nobody has a perfect score.
        let t = table(3, &[(0, 1, 3, 0, 3), (0, 2, 5, 0, 0), (1, 2, 5, 0, 0)]);
        assert!(needs_prior(&t));
        let r = fit_ratings(&t);
        assert_eq!(r.prior_draws, 1.0);
        assert!(
            r.elo.iter().all(|e| e.is_finite() && e.abs() < 1000.0),
            "{:?}",
            r.elo
        );
        // One point for C against B closes the cycle: no prior.
        let t = table(3, &[(0, 1, 3, 0, 3), (0, 2, 5, 0, 0), (1, 2, 4, 1, 0)]);
        assert!(!needs_prior(&t));
        // A perfect pair inside a cycle is fine (A → B → C → A).
        let t = table(3, &[(0, 1, 5, 0, 0), (1, 2, 3, 0, 1), (2, 0, 2, 0, 3)]);
        assert!(!needs_prior(&t));
    }

    #[test]
    fn los_and_score_helpers() {
        assert!((expected_score(190.848_501) - 0.75).abs() < 1e-6);
        assert!((elo_from_score(0.75) - 190.8485).abs() < 1e-3);
        assert_eq!(los_from_wl(0, 0), 0.5);
        // W=60, L=40: erf(20/√200) = erf(1.4142) → LOS 0.9772.
        assert!((los_from_wl(60, 40) - 0.97725).abs() < 1e-4);
        assert!((normal_cdf(1.96) - 0.975).abs() < 1e-4);
    }

    #[test]
    fn an_engine_without_games_is_zero() {
        let t = table(3, &[(0, 1, 6, 0, 4)]);
        let r = fit_ratings(&t);
        assert_eq!(r.elo[2], 0.0);
        assert_eq!(r.std_err[2], 0.0);
        assert!((r.elo[0] - r.elo[1] - elo_from_score(0.6)).abs() < 0.01);
    }
}
