//! `ResignValue` resigns lost positions, and byoyomi time is spent rather than saved.

use hayate_core::Position;
use hayate_core::player::{BestMove, Limits, Signals};
use hayate_eval::Material;
use hayate_search::{AlphaBeta, Options};
use std::time::{Duration, Instant};

/// Black to move with a bare king against White's whole army in hand: hopeless, not yet mated.
const LOST: &str = "4k4/9/9/9/9/9/9/9/4K4 b 2r2b4g4s4n4l18p 1";

fn engine(resign_value: i32) -> AlphaBeta<Material> {
    AlphaBeta::with_options(
        Material,
        Options {
            hash_mb: 16,
            resign_value,
            ..Options::default()
        },
    )
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

#[test]
fn resign_value_resigns_a_lost_position_and_zero_never_does() {
    let pos = Position::from_sfen(LOST).expect("sfen");
    let r = engine(3000).search(&pos, &depth(4), &Signals::new(), &mut |_| {});
    assert!(r.score < -3000, "score {}", r.score);
    assert_eq!(r.best, BestMove::Resign);
    let r = engine(0).search(&pos, &depth(4), &Signals::new(), &mut |_| {});
    assert!(matches!(r.best, BestMove::Move { .. }), "{:?}", r.best);
}

#[test]
fn byoyomi_is_spent_not_saved() {
    let pos = Position::startpos();
    let limits = Limits {
        time: [Some(Duration::ZERO); 2],
        byoyomi: Some(Duration::from_millis(600)),
        ..Limits::default()
    };
    let t0 = Instant::now();
    let mut last = None;
    let r = engine(0).search(&pos, &limits, &Signals::new(), &mut |i| {
        last = Some((i.nodes, i.time_ms))
    });
    let used = t0.elapsed();
    assert!(matches!(r.best, BestMove::Move { .. }));
    // The plan is 600 - 120 (NetworkDelay) = 480 ms; a settled best move used to stop at ~40 %.
    assert!(used >= Duration::from_millis(400), "used {used:?}");
    assert!(used <= Duration::from_millis(600), "used {used:?}");
    // The stop in the middle of an iteration still ends with a line: all the nodes, the time.
    let (nodes, ms) = last.expect("info lines");
    assert_eq!(nodes, Some(r.nodes));
    assert!(ms.is_some_and(|ms| ms >= 400), "last line at {ms:?} ms");
}
