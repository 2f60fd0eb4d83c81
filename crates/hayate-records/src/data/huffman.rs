//! The Huffman codes of the two 256-bit packed positions: Apery/dlshogi/cshogi `HuffmanCodedPos`
//! (hcp) and YaneuraOu `PackedSfen` (psv). Both write the side to move (1 bit), the two king
//! squares (7 bits each), every other square in square order, then the hands, LSB-first. They
//! differ in three details, all checked against cshogi's `to_hcp`/`to_psfen` in the tests:
//!
//! | detail                    | hcp (Apery)                 | PackedSfen (YaneuraOu)       |
//! |---------------------------|-----------------------------|------------------------------|
//! | knight / silver base code | `1110` / `1101` (bits LSB→) | `1101` / `1110`              |
//! | board piece suffix        | colour bit, then promotion  | promotion bit, then colour   |
//! | hand bishop / rook code   | `111110`/`111111` + colour  | `11110`/`11111` + `0` + colour |
//!
//! A hand code is the board base code without its first bit, then a 0 promotion bit (not for
//! gold), then the colour bit, except hcp's bishop and rook in hand (table above). Gold has no
//! promotion bit anywhere. Both write the hands Black then White, each in the order
//! P L N S G B R.

use super::bits::{BitReader, BitWriter};
use super::raw::RawPosition;
use hayate_core::{Color, Hand, Piece, PieceType};

/// Why 32 packed bytes are not a position, or a position cannot be packed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PackedError {
    /// A king square field is not 0..=80 (81 means "no king", allowed in PackedSfen only).
    #[error("king square field {0} is out of range")]
    BadKingSquare(u8),
    /// Both king fields name the same square.
    #[error("both kings on square {0}")]
    KingsOnOneSquare(u8),
    /// The bits at this offset are no piece code.
    #[error("no piece code at bit {0}")]
    BadCode(usize),
    /// The codes run past the 256 bits.
    #[error("piece codes run past the 256 bits")]
    Overrun,
    /// The board and hands do not hold exactly one full set of pieces (40, kings included).
    #[error("the pieces are not one full set of 40")]
    NotFullSet,
    /// The format needs both kings on the board.
    #[error("a king is missing from the board")]
    MissingKing,
}

/// Which of the two packings.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Apery/dlshogi `HuffmanCodedPos`.
    Hcp,
    /// YaneuraOu `PackedSfen`.
    PackedSfen,
}

/// Code and length in bits (0 = no code).
type Code = (u8, u8);

pub(crate) struct Scheme {
    /// By piece raw value (0 = empty).
    board_code: [Code; 32],
    /// By piece raw value (colour + hand type).
    hand_code: [Code; 32],
    /// By the next 8 bits: (piece raw, length); length 0 = invalid.
    board_dec: [Code; 256],
    hand_dec: [Code; 256],
    hand_order: [PieceType; 7],
    allow_missing_king: bool,
}

/// The unpromoted base codes by type code 1..=7 (LSB-first value, length).
const fn base(kind: Kind, pt: u8) -> Code {
    match pt {
        1 => (0b01, 2),
        2 => (0b0011, 4),
        3 => match kind {
            Kind::Hcp => (0b0111, 4),
            Kind::PackedSfen => (0b1011, 4),
        },
        4 => match kind {
            Kind::Hcp => (0b1011, 4),
            Kind::PackedSfen => (0b0111, 4),
        },
        5 => (0b011111, 6),
        6 => (0b111111, 6),
        7 => (0b01111, 5),
        _ => (0, 0),
    }
}

const fn fill(table: &mut [Code; 256], piece: u8, code: Code) {
    let (c, len) = code;
    let mut i = 0usize;
    while i < 256 {
        if (i as u32) & ((1u32 << len) - 1) == c as u32 {
            table[i] = (piece, len);
        }
        i += 1;
    }
}

const fn build(kind: Kind) -> Scheme {
    let mut board_code = [(0u8, 0u8); 32];
    let mut hand_code = [(0u8, 0u8); 32];
    let mut board_dec = [(0u8, 0u8); 256];
    let mut hand_dec = [(0u8, 0u8); 256];
    board_code[0] = (0, 1);
    fill(&mut board_dec, 0, (0, 1));
    let mut color = 0u8;
    while color < 2 {
        let mut pt = 1u8;
        while pt <= 14 {
            if pt == 8 {
                pt += 1;
                continue;
            }
            let raw = if pt > 8 { pt - 8 } else { pt };
            let promoted = (pt > 8) as u8;
            let (c, len) = base(kind, raw);
            let piece = pt + 16 * color;
            let code: Code = if raw == 7 {
                (c | (color << len), len + 1)
            } else {
                match kind {
                    Kind::Hcp => (c | (color << len) | (promoted << (len + 1)), len + 2),
                    Kind::PackedSfen => (c | (promoted << len) | (color << (len + 1)), len + 2),
                }
            };
            board_code[piece as usize] = code;
            fill(&mut board_dec, piece, code);
            if promoted == 0 {
                let hc = c >> 1;
                let hl = len - 1;
                let hcode: Code = if raw == 7 {
                    (hc | (color << hl), hl + 1)
                } else if matches!(kind, Kind::Hcp) && (raw == 5 || raw == 6) {
                    // Apery's hand bishop and rook are `11111` + `0`/`1` + colour: not the
                    // shifted board code (cshogi's to_hcp confirms).
                    let code = if raw == 5 { 0b011111 } else { 0b111111 };
                    (code | (color << 6), 7)
                } else {
                    (hc | (color << (hl + 1)), hl + 2)
                };
                hand_code[piece as usize] = hcode;
                fill(&mut hand_dec, piece, hcode);
            }
            pt += 1;
        }
        color += 1;
    }
    // Both write the hands in Apery's HandPiece order (cshogi's to_psfen confirms it for
    // PackedSfen too).
    let hand_order = [
        PieceType::PAWN,
        PieceType::LANCE,
        PieceType::KNIGHT,
        PieceType::SILVER,
        PieceType::GOLD,
        PieceType::BISHOP,
        PieceType::ROOK,
    ];
    Scheme {
        board_code,
        hand_code,
        board_dec,
        hand_dec,
        hand_order,
        allow_missing_king: matches!(kind, Kind::PackedSfen),
    }
}

pub(crate) static HCP: Scheme = build(Kind::Hcp);
pub(crate) static PACKED_SFEN: Scheme = build(Kind::PackedSfen);

const NO_KING: u32 = 81;

impl Scheme {
    pub(crate) fn decode(&self, bytes: &[u8; 32]) -> Result<RawPosition, PackedError> {
        let mut r = BitReader::new(bytes);
        let side = r.read(1).ok_or(PackedError::Overrun)?;
        let mut raw = RawPosition {
            board: [Piece::EMPTY; 81],
            hands: [Hand::EMPTY; 2],
            side_to_move: if side == 0 {
                Color::Black
            } else {
                Color::White
            },
        };
        let mut kings = [NO_KING; 2];
        for (c, k) in kings.iter_mut().enumerate() {
            let sq = r.read(7).ok_or(PackedError::Overrun)?;
            if sq > NO_KING || (sq == NO_KING && !self.allow_missing_king) {
                return Err(PackedError::BadKingSquare(sq as u8));
            }
            *k = sq;
            if sq != NO_KING {
                let color = if c == 0 { Color::Black } else { Color::White };
                raw.board[sq as usize] = Piece::new(color, PieceType::KING);
            }
        }
        if kings[0] == kings[1] && kings[0] != NO_KING {
            return Err(PackedError::KingsOnOneSquare(kings[0] as u8));
        }
        for sq in 0..81u32 {
            if sq == kings[0] || sq == kings[1] {
                continue;
            }
            let (piece, len) = self.board_dec[r.peek8() as usize];
            if len == 0 {
                return Err(PackedError::BadCode(r.position()));
            }
            if len as usize > r.remaining() {
                return Err(PackedError::Overrun);
            }
            r.skip(len as usize);
            raw.board[sq as usize] = Piece::from_u8(piece).unwrap_or(Piece::EMPTY);
        }
        while r.remaining() > 0 {
            let (piece, len) = self.hand_dec[r.peek8() as usize];
            if len == 0 {
                return Err(PackedError::BadCode(r.position()));
            }
            if len as usize > r.remaining() {
                return Err(PackedError::Overrun);
            }
            r.skip(len as usize);
            let pc = Piece::from_u8(piece).ok_or(PackedError::BadCode(r.position()))?;
            let h = &mut raw.hands[pc.color().index()];
            let pt = pc.piece_type();
            *h = h
                .with_count(pt, h.count(pt) + 1)
                .ok_or(PackedError::NotFullSet)?;
        }
        if !self.material_ok(&raw) {
            return Err(PackedError::NotFullSet);
        }
        Ok(raw)
    }

    /// One full set, except that PackedSfen may lack kings.
    fn material_ok(&self, raw: &RawPosition) -> bool {
        let counts = raw.material();
        (1..=7u8).all(|c| {
            PieceType::from_u8(c)
                .map(|pt| counts[pt.index()] == pt.full_set_count() as u32)
                .unwrap_or(false)
        }) && (counts[PieceType::KING.index()] == 2 || self.allow_missing_king)
    }

    pub(crate) fn encode(&self, raw: &RawPosition) -> Result<[u8; 32], PackedError> {
        let mut kings = [NO_KING; 2];
        for (sq, pc) in raw.board.iter().enumerate() {
            if !pc.is_empty() && pc.piece_type() == PieceType::KING {
                if kings[pc.color().index()] != NO_KING {
                    return Err(PackedError::NotFullSet);
                }
                kings[pc.color().index()] = sq as u32;
            }
        }
        if !self.allow_missing_king && kings.contains(&NO_KING) {
            return Err(PackedError::MissingKing);
        }
        if !self.material_ok(raw) {
            return Err(PackedError::NotFullSet);
        }
        let mut w = BitWriter::new();
        let mut ok = w.write(raw.side_to_move.index() as u32, 1);
        ok &= w.write(kings[0], 7);
        ok &= w.write(kings[1], 7);
        for (sq, pc) in raw.board.iter().enumerate() {
            if sq as u32 == kings[0] || sq as u32 == kings[1] {
                continue;
            }
            let (c, len) = self.board_code[pc.index()];
            ok &= w.write(c as u32, len as usize);
        }
        for color in Color::ALL {
            for pt in self.hand_order {
                let (c, len) = self.hand_code[Piece::new(color, pt).index()];
                for _ in 0..raw.hands[color.index()].count(pt) {
                    ok &= w.write(c as u32, len as usize);
                }
            }
        }
        if !ok || w.position() != 256 {
            return Err(PackedError::Overrun);
        }
        Ok(w.into_bytes())
    }
}
