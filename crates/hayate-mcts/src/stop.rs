//! When a timed search stops, as lc0 does it: each rule its own small type over one snapshot of
//! the search ([`Progress`]); the search stops when any rule says so.

use hayate_core::timeman::TimePlan;
use std::time::Duration;

/// The search as the stop rules see it at one poll.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// Time on this move's clock (since `go`, or since `ponderhit`).
    pub elapsed: Duration,
    /// Visits of the most and second most visited root edges.
    pub top_two: (u32, u32),
    /// Playouts this search.
    pub playouts: u64,
    /// How long the search takes to wind down once told to stop (the batch in flight).
    pub wind_down: Duration,
}

/// One reason to stop.
pub trait StopRule {
    /// Whether the search should stop now.
    fn should_stop(&self, p: &Progress) -> bool;
}

/// Never past the maximum: stops early enough that the batch in flight ends before it.
#[derive(Clone, Copy, Debug)]
pub struct Deadline(pub Duration);

impl StopRule for Deadline {
    fn should_stop(&self, p: &Progress) -> bool {
        p.elapsed + p.wind_down >= self.0
    }
}

/// At the optimum time, stops unless the best two moves are close (then the search may go on
/// to the maximum).
#[derive(Clone, Copy, Debug)]
pub struct SettledAtOptimum(pub Duration);

impl StopRule for SettledAtOptimum {
    fn should_stop(&self, p: &Progress) -> bool {
        let (a, b) = p.top_two;
        p.elapsed >= self.0 && a as f64 >= 1.2 * b as f64
    }
}

/// Stops when the runner-up cannot catch up with the best move in the time left at the current
/// playout rate (checked after a tenth of the maximum, when the rate means something).
#[derive(Clone, Copy, Debug)]
pub struct RunnerUpCannotCatchUp(pub Duration);

impl StopRule for RunnerUpCannotCatchUp {
    fn should_stop(&self, p: &Progress) -> bool {
        let max = self.0;
        if p.elapsed <= max / 10 || p.elapsed >= max {
            return false;
        }
        let (a, b) = p.top_two;
        let rate = p.playouts as f64 / p.elapsed.as_secs_f64().max(1e-3);
        let left = rate * (max - p.elapsed).as_secs_f64();
        a > 0 && (a - b) as f64 > left
    }
}

/// The rules of a time plan (none when it has no limit).
pub fn time_rules(plan: &TimePlan) -> Vec<Box<dyn StopRule>> {
    let mut rules: Vec<Box<dyn StopRule>> = Vec::new();
    if let Some(max) = plan.maximum {
        rules.push(Box::new(Deadline(max)));
        rules.push(Box::new(RunnerUpCannotCatchUp(max)));
    }
    if let Some(opt) = plan.optimum {
        rules.push(Box::new(SettledAtOptimum(opt)));
    }
    rules
}

/// Whether any rule says stop.
pub fn any_stops(rules: &[Box<dyn StopRule>], p: &Progress) -> bool {
    rules.iter().any(|r| r.should_stop(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(x: u64) -> Duration {
        Duration::from_millis(x)
    }

    fn progress(elapsed: u64, top_two: (u32, u32), playouts: u64, wind_down: u64) -> Progress {
        Progress {
            elapsed: ms(elapsed),
            top_two,
            playouts,
            wind_down: ms(wind_down),
        }
    }

    #[test]
    fn the_deadline_keeps_room_for_the_batch_in_flight() {
        let rule = Deadline(ms(225));
        assert!(!rule.should_stop(&progress(190, (0, 0), 0, 30)));
        assert!(rule.should_stop(&progress(195, (0, 0), 0, 30)));
        assert!(rule.should_stop(&progress(225, (0, 0), 0, 0)));
    }

    #[test]
    fn the_optimum_waits_for_a_clear_best_move() {
        let rule = SettledAtOptimum(ms(100));
        assert!(!rule.should_stop(&progress(99, (100, 10), 0, 0)));
        assert!(rule.should_stop(&progress(100, (120, 100), 0, 0)));
        assert!(!rule.should_stop(&progress(100, (119, 100), 0, 0)));
    }

    #[test]
    fn a_runner_up_that_cannot_catch_up_ends_the_search() {
        let rule = RunnerUpCannotCatchUp(ms(1000));
        // 500 playouts in 500 ms: 500 more to come; a lead of 501 cannot be caught.
        assert!(rule.should_stop(&progress(500, (600, 99), 500, 0)));
        assert!(!rule.should_stop(&progress(500, (600, 100), 500, 0)));
        // Too early to judge the rate.
        assert!(!rule.should_stop(&progress(100, (600, 0), 100, 0)));
    }

    #[test]
    fn an_unlimited_plan_has_no_rules() {
        assert!(time_rules(&TimePlan::UNLIMITED).is_empty());
    }
}
