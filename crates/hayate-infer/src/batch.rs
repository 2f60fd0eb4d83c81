//! One batch of network inputs (dlshogi's planes, or Novice's) and the outputs a backend writes
//! back: buffers allocated once and reused for every evaluation.

use crate::backend::BackendError;
use hayate_core::{Color, Position};
use hayate_nn::novice::{NOVICE_CHANNELS, NoviceConfig, write_novice_features};
use hayate_nn::prelude::{PRELUDE_TOKENS, prelude_tokens};
use hayate_nn::{DlshogiFeatures, INPUT1_PLANES, INPUT2_PLANES, LABEL_NUM};

/// Floats of one position's `input1` (`[62][9][9]`).
pub const INPUT1_LEN: usize = INPUT1_PLANES * 81;
/// Floats of one position's `input2` (`[57][9][9]`).
pub const INPUT2_LEN: usize = INPUT2_PLANES * 81;
/// Policy logits per position (dlshogi's 2187 labels).
pub const POLICY_LEN: usize = LABEL_NUM;

/// The inputs a network takes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Layout {
    /// dlshogi's `input1` (`[62][9][9]`) and `input2` (`[57][9][9]`).
    Dlshogi,
    /// Novice's one `input` (`[85][9][9]`, in `input1`), whose scalar channels carry the game's
    /// ply limit and draw scores.
    Novice(NoviceConfig),
    /// prelude's 95 token ids (in `input1`, as floats; the gMLP).
    Prelude,
}

impl Layout {
    /// Floats of one position's `input1`.
    pub fn input1_len(&self) -> usize {
        match self {
            Layout::Dlshogi => INPUT1_LEN,
            Layout::Novice(_) => NOVICE_CHANNELS * 81,
            Layout::Prelude => PRELUDE_TOKENS,
        }
    }

    /// Floats of one position's `input2` (none but for dlshogi's).
    pub fn input2_len(&self) -> usize {
        match self {
            Layout::Dlshogi => INPUT2_LEN,
            Layout::Novice(_) | Layout::Prelude => 0,
        }
    }
}

/// Inputs and outputs of one batched evaluation. Buffers are allocated once, for `capacity`
/// positions, and reused for every batch.
#[derive(Clone, Debug)]
pub struct Batch {
    capacity: usize,
    len: usize,
    layout: Layout,
    /// `input1` of each position, `len * layout.input1_len()` floats used.
    pub input1: Vec<f32>,
    /// `input2` of each position, `len * layout.input2_len()` floats used.
    pub input2: Vec<f32>,
    /// The value of a draw for each position's side to move (what a network with a
    /// win/draw/loss head needs to give one win probability).
    pub draw_value: Vec<f32>,
    /// Policy logits written by the backend, `len * POLICY_LEN` floats used.
    pub policy: Vec<f32>,
    /// Win probability for the side to move, written by the backend, `len` used.
    pub value: Vec<f32>,
}

impl Batch {
    /// Buffers for up to `capacity` positions (at least one) of dlshogi's inputs.
    pub fn new(capacity: usize) -> Batch {
        Batch::with_layout(capacity, Layout::Dlshogi)
    }

    /// Buffers for up to `capacity` positions (at least one) of `layout`'s inputs.
    pub fn with_layout(capacity: usize, layout: Layout) -> Batch {
        let capacity = capacity.max(1);
        Batch {
            capacity,
            len: 0,
            layout,
            input1: vec![0.0; capacity * layout.input1_len()],
            input2: vec![0.0; capacity * layout.input2_len()],
            draw_value: vec![0.5; capacity],
            policy: vec![0.0; capacity * POLICY_LEN],
            value: vec![0.0; capacity],
        }
    }

    /// The inputs this batch holds.
    pub fn layout(&self) -> Layout {
        self.layout
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
        let (n1, n2) = (self.layout.input1_len(), self.layout.input2_len());
        let input1 = &mut self.input1[i * n1..(i + 1) * n1];
        match &self.layout {
            Layout::Dlshogi => {
                let f = DlshogiFeatures::new(pos, false);
                f.write_input1(input1);
                f.write_input2(&mut self.input2[i * n2..(i + 1) * n2]);
            }
            Layout::Prelude => {
                for (x, t) in input1.iter_mut().zip(prelude_tokens(pos)) {
                    *x = f32::from(t);
                }
            }
            Layout::Novice(cfg) => {
                write_novice_features(pos, cfg, input1);
                self.draw_value[i] = match pos.side_to_move() {
                    Color::Black => cfg.draw_score_black,
                    Color::White => cfg.draw_score_white,
                };
            }
        }
        self.len += 1;
        Some(i)
    }

    /// Queues one position given by its raw features (`input1_len()` floats of `input1`,
    /// `input2_len()` of `input2` for the batch's layout, as [`Batch::push`] writes them) and
    /// returns its index, or `None` when the batch is full or a slice has the wrong length.
    pub fn push_features(&mut self, input1: &[f32], input2: &[f32]) -> Option<usize> {
        let (n1, n2) = (self.layout.input1_len(), self.layout.input2_len());
        if self.is_full() || input1.len() != n1 || input2.len() != n2 {
            return None;
        }
        let i = self.len;
        self.input1
            .get_mut(i * n1..(i + 1) * n1)?
            .copy_from_slice(input1);
        self.input2
            .get_mut(i * n2..(i + 1) * n2)?
            .copy_from_slice(input2);
        self.len += 1;
        Some(i)
    }

    /// The `input1` floats of the queued positions.
    pub fn input1_used(&self) -> &[f32] {
        &self.input1[..self.len * self.layout.input1_len()]
    }

    /// The `input2` floats of the queued positions.
    pub fn input2_used(&self) -> &[f32] {
        &self.input2[..self.len * self.layout.input2_len()]
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

    #[test]
    fn a_novice_batch_holds_85_channels_and_the_movers_draw_value() {
        let cfg = NoviceConfig {
            max_plies: 256,
            draw_score_black: 0.3,
            draw_score_white: 0.7,
        };
        let mut batch = Batch::with_layout(2, Layout::Novice(cfg));
        let mut pos = Position::startpos();
        batch.push(&pos);
        let mv = pos.parse_usi_move("7g7f").expect("legal");
        pos.do_move(mv);
        batch.push(&pos);
        assert_eq!(batch.input1_used().len(), 2 * NOVICE_CHANNELS * 81);
        assert!(batch.input2_used().is_empty());
        assert_eq!(&batch.draw_value[..2], &[0.3, 0.7]);
        let mut expected = vec![0.0; NOVICE_CHANNELS * 81];
        write_novice_features(&pos, &cfg, &mut expected);
        assert_eq!(&batch.input1_used()[NOVICE_CHANNELS * 81..], &expected[..]);
        // Raw features of the other layout do not fit.
        assert_eq!(
            batch.push_features(&vec![0.0; INPUT1_LEN], &vec![0.0; INPUT2_LEN]),
            None
        );
    }
}
