//! Adam with weight clipping. The feature transformer is updated lazily: only the rows a
//! batch touched get a step (their moments included), the rest stay as they are. After each
//! step a weight is clamped to the range its quantised form can hold ([`super::export`]), so
//! that export never saturates.

use super::export::dense_limits;
use super::model::DENSE_LEN;
use serde::{Deserialize, Serialize};

/// Adam's constants.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct AdamConfig {
    /// First-moment decay.
    pub beta1: f32,
    /// Second-moment decay.
    pub beta2: f32,
    /// Denominator guard.
    pub eps: f32,
}

impl Default for AdamConfig {
    fn default() -> Self {
        AdamConfig {
            beta1: 0.9,
            beta2: 0.999,
            eps: 1e-8,
        }
    }
}

/// Adam's moments for every parameter, and the step count.
#[derive(Clone, Debug, PartialEq)]
pub struct AdamState {
    /// First moments of the feature-transformer weights (same layout).
    pub ft_m: Vec<f32>,
    /// Second moments of the feature-transformer weights.
    pub ft_v: Vec<f32>,
    /// First moments of the dense parameters.
    pub dense_m: Vec<f32>,
    /// Second moments of the dense parameters.
    pub dense_v: Vec<f32>,
    /// Steps taken.
    pub t: u64,
}

/// One step's rate with both bias corrections folded in.
#[derive(Clone, Copy, Debug)]
pub struct StepRate {
    rate: f32,
    cfg: AdamConfig,
}

impl AdamState {
    /// Zero moments for `ft_len` feature-transformer weights.
    pub fn new(ft_len: usize) -> AdamState {
        AdamState {
            ft_m: vec![0.0; ft_len],
            ft_v: vec![0.0; ft_len],
            dense_m: vec![0.0; DENSE_LEN],
            dense_v: vec![0.0; DENSE_LEN],
            t: 0,
        }
    }

    /// Starts step `t + 1` at learning rate `lr`.
    pub fn begin_step(&mut self, cfg: AdamConfig, lr: f64) -> StepRate {
        self.t += 1;
        let t = self.t as i32;
        let c1 = 1.0 - (cfg.beta1 as f64).powi(t);
        let c2 = 1.0 - (cfg.beta2 as f64).powi(t);
        StepRate {
            rate: (lr * c2.sqrt() / c1) as f32,
            cfg,
        }
    }

    /// The dense step with gradient `g`, clamped per block.
    pub fn step_dense(&mut self, r: StepRate, w: &mut [f32], g: &[f32]) {
        for (range, limit) in dense_limits() {
            update(
                r,
                &mut w[range.clone()],
                &mut self.dense_m[range.clone()],
                &mut self.dense_v[range.clone()],
                &g[range],
                limit,
            );
        }
    }
}

/// Adam on one slice of weights with their moments and gradient, then `|w| <= limit`.
#[inline]
pub fn update(r: StepRate, w: &mut [f32], m: &mut [f32], v: &mut [f32], g: &[f32], limit: f32) {
    let AdamConfig { beta1, beta2, eps } = r.cfg;
    for (((w, m), v), &g) in w.iter_mut().zip(m).zip(v).zip(g) {
        *m = beta1 * *m + (1.0 - beta1) * g;
        *v = beta2 * *v + (1.0 - beta2) * g * g;
        *w = (*w - r.rate * *m / (v.sqrt() + eps)).clamp(-limit, limit);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_step_moves_by_the_rate_and_clips() {
        let mut s = AdamState::new(0);
        let r = s.begin_step(AdamConfig::default(), 0.1);
        // Step 1 with bias correction: m̂ = g, v̂ = g², so Δw = -lr·sign(g).
        let (mut w, mut m, mut v) = ([0.0f32, 1.0, 1.95], [0.0; 3], [0.0; 3]);
        update(r, &mut w, &mut m, &mut v, &[2.0, -0.5, -1.0], 2.0);
        assert!(
            (w[0] + 0.1).abs() < 1e-5 && (w[1] - 1.1).abs() < 1e-5,
            "{w:?}"
        );
        assert_eq!(w[2], 2.0, "clamped to the limit");
    }
}
