//! The default backend: dlshogi-format ONNX files run by tract, pure Rust, nothing to install.

use crate::backend::{Backend, BackendError, Batch, INPUT1_LEN, INPUT2_LEN, POLICY_LEN};
use hayate_nn::{INPUT1_PLANES, INPUT2_PLANES};
use std::path::Path;
use std::sync::Arc;
use tract_onnx::prelude::*;

type Plan = Arc<TypedRunnableModel>;

/// An ONNX model with dlshogi's interface (`input1` `[b,62,9,9]`, `input2` `[b,57,9,9]` →
/// `output_policy` `[b,2187]`, `output_value` `[b,1]`), optimised once for any batch size.
#[derive(Debug)]
pub struct TractBackend {
    path: String,
    plan: Plan,
    /// Index of `output_policy` and `output_value` among the plan's outputs.
    policy_out: usize,
    value_out: usize,
}

fn load_error(path: &str, e: impl std::fmt::Display) -> BackendError {
    BackendError::Load {
        path: path.to_string(),
        message: format!("{e:#}"),
    }
}

impl TractBackend {
    /// Loads and optimises `path`. The batch axis stays symbolic, so one plan serves every
    /// batch size.
    ///
    /// # Errors
    /// [`BackendError::Load`] when the file cannot be read or optimised,
    /// [`BackendError::Interface`] when its inputs or outputs are not dlshogi's.
    pub fn load(path: &Path) -> Result<TractBackend, BackendError> {
        let name = path.display().to_string();
        let model = tract_onnx::onnx()
            .model_for_path(path)
            .map_err(|e| load_error(&name, e))?;
        let typed = model.into_optimized().map_err(|e| load_error(&name, e))?;
        let err_path = name.clone();
        let interface = move |message: String| BackendError::Interface {
            path: err_path.clone(),
            message,
        };
        if typed.inputs.len() != 2 || typed.outputs.len() != 2 {
            return Err(interface(format!(
                "expected 2 inputs and 2 outputs, found {} and {}",
                typed.inputs.len(),
                typed.outputs.len()
            )));
        }
        let out_names: Vec<String> = typed
            .outputs
            .iter()
            .map(|o| {
                typed
                    .outlet_label(*o)
                    .map(str::to_string)
                    .unwrap_or_else(|| typed.node(o.node).name.clone())
            })
            .collect();
        let position = |want: &str| out_names.iter().position(|n| n == want);
        // Exports with other output names keep dlshogi's order: policy first.
        let (policy_out, value_out) = match (position("output_policy"), position("output_value")) {
            (Some(p), Some(v)) => (p, v),
            _ => (0, 1),
        };
        let plan = typed.into_runnable().map_err(|e| load_error(&name, e))?;
        let mut backend = TractBackend {
            path: name,
            plan,
            policy_out,
            value_out,
        };
        // One trial run checks the shapes now rather than in the middle of a game.
        let mut probe = Batch::new(1);
        probe.push(&hayate_core::Position::startpos());
        backend.evaluate(&mut probe).map_err(|e| match e {
            BackendError::Run(message) => interface(message),
            other => other,
        })?;
        Ok(backend)
    }
}

impl Backend for TractBackend {
    fn name(&self) -> String {
        format!("tract {}", self.path)
    }

    fn evaluate(&mut self, batch: &mut Batch) -> Result<(), BackendError> {
        let n = batch.len();
        if n == 0 {
            return Ok(());
        }
        let run = |e: TractError| BackendError::Run(format!("{e:#}"));
        let in1 =
            Tensor::from_shape(&[n, INPUT1_PLANES, 9, 9], batch.input1_used()).map_err(run)?;
        let in2 =
            Tensor::from_shape(&[n, INPUT2_PLANES, 9, 9], batch.input2_used()).map_err(run)?;
        let outputs = self.plan.run(tvec![in1.into(), in2.into()]).map_err(run)?;
        let (Some(policy), Some(value)) =
            (outputs.get(self.policy_out), outputs.get(self.value_out))
        else {
            return Err(BackendError::Run("missing outputs".to_string()));
        };
        let policy = policy.try_as_plain_ram().map_err(run)?;
        let policy = policy.as_slice::<f32>().map_err(run)?;
        let value = value.try_as_plain_ram().map_err(run)?;
        let value = value.as_slice::<f32>().map_err(run)?;
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
        debug_assert_eq!(batch.input1_used().len(), n * INPUT1_LEN);
        debug_assert_eq!(batch.input2_used().len(), n * INPUT2_LEN);
        Ok(())
    }
}
