//! `hayate train`: networks in burn on the CPU.
//!
//! - `hayate train fit --model resnet10x192_swish --out DIR FILE...`: trains on hcpe/hcpe3
//!   files (resumes when `DIR/checkpoint` exists), metrics in `DIR/metrics.csv`;
//! - `hayate train export-onnx CHECKPOINT OUT.onnx`: dlshogi's I/O names and shapes;
//! - `hayate train import-onnx MODEL.onnx CHECKPOINT`: a dlshogi ResNet / SE-ResNet ONNX file
//!   into a checkpoint that `fit` can fine-tune;
//! - `hayate train nnue --out DIR DATA...`: the NNUE trainer (see `train_nnue.rs`);
//! - `hayate train bench --model resnet10x128 --batch 128`: samples/s of training steps on
//!   generated positions.

use anyhow::{Context, bail};
use hayate_nn::dataset::SampleOptions;
use hayate_train::checkpoint;
use hayate_train::data::TrainData;
use hayate_train::network::Network;
use hayate_train::onnx::{export_dlshogi, export_gmlp, export_novice, export_ryfc, import_dlshogi};
use hayate_train::optim::OptimizerConfig;
use hayate_train::schedule::Schedule;
use hayate_train::train::{Event, RunOptions, TrainConfig, train};
use hayate_train::{Device, DlshogiNet, Gmlp, ModelSpec, NoviceNet, RyfcNet};
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `hayate train`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Train (or resume training) a network on hcpe/hcpe3 files.
    Fit(FitArgs),
    /// Export a checkpoint to ONNX (dlshogi's input1/input2 → output_policy/output_value).
    ExportOnnx {
        /// Checkpoint directory (e.g. OUT/checkpoint).
        checkpoint: PathBuf,
        /// The ONNX file to write.
        out: PathBuf,
    },
    /// Turn a dlshogi ResNet/SE-ResNet ONNX file into a checkpoint.
    ImportOnnx {
        /// The ONNX file.
        onnx: PathBuf,
        /// Checkpoint directory to write.
        out: PathBuf,
    },
    /// Train an NNUE HalfKP 256x2-32-32 net on psv/hcpe/hcpe3 files; writes OUT/nn.bin.
    Nnue(Box<super::train_nnue::NnueArgs>),
    /// Measure training steps on generated positions.
    Bench {
        /// Model name.
        #[arg(long, default_value = "resnet10x128")]
        model: String,
        /// Samples per step.
        #[arg(long, default_value_t = 128)]
        batch: usize,
        /// Steps to time (after one warm-up step).
        #[arg(long, default_value_t = 3)]
        steps: u64,
    },
}

#[derive(clap::Args)]
struct FitArgs {
    /// Training files (hcpe or hcpe3, detected per file).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Output directory (checkpoint/, metrics.csv).
    #[arg(long)]
    out: PathBuf,
    /// Model name. dlshogi's ResNet is `resnet<blocks>x<channels>_<act>` (resnet10x192_swish:
    /// 10 residual blocks of 192 channels, swish activation; `_relu` or no suffix: ReLU;
    /// `resnet<blocks>` alone takes dlshogi's width: 10→192, 15→224, 20→256, 30→384);
    /// `senet…` adds squeeze-excitation (`_reduction8` by default), `_nyugyoku` the 119-plane
    /// input2. Other families: gmlp (12×256) or gmlp<blocks>x<d_model>; novice (12×256) or
    /// novice<blocks>x<channels>[_relu]; ryfc (6×128 SCSF) or ryfc<blocks>x<channels>_<recipe>.
    #[arg(long, default_value = "resnet10x192_swish")]
    model: String,
    /// Validation files (default: a split of the training data).
    #[arg(long)]
    val: Vec<PathBuf>,
    /// Share of the training data held out for validation when no --val is given.
    #[arg(long, default_value_t = 0.01)]
    val_split: f64,
    /// Samples per step.
    #[arg(long, default_value_t = 1024)]
    batch: usize,
    /// Total steps (default: 1 epoch).
    #[arg(long)]
    steps: Option<u64>,
    /// Base learning rate.
    #[arg(long, default_value_t = 0.01)]
    lr: f64,
    /// Optimiser.
    #[arg(long, value_enum, default_value = "sgd")]
    optimizer: Optim,
    /// Weight decay (SGD: L2 added to the gradient; AdamW: decoupled).
    #[arg(long, default_value_t = 1e-4)]
    weight_decay: f32,
    /// Learning-rate schedule.
    #[arg(long, value_enum, default_value = "constant")]
    schedule: Sched,
    /// Warm-up steps of the cosine schedule.
    #[arg(long, default_value_t = 0)]
    warmup: u64,
    /// Step schedule: decay every this many steps.
    #[arg(long, default_value_t = 10_000)]
    step_every: u64,
    /// Step schedule: decay factor.
    #[arg(long, default_value_t = 0.5)]
    step_gamma: f64,
    /// λ of the value target (eval share).
    #[arg(long, default_value_t = 0.333)]
    val_lambda: f32,
    /// Global gradient-norm clipping (0: none).
    #[arg(long, default_value_t = 10.0)]
    clip: f32,
    /// Checkpoint every N steps (0: only at the end).
    #[arg(long, default_value_t = 1000)]
    checkpoint_every: u64,
    /// Validate every N steps (0: only at the end).
    #[arg(long, default_value_t = 1000)]
    eval_every: u64,
    /// Seed of the initial weights and the batch order.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Temperature of hcpe3 visit distributions.
    #[arg(long, default_value_t = 1.0)]
    temperature: f32,
    /// Print a progress line every N steps.
    #[arg(long, default_value_t = 10)]
    log_every: u64,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum Optim {
    Sgd,
    Adamw,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum Sched {
    Constant,
    Cosine,
    Step,
}

/// Runs the command.
pub fn run(a: Args) -> anyhow::Result<()> {
    match a.command {
        Command::Fit(f) => fit(f),
        Command::Nnue(n) => super::train_nnue::run(*n),
        Command::ExportOnnx { checkpoint, out } => {
            let family = checkpoint::read_state(&checkpoint)?.family;
            let bytes = match family.as_str() {
                "dlshogi" => export_dlshogi(&load::<DlshogiNet>(&checkpoint)?),
                "gmlp" => export_gmlp(&load::<Gmlp>(&checkpoint)?),
                "novice" => export_novice(&load::<NoviceNet>(&checkpoint)?),
                "ryfc" => export_ryfc(&load::<RyfcNet>(&checkpoint)?),
                other => bail!("{}: unknown model family {other}", checkpoint.display()),
            };
            std::fs::write(&out, bytes).with_context(|| format!("writing {}", out.display()))?;
            eprintln!("{} ({family}) -> {}", checkpoint.display(), out.display());
            Ok(())
        }
        Command::ImportOnnx { onnx, out } => {
            let bytes =
                std::fs::read(&onnx).with_context(|| format!("reading {}", onnx.display()))?;
            let (net, cfg) = import_dlshogi(&bytes, &Device::flex())?;
            checkpoint::save(&out, &net, &cfg, None, None, 0)?;
            eprintln!("{} -> {} ({})", onnx.display(), out.display(), cfg.name());
            Ok(())
        }
        Command::Bench {
            model,
            batch,
            steps,
        } => match ModelSpec::from_name(&model)? {
            ModelSpec::Dlshogi(c) => bench::<DlshogiNet>(&c, &model, batch, steps),
            ModelSpec::Gmlp(c) => bench::<Gmlp>(&c, &model, batch, steps),
            ModelSpec::Novice(c) => bench::<NoviceNet>(&c, &model, batch, steps),
            ModelSpec::Ryfc(c) => bench::<RyfcNet>(&c, &model, batch, steps),
        },
    }
}

/// The model of a checkpoint, for export.
fn load<N: Network>(dir: &std::path::Path) -> anyhow::Result<N> {
    Ok(checkpoint::load::<N>(dir, &Device::flex(), None)
        .with_context(|| format!("loading {}", dir.display()))?
        .model)
}

fn fit(f: FitArgs) -> anyhow::Result<()> {
    match ModelSpec::from_name(&f.model)? {
        ModelSpec::Dlshogi(c) => fit_with::<DlshogiNet>(&c, f),
        ModelSpec::Gmlp(c) => fit_with::<Gmlp>(&c, f),
        ModelSpec::Novice(c) => fit_with::<NoviceNet>(&c, f),
        ModelSpec::Ryfc(c) => fit_with::<RyfcNet>(&c, f),
    }
}

fn fit_with<N: Network>(model: &N::Config, f: FitArgs) -> anyhow::Result<()> {
    let opts = SampleOptions {
        temperature: f.temperature,
        ..SampleOptions::default()
    };
    let data = TrainData::load(&f.files, opts)?;
    if data.corrupt > 0 {
        eprintln!("skipped {} corrupt records", data.corrupt);
    }
    for f in &data.without_evals {
        eprintln!(
            "warning: every eval in {} is 0: its value target is the game result",
            f.display()
        );
    }
    let (data, val) = if f.val.is_empty() {
        data.split_validation(f.val_split, f.seed)
    } else {
        (data, TrainData::load(&f.val, opts)?)
    };
    // A run that resumes (or fine-tunes an imported network) trains the checkpoint's model.
    let resumed = checkpoint::read_config::<N>(&f.out.join("checkpoint"))
        .ok()
        .map(|(_, c)| c);
    let model_text = match &resumed {
        Some(c) => format!(
            "the checkpoint's model in {} ({} parameters; --model is not used)",
            f.out.display(),
            N::param_count(c)
        ),
        None => format!("model {} ({} parameters)", f.model, N::param_count(model)),
    };
    eprintln!(
        "{} training samples, {} validation samples, {model_text}",
        data.samples.len(),
        val.samples.len(),
    );
    let steps = f
        .steps
        .unwrap_or(data.batches_per_epoch(f.batch).max(1) as u64);
    let cfg = TrainConfig {
        batch_size: f.batch,
        steps,
        lr: f.lr,
        schedule: match f.schedule {
            Sched::Constant => Schedule::Constant,
            Sched::Cosine => Schedule::WarmupCosine {
                warmup: f.warmup,
                min_lr: 0.0,
            },
            Sched::Step => Schedule::Step {
                every: f.step_every,
                gamma: f.step_gamma,
            },
        },
        optimizer: match f.optimizer {
            Optim::Sgd => OptimizerConfig::Sgd {
                momentum: 0.9,
                nesterov: true,
                weight_decay: f.weight_decay,
            },
            Optim::Adamw => OptimizerConfig::AdamW {
                beta1: 0.9,
                beta2: 0.999,
                weight_decay: f.weight_decay,
            },
        },
        val_lambda: f.val_lambda,
        clip_grad_norm: (f.clip > 0.0).then_some(f.clip),
        checkpoint_every: f.checkpoint_every,
        eval_every: f.eval_every,
        seed: f.seed,
    };
    let start = Instant::now();
    let mut first_step = None;
    let log_every = f.log_every.max(1);
    let summary = train::<N>(
        model,
        &cfg,
        &data,
        Some(&val),
        &f.out,
        &Device::flex(),
        &RunOptions::default(),
        &mut |e| match e {
            Event::Step(m) => {
                // `m.step` counts the steps done, this one included.
                let first = *first_step.get_or_insert(m.step - 1);
                if m.step % log_every == 0 || m.step == steps {
                    let done = (m.step - first) as f64;
                    let elapsed = start.elapsed().as_secs_f64();
                    let eta = elapsed / done * (steps - m.step) as f64;
                    eprintln!(
                        "step {}/{} loss {:.4} (policy {:.4}, value {:.4}) acc {:.3}/{:.3} lr {:.2e} {:.0} samples/s ETA {:.0}s",
                        m.step,
                        steps,
                        m.loss,
                        m.policy_loss,
                        m.value_loss,
                        m.policy_accuracy,
                        m.value_accuracy,
                        m.lr,
                        done * cfg.batch_size as f64 / elapsed,
                        eta
                    );
                }
            }
            Event::Validation(m) => eprintln!(
                "validation after step {}: loss {:.4} (policy {:.4}, value {:.4}) acc {:.3}/{:.3}",
                m.step, m.loss, m.policy_loss, m.value_loss, m.policy_accuracy, m.value_accuracy
            ),
            Event::Checkpoint(s) => eprintln!("checkpoint at step {s}"),
        },
    )?;
    eprintln!(
        "trained steps {}..{} in {:.1}s",
        summary.start_step,
        summary.end_step,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

fn bench<N: Network>(
    model: &N::Config,
    name: &str,
    batch: usize,
    steps: u64,
) -> anyhow::Result<()> {
    if batch == 0 || steps == 0 {
        bail!("batch and steps must be positive");
    }
    let data = hayate_train::synthetic::random_games(batch * (steps as usize + 1), 1);
    let cfg = TrainConfig {
        batch_size: batch,
        steps: steps + 1,
        checkpoint_every: 0,
        eval_every: 0,
        ..TrainConfig::default()
    };
    let dir = std::env::temp_dir().join(format!("hayate-train-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let s = train::<N>(
        model,
        &cfg,
        &data,
        None,
        &dir,
        &Device::flex(),
        &RunOptions::default(),
        &mut |_| {},
    );
    let _ = std::fs::remove_dir_all(&dir);
    let s = s?;
    let timed: Vec<f32> = s.steps.iter().skip(1).map(|m| m.samples_per_sec).collect();
    let mean = timed.iter().sum::<f32>() / timed.len().max(1) as f32;
    println!(
        "{} ({} parameters) batch {}: {:.1} samples/s ({:.2} s/step) over {} steps, per step {:?}",
        name,
        N::param_count(model),
        batch,
        mean,
        batch as f32 / mean,
        timed.len(),
        timed
    );
    Ok(())
}
