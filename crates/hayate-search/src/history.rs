//! Move-ordering statistics: butterfly history, continuation histories, capture history and
//! counter-moves. Every table keeps its values bounded by "gravity": an update moves an entry
//! towards ±`HISTORY_MAX` by a share of the distance left.

use crate::correction::Correction;
use hayate_core::{Color, Move, Piece, PieceType};

/// Index of a move's origin: the square for board moves, 81 + type for drops.
#[inline(always)]
fn from_index(m: Move) -> usize {
    if m.is_drop() {
        81 + m.dropped_type().index()
    } else {
        m.from().index()
    }
}

const FROM: usize = 81 + 8;
/// (piece after the move, destination): the key of a continuation-history block.
const PIECE_TO: usize = Piece::NUM * 81;
/// History values stay within ±this.
pub const HISTORY_MAX: i32 = 16_384;

/// The continuation-history block of the move played `n` plies before a node (0 = no move:
/// the root, a null move; that block is never updated and reads as zero).
pub type ContKey = usize;

/// How many plies back each continuation block of a node lies (Stockfish's choice), and the
/// share of a history bonus each gets, in 1/1024.
pub const CONT_PLIES: [usize; 5] = [1, 2, 3, 4, 6];
const CONT_WEIGHTS: [i32; 5] = [1024, 1024, 512, 1024, 512];

/// The continuation blocks of a node, in the order of [`CONT_PLIES`].
pub type Conts = [ContKey; 5];

/// The block key of `m` (`m` a real move).
#[inline(always)]
pub fn cont_key(m: Move) -> ContKey {
    if m.is_some() {
        1 + m.moved_piece_after().index() * 81 + m.to().index()
    } else {
        0
    }
}

#[inline(always)]
fn piece_to(m: Move) -> usize {
    m.moved_piece_after().index() * 81 + m.to().index()
}

#[inline(always)]
fn gravity(e: &mut i16, bonus: i32) {
    let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    let v = i32::from(*e);
    *e = (v + b - v * b.abs() / HISTORY_MAX) as i16;
}

/// The quiet-move scores of one node (see [`History::quiet_scorer`]).
pub struct QuietScorer<'a> {
    main: &'a [i16; FROM * 81],
    cont: [&'a [i16; PIECE_TO]; 5],
}

impl QuietScorer<'_> {
    /// Butterfly twice plus the five continuations of quiet move `m`.
    #[inline(always)]
    pub fn score(&self, m: Move) -> i32 {
        let pt = piece_to(m);
        let [a, b, c, d, e] = self.cont;
        2 * i32::from(self.main[from_index(m) * 81 + m.to().index()])
            + i32::from(a[pt])
            + i32::from(b[pt])
            + i32::from(c[pt])
            + i32::from(d[pt])
            + i32::from(e[pt])
    }
}

/// The ordering statistics of one search thread, kept across searches of a game.
pub struct History {
    /// [colour][from or dropped type][to].
    main: Vec<i16>,
    /// [block of the earlier move][piece after the move][to].
    cont: Vec<i16>,
    /// [moving piece][to][captured type].
    capture: Vec<i16>,
    counter: Vec<Move>,
    /// The static-eval corrections this thread learnt.
    pub correction: Correction,
}

impl History {
    /// Zeroed tables (about 14 MB, most of it continuation history).
    pub fn new() -> History {
        History {
            main: vec![0; 2 * FROM * 81],
            cont: vec![0; (PIECE_TO + 1) * PIECE_TO],
            capture: vec![0; PIECE_TO * PieceType::NUM],
            counter: vec![Move::NONE; PIECE_TO],
            correction: Correction::new(),
        }
    }

    /// Clears everything (new game).
    pub fn clear(&mut self) {
        self.main.fill(0);
        self.cont.fill(0);
        self.capture.fill(0);
        self.counter.fill(Move::NONE);
        self.correction.clear();
    }

    #[inline(always)]
    fn main_idx(c: Color, m: Move) -> usize {
        (c.index() * FROM + from_index(m)) * 81 + m.to().index()
    }

    #[inline(always)]
    fn capture_idx(m: Move) -> usize {
        piece_to(m) * PieceType::NUM + m.captured().piece_type().index()
    }

    /// The butterfly score of quiet move `m` by `c`.
    #[inline(always)]
    pub fn get(&self, c: Color, m: Move) -> i32 {
        i32::from(self.main[Self::main_idx(c, m)])
    }

    /// The continuation score of `m` after the move with block `key`.
    #[inline(always)]
    pub fn cont(&self, key: ContKey, m: Move) -> i32 {
        i32::from(self.cont[key * PIECE_TO + piece_to(m)])
    }

    /// The ordering score of a quiet move: butterfly twice, plus the continuations of the
    /// moves 1, 2, 3, 4 and 6 plies back (`conts`).
    #[inline(always)]
    pub fn quiet_score(&self, c: Color, m: Move, conts: &Conts) -> i32 {
        self.quiet_scorer(c, conts).score(m)
    }

    /// [`History::quiet_score`] for many moves of one node: the side's butterfly rows and the
    /// node's continuation blocks looked up once.
    #[inline(always)]
    pub fn quiet_scorer(&self, c: Color, conts: &Conts) -> QuietScorer<'_> {
        let block = |k: ContKey| -> &[i16; PIECE_TO] {
            self.cont[k * PIECE_TO..(k + 1) * PIECE_TO]
                .try_into()
                .expect("a continuation block is PIECE_TO long")
        };
        QuietScorer {
            main: self.main[c.index() * FROM * 81..(c.index() + 1) * FROM * 81]
                .try_into()
                .expect("a colour's butterfly table is FROM * 81 long"),
            cont: conts.map(block),
        }
    }

    /// The capture-history score of capture `m`.
    #[inline(always)]
    pub fn capture(&self, m: Move) -> i32 {
        i32::from(self.capture[Self::capture_idx(m)])
    }

    /// Rewards (`bonus` > 0) or penalises a quiet move in the butterfly and continuation tables.
    #[inline(always)]
    pub fn update_quiet(&mut self, c: Color, m: Move, conts: &Conts, bonus: i32) {
        gravity(&mut self.main[Self::main_idx(c, m)], bonus);
        self.update_cont(m, conts, bonus);
    }

    /// Rewards or penalises move `m` in the continuation tables alone.
    #[inline(always)]
    pub fn update_cont(&mut self, m: Move, conts: &Conts, bonus: i32) {
        for (&k, w) in conts.iter().zip(CONT_WEIGHTS) {
            if k != 0 {
                gravity(&mut self.cont[k * PIECE_TO + piece_to(m)], bonus * w / 1024);
            }
        }
    }

    /// Rewards or penalises a capture.
    #[inline(always)]
    pub fn update_capture(&mut self, m: Move, bonus: i32) {
        gravity(&mut self.capture[Self::capture_idx(m)], bonus);
    }

    /// The counter-move recorded against `prev`.
    #[inline(always)]
    pub fn counter(&self, prev: Move) -> Move {
        if !prev.is_some() {
            return Move::NONE;
        }
        self.counter[piece_to(prev)]
    }

    /// Records `m` as the reply to `prev`.
    #[inline(always)]
    pub fn set_counter(&mut self, prev: Move, m: Move) {
        if prev.is_some() {
            self.counter[piece_to(prev)] = m;
        }
    }
}

impl Default for History {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hayate_core::Position;

    #[test]
    fn gravity_keeps_values_bounded_and_signed() {
        let pos = Position::startpos();
        let m = pos.legal_moves()[0];
        let conts = [cont_key(m), 0, 0, 0, 0];
        let mut h = History::new();
        for _ in 0..1000 {
            h.update_quiet(Color::Black, m, &conts, 2000);
        }
        assert!(h.get(Color::Black, m) <= HISTORY_MAX);
        assert!(h.get(Color::Black, m) > HISTORY_MAX * 9 / 10);
        assert_eq!(h.get(Color::White, m), 0);
        assert!(h.cont(conts[0], m) > 0);
        assert_eq!(h.cont(0, m), 0, "the no-move block is never written");
        for _ in 0..1000 {
            h.update_quiet(Color::Black, m, &conts, -2000);
        }
        assert!(h.get(Color::Black, m) < -HISTORY_MAX * 9 / 10);
    }

    #[test]
    fn continuation_update_leaves_the_butterfly_alone_and_weighs_each_ply() {
        let pos = Position::startpos();
        let moves = pos.legal_moves();
        let m = moves[0];
        // Blocks for the moves 1 and 3 plies back (weights 1024 and 512 of 1024).
        let conts = [cont_key(moves[1]), 0, cont_key(moves[2]), 0, 0];
        let mut h = History::new();
        h.update_cont(m, &conts, 1000);
        assert_eq!(h.get(Color::Black, m), 0);
        assert_eq!(h.cont(conts[0], m), 1000);
        assert_eq!(h.cont(conts[2], m), 500);
        assert_eq!(h.cont(0, m), 0, "the no-move block is never written");
        h.update_cont(m, &conts, -1000);
        assert!(h.cont(conts[0], m) < 100);
    }
}
