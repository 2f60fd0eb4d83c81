//! CSA move text from and to the server: the shared notation of `hayate-records`
//! ([`hayate_records::game::csa_notation`]) with the client's errors.

use crate::error::ParseError;
use hayate_core::{Move, Position};
use hayate_records::game::csa_notation::{self, MoveError};

pub use csa_notation::{move_text, sign};

/// Reads a move in `pos` from CSA text (only the 7 characters: callers strip `,T..`). The sign
/// must be the side to move and the move must be legal.
///
/// # Errors
/// [`ParseError::MoveSyntax`] for malformed text, [`ParseError::IllegalMove`] when no legal move
/// matches.
pub fn parse_csa_move(pos: &Position, text: &str) -> Result<Move, ParseError> {
    csa_notation::parse_move(pos, text).map_err(|e| match e {
        MoveError::Syntax => ParseError::MoveSyntax(text.to_string()),
        MoveError::Illegal => ParseError::IllegalMove {
            text: text.to_string(),
            sfen: pos.to_sfen(),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_carry_the_text_and_the_position() {
        let pos = Position::startpos();
        assert_eq!(
            parse_csa_move(&pos, "+7776FU").map(|m| m.to_usi()),
            Ok("7g7f".into())
        );
        assert_eq!(
            parse_csa_move(&pos, "-3334FU"),
            Err(ParseError::IllegalMove {
                text: "-3334FU".into(),
                sfen: pos.to_sfen()
            })
        );
        assert_eq!(
            parse_csa_move(&pos, "+7a76FU"),
            Err(ParseError::MoveSyntax("+7a76FU".into()))
        );
    }
}
