//! What a running mate search tells its caller, and how `go mate` prints it as USI `info`.

use hayate_core::Move;
use std::time::Duration;

/// A report from a running [`crate::solve_with_progress`].
#[derive(Clone, Debug)]
pub enum Progress<'a> {
    /// About once a second: the work so far and the table's fill (per mille).
    Searching {
        /// Moves made.
        nodes: u64,
        /// Since the search began.
        elapsed: Duration,
        /// Used table slots per thousand.
        hashfull: u32,
    },
    /// A mate was proven (the first, then each shorter one the post-search proves).
    Mate {
        /// The line, attacker first.
        line: &'a [Move],
        /// Whether this length is proven the shortest (no mate within two plies less).
        shortest: bool,
        /// Whether it is the first mate found.
        first: bool,
        /// Moves made.
        nodes: u64,
        /// Since the search began.
        elapsed: Duration,
    },
}

fn nps(nodes: u64, elapsed: Duration) -> u64 {
    let ms = elapsed.as_millis().max(1) as u64;
    nodes.saturating_mul(1000) / ms
}

impl Progress<'_> {
    /// The USI `info` lines for this report.
    pub fn to_usi(&self) -> Vec<String> {
        match self {
            Progress::Searching {
                nodes,
                elapsed,
                hashfull,
            } => vec![format!(
                "info time {} nodes {nodes} nps {} hashfull {hashfull}",
                elapsed.as_millis(),
                nps(*nodes, *elapsed)
            )],
            Progress::Mate {
                line,
                shortest,
                first,
                nodes,
                elapsed,
            } => {
                let what = match (first, shortest) {
                    (_, true) => "mate proven shortest",
                    (true, false) => "first mate",
                    (false, false) => "shorter mate",
                };
                let pv: Vec<String> = line.iter().map(|m| m.to_usi()).collect();
                vec![
                    format!(
                        "info string {what}: {} plies after {} ms, {nodes} nodes",
                        line.len(),
                        elapsed.as_millis()
                    ),
                    format!(
                        "info time {} nodes {nodes} nps {} score mate {} pv {}",
                        elapsed.as_millis(),
                        nps(*nodes, *elapsed),
                        line.len(),
                        pv.join(" ")
                    ),
                ]
            }
        }
    }
}
