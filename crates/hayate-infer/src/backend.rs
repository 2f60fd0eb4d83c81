//! The one inference interface: a batch of dlshogi features in, policy logits and values out.
//! The search never knows which backend runs (tract, ONNX Runtime, or a test backend).

use crate::batch::Batch;

/// Why a backend could not be built or could not run.
#[derive(Debug, thiserror::Error)]
pub enum BackendError {
    /// The model file could not be read or understood.
    #[error("cannot load model {path:?}: {message}")]
    Load {
        /// The file.
        path: String,
        /// What went wrong.
        message: String,
    },
    /// The model does not have dlshogi's inputs and outputs.
    #[error("model {path:?} has the wrong interface: {message}")]
    Interface {
        /// The file.
        path: String,
        /// What was expected and found.
        message: String,
    },
    /// Inference failed.
    #[error("inference failed: {0}")]
    Run(String),
    /// The backend is not available in this build or on this machine.
    #[error("backend unavailable: {0}")]
    Unavailable(String),
}

/// A policy/value network that evaluates batches. Implementations fill `batch.policy` (logits,
/// dlshogi label order) and `batch.value` (win probability for the side to move, in `[0, 1]`)
/// for the `batch.len()` queued positions.
pub trait Backend: Send {
    /// A short description for logs (`tract resnet.onnx`).
    fn name(&self) -> String;

    /// Evaluates the queued positions of `batch`.
    ///
    /// # Errors
    /// [`BackendError::Run`] when inference fails.
    fn evaluate(&mut self, batch: &mut Batch) -> Result<(), BackendError>;
}
