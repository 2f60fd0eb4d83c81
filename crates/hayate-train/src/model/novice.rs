//! Novice's SE-ResNet: the 85-channel input of [`hayate_nn::novice`], 12×256 SE blocks by
//! default, and four heads.
//!
//! No public code of Novice exists (reference §3.2); the heads follow the seed:
//! - policy: `conv1x1(C→27)` + a 2187 bias, as dlshogi;
//! - value as win/draw/loss: `conv1x1(C→27)`, BN, act, `fc 2187→256`, act, `fc 256→3`;
//! - declaration (side to move can declare / opponent could / neither, the classes of
//!   [`hayate_nn::novice::DeclarationClass`]): channel means, `fc C→3`;
//! - effects: `conv1x1(C→2)`, one logit per square and side (`[2][9][9]`).
//!
//! Loss ([`NoviceNet::novice_loss`]): `−p′·log p − v′·log v − 0.1·d′·log d − 0.1·z′·log z
//! − 0.01·H(p)`, where `v′` is the result one-hot (win/draw/loss) mixed by λ with
//! `(value, 0, 1 − value)` from the eval, and `z′·log z` is the per-square binary cross-entropy
//! of the effects (mean over the 162 outputs).
//!
//! Parameters ([`NoviceConfig::param_count`]), with `C` channels, `N` blocks, `r` the SE
//! reduction: stem `85·9·C + 2C`, blocks `N·(18C² + 4C + 2C²/r)`, policy `27C + 2187`, value
//! `27C + 54 + 2187·256 + 256 + 256·3 + 3`, declaration `3C + 3`, effects `2C + 2`;
//! 12×256 (r = 8) has 15,139,273.

use super::PolicyValue;
use super::activation::Activation;
use super::resnet::{DlshogiNetConfig, POLICY_LABELS, POLICY_PLANES, ResBlock};
use crate::loss::{Losses, policy_cross_entropy};
use burn::module::{Module, Param};
use burn::nn::conv::{Conv2d, Conv2dConfig};
use burn::nn::{BatchNorm, BatchNormConfig, Linear, LinearConfig, PaddingConfig2d};
use burn::tensor::activation::{log_sigmoid, log_softmax, softmax};
use burn::tensor::{Device, Tensor};
use hayate_nn::novice::{DECLARATION_CLASSES, NOVICE_CHANNELS};
use serde::{Deserialize, Serialize};

/// The shape of a Novice network.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NoviceConfig {
    /// Residual blocks.
    pub blocks: usize,
    /// Channels.
    pub channels: usize,
    /// SE reduction.
    pub se_reduction: usize,
    /// Activation.
    pub activation: Activation,
}

impl Default for NoviceConfig {
    /// 12 blocks of 256 channels, SE reduction 8, swish.
    fn default() -> NoviceConfig {
        NoviceConfig {
            blocks: 12,
            channels: 256,
            se_reduction: 8,
            activation: Activation::Swish,
        }
    }
}

const FCL: usize = 256;

impl NoviceConfig {
    /// Trainable parameters (formula in the module doc).
    pub fn param_count(&self) -> usize {
        let c = self.channels;
        let r = self.se_reduction.max(1);
        NOVICE_CHANNELS * 9 * c
            + 2 * c
            + self.blocks * (18 * c * c + 4 * c + 2 * c * (c / r).max(1))
            + POLICY_PLANES * c
            + POLICY_LABELS
            + POLICY_PLANES * c
            + 2 * POLICY_PLANES
            + POLICY_LABELS * FCL
            + FCL
            + FCL * 3
            + 3
            + c * DECLARATION_CLASSES
            + DECLARATION_CLASSES
            + 2 * c
            + 2
    }

    /// Fresh weights on `device`.
    pub fn init(&self, device: &Device) -> NoviceNet {
        let c = self.channels;
        let conv = |i: usize, o: usize, k: usize| {
            let p = k / 2;
            Conv2dConfig::new([i, o], [k, k])
                .with_padding(PaddingConfig2d::Explicit(p, p, p, p))
                .with_bias(false)
                .init(device)
        };
        // The tower is dlshogi's SE block.
        let tower = DlshogiNetConfig {
            blocks: self.blocks,
            channels: c,
            activation: self.activation,
            se_reduction: Some(self.se_reduction.max(1)),
            input2: 1,
            fcl: FCL,
        }
        .init(device);
        NoviceNet {
            stem: conv(NOVICE_CHANNELS, c, 3),
            stem_bn: BatchNormConfig::new(c).init(device),
            blocks: tower.blocks,
            policy_conv: conv(c, POLICY_PLANES, 1),
            policy_bias: Param::from_tensor(Tensor::zeros([POLICY_LABELS], device)),
            value_conv: conv(c, POLICY_PLANES, 1),
            value_bn: BatchNormConfig::new(POLICY_PLANES).init(device),
            value_fc1: LinearConfig::new(POLICY_LABELS, FCL).init(device),
            value_fc2: LinearConfig::new(FCL, 3).init(device),
            declaration: LinearConfig::new(c, DECLARATION_CLASSES).init(device),
            effects: Conv2dConfig::new([c, 2], [1, 1]).init(device),
            activation: self.activation,
        }
    }
}

/// Novice's network (layout in the module doc).
#[derive(Module, Debug)]
pub struct NoviceNet {
    /// Stem 3×3 convolution on the 85 channels.
    pub stem: Conv2d,
    /// Stem batch norm.
    pub stem_bn: BatchNorm,
    /// SE residual tower.
    pub blocks: Vec<ResBlock>,
    /// Policy convolution.
    pub policy_conv: Conv2d,
    /// Policy bias.
    pub policy_bias: Param<Tensor<1>>,
    /// Value convolution.
    pub value_conv: Conv2d,
    /// Value batch norm.
    pub value_bn: BatchNorm,
    /// Value hidden layer.
    pub value_fc1: Linear,
    /// Win/draw/loss logits.
    pub value_fc2: Linear,
    /// Declaration logits from channel means.
    pub declaration: Linear,
    /// Effect logits, 2 planes.
    pub effects: Conv2d,
    /// Activation.
    #[module(skip)]
    pub activation: Activation,
}

/// The four heads' outputs (logits).
#[derive(Clone, Debug)]
pub struct NoviceOutput {
    /// Policy `[B, 2187]`.
    pub policy: Tensor<2>,
    /// Win/draw/loss `[B, 3]`.
    pub wdl: Tensor<2>,
    /// Declaration classes `[B, 3]`.
    pub declaration: Tensor<2>,
    /// Effects `[B, 162]` (`[2][9][9]` flattened).
    pub effects: Tensor<2>,
}

impl NoviceNet {
    /// Forward pass on `[B, 85, 9, 9]`.
    pub fn forward(&self, x: Tensor<4>) -> NoviceOutput {
        let act = self.activation;
        let mut x = act.apply(self.stem_bn.forward(self.stem.forward(x)));
        for b in &self.blocks {
            x = b.forward(x, act);
        }
        let [b, c, _, _] = x.dims();
        let policy = self
            .policy_conv
            .forward(x.clone())
            .reshape([b, POLICY_LABELS])
            + self.policy_bias.val().unsqueeze::<2>();
        let v = act.apply(self.value_bn.forward(self.value_conv.forward(x.clone())));
        let v = act.apply(self.value_fc1.forward(v.reshape([b, POLICY_LABELS])));
        let wdl = self.value_fc2.forward(v);
        let declaration = self
            .declaration
            .forward(x.clone().mean_dims(&[2, 3]).reshape([b, c]));
        let effects = self.effects.forward(x).reshape([b, 162]);
        NoviceOutput {
            policy,
            wdl,
            declaration,
            effects,
        }
    }

    /// Novice's loss (module doc). `wdl_target` `[B,3]`, `declaration` one-hot `[B,3]`,
    /// `effects` `[B,162]` in {0,1}.
    pub fn novice_loss(
        out: &NoviceOutput,
        policy_target: Tensor<2>,
        wdl_target: Tensor<2>,
        declaration: Tensor<2>,
        effects: Tensor<2>,
    ) -> Losses {
        let policy = policy_cross_entropy(out.policy.clone(), policy_target);
        let value = policy_cross_entropy(out.wdl.clone(), wdl_target);
        let decl = policy_cross_entropy(out.declaration.clone(), declaration);
        let z = out.effects.clone();
        // BCE with logits: −t·log σ(z) − (1−t)·log σ(−z).
        let eff = (effects.clone() * log_sigmoid(z.clone())
            + (effects.neg().add_scalar(1.0)) * log_sigmoid(z.neg()))
        .mean()
        .neg();
        let p = softmax(out.policy.clone(), 1);
        let entropy = (p * log_softmax(out.policy.clone(), 1))
            .sum_dim(1)
            .mean()
            .neg();
        let total = policy.clone() + value.clone() + decl.mul_scalar(0.1) + eff.mul_scalar(0.1)
            - entropy.mul_scalar(0.01);
        Losses {
            total,
            policy,
            value,
        }
    }

    /// The outputs the metrics read: policy logits and `log W − log L` as the value logit.
    pub fn policy_value(out: &NoviceOutput) -> PolicyValue {
        let [b, _] = out.wdl.dims();
        let l = log_softmax(out.wdl.clone(), 1);
        let value = l.clone().narrow(1, 0, 1) - l.narrow(1, 2, 1);
        PolicyValue {
            policy: out.policy.clone(),
            value: value.reshape([b, 1]),
        }
    }
}
