//! The training loop: batches → forward → dlshogi loss → backward → global-norm clipping →
//! optimiser step, with checkpoints (exact resume), metrics CSV (and `metrics.svg`, redrawn at
//! each checkpoint) and validation.
//!
//! Resuming is exact: the batch order is a function of `(seed, step)` (see [`crate::data`]),
//! the weights, batch-norm statistics and optimiser state are in the checkpoint, and nothing
//! else is random, so a resumed run computes the same next-step loss as an uninterrupted one.

use crate::checkpoint;
use crate::data::{EpochOrder, TrainData};
use crate::error::TrainError;
use crate::network::Network;
use crate::optim::{OptimizerConfig, clip_grad_norm};
use crate::schedule::Schedule;
use burn::optim::GradientsParams;
use burn::tensor::{Device, Tensor};
use hayate_nn::dataset::{Batch, BatchConfig, fill_batch_into};
use serde::{Deserialize, Serialize};
use std::fs::{self, OpenOptions};
use std::io::Write;
use std::path::Path;
use std::time::Instant;

/// Hyper-parameters of a run (saved in checkpoints).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrainConfig {
    /// Samples per step.
    pub batch_size: usize,
    /// Total optimiser steps of the run.
    pub steps: u64,
    /// Base learning rate.
    pub lr: f64,
    /// Learning-rate schedule.
    pub schedule: Schedule,
    /// Optimiser.
    pub optimizer: OptimizerConfig,
    /// λ mixing the eval value into the value target (dlshogi: 0.333).
    pub val_lambda: f32,
    /// Global gradient-norm clipping (dlshogi: 10), `None` for none.
    pub clip_grad_norm: Option<f32>,
    /// Checkpoint every this many steps (0: only at the end).
    pub checkpoint_every: u64,
    /// Validate every this many steps (0: only at the end).
    pub eval_every: u64,
    /// Seed of the weight initialisation and the batch order.
    pub seed: u64,
}

impl Default for TrainConfig {
    /// dlshogi's defaults (batch 1024, SGD Nesterov lr 0.01, wd 1e-4, clip 10, λ 0.333).
    fn default() -> TrainConfig {
        TrainConfig {
            batch_size: 1024,
            steps: 1000,
            lr: 0.01,
            schedule: Schedule::Constant,
            optimizer: OptimizerConfig::dlshogi_sgd(),
            val_lambda: 0.333,
            clip_grad_norm: Some(10.0),
            checkpoint_every: 1000,
            eval_every: 1000,
            seed: 1,
        }
    }
}

/// Metrics of one training step or one validation pass.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Metrics {
    /// Steps completed when they were taken (1 after the first step), as the console counts.
    pub step: u64,
    /// Learning rate of the step (0 for validation).
    pub lr: f64,
    /// Total loss.
    pub loss: f32,
    /// Policy cross-entropy.
    pub policy_loss: f32,
    /// Value BCE (mixed target).
    pub value_loss: f32,
    /// Share of samples whose policy argmax is the target's argmax.
    pub policy_accuracy: f32,
    /// Share of decided games whose value (> 0.5) predicts the result.
    pub value_accuracy: f32,
    /// Gradient norm before clipping (0 for validation).
    pub grad_norm: f32,
    /// Throughput of the step (0 for validation).
    pub samples_per_sec: f32,
}

/// What the caller is told as the run goes.
#[derive(Clone, Copy, Debug)]
pub enum Event {
    /// A training step finished.
    Step(Metrics),
    /// A validation pass finished.
    Validation(Metrics),
    /// A checkpoint was written after `step` steps.
    Checkpoint(u64),
}

/// How this invocation runs (not saved: a resumed run may choose differently).
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Stop (with a checkpoint) after this step count even if the run is not finished.
    pub stop_at: Option<u64>,
}

/// The result of [`train`].
#[derive(Clone, Debug)]
pub struct TrainSummary {
    /// Step the run started from (non-zero when resumed).
    pub start_step: u64,
    /// Steps completed in total.
    pub end_step: u64,
    /// The training metrics of the steps run in this invocation.
    pub steps: Vec<Metrics>,
    /// The validation metrics of this invocation.
    pub validations: Vec<Metrics>,
}

/// Trains a model of family `N` in `out_dir` (checkpoint in `out_dir/checkpoint`, metrics in
/// `out_dir/metrics.csv`). If a checkpoint exists there the run resumes from it (its model
/// config wins over `model_config`). `device` is the plain device (e.g. `Device::flex()`);
/// autodiff is added here.
///
/// # Errors
/// On I/O errors, too little data, a bad config, or a diverged loss.
// Each argument has its own role (what, how, on which data, where, on which device, for how
// long, who is told); a struct bundling them would only move the list.
#[allow(clippy::too_many_arguments)]
pub fn train<N: Network>(
    model_config: &N::Config,
    cfg: &TrainConfig,
    data: &TrainData,
    validation: Option<&TrainData>,
    out_dir: &Path,
    device: &Device,
    run: &RunOptions,
    on_event: &mut dyn FnMut(Event),
) -> Result<TrainSummary, TrainError> {
    if cfg.batch_size == 0 || cfg.steps == 0 {
        return Err(TrainError::Config(
            "batch size and steps must be positive".into(),
        ));
    }
    if data.samples.len() < cfg.batch_size {
        return Err(TrainError::TooFewSamples {
            needed: cfg.batch_size,
            have: data.samples.len(),
        });
    }
    fs::create_dir_all(out_dir).map_err(|e| TrainError::io(out_dir, e))?;
    let ckpt_dir = out_dir.join("checkpoint");
    let ad = device.clone().autodiff();

    let (mut model, model_config, mut optim, start) = if ckpt_dir.join("state.json").exists() {
        let l = checkpoint::load::<N>(&ckpt_dir, &ad, Some(cfg.optimizer.init()))?;
        let optim = l.optim.unwrap_or_else(|| cfg.optimizer.init());
        (l.model, l.config, optim, l.state.step)
    } else {
        device.seed(cfg.seed);
        ad.seed(cfg.seed);
        (
            N::init(model_config, &ad)?,
            model_config.clone(),
            cfg.optimizer.init(),
            0,
        )
    };

    let batch_cfg = BatchConfig {
        batch_size: cfg.batch_size,
        input: N::input_kind(&model_config),
        compact_policy: N::compact_policy(&model_config),
        novice_targets: N::novice_targets(&model_config),
        workers: 1,
        queue: 1,
    };
    let csv_path = out_dir.join("metrics.csv");
    let mut csv = MetricsCsv::open(&csv_path, start)?;
    let end = run.stop_at.map_or(cfg.steps, |s| s.min(cfg.steps));
    let mut order = EpochOrder::default();
    let mut scratch = Vec::new();
    let mut batch = Batch::default();
    let mut summary = TrainSummary {
        start_step: start,
        end_step: start,
        steps: Vec::new(),
        validations: Vec::new(),
    };

    for step in start..end {
        let t0 = Instant::now();
        data.batch_for_step(
            step,
            &batch_cfg,
            cfg.seed,
            &mut order,
            &mut scratch,
            &mut batch,
        );
        let lr = cfg.schedule.lr(cfg.lr, step, cfg.steps);
        let (losses, out) = model.losses(
            &scratch,
            &batch,
            batch_cfg.policy_len(),
            cfg.val_lambda,
            &ad,
        );
        let grads = losses.total.backward();
        let mut grads = GradientsParams::from_grads(grads, &model);
        let grad_norm = match cfg.clip_grad_norm {
            Some(max) => clip_grad_norm(&model, &mut grads, max),
            None => 0.0,
        };
        model = optim.step(lr, model, grads);
        let (pacc, vacc) = accuracies(&out.policy, &out.value, &batch, batch_cfg.policy_len());
        let m = Metrics {
            step: step + 1,
            lr,
            loss: scalar(&losses.total),
            policy_loss: scalar(&losses.policy),
            value_loss: scalar(&losses.value),
            policy_accuracy: pacc,
            value_accuracy: vacc,
            grad_norm,
            samples_per_sec: batch.len as f32 / t0.elapsed().as_secs_f32().max(1e-9),
        };
        if !m.loss.is_finite() {
            return Err(TrainError::Diverged(step));
        }
        csv.write("train", &m)?;
        summary.steps.push(m);
        summary.end_step = step + 1;
        on_event(Event::Step(m));
        let done = step + 1;
        let last = done == end;
        if let Some(v) = validation.filter(|v| !v.samples.is_empty())
            && ((cfg.eval_every > 0 && done % cfg.eval_every == 0) || (last && done == cfg.steps))
        {
            let mut vm = validate(&model, v, &batch_cfg, cfg.val_lambda, device);
            vm.step = done;
            csv.write("val", &vm)?;
            summary.validations.push(vm);
            on_event(Event::Validation(vm));
        }
        if last || (cfg.checkpoint_every > 0 && done % cfg.checkpoint_every == 0) {
            checkpoint::save(
                &ckpt_dir,
                &model,
                &model_config,
                Some(&optim),
                Some(cfg),
                done,
            )?;
            // The picture is redrawn with each checkpoint; failing to draw it is not an error.
            if let Ok(text) = fs::read_to_string(&csv_path) {
                let svg = crate::plot::metrics_svg(&crate::plot::parse_metrics(&text));
                let _ = fs::write(out_dir.join("metrics.svg"), svg);
            }
            on_event(Event::Checkpoint(done));
        }
    }
    Ok(summary)
}

fn scalar(t: &Tensor<1>) -> f32 {
    t.clone().into_scalar::<f32>()
}

/// Policy top-1 agreement with the target's argmax, and value/result agreement over decided
/// games, computed on the host.
fn accuracies(
    policy: &Tensor<2>,
    value: &Tensor<2>,
    batch: &Batch,
    policy_len: usize,
) -> (f32, f32) {
    let logits = policy.to_data().try_to_vec::<f32>().unwrap_or_default();
    let values = value.to_data().try_to_vec::<f32>().unwrap_or_default();
    let n = batch.len;
    if n == 0 || logits.len() < n * policy_len || values.len() < n {
        return (0.0, 0.0);
    }
    let argmax = |xs: &[f32]| {
        xs.iter()
            .enumerate()
            .fold(
                (0, f32::NEG_INFINITY),
                |b, (i, &x)| if x > b.1 { (i, x) } else { b },
            )
            .0
    };
    let mut hits = 0usize;
    let (mut vhits, mut decided) = (0usize, 0usize);
    for (i, (&v, &r)) in values.iter().zip(&batch.result).take(n).enumerate() {
        let range = i * policy_len..(i + 1) * policy_len;
        if argmax(&logits[range.clone()]) == argmax(&batch.policy[range]) {
            hits += 1;
        }
        if r != 0.5 {
            decided += 1;
            if (v > 0.0) == (r > 0.5) {
                vhits += 1;
            }
        }
    }
    (
        hits as f32 / n as f32,
        if decided == 0 {
            0.0
        } else {
            vhits as f32 / decided as f32
        },
    )
}

/// Loss and accuracies of `model` over `data` (batch-norm running statistics, no gradients).
pub fn validate<N: Network>(
    model: &N,
    data: &TrainData,
    batch_cfg: &BatchConfig,
    lambda: f32,
    device: &Device,
) -> Metrics {
    let plain = device.clone().without_autodiff();
    let model = model.valid().to_device(&plain);
    let mut batch = Batch::default();
    let (mut loss, mut pl, mut vl, mut pa, mut va, mut n) = (0.0, 0.0, 0.0, 0.0, 0.0, 0usize);
    for chunk in data.chunks(batch_cfg.batch_size) {
        fill_batch_into(chunk, batch_cfg, &mut batch);
        if batch.len == 0 {
            continue;
        }
        let (l, out) = model.losses(chunk, &batch, batch_cfg.policy_len(), lambda, &plain);
        let w = batch.len as f32;
        loss += scalar(&l.total) * w;
        pl += scalar(&l.policy) * w;
        vl += scalar(&l.value) * w;
        let (a, b) = accuracies(&out.policy, &out.value, &batch, batch_cfg.policy_len());
        pa += a * w;
        va += b * w;
        n += batch.len;
    }
    let d = (n.max(1)) as f32;
    Metrics {
        step: 0,
        lr: 0.0,
        loss: loss / d,
        policy_loss: pl / d,
        value_loss: vl / d,
        policy_accuracy: pa / d,
        value_accuracy: va / d,
        grad_norm: 0.0,
        samples_per_sec: 0.0,
    }
}

/// The data rows of `metrics.csv` text whose step is at most `start` (header and malformed
/// lines dropped), each ending in a newline.
fn rows_up_to(csv: &str, start: u64) -> String {
    csv.lines()
        .filter(|l| {
            let step = l.split(',').nth(1).and_then(|s| s.parse::<u64>().ok());
            step.is_some_and(|s| s <= start)
        })
        .map(|l| format!("{l}\n"))
        .collect()
}

/// `metrics.csv`: one row per training step and per validation, appended across resumes.
struct MetricsCsv {
    file: fs::File,
    path: std::path::PathBuf,
}

impl MetricsCsv {
    const HEADER: &'static str = "kind,step,lr,loss,policy_loss,value_loss,policy_accuracy,value_accuracy,grad_norm,samples_per_sec\n";

    /// Opens the file to append after `start` completed steps: rows of later steps (written
    /// after the checkpoint a resumed run starts from) are dropped, so no step appears twice.
    fn open(path: &Path, start: u64) -> Result<MetricsCsv, TrainError> {
        let io = |e| TrainError::io(path, e);
        let old = match fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(io(e)),
        };
        let tmp = path.with_extension("csv.tmp");
        let text = format!("{}{}", Self::HEADER, rows_up_to(&old, start));
        fs::write(&tmp, text).map_err(io)?;
        fs::rename(&tmp, path).map_err(io)?;
        let file = OpenOptions::new().append(true).open(path).map_err(io)?;
        Ok(MetricsCsv {
            file,
            path: path.to_path_buf(),
        })
    }

    fn write(&mut self, kind: &str, m: &Metrics) -> Result<(), TrainError> {
        writeln!(
            self.file,
            "{kind},{},{:.6e},{:.6},{:.6},{:.6},{:.4},{:.4},{:.4},{:.1}",
            m.step,
            m.lr,
            m.loss,
            m.policy_loss,
            m.value_loss,
            m.policy_accuracy,
            m.value_accuracy,
            m.grad_norm,
            m.samples_per_sec
        )
        .map_err(|e| TrainError::io(&self.path, e))
    }
}
