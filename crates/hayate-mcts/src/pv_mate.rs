//! PV-mate threads (dlshogi's `PV_MATE_SEARCH`, Novice's PNS-on-PV): walk the most-visited line
//! from the root and run df-pn once on the position after each edge not yet checked. If the
//! side to move there can force mate, the edge is a proven loss for the player who made it, and
//! the selection rules propagate that up the tree.

use crate::node::{Node, NodeState, Proven};
use crate::search::SearchShared;
use hayate_core::Position;
use hayate_mate::{DfpnOptions, MateResult, solve};
use std::collections::HashSet;
use std::sync::Mutex;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// Edges already checked, shared by the PV-mate threads of one search. Keyed by the edge's
/// address: mate results depend on the path (repetitions), so positions are not merged.
#[derive(Debug, Default)]
pub struct Checked(Mutex<HashSet<usize>>);

impl Checked {
    /// Claims `edge` for checking; `false` when it was claimed before.
    fn claim(&self, edge: *const crate::node::Edge) -> bool {
        self.0
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(edge as usize)
    }
}

/// Runs one PV-mate thread until the search stops.
pub fn pv_mate_thread(shared: &SearchShared<'_>, checked: &Checked, nodes: u64, hash_mb: usize) {
    let opts = DfpnOptions {
        max_nodes: Some(nodes),
        hash_mb,
        exact_line_plies: 0,
        ..DfpnOptions::default()
    };
    while !shared.should_stop() {
        if !check_next(shared, checked, &opts) {
            // Nothing new on the PV yet: let the search extend it.
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}

/// Walks the PV to its first unchecked edge and checks it. Returns whether it checked one.
fn check_next(shared: &SearchShared<'_>, checked: &Checked, opts: &DfpnOptions) -> bool {
    let mut pos: Position = shared.root_pos.clone();
    let mut node: &Node = shared.root;
    loop {
        let Some(edge) = node
            .edges()
            .iter()
            .filter(|e| e.proven() == Proven::Unknown)
            .max_by_key(|e| e.n())
        else {
            return false;
        };
        if edge.n() == 0 {
            return false;
        }
        pos.do_move(edge.mv);
        if checked.claim(edge) {
            if let MateResult::Mate(_) = solve(&pos, opts, &shared.stop) {
                edge.set_proven(Proven::Loss);
            }
            return true;
        }
        match edge.child() {
            Some(c) if c.state() == NodeState::Expanded => node = c,
            _ => return false,
        }
        if shared.stop.load(Ordering::Acquire) {
            return false;
        }
    }
}
