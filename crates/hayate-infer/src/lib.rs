#![doc = include_str!("../README.md")]
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
