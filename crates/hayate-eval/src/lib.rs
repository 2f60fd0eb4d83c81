#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

pub mod effect;
pub mod kind;
pub mod kkpee9;
mod kkpee9_table;
pub mod material;
pub mod nnue;
pub mod simd;

pub use kind::{EvalKind, LoadedEval, UnknownEval};
pub use kkpee9::{EffectUpdate, Kkpee9, Kkpee9Stack};
pub use material::Material;
pub use nnue::{AnyNnue, Nnue, NnueError, NnueOf, NnueStack};
pub use simd::Isa;

use hayate_core::{Bitboard, Color, Move, Position};

/// A static evaluation with optional incremental state.
///
/// The searcher calls [`Evaluator::reset`] at the root, [`Evaluator::push`] right after each
/// `do_move` (with the position after the move), [`Evaluator::pop`] after each `undo_move`, and
/// [`Evaluator::evaluate`] whenever it needs a score; [`Evaluator::prepare`] before each
/// `do_move`, for evaluators that update lazily.
pub trait Evaluator: Send + Sync + 'static {
    /// Per-thread incremental state.
    type Stack: Send;
    /// A short name (`material`, `kkpee9`, `nnue`).
    fn name(&self) -> &'static str;
    /// A fresh stack.
    fn new_stack(&self) -> Self::Stack;
    /// Drops all frames and builds the root frame for `pos`.
    fn reset(&self, stack: &mut Self::Stack, pos: &Position);
    /// `pos` has just played `m` (it is the position after the move).
    fn push(&self, stack: &mut Self::Stack, pos: &Position, m: Move);
    /// A null move was played (`pos` is the position after it).
    fn push_null(&self, stack: &mut Self::Stack, pos: &Position);
    /// The last pushed move was taken back.
    fn pop(&self, stack: &mut Self::Stack);
    /// The evaluation of `pos` (the position of the top frame) from the side to move's view.
    fn evaluate(&self, stack: &mut Self::Stack, pos: &Position) -> i32;
    /// `pos` (the position of the top frame) is about to get a child: an evaluator that
    /// updates lazily brings the top frame up to date now, while `pos` is at hand. The default
    /// does nothing.
    #[inline]
    fn prepare(&self, _stack: &mut Self::Stack, _pos: &Position) {}
    /// The squares that colour `c` attacks in `pos` (the position of the top frame), for an
    /// evaluator that keeps effect counts anyway (KKPEE9); `None` from the others (the
    /// default). May bring the top frame up to date, as [`Evaluator::evaluate`] would.
    #[inline]
    fn attacked(&self, _stack: &mut Self::Stack, _pos: &Position, _c: Color) -> Option<Bitboard> {
        None
    }

    /// One-off evaluation without a search (builds a stack each call: for tools and tests).
    fn evaluate_once(&self, pos: &Position) -> i32 {
        let mut s = self.new_stack();
        self.reset(&mut s, pos);
        self.evaluate(&mut s, pos)
    }
}
