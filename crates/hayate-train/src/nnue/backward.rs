//! The backward pass of one sample: dense gradients added into a gradient vector, and the
//! gradient of the two feature-transformer sums returned for the sparse row update.

use super::model::{Activations, FT_B, L1_B, L1_W, L2_B, L2_W, Model, OUT_B, OUT_W, axpy, dot};
use hayate_eval::nnue::arch::{HALF, HIDDEN, L1_IN};

/// Whether a clipped unit passes gradient (strictly inside `(0, 1)`).
#[inline(always)]
fn live(z: f32) -> bool {
    z > 0.0 && z < 1.0
}

/// Backpropagates `gy = dL/dy` through the activations `a` of one forward pass: adds the
/// dense gradients into `grad` (laid out as `Model::dense`) and writes the gradient of the
/// feature-transformer sums (side to move first) into `g_acc`. `w1t` is
/// [`Model::l1_transposed`].
pub fn backward(
    m: &Model,
    w1t: &[f32],
    a: &Activations,
    gy: f32,
    grad: &mut [f32],
    g_acc: &mut [[f32; HALF]; 2],
) {
    let d = &m.dense;
    grad[OUT_B] += gy;
    axpy(&mut grad[OUT_W..OUT_B], gy, &a.h2);
    let mut g_z2 = [0.0f32; HIDDEN];
    for k in 0..HIDDEN {
        if live(a.z2[k]) {
            g_z2[k] = gy * d[OUT_W + k];
        }
    }
    axpy(&mut grad[L2_B..OUT_W], 1.0, &g_z2);
    let mut g_z1 = [0.0f32; HIDDEN];
    for (i, g) in g_z1.iter_mut().enumerate() {
        let row = L2_W + i * HIDDEN..L2_W + (i + 1) * HIDDEN;
        if a.h1[i] != 0.0 {
            axpy(&mut grad[row.clone()], a.h1[i], &g_z2);
        }
        if live(a.z1[i]) {
            *g = dot(&d[row], &g_z2);
        }
    }
    axpy(&mut grad[L1_B..L2_W], 1.0, &g_z1);
    let mut g_x = [0.0f32; L1_IN];
    for (k, &g) in g_z1.iter().enumerate() {
        if g != 0.0 {
            axpy(&mut g_x, g, &w1t[k * L1_IN..(k + 1) * L1_IN]);
        }
    }
    for (slot, g) in g_acc.iter_mut().enumerate() {
        let xs = slot * HALF..(slot + 1) * HALF;
        for (i, &x) in xs.clone().zip(&a.x[xs.clone()]) {
            if x != 0.0 {
                axpy(
                    &mut grad[L1_W + i * HIDDEN..L1_W + (i + 1) * HIDDEN],
                    x,
                    &g_z1,
                );
            }
        }
        for ((gj, &gx), &acc) in g.iter_mut().zip(&g_x[xs]).zip(&a.acc[slot]) {
            *gj = if live(acc) { gx } else { 0.0 };
        }
        axpy(&mut grad[FT_B..L1_W], 1.0, g);
    }
}
