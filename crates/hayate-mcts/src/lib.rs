//! Hayate's MCTS player: PUCT search over a policy/value network, as dlshogi does it.
//!
//! - the network runs through `hayate_infer` (its `Backend` trait: tract, ONNX Runtime behind
//!   the `ort` feature, test backends);
//! - [`select`]: PUCT selection with root constants, first-play urgency and proven edges;
//! - [`search`]: worker threads with virtual loss and per-thread batches, the NN cache, backup;
//! - [`leaf`]: game ends at new nodes (draw ply, repetition, odd-ply mate, declaration);
//! - [`pv_mate`]: PV-mate threads (df-pn on each new edge of the most-visited line);
//! - [`player`]: [`MctsPlayer`], the `Player` the USI loop drives (the network, tree reuse);
//!   [`root`]: answers without search; [`run`]: one search (threads, root df-pn, the watch);
//!   [`stop`]: the stop rules; [`timeman`]: the time plan; [`answer`]: the move played;
//! - [`noise`]: Dirichlet noise on the root's priors (self-play);
//! - [`bench`]: search playouts/s.
//!
//! The `ort` cargo feature (off by default) turns on `hayate_infer`'s ONNX Runtime backend
//! (`DNN_Backend ort`), loaded at run time; nothing is downloaded at build time.
//!
//! ```
//! use hayate_core::Position;
//! use hayate_core::player::{BestMove, Limits, Player, Signals};
//! use hayate_infer::UniformBackend;
//! use hayate_mcts::MctsPlayer;
//! let mut p = MctsPlayer::with_backend(Box::new(UniformBackend));
//! p.set_option("UCT_Threads", "1")?;
//! let limits = Limits { nodes: Some(200), ..Limits::default() };
//! let best = p.think(&Position::startpos(), &limits, &Signals::new(), &mut |_| {});
//! assert!(matches!(best, BestMove::Move { .. }));
//! assert!(p.last_report().playouts <= 200);
//! # Ok::<(), String>(())
//! ```
#![deny(missing_docs)]

pub mod answer;
pub mod bench;
pub mod cache;
pub mod leaf;
pub mod node;
pub mod noise;
mod options;
pub mod params;
pub mod player;
pub mod pv_mate;
pub mod report;
pub mod root;
pub mod run;
pub mod search;
pub mod select;
pub mod stop;
pub mod timeman;
pub mod tree;

pub use cache::NnCache;
pub use params::{Puct, SearchParams};
pub use player::{MctsPlayer, SearchReport};
