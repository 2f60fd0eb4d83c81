//! Piece types and coloured pieces.

use crate::Color;
use std::fmt;

/// A piece type without colour. The numbering follows the common engine convention:
/// unpromoted types 1..=8 (P L N S B R G K), promoted = unpromoted | 8.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PieceType(u8);

impl PieceType {
    /// No piece (an empty square).
    pub const NONE: PieceType = PieceType(0);
    /// 歩
    pub const PAWN: PieceType = PieceType(1);
    /// 香
    pub const LANCE: PieceType = PieceType(2);
    /// 桂
    pub const KNIGHT: PieceType = PieceType(3);
    /// 銀
    pub const SILVER: PieceType = PieceType(4);
    /// 角
    pub const BISHOP: PieceType = PieceType(5);
    /// 飛
    pub const ROOK: PieceType = PieceType(6);
    /// 金
    pub const GOLD: PieceType = PieceType(7);
    /// 玉
    pub const KING: PieceType = PieceType(8);
    /// と
    pub const PRO_PAWN: PieceType = PieceType(9);
    /// 成香
    pub const PRO_LANCE: PieceType = PieceType(10);
    /// 成桂
    pub const PRO_KNIGHT: PieceType = PieceType(11);
    /// 成銀
    pub const PRO_SILVER: PieceType = PieceType(12);
    /// 馬
    pub const HORSE: PieceType = PieceType(13);
    /// 龍
    pub const DRAGON: PieceType = PieceType(14);

    /// Number of type codes (0..15).
    pub const NUM: usize = 15;
    /// Bit that marks a promoted type.
    pub const PROMOTED_BIT: u8 = 8;

    /// The seven types that can be held in hand, in the conventional SFEN order R B G S N L P.
    pub const HAND_SFEN_ORDER: [PieceType; 7] = [
        PieceType::ROOK,
        PieceType::BISHOP,
        PieceType::GOLD,
        PieceType::SILVER,
        PieceType::KNIGHT,
        PieceType::LANCE,
        PieceType::PAWN,
    ];
    /// The seven hand types in numeric order P L N S B R G.
    pub const HAND_TYPES: [PieceType; 7] = [
        PieceType::PAWN,
        PieceType::LANCE,
        PieceType::KNIGHT,
        PieceType::SILVER,
        PieceType::BISHOP,
        PieceType::ROOK,
        PieceType::GOLD,
    ];

    /// The type with code `v`, or `None` if `v` is not 1..=14.
    #[inline]
    pub const fn from_u8(v: u8) -> Option<PieceType> {
        if v >= 1 && v <= 14 {
            Some(PieceType(v))
        } else {
            None
        }
    }

    /// The code 0..15.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The raw code.
    #[inline(always)]
    pub const fn raw(self) -> u8 {
        self.0
    }

    /// Whether this is a promoted type.
    #[inline(always)]
    pub const fn is_promoted(self) -> bool {
        self.0 > 8
    }

    /// Whether this type may promote (P L N S B R).
    #[inline(always)]
    pub const fn can_promote(self) -> bool {
        self.0 >= 1 && self.0 <= 6
    }

    /// The promoted form; unchanged for types that do not promote.
    #[inline(always)]
    pub const fn promoted(self) -> PieceType {
        if self.can_promote() {
            PieceType(self.0 | 8)
        } else {
            self
        }
    }

    /// The unpromoted form (what a captured piece becomes in hand); the king stays the king.
    #[inline(always)]
    pub const fn unpromoted(self) -> PieceType {
        if self.0 > 8 {
            PieceType(self.0 & 7)
        } else {
            self
        }
    }

    /// Whether this type may be held in hand (P L N S G B R).
    #[inline(always)]
    pub const fn is_hand_type(self) -> bool {
        self.0 >= 1 && self.0 <= 7
    }

    /// Whether this type moves like a gold (gold and the promoted small pieces).
    #[inline(always)]
    pub const fn is_gold_like(self) -> bool {
        self.0 == 7 || (self.0 >= 9 && self.0 <= 12)
    }

    /// Upper-case SFEN letter of the unpromoted type (`P`, `L`, ... `K`).
    pub const fn sfen_letter(self) -> char {
        match self.unpromoted().0 {
            1 => 'P',
            2 => 'L',
            3 => 'N',
            4 => 'S',
            5 => 'B',
            6 => 'R',
            7 => 'G',
            8 => 'K',
            _ => '?',
        }
    }

    /// Parses an SFEN letter (either case) to its unpromoted type.
    pub const fn from_sfen_letter(c: char) -> Option<PieceType> {
        match c.to_ascii_uppercase() {
            'P' => Some(PieceType::PAWN),
            'L' => Some(PieceType::LANCE),
            'N' => Some(PieceType::KNIGHT),
            'S' => Some(PieceType::SILVER),
            'B' => Some(PieceType::BISHOP),
            'R' => Some(PieceType::ROOK),
            'G' => Some(PieceType::GOLD),
            'K' => Some(PieceType::KING),
            _ => None,
        }
    }

    /// The standard number of pieces of this unpromoted type in a full set (both sides together).
    pub const fn full_set_count(self) -> u8 {
        match self.unpromoted().0 {
            1 => 18,
            2..=4 | 7 => 4,
            5 | 6 | 8 => 2,
            _ => 0,
        }
    }
}

impl fmt::Debug for PieceType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_promoted() {
            write!(f, "+{}", self.sfen_letter())
        } else if self.0 == 0 {
            write!(f, "-")
        } else {
            write!(f, "{}", self.sfen_letter())
        }
    }
}

/// A piece with colour: `type + 16 * colour`, so Black pieces are 1..=14 and White 17..=30;
/// 0 is the empty square. Fits the 32-entry piece axis of evaluation tables.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Piece(u8);

impl Piece {
    /// The empty square.
    pub const EMPTY: Piece = Piece(0);
    /// Number of piece codes (0..32).
    pub const NUM: usize = 32;
    /// Offset of White's pieces.
    pub const WHITE_BIT: u8 = 16;

    /// The piece of colour `c` and type `pt`.
    #[inline(always)]
    pub const fn new(c: Color, pt: PieceType) -> Piece {
        Piece(pt.raw() | ((c as u8) << 4))
    }

    /// The piece with code `v`, or `None` if `v` is not a valid piece code (0 is valid: empty).
    #[inline]
    pub const fn from_u8(v: u8) -> Option<Piece> {
        let pt = v & 15;
        if v == 0 || (v < 32 && pt >= 1 && pt <= 14) {
            Some(Piece(v))
        } else {
            None
        }
    }

    /// The piece with code `v` (0..32), unchecked: for codes that a [`crate::Move`] carries,
    /// which its constructors took from real pieces.
    #[inline(always)]
    pub(crate) const fn from_code(v: u8) -> Piece {
        Piece(v & 31)
    }

    /// The code 0..32.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The raw code.
    #[inline(always)]
    pub const fn raw(self) -> u8 {
        self.0
    }

    /// Whether this is the empty square.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The type (NONE for the empty square).
    #[inline(always)]
    pub const fn piece_type(self) -> PieceType {
        PieceType(self.0 & 15)
    }

    /// The colour (meaningless for the empty square, which reads as Black).
    #[inline(always)]
    pub const fn color(self) -> Color {
        if self.0 & 16 != 0 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// The same type with the other colour.
    #[inline(always)]
    pub const fn flip_color(self) -> Piece {
        if self.0 == 0 {
            self
        } else {
            Piece(self.0 ^ 16)
        }
    }

    /// The promoted piece (same colour).
    #[inline(always)]
    pub const fn promoted(self) -> Piece {
        Piece::new(self.color(), self.piece_type().promoted())
    }

    /// SFEN text: `P`, `+p`, ...
    pub fn to_sfen(self) -> String {
        if self.is_empty() {
            return String::new();
        }
        let mut s = String::new();
        if self.piece_type().is_promoted() {
            s.push('+');
        }
        let l = self.piece_type().sfen_letter();
        s.push(if self.color() == Color::White {
            l.to_ascii_lowercase()
        } else {
            l
        });
        s
    }
}

impl fmt::Debug for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            write!(f, ".")
        } else {
            write!(f, "{}", self.to_sfen())
        }
    }
}
