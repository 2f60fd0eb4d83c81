//! Errors of the dataset layer; each names the file offset of the record at fault.

use hayate_records::{PositionError, RecordError};

/// A record that gave no training sample, or a file that could not be read.
#[derive(Debug, thiserror::Error)]
pub enum DatasetError {
    /// The file could not be opened or inspected.
    #[error("{path}: {error}")]
    Open {
        /// The file.
        path: String,
        /// Why.
        error: std::io::Error,
    },
    /// The file's data format is not told, or not one read here.
    #[error("{0}")]
    Format(String),
    /// The record reader rejected a record (bad bytes, truncation, read failure).
    #[error(transparent)]
    Record(#[from] RecordError),
    /// The packed position decodes to no legal position.
    #[error("record at byte {offset}: {error}")]
    Position {
        /// Offset of the record (hcpe) or game (hcpe3).
        offset: u64,
        /// Why.
        error: PositionError,
    },
    /// A move of the record is not legal in its position: an hcpe best move, an hcpe3 move
    /// played (the rest of the game is skipped) or an hcpe3 candidate.
    #[error("record at byte {offset}: move {ply}: {move16:#06x} is not legal")]
    IllegalMove {
        /// Offset of the record (hcpe) or game (hcpe3).
        offset: u64,
        /// Index of the move in the game (0 for hcpe).
        ply: usize,
        /// The move's Apery encoding.
        move16: u16,
    },
    /// A record the reader skipped; its message names the offset when the reader kept it.
    #[error("{message}")]
    Rejected {
        /// The reader's description.
        message: String,
    },
}
