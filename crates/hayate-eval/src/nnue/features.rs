//! HalfKP(Friend) feature indexing: `king_square * 1548 + BonaPiece`, per perspective.
//!
//! BonaPiece codes (YaneuraOu `evaluate.h`): hand pieces first (the i-th held piece of a type
//! is `base + i`), then board pieces, 81 squares per (type, own/opponent) block; golds and the
//! four promoted small pieces share the gold block. White's perspective sees the board rotated
//! 180° (`80 - sq`) with the colours swapped.

use super::arch::FE_END;
use hayate_core::{Color, Move, Piece, PieceType, Position, Square};

/// Board block bases by piece type code: (own, opponent). Kings have none (0 is unused).
const BOARD_BASE: [(u16, u16); 15] = [
    (0, 0),
    (90, 171),    // pawn
    (252, 333),   // lance
    (414, 495),   // knight
    (576, 657),   // silver
    (900, 981),   // bishop
    (1224, 1305), // rook
    (738, 819),   // gold
    (0, 0),       // king: not a feature
    (738, 819),   // +P
    (738, 819),   // +L
    (738, 819),   // +N
    (738, 819),   // +S
    (1062, 1143), // horse
    (1386, 1467), // dragon
];

/// Hand bases by piece type code (own, opponent); only hand types are used.
const HAND_BASE: [(u16, u16); 8] = [
    (0, 0),
    (1, 20),  // pawn
    (39, 44), // lance
    (49, 54), // knight
    (59, 64), // silver
    (79, 82), // bishop
    (85, 88), // rook
    (69, 74), // gold
];

/// Most features one perspective can have: 38 pieces other than the kings.
pub const MAX_ACTIVE: usize = 38;

/// The offset of perspective `p`'s king block: `ksq * FE_END`, with White's king square rotated.
#[inline(always)]
pub fn king_offset(p: Color, king: Square) -> usize {
    let k = if p == Color::Black { king } else { king.inv() };
    k.index() * FE_END
}

/// BonaPiece of a (non-king) board piece `pc` on `sq`, seen from `p`.
#[inline(always)]
pub fn board_piece(p: Color, pc: Piece, sq: Square) -> usize {
    let (own, opp) = BOARD_BASE[pc.piece_type().index()];
    let base = if pc.color() == p { own } else { opp };
    let s = if p == Color::Black { sq } else { sq.inv() };
    base as usize + s.index()
}

/// BonaPiece of the `i`-th (from 0) piece of type `pt` in `owner`'s hand, seen from `p`.
#[inline(always)]
pub fn hand_piece(p: Color, owner: Color, pt: PieceType, i: u32) -> usize {
    let (own, opp) = HAND_BASE[pt.index()];
    let base = if owner == p { own } else { opp };
    base as usize + i as usize
}

/// A short list of feature indices (no heap).
#[derive(Clone, Copy, Debug)]
pub struct FeatureList<const N: usize> {
    items: [u32; N],
    len: usize,
}

impl<const N: usize> Default for FeatureList<N> {
    fn default() -> Self {
        FeatureList {
            items: [0; N],
            len: 0,
        }
    }
}

impl<const N: usize> FeatureList<N> {
    /// No indices.
    pub const EMPTY: FeatureList<N> = FeatureList {
        items: [0; N],
        len: 0,
    };

    /// Appends an index (ignored beyond capacity, which the callers' bounds rule out).
    #[inline(always)]
    pub fn push(&mut self, f: usize) {
        debug_assert!(self.len < N);
        if let Some(slot) = self.items.get_mut(self.len) {
            *slot = f as u32;
            self.len += 1;
        }
    }
    /// The indices.
    #[inline(always)]
    pub fn as_slice(&self) -> &[u32] {
        &self.items[..self.len]
    }
}

/// All active features of perspective `p` (`None` without both kings).
pub fn active(pos: &Position, p: Color) -> Option<FeatureList<MAX_ACTIVE>> {
    let k = king_offset(p, pos.king_square(p)?);
    let mut list = FeatureList::default();
    for (i, &pc) in pos.board().iter().enumerate() {
        if !pc.is_empty() && pc.piece_type() != PieceType::KING {
            list.push(k + board_piece(p, pc, Square::new(i as u8)));
        }
    }
    for owner in Color::ALL {
        let hand = pos.hand(owner);
        for pt in PieceType::HAND_TYPES {
            for i in 0..hand.count(pt) {
                list.push(k + hand_piece(p, owner, pt, i));
            }
        }
    }
    Some(list)
}

/// Features a move removes and adds for one perspective (at most 2 and 2).
#[derive(Clone, Copy, Debug, Default)]
pub struct FeatureDelta {
    /// Removed features.
    pub removed: FeatureList<2>,
    /// Added features.
    pub added: FeatureList<2>,
}

impl FeatureDelta {
    /// No change.
    pub const EMPTY: FeatureDelta = FeatureDelta {
        removed: FeatureList::EMPTY,
        added: FeatureList::EMPTY,
    };
}

/// The features `m` changes for perspective `p`, whose king did not move; `pos` is the position
/// after the move and `king` is `p`'s king square.
#[inline]
pub fn delta(pos: &Position, m: Move, p: Color, king: Square) -> FeatureDelta {
    let k = king_offset(p, king);
    let mut d = FeatureDelta::default();
    let moved = m.moved_piece();
    let us = moved.color();
    let to = m.to();
    if m.is_drop() {
        let pt = m.dropped_type();
        // The dropped piece was the last of its type in hand: index count-after.
        d.removed
            .push(k + hand_piece(p, us, pt, pos.hand(us).count(pt)));
        d.added.push(k + board_piece(p, moved, to));
        return d;
    }
    if moved.piece_type() != PieceType::KING {
        d.removed.push(k + board_piece(p, moved, m.from()));
        d.added.push(k + board_piece(p, m.moved_piece_after(), to));
    }
    let cap = m.captured();
    if !cap.is_empty() {
        let pt = cap.piece_type().unpromoted();
        d.removed.push(k + board_piece(p, cap, to));
        // The captured piece is now the last of its type in our hand.
        d.added
            .push(k + hand_piece(p, us, pt, pos.hand(us).count(pt).saturating_sub(1)));
    }
    d
}
