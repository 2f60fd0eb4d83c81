//! Self-play: in-process αβ players (any evaluation) or the MCTS player (any dlshogi-format
//! network, [`mcts`]) play games under the one game runner of the rules core
//! (`hayate_core::game`: mate, repetition, perpetual check, verified declarations, the ply
//! limit, an eval limit), and the searched positions become training data (psv, hcpe, or
//! hcpe3 with visit counts) in a directory of immutable shards.
//!
//! A run is a worker: it writes the shards of its index that are missing (each under a
//! temporary name, renamed when whole), so a killed run loses at most the shards in progress
//! and a restart continues without overwriting. Every random choice of a shard comes from a
//! generator seeded by (seed, shard index): a shard's bytes do not depend on the thread count.
//! With [`Evaluation::NnueFile`] the net is re-read between games when its file changes (a
//! `current` pointer renamed by a training loop, see [`model`]); a shard's bytes then also
//! depend on the nets it was played with.
//!
//! ```no_run
//! use hayate_core::player::Limits;
//! use hayate_selfplay::{Config, DataFormat, Engine, Evaluation, Label, RandomMoves, openings, run};
//! let cfg = Config {
//!     out_dir: "data/selfplay".into(),
//!     engine: Engine::AlphaBeta(Evaluation::Material),
//!     limits: Limits { depth: Some(6), ..Limits::default() },
//!     hash_mb: 16,
//!     openings: openings::parse_openings(openings::DEFAULT_OPENINGS)?,
//!     random: RandomMoves { count: 4, min_ply: 1, max_ply: 24 },
//!     eval_limit: 3000,
//!     max_plies: 320,
//!     positions: 100_000,
//!     shard_size: 10_000,
//!     threads: 2,
//!     seed: 1,
//!     format: DataFormat::Psv,
//!     label: Label::Search,
//!     worker: 0,
//! };
//! let summary = run(&cfg, &|_| {})?;
//! print!("{}", summary.text());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

pub mod data;
pub mod mcts;
pub mod model;
pub mod openings;
pub mod players;
pub mod rl;
pub mod rng;
mod run;
pub mod shard;

pub use data::{DataFormat, Label, encode_game, encode_hcpe3, score_i16};
pub use mcts::{GameMeta, MctsConfig};
pub use model::FollowedNnue;
pub use openings::{Opening, OpeningError, parse_openings};
pub use players::{Evaluation, RandomAt};
pub use run::{Config, Engine, RandomMoves, SelfplayError, Summary, run};

/// The worker (shard) index from the scheduler's array variables: `SLURM_ARRAY_TASK_ID`, then
/// `JOB_COMPLETION_INDEX` (Kubernetes indexed jobs); `None` when neither is set or a number.
pub fn worker_from_env() -> Option<u64> {
    ["SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"]
        .iter()
        .find_map(|k| std::env::var(k).ok()?.trim().parse().ok())
}

/// A progress bar over `total` positions with positions/s (hidden when `show` is false).
pub fn progress_bar(total: u64, show: bool) -> indicatif::ProgressBar {
    let bar = if show {
        indicatif::ProgressBar::new(total)
    } else {
        indicatif::ProgressBar::hidden()
    };
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:30} {pos}/{len} positions {per_sec} [{elapsed_precise} < {eta_precise}]",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar
}
