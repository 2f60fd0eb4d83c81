//! One batch of dlshogi inputs and the outputs a backend writes back: buffers allocated once
//! and reused for every evaluation.

use crate::backend::BackendError;
use hayate_core::Position;
use hayate_nn::{DlshogiFeatures, INPUT1_PLANES, INPUT2_PLANES, LABEL_NUM};

/// Floats of one position's `input1` (`[62][9][9]`).
pub const INPUT1_LEN: usize = INPUT1_PLANES * 81;
/// Floats of one position's `input2` (`[57][9][9]`).
pub const INPUT2_LEN: usize = INPUT2_PLANES * 81;
/// Policy logits per position (dlshogi's 2187 labels).
pub const POLICY_LEN: usize = LABEL_NUM;

/// Inputs and outputs of one batched evaluation. Buffers are allocated once, for `capacity`
/// positions, and reused for every batch.
#[derive(Clone, Debug)]
pub struct Batch {
    capacity: usize,
    len: usize,
    /// `input1` of each position, `len * INPUT1_LEN` floats used.
    pub input1: Vec<f32>,
    /// `input2` of each position, `len * INPUT2_LEN` floats used.
    pub input2: Vec<f32>,
    /// Policy logits written by the backend, `len * POLICY_LEN` floats used.
    pub policy: Vec<f32>,
    /// Win probability for the side to move, written by the backend, `len` used.
    pub value: Vec<f32>,
}

impl Batch {
    /// Buffers for up to `capacity` positions (at least one).
    pub fn new(capacity: usize) -> Batch {
        let capacity = capacity.max(1);
        Batch {
            capacity,
            len: 0,
            input1: vec![0.0; capacity * INPUT1_LEN],
            input2: vec![0.0; capacity * INPUT2_LEN],
            policy: vec![0.0; capacity * POLICY_LEN],
            value: vec![0.0; capacity],
        }
    }

    /// How many positions fit.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// How many positions are queued.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no position is queued.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether no more positions fit.
    pub fn is_full(&self) -> bool {
        self.len == self.capacity
    }

    /// Forgets the queued positions (the buffers stay).
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Queues `pos` and returns its index, or `None` when the batch is full.
    pub fn push(&mut self, pos: &Position) -> Option<usize> {
        if self.is_full() {
            return None;
        }
        let i = self.len;
        let f = DlshogiFeatures::new(pos, false);
        f.write_input1(&mut self.input1[i * INPUT1_LEN..(i + 1) * INPUT1_LEN]);
        f.write_input2(&mut self.input2[i * INPUT2_LEN..(i + 1) * INPUT2_LEN]);
        self.len += 1;
        Some(i)
    }

    /// Queues one position given by its raw features (`INPUT1_LEN` floats of `input1`,
    /// `INPUT2_LEN` of `input2`, as [`Batch::push`] writes them) and returns its index, or
    /// `None` when the batch is full or a slice has the wrong length.
    pub fn push_features(&mut self, input1: &[f32], input2: &[f32]) -> Option<usize> {
        if self.is_full() || input1.len() != INPUT1_LEN || input2.len() != INPUT2_LEN {
            return None;
        }
        let i = self.len;
        self.input1
            .get_mut(i * INPUT1_LEN..(i + 1) * INPUT1_LEN)?
            .copy_from_slice(input1);
        self.input2
            .get_mut(i * INPUT2_LEN..(i + 1) * INPUT2_LEN)?
            .copy_from_slice(input2);
        self.len += 1;
        Some(i)
    }

    /// The `input1` floats of the queued positions.
    pub fn input1_used(&self) -> &[f32] {
        &self.input1[..self.len * INPUT1_LEN]
    }

    /// The `input2` floats of the queued positions.
    pub fn input2_used(&self) -> &[f32] {
        &self.input2[..self.len * INPUT2_LEN]
    }

    /// The policy logits of position `i` (valid after evaluation).
    pub fn policy_of(&self, i: usize) -> &[f32] {
        &self.policy[i * POLICY_LEN..(i + 1) * POLICY_LEN]
    }

    /// The value of position `i` (valid after evaluation).
    pub fn value_of(&self, i: usize) -> f32 {
        self.value[i]
    }
}

/// Copies a network's outputs (`policy` logits, `value`s) into the batch's buffers, which must
/// be the same sizes.
///
/// # Errors
/// [`BackendError::Run`] when the sizes differ (a network with other outputs).
pub fn copy_outputs(
    (policy, value): (&[f32], &[f32]),
    (policy_out, value_out): (&mut [f32], &mut [f32]),
) -> Result<(), BackendError> {
    if policy.len() != policy_out.len() || value.len() != value_out.len() {
        return Err(BackendError::Run(format!(
            "output sizes {} and {}, expected {} and {}",
            policy.len(),
            value.len(),
            policy_out.len(),
            value_out.len()
        )));
    }
    policy_out.copy_from_slice(policy);
    value_out.copy_from_slice(value);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn push_features_queues_the_same_inputs_as_push() {
        let mut by_position = Batch::new(2);
        by_position.push(&Position::startpos());
        let mut by_features = Batch::new(2);
        let index = by_features.push_features(by_position.input1_used(), by_position.input2_used());
        assert_eq!(index, Some(0));
        assert_eq!(by_features.input1_used(), by_position.input1_used());
        assert_eq!(by_features.input2_used(), by_position.input2_used());
    }

    #[test]
    fn push_features_refuses_a_full_batch_and_wrong_lengths() {
        let mut batch = Batch::new(1);
        let (in1, in2) = (vec![0.0; INPUT1_LEN], vec![0.0; INPUT2_LEN]);
        assert_eq!(batch.push_features(&in1[1..], &in2), None);
        assert_eq!(batch.push_features(&in1, &in2[1..]), None);
        assert_eq!(batch.push_features(&in1, &in2), Some(0));
        assert_eq!(batch.push_features(&in1, &in2), None);
        assert_eq!(batch.len(), 1);
    }
}
