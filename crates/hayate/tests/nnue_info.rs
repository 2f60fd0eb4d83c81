//! `hayate nnue info FILE`: the architecture of a file read from its header and length, for
//! nets Hayate evaluates (256x2-32-32, 1024x2-8-64 whose text says 256, HalfKP_vm) and for one
//! it does not (HalfKA_hm2 1024x2-8-64; sparse files: only the header is read).

use hayate_eval::nnue::shape::{FeatureSet, Shape};
use std::io::Write;
use std::process::Command;

const HAYATE: &str = env!("CARGO_BIN_EXE_hayate");

fn info(shape: Shape, text: &str, name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("hayate-nnue-info-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    let mut f = std::fs::File::create(&path).expect("create");
    for w in [0x7AF3_2F16u32, shape.file_hash(), text.len() as u32] {
        f.write_all(&w.to_le_bytes()).expect("write");
    }
    f.write_all(text.as_bytes()).expect("write");
    f.set_len(shape.file_size(text.len()) as u64)
        .expect("sparse length");
    drop(f);
    let out = Command::new(HAYATE)
        .args(["nnue", "info"])
        .arg(&path)
        .output()
        .expect("hayate runs");
    let _ = std::fs::remove_file(&path);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn info_names_the_architecture_and_whether_hayate_evaluates_it() {
    let small = Shape::HALFKP_256;
    let out = info(small, &small.text(), "small.bin");
    assert!(out.contains("architecture HalfKP 256x2-32-32\n"), "{out}");
    assert!(out.contains("hash file 0x3E5AA6EE (ok;"), "{out}");
    assert!(out.contains("evaluated by hayate yes"), "{out}");

    let big = Shape {
        features: FeatureSet::HalfKp,
        half: 1024,
        h1: 8,
        h2: 64,
    };
    // A trainer that writes the 256x2 text whatever the size: the length decides.
    let out = info(big, &small.text(), "big.bin");
    assert!(out.contains("architecture HalfKP 1024x2-8-64\n"), "{out}");
    assert!(out.contains("sizes taken from the file's length"), "{out}");
    assert!(out.contains("layers 1024x2 -> 8 -> 64 -> 1"), "{out}");
    assert!(out.contains("hash file 0x3E5AB79C (ok;"), "{out}");
    assert!(out.contains("evaluated by hayate yes"), "{out}");

    let vm = Shape {
        features: FeatureSet::HalfKpVm,
        ..Shape::HALFKP_256
    };
    let out = info(vm, &vm.text(), "vm.bin");
    assert!(
        out.contains("architecture HalfKP_vm 256x2-32-32\n"),
        "{out}"
    );
    assert!(out.contains("evaluated by hayate yes"), "{out}");

    let hm2 = Shape {
        features: FeatureSet::HalfKaHm2,
        ..big
    };
    let out = info(hm2, &hm2.text(), "hm2.bin");
    assert!(
        out.contains("architecture HalfKA_hm2 1024x2-8-64\n"),
        "{out}"
    );
    assert!(out.contains("evaluated by hayate no"), "{out}");
}
