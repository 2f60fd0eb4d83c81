//! The KKPEE9 table: `KKPEE[kb][kw][sq][m1][m2][pc]` as `i16`, built from formulas.
//!
//! Layout: the two king squares are outermost, so one evaluation (both kings fixed) reads a
//! single 46,656-byte block (81 squares × 3 × 3 × 32 pieces × 2 bytes) that stays in L2 while
//! the kings stand still; within it the square comes next, so the 81 lookups of one evaluation
//! walk the block forward, one 576-byte row per square.

use crate::material::PIECE_VALUE;
use hayate_core::{Color, Piece, Square};

/// Entries per square row: `m1` (3) × `m2` (3) × piece code (32).
pub const ROW: usize = 3 * 3 * Piece::NUM;
/// Entries per king pair: 81 square rows.
pub const KING_PAIR_BLOCK: usize = Square::NUM * ROW;
/// Entries in the whole table (81 · 81 · 81 · 3 · 3 · 32).
pub const ENTRIES: usize = Square::NUM * Square::NUM * KING_PAIR_BLOCK;

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
fn piece_terms() -> [i64; Piece::NUM] {
    std::array::from_fn(|code| {
        let Some(pc) = Piece::from_u8(code as u8) else {
            return 0;
        };
        if pc.is_empty() {
            return 0;
        }
        let v = PIECE_VALUE[pc.piece_type().index()] as i64;
        let v = if pc.color() == Color::White { -v } else { v };
        // Rust's `/` truncates toward zero like C's.
        v * 104 / 1024
    })
}

/// Fills `out`, the blocks of the black king squares `kb_range`, in place.
fn fill_rows(out: &mut [i16], kb_range: std::ops::Range<usize>) {
    let our = king_effect_table(&distance_values(83));
    let their = king_effect_table(&distance_values(92));
    let pterm = piece_terms();
    let n = Square::NUM;
    let mut i = 0;
    for kb in kb_range {
        for kw in 0..n {
            let ikw = n - 1 - kw;
            for sq in 0..n {
                let isq = n - 1 - sq;
                let ob = &our[kb * n + sq];
                let tb = &their[kb * n + sq];
                let ow = &our[ikw * n + isq];
                let tw = &their[ikw * n + isq];
                for m1 in 0..3 {
                    for m2 in 0..3 {
                        // Same operation order as the definition: double arithmetic is not associative.
                        let score = ob[m1] - tb[m2] - ow[m2] + tw[m1];
                        let row = &mut out[i..i + Piece::NUM];
                        for (e, &p) in row.iter_mut().zip(&pterm) {
                            // `as` truncates toward zero like the C++ int16 conversion.
                            *e = (score - p as f64) as i16;
                        }
                        i += Piece::NUM;
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
}
