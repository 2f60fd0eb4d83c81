//! The NNUE trainer: gradients against finite differences, the sparse step against the dense
//! gradient, thread-count independence, exact resume, export/import round trips, and the
//! exported net evaluated by Hayate's loader against the float model.

use hayate_core::Position;
use hayate_eval::nnue::arch::HALF;
use hayate_eval::nnue::{Network, RandomNetParams, random_net_bytes};
use hayate_eval::{Evaluator, Nnue};
use hayate_train::nnue::backward::backward;
use hayate_train::nnue::export::{from_network, round_to_grid, to_network};
use hayate_train::nnue::features::{MAX_ROWS, Sample};
use hayate_train::nnue::loss::LossConfig;
use hayate_train::nnue::model::{Activations, DENSE_LEN, L1_W, L2_W, Model, OUT_B, OUT_W};
use hayate_train::nnue::optim::{AdamConfig, AdamState};
use hayate_train::nnue::step::{StepBuffers, StepOptions, train_step};
use hayate_train::nnue::{Init, NnueConfig, RunOptions, train};
use std::sync::OnceLock;

/// Positions of random games (varied material, hands, king squares), with made-up scores
/// and results.
fn positions(n: usize, seed: u64) -> Vec<(Position, i16, i8)> {
    let mut rng = seed;
    let mut next = |k: usize| {
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (rng >> 33) as usize % k.max(1)
    };
    let mut out = Vec::new();
    while out.len() < n {
        let mut pos = Position::startpos();
        for ply in 0..120 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.do_move(moves.as_slice()[next(moves.len())]);
            if ply % 3 == 0 && out.len() < n {
                let score = next(1201) as i16 - 600;
                out.push((pos.clone(), score, next(3) as i8 - 1));
            }
        }
    }
    out
}

fn samples(n: usize, seed: u64) -> Vec<Sample> {
    positions(n, seed)
        .iter()
        .map(|(p, s, r)| Sample::new(p, *s, *r).expect("kings"))
        .collect()
}

/// A model whose factor rows are non-zero too.
fn factorised_model(seed: u64) -> Model {
    let mut m = Model::new(seed, true);
    let base = hayate_eval::nnue::arch::INPUTS * HALF;
    for (i, w) in m.ft[base..].iter_mut().enumerate() {
        *w = ((i * 7919 % 101) as f32 - 50.0) * 1e-4;
    }
    m
}

const LOSS: LossConfig = LossConfig {
    scale: 600.0,
    lambda: 0.75,
};

fn loss_of(m: &Model, s: &Sample) -> f64 {
    LOSS.loss(m.forward(s, &mut Activations::default()), s).0 as f64
}

#[test]
fn gradients_match_finite_differences() {
    let mut m = factorised_model(3);
    let ss = samples(3, 11);
    for s in &ss {
        let mut a = Activations::default();
        let y = m.forward(s, &mut a);
        let (_, gy) = LOSS.loss(y, s);
        let mut grad = vec![0.0f32; DENSE_LEN];
        let mut g_acc = [[0.0f32; HALF]; 2];
        backward(&m, &m.l1_transposed(), &a, gy, &mut grad, &mut g_acc);
        let eps = 1e-3f32;
        let check = |m: &mut Model, analytic: f32, param: &mut dyn FnMut(&mut Model, f32)| {
            param(m, eps);
            let up = loss_of(m, s);
            param(m, -2.0 * eps);
            let down = loss_of(m, s);
            param(m, eps);
            let fd = ((up - down) / (2.0 * eps as f64)) as f32;
            assert!(
                (fd - analytic).abs() <= 2e-3 + 0.02 * analytic.abs(),
                "analytic {analytic} vs finite difference {fd}"
            );
        };
        // Dense parameters in every block.
        for i in [
            0,
            7,
            L1_W + 5,
            L1_W + 300 * 32 + 3,
            L2_W + 40,
            OUT_W + 2,
            OUT_B,
        ] {
            check(&mut m, grad[i], &mut |m, d| m.dense[i] += d);
        }
        // Feature rows: a HalfKP row, its P row and its K row (sum over both perspectives).
        let mut rows = [[0u32; MAX_ROWS]; 2];
        let n = s.rows(0, true, &mut rows[0]);
        s.rows(1, true, &mut rows[1]);
        for r in [rows[0][0], rows[0][n / 3], rows[0][2 * n / 3], rows[1][5]] {
            for j in [0usize, 100, 255] {
                let analytic: f32 = (0..2)
                    .map(|slot| {
                        let k = rows[slot][..n].iter().filter(|&&x| x == r).count();
                        k as f32 * g_acc[slot][j]
                    })
                    .sum();
                let at = r as usize * HALF + j;
                check(&mut m, analytic, &mut |m, d| m.ft[at] += d);
            }
        }
    }
}

#[test]
fn first_sparse_step_equals_the_dense_batch_gradient() {
    let m0 = factorised_model(5);
    let batch = samples(40, 21);
    // The dense-by-hand batch gradient of a few rows.
    let mut row_grad = std::collections::HashMap::<u32, [f32; HALF]>::new();
    for s in &batch {
        let mut a = Activations::default();
        let (_, gy) = LOSS.loss(m0.forward(s, &mut a), s);
        let mut grad = vec![0.0f32; DENSE_LEN];
        let mut g_acc = [[0.0f32; HALF]; 2];
        backward(
            &m0,
            &m0.l1_transposed(),
            &a,
            gy / batch.len() as f32,
            &mut grad,
            &mut g_acc,
        );
        for (slot, ga) in g_acc.iter().enumerate() {
            let mut rows = [0u32; MAX_ROWS];
            let n = s.rows(slot, true, &mut rows);
            for &r in &rows[..n] {
                let g = row_grad.entry(r).or_insert([0.0; HALF]);
                for (g, &x) in g.iter_mut().zip(ga) {
                    *g += x;
                }
            }
        }
    }
    let mut m = m0.clone();
    let mut st = AdamState::new(m.ft.len());
    // With a large ε, Adam's first step, -lr·c·g/(c·|g| + ε) with c = sqrt(1 - β2) (ε is
    // added to the uncorrected root), is nearly linear in g: the step shows the gradient.
    let adam = AdamConfig {
        eps: 1.0,
        ..AdamConfig::default()
    };
    let lr = 1e-2;
    train_step(
        &mut m,
        &mut st,
        adam,
        &LOSS,
        &batch,
        StepOptions::at(lr),
        2,
        &mut StepBuffers::default(),
    );
    let mut checked = 0;
    for (r, g) in &row_grad {
        for (j, &gj) in g.iter().enumerate() {
            let at = *r as usize * HALF + j;
            let seen = (m0.ft[at] - m.ft[at]) as f64 / lr;
            let c = (1.0 - adam.beta2 as f64).sqrt();
            let expect = c * gj as f64 / (c * gj.abs() as f64 + 1.0);
            assert!(
                (seen - expect).abs() <= 1e-6 + 1e-3 * expect.abs(),
                "row {r} col {j}: step implies {seen}, gradient {expect}"
            );
            checked += usize::from(gj != 0.0);
        }
    }
    assert!(checked > 1000, "only {checked} weights checked");
    // Rows the batch did not touch stay as they were.
    let touched: usize = row_grad.len();
    let changed = (0..m.ft.len() / HALF)
        .filter(|&r| m.ft_row(r) != m0.ft_row(r))
        .count();
    assert!(
        changed <= touched,
        "{changed} rows changed, {touched} touched"
    );
}

#[test]
fn steps_are_identical_on_one_and_three_threads() {
    let batch = samples(300, 8);
    let run = |threads| {
        let mut m = Model::new(9, false);
        let mut st = AdamState::new(m.ft.len());
        let mut buf = StepBuffers::default();
        let losses: Vec<f64> = (0..2)
            .map(|_| {
                train_step(
                    &mut m,
                    &mut st,
                    AdamConfig::default(),
                    &LOSS,
                    &batch,
                    StepOptions::at(1e-3),
                    threads,
                    &mut buf,
                )
            })
            .collect();
        (m, losses)
    };
    let (a, la) = run(1);
    let (b, lb) = run(3);
    assert_eq!(la, lb);
    assert!(a == b, "weights differ between thread counts");
}

fn tiny_config() -> NnueConfig {
    NnueConfig {
        batch_size: 64,
        epochs: 1,
        lr: 1e-3,
        factorised: true,
        checkpoint_every: 1,
        eval_every: 2,
        ..NnueConfig::default()
    }
}

#[test]
fn two_plus_two_steps_with_a_resume_equal_four_straight() {
    let data = samples(256, 4);
    let val = samples(32, 5);
    let cfg = tiny_config();
    let root = std::env::temp_dir().join(format!("hayate-nnue-resume-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let run = |dir: &str, stop_at| {
        train(
            &cfg,
            Init::Scratch,
            &data,
            &val,
            &root.join(dir),
            &RunOptions {
                threads: 2,
                stop_at,
            },
            &mut |_| {},
        )
        .expect("trains")
    };
    let straight = run("straight", None);
    assert_eq!((straight.start_step, straight.end_step), (0, 4));
    let first = run("resumed", Some(2));
    assert_eq!(first.end_step, 2);
    let second = run("resumed", None);
    assert_eq!((second.start_step, second.end_step), (2, 4));
    assert!(second.model == straight.model, "resumed weights differ");
    let a = std::fs::read(root.join("straight/nn.bin")).expect("nn.bin");
    let b = std::fs::read(root.join("resumed/nn.bin")).expect("nn.bin");
    assert!(a == b, "exported nets differ");
    let csv = std::fs::read_to_string(root.join("resumed/metrics.csv")).expect("metrics");
    assert_eq!(
        csv.lines().filter(|l| l.starts_with("train,")).count(),
        4,
        "{csv}"
    );
    assert!(root.join("resumed/metrics.svg").exists());
    let _ = std::fs::remove_dir_all(&root);
}

/// The random test net of the loader ("netA").
fn net_a() -> &'static Network {
    static N: OnceLock<Network> = OnceLock::new();
    N.get_or_init(|| {
        Network::from_bytes(&random_net_bytes(&RandomNetParams::default())).expect("valid")
    })
}

#[test]
fn import_then_export_gives_back_the_same_file() {
    let bytes = random_net_bytes(&RandomNetParams::default());
    for factorised in [false, true] {
        let m = from_network(net_a(), factorised);
        assert!(
            to_network(&m).to_bytes() == bytes,
            "round trip changed the file"
        );
    }
}

/// Engine eval minus float eval over positions, for a model.
fn eval_errors(m: &Model, pos: &[(Position, i16, i8)]) -> Vec<f32> {
    let nnue = Nnue::from_network(to_network(m));
    pos.iter()
        .map(|(p, _, _)| {
            let s = Sample::new(p, 0, 0).expect("kings");
            nnue.evaluate_once(p) as f32 - m.evaluate(&s)
        })
        .collect()
}

#[test]
fn exported_net_evaluates_like_the_float_model() {
    let pos = positions(200, 77);
    // A de-quantised net: the weights are on the grid, only the engine's shifts and
    // truncations remain.
    let on_grid = from_network(net_a(), false);
    let e = eval_errors(&on_grid, &pos);
    let max = e.iter().fold(0.0f32, |a, &x| a.max(x.abs()));
    let mean = e.iter().map(|x| x.abs()).sum::<f32>() / e.len() as f32;
    eprintln!("on-grid net: mean |error| {mean:.2}, max {max:.2} (eval units)");
    assert!(
        max <= 4.0 && mean <= 1.5,
        "mean {mean}, max {max} on the grid"
    );
    // Factor rows fold exactly: move on-grid amounts from the HalfKP rows into P and K rows
    // and the exported file is the same.
    let mut f = from_network(net_a(), true);
    let inputs = hayate_eval::nnue::arch::INPUTS;
    let fe = hayate_eval::nnue::arch::FE_END;
    for r in 0..inputs {
        let (p, k) = (inputs + r % fe, inputs + fe + r / fe);
        for j in 0..HALF {
            let pv = ((r % fe + j) % 7) as f32 - 3.0;
            let kv = ((r / fe + 2 * j) % 5) as f32 - 2.0;
            f.ft[p * HALF + j] = pv / 127.0;
            f.ft[k * HALF + j] = kv / 127.0;
            f.ft[r * HALF + j] -= (pv + kv) / 127.0;
        }
    }
    let bytes = random_net_bytes(&RandomNetParams::default());
    assert!(
        to_network(&f).to_bytes() == bytes,
        "folding changed the file"
    );
    // A model off the grid: rounding to 1/127 (features) and 1/64 (hidden weights) adds
    // error; reported, and bounded loosely (a wrong scale or layout gives hundreds).
    let mut m = factorised_model(12);
    for w in &mut m.dense[OUT_W..OUT_B] {
        *w *= 3.0;
    }
    let e = eval_errors(&m, &pos);
    let mean = e.iter().map(|x| x.abs()).sum::<f32>() / e.len() as f32;
    let max = e.iter().fold(0.0f32, |a, &x| a.max(x.abs()));
    eprintln!("off-grid model: mean |error| {mean:.2}, max {max:.2} (eval units)");
    assert!(mean <= 80.0 && max <= 160.0, "mean {mean}, max {max}");
}

/// Training speed on this machine: `cargo test --release -p hayate-train --test nnue -- --ignored
/// --nocapture speed` (forward alone, then whole steps of 4096 and 16384 positions; plain and
/// factorised).
#[test]
#[ignore]
fn speed() {
    let data = samples(65536, 99);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    for factorised in [false, true] {
        let mut m = Model::new(1, factorised);
        let t = std::time::Instant::now();
        let l = hayate_train::nnue::step::mean_loss(&m, &LOSS, &data, threads);
        let fwd = data.len() as f64 / t.elapsed().as_secs_f64();
        eprintln!(
            "{threads} threads, factorised {factorised}: forward {fwd:.0} positions/s (loss {l:.4})"
        );
        for batch_size in [4096, 16384] {
            let mut st = AdamState::new(m.ft.len());
            let mut buf = StepBuffers::default();
            let mut pass = || {
                for batch in data.chunks(batch_size) {
                    let rate = StepOptions::at(1e-3);
                    let adam = AdamConfig::default();
                    train_step(&mut m, &mut st, adam, &LOSS, batch, rate, threads, &mut buf);
                }
            };
            // One untimed pass first: the Adam moments' pages are zero pages until first
            // written, and those faults (a one-off in a real run) would dominate 65 k positions.
            pass();
            let t = std::time::Instant::now();
            pass();
            let step = data.len() as f64 / t.elapsed().as_secs_f64();
            eprintln!("  batch {batch_size}: training {step:.0} positions/s");
        }
    }
}

/// A quantisation-aware step on a model whose hidden and output weights are on the export's
/// grid is the plain step; off the grid it differs (the gradient is taken at the rounded
/// weights), and the export of the rounded weights is the export of the float ones.
#[test]
fn quantise_aware_steps_take_the_gradient_on_the_export_grid() {
    let batch = samples(200, 12);
    let step = |m: &mut Model, qat: bool| {
        let mut st = AdamState::new(m.ft.len());
        train_step(
            m,
            &mut st,
            AdamConfig::default(),
            &LOSS,
            &batch,
            StepOptions {
                quantise_aware: qat,
                ..StepOptions::at(1e-3)
            },
            1,
            &mut StepBuffers::default(),
        )
    };
    let mut on_grid = Model::new(5, false);
    round_to_grid(&mut on_grid.dense);
    let mut plain = on_grid.clone();
    let (a, b) = (step(&mut on_grid, true), step(&mut plain, false));
    assert_eq!(a, b);
    assert_eq!(on_grid.dense, plain.dense);
    let off_grid = Model::new(5, false);
    let mut rounded = off_grid.clone();
    round_to_grid(&mut rounded.dense);
    assert_ne!(
        rounded.dense, off_grid.dense,
        "the initial weights are off the grid"
    );
    assert_eq!(
        to_network(&rounded).to_bytes(),
        to_network(&off_grid).to_bytes()
    );
    let (mut q, mut f) = (off_grid.clone(), off_grid);
    assert_ne!(step(&mut q, true), step(&mut f, false));
}

/// With the feature transformer frozen, a step moves the dense layers exactly as a full step
/// does and leaves every feature-transformer weight (factor rows included) and its moments as
/// they were.
#[test]
fn a_frozen_feature_transformer_stays_while_the_dense_layers_learn() {
    let batch = samples(200, 21);
    let step = |m: &mut Model, st: &mut AdamState, freeze_ft: bool| {
        train_step(
            m,
            st,
            AdamConfig::default(),
            &LOSS,
            &batch,
            StepOptions {
                freeze_ft,
                ..StepOptions::at(1e-3)
            },
            2,
            &mut StepBuffers::default(),
        )
    };
    let start = Model::new(13, true);
    let (mut frozen, mut full) = (start.clone(), start.clone());
    let (mut st_frozen, mut st_full) = (
        AdamState::new(start.ft.len()),
        AdamState::new(start.ft.len()),
    );
    assert_eq!(
        step(&mut frozen, &mut st_frozen, true),
        step(&mut full, &mut st_full, false)
    );
    assert_eq!(frozen.ft, start.ft);
    assert!(
        st_frozen
            .ft_m
            .iter()
            .chain(&st_frozen.ft_v)
            .all(|&x| x == 0.0)
    );
    assert_ne!(full.ft, start.ft);
    assert_eq!(frozen.dense, full.dense);
    assert_ne!(frozen.dense, start.dense);
}
