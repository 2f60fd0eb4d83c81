//! A random but valid HalfKP net, byte-identical to `shared/tools/gen_random_halfkp_nnbin.py`
//! (same splitmix64 stream, same defaults), so tests need no Python and no 64 MB fixture.

use super::arch::{ARCH_TEXT, HALF, HIDDEN, INPUTS, L1_IN, L2_IN, NET_HASH};
use super::network::write_header;

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

/// The bytes of the random net, exactly as the Python generator writes them.
pub fn random_net_bytes(p: &RandomNetParams) -> Vec<u8> {
    let mut out = Vec::with_capacity(super::arch::file_size(ARCH_TEXT.len()));
    let mut rng = Chunks {
        state: p.seed,
        buf: 0,
        left: 0,
    };
    write_header(&mut out);
    for _ in 0..HALF {
        out.extend_from_slice(&(rng.value(p.ft_bias) as i16).to_le_bytes());
    }
    for _ in 0..HALF * INPUTS {
        out.extend_from_slice(&(rng.value(p.ft_weight) as i16).to_le_bytes());
    }
    out.extend_from_slice(&NET_HASH.to_le_bytes());
    for (nin, nout, r) in [
        (L1_IN, HIDDEN, p.l1_weight),
        (L2_IN, HIDDEN, p.l2_weight),
        (L2_IN, 1, p.l3_weight),
    ] {
        for _ in 0..nout {
            out.extend_from_slice(&rng.value(p.bias32).to_le_bytes());
        }
        for _ in 0..nout * nin {
            out.push(rng.value(r) as i8 as u8);
        }
    }
    out
}
