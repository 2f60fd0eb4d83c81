//! Move ordering: the TT move, good captures by MVV-LVA, killers and the counter-move, quiet
//! moves by history, then captures that lose material.

use crate::history::History;
use crate::see::{capture_value, see_ge};
use hayate_core::{Move, Move16, MoveList, Position, Stage as GenStage};

/// Scores one position's moves and hands them out best first. The first few picks are a
/// selection (most nodes cut after a move or two); after that the rest is sorted once.
pub struct MovePicker {
    list: MoveList,
    scores: [std::mem::MaybeUninit<i32>; MoveList::CAPACITY],
    next: usize,
    sorted: bool,
    /// Main search only: the TT move is tried before anything is generated.
    stage: Stage,
    tt: Move,
    killers: [Move; 2],
    counter: Move,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    TtMove,
    Generate,
    Pick,
}

const TT_SCORE: i32 = 1 << 30;
const GOOD_CAPTURE: i32 = 1 << 28;
const KILLER: i32 = 1 << 27;
const BAD_CAPTURE: i32 = -(1 << 28);
/// Picks made by selection before the remainder is sorted.
const SELECT_FIRST: usize = 3;

impl MovePicker {
    /// An empty picker, to be filled in place (pickers live in per-ply boxes: no 5 KB copies).
    pub fn empty() -> MovePicker {
        MovePicker {
            list: MoveList::new(),
            scores: [std::mem::MaybeUninit::uninit(); MoveList::CAPACITY],
            next: 0,
            sorted: false,
            stage: Stage::Pick,
            tt: Move::NONE,
            killers: [Move::NONE; 2],
            counter: Move::NONE,
        }
    }

    #[inline(always)]
    fn score(&self, i: usize) -> i32 {
        // SAFETY: `fill_*` writes a score for every one of the `list.len()` moves before any read.
        unsafe { self.scores[i].assume_init() }
    }

    /// Prepares the main search's ordering: the TT move (checked for legality without
    /// generation) comes first; the rest is generated and scored only if it fails to cut.
    pub fn init_main(
        &mut self,
        pos: &Position,
        tt_move: Move16,
        killers: [Move; 2],
        counter: Move,
    ) {
        self.list.clear();
        self.next = 0;
        self.sorted = false;
        self.stage = Stage::TtMove;
        self.tt = pos.to_move_fast(tt_move).unwrap_or(Move::NONE);
        self.killers = killers;
        self.counter = counter;
    }

    fn generate_main(&mut self, pos: &Position, history: &History) {
        pos.generate_legal(&mut self.list);
        if self.tt.is_some() {
            let moves = self.list.as_mut_slice();
            if let Some(i) = moves.iter().position(|m| m.same(self.tt)) {
                let last = moves.len() - 1;
                moves.swap(i, last);
                self.list.truncate(last);
            }
        }
        let us = pos.side_to_move();
        for (i, &m) in self.list.iter().enumerate() {
            let s = if m.is_capture()
                || (m.is_promotion() && m.moved_piece().piece_type().raw() <= 6)
            {
                let mvv = capture_value(m.captured().piece_type()) * 8
                    - m.moved_piece().piece_type().raw() as i32;
                if see_ge(pos, m, 0) {
                    GOOD_CAPTURE + mvv
                } else {
                    BAD_CAPTURE + mvv
                }
            } else if m.same(self.killers[0]) {
                KILLER + 2
            } else if m.same(self.killers[1]) {
                KILLER + 1
            } else if m.same(self.counter) {
                KILLER
            } else {
                history.get(us, m)
            };
            self.scores[i].write(s);
        }
    }

    /// Orders captures and pawn/bishop/rook promotions (or all evasions in check) for quiescence.
    pub fn fill_quiescence(&mut self, pos: &Position, tt_move: Move) {
        self.list.clear();
        self.next = 0;
        self.sorted = false;
        self.stage = Stage::Pick;
        if pos.in_check() {
            pos.generate(GenStage::Evasions, &mut self.list);
        } else {
            pos.generate(GenStage::CapturesAndPromotions, &mut self.list);
            // Quiet promotions of silvers, knights and lances are rarely worth a qsearch node.
            let moves = self.list.as_mut_slice();
            let mut keep = 0;
            for i in 0..moves.len() {
                let m = moves[i];
                if m.is_capture() || matches!(m.moved_piece().piece_type().raw(), 1 | 5 | 6) {
                    moves[keep] = m;
                    keep += 1;
                }
            }
            self.list.truncate(keep);
        }
        for (i, &m) in self.list.iter().enumerate() {
            let s = if m.same(tt_move) {
                TT_SCORE
            } else {
                capture_value(m.captured().piece_type()) * 8
                    - m.moved_piece().piece_type().raw() as i32
            };
            self.scores[i].write(s);
        }
    }

    /// The next best move with its ordering score.
    #[inline]
    pub fn next_move(&mut self, pos: &Position, history: &History) -> Option<(Move, i32)> {
        if self.stage == Stage::TtMove {
            self.stage = Stage::Generate;
            if self.tt.is_some() {
                return Some((self.tt, TT_SCORE));
            }
        }
        if self.stage == Stage::Generate {
            self.stage = Stage::Pick;
            self.generate_main(pos, history);
        }
        let n = self.list.len();
        if self.next >= n {
            return None;
        }
        if self.next >= SELECT_FIRST && !self.sorted {
            // Insertion sort of the rest, best first, in place (no heap in the search).
            let moves = self.list.as_mut_slice();
            for i in self.next + 1..n {
                // SAFETY: see `score`.
                let (m, s) = (moves[i], unsafe { self.scores[i].assume_init() });
                let mut j = i;
                // SAFETY: see `score`.
                while j > self.next && unsafe { self.scores[j - 1].assume_init() } < s {
                    moves[j] = moves[j - 1];
                    self.scores[j] = self.scores[j - 1];
                    j -= 1;
                }
                moves[j] = m;
                self.scores[j].write(s);
            }
            self.sorted = true;
        }
        if !self.sorted {
            let mut best = self.next;
            let mut best_score = self.score(best);
            for i in self.next + 1..n {
                let s = self.score(i);
                if s > best_score {
                    best = i;
                    best_score = s;
                }
            }
            self.list.as_mut_slice().swap(self.next, best);
            self.scores.swap(self.next, best);
        }
        let r = (self.list[self.next], self.score(self.next));
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
