//! Opening positions for games (the arena's matches, self-play): one per line, as an SFEN
//! (`<board> <side> <hands> <ply>`), `sfen ...`, or `startpos [moves ...]` (an optional leading
//! `position ` is accepted). Blank lines and lines starting with `#` are skipped. Every move is
//! checked with the rules core.

use std::fmt;

use crate::{Move, Position, sfen::STARTPOS};

/// One opening: a start position and moves already played from it.
#[derive(Clone, Debug, PartialEq)]
pub struct Opening {
    /// SFEN of the start position.
    pub start_sfen: String,
    /// The moves from it (legal, in order).
    pub moves: Vec<Move>,
}

impl Opening {
    /// The standard start position with no moves.
    pub fn startpos() -> Opening {
        Opening {
            start_sfen: STARTPOS.to_string(),
            moves: Vec::new(),
        }
    }

    /// The start position (before the opening moves).
    pub fn start_position(&self) -> Position {
        // Validated when the opening was parsed; fall back to startpos rather than panic.
        Position::from_sfen(&self.start_sfen).unwrap_or_else(|_| Position::startpos())
    }

    /// The USI `position` arguments for the start: `startpos` or `sfen <sfen>`.
    pub fn usi_base(&self) -> String {
        if self.start_sfen == STARTPOS {
            "startpos".to_string()
        } else {
            format!("sfen {}", self.start_sfen)
        }
    }
}

/// A line of an openings file that could not be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for OpeningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "openings line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for OpeningError {}

/// Parses one opening line.
///
/// # Errors
/// A message when the position or a move is invalid.
pub fn parse_opening(line: &str) -> Result<Opening, String> {
    let line = line.trim();
    let line = line.strip_prefix("position ").unwrap_or(line).trim();
    let (start_sfen, rest): (String, &str) = if let Some(r) = line.strip_prefix("startpos") {
        (STARTPOS.to_string(), r)
    } else {
        let body = line.strip_prefix("sfen ").unwrap_or(line);
        let (sfen_part, rest) = match body.find(" moves") {
            Some(i) => (&body[..i], &body[i..]),
            None => (body, ""),
        };
        let pos = Position::from_sfen(sfen_part.trim()).map_err(|e| format!("bad SFEN: {e}"))?;
        (pos.to_sfen(), rest)
    };
    let rest = rest.trim();
    let words: Vec<&str> = match rest.strip_prefix("moves") {
        Some(r) => r.split_whitespace().collect(),
        None if rest.is_empty() => Vec::new(),
        None => return Err(format!("expected 'moves', got {rest:?}")),
    };
    let mut pos = Position::from_sfen(&start_sfen).map_err(|e| format!("bad SFEN: {e}"))?;
    let mut moves = Vec::with_capacity(words.len());
    for (i, w) in words.iter().enumerate() {
        let m = pos
            .parse_usi_move(w)
            .map_err(|e| format!("move {} ({w}): {e}", i + 1))?;
        pos.do_move(m);
        moves.push(m);
    }
    if pos.legal_moves().is_empty() {
        return Err("the side to move has no legal move".to_string());
    }
    Ok(Opening { start_sfen, moves })
}

/// Parses an openings file's text.
///
/// # Errors
/// The first bad line.
pub fn parse_openings(text: &str) -> Result<Vec<Opening>, OpeningError> {
    let mut out = Vec::new();
    for (i, l) in text.lines().enumerate() {
        let t = l.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        out.push(parse_opening(t).map_err(|message| OpeningError {
            line: i + 1,
            message,
        })?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_the_three_forms() {
        let text = "# comment\n\nstartpos moves 7g7f 3c3d\n\
            position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 2g2f\n\
            lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2\n";
        let o = parse_openings(text).unwrap();
        assert_eq!(o.len(), 3);
        assert_eq!(o[0].moves.len(), 2);
        assert_eq!(o[0].usi_base(), "startpos");
        assert_eq!(o[1].start_sfen, STARTPOS);
        assert_eq!(o[1].moves[0].to_usi(), "2g2f");
        assert!(o[2].usi_base().starts_with("sfen "));
        assert!(o[2].moves.is_empty());
    }

    #[test]
    fn rejects_illegal_moves_with_line_numbers() {
        let e = parse_openings("startpos\nstartpos moves 7g7f 7g7f\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("move 2"), "{}", e.message);
        assert!(parse_openings("garbage here").is_err());
    }
}
