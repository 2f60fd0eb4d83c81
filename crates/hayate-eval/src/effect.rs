//! Effect counts capped at 2, kept as bit-sliced saturating counters.
//!
//! KKPEE9 only needs `min(count, 2)` per square and colour, so two bitboards per colour are
//! enough: `at_least_one` and `at_least_two`. Adding a piece's attack set `a` is
//! `two |= one & a; one |= a`, a handful of `u128` operations instead of 81 counters.

use hayate_core::attacks::{bishop_attacks, lance_attacks, rook_attacks};
use hayate_core::{Bitboard, Color, PieceType, Position, attacks};

const ALL: u128 = Bitboard::ALL.0;
const RANK_1: u128 = Bitboard::rank(1).0;
const RANK_2: u128 = Bitboard::rank(2).0;
const RANK_8: u128 = Bitboard::rank(8).0;
const RANK_9: u128 = Bitboard::rank(9).0;

/// `b` moved by `delta` squares (index = (file-1)*9 + rank-1); bits leaving the board vanish.
/// Sources whose step would wrap to another file must be masked off by the caller.
#[inline(always)]
fn shift(b: u128, delta: i32) -> u128 {
    if delta >= 0 {
        (b << delta) & ALL
    } else {
        b >> -delta
    }
}

/// A saturating two-bit counter per square.
#[derive(Clone, Copy, Default)]
struct Counter {
    one: u128,
    two: u128,
}

impl Counter {
    #[inline(always)]
    fn add(&mut self, a: u128) {
        self.two |= self.one & a;
        self.one |= a;
    }
}

/// `min(effect count, 2)` of both colours on every square.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CappedEffects {
    /// `one[c]`: squares that at least one piece of colour `c` (king included) attacks.
    pub one: [u128; 2],
    /// `two[c]`: squares that at least two pieces of colour `c` attack.
    pub two: [u128; 2],
}

impl CappedEffects {
    /// The capped effects of `pos`.
    ///
    /// Step moves are added per direction for all pieces at once: a square has one source
    /// square per direction, so one direction never attacks it twice and the shifted set is
    /// an exact count of 0 or 1. Sliders are added piece by piece. Horses and dragons are
    /// split so that no square counts twice for one piece: a horse is a bishop slide plus the
    /// four orthogonal steps, a dragon a rook slide plus the four diagonal steps.
    #[inline]
    pub fn compute(pos: &Position) -> CappedEffects {
        let occ = pos.occupied();
        let mut e = CappedEffects::default();
        for c in Color::ALL {
            let t = |pt: PieceType| pos.pieces_of(c, pt).0;
            let golds = pos.golds().0 & pos.pieces(c).0;
            let (king, horse, dragon) = (
                t(PieceType::KING),
                t(PieceType::HORSE),
                t(PieceType::DRAGON),
            );
            let silver = t(PieceType::SILVER);
            // `fwd`: one step toward the opponent; the masks drop sources that would leave
            // the board at the front or the back (the rank is the low digit of the index).
            let (fwd, front_ok, back_ok, knight_ok) = match c {
                Color::Black => (-1, !RANK_1, !RANK_9, !(RANK_1 | RANK_2)),
                Color::White => (1, !RANK_9, !RANK_1, !(RANK_8 | RANK_9)),
            };
            let mut n = Counter::default();
            let forward = (t(PieceType::PAWN) | silver | golds | king | horse) & front_ok;
            n.add(shift(forward, fwd));
            let backward = (golds | king | horse) & back_ok;
            n.add(shift(backward, -fwd));
            let sideways = golds | king | horse;
            n.add(shift(sideways, 9));
            n.add(shift(sideways, -9));
            let front_diagonal = (silver | golds | king | dragon) & front_ok;
            n.add(shift(front_diagonal, fwd + 9));
            n.add(shift(front_diagonal, fwd - 9));
            let back_diagonal = (silver | king | dragon) & back_ok;
            n.add(shift(back_diagonal, -fwd + 9));
            n.add(shift(back_diagonal, -fwd - 9));
            let knights = t(PieceType::KNIGHT) & knight_ok;
            n.add(shift(knights, 2 * fwd + 9));
            n.add(shift(knights, 2 * fwd - 9));
            for sq in pos.pieces_of(c, PieceType::LANCE).iter() {
                n.add(lance_attacks(c, sq, occ).0);
            }
            for sq in Bitboard(t(PieceType::BISHOP) | horse).iter() {
                n.add(bishop_attacks(sq, occ).0);
            }
            for sq in Bitboard(t(PieceType::ROOK) | dragon).iter() {
                n.add(rook_attacks(sq, occ).0);
            }
            e.one[c.index()] = n.one;
            e.two[c.index()] = n.two;
        }
        e
    }

    /// The same as [`CappedEffects::compute`], one piece at a time (the slower reference).
    pub fn compute_per_piece(pos: &Position) -> CappedEffects {
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
        for _ in 0..600 {
            let e = CappedEffects::compute(&pos);
            assert_eq!(e, CappedEffects::compute_per_piece(&pos));
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

    #[test]
    fn direction_sets_equal_per_piece_on_reference_positions() {
        let p = format!(
            "{}/../../../shared/data/eval/positions.sfen",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(p).expect("shared eval positions");
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let pos = Position::from_sfen(line).expect("valid");
            assert_eq!(
                CappedEffects::compute(&pos),
                CappedEffects::compute_per_piece(&pos),
                "{line}"
            );
        }
    }
}
