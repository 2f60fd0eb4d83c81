//! Hayate mate solvers: mate-in-1, fixed-depth odd-ply mate search, df-pn.
//!
//! ```
//! use hayate_mate::{DfpnOptions, MateResult, mate_in, mate_in_1, solve};
//! use hayate_core::Position;
//! use std::sync::atomic::AtomicBool;
//! let mut pos = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1")?;
//! assert_eq!(mate_in_1(&pos).map(|m| m.to_usi()), Some("G*5b".to_string()));
//! assert!(mate_in(&mut pos, 3).is_some());
//! let r = solve(&pos, &DfpnOptions::default(), &AtomicBool::new(false));
//! assert_eq!(r.to_usi(), "checkmate G*5b");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

mod dfpn;
mod exact;
mod futile;
mod hands;
mod line;
mod mate1;
mod oddply;
mod progress;
mod solve;
#[cfg(test)]
mod testdata;
mod tt;
mod verify;

pub use exact::{exact_mate_line, exact_mate_line_until};
pub use futile::{Defence, is_futile_drop, is_mated};
pub use hayate_core::generate_checks;
pub use mate1::{mate_in_1, mate_in_1_with};
pub use oddply::{OddPlyResult, OddPlySearch, mate_in, mate_in_with};
pub use progress::Progress;
pub use solve::{
    DfpnOptions, MateResult, SolveReport, solve, solve_with_progress, solve_with_report,
};
pub use verify::{LineError, check_mate_line, check_mate_line_with};
