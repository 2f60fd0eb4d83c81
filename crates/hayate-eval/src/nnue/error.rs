//! Errors of loading an `nn.bin` file: each names the file and the fault.

use std::path::PathBuf;

/// What is wrong with an NNUE file.
#[derive(Debug, thiserror::Error)]
pub enum NnueFault {
    /// The file could not be read.
    #[error("cannot read: {0}")]
    Io(#[from] std::io::Error),
    /// The file ends before the header is complete.
    #[error("truncated header: {len} bytes")]
    TruncatedHeader {
        /// The file's length.
        len: usize,
    },
    /// The first word is not the HalfKP version.
    #[error("bad version 0x{found:08X} (expected 0x{expected:08X})")]
    BadVersion {
        /// The version read.
        found: u32,
        /// The version expected.
        expected: u32,
    },
    /// A hash does not match this architecture.
    #[error("bad {section} hash 0x{found:08X} (expected 0x{expected:08X})")]
    BadHash {
        /// Which hash (`file`, `feature transformer`, `network`).
        section: &'static str,
        /// The hash read.
        found: u32,
        /// The hash expected.
        expected: u32,
    },
    /// The file holds an architecture Hayate does not evaluate (it takes HalfKP nets of the
    /// sizes in [`super::shape::KNOWN_SIZES`]).
    #[error(
        "{found}: Hayate evaluates HalfKP nets of the sizes public nets use only (architecture text {text:?})"
    )]
    UnsupportedArchitecture {
        /// What the file holds, as [`super::shape::identify`] tells it.
        found: String,
        /// The file's architecture text.
        text: String,
    },
    /// A supported net, but not of the shape asked for (a fixed-shape loader such as
    /// [`super::Nnue::load`]; [`super::AnyNnue`] takes every supported shape).
    #[error("{found}, where {expected} was asked for")]
    WrongShape {
        /// The file's shape.
        found: String,
        /// The shape asked for.
        expected: String,
    },
    /// The file is shorter than the architecture requires.
    #[error("truncated: {actual} bytes, the architecture needs {expected}")]
    Truncated {
        /// Bytes the architecture needs.
        expected: usize,
        /// Bytes in the file.
        actual: usize,
    },
    /// The file has bytes after the last layer.
    #[error("wrong size: {actual} bytes, the architecture needs exactly {expected}")]
    TrailingBytes {
        /// Bytes the architecture needs.
        expected: usize,
        /// Bytes in the file.
        actual: usize,
    },
}

/// An NNUE file that could not be loaded.
#[derive(Debug, thiserror::Error)]
#[error("NNUE file {}: {fault}", path.display())]
pub struct NnueError {
    /// The file (or `<memory>` for bytes).
    pub path: PathBuf,
    /// What is wrong with it.
    pub fault: NnueFault,
}

impl NnueError {
    /// Reads `path` whole and gives its bytes to `parse`; a read or parse fault names the file.
    pub(crate) fn read_with<T>(
        path: &std::path::Path,
        parse: impl FnOnce(&[u8]) -> Result<T, NnueFault>,
    ) -> Result<T, NnueError> {
        let fail = |fault| NnueError {
            path: path.to_path_buf(),
            fault,
        };
        let bytes = std::fs::read(path).map_err(|e| fail(NnueFault::Io(e)))?;
        parse(&bytes).map_err(fail)
    }
}
