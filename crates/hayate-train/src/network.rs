//! The trait the training loop and the checkpoints see: a policy/value network with a
//! serialisable config.

use crate::error::TrainError;
use crate::loss::{Losses, dlshogi_loss};
use crate::model::{DlshogiNet, DlshogiNetConfig, PolicyValue};
use crate::model::{Gmlp, GmlpConfig, NoviceConfig, NoviceNet, RyfcConfig, RyfcNet};
use burn::module::Module;
use burn::tensor::Int;
use burn::tensor::{Device, Tensor, TensorData};
use hayate_nn::dataset::{Batch, InputKind, Sample};
use hayate_nn::prelude::{PRELUDE_TOKENS, prelude_tokens};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// A policy/value network the trainer can build, feed and checkpoint.
pub trait Network: Module + Sized + 'static {
    /// Its shape (saved with checkpoints as JSON).
    type Config: Clone + std::fmt::Debug + PartialEq + Serialize + DeserializeOwned;

    /// A short family tag stored in checkpoints (`dlshogi`, `gmlp`, …).
    const FAMILY: &'static str;

    /// Fresh weights on `device`.
    ///
    /// # Errors
    /// [`TrainError::Config`] when the config describes no valid network.
    fn init(config: &Self::Config, device: &Device) -> Result<Self, TrainError>;

    /// The input planes its batches need.
    fn input_kind(config: &Self::Config) -> InputKind;

    /// Whether its policy is over the 1496 compact labels (else the 2187 dlshogi labels).
    fn compact_policy(config: &Self::Config) -> bool;

    /// Trainable parameters, from the config.
    fn param_count(config: &Self::Config) -> usize;

    /// Forward pass over an expanded batch; `samples` are the samples it was expanded from
    /// (for models that read positions rather than planes).
    fn forward_batch(&self, samples: &[Sample], batch: &Batch, device: &Device) -> PolicyValue;

    /// Whether its batches need Novice's auxiliary targets.
    fn novice_targets(_config: &Self::Config) -> bool {
        false
    }

    /// The training loss of a batch, and the outputs the metrics read (policy logits and a
    /// value logit). The default is dlshogi's loss ([`dlshogi_loss`]) with `lambda`.
    fn losses(
        &self,
        samples: &[Sample],
        batch: &Batch,
        policy_len: usize,
        lambda: f32,
        device: &Device,
    ) -> (Losses, PolicyValue) {
        let out = self.forward_batch(samples, batch, device);
        let (p, r, v) = targets(batch, policy_len, device);
        (dlshogi_loss(&out, p, r, v, lambda), out)
    }
}

/// Policy `[n, policy_len]`, result `[n]` and eval-value `[n]` targets of a batch.
pub fn targets(
    batch: &Batch,
    policy_len: usize,
    device: &Device,
) -> (Tensor<2>, Tensor<1>, Tensor<1>) {
    let n = batch.len;
    let p = Tensor::from_data(
        TensorData::new(batch.policy[..n * policy_len].to_vec(), [n, policy_len]),
        device,
    );
    let r = Tensor::from_data(TensorData::new(batch.result[..n].to_vec(), [n]), device);
    let v = Tensor::from_data(TensorData::new(batch.value[..n].to_vec(), [n]), device);
    (p, r, v)
}

/// `[len, planes, 9, 9]` tensor from a flat sample-major array.
pub fn planes_tensor(data: &[f32], len: usize, device: &Device) -> Tensor<4> {
    let planes = if len == 0 { 0 } else { data.len() / (len * 81) };
    Tensor::from_data(
        TensorData::new(data[..len * planes * 81].to_vec(), [len, planes, 9, 9]),
        device,
    )
}

impl Network for DlshogiNet {
    type Config = DlshogiNetConfig;
    const FAMILY: &'static str = "dlshogi";

    fn init(config: &DlshogiNetConfig, device: &Device) -> Result<DlshogiNet, TrainError> {
        Ok(config.init(device))
    }

    fn input_kind(config: &DlshogiNetConfig) -> InputKind {
        InputKind::Dlshogi {
            nyugyoku: config.input2 == hayate_nn::INPUT2_PLANES_NYUGYOKU,
        }
    }

    fn compact_policy(_: &DlshogiNetConfig) -> bool {
        false
    }

    fn param_count(config: &DlshogiNetConfig) -> usize {
        config.param_count()
    }

    fn forward_batch(&self, _: &[Sample], batch: &Batch, device: &Device) -> PolicyValue {
        let x1 = planes_tensor(&batch.input1, batch.len, device);
        let x2 = planes_tensor(&batch.input2, batch.len, device);
        self.forward(x1, x2)
    }
}

/// prelude's tokens of the samples that `fill_batch` keeps (those whose position decodes and
/// whose policy labels are all compact), `[n, 95]`.
pub fn tokens_tensor(samples: &[Sample], device: &Device) -> Tensor<2, Int> {
    let mut ids = Vec::with_capacity(samples.len() * PRELUDE_TOKENS);
    let mut n = 0;
    for s in samples {
        let Ok(raw) = s.hcp.decode() else { continue };
        let Ok(pos) = raw.to_position(u32::from(s.ply)) else {
            continue;
        };
        if s.policy
            .iter()
            .any(|&(l, _)| hayate_nn::compact_label(l).is_none())
        {
            continue;
        }
        ids.extend(prelude_tokens(&pos).iter().map(|&t| i64::from(t)));
        n += 1;
    }
    Tensor::from_data(TensorData::new(ids, [n, PRELUDE_TOKENS]), device)
}

impl Network for Gmlp {
    type Config = GmlpConfig;
    const FAMILY: &'static str = "gmlp";

    fn init(config: &GmlpConfig, device: &Device) -> Result<Gmlp, TrainError> {
        if config.d_ffn < 2 || !config.d_ffn.is_multiple_of(2) || config.d_model == 0 {
            return Err(TrainError::Config(
                "gMLP needs d_model > 0 and an even d_ffn".into(),
            ));
        }
        Ok(config.init(device))
    }

    fn input_kind(_: &GmlpConfig) -> InputKind {
        // The planes are not used; the batch carries the targets.
        InputKind::Dlshogi { nyugyoku: false }
    }

    fn compact_policy(_: &GmlpConfig) -> bool {
        true
    }

    fn param_count(config: &GmlpConfig) -> usize {
        config.param_count()
    }

    fn forward_batch(&self, samples: &[Sample], _: &Batch, device: &Device) -> PolicyValue {
        self.forward(tokens_tensor(samples, device))
    }
}

impl Network for NoviceNet {
    type Config = NoviceConfig;
    const FAMILY: &'static str = "novice";

    fn init(config: &NoviceConfig, device: &Device) -> Result<NoviceNet, TrainError> {
        Ok(config.init(device))
    }

    fn input_kind(_: &NoviceConfig) -> InputKind {
        InputKind::Novice(hayate_nn::novice::NoviceConfig::default())
    }

    fn compact_policy(_: &NoviceConfig) -> bool {
        false
    }

    fn param_count(config: &NoviceConfig) -> usize {
        config.param_count()
    }

    fn novice_targets(_: &NoviceConfig) -> bool {
        true
    }

    fn forward_batch(&self, _: &[Sample], batch: &Batch, device: &Device) -> PolicyValue {
        let x = planes_tensor(&batch.input1, batch.len, device);
        NoviceNet::policy_value(&self.forward(x))
    }

    fn losses(
        &self,
        _: &[Sample],
        batch: &Batch,
        policy_len: usize,
        lambda: f32,
        device: &Device,
    ) -> (Losses, PolicyValue) {
        let n = batch.len;
        let out = self.forward(planes_tensor(&batch.input1, n, device));
        let (p, _, _) = targets(batch, policy_len, device);
        let mut wdl = Vec::with_capacity(n * 3);
        let mut decl = vec![0.0f32; n * 3];
        for i in 0..n {
            let r = batch.result[i];
            let (w, d, l) = if r > 0.75 {
                (1.0, 0.0, 0.0)
            } else if r < 0.25 {
                (0.0, 0.0, 1.0)
            } else {
                (0.0, 1.0, 0.0)
            };
            let v = batch.value[i];
            wdl.extend([
                (1.0 - lambda) * w + lambda * v,
                (1.0 - lambda) * d,
                (1.0 - lambda) * l + lambda * (1.0 - v),
            ]);
            let c = batch.declaration.get(i).copied().unwrap_or(0).min(2) as usize;
            decl[i * 3 + c] = 1.0;
        }
        let t = |v: Vec<f32>, w: usize| Tensor::<2>::from_data(TensorData::new(v, [n, w]), device);
        let effects = t(batch.effects[..n * 162].to_vec(), 162);
        let losses = NoviceNet::novice_loss(&out, p, t(wdl, 3), t(decl, 3), effects);
        (losses, NoviceNet::policy_value(&out))
    }
}

impl Network for RyfcNet {
    type Config = RyfcConfig;
    const FAMILY: &'static str = "ryfc";

    fn init(config: &RyfcConfig, device: &Device) -> Result<RyfcNet, TrainError> {
        config.init(device)
    }

    fn input_kind(config: &RyfcConfig) -> InputKind {
        InputKind::Dlshogi {
            nyugyoku: config.input2 == hayate_nn::INPUT2_PLANES_NYUGYOKU,
        }
    }

    fn compact_policy(_: &RyfcConfig) -> bool {
        false
    }

    fn param_count(config: &RyfcConfig) -> usize {
        config.param_count()
    }

    fn forward_batch(&self, _: &[Sample], batch: &Batch, device: &Device) -> PolicyValue {
        let x1 = planes_tensor(&batch.input1, batch.len, device);
        let x2 = planes_tensor(&batch.input2, batch.len, device);
        self.forward(x1, x2)
    }
}
