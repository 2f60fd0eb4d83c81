//! Errors of the game-record parsers.

/// What is wrong with a game record's text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseErrorKind {
    /// A line the format does not allow.
    #[error("unexpected line {0:?}")]
    BadLine(String),
    /// A move that cannot be read.
    #[error("cannot read the move {0:?}")]
    BadMove(String),
    /// A move that reads but is not legal in its position.
    #[error("move {ply} {text:?} is not legal")]
    IllegalMove {
        /// 1-based move number.
        ply: usize,
        /// The move as written.
        text: String,
    },
    /// The start position is not valid.
    #[error("start position: {0}")]
    BadPosition(#[from] hayate_core::SfenError),
    /// A time that cannot be read.
    #[error("cannot read the time {0:?}")]
    BadTime(String),
    /// A special move or ending word the format does not define.
    #[error("unknown ending {0:?}")]
    UnknownEnding(String),
    /// Malformed JSON (JKF).
    #[error("JSON: {0}")]
    Json(String),
}

/// A game record that could not be parsed, with the 1-based line (0 when not line-based).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {kind}")]
pub struct ParseError {
    /// 1-based line number (0 for JSON and whole-file faults).
    pub line: usize,
    /// What is wrong.
    pub kind: ParseErrorKind,
}

impl ParseError {
    pub(crate) fn new(line: usize, kind: ParseErrorKind) -> ParseError {
        ParseError { line, kind }
    }
}
