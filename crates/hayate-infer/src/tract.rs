//! The default backend: dlshogi-format ONNX files run by tract, pure Rust, nothing to install.

use crate::backend::{Backend, BackendError, NetKind};
use crate::batch::{Batch, Layout, POLICY_LEN, copy_outputs};
use hayate_nn::novice::{NOVICE_CHANNELS, NoviceConfig};
use hayate_nn::prelude::PRELUDE_TOKENS;
use hayate_nn::{COMPACT_LABEL_NUM, INPUT1_PLANES, INPUT2_PLANES, full_label};
use std::path::Path;
use std::sync::Arc;
use tract_onnx::prelude::*;

type Plan = Arc<TypedRunnableModel>;

/// An ONNX model with dlshogi's interface (`input1` `[b,62,9,9]`, `input2` `[b,57,9,9]` →
/// `output_policy` `[b,2187]`, `output_value` `[b,1]`), or Novice's (`input` `[b,85,9,9]` →
/// `output_policy` `[b,2187]`, `output_value` `[b,3]` win/draw/loss, and auxiliary heads that
/// are not read; the value is win + draw × the side to move's draw value).
///
/// tract optimises much better for a known batch size, so plans are made (lazily) for batch
/// sizes 1, 2, 4, 8, ... and a batch runs on the smallest plan that holds it, padded with
/// empty positions. The plan with a symbolic batch serves when a fixed one cannot be made.
/// A plan is shared by threads (each run has its own state), so [`TractBackend::with_threads`]
/// splits a batch over several cores.
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
    /// The interface: dlshogi's or Novice's.
    kind: NetKind,
    /// Outputs of the model.
    outputs: usize,
    /// Threads one batch is split over.
    threads: usize,
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
        let tokens = typed
            .inputs
            .first()
            .and_then(|&o| typed.outlet_fact(o).ok())
            .is_some_and(|f| f.datum_type == i64::datum_type());
        let kind = match (typed.inputs.len(), typed.outputs.len()) {
            (2, 2) => NetKind::Dlshogi,
            (1, 2) if tokens => NetKind::Prelude,
            (1, n) if n >= 2 => NetKind::Novice,
            (i, o) => {
                return Err(interface(format!(
                    "expected dlshogi's 2 inputs and 2 outputs or Novice's 1 input, found {i} \
                     and {o}"
                )));
            }
        };
        let outputs = typed.outputs.len();
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
            kind,
            outputs,
            threads: 1,
        };
        // One trial run checks the shapes now rather than in the middle of a game.
        let layout = match kind {
            NetKind::Dlshogi => Layout::Dlshogi,
            NetKind::Novice => Layout::Novice(NoviceConfig::default()),
            NetKind::Prelude => Layout::Prelude,
        };
        let mut probe = Batch::with_layout(1, layout);
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

    /// Splits each batch over `threads` threads (at least 1): each runs its part on its own
    /// plan state, so a batch of 16 on two threads is two batches of 8 at once.
    pub fn with_threads(mut self, threads: usize) -> TractBackend {
        self.threads = threads.max(1);
        self
    }

    /// The plan for a chunk of `n` positions.
    fn plan_for(&mut self, n: usize) -> ChunkPlan {
        let size = n.next_power_of_two();
        match self.use_fixed.then(|| self.fixed_plan(size)).flatten() {
            Some(plan) => ChunkPlan::Fixed(plan, size),
            None => ChunkPlan::Symbolic(self.plan.clone()),
        }
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
        let mut model = match self.kind {
            NetKind::Dlshogi => self
                .model
                .clone()
                .with_input_fact(0, fact(INPUT1_PLANES))
                .and_then(|m| m.with_input_fact(1, fact(INPUT2_PLANES))),
            NetKind::Novice => self.model.clone().with_input_fact(0, fact(NOVICE_CHANNELS)),
            NetKind::Prelude => self.model.clone().with_input_fact(
                0,
                InferenceFact::dt_shape(i64::datum_type(), tvec![size, PRELUDE_TOKENS]),
            ),
        }
        .ok()?;
        for o in 0..self.outputs {
            model = model.with_output_fact(o, InferenceFact::default()).ok()?;
        }
        let plan = model
            .into_optimized()
            .and_then(|m| m.into_runnable())
            .ok()?;
        self.fixed[slot] = Some(plan.clone());
        Some(plan)
    }
}

impl Backend for TractBackend {
    fn name(&self) -> String {
        format!("tract {} ({} threads)", self.path, self.threads)
    }

    fn kind(&self) -> NetKind {
        self.kind
    }

    fn evaluate(&mut self, batch: &mut Batch) -> Result<(), BackendError> {
        let n = batch.len();
        if n == 0 {
            return Ok(());
        }
        let fits = matches!(
            (self.kind, batch.layout()),
            (NetKind::Dlshogi, Layout::Dlshogi)
                | (NetKind::Novice, Layout::Novice(_))
                | (NetKind::Prelude, Layout::Prelude)
        );
        if !fits {
            return Err(BackendError::Run(format!(
                "a batch of {:?} inputs for a {:?} network",
                batch.layout(),
                self.kind
            )));
        }
        // The batch is cut in `parts` chunks, one per thread, each run on the plan for its size.
        let parts = self.threads.clamp(1, n);
        let chunk = n.div_ceil(parts);
        let plan = self.plan_for(chunk);
        let outs = (self.policy_out, self.value_out, self.kind);
        let layout = batch.layout();
        let (n1, n2) = (layout.input1_len(), layout.input2_len());
        let policy = batch.policy[..n * POLICY_LEN].chunks_mut(chunk * POLICY_LEN);
        let value = batch.value[..n].chunks_mut(chunk);
        let mut jobs: Vec<Chunk<'_>> = policy
            .zip(value)
            .enumerate()
            .map(|(k, (policy, value))| {
                let (a, b) = (k * chunk, k * chunk + value.len());
                Chunk {
                    in1: &batch.input1[a * n1..b * n1],
                    in2: &batch.input2[a * n2..b * n2],
                    draw: &batch.draw_value[a..b],
                    policy,
                    value,
                }
            })
            .collect();
        let Some(last) = jobs.pop() else {
            return Ok(());
        };
        let plan = &plan;
        std::thread::scope(|s| {
            let handles: Vec<_> = jobs
                .into_iter()
                .map(|job| {
                    std::thread::Builder::new()
                        .name("tract".into())
                        .spawn_scoped(s, move || run_chunk(plan, outs, job))
                })
                .collect();
            let mine = run_chunk(plan, outs, last);
            handles
                .into_iter()
                .map(|h| match h {
                    Ok(h) => h
                        .join()
                        .unwrap_or_else(|_| Err(BackendError::Run("tract panicked".into()))),
                    Err(e) => Err(BackendError::Run(format!("cannot start a thread: {e}"))),
                })
                .fold(mine, Result::and)
        })
    }
}

/// The plan a chunk runs on: made for `size` positions (padded), or symbolic in the batch.
enum ChunkPlan {
    Fixed(Plan, usize),
    Symbolic(Plan),
}

/// One thread's part of a batch.
struct Chunk<'a> {
    in1: &'a [f32],
    in2: &'a [f32],
    /// The side to move's draw value of each position (for a win/draw/loss value).
    draw: &'a [f32],
    policy: &'a mut [f32],
    value: &'a mut [f32],
}

/// One input tensor of `rows` positions of `planes` planes, holding `data` (padded with zeros).
fn input(rows: usize, planes: usize, data: &[f32]) -> TractResult<TValue> {
    let mut t = Tensor::zero::<f32>(&[rows, planes, 9, 9])?;
    fill(&mut t, data)?;
    Ok(t.into())
}

/// The token ids of `rows` positions (`data` holds them as floats), padded with zeros.
fn tokens(rows: usize, data: &[f32]) -> TractResult<TValue> {
    let mut ids = vec![0i64; rows * PRELUDE_TOKENS];
    for (id, &x) in ids.iter_mut().zip(data) {
        *id = x as i64;
    }
    Ok(Tensor::from_shape(&[rows, PRELUDE_TOKENS], &ids)?.into())
}

/// Runs one chunk and writes its outputs; `outs` are the indices of the policy and value
/// outputs and the network's interface.
fn run_chunk(
    plan: &ChunkPlan,
    outs: (usize, usize, NetKind),
    job: Chunk<'_>,
) -> Result<(), BackendError> {
    let run = |e: TractError| BackendError::Run(format!("{e:#}"));
    let n = job.value.len();
    // A fixed plan is padded to its size with empty positions (their outputs are ignored).
    let (plan, rows) = match plan {
        ChunkPlan::Fixed(plan, size) => (plan, *size),
        ChunkPlan::Symbolic(plan) => (plan, n),
    };
    let inputs = match outs.2 {
        NetKind::Dlshogi => tvec![
            input(rows, INPUT1_PLANES, job.in1).map_err(run)?,
            input(rows, INPUT2_PLANES, job.in2).map_err(run)?
        ],
        NetKind::Novice => tvec![input(rows, NOVICE_CHANNELS, job.in1).map_err(run)?],
        NetKind::Prelude => tvec![tokens(rows, job.in1).map_err(run)?],
    };
    let outputs = plan.run(inputs).map_err(run)?;
    let (Some(policy), Some(value)) = (outputs.get(outs.0), outputs.get(outs.1)) else {
        return Err(BackendError::Run("missing outputs".to_string()));
    };
    let policy = policy.try_as_plain_ram().map_err(run)?;
    let policy = policy.as_slice::<f32>().map_err(run)?;
    let value = value.try_as_plain_ram().map_err(run)?;
    let value = value.as_slice::<f32>().map_err(run)?;
    if outs.2 == NetKind::Prelude {
        // Compact logits into dlshogi's 2187 labels; labels no legal move has stay at -1e9.
        let compact = policy.get(..n * COMPACT_LABEL_NUM).unwrap_or(policy);
        job.policy.fill(-1e9);
        for (full, row) in job
            .policy
            .chunks_exact_mut(POLICY_LEN)
            .zip(compact.chunks_exact(COMPACT_LABEL_NUM))
        {
            for (c, &logit) in row.iter().enumerate() {
                if let Some(l) = full_label(c as u16) {
                    full[usize::from(l)] = logit;
                }
            }
        }
        let value = value.get(..n).unwrap_or(value);
        return copy_outputs((&[], value), (&mut [], job.value));
    }
    // A padded plan has more rows than the chunk: the first `n` are ours.
    let policy = policy.get(..n * POLICY_LEN).unwrap_or(policy);
    if outs.2 == NetKind::Novice {
        // Win, draw, loss: a draw is worth the side to move's draw value.
        let wdl = value.get(..n * 3).unwrap_or(value);
        let value: Vec<f32> = wdl
            .chunks_exact(3)
            .zip(job.draw)
            .map(|(p, d)| p[0] + d * p[1])
            .collect();
        return copy_outputs((policy, &value), (job.policy, job.value));
    }
    let value = value.get(..n).unwrap_or(value);
    copy_outputs((policy, value), (job.policy, job.value))
}

/// Copies `data` to the start of `t`.
fn fill(t: &mut Tensor, data: &[f32]) -> TractResult<()> {
    let mut view = t.try_as_plain_ram_mut()?;
    let dst = view.as_slice_mut::<f32>()?;
    dst[..data.len()].copy_from_slice(data);
    Ok(())
}
