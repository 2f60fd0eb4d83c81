//! Answers at the root that need no search (dlshogi's root checks): no legal move, an
//! entering-king declaration, a short mate found by the odd-ply search.

use crate::leaf::{leaf_mate, searched_moves};
use crate::params::SearchParams;
use hayate_core::player::{BestMove, Info, Score};
use hayate_core::{MoveList, Position};
use hayate_mate::{OddPlyResult, OddPlySearch};
use std::time::Instant;

/// An answer found before any search.
#[derive(Clone, Copy, Debug)]
pub struct Shortcut {
    /// The answer.
    pub best: BestMove,
    /// Where it came from (for the search report).
    pub source: &'static str,
    /// Whether it is a proven win.
    pub proven: Option<bool>,
}

/// The answer at `pos` when one needs no search; a mate is reported in an `info` line.
pub fn root_shortcut(
    pos: &Position,
    params: &SearchParams,
    t0: Instant,
    info: &mut dyn FnMut(&Info),
) -> Option<Shortcut> {
    let mut moves = MoveList::new();
    searched_moves(pos, &mut moves);
    let answer = |best, source, proven| {
        Some(Shortcut {
            best,
            source,
            proven,
        })
    };
    if moves.is_empty() {
        return answer(BestMove::Resign, "no legal move", None);
    }
    if pos.can_declare_win(params.declaration) {
        return answer(BestMove::Win, "declaration", None);
    }
    let mut root_pos = pos.clone();
    let m = leaf_mate(&mut root_pos, params)?;
    info(&Info {
        score: Some(Score::Mate(mate_length(&mut root_pos, params) as i32)),
        pv: vec![m],
        time_ms: Some(t0.elapsed().as_millis() as u64),
        ..Info::default()
    });
    let best = BestMove::Move {
        best: m,
        ponder: None,
    };
    answer(best, "root odd-ply mate", Some(true))
}

/// The search gives the first move only: the shortest depth that still finds a mate is the
/// length to report.
fn mate_length(pos: &mut Position, params: &SearchParams) -> u32 {
    (1..=params.leaf_mate_depth)
        .step_by(2)
        .find(|&d| {
            matches!(
                OddPlySearch::new(params.leaf_mate_nodes).search(pos, d),
                OddPlyResult::Mate(_)
            )
        })
        .unwrap_or(params.leaf_mate_depth)
}
