//! Conversions: one item at a time ([`item`]: games to hcpe/psv/hcpe3, hcpe3 to games and hcpe,
//! hcpe ⇄ psv), and whole files ([`job`]: inputs of any [`FileFormat`] into one output, what
//! `hayate convert` runs).

pub mod format;
pub mod item;
pub mod job;
mod route;

pub use format::FileFormat;
pub use item::*;
pub use job::{Counts, Job, JobError, Report};
