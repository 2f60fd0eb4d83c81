//! Pieces in hand, packed into one `u32`.

use crate::PieceType;
use std::fmt;

/// The pieces one side holds in hand, packed so that superiority (one hand holding at least as
/// many of every type as another) is a single subtraction.
///
/// | type   | bits   | max | guard bit |
/// |--------|--------|-----|-----------|
/// | pawn   | 0..5   | 18  | 5         |
/// | lance  | 6..9   | 4   | 9         |
/// | knight | 10..13 | 4   | 13        |
/// | silver | 14..17 | 4   | 17        |
/// | gold   | 18..21 | 4   | 21        |
/// | bishop | 22..24 | 2   | 24        |
/// | rook   | 25..27 | 2   | 27        |
///
/// Each count sits below a zero guard bit: subtracting a larger count borrows into it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
#[repr(transparent)]
pub struct Hand(u32);

/// Bit offset of each type's count, indexed by `PieceType` code (1..=7).
const SHIFT: [u32; 8] = [0, 0, 6, 10, 14, 22, 25, 18];
/// Mask of each type's count (before shifting), indexed by code.
const MASK: [u32; 8] = [0, 31, 7, 7, 7, 3, 3, 7];
const GUARD: u32 = (1 << 5) | (1 << 9) | (1 << 13) | (1 << 17) | (1 << 21) | (1 << 24) | (1 << 27);

impl Hand {
    /// An empty hand.
    pub const EMPTY: Hand = Hand(0);

    /// The packed value.
    #[inline(always)]
    pub const fn raw(self) -> u32 {
        self.0
    }

    /// How many pieces of hand type `pt` (P L N S G B R) are held.
    #[inline(always)]
    pub const fn count(self, pt: PieceType) -> u32 {
        (self.0 >> SHIFT[pt.index()]) & MASK[pt.index()]
    }

    /// Whether any piece of type `pt` is held.
    #[inline(always)]
    pub const fn has(self, pt: PieceType) -> bool {
        self.0 & (MASK[pt.index()] << SHIFT[pt.index()]) != 0
    }

    /// Adds one piece of hand type `pt`. The caller keeps counts within the full set.
    #[inline(always)]
    pub fn add(&mut self, pt: PieceType) {
        debug_assert!(pt.is_hand_type() && self.count(pt) < MASK[pt.index()]);
        self.0 += 1 << SHIFT[pt.index()];
    }

    /// Removes one piece of hand type `pt`, which must be held.
    #[inline(always)]
    pub fn sub(&mut self, pt: PieceType) {
        debug_assert!(self.has(pt));
        self.0 -= 1 << SHIFT[pt.index()];
    }

    /// Sets the count of `pt`; `None` if it does not fit the field (more than the full set allows).
    pub fn with_count(self, pt: PieceType, n: u32) -> Option<Hand> {
        if !pt.is_hand_type() || n > pt.full_set_count() as u32 {
            return None;
        }
        let i = pt.index();
        Some(Hand((self.0 & !(MASK[i] << SHIFT[i])) | (n << SHIFT[i])))
    }

    /// Whether this hand holds at least as many of every type as `other`.
    #[inline(always)]
    pub const fn is_superior_or_equal(self, other: Hand) -> bool {
        self.0.wrapping_sub(other.0) & GUARD == 0
    }

    /// Whether the hand is empty.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether any piece other than pawns is held.
    #[inline(always)]
    pub const fn has_except_pawn(self) -> bool {
        self.0 & !MASK[1] != 0
    }

    /// Total number of pieces held.
    pub fn total(self) -> u32 {
        PieceType::HAND_TYPES.iter().map(|&pt| self.count(pt)).sum()
    }
}

impl fmt::Debug for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for pt in PieceType::HAND_SFEN_ORDER {
            let n = self.count(pt);
            if n > 0 {
                write!(f, "{}{}", pt.sfen_letter(), n)?;
            }
        }
        Ok(())
    }
}
