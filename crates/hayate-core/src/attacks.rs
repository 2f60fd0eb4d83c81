//! Attack tables, built at compile time.
//!
//! Step pieces use per-colour tables. Sliders use the obstruction-difference method on the
//! `u128` bitboard: each line through a square is split into the part below the square (lower
//! indices) and above it; the nearest blocker below is the most significant occupied bit, the
//! nearest above the least significant. That costs a few 128-bit operations per line and needs
//! only 10 KB of masks, which measured faster here than large magic tables (see the note on
//! issue 2 and `benches/core.rs`).

use crate::{Bitboard, Color, PieceType, Square};

/// (file delta, rank delta) steps as seen by Black; White negates the rank delta.
const KING_STEPS: [(i8, i8); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];
const GOLD_STEPS: [(i8, i8); 6] = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (0, 1)];
const SILVER_STEPS: [(i8, i8); 5] = [(-1, -1), (0, -1), (1, -1), (-1, 1), (1, 1)];
const KNIGHT_STEPS: [(i8, i8); 2] = [(-1, -2), (1, -2)];
const PAWN_STEPS: [(i8, i8); 1] = [(0, -1)];

const fn step_set(sq: usize, color: usize, steps: &[(i8, i8)]) -> u128 {
    let f = (sq / 9) as i8;
    let r = (sq % 9) as i8;
    let mut b = 0u128;
    let mut i = 0;
    while i < steps.len() {
        let (df, dr) = steps[i];
        let dr = if color == 0 { dr } else { -dr };
        let (nf, nr) = (f + df, r + dr);
        if nf >= 0 && nf < 9 && nr >= 0 && nr < 9 {
            b |= 1u128 << (nf as usize * 9 + nr as usize);
        }
        i += 1;
    }
    b
}

/// The squares reached from `sq` walking (df, dr) until the edge, on an empty board.
const fn ray(sq: usize, df: i8, dr: i8) -> u128 {
    let mut f = (sq / 9) as i8 + df;
    let mut r = (sq % 9) as i8 + dr;
    let mut b = 0u128;
    while f >= 0 && f < 9 && r >= 0 && r < 9 {
        b |= 1u128 << (f as usize * 9 + r as usize);
        f += df;
        r += dr;
    }
    b
}

/// Lines: 0 = file (vertical), 1 = rank (horizontal), 2 = diagonal with index step ±10,
/// 3 = diagonal with index step ±8. `LOWER` is the ray toward lower indices, `UPPER` the other.
const LINE_DIRS: [(i8, i8); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

const fn build_line_masks(upper: bool) -> [[u128; 81]; 4] {
    let mut t = [[0u128; 81]; 4];
    let mut l = 0;
    while l < 4 {
        let (df, dr) = LINE_DIRS[l];
        let mut sq = 0;
        while sq < 81 {
            // (df, dr) always increases the index (+1, +9, +10, +8).
            t[l][sq] = if upper {
                ray(sq, df, dr)
            } else {
                ray(sq, -df, -dr)
            };
            sq += 1;
        }
        l += 1;
    }
    t
}

static LINE_LOWER: [[u128; 81]; 4] = build_line_masks(false);
static LINE_UPPER: [[u128; 81]; 4] = build_line_masks(true);

const fn build_step_table() -> [[[u128; 81]; 16]; 2] {
    let mut t = [[[0u128; 81]; 16]; 2];
    let mut c = 0;
    while c < 2 {
        let mut sq = 0;
        while sq < 81 {
            let king = step_set(sq, c, &KING_STEPS);
            let gold = step_set(sq, c, &GOLD_STEPS);
            t[c][1][sq] = step_set(sq, c, &PAWN_STEPS);
            t[c][2][sq] = if c == 0 {
                ray(sq, 0, -1)
            } else {
                ray(sq, 0, 1)
            };
            t[c][3][sq] = step_set(sq, c, &KNIGHT_STEPS);
            t[c][4][sq] = step_set(sq, c, &SILVER_STEPS);
            let bishop = ray(sq, 1, 1) | ray(sq, 1, -1) | ray(sq, -1, 1) | ray(sq, -1, -1);
            let rook = ray(sq, 0, 1) | ray(sq, 0, -1) | ray(sq, 1, 0) | ray(sq, -1, 0);
            t[c][5][sq] = bishop;
            t[c][6][sq] = rook;
            t[c][7][sq] = gold;
            t[c][8][sq] = king;
            t[c][9][sq] = gold;
            t[c][10][sq] = gold;
            t[c][11][sq] = gold;
            t[c][12][sq] = gold;
            t[c][13][sq] = bishop | king;
            t[c][14][sq] = rook | king;
            sq += 1;
        }
        c += 1;
    }
    t
}

/// Attacks of each piece type from each square on an empty board, per colour.
static PSEUDO: [[[u128; 81]; 16]; 2] = build_step_table();

const DIRS8: [(i8, i8); 8] = KING_STEPS;

const fn build_between_and_line() -> ([[u128; 81]; 81], [[u128; 81]; 81]) {
    let mut between = [[0u128; 81]; 81];
    let mut line = [[0u128; 81]; 81];
    let mut a = 0;
    while a < 81 {
        let mut d = 0;
        while d < 8 {
            let (df, dr) = DIRS8[d];
            let full = ray(a, df, dr) | ray(a, -df, -dr) | (1u128 << a);
            let mut f = (a / 9) as i8 + df;
            let mut r = (a % 9) as i8 + dr;
            let mut acc = 0u128;
            while f >= 0 && f < 9 && r >= 0 && r < 9 {
                let b = f as usize * 9 + r as usize;
                between[a][b] = acc;
                line[a][b] = full;
                acc |= 1u128 << b;
                f += df;
                r += dr;
            }
            d += 1;
        }
        a += 1;
    }
    (between, line)
}

static BETWEEN_LINE: ([[u128; 81]; 81], [[u128; 81]; 81]) = build_between_and_line();

/// Attacks of a piece of type `pt` and colour `c` on `sq` on an empty board (sliders see to the edge).
#[inline(always)]
pub fn pseudo_attacks(c: Color, pt: PieceType, sq: Square) -> Bitboard {
    Bitboard(PSEUDO[c.index()][pt.index()][sq.index()])
}

/// Squares strictly between `a` and `b` when they share a line, else empty.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(BETWEEN_LINE.0[a.index()][b.index()])
}

/// The whole line through `a` and `b` (edge to edge, both included) when they share one, else empty.
#[inline(always)]
pub fn line_through(a: Square, b: Square) -> Bitboard {
    Bitboard(BETWEEN_LINE.1[a.index()][b.index()])
}

/// Attacks along a ray toward lower indices: the nearest blocker is the highest occupied bit.
#[inline(always)]
fn lower_ray(mask: u128, occ: u128) -> u128 {
    let o = occ & mask;
    let nearest = 1u128 << (127 - (o | 1).leading_zeros());
    mask & !nearest.wrapping_sub(1)
}

/// Attacks along a ray toward higher indices: the nearest blocker is the lowest occupied bit.
#[inline(always)]
fn upper_ray(mask: u128, occ: u128) -> u128 {
    let o = occ & mask;
    mask & (o ^ o.wrapping_sub(1))
}

#[inline(always)]
fn line_attack(line: usize, sq: Square, occ: u128) -> u128 {
    lower_ray(LINE_LOWER[line][sq.index()], occ) | upper_ray(LINE_UPPER[line][sq.index()], occ)
}

/// Lance attacks for colour `c` from `sq` with occupancy `occ`.
#[inline(always)]
pub fn lance_attacks(c: Color, sq: Square, occ: Bitboard) -> Bitboard {
    match c {
        // Black moves toward rank 1, i.e. lower indices within the file.
        Color::Black => Bitboard(lower_ray(LINE_LOWER[0][sq.index()], occ.0)),
        Color::White => Bitboard(upper_ray(LINE_UPPER[0][sq.index()], occ.0)),
    }
}

/// Bishop attacks from `sq` with occupancy `occ`.
#[inline(always)]
pub fn bishop_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    Bitboard(line_attack(2, sq, occ.0) | line_attack(3, sq, occ.0))
}

/// Rook attacks from `sq` with occupancy `occ`.
#[inline(always)]
pub fn rook_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    Bitboard(line_attack(0, sq, occ.0) | line_attack(1, sq, occ.0))
}

/// Rook attacks along the file only (both directions).
#[inline(always)]
pub fn rook_file_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    Bitboard(line_attack(0, sq, occ.0))
}

/// King attacks from `sq`.
#[inline(always)]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(PSEUDO[0][8][sq.index()])
}

/// Gold attacks for colour `c` from `sq`.
#[inline(always)]
pub fn gold_attacks(c: Color, sq: Square) -> Bitboard {
    Bitboard(PSEUDO[c.index()][7][sq.index()])
}

/// Silver attacks for colour `c` from `sq`.
#[inline(always)]
pub fn silver_attacks(c: Color, sq: Square) -> Bitboard {
    Bitboard(PSEUDO[c.index()][4][sq.index()])
}

/// Knight attacks for colour `c` from `sq`.
#[inline(always)]
pub fn knight_attacks(c: Color, sq: Square) -> Bitboard {
    Bitboard(PSEUDO[c.index()][3][sq.index()])
}

/// Pawn attacks for colour `c` from `sq`.
#[inline(always)]
pub fn pawn_attacks(c: Color, sq: Square) -> Bitboard {
    Bitboard(PSEUDO[c.index()][1][sq.index()])
}

/// Attacks of a piece of colour `c` and type `pt` on `sq` with occupancy `occ`.
#[inline(always)]
pub fn attacks(c: Color, pt: PieceType, sq: Square, occ: Bitboard) -> Bitboard {
    match pt.raw() {
        2 => lance_attacks(c, sq, occ),
        5 => bishop_attacks(sq, occ),
        6 => rook_attacks(sq, occ),
        13 => bishop_attacks(sq, occ) | king_attacks(sq),
        14 => rook_attacks(sq, occ) | king_attacks(sq),
        _ => Bitboard(PSEUDO[c.index()][pt.index()][sq.index()]),
    }
}

/// The squares at most 2 (4) files and ranks away from each square: where a stepping piece
/// (a knight) must stand to attack a square next to it.
pub(crate) static WITHIN_2: [u128; 81] = within(2);
pub(crate) static WITHIN_4: [u128; 81] = within(4);

const fn within(r: usize) -> [u128; 81] {
    let mut t = [0u128; 81];
    let mut a = 0usize;
    while a < 81 {
        let mut b = 0usize;
        while b < 81 {
            if (a / 9).abs_diff(b / 9) <= r && (a % 9).abs_diff(b % 9) <= r {
                t[a] |= 1u128 << b;
            }
            b += 1;
        }
        a += 1;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(f: u8, r: u8) -> Square {
        Square::from_file_rank(f, r).unwrap()
    }

    /// Slow reference: walk each direction until blocked.
    fn slow_slider(sq0: Square, occ: Bitboard, dirs: &[(i8, i8)]) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for &(df, dr) in dirs {
            let (mut f, mut r) = (sq0.file() as i8 + df, sq0.rank() as i8 + dr);
            while (1..=9).contains(&f) && (1..=9).contains(&r) {
                let s = Square::from_file_rank(f as u8, r as u8).unwrap();
                b.set(s);
                if occ.contains(s) {
                    break;
                }
                f += df;
                r += dr;
            }
        }
        b
    }

    #[test]
    fn sliders_match_slow_walk_on_random_occupancies() {
        let mut x: u128 = 0x9e3779b97f4a7c15f39cc0605cedc834;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let occ = Bitboard(x & (x >> 3) & Bitboard::ALL.0);
            for s in Square::all() {
                let diag = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
                let orth = [(1, 0), (-1, 0), (0, 1), (0, -1)];
                assert_eq!(bishop_attacks(s, occ), slow_slider(s, occ, &diag));
                assert_eq!(rook_attacks(s, occ), slow_slider(s, occ, &orth));
                assert_eq!(
                    lance_attacks(Color::Black, s, occ),
                    slow_slider(s, occ, &[(0, -1)])
                );
                assert_eq!(
                    lance_attacks(Color::White, s, occ),
                    slow_slider(s, occ, &[(0, 1)])
                );
            }
        }
    }

    #[test]
    fn step_tables() {
        // Black knight on 5e jumps to 4c and 6c; White's to 4g and 6g.
        let k = knight_attacks(Color::Black, sq(5, 5));
        assert_eq!(k.count(), 2);
        assert!(k.contains(sq(4, 3)) && k.contains(sq(6, 3)));
        assert!(knight_attacks(Color::White, sq(5, 5)).contains(sq(6, 7)));
        assert_eq!(gold_attacks(Color::Black, sq(5, 5)).count(), 6);
        assert!(!gold_attacks(Color::Black, sq(5, 5)).contains(sq(4, 6)));
        assert_eq!(silver_attacks(Color::White, sq(5, 5)).count(), 5);
        assert!(silver_attacks(Color::White, sq(5, 5)).contains(sq(5, 6)));
        assert_eq!(king_attacks(sq(1, 1)).count(), 3);
        assert!(pawn_attacks(Color::Black, sq(1, 1)).is_empty());
        assert_eq!(between(sq(1, 1), sq(9, 9)).count(), 7);
        assert!(between(sq(1, 1), sq(2, 3)).is_empty());
        assert_eq!(line_through(sq(5, 5), sq(5, 7)), Bitboard::file(5));
    }
}
