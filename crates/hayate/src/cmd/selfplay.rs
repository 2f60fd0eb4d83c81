//! `hayate selfplay`: αβ self-play games → training shards (see `hayate-selfplay`).
//!
//! ```text
//! hayate selfplay --out data/sp --eval kkpee9 --depth 6 --positions 1000000 --threads 2
//! ```
//! The shards are `<out>/shard-NNNNNN.psv` (or `.hcpe`); run the same command again to resume.
//! As one of many workers (a Slurm array or a Kubernetes indexed job), the worker index comes
//! from `--shard-index`, `SLURM_ARRAY_TASK_ID` or `JOB_COMPLETION_INDEX`.

use std::path::PathBuf;

use anyhow::Context;
use hayate_core::player::Limits;
use hayate_selfplay::{
    Config, DataFormat, Evaluation, RandomMoves, openings, progress_bar, shard::shard_path,
    worker_from_env,
};

/// Arguments of `hayate selfplay`.
#[derive(clap::Args)]
pub struct Args {
    /// Output folder of the shards (reused to resume).
    #[arg(long)]
    out: PathBuf,
    /// Evaluation of both players: kkpee9, material or nnue.
    #[arg(long, default_value = "kkpee9")]
    eval: String,
    /// The NNUE file for `--eval nnue`; re-read between games when it changes (point it at a
    /// training loop's `current` symlink).
    #[arg(long, default_value = "eval/nn.bin")]
    nnue: PathBuf,
    /// Search depth per move (the default when neither --depth nor --nodes is given: 6).
    #[arg(long)]
    depth: Option<u32>,
    /// Nodes per move instead of a depth.
    #[arg(long, conflicts_with = "depth")]
    nodes: Option<u64>,
    /// Transposition table per player in MiB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// Openings file (SFEN or `startpos moves ...` per line); default: the arena's openings.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Random moves per game, at move numbers drawn from --random-min-ply..=--random-max-ply.
    #[arg(long, default_value_t = 4)]
    random_moves: u32,
    /// First move number that may get a random move.
    #[arg(long, default_value_t = 1)]
    random_min_ply: u32,
    /// Last move number that may get a random move.
    #[arg(long, default_value_t = 24)]
    random_max_ply: u32,
    /// A game ends when both sides' scores agree beyond this (centipawns; 0: never).
    #[arg(long, default_value_t = 3000)]
    eval_limit: i32,
    /// Plies after which a game is a draw (opening moves count).
    #[arg(long, default_value_t = 320)]
    max_plies: usize,
    /// Positions this worker writes.
    #[arg(long, default_value_t = 100_000)]
    positions: u64,
    /// Positions per shard.
    #[arg(long, default_value_t = 10_000)]
    shard_size: u64,
    /// Games in parallel, one search thread each.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Seed of every random choice (shard seeds derive from it and the shard index).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// psv (YaneuraOu PackedSfenValue) or hcpe (dlshogi).
    #[arg(long, default_value = "psv")]
    format: String,
    /// The score written: `search` (the search's, the usual target) or `static` (the
    /// evaluation's own score of the position: data to distil it into a net).
    #[arg(long, default_value = "search")]
    label: String,
    /// This worker's index (default: SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX, else 0).
    #[arg(long)]
    shard_index: Option<u64>,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

fn evaluation(a: &Args) -> anyhow::Result<Evaluation> {
    Ok(match a.eval.as_str() {
        "material" => Evaluation::Material,
        "kkpee9" => Evaluation::Kkpee9(hayate_eval::Kkpee9::new()),
        "nnue" => Evaluation::nnue_file(&a.nnue)
            .with_context(|| format!("loading {}", a.nnue.display()))?,
        other => anyhow::bail!("unknown evaluation {other:?} (kkpee9, material or nnue)"),
    })
}

/// Runs self-play.
pub fn run(a: Args) -> anyhow::Result<()> {
    let text = match &a.openings {
        Some(p) => {
            std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?
        }
        None => openings::DEFAULT_OPENINGS.to_string(),
    };
    let format: DataFormat = a.format.parse().map_err(anyhow::Error::msg)?;
    anyhow::ensure!(a.shard_size > 0, "--shard-size must be above 0");
    let limits = Limits {
        depth: a.depth.or(if a.nodes.is_some() { None } else { Some(6) }),
        nodes: a.nodes,
        ..Limits::default()
    };
    let cfg = Config {
        out_dir: a.out.clone(),
        evaluation: evaluation(&a)?,
        limits,
        hash_mb: a.hash.max(1),
        openings: openings::parse_openings(&text)?,
        random: RandomMoves {
            count: a.random_moves,
            min_ply: a.random_min_ply,
            max_ply: a.random_max_ply,
        },
        eval_limit: a.eval_limit,
        max_plies: a.max_plies,
        positions: a.positions,
        shard_size: a.shard_size,
        threads: a.threads.max(1),
        seed: a.seed,
        format,
        label: a.label.parse().map_err(anyhow::Error::msg)?,
        worker: a.shard_index.or_else(worker_from_env).unwrap_or(0),
    };
    // Shards already there (a resumed run) are not part of this run's work.
    let ext = cfg.format.extension();
    let present: u64 = cfg
        .shards()
        .iter()
        .filter(|&&(i, _)| shard_path(&cfg.out_dir, i, ext).exists())
        .map(|&(_, n)| n)
        .sum();
    let bar = progress_bar(a.positions - present, !a.quiet);
    let summary = hayate_selfplay::run(&cfg, &|n| bar.inc(n))?;
    bar.finish_and_clear();
    eprintln!(
        "worker {} shards {}..{} in {}",
        cfg.worker,
        cfg.shards().first().map_or(0, |s| s.0),
        cfg.shards().last().map_or(0, |s| s.0 + 1),
        cfg.out_dir.display()
    );
    print!("{}", summary.text());
    Ok(())
}
