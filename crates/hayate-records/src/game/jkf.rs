//! JKF (JSON Kifu Format, na2hiro/Kifu-for-JS): read and write the main line.
//!
//! `header` maps KIF's Japanese keys (mapped to the shared keys as in KIF), `initial` is a
//! preset (`HIRATE`, `KA`, … ) or `OTHER` with `data`, `moves[0]` holds the opening comments,
//! then one entry per move (`move`, `time`, `comments`) and a final `special`. Forks are not
//! read. Times are whole seconds.

use super::csa::{parse_special, special_name};
use super::csa_notation::{piece_from_name as from_csa_name, piece_name as csa_name};
use super::error::{ParseError, ParseErrorKind};
use super::japanese::{HANDICAPS, handicap_name, kif_key, shared_key};
use super::record::{GameEnd, GameRecord, MoveEntry};
use crate::RawPosition;
use hayate_core::{Color, Hand, Move16, Piece, PieceType, Position, Square};
use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;

/// JKF header: an object whose key order is kept.
#[derive(Default, Debug)]
struct Header(Vec<(String, String)>);

impl Serialize for Header {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

impl<'de> Deserialize<'de> for Header {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Header;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object of strings")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Header, A::Error> {
                let mut v = Vec::new();
                while let Some((k, val)) = a.next_entry::<String, String>()? {
                    v.push((k, val));
                }
                Ok(Header(v))
            }
        }
        d.deserialize_map(V)
    }
}

#[derive(Serialize, Deserialize, Debug, Default)]
struct Jkf {
    #[serde(default)]
    header: Header,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    initial: Option<Initial>,
    #[serde(default)]
    moves: Vec<JkfMove>,
}

#[derive(Serialize, Deserialize, Debug)]
struct Initial {
    preset: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    data: Option<InitialData>,
}

#[derive(Serialize, Deserialize, Debug)]
struct InitialData {
    color: u8,
    board: Vec<Vec<Cell>>,
    hands: Vec<BTreeMap<String, u32>>,
}

#[derive(Serialize, Deserialize, Debug, Default)]
struct Cell {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    color: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    kind: Option<String>,
}

#[derive(Serialize, Deserialize, Debug, Default)]
struct JkfMove {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    comments: Option<Vec<String>>,
    #[serde(default, rename = "move", skip_serializing_if = "Option::is_none")]
    mv: Option<MoveFormat>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    time: Option<Time>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    special: Option<String>,
}

#[derive(Serialize, Deserialize, Debug)]
struct Xy {
    x: u8,
    y: u8,
}

#[derive(Serialize, Deserialize, Debug)]
struct MoveFormat {
    color: u8,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    from: Option<Xy>,
    to: Xy,
    piece: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    same: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    promote: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    capture: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    relative: Option<String>,
}

#[derive(Serialize, Deserialize, Debug)]
struct Time {
    now: Hms,
    total: Hms,
}

#[derive(Serialize, Deserialize, Debug)]
struct Hms {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    h: Option<u64>,
    m: u64,
    s: u64,
}

const PRESETS: [(&str, &str); 11] = [
    ("HIRATE", "平手"),
    ("KY", "香落ち"),
    ("KY_R", "右香落ち"),
    ("KA", "角落ち"),
    ("HI", "飛車落ち"),
    ("HIKY", "飛香落ち"),
    ("2", "二枚落ち"),
    ("4", "四枚落ち"),
    ("6", "六枚落ち"),
    ("8", "八枚落ち"),
    ("10", "十枚落ち"),
];

fn err(kind: ParseErrorKind) -> ParseError {
    ParseError::new(0, kind)
}

fn xy(sq: Square) -> Xy {
    Xy {
        x: sq.file(),
        y: sq.rank(),
    }
}

fn start_position(initial: &Option<Initial>) -> Result<Position, ParseError> {
    let Some(init) = initial else {
        return Ok(Position::startpos());
    };
    if let Some(data) = &init.data {
        let bad = || err(ParseErrorKind::Json("bad initial.data".into()));
        let mut raw = RawPosition {
            board: [Piece::EMPTY; 81],
            hands: [Hand::EMPTY; 2],
            side_to_move: if data.color == 0 {
                Color::Black
            } else {
                Color::White
            },
        };
        for (x, col) in data.board.iter().enumerate().take(9) {
            for (y, cell) in col.iter().enumerate().take(9) {
                if let (Some(c), Some(k)) = (cell.color, &cell.kind) {
                    let pt = from_csa_name(k).ok_or_else(bad)?;
                    let color = if c == 0 { Color::Black } else { Color::White };
                    let sq = Square::from_file_rank(x as u8 + 1, y as u8 + 1).ok_or_else(bad)?;
                    raw.board[sq.index()] = Piece::new(color, pt);
                }
            }
        }
        for (ci, h) in data.hands.iter().enumerate().take(2) {
            for (k, &n) in h {
                let pt = from_csa_name(k).ok_or_else(bad)?;
                raw.hands[ci] = raw.hands[ci].with_count(pt, n).ok_or_else(bad)?;
            }
        }
        return raw.to_position(1).map_err(|e| err(e.into()));
    }
    let name = PRESETS
        .iter()
        .find(|(p, _)| *p == init.preset)
        .map(|(_, n)| *n)
        .ok_or_else(|| {
            err(ParseErrorKind::Json(format!(
                "unknown preset {}",
                init.preset
            )))
        })?;
    let sfen = HANDICAPS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, s)| *s)
        .ok_or_else(|| err(ParseErrorKind::Json(format!("unknown preset {name}"))))?;
    Position::from_sfen(sfen).map_err(|e| err(e.into()))
}

/// Parses JKF text (the main line; forks are ignored). Errors carry the move index as `line`.
///
/// # Errors
/// [`ParseErrorKind::Json`] for malformed JSON, or the first illegal move.
pub fn parse_jkf(text: &str) -> Result<GameRecord, ParseError> {
    let jkf: Jkf =
        serde_json::from_str(text).map_err(|e| err(ParseErrorKind::Json(e.to_string())))?;
    let mut pos = start_position(&jkf.initial)?;
    let mut rec = GameRecord::from_sfen(&pos.to_sfen());
    for (k, v) in jkf.header.0 {
        match k.as_str() {
            "先手" | "下手" => rec.players[0] = v,
            "後手" | "上手" => rec.players[1] = v,
            "手合割" => {}
            _ => rec.metadata.push((shared_key(&k), v)),
        }
    }
    for (i, e) in jkf.moves.into_iter().enumerate() {
        let at = |kind| ParseError::new(i, kind);
        let time_ms = e
            .time
            .as_ref()
            .map(|t| (t.now.h.unwrap_or(0) * 3600 + t.now.m * 60 + t.now.s) * 1000);
        if let Some(mv) = e.mv {
            let text = format!("{mv:?}");
            let to = Square::from_file_rank(mv.to.x, mv.to.y)
                .ok_or_else(|| at(ParseErrorKind::BadMove(text.clone())))?;
            let pt = from_csa_name(&mv.piece)
                .ok_or_else(|| at(ParseErrorKind::BadMove(text.clone())))?;
            let m16 = match &mv.from {
                None => Move16(to.raw() as u16 | ((pt.raw() as u16) << 7) | (1 << 14)),
                Some(f) => {
                    let from = Square::from_file_rank(f.x, f.y)
                        .ok_or_else(|| at(ParseErrorKind::BadMove(text.clone())))?;
                    let promote = mv.promote == Some(true);
                    Move16(
                        to.raw() as u16
                            | ((from.raw() as u16) << 7)
                            | if promote { 1 << 15 } else { 0 },
                    )
                }
            };
            let m = pos.to_move(m16).ok_or_else(|| {
                at(ParseErrorKind::IllegalMove {
                    ply: rec.moves.len() + 1,
                    text,
                })
            })?;
            pos.do_move(m);
            rec.moves.push(MoveEntry {
                mv: m,
                time_ms,
                comments: e.comments.unwrap_or_default(),
            });
        } else if let Some(sp) = e.special {
            let kind = parse_special(&format!("%{sp}"))
                .ok_or_else(|| at(ParseErrorKind::UnknownEnding(sp.clone())))?;
            rec.end = Some(GameEnd { kind, time_ms });
        } else if let Some(c) = e.comments {
            match rec.moves.last_mut() {
                Some(m) if i > 0 => m.comments.extend(c),
                _ => rec.comments.extend(c),
            }
        }
    }
    Ok(rec)
}

fn hms(ms: u64, with_h: bool) -> Hms {
    let s = ms / 1000;
    Hms {
        h: with_h.then_some(s / 3600),
        m: if with_h { (s / 60) % 60 } else { s / 60 },
        s: s % 60,
    }
}

/// Writes a record as JKF (pretty-printed JSON).
///
/// # Errors
/// The core's error if the record's start SFEN is invalid.
pub fn write_jkf(rec: &GameRecord) -> Result<String, hayate_core::SfenError> {
    let mut pos = Position::from_sfen(&rec.start_sfen)?;
    let mut jkf = Jkf::default();
    for (k, v) in &rec.metadata {
        jkf.header.0.push((kif_key(k), v.clone()));
    }
    jkf.header.0.push(("先手".into(), rec.players[0].clone()));
    jkf.header.0.push(("後手".into(), rec.players[1].clone()));
    jkf.initial = Some(match handicap_name(&rec.start_sfen) {
        Some(name) => Initial {
            preset: PRESETS
                .iter()
                .find(|(_, n)| *n == name)
                .map(|(p, _)| p.to_string())
                .unwrap_or_else(|| "HIRATE".into()),
            data: None,
        },
        None => {
            let mut board: Vec<Vec<Cell>> = (0..9)
                .map(|_| (0..9).map(|_| Cell::default()).collect())
                .collect();
            for sq in Square::all() {
                let pc = pos.piece_on(sq);
                if !pc.is_empty() {
                    board[sq.file() as usize - 1][sq.rank() as usize - 1] = Cell {
                        color: Some(pc.color().index() as u8),
                        kind: Some(csa_name(pc.piece_type()).to_string()),
                    };
                }
            }
            let hands = Color::ALL
                .iter()
                .map(|&c| {
                    PieceType::HAND_TYPES
                        .iter()
                        .map(|&pt| (csa_name(pt).to_string(), pos.hand(c).count(pt)))
                        .collect()
                })
                .collect();
            Initial {
                preset: "OTHER".into(),
                data: Some(InitialData {
                    color: pos.side_to_move().index() as u8,
                    board,
                    hands,
                }),
            }
        }
    });
    jkf.moves.push(JkfMove {
        comments: (!rec.comments.is_empty()).then(|| rec.comments.clone()),
        ..JkfMove::default()
    });
    let mut totals = [0u64; 2];
    let mut last_to = None;
    for e in &rec.moves {
        let m = e.mv;
        let c = pos.side_to_move();
        let promotable = !m.is_drop()
            && pos
                .legal_moves()
                .iter()
                .any(|x| x.is_promotion() && x.from() == m.from() && x.to() == m.to());
        let mv = MoveFormat {
            color: c.index() as u8,
            from: (!m.is_drop()).then(|| xy(m.from())),
            to: xy(m.to()),
            piece: csa_name(if m.is_drop() {
                m.dropped_type()
            } else {
                m.moved_piece().piece_type()
            })
            .to_string(),
            same: (last_to == Some(m.to())).then_some(true),
            promote: promotable.then_some(m.is_promotion()),
            capture: m
                .is_capture()
                .then(|| csa_name(m.captured().piece_type()).to_string()),
            relative: None,
        };
        let time = e.time_ms.map(|t| {
            totals[c.index()] += t / 1000 * 1000;
            Time {
                now: hms(t, false),
                total: hms(totals[c.index()], true),
            }
        });
        jkf.moves.push(JkfMove {
            comments: (!e.comments.is_empty()).then(|| e.comments.clone()),
            mv: Some(mv),
            time,
            special: None,
        });
        pos.do_move(m);
        last_to = Some(m.to());
    }
    if let Some(end) = &rec.end {
        let c = pos.side_to_move();
        jkf.moves.push(JkfMove {
            special: Some(special_name(end.kind).trim_start_matches('%').to_string()),
            time: end.time_ms.map(|t| {
                totals[c.index()] += t / 1000 * 1000;
                Time {
                    now: hms(t, false),
                    total: hms(totals[c.index()], true),
                }
            }),
            ..JkfMove::default()
        });
    }
    Ok(serde_json::to_string_pretty(&jkf).unwrap_or_default())
}
