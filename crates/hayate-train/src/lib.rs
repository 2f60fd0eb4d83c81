#![doc = include_str!("../README.md")]
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
