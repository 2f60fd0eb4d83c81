//! Backends without a network, for tests and for the plumbing: [`UniformBackend`] (every move
//! equally likely, every position even) and [`RandomBackend`] (a fixed pseudo-random function of
//! the input, like lc0's `random` network).

use crate::backend::{Backend, BackendError};
use crate::batch::{Batch, INPUT1_LEN, INPUT2_LEN, POLICY_LEN};

/// Zero logits and a value of 0.5 for every position.
#[derive(Clone, Copy, Debug, Default)]
pub struct UniformBackend;

impl Backend for UniformBackend {
    fn name(&self) -> String {
        "uniform".to_string()
    }

    fn evaluate(&mut self, batch: &mut Batch) -> Result<(), BackendError> {
        let n = batch.len();
        batch.policy[..n * POLICY_LEN].fill(0.0);
        batch.value[..n].fill(0.5);
        Ok(())
    }
}

/// Logits and values drawn from a generator seeded by a hash of the input features and `seed`:
/// the same position always gets the same answer, different positions look unrelated.
#[derive(Clone, Copy, Debug)]
pub struct RandomBackend {
    seed: u64,
}

impl RandomBackend {
    /// A random network with this seed.
    pub fn new(seed: u64) -> RandomBackend {
        RandomBackend { seed }
    }
}

/// splitmix64: a small, good-enough generator for test outputs.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A uniform float in `[0, 1)` from the top 24 bits.
fn unit(state: &mut u64) -> f32 {
    (splitmix(state) >> 40) as f32 / (1u64 << 24) as f32
}

impl Backend for RandomBackend {
    fn name(&self) -> String {
        format!("random (seed {})", self.seed)
    }

    fn evaluate(&mut self, batch: &mut Batch) -> Result<(), BackendError> {
        for i in 0..batch.len() {
            let mut h = self.seed ^ 0xCBF2_9CE4_8422_2325;
            let in1 = &batch.input1[i * INPUT1_LEN..(i + 1) * INPUT1_LEN];
            let in2 = &batch.input2[i * INPUT2_LEN..(i + 1) * INPUT2_LEN];
            for (k, &x) in in1.iter().chain(in2.iter().step_by(81)).enumerate() {
                if x != 0.0 {
                    h = (h ^ k as u64).wrapping_mul(0x0000_0100_0000_01B3);
                }
            }
            let mut state = h;
            for p in &mut batch.policy[i * POLICY_LEN..(i + 1) * POLICY_LEN] {
                // Logits in [-2, 2): priors spread over a factor of ~50, like a weak real net.
                *p = 4.0 * unit(&mut state) - 2.0;
            }
            batch.value[i] = 0.1 + 0.8 * unit(&mut state);
        }
        Ok(())
    }
}
