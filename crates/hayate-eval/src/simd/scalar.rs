//! Reference kernels in plain Rust. Accumulator arithmetic wraps like the SIMD `epi16` adds.

use crate::nnue::arch::{HALF, HIDDEN};

/// `dst = src - Σ removed rows + Σ added rows` (rows of `HALF` weights in `w`).
#[inline]
pub fn update(dst: &mut [i16; HALF], src: &[i16; HALF], w: &[i16], removed: &[u32], added: &[u32]) {
    *dst = *src;
    for &f in removed {
        let row = &w[f as usize * HALF..][..HALF];
        for (d, &r) in dst.iter_mut().zip(row) {
            *d = d.wrapping_sub(r);
        }
    }
    for &f in added {
        let row = &w[f as usize * HALF..][..HALF];
        for (d, &r) in dst.iter_mut().zip(row) {
            *d = d.wrapping_add(r);
        }
    }
}

/// Clipped ReLU of both halves into bytes: `out = [clamp(stm, 0, 127), clamp(opp, 0, 127)]`.
#[inline]
pub fn transform(stm: &[i16; HALF], opp: &[i16; HALF], out: &mut [u8; 2 * HALF]) {
    let (a, b) = out.split_at_mut(HALF);
    for (o, &v) in a.iter_mut().zip(stm) {
        *o = v.clamp(0, 127) as u8;
    }
    for (o, &v) in b.iter_mut().zip(opp) {
        *o = v.clamp(0, 127) as u8;
    }
}

/// A 32-output affine layer over `input` with permuted weights
/// (`w[(j * 32 + o) * 4 + k] = W[o][4j + k]`); zero input chunks are skipped.
#[inline]
pub fn affine(input: &[u8], w: &[i8], bias: &[i32; HIDDEN]) -> [i32; HIDDEN] {
    let mut acc = *bias;
    for (j, x) in input.chunks_exact(4).enumerate() {
        if x == [0, 0, 0, 0] {
            continue;
        }
        let wj = &w[j * HIDDEN * 4..][..HIDDEN * 4];
        for (o, a) in acc.iter_mut().enumerate() {
            let wo = &wj[o * 4..o * 4 + 4];
            *a += x[0] as i32 * wo[0] as i32
                + x[1] as i32 * wo[1] as i32
                + x[2] as i32 * wo[2] as i32
                + x[3] as i32 * wo[3] as i32;
        }
    }
    acc
}
