//! A random but valid HalfKP net of any shape. For 256x2-32-32 it is byte-identical to
//! `shared/tools/gen_random_halfkp_nnbin.py` (same splitmix64 stream, same defaults), so tests
//! need no Python and no 64 MB fixture; other shapes continue the same stream through their
//! own layer sizes (the row padding of the file included).

use super::network::{pad32, write_header};
use super::shape::Shape;

/// Value ranges of the generator (its command-line options).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RandomNetParams {
    /// splitmix64 seed (`--seed`, default 20240601).
    pub seed: u64,
    /// Feature-transformer bias range `[-R, R]` (`--ft-bias`, 64).
    pub ft_bias: u32,
    /// Feature-transformer weight range (`--ft-weight`, 64).
    pub ft_weight: u32,
    /// First layer weight range (`--l1-weight`, 16).
    pub l1_weight: u32,
    /// Second layer weight range (`--l2-weight`, 16).
    pub l2_weight: u32,
    /// Output weight range (`--l3-weight`, 16).
    pub l3_weight: u32,
    /// i32 bias range of the three layers (`--bias32`, 1024).
    pub bias32: u32,
}

impl Default for RandomNetParams {
    fn default() -> Self {
        RandomNetParams {
            seed: 20240601,
            ft_bias: 64,
            ft_weight: 64,
            l1_weight: 16,
            l2_weight: 16,
            l3_weight: 16,
            bias32: 1024,
        }
    }
}

/// splitmix64 read as a stream of 16-bit chunks, low chunk first.
struct Chunks {
    state: u64,
    buf: u64,
    left: u32,
}

impl Chunks {
    fn next64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn chunk16(&mut self) -> u32 {
        if self.left == 0 {
            self.buf = self.next64();
            self.left = 4;
        }
        let c = (self.buf & 0xFFFF) as u32;
        self.buf >>= 16;
        self.left -= 1;
        c
    }
    /// A value in `[-r, r]`: `chunk % (2r + 1) - r`.
    fn value(&mut self, r: u32) -> i32 {
        (self.chunk16() % (2 * r + 1)) as i32 - r as i32
    }
}

impl RandomNetParams {
    /// Ranges that keep the clipped layers of `shape` working (neither all saturated nor all
    /// zero) on real positions, with `seed`. The first layer sums `2·half` inputs of about 64:
    /// its weight range shrinks as the layer widens, so that its sums stay near the ReLU's
    /// `0..127 << 6`; the second layer's range grows as it narrows. For 256x2-32-32 these are
    /// the Python generator's defaults but the first layer's range (4 against 16, whose sums
    /// saturate nearly every output).
    pub fn for_shape(shape: &Shape, seed: u64) -> RandomNetParams {
        RandomNetParams {
            seed,
            l1_weight: if shape.half <= 256 { 4 } else { 2 },
            l2_weight: (512 / shape.h1 as u32).clamp(16, 64),
            l3_weight: 64,
            ..RandomNetParams::default()
        }
    }
}

/// The bytes of the random HalfKP 256x2-32-32 net, exactly as the Python generator writes them.
pub fn random_net_bytes(p: &RandomNetParams) -> Vec<u8> {
    random_net_bytes_of(&Shape::HALFKP_256, p)
}

/// The bytes of a random net of `shape` (any classic feature set and sizes). Weight
/// rows are drawn whole, their padding to 32 inputs included (random there too: the padding
/// is never read, which the tests then check).
pub fn random_net_bytes_of(shape: &Shape, p: &RandomNetParams) -> Vec<u8> {
    let text_len = shape.text().len();
    let mut out = Vec::with_capacity(shape.file_size(text_len));
    let mut rng = Chunks {
        state: p.seed,
        buf: 0,
        left: 0,
    };
    write_header(&mut out, shape);
    for _ in 0..shape.half {
        out.extend_from_slice(&(rng.value(p.ft_bias) as i16).to_le_bytes());
    }
    for _ in 0..shape.half * shape.features.inputs() {
        out.extend_from_slice(&(rng.value(p.ft_weight) as i16).to_le_bytes());
    }
    out.extend_from_slice(&shape.net_hash().to_le_bytes());
    for (nin, nout, r) in [
        (2 * shape.half, shape.h1, p.l1_weight),
        (shape.h1, shape.h2, p.l2_weight),
        (shape.h2, 1, p.l3_weight),
    ] {
        for _ in 0..nout {
            out.extend_from_slice(&rng.value(p.bias32).to_le_bytes());
        }
        for _ in 0..nout * pad32(nin) {
            out.push(rng.value(r) as i8 as u8);
        }
    }
    out
}
