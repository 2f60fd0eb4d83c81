//! `hayate selfplay`: self-play games → training shards (see `hayate-selfplay`).
//!
//! ```text
//! hayate selfplay --out data/sp --eval kkpee9 --depth 6 --positions 1000000 --threads 2
//! hayate selfplay --out data/rl --player mcts --model net.onnx --playouts 800 --threads 32
//! ```
//! The shards are `<out>/shard-NNNNNN.psv` (or `.hcpe`, `.hcpe3` with a `.games.jsonl` sidecar
//! for the MCTS player); run the same command again to resume.
//! As one of many workers (a Slurm array or a Kubernetes indexed job), the worker index comes
//! from `--shard-index`, `SLURM_ARRAY_TASK_ID` or `JOB_COMPLETION_INDEX`.

use std::path::PathBuf;

use anyhow::Context;
use hayate_core::player::Limits;
use hayate_mcts::noise::RootNoise;
use hayate_selfplay::{
    Config, DataFormat, Engine, Evaluation, MctsConfig, RandomMoves, openings, progress_bar,
    shard::shard_path, worker_from_env,
};

/// Who plays self-play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Who {
    /// αβ search over `--eval` (psv data).
    #[value(alias = "alphabeta")]
    Ab,
    /// The PUCT player over `--model` (hcpe3 data).
    Mcts,
}

/// Arguments of `hayate selfplay`.
#[derive(clap::Args)]
pub struct Args {
    /// Output folder of the shards (reused to resume).
    #[arg(long)]
    out: PathBuf,
    /// Who plays: `ab` (αβ with --eval) or `mcts` (the PUCT player with --model, hcpe3 data).
    #[arg(long, value_enum, default_value_t = Who::Ab)]
    player: Who,
    #[command(flatten)]
    mcts: MctsArgs,
    /// Evaluation of both αβ players: kkpee9, material or nnue.
    #[arg(long, default_value_t)]
    eval: hayate_eval::EvalKind,
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
    /// Openings file (SFEN or `startpos moves ...` per line); default: the arena's 16 lines for
    /// αβ, 120 lines for MCTS.
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
    /// Games in parallel, one search thread each (MCTS: their leaves share each network call,
    /// so many games, e.g. 16–64, make the batches).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Seed of every random choice (shard seeds derive from it and the shard index).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// psv (YaneuraOu PackedSfenValue), hcpe, hcpe3 or hcp (dlshogi); default psv for αβ,
    /// hcpe3 (with visit counts) for MCTS.
    #[arg(long)]
    format: Option<DataFormat>,
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

/// The MCTS player's arguments.
#[derive(clap::Args)]
struct MctsArgs {
    /// The network (dlshogi-format ONNX). The file is followed: when it changes (a loop's
    /// `RUN/current.onnx` renamed to a new network), network calls use the new one.
    #[arg(long)]
    model: Option<PathBuf>,
    /// Inference backend: tract or ort.
    #[arg(long, default_value = "tract")]
    backend: String,
    /// CPU threads of one network call (default: all cores).
    #[arg(long)]
    dnn_threads: Option<usize>,
    /// Playouts per move.
    #[arg(long, default_value_t = 800)]
    playouts: u64,
    /// Leaves one game's search gathers per network request.
    #[arg(long, default_value_t = 4)]
    batch_per_game: usize,
    /// Most positions in one network call (default: games × batch per game, at most 256).
    #[arg(long)]
    max_batch: Option<usize>,
    /// Microseconds the network waits for other games' leaves once one game has asked.
    #[arg(long, default_value_t = 2000)]
    max_wait_us: u64,
    /// Dirichlet noise concentration at the root (AlphaZero's shogi value).
    #[arg(long, default_value_t = 0.15)]
    noise_alpha: f32,
    /// Share of the noise in the root's priors (0: none).
    #[arg(long, default_value_t = 0.25)]
    noise_epsilon: f32,
    /// Moves up to this move number are drawn in proportion to their visits.
    #[arg(long, default_value_t = 30)]
    sample_plies: u32,
    /// Temperature of those draws (visits^(1/T)).
    #[arg(long, default_value_t = 1.0)]
    temperature: f64,
    /// Resign when the root's win rate falls below this (0: never).
    #[arg(long, default_value_t = 0.02)]
    resign: f64,
    /// Share of the games played without resignation (to count false resignations).
    #[arg(long, default_value_t = 0.1)]
    no_resign_share: f64,
    /// Novice's draw-rate control: above this share of draws, draws count as wins for the side
    /// that has won less (0: off).
    #[arg(long, default_value_t = 0.02)]
    draw_control: f64,
    /// Each MCTS game's ply limit is drawn from this..=--max-plies (Novice's random lengths;
    /// default: half of --max-plies).
    #[arg(long)]
    max_plies_from: Option<usize>,
    /// Run df-pn on each root beside the search.
    #[arg(long)]
    root_mate: bool,
    /// Depth of the odd-ply mate search at each new node (dlshogi's 5; 0: off).
    #[arg(long, default_value_t = 5)]
    leaf_mate_depth: u32,
}

fn mcts_config(a: &Args) -> anyhow::Result<MctsConfig> {
    let m = &a.mcts;
    let model = m
        .model
        .as_ref()
        .context("--player mcts needs --model (a dlshogi-format ONNX file)")?;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let batch = m.batch_per_game.max(1);
    Ok(MctsConfig {
        model: model.display().to_string(),
        backend: hayate_infer::BackendKind::parse(&m.backend)
            .with_context(|| format!("unknown backend {:?}", m.backend))?,
        dnn_threads: m.dnn_threads.unwrap_or(cores).max(1),
        playouts: m.playouts.max(1),
        batch_per_game: batch,
        max_batch: m
            .max_batch
            .unwrap_or((a.threads.max(1) * batch).min(256))
            .max(1),
        max_wait: std::time::Duration::from_micros(m.max_wait_us),
        noise: RootNoise {
            alpha: m.noise_alpha,
            epsilon: m.noise_epsilon.clamp(0.0, 1.0),
        },
        sample_plies: m.sample_plies,
        temperature: m.temperature,
        resign: m.resign.clamp(0.0, 1.0),
        no_resign_share: m.no_resign_share.clamp(0.0, 1.0),
        draw_control: m.draw_control.max(0.0),
        max_plies: (
            m.max_plies_from.unwrap_or(a.max_plies / 2).min(a.max_plies),
            a.max_plies,
        ),
        root_mate: m.root_mate,
        leaf_mate_depth: m.leaf_mate_depth.min(15),
    })
}

fn engine(a: &Args) -> anyhow::Result<Engine> {
    match a.player {
        Who::Ab => Ok(Engine::AlphaBeta(evaluation(a)?)),
        Who::Mcts => Ok(Engine::Mcts(Box::new(mcts_config(a)?))),
    }
}

fn evaluation(a: &Args) -> anyhow::Result<Evaluation> {
    use hayate_eval::EvalKind;
    Ok(match a.eval {
        EvalKind::Material => Evaluation::Material,
        EvalKind::Kkpee9 => Evaluation::Kkpee9(hayate_eval::Kkpee9::new()),
        EvalKind::Nnue => Evaluation::nnue_file(&a.nnue)
            .with_context(|| format!("loading {}", a.nnue.display()))?,
    })
}

/// Runs self-play.
pub fn run(a: Args) -> anyhow::Result<()> {
    let text = match &a.openings {
        Some(p) => {
            std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?
        }
        None if a.player == Who::Mcts => openings::MCTS_OPENINGS.to_string(),
        None => openings::DEFAULT_OPENINGS.to_string(),
    };
    let engine = engine(&a)?;
    let format = a.format.unwrap_or(match engine {
        Engine::Mcts(_) => DataFormat::Hcpe3,
        Engine::AlphaBeta(_) => DataFormat::Psv,
    });
    anyhow::ensure!(a.shard_size > 0, "--shard-size must be above 0");
    let limits = Limits {
        depth: a.depth.or(if a.nodes.is_some() { None } else { Some(6) }),
        nodes: a.nodes,
        ..Limits::default()
    };
    let cfg = Config {
        out_dir: a.out.clone(),
        engine,
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
    // A thread plays one shard at a time: fewer shards than threads leave threads idle.
    let shards = cfg.shards().len();
    if shards < cfg.threads {
        eprintln!(
            "note: {shards} shards for {} threads: {} threads stay idle (lower --shard-size)",
            cfg.threads,
            cfg.threads - shards
        );
    }
    // Shards already there (a resumed run) are not part of this run's work.
    let ext = cfg.format.name();
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
