//! Step 3's check: a short αβ search of the DL move alone (the αβ side's table is warm from
//! its own search of the position), scored on αβ's scale against αβ's own choice.

use crate::clock::verify_limits;
use crate::side::AlphaBetaSide;
use hayate_core::player::{Info, Score, Signals};
use hayate_core::{Move, Position};
use std::time::Duration;

/// What the verification found: the DL move's score and its last line (PV from the DL move).
#[derive(Clone, Debug)]
pub struct Verification {
    /// The DL move's score for the side to move.
    pub score: Score,
    /// The last line with a PV, if any.
    pub line: Option<Info>,
}

/// Searches `dl_move` alone at `pos` to `depth` plies within `time`.
pub fn verify(
    ab: &mut dyn AlphaBetaSide,
    pos: &Position,
    dl_move: Move,
    (depth, time): (u32, Option<Duration>),
) -> Verification {
    let limits = verify_limits(dl_move, depth, time);
    let mut line = None;
    let v = ab.search_scored(pos, &limits, &Signals::new(), &mut |i: &Info| {
        if !i.pv.is_empty() {
            line = Some(i.clone());
        }
    });
    Verification {
        score: v.score,
        line,
    }
}
