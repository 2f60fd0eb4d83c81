//! The two 16-bit move encodings of training data, and their conversions to Hayate's moves.
//!
//! | bits   | Apery / dlshogi / cshogi (hcpe, hcpe3)  | YaneuraOu (psv) = Hayate [`Move16`]   |
//! |--------|-----------------------------------------|---------------------------------------|
//! | 0..7   | to square                               | to square                             |
//! | 7..14  | from square; drop: 80 + type (P=81 … G=87) | from square; drop: type (P=1 … G=7) |
//! | 14     | promotion                               | drop flag                             |
//! | 15     | 0                                       | promotion                             |
//!
//! Squares are `(file-1)*9 + (rank-1)` in all three; the dropped-type order is P L N S B R G in
//! all three. A Hayate [`Move`] is a YaneuraOu move plus piece fields, so the psv conversion is
//! the identity on the low 16 bits.

use hayate_core::{Move, Move16, Position};

/// A move in the Apery/dlshogi 16-bit encoding (`bestMove16` of hcpe, moves of hcpe3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(transparent)]
pub struct AperyMove16(pub u16);

const APERY_PROMOTE: u16 = 1 << 14;
const DROP_BASE: u16 = 80;

impl AperyMove16 {
    /// The Apery form of a move (no validation: the move is assumed well-formed).
    pub fn from_move16(m: Move16) -> AperyMove16 {
        let m = Move::from_raw(m.0 as u32);
        let to = m.to().raw() as u16;
        if m.is_drop() {
            AperyMove16(to | ((DROP_BASE + m.dropped_type().raw() as u16) << 7))
        } else {
            AperyMove16(
                to | ((m.from().raw() as u16) << 7)
                    | if m.is_promotion() { APERY_PROMOTE } else { 0 },
            )
        }
    }

    /// The Apery form of a move.
    pub fn from_move(m: Move) -> AperyMove16 {
        AperyMove16::from_move16(m.to_move16())
    }

    /// Hayate's compact form, or `None` if the bits are no board move or drop (including
    /// Apery's none/null/resign/win codes and a promoted drop).
    pub fn to_move16(self) -> Option<Move16> {
        let v = self.0;
        if v & 0x8000 != 0 {
            return None;
        }
        let to = v & 0x7f;
        let from = (v >> 7) & 0x7f;
        let promote = v & APERY_PROMOTE != 0;
        if to > 80 {
            return None;
        }
        if from > DROP_BASE {
            let pt = from - DROP_BASE;
            if promote || pt > 7 {
                return None;
            }
            return Some(Move16(to | (pt << 7) | (1 << 14)));
        }
        if from == to {
            return None;
        }
        Some(Move16(to | (from << 7) | if promote { 1 << 15 } else { 0 }))
    }

    /// The legal move in `pos` with this encoding, with its piece fields, or `None`.
    pub fn to_move(self, pos: &Position) -> Option<Move> {
        self.to_move16().and_then(|m| pos.to_move(m))
    }
}

/// A move in YaneuraOu's 16-bit encoding (psv): the same bits as Hayate's [`Move16`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(transparent)]
pub struct PsvMove16(pub u16);

impl PsvMove16 {
    /// The psv form of a move.
    pub fn from_move(m: Move) -> PsvMove16 {
        PsvMove16(m.to_move16().0)
    }

    /// Hayate's compact form (identical bits).
    pub fn to_move16(self) -> Move16 {
        Move16(self.0)
    }

    /// The legal move in `pos` with this encoding, with its piece fields, or `None`.
    pub fn to_move(self, pos: &Position) -> Option<Move> {
        pos.to_move(self.to_move16())
    }

    /// The Apery form of the same move.
    pub fn to_apery(self) -> AperyMove16 {
        AperyMove16::from_move16(self.to_move16())
    }
}
