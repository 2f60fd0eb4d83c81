//! AVX-512 VNNI kernel for the affine layers, generic over the output count and bit-identical
//! to [`super::scalar`].
//!
//! `vpdpbusd` adds four u8×i8 products to an i32 lane in one instruction without intermediate
//! saturation, replacing AVX2's `maddubs` + `madd` + `add`. The accumulator update and the
//! clipped ReLU of the feature transformer stay on the AVX2 kernels, and so do layers whose
//! output count is not a multiple of 16 (one 512-bit register holds 16 outputs).

use std::arch::x86_64::*;

/// Most 16-lane accumulator registers per chain (96 outputs).
const MAX_OUT_REGS: usize = 6;
/// Independent accumulator chains (hiding the latency of `vpdpbusd`).
const CHAINS: usize = 4;

/// Whether [`affine`] takes an `out`-output layer (else the AVX2 kernel does).
pub const fn takes(out: usize) -> bool {
    out.is_multiple_of(16) && out / 16 <= MAX_OUT_REGS
}

/// An `OUT`-output affine layer with permuted weights (see [`super::scalar::affine`]); `OUT` is
/// a multiple of 16 up to 96 ([`takes`]), the input length a multiple of 4; zero 32-byte input
/// blocks are skipped. Four independent accumulator chains hide the latency of `vpdpbusd`;
/// integer addition is associative, so the result is exact.
///
/// # Safety
/// The CPU must support AVX2, AVX-512F, AVX-512BW and AVX-512 VNNI.
#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vnni")]
pub fn affine<const OUT: usize>(input: &[u8], w: &[i8], bias: &[i32; OUT]) -> [i32; OUT] {
    assert!(takes(OUT));
    let regs = OUT / 16;
    let chunks = input.len() / 4;
    assert!(input.len().is_multiple_of(4) && w.len() >= chunks * OUT * 4);
    // acc[c][h]: chain c (chunk index mod 4), outputs 16h..16h+16.
    let mut acc = [[_mm512_setzero_si512(); MAX_OUT_REGS]; CHAINS];
    let block_bytes = 8 * OUT * 4;
    for (b, block) in input.chunks(32).enumerate() {
        if block.len() == 32 {
            // SAFETY: `block` has exactly 32 bytes; loadu needs no alignment.
            let v = unsafe { _mm256_loadu_si256(block.as_ptr().cast()) };
            // Skip whole zero blocks; within a block every chunk is processed.
            if _mm256_testz_si256(v, v) != 0 {
                continue;
            }
        }
        let wb = &w[b * block_bytes..];
        for (k, x) in block.chunks_exact(4).enumerate() {
            let xv = i32::from_le_bytes([x[0], x[1], x[2], x[3]]);
            dot_chunk(
                &mut acc[k % CHAINS],
                regs,
                xv,
                &wb[k * OUT * 4..(k + 1) * OUT * 4],
            );
        }
    }
    let mut out = *bias;
    #[allow(clippy::needless_range_loop)] // h indexes the four chains and `out` alike
    for h in 0..regs {
        let s = _mm512_add_epi32(
            _mm512_add_epi32(acc[0][h], acc[1][h]),
            _mm512_add_epi32(acc[2][h], acc[3][h]),
        );
        // SAFETY: `out` has OUT = 16·regs i32; h < regs covers out[16h..16h+16].
        let b = unsafe { _mm512_loadu_si512(out.as_ptr().add(16 * h).cast()) };
        // SAFETY: as above.
        unsafe { _mm512_storeu_si512(out.as_mut_ptr().add(16 * h).cast(), _mm512_add_epi32(b, s)) };
    }
    out
}

/// `a += x · W` over the first `regs` registers, for one input chunk `x` (4 bytes) and its
/// `64 · regs` weight bytes.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
fn dot_chunk(a: &mut [__m512i; MAX_OUT_REGS], regs: usize, x: i32, wj: &[i8]) {
    assert!(wj.len() >= 64 * regs);
    let xv = _mm512_set1_epi32(x);
    for (h, a) in a.iter_mut().enumerate().take(regs) {
        // SAFETY: `wj` has at least 64·regs bytes; register h reads bytes 64h..64h+64.
        let wv = unsafe { _mm512_loadu_si512(wj.as_ptr().add(64 * h).cast()) };
        *a = _mm512_dpbusd_epi32(*a, xv, wv);
    }
}
