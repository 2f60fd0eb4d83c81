//! Moves: a compact 16-bit form and a 32-bit form that also carries the moved and captured piece.

use crate::{Piece, PieceType, Square};
use std::fmt;

/// The compact 16-bit move, as stored in transposition tables and training data:
///
/// | bits   | board move        | drop                 |
/// |--------|-------------------|----------------------|
/// | 0..7   | to square         | to square            |
/// | 7..14  | from square       | dropped piece type   |
/// | 14     | 0                 | 1 (drop flag)        |
/// | 15     | promotion flag    | 0                    |
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move16(pub u16);

/// A move with the moved piece (bits 16..21, before any promotion) and the captured piece
/// (bits 21..26; 0 when nothing is captured) above the 16-bit form. Two moves are the same move
/// when their 16-bit parts are equal.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u32);

const DROP_FLAG: u32 = 1 << 14;
const PROMOTE_FLAG: u32 = 1 << 15;

impl Move {
    /// No move.
    pub const NONE: Move = Move(0);
    /// The null move (passes the turn in search). From = to = square 1, never a real move.
    pub const NULL: Move = Move((1 << 7) | 1);

    /// A board move of `piece` from `from` to `to`, capturing `captured` (EMPTY if none).
    #[inline(always)]
    pub const fn new_board(
        from: Square,
        to: Square,
        promote: bool,
        piece: Piece,
        captured: Piece,
    ) -> Move {
        Move(
            to.raw() as u32
                | ((from.raw() as u32) << 7)
                | if promote { PROMOTE_FLAG } else { 0 }
                | ((piece.raw() as u32) << 16)
                | ((captured.raw() as u32) << 21),
        )
    }

    /// A drop of `piece` (coloured; its type must be a hand type) on `to`.
    #[inline(always)]
    pub const fn new_drop(piece: Piece, to: Square) -> Move {
        Move(
            to.raw() as u32
                | ((piece.piece_type().raw() as u32) << 7)
                | DROP_FLAG
                | ((piece.raw() as u32) << 16),
        )
    }

    /// The raw 32-bit value.
    #[inline(always)]
    pub const fn raw(self) -> u32 {
        self.0
    }

    /// Rebuilds a move from its raw value (no validation; use `Position::to_move` for untrusted data).
    #[inline(always)]
    pub const fn from_raw(v: u32) -> Move {
        Move(v)
    }

    /// The compact form.
    #[inline(always)]
    pub const fn to_move16(self) -> Move16 {
        Move16(self.0 as u16)
    }

    /// The destination square.
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::new((self.0 & 0x7f) as u8)
    }

    /// The origin square (meaningless for drops).
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::new(((self.0 >> 7) & 0x7f) as u8)
    }

    /// Whether this is a drop.
    #[inline(always)]
    pub const fn is_drop(self) -> bool {
        self.0 & DROP_FLAG != 0
    }

    /// Whether this move promotes.
    #[inline(always)]
    pub const fn is_promotion(self) -> bool {
        self.0 & PROMOTE_FLAG != 0
    }

    /// The dropped type (meaningful for drops only).
    #[inline(always)]
    pub const fn dropped_type(self) -> PieceType {
        match PieceType::from_u8(((self.0 >> 7) & 0x7f) as u8) {
            Some(pt) => pt,
            None => PieceType::NONE,
        }
    }

    /// The moved piece before promotion (or the dropped piece).
    #[inline(always)]
    pub const fn moved_piece(self) -> Piece {
        Piece::from_code((self.0 >> 16) as u8)
    }

    /// The piece that stands on `to` after the move.
    #[inline(always)]
    pub const fn moved_piece_after(self) -> Piece {
        let p = self.moved_piece();
        if self.is_promotion() { p.promoted() } else { p }
    }

    /// The captured piece, EMPTY when the move captures nothing.
    #[inline(always)]
    pub const fn captured(self) -> Piece {
        Piece::from_code((self.0 >> 21) as u8)
    }

    /// Whether the move captures.
    #[inline(always)]
    pub const fn is_capture(self) -> bool {
        (self.0 >> 21) & 31 != 0
    }

    /// Whether this is neither NONE nor NULL.
    #[inline(always)]
    pub const fn is_some(self) -> bool {
        self.0 & 0xffff != 0 && self.0 & 0xffff != Move::NULL.0
    }

    /// Whether two moves are the same move (ignoring the piece fields).
    #[inline(always)]
    pub const fn same(self, other: Move) -> bool {
        self.0 as u16 == other.0 as u16
    }

    /// USI text: `7g7f`, `8h2b+`, `P*5e`; `none`/`null` for the special moves.
    pub fn to_usi(self) -> String {
        if self.0 & 0xffff == 0 {
            return "none".into();
        }
        if self.same(Move::NULL) {
            return "null".into();
        }
        if self.is_drop() {
            format!("{}*{}", self.dropped_type().sfen_letter(), self.to())
        } else {
            format!(
                "{}{}{}",
                self.from(),
                self.to(),
                if self.is_promotion() { "+" } else { "" }
            )
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_usi())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_usi())
    }
}

impl fmt::Debug for Move16 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_usi())
    }
}

impl Move16 {
    /// USI text of the compact move (no piece information needed).
    pub fn to_usi(self) -> String {
        Move::from_raw(self.0 as u32).to_usi()
    }
}

/// A fixed-capacity move list: no heap in move generation. 600 covers shogi's 593-move maximum.
pub struct MoveList {
    moves: [std::mem::MaybeUninit<Move>; MoveList::CAPACITY],
    len: usize,
}

impl MoveList {
    /// The capacity.
    pub const CAPACITY: usize = 600;

    /// An empty list.
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList {
            // A `const` block: the plain repeat `[MaybeUninit::uninit(); N]` let LLVM merge the
            // array with `len: 0` into one 2.4 KB memset at every `new` (seen in mate_in_1, a
            // fifth of a probe's instructions).
            moves: [const { std::mem::MaybeUninit::uninit() }; MoveList::CAPACITY],
            len: 0,
        }
    }

    /// Appends a move. Legal positions never exceed the capacity; should one somehow do so the
    /// extra moves are dropped rather than writing out of bounds.
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        if let Some(slot) = self.moves.get_mut(self.len) {
            slot.write(m);
            self.len += 1;
        }
    }

    /// The number of moves.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list is empty.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Keeps the first `len` moves.
    #[inline(always)]
    pub fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }

    /// Empties the list.
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The moves as a slice.
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        // SAFETY: the first `len` elements were written by `push`, and MaybeUninit<Move> has the
        // same layout as Move.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr() as *const Move, self.len) }
    }

    /// The moves as a mutable slice (for ordering).
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        // SAFETY: as in `as_slice`.
        unsafe { std::slice::from_raw_parts_mut(self.moves.as_mut_ptr() as *mut Move, self.len) }
    }

    /// Iterates over the moves.
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }

    /// Whether the list holds `m` (compared by the 16-bit form).
    pub fn contains(&self, m: Move) -> bool {
        self.iter().any(|x| x.same(m))
    }
}

impl Default for MoveList {
    fn default() -> Self {
        Self::new()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl std::ops::Index<usize> for MoveList {
    type Output = Move;
    fn index(&self, i: usize) -> &Move {
        &self.as_slice()[i]
    }
}
