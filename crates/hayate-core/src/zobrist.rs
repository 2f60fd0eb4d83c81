//! Zobrist keys, generated at compile time from a fixed seed.
//!
//! The board key covers pieces on squares and the side to move; the hand key is kept apart and
//! is additive (count × key per type), so two positions with the same board and different hands
//! can be recognised as such (superior/inferior repetition).

use crate::{Color, Piece, PieceType, Square};

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (s, z ^ (z >> 31))
}

struct Keys {
    psq: [[u64; 81]; 32],
    hand: [[u64; 8]; 2],
    side: u64,
}

const fn build() -> Keys {
    let mut k = Keys {
        psq: [[0; 81]; 32],
        hand: [[0; 8]; 2],
        side: 0,
    };
    let mut s = 0x4861_7961_7465_u64; // "Hayate"
    let mut p = 1;
    while p < 32 {
        let mut sq = 0;
        while sq < 81 {
            let (ns, v) = splitmix(s);
            s = ns;
            // Bit 0 is reserved for the side to move, so board keys of the two sides never collide.
            k.psq[p][sq] = v & !1;
            sq += 1;
        }
        p += 1;
    }
    let mut c = 0;
    while c < 2 {
        let mut pt = 1;
        while pt < 8 {
            let (ns, v) = splitmix(s);
            s = ns;
            k.hand[c][pt] = v & !1;
            pt += 1;
        }
        c += 1;
    }
    k.side = 1;
    k
}

static KEYS: Keys = build();

/// Key of `piece` standing on `sq`.
#[inline(always)]
pub fn psq(piece: Piece, sq: Square) -> u64 {
    KEYS.psq[piece.index()][sq.index()]
}

/// Key added per piece of hand type `pt` held by `c`.
#[inline(always)]
pub fn hand(c: Color, pt: PieceType) -> u64 {
    KEYS.hand[c.index()][pt.index()]
}

/// Key toggled when White is to move.
#[inline(always)]
pub fn side() -> u64 {
    KEYS.side
}
