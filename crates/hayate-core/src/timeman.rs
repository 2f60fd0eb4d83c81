//! Time management for every player (αβ, MCTS, the hybrid): from the clock of a `go` command
//! to an ideal and a maximum time per move.
//!
//! Byoyomi is use-it-or-lose-it, so a move may take it all; main time is spread over the moves
//! expected to remain; a Fischer increment is mostly spent as it comes. A network margin is
//! always kept back (`NetworkDelay`, less at a short deadline), and a move is never planned to
//! end past the hard deadline.

use crate::Color;
use crate::player::Limits;
use std::time::Duration;

/// Options that shape the time plan.
#[derive(Clone, Copy, Debug)]
pub struct TimeOptions {
    /// Time kept back for the GUI and network (ms), like YaneuraOu's `NetworkDelay`.
    pub network_delay_ms: u64,
    /// Never plan less than this (ms), when the clock allows it.
    pub minimum_thinking_ms: u64,
    /// Percentage scaling of the ideal time (100 = normal).
    pub slow_mover: u64,
    /// Kept back from the byoyomi and from a fixed `movetime` (ms) before the network margin
    /// (the MCTS player's `Byoyomi_Margin`).
    pub byoyomi_margin_ms: u64,
    /// Kept back from the main time (ms), at most half of it (the MCTS player's `Time_Margin`).
    pub time_margin_ms: u64,
    /// At a short deadline less than `NetworkDelay` is kept back: a `1/short_deadline_share`
    /// of the deadline. 8 for the αβ player, which stops at once; 4 (the full quarter) for the
    /// MCTS player, whose batch in flight at the deadline still needs its time.
    pub short_deadline_share: u64,
}

impl Default for TimeOptions {
    fn default() -> Self {
        TimeOptions {
            network_delay_ms: 120,
            minimum_thinking_ms: 20,
            slow_mover: 100,
            byoyomi_margin_ms: 0,
            time_margin_ms: 0,
            short_deadline_share: 8,
        }
    }
}

/// The plan for one move. `None` = no time limit (infinite, ponder before ponderhit, or
/// depth/node limits only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimePlan {
    /// Stop iterating after this if the best move looks settled.
    pub optimum: Option<Duration>,
    /// Never search past this.
    pub maximum: Option<Duration>,
    /// The time is use-it-or-lose-it (byoyomi with no main time left, or a fixed movetime):
    /// search until `maximum` rather than stopping when the best move looks settled.
    pub spend_all: bool,
}

impl TimePlan {
    /// No limit.
    pub const UNLIMITED: TimePlan = TimePlan {
        optimum: None,
        maximum: None,
        spend_all: false,
    };
}

/// Plans the time for `us` at game ply `ply`.
pub fn plan(limits: &Limits, us: Color, ply: u32, opts: &TimeOptions) -> TimePlan {
    let ms = |d: Duration| d.as_millis() as u64;
    if let Some(mt) = limits.movetime {
        let mt_ms = ms(mt).saturating_sub(opts.byoyomi_margin_ms).max(1);
        let t = Duration::from_millis(mt_ms - reserve(mt_ms, opts));
        return TimePlan {
            optimum: Some(t),
            maximum: Some(t),
            spend_all: true,
        };
    }
    let remaining = limits.time[us.index()];
    if limits.infinite
        || (remaining.is_none()
            && limits.byoyomi.is_none()
            && limits.increment[us.index()].is_none())
    {
        return TimePlan::UNLIMITED;
    }
    let remaining = remaining.map_or(0, ms);
    let remaining = remaining - opts.time_margin_ms.min(remaining / 2);
    let byoyomi = limits
        .byoyomi
        .map_or(0, |b| ms(b).saturating_sub(opts.byoyomi_margin_ms));
    let inc = limits.increment[us.index()].map_or(0, ms);
    // The hard deadline: what the clock allows for this move.
    let hard = remaining + byoyomi + inc;
    let hard = hard - reserve(hard, opts);
    let floor = opts.minimum_thinking_ms.min(hard / 2);
    // Moves still to play from our main time (shogi games run ~120-160 plies).
    let moves_to_go = (60u64.saturating_sub(ply as u64 / 3)).max(16);
    let from_main = remaining / moves_to_go;
    let optimum = (from_main + byoyomi + inc * 9 / 10) * opts.slow_mover / 100;
    // We may overrun the ideal time by a good deal when unsure, but never spend more than a
    // fifth of the main time on one move.
    let maximum = (from_main * 4).min(remaining / 5) + byoyomi + inc;
    let optimum = optimum.clamp(floor, hard.max(floor));
    let maximum = maximum.clamp(optimum, hard.max(floor));
    TimePlan {
        optimum: Some(Duration::from_millis(optimum)),
        maximum: Some(Duration::from_millis(maximum)),
        // Byoyomi with (almost) no main time: what is not spent now is lost.
        spend_all: byoyomi > 0 && remaining < byoyomi,
    }
}

/// What is kept back from a deadline of `deadline` ms: `NetworkDelay`, but where that is more
/// than `1/short_deadline_share` of the deadline only that share, at least 25 ms (the few ms a
/// search needs to stop and answer, with room to spare), and never more than a quarter. So with
/// the αβ player's share of 8, byoyomi 1000 thinks 880 ms, byoyomi 200 thinks 175 ms (a quarter
/// kept back gave 150), and byoyomi 20 still thinks 15 ms.
fn reserve(deadline: u64, opts: &TimeOptions) -> u64 {
    let share = opts.short_deadline_share.max(1);
    opts.network_delay_ms
        .min((deadline / share).max(25))
        .min(deadline / 4)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(btime: u64, byoyomi: u64, binc: u64) -> Limits {
        Limits {
            time: [
                Some(Duration::from_millis(btime)),
                Some(Duration::from_millis(btime)),
            ],
            byoyomi: (byoyomi > 0).then(|| Duration::from_millis(byoyomi)),
            increment: [
                (binc > 0).then(|| Duration::from_millis(binc)),
                (binc > 0).then(|| Duration::from_millis(binc)),
            ],
            ..Limits::default()
        }
    }

    #[test]
    fn byoyomi_only_uses_the_byoyomi_minus_the_margin() {
        let p = plan(
            &limits(0, 1000, 0),
            Color::Black,
            1,
            &TimeOptions::default(),
        );
        assert_eq!(p.maximum, Some(Duration::from_millis(880)));
        assert!(p.spend_all, "byoyomi alone is use-it-or-lose-it");
        let p = plan(&limits(0, 100, 0), Color::Black, 1, &TimeOptions::default());
        assert_eq!(
            p.maximum,
            Some(Duration::from_millis(75)),
            "a short byoyomi keeps 25 ms back"
        );
        let p = plan(&limits(0, 200, 0), Color::Black, 1, &TimeOptions::default());
        assert_eq!(p.maximum, Some(Duration::from_millis(175)));
        let p = plan(&limits(0, 400, 0), Color::Black, 1, &TimeOptions::default());
        assert_eq!(p.maximum, Some(Duration::from_millis(350)), "an eighth");
        let p = plan(&limits(0, 20, 0), Color::Black, 1, &TimeOptions::default());
        assert_eq!(
            p.maximum,
            Some(Duration::from_millis(15)),
            "a quarter at most"
        );
    }

    #[test]
    fn sudden_death_never_plans_past_a_fifth_of_the_clock() {
        let p = plan(
            &limits(60_000, 0, 0),
            Color::White,
            40,
            &TimeOptions::default(),
        );
        let max = p.maximum.unwrap().as_millis();
        assert!((1000..=12_000).contains(&max), "{max}");
        assert!(!p.spend_all, "main time is saved by stopping early");
        assert!(p.optimum.unwrap() <= p.maximum.unwrap());
    }

    #[test]
    fn fischer_spends_most_of_the_increment() {
        let p = plan(
            &limits(1000, 0, 2000),
            Color::Black,
            100,
            &TimeOptions::default(),
        );
        let opt = p.optimum.unwrap().as_millis();
        assert!(opt >= 1800, "{opt}");
        assert!(p.maximum.unwrap().as_millis() <= 2880);
    }

    #[test]
    fn the_margins_come_off_the_byoyomi_and_the_main_time() {
        // The MCTS player's settings: 100 ms off the byoyomi, then the network margin
        // (an eighth of the 900 left).
        let o = TimeOptions {
            byoyomi_margin_ms: 100,
            ..TimeOptions::default()
        };
        let p = plan(&limits(0, 1000, 0), Color::Black, 30, &o);
        assert_eq!(p.optimum, Some(Duration::from_millis(788)));
        assert_eq!(p.maximum, Some(Duration::from_millis(788)));
        let l = Limits {
            movetime: Some(Duration::from_millis(500)),
            ..Limits::default()
        };
        assert_eq!(
            plan(&l, Color::Black, 0, &o).maximum,
            Some(Duration::from_millis(350))
        );
        // A second off the main time: 59 000 over 60 moves is 983, plus 1 800 of the increment.
        let o = TimeOptions {
            time_margin_ms: 1000,
            ..TimeOptions::default()
        };
        let p = plan(&limits(60_000, 0, 2_000), Color::White, 0, &o);
        assert_eq!(p.optimum, Some(Duration::from_millis(983 + 1800)));
        assert_eq!(p.maximum, Some(Duration::from_millis(983 * 4 + 2000)));
        // The MCTS player's share: the whole delay up to a quarter of a short byoyomi.
        let o4 = TimeOptions {
            short_deadline_share: 4,
            ..TimeOptions::default()
        };
        let p = plan(&limits(0, 300, 0), Color::Black, 30, &o4);
        assert_eq!(p.maximum, Some(Duration::from_millis(225)));
        // Never more than half of what is left.
        let p = plan(&limits(1_000, 0, 0), Color::White, 0, &o);
        assert!(p.maximum.unwrap() <= Duration::from_millis(500));
    }

    #[test]
    fn nothing_given_means_no_limit() {
        assert_eq!(
            plan(&Limits::default(), Color::Black, 1, &TimeOptions::default()).maximum,
            None
        );
    }
}
