//! `hayate tune` end to end: SPSA over two of Hayate's own search constants with real game
//! pairs, two pairs at once; a run killed with SIGKILL mid-pair resumes to the planned
//! iterations, the state stays whole, the values stay in range, and a finished run plays
//! nothing more.

use std::process::Command;
use std::time::Duration;

const HAYATE: &str = env!("CARGO_BIN_EXE_hayate");

#[test]
fn tune_runs_resumes_after_a_kill_and_keeps_values_in_range() {
    let dir = std::env::temp_dir().join(format!("hayate-tune-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let params = dir.join("params.toml");
    std::fs::write(
        &params,
        "[[param]]\nname = \"Tune_rfp_margin\"\nvalue = 110.0\nmin = 20.0\nmax = 400.0\n\n\
         [[param]]\nname = \"Tune_lmr_div\"\nvalue = 220.0\nmin = 100.0\nmax = 400.0\nc_end = 15.0\nr_end = 0.01\n",
    )
    .unwrap();
    let out = dir.join("run");
    let tune = || {
        let mut c = Command::new(HAYATE);
        c.arg("tune")
            .arg("--out")
            .arg(&out)
            .arg("--params")
            .arg(&params)
            .args([
                "--iterations",
                "4",
                "--go",
                "nodes 1500",
                "--byoyomi",
                "2000",
            ])
            .args(["--max-plies", "40", "--option", "USI_Hash=8", "--quiet"])
            .args(["--pairs-at-once", "2"]);
        c
    };
    // Killed mid-run (SIGKILL: nothing gets to clean up).
    let mut child = tune().spawn().unwrap();
    std::thread::sleep(Duration::from_millis(700));
    child.kill().unwrap();
    child.wait().unwrap();
    let run = tune().output().unwrap();
    let text = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(
        text.contains("setoption name Tune_rfp_margin value"),
        "{text}"
    );
    let state = hayate_arena::load_state(&out).unwrap().expect("state");
    assert_eq!(state.k, 4);
    let theta = &state.theta;
    assert!((20.0..=400.0).contains(&theta[0]) && (100.0..=400.0).contains(&theta[1]));
    // One history line per iteration, in order (a kill after a state write may drop the lines
    // of one batch of two pairs).
    let history = std::fs::read_to_string(out.join("history.csv")).unwrap();
    let ks: Vec<u64> = history
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap().parse().unwrap())
        .collect();
    assert!(
        ks.windows(2).all(|w| w[0] < w[1]) && ks.last() == Some(&4),
        "{history}"
    );
    assert!(ks.len() >= 2, "{history}");
    // No pair folder or temporary state is left.
    let left: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("iter-") || n.ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    // Finished: a second run plays nothing and says so.
    let again = tune().output().unwrap();
    let text = String::from_utf8_lossy(&again.stdout);
    assert!(text.contains("resuming at iteration 4 of 4"), "{text}");
    let status = Command::new(HAYATE)
        .args(["tune", "--status", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&status.stdout);
    assert!(text.starts_with("4 of 4 iterations"), "{text}");
    assert!(text.contains("Tune_lmr_div"), "{text}");
    // Another run's settings are refused, not mixed in.
    let other = tune().args(["--seed", "9"]).output().unwrap();
    assert!(!other.status.success());
    let _ = std::fs::remove_dir_all(&dir);
}
