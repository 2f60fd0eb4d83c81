//! The dlshogi feature dump, one JSON line per position, in the format of
//! `data/dl/dlshogi-features.jsonl`: `{"sfen":…,"f1":[…],"f2":[…],"labels":{"7g7f":59,…}}` where
//! `f1` lists the non-zero cells `ch * 81 + sq` of `input1` ascending, `f2` the set planes of
//! `input2` ascending, and `labels` maps the USI text of every legal move to its label.
//!
//! `labels` lists the moves in cshogi's order (see [`crate::cshogi_order`]), so the output
//! equals the reference file byte for byte for the same SFEN lines.

use crate::cshogi_order::cshogi_legal_order;
use crate::features::DlshogiFeatures;
use crate::labels::move_label;
use hayate_core::{Position, PositionCommandError, SfenError};
use std::fmt::Write;

/// A line of a position file that could not be read.
#[derive(Debug, thiserror::Error)]
pub enum PositionLineError {
    /// A plain SFEN line that does not parse.
    #[error("bad SFEN {text:?}: {error}")]
    Sfen {
        /// The line.
        text: String,
        /// Why.
        error: SfenError,
    },
    /// A `startpos …`, `sfen … moves …` or `position …` line that does not parse.
    #[error("bad position {text:?}: {error}")]
    Position {
        /// The line.
        text: String,
        /// Why.
        error: PositionCommandError,
    },
}

/// Reads one line of a position file: a bare SFEN, or a USI position (`startpos [moves …]`,
/// `sfen … [moves …]`, optionally after `position `). Blank lines and `#` comments give `None`.
/// Returns the SFEN text to print (the line itself for a bare SFEN, else the final position's
/// SFEN) and the position.
///
/// # Errors
/// [`PositionLineError`] with the line and the parser's reason.
pub fn parse_position_line(line: &str) -> Result<Option<(String, Position)>, PositionLineError> {
    let text = line.trim();
    if text.is_empty() || text.starts_with('#') {
        return Ok(None);
    }
    let usi = text.strip_prefix("position ").unwrap_or(text).trim_start();
    if usi.starts_with("startpos") || usi.starts_with("sfen ") {
        let pos =
            Position::from_usi_position(usi).map_err(|error| PositionLineError::Position {
                text: text.to_string(),
                error,
            })?;
        return Ok(Some((pos.to_sfen(), pos)));
    }
    let pos = Position::from_sfen(text).map_err(|error| PositionLineError::Sfen {
        text: text.to_string(),
        error,
    })?;
    Ok(Some((text.to_string(), pos)))
}

/// The JSON line (without the newline) for `pos`; `sfen` is echoed as given.
pub fn features_json_line(sfen: &str, pos: &Position, nyugyoku: bool) -> String {
    let f = DlshogiFeatures::new(pos, nyugyoku);
    let mut s = String::with_capacity(8192);
    s.push_str("{\"sfen\":");
    push_json_string(&mut s, sfen);
    s.push_str(",\"f1\":[");
    push_list(&mut s, f.input1_nonzero());
    s.push_str("],\"f2\":[");
    push_list(&mut s, f.input2_set());
    s.push_str("],\"labels\":{");
    let us = pos.side_to_move();
    for (i, m) in cshogi_legal_order(pos).iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        // USI move text is plain ASCII: no escaping needed.
        let _ = write!(s, "\"{}\":{}", m.to_usi(), move_label(*m, us));
    }
    s.push_str("}}");
    s
}

fn push_list(s: &mut String, items: impl Iterator<Item = usize>) {
    for (i, v) in items.enumerate() {
        if i > 0 {
            s.push(',');
        }
        let _ = write!(s, "{v}");
    }
}

fn push_json_string(s: &mut String, text: &str) {
    s.push('"');
    for ch in text.chars() {
        match ch {
            '"' => s.push_str("\\\""),
            '\\' => s.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(s, "\\u{:04x}", c as u32);
            }
            c => s.push(c),
        }
    }
    s.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn position_lines() {
        assert!(parse_position_line("  ").unwrap().is_none());
        assert!(parse_position_line("# comment").unwrap().is_none());
        let (s, p) = parse_position_line("position startpos moves 7g7f")
            .unwrap()
            .unwrap();
        assert_eq!(s, p.to_sfen());
        assert_eq!(p.game_ply(), 2);
        let sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
        assert_eq!(parse_position_line(sfen).unwrap().unwrap().0, sfen);
        assert!(matches!(
            parse_position_line("xyz"),
            Err(PositionLineError::Sfen { .. })
        ));
        assert!(matches!(
            parse_position_line("startpos moves 1a1b"),
            Err(PositionLineError::Position { .. })
        ));
    }

    #[test]
    fn startpos_line() {
        let pos = Position::startpos();
        let line = features_json_line("startpos", &pos, false);
        assert!(line.starts_with("{\"sfen\":\"startpos\",\"f1\":["));
        assert!(line.contains("\"7g7f\":59"));
        assert!(line.ends_with("}}"));
    }
}
