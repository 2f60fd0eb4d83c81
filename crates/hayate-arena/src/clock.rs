//! Time controls and clocks: the rules core's ([`hayate_core::game`]), which the game runner
//! keeps for each side, plus the CSA header text of a control.

pub use hayate_core::game::{Clock, TimeControl, TimeLoss};

/// The CSA V2.2 `$TIME_LIMIT` text (`hh:mm+ss`), rounded down to seconds.
pub fn csa_time_limit(tc: &TimeControl) -> String {
    let m = tc.base_ms / 60_000;
    format!("{:02}:{:02}+{:02}", m / 60, m % 60, tc.byoyomi_ms / 1000)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csa_time_limit_rounds_down_to_seconds() {
        let tc = TimeControl {
            base_ms: 600_000,
            byoyomi_ms: 10_000,
            increment_ms: 0,
        };
        assert_eq!(csa_time_limit(&tc), "00:10+10");
        assert_eq!(csa_time_limit(&TimeControl::byoyomi(100)), "00:00+00");
    }
}
