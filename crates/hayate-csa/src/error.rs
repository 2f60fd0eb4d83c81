//! The client's error types: one enum per untrusted surface (server text, config file, session).

use thiserror::Error;

/// A line from the server that could not be understood.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParseError {
    /// A move line (`+7776FU`) that is malformed.
    #[error("malformed CSA move `{0}`")]
    MoveSyntax(String),
    /// A well-formed move that is not legal in the current position.
    #[error("illegal CSA move `{text}` in position {sfen}")]
    IllegalMove {
        /// The move as received.
        text: String,
        /// The position it was applied to.
        sfen: String,
    },
    /// A `P1`..`P9`, `P+`/`P-`, `PI` or side line of a position block that is malformed.
    #[error("malformed position line `{0}`")]
    PositionLine(String),
    /// The position block describes an impossible position.
    #[error("invalid position: {0}")]
    Position(String),
    /// A `Key:Value` line of the summary whose value cannot be read.
    #[error("bad value in summary line `{0}`")]
    SummaryValue(String),
    /// The summary lacks a field the game cannot be played without.
    #[error("Game_Summary lacks `{0}`")]
    SummaryMissing(&'static str),
    /// The summary has a block structure error (unterminated or unknown `BEGIN`/`END`).
    #[error("Game_Summary structure: {0}")]
    SummaryStructure(String),
}

/// The configuration file could not be used.
#[derive(Debug, Error)]
pub enum ConfigError {
    /// The file could not be read.
    #[error("cannot read config {path}: {source}")]
    Read {
        /// The file.
        path: String,
        /// The cause.
        source: std::io::Error,
    },
    /// The TOML is invalid or has unknown/mistyped keys.
    #[error("invalid config: {0}")]
    Toml(String),
    /// No password source or an unusable one.
    #[error("password: {0}")]
    Password(String),
    /// A value is out of range.
    #[error("invalid config value: {0}")]
    Value(String),
}

/// Why a session (connect, log in, play) stopped.
#[derive(Debug, Error)]
pub enum CsaError {
    /// TCP connect or I/O failure.
    #[error("network: {0}")]
    Io(#[from] std::io::Error),
    /// The server closed the connection before the game ended.
    #[error("connection lost: {0}")]
    ConnectionLost(String),
    /// The server answered `LOGIN:incorrect` (retrying would not help).
    #[error("login refused by the server (LOGIN:incorrect)")]
    LoginRefused,
    /// The server did not answer in time.
    #[error("timed out waiting for {0}")]
    Timeout(&'static str),
    /// The server sent text we could not understand where it mattered.
    #[error("protocol: {0}")]
    Protocol(#[from] ParseError),
    /// The game summary was unusable; the game was rejected when its id was known.
    #[error("unusable Game_Summary ({0}); game rejected")]
    BadSummary(ParseError),
    /// The player could not be prepared.
    #[error("player: {0}")]
    Player(String),
    /// The record folder cannot be written to (checked before the first connection).
    #[error("record_dir {}: {source}", path.display())]
    RecordDir {
        /// The folder.
        path: std::path::PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The session was stopped from outside (Ctrl-C); a game in progress was recorded.
    #[error("interrupted")]
    Interrupted,
}

impl CsaError {
    /// Whether reconnecting may help (network trouble, a dropped or garbled game) rather than
    /// a permanent refusal or a local fault. (A record that cannot be written is logged, not
    /// an error: it must not stop the games.)
    pub fn is_retryable(&self) -> bool {
        !matches!(
            self,
            CsaError::LoginRefused
                | CsaError::Player(_)
                | CsaError::RecordDir { .. }
                | CsaError::Interrupted
        )
    }
}
