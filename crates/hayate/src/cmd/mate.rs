//! `hayate mate`: solves a mate problem with df-pn and prints the USI `checkmate` line.

use anyhow::Context;
use hayate_core::Position;
use hayate_mate::{Defence, DfpnOptions, solve_with_progress};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Arguments of `hayate mate`.
#[derive(clap::Args)]
pub struct Args {
    /// The problem; the side to move mates.
    #[arg(long)]
    sfen: String,
    /// Time limit in milliseconds (none by default).
    #[arg(long)]
    time_ms: Option<u64>,
    /// Node limit (moves made; none by default).
    #[arg(long)]
    nodes: Option<u64>,
    /// Transposition table size in MiB (less when the system has not that much memory).
    #[arg(long, default_value_t = 64)]
    hash_mb: usize,
    /// Count every legal evasion as a defence (the game's rules). By default futile
    /// interposition drops (無駄合) are not defences, as in problem collections and `go mate`.
    #[arg(long)]
    game_rules: bool,
    /// Stop at the first mate found instead of proving the shortest.
    #[arg(long)]
    first: bool,
    /// Also print the progress (USI `info` lines) and nodes, time and nodes per second to stderr.
    #[arg(long)]
    stats: bool,
}

/// Prints exactly one line: `checkmate <usi moves>`, `checkmate nomate` or `checkmate timeout`.
pub fn run(a: Args) -> anyhow::Result<()> {
    let pos = Position::from_sfen(&a.sfen).with_context(|| format!("bad --sfen {:?}", a.sfen))?;
    if pos.king_square(!pos.side_to_move()).is_none() {
        anyhow::bail!(
            "bad --sfen {:?}: the side not to move has no king, so there is nothing to mate",
            a.sfen
        );
    }
    let opts = DfpnOptions {
        time_limit: a.time_ms.map(Duration::from_millis),
        max_nodes: a.nodes,
        hash_mb: a.hash_mb,
        defence: if a.game_rules {
            Defence::AllLegal
        } else {
            Defence::NoFutileDrops
        },
        post_search: !a.first,
        ..DfpnOptions::default()
    };
    let stats = a.stats;
    let report = solve_with_progress(&pos, &opts, &AtomicBool::new(false), &mut |p| {
        if stats {
            for l in p.to_usi() {
                eprintln!("{l}");
            }
        }
    });
    if report.hash_mb < a.hash_mb {
        eprintln!(
            "warning: a {} MiB table does not fit in memory; used {} MiB",
            a.hash_mb, report.hash_mb
        );
    }
    println!("{}", report.result.to_usi());
    if stats {
        let secs = report.elapsed.as_secs_f64();
        let nps = if secs > 0.0 {
            (report.nodes as f64 / secs) as u64
        } else {
            0
        };
        eprintln!(
            "nodes {} time_ms {} nps {nps}",
            report.nodes,
            report.elapsed.as_millis()
        );
    }
    Ok(())
}
