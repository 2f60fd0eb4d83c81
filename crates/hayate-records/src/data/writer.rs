//! Buffered writer of whole records.

use super::reader::Record;
use std::io::{self, BufWriter, Write};

/// Writes records through a buffer, each with a single `write_all`.
///
/// What a crash leaves: the buffer only ever holds whole records, and a record that does not fit
/// in what is left of it first flushes the buffer, so every flush hands the operating system
/// whole records. A process that dies loses at most the records still buffered, and the file
/// ends on a record boundary (as long as the OS completes each `write`, as it does for regular
/// files). A power cut may still leave a partial tail; the readers report it as
/// [`crate::RecordErrorKind::Truncated`] at its offset after every whole record before it.
/// Call [`RecordWriter::finish`] to flush and see errors: dropping the writer flushes but
/// ignores them.
pub struct RecordWriter<W: Write> {
    inner: BufWriter<W>,
    scratch: Vec<u8>,
    records: u64,
    bytes: u64,
}

impl<W: Write> RecordWriter<W> {
    /// A writer with a 1 MiB buffer.
    pub fn new(inner: W) -> Self {
        RecordWriter {
            inner: BufWriter::with_capacity(1 << 20, inner),
            scratch: Vec::with_capacity(64),
            records: 0,
            bytes: 0,
        }
    }

    /// Writes one whole record.
    ///
    /// # Errors
    /// The underlying writer's error.
    pub fn write<T: Record + ?Sized>(&mut self, record: &T) -> io::Result<()> {
        self.scratch.clear();
        record.encode(&mut self.scratch);
        self.inner.write_all(&self.scratch)?;
        self.records += 1;
        self.bytes += self.scratch.len() as u64;
        Ok(())
    }

    /// Records written so far.
    pub fn records(&self) -> u64 {
        self.records
    }

    /// Bytes written so far.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Flushes the buffer to the underlying writer.
    ///
    /// # Errors
    /// The underlying writer's error.
    pub fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }

    /// Flushes and returns the underlying writer.
    ///
    /// # Errors
    /// The underlying writer's error.
    pub fn finish(self) -> io::Result<W> {
        self.inner.into_inner().map_err(|e| e.into_error())
    }
}
