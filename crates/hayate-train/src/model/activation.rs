//! The activation functions the networks use.

use burn::tensor::Tensor;
use burn::tensor::activation::{relu, silu};
use serde::{Deserialize, Serialize};

/// An activation: ReLU or swish (SiLU, `x·σ(x)`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Activation {
    /// `max(0, x)`.
    #[default]
    Relu,
    /// `x·σ(x)` (dlshogi's `_swish` models; exported as `Sigmoid` + `Mul`).
    Swish,
}

impl Activation {
    /// Applies the activation.
    pub fn apply<const D: usize>(self, x: Tensor<D>) -> Tensor<D> {
        match self {
            Activation::Relu => relu(x),
            Activation::Swish => silu(x),
        }
    }

    /// The name used in model names (`relu`, `swish`).
    pub fn name(self) -> &'static str {
        match self {
            Activation::Relu => "relu",
            Activation::Swish => "swish",
        }
    }
}
