//! AVX2 kernels, bit-identical to [`super::scalar`].
//!
//! Every function has `#[target_feature(enable = "avx2")]`: callers must make sure the CPU has
//! AVX2 (see [`super::Isa::detect`]).

use crate::nnue::arch::{HALF, HIDDEN};
use std::arch::x86_64::*;

/// 16 lanes of i16 per register: 16 registers hold one half of the accumulator.
const REGS: usize = HALF / 16;

/// Loads register `i` of a `HALF`-long i16 row.
#[inline]
#[target_feature(enable = "avx2")]
fn load_row(row: &[i16; HALF], i: usize) -> __m256i {
    assert!(i < REGS);
    // SAFETY: i < REGS, so the 16 lanes i*16..i*16+16 lie inside the 256-element row; loadu
    // has no alignment requirement.
    unsafe { _mm256_loadu_si256(row.as_ptr().add(i * 16).cast()) }
}

/// The row of feature `f` in the weights `w` as a fixed-size array (panics if out of range,
/// which the feature indexing rules out).
#[inline(always)]
fn row(w: &[i16], f: u32) -> &[i16; HALF] {
    let start = f as usize * HALF;
    w[start..start + HALF]
        .try_into()
        .expect("row of HALF weights")
}

/// `dst = src - Σ removed rows + Σ added rows`, wrapping like the scalar kernel.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub fn update(dst: &mut [i16; HALF], src: &[i16; HALF], w: &[i16], removed: &[u32], added: &[u32]) {
    let mut acc = [_mm256_setzero_si256(); REGS];
    for (i, a) in acc.iter_mut().enumerate() {
        *a = load_row(src, i);
    }
    for &f in removed {
        let r = row(w, f);
        for (i, a) in acc.iter_mut().enumerate() {
            *a = _mm256_sub_epi16(*a, load_row(r, i));
        }
    }
    for &f in added {
        let r = row(w, f);
        for (i, a) in acc.iter_mut().enumerate() {
            *a = _mm256_add_epi16(*a, load_row(r, i));
        }
    }
    for (i, a) in acc.iter().enumerate() {
        // SAFETY: i < REGS, so the store covers lanes i*16..i*16+16 of the 256-element `dst`.
        unsafe { _mm256_storeu_si256(dst.as_mut_ptr().add(i * 16).cast(), *a) };
    }
}

/// Clipped ReLU of one half into 256 bytes.
#[target_feature(enable = "avx2")]
fn transform_half(acc: &[i16; HALF], out: &mut [u8]) {
    assert!(out.len() == HALF);
    let zero = _mm256_setzero_si256();
    let max = _mm256_set1_epi16(127);
    for i in 0..REGS / 2 {
        let a = _mm256_min_epi16(_mm256_max_epi16(load_row(acc, 2 * i), zero), max);
        let b = _mm256_min_epi16(_mm256_max_epi16(load_row(acc, 2 * i + 1), zero), max);
        // packus interleaves 128-bit lanes (a.lo b.lo a.hi b.hi): restore the order.
        let packed = _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi16(a, b));
        // SAFETY: i < REGS/2 = 8, so bytes 32i..32i+32 lie inside the 256-byte `out`.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().add(32 * i).cast(), packed) };
    }
}

/// Clipped ReLU of both halves into bytes.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub fn transform(stm: &[i16; HALF], opp: &[i16; HALF], out: &mut [u8; 2 * HALF]) {
    let (a, b) = out.split_at_mut(HALF);
    transform_half(stm, a);
    transform_half(opp, b);
}

/// A 32-output affine layer with permuted weights (see [`super::scalar::affine`]); the input
/// length must be a multiple of 32 (it is 512 or 32).
///
/// `maddubs` sums two u8×i8 products into i16 with saturation, which never triggers here:
/// inputs are at most 127, so |2 · 127 · 128| = 32512 < 32768.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub fn affine(input: &[u8], w: &[i8], bias: &[i32; HIDDEN]) -> [i32; HIDDEN] {
    let chunks = input.len() / 4;
    assert!(input.len().is_multiple_of(32) && w.len() >= chunks * HIDDEN * 4);
    let mut acc = [_mm256_setzero_si256(); 4];
    for (r, a) in acc.iter_mut().enumerate() {
        // SAFETY: `bias` has 32 i32 = 4 registers, r < 4; loadu needs no alignment.
        *a = unsafe { _mm256_loadu_si256(bias.as_ptr().add(8 * r).cast()) };
    }
    let ones = _mm256_set1_epi16(1);
    for (b, block) in input.chunks_exact(32).enumerate() {
        // SAFETY: `block` has exactly 32 bytes; loadu needs no alignment.
        let v = unsafe { _mm256_loadu_si256(block.as_ptr().cast()) };
        // Skip whole 32-byte blocks of zeros (common with trained nets); within a block every
        // chunk is processed, since a branch per chunk would mispredict on dense inputs.
        if _mm256_testz_si256(v, v) != 0 {
            continue;
        }
        let wb = &w[b * 8 * HIDDEN * 4..(b + 1) * 8 * HIDDEN * 4];
        for (k, x) in block.chunks_exact(4).enumerate() {
            let xv = _mm256_set1_epi32(i32::from_le_bytes([x[0], x[1], x[2], x[3]]));
            let wj = &wb[k * HIDDEN * 4..(k + 1) * HIDDEN * 4];
            for (r, a) in acc.iter_mut().enumerate() {
                // SAFETY: `wj` has 128 bytes; register r reads bytes 32r..32r+32.
                let wv = unsafe { _mm256_loadu_si256(wj.as_ptr().add(32 * r).cast()) };
                *a = _mm256_add_epi32(*a, _mm256_madd_epi16(_mm256_maddubs_epi16(xv, wv), ones));
            }
        }
    }
    let mut out = [0i32; HIDDEN];
    for (r, a) in acc.iter().enumerate() {
        // SAFETY: register r covers out[8r..8r+8] of the 32-element array.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().add(8 * r).cast(), *a) };
    }
    out
}
