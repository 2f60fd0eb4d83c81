//! dlshogi's policy labels: 27 move classes × 81 destination squares = 2187.
//!
//! A label is `81 * class + to`, with `to` seen from the side to move (rotated when White moves).
//! Classes 0..10 are the board-move directions of [`Direction`], 10..20 the same directions with
//! promotion, and 20..27 the drops in piece-type order P L N S B R G (not the HandPiece order).
//!
//! The direction of a board move, with `x` the file index and `y` the rank index of the
//! side-to-move-relative squares, `dx = from_x - to_x` and `dy = to_y - from_y`:
//! `dy < 0, dx = 0` UP; `dy = -2, dx = -1` UP2_LEFT; `dy = -2, dx = 1` UP2_RIGHT (knights);
//! `dy < 0, dx < 0` UP_LEFT; `dy < 0, dx > 0` UP_RIGHT; `dy = 0, dx < 0` LEFT; `dy = 0, dx > 0`
//! RIGHT; `dy > 0, dx = 0` DOWN; `dy > 0, dx < 0` DOWN_LEFT; otherwise DOWN_RIGHT.

use crate::orient::orient_square;
use hayate_core::{Color, Move, Piece, PieceType, Position, Square};

/// Number of board-move directions (without promotion).
pub const DIRECTIONS: usize = 10;
/// Number of label classes: 10 directions, 10 promoting directions, 7 drops.
pub const LABEL_CLASSES: usize = 2 * DIRECTIONS + 7;
/// Number of labels (`27 * 81`).
pub const LABEL_NUM: usize = LABEL_CLASSES * 81;
/// The class of a pawn drop; the drop of type code `t` (1..=7) has class `DROP_CLASS_BASE + t - 1`.
pub const DROP_CLASS_BASE: usize = 2 * DIRECTIONS;

/// A board-move direction, as dlshogi numbers them.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub enum Direction {
    /// Straight forward.
    Up = 0,
    /// Forward, toward higher file indices.
    UpLeft = 1,
    /// Forward, toward lower file indices.
    UpRight = 2,
    /// Sideways toward higher file indices.
    Left = 3,
    /// Sideways toward lower file indices.
    Right = 4,
    /// Straight back.
    Down = 5,
    /// Back, toward higher file indices.
    DownLeft = 6,
    /// Back, toward lower file indices.
    DownRight = 7,
    /// Knight jump toward higher file indices.
    Up2Left = 8,
    /// Knight jump toward lower file indices.
    Up2Right = 9,
}

impl Direction {
    /// All directions in class order.
    pub const ALL: [Direction; DIRECTIONS] = [
        Direction::Up,
        Direction::UpLeft,
        Direction::UpRight,
        Direction::Left,
        Direction::Right,
        Direction::Down,
        Direction::DownLeft,
        Direction::DownRight,
        Direction::Up2Left,
        Direction::Up2Right,
    ];

    /// The direction of a move from `from` to `to` (relative squares, `from != to`).
    pub const fn of(from: Square, to: Square) -> Direction {
        let (fx, fy) = ((from.raw() / 9) as i8, (from.raw() % 9) as i8);
        let (tx, ty) = ((to.raw() / 9) as i8, (to.raw() % 9) as i8);
        let dx = fx - tx;
        let dy = ty - fy;
        if dy < 0 && dx == 0 {
            Direction::Up
        } else if dy == -2 && dx == -1 {
            Direction::Up2Left
        } else if dy == -2 && dx == 1 {
            Direction::Up2Right
        } else if dy < 0 && dx < 0 {
            Direction::UpLeft
        } else if dy < 0 && dx > 0 {
            Direction::UpRight
        } else if dy == 0 && dx < 0 {
            Direction::Left
        } else if dy == 0 && dx > 0 {
            Direction::Right
        } else if dy > 0 && dx == 0 {
            Direction::Down
        } else if dy > 0 && dx < 0 {
            Direction::DownLeft
        } else {
            Direction::DownRight
        }
    }

    /// The step (file index, rank index) from the destination back toward the origin, and
    /// whether the mover may come from further than one step (false for the knight jumps).
    pub const fn back_step(self) -> (i8, i8, bool) {
        match self {
            Direction::Up => (0, 1, true),
            Direction::UpLeft => (-1, 1, true),
            Direction::UpRight => (1, 1, true),
            Direction::Left => (-1, 0, true),
            Direction::Right => (1, 0, true),
            Direction::Down => (0, -1, true),
            Direction::DownLeft => (-1, -1, true),
            Direction::DownRight => (1, -1, true),
            Direction::Up2Left => (-1, 2, false),
            Direction::Up2Right => (1, 2, false),
        }
    }
}

/// The label of `m` played by `side`, from relative squares (`m` need not be legal).
#[inline]
pub fn move_label(m: Move, side: Color) -> u16 {
    let to = orient_square(m.to(), side);
    let class = if m.is_drop() {
        DROP_CLASS_BASE + m.dropped_type().raw() as usize - 1
    } else {
        let from = orient_square(m.from(), side);
        Direction::of(from, to) as usize + if m.is_promotion() { DIRECTIONS } else { 0 }
    };
    (class * 81 + to.index()) as u16
}

/// Splits a label into its class (0..27) and relative destination square.
#[inline]
pub fn split_label(label: u16) -> Option<(usize, Square)> {
    if label as usize >= LABEL_NUM {
        return None;
    }
    Some(((label / 81) as usize, Square::new((label % 81) as u8)))
}

/// The legal move of `pos` with label `label`, if any. Labels are unique among the legal moves
/// of a position: for a board move only the first piece met walking back from the destination
/// can have made it.
pub fn label_to_move(pos: &Position, label: u16) -> Option<Move> {
    let (class, to_rel) = split_label(label)?;
    let us = pos.side_to_move();
    let to = orient_square(to_rel, us);
    let candidate = if class >= DROP_CLASS_BASE {
        let pt = PieceType::from_u8((class - DROP_CLASS_BASE + 1) as u8)?;
        if !pos.piece_on(to).is_empty() || pos.hand(us).count(pt) == 0 {
            return None;
        }
        Move::new_drop(Piece::new(us, pt), to)
    } else {
        let dir = Direction::ALL[class % DIRECTIONS];
        let promote = class >= DIRECTIONS;
        let (sx, sy, slides) = dir.back_step();
        let (mut x, mut y) = ((to_rel.raw() / 9) as i8, (to_rel.raw() % 9) as i8);
        let from = loop {
            x += sx;
            y += sy;
            if !(0..9).contains(&x) || !(0..9).contains(&y) {
                return None;
            }
            let sq = orient_square(Square::new((x * 9 + y) as u8), us);
            if !pos.piece_on(sq).is_empty() {
                break sq;
            }
            if !slides {
                return None;
            }
        };
        let pc = pos.piece_on(from);
        if pc.color() != us {
            return None;
        }
        Move::new_board(from, to, promote, pc, pos.piece_on(to))
    };
    // The walk found the only candidate; full legality (pins, reach, nifu, ...) is the core's.
    pos.to_move(candidate.to_move16())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn label(pos: &Position, usi: &str) -> u16 {
        let m = pos.parse_usi_move(usi).expect("legal move");
        move_label(m, pos.side_to_move())
    }

    #[test]
    fn documented_values_from_cshogi() {
        let mut pos = Position::startpos();
        assert_eq!(label(&pos, "7g7f"), 59);
        let m = pos.parse_usi_move("7g7f").unwrap();
        pos.do_move(m);
        assert_eq!(label(&pos, "3c3d"), 59);
        let pos = Position::from_usi_position("startpos moves 7g7f 3c3d").unwrap();
        assert_eq!(label(&pos, "8h2b+"), 982);
        assert_eq!(label(&pos, "8h2b"), 172);
    }
}
