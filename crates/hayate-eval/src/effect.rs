//! Effect counts, bit-sliced: capped at 2 ([`CappedEffects`]) and exact ([`EffectCounts`]).
//!
//! KKPEE9 only needs `min(count, 2)` per square and colour, so two bitboards per colour are
//! enough: `at_least_one` and `at_least_two`. Adding a piece's attack set `a` is
//! `two |= one & a; one |= a`, a handful of `u128` operations instead of 81 counters. A
//! capped count cannot be taken back, so the search keeps exact counts (four bitboards per
//! colour) and updates them by the attack sets a move changes.

use hayate_core::attacks::{bishop_attacks, lance_attacks, rook_attacks};
use hayate_core::{Bitboard, Color, Move, PieceType, Position, attacks};

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

/// Calls `add` with every attack set of colour `c` in `pos`, so that each square is covered
/// as many times as `c`'s pieces attack it.
///
/// Step moves come per direction for all pieces at once: a square has one source square per
/// direction, so one direction never attacks it twice. Sliders come piece by piece. Horses and
/// dragons are split so that no square counts twice for one piece: a horse is a bishop slide
/// plus the four orthogonal steps, a dragon a rook slide plus the four diagonal steps.
#[inline(always)]
fn for_each_attack_set(pos: &Position, c: Color, mut add: impl FnMut(u128)) {
    let occ = pos.occupied();
    let t = |pt: PieceType| pos.pieces_of(c, pt).0;
    let golds = pos.golds().0 & pos.pieces(c).0;
    let (king, horse, dragon) = (
        t(PieceType::KING),
        t(PieceType::HORSE),
        t(PieceType::DRAGON),
    );
    let silver = t(PieceType::SILVER);
    // `fwd`: one step toward the opponent; the masks drop sources that would leave the board
    // at the front or the back (the rank is the low digit of the index).
    let (fwd, front_ok, back_ok, knight_ok) = match c {
        Color::Black => (-1, !RANK_1, !RANK_9, !(RANK_1 | RANK_2)),
        Color::White => (1, !RANK_9, !RANK_1, !(RANK_8 | RANK_9)),
    };
    let forward = (t(PieceType::PAWN) | silver | golds | king | horse) & front_ok;
    add(shift(forward, fwd));
    let backward = (golds | king | horse) & back_ok;
    add(shift(backward, -fwd));
    let sideways = golds | king | horse;
    add(shift(sideways, 9));
    add(shift(sideways, -9));
    let front_diagonal = (silver | golds | king | dragon) & front_ok;
    add(shift(front_diagonal, fwd + 9));
    add(shift(front_diagonal, fwd - 9));
    let back_diagonal = (silver | king | dragon) & back_ok;
    add(shift(back_diagonal, -fwd + 9));
    add(shift(back_diagonal, -fwd - 9));
    let knights = t(PieceType::KNIGHT) & knight_ok;
    add(shift(knights, 2 * fwd + 9));
    add(shift(knights, 2 * fwd - 9));
    for sq in pos.pieces_of(c, PieceType::LANCE).iter() {
        add(lance_attacks(c, sq, occ).0);
    }
    for sq in Bitboard(t(PieceType::BISHOP) | horse).iter() {
        add(bishop_attacks(sq, occ).0);
    }
    for sq in Bitboard(t(PieceType::ROOK) | dragon).iter() {
        add(rook_attacks(sq, occ).0);
    }
}

impl CappedEffects {
    /// The capped effects of `pos` (see [`for_each_attack_set`]).
    #[inline]
    pub fn compute(pos: &Position) -> CappedEffects {
        let mut e = CappedEffects::default();
        for c in Color::ALL {
            let mut n = Counter::default();
            for_each_attack_set(pos, c, |a| n.add(a));
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

/// Exact effect counts of both colours on every square, bit-sliced: `planes[c][k]` holds bit
/// `k` of each square's count. A square is attacked by at most one piece per ray (8) and two
/// knights, so four bits are enough.
///
/// Unlike [`CappedEffects`], exact counts can be taken back, so a move updates them from the
/// parent's with the few attack sets it changes ([`EffectCounts::after_move`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EffectCounts {
    planes: [[u128; 4]; 2],
}

impl EffectCounts {
    /// The counts of `pos`, from scratch.
    pub fn compute(pos: &Position) -> EffectCounts {
        let mut e = EffectCounts::default();
        for c in Color::ALL {
            for_each_attack_set(pos, c, |a| e.add(c, a));
        }
        e
    }

    /// One more attack of colour `c` on each square of `a`.
    #[inline(always)]
    fn add(&mut self, c: Color, a: u128) {
        let mut carry = a;
        for p in &mut self.planes[c.index()] {
            let next = *p & carry;
            *p ^= carry;
            carry = next;
        }
    }

    /// One attack of colour `c` fewer on each square of `a` (each count there is ≥ 1).
    #[inline(always)]
    fn sub(&mut self, c: Color, a: u128) {
        let mut borrow = a;
        for p in &mut self.planes[c.index()] {
            let next = !*p & borrow;
            *p ^= borrow;
            borrow = next;
        }
    }

    /// The counts after `m`, given `self`, the counts before it, and `pos`, the position after
    /// it. The changed attack sets: the moved piece's (from its old square as it was, from its
    /// new one as it is), the captured piece's, and those of the sliders whose rays reach the
    /// vacated square or the newly filled one.
    #[inline]
    pub fn after_move(&self, pos: &Position, m: Move) -> EffectCounts {
        let mut e = *self;
        let occ = pos.occupied();
        let to = m.to();
        let to_bb = Bitboard::from_square(to);
        let moved = m.moved_piece();
        let us = moved.color();
        let captured = m.captured();
        // The squares whose occupancy changed: sliders through them see further or less far.
        let mut toggled = Bitboard::EMPTY;
        if !m.is_drop() {
            toggled.set(m.from());
        }
        if captured.is_empty() {
            toggled.set(to);
        }
        let before = occ ^ toggled;
        if !m.is_drop() {
            e.sub(us, attacks(us, moved.piece_type(), m.from(), before).0);
        }
        if !captured.is_empty() {
            e.sub(!us, attacks(!us, captured.piece_type(), to, before).0);
        }
        e.add(
            us,
            attacks(us, m.moved_piece_after().piece_type(), to, occ).0,
        );
        let mut sliders = Bitboard::EMPTY;
        for sq in toggled {
            sliders |= pos.sliders_to(sq, before);
        }
        for sq in sliders.and_not(to_bb) {
            let pc = pos.piece_on(sq);
            let (c, pt) = (pc.color(), pc.piece_type());
            e.sub(c, attacks(c, pt, sq, before).0);
            e.add(c, attacks(c, pt, sq, occ).0);
        }
        e
    }

    /// The counts capped at 2.
    #[inline(always)]
    pub fn capped(&self) -> CappedEffects {
        let at_least = |c: usize, from: usize| self.planes[c][from..].iter().fold(0, |a, p| a | p);
        CappedEffects {
            one: [at_least(0, 0), at_least(1, 0)],
            two: [at_least(0, 1), at_least(1, 1)],
        }
    }

    /// The squares that colour `c` attacks (count ≥ 1).
    #[inline(always)]
    pub fn attacked(&self, c: Color) -> Bitboard {
        let [a, b, d, e] = self.planes[c.index()];
        Bitboard(a | b | d | e)
    }

    /// The count of colour `c` on square index `sq`.
    pub fn count(&self, c: Color, sq: usize) -> u32 {
        let planes = &self.planes[c.index()];
        (0..4).map(|k| (((planes[k] >> sq) & 1) as u32) << k).sum()
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
            let exact = EffectCounts::compute(&pos);
            for sq in Square::all() {
                for c in Color::ALL {
                    let want = pos.attack_count(c, sq).min(2) as usize;
                    assert_eq!(e.count(c, sq.index()), want, "{} {sq}", pos.to_sfen());
                    assert_eq!(exact.attacked(c).contains(sq), want > 0);
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

    /// Exact counts, from scratch and updated move by move, along random games with every
    /// kind of move (drops, captures, promotions, king moves).
    #[test]
    fn counts_updated_by_moves_equal_counts_from_scratch() {
        let mut pos = Position::startpos();
        let mut counts = EffectCounts::compute(&pos);
        let mut seed = 2024u64;
        let mut kinds = [0u32; 4];
        for _ in 0..3000 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                pos = Position::startpos();
                counts = EffectCounts::compute(&pos);
                continue;
            }
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let m = moves[(seed >> 33) as usize % moves.len()];
            kinds[0] += m.is_drop() as u32;
            kinds[1] += m.is_capture() as u32;
            kinds[2] += m.is_promotion() as u32;
            kinds[3] += (m.moved_piece().piece_type() == PieceType::KING) as u32;
            pos.do_move(m);
            counts = counts.after_move(&pos, m);
            assert_eq!(
                counts,
                EffectCounts::compute(&pos),
                "{} after {}",
                pos.to_sfen(),
                m.to_usi()
            );
            assert_eq!(counts.capped(), CappedEffects::compute(&pos));
            for sq in Square::all() {
                for c in Color::ALL {
                    assert_eq!(counts.count(c, sq.index()), pos.attack_count(c, sq));
                }
            }
        }
        assert!(
            kinds.iter().all(|&k| k > 50),
            "every kind of move seen: {kinds:?}"
        );
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
