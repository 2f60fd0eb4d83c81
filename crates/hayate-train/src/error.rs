//! The crate's error type.

use std::path::PathBuf;

/// Everything that can go wrong while building, training, saving or exporting a network.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    /// A model name that does not parse (e.g. not `resnet10x192_swish`).
    #[error("unknown model name {0:?} (expected e.g. resnet10x192_swish, senet15x224, gmlp12x256)")]
    ModelName(String),
    /// A file could not be read or written.
    #[error("{path}: {error}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        error: std::io::Error,
    },
    /// A checkpoint record could not be saved or loaded.
    #[error("checkpoint {path}: {message}")]
    Record {
        /// The file.
        path: PathBuf,
        /// What burn said.
        message: String,
    },
    /// A JSON state or configuration file is malformed.
    #[error("{path}: {error}")]
    Json {
        /// The file.
        path: PathBuf,
        /// The cause.
        error: serde_json::Error,
    },
    /// A dataset file could not be opened or read.
    #[error(transparent)]
    Dataset(#[from] hayate_nn::dataset::DatasetError),
    /// The training configuration is unusable.
    #[error("invalid configuration: {0}")]
    Config(String),
    /// Not enough training data for one batch.
    #[error("need at least {needed} training samples for one batch, have {have}")]
    TooFewSamples {
        /// Samples needed.
        needed: usize,
        /// Samples available.
        have: usize,
    },
    /// The loss became NaN or infinite.
    #[error("loss diverged (not finite) at step {0}")]
    Diverged(u64),
    /// An ONNX file that this crate cannot read or map onto a model.
    #[error("ONNX: {0}")]
    Onnx(String),
}

impl TrainError {
    /// An I/O error on `path`.
    pub fn io(path: impl Into<PathBuf>, error: std::io::Error) -> TrainError {
        TrainError::Io {
            path: path.into(),
            error,
        }
    }
}
