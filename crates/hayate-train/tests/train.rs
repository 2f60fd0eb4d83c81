//! Training: a tiny network overfits a tiny generated dataset; a resumed run continues with
//! the same losses as an uninterrupted one.

use burn::tensor::Device;
use hayate_train::optim::OptimizerConfig;
use hayate_train::schedule::Schedule;
use hayate_train::train::{Event, RunOptions, TrainConfig, train};
use hayate_train::{DlshogiNet, DlshogiNetConfig};
use std::path::PathBuf;

/// `train` seeds burn's random generator, which is global to the process: tests that train run
/// one at a time, or one test's draws land in another's weights and resumes stop being exact.
static BURN_RNG: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    BURN_RNG.lock().unwrap_or_else(|e| e.into_inner())
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("hayate-train-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn tiny() -> DlshogiNetConfig {
    DlshogiNetConfig::from_name("senet2x16_swish_reduction4").unwrap()
}

#[test]
fn overfits_a_tiny_dataset() {
    let _rng = serial();
    let data = hayate_train::synthetic::random_games(32, 3);
    let cfg = TrainConfig {
        batch_size: 32,
        steps: 80,
        lr: 3e-3,
        schedule: Schedule::WarmupCosine {
            warmup: 5,
            min_lr: 3e-4,
        },
        optimizer: OptimizerConfig::AdamW {
            beta1: 0.9,
            beta2: 0.999,
            weight_decay: 0.0,
        },
        val_lambda: 0.0,
        clip_grad_norm: Some(10.0),
        checkpoint_every: 0,
        eval_every: 0,
        seed: 5,
    };
    let dir = tmp("overfit");
    let s = train::<DlshogiNet>(
        &tiny(),
        &cfg,
        &data,
        Some(&data),
        &dir,
        &Device::flex(),
        &RunOptions::default(),
        &mut |_| {},
    )
    .unwrap();
    let first = s.steps[0].loss;
    let last = s.steps.last().unwrap().loss;
    eprintln!("loss {first} -> {last}");
    assert!(first > 7.0, "starts near ln 2187 + ln 2: {first}");
    assert!(last < first / 8.0, "loss fell only from {first} to {last}");
    assert!(s.steps.last().unwrap().policy_accuracy > 0.9);
    let v = s.validations.last().unwrap();
    assert!(v.loss.is_finite());
    let csv = std::fs::read_to_string(dir.join("metrics.csv")).unwrap();
    assert!(csv.starts_with("kind,step,lr,loss"));
    assert_eq!(csv.lines().filter(|l| l.starts_with("train,")).count(), 80);
    assert_eq!(csv.lines().filter(|l| l.starts_with("val,")).count(), 1);
    // The validation after the last step carries the console's step number, as its train row.
    assert!(csv.contains("\nval,80,"), "{csv}");
    assert!(csv.contains("\ntrain,80,"), "{csv}");
    assert_eq!(v.step, 80);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn resume_is_exact() {
    let _rng = serial();
    let data = hayate_train::synthetic::random_games(48, 9);
    let cfg = TrainConfig {
        batch_size: 16,
        steps: 6,
        lr: 0.05,
        schedule: Schedule::WarmupCosine {
            warmup: 2,
            min_lr: 0.0,
        },
        optimizer: OptimizerConfig::dlshogi_sgd(),
        val_lambda: 0.333,
        clip_grad_norm: Some(1.0),
        checkpoint_every: 2,
        eval_every: 0,
        seed: 11,
    };
    let device = Device::flex();
    let straight_dir = tmp("straight");
    let straight = train::<DlshogiNet>(
        &tiny(),
        &cfg,
        &data,
        None,
        &straight_dir,
        &device,
        &RunOptions::default(),
        &mut |_| {},
    )
    .unwrap();
    let dir = tmp("resumed");
    let saved = tmp("resumed-step2");
    let mut checkpoints = Vec::new();
    let first = train::<DlshogiNet>(
        &tiny(),
        &cfg,
        &data,
        None,
        &dir,
        &device,
        &RunOptions { stop_at: Some(3) },
        &mut |e| {
            if let Event::Checkpoint(s) = e {
                checkpoints.push(s);
                if s == 2 {
                    copy_dir(&dir.join("checkpoint"), &saved);
                }
            }
        },
    )
    .unwrap();
    assert_eq!(checkpoints, [2, 3]);
    assert_eq!(first.end_step, 3);
    // As if killed after step 3 before its checkpoint: the run resumes from step 2.
    std::fs::remove_dir_all(dir.join("checkpoint")).unwrap();
    copy_dir(&saved, &dir.join("checkpoint"));
    let second = train::<DlshogiNet>(
        &tiny(),
        &cfg,
        &data,
        None,
        &dir,
        &device,
        &RunOptions::default(),
        &mut |_| {},
    )
    .unwrap();
    assert_eq!(second.start_step, 2);
    let a: Vec<f32> = straight.steps.iter().map(|m| m.loss).collect();
    let b: Vec<f32> = first.steps[..2]
        .iter()
        .chain(&second.steps)
        .map(|m| m.loss)
        .collect();
    eprintln!("{a:?}\n{b:?}");
    assert_eq!(a.len(), 6);
    assert_eq!(a, b, "resumed losses differ");
    // metrics.csv holds each step once, labelled as the console counts (1..=6).
    let csv = std::fs::read_to_string(dir.join("metrics.csv")).unwrap();
    let steps: Vec<u64> = csv
        .lines()
        .filter(|l| l.starts_with("train,"))
        .map(|l| l.split(',').nth(1).unwrap().parse().unwrap())
        .collect();
    assert_eq!(steps, [1, 2, 3, 4, 5, 6], "{csv}");
    let _ = std::fs::remove_dir_all(&straight_dir);
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&saved);
}

fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
    }
}

#[test]
fn gmlp_overfits_a_tiny_dataset() {
    let _rng = serial();
    use hayate_train::{Gmlp, GmlpConfig};
    let data = hayate_train::synthetic::random_games(32, 4);
    let cfg = TrainConfig {
        batch_size: 32,
        steps: 80,
        lr: 3e-3,
        schedule: Schedule::Constant,
        optimizer: OptimizerConfig::AdamW {
            beta1: 0.9,
            beta2: 0.999,
            weight_decay: 0.0,
        },
        val_lambda: 0.0,
        clip_grad_norm: Some(10.0),
        checkpoint_every: 0,
        eval_every: 0,
        seed: 6,
    };
    let model = GmlpConfig {
        blocks: 2,
        d_model: 32,
        d_ffn: 64,
    };
    let dir = tmp("gmlp");
    let s = train::<Gmlp>(
        &model,
        &cfg,
        &data,
        None,
        &dir,
        &Device::flex(),
        &RunOptions::default(),
        &mut |_| {},
    )
    .unwrap();
    let first = s.steps[0].loss;
    let last = s.steps.last().unwrap().loss;
    eprintln!("gmlp loss {first} -> {last}");
    assert!(last < first / 4.0, "loss fell only from {first} to {last}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn novice_overfits_a_tiny_dataset() {
    let _rng = serial();
    use hayate_train::{Activation, NoviceConfig, NoviceNet};
    let data = hayate_train::synthetic::random_games(32, 5);
    let cfg = TrainConfig {
        batch_size: 32,
        steps: 60,
        lr: 3e-3,
        schedule: Schedule::Constant,
        optimizer: OptimizerConfig::AdamW {
            beta1: 0.9,
            beta2: 0.999,
            weight_decay: 0.0,
        },
        val_lambda: 0.0,
        clip_grad_norm: Some(10.0),
        checkpoint_every: 0,
        eval_every: 0,
        seed: 7,
    };
    let model = NoviceConfig {
        blocks: 1,
        channels: 16,
        se_reduction: 4,
        activation: Activation::Swish,
    };
    let dir = tmp("novice");
    let s = train::<NoviceNet>(
        &model,
        &cfg,
        &data,
        None,
        &dir,
        &Device::flex(),
        &RunOptions::default(),
        &mut |_| {},
    )
    .unwrap();
    let first = s.steps[0].loss;
    let last = s.steps.last().unwrap().loss;
    eprintln!("novice loss {first} -> {last}");
    assert!(last < first / 4.0, "loss fell only from {first} to {last}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ryfc_overfits_a_tiny_dataset() {
    let _rng = serial();
    use hayate_train::{Activation, RyfcConfig, RyfcNet};
    let data = hayate_train::synthetic::random_games(32, 6);
    let cfg = TrainConfig {
        batch_size: 32,
        steps: 60,
        lr: 3e-3,
        schedule: Schedule::Constant,
        optimizer: OptimizerConfig::AdamW {
            beta1: 0.9,
            beta2: 0.999,
            weight_decay: 0.0,
        },
        val_lambda: 0.0,
        clip_grad_norm: Some(10.0),
        checkpoint_every: 0,
        eval_every: 0,
        seed: 8,
    };
    let model = RyfcConfig {
        blocks: 1,
        channels: 16,
        recipe: "SCF".into(),
        activation: Activation::Swish,
        input2: 57,
    };
    let dir = tmp("ryfc");
    let s = train::<RyfcNet>(
        &model,
        &cfg,
        &data,
        None,
        &dir,
        &Device::flex(),
        &RunOptions::default(),
        &mut |_| {},
    )
    .unwrap();
    let first = s.steps[0].loss;
    let last = s.steps.last().unwrap().loss;
    eprintln!("ryfc loss {first} -> {last}");
    assert!(last < first / 4.0, "loss fell only from {first} to {last}");
    let _ = std::fs::remove_dir_all(&dir);
}
