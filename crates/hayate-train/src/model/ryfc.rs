//! Ryfamate's cross network (RyfcNet): a residual network whose blocks mix three kinds of
//! layers, with dlshogi's inputs, stem and heads.
//!
//! No public code exists (reference §3.3); this is our reading of the appeal:
//! - **S**: an ordinary 3×3 convolution (`C→C`, no bias);
//! - **F**: a per-channel full connection across the 81 squares (`[C, 81, 81]` weights, each
//!   channel its own 81×81 matrix), i.e. spatial mixing without a kernel;
//! - **C**: "kernels that span the full length" of ranks and files: each channel mixes the 9
//!   squares of its file and the 9 squares of its rank with position-dependent weights
//!   (`[C, 9, 9]` along files + `[C, 9, 9]` along ranks, no sliding), followed by a 1×1
//!   convolution that mixes channels;
//! - a learned position embedding `[C, 9, 9]` is added to the input of each S and C layer;
//! - each layer is followed by BN, and all but the last of a block by the activation; the block
//!   adds its input and applies the activation (post-activation, as dlshogi's blocks).
//!
//! The block recipe is a string over `S`, `C`, `F` (default `SCSF`). Parameters
//! ([`RyfcConfig::param_count`]): dlshogi's stem and heads plus, per layer, `2C` (BN) and
//! S: `9C² + 81C`; C: `162C + C² + 81C`; F: `6561C`.

use super::PolicyValue;
use super::activation::Activation;
use super::resnet::{DlshogiNetConfig, INPUT1, POLICY_LABELS, POLICY_PLANES};
use crate::error::TrainError;
use burn::module::{Module, Param};
use burn::nn::conv::{Conv2d, Conv2dConfig};
use burn::nn::{BatchNorm, BatchNormConfig, Linear, PaddingConfig2d};
use burn::tensor::{Device, Distribution, Tensor};
use serde::{Deserialize, Serialize};

/// The shape of a RyfcNet.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RyfcConfig {
    /// Blocks.
    pub blocks: usize,
    /// Channels.
    pub channels: usize,
    /// Layers of each block, over `S`, `C`, `F`.
    pub recipe: String,
    /// Activation.
    pub activation: Activation,
    /// Planes of input2 (57 or 119).
    pub input2: usize,
}

impl Default for RyfcConfig {
    /// 6 blocks of `SCSF`, 128 channels, swish.
    fn default() -> RyfcConfig {
        RyfcConfig {
            blocks: 6,
            channels: 128,
            recipe: "SCSF".into(),
            activation: Activation::Swish,
            input2: hayate_nn::INPUT2_PLANES,
        }
    }
}

/// A layer kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LayerKind {
    /// 3×3 convolution.
    S,
    /// Whole-rank / whole-file mixing.
    C,
    /// Per-channel full connection over the squares.
    F,
}

impl RyfcConfig {
    /// The recipe's layer kinds.
    ///
    /// # Errors
    /// [`TrainError::Config`] on an empty recipe or a letter other than S, C, F.
    pub fn layers(&self) -> Result<Vec<LayerKind>, TrainError> {
        let kinds: Vec<LayerKind> = self
            .recipe
            .chars()
            .map(|ch| match ch.to_ascii_uppercase() {
                'S' => Ok(LayerKind::S),
                'C' => Ok(LayerKind::C),
                'F' => Ok(LayerKind::F),
                _ => Err(TrainError::Config(format!("RyfcNet recipe letter {ch:?}"))),
            })
            .collect::<Result<_, _>>()?;
        if kinds.is_empty() {
            return Err(TrainError::Config("empty RyfcNet recipe".into()));
        }
        Ok(kinds)
    }

    fn heads(&self) -> DlshogiNetConfig {
        DlshogiNetConfig {
            blocks: 0,
            channels: self.channels,
            activation: self.activation,
            se_reduction: None,
            input2: self.input2,
            fcl: 256,
        }
    }

    /// Trainable parameters (formula in the module doc); 0 for an invalid recipe.
    pub fn param_count(&self) -> usize {
        let c = self.channels;
        let per_block: usize = self.layers().map_or(0, |ls| {
            ls.iter()
                .map(|k| {
                    2 * c
                        + match k {
                            LayerKind::S => 9 * c * c + 81 * c,
                            LayerKind::C => 162 * c + c * c + 81 * c,
                            LayerKind::F => 6561 * c,
                        }
                })
                .sum()
        });
        self.heads().param_count() + self.blocks * per_block
    }

    /// Fresh weights on `device`.
    ///
    /// # Errors
    /// On an invalid recipe.
    pub fn init(&self, device: &Device) -> Result<RyfcNet, TrainError> {
        let kinds = self.layers()?;
        let c = self.channels;
        let base = self.heads().init(device);
        let small = |dims: [usize; 3], std: f64| {
            Param::from_tensor(Tensor::random(dims, Distribution::Normal(0.0, std), device))
        };
        let blocks = (0..self.blocks)
            .map(|_| RyfcBlock {
                layers: kinds
                    .iter()
                    .map(|k| RyfcLayer {
                        conv: (*k == LayerKind::S).then(|| {
                            Conv2dConfig::new([c, c], [3, 3])
                                .with_padding(PaddingConfig2d::Explicit(1, 1, 1, 1))
                                .with_bias(false)
                                .init(device)
                        }),
                        files: (*k == LayerKind::C).then(|| small([c, 9, 9], 1.0 / 3.0)),
                        ranks: (*k == LayerKind::C).then(|| small([c, 9, 9], 1.0 / 3.0)),
                        mix: (*k == LayerKind::C).then(|| {
                            Conv2dConfig::new([c, c], [1, 1])
                                .with_bias(false)
                                .init(device)
                        }),
                        full: (*k == LayerKind::F).then(|| small([c, 81, 81], 1.0 / 9.0)),
                        position: (*k != LayerKind::F)
                            .then(|| Param::from_tensor(Tensor::zeros([c, 9, 9], device))),
                        bn: BatchNormConfig::new(c).init(device),
                    })
                    .collect(),
            })
            .collect();
        Ok(RyfcNet {
            stem3: base.stem3,
            stem1: base.stem1,
            stem2: base.stem2,
            stem_bn: base.stem_bn,
            blocks,
            policy_conv: base.policy_conv,
            policy_bias: base.policy_bias,
            value_conv: base.value_conv,
            value_bn: base.value_bn,
            value_fc1: base.value_fc1,
            value_fc2: base.value_fc2,
            activation: self.activation,
        })
    }
}

/// One layer; exactly the fields of its kind are present.
#[derive(Module, Debug)]
pub struct RyfcLayer {
    /// S: the 3×3 convolution.
    pub conv: Option<Conv2d>,
    /// C: per-channel mixing along files `[C, 9(out file), 9(in file)]`.
    pub files: Option<Param<Tensor<3>>>,
    /// C: per-channel mixing along ranks `[C, 9(out rank), 9(in rank)]`.
    pub ranks: Option<Param<Tensor<3>>>,
    /// C: the channel-mixing 1×1 convolution.
    pub mix: Option<Conv2d>,
    /// F: per-channel full connection `[C, 81(out), 81(in)]`.
    pub full: Option<Param<Tensor<3>>>,
    /// S and C: the position embedding added to the input.
    pub position: Option<Param<Tensor<3>>>,
    /// Batch norm after the layer.
    pub bn: BatchNorm,
}

/// One residual block.
#[derive(Module, Debug)]
pub struct RyfcBlock {
    /// Its layers, in recipe order.
    pub layers: Vec<RyfcLayer>,
}

/// The cross network (layout in the module doc).
#[derive(Module, Debug)]
pub struct RyfcNet {
    /// Stem 3×3 convolution on input1.
    pub stem3: Conv2d,
    /// Stem 1×1 convolution on input1.
    pub stem1: Conv2d,
    /// Stem 1×1 convolution on input2.
    pub stem2: Conv2d,
    /// Stem batch norm.
    pub stem_bn: BatchNorm,
    /// The blocks.
    pub blocks: Vec<RyfcBlock>,
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
    /// Value output.
    pub value_fc2: Linear,
    /// Activation.
    #[module(skip)]
    pub activation: Activation,
}

/// `y[b,c,i,·] = Σ_j w[c,i,j]·x[b,c,j,·]` along axis 2 (files) of `[B,C,9,9]`.
fn mix_files(x: Tensor<4>, w: Tensor<3>) -> Tensor<4> {
    let [b, c, _, _] = x.dims();
    // [C, 9(file), B·9(rank)] so that each channel is one matrix product.
    let xs = x.swap_dims(0, 1).swap_dims(1, 2).reshape([c, 9, b * 9]);
    let y = w.matmul(xs).reshape([c, 9, b, 9]);
    y.swap_dims(1, 2).swap_dims(0, 1)
}

impl RyfcLayer {
    fn forward(&self, x: Tensor<4>) -> Tensor<4> {
        let [b, c, _, _] = x.dims();
        let x = match &self.position {
            Some(p) => x + p.val().unsqueeze::<4>(),
            None => x,
        };
        let y = if let Some(conv) = &self.conv {
            conv.forward(x)
        } else if let (Some(f), Some(r), Some(mix)) = (&self.files, &self.ranks, &self.mix) {
            let along_files = mix_files(x.clone(), f.val());
            let along_ranks = mix_files(x.swap_dims(2, 3), r.val()).swap_dims(2, 3);
            mix.forward(along_files + along_ranks)
        } else if let Some(full) = &self.full {
            // [C, 81, B] per channel: W[c] (81×81) times the channel's squares.
            let xs = x.reshape([b, c, 81]).swap_dims(0, 1).swap_dims(1, 2);
            full.val()
                .matmul(xs)
                .swap_dims(1, 2)
                .swap_dims(0, 1)
                .reshape([b, c, 9, 9])
        } else {
            x
        };
        self.bn.forward(y)
    }
}

impl RyfcNet {
    /// Forward pass: dlshogi's inputs → policy logits `[B,2187]`, value logit `[B,1]`.
    pub fn forward(&self, input1: Tensor<4>, input2: Tensor<4>) -> PolicyValue {
        let act = self.activation;
        let stem = self.stem3.forward(input1.clone())
            + self.stem1.forward(input1)
            + self.stem2.forward(input2);
        let mut x = act.apply(self.stem_bn.forward(stem));
        for block in &self.blocks {
            let mut h = x.clone();
            let n = block.layers.len();
            for (i, l) in block.layers.iter().enumerate() {
                h = l.forward(h);
                if i + 1 < n {
                    h = act.apply(h);
                }
            }
            x = act.apply(h + x);
        }
        let batch = x.dims()[0];
        let policy = self
            .policy_conv
            .forward(x.clone())
            .reshape([batch, POLICY_LABELS])
            + self.policy_bias.val().unsqueeze::<2>();
        let v = act.apply(self.value_bn.forward(self.value_conv.forward(x)));
        let v = act.apply(self.value_fc1.forward(v.reshape([batch, POLICY_LABELS])));
        PolicyValue {
            policy,
            value: self.value_fc2.forward(v),
        }
    }
}

const _: () = assert!(POLICY_PLANES * 81 == POLICY_LABELS && INPUT1 == 62);
