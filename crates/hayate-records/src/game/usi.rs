//! USI position lines as a game list: one game per line, `startpos moves 7g7f 3c3d …` or
//! `sfen <sfen> moves …` (a leading `position ` is allowed; a bare SFEN is a game without
//! moves). Lines hold no times, comments or endings; empty lines and `#` lines are skipped.

use super::error::{ParseError, ParseErrorKind};
use super::record::{GameRecord, MoveEntry};
use hayate_core::Position;

/// Parses one line into a game.
///
/// # Errors
/// [`ParseErrorKind::BadPosition`], [`ParseErrorKind::BadLine`] or an illegal move, with
/// `line` 0 (the caller knows the line).
pub fn parse_usi_line(line: &str) -> Result<GameRecord, ParseErrorKind> {
    let line = line.trim();
    let line = line.strip_prefix("position ").unwrap_or(line).trim();
    let words: Vec<&str> = line.split_whitespace().collect();
    let (sfen, rest) = match words.first() {
        Some(&"startpos") => (hayate_core::sfen::STARTPOS.to_string(), &words[1..]),
        Some(&"sfen") => {
            let end = words
                .iter()
                .position(|&w| w == "moves")
                .unwrap_or(words.len());
            (words[1..end].join(" "), &words[end..])
        }
        _ => {
            let end = words
                .iter()
                .position(|&w| w == "moves")
                .unwrap_or(words.len());
            (words[..end].join(" "), &words[end..])
        }
    };
    let mut pos = Position::from_sfen(&sfen)?;
    let mut rec = GameRecord::from_sfen(&pos.to_sfen());
    let moves = match rest.split_first() {
        None => &[][..],
        Some((&"moves", m)) => m,
        Some((w, _)) => return Err(ParseErrorKind::BadLine(w.to_string())),
    };
    for (i, w) in moves.iter().enumerate() {
        let m = pos
            .parse_usi_move(w)
            .map_err(|_| ParseErrorKind::IllegalMove {
                ply: i + 1,
                text: w.to_string(),
            })?;
        pos.do_move(m);
        rec.moves.push(MoveEntry {
            mv: m,
            time_ms: None,
            comments: Vec::new(),
        });
    }
    Ok(rec)
}

/// Parses every game of a text.
///
/// # Errors
/// The first bad line's [`ParseError`].
pub fn parse_usi_lines(text: &str) -> Result<Vec<GameRecord>, ParseError> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(i, l)| parse_usi_line(l).map_err(|k| ParseError::new(i + 1, k)))
        .collect()
}

/// The USI line of a game (`startpos moves …` or `sfen … moves …`), without a newline.
pub fn write_usi_line(rec: &GameRecord) -> String {
    let key = |s: &str| s.split_whitespace().take(3).collect::<Vec<_>>().join(" ");
    let start = hayate_core::sfen::STARTPOS;
    let mut s = if key(&rec.start_sfen) == key(start) && rec.start_sfen.ends_with(" 1") {
        "startpos".to_string()
    } else {
        format!("sfen {}", rec.start_sfen)
    };
    if !rec.moves.is_empty() {
        s.push_str(" moves");
        for e in &rec.moves {
            s.push(' ');
            s.push_str(&e.mv.to_usi());
        }
    }
    s
}
