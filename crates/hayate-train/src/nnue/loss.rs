//! The loss: cross-entropy between win rates, with the game result blended in.
//!
//! The prediction is `p = sigmoid(600 y / scale)` (`600 y` is the eval), the target
//! `t = λ sigmoid(score / scale) + (1 - λ) result`. λ weighs the *evaluation*, as in
//! YaneuraOu's learner and nnue-pytorch (bullet's `wdl` is the weight of the result, the
//! opposite). The reported loss is the cross-entropy minus the target's entropy (0 when the
//! prediction equals the target); the gradient is the cross-entropy's.

use super::features::Sample;
use super::model::EVAL_PER_Y;
use serde::{Deserialize, Serialize};

/// The loss's constants.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct LossConfig {
    /// Eval units per logit of win rate (600 YaneuraOu's, 361 nodchip's).
    pub scale: f32,
    /// Weight of the evaluation in the target (1 pure eval, 0 pure result).
    pub lambda: f32,
}

impl Default for LossConfig {
    fn default() -> Self {
        LossConfig {
            scale: 600.0,
            lambda: 1.0,
        }
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// `ln(1 + e^x)` without overflow.
fn softplus(x: f32) -> f32 {
    if x > 0.0 {
        x + (-x).exp().ln_1p()
    } else {
        x.exp().ln_1p()
    }
}

/// `t ln t + (1 - t) ln(1 - t)` (0 at the ends).
fn neg_entropy(t: f32) -> f32 {
    let f = |v: f32| if v > 0.0 { v * v.ln() } else { 0.0 };
    f(t) + f(1.0 - t)
}

impl LossConfig {
    /// The target win rate of `s`.
    pub fn target(&self, s: &Sample) -> f32 {
        self.lambda * sigmoid(s.score as f32 / self.scale) + (1.0 - self.lambda) * s.result()
    }

    /// The loss of output `y` on `s`, and its derivative by `y`.
    pub fn loss(&self, y: f32, s: &Sample) -> (f32, f32) {
        let k = EVAL_PER_Y / self.scale;
        let u = k * y;
        let t = self.target(s);
        let ce = t * softplus(-u) + (1.0 - t) * softplus(u);
        (ce + neg_entropy(t), (sigmoid(u) - t) * k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hayate_core::Position;

    #[test]
    fn loss_is_zero_at_the_target_and_gradient_matches_differences() {
        let pos = Position::startpos();
        let s = Sample::new(&pos, 300, 1).expect("kings");
        let c = LossConfig {
            scale: 600.0,
            lambda: 0.7,
        };
        // Pure eval target: the loss vanishes where 600 y equals the score.
        let pure = LossConfig { lambda: 1.0, ..c };
        let (l, g) = pure.loss(0.5, &s);
        assert!(l.abs() < 1e-6 && g.abs() < 1e-6, "{l} {g}");
        // λ = 0.7 blends 0.7 * sigmoid(0.5) + 0.3 * 1.
        let t = 0.7 / (1.0 + (-0.5f32).exp()) + 0.3;
        assert!((c.target(&s) - t).abs() < 1e-6);
        for y in [-2.0f32, -0.3, 0.0, 0.4, 3.0] {
            let (_, g) = c.loss(y, &s);
            let e = 1e-3;
            let fd = (c.loss(y + e, &s).0 - c.loss(y - e, &s).0) / (2.0 * e);
            assert!((g - fd).abs() < 1e-3, "y {y}: {g} vs {fd}");
        }
    }
}
