//! Training datasets over dlshogi's hcpe and hcpe3 files (readers from `hayate-records`).
//!
//! The pipeline: [`source`] turns records into [`Sample`]s (packed position + targets),
//! optionally [`average`] merges duplicate positions, [`shuffle`] mixes them in a bounded
//! buffer, and [`batch`] expands them into `f32` batches on worker threads. [`stats`] summarises
//! files for `hayate dataset stats`.

pub mod average;
pub mod batch;
pub mod decode;
pub mod error;
pub mod sample;
pub mod shuffle;
pub mod source;
pub mod stats;

pub use average::average_duplicates;
pub use batch::{Batch, BatchConfig, BatchLoader, InputKind, fill_batch, fill_batch_into};
pub use error::DatasetError;
pub use sample::{EVAL_COEF, NoviceGame, Sample, result_value, score_to_value};
pub use shuffle::ShuffleBuffer;
pub use source::{
    SampleFormat, SampleOptions, Samples, SidecarGame, open_samples, read_sidecar, sidecar_path,
};
pub use stats::DatasetStats;
