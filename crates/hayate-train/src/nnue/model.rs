//! The float HalfKP 256x2-32-32 model: weights, seeded initialisation and the forward pass.
//!
//! Units follow the quantised file so that export is a plain scaling: a feature-transformer
//! output of 1.0 is 127 in the engine, hidden weights of 1.0 are 64, and the output `y` is
//! `eval / 600` (the engine's raw output is `9600 y`, and FV_SCALE 16 divides it back to
//! `600 y`). The feature transformer and the hidden layers are clipped to `[0, 1]`.
//!
//! Dense parameters live in one vector (offsets below) so that the optimiser, the gradient
//! reduction and the checkpoint treat them as one block. Hidden weights are stored
//! input-major (`[in][out]`), so a layer is a sum of rows scaled by its (often zero) inputs.

use super::features::{MAX_ROWS, Sample, ft_rows};
use hayate_eval::nnue::arch::{HALF, HIDDEN, L1_IN};

/// Offset of the feature-transformer biases in the dense vector.
pub const FT_B: usize = 0;
/// Offset of the first layer's weights (`[512][32]`).
pub const L1_W: usize = FT_B + HALF;
/// Offset of the first layer's biases.
pub const L1_B: usize = L1_W + L1_IN * HIDDEN;
/// Offset of the second layer's weights (`[32][32]`).
pub const L2_W: usize = L1_B + HIDDEN;
/// Offset of the second layer's biases.
pub const L2_B: usize = L2_W + HIDDEN * HIDDEN;
/// Offset of the output weights.
pub const OUT_W: usize = L2_B + HIDDEN;
/// Offset of the output bias.
pub const OUT_B: usize = OUT_W + HIDDEN;
/// Length of the dense vector.
pub const DENSE_LEN: usize = OUT_B + 1;

/// Columns of the feature transformer summed together (eight AVX2 registers).
const FT_BLOCK: usize = 64;

/// Engine units per unit of `y` (the eval of `y = 1`).
pub const EVAL_PER_Y: f32 = 600.0;

/// The model's parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// Feature-transformer weights, row-major `[rows][256]` (HalfKP rows, then the factor
    /// rows when factorised).
    pub ft: Vec<f32>,
    /// Everything else (offsets in this module).
    pub dense: Vec<f32>,
    /// Whether the factor rows exist.
    pub factorised: bool,
}

/// The intermediate values of one forward pass (kept for the backward pass).
#[derive(Clone, Debug)]
pub struct Activations {
    /// Feature-transformer sums, side to move first.
    pub acc: [[f32; HALF]; 2],
    /// Clipped feature-transformer outputs (the first layer's input).
    pub x: [f32; L1_IN],
    /// First layer before and after clipping.
    pub z1: [f32; HIDDEN],
    /// First layer outputs.
    pub h1: [f32; HIDDEN],
    /// Second layer before clipping.
    pub z2: [f32; HIDDEN],
    /// Second layer outputs.
    pub h2: [f32; HIDDEN],
    /// The output.
    pub y: f32,
}

impl Default for Activations {
    fn default() -> Self {
        Activations {
            acc: [[0.0; HALF]; 2],
            x: [0.0; L1_IN],
            z1: [0.0; HIDDEN],
            h1: [0.0; HIDDEN],
            z2: [0.0; HIDDEN],
            h2: [0.0; HIDDEN],
            y: 0.0,
        }
    }
}

/// SplitMix64: the initialisation's generator.
pub(crate) fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A uniform value in `[-r, r)`.
fn uniform(state: &mut u64, r: f32) -> f32 {
    let u = (splitmix(state) >> 40) as f32 / (1u64 << 24) as f32;
    (2.0 * u - 1.0) * r
}

/// `y += a * x` over equal-length slices (vectorised by the compiler).
#[inline(always)]
pub fn axpy(y: &mut [f32], a: f32, x: &[f32]) {
    for (y, &x) in y.iter_mut().zip(x) {
        *y += a * x;
    }
}

/// Dot product with eight partial sums, so that the compiler can vectorise it.
#[inline(always)]
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut s = [0.0f32; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f32 = ca
        .remainder()
        .iter()
        .zip(cb.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in ca.zip(cb) {
        for ((s, &a), &b) in s.iter_mut().zip(x).zip(y) {
            *s += a * b;
        }
    }
    s.iter().sum::<f32>() + tail
}

/// A hidden layer: `bias + Σ input[i] · w[i]` over the non-zero inputs, `w` input-major. The
/// sums are a local array, so that they stay in registers.
#[inline(always)]
fn layer(bias: &[f32], w: &[f32], input: &[f32]) -> [f32; HIDDEN] {
    let mut z = [0.0f32; HIDDEN];
    z.copy_from_slice(bias);
    for (&x, row) in input.iter().zip(w.chunks_exact(HIDDEN)) {
        if x != 0.0 {
            for (z, &w) in z.iter_mut().zip(row) {
                *z += x * w;
            }
        }
    }
    z
}

/// `x` clipped to `[0, 1]`.
#[inline(always)]
fn clip01(x: f32) -> f32 {
    x.clamp(0.0, 1.0)
}

impl Model {
    /// A model with every parameter zero.
    pub fn zeros(factorised: bool) -> Model {
        Model {
            ft: vec![0.0; ft_rows(factorised) * HALF],
            dense: vec![0.0; DENSE_LEN],
            factorised,
        }
    }

    /// A seeded model: small uniform feature weights, feature biases at 0.5 and hidden biases
    /// at 0.5 (so that the clipped units start in their linear range), hidden weights uniform
    /// in `±1/sqrt(fan-in)`, output bias 0. Factor rows start at zero.
    pub fn new(seed: u64, factorised: bool) -> Model {
        let mut rng = seed ^ 0x4E4E_5545_4E4E_5545;
        let Model {
            mut ft, mut dense, ..
        } = Model::zeros(factorised);
        for w in &mut ft[..ft_rows(false) * HALF] {
            *w = uniform(&mut rng, 0.01);
        }
        dense[FT_B..L1_W].fill(0.5);
        let r1 = 1.0 / (L1_IN as f32).sqrt();
        let r2 = 1.0 / (HIDDEN as f32).sqrt();
        for w in &mut dense[L1_W..L1_B] {
            *w = uniform(&mut rng, r1);
        }
        dense[L1_B..L2_W].fill(0.5);
        for w in &mut dense[L2_W..L2_B] {
            *w = uniform(&mut rng, r2);
        }
        dense[L2_B..OUT_W].fill(0.5);
        for w in &mut dense[OUT_W..OUT_B] {
            *w = uniform(&mut rng, r2);
        }
        Model {
            ft,
            dense,
            factorised,
        }
    }

    /// The feature-transformer row `r`.
    #[inline(always)]
    pub fn ft_row(&self, r: usize) -> &[f32] {
        &self.ft[r * HALF..(r + 1) * HALF]
    }

    /// `acc = bias + Σ rows`, a block of [`FT_BLOCK`] columns at a time so that the block's
    /// sums stay in registers while the rows stream by.
    #[inline]
    fn ft_sum(&self, bias: &[f32], rows: &[u32], acc: &mut [f32; HALF]) {
        for b in (0..HALF).step_by(FT_BLOCK) {
            let mut sum = [0.0f32; FT_BLOCK];
            sum.copy_from_slice(&bias[b..b + FT_BLOCK]);
            for &r in rows {
                let row = &self.ft[r as usize * HALF + b..r as usize * HALF + b + FT_BLOCK];
                for (v, &w) in sum.iter_mut().zip(row) {
                    *v += w;
                }
            }
            acc[b..b + FT_BLOCK].copy_from_slice(&sum);
        }
    }

    /// The first layer's weights output-major (`[32][512]`): the backward pass takes the
    /// gradient of its inputs as a sum of these rows scaled by the (often zero) output
    /// gradients. Derived once per step.
    pub fn l1_transposed(&self) -> Vec<f32> {
        let mut t = vec![0.0; L1_IN * HIDDEN];
        for (i, row) in self.dense[L1_W..L1_B].chunks_exact(HIDDEN).enumerate() {
            for (k, &w) in row.iter().enumerate() {
                t[k * L1_IN + i] = w;
            }
        }
        t
    }

    /// The forward pass of `s` into `a`; returns `y` (the eval is `600 y`).
    pub fn forward(&self, s: &Sample, a: &mut Activations) -> f32 {
        let d = &self.dense;
        let mut rows = [0u32; MAX_ROWS];
        for slot in 0..2 {
            let acc = &mut a.acc[slot];
            let n = s.rows(slot, self.factorised, &mut rows);
            self.ft_sum(&d[FT_B..L1_W], &rows[..n], acc);
            for (x, &v) in a.x[slot * HALF..(slot + 1) * HALF]
                .iter_mut()
                .zip(acc.iter())
            {
                *x = clip01(v);
            }
        }
        a.z1 = layer(&d[L1_B..L2_W], &d[L1_W..L1_B], &a.x);
        for (h, &z) in a.h1.iter_mut().zip(&a.z1) {
            *h = clip01(z);
        }
        a.z2 = layer(&d[L2_B..OUT_W], &d[L2_W..L2_B], &a.h1);
        for (h, &z) in a.h2.iter_mut().zip(&a.z2) {
            *h = clip01(z);
        }
        a.y = d[OUT_B] + dot(&a.h2, &d[OUT_W..OUT_B]);
        a.y
    }

    /// The evaluation of `s` in engine units (`600 y`), side to move's view.
    pub fn evaluate(&self, s: &Sample) -> f32 {
        EVAL_PER_Y * self.forward(s, &mut Activations::default())
    }
}
