//! Our own copy of both clocks, kept from the summary and the server's `,T<n>` charges, as
//! shogi-server's `ChessClock` keeps them: charged `t = max(floor(elapsed), least)` (ceil with
//! `Time_Roundup:YES`), then `remaining += increment; remaining -= t`, clamped at 0. A move is
//! on time while `t < remaining + byoyomi + increment`.

use crate::summary::TimeControl;
use hayate_core::Color;
use hayate_core::player::Limits;
use std::time::Duration;

/// Both players' clocks.
#[derive(Clone, Debug)]
pub struct Clock {
    control: [TimeControl; 2],
    remaining: [Duration; 2],
    margin: Duration,
}

impl Clock {
    /// Fresh clocks for a game. `margin` is the network and scheduling allowance taken off
    /// our own budget (what the server sees is later than what we measure).
    pub fn new(control: [TimeControl; 2], margin: Duration) -> Clock {
        Clock {
            remaining: [control[0].total, control[1].total],
            control,
            margin,
        }
    }

    /// Main time left for `c` (as the server holds it, before this move's increment).
    pub fn remaining(&self, c: Color) -> Duration {
        self.remaining[c.index()]
    }

    /// The time control of `c`.
    pub fn control(&self, c: Color) -> &TimeControl {
        &self.control[c.index()]
    }

    /// Charges `c` the server-reported `seconds` for one move (`,T<seconds>`).
    pub fn charge(&mut self, c: Color, seconds: u32) {
        let tc = &self.control[c.index()];
        let charged = Duration::from_secs(u64::from(seconds)).max(tc.least_per_move);
        let r = &mut self.remaining[c.index()];
        // The server may report more than the main time left (byoyomi used): clamp at zero.
        *r = (*r + tc.increment).saturating_sub(charged);
    }

    /// How long `c` may think on this move, measured from when the opponent's move reached
    /// us, before the server would call time: the whole budget less the margin, less one
    /// second when the server rounds up. `Duration::ZERO` when nothing is left.
    pub fn hard_limit(&self, c: Color) -> Duration {
        let tc = &self.control[c.index()];
        let budget = self.remaining[c.index()] + tc.increment + tc.byoyomi + tc.delay;
        let rounding = if tc.roundup {
            Duration::from_secs(1)
        } else {
            Duration::ZERO
        };
        budget.saturating_sub(self.margin + rounding)
    }

    /// The limits to give the player for `us`'s move. USI convention: `time` excludes the
    /// increment about to be added, so `time + increment` is what is usable now. The margin
    /// is taken from the byoyomi first, then from the main time (our side only).
    pub fn limits(&self, us: Color, ponder: bool) -> Limits {
        let mut limits = Limits {
            ponder,
            ..Limits::default()
        };
        for c in [Color::Black, Color::White] {
            let tc = &self.control[c.index()];
            let mut time = self.remaining[c.index()];
            let mut byoyomi = tc.byoyomi;
            let mut increment = tc.increment;
            if c == us {
                let mut cut = self.margin
                    + if tc.roundup {
                        Duration::from_secs(1)
                    } else {
                        Duration::ZERO
                    };
                for part in [&mut byoyomi, &mut increment, &mut time] {
                    let take = cut.min(*part);
                    *part -= take;
                    cut -= take;
                }
                byoyomi += tc.delay;
            }
            limits.time[c.index()] = Some(time);
            if !tc.increment.is_zero() {
                limits.increment[c.index()] = Some(increment);
            }
            if c == us && !tc.byoyomi.is_zero() {
                limits.byoyomi = Some(byoyomi);
            }
        }
        limits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(total: u64, byoyomi: u64, inc: u64) -> TimeControl {
        TimeControl {
            total: Duration::from_secs(total),
            byoyomi: Duration::from_secs(byoyomi),
            increment: Duration::from_secs(inc),
            ..TimeControl::default()
        }
    }

    #[test]
    fn byoyomi_game_charges_and_clamps() {
        let mut c = Clock::new([tc(60, 5, 0); 2], Duration::from_millis(500));
        c.charge(Color::Black, 10);
        assert_eq!(c.remaining(Color::Black), Duration::from_secs(50));
        assert_eq!(c.hard_limit(Color::Black), Duration::from_millis(54_500));
        c.charge(Color::Black, 53);
        assert_eq!(c.remaining(Color::Black), Duration::ZERO);
        assert_eq!(c.hard_limit(Color::Black), Duration::from_millis(4_500));
        let l = c.limits(Color::Black, false);
        assert_eq!(l.time[0], Some(Duration::ZERO));
        assert_eq!(l.byoyomi, Some(Duration::from_millis(4_500)));
        assert_eq!(l.time[1], Some(Duration::from_secs(60)));
        assert_eq!(l.increment, [None, None]);
    }

    #[test]
    fn fischer_increment_is_granted_with_each_move() {
        // floodgate-300-10F: the increment arrives with the move, so 310 s are usable at once.
        let mut c = Clock::new([tc(300, 0, 10); 2], Duration::from_secs(1));
        assert_eq!(c.hard_limit(Color::White), Duration::from_secs(309));
        c.charge(Color::White, 4);
        assert_eq!(c.remaining(Color::White), Duration::from_secs(306));
        let l = c.limits(Color::White, true);
        assert!(l.ponder);
        assert_eq!(l.time[1], Some(Duration::from_secs(306)));
        assert_eq!(l.increment[1], Some(Duration::from_secs(9)));
        assert_eq!(l.increment[0], Some(Duration::from_secs(10)));
        assert_eq!(l.byoyomi, None);
    }

    #[test]
    fn least_time_and_roundup() {
        let mut t = tc(3, 0, 0);
        t.least_per_move = Duration::from_secs(1);
        t.roundup = true;
        let mut c = Clock::new([t; 2], Duration::from_millis(200));
        c.charge(Color::Black, 0);
        assert_eq!(c.remaining(Color::Black), Duration::from_secs(2));
        assert_eq!(c.hard_limit(Color::Black), Duration::from_millis(800));
        c.charge(Color::Black, 5);
        assert_eq!(c.hard_limit(Color::Black), Duration::ZERO);
    }
}
