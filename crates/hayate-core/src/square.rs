//! Squares of the 9×9 board.

use crate::Color;
use std::fmt;

/// A square. Index = (file-1)*9 + (rank-1): file 1 is on Black's right, rank 1 on White's side,
/// so square 0 is 1a (`1a` in USI, `11` in CSA) and square 80 is 9i.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// Number of squares.
    pub const NUM: usize = 81;

    /// Creates a square from an index 0..81.
    ///
    /// # Panics
    /// If `index >= 81`.
    #[inline(always)]
    #[track_caller]
    pub const fn new(index: u8) -> Square {
        assert!(index < 81, "square index out of range");
        Square(index)
    }

    /// Creates a square from an index, or `None` when out of range.
    #[inline]
    pub const fn try_new(index: u8) -> Option<Square> {
        if index < 81 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// Creates a square from a file and a rank, both 1..=9; `None` when either is out of range.
    #[inline]
    pub const fn from_file_rank(file: u8, rank: u8) -> Option<Square> {
        if file >= 1 && file <= 9 && rank >= 1 && rank <= 9 {
            Some(Square((file - 1) * 9 + (rank - 1)))
        } else {
            None
        }
    }

    /// The index 0..81.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The raw index as a byte.
    #[inline(always)]
    pub const fn raw(self) -> u8 {
        self.0
    }

    /// The file, 1..=9.
    #[inline(always)]
    pub const fn file(self) -> u8 {
        self.0 / 9 + 1
    }

    /// The rank, 1..=9 (1 = a = White's back rank).
    #[inline(always)]
    pub const fn rank(self) -> u8 {
        self.0 % 9 + 1
    }

    /// The same square seen from the other side (rotated 180°): 80 - index.
    #[inline(always)]
    pub const fn inv(self) -> Square {
        Square(80 - self.0)
    }

    /// The rank counted from `c`'s side: 1 is the far rank (where `c`'s pawns promote last).
    #[inline(always)]
    pub const fn relative_rank(self, c: Color) -> u8 {
        match c {
            Color::Black => self.rank(),
            Color::White => 10 - self.rank(),
        }
    }

    /// Whether the square lies in `c`'s promotion zone (the opponent's three ranks).
    #[inline(always)]
    pub const fn in_promotion_zone(self, c: Color) -> bool {
        self.relative_rank(c) <= 3
    }

    /// Iterates over all 81 squares in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..81u8).map(Square)
    }

    /// Chebyshev distance (the larger of the file and rank distances).
    #[inline]
    pub const fn distance(self, other: Square) -> u8 {
        let df = (self.0 / 9).abs_diff(other.0 / 9);
        let dr = (self.0 % 9).abs_diff(other.0 % 9);
        if df > dr { df } else { dr }
    }
}

impl fmt::Display for Square {
    /// USI notation, e.g. `7g`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file(), (b'a' + self.rank() - 1) as char)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
