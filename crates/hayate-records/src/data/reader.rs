//! Streaming readers of fixed-size records (hcpe, psv, raw hcp).

use super::error::{ErrorPolicy, RecordError, RecordErrorKind};
use std::io::{self, Read};

/// A record that can be written: appends its exact bytes.
pub trait Record {
    /// Appends the record's bytes to `out`.
    fn encode(&self, out: &mut Vec<u8>);
}

/// A record of fixed size.
pub trait FixedRecord: Record + Sized {
    /// Bytes per record.
    const SIZE: usize;
    /// Parses exactly `SIZE` bytes (the caller guarantees the length).
    ///
    /// # Errors
    /// What makes the bytes no valid record.
    fn parse(bytes: &[u8]) -> Result<Self, RecordErrorKind>;
}

/// Fills `buf` as far as the reader allows; returns the bytes read (less than `buf.len()` only
/// at the end of the data).
pub(crate) fn read_full<R: Read>(r: &mut R, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// How many rejected records' errors a reader keeps (the count goes on).
pub const KEPT_ERRORS: usize = 16;

/// Reads records of type `T` one by one from any reader (wrap files in a `BufReader`).
///
/// It yields `Ok(record)` per valid record. A corrupt record (bad position or field) is
/// yielded as `Err` and ends the stream under [`ErrorPolicy::Stop`], or is counted and skipped
/// under [`ErrorPolicy::Skip`]. Read failures and a partial record at the end are always
/// yielded as `Err` and end the stream.
///
/// ```
/// use hayate_records::{FixedReader, Hcpe, ErrorPolicy};
/// let bytes: &[u8] = &[];
/// let mut reader = FixedReader::<_, Hcpe>::new(bytes, ErrorPolicy::Skip);
/// assert!(reader.next().is_none());
/// ```
pub struct FixedReader<R, T> {
    inner: R,
    policy: ErrorPolicy,
    offset: u64,
    done: bool,
    rejected: u64,
    errors: Vec<RecordError>,
    buf: Vec<u8>,
    _t: std::marker::PhantomData<fn() -> T>,
}

impl<R: Read, T: FixedRecord> FixedReader<R, T> {
    /// A reader over `inner` with the given policy for corrupt records.
    pub fn new(inner: R, policy: ErrorPolicy) -> Self {
        FixedReader {
            inner,
            policy,
            offset: 0,
            done: false,
            rejected: 0,
            errors: Vec::new(),
            buf: vec![0; T::SIZE],
            _t: std::marker::PhantomData,
        }
    }

    /// Bytes consumed so far.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// How many corrupt records were skipped under [`ErrorPolicy::Skip`].
    pub fn rejected(&self) -> u64 {
        self.rejected
    }

    /// The errors of the first [`KEPT_ERRORS`] skipped records.
    pub fn rejected_errors(&self) -> &[RecordError] {
        &self.errors
    }
}

impl<R: Read, T: FixedRecord> Iterator for FixedReader<R, T> {
    type Item = Result<T, RecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if self.done {
                return None;
            }
            let offset = self.offset;
            let fail = |kind| Some(Err(RecordError { offset, kind }));
            let n = match read_full(&mut self.inner, &mut self.buf) {
                Ok(n) => n,
                Err(e) => {
                    self.done = true;
                    return fail(RecordErrorKind::Io(e));
                }
            };
            if n == 0 {
                self.done = true;
                return None;
            }
            self.offset += n as u64;
            if n < T::SIZE {
                self.done = true;
                return fail(RecordErrorKind::Truncated {
                    got: n,
                    need: T::SIZE,
                });
            }
            match T::parse(&self.buf) {
                Ok(r) => return Some(Ok(r)),
                Err(kind) => match self.policy {
                    ErrorPolicy::Stop => {
                        self.done = true;
                        return fail(kind);
                    }
                    ErrorPolicy::Skip => {
                        self.rejected += 1;
                        if self.errors.len() < KEPT_ERRORS {
                            self.errors.push(RecordError { offset, kind });
                        }
                    }
                },
            }
        }
    }
}
