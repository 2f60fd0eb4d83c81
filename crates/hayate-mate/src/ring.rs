//! The eight squares around a king as an 8-bit set, and what one piece placed on one of them
//! can cover: the tables that let the mate-in-1 probe rule out a piece type or a square before
//! looking at the board.
//!
//! Slots 0..8 are the king's neighbours in file-major index order: (file −1, rank −1, 0, +1),
//! (file 0, rank −1, +1), (file +1, rank −1, 0, +1). A piece's coverage here ignores every
//! blocker (the king is transparent, as for a king step): a superset of what it covers on the
//! board, so a test "the free squares are not all in it" is a proof that it cannot mate.

use hayate_core::attacks::king_attacks;
use hayate_core::{Bitboard, Color, PieceType, Square};

/// File and rank offsets of each slot.
const OFFSET: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

/// The slots of `b`'s squares next to `ksq` (squares elsewhere are ignored).
#[inline(always)]
pub(crate) fn ring8(ksq: Square, b: Bitboard) -> u8 {
    // Square index = file × 9 + rank: the neighbours lie at index offsets −10..=10, which
    // shifted by 10 are bits 0, 1, 2, 9, 11, 18, 19, 20.
    let x = (((b & king_attacks(ksq)).0 << 10) >> ksq.index()) as u32;
    ((x & 7) | ((x >> 6) & 8) | ((x >> 7) & 16) | ((x >> 13) & 0xe0)) as u8
}

/// The square of slot `i` next to `ksq` (the slot must be on the board).
#[inline(always)]
pub(crate) fn slot_square(ksq: Square, i: u32) -> Square {
    let (df, dr) = OFFSET[i as usize];
    Square::new((ksq.index() as i32 + df * 9 + dr) as u8)
}

/// The slot of `sq`, a square next to `ksq` (the core's numbering, as [`hayate_core::NextTo`]).
#[inline(always)]
pub(crate) fn slot(ksq: Square, sq: Square) -> usize {
    hayate_core::next_to_slot(ksq, sq)
}

/// Whether a piece of colour `c` and type `pt` on `from` attacks `to` on an empty board
/// (offsets in files and ranks; Black moves toward lower ranks).
const fn reaches(c: Color, pt: PieceType, from: (i32, i32), to: (i32, i32)) -> bool {
    let (df, dr) = (to.0 - from.0, to.1 - from.1);
    let fwd = match c {
        Color::Black => -1,
        Color::White => 1,
    };
    let adjacent = df.abs() <= 1 && dr.abs() <= 1 && (df != 0 || dr != 0);
    let gold = adjacent && !(dr == -fwd && df != 0);
    let silver = adjacent && dr != 0 && !(df == 0 && dr == -fwd);
    let diagonal = df.abs() == dr.abs() && df != 0;
    let orthogonal = (df == 0) != (dr == 0);
    match pt.raw() {
        1 => df == 0 && dr == fwd,
        2 => df == 0 && dr * fwd > 0,
        3 => df.abs() == 1 && dr == 2 * fwd,
        4 => silver,
        5 => diagonal,
        6 => orthogonal,
        7 | 9..=12 => gold,
        8 => adjacent,
        13 => diagonal || adjacent,
        14 => orthogonal || adjacent,
        _ => false,
    }
}

/// The ring tables of every colour and piece type: `checks[c][pt]`, the slots from which the
/// piece gives check, and `cover[c][pt][slot]`, the slots it covers from a checking slot (0
/// from the others).
struct Tables {
    checks: [[u8; 16]; 2],
    cover: [[[u8; 8]; 16]; 2],
}

const fn tables() -> Tables {
    let mut t = Tables {
        checks: [[0u8; 16]; 2],
        cover: [[[0u8; 8]; 16]; 2],
    };
    let mut ci = 0;
    while ci < 2 {
        let c = if ci == 0 { Color::Black } else { Color::White };
        let mut p = 1;
        while p <= 14 {
            let pt = match PieceType::from_u8(p as u8) {
                Some(pt) => pt,
                None => PieceType::NONE,
            };
            let mut s = 0;
            while s < 8 {
                if reaches(c, pt, OFFSET[s], (0, 0)) {
                    t.checks[ci][p] |= 1 << s;
                    let mut q = 0;
                    while q < 8 {
                        if q != s && reaches(c, pt, OFFSET[s], OFFSET[q]) {
                            t.cover[ci][p][s] |= 1 << q;
                        }
                        q += 1;
                    }
                }
                s += 1;
            }
            p += 1;
        }
        ci += 1;
    }
    t
}

const TABLES: Tables = tables();
const COVER: [[[u8; 8]; 16]; 2] = TABLES.cover;
const CHECKS: [[u8; 16]; 2] = TABLES.checks;

/// `[c][pt][free]`: [`mating_slots`] for every set of free slots.
const fn mating_table() -> [[[u8; 256]; 16]; 2] {
    let mut t = [[[0u8; 256]; 16]; 2];
    let mut c = 0;
    while c < 2 {
        let mut p = 1;
        while p <= 14 {
            let mut free = 0;
            while free < 256 {
                let mut s = 0;
                while s < 8 {
                    if CHECKS[c][p] & (1 << s) != 0 && free as u8 & !COVER[c][p][s] == 0 {
                        t[c][p][free] |= 1 << s;
                    }
                    s += 1;
                }
                free += 1;
            }
            p += 1;
        }
        c += 1;
    }
    t
}

static MATING: [[[u8; 256]; 16]; 2] = mating_table();

/// The slots from which a piece of colour `c` and type `pt` gives check and could cover every
/// slot of `free` (blockers ignored).
#[inline(always)]
pub(crate) fn mating_slots(c: Color, pt: PieceType, free: u8) -> u8 {
    MATING[c.index()][pt.index()][free as usize]
}

/// The slots a piece of type `pt` (checking from `slot`) covers there, blockers ignored; 0
/// when it does not check from `slot`.
#[inline(always)]
pub(crate) fn cover(c: Color, pt: PieceType, slot: usize) -> u8 {
    COVER[c.index()][pt.index()][slot]
}

/// Whether a piece of type `pt` gives check from `slot`.
#[cfg(test)]
fn checks_from(c: Color, pt: PieceType, slot: usize) -> bool {
    CHECKS[c.index()][pt.index()] & (1 << slot) != 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use hayate_core::attacks;

    /// The tables agree with the board's attack sets on an empty board, for a king on every
    /// square, and the slot mapping round-trips.
    #[test]
    fn tables_agree_with_empty_board_attacks() {
        let mut checks = 0;
        for ksq in Square::all() {
            let ring = king_attacks(ksq);
            for t in ring {
                let i = slot(ksq, t);
                assert_eq!(slot_square(ksq, i as u32), t);
                assert_eq!(ring8(ksq, Bitboard::from_square(t)), 1 << i);
            }
            assert_eq!(ring8(ksq, ring).count_ones(), ring.count());
            for c in [Color::Black, Color::White] {
                for p in 1..=14u8 {
                    let Some(pt) = PieceType::from_u8(p) else {
                        continue;
                    };
                    for t in ring {
                        let i = slot(ksq, t);
                        let a = attacks(c, pt, t, Bitboard::EMPTY);
                        assert_eq!(checks_from(c, pt, i), a.contains(ksq), "{c:?} {pt:?} {t}");
                        if a.contains(ksq) {
                            checks += 1;
                            // On the board the ring may be cut by its edge: a subset.
                            let on_board = ring8(ksq, a);
                            assert_eq!(on_board & !cover(c, pt, i), 0, "{c:?} {pt:?} {ksq} {t}");
                            if ring.count() == 8 {
                                assert_eq!(on_board, cover(c, pt, i), "{c:?} {pt:?} {t}");
                            }
                        } else {
                            assert_eq!(cover(c, pt, i), 0);
                        }
                    }
                }
            }
        }
        assert_eq!(checks, 9456, "checking placements");
    }

    #[test]
    fn mating_slots_need_every_free_slot_covered() {
        // A Black gold on the king's rank −1 side (slot 3) checks by stepping back and covers
        // only the two squares beside it (slots 0 and 5).
        assert_eq!(cover(Color::Black, PieceType::GOLD, 3), 0b0010_0001);
        // A Black rook on slot 3 covers slots 0 and 5 and, through the king, slot 4.
        assert_eq!(cover(Color::Black, PieceType::ROOK, 3), 0b0011_0001);
        assert_eq!(mating_slots(Color::Black, PieceType::GOLD, 0), CHECKS[0][7]);
        assert_eq!(mating_slots(Color::Black, PieceType::KNIGHT, 0), 0);
        assert_eq!(mating_slots(Color::Black, PieceType::GOLD, 0xff), 0);
    }
}
