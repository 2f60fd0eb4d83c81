//! SPSA (simultaneous perturbation stochastic approximation), the method Stockfish's fishtest
//! and YaneuraOu's tuning runs use for search constants: each iteration moves every parameter
//! at once by ±c_k, plays the two settings against each other, and steps each parameter toward
//! the side that scored, scaled by a_k / c_k.
//!
//! Schedules (fishtest's): `c_k = c · k^-γ` and `a_k = a · (A + k)^-α` with γ = 0.101,
//! α = 0.602 and A a tenth of the iterations; `c` and `a` are set so that at the last iteration
//! the perturbation is the parameter's `c_end` and the step per unit of result is
//! `r_end · c_end` (`r_end` is the learning rate at the end).

use serde::{Deserialize, Serialize};

const ALPHA: f64 = 0.602;
const GAMMA: f64 = 0.101;

/// One tuned parameter: a `spin` USI option.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpsaParam {
    /// The USI option name.
    pub name: String,
    /// Its value when tuning starts.
    pub value: f64,
    /// The smallest value sent.
    pub min: f64,
    /// The largest value sent.
    pub max: f64,
    /// The perturbation at the last iteration (default: a twentieth of the range).
    #[serde(default)]
    pub c_end: Option<f64>,
    /// The learning rate at the last iteration (default 0.002).
    #[serde(default)]
    pub r_end: Option<f64>,
}

impl SpsaParam {
    fn c_end(&self) -> f64 {
        self.c_end.unwrap_or((self.max - self.min) / 20.0).max(0.5)
    }

    fn r_end(&self) -> f64 {
        self.r_end.unwrap_or(0.002)
    }
}

/// A tuning run's state: where the parameters stand after `k` iterations of `iterations`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Spsa {
    /// The parameters (values as they started).
    pub params: Vec<SpsaParam>,
    /// Iterations planned (the schedules depend on it).
    pub iterations: u64,
    /// Iterations done.
    pub k: u64,
    /// The current values (unrounded), in `params` order.
    pub theta: Vec<f64>,
    /// Seed of the perturbation signs.
    pub seed: u64,
}

/// One iteration's two settings.
#[derive(Clone, Debug, PartialEq)]
pub struct Perturbation {
    /// Signs (+1 or −1) per parameter.
    pub delta: Vec<f64>,
    /// `theta + c_k · delta`, rounded and clamped (as sent to the engine).
    pub plus: Vec<i64>,
    /// `theta − c_k · delta`, rounded and clamped.
    pub minus: Vec<i64>,
}

impl Spsa {
    /// A run of `iterations` starting from each parameter's value.
    pub fn new(params: Vec<SpsaParam>, iterations: u64, seed: u64) -> Spsa {
        let theta = params.iter().map(|p| p.value).collect();
        Spsa {
            params,
            iterations: iterations.max(1),
            k: 0,
            theta,
            seed,
        }
    }

    fn big_a(&self) -> f64 {
        0.1 * self.iterations as f64
    }

    /// The perturbation of parameter `i` at iteration `k` (1-based).
    pub fn c_k(&self, i: usize, k: u64) -> f64 {
        let n = self.iterations as f64;
        self.params[i].c_end() * (n / k.max(1) as f64).powf(GAMMA)
    }

    /// The gain of parameter `i` at iteration `k` (1-based).
    pub fn a_k(&self, i: usize, k: u64) -> f64 {
        let p = &self.params[i];
        let n = self.iterations as f64;
        let a_end = p.r_end() * p.c_end() * p.c_end();
        a_end * ((self.big_a() + n) / (self.big_a() + k.max(1) as f64)).powf(ALPHA)
    }

    /// Where the run stands: per parameter, its start, its current value and the move in units
    /// of its final perturbation (a move well under 1 is the size of the noise), as a table.
    pub fn status(&self) -> String {
        let mut t = format!(
            "{} of {} iterations\n{:<24} {:>10} {:>10} {:>12}\n",
            self.k, self.iterations, "parameter", "start", "now", "move/c_end"
        );
        for (p, &now) in self.params.iter().zip(&self.theta) {
            t.push_str(&format!(
                "{:<24} {:>10} {:>10.1} {:>+12.2}\n",
                p.name,
                p.value,
                now,
                (now - p.value) / p.c_end()
            ));
        }
        t
    }

    /// The two settings of the next iteration (`k + 1`); the signs come from (seed, k).
    pub fn perturb(&self) -> Perturbation {
        self.perturb_at(self.k + 1)
    }

    /// The two settings of iteration `k` (1-based) around the current values: the signs come
    /// from (seed, k). Iterations played at once are all perturbed around the same values and
    /// then updated in order, as fishtest's workers do.
    pub fn perturb_at(&self, k: u64) -> Perturbation {
        let mut rng = self.seed ^ k.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mut delta = Vec::with_capacity(self.params.len());
        let (mut plus, mut minus) = (Vec::new(), Vec::new());
        for (i, p) in self.params.iter().enumerate() {
            let d = if splitmix(&mut rng) & 1 == 0 {
                1.0
            } else {
                -1.0
            };
            let c = self.c_k(i, k);
            let send = |x: f64| x.clamp(p.min, p.max).round() as i64;
            plus.push(send(self.theta[i] + c * d));
            minus.push(send(self.theta[i] - c * d));
            delta.push(d);
        }
        Perturbation { delta, plus, minus }
    }

    /// Ends iteration `k + 1`: `result` is the points of `plus` less those of `minus` over
    /// its games (for a pair: −2 to +2).
    pub fn update(&mut self, p: &Perturbation, result: f64) {
        let k = self.k + 1;
        for i in 0..self.params.len() {
            let step = self.a_k(i, k) / self.c_k(i, k) * result * p.delta[i];
            let q = &self.params[i];
            self.theta[i] = (self.theta[i] + step).clamp(q.min, q.max);
        }
        self.k = k;
    }
}

/// The `[[param]]` tables of a parameters file.
#[derive(Serialize, Deserialize)]
struct ParamsFile {
    param: Vec<SpsaParam>,
}

/// Reads a parameters file: TOML, one `[[param]]` table per parameter (`name`, `value`, `min`,
/// `max`, optional `c_end` and `r_end`).
///
/// # Errors
/// A message when the text is not such a file or a parameter's range is empty.
pub fn parse_params(text: &str) -> Result<Vec<SpsaParam>, String> {
    let f: ParamsFile = toml::from_str(text).map_err(|e| e.to_string())?;
    for p in &f.param {
        if !(p.min < p.max && (p.min..=p.max).contains(&p.value)) {
            return Err(format!(
                "{}: value {} outside {}..{}",
                p.name, p.value, p.min, p.max
            ));
        }
    }
    Ok(f.param)
}

/// The parameters as a file [`parse_params`] reads.
pub fn params_text(params: &[SpsaParam]) -> String {
    toml::to_string(&ParamsFile {
        param: params.to_vec(),
    })
    .unwrap_or_default()
}

/// SplitMix64.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(name: &str, value: f64) -> SpsaParam {
        SpsaParam {
            name: name.into(),
            value,
            min: 0.0,
            max: 400.0,
            c_end: Some(20.0),
            r_end: Some(0.002),
        }
    }

    #[test]
    fn parameters_files_round_trip_and_bad_ranges_are_refused() {
        let ps = vec![
            param("Tune_a", 100.0),
            SpsaParam {
                c_end: None,
                r_end: None,
                ..param("Tune_b", 5.0)
            },
        ];
        assert_eq!(parse_params(&params_text(&ps)), Ok(ps));
        let bad = "[[param]]\nname = \"x\"\nvalue = 9.0\nmin = 0.0\nmax = 5.0\n";
        assert!(parse_params(bad).is_err());
        assert!(parse_params("nonsense").is_err());
    }

    #[test]
    fn schedules_end_at_c_end_and_r_end() {
        let s = Spsa::new(vec![param("a", 100.0)], 1000, 1);
        assert!((s.c_k(0, 1000) - 20.0).abs() < 1e-9);
        // The step per unit of result at the end is r_end · c_end.
        assert!((s.a_k(0, 1000) / s.c_k(0, 1000) - 0.002 * 20.0).abs() < 1e-9);
        // Both shrink as k grows.
        assert!(s.c_k(0, 1) > s.c_k(0, 500) && s.a_k(0, 1) > s.a_k(0, 500));
        // Fishtest's numbers: c_1 = c_end · N^γ.
        assert!((s.c_k(0, 1) - 20.0 * 1000f64.powf(0.101)).abs() < 1e-9);
    }

    #[test]
    fn a_win_for_plus_moves_every_parameter_toward_plus() {
        let mut s = Spsa::new(vec![param("a", 100.0), param("b", 200.0)], 100, 7);
        let p = s.perturb();
        assert_eq!(p.delta.len(), 2);
        for i in 0..2 {
            assert_eq!((p.plus[i] - p.minus[i]).signum() as f64, p.delta[i]);
        }
        let before = s.theta.clone();
        s.update(&p, 2.0);
        assert_eq!(s.k, 1);
        for ((t, b), d) in s.theta.iter().zip(&before).zip(&p.delta) {
            assert_eq!((t - b).signum(), *d);
        }
        // A drawn pair moves nothing.
        let q = s.perturb();
        let t = s.theta.clone();
        s.update(&q, 0.0);
        assert_eq!(s.theta, t);
    }

    #[test]
    fn a_batch_is_perturbed_around_one_value_and_differs_per_iteration() {
        let params: Vec<SpsaParam> = (0..16).map(|i| param(&format!("p{i}"), 100.0)).collect();
        let s = Spsa::new(params, 100, 3);
        assert_eq!(s.perturb_at(1), s.perturb());
        let (a, b) = (s.perturb_at(2), s.perturb_at(3));
        assert_ne!(a.delta, b.delta);
        // Both around the same theta: plus and minus are mirror images for each.
        for p in [&a, &b] {
            for i in 0..16 {
                assert_eq!(p.plus[i] + p.minus[i], 200, "{i}");
            }
        }
    }

    #[test]
    fn status_lists_each_parameter_with_its_move_in_c_end_units() {
        let mut s = Spsa::new(vec![param("Tune_a", 100.0)], 10, 1);
        s.theta[0] = 110.0;
        s.k = 3;
        let t = s.status();
        assert!(t.starts_with("3 of 10 iterations\n"), "{t}");
        let row = t.lines().nth(2).expect("a row");
        assert_eq!(
            row.split_whitespace().collect::<Vec<_>>(),
            ["Tune_a", "100", "110.0", "+0.50"]
        );
    }

    #[test]
    fn settings_stay_in_range_and_signs_follow_the_seed() {
        let mut s = Spsa::new(vec![param("a", 1.0)], 10, 3);
        for _ in 0..10 {
            let p = s.perturb();
            assert!(p.plus[0] >= 0 && p.minus[0] >= 0 && p.plus[0] <= 400);
            s.update(&p, -2.0 * p.delta[0]);
            assert!((0.0..=400.0).contains(&s.theta[0]));
        }
        let (a, b) = (
            Spsa::new(vec![param("a", 1.0)], 10, 3),
            Spsa::new(vec![param("a", 1.0)], 10, 3),
        );
        assert_eq!(a.perturb(), b.perturb());
        let signs = |seed| {
            let mut s = Spsa::new(
                (0..16).map(|i| param(&i.to_string(), 100.0)).collect(),
                10,
                seed,
            );
            s.k = 4;
            s.perturb().delta
        };
        assert_ne!(signs(1), signs(2));
    }
}
