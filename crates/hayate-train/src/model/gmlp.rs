//! prelude's gMLP: 95 token embeddings, gMLP blocks with spatial gating and no LayerNorm,
//! a policy over the 1496 compact labels and a value head.
//!
//! No public code of prelude exists (reference §3.1); this follows the appeal's description:
//! - input: [`hayate_nn::prelude`]'s 95 tokens (ids < 48), embedded to `d_model`, plus a
//!   learned position embedding `[95, d_model]`;
//! - block: `z = gelu(x·W1 + b1)` (`d_model → d_ffn`), split into halves `u, v`; the spatial
//!   gate mixes `v` across tokens, `v′[t] = Σ_s S[t,s]·v[s] + c[t]` (`S` starts at 0 and `c` at
//!   1, so a fresh block is near the identity gate); `x + (u ⊙ v′)·W2 + b2` (`d_ffn/2 → d_model`);
//! - policy: each of the 81 square tokens projects to 27 logits (`d_model → 27`), giving the
//!   2187 dlshogi labels class-major, of which the 1496 compact labels are kept;
//! - value: mean over tokens, `d_model → 256`, GELU, `256 → 1` (a logit).
//!
//! Parameters ([`GmlpConfig::param_count`]), with `d = d_model`, `f = d_ffn`, `L` blocks:
//! `48·d + 95·d + L·(d·f + f + 95² + 95 + f/2·d + d) + 27·d + 27 + d·256 + 256 + 257`;
//! the default 12 blocks of 256/512 have 2,587,548.

use super::PolicyValue;
use burn::module::{Module, Param};
use burn::nn::{Embedding, EmbeddingConfig, Linear, LinearConfig};
use burn::tensor::activation::gelu;
use burn::tensor::{Device, Int, Tensor, TensorData};
use hayate_nn::prelude::{PRELUDE_TOKENS, PRELUDE_VOCAB};
use serde::{Deserialize, Serialize};

/// The shape of a gMLP.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GmlpConfig {
    /// Blocks.
    pub blocks: usize,
    /// Token width.
    pub d_model: usize,
    /// Hidden width of a block (even; half gates the other half).
    pub d_ffn: usize,
}

impl Default for GmlpConfig {
    /// prelude's 12 blocks, d_model 256, d_ffn 512.
    fn default() -> GmlpConfig {
        GmlpConfig {
            blocks: 12,
            d_model: 256,
            d_ffn: 512,
        }
    }
}

/// Hidden units of the value head.
const VALUE_HIDDEN: usize = 256;

impl GmlpConfig {
    /// Trainable parameters (formula in the module doc).
    pub fn param_count(&self) -> usize {
        let (d, f, t) = (self.d_model, self.d_ffn, PRELUDE_TOKENS);
        PRELUDE_VOCAB * d
            + t * d
            + self.blocks * (d * f + f + t * t + t + f / 2 * d + d)
            + 27 * d
            + 27
            + d * VALUE_HIDDEN
            + VALUE_HIDDEN
            + VALUE_HIDDEN
            + 1
    }

    /// Fresh weights on `device`.
    pub fn init(&self, device: &Device) -> Gmlp {
        let (d, f, t) = (self.d_model, self.d_ffn, PRELUDE_TOKENS);
        let blocks = (0..self.blocks)
            .map(|_| GmlpBlock {
                proj_in: LinearConfig::new(d, f).init(device),
                spatial: Param::from_tensor(Tensor::zeros([t, t], device)),
                spatial_bias: Param::from_tensor(Tensor::ones([t], device)),
                proj_out: LinearConfig::new(f / 2, d).init(device),
            })
            .collect();
        let compact: Vec<i64> = (0..hayate_nn::COMPACT_LABEL_NUM as u16)
            .map(|c| i64::from(hayate_nn::full_label(c).unwrap_or(0)))
            .collect();
        Gmlp {
            embed: EmbeddingConfig::new(PRELUDE_VOCAB, d).init(device),
            position: Param::from_tensor(Tensor::zeros([t, d], device)),
            blocks,
            policy: LinearConfig::new(d, 27).init(device),
            value1: LinearConfig::new(d, VALUE_HIDDEN).init(device),
            value2: LinearConfig::new(VALUE_HIDDEN, 1).init(device),
            compact: Tensor::from_data(
                TensorData::new(compact, [hayate_nn::COMPACT_LABEL_NUM]),
                device,
            ),
        }
    }
}

/// One gMLP block.
#[derive(Module, Debug)]
pub struct GmlpBlock {
    /// `d_model → d_ffn`.
    pub proj_in: Linear,
    /// Token mixing `[95, 95]` of the spatial gate.
    pub spatial: Param<Tensor<2>>,
    /// Per-token bias of the spatial gate.
    pub spatial_bias: Param<Tensor<1>>,
    /// `d_ffn/2 → d_model`.
    pub proj_out: Linear,
}

/// prelude's gMLP (layout in the module doc).
#[derive(Module, Debug)]
pub struct Gmlp {
    /// Token embedding.
    pub embed: Embedding,
    /// Position embedding `[95, d_model]`.
    pub position: Param<Tensor<2>>,
    /// The blocks.
    pub blocks: Vec<GmlpBlock>,
    /// Per-square policy projection `d_model → 27`.
    pub policy: Linear,
    /// Value hidden layer.
    pub value1: Linear,
    /// Value output.
    pub value2: Linear,
    /// Full label of each compact label (a constant, not trained).
    #[module(skip)]
    pub compact: Tensor<1, Int>,
}

impl GmlpBlock {
    fn forward(&self, x: Tensor<3>) -> Tensor<3> {
        let [b, t, _] = x.dims();
        let z = gelu(self.proj_in.forward(x.clone()));
        let f = z.dims()[2];
        let h = f / 2;
        let u = z.clone().narrow(2, 0, h);
        let v = z.narrow(2, h, h);
        // v′[b,t,:] = Σ_s S[t,s]·v[b,s,:] + c[t], as one 2-D product over (b, channel) rows.
        let vt = v.swap_dims(1, 2).reshape([b * h, t]);
        let mixed = vt.matmul(self.spatial.val().transpose()).reshape([b, h, t]);
        let mixed = mixed.swap_dims(1, 2) + self.spatial_bias.val().reshape([1, t, 1]);
        x + self.proj_out.forward(u * mixed)
    }
}

impl Gmlp {
    /// Forward pass: tokens `[B, 95]` → policy logits `[B, 1496]`, value logit `[B, 1]`.
    pub fn forward(&self, tokens: Tensor<2, Int>) -> PolicyValue {
        let [b, t] = tokens.dims();
        let mut x = self.embed.forward(tokens) + self.position.val().unsqueeze::<3>();
        for blk in &self.blocks {
            x = blk.forward(x);
        }
        let d = x.dims()[2];
        let squares = x.clone().narrow(1, 0, 81);
        let p = self
            .policy
            .forward(squares)
            .swap_dims(1, 2)
            .reshape([b, 27 * 81]);
        let policy = p.select(1, self.compact.clone());
        let pooled = x.mean_dim(1).reshape([b, d]);
        let value = self.value2.forward(gelu(self.value1.forward(pooled)));
        let _ = t;
        PolicyValue { policy, value }
    }
}
