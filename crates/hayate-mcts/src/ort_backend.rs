//! ONNX Runtime through the `ort` crate, loaded at run time (`load-dynamic`): the fast CPU path
//! and the way to CUDA/TensorRT execution providers. Only built with the `ort` cargo feature;
//! the library comes from `ORT_DYLIB_PATH` (or the system's search path), never downloaded.

use crate::backend::{Backend, BackendError, Batch, POLICY_LEN};
use hayate_nn::{INPUT1_PLANES, INPUT2_PLANES};
use ort::session::Session;
use ort::value::Tensor;
use std::path::Path;

/// A dlshogi-format ONNX model in an ONNX Runtime session.
pub struct OrtBackend {
    path: String,
    session: Session,
}

impl std::fmt::Debug for OrtBackend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OrtBackend")
            .field("path", &self.path)
            .finish()
    }
}

impl OrtBackend {
    /// Loads ONNX Runtime (from `ORT_DYLIB_PATH` when set) and the model.
    ///
    /// # Errors
    /// [`BackendError::Unavailable`] when the ONNX Runtime library cannot be loaded,
    /// [`BackendError::Load`] when the model cannot.
    pub fn load(path: &Path) -> Result<OrtBackend, BackendError> {
        let name = path.display().to_string();
        // ort panics when the shared library is missing: turn that into an error.
        let session = std::panic::catch_unwind(|| {
            Session::builder()
                .and_then(|b| b.with_intra_threads(1))
                .and_then(|b| b.commit_from_file(path))
        });
        let session = match session {
            Ok(Ok(s)) => s,
            Ok(Err(e)) => {
                return Err(BackendError::Load {
                    path: name,
                    message: e.to_string(),
                });
            }
            Err(_) => {
                return Err(BackendError::Unavailable(
                    "cannot load the ONNX Runtime library (set ORT_DYLIB_PATH)".to_string(),
                ));
            }
        };
        Ok(OrtBackend {
            path: name,
            session,
        })
    }
}

impl Backend for OrtBackend {
    fn name(&self) -> String {
        format!("onnxruntime {}", self.path)
    }

    fn evaluate(&mut self, batch: &mut Batch) -> Result<(), BackendError> {
        let n = batch.len();
        if n == 0 {
            return Ok(());
        }
        let run = |e: ort::Error| BackendError::Run(e.to_string());
        let in1 = Tensor::from_array(([n, INPUT1_PLANES, 9, 9], batch.input1_used().to_vec()))
            .map_err(run)?;
        let in2 = Tensor::from_array(([n, INPUT2_PLANES, 9, 9], batch.input2_used().to_vec()))
            .map_err(run)?;
        let outputs = self
            .session
            .run(ort::inputs!["input1" => in1, "input2" => in2])
            .map_err(run)?;
        let (_, policy) = outputs["output_policy"]
            .try_extract_tensor::<f32>()
            .map_err(run)?;
        let (_, value) = outputs["output_value"]
            .try_extract_tensor::<f32>()
            .map_err(run)?;
        if policy.len() != n * POLICY_LEN || value.len() != n {
            return Err(BackendError::Run(format!(
                "output sizes {} and {}, expected {} and {n}",
                policy.len(),
                value.len(),
                n * POLICY_LEN
            )));
        }
        batch.policy[..n * POLICY_LEN].copy_from_slice(policy);
        batch.value[..n].copy_from_slice(value);
        Ok(())
    }
}
