//! Learning-rate schedules: constant, linear warm-up then cosine decay, and step decay.

use serde::{Deserialize, Serialize};

/// How the learning rate moves with the step number.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Schedule {
    /// The base rate throughout.
    Constant,
    /// Linear warm-up from 0 over `warmup` steps, then cosine decay to `min_lr` at the last step.
    WarmupCosine {
        /// Warm-up steps.
        warmup: u64,
        /// Rate at the end.
        min_lr: f64,
    },
    /// Multiply by `gamma` every `every` steps.
    Step {
        /// Steps between decays.
        every: u64,
        /// Decay factor.
        gamma: f64,
    },
}

impl Schedule {
    /// The rate for `step` (0-based) of `total`, with base rate `lr`.
    pub fn lr(&self, lr: f64, step: u64, total: u64) -> f64 {
        match *self {
            Schedule::Constant => lr,
            Schedule::WarmupCosine { warmup, min_lr } => {
                if step < warmup {
                    lr * (step + 1) as f64 / warmup as f64
                } else {
                    let span = total.saturating_sub(warmup).max(1) as f64;
                    let t = ((step - warmup) as f64 / span).min(1.0);
                    min_lr + 0.5 * (lr - min_lr) * (1.0 + (std::f64::consts::PI * t).cos())
                }
            }
            Schedule::Step { every, gamma } => lr * gamma.powi((step / every.max(1)) as i32),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warmup_cosine_shape() {
        let s = Schedule::WarmupCosine {
            warmup: 10,
            min_lr: 0.0,
        };
        assert!((s.lr(1.0, 0, 110) - 0.1).abs() < 1e-12);
        assert!((s.lr(1.0, 9, 110) - 1.0).abs() < 1e-12);
        assert!((s.lr(1.0, 10, 110) - 1.0).abs() < 1e-12);
        assert!((s.lr(1.0, 60, 110) - 0.5).abs() < 1e-12);
        assert!(s.lr(1.0, 110, 110).abs() < 1e-12);
    }

    #[test]
    fn step_decay() {
        let s = Schedule::Step {
            every: 100,
            gamma: 0.5,
        };
        assert_eq!(s.lr(0.1, 99, 1000), 0.1);
        assert_eq!(s.lr(0.1, 250, 1000), 0.025);
    }
}
