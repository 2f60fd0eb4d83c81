//! One training sample: a packed position and its targets.

use hayate_core::Color;
use hayate_records::{GameResult, Hcp};

/// dlshogi's eval-to-probability scale (from elmo): `value = sigmoid(eval / 756.0865)`.
pub const EVAL_COEF: f32 = 756.086_5;

/// `sigmoid(eval / coef)`: the win probability an evaluation stands for.
#[inline]
pub fn score_to_value(eval: f32, coef: f32) -> f32 {
    1.0 / (1.0 + (-eval / coef).exp())
}

/// The game result from `side`'s view: 1 win, 0 loss, 0.5 draw.
#[inline]
pub fn result_value(result: GameResult, side: Color) -> f32 {
    match (result, side) {
        (GameResult::Draw, _) => 0.5,
        (GameResult::BlackWin, Color::Black) | (GameResult::WhiteWin, Color::White) => 1.0,
        _ => 0.0,
    }
}

/// A training sample. The position stays packed (32 bytes) until a batch worker expands it.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The position (side to move included).
    pub hcp: Hcp,
    /// SFEN move number of the position, 0 when the source does not say (hcpe).
    pub ply: u16,
    /// Policy target: (dlshogi label, probability) pairs summing to 1, labels distinct.
    pub policy: Vec<(u16, f32)>,
    /// Value target from the evaluation, for the side to move.
    pub value: f32,
    /// Game result for the side to move (1, 0 or 0.5).
    pub result: f32,
}
