//! CSA record format, V2.2 and V3.0: read and write.
//!
//! Read: the encoding line, `V` lines, `N+`/`N-`, `$KEY:VALUE`, the position (`PI` with removed
//! pieces, `P1`…`P9`, `P+`/`P-` with `00AL`, the side line), moves with `T` times (seconds, with
//! V3.0's millisecond decimals), `'` comments (`'**` eval/PV lines are kept verbatim), `%`
//! special moves, statements joined by `,`, and several records separated by `/`.
//! Write: V2.2 when every time is whole seconds and all text is ASCII, otherwise V3.0 with
//! `'CSA encoding=UTF-8` (times written with decimals). CSA has no move number, so a start
//! position's SFEN move number is not kept.

use super::error::{ParseError, ParseErrorKind};
use super::names::{csa_name, from_csa_name};
use super::record::{EndKind, GameEnd, GameRecord, MoveEntry};
use crate::RawPosition;
use hayate_core::{Color, Hand, Move, Move16, Piece, PieceType, Position, Square};
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

/// Reads a time in seconds (`12`, `12.345`) as milliseconds.
pub(crate) fn parse_seconds(s: &str) -> Option<u64> {
    let (int, frac) = s.split_once('.').unwrap_or((s, ""));
    if int.is_empty() || !int.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if frac.len() > 3 || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let ms = format!("{frac:0<3}").parse::<u64>().ok()?;
    int.parse::<u64>().ok()?.checked_mul(1000)?.checked_add(ms)
}

fn hirate() -> RawPosition {
    let pos = Position::startpos();
    RawPosition::from_position(&pos)
}

fn empty_raw() -> RawPosition {
    RawPosition {
        board: [Piece::EMPTY; 81],
        hands: [Hand::EMPTY; 2],
        side_to_move: Color::Black,
    }
}

fn add_to_hand(raw: &mut RawPosition, c: Color, pt: PieceType) -> bool {
    let h = &mut raw.hands[c.index()];
    match h.with_count(pt, h.count(pt) + 1) {
        Some(n) => {
            *h = n;
            true
        }
        None => false,
    }
}

/// `P+`/`P-` lines: `XYPP` groups, `00` = hand, `00AL` = all remaining pieces.
fn parse_p_side(raw: &mut RawPosition, c: Color, rest: &str) -> Option<()> {
    let b = rest.as_bytes();
    if !rest.is_ascii() || !b.len().is_multiple_of(4) {
        return None;
    }
    for g in b.chunks(4) {
        let g = std::str::from_utf8(g).ok()?;
        let (xy, name) = g.split_at(2);
        if name == "AL" && xy == "00" {
            let counts = raw.material();
            for pt in PieceType::HAND_TYPES {
                for _ in counts[pt.index()]..pt.full_set_count() as u32 {
                    add_to_hand(raw, c, pt);
                }
            }
            continue;
        }
        let pt = from_csa_name(name)?;
        if xy == "00" {
            if !pt.is_hand_type() || !add_to_hand(raw, c, pt) {
                return None;
            }
        } else {
            let sq = square_of(xy)?;
            raw.board[sq.index()] = Piece::new(c, pt);
        }
    }
    Some(())
}

fn square_of(xy: &str) -> Option<Square> {
    let b = xy.as_bytes();
    if b.len() != 2 {
        return None;
    }
    let f = b[0].wrapping_sub(b'0');
    let r = b[1].wrapping_sub(b'0');
    Square::from_file_rank(f, r)
}

/// A CSA move (`+7776FU`) in `pos`, checked for legality.
pub fn parse_move(pos: &Position, s: &str) -> Result<Move, ParseErrorKind> {
    let bad = || ParseErrorKind::BadMove(s.to_string());
    if s.len() != 7 || !s.is_ascii() {
        return Err(bad());
    }
    let color = match &s[..1] {
        "+" => Color::Black,
        "-" => Color::White,
        _ => return Err(bad()),
    };
    let pt = from_csa_name(&s[5..7]).ok_or_else(bad)?;
    let to = square_of(&s[3..5]).ok_or_else(bad)?;
    let illegal = || ParseErrorKind::IllegalMove {
        ply: 0,
        text: s.to_string(),
    };
    if color != pos.side_to_move() {
        return Err(illegal());
    }
    let m16 = if &s[1..3] == "00" {
        Move16(to.raw() as u16 | ((pt.raw() as u16) << 7) | (1 << 14))
    } else {
        let from = square_of(&s[1..3]).ok_or_else(bad)?;
        let on = pos.piece_on(from);
        if on.is_empty() {
            return Err(illegal());
        }
        let promote = on.piece_type() != pt;
        if promote && on.piece_type().promoted() != pt {
            return Err(illegal());
        }
        Move16(to.raw() as u16 | ((from.raw() as u16) << 7) | if promote { 1 << 15 } else { 0 })
    };
    pos.to_move(m16).ok_or_else(illegal)
}

/// The CSA text of a move (`+7776FU`, `-0055KA`; the piece is the one after the move).
pub fn move_text(m: Move) -> String {
    let c = if m.moved_piece().color() == Color::White {
        '-'
    } else {
        '+'
    };
    let to = m.to();
    if m.is_drop() {
        format!(
            "{c}00{}{}{}",
            to.file(),
            to.rank(),
            csa_name(m.dropped_type())
        )
    } else {
        let from = m.from();
        format!(
            "{c}{}{}{}{}{}",
            from.file(),
            from.rank(),
            to.file(),
            to.rank(),
            csa_name(m.moved_piece_after().piece_type())
        )
    }
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
    let mut raw: Option<RawPosition> = None;
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
            if pos.is_none() {
                if let Some(rest) = st.strip_prefix("PI") {
                    let mut r = hirate();
                    for g in rest.as_bytes().chunks(4) {
                        let g = std::str::from_utf8(g).unwrap_or("");
                        let sq = square_of(g.get(..2).unwrap_or(""))
                            .ok_or_else(|| err(ParseErrorKind::BadLine(st.to_string())))?;
                        r.board[sq.index()] = Piece::EMPTY;
                    }
                    raw = Some(r);
                    continue;
                }
                if let Some(rest) = st.strip_prefix("P+") {
                    let r = raw.get_or_insert_with(empty_raw);
                    parse_p_side(r, Color::Black, rest)
                        .ok_or_else(|| err(ParseErrorKind::BadLine(st.to_string())))?;
                    continue;
                }
                if let Some(rest) = st.strip_prefix("P-") {
                    let r = raw.get_or_insert_with(empty_raw);
                    parse_p_side(r, Color::White, rest)
                        .ok_or_else(|| err(ParseErrorKind::BadLine(st.to_string())))?;
                    continue;
                }
                if st.len() >= 2 && st.starts_with('P') {
                    let rank = st.as_bytes()[1].wrapping_sub(b'0');
                    let r = raw.get_or_insert_with(empty_raw);
                    parse_rank_line(r, rank, st.get(2..).unwrap_or("*"))
                        .ok_or_else(|| err(ParseErrorKind::BadLine(st.to_string())))?;
                    continue;
                }
                if st == "+" || st == "-" {
                    let mut r = raw.take().unwrap_or_else(hirate);
                    r.side_to_move = if st == "+" {
                        Color::Black
                    } else {
                        Color::White
                    };
                    let p = r.to_position(1).map_err(|e| err(e.into()))?;
                    rec.start_sfen = p.to_sfen();
                    pos = Some(p);
                    continue;
                }
            }
            // Moves, times and specials need the position: the one described so far (its side
            // line missing: the mover's sign decides), else the initial position.
            if pos.is_none() {
                let p = match raw.take() {
                    Some(mut r) => {
                        r.side_to_move = if st.starts_with('-') {
                            Color::White
                        } else {
                            Color::Black
                        };
                        r.to_position(1).map_err(|e| err(e.into()))?
                    }
                    None => Position::startpos(),
                };
                rec.start_sfen = p.to_sfen();
                pos = Some(p);
            }
            let Some(p) = pos.as_mut() else {
                return Err(err(ParseErrorKind::BadLine(st.to_string())));
            };
            if rec.end.is_some() && !st.starts_with('T') {
                return Err(err(ParseErrorKind::BadLine(st.to_string())));
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
                return Err(err(ParseErrorKind::BadLine(st.to_string())));
            }
        }
    }
    if pos.is_none()
        && let Some(mut r) = raw
    {
        // A position without its side line: Black to move.
        r.side_to_move = Color::Black;
        rec.start_sfen = r
            .to_position(1)
            .map_err(|e| ParseError::new(0, e.into()))?
            .to_sfen();
    }
    Ok(rec)
}

/// `P1-KY-KE…`: nine 3-character cells, ` * ` for empty.
fn parse_rank_line(raw: &mut RawPosition, rank: u8, cells: &str) -> Option<()> {
    if !(1..=9).contains(&rank) || !cells.is_ascii() {
        return None;
    }
    let cells = format!("{cells:<27}");
    for i in 0..9u8 {
        let cell = cells.get(3 * i as usize..3 * i as usize + 3)?;
        let sq = Square::from_file_rank(9 - i, rank)?;
        raw.board[sq.index()] = match cell.trim() {
            "*" | "" => Piece::EMPTY,
            c if c.len() == 3 => {
                let color = match &c[..1] {
                    "+" => Color::Black,
                    "-" => Color::White,
                    _ => return None,
                };
                Piece::new(color, from_csa_name(&c[1..])?)
            }
            _ => return None,
        };
    }
    Some(())
}

fn time_text(ms: u64) -> String {
    if ms.is_multiple_of(1000) {
        format!("{}", ms / 1000)
    } else {
        format!("{}.{:03}", ms / 1000, ms % 1000)
    }
}

/// The position lines (`PI`/`P1`…`P9`, `P+`/`P-`, side).
pub(crate) fn position_lines(sfen: &str) -> Result<String, hayate_core::SfenError> {
    let pos = Position::from_sfen(sfen)?;
    let mut s = String::new();
    let start = Position::startpos();
    if pos.board() == start.board()
        && pos.hand(Color::Black).is_empty()
        && pos.hand(Color::White).is_empty()
    {
        s.push_str("PI\n");
    } else {
        for rank in 1..=9u8 {
            let _ = write!(s, "P{rank}");
            for file in (1..=9u8).rev() {
                let pc = Square::from_file_rank(file, rank)
                    .map(|sq| pos.piece_on(sq))
                    .unwrap_or(Piece::EMPTY);
                if pc.is_empty() {
                    s.push_str(" * ");
                } else {
                    s.push(if pc.color() == Color::Black { '+' } else { '-' });
                    s.push_str(csa_name(pc.piece_type()));
                }
            }
            s.push('\n');
        }
        for c in Color::ALL {
            let h = pos.hand(c);
            if h.is_empty() {
                continue;
            }
            s.push_str(if c == Color::Black { "P+" } else { "P-" });
            for pt in PieceType::HAND_SFEN_ORDER {
                for _ in 0..h.count(pt) {
                    s.push_str("00");
                    s.push_str(csa_name(pt));
                }
            }
            s.push('\n');
        }
    }
    s.push_str(if pos.side_to_move() == Color::Black {
        "+\n"
    } else {
        "-\n"
    });
    Ok(s)
}

/// Writes a record as CSA text (see the module notes for the version chosen).
///
/// # Errors
/// The core's error if the record's start SFEN is invalid.
pub fn write_csa(rec: &GameRecord) -> Result<String, hayate_core::SfenError> {
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
        && rec.comments.iter().all(|c| c.is_ascii())
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
    s.push_str(&position_lines(&rec.start_sfen)?);
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
    Ok(s)
}
