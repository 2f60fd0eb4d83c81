//! KI2 format: moves in human notation without origin squares or times (`▲７六歩 △同　歩`,
//! `▲５二金左`, `▲３三銀右上`, `▲７七歩不成`, `▲５五角打`). `.ki2` is Shift_JIS, `.ki2u` UTF-8.
//! The ending is read from the `まで…手で…` summary line. Times are not part of the format.

use super::error::{ParseError, ParseErrorKind};
use super::japanese::{
    CommonLine, HeaderState, common_line, handicap_name, move_error, parse_square, side_name,
    square_text, write_header,
};
use super::names::{kanji_name, parse_kanji_piece};
use super::record::{EndKind, GameEnd, GameRecord, MoveEntry};
use hayate_core::{Color, Move, PieceType, Position, Square};
use std::fmt::Write as _;

/// Relative-position and motion words.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Word {
    Left,
    Right,
    Straight,
    Up,
    Back,
    Side,
}

fn word_char(w: Word) -> char {
    match w {
        Word::Left => '左',
        Word::Right => '右',
        Word::Straight => '直',
        Word::Up => '上',
        Word::Back => '引',
        Word::Side => '寄',
    }
}

/// File and rank steps from the mover's view: positive = toward its left / forward.
fn steps(m: Move, c: Color) -> (i32, i32) {
    let s = if c == Color::Black { 1 } else { -1 };
    let df = (m.from().file() as i32 - m.to().file() as i32) * s;
    let dr = (m.from().rank() as i32 - m.to().rank() as i32) * s;
    (df, dr)
}

/// Keeps the candidates that fit the words (motion first, then relative position).
fn filter(cands: &[Move], words: &[Word], c: Color) -> Vec<Move> {
    let mut v: Vec<Move> = cands.to_vec();
    for &w in words {
        match w {
            Word::Up => v.retain(|&m| steps(m, c).1 > 0),
            Word::Back => v.retain(|&m| steps(m, c).1 < 0),
            Word::Side => v.retain(|&m| steps(m, c).1 == 0),
            Word::Straight => v.retain(|&m| steps(m, c).0 == 0 && steps(m, c).1 > 0),
            _ => {}
        }
    }
    let side = |m: Move| m.from().file() as i32 * if c == Color::Black { 1 } else { -1 };
    for &w in words {
        let pick = match w {
            Word::Left => v.iter().map(|&m| side(m)).max(),
            Word::Right => v.iter().map(|&m| side(m)).min(),
            _ => continue,
        };
        v.retain(|&m| Some(side(m)) == pick);
    }
    v
}

/// Board moves of a piece type to a square with a given promotion flag.
fn board_candidates(pos: &Position, to: Square, pt: PieceType, promote: bool) -> Vec<Move> {
    pos.legal_moves()
        .iter()
        .copied()
        .filter(|m| {
            !m.is_drop()
                && m.to() == to
                && m.moved_piece().piece_type() == pt
                && m.is_promotion() == promote
        })
        .collect()
}

/// Reads one KI2 move (without its ▲/△ mark) in `pos`.
pub fn parse_move(
    pos: &Position,
    text: &str,
    last_to: Option<Square>,
) -> Result<Move, ParseErrorKind> {
    let bad = || ParseErrorKind::BadMove(text.to_string());
    let illegal = || ParseErrorKind::IllegalMove {
        ply: 0,
        text: text.to_string(),
    };
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
    let mut words = Vec::new();
    while let Some(ch) = rest.chars().next() {
        let w = match ch {
            '左' => Word::Left,
            '右' => Word::Right,
            '直' => Word::Straight,
            '上' | '行' | '入' => Word::Up,
            '引' => Word::Back,
            '寄' => Word::Side,
            _ => break,
        };
        words.push(w);
        rest = &rest[ch.len_utf8()..];
    }
    let (promote, drop) = match rest {
        "" => (false, false),
        "不成" => (false, false),
        "成" => (true, false),
        "打" => (false, true),
        _ => return Err(bad()),
    };
    let cands = if drop {
        Vec::new()
    } else {
        board_candidates(pos, to, pt, promote)
    };
    if cands.is_empty() {
        if promote || !pt.is_hand_type() {
            return Err(illegal());
        }
        let m16 = hayate_core::Move16(to.raw() as u16 | ((pt.raw() as u16) << 7) | (1 << 14));
        return pos.to_move(m16).ok_or_else(illegal);
    }
    let left = filter(&cands, &words, pos.side_to_move());
    match left.as_slice() {
        [m] => Ok(*m),
        _ => Err(illegal()),
    }
}

/// The KI2 text of a legal move in `pos` (without the ▲/△ mark).
pub fn move_text(pos: &Position, m: Move, last_to: Option<Square>) -> String {
    let mut s = if last_to == Some(m.to()) {
        "同　".to_string()
    } else {
        square_text(m.to())
    };
    if m.is_drop() {
        let pt = m.dropped_type();
        s.push_str(kanji_name(pt));
        let board = pos
            .legal_moves()
            .iter()
            .any(|x| !x.is_drop() && x.to() == m.to() && x.moved_piece().piece_type() == pt);
        if board {
            s.push('打');
        }
        return s;
    }
    let pt = m.moved_piece().piece_type();
    s.push_str(kanji_name(pt));
    let cands = board_candidates(pos, m.to(), pt, m.is_promotion());
    if cands.len() > 1 {
        use Word::*;
        let singles: [&[Word]; 6] = if pt == PieceType::HORSE || pt == PieceType::DRAGON {
            [&[Left], &[Right], &[Up], &[Back], &[Side], &[Straight]]
        } else {
            [&[Up], &[Back], &[Side], &[Straight], &[Left], &[Right]]
        };
        let pairs: [&[Word]; 6] = [
            &[Left, Up],
            &[Left, Back],
            &[Left, Side],
            &[Right, Up],
            &[Right, Back],
            &[Right, Side],
        ];
        let c = pos.side_to_move();
        if let Some(ws) = singles
            .iter()
            .chain(pairs.iter())
            .find(|ws| filter(&cands, ws, c).as_slice() == [m])
        {
            for &w in ws.iter() {
                s.push(word_char(w));
            }
        }
    }
    if m.is_promotion() {
        s.push('成');
    } else {
        let can = pos
            .legal_moves()
            .iter()
            .any(|x| x.is_promotion() && x.from() == m.from() && x.to() == m.to() && !m.is_drop());
        if can {
            s.push_str("不成");
        }
    }
    s
}

/// The summary phrase of an ending (after `まで N 手で`).
fn ending_phrase(kind: EndKind, mover: Color, handicap: bool) -> String {
    let name = |c| side_name(c, handicap);
    match kind {
        EndKind::Resign => format!("{}の勝ち", name(!mover)),
        EndKind::Interrupt => "中断".into(),
        EndKind::Sennichite => "千日手".into(),
        EndKind::TimeUp => format!("時間切れにより{}の勝ち", name(!mover)),
        EndKind::IllegalMove => format!("{}の反則負け", name(mover)),
        EndKind::IllegalAction(c) => format!("{}の反則勝ち", name(!c)),
        EndKind::Jishogi => "持将棋".into(),
        EndKind::Kachi => format!("{}の入玉勝ち", name(mover)),
        EndKind::Hikiwake => "引き分け".into(),
        EndKind::MaxMoves => "最大手数".into(),
        EndKind::Tsumi => "詰み".into(),
        EndKind::Fuzumi => "不詰".into(),
        EndKind::Error => "エラー".into(),
        EndKind::Matta => "待った".into(),
    }
}

fn parse_ending_phrase(p: &str, mover: Color) -> Option<EndKind> {
    let named = if p.starts_with("先手") || p.starts_with("下手") {
        Some(Color::Black)
    } else if p.starts_with("後手") || p.starts_with("上手") {
        Some(Color::White)
    } else {
        None
    };
    let kind = if p.contains("反則勝ち") {
        EndKind::IllegalAction(!named?)
    } else if p.contains("反則負け") {
        let c = named?;
        if c == mover {
            EndKind::IllegalMove
        } else {
            EndKind::IllegalAction(c)
        }
    } else if p.contains("入玉") || p.contains("宣言") {
        EndKind::Kachi
    } else if p.contains("時間切れ") || p.contains("切れ負け") {
        EndKind::TimeUp
    } else if p.contains("千日手") {
        EndKind::Sennichite
    } else if p.contains("持将棋") {
        EndKind::Jishogi
    } else if p.contains("中断") {
        EndKind::Interrupt
    } else if p.contains("引き分け") {
        EndKind::Hikiwake
    } else if p.contains("最大手数") {
        EndKind::MaxMoves
    } else if p.contains("不詰") {
        EndKind::Fuzumi
    } else if p.contains("詰み") {
        EndKind::Tsumi
    } else if p.contains("エラー") {
        EndKind::Error
    } else if p.contains("待った") {
        EndKind::Matta
    } else if p.contains("の勝ち") {
        EndKind::Resign
    } else {
        return None;
    };
    Some(kind)
}

/// Parses KI2 text.
///
/// # Errors
/// A [`ParseError`] with the line of the first fault (illegal or ambiguous moves included).
pub fn parse_ki2(text: &str) -> Result<GameRecord, ParseError> {
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
        if let Some(rest) = line.strip_prefix("まで") {
            let mover = pos
                .as_ref()
                .map(|p| p.side_to_move())
                .unwrap_or(Color::Black);
            let phrase = rest.split_once("手で").map(|(_, p)| p).unwrap_or(rest);
            let kind = parse_ending_phrase(phrase.trim(), mover)
                .ok_or_else(|| ParseError::new(ln, ParseErrorKind::UnknownEnding(phrase.into())))?;
            rec.end = Some(GameEnd {
                kind,
                time_ms: None,
            });
            continue;
        }
        let is_move = |l: &str| l.starts_with(['▲', '△', '☗', '☖']);
        if !is_move(line) {
            if let Some(h) = header.as_mut()
                && h.line(&mut rec, line, ln)?
            {
                continue;
            }
            return Err(ParseError::new(
                ln,
                ParseErrorKind::BadLine(line.to_string()),
            ));
        }
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
        for token in line
            .split(['▲', '△', '☗', '☖'])
            .map(|t| t.trim_matches([' ', '\t']))
            .filter(|t| !t.is_empty())
        {
            let m = parse_move(p, token, last_to)
                .map_err(|k| move_error(ln, rec.moves.len() + 1, k))?;
            p.do_move(m);
            last_to = Some(m.to());
            rec.moves.push(MoveEntry {
                mv: m,
                time_ms: None,
                comments: Vec::new(),
            });
        }
    }
    if let Some(h) = header.take() {
        rec.start_sfen = h.finish(0)?.to_sfen();
    }
    Ok(rec)
}

/// Writes a record as KI2 text (one move per line; times are dropped).
///
/// # Errors
/// The core's error if the record's start SFEN is invalid.
pub fn write_ki2(rec: &GameRecord) -> Result<String, hayate_core::SfenError> {
    let mut s = String::new();
    write_header(rec, &mut s)?;
    let mut pos = Position::from_sfen(&rec.start_sfen)?;
    let mut last_to = None;
    for e in &rec.moves {
        let mark = if pos.side_to_move() == Color::Black {
            '▲'
        } else {
            '△'
        };
        let _ = writeln!(s, "{mark}{}", move_text(&pos, e.mv, last_to));
        for c in &e.comments {
            let _ = writeln!(s, "*{c}");
        }
        pos.do_move(e.mv);
        last_to = Some(e.mv.to());
    }
    if let Some(end) = &rec.end {
        let handicap = matches!(handicap_name(&rec.start_sfen), Some(n) if n != "平手");
        let _ = writeln!(
            s,
            "まで{}手で{}",
            rec.moves.len(),
            ending_phrase(end.kind, pos.side_to_move(), handicap)
        );
    }
    Ok(s)
}
