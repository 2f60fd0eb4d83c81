//! Reference kernels in plain Rust, generic over the layer sizes. Accumulator arithmetic wraps
//! like the SIMD `epi16` adds.

/// `dst = src - Σ removed rows + Σ added rows` (rows of `N` weights in `w`).
#[inline]
pub fn update<const N: usize>(
    dst: &mut [i16; N],
    src: &[i16; N],
    w: &[i16],
    removed: &[u32],
    added: &[u32],
) {
    *dst = *src;
    for &f in removed {
        let row = &w[f as usize * N..][..N];
        for (d, &r) in dst.iter_mut().zip(row) {
            *d = d.wrapping_sub(r);
        }
    }
    for &f in added {
        let row = &w[f as usize * N..][..N];
        for (d, &r) in dst.iter_mut().zip(row) {
            *d = d.wrapping_add(r);
        }
    }
}

/// Clipped ReLU of both halves into bytes: `out = [clamp(stm, 0, 127), clamp(opp, 0, 127)]`.
#[inline]
pub fn transform<const N: usize>(stm: &[i16; N], opp: &[i16; N], out: &mut [[u8; N]; 2]) {
    for (half, src) in out.iter_mut().zip([stm, opp]) {
        for (o, &v) in half.iter_mut().zip(src) {
            *o = v.clamp(0, 127) as u8;
        }
    }
}

/// An `OUT`-output affine layer over `input` (a multiple of 4 bytes) with permuted weights
/// (`w[(j * OUT + o) * 4 + k] = W[o][4j + k]`); zero input chunks are skipped.
#[inline]
pub fn affine<const OUT: usize>(input: &[u8], w: &[i8], bias: &[i32; OUT]) -> [i32; OUT] {
    let mut acc = *bias;
    for (j, x) in input.chunks_exact(4).enumerate() {
        if x == [0, 0, 0, 0] {
            continue;
        }
        let wj = &w[j * OUT * 4..][..OUT * 4];
        for (a, wo) in acc.iter_mut().zip(wj.chunks_exact(4)) {
            *a += x[0] as i32 * wo[0] as i32
                + x[1] as i32 * wo[1] as i32
                + x[2] as i32 * wo[2] as i32
                + x[3] as i32 * wo[3] as i32;
        }
    }
    acc
}
