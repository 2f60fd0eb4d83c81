//! The move a finished search plays: a root mate, a proven result, or the best edge (dlshogi's
//! rules), with resignation below the threshold and the last `info` line.

use crate::node::{Node, NodeState};
use crate::report::{TreeSize, best_edge, info_line};
use crate::run::Outcome;
use crate::search::RootResult;
use hayate_core::player::{BestMove, Info, Score};
use std::time::Duration;

/// The answer and where it came from.
#[derive(Clone, Copy, Debug)]
pub struct Answer {
    /// The move (or resignation).
    pub best: BestMove,
    /// Whether the root was proven won (`Some(true)`) or lost.
    pub proven: Option<bool>,
    /// `"root df-pn"` or `"search"`.
    pub source: &'static str,
}

/// What to play after the search in `outcome` over `root`; reports the last `info` line.
pub fn answer(
    root: &Node,
    outcome: &Outcome,
    (elapsed, size, eval_coef): (Duration, TreeSize, f64),
    resign_threshold: f64,
    info: &mut dyn FnMut(&Info),
) -> Answer {
    if let Some(e) = &outcome.error {
        info(&Info {
            string: Some(format!("error: {e}")),
            ..Info::default()
        });
    }
    if let Some(line) = outcome.mate_line.as_ref().filter(|l| !l.is_empty()) {
        info(&Info {
            score: Some(Score::Mate(line.len() as i32)),
            pv: line.clone(),
            time_ms: Some(elapsed.as_millis() as u64),
            nodes: Some(root.n() as u64),
            ..Info::default()
        });
        let best = BestMove::Move {
            best: line[0],
            ponder: line.get(1).copied(),
        };
        return Answer {
            best,
            proven: Some(true),
            source: "root df-pn",
        };
    }
    let mut last = info_line(root, elapsed, size, eval_coef);
    let proven = match outcome.root_result {
        RootResult::Win => Some(true),
        RootResult::Loss => Some(false),
        RootResult::Unknown => None,
    };
    if let Some(win) = proven {
        last.score = Some(Score::Cp(if win { 30000 } else { -30000 }));
    }
    info(&last);
    Answer {
        best: searched_move(root, proven, resign_threshold),
        proven,
        source: "search",
    }
}

/// The best edge with the expected reply, or resignation when the root is lost or the best
/// winning rate is below `resign_threshold` (never when the root is proven won).
fn searched_move(root: &Node, proven: Option<bool>, resign_threshold: f64) -> BestMove {
    if proven == Some(false) {
        return BestMove::Resign;
    }
    let Some(i) = best_edge(root) else {
        return BestMove::Resign;
    };
    let edge = &root.edges()[i];
    if proven != Some(true) && edge.q().is_some_and(|q| q < resign_threshold) {
        return BestMove::Resign;
    }
    let ponder = edge
        .child()
        .filter(|c| c.state() == NodeState::Expanded)
        .and_then(|c| best_edge(c).map(|j| &c.edges()[j]))
        .filter(|e| e.n() > 0)
        .map(|e| e.mv);
    BestMove::Move {
        best: edge.mv,
        ponder,
    }
}
