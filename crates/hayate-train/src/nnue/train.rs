//! The NNUE training loop: seeded batches, Adam steps, validation, metrics (`metrics.csv`,
//! `metrics.svg`), checkpoints that resume exactly, and the exported `nn.bin`.
//!
//! Everything a step depends on is a function of the checkpoint and the step number: the
//! batch order comes from `(seed, step)` ([`crate::data::EpochOrder`]), the weights and Adam's
//! moments are saved whole, and the step itself does not depend on the thread count
//! ([`super::step`]). So stopping after `n` steps and resuming gives the weights of a run
//! that never stopped, bit for bit.

use super::checkpoint::{self, CheckpointHeader};
use super::export::write_nnbin;
use super::features::Sample;
use super::loss::LossConfig;
use super::model::Model;
use super::optim::{AdamConfig, AdamState};
use super::step::{StepBuffers, StepOptions, mean_loss, train_step};
use crate::data::EpochOrder;
use crate::error::TrainError;
use crate::plot;
use crate::schedule::Schedule;
use serde::{Deserialize, Serialize};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The run's hyper-parameters (saved in the checkpoint; a resumed run keeps them).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NnueConfig {
    /// Positions per step.
    pub batch_size: usize,
    /// Passes over the training data.
    pub epochs: u64,
    /// Base learning rate.
    pub lr: f64,
    /// Learning-rate schedule over the run's steps.
    pub schedule: Schedule,
    /// Adam's constants.
    pub adam: AdamConfig,
    /// The loss's constants.
    pub loss: LossConfig,
    /// Train the factor rows (P-only and K-only) too.
    pub factorised: bool,
    /// Seed of the initial weights and the batch order.
    pub seed: u64,
    /// Validate every this many steps (0: at the end of each epoch).
    pub eval_every: u64,
    /// Checkpoint every this many steps (0: at the end of each epoch).
    pub checkpoint_every: u64,
    /// Quantisation-aware steps: gradients taken at the int8-rounded hidden and output
    /// weights (see [`super::step::train_step`]).
    #[serde(default)]
    pub quantise_aware: bool,
    /// Train the dense parameters alone (the transformer's biases, the hidden and output
    /// layers); the feature transformer's weights stay as initialised (fine-tuning on few
    /// positions, which the transformer's millions of weights would memorise).
    #[serde(default)]
    pub freeze_ft: bool,
}

impl Default for NnueConfig {
    fn default() -> Self {
        NnueConfig {
            batch_size: 16384,
            epochs: 10,
            lr: 1e-3,
            schedule: Schedule::WarmupCosine {
                warmup: 100,
                min_lr: 1e-5,
            },
            adam: AdamConfig::default(),
            loss: LossConfig::default(),
            factorised: false,
            seed: 1,
            eval_every: 0,
            checkpoint_every: 0,
            quantise_aware: false,
            freeze_ft: false,
        }
    }
}

impl NnueConfig {
    /// Steps per epoch over `n` training positions.
    pub fn steps_per_epoch(&self, n: usize) -> u64 {
        (n / self.batch_size.max(1)) as u64
    }
}

/// Where the starting weights come from (ignored when a checkpoint exists: it resumes).
#[derive(Clone, Debug)]
pub enum Init {
    /// Seeded random weights.
    Scratch,
    /// A de-quantised `nn.bin` (fine-tuning).
    Model(Box<Model>),
}

/// How this invocation runs (not saved: a resumed run may choose differently).
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Worker threads.
    pub threads: usize,
    /// Stop (with a checkpoint) after this many steps in total, even if the run is longer.
    pub stop_at: Option<u64>,
}

/// What the caller is told as the run goes.
#[derive(Clone, Copy, Debug)]
pub enum Event {
    /// The run starts at `step` of `total` steps.
    Start {
        /// First step of this invocation.
        step: u64,
        /// Steps of the whole run.
        total: u64,
    },
    /// A step finished.
    Step {
        /// The step (0-based).
        step: u64,
        /// Its learning rate.
        lr: f64,
        /// Its batch's mean loss.
        loss: f64,
        /// Positions per second of the step.
        positions_per_sec: f64,
    },
    /// The validation loss after `step` steps.
    Validation {
        /// Steps done.
        step: u64,
        /// Mean loss on the validation positions.
        loss: f64,
    },
    /// A checkpoint (and `nn.bin`) was written after `step` steps.
    Checkpoint(u64),
}

/// The outcome of [`train`].
#[derive(Clone, Debug)]
pub struct Summary {
    /// Step this invocation started at.
    pub start_step: u64,
    /// Steps done in total.
    pub end_step: u64,
    /// The validation losses of this invocation, `(steps done, loss)`.
    pub validations: Vec<(u64, f64)>,
    /// The trained model.
    pub model: Model,
}

/// The files of a run directory.
pub struct RunFiles {
    /// `checkpoint.bin`.
    pub checkpoint: PathBuf,
    /// `metrics.csv`.
    pub metrics: PathBuf,
    /// `metrics.svg`.
    pub svg: PathBuf,
    /// `nn.bin`.
    pub nnbin: PathBuf,
}

impl RunFiles {
    /// The files under `dir`.
    pub fn new(dir: &Path) -> RunFiles {
        RunFiles {
            checkpoint: dir.join("checkpoint.bin"),
            metrics: dir.join("metrics.csv"),
            svg: dir.join("metrics.svg"),
            nnbin: dir.join("nn.bin"),
        }
    }
}

const CSV_HEADER: &str = "kind,step,lr,loss,positions_per_sec\n";

/// Keeps the metrics rows of steps before `start` (a resumed run rewrites the rest).
fn reset_metrics(path: &Path, start: u64) -> Result<(), TrainError> {
    let old = fs::read_to_string(path).unwrap_or_default();
    let mut text = String::from(CSV_HEADER);
    for line in old.lines().skip(1) {
        let step = line.split(',').nth(1).and_then(|s| s.parse::<u64>().ok());
        if step.is_some_and(|s| s < start) {
            text.push_str(line);
            text.push('\n');
        }
    }
    fs::write(path, text).map_err(|e| TrainError::io(path, e))
}

fn append_metrics(path: &Path, row: &str) -> Result<(), TrainError> {
    let mut f = fs::OpenOptions::new()
        .append(true)
        .open(path)
        .map_err(|e| TrainError::io(path, e))?;
    writeln!(f, "{row}").map_err(|e| TrainError::io(path, e))
}

fn redraw(files: &RunFiles) -> Result<(), TrainError> {
    let csv = fs::read_to_string(&files.metrics).map_err(|e| TrainError::io(&files.metrics, e))?;
    let svg = plot::loss_svg(&plot::parse_metrics(&csv));
    fs::write(&files.svg, svg).map_err(|e| TrainError::io(&files.svg, e))
}

/// The validation pass and where it reports.
struct Validation<'a> {
    val: &'a [Sample],
    loss: LossConfig,
    threads: usize,
    files: &'a RunFiles,
}

impl Validation<'_> {
    /// Validates after `done` steps: event, metrics row, redrawn curve.
    fn run(
        &self,
        m: &Model,
        done: u64,
        validations: &mut Vec<(u64, f64)>,
        on_event: &mut dyn FnMut(Event),
    ) -> Result<(), TrainError> {
        if self.val.is_empty() {
            return Ok(());
        }
        let loss = mean_loss(m, &self.loss, self.val, self.threads);
        validations.push((done, loss));
        on_event(Event::Validation { step: done, loss });
        append_metrics(&self.files.metrics, &format!("val,{done},0,{loss:.6},0"))?;
        redraw(self.files)
    }
}

/// Whether step count `done` hits a period (`every`, or the epoch end when 0).
fn due(done: u64, every: u64, per_epoch: u64) -> bool {
    let p = if every == 0 { per_epoch } else { every };
    done.is_multiple_of(p.max(1))
}

/// Trains in `dir` (resuming from `dir/checkpoint.bin` when it exists; then its saved
/// configuration wins over `cfg`), validating on `val`, and writes `dir/nn.bin`.
///
/// # Errors
/// Too few positions for one batch, I/O errors, or a loss that is no longer finite.
pub fn train(
    cfg: &NnueConfig,
    init: Init,
    data: &[Sample],
    val: &[Sample],
    dir: &Path,
    run: &RunOptions,
    on_event: &mut dyn FnMut(Event),
) -> Result<Summary, TrainError> {
    fs::create_dir_all(dir).map_err(|e| TrainError::io(dir, e))?;
    let files = RunFiles::new(dir);
    let (cfg, mut model, mut adam, start) = if files.checkpoint.exists() {
        let (h, m, st) = checkpoint::load(&files.checkpoint)?;
        (h.config, m, st, h.step)
    } else {
        let m = match init {
            Init::Scratch => Model::new(cfg.seed, cfg.factorised),
            Init::Model(m) => *m,
        };
        let st = AdamState::new(m.ft.len());
        (cfg.clone(), m, st, 0)
    };
    if cfg.batch_size == 0 || data.len() < cfg.batch_size {
        return Err(TrainError::TooFewSamples {
            needed: cfg.batch_size.max(1),
            have: data.len(),
        });
    }
    let per_epoch = cfg.steps_per_epoch(data.len());
    let total = per_epoch * cfg.epochs;
    let end = run.stop_at.map_or(total, |s| s.min(total));
    on_event(Event::Start { step: start, total });
    reset_metrics(&files.metrics, start)?;
    let mut validations = Vec::new();
    let check = Validation {
        val,
        loss: cfg.loss,
        threads: run.threads,
        files: &files,
    };
    if start == 0 {
        check.run(&model, 0, &mut validations, on_event)?;
    }
    let mut order = EpochOrder::default();
    let mut buf = StepBuffers::default();
    let mut batch = Vec::with_capacity(cfg.batch_size);
    for step in start..end {
        let t0 = Instant::now();
        batch.clear();
        batch.extend(
            order
                .batch(data.len(), cfg.batch_size, cfg.seed, step)
                .iter()
                .map(|&i| data[i]),
        );
        let lr = cfg.schedule.lr(cfg.lr, step, total);
        let loss = train_step(
            &mut model,
            &mut adam,
            cfg.adam,
            &cfg.loss,
            &batch,
            StepOptions {
                lr,
                quantise_aware: cfg.quantise_aware,
                freeze_ft: cfg.freeze_ft,
            },
            run.threads,
            &mut buf,
        );
        if !loss.is_finite() {
            return Err(TrainError::Diverged(step));
        }
        let pps = batch.len() as f64 / t0.elapsed().as_secs_f64().max(1e-9);
        on_event(Event::Step {
            step,
            lr,
            loss,
            positions_per_sec: pps,
        });
        append_metrics(
            &files.metrics,
            &format!("train,{step},{lr:.3e},{loss:.6},{pps:.0}"),
        )?;
        let done = step + 1;
        if due(done, cfg.eval_every, per_epoch) || done == end {
            check.run(&model, done, &mut validations, on_event)?;
        }
        if due(done, cfg.checkpoint_every, per_epoch) || done == end {
            let header = CheckpointHeader {
                config: cfg.clone(),
                step: done,
            };
            checkpoint::save(&files.checkpoint, &header, &model, &adam)?;
            write_nnbin(&files.nnbin, &model)?;
            on_event(Event::Checkpoint(done));
        }
    }
    if start >= end {
        write_nnbin(&files.nnbin, &model)?;
    }
    Ok(Summary {
        start_step: start,
        end_step: end.max(start),
        validations,
        model,
    })
}
