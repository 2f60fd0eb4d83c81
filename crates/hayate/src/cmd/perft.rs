//! `hayate perft`: leaf counts of the legal-move tree.

use anyhow::Context;
use hayate_core::{Position, perft, perft_divide};
use std::time::Instant;

/// Arguments of `hayate perft`.
#[derive(clap::Args)]
pub struct Args {
    /// Depth in plies.
    #[arg(long, short)]
    depth: u32,
    /// Start position (default: the initial position).
    #[arg(long)]
    sfen: Option<String>,
    /// Print the count below each root move.
    #[arg(long)]
    divide: bool,
}

/// Runs perft and prints `nodes N time_ms T nps X` as the last line.
pub fn run(a: Args) -> anyhow::Result<()> {
    let mut pos = match &a.sfen {
        Some(s) => Position::from_sfen(s).with_context(|| format!("bad --sfen {s:?}"))?,
        None => Position::startpos(),
    };
    let t0 = Instant::now();
    let nodes = if a.divide {
        let mut total = 0;
        for (m, n) in perft_divide(&mut pos, a.depth) {
            println!("{m}: {n}");
            total += n;
        }
        total
    } else {
        perft(&mut pos, a.depth)
    };
    let secs = t0.elapsed().as_secs_f64();
    let nps = if secs > 0.0 {
        (nodes as f64 / secs) as u64
    } else {
        0
    };
    println!("nodes {nodes} time_ms {} nps {nps}", (secs * 1000.0) as u64);
    Ok(())
}
