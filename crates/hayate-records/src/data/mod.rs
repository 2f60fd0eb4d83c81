//! Training data: packed positions (hcp, PackedSfen), the two 16-bit move encodings, the hcpe,
//! hcpe3 and psv records, and streaming readers and writers.

pub(crate) mod bits;
pub mod error;
pub mod format;
pub mod hcp;
pub mod hcpe;
pub mod hcpe3;
pub mod huffman;
pub mod move16;
pub mod psv;
pub mod raw;
pub mod reader;
pub mod writer;
