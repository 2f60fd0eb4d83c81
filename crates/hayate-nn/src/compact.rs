//! The compact 1496-class policy (prelude): the dlshogi labels that some legal move can produce,
//! numbered in ascending label order. The other 691 labels are structurally impossible (a pawn
//! moving up into the last rank without promoting, a promotion far from the camp, a drop of a
//! pawn on rank 1, ...).
//!
//! The set is enumerated at compile time from the side to move's view (Black's frame): every
//! piece type on every square it may stand on, every move it has on an empty board, promotion
//! when the origin or destination is in the camp (ranks 1–3), no non-promotion of a pawn or lance
//! into rank 1 or a knight into ranks 1–2, and drops (pawn and lance on ranks 2–9, knight on
//! ranks 3–9, others anywhere). It matches `data/dl/valid-labels-1496.txt`.

use crate::labels::{DIRECTIONS, DROP_CLASS_BASE, Direction, LABEL_NUM};
use hayate_core::Square;

/// Number of compact labels.
pub const COMPACT_LABEL_NUM: usize = 1496;
/// Marks a full label with no compact index in [`FULL_TO_COMPACT`].
pub const INVALID_COMPACT: u16 = u16::MAX;

/// Sets the label of a move from `(fx, fy)` to `(tx, ty)` (Black's frame) with and/or without
/// promotion, as the rules allow for a piece that `can_promote` and whose non-promotion is
/// forbidden on destination ranks `< dead` (0 none, 1 rank 1, 2 ranks 1–2).
const fn mark(
    valid: &mut [bool; LABEL_NUM],
    f: (i8, i8),
    t: (i8, i8),
    can_promote: bool,
    dead: i8,
) {
    let from = Square::new((f.0 * 9 + f.1) as u8);
    let to = Square::new((t.0 * 9 + t.1) as u8);
    let dir = Direction::of(from, to) as usize;
    let to_index = to.raw() as usize;
    if t.1 >= dead {
        valid[dir * 81 + to_index] = true;
    }
    if can_promote && (f.1 <= 2 || t.1 <= 2) {
        valid[(dir + DIRECTIONS) * 81 + to_index] = true;
    }
}

/// Marks the moves of a stepping or sliding mover from `(x, y)` along `steps`.
const fn mark_steps(
    valid: &mut [bool; LABEL_NUM],
    x: i8,
    y: i8,
    steps: &[(i8, i8)],
    slides: bool,
    can_promote: bool,
    dead: i8,
) {
    let mut i = 0;
    while i < steps.len() {
        let (dx, dy) = steps[i];
        let (mut tx, mut ty) = (x + dx, y + dy);
        while tx >= 0 && tx < 9 && ty >= 0 && ty < 9 {
            mark(valid, (x, y), (tx, ty), can_promote, dead);
            if !slides {
                break;
            }
            tx += dx;
            ty += dy;
        }
        i += 1;
    }
}

const fn valid_labels() -> [bool; LABEL_NUM] {
    // Steps in (file index, rank index); "up" (toward the enemy) is rank index - 1.
    const KING: [(i8, i8); 8] = [
        (-1, -1),
        (0, -1),
        (1, -1),
        (-1, 0),
        (1, 0),
        (-1, 1),
        (0, 1),
        (1, 1),
    ];
    const SILVER: [(i8, i8); 5] = [(-1, -1), (0, -1), (1, -1), (-1, 1), (1, 1)];
    const KNIGHT: [(i8, i8); 2] = [(-1, -2), (1, -2)];
    const UP: [(i8, i8); 1] = [(0, -1)];
    const DIAG: [(i8, i8); 4] = [(-1, -1), (1, -1), (-1, 1), (1, 1)];
    const ORTH: [(i8, i8); 4] = [(0, -1), (0, 1), (-1, 0), (1, 0)];
    let mut valid = [false; LABEL_NUM];
    let mut x = 0;
    while x < 9 {
        let mut y = 0;
        while y < 9 {
            // Pawn and lance cannot stand on rank 1, a knight not on ranks 1–2.
            if y >= 1 {
                mark_steps(&mut valid, x, y, &UP, false, true, 1);
                mark_steps(&mut valid, x, y, &UP, true, true, 1);
            }
            if y >= 2 {
                mark_steps(&mut valid, x, y, &KNIGHT, false, true, 2);
            }
            mark_steps(&mut valid, x, y, &SILVER, false, true, 0);
            // Gold, king and all promoted pieces step within the king's pattern, unpromotable;
            // horse and dragon slide like bishop and rook (non-promoting labels only).
            mark_steps(&mut valid, x, y, &KING, false, false, 0);
            mark_steps(&mut valid, x, y, &DIAG, true, true, 0);
            mark_steps(&mut valid, x, y, &ORTH, true, true, 0);
            y += 1;
        }
        x += 1;
    }
    // Drops: classes 20.. in type order P L N S B R G.
    let mut t = 0;
    while t < 7 {
        let min_rank = match t {
            0 | 1 => 1,
            2 => 2,
            _ => 0,
        };
        let mut sq = 0;
        while sq < 81 {
            if sq % 9 >= min_rank {
                valid[(DROP_CLASS_BASE + t) * 81 + sq] = true;
            }
            sq += 1;
        }
        t += 1;
    }
    valid
}

const fn build_maps() -> ([u16; LABEL_NUM], [u16; COMPACT_LABEL_NUM]) {
    let valid = valid_labels();
    let mut to_compact = [INVALID_COMPACT; LABEL_NUM];
    let mut to_full = [0u16; COMPACT_LABEL_NUM];
    let mut n = 0;
    let mut label = 0;
    while label < LABEL_NUM {
        if valid[label] {
            // A count other than 1496 fails the build here.
            to_full[n] = label as u16;
            to_compact[label] = n as u16;
            n += 1;
        }
        label += 1;
    }
    assert!(n == COMPACT_LABEL_NUM);
    (to_compact, to_full)
}

const MAPS: ([u16; LABEL_NUM], [u16; COMPACT_LABEL_NUM]) = build_maps();

/// For each full label, its compact index, or [`INVALID_COMPACT`].
pub static FULL_TO_COMPACT: [u16; LABEL_NUM] = MAPS.0;
/// For each compact index, its full label (ascending).
pub static COMPACT_TO_FULL: [u16; COMPACT_LABEL_NUM] = MAPS.1;

/// The compact index of full label `label`, or `None` for a label no legal move can produce
/// (or one out of range).
#[inline]
pub fn compact_label(label: u16) -> Option<u16> {
    match FULL_TO_COMPACT.get(label as usize) {
        Some(&c) if c != INVALID_COMPACT => Some(c),
        _ => None,
    }
}

/// The full label of compact index `compact`, or `None` when `compact >= 1496`.
#[inline]
pub fn full_label(compact: u16) -> Option<u16> {
    COMPACT_TO_FULL.get(compact as usize).copied()
}
