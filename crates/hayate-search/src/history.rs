//! Move-ordering statistics: butterfly history, killers, counter-moves.

use hayate_core::{Color, Move};

/// Index of a move's origin: the square for board moves, 81 + type for drops.
#[inline(always)]
fn from_index(m: Move) -> usize {
    if m.is_drop() {
        81 + m.dropped_type().index()
    } else {
        m.from().index()
    }
}

/// History of quiet moves by [colour][from or dropped type][to], with gravity so values stay bounded.
pub struct History {
    table: Vec<i32>,
    counter: Vec<Move>,
}

const FROM: usize = 81 + 8;
/// History values stay within ±this.
pub const HISTORY_MAX: i32 = 16_384;

impl History {
    /// Zeroed tables.
    pub fn new() -> History {
        History {
            table: vec![0; 2 * FROM * 81],
            counter: vec![Move::NONE; 32 * 81],
        }
    }

    /// Clears everything (new game).
    pub fn clear(&mut self) {
        self.table.fill(0);
        self.counter.fill(Move::NONE);
    }

    #[inline(always)]
    fn idx(c: Color, m: Move) -> usize {
        (c.index() * FROM + from_index(m)) * 81 + m.to().index()
    }

    /// The history score of quiet move `m` by `c`.
    #[inline(always)]
    pub fn get(&self, c: Color, m: Move) -> i32 {
        self.table[Self::idx(c, m)]
    }

    /// Rewards (`bonus` > 0) or penalises a quiet move.
    #[inline(always)]
    pub fn update(&mut self, c: Color, m: Move, bonus: i32) {
        let e = &mut self.table[Self::idx(c, m)];
        let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        *e += b - *e * b.abs() / HISTORY_MAX;
    }

    /// The counter-move recorded against `prev`.
    #[inline(always)]
    pub fn counter(&self, prev: Move) -> Move {
        if !prev.is_some() {
            return Move::NONE;
        }
        self.counter[prev.moved_piece_after().index() * 81 + prev.to().index()]
    }

    /// Records `m` as the reply to `prev`.
    #[inline(always)]
    pub fn set_counter(&mut self, prev: Move, m: Move) {
        if prev.is_some() {
            self.counter[prev.moved_piece_after().index() * 81 + prev.to().index()] = m;
        }
    }
}

impl Default for History {
    fn default() -> Self {
        Self::new()
    }
}
