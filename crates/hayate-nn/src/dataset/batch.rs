//! Batches: samples expanded into flat `f32` arrays, assembled on worker threads.
//!
//! A [`Batch`] holds `len` samples, each array in sample-major order: `input1` is
//! `[len][c1][9][9]`, `input2` `[len][c2][9][9]`, `policy` `[len][2187]` (or `[len][1496]` with
//! the compact labels), `value` and `result` `[len]`, and with Novice's targets `effects`
//! `[len][2][9][9]` and `declaration` `[len]`.

use super::decode::position_from_raw;
use super::sample::Sample;
use crate::compact::{COMPACT_LABEL_NUM, compact_label};
use crate::features::{DlshogiFeatures, INPUT1_PLANES, INPUT2_PLANES, INPUT2_PLANES_NYUGYOKU};
use crate::labels::LABEL_NUM;
use crate::novice::{NOVICE_CHANNELS, NoviceConfig, NoviceTargets, write_novice_features};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// Which input planes a batch carries.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum InputKind {
    /// dlshogi's `input1` (62 planes) and `input2` (57, or 119 with `nyugyoku`).
    Dlshogi {
        /// Add the entering-king planes to `input2`.
        nyugyoku: bool,
    },
    /// Novice's 85 channels in `input1`; `input2` is empty.
    Novice(NoviceConfig),
}

impl InputKind {
    /// Floats of `input1` per sample.
    pub fn input1_len(&self) -> usize {
        match self {
            InputKind::Dlshogi { .. } => INPUT1_PLANES * 81,
            InputKind::Novice(_) => NOVICE_CHANNELS * 81,
        }
    }

    /// Floats of `input2` per sample.
    pub fn input2_len(&self) -> usize {
        match self {
            InputKind::Dlshogi { nyugyoku: false } => INPUT2_PLANES * 81,
            InputKind::Dlshogi { nyugyoku: true } => INPUT2_PLANES_NYUGYOKU * 81,
            InputKind::Novice(_) => 0,
        }
    }
}

/// How batches are built.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BatchConfig {
    /// Samples per batch (the last batch may be shorter).
    pub batch_size: usize,
    /// The input planes.
    pub input: InputKind,
    /// Policy over the 1496 compact labels instead of the 2187 dlshogi labels.
    pub compact_policy: bool,
    /// Also fill Novice's auxiliary targets (`effects`, `declaration`).
    pub novice_targets: bool,
    /// Worker threads expanding batches (at least 1).
    pub workers: usize,
    /// Finished batches buffered ahead of the consumer.
    pub queue: usize,
}

impl Default for BatchConfig {
    fn default() -> BatchConfig {
        BatchConfig {
            batch_size: 1024,
            input: InputKind::Dlshogi { nyugyoku: false },
            compact_policy: false,
            novice_targets: false,
            workers: 2,
            queue: 4,
        }
    }
}

impl BatchConfig {
    /// Policy entries per sample (2187 or 1496).
    pub fn policy_len(&self) -> usize {
        if self.compact_policy {
            COMPACT_LABEL_NUM
        } else {
            LABEL_NUM
        }
    }
}

/// A batch of expanded samples (layout in the module doc).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Batch {
    /// Samples in the batch.
    pub len: usize,
    /// Input planes 1.
    pub input1: Vec<f32>,
    /// Input planes 2.
    pub input2: Vec<f32>,
    /// Policy targets (probabilities).
    pub policy: Vec<f32>,
    /// Value targets from the evals.
    pub value: Vec<f32>,
    /// Game results for the side to move.
    pub result: Vec<f32>,
    /// Novice's effect targets (empty unless asked for).
    pub effects: Vec<f32>,
    /// Novice's declaration classes (empty unless asked for).
    pub declaration: Vec<u8>,
    /// Samples left out because their packed position did not decode (or a compact policy
    /// target had a label outside the 1496).
    pub skipped: usize,
}

/// Expands `samples` into one batch.
pub fn fill_batch(samples: &[Sample], cfg: &BatchConfig) -> Batch {
    let mut b = Batch::default();
    fill_batch_into(samples, cfg, &mut b);
    b
}

/// Expands `samples` into `b`, reusing its allocations: a batch of 1024 dlshogi samples is about
/// 50 MB, and fresh allocations of that size cost page faults on every batch.
pub fn fill_batch_into(samples: &[Sample], cfg: &BatchConfig, b: &mut Batch) {
    let (l1, l2, lp) = (
        cfg.input.input1_len(),
        cfg.input.input2_len(),
        cfg.policy_len(),
    );
    let n = samples.len();
    b.len = 0;
    b.skipped = 0;
    // Inputs are overwritten row by row; only the sparse policy rows need zeros.
    b.input1.resize(n * l1, 0.0);
    b.input2.resize(n * l2, 0.0);
    b.policy.clear();
    b.policy.resize(n * lp, 0.0);
    b.value.clear();
    b.result.clear();
    b.effects
        .resize(if cfg.novice_targets { n * 162 } else { 0 }, 0.0);
    b.declaration.clear();
    let mut sfen = String::with_capacity(128);
    for s in samples {
        let Ok(raw) = s.hcp.decode() else {
            b.skipped += 1;
            continue;
        };
        let Ok(pos) = position_from_raw(&raw, s.ply as u32, &mut sfen) else {
            b.skipped += 1;
            continue;
        };
        let i = b.len;
        let policy = &mut b.policy[i * lp..(i + 1) * lp];
        let mut ok = true;
        for &(label, p) in &s.policy {
            let idx = if cfg.compact_policy {
                compact_label(label).map(usize::from)
            } else {
                Some(label as usize)
            };
            match idx.filter(|&x| x < lp) {
                Some(x) => policy[x] += p,
                None => ok = false,
            }
        }
        if !ok {
            policy.fill(0.0);
            b.skipped += 1;
            continue;
        }
        match &cfg.input {
            InputKind::Dlshogi { nyugyoku } => {
                let f = DlshogiFeatures::new(&pos, *nyugyoku);
                f.write_input1(&mut b.input1[i * l1..(i + 1) * l1]);
                f.write_input2(&mut b.input2[i * l2..(i + 1) * l2]);
            }
            InputKind::Novice(nc) => {
                // A self-play game's own settings, where its sidecar gave them.
                let nc = s.novice.map_or(*nc, |g| g.config);
                write_novice_features(&pos, &nc, &mut b.input1[i * l1..(i + 1) * l1])
            }
        }
        if cfg.novice_targets {
            let t = NoviceTargets::new(&pos);
            t.write_effects(&mut b.effects[i * 162..(i + 1) * 162]);
            b.declaration.push(t.declaration as u8);
        }
        b.value.push(s.value);
        // Novice learns the result as its game scored it (a draw that counted as a win is a
        // win, the inputs saying so); other networks learn the real one.
        let result = match (&cfg.input, s.novice) {
            (InputKind::Novice(_), Some(g)) => g.scored,
            _ => s.result,
        };
        b.result.push(result);
        b.len += 1;
    }
    // Trim the room reserved for skipped samples.
    let k = b.len;
    b.input1.truncate(k * l1);
    b.input2.truncate(k * l2);
    b.policy.truncate(k * lp);
    if cfg.novice_targets {
        b.effects.truncate(k * 162);
    }
}

/// Batches built on worker threads from a stream of samples. Batches come out in completion
/// order (with one worker, in stream order). Dropping the loader stops the threads.
pub struct BatchLoader {
    rx: Option<Receiver<Batch>>,
    pool: Option<SyncSender<Batch>>,
    threads: Vec<JoinHandle<()>>,
}

impl BatchLoader {
    /// Starts a reader thread that cuts `samples` into chunks and `cfg.workers` threads that
    /// expand them.
    pub fn spawn<I>(samples: I, cfg: BatchConfig) -> BatchLoader
    where
        I: Iterator<Item = Sample> + Send + 'static,
    {
        let workers = cfg.workers.max(1);
        let size = cfg.batch_size.max(1);
        let (job_tx, job_rx): (SyncSender<Vec<Sample>>, Receiver<Vec<Sample>>) =
            sync_channel(workers * 2);
        let (out_tx, out_rx) = sync_channel(cfg.queue.max(1));
        let mut threads = Vec::with_capacity(workers + 1);
        threads.push(std::thread::spawn(move || {
            let mut chunk = Vec::with_capacity(size);
            for s in samples {
                chunk.push(s);
                if chunk.len() == size {
                    let full = std::mem::replace(&mut chunk, Vec::with_capacity(size));
                    if job_tx.send(full).is_err() {
                        return;
                    }
                }
            }
            if !chunk.is_empty() {
                let _ = job_tx.send(chunk);
            }
        }));
        let job_rx = Arc::new(Mutex::new(job_rx));
        let queue = cfg.queue.max(1);
        let (pool_tx, pool_rx) = sync_channel::<Batch>(queue + workers);
        let pool_rx = Arc::new(Mutex::new(pool_rx));
        for _ in 0..workers {
            let job_rx = Arc::clone(&job_rx);
            let pool_rx = Arc::clone(&pool_rx);
            let out_tx: SyncSender<Batch> = out_tx.clone();
            threads.push(std::thread::spawn(move || {
                loop {
                    // A poisoned lock means another worker panicked: stop too.
                    let job = match job_rx.lock() {
                        Ok(rx) => rx.recv(),
                        Err(_) => return,
                    };
                    let Ok(chunk) = job else { return };
                    // Reuse a batch the consumer handed back, if any.
                    let mut batch = match pool_rx.lock() {
                        Ok(rx) => rx.try_recv().unwrap_or_default(),
                        Err(_) => return,
                    };
                    fill_batch_into(&chunk, &cfg, &mut batch);
                    if out_tx.send(batch).is_err() {
                        return;
                    }
                }
            }));
        }
        BatchLoader {
            rx: Some(out_rx),
            pool: Some(pool_tx),
            threads,
        }
    }

    /// The next batch, `None` once every sample has been delivered (same as `next`, but through
    /// a shared reference so that [`BatchLoader::recycle`] can be called in the same loop).
    pub fn next_batch(&self) -> Option<Batch> {
        self.rx.as_ref()?.recv().ok()
    }

    /// Hands a consumed batch back so that a worker can reuse its memory (optional; a full pool
    /// drops it).
    pub fn recycle(&self, batch: Batch) {
        if let Some(pool) = &self.pool {
            let _ = pool.try_send(batch);
        }
    }
}

impl Iterator for BatchLoader {
    type Item = Batch;

    fn next(&mut self) -> Option<Batch> {
        self.next_batch()
    }
}

impl Drop for BatchLoader {
    fn drop(&mut self) {
        // Closing the output makes the workers' sends fail; they exit, and then the reader's.
        self.rx = None;
        self.pool = None;
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}
