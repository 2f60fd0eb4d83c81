//! `hayate bench`: fixed positions, fixed depth, one thread; last line `nodes N nps X`.
//! `--option Tune_<name>=<value>` searches with a tuning constant changed (any engine option
//! is taken, checked as `setoption` checks it).

use anyhow::anyhow;
use hayate_search::bench::{BENCH_DEPTH, options, run as run_bench};

/// Arguments of `hayate bench`.
#[derive(clap::Args)]
pub struct Args {
    /// Search depth.
    #[arg(long, default_value_t = BENCH_DEPTH)]
    depth: u32,
    /// Evaluation: kkpee9 (default), material or nnue.
    #[arg(long, default_value_t)]
    evaluator: hayate_eval::EvalKind,
    /// The NNUE file for `--evaluator nnue`.
    #[arg(long, default_value = "eval/nn.bin")]
    nnue: std::path::PathBuf,
    /// An engine option `NAME=VALUE` set before the search, e.g. `Tune_lmr_div=200`
    /// (repeatable).
    #[arg(long = "option")]
    options: Vec<String>,
}

/// Runs the bench.
pub fn run(a: Args) -> anyhow::Result<()> {
    let mut opts = options();
    for o in &a.options {
        let (n, v) = super::name_value(o)?;
        opts.set(n, v).map_err(|e| anyhow!("--option {o:?}: {e}"))?;
    }
    let line = |i: usize, sfen: &str, nodes: u64, best: String| {
        println!(
            "position {} nodes {nodes} bestmove {best} sfen {sfen}",
            i + 1
        );
    };
    let t0 = std::time::Instant::now();
    let eval = a.evaluator.load(&a.nnue)?;
    println!(
        "{} ready in {} ms",
        eval.describe(),
        t0.elapsed().as_millis()
    );
    let r = hayate_eval::with_eval!(eval, e => run_bench(e, a.depth, opts, line));
    let ms = r.elapsed.as_millis().max(1) as u64;
    println!("time_ms {ms}");
    println!("nodes {} nps {}", r.nodes, r.nodes * 1000 / ms);
    Ok(())
}
