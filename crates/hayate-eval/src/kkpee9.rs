//! KKPEE9: material plus, for every square, a lookup by both king squares, the square, both
//! colours' effect counts on it (capped at 2) and the piece on it (YaneuraOu's "make an
//! evaluation function" part 7). It needs no file, which makes it the default evaluation.

use crate::Evaluator;
use crate::effect::{CappedEffects, EffectCounts};
use crate::kkpee9_table::{self, KING_PAIR_BLOCK, ROW};
use crate::material::{material_black, material_delta};
use hayate_core::{Bitboard, Color, Move, Piece, PieceType, Position, Square};
use std::sync::Arc;

/// When the effect counts (and the table sum) are brought up to date.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EffectUpdate {
    /// `push` only updates material; `evaluate` computes the effects and sums all 81 squares.
    AtEvaluation,
    /// The first `evaluate` of a frame (or [`Evaluator::prepare`] before its first child)
    /// updates the parent's effect counts by the attack sets the move changed, and the
    /// parent's table sum for the squares whose capped count or piece changed (all 81 only
    /// when a king moved); later ones are a lookup. A node that is never evaluated and has no
    /// child (a TT cutoff, say) costs only its material.
    Incremental,
}

/// The KKPEE9 evaluation. Cloning is cheap: the 9.6 MB table is shared behind an [`Arc`].
#[derive(Clone)]
pub struct Kkpee9 {
    /// Packed scores (see [`kkpee9_table`]); `Arc<Box<..>>` rather than `Arc<[i16]>`:
    /// converting the built box into an `Arc<[i16]>` would copy it.
    table: Arc<Box<[i16]>>,
    /// The piece term of each piece code.
    terms: [i32; Piece::NUM],
    update: EffectUpdate,
}

impl std::fmt::Debug for Kkpee9 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Kkpee9")
            .field("entries", &self.table.len())
            .field("update", &self.update)
            .finish()
    }
}

/// One ply of KKPEE9 state.
#[derive(Clone, Copy, Debug)]
struct Frame {
    /// Material from Black's view.
    material: i32,
    /// The table sum from Black's view (kept only with [`EffectUpdate::Incremental`]).
    table_sum: i32,
    /// Effect counts of the position (kept only with [`EffectUpdate::Incremental`]).
    counts: EffectCounts,
    /// The move that led here (`Move::NONE` at the root and after a null move).
    mv: Move,
    /// Whether `table_sum` and `counts` are computed.
    ready: bool,
}

/// Per-thread KKPEE9 state: one frame per ply, allocated up front.
#[derive(Debug)]
pub struct Kkpee9Stack {
    frames: Vec<Frame>,
}

impl Default for Kkpee9 {
    fn default() -> Self {
        Self::new()
    }
}

impl Kkpee9 {
    /// Builds the table on every available core (a fraction of a second on two cores) with the
    /// faster update policy, [`EffectUpdate::Incremental`]. Call it once (at `isready`) and
    /// clone the result for each search thread.
    pub fn new() -> Kkpee9 {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        Kkpee9::with_threads(threads, EffectUpdate::Incremental)
    }

    /// Builds the table on `threads` threads with the given update policy.
    pub fn with_threads(threads: usize, update: EffectUpdate) -> Kkpee9 {
        Kkpee9 {
            table: Arc::new(kkpee9_table::build(threads)),
            terms: kkpee9_table::piece_terms(),
            update,
        }
    }

    /// The same table with another update policy (shares the table).
    pub fn with_update(&self, update: EffectUpdate) -> Kkpee9 {
        Kkpee9 {
            table: Arc::clone(&self.table),
            terms: self.terms,
            update,
        }
    }

    /// The update policy.
    pub fn update(&self) -> EffectUpdate {
        self.update
    }

    /// The raw entry `KKPEE[kb][kw][sq][m1][m2][pc]`.
    ///
    /// # Panics
    /// If an index is out of range (`kb`, `kw`, `sq` < 81, `m1`, `m2` < 3, `pc` < 32).
    pub fn entry(&self, kb: usize, kw: usize, sq: usize, m1: usize, m2: usize, pc: usize) -> i16 {
        assert!(kb < 81 && kw < 81 && sq < 81 && m1 < 3 && m2 < 3 && pc < 32);
        let packed = self.table[(kb * 81 + kw) * KING_PAIR_BLOCK + sq * ROW + m1 * 3 + m2];
        kkpee9_table::entry(packed, self.terms[pc]) as i16
    }

    /// The block of both kings' squares, or `None` when a king is missing (mate problems):
    /// the table term is then 0.
    #[inline(always)]
    fn king_block(&self, pos: &Position) -> Option<&[i16]> {
        let kb = pos.king_square(Color::Black)?.index();
        let kw = pos.king_square(Color::White)?.index();
        let start = (kb * Square::NUM + kw) * KING_PAIR_BLOCK;
        self.table.get(start..start + KING_PAIR_BLOCK)
    }

    /// Σ over all squares of the table entries (Black's view).
    #[inline]
    fn full_sum(&self, pos: &Position, e: &CappedEffects) -> i32 {
        let Some(block) = self.king_block(pos) else {
            return 0;
        };
        let board = pos.board();
        let mut s = 0;
        for (half, first, last) in [(0, 0, 64), (1, 64, Square::NUM)] {
            let w = Words::of(e, half);
            for (i, pc) in board[first..last].iter().enumerate() {
                let at = (first + i) * ROW + w.cell(i as u32);
                s += kkpee9_table::entry(block[at], self.terms[pc.index()]);
            }
        }
        s
    }

    /// The evaluation of `pos` from Black's view, computed from scratch.
    pub fn evaluate_black(&self, pos: &Position) -> i32 {
        material_black(pos) + self.full_sum(pos, &CappedEffects::compute(pos))
    }

    fn root_frame(&self, pos: &Position) -> Frame {
        let counts = EffectCounts::compute(pos);
        Frame {
            material: material_black(pos),
            table_sum: self.full_sum(pos, &counts.capped()),
            counts,
            mv: Move::NONE,
            ready: true,
        }
    }

    /// The top frame with its effect counts and table sum, computed now if they are not yet:
    /// from the parent's when that one is ready, otherwise from scratch.
    #[inline]
    fn ready_top<'a>(&self, stack: &'a mut Kkpee9Stack, pos: &Position) -> Option<&'a Frame> {
        let n = stack.frames.len();
        if !stack.frames.last()?.ready {
            let top = &stack.frames[n - 1];
            let (counts, table_sum) = match n.checked_sub(2).map(|i| &stack.frames[i]) {
                Some(parent) if parent.ready && top.mv.is_some() => {
                    let counts = parent.counts.after_move(pos, top.mv);
                    let sum = self.updated_sum(parent, &counts.capped(), pos, top.mv);
                    (counts, sum)
                }
                _ => {
                    let counts = EffectCounts::compute(pos);
                    (counts, self.full_sum(pos, &counts.capped()))
                }
            };
            let top = &mut stack.frames[n - 1];
            (top.table_sum, top.counts, top.ready) = (table_sum, counts, true);
        }
        stack.frames.last()
    }

    /// The incremental table sum after `m`, from the parent frame's sum and effects.
    #[inline]
    fn updated_sum(&self, parent: &Frame, effects: &CappedEffects, pos: &Position, m: Move) -> i32 {
        if m.moved_piece().piece_type() == PieceType::KING {
            return self.full_sum(pos, effects);
        }
        let Some(block) = self.king_block(pos) else {
            return 0;
        };
        let to = m.to();
        let before = parent.counts.capped();
        let mut changed = effects.changed(&before);
        changed.set(to);
        let from = if m.is_drop() {
            None
        } else {
            changed.set(m.from());
            Some(m.from())
        };
        let mut s = parent.table_sum;
        for half in 0..2 {
            let (was_w, now_w) = (Words::of(&before, half), Words::of(effects, half));
            let mut bits = (changed.0 >> (64 * half)) as u64;
            while bits != 0 {
                let i = bits.trailing_zeros();
                bits &= bits - 1;
                let sq = Square::new((64 * half + i as usize) as u8);
                let now = pos.piece_on(sq);
                let was = if Some(sq) == from {
                    m.moved_piece()
                } else if sq == to {
                    m.captured()
                } else {
                    now
                };
                let row = sq.index() * ROW;
                s -= kkpee9_table::entry(block[row + was_w.cell(i)], self.terms[was.index()]);
                s += kkpee9_table::entry(block[row + now_w.cell(i)], self.terms[now.index()]);
            }
        }
        s
    }
}

/// One 64-bit half of capped effects (squares 0–63 or 64–80): Black's "at least one" and "at
/// least two", then White's. A u64 shift per square is one instruction, a u128 shift several.
struct Words([u64; 4]);

impl Words {
    #[inline(always)]
    fn of(e: &CappedEffects, half: usize) -> Words {
        let shift = 64 * half;
        let w = |x: u128| (x >> shift) as u64;
        Words([w(e.one[0]), w(e.two[0]), w(e.one[1]), w(e.two[1])])
    }

    /// The offset in a square's row of bit `i`'s counts: `m1 × 3 + m2`.
    #[inline(always)]
    fn cell(&self, i: u32) -> usize {
        let [b1, b2, w1, w2] = self.0.map(|x| ((x >> i) & 1) as usize);
        (b1 + b2) * 3 + w1 + w2
    }
}

impl Evaluator for Kkpee9 {
    type Stack = Kkpee9Stack;

    fn name(&self) -> &'static str {
        "kkpee9"
    }

    fn new_stack(&self) -> Kkpee9Stack {
        Kkpee9Stack {
            frames: Vec::with_capacity(256),
        }
    }

    fn reset(&self, stack: &mut Kkpee9Stack, pos: &Position) {
        stack.frames.clear();
        stack.frames.push(self.root_frame(pos));
    }

    #[inline]
    fn push(&self, stack: &mut Kkpee9Stack, pos: &Position, m: Move) {
        let Some(material) = stack.frames.last().map(|f| f.material + material_delta(m)) else {
            stack.frames.push(self.root_frame(pos));
            return;
        };
        stack.frames.push(Frame {
            material,
            table_sum: 0,
            counts: EffectCounts::default(),
            mv: m,
            ready: false,
        });
    }

    #[inline]
    fn prepare(&self, stack: &mut Kkpee9Stack, pos: &Position) {
        if self.update == EffectUpdate::Incremental {
            self.ready_top(stack, pos);
        }
    }

    fn push_null(&self, stack: &mut Kkpee9Stack, pos: &Position) {
        // The same board: the same sum, once the frame below has it (an unready copy would
        // have to be computed from scratch).
        self.prepare(stack, pos);
        let top = match stack.frames.last() {
            Some(f) => Frame {
                mv: Move::NONE,
                ..*f
            },
            None => self.root_frame(pos),
        };
        stack.frames.push(top);
    }

    #[inline]
    fn attacked(&self, stack: &mut Kkpee9Stack, pos: &Position, c: Color) -> Option<Bitboard> {
        if self.update != EffectUpdate::Incremental {
            return None;
        }
        self.ready_top(stack, pos).map(|f| f.counts.attacked(c))
    }

    #[inline]
    fn pop(&self, stack: &mut Kkpee9Stack) {
        stack.frames.pop();
    }

    #[inline]
    fn evaluate(&self, stack: &mut Kkpee9Stack, pos: &Position) -> i32 {
        let v = match self.update {
            EffectUpdate::Incremental => match self.ready_top(stack, pos) {
                Some(f) => f.material + f.table_sum,
                None => self.evaluate_black(pos),
            },
            EffectUpdate::AtEvaluation => match stack.frames.last() {
                Some(f) => f.material + self.full_sum(pos, &CappedEffects::compute(pos)),
                None => self.evaluate_black(pos),
            },
        };
        if pos.side_to_move() == Color::Black {
            v
        } else {
            -v
        }
    }
}
