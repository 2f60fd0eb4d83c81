//! USI text: moves (`7g7f`, `8h2b+`, `P*5e`) and `position` lines.

use crate::{Move, Position, SfenError, Square};
use std::fmt;

/// Why a USI move could not be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveTextError {
    /// The text is not USI move syntax.
    Syntax(String),
    /// Well-formed, but not a legal move in the position.
    Illegal(String),
}

impl fmt::Display for MoveTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveTextError::Syntax(s) => write!(f, "{s:?} is not a USI move"),
            MoveTextError::Illegal(s) => write!(f, "{s:?} is not legal in this position"),
        }
    }
}

impl std::error::Error for MoveTextError {}

/// Why a `position` command was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionCommandError {
    /// Neither `startpos` nor `sfen ...` follows `position`.
    Syntax(String),
    /// The SFEN is invalid.
    Sfen(SfenError),
    /// Move number `index` (0-based) could not be played.
    Move {
        /// Index in the move list.
        index: usize,
        /// What was wrong.
        error: MoveTextError,
    },
}

impl fmt::Display for PositionCommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionCommandError::Syntax(s) => write!(f, "bad position command: {s}"),
            PositionCommandError::Sfen(e) => write!(f, "bad SFEN: {e}"),
            PositionCommandError::Move { index, error } => write!(f, "move {}: {error}", index + 1),
        }
    }
}

impl std::error::Error for PositionCommandError {}

fn parse_square(file: u8, rank: u8) -> Option<Square> {
    if !(b'1'..=b'9').contains(&file) || !(b'a'..=b'i').contains(&rank) {
        return None;
    }
    Square::from_file_rank(file - b'0', rank - b'a' + 1)
}

/// Checks USI move syntax and returns the 16-bit form (no legality check).
pub fn parse_move_syntax(text: &str) -> Result<crate::Move16, MoveTextError> {
    let b = text.as_bytes();
    let err = || MoveTextError::Syntax(text.to_string());
    if b.len() == 4 && b[1] == b'*' {
        let pt = crate::PieceType::from_sfen_letter(b[0] as char).ok_or_else(err)?;
        if !pt.is_hand_type() || !(b[0] as char).is_ascii_uppercase() {
            return Err(err());
        }
        let to = parse_square(b[2], b[3]).ok_or_else(err)?;
        return Ok(crate::Move16(
            to.raw() as u16 | ((pt.raw() as u16) << 7) | (1 << 14),
        ));
    }
    if b.len() == 4 || (b.len() == 5 && b[4] == b'+') {
        let from = parse_square(b[0], b[1]).ok_or_else(err)?;
        let to = parse_square(b[2], b[3]).ok_or_else(err)?;
        let promo = if b.len() == 5 { 1u16 << 15 } else { 0 };
        return Ok(crate::Move16(
            to.raw() as u16 | ((from.raw() as u16) << 7) | promo,
        ));
    }
    Err(err())
}

impl Position {
    /// Reads a USI move and returns it if it is legal here.
    ///
    /// # Errors
    /// [`MoveTextError::Syntax`] for text that is not a move, [`MoveTextError::Illegal`] otherwise.
    pub fn parse_usi_move(&self, text: &str) -> Result<Move, MoveTextError> {
        let m16 = parse_move_syntax(text)?;
        self.to_move(m16)
            .ok_or_else(|| MoveTextError::Illegal(text.to_string()))
    }

    /// The USI `position` arguments that rebuild this position with its history: `startpos` or
    /// `sfen <root>`, then `moves ...` for the moves made since the setup (what a GUI sends, so
    /// that the engine sees repetitions). A history with a null move gives the bare current
    /// position instead.
    pub fn to_usi_position(&self) -> String {
        let moves: Vec<Move> = self.states()[1..].iter().map(|s| s.last_move).collect();
        if moves.iter().any(|m| !m.is_some()) {
            return format!("sfen {}", self.to_sfen());
        }
        let mut root = self.clone();
        for &m in moves.iter().rev() {
            root.undo_move(m);
        }
        let sfen = root.to_sfen();
        let mut s = if sfen == crate::sfen::STARTPOS {
            "startpos".to_string()
        } else {
            format!("sfen {sfen}")
        };
        if !moves.is_empty() {
            s.push_str(" moves");
            for m in moves {
                s.push(' ');
                s.push_str(&m.to_usi());
            }
        }
        s
    }

    /// Builds the position of a USI `position` command, given the text after `position `:
    /// `startpos [moves ...]` or `sfen <4 fields> [moves ...]`.
    ///
    /// # Errors
    /// A [`PositionCommandError`] naming the first fault; nothing panics.
    pub fn from_usi_position(args: &str) -> Result<Position, PositionCommandError> {
        let mut words = args.split_whitespace().peekable();
        let mut pos = match words.next() {
            Some("startpos") => Position::startpos(),
            Some("sfen") => {
                let mut fields = Vec::new();
                while let Some(&w) = words.peek() {
                    if w == "moves" || fields.len() == 4 {
                        break;
                    }
                    fields.push(w);
                    words.next();
                }
                Position::from_sfen(&fields.join(" ")).map_err(PositionCommandError::Sfen)?
            }
            other => {
                return Err(PositionCommandError::Syntax(format!(
                    "expected 'startpos' or 'sfen', got {:?}",
                    other.unwrap_or("")
                )));
            }
        };
        match words.next() {
            None => return Ok(pos),
            Some("moves") => {}
            Some(w) => {
                return Err(PositionCommandError::Syntax(format!(
                    "expected 'moves', got {w:?}"
                )));
            }
        }
        for (index, w) in words.enumerate() {
            let m = pos
                .parse_usi_move(w)
                .map_err(|error| PositionCommandError::Move { index, error })?;
            pos.do_move(m);
        }
        Ok(pos)
    }
}
