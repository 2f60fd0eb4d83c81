//! `hayate rl` end to end with a tiny network: generation 0 trained on αβ games, then two
//! generations of MCTS self-play → fine-tuning → export → gate. The loop is killed with SIGKILL
//! in the middle and started again: it finishes every generation, no half-written file is left,
//! `current.onnx` names a published network, and the report compares the generations.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod support;

use support::tiny_net;

const HAYATE: &str = env!("CARGO_BIN_EXE_hayate");

/// Every file under `dir` whose name ends with `.tmp`.
fn temporaries(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(temporaries(&p));
        } else if p.to_string_lossy().ends_with(".tmp") {
            out.push(p.display().to_string());
        }
    }
    out
}

#[test]
fn the_loop_survives_a_kill_and_finishes_its_generations() {
    let dir = std::env::temp_dir().join(format!("hayate-rl-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let p = |x: &str| dir.join(x).display().to_string();
    // Generation 0: a tiny ResNet trained a few steps on αβ games.
    let gen0 = tiny_net(&dir, "resnet1x8");

    let run = p("run");
    let rl = || {
        let mut c = Command::new(HAYATE);
        c.args(["rl", "--dir", &run, "--init-model", &gen0])
            .args([
                "--generations",
                "2",
                "--positions",
                "60",
                "--games-at-once",
                "4",
            ])
            .args([
                "--playouts",
                "16",
                "--train-steps",
                "4",
                "--train-batch",
                "16",
            ])
            .args([
                "--gate-games",
                "2",
                "--gate-playouts",
                "16",
                "--gate-score",
                "0",
            ])
            .args(["--selfplay-args", "--max-plies 60"])
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        c
    };
    // Stop after three stages, then kill a run in the middle of a later stage.
    let s = rl().args(["--max-stages", "3"]).status().unwrap();
    assert!(s.success());
    assert!(Path::new(&run).join("gen-0001/data").exists());
    let mut child = rl().spawn().unwrap();
    let t0 = Instant::now();
    while t0.elapsed() < Duration::from_millis(1500) && child.try_wait().unwrap().is_none() {
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    let _ = child.wait();
    // The stage it ran (a child process) died with it; the next run redoes only that stage.
    let s = rl().status().unwrap();
    assert!(s.success());

    let run = Path::new(&run);
    for g in 1..=2 {
        let r = std::fs::read_to_string(run.join(format!("gen-{g:04}/result.json"))).unwrap();
        assert!(
            r.contains("\"promoted\": true"),
            "gate score 0 promotes: {r}"
        );
    }
    let current = std::fs::read_link(run.join("current.onnx")).unwrap();
    assert!(current.starts_with("models"), "{current:?}");
    assert!(run.join(&current).is_file());
    let r2 = std::fs::read_to_string(run.join("gen-0002/result.json")).unwrap();
    assert!(r2.contains(&*current.file_name().unwrap().to_string_lossy()));
    assert_eq!(temporaries(run), Vec::<String>::new());
    // Finished: another call does nothing.
    let s = rl().status().unwrap();
    assert!(s.success());

    // The report: each promoted network against generation 0.
    let out = Command::new(HAYATE)
        .args(["rl", "--dir"])
        .arg(run)
        .args(["report", "--games", "2", "--playouts", "8"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let csv = std::fs::read_to_string(run.join("report/elo.csv")).unwrap();
    assert_eq!(csv.lines().count(), 3, "{csv}");
    assert!(csv.lines().nth(1).unwrap().starts_with("gen1,2,"), "{csv}");
    let svg = std::fs::read_to_string(run.join("report/elo.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("polyline"));
    let _ = std::fs::remove_dir_all(&dir);
}
