//! CSA notation, shared by CSA record files ([`super::csa`]) and the CSA network client
//! (`hayate-csa`, whose Game_Summary carries the same position block and whose moves are the
//! same text): piece names, signs, squares, move text, times, and the position block (`PI`
//! with removals, `P1`…`P9`, `P+`/`P-` with `00AL`) read and written.

use crate::RawPosition;
use hayate_core::{Color, Hand, Move, Piece, PieceType, Position, Square};

/// CSA two-letter names, indexed by `PieceType::raw()` (index 0 unused).
const NAMES: [&str; 15] = [
    "", "FU", "KY", "KE", "GI", "KA", "HI", "KI", "OU", "TO", "NY", "NK", "NG", "UM", "RY",
];

/// The CSA name of a piece type (`FU` … `RY`); empty for `NONE`.
pub fn piece_name(pt: PieceType) -> &'static str {
    NAMES.get(pt.index()).copied().unwrap_or("")
}

/// The piece type of a CSA name (`GY` is read as a king, as some records write it).
pub fn piece_from_name(name: &str) -> Option<PieceType> {
    if name == "GY" {
        return Some(PieceType::KING);
    }
    NAMES
        .iter()
        .position(|n| !n.is_empty() && *n == name)
        .and_then(|i| PieceType::from_u8(i as u8))
}

/// The sign of a colour: `+` for Black (sente), `-` for White.
pub fn sign(c: Color) -> char {
    match c {
        Color::Black => '+',
        Color::White => '-',
    }
}

/// The colour of a sign character.
pub fn color_from_sign(c: char) -> Option<Color> {
    match c {
        '+' => Some(Color::Black),
        '-' => Some(Color::White),
        _ => None,
    }
}

/// A square from two ASCII digits, file then rank (`"77"`); `None` for `"00"` or anything else.
pub fn square_from_digits(xy: &str) -> Option<Square> {
    let &[f, r] = xy.as_bytes() else {
        return None;
    };
    if !f.is_ascii_digit() || !r.is_ascii_digit() {
        return None;
    }
    Square::from_file_rank(f - b'0', r - b'0')
}

fn push_square(s: &mut String, sq: Square) {
    s.push(char::from(b'0' + sq.file()));
    s.push(char::from(b'0' + sq.rank()));
}

/// The CSA text of a move with its sign: `+7776FU`, `-0055KA`, `+8822UM` (the piece is the one
/// after the move).
pub fn move_text(m: Move) -> String {
    let piece = m.moved_piece_after();
    let mut s = String::with_capacity(7);
    s.push(sign(piece.color()));
    if m.is_drop() {
        s.push_str("00");
    } else {
        push_square(&mut s, m.from());
    }
    push_square(&mut s, m.to());
    s.push_str(piece_name(piece.piece_type()));
    s
}

/// Why a CSA move text gave no move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not a CSA move (`+7776FU`: sign, from or `00`, to, piece name).
    Syntax,
    /// It reads, but no legal move of the side to move matches it.
    Illegal,
}

/// The legal move of `pos` that a CSA move text names (exactly 7 characters: callers strip
/// `,T…`). The sign must be the side to move.
///
/// # Errors
/// [`MoveError::Syntax`] for malformed text, [`MoveError::Illegal`] when no legal move matches.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveError> {
    if text.len() != 7 || !text.is_ascii() {
        return Err(MoveError::Syntax);
    }
    let color = text
        .chars()
        .next()
        .and_then(color_from_sign)
        .ok_or(MoveError::Syntax)?;
    let to = square_from_digits(&text[3..5]).ok_or(MoveError::Syntax)?;
    let after = piece_from_name(&text[5..7]).ok_or(MoveError::Syntax)?;
    let from = match &text[1..3] {
        "00" => None,
        xy => Some(square_from_digits(xy).ok_or(MoveError::Syntax)?),
    };
    if color != pos.side_to_move() {
        return Err(MoveError::Illegal);
    }
    let found = pos.legal_moves().iter().copied().find(|&m| {
        m.to() == to
            && m.moved_piece_after().piece_type() == after
            && match from {
                None => m.is_drop(),
                Some(f) => !m.is_drop() && m.from() == f,
            }
    });
    found.ok_or(MoveError::Illegal)
}

/// Reads a time in seconds (`12`, or V3.0's `12.345`) as milliseconds.
pub fn parse_seconds(s: &str) -> Option<u64> {
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

/// A position block being read line by line: `PI` (the even game, less the pieces it names),
/// `P1`…`P9` rows, `P+`/`P-` piece lists. The side line is the caller's (it also ends the
/// block), so [`BoardReader::position`] takes the side.
#[derive(Clone, Debug, Default)]
pub struct BoardReader {
    raw: Option<RawPosition>,
}

/// A position line that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadBoardLine;

impl BoardReader {
    /// A reader that has seen no position line yet.
    pub fn new() -> BoardReader {
        BoardReader::default()
    }

    /// Whether a position line has been read (else the block is empty: the even game).
    pub fn has_lines(&self) -> bool {
        self.raw.is_some()
    }

    /// Reads `line` if it is a position line (`PI…`, `P1`…`P9`, `P+…`, `P-…`): `Ok(true)`; a
    /// line of another kind: `Ok(false)`.
    ///
    /// # Errors
    /// [`BadBoardLine`] for a position line that is malformed: a row not of 9 three-character
    /// cells (the last cell's trailing space may be missing), an unknown piece, a `PI` removal
    /// that does not name the piece on its square, a hand piece that is not a hand type.
    pub fn line(&mut self, line: &str) -> Result<bool, BadBoardLine> {
        let Some(rest) = line.strip_prefix('P') else {
            return Ok(false);
        };
        let Some(kind) = rest.chars().next() else {
            return Ok(false);
        };
        let body = &rest[kind.len_utf8()..];
        if !body.is_ascii() {
            return Err(BadBoardLine);
        }
        match kind {
            'I' => self.hirate_minus(body.trim_end()),
            '+' | '-' => {
                let c = color_from_sign(kind).ok_or(BadBoardLine)?;
                self.pieces(c, body.trim_end())
            }
            '1'..='9' => self.row(kind as u8 - b'0', body),
            _ => return Ok(false),
        }
        .map(|()| true)
    }

    fn raw(&mut self) -> &mut RawPosition {
        self.raw.get_or_insert(RawPosition {
            board: [Piece::EMPTY; 81],
            hands: [Hand::EMPTY; 2],
            side_to_move: Color::Black,
        })
    }

    /// A `P1`…`P9` row: nine cells of 3 characters, file 9 first, ` * ` for empty.
    fn row(&mut self, rank: u8, cells: &str) -> Result<(), BadBoardLine> {
        if !(26..=27).contains(&cells.len()) {
            return Err(BadBoardLine);
        }
        let raw = self.raw();
        for i in 0..9u8 {
            let start = usize::from(i) * 3;
            let cell = &cells[start..(start + 3).min(cells.len())];
            let sq = Square::from_file_rank(9 - i, rank).ok_or(BadBoardLine)?;
            raw.board[sq.index()] = if cell.trim() == "*" {
                Piece::EMPTY
            } else {
                let color = cell
                    .chars()
                    .next()
                    .and_then(color_from_sign)
                    .ok_or(BadBoardLine)?;
                let pt = cell
                    .get(1..3)
                    .and_then(piece_from_name)
                    .ok_or(BadBoardLine)?;
                Piece::new(color, pt)
            };
        }
        Ok(())
    }

    /// `PI` followed by removals `<square><piece>` (handicaps such as `PI82HI22KA`).
    fn hirate_minus(&mut self, removals: &str) -> Result<(), BadBoardLine> {
        let mut raw = RawPosition::from_position(&Position::startpos());
        if !removals.len().is_multiple_of(4) {
            return Err(BadBoardLine);
        }
        for i in (0..removals.len()).step_by(4) {
            let sq = square_from_digits(&removals[i..i + 2]).ok_or(BadBoardLine)?;
            let pt = piece_from_name(&removals[i + 2..i + 4]).ok_or(BadBoardLine)?;
            if raw.board[sq.index()].piece_type() != pt {
                return Err(BadBoardLine);
            }
            raw.board[sq.index()] = Piece::EMPTY;
        }
        self.raw = Some(raw);
        Ok(())
    }

    /// `P+`/`P-` lists of `<square><piece>`: square `00` is the hand, `00AL` all pieces of the
    /// full set not yet placed.
    fn pieces(&mut self, c: Color, list: &str) -> Result<(), BadBoardLine> {
        if !list.len().is_multiple_of(4) {
            return Err(BadBoardLine);
        }
        let raw = self.raw();
        for i in (0..list.len()).step_by(4) {
            let (xy, name) = (&list[i..i + 2], &list[i + 2..i + 4]);
            if xy == "00" && name == "AL" {
                let counts = raw.material();
                for pt in PieceType::HAND_TYPES {
                    for _ in counts[pt.index()]..u32::from(pt.full_set_count()) {
                        add_to_hand(raw, c, pt)?;
                    }
                }
                continue;
            }
            let pt = piece_from_name(name).ok_or(BadBoardLine)?;
            if xy == "00" {
                if !pt.is_hand_type() {
                    return Err(BadBoardLine);
                }
                add_to_hand(raw, c, pt)?;
            } else {
                let sq = square_from_digits(xy).ok_or(BadBoardLine)?;
                raw.board[sq.index()] = Piece::new(c, pt);
            }
        }
        Ok(())
    }

    /// The position read so far (the even game when no line was read), `side` to move, checked
    /// by the rules core.
    ///
    /// # Errors
    /// The core's error for an impossible position.
    pub fn position(&self, side: Color) -> Result<Position, hayate_core::SfenError> {
        let mut raw = self
            .raw
            .unwrap_or_else(|| RawPosition::from_position(&Position::startpos()));
        raw.side_to_move = side;
        raw.to_position(1)
    }
}

fn add_to_hand(raw: &mut RawPosition, c: Color, pt: PieceType) -> Result<(), BadBoardLine> {
    let h = &mut raw.hands[c.index()];
    *h = h.with_count(pt, h.count(pt) + 1).ok_or(BadBoardLine)?;
    Ok(())
}

/// Which form [`position_lines`] writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardStyle {
    /// `PI` for the even game, the nine rows otherwise (record files).
    Short,
    /// Always the nine rows, as shogi-server writes its records.
    Full,
}

/// The position block of `pos`: `PI` or `P1`…`P9`, then `P+`/`P-` hands, then the side line.
pub fn position_lines(pos: &Position, style: BoardStyle) -> Vec<String> {
    let mut lines = Vec::with_capacity(12);
    let start = Position::startpos();
    let hirate = pos.board() == start.board()
        && pos.hand(Color::Black).is_empty()
        && pos.hand(Color::White).is_empty();
    if style == BoardStyle::Short && hirate {
        lines.push("PI".to_string());
    } else {
        for rank in 1..=9u8 {
            let mut l = format!("P{rank}");
            for file in (1..=9u8).rev() {
                match Square::from_file_rank(file, rank).map(|sq| pos.piece_on(sq)) {
                    Some(p) if !p.is_empty() => {
                        l.push(sign(p.color()));
                        l.push_str(piece_name(p.piece_type()));
                    }
                    _ => l.push_str(" * "),
                }
            }
            lines.push(l);
        }
        for c in Color::ALL {
            let h = pos.hand(c);
            if h.is_empty() {
                continue;
            }
            let mut l = format!("P{}", sign(c));
            for pt in PieceType::HAND_SFEN_ORDER {
                for _ in 0..h.count(pt) {
                    l.push_str("00");
                    l.push_str(piece_name(pt));
                }
            }
            lines.push(l);
        }
    }
    lines.push(sign(pos.side_to_move()).to_string());
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(lines: &str, side: Color) -> Result<Position, String> {
        let mut r = BoardReader::new();
        for l in lines.lines() {
            match r.line(l) {
                Ok(true) => {}
                Ok(false) => return Err(format!("not a position line: {l}")),
                Err(BadBoardLine) => return Err(format!("bad: {l}")),
            }
        }
        r.position(side).map_err(|e| e.to_string())
    }

    #[test]
    fn names_roundtrip_for_every_piece_type() {
        for v in 1..=14u8 {
            let pt = PieceType::from_u8(v).unwrap();
            assert_eq!(piece_from_name(piece_name(pt)), Some(pt));
        }
        assert_eq!(piece_from_name("GY"), Some(PieceType::KING));
        assert_eq!(piece_from_name("XX"), None);
        assert_eq!(piece_from_name(""), None);
    }

    #[test]
    fn parses_and_formats_opening_moves() {
        let mut pos = Position::startpos();
        for (text, usi) in [
            ("+7776FU", "7g7f"),
            ("-3334FU", "3c3d"),
            ("+8822UM", "8h2b+"),
            ("-3122GI", "3a2b"),
            ("+0055KA", "B*5e"),
        ] {
            let m = parse_move(&pos, text).unwrap();
            assert_eq!(m.to_usi(), usi);
            assert_eq!(move_text(m), text);
            pos.do_move(m);
        }
    }

    #[test]
    fn rejects_wrong_side_illegal_and_garbage() {
        let pos = Position::startpos();
        for illegal in [
            "-3334FU", "+5554FU", "+7776TO", "+0055KA", "+5957OU", "+0076FU",
        ] {
            assert_eq!(
                parse_move(&pos, illegal),
                Err(MoveError::Illegal),
                "{illegal}"
            );
        }
        for bad in [
            "",
            "+7776F",
            "*7776FU",
            "+7a76FU",
            "+7776XX",
            "+77760FU",
            "+7０76FU",
            "+0176FU",
        ] {
            assert_eq!(parse_move(&pos, bad), Err(MoveError::Syntax), "{bad}");
        }
    }

    #[test]
    fn seconds_with_and_without_milliseconds() {
        assert_eq!(parse_seconds("12"), Some(12_000));
        assert_eq!(parse_seconds("1.5"), Some(1_500));
        assert_eq!(parse_seconds("0.001"), Some(1));
        for bad in ["", ".5", "1.2345", "x", "-1"] {
            assert_eq!(parse_seconds(bad), None, "{bad}");
        }
    }

    const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

    #[test]
    fn reads_rows_pi_handicaps_and_hands() {
        let full = position_lines(&Position::startpos(), BoardStyle::Full);
        assert_eq!(full[1], "P2 * -HI *  *  *  *  * -KA * ");
        let rows = full[..9].join("\n");
        assert_eq!(read(&rows, Color::Black).unwrap().to_sfen(), START);
        // The last cell's trailing space stripped (as editors do) still reads.
        let stripped: Vec<&str> = full[..9].iter().map(|l| l.trim_end()).collect();
        assert_eq!(
            read(&stripped.join("\n"), Color::Black).unwrap().to_sfen(),
            START
        );
        assert_eq!(read("PI", Color::Black).unwrap().to_sfen(), START);
        assert_eq!(
            read("PI82HI22KA", Color::White).unwrap().to_sfen(),
            "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
        );
        // A mate problem: kings and hands, the rest of the set to White's hand.
        let sfen = read("P-11OU\nP+33KI00KI00FU\nP-00AL", Color::Black)
            .unwrap()
            .to_sfen();
        assert!(
            sfen.starts_with("8k/9/6G2/9/9/9/9/9/9 b GP2r2b2g4s4n4l17p"),
            "{sfen}"
        );
        assert_eq!(
            BoardReader::new().position(Color::Black).unwrap().to_sfen(),
            START
        );
    }

    #[test]
    fn rejects_bad_position_lines() {
        for bad in [
            "P1-KY-KE",
            "P1-KY-KE-GI-KI-XX-KI-GI-KE-KY",
            "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY-KY",
            "PI82KA",
            "PI82H",
            "P+00OU",
            "P+0019FU",
            "P+5",
        ] {
            let mut r = BoardReader::new();
            assert_eq!(r.line(bad), Err(BadBoardLine), "{bad}");
        }
        assert_eq!(BoardReader::new().line("+7776FU"), Ok(false));
        assert_eq!(BoardReader::new().line("P"), Ok(false));
    }

    #[test]
    fn writes_short_and_full_blocks_that_read_back() {
        let mut pos = Position::startpos();
        assert_eq!(position_lines(&pos, BoardStyle::Short), ["PI", "+"]);
        for text in ["+7776FU", "-3334FU", "+8822UM", "-3122GI"] {
            let m = parse_move(&pos, text).unwrap();
            pos.do_move(m);
        }
        for style in [BoardStyle::Short, BoardStyle::Full] {
            let lines = position_lines(&pos, style);
            assert_eq!(lines[9], "P+00KA");
            assert_eq!(lines[10], "P-00KA");
            assert_eq!(lines[11], "+");
            let back = read(&lines[..11].join("\n"), Color::Black).unwrap();
            assert_eq!(back.board(), pos.board());
            assert_eq!(back.hand(Color::White), pos.hand(Color::White));
        }
    }
}
