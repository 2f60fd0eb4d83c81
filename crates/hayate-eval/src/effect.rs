//! Effect counts capped at 2, kept as bit-sliced saturating counters.
//!
//! KKPEE9 only needs `min(count, 2)` per square and colour, so two bitboards per colour are
//! enough: `at_least_one` and `at_least_two`. Adding a piece's attack set `a` is
//! `two |= one & a; one |= a`, a handful of `u128` operations instead of 81 counters.

use hayate_core::{Bitboard, Color, Position, attacks};

/// `min(effect count, 2)` of both colours on every square.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CappedEffects {
    /// `one[c]`: squares that at least one piece of colour `c` (king included) attacks.
    pub one: [u128; 2],
    /// `two[c]`: squares that at least two pieces of colour `c` attack.
    pub two: [u128; 2],
}

impl CappedEffects {
    /// The capped effects of `pos`, computed from its pieces.
    #[inline]
    pub fn compute(pos: &Position) -> CappedEffects {
        let occ = pos.occupied();
        let mut e = CappedEffects::default();
        for c in Color::ALL {
            let (mut one, mut two) = (0u128, 0u128);
            for sq in pos.pieces(c).iter() {
                let a = attacks(c, pos.piece_on(sq).piece_type(), sq, occ).0;
                two |= one & a;
                one |= a;
            }
            e.one[c.index()] = one;
            e.two[c.index()] = two;
        }
        e
    }

    /// `min(count, 2)` of colour `c` on square index `sq`.
    #[inline(always)]
    pub fn count(&self, c: Color, sq: usize) -> usize {
        (((self.one[c.index()] >> sq) & 1) + ((self.two[c.index()] >> sq) & 1)) as usize
    }

    /// The squares whose capped count differs between `self` and `other` for either colour.
    #[inline(always)]
    pub fn changed(&self, other: &CappedEffects) -> Bitboard {
        Bitboard(
            (self.one[0] ^ other.one[0])
                | (self.one[1] ^ other.one[1])
                | (self.two[0] ^ other.two[0])
                | (self.two[1] ^ other.two[1]),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hayate_core::Square;

    #[test]
    fn capped_counts_equal_attack_count_capped_at_two() {
        let mut pos = Position::startpos();
        let mut seed = 99u64;
        for _ in 0..200 {
            let e = CappedEffects::compute(&pos);
            for sq in Square::all() {
                for c in Color::ALL {
                    let want = pos.attack_count(c, sq).min(2) as usize;
                    assert_eq!(e.count(c, sq.index()), want, "{} {sq}", pos.to_sfen());
                }
            }
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            pos.do_move(moves[(seed >> 33) as usize % moves.len()]);
        }
    }
}
