//! AVX-512 VNNI kernel for the affine layers, bit-identical to [`super::scalar`].
//!
//! `vpdpbusd` adds four u8×i8 products to an i32 lane in one instruction without intermediate
//! saturation, replacing AVX2's `maddubs` + `madd` + `add`. The accumulator update and the
//! clipped ReLU of the feature transformer stay on the AVX2 kernels.

use crate::nnue::arch::HIDDEN;
use std::arch::x86_64::*;

/// Independent accumulator chains: `vpdpbusd` has a latency of several cycles, so one chain
/// per output register would leave the unit idle.
const CHAINS: usize = 4;

/// A 32-output affine layer with permuted weights (see [`super::scalar::affine`]).
///
/// # Safety
/// The CPU must support AVX-512F, AVX-512BW and AVX-512 VNNI.
#[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
pub fn affine(input: &[u8], w: &[i8], bias: &[i32; HIDDEN]) -> [i32; HIDDEN] {
    let chunks = input.len() / 4;
    assert!(w.len() >= chunks * HIDDEN * 4);
    // acc[c][h]: chain c, outputs 16h..16h+16.
    let mut acc = [[_mm512_setzero_si512(); 2]; CHAINS];
    for (j, x) in input.chunks_exact(4).enumerate() {
        let chunk = i32::from_le_bytes([x[0], x[1], x[2], x[3]]);
        if chunk == 0 {
            continue;
        }
        let xv = _mm512_set1_epi32(chunk);
        let base = w[j * HIDDEN * 4..].as_ptr();
        let a = &mut acc[j % CHAINS];
        // SAFETY: the assert keeps the 128 weight bytes of chunk j inside `w`; the two loads
        // read bytes 0..64 and 64..128 of them (unaligned loads).
        let (w0, w1) = unsafe {
            (
                _mm512_loadu_si512(base.cast()),
                _mm512_loadu_si512(base.add(64).cast()),
            )
        };
        a[0] = _mm512_dpbusd_epi32(a[0], xv, w0);
        a[1] = _mm512_dpbusd_epi32(a[1], xv, w1);
    }
    let mut out = *bias;
    for h in 0..2 {
        let mut s = acc[0][h];
        for chain in &acc[1..] {
            s = _mm512_add_epi32(s, chain[h]);
        }
        // SAFETY: `out` has 32 i32; half h covers out[16h..16h+16].
        let b = unsafe { _mm512_loadu_si512(out.as_ptr().add(16 * h).cast()) };
        // SAFETY: as above.
        unsafe { _mm512_storeu_si512(out.as_mut_ptr().add(16 * h).cast(), _mm512_add_epi32(b, s)) };
    }
    out
}
