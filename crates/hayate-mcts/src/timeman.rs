//! Time for one move: an ideal time, which the search may stretch to a maximum when the two
//! best moves are close, from byoyomi, Fischer or sudden-death clocks. `NetworkDelay` is kept
//! back from every deadline, as the αβ player does: the move must reach the server in time.

use hayate_core::Color;
use hayate_core::player::Limits;
use std::time::Duration;

/// Margins kept back from the clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeOptions {
    /// Kept back from the byoyomi (ms) (`Byoyomi_Margin`).
    pub byoyomi_margin_ms: u64,
    /// Kept back from the main time (ms) for the network and the GUI (`Time_Margin`).
    pub time_margin_ms: u64,
    /// Kept back from every deadline (ms), at most a quarter of it (`NetworkDelay`, the αβ
    /// player's option and default).
    pub network_delay_ms: u64,
}

impl Default for TimeOptions {
    fn default() -> TimeOptions {
        TimeOptions {
            byoyomi_margin_ms: 0,
            time_margin_ms: 1000,
            network_delay_ms: 120,
        }
    }
}

/// The plan for one move; `None` when the clock sets no limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimePlan {
    /// Stop here unless the best move is in doubt.
    pub optimum: Option<Duration>,
    /// Never search past this.
    pub maximum: Option<Duration>,
}

impl TimePlan {
    /// No limit.
    pub const UNLIMITED: TimePlan = TimePlan {
        optimum: None,
        maximum: None,
    };
}

/// Plans the time for `us` at game ply `ply`.
pub fn plan(limits: &Limits, us: Color, ply: u32, opts: &TimeOptions) -> TimePlan {
    let ms = |d: Duration| d.as_millis() as u64;
    if let Some(mt) = limits.movetime {
        let t = ms(mt).saturating_sub(opts.byoyomi_margin_ms);
        let t = Duration::from_millis(t.saturating_sub(opts.network_delay_ms.min(t / 4)).max(1));
        return TimePlan {
            optimum: Some(t),
            maximum: Some(t),
        };
    }
    let remaining = limits.time[us.index()];
    let inc = limits.increment[us.index()].map(ms).unwrap_or(0);
    let byoyomi = limits.byoyomi.map(ms).unwrap_or(0);
    if limits.infinite || (remaining.is_none() && byoyomi == 0 && inc == 0) {
        return TimePlan::UNLIMITED;
    }
    let remaining = remaining.map(ms).unwrap_or(0);
    // What this move may use at most without losing on time.
    let main = remaining.saturating_sub(opts.time_margin_ms.min(remaining / 2));
    let hard = if byoyomi > 0 {
        main + byoyomi.saturating_sub(opts.byoyomi_margin_ms)
    } else {
        main + inc
    };
    let hard = hard.saturating_sub(opts.network_delay_ms.min(hard / 4));
    // Moves still to come on the main time (games run ~120-160 plies).
    let moves_to_go = 70u64.saturating_sub(ply as u64 / 2).max(20);
    let share = main / moves_to_go;
    let optimum = if byoyomi > 0 {
        share + byoyomi.saturating_sub(opts.byoyomi_margin_ms)
    } else {
        share + inc * 9 / 10
    };
    let maximum = (share * 3).min(main / 5) + (hard - main);
    let optimum = optimum.clamp(1, hard.max(1));
    let maximum = maximum.clamp(optimum, hard.max(1));
    TimePlan {
        optimum: Some(Duration::from_millis(optimum)),
        maximum: Some(Duration::from_millis(maximum)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(main: u64, byoyomi: u64, inc: u64) -> Limits {
        let d = |x: u64| Some(Duration::from_millis(x));
        Limits {
            time: [d(main), d(main)],
            byoyomi: (byoyomi > 0).then(|| Duration::from_millis(byoyomi)),
            increment: [
                (inc > 0).then(|| Duration::from_millis(inc)),
                (inc > 0).then(|| Duration::from_millis(inc)),
            ],
            ..Limits::default()
        }
    }

    #[test]
    fn byoyomi_only_spends_the_byoyomi_less_its_margin_and_the_network_delay() {
        let o = TimeOptions {
            byoyomi_margin_ms: 100,
            time_margin_ms: 1000,
            network_delay_ms: 120,
        };
        let p = plan(&limits(0, 1000, 0), Color::Black, 30, &o);
        assert_eq!(p.optimum, Some(Duration::from_millis(780)));
        assert_eq!(p.maximum, Some(Duration::from_millis(780)));
        // At byoyomi 300 the delay is capped at a quarter: 225 ms to think.
        let p = plan(
            &limits(0, 300, 0),
            Color::Black,
            30,
            &TimeOptions::default(),
        );
        assert_eq!(p.maximum, Some(Duration::from_millis(225)));
    }

    #[test]
    fn fischer_spends_a_share_and_most_of_the_increment() {
        let p = plan(
            &limits(60_000, 0, 2_000),
            Color::White,
            0,
            &TimeOptions::default(),
        );
        // main 59 000 over 70 moves = 842; + 1 800 of the increment; the maximum keeps the
        // network delay back.
        assert_eq!(p.optimum, Some(Duration::from_millis(842 + 1800)));
        assert_eq!(p.maximum, Some(Duration::from_millis(842 * 3 + 2000 - 120)));
    }

    #[test]
    fn movetime_and_infinite() {
        let l = Limits {
            movetime: Some(Duration::from_millis(500)),
            ..Limits::default()
        };
        let p = plan(&l, Color::Black, 0, &TimeOptions::default());
        assert_eq!(p.maximum, Some(Duration::from_millis(500 - 120)));
        let l = Limits {
            infinite: true,
            ..limits(1000, 1000, 0)
        };
        assert_eq!(
            plan(&l, Color::Black, 0, &TimeOptions::default()),
            TimePlan::UNLIMITED
        );
        assert_eq!(
            plan(&Limits::default(), Color::Black, 0, &TimeOptions::default()),
            TimePlan::UNLIMITED
        );
    }

    #[test]
    fn never_past_the_clock() {
        let p = plan(
            &limits(300, 0, 0),
            Color::Black,
            100,
            &TimeOptions::default(),
        );
        let max = p.maximum.map(|d| d.as_millis()).unwrap_or(u128::MAX);
        assert!(max <= 300, "{max}");
    }
}
