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

/// The input and value interface of a network.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NetKind {
    /// dlshogi's: `input1`, `input2` → `output_policy`, `output_value` (a win probability).
    Dlshogi,
    /// Novice's: one 85-channel `input` → `output_policy`, `output_value` (win, draw and loss
    /// probabilities) and auxiliary heads.
    Novice,
    /// prelude's gMLP: int64 `tokens` `[b, 95]` → `output_policy` over the 1496 compact labels,
    /// `output_value` (a win probability).
    Prelude,
}

/// A policy/value network that evaluates batches. Implementations fill `batch.policy` (logits,
/// dlshogi label order) and `batch.value` (win probability for the side to move, in `[0, 1]`)
/// for the `batch.len()` queued positions.
pub trait Backend: Send {
    /// A short description for logs (`tract resnet.onnx`).
    fn name(&self) -> String;

    /// The inputs the network takes: batches must be made with the matching
    /// [`crate::batch::Layout`].
    fn kind(&self) -> NetKind {
        NetKind::Dlshogi
    }

    /// Evaluates the queued positions of `batch`.
    ///
    /// # Errors
    /// [`BackendError::Run`] when inference fails.
    fn evaluate(&mut self, batch: &mut Batch) -> Result<(), BackendError>;
}
