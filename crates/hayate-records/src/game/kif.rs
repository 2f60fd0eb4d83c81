//! KIF (柿木) format: read and write. `.kif` files are Shift_JIS and `.kifu` UTF-8; use
//! [`super::text::decode`] / [`super::text::encode`] around these text functions.
//!
//! Read: header lines `key：value` (shared keys mapped, see [`super::japanese`]), 手合割 or a
//! board diagram, `先手`/`後手` (`下手`/`上手`), move lines `   1 ７六歩(77)   ( 0:16/00:00:16)`
//! with `同`, `成`, `不成`, `打`, ending words, `*` comments. Branches (`変化：`) are not read:
//! the main line ends there. Times are whole seconds.

use super::error::{ParseError, ParseErrorKind};
use super::japanese::{
    CommonLine, HeaderState, common_line, move_error, parse_square, square_text, write_header,
};
use super::names::{kanji_name, parse_kanji_piece};
use super::record::{EndKind, GameEnd, GameRecord, MoveEntry};
use hayate_core::{Color, Move, Move16, Position, Square};
use std::fmt::Write as _;

/// KIF ending words.
const ENDINGS: [(&str, EndKind); 14] = [
    ("投了", EndKind::Resign),
    ("中断", EndKind::Interrupt),
    ("千日手", EndKind::Sennichite),
    ("切れ負け", EndKind::TimeUp),
    ("反則負け", EndKind::IllegalMove),
    ("持将棋", EndKind::Jishogi),
    ("入玉勝ち", EndKind::Kachi),
    ("入玉宣言", EndKind::Kachi),
    ("宣言勝ち", EndKind::Kachi),
    ("引き分け", EndKind::Hikiwake),
    ("最大手数", EndKind::MaxMoves),
    ("詰み", EndKind::Tsumi),
    ("不詰", EndKind::Fuzumi),
    ("エラー", EndKind::Error),
];

/// The KIF word of an ending, given the side to move at the end.
pub fn ending_word(kind: EndKind, mover: Color) -> &'static str {
    match kind {
        EndKind::IllegalAction(c) if c != mover => "反則勝ち",
        EndKind::IllegalAction(_) => "反則負け",
        EndKind::Matta => "待った",
        k => ENDINGS
            .iter()
            .find(|(_, e)| *e == k)
            .map(|(w, _)| *w)
            .unwrap_or("中断"),
    }
}

/// The ending of a KIF word, given the side to move at the end.
pub fn parse_ending_word(word: &str, mover: Color) -> Option<EndKind> {
    match word {
        "反則勝ち" => Some(EndKind::IllegalAction(!mover)),
        "待った" => Some(EndKind::Matta),
        _ => ENDINGS.iter().find(|(w, _)| *w == word).map(|(_, k)| *k),
    }
}

/// Reads a KIF move (`７六歩(77)`, `同　歩(87)`, `８六角打`, `４二角成(33)`) in `pos`.
pub fn parse_move(
    pos: &Position,
    text: &str,
    last_to: Option<Square>,
) -> Result<Move, ParseErrorKind> {
    let bad = || ParseErrorKind::BadMove(text.to_string());
    let mut rest = text;
    let to = if let Some(r) = rest.strip_prefix('同') {
        rest = r.trim_start_matches(['　', ' ']);
        last_to.ok_or_else(bad)?
    } else {
        let (sq, used) = parse_square(rest).ok_or_else(bad)?;
        rest = &rest[used..];
        sq
    };
    let (pt, used) = parse_kanji_piece(rest).ok_or_else(bad)?;
    rest = &rest[used..];
    let mut promote = false;
    let mut drop = false;
    if let Some(r) = rest.strip_prefix("不成") {
        rest = r;
    } else if let Some(r) = rest.strip_prefix('成') {
        promote = true;
        rest = r;
    } else if let Some(r) = rest.strip_prefix('打') {
        drop = true;
        rest = r;
    }
    let m16 = if drop || rest.is_empty() {
        if !pt.is_hand_type() {
            return Err(bad());
        }
        Move16(to.raw() as u16 | ((pt.raw() as u16) << 7) | (1 << 14))
    } else {
        let inner = rest
            .strip_prefix('(')
            .and_then(|r| r.strip_suffix(')'))
            .ok_or_else(bad)?;
        let (from, _) = parse_square(inner).ok_or_else(bad)?;
        let on = pos.piece_on(from);
        if on.is_empty() || on.piece_type() != pt {
            return Err(ParseErrorKind::IllegalMove {
                ply: 0,
                text: text.to_string(),
            });
        }
        Move16(to.raw() as u16 | ((from.raw() as u16) << 7) | if promote { 1 << 15 } else { 0 })
    };
    pos.to_move(m16).ok_or_else(|| ParseErrorKind::IllegalMove {
        ply: 0,
        text: text.to_string(),
    })
}

/// The KIF text of a move (`７六歩(77)`), `同　` when it lands where the last move did.
pub fn move_text(m: Move, last_to: Option<Square>) -> String {
    let mut s = if last_to == Some(m.to()) {
        "同　".to_string()
    } else {
        square_text(m.to())
    };
    if m.is_drop() {
        s.push_str(kanji_name(m.dropped_type()));
        s.push('打');
    } else {
        s.push_str(kanji_name(m.moved_piece().piece_type()));
        if m.is_promotion() {
            s.push('成');
        }
        let _ = write!(s, "({}{})", m.from().file(), m.from().rank());
    }
    s
}

/// Reads `( 0:16/00:00:16)`'s per-move part as milliseconds.
fn parse_time(t: &str) -> Option<u64> {
    let per_move = t.split('/').next()?.trim();
    let (m, s) = per_move.split_once(':')?;
    let m: u64 = m.trim().parse().ok()?;
    let s: u64 = s.trim().parse().ok()?;
    Some((m * 60 + s) * 1000)
}

/// Splits a move line into number, body and time.
fn split_move_line(line: &str) -> Option<(usize, &str, Option<&str>)> {
    let t = line.trim_start();
    let digits = t.bytes().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 {
        return None;
    }
    let num: usize = t[..digits].parse().ok()?;
    let rest = t[digits..].trim().trim_end_matches('+').trim_end();
    if let Some(i) = rest.rfind('(')
        && rest[i..].contains('/')
    {
        let time = rest[i + 1..].trim_end_matches(')');
        return Some((num, rest[..i].trim(), Some(time)));
    }
    Some((num, rest, None))
}

/// Parses KIF text (the main line).
///
/// # Errors
/// A [`ParseError`] with the line of the first fault (illegal moves included).
pub fn parse_kif(text: &str) -> Result<GameRecord, ParseError> {
    let mut rec = GameRecord::new();
    let mut header = Some(HeaderState::default());
    let mut pos: Option<Position> = None;
    let mut last_to = None;
    for (i, raw_line) in text.lines().enumerate() {
        let ln = i + 1;
        let line = raw_line.trim_end_matches('\r');
        match common_line(&mut rec, line) {
            CommonLine::Skip | CommonLine::Comment => continue,
            CommonLine::Variation => break,
            CommonLine::Other => {}
        }
        if line.starts_with("手数") || line.starts_with("まで") {
            continue;
        }
        if let Some(h) = header.as_mut()
            && h.line(&mut rec, line, ln)?
        {
            continue;
        }
        let Some((num, body, time)) = split_move_line(line) else {
            return Err(ParseError::new(
                ln,
                ParseErrorKind::BadLine(line.to_string()),
            ));
        };
        if let Some(h) = header.take() {
            let p = h.finish(ln)?;
            rec.start_sfen = p.to_sfen();
            pos = Some(p);
        }
        let Some(p) = pos.as_mut() else {
            return Err(ParseError::new(
                ln,
                ParseErrorKind::BadLine(line.to_string()),
            ));
        };
        let time_ms = match time {
            Some(t) => Some(
                parse_time(t)
                    .ok_or_else(|| ParseError::new(ln, ParseErrorKind::BadTime(t.into())))?,
            ),
            None => None,
        };
        if rec.end.is_some() {
            return Err(ParseError::new(
                ln,
                ParseErrorKind::BadLine(line.to_string()),
            ));
        }
        if let Some(kind) = parse_ending_word(body, p.side_to_move()) {
            rec.end = Some(GameEnd { kind, time_ms });
            continue;
        }
        let _ = num;
        let m = parse_move(p, body, last_to).map_err(|k| move_error(ln, rec.moves.len() + 1, k))?;
        p.do_move(m);
        last_to = Some(m.to());
        rec.moves.push(MoveEntry {
            mv: m,
            time_ms,
            comments: Vec::new(),
        });
    }
    if let Some(h) = header.take() {
        rec.start_sfen = h.finish(0)?.to_sfen();
    }
    Ok(rec)
}

fn time_text(ms: u64, total_ms: u64) -> String {
    let s = ms / 1000;
    let t = total_ms / 1000;
    format!(
        "({:>2}:{:02}/{:02}:{:02}:{:02})",
        s / 60,
        s % 60,
        t / 3600,
        (t / 60) % 60,
        t % 60
    )
}

/// Writes a record as KIF text (times rounded down to whole seconds).
///
/// # Errors
/// The core's error if the record's start SFEN is invalid.
pub fn write_kif(rec: &GameRecord) -> Result<String, hayate_core::SfenError> {
    let mut s = String::new();
    write_header(rec, &mut s)?;
    s.push_str("手数----指手---------消費時間--\n");
    let mut totals = [0u64; 2];
    let mut last_to = None;
    let start = Position::from_sfen(&rec.start_sfen)?;
    let mut side = start.side_to_move();
    for (i, e) in rec.moves.iter().enumerate() {
        let text = move_text(e.mv, last_to);
        let _ = write!(s, "{:>4} {}", i + 1, text);
        if let Some(t) = e.time_ms {
            totals[side.index()] += t / 1000 * 1000;
            let pad = 14usize.saturating_sub(text.chars().count() * 2);
            let _ = write!(s, "{:pad$} {}", "", time_text(t, totals[side.index()]));
        }
        s.push('\n');
        for c in &e.comments {
            let _ = writeln!(s, "*{c}");
        }
        last_to = Some(e.mv.to());
        side = !side;
    }
    if let Some(end) = &rec.end {
        let word = ending_word(end.kind, side);
        let _ = write!(s, "{:>4} {}", rec.moves.len() + 1, word);
        if let Some(t) = end.time_ms {
            totals[side.index()] += t / 1000 * 1000;
            let _ = write!(s, "   {}", time_text(t, totals[side.index()]));
        }
        s.push('\n');
    }
    Ok(s)
}
