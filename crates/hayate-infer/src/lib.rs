//! Hayate's inference backends: a [`Batch`] of features in (dlshogi's planes, Novice's 85
//! channels or prelude's 95 tokens: [`Layout`]), policy logits and values out, behind one
//! [`Backend`] trait (lc0's `neural/` split: the search never knows which
//! backend runs). Players, self-play and training checks use networks through this crate, so
//! none of them depends on the MCTS player.
//!
//! - [`batch`]: the buffers of one batched evaluation;
//! - [`backend`]: the [`Backend`] trait and its errors;
//! - [`tract`]: [`TractBackend`], dlshogi-format ONNX files on tract (pure Rust, the default),
//!   a batch split over threads;
//! - `ort` (cargo feature `ort`): ONNX Runtime loaded at run time, from `ORT_DYLIB_PATH` or the
//!   library of a `pip install onnxruntime`; nothing is downloaded at build time;
//! - [`test_backends`]: [`UniformBackend`] and [`RandomBackend`], networks without a model;
//! - [`multiplex`]: [`Multiplexer`], one backend shared by many searchers (one per self-play
//!   game, each on its own thread) whose small batches are combined into one network call;
//! - [`kind`]: [`BackendKind`], the backends by name, and [`load`];
//! - [`throughput`]: positions per second of a backend.
#![deny(missing_docs)]

pub mod backend;
pub mod batch;
pub mod kind;
pub mod multiplex;
#[cfg(feature = "ort")]
pub mod ort;
pub mod test_backends;
pub mod throughput;
pub mod tract;

pub use backend::{Backend, BackendError, NetKind};
pub use batch::{Batch, INPUT1_LEN, INPUT2_LEN, Layout, POLICY_LEN};
pub use kind::{BackendKind, load};
pub use multiplex::{Multiplexer, MuxClient, MuxStats};
pub use test_backends::{RandomBackend, UniformBackend};
pub use tract::TractBackend;
