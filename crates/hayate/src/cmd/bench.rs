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
    #[arg(long, default_value = "kkpee9")]
    evaluator: String,
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
    let r = match a.evaluator.as_str() {
        "material" => run_bench(hayate_eval::Material, a.depth, opts, line),
        "kkpee9" => {
            let t0 = std::time::Instant::now();
            let eval = hayate_eval::Kkpee9::new();
            println!("kkpee9 table built in {} ms", t0.elapsed().as_millis());
            run_bench(eval, a.depth, opts, line)
        }
        "nnue" => {
            let t0 = std::time::Instant::now();
            let net = hayate_eval::AnyNnue::load(&a.nnue)?;
            println!(
                "nnue {} loaded in {} ms",
                net.shape().name(),
                t0.elapsed().as_millis()
            );
            hayate_eval::with_nnue!(net, n => run_bench(n, a.depth, opts, line))
        }
        other => anyhow::bail!("unknown evaluator {other:?}"),
    };
    let ms = r.elapsed.as_millis().max(1) as u64;
    println!("time_ms {ms}");
    println!("nodes {} nps {}", r.nodes, r.nodes * 1000 / ms);
    Ok(())
}
