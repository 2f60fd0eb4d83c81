//! Dirichlet noise on the root's priors (AlphaZero's self-play exploration): each prior becomes
//! `(1 − ε)·p + ε·η` with `η ~ Dir(α)` over the root's moves. AlphaZero used α = 0.15 for shogi
//! (about 10 / the typical number of legal moves) and ε = 0.25.

use crate::node::Edge;
use hayate_nn::dataset::shuffle::SplitMix64;

/// The noise's two constants.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RootNoise {
    /// Concentration of the Dirichlet distribution (smaller: spikier noise).
    pub alpha: f32,
    /// Share of the noise in the mixed prior (0: off).
    pub epsilon: f32,
}

/// A uniform draw in `(0, 1)`.
fn uniform(rng: &mut SplitMix64) -> f64 {
    ((rng.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64
}

/// A standard normal draw (Box–Muller).
fn normal(rng: &mut SplitMix64) -> f64 {
    let (u, v) = (uniform(rng), uniform(rng));
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

/// A Gamma(`shape`, 1) draw: Marsaglia and Tsang's method, with the `U^(1/shape)` boost for
/// shapes below 1.
fn gamma(shape: f64, rng: &mut SplitMix64) -> f64 {
    if shape < 1.0 {
        return gamma(shape + 1.0, rng) * uniform(rng).powf(1.0 / shape);
    }
    let d = shape - 1.0 / 3.0;
    let c = 1.0 / (9.0 * d).sqrt();
    loop {
        let x = normal(rng);
        let v = (1.0 + c * x).powi(3);
        if v <= 0.0 {
            continue;
        }
        let u = uniform(rng);
        if u.ln() < 0.5 * x * x + d - d * v + d * v.ln() {
            return d * v;
        }
    }
}

/// `n` weights drawn from a symmetric Dirichlet distribution with concentration `alpha`; they
/// sum to 1 (all equal when every gamma draw underflows).
pub fn dirichlet(alpha: f32, n: usize, rng: &mut SplitMix64) -> Vec<f32> {
    let g: Vec<f64> = (0..n)
        .map(|_| gamma(f64::from(alpha.max(1e-3)), rng))
        .collect();
    let sum: f64 = g.iter().sum();
    if sum <= 0.0 || !sum.is_finite() {
        return vec![1.0 / n.max(1) as f32; n];
    }
    g.iter().map(|&x| (x / sum) as f32).collect()
}

/// Mixes fresh noise into the priors of `edges`.
pub fn mix(edges: &mut [Edge], noise: RootNoise, rng: &mut SplitMix64) {
    if noise.epsilon <= 0.0 || edges.is_empty() {
        return;
    }
    let eta = dirichlet(noise.alpha, edges.len(), rng);
    let eps = noise.epsilon.min(1.0);
    for (e, n) in edges.iter_mut().zip(eta) {
        e.prior = (1.0 - eps) * e.prior + eps * n;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hayate_core::Position;

    #[test]
    fn dirichlet_weights_sum_to_one_with_the_right_spread() {
        let mut rng = SplitMix64::new(7);
        let n = 80;
        let (mut max_sum, mut trials) = (0.0f64, 0);
        for _ in 0..200 {
            let w = dirichlet(0.15, n, &mut rng);
            let s: f32 = w.iter().sum();
            assert!((s - 1.0).abs() < 1e-4, "sum {s}");
            assert!(w.iter().all(|&x| (0.0..=1.0).contains(&x)));
            max_sum += f64::from(w.iter().cloned().fold(0.0, f32::max));
            trials += 1;
        }
        // With α = 0.15 over 80 moves the largest share averages about 0.3 (spiky); with a
        // flat distribution it would be 1/80.
        let mean_max = max_sum / trials as f64;
        assert!((0.15..0.6).contains(&mean_max), "mean largest {mean_max}");
        // Large α: nearly uniform.
        let w = dirichlet(100.0, 10, &mut rng);
        assert!(w.iter().all(|&x| (0.07..0.13).contains(&x)), "{w:?}");
    }

    #[test]
    fn gamma_has_its_mean() {
        let mut rng = SplitMix64::new(3);
        for shape in [0.15, 0.5, 1.0, 3.0] {
            let n = 20_000;
            let mean: f64 = (0..n).map(|_| gamma(shape, &mut rng)).sum::<f64>() / n as f64;
            assert!(
                (mean - shape).abs() < 0.05 * shape.max(1.0),
                "{shape}: {mean}"
            );
        }
    }

    #[test]
    fn mixed_priors_stay_a_distribution() {
        let pos = Position::startpos();
        let moves = pos.legal_moves();
        let p = 1.0 / moves.len() as f32;
        let mut edges: Vec<Edge> = moves.iter().map(|&m| Edge::new(m, p)).collect();
        let mut rng = SplitMix64::new(11);
        let noise = RootNoise {
            alpha: 0.15,
            epsilon: 0.25,
        };
        mix(&mut edges, noise, &mut rng);
        let s: f32 = edges.iter().map(|e| e.prior).sum();
        assert!((s - 1.0).abs() < 1e-4);
        assert!(edges.iter().all(|e| e.prior >= 0.75 * p - 1e-6));
        assert!(
            edges.iter().any(|e| e.prior > 2.0 * p),
            "noise moved something"
        );
    }
}
