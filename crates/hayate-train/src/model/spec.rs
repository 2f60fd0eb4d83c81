//! Model names for the command line: one name picks a family and its shape.

use super::{Activation, DlshogiNetConfig, GmlpConfig, NoviceConfig, RyfcConfig};
use crate::error::TrainError;

/// A model of any family.
#[derive(Clone, Debug, PartialEq)]
pub enum ModelSpec {
    /// dlshogi ResNet / SE-ResNet (`resnet10x192_swish`, `senet15x224`, …).
    Dlshogi(DlshogiNetConfig),
    /// prelude's gMLP (`gmlp` = 12 blocks of 256/512, or `gmlpBLOCKSxDMODEL`).
    Gmlp(GmlpConfig),
    /// Novice's SE-ResNet (`novice` = 12×256, or `noviceBLOCKSxCHANNELS`, `_relu`).
    Novice(NoviceConfig),
    /// RyfcNet (`ryfc` = 6×128 SCSF, or `ryfcBLOCKSxCHANNELS_RECIPE`, `_relu`).
    Ryfc(RyfcConfig),
}

fn blocks_by_width(rest: &str, name: &str) -> Result<Option<(usize, usize)>, TrainError> {
    if rest.is_empty() {
        return Ok(None);
    }
    let bad = || TrainError::ModelName(name.to_string());
    let (b, w) = rest.split_once('x').ok_or_else(bad)?;
    let b: usize = b.parse().map_err(|_| bad())?;
    let w: usize = w.parse().map_err(|_| bad())?;
    if b == 0 || w == 0 {
        return Err(bad());
    }
    Ok(Some((b, w)))
}

impl ModelSpec {
    /// Parses a model name (forms in the variant docs).
    ///
    /// # Errors
    /// [`TrainError::ModelName`] when it does not parse.
    pub fn from_name(name: &str) -> Result<ModelSpec, TrainError> {
        let bad = || TrainError::ModelName(name.to_string());
        let mut parts = name.split('_');
        let head = parts.next().unwrap_or_default();
        if let Some(rest) = head.strip_prefix("gmlp") {
            let mut cfg = GmlpConfig::default();
            if let Some((b, d)) = blocks_by_width(rest, name)? {
                cfg.blocks = b;
                cfg.d_model = d;
                cfg.d_ffn = 2 * d;
            }
            if parts.next().is_some() {
                return Err(bad());
            }
            Ok(ModelSpec::Gmlp(cfg))
        } else if let Some(rest) = head.strip_prefix("novice") {
            let mut cfg = NoviceConfig::default();
            if let Some((b, c)) = blocks_by_width(rest, name)? {
                cfg.blocks = b;
                cfg.channels = c;
            }
            for p in parts {
                cfg.activation = match p {
                    "relu" => Activation::Relu,
                    "swish" => Activation::Swish,
                    _ => return Err(bad()),
                };
            }
            Ok(ModelSpec::Novice(cfg))
        } else if let Some(rest) = head.strip_prefix("ryfc") {
            let mut cfg = RyfcConfig::default();
            if let Some((b, c)) = blocks_by_width(rest, name)? {
                cfg.blocks = b;
                cfg.channels = c;
            }
            for p in parts {
                match p {
                    "relu" => cfg.activation = Activation::Relu,
                    "swish" => cfg.activation = Activation::Swish,
                    recipe => cfg.recipe = recipe.to_ascii_uppercase(),
                }
            }
            cfg.layers()?;
            Ok(ModelSpec::Ryfc(cfg))
        } else {
            DlshogiNetConfig::from_name(name).map(ModelSpec::Dlshogi)
        }
    }
}
