//! Time controls and the clock the game runner keeps for each side.
//!
//! The runner measures each move itself (around the player's `think`) and never trusts a
//! player's own account. A move may overrun its time by a margin (pipe and scheduling latency)
//! before it is a time loss.

use std::fmt;

/// A time control: main time plus byoyomi or a Fischer increment (or neither: sudden death).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct TimeControl {
    /// Main time in milliseconds.
    pub base_ms: u64,
    /// Byoyomi per move in milliseconds, once the main time is spent.
    pub byoyomi_ms: u64,
    /// Fischer increment in milliseconds, added before each move.
    pub increment_ms: u64,
}

impl TimeControl {
    /// Byoyomi only (the usual fast-match control).
    pub fn byoyomi(ms: u64) -> TimeControl {
        TimeControl {
            base_ms: 0,
            byoyomi_ms: ms,
            increment_ms: 0,
        }
    }

    /// Main time plus a Fischer increment.
    pub fn fischer(base_ms: u64, increment_ms: u64) -> TimeControl {
        TimeControl {
            base_ms,
            byoyomi_ms: 0,
            increment_ms,
        }
    }

    /// Main time only.
    pub fn sudden_death(base_ms: u64) -> TimeControl {
        TimeControl {
            base_ms,
            byoyomi_ms: 0,
            increment_ms: 0,
        }
    }

    /// Whether the control has no time at all (only allowed with a depth or node limit).
    pub fn is_zero(&self) -> bool {
        self.base_ms == 0 && self.byoyomi_ms == 0 && self.increment_ms == 0
    }
}

impl fmt::Display for TimeControl {
    /// `base+byoyomi b` or `base+inc f` in milliseconds, e.g. `0+100b`, `10000+100f`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.increment_ms > 0 {
            write!(f, "{}+{}f", self.base_ms, self.increment_ms)
        } else {
            write!(f, "{}+{}b", self.base_ms, self.byoyomi_ms)
        }
    }
}

/// One side's clock during a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    tc: TimeControl,
    /// Main time left, not counting the increment of the move about to start.
    remaining_ms: u64,
}

/// A move that took longer than its side had.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeLoss {
    /// Milliseconds the move took.
    pub elapsed_ms: u64,
    /// Milliseconds the move was allowed (before the margin).
    pub allowed_ms: u64,
}

impl Clock {
    /// A full clock for a time control.
    pub fn new(tc: TimeControl) -> Clock {
        Clock {
            tc,
            remaining_ms: tc.base_ms,
        }
    }

    /// The time control.
    pub fn time_control(&self) -> TimeControl {
        self.tc
    }

    /// Main time left (without the coming increment).
    pub fn remaining_ms(&self) -> u64 {
        self.remaining_ms
    }

    /// Milliseconds this side may spend on its next move (main time, increment and byoyomi).
    pub fn allowed_ms(&self) -> u64 {
        self.remaining_ms + self.tc.increment_ms + self.tc.byoyomi_ms
    }

    /// Charges a move's time. Returns the loss when the move took more than allowed plus
    /// `margin_ms`; the clock is then left at zero.
    ///
    /// # Errors
    /// [`TimeLoss`] when the side overstepped.
    pub fn charge(&mut self, elapsed_ms: u64, margin_ms: u64) -> Result<(), TimeLoss> {
        let allowed = self.allowed_ms();
        if elapsed_ms > allowed + margin_ms {
            self.remaining_ms = 0;
            return Err(TimeLoss {
                elapsed_ms,
                allowed_ms: allowed,
            });
        }
        // Byoyomi is used only once the main time (with increment) is gone, and is not banked.
        let bank = self.remaining_ms + self.tc.increment_ms;
        self.remaining_ms = bank.saturating_sub(elapsed_ms);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byoyomi_allows_byoyomi_plus_margin() {
        let mut c = Clock::new(TimeControl::byoyomi(1000));
        assert_eq!(c.allowed_ms(), 1000);
        assert!(c.charge(1100, 100).is_ok());
        assert_eq!(c.remaining_ms(), 0);
        assert_eq!(
            c.charge(1101, 100),
            Err(TimeLoss {
                elapsed_ms: 1101,
                allowed_ms: 1000
            })
        );
    }

    #[test]
    fn byoyomi_after_main_time() {
        let mut c = Clock::new(TimeControl {
            base_ms: 2000,
            byoyomi_ms: 500,
            increment_ms: 0,
        });
        c.charge(1500, 0).unwrap();
        assert_eq!(c.remaining_ms(), 500);
        // 500 main + 500 byoyomi: 900 is fine and empties the main time.
        c.charge(900, 0).unwrap();
        assert_eq!(c.remaining_ms(), 0);
        assert_eq!(c.allowed_ms(), 500);
        assert!(c.charge(501, 0).is_err());
    }

    #[test]
    fn fischer_adds_increment_before_the_move() {
        let mut c = Clock::new(TimeControl::fischer(1000, 100));
        assert_eq!(c.allowed_ms(), 1100);
        c.charge(50, 0).unwrap();
        assert_eq!(c.remaining_ms(), 1050);
        assert!(c.charge(1150, 0).is_ok());
        assert_eq!(c.remaining_ms(), 0);
        assert!(c.charge(101, 0).is_err());
    }

    #[test]
    fn sudden_death_runs_out() {
        let mut c = Clock::new(TimeControl::sudden_death(300));
        c.charge(200, 0).unwrap();
        assert!(c.charge(150, 20).is_err());
    }

    #[test]
    fn display_names_the_control() {
        assert_eq!(TimeControl::byoyomi(100).to_string(), "0+100b");
        assert_eq!(TimeControl::fischer(10_000, 100).to_string(), "10000+100f");
    }
}
