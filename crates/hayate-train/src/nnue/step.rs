//! One optimiser step on a batch, on `threads` threads.
//!
//! 1. Forward and backward, in fixed chunks of [`CHUNK`] samples spread over the threads: each
//!    chunk adds its dense gradients into its own vector and writes the gradient of every
//!    sample's two feature-transformer sums into the batch's `g_acc`.
//! 2. The chunk vectors are summed in chunk order and the dense parameters take their step.
//! 3. The (row, sum) pairs of the batch are sorted by row (a counting sort), and the rows are
//!    cut into one contiguous range per thread with about equal pair counts. Each thread sums
//!    the gradients of its rows and takes the Adam step on them, touching nothing else.
//!
//! The chunking and the summation orders do not depend on the thread count, so a run gives
//! bit-identical weights on any number of threads (and a resumed run equals a straight one).

use super::backward::backward;
use super::export::round_to_grid;
use super::features::{MAX_ROWS, Sample};
use super::loss::LossConfig;
use super::model::{Activations, DENSE_LEN, Model};
use super::optim::{AdamConfig, AdamState, StepRate, update};
use hayate_eval::nnue::arch::HALF;

/// Samples per unit of work in the forward/backward phase.
pub const CHUNK: usize = 64;

/// Buffers reused from step to step.
#[derive(Default)]
pub struct StepBuffers {
    /// Gradient of each sample's feature-transformer sums (side to move first).
    g_acc: Vec<[[f32; HALF]; 2]>,
    /// Dense gradient per chunk.
    chunk_grads: Vec<Vec<f32>>,
    /// Loss sum per chunk.
    chunk_loss: Vec<f64>,
    /// Pair count per row, then the start of each row's pairs.
    starts: Vec<u32>,
    /// Sum index (`2 * sample + perspective`) of each (row, sum) pair, grouped by row.
    pairs: Vec<u32>,
}

/// Forward and backward over `samples`, gradients scaled by `inv_n`.
fn chunk_pass(
    m: &Model,
    w1t: &[f32],
    loss: &LossConfig,
    samples: &[Sample],
    inv_n: f32,
    g_acc: &mut [[[f32; HALF]; 2]],
    grad: &mut [f32],
) -> f64 {
    grad.fill(0.0);
    let mut a = Activations::default();
    let mut total = 0.0f64;
    for (s, g) in samples.iter().zip(g_acc) {
        let y = m.forward(s, &mut a);
        let (l, gy) = loss.loss(y, s);
        total += l as f64;
        backward(m, w1t, &a, gy * inv_n, grad, g);
    }
    total
}

/// Phase 1 on `threads` threads (losses into `buf.chunk_loss`).
fn forward_backward(
    m: &Model,
    loss: &LossConfig,
    batch: &[Sample],
    threads: usize,
    buf: &mut StepBuffers,
) {
    let chunks = batch.len().div_ceil(CHUNK);
    buf.g_acc.resize(batch.len(), [[0.0; HALF]; 2]);
    buf.chunk_grads.resize_with(chunks, || vec![0.0; DENSE_LEN]);
    buf.chunk_loss.resize(chunks, 0.0);
    let inv_n = 1.0 / batch.len() as f32;
    let mut work: Vec<_> = batch
        .chunks(CHUNK)
        .zip(buf.g_acc.chunks_mut(CHUNK))
        .zip(buf.chunk_grads.iter_mut())
        .zip(buf.chunk_loss.iter_mut())
        .collect();
    let per_thread = work.len().div_ceil(threads.max(1)).max(1);
    let w1t = &m.l1_transposed()[..];
    std::thread::scope(|scope| {
        for group in work.chunks_mut(per_thread) {
            scope.spawn(move || {
                for (((s, g), grad), l) in group.iter_mut() {
                    **l = chunk_pass(m, w1t, loss, s, inv_n, g, grad);
                }
            });
        }
    });
}

/// Groups the (row, sum) pairs of the batch by row.
fn sort_pairs(batch: &[Sample], factorised: bool, rows: usize, buf: &mut StepBuffers) {
    let starts = &mut buf.starts;
    starts.clear();
    starts.resize(rows + 1, 0);
    let mut r = [0u32; MAX_ROWS];
    for s in batch {
        for slot in 0..2 {
            let n = s.rows(slot, factorised, &mut r);
            for &row in &r[..n] {
                starts[row as usize + 1] += 1;
            }
        }
    }
    for i in 0..rows {
        starts[i + 1] += starts[i];
    }
    buf.pairs.resize(starts[rows] as usize, 0);
    // `starts[row]` walks up to the row's end as it is filled; shifting back restores it.
    for (i, s) in batch.iter().enumerate() {
        for slot in 0..2 {
            let n = s.rows(slot, factorised, &mut r);
            for &row in &r[..n] {
                let at = &mut starts[row as usize];
                buf.pairs[*at as usize] = (2 * i + slot) as u32;
                *at += 1;
            }
        }
    }
    for i in (1..=rows).rev() {
        starts[i] = starts[i - 1];
    }
    starts[0] = 0;
}

/// Row boundaries that give each of `threads` ranges about the same number of pairs.
fn row_ranges(starts: &[u32], threads: usize) -> Vec<usize> {
    let rows = starts.len() - 1;
    let total = starts[rows] as u64;
    let mut cuts = vec![0];
    for k in 1..threads {
        let target = (total * k as u64 / threads as u64) as u32;
        let at = starts.partition_point(|&s| s < target).min(rows);
        cuts.push(at.max(*cuts.last().unwrap_or(&0)));
    }
    cuts.push(rows);
    cuts
}

/// Columns summed together in the row update (eight AVX2 registers).
const BLOCK: usize = 64;

/// Phase 3 for the rows `first..` of the given slices.
// The slices are one row range of each array; bundling them would only rename them.
#[allow(clippy::too_many_arguments)]
fn update_rows(
    rate: StepRate,
    first: usize,
    w: &mut [f32],
    m: &mut [f32],
    v: &mut [f32],
    starts: &[u32],
    pairs: &[u32],
    g_acc: &[[[f32; HALF]; 2]],
    limit: f32,
) {
    let mut g = [0.0f32; HALF];
    for (i, ((w, m), v)) in w
        .chunks_exact_mut(HALF)
        .zip(m.chunks_exact_mut(HALF))
        .zip(v.chunks_exact_mut(HALF))
        .enumerate()
    {
        let r = first + i;
        let mine = &pairs[starts[r] as usize..starts[r + 1] as usize];
        if mine.is_empty() {
            continue;
        }
        // A block of columns at a time, its sums in registers while the pairs stream by.
        for b in (0..HALF).step_by(BLOCK) {
            let mut sum = [0.0f32; BLOCK];
            for &p in mine {
                let src = &g_acc[p as usize / 2][p as usize % 2][b..b + BLOCK];
                for (s, &x) in sum.iter_mut().zip(src) {
                    *s += x;
                }
            }
            g[b..b + BLOCK].copy_from_slice(&sum);
        }
        update(rate, w, m, v, &g, limit);
    }
}

/// Phase 3 on `threads` threads.
fn sparse_step(
    m: &mut Model,
    st: &mut AdamState,
    rate: StepRate,
    buf: &StepBuffers,
    threads: usize,
) {
    let cuts = row_ranges(&buf.starts, threads.max(1));
    let (mut w, mut mm, mut vv) = (&mut m.ft[..], &mut st.ft_m[..], &mut st.ft_v[..]);
    std::thread::scope(|scope| {
        for pair in cuts.windows(2) {
            let (first, n) = (pair[0], (pair[1] - pair[0]) * HALF);
            let (w0, w1) = std::mem::take(&mut w).split_at_mut(n);
            let (m0, m1) = std::mem::take(&mut mm).split_at_mut(n);
            let (v0, v1) = std::mem::take(&mut vv).split_at_mut(n);
            (w, mm, vv) = (w1, m1, v1);
            let (starts, pairs, g_acc) = (&buf.starts[..], &buf.pairs[..], &buf.g_acc[..]);
            scope.spawn(move || {
                update_rows(
                    rate,
                    first,
                    w0,
                    m0,
                    v0,
                    starts,
                    pairs,
                    g_acc,
                    super::export::FT_LIMIT,
                )
            });
        }
    });
}

/// How one step trains.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepOptions {
    /// The learning rate.
    pub lr: f64,
    /// The gradient is taken at the weights rounded as the export rounds them and applied to
    /// the float weights (a straight-through estimate), so that the net learns to work with
    /// the int8 hidden layers it will have.
    pub quantise_aware: bool,
    /// The feature transformer's weights (factor rows included) stay as they are; its biases
    /// (part of the dense parameters), the hidden and the output layers learn.
    pub freeze_ft: bool,
}

impl StepOptions {
    /// A plain step at rate `lr`.
    pub fn at(lr: f64) -> StepOptions {
        StepOptions {
            lr,
            quantise_aware: false,
            freeze_ft: false,
        }
    }
}

/// One Adam step of `m` on `batch` as `opt` says; returns the batch's mean loss.
// Model, optimiser, data, loss, options, threads and scratch: each its own role.
#[allow(clippy::too_many_arguments)]
pub fn train_step(
    m: &mut Model,
    st: &mut AdamState,
    adam: AdamConfig,
    loss: &LossConfig,
    batch: &[Sample],
    opt: StepOptions,
    threads: usize,
    buf: &mut StepBuffers,
) -> f64 {
    if batch.is_empty() {
        return 0.0;
    }
    if opt.quantise_aware {
        let mut grid = m.dense.clone();
        round_to_grid(&mut grid);
        let float = std::mem::replace(&mut m.dense, grid);
        forward_backward(m, loss, batch, threads, buf);
        m.dense = float;
    } else {
        forward_backward(m, loss, batch, threads, buf);
    }
    let mut grad = vec![0.0f32; DENSE_LEN];
    for g in &buf.chunk_grads {
        for (a, &b) in grad.iter_mut().zip(g) {
            *a += b;
        }
    }
    let rate = st.begin_step(adam, opt.lr);
    st.step_dense(rate, &mut m.dense, &grad);
    if !opt.freeze_ft {
        sort_pairs(batch, m.factorised, m.ft.len() / HALF, buf);
        sparse_step(m, st, rate, buf, threads);
    }
    buf.chunk_loss.iter().sum::<f64>() / batch.len() as f64
}

/// The mean loss of `m` on `samples` (no update), on `threads` threads; the sum runs in
/// sample order, so the value does not depend on the thread count.
pub fn mean_loss(m: &Model, loss: &LossConfig, samples: &[Sample], threads: usize) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let mut each = vec![0.0f64; samples.len()];
    let per_thread = samples.len().div_ceil(threads.max(1));
    std::thread::scope(|scope| {
        for (part, out) in samples.chunks(per_thread).zip(each.chunks_mut(per_thread)) {
            scope.spawn(move || {
                let mut a = Activations::default();
                for (s, o) in part.iter().zip(out) {
                    *o = loss.loss(m.forward(s, &mut a), s).0 as f64;
                }
            });
        }
    });
    each.iter().sum::<f64>() / samples.len() as f64
}
