//! The networks: dlshogi's ResNet / SE-ResNet ([`resnet`]), prelude's gMLP ([`gmlp`]),
//! Novice's four-head SE-ResNet ([`novice`]), Ryfamate's cross network ([`ryfc`]) and the
//! shared pieces.

pub mod activation;
pub mod gmlp;
pub mod novice;
pub mod resnet;
pub mod ryfc;
pub mod spec;

pub use activation::Activation;
pub use gmlp::{Gmlp, GmlpConfig};
pub use novice::{NoviceConfig, NoviceNet};
pub use resnet::{DlshogiNet, DlshogiNetConfig};
pub use ryfc::{RyfcConfig, RyfcNet};
pub use spec::ModelSpec;

use burn::tensor::Tensor;

/// What a policy/value network returns for a batch.
#[derive(Clone, Debug)]
pub struct PolicyValue {
    /// Policy logits `[batch, labels]`.
    pub policy: Tensor<2>,
    /// Value logits `[batch, 1]` (the win probability is their sigmoid).
    pub value: Tensor<2>,
}
