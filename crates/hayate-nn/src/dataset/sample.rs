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

/// What Novice's inputs and value target need of the game a sample comes from, when its
/// self-play sidecar says (see `hayate-selfplay`'s `GameMeta`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NoviceGame {
    /// The game's draw scores and ply limit, as the network's inputs.
    pub config: crate::novice::NoviceConfig,
    /// The result as scored under those draw scores (a draw that counted as a win is that win),
    /// for the side to move: 1, 0 or 0.5.
    pub scored: f32,
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
    /// The game's Novice settings, when the data has them (self-play hcpe3 with a sidecar).
    pub novice: Option<NoviceGame>,
}
