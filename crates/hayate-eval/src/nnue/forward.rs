//! From the two accumulator halves to the output: clipped ReLU, `2·HALF → H1 → H2 → 1`.

use super::arch::{FV_SCALE, VALUE_MAX_EVAL, WEIGHT_SCALE_BITS};
use super::features::Features;
use super::network::NetworkOf;
use crate::simd::{Isa, scalar};

/// Clipped ReLU of a hidden layer: `clamp(x >> 6, 0, 127)`.
#[inline(always)]
fn hidden_relu<const N: usize>(x: &[i32; N]) -> [u8; N] {
    std::array::from_fn(|i| (x[i] >> WEIGHT_SCALE_BITS).clamp(0, 127) as u8)
}

/// One affine layer on the AVX-512 VNNI kernel when its output count fits one (a multiple of
/// 16), else on the AVX2 kernel (the choice is made at compile time per shape).
///
/// # Safety
/// The CPU must support AVX2, AVX-512F, AVX-512BW and AVX-512 VNNI.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vnni")]
fn affine_vnni<const OUT: usize>(input: &[u8], w: &[i8], bias: &[i32; OUT]) -> [i32; OUT] {
    use crate::simd::{avx2, avx512vnni};
    if const { avx512vnni::takes(OUT) } {
        avx512vnni::affine(input, w, bias)
    } else {
        avx2::affine(input, w, bias)
    }
}

/// The raw network output for the side to move's half `stm` and the opponent's half `opp`.
#[inline]
pub fn raw_output<const HALF: usize, const H1: usize, const H2: usize, F: Features>(
    net: &NetworkOf<HALF, H1, H2, F>,
    isa: Isa,
    stm: &[i16; HALF],
    opp: &[i16; HALF],
) -> i32 {
    let mut x = [[0u8; HALF]; 2];
    let h2: [u8; H2] = match isa {
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => {
            use crate::simd::avx2;
            // SAFETY: an `Isa::Avx2` reaches here only after `Isa::is_available` said the CPU
            // has AVX2 (checked by `NnueOf::with_isa` and `Isa::detect`).
            unsafe {
                avx2::transform(stm, opp, &mut x);
                let h1 = hidden_relu(&avx2::affine(
                    x.as_flattened(),
                    &net.l1_weight,
                    &net.l1_bias,
                ));
                hidden_relu(&avx2::affine(&h1, &net.l2_weight, &net.l2_bias))
            }
        }
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512Vnni => {
            use crate::simd::avx2;
            // SAFETY: an `Isa::Avx512Vnni` reaches here only after `Isa::is_available` said
            // the CPU has AVX2, AVX-512F/BW and AVX-512 VNNI.
            unsafe {
                avx2::transform(stm, opp, &mut x);
                let h1 = hidden_relu(&affine_vnni(x.as_flattened(), &net.l1_weight, &net.l1_bias));
                hidden_relu(&avx2::affine(&h1, &net.l2_weight, &net.l2_bias))
            }
        }
        _ => {
            scalar::transform(stm, opp, &mut x);
            let h1 = hidden_relu(&scalar::affine(
                x.as_flattened(),
                &net.l1_weight,
                &net.l1_bias,
            ));
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
