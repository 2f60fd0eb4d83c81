//! Optimisers (SGD with momentum/Nesterov/weight decay, AdamW) and global gradient-norm
//! clipping.

use burn::module::{Module, ModuleVisitor, Param};
use burn::optim::decay::WeightDecayConfig;
use burn::optim::momentum::MomentumConfig;
use burn::optim::{AdamWConfig, GradientsParams, ModuleOptimizer, SgdConfig};
use burn::tensor::Tensor;
use serde::{Deserialize, Serialize};

/// Which optimiser, with its hyper-parameters (the learning rate comes from the schedule).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum OptimizerConfig {
    /// SGD as in PyTorch (no dampening): dlshogi uses momentum 0.9, Nesterov, weight decay 1e-4.
    Sgd {
        /// Momentum factor (0 for plain SGD).
        momentum: f32,
        /// Nesterov momentum.
        nesterov: bool,
        /// L2 penalty added to the gradient.
        weight_decay: f32,
    },
    /// AdamW (decoupled weight decay).
    AdamW {
        /// First-moment decay.
        beta1: f32,
        /// Second-moment decay.
        beta2: f32,
        /// Decoupled weight decay.
        weight_decay: f32,
    },
}

impl OptimizerConfig {
    /// dlshogi's `train.py` default: SGD, momentum 0.9, Nesterov, weight decay 1e-4.
    pub fn dlshogi_sgd() -> OptimizerConfig {
        OptimizerConfig::Sgd {
            momentum: 0.9,
            nesterov: true,
            weight_decay: 1e-4,
        }
    }

    /// Builds burn's optimiser (its own per-tensor clipping is not used: see [`clip_grad_norm`]).
    pub fn init(&self) -> ModuleOptimizer {
        match *self {
            OptimizerConfig::Sgd {
                momentum,
                nesterov,
                weight_decay,
            } => {
                let mut cfg = SgdConfig::new();
                if momentum > 0.0 {
                    cfg = cfg.with_momentum(Some(
                        MomentumConfig::new()
                            .with_momentum(f64::from(momentum))
                            .with_dampening(0.0)
                            .with_nesterov(nesterov),
                    ));
                }
                if weight_decay > 0.0 {
                    cfg = cfg.with_weight_decay(Some(WeightDecayConfig::new(weight_decay)));
                }
                cfg.init()
            }
            OptimizerConfig::AdamW {
                beta1,
                beta2,
                weight_decay,
            } => AdamWConfig::new()
                .with_beta_1(beta1)
                .with_beta_2(beta2)
                .with_epsilon(1e-8)
                .with_weight_decay(weight_decay)
                .init(),
        }
    }
}

/// Scales all gradients together so that their global L2 norm is at most `max_norm`, as
/// PyTorch's `clip_grad_norm_` (burn's own clipping works per tensor). Returns the norm before
/// clipping.
pub fn clip_grad_norm<M: Module>(module: &M, grads: &mut GradientsParams, max_norm: f32) -> f32 {
    struct SumSquares<'a> {
        grads: &'a GradientsParams,
        sum: f64,
    }
    impl ModuleVisitor for SumSquares<'_> {
        fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
            if let Some(g) = self.grads.get::<D>(param.id) {
                self.sum += f64::from(g.powi_scalar(2).sum().into_scalar::<f32>());
            }
        }
    }
    struct Scale<'a> {
        grads: &'a mut GradientsParams,
        factor: f32,
    }
    impl ModuleVisitor for Scale<'_> {
        fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
            if let Some(g) = self.grads.remove::<D>(param.id) {
                self.grads.register(param.id, g.mul_scalar(self.factor));
            }
        }
    }
    let mut s = SumSquares { grads, sum: 0.0 };
    module.visit(&mut s);
    let norm = s.sum.sqrt() as f32;
    if norm > max_norm && norm.is_finite() {
        let factor = max_norm / (norm + 1e-6);
        module.visit(&mut Scale { grads, factor });
    }
    norm
}
