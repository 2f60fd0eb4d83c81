//! The 104 problems of `shared/data/mate/muso.tsv` (Shogi Muso, long classic mates), each with a
//! time limit, the shortest mate proven by the post-search where the time allows. Slow: run by
//! hand with
//! `MUSO_MS=10000 MUSO_HASH_MB=1024 cargo test --release -p hayate-mate --test muso -- --ignored --nocapture`.
//! `MUSO_ONLY=muso001,muso007` restricts the run; `MUSO_DEFENCE=no-futile-drops` changes the
//! convention (default: every legal evasion counts, as the reference lengths do).
//! Lengths are compared with `muso-lengths.tsv` (proven by an independent solver): a line
//! shorter than the proven length fails the test.

use hayate_core::Position;
use hayate_mate::{Defence, DfpnOptions, MateResult, check_mate_line_with, solve_with_report};
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data/mate");

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// `name<TAB>value` lines of a data file (comments and blank lines skipped).
fn table(file: &str) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(format!("{DIR}/{file}"))
        .unwrap_or_else(|e| panic!("shared/data/mate/{file} beside the checkout: {e}"));
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let mut f = l.split('\t');
            Some((f.next()?.to_string(), f.next()?.to_string()))
        })
        .collect()
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

#[test]
#[ignore = "long: minutes per run"]
fn muso_with_time_limit() {
    let ms = env_u64("MUSO_MS", 10_000);
    let hash_mb = env_u64("MUSO_HASH_MB", 1024) as usize;
    let only: Option<Vec<String>> = std::env::var("MUSO_ONLY")
        .ok()
        .map(|s| s.split(',').map(str::to_string).collect());
    let defence = match std::env::var("MUSO_DEFENCE").as_deref() {
        Ok("no-futile-drops") => Defence::NoFutileDrops,
        _ => Defence::AllLegal,
    };
    let proven: HashMap<String, usize> = table("muso-lengths.tsv")
        .into_iter()
        .map(|(n, l)| (n, l.parse().expect("plies")))
        .collect();
    // MUSO_NODES caps the nodes (a measure that the machine's load does not change); MUSO_FIRST=1
    // stops at the first mate.
    let max_nodes = std::env::var("MUSO_NODES")
        .ok()
        .and_then(|v| v.parse().ok());
    let opts = DfpnOptions {
        time_limit: Some(Duration::from_millis(ms)),
        max_nodes,
        hash_mb,
        defence,
        post_search: std::env::var("MUSO_FIRST").is_err(),
        ..DfpnOptions::default()
    };
    let (mut solved, mut total, mut nodes, mut secs) = (0u32, 0u32, 0u64, 0f64);
    let (mut exact, mut shorter, mut longer, mut shortest_proven) = (0, 0, 0, 0);
    let mut first_secs: Vec<f64> = Vec::new();
    let mut first_nodes: Vec<u64> = Vec::new();
    let mut nomates: Vec<String> = Vec::new();
    let mut too_short: Vec<String> = Vec::new();
    for (name, sfen) in table("muso.tsv") {
        if only.as_ref().is_some_and(|o| !o.contains(&name)) {
            continue;
        }
        let pos = Position::from_sfen(&sfen).expect("valid sfen");
        let r = solve_with_report(&pos, &opts, &AtomicBool::new(false));
        total += 1;
        nodes += r.nodes;
        secs += r.elapsed.as_secs_f64();
        let verdict = match &r.result {
            MateResult::Mate(l) => {
                check_mate_line_with(&pos, l, defence).unwrap_or_else(|e| panic!("{name}: {e}"));
                solved += 1;
                shortest_proven += r.shortest as u32;
                if let Some((_, t, n)) = r.first_mate {
                    first_secs.push(t.as_secs_f64());
                    first_nodes.push(n);
                }
                let cmp = match proven.get(&name) {
                    Some(&p) if l.len() == p => {
                        exact += 1;
                        "exact".to_string()
                    }
                    Some(&p) if l.len() < p => {
                        shorter += 1;
                        too_short.push(name.clone());
                        format!("SHORTER than {p}")
                    }
                    Some(&p) => {
                        longer += 1;
                        format!("longer than {p}")
                    }
                    None => String::new(),
                };
                let (first, first_ms, first_n) = r
                    .first_mate
                    .map_or((0, 0, 0), |(len, t, n)| (len, t.as_millis(), n));
                format!(
                    "mate {}{}\tfirst {first} at {first_ms} ms {first_n} nodes\t{cmp}",
                    l.len(),
                    if r.shortest { " (shortest)" } else { "" },
                )
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
    first_secs.sort_by(f64::total_cmp);
    println!(
        "solved {solved}/{total} within {ms} ms each ({defence:?}); total nodes {nodes} time {secs:.1} s nps {:.0}",
        nodes as f64 / secs.max(1e-9)
    );
    println!(
        "against muso-lengths.tsv: exact {exact}, longer {longer}, shorter {shorter}; proven shortest by Hayate: {shortest_proven}"
    );
    println!(
        "time to first mate (s): min {:.3} p25 {:.3} median {:.3} p75 {:.3} p90 {:.3} max {:.3}",
        percentile(&first_secs, 0.0),
        percentile(&first_secs, 0.25),
        percentile(&first_secs, 0.5),
        percentile(&first_secs, 0.75),
        percentile(&first_secs, 0.9),
        percentile(&first_secs, 1.0)
    );
    first_nodes.sort_unstable();
    let mid = first_nodes.get(first_nodes.len() / 2).copied().unwrap_or(0);
    println!("nodes to first mate: median {mid}");
    if !nomates.is_empty() {
        println!("proven no-mate (the file says mate): {}", nomates.join(" "));
    }
    assert!(
        too_short.is_empty(),
        "lines shorter than the proven length: {}",
        too_short.join(" ")
    );
}

/// 無双 28: after 9g8h the defender must not drop S*6f (mated in 15): the king move 3c4c resists,
/// and 51 is the proven length. Every defender move of the line must be a longest resistance.
#[test]
#[ignore = "long: about a minute on a loaded machine"]
fn muso028_line_has_the_longest_resistance() {
    let (_, sfen) = table("muso.tsv")
        .into_iter()
        .find(|(n, _)| n == "muso028")
        .expect("muso028");
    let pos = Position::from_sfen(&sfen).expect("valid sfen");
    let opts = DfpnOptions {
        time_limit: Some(Duration::from_secs(120)),
        hash_mb: 1024,
        post_search: true,
        ..DfpnOptions::default()
    };
    let r = solve_with_report(&pos, &opts, &AtomicBool::new(false));
    let MateResult::Mate(line) = r.result else {
        panic!("{:?}", r.result)
    };
    check_mate_line_with(&pos, &line, Defence::AllLegal).expect("a checkmate sequence");
    assert!(line.len() >= 51, "{} plies", line.len());
}

/// Peak resident memory of this process in KiB (`VmHWM`), if the system says.
fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// A long search on a problem it cannot solve in the time with a small table: the table fills
/// up, garbage collection keeps it usable, and the process grows no further than the table.
/// `MEM_MS` (default 60000), `MEM_HASH_MB` (16), `MEM_PROBLEM` (muso001).
#[test]
#[ignore = "long: a minute"]
fn memory_stays_within_the_table_when_full() {
    let ms = env_u64("MEM_MS", 60_000);
    let hash_mb = env_u64("MEM_HASH_MB", 16);
    let name = std::env::var("MEM_PROBLEM").unwrap_or_else(|_| "muso001".into());
    let (_, sfen) = table("muso.tsv")
        .into_iter()
        .find(|(n, _)| *n == name)
        .expect("problem in muso.tsv");
    let pos = Position::from_sfen(&sfen).expect("valid sfen");
    let before = peak_rss_kib().unwrap_or(0);
    let opts = DfpnOptions {
        time_limit: Some(Duration::from_millis(ms)),
        hash_mb: hash_mb as usize,
        post_search: true,
        ..DfpnOptions::default()
    };
    let mut fills: Vec<u32> = Vec::new();
    let r = hayate_mate::solve_with_progress(&pos, &opts, &AtomicBool::new(false), &mut |p| {
        if let hayate_mate::Progress::Searching { hashfull, .. } = p {
            fills.push(*hashfull);
        }
    });
    let after = peak_rss_kib().unwrap_or(0);
    let max_fill = fills.iter().copied().max().unwrap_or(0);
    let collections = fills.windows(2).filter(|w| w[1] < w[0]).count();
    println!(
        "{name}: {:?} after {} nodes, {} ms; table {} MiB; hashfull per second {:?}",
        r.result
            .to_usi()
            .split_whitespace()
            .take(2)
            .collect::<Vec<_>>(),
        r.nodes,
        r.elapsed.as_millis(),
        r.hash_mb,
        fills
    );
    println!(
        "peak RSS {before} KiB before, {after} KiB after: grew {} KiB; max hashfull {max_fill}, {collections} drops (GC)",
        after.saturating_sub(before)
    );
    assert!(max_fill >= 800, "the table never filled: {max_fill}");
    assert!(collections >= 1, "no garbage collection seen");
    // The table and a few MiB of child lists, stack and line read-off.
    assert!(
        after.saturating_sub(before) <= (hash_mb + 32) * 1024,
        "grew {} KiB with a {hash_mb} MiB table",
        after.saturating_sub(before)
    );
}
