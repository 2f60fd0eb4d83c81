//! One module per subcommand.

pub mod arena;
pub mod bench;
pub mod convert;
pub mod csa;
pub mod dataset;
pub mod error_stats;
pub mod eval;
pub mod mate;
pub mod mcts;
pub mod nnue;
pub mod perft;
pub mod rl;
pub mod selfplay;
pub mod standing;
pub mod train;
pub mod train_nnue;
pub mod tune;
pub mod usi;

/// An `--option NAME=VALUE` argument split at its first `=`, both sides trimmed.
///
/// # Errors
/// When there is no `=`.
pub fn name_value(o: &str) -> anyhow::Result<(&str, &str)> {
    o.split_once('=')
        .map(|(n, v)| (n.trim(), v.trim()))
        .ok_or_else(|| anyhow::anyhow!("--option {o:?}: expected NAME=VALUE"))
}
