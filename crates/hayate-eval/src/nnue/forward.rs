//! From the two accumulator halves to the output: clipped ReLU, 512→32→32→1.

use super::arch::{FV_SCALE, HALF, HIDDEN, VALUE_MAX_EVAL, WEIGHT_SCALE_BITS};
use super::network::Network;
use crate::simd::{Isa, scalar};

/// Clipped ReLU of a hidden layer: `clamp(x >> 6, 0, 127)`.
#[inline(always)]
fn hidden_relu(x: &[i32; HIDDEN]) -> [u8; HIDDEN] {
    std::array::from_fn(|i| (x[i] >> WEIGHT_SCALE_BITS).clamp(0, 127) as u8)
}

/// The raw network output for the side to move's half `stm` and the opponent's half `opp`.
#[inline]
pub fn raw_output(net: &Network, isa: Isa, stm: &[i16; HALF], opp: &[i16; HALF]) -> i32 {
    let mut x = [0u8; 2 * HALF];
    let h2 = match isa {
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => {
            use crate::simd::avx2;
            // SAFETY: an `Isa::Avx2` reaches here only after `Isa::is_available` said the CPU
            // has AVX2 (checked by `Nnue::with_isa` and `Isa::detect`).
            unsafe {
                avx2::transform(stm, opp, &mut x);
                let h1 = hidden_relu(&avx2::affine(&x, &net.l1_weight, &net.l1_bias));
                hidden_relu(&avx2::affine(&h1, &net.l2_weight, &net.l2_bias))
            }
        }
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512Vnni => {
            use crate::simd::{avx2, avx512vnni};
            // SAFETY: an `Isa::Avx512Vnni` reaches here only after `Isa::is_available` said
            // the CPU has AVX2, AVX-512F/BW and AVX-512 VNNI.
            unsafe {
                avx2::transform(stm, opp, &mut x);
                let h1 = hidden_relu(&avx512vnni::affine(&x, &net.l1_weight, &net.l1_bias));
                hidden_relu(&avx2::affine(&h1, &net.l2_weight, &net.l2_bias))
            }
        }
        _ => {
            scalar::transform(stm, opp, &mut x);
            let h1 = hidden_relu(&scalar::affine(&x, &net.l1_weight, &net.l1_bias));
            hidden_relu(&scalar::affine(&h1, &net.l2_weight, &net.l2_bias))
        }
    };
    let mut out = net.out_bias;
    for (&h, &w) in h2.iter().zip(&net.out_weight) {
        out += h as i32 * w as i32;
    }
    out
}

/// The evaluation from a raw output: truncating division by the scale, clamped.
#[inline(always)]
pub fn scale(raw: i32) -> i32 {
    (raw / FV_SCALE).clamp(-VALUE_MAX_EVAL, VALUE_MAX_EVAL)
}
