//! One clock for both sides: they search concurrently under the same limits, less the time
//! kept back for the verification search that may follow (`Hybrid_VerifyTime`, at most a
//! tenth of a byoyomi, movetime or main time: a verification on αβ's warm table takes a few
//! milliseconds, and what is reserved is lost to both sides). Each side keeps its own
//! `NetworkDelay` margin inside what it is given, so the whole move still ends within the
//! clock.

use hayate_core::player::Limits;
use hayate_core::timeman::{TimeOptions, plan};
use hayate_core::{Color, Move};
use std::time::{Duration, Instant};

/// The limits of the two sides and of the verification search.
#[derive(Clone, Debug)]
pub struct Budget {
    /// What both sides search under.
    pub sides: Limits,
    /// The verification's time (`None`: only its depth limits it).
    pub verify: Option<Duration>,
}

/// The hybrid's own watch over the sides: however late a side's thread starts on a loaded
/// machine, both are stopped when the sides' hard limit has passed since `go` (or
/// `ponderhit`).
#[derive(Clone, Copy, Debug)]
pub struct Watch {
    /// When the clock started: the `go`, until a `ponderhit` restarts it.
    pub start: Instant,
    /// The sides' hard limit (`None`: no clock, or pondering).
    pub hard: Option<Duration>,
}

impl Watch {
    /// The watch for sides searching under `sides` (already split) for `us` at `ply`, with
    /// `network_delay_ms` kept back as the αβ player keeps it.
    pub fn new(sides: &Limits, us: Color, ply: u32, network_delay_ms: u64) -> Watch {
        let opts = TimeOptions {
            network_delay_ms,
            ..TimeOptions::default()
        };
        Watch {
            start: Instant::now(),
            hard: plan(sides, us, ply, &opts).maximum,
        }
    }

    /// Whether the sides' time is up (never while pondering or in `go infinite`).
    pub fn is_up(&self, limits: &Limits, ponderhit: bool) -> bool {
        let running = !limits.infinite && (!limits.ponder || ponderhit);
        running && self.hard.is_some_and(|h| self.start.elapsed() >= h)
    }
}

/// Splits `limits` for `us`: `reserve` is kept back for the verification (zero: none).
pub fn split(limits: &Limits, us: Color, reserve: Duration) -> Budget {
    let mut sides = limits.clone();
    let keep = |total: Duration, share: u32| reserve.min(total / share);
    let verify = if reserve.is_zero() || limits.infinite {
        None
    } else if let Some(mt) = limits.movetime {
        let r = keep(mt, 10);
        sides.movetime = Some(mt - r);
        Some(r)
    } else if let Some(byo) = limits.byoyomi.filter(|b| !b.is_zero()) {
        let r = keep(byo, 10);
        sides.byoyomi = Some(byo - r);
        Some(r)
    } else if let Some(main) = limits.time[us.index()] {
        let inc = limits.increment[us.index()].unwrap_or_default();
        let r = keep(main + inc, 10).min(main);
        sides.time[us.index()] = Some(main - r);
        Some(r)
    } else {
        None
    };
    Budget { sides, verify }
}

/// The verification search of `dl_move`: that root move only, to `depth` (its time is
/// kept by [`crate::verify`]).
pub fn verify_limits(dl_move: Move, depth: u32) -> Limits {
    Limits {
        depth: Some(depth),
        search_moves: vec![dl_move],
        ..Limits::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: fn(u64) -> Duration = Duration::from_millis;

    #[test]
    fn byoyomi_keeps_back_the_reserve_up_to_a_tenth() {
        let go = Limits {
            time: [Some(MS(0)); 2],
            byoyomi: Some(MS(300)),
            ..Limits::default()
        };
        let b = split(&go, Color::Black, MS(100));
        assert_eq!((b.sides.byoyomi, b.verify), (Some(MS(270)), Some(MS(30))));
        let b = split(&go, Color::Black, MS(20));
        assert_eq!((b.sides.byoyomi, b.verify), (Some(MS(280)), Some(MS(20))));
        let b = split(&go, Color::Black, Duration::ZERO);
        assert_eq!((b.sides.byoyomi, b.verify), (Some(MS(300)), None));
    }

    #[test]
    fn the_watch_runs_out_at_the_sides_hard_limit_but_not_while_pondering() {
        let sides = Limits {
            byoyomi: Some(MS(100)),
            ..Limits::default()
        };
        let mut w = Watch::new(&sides, Color::Black, 1, 120);
        assert_eq!(w.hard, Some(MS(75)), "a quarter kept back as NetworkDelay");
        assert!(!w.is_up(&sides, false));
        w.start -= MS(80);
        assert!(w.is_up(&sides, false));
        let ponder = Limits {
            ponder: true,
            ..sides.clone()
        };
        assert!(!w.is_up(&ponder, false) && w.is_up(&ponder, true));
        let depth = Limits {
            depth: Some(3),
            ..Limits::default()
        };
        assert_eq!(Watch::new(&depth, Color::Black, 1, 120).hard, None);
    }

    #[test]
    fn main_time_and_movetime_pay_the_reserve_and_depth_limits_do_not() {
        let sudden = Limits {
            time: [Some(MS(60_000)), Some(MS(500))],
            ..Limits::default()
        };
        let b = split(&sudden, Color::Black, MS(100));
        assert_eq!(
            (b.sides.time[0], b.verify),
            (Some(MS(59_900)), Some(MS(100)))
        );
        let b = split(&sudden, Color::White, MS(100));
        assert_eq!((b.sides.time[1], b.verify), (Some(MS(450)), Some(MS(50))));
        let fixed = Limits {
            movetime: Some(MS(1000)),
            ..Limits::default()
        };
        let b = split(&fixed, Color::Black, MS(100));
        assert_eq!((b.sides.movetime, b.verify), (Some(MS(900)), Some(MS(100))));
        let short = Limits {
            movetime: Some(MS(500)),
            ..Limits::default()
        };
        let b = split(&short, Color::Black, MS(100));
        assert_eq!((b.sides.movetime, b.verify), (Some(MS(450)), Some(MS(50))));
        let depth = Limits {
            depth: Some(5),
            ..Limits::default()
        };
        assert_eq!(split(&depth, Color::Black, MS(100)).verify, None);
    }
}
