//! The backends by name (`DNN_Backend`), and loading one.

use crate::backend::{Backend, BackendError};
use crate::test_backends::{RandomBackend, UniformBackend};
use crate::tract::TractBackend;
use std::path::Path;

/// Which inference backend runs the network.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackendKind {
    /// tract (pure Rust), the default.
    Tract,
    /// ONNX Runtime through `ort` (only with the `ort` cargo feature).
    Ort,
    /// Uniform priors, even values (no model).
    Uniform,
    /// A seeded random function of the position (no model).
    Random,
}

impl BackendKind {
    /// The USI names, in `DNN_Backend`'s order.
    pub const NAMES: [&'static str; 4] = ["tract", "ort", "uniform", "random"];

    /// The USI name (one of [`BackendKind::NAMES`]).
    pub fn name(self) -> &'static str {
        BackendKind::NAMES[self as usize]
    }

    /// The kind named `s` (case-insensitive; `onnxruntime` is `ort`).
    pub fn parse(s: &str) -> Option<BackendKind> {
        match s.to_ascii_lowercase().as_str() {
            "tract" => Some(BackendKind::Tract),
            "ort" | "onnxruntime" => Some(BackendKind::Ort),
            "uniform" => Some(BackendKind::Uniform),
            "random" => Some(BackendKind::Random),
            _ => None,
        }
    }
}

/// What [`load`] needs besides the kind.
#[derive(Clone, Debug, Default)]
pub struct LoadOptions<'a> {
    /// The ONNX model (tract and ONNX Runtime).
    pub model: &'a str,
    /// Seed of the random backend.
    pub seed: u64,
    /// CPU threads one evaluation may use (tract and ONNX Runtime); at least 1.
    pub threads: usize,
}

/// Builds the backend `kind`.
///
/// # Errors
/// [`BackendError::Load`] when the model cannot be read (or is not set),
/// [`BackendError::Interface`] when it is not a dlshogi network,
/// [`BackendError::Unavailable`] when the build or the machine lacks ONNX Runtime.
pub fn load(kind: BackendKind, opts: &LoadOptions<'_>) -> Result<Box<dyn Backend>, BackendError> {
    let model = || {
        if opts.model.is_empty() {
            Err(BackendError::Load {
                path: String::new(),
                message: "DNN_Model is not set".to_string(),
            })
        } else {
            Ok(Path::new(opts.model))
        }
    };
    Ok(match kind {
        BackendKind::Uniform => Box::new(UniformBackend),
        BackendKind::Random => Box::new(RandomBackend::new(opts.seed)),
        BackendKind::Tract => Box::new(TractBackend::load(model()?)?.with_threads(opts.threads)),
        BackendKind::Ort => load_ort(model()?, opts.threads)?,
    })
}

#[cfg(feature = "ort")]
fn load_ort(path: &Path, threads: usize) -> Result<Box<dyn Backend>, BackendError> {
    Ok(Box::new(crate::ort::OrtBackend::load(path, threads)?))
}

#[cfg(not(feature = "ort"))]
fn load_ort(_: &Path, _: usize) -> Result<Box<dyn Backend>, BackendError> {
    Err(BackendError::Unavailable(
        "DNN_Backend ort: this build has no ONNX Runtime support (cargo feature `ort`)".to_string(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_to_their_kinds() {
        for name in BackendKind::NAMES {
            assert_eq!(BackendKind::parse(name).map(BackendKind::name), Some(name));
        }
        assert_eq!(BackendKind::parse("ONNXRuntime"), Some(BackendKind::Ort));
        assert_eq!(BackendKind::parse("cuda"), None);
    }

    #[test]
    fn a_network_backend_without_a_model_is_an_error_not_a_panic() {
        let opts = LoadOptions::default();
        assert!(matches!(
            load(BackendKind::Tract, &opts),
            Err(BackendError::Load { .. })
        ));
        assert!(load(BackendKind::Uniform, &opts).is_ok());
    }
}
