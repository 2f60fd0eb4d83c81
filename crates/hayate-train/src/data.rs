//! Training data held in memory, read in a deterministic shuffled order so that a resumed run
//! sees exactly the batches an uninterrupted run would have seen.
//!
//! Step `s` of an epoch of `n / batch` steps reads batch `s mod (n / batch)` of epoch
//! `s / (n / batch)`; each epoch is a Fisher-Yates permutation seeded by `(seed, epoch)`. The
//! last partial batch of an epoch is dropped.

use crate::error::TrainError;
use hayate_nn::dataset::{
    Batch, BatchConfig, Sample, SampleFormat, SampleOptions, fill_batch_into, open_samples,
};
use std::path::Path;

/// Samples in memory.
#[derive(Clone, Debug, Default)]
pub struct TrainData {
    /// The samples, in file order.
    pub samples: Vec<Sample>,
    /// Records that could not be read (reported and skipped).
    pub corrupt: u64,
    /// Files whose evals are all 0 (many floodgate conversions carry none): their value
    /// targets are the game results, so the eval term of the loss does not pull them to 0.5.
    pub without_evals: Vec<std::path::PathBuf>,
}

/// When every sample's eval is 0 (value target exactly 0.5), takes the game result as the
/// value target instead and returns `true`; otherwise changes nothing.
fn results_for_missing_evals(samples: &mut [Sample]) -> bool {
    if samples.is_empty() || samples.iter().any(|s| s.value != 0.5) {
        return false;
    }
    for s in samples.iter_mut() {
        s.value = s.result;
    }
    true
}

/// SplitMix64 step, the permutation's generator.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl TrainData {
    /// Wraps samples.
    pub fn new(samples: Vec<Sample>) -> TrainData {
        TrainData {
            samples,
            ..TrainData::default()
        }
    }

    /// Reads every sample of the hcpe/hcpe3 files (format detected per file). Corrupt records
    /// are counted in [`TrainData::corrupt`] and skipped.
    ///
    /// # Errors
    /// When a file cannot be opened or its format not detected.
    pub fn load(paths: &[impl AsRef<Path>], opts: SampleOptions) -> Result<TrainData, TrainError> {
        let mut data = TrainData::default();
        for p in paths {
            let p = p.as_ref();
            let format = SampleFormat::detect(p)?;
            let first = data.samples.len();
            for s in open_samples(p, format, opts)? {
                match s {
                    Ok(s) => data.samples.push(s),
                    Err(_) => data.corrupt += 1,
                }
            }
            if results_for_missing_evals(&mut data.samples[first..]) {
                data.without_evals.push(p.to_path_buf());
            }
        }
        Ok(data)
    }

    /// Splits off the last `fraction` of the samples (in a seeded shuffled order) as validation.
    pub fn split_validation(mut self, fraction: f64, seed: u64) -> (TrainData, TrainData) {
        let order = permutation(self.samples.len(), seed ^ 0x5641_4C49_4441_5445);
        let n_val = ((self.samples.len() as f64) * fraction.clamp(0.0, 1.0)).round() as usize;
        let mut slots: Vec<Option<Sample>> = self.samples.drain(..).map(Some).collect();
        let mut take = |i: usize| slots[i].take();
        let train: Vec<Sample> = order[n_val..].iter().filter_map(|&i| take(i)).collect();
        let val: Vec<Sample> = order[..n_val].iter().filter_map(|&i| take(i)).collect();
        (
            TrainData {
                samples: train,
                corrupt: self.corrupt,
                without_evals: self.without_evals,
            },
            TrainData::new(val),
        )
    }

    /// Full batches per epoch.
    pub fn batches_per_epoch(&self, batch_size: usize) -> usize {
        self.samples.len() / batch_size.max(1)
    }

    /// Expands the batch of `step` into `out` (order in the module doc), reusing `scratch`.
    pub fn batch_for_step(
        &self,
        step: u64,
        cfg: &BatchConfig,
        seed: u64,
        order: &mut EpochOrder,
        scratch: &mut Vec<Sample>,
        out: &mut Batch,
    ) {
        let indices = order.batch(self.samples.len(), cfg.batch_size, seed, step);
        scratch.clear();
        scratch.extend(indices.iter().map(|&i| self.samples[i].clone()));
        fill_batch_into(scratch, cfg, out);
    }

    /// The validation batches, in file order.
    pub fn chunks(&self, batch_size: usize) -> impl Iterator<Item = &[Sample]> {
        self.samples.chunks(batch_size.max(1))
    }
}

/// The cached permutation of the current epoch.
#[derive(Clone, Debug, Default)]
pub struct EpochOrder {
    epoch: Option<u64>,
    perm: Vec<usize>,
}

impl EpochOrder {
    /// The sample indices of the batch of `step` over `n` samples (order in the module doc):
    /// epoch `step / (n / batch)`, batch `step mod (n / batch)` of that epoch's permutation.
    pub fn batch(&mut self, n: usize, batch: usize, seed: u64, step: u64) -> &[usize] {
        let per_epoch = (n / batch.max(1)).max(1) as u64;
        let epoch = step / per_epoch;
        let index = (step % per_epoch) as usize;
        if self.epoch != Some(epoch) {
            self.perm = permutation(n, seed.wrapping_add(epoch));
            self.epoch = Some(epoch);
        }
        let start = (index * batch).min(self.perm.len());
        let end = (start + batch).min(self.perm.len());
        &self.perm[start..end]
    }
}

/// A seeded Fisher-Yates permutation of `0..n`.
pub fn permutation(n: usize, seed: u64) -> Vec<usize> {
    let mut state = seed;
    let mut p: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        let j = (splitmix(&mut state) % (i as u64 + 1)) as usize;
        p.swap(i, j);
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    fn samples(values: &[f32]) -> Vec<Sample> {
        let data = crate::synthetic::random_games(values.len(), 1);
        data.samples
            .into_iter()
            .zip(values)
            .map(|(s, &v)| Sample { value: v, ..s })
            .collect()
    }

    #[test]
    fn data_without_evals_takes_the_game_results_as_values() {
        let mut none = samples(&[0.5, 0.5, 0.5]);
        assert!(results_for_missing_evals(&mut none));
        assert!(none.iter().all(|s| s.value == s.result));
        let mut some = samples(&[0.5, 0.7, 0.5]);
        assert!(!results_for_missing_evals(&mut some));
        assert_eq!(some[1].value, 0.7);
        assert!(!results_for_missing_evals(&mut []));
    }
}
