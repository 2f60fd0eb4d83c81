//! Hayate's αβ engine: iterative-deepening PVS over a shared transposition table, generic over
//! the evaluation so the hot path is monomorphised, with time management for byoyomi, Fischer
//! and sudden death, pondering, MultiPV and Lazy SMP threads.
#![deny(missing_docs)]

pub mod bench;
pub mod correction;
mod engine;
pub mod history;
pub mod movepick;
pub mod params;
pub mod search;
pub mod see;
pub mod timeman;
pub mod tt;
pub mod value;
pub mod vote;

pub use engine::{AlphaBeta, Options, SearchResult};
