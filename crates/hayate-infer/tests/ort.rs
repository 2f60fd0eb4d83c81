//! The ONNX Runtime backend (feature `ort`) against the same reference outputs as tract. Needs
//! the ONNX Runtime shared library: set `ORT_DYLIB_PATH` (for example to the
//! `libonnxruntime.so.*` inside the Python `onnxruntime` wheel); without it the test says so
//! and passes.
#![cfg(feature = "ort")]

use hayate_core::Position;
use hayate_infer::ort::OrtBackend;
use hayate_infer::{Backend, Batch, TractBackend};
use std::path::PathBuf;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../hayate-mcts/tests/data")
        .join(name)
}

#[test]
fn ort_and_tract_agree_on_the_tiny_net() {
    if std::env::var_os("ORT_DYLIB_PATH").is_none() {
        eprintln!("ORT_DYLIB_PATH is not set: skipping the ONNX Runtime check");
        return;
    }
    let mut ort = OrtBackend::load(&data("tiny_resnet.onnx")).expect("onnxruntime");
    let mut tract = TractBackend::load(&data("tiny_resnet.onnx")).expect("tract");
    let sfens = [
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "lnsgk1snl/r5gb1/2ppppppp/pp7/9/2PPPP3/PPN3PPP/1BG1KG1SR/L1S4NL b - 27",
        "1ns4+N1/lrg1kg3/4p3S/ppppB4/6P2/PPG2p1Pl/L1B4SP/2S2G3/1N2K4 w L2Prn5p 86",
    ];
    let mut a = Batch::new(3);
    for s in sfens {
        a.push(&Position::from_sfen(s).expect("sfen"))
            .expect("room");
    }
    let mut b = a.clone();
    ort.evaluate(&mut a).expect("ort run");
    tract.evaluate(&mut b).expect("tract run");
    for i in 0..3 {
        assert!((a.value_of(i) - b.value_of(i)).abs() < 1e-4);
        for (x, y) in a.policy_of(i).iter().zip(b.policy_of(i)) {
            assert!((x - y).abs() < 1e-4, "{x} vs {y}");
        }
    }
}

#[test]
fn a_missing_model_is_an_error() {
    if std::env::var_os("ORT_DYLIB_PATH").is_none() {
        return;
    }
    assert!(OrtBackend::load(&data("no-such.onnx")).is_err());
}
