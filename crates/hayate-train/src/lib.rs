//! Hayate's networks and training, on burn.
//!
//! - [`model`]: dlshogi's ResNet / SE-ResNet ([`DlshogiNet`]), prelude's gMLP ([`Gmlp`]),
//!   Novice's four-head SE-ResNet ([`NoviceNet`]), Ryfamate's cross network ([`RyfcNet`]), each with a config struct and a parameter
//!   count; [`network::Network`] is what the trainer sees of them;
//! - [`loss`]: policy cross-entropy against soft targets, value BCE mixing result and eval by λ;
//! - [`optim`], [`schedule`]: SGD (momentum, Nesterov, weight decay) and AdamW; warm-up +
//!   cosine and step schedules; global gradient-norm clipping;
//! - [`train`]: the loop, with checkpoints that resume exactly ([`checkpoint`]) and a metrics
//!   CSV; [`data`] holds the samples and their deterministic order;
//! - [`onnx`]: export with dlshogi's input/output names and shapes (and the gMLP's), import of
//!   dlshogi ONNX files; [`plot`] draws `metrics.csv` as SVG; [`synthetic`] makes test data;
//! - [`nnue`]: the NNUE HalfKP trainer (hand-written, CPU threads), exporting `nn.bin`.
//!
//! burn 0.22 chooses the backend at run time through its [`Device`](burn::tensor::Device)
//! (tensors carry no backend type parameter any more), so the "backend parameter" here is the
//! device passed to [`train::train`]: `Device::flex()` on the CPU by default.
#![deny(missing_docs)]

pub mod checkpoint;
pub mod data;
pub mod error;
pub mod loss;
pub mod model;
pub mod network;
pub mod nnue;
pub mod onnx;
pub mod optim;
pub mod plot;
pub mod schedule;
pub mod synthetic;
pub mod train;

/// burn's device (re-exported so that users need not depend on burn): `Device::flex()` is the
/// CPU backend.
pub use burn::tensor::Device;
pub use error::TrainError;
pub use model::{
    Activation, DlshogiNet, DlshogiNetConfig, Gmlp, GmlpConfig, ModelSpec, NoviceConfig, NoviceNet,
    RyfcConfig, RyfcNet,
};
pub use network::Network;
pub use train::{TrainConfig, train};
