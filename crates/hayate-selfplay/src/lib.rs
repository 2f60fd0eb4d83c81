#![doc = include_str!("../README.md")]
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
