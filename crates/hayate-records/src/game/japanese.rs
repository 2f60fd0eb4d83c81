//! What KIF and KI2 share: header keys, handicap names, board diagrams (BOD), square text.

use super::error::{ParseError, ParseErrorKind};
use super::names::{
    digit, kanji_count, kanji_count_text, kanji_name, kansuji, parse_kanji_piece, zenkaku,
};
use super::record::{GameRecord, keys};
use crate::RawPosition;
use hayate_core::{Color, Hand, Piece, PieceType, Position, Square};
use std::fmt::Write as _;

/// KIF header keys and the shared keys they map to.
const KEY_MAP: [(&str, &str); 6] = [
    ("開始日時", keys::START_TIME),
    ("終了日時", keys::END_TIME),
    ("棋戦", keys::EVENT),
    ("場所", keys::SITE),
    ("持ち時間", keys::TIME_LIMIT),
    ("戦型", keys::OPENING),
];

/// The shared key of a KIF header key (or the key itself).
pub fn shared_key(kif_key: &str) -> String {
    KEY_MAP
        .iter()
        .find(|(k, _)| *k == kif_key)
        .map(|(_, s)| s.to_string())
        .unwrap_or_else(|| kif_key.to_string())
}

/// The KIF header key of a shared key (or the key itself).
pub fn kif_key(key: &str) -> String {
    KEY_MAP
        .iter()
        .find(|(_, s)| *s == key)
        .map(|(k, _)| k.to_string())
        .unwrap_or_else(|| key.to_string())
}

/// 手合割 names and their start positions (handicap games: White, 上手, moves first).
pub const HANDICAPS: [(&str, &str); 11] = [
    (
        "平手",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    ),
    (
        "香落ち",
        "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "右香落ち",
        "1nsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "角落ち",
        "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "飛車落ち",
        "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "飛香落ち",
        "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "二枚落ち",
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "四枚落ち",
        "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "六枚落ち",
        "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "八枚落ち",
        "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "十枚落ち",
        "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
];

/// The handicap name of a start position, if it is one of [`HANDICAPS`].
pub fn handicap_name(sfen: &str) -> Option<&'static str> {
    let key = |s: &str| s.split_whitespace().take(3).collect::<Vec<_>>().join(" ");
    let k = key(sfen);
    HANDICAPS.iter().find(|(_, s)| key(s) == k).map(|(n, _)| *n)
}

/// `７六` for a square.
pub fn square_text(sq: Square) -> String {
    format!("{}{}", zenkaku(sq.file()), kansuji(sq.rank()))
}

/// Reads `７六` (or ASCII/kanji digits) at the start of `s`: the square and the bytes used.
pub fn parse_square(s: &str) -> Option<(Square, usize)> {
    let mut it = s.char_indices();
    let (_, f) = it.next()?;
    let (_, r) = it.next()?;
    let used = it.next().map(|(i, _)| i).unwrap_or(s.len());
    Some((Square::from_file_rank(digit(f)?, digit(r)?)?, used))
}

/// Writes the header: metadata, start position (手合割 or BOD), players, header comments.
pub fn write_header(rec: &GameRecord, s: &mut String) -> Result<(), hayate_core::SfenError> {
    for (k, v) in &rec.metadata {
        let _ = writeln!(s, "{}：{}", kif_key(k), v);
    }
    let handicap = handicap_name(&rec.start_sfen);
    match handicap {
        Some(name) => {
            let _ = writeln!(s, "手合割：{name}");
        }
        None => s.push_str(&bod(&Position::from_sfen(&rec.start_sfen)?)),
    }
    let (b, w) = if matches!(handicap, Some(n) if n != "平手") {
        ("下手", "上手")
    } else {
        ("先手", "後手")
    };
    let _ = writeln!(s, "{b}：{}", rec.players[0]);
    let _ = writeln!(s, "{w}：{}", rec.players[1]);
    for c in &rec.comments {
        let _ = writeln!(s, "*{c}");
    }
    Ok(())
}

fn hand_text(h: Hand) -> String {
    let mut parts = Vec::new();
    for pt in PieceType::HAND_SFEN_ORDER {
        let n = h.count(pt);
        if n > 0 {
            parts.push(format!(
                "{}{}",
                kanji_name(pt),
                if n > 1 {
                    kanji_count_text(n)
                } else {
                    String::new()
                }
            ));
        }
    }
    if parts.is_empty() {
        "なし".into()
    } else {
        parts.join("　")
    }
}

/// BOD (board diagram) of a position.
pub fn bod(pos: &Position) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "後手の持駒：{}", hand_text(pos.hand(Color::White)));
    s.push_str("  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n");
    for rank in 1..=9u8 {
        s.push('|');
        for file in (1..=9u8).rev() {
            let pc = Square::from_file_rank(file, rank)
                .map(|sq| pos.piece_on(sq))
                .unwrap_or(Piece::EMPTY);
            if pc.is_empty() {
                s.push_str(" ・");
            } else {
                s.push(if pc.color() == Color::White { 'v' } else { ' ' });
                s.push_str(bod_piece(pc.piece_type()));
            }
        }
        let _ = writeln!(s, "|{}", kansuji(rank));
    }
    s.push_str("+---------------------------+\n");
    let _ = writeln!(s, "先手の持駒：{}", hand_text(pos.hand(Color::Black)));
    s.push_str(if pos.side_to_move() == Color::White {
        "後手番\n"
    } else {
        "先手番\n"
    });
    s
}

/// One-character piece names of board diagrams.
fn bod_piece(pt: PieceType) -> &'static str {
    match pt.raw() {
        10 => "杏",
        11 => "圭",
        12 => "全",
        _ => kanji_name(pt),
    }
}

/// Parses a hand line's value (`飛　角二　歩十八`, `なし`).
fn parse_hand(text: &str) -> Option<Hand> {
    let mut h = Hand::EMPTY;
    let text = text.trim();
    if text == "なし" || text.is_empty() {
        return Some(h);
    }
    for part in text.split(['　', ' ']).filter(|p| !p.is_empty()) {
        let (pt, used) = parse_kanji_piece(part)?;
        let n = kanji_count(&part[used..])?;
        h = h.with_count(pt, h.count(pt) + n)?;
    }
    Some(h)
}

/// The error for a move that failed to parse on line `ln`, numbered as move `ply` of the game
/// (move parsers do not know how many moves came before).
pub fn move_error(ln: usize, ply: usize, kind: ParseErrorKind) -> ParseError {
    ParseError::new(
        ln,
        match kind {
            ParseErrorKind::IllegalMove { text, .. } => ParseErrorKind::IllegalMove { ply, text },
            k => k,
        },
    )
}

/// What the lines KIF and KI2 share mean to their readers.
pub enum CommonLine {
    /// Blank, `#` or `&` line: nothing to do.
    Skip,
    /// `変化：`: a variation starts; the main line is over.
    Variation,
    /// A `*` comment, already attached to the last move (or to the game before any move).
    Comment,
    /// Anything else: for the format's own reader.
    Other,
}

/// Handles the lines both Japanese formats read alike (blank/ignored lines, variations,
/// comments) so each reader only sees its own.
pub fn common_line(rec: &mut GameRecord, line: &str) -> CommonLine {
    if line.trim().is_empty() || line.starts_with('#') || line.starts_with('&') {
        return CommonLine::Skip;
    }
    if line.starts_with("変化：") || line.starts_with("変化:") {
        return CommonLine::Variation;
    }
    if let Some(c) = line.strip_prefix('*') {
        match rec.moves.last_mut() {
            Some(m) => m.comments.push(c.to_string()),
            None => rec.comments.push(c.to_string()),
        }
        return CommonLine::Comment;
    }
    CommonLine::Other
}

/// Accumulates header and BOD lines into a start position.
#[derive(Default)]
pub struct HeaderState {
    raw: Option<RawPosition>,
    handicap: Option<String>,
    board_rank: u8,
}

impl HeaderState {
    /// Takes one header line; `Ok(true)` if it was one.
    pub fn line(
        &mut self,
        rec: &mut GameRecord,
        line: &str,
        ln: usize,
    ) -> Result<bool, ParseError> {
        let err = || ParseError::new(ln, ParseErrorKind::BadLine(line.to_string()));
        if let Some(rest) = line.strip_prefix('|') {
            let raw = self.raw.get_or_insert_with(empty_raw);
            self.board_rank += 1;
            let cells: Vec<char> = rest.chars().collect();
            if self.board_rank > 9 || cells.len() < 18 {
                return Err(err());
            }
            for i in 0..9usize {
                let side = cells[2 * i];
                let name = cells[2 * i + 1].to_string();
                let sq = Square::from_file_rank(9 - i as u8, self.board_rank).ok_or_else(err)?;
                if name == "・" {
                    continue;
                }
                let (pt, _) = parse_kanji_piece(&name).ok_or_else(err)?;
                let c = if side == 'v' {
                    Color::White
                } else {
                    Color::Black
                };
                raw.board[sq.index()] = Piece::new(c, pt);
            }
            return Ok(true);
        }
        if line.starts_with("  ９") || line.starts_with("+---") || line.starts_with("  9") {
            return Ok(true);
        }
        if line.trim() == "後手番" || line.trim() == "上手番" {
            self.raw.get_or_insert_with(empty_raw).side_to_move = Color::White;
            return Ok(true);
        }
        if line.trim() == "先手番" || line.trim() == "下手番" {
            self.raw.get_or_insert_with(empty_raw).side_to_move = Color::Black;
            return Ok(true);
        }
        let Some((k, v)) = line.split_once('：').or_else(|| line.split_once(':')) else {
            return Ok(false);
        };
        let v = v.trim_end();
        match k {
            "先手の持駒" | "下手の持駒" => {
                self.raw.get_or_insert_with(empty_raw).hands[0] = parse_hand(v).ok_or_else(err)?;
            }
            "後手の持駒" | "上手の持駒" => {
                self.raw.get_or_insert_with(empty_raw).hands[1] = parse_hand(v).ok_or_else(err)?;
            }
            "先手" | "下手" => rec.players[0] = v.to_string(),
            "後手" | "上手" => rec.players[1] = v.to_string(),
            "手合割" => self.handicap = Some(v.to_string()),
            _ if k.chars().count() <= 12 && !k.contains(['(', ' ']) => {
                rec.metadata.push((shared_key(k), v.to_string()));
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The start position the header described (BOD first, then 手合割, else the initial one).
    pub fn finish(self, ln: usize) -> Result<Position, ParseError> {
        if let Some(raw) = self.raw
            && raw.board.iter().any(|p| !p.is_empty())
        {
            return raw
                .to_position(1)
                .map_err(|e| ParseError::new(ln, e.into()));
        }
        let sfen = match &self.handicap {
            Some(name) => HANDICAPS
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, s)| *s)
                .ok_or_else(|| {
                    ParseError::new(ln, ParseErrorKind::BadLine(format!("手合割：{name}")))
                })?,
            None => HANDICAPS[0].1,
        };
        Position::from_sfen(sfen).map_err(|e| ParseError::new(ln, e.into()))
    }
}

fn empty_raw() -> RawPosition {
    RawPosition {
        board: [Piece::EMPTY; 81],
        hands: [Hand::EMPTY; 2],
        side_to_move: Color::Black,
    }
}

/// The side's name in summaries: 先手/後手 (下手/上手 in handicap games).
pub fn side_name(c: Color, handicap: bool) -> &'static str {
    match (c, handicap) {
        (Color::Black, false) => "先手",
        (Color::White, false) => "後手",
        (Color::Black, true) => "下手",
        (Color::White, true) => "上手",
    }
}
