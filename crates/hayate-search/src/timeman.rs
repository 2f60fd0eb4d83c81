//! Time management: from the clock of a `go` command to an ideal and a maximum time per move.
//!
//! Byoyomi is use-it-or-lose-it, so a move may take it all; main time is spread over the moves
//! expected to remain; a Fischer increment is mostly spent as it comes. A network margin is
//! always kept back (`NetworkDelay`, less at a short deadline), and a move is never planned to
//! end past the hard deadline.

use hayate_core::Color;
use hayate_core::player::Limits;
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
}

impl Default for TimeOptions {
    fn default() -> Self {
        TimeOptions {
            network_delay_ms: 120,
            minimum_thinking_ms: 20,
            slow_mover: 100,
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

/// Plans the time for `us` at game ply `ply`.
pub fn plan(limits: &Limits, us: Color, ply: u32, opts: &TimeOptions) -> TimePlan {
    if let Some(mt) = limits.movetime {
        let mt_ms = mt.as_millis() as u64;
        let t = Duration::from_millis(mt_ms - reserve(mt_ms, opts.network_delay_ms));
        return TimePlan {
            optimum: Some(t),
            maximum: Some(t),
            spend_all: true,
        };
    }
    let remaining = limits.time[us.index()];
    let byoyomi = limits.byoyomi.unwrap_or_default();
    let inc = limits.increment[us.index()].unwrap_or_default();
    if limits.infinite
        || (remaining.is_none()
            && limits.byoyomi.is_none()
            && limits.increment[us.index()].is_none())
    {
        return TimePlan {
            optimum: None,
            maximum: None,
            spend_all: false,
        };
    }
    let remaining = remaining.unwrap_or_default();
    let ms = |d: Duration| d.as_millis() as u64;
    // The hard deadline: what the clock allows for this move.
    let hard = ms(remaining) + ms(byoyomi) + ms(inc);
    let hard = hard - reserve(hard, opts.network_delay_ms);
    let floor = opts.minimum_thinking_ms.min(hard / 2);
    // Moves still to play from our main time (shogi games run ~120-160 plies).
    let moves_to_go = (60u64.saturating_sub(ply as u64 / 3)).max(16);
    let from_main = ms(remaining) / moves_to_go;
    let optimum = (from_main + ms(byoyomi) + ms(inc) * 9 / 10) * opts.slow_mover / 100;
    // We may overrun the ideal time by a good deal when unsure, but never spend more than a
    // fifth of the main time on one move.
    let maximum = (from_main * 4).min(ms(remaining) / 5) + ms(byoyomi) + ms(inc);
    let optimum = optimum.clamp(floor, hard.max(floor));
    let maximum = maximum.clamp(optimum, hard.max(floor));
    TimePlan {
        optimum: Some(Duration::from_millis(optimum)),
        maximum: Some(Duration::from_millis(maximum)),
        // Byoyomi with (almost) no main time: what is not spent now is lost.
        spend_all: ms(byoyomi) > 0 && ms(remaining) < ms(byoyomi),
    }
}

/// What is kept back from a deadline of `deadline` ms: `NetworkDelay`, but where that is more
/// than an eighth of the deadline only an eighth, at least 25 ms (the few ms a search needs to
/// stop and answer, with room to spare), and never more than a quarter. So byoyomi 1000 thinks
/// 880 ms, byoyomi 200 thinks 175 ms (a quarter kept back gave 150), and byoyomi 20 still
/// thinks 15 ms.
fn reserve(deadline: u64, network_delay: u64) -> u64 {
    network_delay.min((deadline / 8).max(25)).min(deadline / 4)
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
    fn nothing_given_means_no_limit() {
        assert_eq!(
            plan(&Limits::default(), Color::Black, 1, &TimeOptions::default()).maximum,
            None
        );
    }
}
