//! Move ordering: the TT move, good captures by MVV-LVA, killers and the counter-move, quiet
//! moves by history, then captures that lose material.

use crate::history::History;
use crate::see::{capture_value, see_ge};
use hayate_core::{Move, MoveList, Position, Stage};

/// Scores one position's moves and hands them out best first (selection sort: most nodes cut
/// after a move or two, so sorting everything would be wasted).
pub struct MovePicker {
    list: MoveList,
    scores: [i32; MoveList::CAPACITY],
    next: usize,
}

const TT_SCORE: i32 = 1 << 30;
const GOOD_CAPTURE: i32 = 1 << 28;
const KILLER: i32 = 1 << 27;
const BAD_CAPTURE: i32 = -(1 << 28);

impl MovePicker {
    /// Orders all legal moves of `pos` for the main search.
    pub fn new_main(
        pos: &Position,
        tt_move: Move,
        killers: [Move; 2],
        counter: Move,
        history: &History,
    ) -> MovePicker {
        let mut list = MoveList::new();
        pos.generate_legal(&mut list);
        let mut scores = [0i32; MoveList::CAPACITY];
        let us = pos.side_to_move();
        for (i, &m) in list.iter().enumerate() {
            scores[i] = if m.same(tt_move) {
                TT_SCORE
            } else if m.is_capture()
                || (m.is_promotion() && m.moved_piece().piece_type().raw() <= 6)
            {
                let mvv = capture_value(m.captured().piece_type()) * 8
                    - m.moved_piece().piece_type().raw() as i32;
                if see_ge(pos, m, 0) {
                    GOOD_CAPTURE + mvv
                } else {
                    BAD_CAPTURE + mvv
                }
            } else if m.same(killers[0]) {
                KILLER + 2
            } else if m.same(killers[1]) {
                KILLER + 1
            } else if m.same(counter) {
                KILLER
            } else {
                history.get(us, m)
            };
        }
        MovePicker {
            list,
            scores,
            next: 0,
        }
    }

    /// Orders captures and pawn/bishop/rook promotions (or all evasions in check) for quiescence.
    pub fn new_quiescence(pos: &Position, tt_move: Move) -> MovePicker {
        let mut list = MoveList::new();
        let mut scores = [0i32; MoveList::CAPACITY];
        if pos.in_check() {
            pos.generate(Stage::Evasions, &mut list);
        } else {
            let mut all = MoveList::new();
            pos.generate(Stage::CapturesAndPromotions, &mut all);
            for &m in all.iter() {
                let pt = m.moved_piece().piece_type();
                // Quiet promotions of silvers, knights and lances are rarely worth a qsearch node.
                if m.is_capture() || matches!(pt.raw(), 1 | 5 | 6) {
                    list.push(m);
                }
            }
        }
        for (i, &m) in list.iter().enumerate() {
            scores[i] = if m.same(tt_move) {
                TT_SCORE
            } else {
                capture_value(m.captured().piece_type()) * 8
                    - m.moved_piece().piece_type().raw() as i32
            };
        }
        MovePicker {
            list,
            scores,
            next: 0,
        }
    }

    /// The next best move with its ordering score.
    #[inline]
    pub fn next_move(&mut self) -> Option<(Move, i32)> {
        let n = self.list.len();
        if self.next >= n {
            return None;
        }
        let mut best = self.next;
        for i in self.next + 1..n {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        let moves = self.list.as_mut_slice();
        moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        let r = (moves[self.next], self.scores[self.next]);
        self.next += 1;
        Some(r)
    }

    /// Number of legal moves.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether there is no move at all.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
}

/// Whether an ordering score marks a capture that SEE judged losing.
#[inline(always)]
pub fn is_bad_capture_score(s: i32) -> bool {
    s < BAD_CAPTURE / 2
}
