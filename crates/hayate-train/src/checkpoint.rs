//! Checkpoints: a directory holding the weights (`model.bpk`), the optimiser state
//! (`optim.bpk`, absent in an exported or imported model) and `state.json` (family, model
//! config, training config, next step).
//!
//! A checkpoint is written into `<name>.tmp` and then renamed over `<name>`, so a kill while
//! saving leaves the previous checkpoint intact.

use crate::error::TrainError;
use crate::network::Network;
use crate::train::TrainConfig;
use burn::optim::ModuleOptimizer;
use burn::store::ModuleRecord;
use burn::tensor::{Bytes, Device};
use serde::{Deserialize, Serialize};
use std::fs;
use std::path::{Path, PathBuf};

/// Writes a file through `write` into `<path>.tmp`, then renames it over `path`, so that a
/// kill while writing leaves the previous file intact.
///
/// # Errors
/// When the file cannot be written or renamed.
pub fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut std::io::BufWriter<fs::File>) -> std::io::Result<()>,
) -> Result<(), TrainError> {
    use std::io::Write;
    let tmp = PathBuf::from(format!("{}.tmp", path.display()));
    let file = fs::File::create(&tmp).map_err(|e| TrainError::io(&tmp, e))?;
    let mut w = std::io::BufWriter::with_capacity(1 << 20, file);
    write(&mut w)
        .and_then(|()| w.flush())
        .and_then(|()| w.get_ref().sync_all())
        .map_err(|e| TrainError::io(&tmp, e))?;
    drop(w);
    fs::rename(&tmp, path).map_err(|e| TrainError::io(path, e))
}

/// [`write_atomically`] of bytes in memory.
///
/// # Errors
/// As [`write_atomically`].
pub fn write_file_atomically(path: &Path, bytes: &[u8]) -> Result<(), TrainError> {
    use std::io::Write;
    write_atomically(path, |w| w.write_all(bytes))
}

/// `state.json`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CheckpointState {
    /// [`Network::FAMILY`] of the model.
    pub family: String,
    /// The model config as JSON.
    pub model: serde_json::Value,
    /// The training config (absent for imported models).
    pub train: Option<TrainConfig>,
    /// The next step to run.
    pub step: u64,
}

fn record_err(path: &Path, e: impl std::fmt::Display) -> TrainError {
    TrainError::Record {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

/// Reads `dir/state.json`.
///
/// # Errors
/// When it is missing or malformed.
pub fn read_state(dir: &Path) -> Result<CheckpointState, TrainError> {
    let path = dir.join("state.json");
    let text = fs::read_to_string(&path).map_err(|e| TrainError::io(&path, e))?;
    serde_json::from_str(&text).map_err(|error| TrainError::Json { path, error })
}

/// The state of the checkpoint in `dir` and its model config, which must be of family `N`.
///
/// # Errors
/// When `state.json` is missing or malformed, or the family differs.
pub fn read_config<N: Network>(dir: &Path) -> Result<(CheckpointState, N::Config), TrainError> {
    let state = read_state(dir)?;
    if state.family != N::FAMILY {
        return Err(TrainError::Config(format!(
            "{} holds a {} model, not {}",
            dir.display(),
            state.family,
            N::FAMILY
        )));
    }
    let config = serde_json::from_value(state.model.clone()).map_err(|error| TrainError::Json {
        path: dir.join("state.json"),
        error,
    })?;
    Ok((state, config))
}

/// Saves a checkpoint to `dir` (atomically, see the module doc).
///
/// # Errors
/// When a file cannot be written.
pub fn save<N: Network>(
    dir: &Path,
    model: &N,
    model_config: &N::Config,
    optim: Option<&ModuleOptimizer>,
    train: Option<&TrainConfig>,
    step: u64,
) -> Result<(), TrainError> {
    let tmp = PathBuf::from(format!("{}.tmp", dir.display()));
    if tmp.exists() {
        fs::remove_dir_all(&tmp).map_err(|e| TrainError::io(&tmp, e))?;
    }
    fs::create_dir_all(&tmp).map_err(|e| TrainError::io(&tmp, e))?;
    let mp = tmp.join("model.bpk");
    model
        .clone()
        .into_record()
        .save(&mp)
        .map_err(|e| record_err(&mp, e))?;
    if let Some(o) = optim {
        let op = tmp.join("optim.bpk");
        o.save(&op).map_err(|e| record_err(&op, e))?;
    }
    let state = CheckpointState {
        family: N::FAMILY.to_string(),
        model: serde_json::to_value(model_config).map_err(|error| TrainError::Json {
            path: tmp.join("state.json"),
            error,
        })?,
        train: train.cloned(),
        step,
    };
    let sp = tmp.join("state.json");
    let text = serde_json::to_string_pretty(&state).map_err(|error| TrainError::Json {
        path: sp.clone(),
        error,
    })?;
    fs::write(&sp, text).map_err(|e| TrainError::io(&sp, e))?;
    let old = PathBuf::from(format!("{}.old", dir.display()));
    if dir.exists() {
        if old.exists() {
            fs::remove_dir_all(&old).map_err(|e| TrainError::io(&old, e))?;
        }
        fs::rename(dir, &old).map_err(|e| TrainError::io(dir, e))?;
    }
    fs::rename(&tmp, dir).map_err(|e| TrainError::io(dir, e))?;
    if old.exists() {
        fs::remove_dir_all(&old).map_err(|e| TrainError::io(&old, e))?;
    }
    Ok(())
}

/// A loaded checkpoint.
pub struct Loaded<N: Network> {
    /// The model.
    pub model: N,
    /// Its config.
    pub config: N::Config,
    /// The optimiser state, if saved (loaded into `optim_template`).
    pub optim: Option<ModuleOptimizer>,
    /// The rest of `state.json`.
    pub state: CheckpointState,
}

/// Loads a checkpoint of family `N` onto `device`; the optimiser state goes into
/// `optim_template` when both exist.
///
/// # Errors
/// When files are missing or malformed, or the family differs.
pub fn load<N: Network>(
    dir: &Path,
    device: &Device,
    optim_template: Option<ModuleOptimizer>,
) -> Result<Loaded<N>, TrainError> {
    let (state, config) = read_config::<N>(dir)?;
    let mp = dir.join("model.bpk");
    // Read the files whole: burn's own `load` maps them lazily, and the next checkpoint
    // replaces this directory while the tensors may still point into it.
    let bytes = fs::read(&mp).map_err(|e| TrainError::io(&mp, e))?;
    let record =
        ModuleRecord::from_bytes(Bytes::from_bytes_vec(bytes)).map_err(|e| record_err(&mp, e))?;
    let model = N::init(&config, device)?
        .try_load_record(record)
        .map_err(|e| record_err(&mp, e))?;
    let op = dir.join("optim.bpk");
    let optim = match optim_template {
        Some(t) if op.exists() => {
            let bytes = fs::read(&op).map_err(|e| TrainError::io(&op, e))?;
            Some(
                t.from_bytes(Bytes::from_bytes_vec(bytes))
                    .map_err(|e| record_err(&op, e))?,
            )
        }
        _ => None,
    };
    Ok(Loaded {
        model,
        config,
        optim,
        state,
    })
}
