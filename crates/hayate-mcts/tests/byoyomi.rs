//! Time at byoyomi: every move ends within byoyomi − `NetworkDelay` (the delay capped at a
//! quarter; a batch in flight needs more room than the αβ player's stop, so the αβ player's
//! smaller reserve at short byoyomi is not used here), measured from outside and as the
//! player's own last `info` reports it, with the real tract backend and with a network slow
//! enough that one batch in flight at the deadline would overrun it (issue 16, item 11: median
//! 328 ms at byoyomi 300).

use hayate_core::Position;
use hayate_core::player::{BestMove, Info, Limits, Player, Signals};
use hayate_infer::{Backend, BackendError, Batch, UniformBackend};
use hayate_mcts::MctsPlayer;
use std::time::{Duration, Instant};

const BYOYOMI_MS: u64 = 300;
/// `NetworkDelay` 120 capped at a quarter of 300.
const DEADLINE_MS: u64 = BYOYOMI_MS - BYOYOMI_MS / 4;
/// Room for the scheduler of a loaded two-core machine (the search polls its clock every
/// millisecond; a busy machine wakes it later). Without the fix every move took 300 ms or more.
const SLACK_MS: u64 = 25;

/// A network that takes `delay` per call (uniform answers).
struct Slow(Duration);

impl Backend for Slow {
    fn name(&self) -> String {
        "slow".to_string()
    }

    fn evaluate(&mut self, batch: &mut Batch) -> Result<(), BackendError> {
        std::thread::sleep(self.0);
        UniformBackend.evaluate(batch)
    }
}

fn byoyomi() -> Limits {
    Limits {
        time: [Some(Duration::ZERO), Some(Duration::ZERO)],
        byoyomi: Some(Duration::from_millis(BYOYOMI_MS)),
        ..Limits::default()
    }
}

/// Plays `moves` moves of self-play at byoyomi 300; returns (outside ms, reported ms) per move.
fn self_play(p: &mut MctsPlayer, moves: usize) -> Vec<(u64, u64)> {
    let mut pos = Position::startpos();
    let mut times = Vec::new();
    for _ in 0..moves {
        let mut reported = 0;
        let t = Instant::now();
        let b = p.think(&pos, &byoyomi(), &Signals::new(), &mut |i: &Info| {
            reported = reported.max(i.time_ms.unwrap_or(0));
        });
        let outside = t.elapsed().as_millis() as u64;
        times.push((outside, reported));
        let BestMove::Move { best, .. } = b else {
            break;
        };
        pos.do_move(best);
    }
    times
}

fn check(times: &[(u64, u64)]) {
    eprintln!("(outside ms, reported ms) per move: {times:?}");
    assert!(!times.is_empty());
    for &(outside, reported) in times {
        assert!(
            reported <= DEADLINE_MS + SLACK_MS,
            "reported {reported} ms: {times:?}"
        );
        assert!(
            outside <= DEADLINE_MS + SLACK_MS,
            "took {outside} ms: {times:?}"
        );
    }
}

#[test]
fn the_tiny_net_on_tract_answers_within_byoyomi_less_the_network_delay() {
    let model = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/tiny_resnet.onnx");
    let mut p = MctsPlayer::new();
    p.set_option("DNN_Model", model).expect("option");
    p.set_option("PV_Interval", "100").expect("option");
    p.prepare().expect("prepare");
    check(&self_play(&mut p, 6));
}

#[test]
fn a_slow_network_call_in_flight_does_not_push_the_move_past_the_deadline() {
    let mut p = MctsPlayer::with_backend(Box::new(Slow(Duration::from_millis(40))));
    p.set_option("Resign_Threshold", "0").expect("option");
    check(&self_play(&mut p, 4));
}
