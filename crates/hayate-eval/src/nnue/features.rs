//! NNUE input features: HalfKP(Friend) indexing (`king_square * 1548 + BonaPiece`, per
//! perspective) and the other classic feature sets public nets use, as marker types
//! ([`Features`]) that an evaluator is compiled for.
//!
//! BonaPiece codes (YaneuraOu `evaluate.h`): hand pieces first (the i-th held piece of a type
//! is `base + i`), then board pieces, 81 squares per (type, own/opponent) block; golds and the
//! four promoted small pieces share the gold block. White's perspective sees the board rotated
//! 180° (`80 - sq`) with the colours swapped.
//!
//! The other sets change only the index: `_vm`/`_hm` mirror the files when the perspective's
//! own king stands on files 6–9 (45 king squares; board squares mirrored with it, hands not);
//! HalfKA sets add both kings as pieces (`1548 + sq` for one's own, `1629 + sq` for the
//! other's; HalfKA2 gives both kings the first block); HalfKPE9 is HalfKP nine times over, a
//! board piece's block chosen by how many pieces of each colour attack its square (capped at
//! 2: `3·own + other`, hand pieces 0), so a move changes the features of every piece whose
//! attackers it changes and the evaluator recomputes them ([`FeatureSet::has_effects`]).

use super::arch::{FE_END, SQ_NB};
use super::shape::FeatureSet;
use crate::effect::CappedEffects;
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

/// Most features one perspective can have in any feature set: 40 pieces, kings included.
pub const MAX_ACTIVE_ANY: usize = 40;

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

/// A feature set an evaluator is compiled for: a marker type per set, so that the set's
/// choices are constants in the compiled code.
pub trait Features: Copy + Send + Sync + std::fmt::Debug + Default + 'static {
    /// The set.
    const SET: FeatureSet;
}

macro_rules! feature_sets {
    ($($name:ident),+ $(,)?) => {
        $(
            #[doc = concat!("The ", stringify!($name), " feature set (see [`FeatureSet`]).")]
            #[derive(Clone, Copy, Debug, Default)]
            pub struct $name;

            impl Features for $name {
                const SET: FeatureSet = FeatureSet::$name;
            }
        )+
    };
}

feature_sets!(
    HalfKp, HalfKpVm, HalfKpE9, HalfKa1, HalfKaHm1, HalfKa2, HalfKaHm2
);

/// BonaPiece of one's own king on square 0 (`f_king`); the other king's block follows.
const F_KING: usize = FE_END;
/// BonaPiece of the other king on square 0 (`e_king`).
const E_KING: usize = FE_END + SQ_NB;
/// The first board code (`fe_hand_end`): codes from here on are (block, square).
const FE_HAND_END: usize = 90;
/// HalfKPE9: the features of one effect class (a whole HalfKP).
const E9_BLOCK: usize = SQ_NB * FE_END;

/// Where perspective `p`'s features of one position sit: its king's block and whether board
/// squares are mirrored.
#[derive(Clone, Copy, Debug)]
pub struct KingFrame {
    offset: usize,
    mirror: bool,
}

/// The square mirrored across the centre file.
#[inline(always)]
const fn mirror(sq: usize) -> usize {
    (8 - sq / 9) * 9 + sq % 9
}

/// Perspective `p`'s frame with its king on `king`, in feature set `F`.
#[inline(always)]
pub fn king_frame<F: Features>(p: Color, king: Square) -> KingFrame {
    let k = if p == Color::Black { king } else { king.inv() }.index();
    let mirror_it = F::SET.mirrored() && k >= 45;
    let k = if mirror_it { mirror(k) } else { k };
    KingFrame {
        offset: k * F::SET.king_stride(),
        mirror: mirror_it,
    }
}

/// The feature of BonaPiece `bona` (as [`board_piece`]/[`hand_piece`] give it, or a king's
/// `1548 + sq`/`1629 + sq`) in frame `kf` of set `F`.
#[inline(always)]
fn index<F: Features>(kf: KingFrame, bona: usize) -> usize {
    let mut b = bona;
    if kf.mirror && b >= FE_HAND_END {
        let (block, sq) = ((b - FE_HAND_END) / SQ_NB, (b - FE_HAND_END) % SQ_NB);
        b = FE_HAND_END + block * SQ_NB + mirror(sq);
    }
    if F::SET.shared_king_block() && b >= E_KING {
        b -= SQ_NB;
    }
    kf.offset + b
}

/// BonaPiece of a board piece `pc` on `sq` seen from `p`, kings included (their codes are
/// features only in the HalfKA sets).
#[inline(always)]
fn any_board_piece(p: Color, pc: Piece, sq: Square) -> usize {
    if pc.piece_type() == PieceType::KING {
        let s = if p == Color::Black { sq } else { sq.inv() };
        (if pc.color() == p { F_KING } else { E_KING }) + s.index()
    } else {
        board_piece(p, pc, sq)
    }
}

/// All active features of perspective `p` in set `F` (`None` without both kings).
pub fn active_of<F: Features>(pos: &Position, p: Color) -> Option<FeatureList<MAX_ACTIVE_ANY>> {
    active_with::<F>(pos, p, set_effects::<F>(pos).as_ref())
}

/// The effect counts set `F` needs (HalfKPE9), once per position for both perspectives.
#[inline]
pub fn set_effects<F: Features>(pos: &Position) -> Option<CappedEffects> {
    F::SET.has_effects().then(|| CappedEffects::compute(pos))
}

/// [`active_of`] given [`set_effects`]' counts.
pub fn active_with<F: Features>(
    pos: &Position,
    p: Color,
    effects: Option<&CappedEffects>,
) -> Option<FeatureList<MAX_ACTIVE_ANY>> {
    let kf = king_frame::<F>(p, pos.king_square(p)?);
    pos.king_square(!p)?;
    let mut list = FeatureList::default();
    for (i, &pc) in pos.board().iter().enumerate() {
        if !pc.is_empty() && (F::SET.has_kings() || pc.piece_type() != PieceType::KING) {
            let mut f = index::<F>(kf, any_board_piece(p, pc, Square::new(i as u8)));
            if let Some(e) = effects {
                f += E9_BLOCK * (3 * e.count(p, i) + e.count(!p, i));
            }
            list.push(f);
        }
    }
    for owner in Color::ALL {
        let hand = pos.hand(owner);
        for pt in PieceType::HAND_TYPES {
            for i in 0..hand.count(pt) {
                list.push(index::<F>(kf, hand_piece(p, owner, pt, i)));
            }
        }
    }
    Some(list)
}

/// The features `m` changes for perspective `p` in set `F`, whose king did not move (its
/// half is refreshed when it does); `pos` is the position after the move and `king` is `p`'s
/// king square. The other king's move is a change of its piece in the HalfKA sets. Not for
/// the sets with effects, whose halves are recomputed.
#[inline]
pub fn delta_of<F: Features>(pos: &Position, m: Move, p: Color, king: Square) -> FeatureDelta {
    let kf = king_frame::<F>(p, king);
    let mut d = FeatureDelta::default();
    let moved = m.moved_piece();
    let us = moved.color();
    let to = m.to();
    if m.is_drop() {
        let pt = m.dropped_type();
        d.removed.push(index::<F>(
            kf,
            hand_piece(p, us, pt, pos.hand(us).count(pt)),
        ));
        d.added.push(index::<F>(kf, board_piece(p, moved, to)));
        return d;
    }
    if F::SET.has_kings() || moved.piece_type() != PieceType::KING {
        d.removed
            .push(index::<F>(kf, any_board_piece(p, moved, m.from())));
        d.added.push(index::<F>(
            kf,
            any_board_piece(p, m.moved_piece_after(), to),
        ));
    }
    let cap = m.captured();
    if !cap.is_empty() {
        let pt = cap.piece_type().unpromoted();
        d.removed.push(index::<F>(kf, board_piece(p, cap, to)));
        d.added.push(index::<F>(
            kf,
            hand_piece(p, us, pt, pos.hand(us).count(pt).saturating_sub(1)),
        ));
    }
    d
}
