//! dlshogi's policy/value ResNet and SE-ResNet.
//!
//! Layout (`dlshogi/network/policy_value_network_resnet.py`, reference §1.5):
//! - stem: `conv3x3(62→C) + conv1x1(62→C) + conv1x1(57→C)`, all without bias, summed, then BN
//!   and the activation;
//! - `N` post-activation blocks `conv3x3-BN-act-conv3x3-BN[-SE], +x, act` (SE:
//!   `mean → fc C→C/r → act → fc C/r→C → sigmoid`, scaling the channels, no biases);
//! - policy head: `conv1x1(C→27)` without bias, flattened to 2187 (class-major, the label
//!   order), plus a learned bias of 2187;
//! - value head: `conv1x1(C→27)` without bias, BN, act, `fc 2187→fcl`, act, `fc fcl→1`: a logit
//!   (the exported graph adds the sigmoid).
//!
//! Parameter count ([`DlshogiNetConfig::param_count`]): with `C` channels, `N` blocks,
//! input2 planes `I2`, fcl `F` and SE reduction `r`:
//! `C·(62·9 + 62 + I2) + 2C` (stem) `+ N·(2·9C² + 4C [+ 2C²/r])` (blocks)
//! `+ 27C + 2187` (policy) `+ 27C + 54 + 2187·F + F + F + 1` (value).
//! `resnet10x192` (57 planes) has 7,346,562 parameters; `resnet10x128` 3,610,690.

use super::PolicyValue;
use super::activation::Activation;
use crate::error::TrainError;
use burn::module::{Module, Param};
use burn::nn::conv::{Conv2d, Conv2dConfig};
use burn::nn::{BatchNorm, BatchNormConfig, Linear, LinearConfig, PaddingConfig2d};
use burn::tensor::activation::sigmoid;
use burn::tensor::{Device, Tensor};
use serde::{Deserialize, Serialize};

/// dlshogi's input planes (`input1`).
pub const INPUT1: usize = hayate_nn::INPUT1_PLANES;
/// Policy planes of the head: 27 move classes × 81 squares = 2187 labels.
pub const POLICY_PLANES: usize = 27;
/// The 2187 policy labels.
pub const POLICY_LABELS: usize = hayate_nn::LABEL_NUM;

/// The shape of a dlshogi network.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DlshogiNetConfig {
    /// Residual blocks.
    pub blocks: usize,
    /// Channels of the trunk.
    pub channels: usize,
    /// Activation used everywhere.
    pub activation: Activation,
    /// Squeeze-excitation reduction (`Some(8)` for dlshogi's `senet`), `None` for a plain ResNet.
    pub se_reduction: Option<usize>,
    /// Planes of `input2`: 57, or 119 with the entering-king features.
    pub input2: usize,
    /// Hidden units of the value head's fully connected layer (256 in dlshogi).
    pub fcl: usize,
}

impl DlshogiNetConfig {
    /// A plain ResNet with dlshogi's defaults (57 input2 planes, fcl 256).
    pub fn resnet(blocks: usize, channels: usize, activation: Activation) -> DlshogiNetConfig {
        DlshogiNetConfig {
            blocks,
            channels,
            activation,
            se_reduction: None,
            input2: hayate_nn::INPUT2_PLANES,
            fcl: 256,
        }
    }

    /// Parses dlshogi-style names: `resnet10x192_swish`, `senet15x224`, `resnet10_swish`
    /// (default channels `{10:192, 15:224, 20:256, 30:384}`), `senet15_swish_reduction8`,
    /// and `_nyugyoku` for the 119-plane input2.
    ///
    /// # Errors
    /// [`TrainError::ModelName`] when the name does not parse.
    pub fn from_name(name: &str) -> Result<DlshogiNetConfig, TrainError> {
        let bad = || TrainError::ModelName(name.to_string());
        let mut parts = name.split('_');
        let head = parts.next().ok_or_else(bad)?;
        let (se, rest) = if let Some(r) = head.strip_prefix("resnet") {
            (false, r)
        } else if let Some(r) = head.strip_prefix("senet") {
            (true, r)
        } else {
            return Err(bad());
        };
        let (blocks, channels) = match rest.split_once('x') {
            Some((b, c)) => (b.parse().map_err(|_| bad())?, c.parse().map_err(|_| bad())?),
            None => {
                let b: usize = rest.parse().map_err(|_| bad())?;
                let c = match b {
                    10 => 192,
                    15 => 224,
                    20 => 256,
                    30 => 384,
                    _ => return Err(bad()),
                };
                (b, c)
            }
        };
        let mut cfg = DlshogiNetConfig::resnet(blocks, channels, Activation::Relu);
        if se {
            cfg.se_reduction = Some(8);
        }
        for p in parts {
            match p {
                "relu" => cfg.activation = Activation::Relu,
                "swish" => cfg.activation = Activation::Swish,
                "nyugyoku" => cfg.input2 = hayate_nn::INPUT2_PLANES_NYUGYOKU,
                _ => {
                    let r = p.strip_prefix("reduction").ok_or_else(bad)?;
                    let r: usize = r.parse().map_err(|_| bad())?;
                    if !se || r == 0 {
                        return Err(bad());
                    }
                    cfg.se_reduction = Some(r);
                }
            }
        }
        if cfg.blocks == 0 && cfg.channels == 0 {
            return Err(bad());
        }
        Ok(cfg)
    }

    /// The canonical name (`resnet10x192_relu`, `senet15x224_swish_reduction8`, …).
    pub fn name(&self) -> String {
        let mut s = format!(
            "{}{}x{}_{}",
            if self.se_reduction.is_some() {
                "senet"
            } else {
                "resnet"
            },
            self.blocks,
            self.channels,
            self.activation.name()
        );
        if let Some(r) = self.se_reduction {
            s.push_str(&format!("_reduction{r}"));
        }
        if self.input2 == hayate_nn::INPUT2_PLANES_NYUGYOKU {
            s.push_str("_nyugyoku");
        }
        s
    }

    /// Trainable parameters (formula in the module doc).
    pub fn param_count(&self) -> usize {
        let c = self.channels;
        let f = self.fcl;
        let stem = c * (INPUT1 * 9 + INPUT1 + self.input2) + 2 * c;
        let se = self.se_reduction.map_or(0, |r| 2 * c * (c / r));
        let blocks = self.blocks * (2 * 9 * c * c + 4 * c + se);
        let policy = POLICY_PLANES * c + POLICY_LABELS;
        let value = POLICY_PLANES * c + 2 * POLICY_PLANES + POLICY_LABELS * f + f + f + 1;
        stem + blocks + policy + value
    }

    /// Builds the network with fresh weights on `device`.
    pub fn init(&self, device: &Device) -> DlshogiNet {
        let c = self.channels;
        let conv = |i: usize, o: usize, k: usize| {
            let pad = k / 2;
            Conv2dConfig::new([i, o], [k, k])
                .with_padding(PaddingConfig2d::Explicit(pad, pad, pad, pad))
                .with_bias(false)
                .init(device)
        };
        let bn = |n: usize| BatchNormConfig::new(n).init(device);
        let blocks = (0..self.blocks)
            .map(|_| ResBlock {
                conv1: conv(c, c, 3),
                bn1: bn(c),
                conv2: conv(c, c, 3),
                bn2: bn(c),
                se: self.se_reduction.map(|r| SqueezeExcite {
                    fc1: LinearConfig::new(c, (c / r).max(1))
                        .with_bias(false)
                        .init(device),
                    fc2: LinearConfig::new((c / r).max(1), c)
                        .with_bias(false)
                        .init(device),
                }),
            })
            .collect();
        DlshogiNet {
            stem3: conv(INPUT1, c, 3),
            stem1: conv(INPUT1, c, 1),
            stem2: conv(self.input2, c, 1),
            stem_bn: bn(c),
            blocks,
            policy_conv: conv(c, POLICY_PLANES, 1),
            policy_bias: Param::from_tensor(Tensor::zeros([POLICY_LABELS], device)),
            value_conv: conv(c, POLICY_PLANES, 1),
            value_bn: bn(POLICY_PLANES),
            value_fc1: LinearConfig::new(POLICY_LABELS, self.fcl).init(device),
            value_fc2: LinearConfig::new(self.fcl, 1).init(device),
            activation: self.activation,
        }
    }
}

/// The squeeze-excitation layer of an SE block.
#[derive(Module, Debug)]
pub struct SqueezeExcite {
    /// `C → C/r`, no bias.
    pub fc1: Linear,
    /// `C/r → C`, no bias.
    pub fc2: Linear,
}

/// One post-activation residual block.
#[derive(Module, Debug)]
pub struct ResBlock {
    /// First 3×3 convolution.
    pub conv1: Conv2d,
    /// Its batch norm.
    pub bn1: BatchNorm,
    /// Second 3×3 convolution.
    pub conv2: Conv2d,
    /// Its batch norm.
    pub bn2: BatchNorm,
    /// Squeeze-excitation (SE-ResNet only).
    pub se: Option<SqueezeExcite>,
}

/// dlshogi's network (layout in the module doc).
#[derive(Module, Debug)]
pub struct DlshogiNet {
    /// Stem 3×3 convolution on input1.
    pub stem3: Conv2d,
    /// Stem 1×1 convolution on input1.
    pub stem1: Conv2d,
    /// Stem 1×1 convolution on input2.
    pub stem2: Conv2d,
    /// Stem batch norm.
    pub stem_bn: BatchNorm,
    /// The residual tower.
    pub blocks: Vec<ResBlock>,
    /// Policy 1×1 convolution to 27 planes.
    pub policy_conv: Conv2d,
    /// Policy bias over the 2187 labels.
    pub policy_bias: Param<Tensor<1>>,
    /// Value 1×1 convolution to 27 planes.
    pub value_conv: Conv2d,
    /// Value batch norm.
    pub value_bn: BatchNorm,
    /// Value hidden layer.
    pub value_fc1: Linear,
    /// Value output layer.
    pub value_fc2: Linear,
    /// The activation.
    #[module(skip)]
    pub activation: Activation,
}

impl DlshogiNet {
    /// Forward pass: `input1` `[B,62,9,9]`, `input2` `[B,I2,9,9]` → logits.
    pub fn forward(&self, input1: Tensor<4>, input2: Tensor<4>) -> PolicyValue {
        let act = self.activation;
        let stem = self.stem3.forward(input1.clone())
            + self.stem1.forward(input1)
            + self.stem2.forward(input2);
        let mut x = act.apply(self.stem_bn.forward(stem));
        for block in &self.blocks {
            x = block.forward(x, act);
        }
        let batch = x.dims()[0];
        let policy = self
            .policy_conv
            .forward(x.clone())
            .reshape([batch, POLICY_LABELS])
            + self.policy_bias.val().unsqueeze::<2>();
        let v = act.apply(self.value_bn.forward(self.value_conv.forward(x)));
        let v = act.apply(self.value_fc1.forward(v.reshape([batch, POLICY_LABELS])));
        let value = self.value_fc2.forward(v);
        PolicyValue { policy, value }
    }
}

impl ResBlock {
    pub(crate) fn forward(&self, x: Tensor<4>, act: Activation) -> Tensor<4> {
        let h = act.apply(self.bn1.forward(self.conv1.forward(x.clone())));
        let mut h = self.bn2.forward(self.conv2.forward(h));
        if let Some(se) = &self.se {
            let [b, c, _, _] = h.dims();
            let s = h.clone().mean_dims(&[2, 3]).reshape([b, c]);
            let s = sigmoid(se.fc2.forward(act.apply(se.fc1.forward(s))));
            h = h * s.reshape([b, c, 1, 1]);
        }
        act.apply(h + x)
    }
}
