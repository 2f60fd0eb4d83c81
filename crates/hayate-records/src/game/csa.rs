//! CSA record format, V2.2 and V3.0: read and write.
//!
//! Read: the encoding line, `V` lines, `N+`/`N-`, `$KEY:VALUE`, the position (`PI` with removed
//! pieces, `P1`…`P9`, `P+`/`P-` with `00AL`, the side line), moves with `T` times (seconds, with
//! V3.0's millisecond decimals), `'` comments (`'**` eval/PV lines are kept verbatim), `%`
//! special moves (comments after one are the record's end comments), statements joined by `,`,
//! and several records separated by `/`. The notation itself is [`super::csa_notation`].
//! Write: V2.2 when every time is whole seconds and all text is ASCII, otherwise V3.0 with
//! `'CSA encoding=UTF-8` (times written with decimals). CSA has no move number, so a start
//! position's SFEN move number is not kept.

use super::csa_notation::{
    self, BadBoardLine, BoardReader, BoardStyle, MoveError, move_text, parse_seconds,
    position_lines,
};
use super::error::{ParseError, ParseErrorKind};
use super::record::{EndKind, GameEnd, GameRecord, MoveEntry};
use hayate_core::{Color, Move, Position};
use std::fmt::Write as _;

const SPECIALS: [(&str, EndKind); 15] = [
    ("%TORYO", EndKind::Resign),
    ("%CHUDAN", EndKind::Interrupt),
    ("%SENNICHITE", EndKind::Sennichite),
    ("%TIME_UP", EndKind::TimeUp),
    ("%ILLEGAL_MOVE", EndKind::IllegalMove),
    ("%+ILLEGAL_ACTION", EndKind::IllegalAction(Color::Black)),
    ("%-ILLEGAL_ACTION", EndKind::IllegalAction(Color::White)),
    ("%JISHOGI", EndKind::Jishogi),
    ("%KACHI", EndKind::Kachi),
    ("%HIKIWAKE", EndKind::Hikiwake),
    ("%MAX_MOVES", EndKind::MaxMoves),
    ("%TSUMI", EndKind::Tsumi),
    ("%FUZUMI", EndKind::Fuzumi),
    ("%ERROR", EndKind::Error),
    ("%MATTA", EndKind::Matta),
];

/// The CSA special move of an ending (`%TORYO` …).
pub fn special_name(kind: EndKind) -> &'static str {
    SPECIALS
        .iter()
        .find(|(_, k)| *k == kind)
        .map(|(n, _)| *n)
        .unwrap_or("%ERROR")
}

/// The ending of a CSA special move.
pub fn parse_special(s: &str) -> Option<EndKind> {
    SPECIALS.iter().find(|(n, _)| *n == s).map(|(_, k)| *k)
}

/// A CSA move (`+7776FU`) in `pos`, checked for legality (`ply` 0 in an illegal-move error:
/// the caller knows the ply).
///
/// # Errors
/// [`ParseErrorKind::BadMove`] for malformed text, [`ParseErrorKind::IllegalMove`] when no legal
/// move matches.
pub fn parse_move(pos: &Position, s: &str) -> Result<Move, ParseErrorKind> {
    csa_notation::parse_move(pos, s).map_err(|e| match e {
        MoveError::Syntax => ParseErrorKind::BadMove(s.to_string()),
        MoveError::Illegal => ParseErrorKind::IllegalMove {
            ply: 0,
            text: s.to_string(),
        },
    })
}

/// Parses the first record of a CSA file.
///
/// # Errors
/// A [`ParseError`] with the line of the first fault (illegal moves included).
pub fn parse_csa(text: &str) -> Result<GameRecord, ParseError> {
    let mut all = parse_csa_multi(text)?;
    if all.is_empty() {
        return Ok(GameRecord::new());
    }
    Ok(all.swap_remove(0))
}

/// Parses every record of a CSA file (records are separated by `/` lines).
///
/// # Errors
/// A [`ParseError`] with the line of the first fault.
pub fn parse_csa_multi(text: &str) -> Result<Vec<GameRecord>, ParseError> {
    let mut out = Vec::new();
    let mut start_line = 0;
    let mut chunk = String::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim_end() == "/" {
            out.push(parse_one(&chunk, start_line)?);
            chunk.clear();
            start_line = i + 1;
        } else {
            chunk.push_str(line);
            chunk.push('\n');
        }
    }
    if !chunk.trim().is_empty() || out.is_empty() {
        out.push(parse_one(&chunk, start_line)?);
    }
    Ok(out)
}

fn parse_one(text: &str, first_line: usize) -> Result<GameRecord, ParseError> {
    let mut rec = GameRecord::new();
    let mut board = BoardReader::new();
    let mut pos: Option<Position> = None;
    for (i, line) in text.lines().enumerate() {
        let ln = first_line + i + 1;
        let err = |kind| ParseError::new(ln, kind);
        let line = line.trim_end_matches(['\r', '\n']);
        if line.trim().is_empty() {
            continue;
        }
        // A comment takes the whole line, commas included.
        let statements: Vec<&str> = if line.starts_with('\'') {
            vec![line]
        } else {
            line.split(',').collect()
        };
        for st in statements {
            let st = st.trim_end();
            if let Some(c) = st.strip_prefix('\'') {
                if c.starts_with("CSA encoding=") {
                    continue;
                }
                match rec.moves.last_mut() {
                    _ if rec.end.is_some() => rec.end_comments.push(c.to_string()),
                    Some(m) if pos.is_some() => m.comments.push(c.to_string()),
                    _ => rec.comments.push(c.to_string()),
                }
                continue;
            }
            if st.starts_with('V') {
                continue;
            }
            if let Some(name) = st.strip_prefix("N+") {
                rec.players[0] = name.to_string();
                continue;
            }
            if let Some(name) = st.strip_prefix("N-") {
                rec.players[1] = name.to_string();
                continue;
            }
            if let Some(kv) = st.strip_prefix('$') {
                let (k, v) = kv.split_once(':').unwrap_or((kv, ""));
                rec.metadata.push((k.to_string(), v.to_string()));
                continue;
            }
            let bad_line = || err(ParseErrorKind::BadLine(st.to_string()));
            if pos.is_none() {
                if board.line(st).map_err(|BadBoardLine| bad_line())? {
                    continue;
                }
                if st == "+" || st == "-" {
                    let side = if st == "+" {
                        Color::Black
                    } else {
                        Color::White
                    };
                    let p = board.position(side).map_err(|e| err(e.into()))?;
                    rec.start_sfen = p.to_sfen();
                    pos = Some(p);
                    continue;
                }
                // Moves, times and specials need the position: the one described so far (its
                // side line missing: the mover's sign decides), else the initial position.
                let side = if st.starts_with('-') && board.has_lines() {
                    Color::White
                } else {
                    Color::Black
                };
                let p = board.position(side).map_err(|e| err(e.into()))?;
                rec.start_sfen = p.to_sfen();
                pos = Some(p);
            }
            let Some(p) = pos.as_mut() else {
                return Err(bad_line());
            };
            if rec.end.is_some() && !st.starts_with('T') {
                return Err(bad_line());
            }
            if st.starts_with('+') || st.starts_with('-') {
                let m = parse_move(p, st).map_err(|k| match k {
                    ParseErrorKind::IllegalMove { text, .. } => err(ParseErrorKind::IllegalMove {
                        ply: rec.moves.len() + 1,
                        text,
                    }),
                    k => err(k),
                })?;
                p.do_move(m);
                rec.moves.push(MoveEntry {
                    mv: m,
                    time_ms: None,
                    comments: Vec::new(),
                });
            } else if let Some(t) = st.strip_prefix('T') {
                let ms = parse_seconds(t).ok_or_else(|| err(ParseErrorKind::BadTime(t.into())))?;
                if let Some(e) = rec.end.as_mut() {
                    e.time_ms = Some(ms);
                } else if let Some(m) = rec.moves.last_mut() {
                    m.time_ms = Some(ms);
                }
            } else if st.starts_with('%') {
                let kind = parse_special(st)
                    .ok_or_else(|| err(ParseErrorKind::UnknownEnding(st.into())))?;
                rec.end = Some(GameEnd {
                    kind,
                    time_ms: None,
                });
            } else {
                return Err(bad_line());
            }
        }
    }
    if pos.is_none() && board.has_lines() {
        // A position without its side line: Black to move.
        rec.start_sfen = board
            .position(Color::Black)
            .map_err(|e| ParseError::new(0, e.into()))?
            .to_sfen();
    }
    Ok(rec)
}

fn time_text(ms: u64) -> String {
    if ms.is_multiple_of(1000) {
        format!("{}", ms / 1000)
    } else {
        format!("{}.{:03}", ms / 1000, ms % 1000)
    }
}

/// Writes a record as CSA text (see the module notes for the version chosen), the even-game
/// start as `PI`.
///
/// # Errors
/// The core's error if the record's start SFEN is invalid.
pub fn write_csa(rec: &GameRecord) -> Result<String, hayate_core::SfenError> {
    write_csa_as(rec, BoardStyle::Short)
}

/// Writes a record as CSA text with the start position in the given style (shogi-server writes
/// the nine rows even for the even game).
///
/// # Errors
/// The core's error if the record's start SFEN is invalid.
pub fn write_csa_as(rec: &GameRecord, style: BoardStyle) -> Result<String, hayate_core::SfenError> {
    let start = Position::from_sfen(&rec.start_sfen)?;
    let fractional = rec
        .moves
        .iter()
        .filter_map(|m| m.time_ms)
        .chain(rec.end.iter().filter_map(|e| e.time_ms))
        .any(|t| !t.is_multiple_of(1000));
    // Without an encoding line, CSA text is Shift_JIS by the V3.0 rule; non-ASCII names or
    // comments are written as V3.0 with an explicit UTF-8 line instead.
    let ascii = rec.players.iter().all(|p| p.is_ascii())
        && rec
            .metadata
            .iter()
            .all(|(k, v)| k.is_ascii() && v.is_ascii())
        && rec
            .comments
            .iter()
            .chain(&rec.end_comments)
            .all(|c| c.is_ascii())
        && rec
            .moves
            .iter()
            .all(|m| m.comments.iter().all(|c| c.is_ascii()));
    let mut s = String::new();
    if fractional || !ascii {
        s.push_str("'CSA encoding=UTF-8\nV3.0\n");
    } else {
        s.push_str("V2.2\n");
    }
    for (i, name) in rec.players.iter().enumerate() {
        if !name.is_empty() {
            let _ = writeln!(s, "N{}{}", if i == 0 { '+' } else { '-' }, name);
        }
    }
    for (k, v) in &rec.metadata {
        let _ = writeln!(s, "${k}:{v}");
    }
    for c in &rec.comments {
        let _ = writeln!(s, "'{c}");
    }
    for l in position_lines(&start, style) {
        s.push_str(&l);
        s.push('\n');
    }
    for e in &rec.moves {
        s.push_str(&move_text(e.mv));
        s.push('\n');
        if let Some(t) = e.time_ms {
            let _ = writeln!(s, "T{}", time_text(t));
        }
        for c in &e.comments {
            let _ = writeln!(s, "'{c}");
        }
    }
    if let Some(end) = &rec.end {
        s.push_str(special_name(end.kind));
        s.push('\n');
        if let Some(t) = end.time_ms {
            let _ = writeln!(s, "T{}", time_text(t));
        }
    }
    for c in &rec.end_comments {
        let _ = writeln!(s, "'{c}");
    }
    Ok(s)
}
