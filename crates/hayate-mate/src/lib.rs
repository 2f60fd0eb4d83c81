#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

mod dfpn;
mod exact;
mod futile;
mod hands;
mod line;
mod mate1;
mod oddply;
mod progress;
mod ring;
mod solve;
#[cfg(test)]
mod testdata;
mod tt;
mod verify;

pub use exact::{exact_mate_line, exact_mate_line_until};
pub use futile::{Defence, is_futile_drop, is_mated};
pub use hayate_core::generate_checks;
pub use mate1::{mate_in_1, mate_in_1_near, mate_in_1_near_attacked, mate_in_1_with};
pub use oddply::{OddPlyResult, OddPlySearch, mate_in, mate_in_with};
pub use progress::Progress;
pub use solve::{
    DfpnOptions, MateResult, SolveReport, solve, solve_with_progress, solve_with_report,
};
pub use verify::{LineError, check_mate_line, check_mate_line_with};
