//! Step 3's check: a short αβ search of the DL move alone (the αβ side's table is warm from
//! its own search of the position), scored on αβ's scale against αβ's own choice.
//!
//! The time limit is a watch that sends `stop`, not a `movetime`: the αβ player's time manager
//! ends a search with a single root move after depth 1, which is right for a forced move but
//! would make every verification a one-ply search.

use crate::clock::verify_limits;
use crate::side::AlphaBetaSide;
use hayate_core::player::{Info, Score, Signals};
use hayate_core::{Move, Position};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// What the verification found: the DL move's score and its last line (PV from the DL move).
#[derive(Clone, Debug)]
pub struct Verification {
    /// The DL move's score for the side to move.
    pub score: Score,
    /// The last line with a PV, if any.
    pub line: Option<Info>,
}

/// Searches `dl_move` alone at `pos` to `depth` plies, stopped after `time`.
pub fn verify(
    ab: &mut dyn AlphaBetaSide,
    pos: &Position,
    dl_move: Move,
    (depth, time): (u32, Option<Duration>),
) -> Verification {
    let limits = verify_limits(dl_move, depth);
    let signals = Signals::new();
    let done = AtomicBool::new(false);
    let mut line = None;
    let v = std::thread::scope(|s| {
        if let Some(t) = time {
            let (signals, done) = (&signals, &done);
            s.spawn(move || stop_after(t, signals, done));
        }
        let v = ab.search_scored(pos, &limits, &signals, &mut |i: &Info| {
            if !i.pv.is_empty() {
                line = Some(i.clone());
            }
        });
        done.store(true, Ordering::Release);
        v
    });
    Verification {
        score: v.score,
        line,
    }
}

/// Sends `stop` after `time` unless the search is `done` first.
fn stop_after(time: Duration, signals: &Signals, done: &AtomicBool) {
    let deadline = Instant::now() + time;
    while !done.load(Ordering::Acquire) {
        if Instant::now() >= deadline {
            signals.stop();
            return;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}
