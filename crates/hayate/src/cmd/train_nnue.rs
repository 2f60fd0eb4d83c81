//! `hayate train nnue --out DIR DATA…`: trains a HalfKP 256x2-32-32 net on the CPU and writes
//! `DIR/nn.bin` (plus `checkpoint.bin`, `metrics.csv`, `metrics.svg`). Run it again on the
//! same DIR to resume exactly where it stopped.

use anyhow::{Context, bail};
use hayate_core::Position;
use hayate_eval::{Evaluator, Nnue};
use hayate_records::DataFormat;
use hayate_train::nnue::data::{Filter, Loaded, load_file, split_validation};
use hayate_train::nnue::export::load_nnbin;
use hayate_train::nnue::loss::LossConfig;
use hayate_train::nnue::optim::AdamConfig;
use hayate_train::nnue::{Event, Init, NnueConfig, RunOptions, train};
use hayate_train::nnue::{Model, Sample};
use hayate_train::schedule::Schedule;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Arguments of `hayate train nnue`.
#[derive(clap::Args)]
pub struct NnueArgs {
    /// Training files: psv (.psv/.bin), hcpe (.hcpe), hcpe3 (.hcpe3).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Output directory: nn.bin, checkpoint.bin, metrics.csv, metrics.svg.
    #[arg(long)]
    out: PathBuf,
    /// Format of every file (psv, hcpe, hcpe3; default: told by each file's name or size).
    #[arg(long)]
    format: Option<DataFormat>,
    /// Validation files (default: a split of the training data).
    #[arg(long)]
    val: Vec<PathBuf>,
    /// Share of the training data held out for validation when no --val is given.
    #[arg(long, default_value_t = 0.01)]
    val_split: f64,
    /// Start from this nn.bin (de-quantised) instead of random weights: fine-tuning.
    #[arg(long)]
    init: Option<PathBuf>,
    /// Passes over the training data.
    #[arg(long, default_value_t = 10)]
    epochs: u64,
    /// Positions per step.
    #[arg(long, default_value_t = 16384)]
    batch: usize,
    /// Adam's base learning rate.
    #[arg(long, default_value_t = 1e-3)]
    lr: f64,
    /// Warm-up steps (linear from 0), then cosine decay to --min-lr at the last step.
    #[arg(long, default_value_t = 100)]
    warmup: u64,
    /// Learning rate at the last step.
    #[arg(long, default_value_t = 1e-5)]
    min_lr: f64,
    /// Eval units per logit of win rate: sigmoid(eval / scale). 600 is YaneuraOu's, 361
    /// nodchip's.
    #[arg(long, default_value_t = 600.0)]
    scale: f32,
    /// Weight of the evaluation in the target: λ·sigmoid(score/scale) + (1-λ)·result.
    /// λ = 1 trains on the search score only, λ = 0 on game results only (YaneuraOu's and
    /// nnue-pytorch's convention; bullet's `wdl` is the weight of the result, i.e. 1 - λ).
    #[arg(long, default_value_t = 1.0)]
    lambda: f32,
    /// Skip positions whose |score| is above this.
    #[arg(long, default_value_t = 32000)]
    max_score: i16,
    /// Keep positions in check and positions whose best move captures (skipped by default:
    /// their score is an exchange under way that no static evaluation sees).
    #[arg(long)]
    keep_noisy: bool,
    /// Train factor rows (P-only and K-only weights added to every HalfKP weight, folded in
    /// at export): helps with little data.
    #[arg(long)]
    factorised: bool,
    /// Quantisation-aware training: each step's gradient is taken at the hidden and output
    /// weights rounded to nn.bin's int8 grids (applied to the float weights), so that the
    /// exported net evaluates as the trained one does.
    #[arg(long)]
    quantise_aware: bool,
    /// Train only the dense parameters (the transformer's 256 biases, the hidden and output
    /// layers); the feature transformer's weights (and factor rows) stay as initialised:
    /// fine-tuning an --init net on few positions, which the transformer's millions of
    /// weights would learn by heart
    #[arg(long)]
    freeze_ft: bool,
    /// Seed of the initial weights, the validation split and the batch order.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Validate every N steps (0: at each epoch's end).
    #[arg(long, default_value_t = 0)]
    eval_every: u64,
    /// Checkpoint (and write nn.bin) every N steps (0: at each epoch's end).
    #[arg(long, default_value_t = 0)]
    checkpoint_every: u64,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Stop after this many steps in total (with a checkpoint); run again to continue.
    #[arg(long)]
    stop_at: Option<u64>,
    /// After training, evaluate these SFEN lines with the float model and with the exported
    /// nn.bin (Hayate's loader) and print the error distribution.
    #[arg(long)]
    check_sfen: Option<PathBuf>,
}

/// Engine eval of the exported net minus the float model's, per SFEN line of `path`.
fn export_errors(model: &Model, nnbin: &Path, path: &Path) -> anyhow::Result<Vec<f32>> {
    let nnue = Nnue::load(nnbin)?;
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let mut errors = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let sfen = line.strip_prefix("sfen ").unwrap_or(line);
        let Ok(pos) = Position::from_sfen(sfen) else {
            eprintln!("skipping bad SFEN {sfen:?}");
            continue;
        };
        if let Some(s) = Sample::new(&pos, 0, 0) {
            errors.push(nnue.evaluate_once(&pos) as f32 - model.evaluate(&s));
        }
    }
    Ok(errors)
}

/// Prints the distribution of `errors` (eval units).
fn report_errors(errors: &mut [f32]) {
    if let Some(s) = super::error_stats::summary(errors) {
        eprintln!(
            "exported nn.bin minus float model over {} positions: {s}",
            errors.len()
        );
    }
}

fn load(
    files: &[PathBuf],
    format: Option<DataFormat>,
    a: &NnueArgs,
    threads: usize,
) -> anyhow::Result<Loaded> {
    let mut out = Loaded::default();
    for f in files {
        let fmt = match format {
            Some(f) => f,
            None => DataFormat::detect(f).map_err(anyhow::Error::msg)?,
        };
        let filter = Filter {
            max_score: a.max_score,
            quiet_only: !a.keep_noisy,
        };
        load_file(f, fmt, filter, threads, &mut out)
            .with_context(|| format!("reading {}", f.display()))?;
    }
    Ok(out)
}

fn progress_bar() -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(0);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:30} {pos}/{len} steps [{elapsed_precise} < {eta_precise}] {msg}",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar
}

/// Runs `hayate train nnue`.
pub fn run(a: NnueArgs) -> anyhow::Result<()> {
    let threads = a
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let t0 = Instant::now();
    let data = load(&a.files, a.format, &a, threads)?;
    let (train_set, val_set) = if a.val.is_empty() {
        split_validation(data.samples, a.val_split, a.seed)
    } else {
        (data.samples, load(&a.val, a.format, &a, threads)?.samples)
    };
    eprintln!(
        "{} training positions, {} validation, {} records skipped ({:.1}s to load)",
        train_set.len(),
        val_set.len(),
        data.skipped,
        t0.elapsed().as_secs_f64()
    );
    if train_set.len() < a.batch {
        bail!(
            "{} training positions: fewer than one batch of {}",
            train_set.len(),
            a.batch
        );
    }
    let cfg = NnueConfig {
        batch_size: a.batch,
        epochs: a.epochs,
        lr: a.lr,
        schedule: Schedule::WarmupCosine {
            warmup: a.warmup,
            min_lr: a.min_lr,
        },
        adam: AdamConfig::default(),
        loss: LossConfig {
            scale: a.scale,
            lambda: a.lambda,
        },
        factorised: a.factorised,
        seed: a.seed,
        eval_every: a.eval_every,
        checkpoint_every: a.checkpoint_every,
        quantise_aware: a.quantise_aware,
        freeze_ft: a.freeze_ft,
    };
    let init = match &a.init {
        Some(p) => Init::Model(Box::new(load_nnbin(p, a.factorised)?)),
        None => Init::Scratch,
    };
    let bar = progress_bar();
    let (mut positions, t_train) = (0u64, Instant::now());
    let summary = train(
        &cfg,
        init,
        &train_set,
        &val_set,
        &a.out,
        &RunOptions {
            threads,
            stop_at: a.stop_at,
        },
        &mut |e| match e {
            Event::Start { step, total } => {
                bar.set_length(total);
                bar.set_position(step);
            }
            Event::Step { lr, loss, .. } => {
                positions += cfg.batch_size as u64;
                let pps = positions as f64 / t_train.elapsed().as_secs_f64().max(1e-9);
                bar.inc(1);
                bar.set_message(format!("loss {loss:.5} lr {lr:.2e} {pps:.0} pos/s"));
            }
            Event::Validation { step, loss } => {
                bar.println(format!("validation loss after {step} steps: {loss:.6}"));
            }
            Event::Checkpoint(step) => bar.println(format!("checkpoint and nn.bin at step {step}")),
        },
    )?;
    bar.finish();
    let secs = t_train.elapsed().as_secs_f64();
    eprintln!(
        "steps {}..{} in {secs:.1}s ({:.0} positions/s); wrote {}",
        summary.start_step,
        summary.end_step,
        positions as f64 / secs.max(1e-9),
        a.out.join("nn.bin").display()
    );
    if let Some(path) = &a.check_sfen {
        report_errors(&mut export_errors(
            &summary.model,
            &a.out.join("nn.bin"),
            path,
        )?);
    }
    Ok(())
}
