//! Checkpoints of an NNUE run: `checkpoint.bin`, written through a temporary file and a
//! rename. Layout: the magic `HYNNUE01`, a u32 length and the JSON [`CheckpointHeader`] (the
//! run's configuration and the next step), then little-endian f32 arrays: feature weights,
//! dense parameters, and Adam's moments of both (first, then second), then Adam's u64 step.

use super::model::{DENSE_LEN, Model};
use super::optim::AdamState;
use super::train::NnueConfig;
use crate::checkpoint::write_atomically;
use crate::error::TrainError;
use serde::{Deserialize, Serialize};
use std::io::{Read, Write};
use std::path::Path;

const MAGIC: &[u8; 8] = b"HYNNUE01";

/// What precedes the arrays.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckpointHeader {
    /// The run's configuration.
    pub config: NnueConfig,
    /// The next step to run.
    pub step: u64,
}

fn write_f32s(w: &mut impl Write, v: &[f32]) -> std::io::Result<()> {
    let mut buf = Vec::with_capacity(4 * v.len().min(1 << 20));
    for part in v.chunks(1 << 20) {
        buf.clear();
        for x in part {
            buf.extend_from_slice(&x.to_le_bytes());
        }
        w.write_all(&buf)?;
    }
    Ok(())
}

fn read_f32s(r: &mut impl Read, v: &mut [f32]) -> std::io::Result<()> {
    let mut buf = vec![0u8; 4 * v.len().min(1 << 20)];
    for part in v.chunks_mut(1 << 20) {
        let b = &mut buf[..4 * part.len()];
        r.read_exact(b)?;
        for (x, c) in part.iter_mut().zip(b.chunks_exact(4)) {
            *x = f32::from_le_bytes([c[0], c[1], c[2], c[3]]);
        }
    }
    Ok(())
}

/// Saves the run's state.
///
/// # Errors
/// When the file cannot be written.
pub fn save(
    path: &Path,
    header: &CheckpointHeader,
    m: &Model,
    st: &AdamState,
) -> Result<(), TrainError> {
    let json = serde_json::to_vec(header).map_err(|error| TrainError::Json {
        path: path.to_path_buf(),
        error,
    })?;
    write_atomically(path, |w| {
        w.write_all(MAGIC)?;
        w.write_all(&(json.len() as u32).to_le_bytes())?;
        w.write_all(&json)?;
        for v in [
            &m.ft,
            &m.dense,
            &st.ft_m,
            &st.dense_m,
            &st.ft_v,
            &st.dense_v,
        ] {
            write_f32s(w, v)?;
        }
        w.write_all(&st.t.to_le_bytes())
    })
}

/// Loads a checkpoint.
///
/// # Errors
/// When the file cannot be read or is not a checkpoint of this format.
pub fn load(path: &Path) -> Result<(CheckpointHeader, Model, AdamState), TrainError> {
    let io = |e| TrainError::io(path, e);
    let bad = |what: &str| {
        TrainError::Config(format!(
            "{}: not an NNUE checkpoint ({what})",
            path.display()
        ))
    };
    let mut r = std::io::BufReader::with_capacity(1 << 20, std::fs::File::open(path).map_err(io)?);
    let mut head = [0u8; 12];
    r.read_exact(&mut head).map_err(io)?;
    if &head[..8] != MAGIC {
        return Err(bad("magic"));
    }
    let len = u32::from_le_bytes([head[8], head[9], head[10], head[11]]) as usize;
    if len > 1 << 20 {
        return Err(bad("header length"));
    }
    let mut json = vec![0u8; len];
    r.read_exact(&mut json).map_err(io)?;
    let header: CheckpointHeader =
        serde_json::from_slice(&json).map_err(|error| TrainError::Json {
            path: path.to_path_buf(),
            error,
        })?;
    let mut m = Model::zeros(header.config.factorised);
    let mut st = AdamState::new(m.ft.len());
    for v in [
        &mut m.ft,
        &mut m.dense,
        &mut st.ft_m,
        &mut st.dense_m,
        &mut st.ft_v,
        &mut st.dense_v,
    ] {
        read_f32s(&mut r, v).map_err(io)?;
    }
    let mut t = [0u8; 8];
    r.read_exact(&mut t).map_err(io)?;
    st.t = u64::from_le_bytes(t);
    debug_assert_eq!(m.dense.len(), DENSE_LEN);
    Ok((header, m, st))
}
