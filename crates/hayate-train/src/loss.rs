//! dlshogi's losses: policy cross-entropy against soft targets, value binary cross-entropy
//! against the game result and the eval-derived value mixed by λ.

use crate::model::PolicyValue;
use burn::tensor::Tensor;
use burn::tensor::activation::{log_softmax, relu};

/// The loss terms of a batch (each a one-element tensor, mean over the batch).
#[derive(Clone, Debug)]
pub struct Losses {
    /// `policy + value`, what is minimised.
    pub total: Tensor<1>,
    /// Policy cross-entropy `−Σ p′·log softmax(z)`.
    pub policy: Tensor<1>,
    /// Value BCE `(1−λ)·BCE(v, result) + λ·BCE(v, eval value)`.
    pub value: Tensor<1>,
}

/// Policy cross-entropy against soft targets: `mean_b(−Σ_i target[b,i]·log_softmax(logits)[b,i])`.
pub fn policy_cross_entropy(logits: Tensor<2>, target: Tensor<2>) -> Tensor<1> {
    let logp = log_softmax(logits, 1);
    (logp * target).sum_dim(1).mean().neg()
}

/// Binary cross-entropy of `sigmoid(logits)` against `target` in [0, 1], in the stable form
/// `max(x,0) − x·t + log(1 + e^(−|x|))`, averaged.
pub fn bce_with_logits(logits: Tensor<1>, target: Tensor<1>) -> Tensor<1> {
    let soft = logits.clone().abs().neg().exp().add_scalar(1.0).log();
    (relu(logits.clone()) - logits * target + soft).mean()
}

/// dlshogi's loss. BCE is linear in its target, so mixing the result and the eval value by λ
/// before one BCE equals `(1−λ)·BCE(result) + λ·BCE(value)`.
pub fn dlshogi_loss(
    out: &PolicyValue,
    policy_target: Tensor<2>,
    result: Tensor<1>,
    value: Tensor<1>,
    lambda: f32,
) -> Losses {
    let policy = policy_cross_entropy(out.policy.clone(), policy_target);
    let target = result.mul_scalar(1.0 - lambda) + value.mul_scalar(lambda);
    let [b, _] = out.value.dims();
    let value = bce_with_logits(out.value.clone().reshape([b]), target);
    Losses {
        total: policy.clone() + value.clone(),
        policy,
        value,
    }
}
