//! AVX-512 VNNI kernel for the affine layers, bit-identical to [`super::scalar`].
//!
//! `vpdpbusd` adds four u8×i8 products to an i32 lane in one instruction without intermediate
//! saturation, replacing AVX2's `maddubs` + `madd` + `add`. The accumulator update and the
//! clipped ReLU of the feature transformer stay on the AVX2 kernels.

use crate::nnue::arch::HIDDEN;
use std::arch::x86_64::*;

/// A 32-output affine layer with permuted weights (see [`super::scalar::affine`]); zero 32-byte
/// input blocks are skipped. Four independent accumulator chains hide the latency of
/// `vpdpbusd`; integer addition is associative, so the result is exact.
///
/// # Safety
/// The CPU must support AVX2, AVX-512F, AVX-512BW and AVX-512 VNNI.
#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vnni")]
pub fn affine(input: &[u8], w: &[i8], bias: &[i32; HIDDEN]) -> [i32; HIDDEN] {
    let chunks = input.len() / 4;
    assert!(input.len().is_multiple_of(32) && w.len() >= chunks * HIDDEN * 4);
    // acc[c][h]: chain c (chunk index mod 4), outputs 16h..16h+16.
    let mut acc = [[_mm512_setzero_si512(); 2]; 4];
    for (b, block) in input.chunks_exact(32).enumerate() {
        // SAFETY: `block` has exactly 32 bytes; loadu needs no alignment.
        let v = unsafe { _mm256_loadu_si256(block.as_ptr().cast()) };
        // Skip whole zero blocks; within a block every chunk is processed (no branch per chunk).
        if _mm256_testz_si256(v, v) != 0 {
            continue;
        }
        let wb = &w[b * 8 * HIDDEN * 4..(b + 1) * 8 * HIDDEN * 4];
        for (k, x) in block.chunks_exact(4).enumerate() {
            let xv = i32::from_le_bytes([x[0], x[1], x[2], x[3]]);
            dot_chunk(
                &mut acc[k % 4],
                xv,
                &wb[k * HIDDEN * 4..(k + 1) * HIDDEN * 4],
            );
        }
    }
    let mut out = *bias;
    #[allow(clippy::needless_range_loop)] // h indexes both `acc` rows and `out` halves
    for h in 0..2 {
        let s = _mm512_add_epi32(
            _mm512_add_epi32(acc[0][h], acc[1][h]),
            _mm512_add_epi32(acc[2][h], acc[3][h]),
        );
        // SAFETY: `out` has 32 i32; half h covers out[16h..16h+16].
        let b = unsafe { _mm512_loadu_si512(out.as_ptr().add(16 * h).cast()) };
        // SAFETY: as above.
        unsafe { _mm512_storeu_si512(out.as_mut_ptr().add(16 * h).cast(), _mm512_add_epi32(b, s)) };
    }
    out
}

/// `a += x · W` for one input chunk `x` (4 bytes) and its 128 weight bytes.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
fn dot_chunk(a: &mut [__m512i; 2], x: i32, wj: &[i8]) {
    assert!(wj.len() == HIDDEN * 4);
    let xv = _mm512_set1_epi32(x);
    // SAFETY: `wj` has 128 bytes; the loads read bytes 0..64 and 64..128 (unaligned).
    let (w0, w1) = unsafe {
        (
            _mm512_loadu_si512(wj.as_ptr().cast()),
            _mm512_loadu_si512(wj.as_ptr().add(64).cast()),
        )
    };
    a[0] = _mm512_dpbusd_epi32(a[0], xv, w0);
    a[1] = _mm512_dpbusd_epi32(a[1], xv, w1);
}
