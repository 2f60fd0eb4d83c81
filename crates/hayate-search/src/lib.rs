#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

pub mod bench;
pub mod correction;
mod engine;
pub mod history;
pub mod movepick;
pub mod params;
pub mod search;
pub mod see;
pub mod tt;
pub mod value;
pub mod vote;

pub use engine::{AlphaBeta, Options, SearchResult};
