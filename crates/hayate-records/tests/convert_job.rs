//! Whole conversions (`hayate convert`'s job) over real files in a temporary folder.

use hayate_core::Position;
use hayate_records::convert::{FileFormat, Job, JobError};
use hayate_records::{ErrorPolicy, FixedReader, Hcp};
use std::path::{Path, PathBuf};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/");

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("hayate-convert-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

fn job(inputs: &[&Path], output: &Path) -> Job {
    Job {
        inputs: inputs.iter().map(|p| p.to_path_buf()).collect(),
        output: output.to_path_buf(),
        from: None,
        to: FileFormat::of_path(output).expect("output format"),
        strict: false,
    }
}

fn without_ply(sfen: &str) -> String {
    sfen.rsplit_once(' ').map_or(sfen, |(s, _)| s).to_string()
}

fn run(j: &Job) -> Result<hayate_records::convert::Report, JobError> {
    j.run(&mut |_, _, _| {})
}

#[test]
fn an_output_that_is_an_input_is_refused_and_left_intact() {
    let dir = temp_dir("same");
    for name in ["sample.hcpe", "sample.psv"] {
        let x = dir.join(name);
        std::fs::copy(format!("{DATA}{name}"), &x).expect("copy");
        let before = std::fs::read(&x).expect("read");
        let dotted = dir.join(".").join(name);
        let linked = dir.join(format!("link-{name}"));
        std::fs::hard_link(&x, &linked).expect("link");
        for (input, output) in [(&x, &x), (&dotted, &x), (&x, &dotted), (&linked, &x)] {
            let err = run(&job(&[input], output)).expect_err("refused");
            assert!(matches!(err, JobError::OutputIsInput(_)), "{err}");
        }
        // Also when the output is a file found in an input folder.
        let err = run(&job(&[&dir], &x)).expect_err("refused");
        assert!(matches!(err, JobError::OutputIsInput(_)), "{err}");
        assert_eq!(std::fs::read(&x).expect("read"), before);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_input_of_unknown_format_is_an_error() {
    let dir = temp_dir("unknown");
    let txt = dir.join("games.txt");
    std::fs::write(&txt, "startpos moves 7g7f\n").expect("write");
    let out = dir.join("out.hcp");
    let err = run(&job(&[&txt], &out)).expect_err("unknown");
    assert!(matches!(err, JobError::UnknownFormat(_)), "{err}");
    let missing = dir.join("missing.csa");
    let err = run(&job(&[&missing], &out)).expect_err("missing");
    assert!(matches!(err, JobError::Missing(_)), "{err}");
    // A bare position has no move: hcp to hcpe does not convert.
    let hcp = dir.join("a.hcp");
    std::fs::write(&hcp, [0u8; 32]).expect("write");
    let err = run(&job(&[&hcp], &dir.join("b.hcpe"))).expect_err("unsupported");
    assert!(matches!(err, JobError::Unsupported { .. }), "{err}");
    assert!(!out.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn nothing_converted_writes_no_output() {
    let dir = temp_dir("nothing");
    // A game without a result gives no training data.
    let csa = dir.join("a.csa");
    std::fs::write(&csa, "PI\n+\n+7776FU\n-3334FU\n").expect("write");
    let out = dir.join("out.hcpe");
    let report = run(&job(&[&csa], &out)).expect("runs");
    assert_eq!(report.counts.no_result, 1);
    assert_eq!(report.counts.written, 0);
    assert!(!out.exists());
    // No temporary file left behind either.
    let names: Vec<_> = std::fs::read_dir(&dir)
        .expect("list")
        .map(|e| e.expect("entry").file_name())
        .collect();
    assert_eq!(names, [std::ffi::OsString::from("a.csa")]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn position_lines_give_one_hcp_each() {
    let dir = temp_dir("lines");
    let sfen = dir.join("p.sfen");
    let lines = [
        "startpos",
        "position startpos moves 7g7f 3c3d",
        "sfen ln1gkgsnl/1r1s3b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 5",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ];
    std::fs::write(&sfen, lines.join("\n")).expect("write");
    let out = dir.join("p.hcp");
    let report = run(&job(&[&sfen], &out)).expect("runs");
    assert_eq!(report.counts.written, 4);
    let bytes = std::fs::read(&out).expect("read");
    let got: Vec<String> = FixedReader::<_, Hcp>::new(&bytes[..], ErrorPolicy::Stop)
        .map(|h| {
            let raw = h.expect("hcp").decode().expect("decodes");
            without_ply(&raw.to_position(1).expect("position").to_sfen())
        })
        .collect();
    let mut after = Position::startpos();
    for m in ["7g7f", "3c3d"] {
        let mv = after.parse_usi_move(m).expect("legal");
        after.do_move(mv);
    }
    let want = [
        without_ply(&Position::startpos().to_sfen()),
        without_ply(&after.to_sfen()),
        "ln1gkgsnl/1r1s3b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b -".to_string(),
        without_ply(lines[3]),
    ];
    assert_eq!(got, want);
    let _ = std::fs::remove_dir_all(&dir);
}
