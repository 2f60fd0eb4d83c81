//! Errors of the training-data readers: what is wrong and at which byte.

use super::huffman::PackedError;

/// What is wrong with a record.
#[derive(Debug, thiserror::Error)]
pub enum RecordErrorKind {
    /// The underlying reader failed.
    #[error("read failed: {0}")]
    Io(#[from] std::io::Error),
    /// The data ends inside a record (a file cut short, e.g. by a crash while writing).
    #[error("data ends inside a record ({got} of {need} bytes)")]
    Truncated {
        /// Bytes present.
        got: usize,
        /// Bytes the record needs.
        need: usize,
    },
    /// The packed position does not decode.
    #[error("bad packed position: {0}")]
    Packed(#[from] PackedError),
    /// The game-result field holds no known value.
    #[error("game result field {0:#04x} is not valid")]
    BadResult(u8),
    /// An hcpe3 opponent field other than 0, 1 or 2.
    #[error("hcpe3 opponent field {0} is not 0, 1 or 2")]
    BadOpponent(u8),
    /// An hcpe3 game claims more moves than dlshogi allows (513).
    #[error("hcpe3 game has {0} moves, more than 513")]
    TooManyMoves(u16),
    /// An hcpe3 position claims more candidates than shogi has legal moves (593).
    #[error("hcpe3 position has {0} candidates, more than 593")]
    TooManyCandidates(u16),
}

/// A record that could not be read, with the byte offset where it starts.
#[derive(Debug, thiserror::Error)]
#[error("record at byte {offset}: {kind}")]
pub struct RecordError {
    /// Offset of the record's first byte from the start of the stream.
    pub offset: u64,
    /// What is wrong.
    pub kind: RecordErrorKind,
}

/// What a reader does with a corrupt record whose extent is known (a bad position or field in a
/// whole record). Read failures, a truncated tail and broken hcpe3 framing always end the stream
/// after reporting the error, since nothing after them can be trusted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ErrorPolicy {
    /// Report the error and end the stream.
    #[default]
    Stop,
    /// Count the record as rejected (see the readers' `rejected`), remember its error, go on.
    Skip,
}
