//! SFEN: parse (any hand order, multi-digit counts) and format (conventional `RBGSNLPrbgsnlp`).

use crate::{Color, Hand, Piece, PieceType, Position, Square};
use std::fmt;

/// The initial position.
pub const STARTPOS: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

/// Why an SFEN string was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SfenError {
    /// Fewer than three fields (board, side, hand).
    MissingField(&'static str),
    /// More than four fields.
    TrailingText(String),
    /// The board does not have nine ranks.
    WrongRankCount(usize),
    /// A rank does not describe exactly nine squares.
    WrongRankLength {
        /// Rank 1..=9.
        rank: usize,
        /// Squares it described.
        squares: usize,
    },
    /// A character that is not a piece, digit, `+` or `/`.
    BadBoardChar(char),
    /// `+` before a piece that cannot promote, or at the end of a rank.
    BadPromotion(String),
    /// The side field is not `b` or `w`.
    BadSide(String),
    /// The hand field could not be read.
    BadHand(String),
    /// The move-number field is not a positive integer.
    BadMoveNumber(String),
    /// More pieces of a type than a full set holds (board, promoted and hands counted together).
    TooManyPieces(char),
    /// Two or more kings of one side.
    TwoKings(Color),
    /// No king at all: nothing can be checked or mated.
    NoKing,
    /// A pawn, lance or knight stands where it could never move.
    DeadPiece(Square),
    /// Two unpromoted pawns of one side on a file.
    Nifu(u8),
    /// The side not to move is in check: the side to move could take its king.
    OpponentInCheck,
}

impl fmt::Display for SfenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SfenError::MissingField(what) => write!(f, "SFEN lacks its {what} field"),
            SfenError::TrailingText(t) => write!(f, "unexpected text after the SFEN: {t:?}"),
            SfenError::WrongRankCount(n) => write!(f, "SFEN board has {n} ranks, expected 9"),
            SfenError::WrongRankLength { rank, squares } => {
                write!(
                    f,
                    "SFEN rank {rank} describes {squares} squares, expected 9"
                )
            }
            SfenError::BadBoardChar(c) => write!(f, "unexpected character {c:?} in the SFEN board"),
            SfenError::BadPromotion(s) => {
                write!(f, "bad promotion mark in the SFEN board near {s:?}")
            }
            SfenError::BadSide(s) => write!(f, "side to move must be 'b' or 'w', got {s:?}"),
            SfenError::BadHand(s) => write!(f, "cannot read the SFEN hand {s:?}"),
            SfenError::BadMoveNumber(s) => {
                write!(f, "SFEN move number {s:?} is not a positive integer")
            }
            SfenError::TooManyPieces(c) => write!(f, "more pieces of type {c} than a set holds"),
            SfenError::TwoKings(c) => write!(f, "{c:?} has more than one king"),
            SfenError::NoKing => write!(f, "neither side has a king"),
            SfenError::DeadPiece(sq) => write!(f, "the piece on {sq} could never move"),
            SfenError::Nifu(file) => write!(f, "two unpromoted pawns of one side on file {file}"),
            SfenError::OpponentInCheck => write!(f, "the side not to move is in check"),
        }
    }
}

impl std::error::Error for SfenError {}

fn parse_board(pos: &mut Position, board: &str) -> Result<(), SfenError> {
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 9 {
        return Err(SfenError::WrongRankCount(ranks.len()));
    }
    for (ri, rank_text) in ranks.iter().enumerate() {
        // Files run 9 → 1 left to right.
        let mut file: usize = 9;
        let mut squares = 0usize;
        let mut promote = false;
        for ch in rank_text.chars() {
            if let Some(d) = ch.to_digit(10) {
                if promote || d == 0 {
                    return Err(SfenError::BadBoardChar(ch));
                }
                squares += d as usize;
                file = file.saturating_sub(d as usize);
                continue;
            }
            if ch == '+' {
                if promote {
                    return Err(SfenError::BadPromotion(rank_text.to_string()));
                }
                promote = true;
                continue;
            }
            let pt = PieceType::from_sfen_letter(ch).ok_or(SfenError::BadBoardChar(ch))?;
            if promote && !pt.can_promote() {
                return Err(SfenError::BadPromotion(rank_text.to_string()));
            }
            squares += 1;
            if squares > 9 || file == 0 {
                return Err(SfenError::WrongRankLength {
                    rank: ri + 1,
                    squares,
                });
            }
            let color = if ch.is_ascii_uppercase() {
                Color::Black
            } else {
                Color::White
            };
            let pt = if promote { pt.promoted() } else { pt };
            let sq = Square::from_file_rank(file as u8, ri as u8 + 1).ok_or(
                SfenError::WrongRankLength {
                    rank: ri + 1,
                    squares,
                },
            )?;
            pos.setup_put(Piece::new(color, pt), sq);
            file -= 1;
            promote = false;
        }
        if promote {
            return Err(SfenError::BadPromotion(rank_text.to_string()));
        }
        if squares != 9 {
            return Err(SfenError::WrongRankLength {
                rank: ri + 1,
                squares,
            });
        }
    }
    Ok(())
}

fn parse_hands(pos: &mut Position, text: &str) -> Result<(), SfenError> {
    if text == "-" {
        return Ok(());
    }
    let bad = || SfenError::BadHand(text.to_string());
    let mut count: Option<u32> = None;
    for ch in text.chars() {
        if let Some(d) = ch.to_digit(10) {
            let n = count
                .unwrap_or(0)
                .checked_mul(10)
                .and_then(|x| x.checked_add(d))
                .ok_or_else(bad)?;
            if n > 18 {
                return Err(bad());
            }
            count = Some(n);
            continue;
        }
        let pt = PieceType::from_sfen_letter(ch).ok_or_else(bad)?;
        if !pt.is_hand_type() {
            return Err(bad());
        }
        let n = count.take().unwrap_or(1);
        if n == 0 {
            return Err(bad());
        }
        let c = if ch.is_ascii_uppercase() {
            Color::Black
        } else {
            Color::White
        };
        let h = &mut pos.hands[c.index()];
        let total = h.count(pt) + n;
        *h = h
            .with_count(pt, total)
            .ok_or(SfenError::TooManyPieces(pt.sfen_letter()))?;
    }
    if count.is_some() {
        return Err(bad());
    }
    Ok(())
}

/// The checks every position that enters from outside passes (text, records, packed data).
///
/// Policy: accept what the rules and this software handle, not only what a game can reach.
/// A side may lack its king, as the attacker does in a mate problem (tsume: the problem
/// collections in `data/mate` have no attacker king, and the evaluations score such positions),
/// but a position with no king at all, two kings of a side, more pieces of a kind than a set
/// holds, a dead piece, nifu or the side not to move in check is refused.
fn validate(pos: &Position) -> Result<(), SfenError> {
    let kings = Color::ALL.map(|c| pos.pieces_of(c, PieceType::KING).count());
    if kings == [0, 0] {
        return Err(SfenError::NoKing);
    }
    for c in Color::ALL {
        if kings[c.index()] > 1 {
            return Err(SfenError::TwoKings(c));
        }
    }
    let counts = pos.material_counts();
    for pt in 1..=8u8 {
        let pt = PieceType::from_u8(pt).expect("valid type code");
        if counts[pt.index()] > pt.full_set_count() as u32 {
            return Err(SfenError::TooManyPieces(pt.sfen_letter()));
        }
    }
    for c in Color::ALL {
        for pt in [PieceType::PAWN, PieceType::LANCE, PieceType::KNIGHT] {
            for sq in pos.pieces_of(c, pt) {
                let limit = if pt == PieceType::KNIGHT { 2 } else { 1 };
                if sq.relative_rank(c) <= limit {
                    return Err(SfenError::DeadPiece(sq));
                }
            }
        }
        for file in 1..=9u8 {
            if (pos.pieces_of(c, PieceType::PAWN) & crate::Bitboard::file(file)).has_more_than_one()
            {
                return Err(SfenError::Nifu(file));
            }
        }
    }
    let them = !pos.side;
    if let Some(k) = pos.king_square(them)
        && pos.is_attacked_by(pos.side, k, pos.occupied())
    {
        return Err(SfenError::OpponentInCheck);
    }
    Ok(())
}

impl Position {
    /// Parses an SFEN (`board side hand [move-number]`). The hand may list types in any order;
    /// a missing move number reads as 1.
    ///
    /// # Errors
    /// A [`SfenError`] naming the fault; malformed input never panics.
    pub fn from_sfen(sfen: &str) -> Result<Position, SfenError> {
        let mut fields = sfen.split_whitespace();
        let board = fields.next().ok_or(SfenError::MissingField("board"))?;
        let side = fields
            .next()
            .ok_or(SfenError::MissingField("side-to-move"))?;
        let hand = fields.next().ok_or(SfenError::MissingField("hand"))?;
        let ply = fields.next();
        if let Some(extra) = fields.next() {
            return Err(SfenError::TrailingText(extra.to_string()));
        }
        let mut pos = Position::empty();
        parse_board(&mut pos, board)?;
        pos.side = match side {
            "b" => Color::Black,
            "w" => Color::White,
            _ => return Err(SfenError::BadSide(side.to_string())),
        };
        parse_hands(&mut pos, hand)?;
        if let Some(p) = ply {
            pos.start_ply = match p.parse::<u32>() {
                Ok(n) if n >= 1 => n,
                _ => return Err(SfenError::BadMoveNumber(p.to_string())),
            };
        }
        validate(&pos)?;
        pos.finish_setup();
        Ok(pos)
    }

    /// Builds a position from its parts (for packed formats such as hcp and PackedSfen, which
    /// need not go through text). The same checks as [`Position::from_sfen`] apply.
    ///
    /// # Errors
    /// A [`SfenError`] naming what makes the position invalid.
    pub fn from_parts(
        board: &[Piece; 81],
        hands: [Hand; 2],
        side: Color,
        move_number: u32,
    ) -> Result<Position, SfenError> {
        let mut pos = Position::empty();
        for sq in Square::all() {
            let pc = board[sq.index()];
            if !pc.is_empty() {
                pos.setup_put(pc, sq);
            }
        }
        for c in Color::ALL {
            for pt in PieceType::HAND_TYPES {
                let n = hands[c.index()].count(pt);
                pos.hands[c.index()] = pos.hands[c.index()]
                    .with_count(pt, n)
                    .ok_or(SfenError::TooManyPieces(pt.sfen_letter()))?;
            }
        }
        pos.side = side;
        if move_number == 0 {
            return Err(SfenError::BadMoveNumber("0".into()));
        }
        pos.start_ply = move_number;
        validate(&pos)?;
        pos.finish_setup();
        Ok(pos)
    }

    /// The SFEN of the current position, hands in the conventional order.
    pub fn to_sfen(&self) -> String {
        let mut s = String::with_capacity(96);
        for rank in 1..=9u8 {
            let mut empty = 0;
            for file in (1..=9u8).rev() {
                let sq = Square::from_file_rank(file, rank).expect("valid square");
                let pc = self.piece_on(sq);
                if pc.is_empty() {
                    empty += 1;
                } else {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push_str(&pc.to_sfen());
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            if rank < 9 {
                s.push('/');
            }
        }
        s.push(' ');
        s.push(if self.side == Color::Black { 'b' } else { 'w' });
        s.push(' ');
        let hands = hand_text(self.hands[0], self.hands[1]);
        s.push_str(&hands);
        s.push(' ');
        s.push_str(&self.game_ply().to_string());
        s
    }
}

/// The SFEN hand field for the two hands (`-` when both are empty).
pub fn hand_text(black: Hand, white: Hand) -> String {
    let mut s = String::new();
    for (c, h) in [(Color::Black, black), (Color::White, white)] {
        for pt in PieceType::HAND_SFEN_ORDER {
            let n = h.count(pt);
            if n == 0 {
                continue;
            }
            if n > 1 {
                s.push_str(&n.to_string());
            }
            let l = pt.sfen_letter();
            s.push(if c == Color::White {
                l.to_ascii_lowercase()
            } else {
                l
            });
        }
    }
    if s.is_empty() {
        s.push('-');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(sfen: &str) -> SfenError {
        Position::from_sfen(sfen).expect_err(sfen)
    }

    #[test]
    fn positions_without_a_king_or_with_two_are_refused() {
        assert_eq!(err("9/9/9/9/9/9/9/9/9 b - 1"), SfenError::NoKing);
        assert_eq!(err("9/9/9/9/4g4/9/9/9/9 b 2P 1"), SfenError::NoKing);
        assert_eq!(
            err("4k4/9/9/9/9/9/9/9/3KK4 b - 1"),
            SfenError::TwoKings(Color::Black)
        );
        assert_eq!(
            err("3kk4/9/9/9/9/9/9/9/4K4 b - 1"),
            SfenError::TwoKings(Color::White)
        );
        // A mate problem: the attacker has no king; still a position the solvers take.
        assert!(Position::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1").is_ok());
    }

    #[test]
    fn piece_counts_include_promoted_pieces_and_hands() {
        // 18 pawns in hand plus a promoted pawn on the board: 19 pawns.
        assert_eq!(
            err("4k4/4+p4/9/9/9/9/9/9/4K4 b 2r2b4g4s4n4l18p 1"),
            SfenError::TooManyPieces('P')
        );
        // 17 in a hand, one in the other hand, one on the board: 19.
        assert_eq!(
            err("4k4/9/4p4/9/9/9/9/9/4K4 b P17p 1"),
            SfenError::TooManyPieces('P')
        );
        // Three bishops: one promoted on the board, two in hand.
        assert_eq!(
            err("4k4/9/9/9/4+B4/9/9/9/4K4 b 2B 1"),
            SfenError::TooManyPieces('B')
        );
        assert!(Position::from_sfen("4k4/4+p4/9/9/9/9/9/9/4K4 b 2r2b4g4s4n4l17p 1").is_ok());
    }

    #[test]
    fn packed_parts_get_the_same_checks() {
        let empty = [Piece::EMPTY; 81];
        assert_eq!(
            Position::from_parts(&empty, [Hand::EMPTY; 2], Color::Black, 1).unwrap_err(),
            SfenError::NoKing
        );
    }
}
