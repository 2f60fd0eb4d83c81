//! dlshogi's input features: `input1` (62 planes of 9×9, per square) and `input2` (57 planes,
//! or 119 with the entering-king planes, each all ones or all zeros).
//!
//! Layout (see `reference/deep-learning.md` §1.2), always from the side to move: colour index 0
//! is the side to move, and when White is to move the board is rotated (`sq -> 80 - sq`).
//!
//! `input1`, channel `c * 31 + f` (c = 0 own, 1 opponent):
//! - `f = 0..14`: pieces of type `f + 1` (P L N S B R G K +P +L +N +S +B +R);
//! - `f = 14..28`: squares attacked by pieces of type `f - 13` (occupancy-aware, blockers stop
//!   sliders, the blocker's square is attacked);
//! - `f = 28..31`: number of attackers of colour `c` on the square, as a thermometer ≥1, ≥2, ≥3.
//!
//! `input2`: planes `0..28` the side to move's hand, `28..56` the opponent's, each as a thermometer
//! per type in the order P(8) L(4) N(4) S(4) G(4) B(2) R(2) with counts clipped; plane 56 is set
//! when the side to move is in check. With the entering-king planes, `57 + c * 31` (c as above):
//! - `+0`: c's king stands in the enemy camp (its last three ranks);
//! - `+1 + (10 - n)` when `0 <= 10 - n < 10`, `n` = c's pieces in the camp, king excluded;
//! - `+11 + (need - points)` when `0 <= need - points < 20`, with `points` as for the 27-point
//!   declaration (5 per bishop/rook, 1 per other piece, in the camp and in hand) and `need` = 28
//!   for Black, 27 for White. cshogi sets no plane when the points exceed `need` (checked); the
//!   same is assumed for more than ten pieces in the camp (not covered by the reference data).
//!
//! The planes are kept as bitboards; [`DlshogiFeatures::write_input1`] and
//! [`DlshogiFeatures::write_input2`] expand them to `f32` for a backend.

use crate::orient::orient;
use hayate_core::{Bitboard, Color, PieceType, Position, attacks};

/// Number of piece types with a plane (P..+R).
pub const PIECE_TYPE_PLANES: usize = 14;
/// Attack-count thermometer planes per colour (≥1, ≥2, ≥3).
pub const MAX_ATTACK_NUM: usize = 3;
/// `input1` planes per colour: 14 pieces + 14 attacks + 3 counts.
pub const INPUT1_PER_COLOR: usize = 2 * PIECE_TYPE_PLANES + MAX_ATTACK_NUM;
/// `input1` planes.
pub const INPUT1_PLANES: usize = 2 * INPUT1_PER_COLOR;
/// The hand pieces in dlshogi's HandPiece order, used for the hand planes.
pub const HAND_PIECE_ORDER: [PieceType; 7] = [
    PieceType::PAWN,
    PieceType::LANCE,
    PieceType::KNIGHT,
    PieceType::SILVER,
    PieceType::GOLD,
    PieceType::BISHOP,
    PieceType::ROOK,
];
/// Thermometer length of each hand type, in [`HAND_PIECE_ORDER`].
pub const HAND_PLANES: [usize; 7] = [8, 4, 4, 4, 4, 2, 2];
/// Hand planes per colour (the sum of [`HAND_PLANES`]).
pub const HAND_PLANES_PER_COLOR: usize = 28;
/// `input2` planes without the entering-king planes.
pub const INPUT2_PLANES: usize = 2 * HAND_PLANES_PER_COLOR + 1;
/// Entering-king planes per colour.
pub const NYUGYOKU_PLANES_PER_COLOR: usize = 31;
/// `input2` planes with the entering-king planes.
pub const INPUT2_PLANES_NYUGYOKU: usize = INPUT2_PLANES + 2 * NYUGYOKU_PLANES_PER_COLOR;
/// Bytes of dlshogi's packed `input1` (`ceil(62 * 81 / 8)`).
pub const PACKED_INPUT1_BYTES: usize = (INPUT1_PLANES * 81).div_ceil(8);

/// The plane index of the in-check plane of `input2`.
pub const IN_CHECK_PLANE: usize = 2 * HAND_PLANES_PER_COLOR;

/// The dlshogi inputs of one position, as bit planes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct DlshogiFeatures {
    input1: [Bitboard; INPUT1_PLANES],
    /// Bit `i` set when plane `i` of `input2` is all ones.
    input2: u128,
    nyugyoku: bool,
}

impl DlshogiFeatures {
    /// Extracts the features of `pos`; `nyugyoku` adds the 62 entering-king planes to `input2`.
    pub fn new(pos: &Position, nyugyoku: bool) -> DlshogiFeatures {
        let us = pos.side_to_move();
        let occ = pos.occupied();
        let mut input1 = [Bitboard::EMPTY; INPUT1_PLANES];
        for c in Color::ALL {
            // Relative colour: 0 for the side to move.
            let base = if c == us { 0 } else { INPUT1_PER_COLOR };
            let (mut ge1, mut ge2, mut ge3) = (Bitboard::EMPTY, Bitboard::EMPTY, Bitboard::EMPTY);
            for code in 1..=PIECE_TYPE_PLANES as u8 {
                let Some(pt) = PieceType::from_u8(code) else {
                    continue;
                };
                let bb = pos.pieces_of(c, pt);
                if bb.is_empty() {
                    continue;
                }
                let mut union = Bitboard::EMPTY;
                for sq in bb {
                    let a = attacks(c, pt, sq, occ);
                    union |= a;
                    // Thermometer update: a square reaches ≥k+1 when it was ≥k and is hit again.
                    ge3 |= ge2 & a;
                    ge2 |= ge1 & a;
                    ge1 |= a;
                }
                let i = code as usize - 1;
                input1[base + i] = orient(bb, us);
                input1[base + PIECE_TYPE_PLANES + i] = orient(union, us);
            }
            input1[base + 2 * PIECE_TYPE_PLANES] = orient(ge1, us);
            input1[base + 2 * PIECE_TYPE_PLANES + 1] = orient(ge2, us);
            input1[base + 2 * PIECE_TYPE_PLANES + 2] = orient(ge3, us);
        }

        let mut input2 = 0u128;
        for (rel, c) in [us, !us].into_iter().enumerate() {
            let hand = pos.hand(c);
            let mut plane = rel * HAND_PLANES_PER_COLOR;
            for (pt, &max) in HAND_PIECE_ORDER.iter().zip(HAND_PLANES.iter()) {
                let n = (hand.count(*pt) as usize).min(max);
                input2 |= ((1u128 << n) - 1) << plane;
                plane += max;
            }
        }
        if pos.in_check() {
            input2 |= 1 << IN_CHECK_PLANE;
        }
        if nyugyoku {
            for (rel, c) in [us, !us].into_iter().enumerate() {
                input2 |=
                    nyugyoku_planes(pos, c) << (INPUT2_PLANES + rel * NYUGYOKU_PLANES_PER_COLOR);
            }
        }
        DlshogiFeatures {
            input1,
            input2,
            nyugyoku,
        }
    }

    /// Plane `ch` of `input1` (`ch < 62`), squares from the side to move's view.
    ///
    /// # Panics
    /// If `ch >= 62`.
    #[inline]
    pub fn input1_plane(&self, ch: usize) -> Bitboard {
        self.input1[ch]
    }

    /// All `input1` planes.
    #[inline]
    pub fn input1_planes(&self) -> &[Bitboard; INPUT1_PLANES] {
        &self.input1
    }

    /// The `input2` planes as bits: bit `i` set when plane `i` is all ones.
    #[inline]
    pub fn input2_bits(&self) -> u128 {
        self.input2
    }

    /// Number of `input2` planes: 57, or 119 with the entering-king planes.
    #[inline]
    pub fn input2_planes(&self) -> usize {
        if self.nyugyoku {
            INPUT2_PLANES_NYUGYOKU
        } else {
            INPUT2_PLANES
        }
    }

    /// Indices `ch * 81 + sq` of the non-zero cells of `input1`, ascending.
    pub fn input1_nonzero(&self) -> impl Iterator<Item = usize> + '_ {
        self.input1
            .iter()
            .enumerate()
            .flat_map(|(ch, bb)| bb.iter().map(move |sq| ch * 81 + sq.index()))
    }

    /// Indices of the set `input2` planes, ascending.
    pub fn input2_set(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.input2_planes()).filter(|i| self.input2 >> i & 1 != 0)
    }

    /// Writes `input1` as `f32` `[62][9][9]` (index `ch * 81 + sq`), overwriting all of `out`.
    ///
    /// # Panics
    /// If `out.len() != 62 * 81`.
    pub fn write_input1(&self, out: &mut [f32]) {
        assert_eq!(out.len(), INPUT1_PLANES * 81, "input1 buffer length");
        for (plane, bb) in out.chunks_exact_mut(81).zip(self.input1.iter()) {
            expand_bitboard(*bb, plane);
        }
    }

    /// Writes `input2` as `f32` `[n][9][9]` (n = [`Self::input2_planes`]), overwriting `out`.
    ///
    /// # Panics
    /// If `out.len() != n * 81`.
    pub fn write_input2(&self, out: &mut [f32]) {
        assert_eq!(out.len(), self.input2_planes() * 81, "input2 buffer length");
        for (i, plane) in out.chunks_exact_mut(81).enumerate() {
            plane.fill((self.input2 >> i & 1) as f32);
        }
    }

    /// Packs `input1` bit by bit in `ch * 81 + sq` order, LSB first within each byte, as
    /// dlshogi's engine sends it to the GPU.
    pub fn pack_input1(&self, out: &mut [u8; PACKED_INPUT1_BYTES]) {
        out.fill(0);
        for i in self.input1_nonzero() {
            out[i / 8] |= 1 << (i % 8);
        }
    }
}

/// Eight `f32` values (0 or 1) for each byte value, bit 0 first.
static BYTE_TO_F32: [[f32; 8]; 256] = {
    let mut t = [[0.0; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let mut i = 0;
        while i < 8 {
            t[b][i] = ((b >> i) & 1) as f32;
            i += 1;
        }
        b += 1;
    }
    t
};

/// Writes the 81 bits of `bb` as 0.0/1.0 into `plane` (length 81), a byte at a time: a table
/// lookup per byte is several times faster than shifting the `u128` per square.
#[inline]
pub(crate) fn expand_bitboard(bb: Bitboard, plane: &mut [f32]) {
    let bytes = bb.0.to_le_bytes();
    for (chunk, &byte) in plane.chunks_exact_mut(8).zip(bytes.iter()) {
        chunk.copy_from_slice(&BYTE_TO_F32[byte as usize]);
    }
    plane[80] = (bytes[10] & 1) as f32;
}

/// The 31 entering-king planes of colour `c` (absolute), as bits 0..31.
fn nyugyoku_planes(pos: &Position, c: Color) -> u128 {
    let camp = match c {
        Color::Black => Bitboard::ranks(1, 3),
        Color::White => Bitboard::ranks(7, 9),
    };
    let mut bits = 0u128;
    let king_in_camp = pos.king_square(c).is_some_and(|k| camp.contains(k));
    if king_in_camp {
        bits |= 1;
    }
    let (points, in_camp) = pos.declaration_points(c);
    let rest = 10 - in_camp as i32;
    // Like the points below, a count past the target sets nothing (inferred: the reference
    // data never has more than nine pieces in a camp).
    if (0..10).contains(&rest) {
        bits |= 1 << (1 + rest);
    }
    let need = match c {
        Color::Black => 28,
        Color::White => 27,
    };
    let rest_points = need - points as i32;
    // More points than needed set no plane (record 5 of the reference data: 34 points).
    if (0..20).contains(&rest_points) {
        bits |= 1 << (11 + rest_points);
    }
    bits
}
