//! The KKPEE9 table, kept compact.
//!
//! The reference table is `KKPEE[kb][kw][sq][m1][m2][pc] = (int16)(score − piece_term[pc])`,
//! where `score` (a double) depends on the two king squares, the square and both capped
//! effect counts, and `piece_term` is an integer per piece code. The piece enters only through
//! that integer, so storing, per `(kb, kw, sq, m1, m2)`, `floor(score)` and whether `score` has
//! a fraction is exact: with `d = floor(score) − term`, C's truncation toward zero gives `d`
//! when `d ≥ 0` or `score` is whole, and `d + 1` otherwise ([`entry`]). That is 9.6 MB
//! instead of 306 MB; one evaluation (both kings fixed) reads a 1,458-byte block (81 squares ×
//! 3 × 3), which stays in L1 while the kings stand still.

use crate::material::PIECE_VALUE;
use hayate_core::{Color, Piece, Square};

/// Packed scores per square: `m1` (3) × `m2` (3).
pub const ROW: usize = 3 * 3;
/// Packed scores per king pair: 81 square rows.
pub const KING_PAIR_BLOCK: usize = Square::NUM * ROW;
/// Packed scores in the whole table (81 · 81 · 81 · 3 · 3).
pub const ENTRIES: usize = Square::NUM * Square::NUM * KING_PAIR_BLOCK;

/// The reference entry from a packed score (`floor(score) << 1 | has_fraction`) and a piece
/// term: `(int16)(score − term)`, C's truncation toward zero.
#[inline(always)]
pub fn entry(packed: i16, term: i32) -> i32 {
    let d = (packed >> 1) as i32 - term;
    d + ((packed & 1) as i32 & (d < 0) as i32)
}

/// The packed form of a score: `floor(score) << 1 | has_fraction`.
fn pack(score: f64) -> i16 {
    let floor = score.floor();
    ((floor as i16) << 1) | (score != floor) as i16
}

/// `our[d] = 83*1024/(d+1)` and `their[d] = 92*1024/(d+1)`, `d` the king distance 0..=8.
fn distance_values(numerator: i64) -> [i64; 9] {
    std::array::from_fn(|d| numerator * 1024 / (d as i64 + 1))
}

/// `multi[m] = m == 0 ? 0 : int(6365 - 0.8525^(m-1) * 5341)` for the capped counts 0..=2.
fn multi_values() -> [i64; 3] {
    std::array::from_fn(|m| {
        if m == 0 {
            0
        } else {
            (6365.0 - 0.8525f64.powi(m as i32 - 1) * 5341.0) as i64
        }
    })
}

/// `T[k][sq][m] = (double)(multi[m] * v[dist(k, sq)]) / (1024*1024)` for one distance table `v`.
fn king_effect_table(v: &[i64; 9]) -> Vec<[f64; 3]> {
    let multi = multi_values();
    let mut t = vec![[0.0; 3]; Square::NUM * Square::NUM];
    for k in 0..Square::NUM {
        for sq in 0..Square::NUM {
            let d = Square::new(k as u8).distance(Square::new(sq as u8)) as usize;
            for (m, &mu) in multi.iter().enumerate() {
                t[k * Square::NUM + sq][m] = (mu * v[d]) as f64 / (1024.0 * 1024.0);
            }
        }
    }
    t
}

/// `value(pc) * 104 / 1024` with C integer division (White's values negative), by piece code.
///
/// Kings are included (±1523): the two kings' terms cancel in the sum except for the
/// truncation of each entry, and the reference values need exactly that truncation.
pub fn piece_terms() -> [i32; Piece::NUM] {
    std::array::from_fn(|code| {
        let Some(pc) = Piece::from_u8(code as u8) else {
            return 0;
        };
        if pc.is_empty() {
            return 0;
        }
        let v = PIECE_VALUE[pc.piece_type().index()];
        let v = if pc.color() == Color::White { -v } else { v };
        // Rust's `/` truncates toward zero like C's.
        v * 104 / 1024
    })
}

/// The two kings' effect tables, `our` and `their` (see [`king_effect_table`]).
struct KingTables {
    our: Vec<[f64; 3]>,
    their: Vec<[f64; 3]>,
}

impl KingTables {
    fn new() -> KingTables {
        KingTables {
            our: king_effect_table(&distance_values(83)),
            their: king_effect_table(&distance_values(92)),
        }
    }

    /// The reference's double `score` of square `sq` with the kings on `kb` and `kw`, Black's
    /// capped count `m1` and White's `m2`.
    #[inline(always)]
    fn score(&self, kb: usize, kw: usize, sq: usize, m1: usize, m2: usize) -> f64 {
        let n = Square::NUM;
        let (ikw, isq) = (n - 1 - kw, n - 1 - sq);
        let (ob, tb) = (&self.our[kb * n + sq], &self.their[kb * n + sq]);
        let (ow, tw) = (&self.our[ikw * n + isq], &self.their[ikw * n + isq]);
        // Same operation order as the definition: double arithmetic is not associative.
        ob[m1] - tb[m2] - ow[m2] + tw[m1]
    }
}

/// Fills `out`, the blocks of the black king squares `kb_range`, in place.
fn fill_rows(out: &mut [i16], kb_range: std::ops::Range<usize>) {
    let kings = KingTables::new();
    let mut i = 0;
    for kb in kb_range {
        for kw in 0..Square::NUM {
            for sq in 0..Square::NUM {
                for m1 in 0..3 {
                    for m2 in 0..3 {
                        out[i] = pack(kings.score(kb, kw, sq, m1, m2));
                        i += 1;
                    }
                }
            }
        }
    }
}

/// Builds the whole table on `threads` threads (each fills a contiguous range of black king squares).
pub fn build(threads: usize) -> Box<[i16]> {
    // `vec![0; n]` comes from zeroed pages that the threads fault in while they fill them, so
    // the huge-page hint comes before any is touched.
    let mut table = vec![0i16; ENTRIES].into_boxed_slice();
    hayate_core::advise_huge_pages(&table);
    let threads = threads.clamp(1, Square::NUM);
    let per = Square::NUM.div_ceil(threads);
    std::thread::scope(|s| {
        let mut rest: &mut [i16] = &mut table;
        let mut kb = 0;
        while kb < Square::NUM {
            let end = (kb + per).min(Square::NUM);
            let (mine, tail) = rest.split_at_mut((end - kb) * Square::NUM * KING_PAIR_BLOCK);
            rest = tail;
            let range = kb..end;
            s.spawn(move || fill_rows(mine, range));
            kb = end;
        }
    });
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formula_constants_match_the_definition() {
        assert_eq!(multi_values(), [0, 1024, 1811]);
        assert_eq!(distance_values(83)[0], 84992);
        assert_eq!(distance_values(92)[8], 92 * 1024 / 9);
        let p = piece_terms();
        assert_eq!(
            p[Piece::new(Color::Black, hayate_core::PieceType::PAWN).index()],
            9
        );
        assert_eq!(
            p[Piece::new(Color::White, hayate_core::PieceType::PAWN).index()],
            -9
        );
        assert_eq!(
            p[Piece::new(Color::White, hayate_core::PieceType::DRAGON).index()],
            -141
        );
        assert_eq!(
            p[Piece::new(Color::Black, hayate_core::PieceType::KING).index()],
            1523
        );
        assert_eq!(p[0], 0);
    }

    /// Every packed score, with every piece term, gives the reference's `(int16)(score − term)`.
    #[test]
    fn packed_entries_equal_the_reference_conversion() {
        let kings = KingTables::new();
        let terms = piece_terms();
        let mut checked = 0u64;
        for kb in 0..Square::NUM {
            for kw in 0..Square::NUM {
                for sq in 0..Square::NUM {
                    for m1 in 0..3 {
                        for m2 in 0..3 {
                            let score = kings.score(kb, kw, sq, m1, m2);
                            let packed = pack(score);
                            for &t in &terms {
                                let want = (score - t as f64) as i16 as i32;
                                assert_eq!(entry(packed, t), want, "{kb} {kw} {sq} {m1} {m2} {t}");
                                checked += 1;
                            }
                        }
                    }
                }
            }
        }
        assert_eq!(checked, (ENTRIES * Piece::NUM) as u64);
    }

    #[test]
    fn entry_truncates_toward_zero() {
        // 2.5 − 9 = −6.5 → −6; −2.5 − 0 → −2; 3.0 − 1 → 2; −3.0 − 1 → −4; 2.5 − 0 → 2.
        assert_eq!(entry(pack(2.5), 9), -6);
        assert_eq!(entry(pack(-2.5), 0), -2);
        assert_eq!(entry(pack(3.0), 1), 2);
        assert_eq!(entry(pack(-3.0), 1), -4);
        assert_eq!(entry(pack(2.5), 0), 2);
    }
}
