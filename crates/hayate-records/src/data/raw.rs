//! A decoded position as plain data: what the packed formats store, before the rules check it.

use hayate_core::{Color, Hand, Piece, PieceType, Position, SfenError, Square};

/// Board, hands and side to move, unchecked. The packed formats decode into this; turning it into
/// a [`Position`] validates it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawPosition {
    /// The piece on each square, indexed by [`Square::index`].
    pub board: [Piece; 81],
    /// Black's and White's hands.
    pub hands: [Hand; 2],
    /// The side to move.
    pub side_to_move: Color,
}

impl RawPosition {
    /// The raw data of a position.
    pub fn from_position(pos: &Position) -> RawPosition {
        RawPosition {
            board: *pos.board(),
            hands: [pos.hand(Color::Black), pos.hand(Color::White)],
            side_to_move: pos.side_to_move(),
        }
    }

    /// The SFEN of this data with move number `ply` (no checks).
    pub fn to_sfen(&self, ply: u32) -> String {
        let mut s = String::with_capacity(100);
        for rank in 1..=9u8 {
            let mut empty = 0u8;
            for file in (1..=9u8).rev() {
                let pc = Square::from_file_rank(file, rank)
                    .map(|sq| self.board[sq.index()])
                    .unwrap_or(Piece::EMPTY);
                if pc.is_empty() {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    s.push((b'0' + empty) as char);
                    empty = 0;
                }
                s.push_str(&pc.to_sfen());
            }
            if empty > 0 {
                s.push((b'0' + empty) as char);
            }
            if rank < 9 {
                s.push('/');
            }
        }
        s.push(' ');
        s.push(if self.side_to_move == Color::Black {
            'b'
        } else {
            'w'
        });
        s.push(' ');
        s.push_str(&hayate_core::sfen::hand_text(self.hands[0], self.hands[1]));
        s.push(' ');
        s.push_str(&ply.to_string());
        s
    }

    /// The position, checked by the rules core (piece counts, dead pieces, two pawns on a file,
    /// the side not to move in check), built from the parts with [`Position::from_parts`] (no
    /// text in between). A move number of 0 is read as 1.
    ///
    /// # Errors
    /// The [`SfenError`] the core reports for an impossible position.
    pub fn to_position(&self, ply: u32) -> Result<Position, SfenError> {
        Position::from_parts(&self.board, self.hands, self.side_to_move, ply.max(1))
    }

    /// How many pieces of each unpromoted type (indexed by code) the board and hands hold.
    pub(crate) fn material(&self) -> [u32; 9] {
        let mut counts = [0u32; 9];
        for pc in self.board.iter().filter(|p| !p.is_empty()) {
            counts[pc.piece_type().unpromoted().index()] += 1;
        }
        for h in self.hands {
            for pt in PieceType::HAND_TYPES {
                counts[pt.index()] += h.count(pt);
            }
        }
        counts
    }
}

/// Why packed bytes did not give a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// The bytes do not decode.
    #[error(transparent)]
    Packed(#[from] super::huffman::PackedError),
    /// They decode to a position the rules forbid.
    #[error("impossible position: {0}")]
    Rules(#[from] SfenError),
}
