//! AVX-512 VNNI kernel for the affine layers, generic over the output count and bit-identical
//! to [`super::scalar`].
//!
//! `vpdpbusd` adds four u8×i8 products to an i32 lane in one instruction without intermediate
//! saturation, replacing AVX2's `maddubs` + `madd` + `add`. The accumulator update and the
//! clipped ReLU of the feature transformer stay on the AVX2 kernels, and so do layers whose
//! output count is not a multiple of 16 (one 512-bit register holds 16 outputs).

use std::arch::x86_64::*;

/// Independent accumulator chains (hiding the latency of `vpdpbusd`).
const CHAINS: usize = 4;

/// Whether [`affine`] takes an `out`-output layer (else the AVX2 kernel does).
pub const fn takes(out: usize) -> bool {
    matches!(out, 16 | 32 | 64 | 96)
}

/// An `OUT`-output affine layer with permuted weights (see [`super::scalar::affine`]); `OUT` is
/// 16, 32, 64 or 96 ([`takes`]), the input length a multiple of 4; zero 32-byte input blocks
/// are skipped. Four independent accumulator chains of `OUT / 16` registers hide the latency of
/// `vpdpbusd` (the match on `OUT` is resolved at compile time); integer addition is
/// associative, so the result is exact.
///
/// # Safety
/// The CPU must support AVX2, AVX-512F, AVX-512BW and AVX-512 VNNI.
#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vnni")]
pub fn affine<const OUT: usize>(input: &[u8], w: &[i8], bias: &[i32; OUT]) -> [i32; OUT] {
    let mut out = *bias;
    match OUT / 16 {
        1 => affine_regs::<1>(input, w, &mut out),
        2 => affine_regs::<2>(input, w, &mut out),
        4 => affine_regs::<4>(input, w, &mut out),
        6 => affine_regs::<6>(input, w, &mut out),
        _ => panic!("no AVX-512 VNNI affine kernel for {OUT} outputs"),
    }
    out
}

/// [`affine`] with `R = OUT / 16` registers per chain; adds the sums to `out` (the biases).
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vnni")]
fn affine_regs<const R: usize>(input: &[u8], w: &[i8], out: &mut [i32]) {
    let width = 64 * R;
    assert!(out.len() == 16 * R);
    assert!(input.len().is_multiple_of(4) && w.len() >= input.len() / 4 * width);
    // acc[c][h]: chain c (chunk index mod 4), outputs 16h..16h+16.
    let mut acc = [[_mm512_setzero_si512(); R]; CHAINS];
    let blocks = input.chunks_exact(32);
    let tail = blocks.remainder();
    for (b, block) in blocks.enumerate() {
        // SAFETY: `block` has exactly 32 bytes; loadu needs no alignment.
        let v = unsafe { _mm256_loadu_si256(block.as_ptr().cast()) };
        // Skip whole zero blocks; within a block every chunk is processed.
        if _mm256_testz_si256(v, v) != 0 {
            continue;
        }
        let wb = &w[b * 8 * width..(b + 1) * 8 * width];
        for (k, (x, wj)) in block
            .chunks_exact(4)
            .zip(wb.chunks_exact(width))
            .enumerate()
        {
            let xv = i32::from_le_bytes([x[0], x[1], x[2], x[3]]);
            dot_chunk(&mut acc[k % CHAINS], xv, wj);
        }
    }
    // Fewer than 32 inputs left (a layer of 16 inputs): chunk by chunk.
    let done = input.len() - tail.len();
    let wt = &w[done / 4 * width..];
    for (k, (x, wj)) in tail.chunks_exact(4).zip(wt.chunks_exact(width)).enumerate() {
        let xv = i32::from_le_bytes([x[0], x[1], x[2], x[3]]);
        dot_chunk(&mut acc[k % CHAINS], xv, wj);
    }
    #[allow(clippy::needless_range_loop)] // h indexes the four chains and `out` alike
    for h in 0..R {
        let s = _mm512_add_epi32(
            _mm512_add_epi32(acc[0][h], acc[1][h]),
            _mm512_add_epi32(acc[2][h], acc[3][h]),
        );
        // SAFETY: `out` has 16·R i32; h < R covers out[16h..16h+16].
        let b = unsafe { _mm512_loadu_si512(out.as_ptr().add(16 * h).cast()) };
        // SAFETY: as above.
        unsafe { _mm512_storeu_si512(out.as_mut_ptr().add(16 * h).cast(), _mm512_add_epi32(b, s)) };
    }
}

/// `a += x · W` for one input chunk `x` (4 bytes) and its `64 · R` weight bytes.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
fn dot_chunk<const R: usize>(a: &mut [__m512i; R], x: i32, wj: &[i8]) {
    assert!(wj.len() == 64 * R);
    let xv = _mm512_set1_epi32(x);
    for (h, a) in a.iter_mut().enumerate() {
        // SAFETY: `wj` has 64·R bytes; register h reads bytes 64h..64h+64.
        let wv = unsafe { _mm512_loadu_si512(wj.as_ptr().add(64 * h).cast()) };
        *a = _mm512_dpbusd_epi32(*a, xv, wv);
    }
}
