//! AVX2 kernels, generic over the layer sizes and bit-identical to [`super::scalar`].
//!
//! Every function has `#[target_feature(enable = "avx2")]`: callers must make sure the CPU has
//! AVX2 (see [`super::Isa::detect`]).

use std::arch::x86_64::*;

/// i16 lanes of the accumulator updated at once: 16 registers of 16 lanes (the whole half of
/// a 256 net; larger halves are updated tile after tile).
const TILE: usize = 256;
/// Registers of one tile.
const TILE_REGS: usize = TILE / 16;

/// Loads register `i` of a tile (`TILE` i16 values).
#[inline]
#[target_feature(enable = "avx2")]
fn load_tile(tile: &[i16], i: usize) -> __m256i {
    assert!(tile.len() == TILE && i < TILE_REGS);
    // SAFETY: i < TILE_REGS, so lanes i*16..i*16+16 lie inside the TILE-long slice; loadu has
    // no alignment requirement.
    unsafe { _mm256_loadu_si256(tile.as_ptr().add(i * 16).cast()) }
}

/// Tile `t` of the row of feature `f` in the weights `w` (rows of `N` values; panics if out
/// of range, which the feature indexing rules out).
#[inline(always)]
fn row_tile<const N: usize>(w: &[i16], f: u32, t: usize) -> &[i16] {
    let start = f as usize * N + t * TILE;
    &w[start..start + TILE]
}

/// `dst = src - Σ removed rows + Σ added rows`, wrapping like the scalar kernel, one tile of
/// 256 lanes at a time (kept in 16 registers while every row is added).
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub fn update<const N: usize>(
    dst: &mut [i16; N],
    src: &[i16; N],
    w: &[i16],
    removed: &[u32],
    added: &[u32],
) {
    const { assert!(N.is_multiple_of(TILE)) };
    for t in 0..N / TILE {
        let mut acc = [_mm256_setzero_si256(); TILE_REGS];
        let s = &src[t * TILE..(t + 1) * TILE];
        for (i, a) in acc.iter_mut().enumerate() {
            *a = load_tile(s, i);
        }
        for &f in removed {
            let r = row_tile::<N>(w, f, t);
            for (i, a) in acc.iter_mut().enumerate() {
                *a = _mm256_sub_epi16(*a, load_tile(r, i));
            }
        }
        for &f in added {
            let r = row_tile::<N>(w, f, t);
            for (i, a) in acc.iter_mut().enumerate() {
                *a = _mm256_add_epi16(*a, load_tile(r, i));
            }
        }
        let d = &mut dst[t * TILE..(t + 1) * TILE];
        for (i, a) in acc.iter().enumerate() {
            // SAFETY: i < TILE_REGS, so the store covers lanes i*16..i*16+16 of the TILE-long
            // slice `d`.
            unsafe { _mm256_storeu_si256(d.as_mut_ptr().add(i * 16).cast(), *a) };
        }
    }
}

/// Clipped ReLU of one half into bytes (`acc` and `out` of the same length, a multiple of 32).
#[target_feature(enable = "avx2")]
fn transform_half(acc: &[i16], out: &mut [u8]) {
    assert!(acc.len() == out.len() && acc.len().is_multiple_of(32));
    let zero = _mm256_setzero_si256();
    let max = _mm256_set1_epi16(127);
    for (a, o) in acc.chunks_exact(32).zip(out.chunks_exact_mut(32)) {
        // SAFETY: `a` has 32 i16: the loads read lanes 0..16 and 16..32 (unaligned).
        let (lo, hi) = unsafe {
            (
                _mm256_loadu_si256(a.as_ptr().cast()),
                _mm256_loadu_si256(a.as_ptr().add(16).cast()),
            )
        };
        let lo = _mm256_min_epi16(_mm256_max_epi16(lo, zero), max);
        let hi = _mm256_min_epi16(_mm256_max_epi16(hi, zero), max);
        // packus interleaves 128-bit lanes (a.lo b.lo a.hi b.hi): restore the order.
        let packed = _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi16(lo, hi));
        // SAFETY: `o` has exactly 32 bytes.
        unsafe { _mm256_storeu_si256(o.as_mut_ptr().cast(), packed) };
    }
}

/// Clipped ReLU of both halves into bytes.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub fn transform<const N: usize>(stm: &[i16; N], opp: &[i16; N], out: &mut [[u8; N]; 2]) {
    let [a, b] = out;
    transform_half(stm, a);
    transform_half(opp, b);
}

/// `a[r] += x · W` for one 4-byte input chunk (broadcast in `xv`) and its `32 · R` weight
/// bytes `wj`.
#[inline]
#[target_feature(enable = "avx2")]
fn dot_chunk<const R: usize>(a: &mut [__m256i; R], xv: __m256i, wj: &[i8], ones: __m256i) {
    assert!(wj.len() == 32 * R);
    for (r, a) in a.iter_mut().enumerate() {
        // SAFETY: `wj` has 32·R bytes; register r reads bytes 32r..32r+32.
        let wv = unsafe { _mm256_loadu_si256(wj.as_ptr().add(32 * r).cast()) };
        *a = _mm256_add_epi32(*a, _mm256_madd_epi16(_mm256_maddubs_epi16(xv, wv), ones));
    }
}

/// [`affine`] with `R = OUT / 8` accumulator registers (`out` and `bias` hold `8 · R` values).
#[inline]
#[target_feature(enable = "avx2")]
fn affine_regs<const R: usize>(input: &[u8], w: &[i8], bias: &[i32], out: &mut [i32]) {
    let width = 32 * R;
    assert!(bias.len() == 8 * R && out.len() == 8 * R);
    assert!(input.len().is_multiple_of(4) && w.len() >= input.len() / 4 * width);
    let mut acc = [_mm256_setzero_si256(); R];
    for (r, a) in acc.iter_mut().enumerate() {
        // SAFETY: `bias` has 8·R i32, r < R; loadu needs no alignment.
        *a = unsafe { _mm256_loadu_si256(bias.as_ptr().add(8 * r).cast()) };
    }
    let ones = _mm256_set1_epi16(1);
    let blocks = input.chunks_exact(32);
    let tail = blocks.remainder();
    for (b, block) in blocks.enumerate() {
        // SAFETY: `block` has exactly 32 bytes; loadu needs no alignment.
        let v = unsafe { _mm256_loadu_si256(block.as_ptr().cast()) };
        if _mm256_testz_si256(v, v) != 0 {
            continue;
        }
        let wb = &w[b * 8 * width..(b + 1) * 8 * width];
        for (x, wj) in block.chunks_exact(4).zip(wb.chunks_exact(width)) {
            let xv = _mm256_set1_epi32(i32::from_le_bytes([x[0], x[1], x[2], x[3]]));
            dot_chunk(&mut acc, xv, wj, ones);
        }
    }
    // Fewer than 32 inputs left (a layer of 8 or 16 inputs): chunk by chunk.
    let done = input.len() - tail.len();
    let wt = &w[done / 4 * width..];
    for (x, wj) in tail.chunks_exact(4).zip(wt.chunks_exact(width)) {
        let xv = _mm256_set1_epi32(i32::from_le_bytes([x[0], x[1], x[2], x[3]]));
        dot_chunk(&mut acc, xv, wj, ones);
    }
    for (r, a) in acc.iter().enumerate() {
        // SAFETY: register r covers out[8r..8r+8] of the 8·R-element `out`.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().add(8 * r).cast(), *a) };
    }
}

/// An `OUT`-output affine layer with permuted weights (see [`super::scalar::affine`]); `OUT`
/// is 8, 16, 32, 64 or 96, the input length a multiple of 4. Whole 32-byte blocks of zeros are
/// skipped (common with trained nets); within a block every chunk is processed, since a branch
/// per chunk would mispredict on dense inputs. The accumulators stay in `OUT / 8` registers
/// (the match on `OUT` is resolved at compile time).
///
/// `maddubs` sums two u8×i8 products into i16 with saturation, which never triggers here:
/// inputs are at most 127, so |2 · 127 · 128| = 32512 < 32768.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub fn affine<const OUT: usize>(input: &[u8], w: &[i8], bias: &[i32; OUT]) -> [i32; OUT] {
    let mut out = [0i32; OUT];
    match OUT / 8 {
        1 => affine_regs::<1>(input, w, bias, &mut out),
        2 => affine_regs::<2>(input, w, bias, &mut out),
        4 => affine_regs::<4>(input, w, bias, &mut out),
        8 => affine_regs::<8>(input, w, bias, &mut out),
        12 => affine_regs::<12>(input, w, bias, &mut out),
        _ => panic!("no AVX2 affine kernel for {OUT} outputs"),
    }
    out
}
