//! The NNUE trainer: HalfKP 256x2-32-32 on the CPU, by hand (no framework), writing a
//! standard `nn.bin`.
//!
//! - [`features`]: training positions as the loader's HalfKP indices, and the factor rows;
//! - [`model`]: float weights, seeded initialisation, the forward pass;
//! - [`backward`], [`loss`]: gradients of the win-rate cross-entropy (λ weighs the eval);
//! - [`optim`]: Adam with weight clipping, lazy on the feature transformer's rows;
//! - [`step`]: one step on all threads (sparse gather-sum forward, sorted sparse update);
//! - [`data`]: psv, hcpe and hcpe3 files into positions;
//! - [`export`]: quantisation to `nn.bin` and back (`--init`);
//! - [`checkpoint`], [`train`]: the loop, exact resume, metrics.

pub mod backward;
pub mod checkpoint;
pub mod data;
pub mod export;
pub mod features;
pub mod loss;
pub mod model;
pub mod optim;
pub mod step;
pub mod train;

pub use features::Sample;
pub use model::Model;
pub use train::{Event, Init, NnueConfig, RunOptions, Summary, train};
