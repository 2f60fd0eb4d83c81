//! The default backend: dlshogi-format ONNX files run by tract, pure Rust, nothing to install.

use crate::backend::{Backend, BackendError, Batch, INPUT1_LEN, INPUT2_LEN, POLICY_LEN};
use hayate_nn::{INPUT1_PLANES, INPUT2_PLANES};
use std::path::Path;
use std::sync::Arc;
use tract_onnx::prelude::*;

type Plan = Arc<TypedRunnableModel>;

/// An ONNX model with dlshogi's interface (`input1` `[b,62,9,9]`, `input2` `[b,57,9,9]` →
/// `output_policy` `[b,2187]`, `output_value` `[b,1]`).
///
/// tract optimises much better for a known batch size, so plans are made (lazily) for batch
/// sizes 1, 2, 4, 8, ... and a batch runs on the smallest plan that holds it, padded with
/// empty positions. The plan with a symbolic batch serves when a fixed one cannot be made.
#[derive(Debug)]
pub struct TractBackend {
    path: String,
    model: InferenceModel,
    /// Fixed-size plans by log2 of the batch size; `None` until first needed.
    fixed: Vec<Option<Plan>>,
    /// Use fixed-size plans (else the symbolic one for everything).
    use_fixed: bool,
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
        let typed = model
            .clone()
            .into_optimized()
            .map_err(|e| load_error(&name, e))?;
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
            model,
            fixed: Vec::new(),
            use_fixed: true,
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

    /// Runs every batch on the plan with a symbolic batch size (slower; for comparisons).
    pub fn symbolic_only(mut self) -> TractBackend {
        self.use_fixed = false;
        self
    }

    /// The plan for batches of exactly `size` (a power of two), made on first use.
    fn fixed_plan(&mut self, size: usize) -> Option<Plan> {
        let slot = size.trailing_zeros() as usize;
        if self.fixed.len() <= slot {
            self.fixed.resize(slot + 1, None);
        }
        if let Some(p) = &self.fixed[slot] {
            return Some(p.clone());
        }
        let fact =
            |planes: usize| InferenceFact::dt_shape(f32::datum_type(), tvec![size, planes, 9, 9]);
        let plan = self
            .model
            .clone()
            .with_input_fact(0, fact(INPUT1_PLANES))
            .and_then(|m| m.with_input_fact(1, fact(INPUT2_PLANES)))
            .and_then(|m| m.with_output_fact(0, InferenceFact::default()))
            .and_then(|m| m.with_output_fact(1, InferenceFact::default()))
            .and_then(|m| m.into_optimized())
            .and_then(|m| m.into_runnable())
            .ok()?;
        self.fixed[slot] = Some(plan.clone());
        Some(plan)
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
        let size = n.next_power_of_two();
        let fixed = if self.use_fixed {
            self.fixed_plan(size)
        } else {
            None
        };
        let outputs = match fixed {
            Some(plan) => {
                // Pad to the plan's size with empty positions (their outputs are ignored).
                let mut in1 = Tensor::zero::<f32>(&[size, INPUT1_PLANES, 9, 9]).map_err(run)?;
                let mut in2 = Tensor::zero::<f32>(&[size, INPUT2_PLANES, 9, 9]).map_err(run)?;
                fill(&mut in1, batch.input1_used()).map_err(run)?;
                fill(&mut in2, batch.input2_used()).map_err(run)?;
                plan.run(tvec![in1.into(), in2.into()]).map_err(run)?
            }
            None => {
                let in1 = Tensor::from_shape(&[n, INPUT1_PLANES, 9, 9], batch.input1_used())
                    .map_err(run)?;
                let in2 = Tensor::from_shape(&[n, INPUT2_PLANES, 9, 9], batch.input2_used())
                    .map_err(run)?;
                self.plan.run(tvec![in1.into(), in2.into()]).map_err(run)?
            }
        };
        let (Some(policy), Some(value)) =
            (outputs.get(self.policy_out), outputs.get(self.value_out))
        else {
            return Err(BackendError::Run("missing outputs".to_string()));
        };
        let policy = policy.try_as_plain_ram().map_err(run)?;
        let policy = policy.as_slice::<f32>().map_err(run)?;
        let value = value.try_as_plain_ram().map_err(run)?;
        let value = value.as_slice::<f32>().map_err(run)?;
        let (policy, value) = (
            policy.get(..n * POLICY_LEN).unwrap_or(&[]),
            value.get(..n).unwrap_or(&[]),
        );
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

/// Copies `data` to the start of `t`.
fn fill(t: &mut Tensor, data: &[f32]) -> TractResult<()> {
    let mut view = t.try_as_plain_ram_mut()?;
    let dst = view.as_slice_mut::<f32>()?;
    dst[..data.len()].copy_from_slice(data);
    Ok(())
}
