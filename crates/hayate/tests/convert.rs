//! `hayate convert` as a user runs it: exit status and files on disk.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../hayate-records/tests/data/");

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("hayate-bin-convert-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

fn convert(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hayate"))
        .current_dir(dir)
        .arg("convert")
        .arg("--quiet")
        .args(args)
        .output()
        .expect("run hayate")
}

#[test]
fn converting_a_file_onto_itself_is_refused_and_keeps_it() {
    let dir = temp_dir("self");
    for name in ["sample.hcpe", "sample.psv"] {
        std::fs::copy(format!("{DATA}{name}"), dir.join(name)).expect("copy");
        let before = std::fs::read(dir.join(name)).expect("read");
        for out in [name.to_string(), format!("./{name}")] {
            let o = convert(&dir, &[name, &out]);
            assert!(!o.status.success(), "{name} -> {out}");
            let err = String::from_utf8_lossy(&o.stderr);
            assert!(err.contains("is also an input"), "{err}");
            assert_eq!(std::fs::read(dir.join(name)).expect("read"), before);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn unknown_inputs_and_empty_results_fail() {
    let dir = temp_dir("fail");
    std::fs::write(dir.join("lines.txt"), "startpos\n").expect("write");
    let o = convert(&dir, &["lines.txt", "out.hcp"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot tell the format"));
    // Every record rejected: the counts still print, the exit status says it failed.
    std::fs::write(dir.join("bad.csa"), "PI\n+\n+5554FU\n").expect("write");
    let o = convert(&dir, &["bad.csa", "out.hcpe"]);
    assert!(!o.status.success());
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("files 1 games 0 positions 0 rejected 1"),
        "{out}"
    );
    assert!(!dir.join("out.hcpe").exists());
    // Position lines to hcp: one record (32 bytes) per line.
    std::fs::write(dir.join("p.sfen"), "startpos\nstartpos moves 7g7f\n").expect("write");
    let o = convert(&dir, &["p.sfen", "p.hcp"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        std::fs::metadata(dir.join("p.hcp")).expect("written").len(),
        64
    );
    let _ = std::fs::remove_dir_all(&dir);
}
