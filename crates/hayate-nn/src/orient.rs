//! Side-to-move orientation: every input and label is seen from the side to move, so when White
//! is to move colours are swapped and the board is rotated 180° (`sq -> 80 - sq`).

use hayate_core::{Bitboard, Color, Square};

/// Rotates a bitboard by 180°: square `sq` goes to `80 - sq`.
///
/// Bits 0..81 reversed in a `u128` land in bits 47..128, hence the shift.
#[inline(always)]
pub fn rotate(b: Bitboard) -> Bitboard {
    Bitboard(b.0.reverse_bits() >> (128 - 81))
}

/// `b` as the side to move `us` sees it (rotated when White is to move).
#[inline(always)]
pub fn orient(b: Bitboard, us: Color) -> Bitboard {
    match us {
        Color::Black => b,
        Color::White => rotate(b),
    }
}

/// `sq` as the side to move `us` sees it (rotated when White is to move).
#[inline(always)]
pub fn orient_square(sq: Square, us: Color) -> Square {
    match us {
        Color::Black => sq,
        Color::White => sq.inv(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotate_maps_every_square_to_its_inverse() {
        for sq in Square::all() {
            assert_eq!(
                rotate(Bitboard::from_square(sq)),
                Bitboard::from_square(sq.inv())
            );
        }
        assert_eq!(rotate(Bitboard::ALL), Bitboard::ALL);
    }
}
