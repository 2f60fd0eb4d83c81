//! The tract backend against onnxruntime's outputs for the committed tiny net
//! (`hayate-mcts/tests/data/make_expected.py`, where the test nets live), features computed by
//! hayate-nn from the SFEN.

use hayate_core::Position;
use hayate_infer::POLICY_LEN;
use hayate_infer::{Backend, Batch, TractBackend};
use std::path::PathBuf;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../hayate-mcts/tests/data")
        .join(name)
}

struct Expected {
    sfen: String,
    value: f32,
    logits: Vec<(usize, f32)>,
    argmax: usize,
}

fn expected() -> Vec<Expected> {
    let text = std::fs::read_to_string(data("tiny_resnet_expected.tsv")).expect("expected tsv");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            assert_eq!(cols.len(), 4, "{l}");
            Expected {
                sfen: cols[0].to_string(),
                value: cols[1].parse().expect("value"),
                logits: cols[2]
                    .split(' ')
                    .map(|c| {
                        let (k, v) = c.split_once(':').expect("label:logit");
                        (k.parse().expect("label"), v.parse().expect("logit"))
                    })
                    .collect(),
                argmax: cols[3].parse().expect("argmax"),
            }
        })
        .collect()
}

fn check(batch: &Batch, i: usize, e: &Expected) {
    assert!(
        (batch.value_of(i) - e.value).abs() < 1e-4,
        "{}: value {} vs {}",
        e.sfen,
        batch.value_of(i),
        e.value
    );
    let p = batch.policy_of(i);
    for &(k, v) in &e.logits {
        assert!(
            (p[k] - v).abs() < 1e-4,
            "{}: logit {k} {} vs {v}",
            e.sfen,
            p[k]
        );
    }
    let argmax = (0..POLICY_LEN)
        .max_by(|&a, &b| p[a].total_cmp(&p[b]))
        .unwrap_or(0);
    assert_eq!(argmax, e.argmax, "{}", e.sfen);
}

#[test]
fn tiny_resnet_matches_onnxruntime_in_one_batch_and_one_by_one() {
    let mut b = TractBackend::load(&data("tiny_resnet.onnx")).expect("load");
    let exp = expected();
    assert_eq!(exp.len(), 8);
    let mut batch = Batch::new(8);
    for e in &exp {
        batch
            .push(&Position::from_sfen(&e.sfen).expect("sfen"))
            .expect("room");
    }
    b.evaluate(&mut batch).expect("run");
    for (i, e) in exp.iter().enumerate() {
        check(&batch, i, e);
    }
    let mut one = Batch::new(1);
    for e in &exp {
        one.clear();
        one.push(&Position::from_sfen(&e.sfen).expect("sfen"))
            .expect("room");
        b.evaluate(&mut one).expect("run");
        check(&one, 0, e);
    }
}

#[test]
fn padded_split_and_symbolic_batches_agree() {
    // Five positions run on the 8-position plan (padded), split over two and three threads
    // (chunks of 3+2 and 2+2+1 on padded plans), and on the symbolic-batch plan.
    let exp = expected();
    let load = || TractBackend::load(&data("tiny_resnet.onnx")).expect("load");
    let mut fixed = load();
    let mut two = load().with_threads(2);
    let mut three = load().with_threads(3);
    let mut symbolic = load().symbolic_only();
    let mut split_symbolic = load().symbolic_only().with_threads(2);
    for b in [
        &mut fixed as &mut dyn Backend,
        &mut two,
        &mut three,
        &mut symbolic,
        &mut split_symbolic,
    ] {
        let mut batch = Batch::new(5);
        for e in &exp[..5] {
            batch
                .push(&Position::from_sfen(&e.sfen).expect("sfen"))
                .expect("room");
        }
        b.evaluate(&mut batch).expect("run");
        for (i, e) in exp[..5].iter().enumerate() {
            check(&batch, i, e);
        }
    }
}

#[test]
fn missing_or_wrong_files_are_errors_not_crashes() {
    let e = TractBackend::load(&data("no-such-model.onnx")).expect_err("missing file");
    assert!(e.to_string().contains("no-such-model.onnx"), "{e}");
    let e = TractBackend::load(&data("make_resnet.py")).expect_err("not onnx");
    assert!(e.to_string().contains("cannot load"), "{e}");
}
