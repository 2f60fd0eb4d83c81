//! Quantisation to a standard `nn.bin` and back.
//!
//! Feature transformer: int16, ×127. Hidden layers: int8 weights ×64, int32 biases ×127·64
//! (= 8128, plus [`HIDDEN_ROUNDING`]). Output: int8 weights ×9600/127 and an int32 bias ×9600, so that the engine's raw
//! output is `9600 y` and FV_SCALE 16 gives the eval `600 y`. The factor rows are folded into
//! every HalfKP row they belong to. The bytes come from [`Network::to_bytes`], the same layout
//! the loader reads (and `shared/tools/gen_random_halfkp_nnbin.py` writes).

use super::features::{FACTOR_ROWS, ft_rows};
use super::model::{DENSE_LEN, FT_B, L1_B, L1_W, L2_B, L2_W, Model, OUT_B, OUT_W};
use crate::error::TrainError;
use hayate_eval::nnue::Network;
use hayate_eval::nnue::arch::{FE_END, HALF, HIDDEN, INPUTS, L1_IN};
use std::ops::Range;
use std::path::Path;

/// Feature-transformer scale (an output of 1.0 is 127).
pub const FT_SCALE: f32 = 127.0;
/// Hidden weight scale.
pub const HIDDEN_SCALE: f32 = 64.0;
/// Hidden bias scale (127 · 64).
pub const HIDDEN_BIAS_SCALE: f32 = FT_SCALE * HIDDEN_SCALE;
/// Raw engine output per unit of `y` (600 · FV_SCALE 16).
pub const OUT_BIAS_SCALE: f32 = 9600.0;
/// Output weight scale (the hidden outputs are already ×127).
pub const OUT_SCALE: f32 = OUT_BIAS_SCALE / FT_SCALE;

/// Added to the int32 hidden biases at export (taken off at import): the engine's `>> 6`
/// floors, and half a step makes it round, so that the exported net has no downward bias.
pub const HIDDEN_ROUNDING: i32 = 1 << 5;

/// Largest magnitude of a float bias whose int32 form is safe (far beyond any real net).
const BIAS_LIMIT: f32 = 1.0e5;

/// The dense blocks and the magnitude each may reach so that quantisation never saturates.
pub fn dense_limits() -> [(Range<usize>, f32); 7] {
    [
        (FT_B..L1_W, i16::MAX as f32 / FT_SCALE),
        (L1_W..L1_B, 127.0 / HIDDEN_SCALE),
        (L1_B..L2_W, BIAS_LIMIT),
        (L2_W..L2_B, 127.0 / HIDDEN_SCALE),
        (L2_B..OUT_W, BIAS_LIMIT),
        (OUT_W..OUT_B, 127.0 / OUT_SCALE),
        (OUT_B..DENSE_LEN, BIAS_LIMIT),
    ]
}

/// The limit of a feature-transformer weight (int16 after ×127).
pub const FT_LIMIT: f32 = i16::MAX as f32 / FT_SCALE;

fn q16(x: f32) -> i16 {
    (x * FT_SCALE)
        .round()
        .clamp(i16::MIN as f32, i16::MAX as f32) as i16
}

fn q8(x: f32, scale: f32) -> i8 {
    (x * scale).round().clamp(-127.0, 127.0) as i8
}

fn q32(x: f32, scale: f32) -> i32 {
    (x as f64 * scale as f64).round() as i32
}

/// The `[out][in]` int8 matrix of an input-major float block.
fn hidden_rows(w: &[f32], nin: usize) -> Vec<i8> {
    let mut out = vec![0i8; HIDDEN * nin];
    for i in 0..nin {
        for o in 0..HIDDEN {
            out[o * nin + i] = q8(w[i * HIDDEN + o], HIDDEN_SCALE);
        }
    }
    out
}

/// The quantised network (factor rows folded in).
pub fn to_network(m: &Model) -> Network {
    let d = &m.dense;
    let mut ft = vec![0i16; INPUTS * HALF];
    for (f, row) in ft.chunks_exact_mut(HALF).enumerate() {
        let w = m.ft_row(f);
        if m.factorised {
            let p = m.ft_row(INPUTS + f % FE_END);
            let k = m.ft_row(INPUTS + FE_END + f / FE_END);
            for (q, ((&a, &b), &c)) in row.iter_mut().zip(w.iter().zip(p).zip(k)) {
                *q = q16(a + b + c);
            }
        } else {
            for (q, &x) in row.iter_mut().zip(w) {
                *q = q16(x);
            }
        }
    }
    Network::from_rows(
        std::array::from_fn(|j| q16(d[FT_B + j])),
        ft,
        std::array::from_fn(|o| q32(d[L1_B + o], HIDDEN_BIAS_SCALE) + HIDDEN_ROUNDING),
        &hidden_rows(&d[L1_W..L1_B], L1_IN),
        std::array::from_fn(|o| q32(d[L2_B + o], HIDDEN_BIAS_SCALE) + HIDDEN_ROUNDING),
        &hidden_rows(&d[L2_W..L2_B], HIDDEN),
        q32(d[OUT_B], OUT_BIAS_SCALE),
        std::array::from_fn(|k| q8(d[OUT_W + k], OUT_SCALE)),
    )
}

/// The float model of a quantised network (for fine-tuning); the factor rows, if asked for,
/// start at zero.
pub fn from_network(net: &Network, factorised: bool) -> Model {
    let mut ft = vec![0.0f32; ft_rows(factorised) * HALF];
    for (w, &q) in ft.iter_mut().zip(net.ft_weight.iter()) {
        *w = q as f32 / FT_SCALE;
    }
    debug_assert_eq!(
        ft.len() - INPUTS * HALF,
        if factorised { FACTOR_ROWS * HALF } else { 0 }
    );
    let mut d = vec![0.0f32; DENSE_LEN];
    for j in 0..HALF {
        d[FT_B + j] = net.ft_bias[j] as f32 / FT_SCALE;
    }
    for (block, rows, nin) in [(L1_W, net.l1_rows(), L1_IN), (L2_W, net.l2_rows(), HIDDEN)] {
        for o in 0..HIDDEN {
            for i in 0..nin {
                d[block + i * HIDDEN + o] = rows[o * nin + i] as f32 / HIDDEN_SCALE;
            }
        }
    }
    for o in 0..HIDDEN {
        d[L1_B + o] = (net.l1_bias[o] - HIDDEN_ROUNDING) as f32 / HIDDEN_BIAS_SCALE;
        d[L2_B + o] = (net.l2_bias[o] - HIDDEN_ROUNDING) as f32 / HIDDEN_BIAS_SCALE;
        d[OUT_W + o] = net.out_weight[o] as f32 / OUT_SCALE;
    }
    d[OUT_B] = net.out_bias as f32 / OUT_BIAS_SCALE;
    Model {
        ft,
        dense: d,
        factorised,
    }
}

/// Rounds the hidden and output weights of `dense` to the grids the export puts them on (int8
/// ×64 and ×9600/127). Quantisation-aware training takes each step's gradient there.
pub fn round_to_grid(dense: &mut [f32]) {
    for (range, scale) in [
        (L1_W..L1_B, HIDDEN_SCALE),
        (L2_W..L2_B, HIDDEN_SCALE),
        (OUT_W..OUT_B, OUT_SCALE),
    ] {
        for w in &mut dense[range] {
            *w = q8(*w, scale) as f32 / scale;
        }
    }
}

/// Reads an `nn.bin` into a float model.
///
/// # Errors
/// When the file cannot be read or is not a HalfKP 256x2-32-32 net.
pub fn load_nnbin(path: &Path, factorised: bool) -> Result<Model, TrainError> {
    let bytes = std::fs::read(path).map_err(|e| TrainError::io(path, e))?;
    let net = Network::from_bytes(&bytes)
        .map_err(|e| TrainError::Config(format!("{}: {e}", path.display())))?;
    Ok(from_network(&net, factorised))
}

/// Writes the quantised model to `path` (via a temporary file and a rename).
///
/// # Errors
/// When the file cannot be written.
pub fn write_nnbin(path: &Path, m: &Model) -> Result<(), TrainError> {
    crate::checkpoint::write_file_atomically(path, &to_network(m).to_bytes())
}
