//! The 104 problems of `shared/data/mate/muso.tsv` (Shogi Muso, long classic mates), each with a
//! time limit. Slow: run by hand with
//! `MUSO_MS=10000 MUSO_HASH_MB=1024 cargo test --release -p hayate-mate --test muso -- --ignored --nocapture`.
//! `MUSO_ONLY=muso001,muso007` restricts the run.

use hayate_core::Position;
use hayate_mate::{DfpnOptions, MateResult, check_mate_line, solve_with_report};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

const DATA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../../shared/data/mate/muso.tsv"
);

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
#[ignore = "long: minutes per run"]
fn muso_with_time_limit() {
    let ms = env_u64("MUSO_MS", 10_000);
    let hash_mb = env_u64("MUSO_HASH_MB", 1024) as usize;
    let only: Option<Vec<String>> = std::env::var("MUSO_ONLY")
        .ok()
        .map(|s| s.split(',').map(str::to_string).collect());
    let text =
        std::fs::read_to_string(DATA).expect("shared/data/mate/muso.tsv beside the checkout");
    let opts = DfpnOptions {
        time_limit: Some(Duration::from_millis(ms)),
        hash_mb,
        ..DfpnOptions::default()
    };
    let (mut solved, mut total, mut nodes, mut secs) = (0u32, 0u32, 0u64, 0f64);
    let (mut solved_nodes, mut solved_secs) = (0u64, 0f64);
    let mut nomates: Vec<String> = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let mut f = line.split('\t');
        let (Some(name), Some(sfen)) = (f.next(), f.next()) else {
            continue;
        };
        if only.as_ref().is_some_and(|o| !o.iter().any(|n| n == name)) {
            continue;
        }
        let pos = Position::from_sfen(sfen).expect("valid sfen");
        let r = solve_with_report(&pos, &opts, &AtomicBool::new(false));
        total += 1;
        nodes += r.nodes;
        secs += r.elapsed.as_secs_f64();
        let verdict = match &r.result {
            MateResult::Mate(l) => {
                check_mate_line(&pos, l).unwrap_or_else(|e| panic!("{name}: {e}"));
                solved += 1;
                solved_nodes += r.nodes;
                solved_secs += r.elapsed.as_secs_f64();
                format!("mate {}", l.len())
            }
            // The file says every problem mates; a proven no-mate is reported, not hidden
            // (some classic problems are flawed as printed).
            MateResult::NoMate => {
                nomates.push(name.to_string());
                "NOMATE".to_string()
            }
            MateResult::Timeout => "timeout".to_string(),
        };
        println!(
            "{name}\t{verdict}\tnodes {}\ttime_ms {}",
            r.nodes,
            r.elapsed.as_millis()
        );
    }
    println!(
        "solved {solved}/{total} within {ms} ms each; total nodes {nodes} time {secs:.1} s nps {:.0}; solved ones: nodes {solved_nodes} time {solved_secs:.1} s",
        nodes as f64 / secs.max(1e-9)
    );
    if !nomates.is_empty() {
        println!("proven no-mate (the file says mate): {}", nomates.join(" "));
    }
}
