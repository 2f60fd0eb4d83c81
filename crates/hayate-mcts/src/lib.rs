//! Hayate's MCTS player: PUCT search over a policy/value network, as dlshogi does it.
//!
//! - [`backend`]: the one inference interface ([`Backend`], batched), with [`TractBackend`] for
//!   dlshogi-format ONNX files, ONNX Runtime behind the `ort` feature, and test backends;
//! - [`select`]: PUCT selection with root constants, first-play urgency and proven edges;
//! - [`search`]: worker threads with virtual loss and per-thread batches, the NN cache, backup;
//! - [`leaf`]: game ends at new nodes (draw ply, repetition, odd-ply mate, declaration);
//! - [`pv_mate`]: PV-mate threads (df-pn on each new edge of the most-visited line);
//! - [`player`]: [`MctsPlayer`], the `Player` the USI loop drives (root df-pn in its own
//!   thread, time management, `info` lines, tree reuse);
//! - [`bench`]: network positions/s and search playouts/s.
//!
//! The `ort` cargo feature (off by default) adds `ort_backend::OrtBackend`, ONNX Runtime loaded
//! at run time from `ORT_DYLIB_PATH`; nothing is downloaded at build time.
//!
//! ```
//! use hayate_core::Position;
//! use hayate_core::player::{BestMove, Limits, Player, Signals};
//! use hayate_mcts::{MctsPlayer, UniformBackend};
//! let mut p = MctsPlayer::with_backend(Box::new(UniformBackend));
//! p.set_option("UCT_Threads", "1")?;
//! let limits = Limits { nodes: Some(200), ..Limits::default() };
//! let best = p.think(&Position::startpos(), &limits, &Signals::new(), &mut |_| {});
//! assert!(matches!(best, BestMove::Move { .. }));
//! assert!(p.last_report().playouts <= 200);
//! # Ok::<(), String>(())
//! ```
#![deny(missing_docs)]

pub mod backend;
pub mod bench;
pub mod cache;
pub mod leaf;
pub mod node;
#[cfg(feature = "ort")]
pub mod ort_backend;
pub mod params;
pub mod player;
pub mod pv_mate;
pub mod report;
pub mod search;
pub mod select;
pub mod test_backends;
pub mod timeman;
pub mod tract_backend;
pub mod tree;

pub use backend::{Backend, BackendError, Batch};
pub use cache::NnCache;
pub use params::{Puct, SearchParams};
pub use player::{BackendKind, MctsPlayer, SearchReport};
pub use test_backends::{RandomBackend, UniformBackend};
pub use tract_backend::TractBackend;
