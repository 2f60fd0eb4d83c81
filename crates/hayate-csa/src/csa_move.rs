//! CSA move text (`+7776FU`, `-0055KA`, `+2423TO`) to and from core moves, and the CSA piece
//! names. A CSA move names the piece *after* the move, so promotion is read from the name.

use crate::error::ParseError;
use hayate_core::{Color, Move, PieceType, Position, Square};

/// CSA two-letter names, indexed by `PieceType::raw()` (index 0 unused).
const NAMES: [&str; 15] = [
    "", "FU", "KY", "KE", "GI", "KA", "HI", "KI", "OU", "TO", "NY", "NK", "NG", "UM", "RY",
];

/// The CSA name of a piece type (`FU`, `RY`, ...); empty for `NONE`.
pub fn piece_name(pt: PieceType) -> &'static str {
    NAMES.get(pt.index()).copied().unwrap_or("")
}

/// The piece type of a CSA name (`GY` is accepted as a king, as some records write it).
pub fn piece_from_name(name: &str) -> Option<PieceType> {
    if name == "GY" {
        return Some(PieceType::KING);
    }
    NAMES
        .iter()
        .position(|n| !n.is_empty() && *n == name)
        .and_then(|i| PieceType::from_u8(i as u8))
}

/// The sign character of a colour: `+` for Black (sente), `-` for White.
pub fn sign(c: Color) -> char {
    match c {
        Color::Black => '+',
        Color::White => '-',
    }
}

/// The colour of a sign character.
pub fn color_from_sign(c: char) -> Option<Color> {
    match c {
        '+' => Some(Color::Black),
        '-' => Some(Color::White),
        _ => None,
    }
}

/// A square from two ASCII digits file, rank (`"77"`); `None` for `"00"` or anything else.
pub(crate) fn square_from_digits(f: u8, r: u8) -> Option<Square> {
    if !(b'1'..=b'9').contains(&f) || !(b'1'..=b'9').contains(&r) {
        return None;
    }
    Square::from_file_rank(f - b'0', r - b'0')
}

/// CSA text of a move, with its sign: `+7776FU`, `-0055KA`, `+8822UM`.
pub fn move_to_csa(m: Move) -> String {
    let piece = m.moved_piece_after();
    let mut s = String::with_capacity(7);
    s.push(sign(piece.color()));
    if m.is_drop() {
        s.push_str("00");
    } else {
        push_square(&mut s, m.from());
    }
    push_square(&mut s, m.to());
    s.push_str(piece_name(piece.piece_type()));
    s
}

fn push_square(s: &mut String, sq: Square) {
    s.push(char::from(b'0' + sq.file()));
    s.push(char::from(b'0' + sq.rank()));
}

/// Reads a move in `pos` from CSA text (only the first 7 characters: callers strip `,T..`).
/// The sign must be the side to move and the move must be legal.
///
/// # Errors
/// [`ParseError::MoveSyntax`] for malformed text, [`ParseError::IllegalMove`] when no legal move
/// matches.
pub fn parse_csa_move(pos: &Position, text: &str) -> Result<Move, ParseError> {
    let b = text.as_bytes();
    let syntax = || ParseError::MoveSyntax(text.to_string());
    if b.len() != 7 || !text.is_ascii() {
        return Err(syntax());
    }
    let color = color_from_sign(char::from(b[0])).ok_or_else(syntax)?;
    let to = square_from_digits(b[3], b[4]).ok_or_else(syntax)?;
    let after = piece_from_name(&text[5..7]).ok_or_else(syntax)?;
    let from = if &b[1..3] == b"00" {
        None
    } else {
        Some(square_from_digits(b[1], b[2]).ok_or_else(syntax)?)
    };
    let illegal = || ParseError::IllegalMove {
        text: text.to_string(),
        sfen: pos.to_sfen(),
    };
    if color != pos.side_to_move() {
        return Err(illegal());
    }
    let found = pos.legal_moves().iter().copied().find(|&m| {
        m.to() == to
            && m.moved_piece_after().piece_type() == after
            && match from {
                None => m.is_drop(),
                Some(f) => !m.is_drop() && m.from() == f,
            }
    });
    found.ok_or_else(illegal)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_roundtrip_for_every_piece_type() {
        for v in 1..=14u8 {
            let pt = PieceType::from_u8(v).unwrap();
            assert_eq!(piece_from_name(piece_name(pt)), Some(pt));
        }
        assert_eq!(piece_from_name("XX"), None);
        assert_eq!(piece_from_name(""), None);
    }

    #[test]
    fn parses_and_formats_opening_moves() {
        let mut pos = Position::startpos();
        let m = parse_csa_move(&pos, "+7776FU").unwrap();
        assert_eq!(m.to_usi(), "7g7f");
        assert_eq!(move_to_csa(m), "+7776FU");
        pos.do_move(m);
        let m = parse_csa_move(&pos, "-3334FU").unwrap();
        assert_eq!(m.to_usi(), "3c3d");
        pos.do_move(m);
        // Bishop exchange with promotion: the name after the move is UM.
        let m = parse_csa_move(&pos, "+8822UM").unwrap();
        assert_eq!(m.to_usi(), "8h2b+");
        assert_eq!(move_to_csa(m), "+8822UM");
        pos.do_move(m);
        let m = parse_csa_move(&pos, "-3122GI").unwrap();
        pos.do_move(m);
        let m = parse_csa_move(&pos, "+0055KA").unwrap();
        assert_eq!(m.to_usi(), "B*5e");
        assert_eq!(move_to_csa(m), "+0055KA");
    }

    #[test]
    fn rejects_wrong_side_illegal_and_garbage() {
        let pos = Position::startpos();
        assert!(matches!(
            parse_csa_move(&pos, "-3334FU"),
            Err(ParseError::IllegalMove { .. })
        ));
        assert!(matches!(
            parse_csa_move(&pos, "+5554FU"),
            Err(ParseError::IllegalMove { .. })
        ));
        assert!(matches!(
            parse_csa_move(&pos, "+7776TO"),
            Err(ParseError::IllegalMove { .. })
        ));
        for bad in [
            "",
            "+7776F",
            "*7776FU",
            "+7a76FU",
            "+7776XX",
            "+77760FU",
            "+7０76FU",
        ] {
            assert!(
                matches!(parse_csa_move(&pos, bad), Err(ParseError::MoveSyntax(_))),
                "{bad}"
            );
        }
    }
}
