//! The `BEGIN Position` block of a Game_Summary (CSA record position syntax): `PI` with optional
//! removals, `P1`..`P9` rows, `P+`/`P-` piece lists (`00` = hand, `00AL` = all the rest), the
//! side-to-move line, then moves already played (`+2726FU,T12`) for resumed games.

use crate::csa_move::{color_from_sign, parse_csa_move, piece_from_name, square_from_digits};
use crate::error::ParseError;
use hayate_core::{Color, Move, Piece, PieceType, Position};

/// A move already played before the game (re)started, with the seconds it was charged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    /// The move.
    pub mv: Move,
    /// Seconds charged (`,T<n>`), if given.
    pub seconds: Option<u32>,
}

/// A parsed position block.
#[derive(Clone)]
pub struct PositionBlock {
    /// The position the game started from (before `moves`).
    pub initial: Position,
    /// Moves already played from `initial`.
    pub moves: Vec<PlayedMove>,
    /// The block's lines as received, for the record file.
    pub lines: Vec<String>,
}

impl PositionBlock {
    /// The position after the moves already played (with their history, for repetitions).
    pub fn current(&self) -> Position {
        let mut pos = self.initial.clone();
        for pm in &self.moves {
            pos.do_move(pm.mv);
        }
        pos
    }
}

impl std::fmt::Debug for PositionBlock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PositionBlock")
            .field("initial", &self.initial.to_sfen())
            .field("moves", &self.moves.len())
            .finish()
    }
}

/// Board and hands while the block is being read.
struct Setup {
    board: [Piece; 81],
    /// Hand counts per colour, indexed by `PieceType::raw()` of the unpromoted type.
    hands: [[u32; 8]; 2],
}

const HIRATE: [&str; 9] = [
    "-KY-KE-GI-KI-OU-KI-GI-KE-KY",
    " * -HI *  *  *  *  * -KA * ",
    "-FU-FU-FU-FU-FU-FU-FU-FU-FU",
    " *  *  *  *  *  *  *  *  * ",
    " *  *  *  *  *  *  *  *  * ",
    " *  *  *  *  *  *  *  *  * ",
    "+FU+FU+FU+FU+FU+FU+FU+FU+FU",
    " * +KA *  *  *  *  * +HI * ",
    "+KY+KE+GI+KI+OU+KI+GI+KE+KY",
];

impl Setup {
    fn empty() -> Setup {
        Setup {
            board: [Piece::EMPTY; 81],
            hands: [[0; 8]; 2],
        }
    }

    /// A `P1`..`P9` row: 9 cells of 3 characters, file 9 first. A missing trailing space of
    /// the last empty cell is tolerated.
    fn row(&mut self, rank: u8, cells: &str) -> Result<(), ParseError> {
        let bad = || ParseError::PositionLine(format!("P{rank}{cells}"));
        let b = cells.as_bytes();
        if !cells.is_ascii() || b.len() < 26 || b.len() > 27 {
            return Err(bad());
        }
        for i in 0..9u8 {
            let start = usize::from(i) * 3;
            let cell = &cells[start..(start + 3).min(cells.len())];
            let sq = hayate_core::Square::from_file_rank(9 - i, rank).ok_or_else(bad)?;
            if cell.trim() == "*" {
                self.board[sq.index()] = Piece::EMPTY;
                continue;
            }
            let color = cell
                .chars()
                .next()
                .and_then(color_from_sign)
                .ok_or_else(bad)?;
            let pt = cell.get(1..3).and_then(piece_from_name).ok_or_else(bad)?;
            self.board[sq.index()] = Piece::new(color, pt);
        }
        Ok(())
    }

    /// `PI` followed by removals of `<square><piece>` (handicaps such as `PI82HI22KA`).
    fn hirate_minus(&mut self, rest: &str) -> Result<(), ParseError> {
        for (r, row) in HIRATE.iter().enumerate() {
            self.row(r as u8 + 1, row)?;
        }
        let bad = || ParseError::PositionLine(format!("PI{rest}"));
        if !rest.len().is_multiple_of(4) || !rest.is_ascii() {
            return Err(bad());
        }
        for chunk in rest.as_bytes().chunks(4) {
            let sq = square_from_digits(chunk[0], chunk[1]).ok_or_else(bad)?;
            let name = std::str::from_utf8(&chunk[2..4]).map_err(|_| bad())?;
            let pt = piece_from_name(name).ok_or_else(bad)?;
            if self.board[sq.index()].piece_type() != pt {
                return Err(bad());
            }
            self.board[sq.index()] = Piece::EMPTY;
        }
        Ok(())
    }

    /// `P+` / `P-` lists of `<square><piece>`; square `00` means the hand, `00AL` the rest.
    fn pieces(&mut self, color: Color, rest: &str, line: &str) -> Result<(), ParseError> {
        let bad = || ParseError::PositionLine(line.to_string());
        if !rest.len().is_multiple_of(4) || !rest.is_ascii() {
            return Err(bad());
        }
        for chunk in rest.as_bytes().chunks(4) {
            let name = std::str::from_utf8(&chunk[2..4]).map_err(|_| bad())?;
            if &chunk[0..2] == b"00" && name == "AL" {
                self.rest_to_hand(color);
                continue;
            }
            let pt = piece_from_name(name).ok_or_else(bad)?;
            if &chunk[0..2] == b"00" {
                if !pt.is_hand_type() {
                    return Err(bad());
                }
                self.hands[color.index()][pt.index()] += 1;
            } else {
                let sq = square_from_digits(chunk[0], chunk[1]).ok_or_else(bad)?;
                self.board[sq.index()] = Piece::new(color, pt);
            }
        }
        Ok(())
    }

    /// Every piece of the full set not on the board or in a hand goes to `color`'s hand.
    fn rest_to_hand(&mut self, color: Color) {
        for pt in PieceType::HAND_TYPES {
            let on_board = self
                .board
                .iter()
                .filter(|p| !p.is_empty() && p.piece_type().unpromoted() == pt)
                .count() as u32;
            let held = self.hands[0][pt.index()] + self.hands[1][pt.index()];
            let rest = u32::from(pt.full_set_count()).saturating_sub(on_board + held);
            self.hands[color.index()][pt.index()] += rest;
        }
    }

    fn to_position(&self, side: Color) -> Result<Position, ParseError> {
        let mut sfen = String::with_capacity(96);
        for rank in 1..=9u8 {
            let mut empty = 0;
            for file in (1..=9u8).rev() {
                let Some(sq) = hayate_core::Square::from_file_rank(file, rank) else {
                    continue;
                };
                let p = self.board[sq.index()];
                if p.is_empty() {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    sfen.push_str(&empty.to_string());
                    empty = 0;
                }
                sfen.push_str(&p.to_sfen());
            }
            if empty > 0 {
                sfen.push_str(&empty.to_string());
            }
            if rank < 9 {
                sfen.push('/');
            }
        }
        sfen.push_str(if side == Color::Black { " b " } else { " w " });
        let mut hand = String::new();
        for c in [Color::Black, Color::White] {
            for pt in PieceType::HAND_SFEN_ORDER {
                let n = self.hands[c.index()][pt.index()];
                if n == 0 {
                    continue;
                }
                if n > 1 {
                    hand.push_str(&n.to_string());
                }
                let l = pt.sfen_letter();
                hand.push(if c == Color::White {
                    l.to_ascii_lowercase()
                } else {
                    l
                });
            }
        }
        sfen.push_str(if hand.is_empty() { "-" } else { &hand });
        sfen.push_str(" 1");
        Position::from_sfen(&sfen).map_err(|e| ParseError::Position(format!("{e} ({sfen})")))
    }
}

/// Parses the lines between `BEGIN Position` and `END Position`.
///
/// # Errors
/// A [`ParseError`] naming the first bad line; an illegal move already played is an error too.
pub fn parse_position_block(lines: &[String]) -> Result<PositionBlock, ParseError> {
    let mut setup = Setup::empty();
    let mut side: Option<Color> = None;
    let mut pos: Option<Position> = None;
    let mut moves = Vec::new();
    for raw in lines {
        let line = raw.trim_end_matches(['\r', '\n']);
        if line.is_empty() || line.starts_with('\'') {
            continue;
        }
        if pos.is_none() {
            if let Some(rest) = line.strip_prefix("PI") {
                setup.hirate_minus(rest.trim_end())?;
                continue;
            }
            if let Some(rest) = line.strip_prefix("P+") {
                setup.pieces(Color::Black, rest.trim_end(), line)?;
                continue;
            }
            if let Some(rest) = line.strip_prefix("P-") {
                setup.pieces(Color::White, rest.trim_end(), line)?;
                continue;
            }
            let b = line.as_bytes();
            if b.len() >= 2 && b[0] == b'P' && (b'1'..=b'9').contains(&b[1]) {
                setup.row(b[1] - b'0', &line[2..])?;
                continue;
            }
            if line == "+" || line == "-" {
                let c = if line == "+" {
                    Color::Black
                } else {
                    Color::White
                };
                side = Some(c);
                pos = Some(setup.to_position(c)?);
                continue;
            }
            return Err(ParseError::PositionLine(line.to_string()));
        }
        // After the side line: moves already played, `+2726FU,T12` (a `T12` line may follow).
        let Some(p) = pos.as_mut() else { continue };
        if let Some(t) = line.strip_prefix('T') {
            let secs = t
                .parse::<u32>()
                .map_err(|_| ParseError::PositionLine(line.to_string()))?;
            if let Some(last) = moves.last_mut() {
                let last: &mut PlayedMove = last;
                last.seconds = Some(secs);
            }
            continue;
        }
        let (text, seconds) = split_move_time(line)?;
        let mv = parse_csa_move(p, text)?;
        p.do_move(mv);
        moves.push(PlayedMove { mv, seconds });
    }
    let Some(side) = side else {
        return Err(ParseError::SummaryMissing("side to move in Position"));
    };
    let initial = setup.to_position(side)?;
    Ok(PositionBlock {
        initial,
        moves,
        lines: lines.to_vec(),
    })
}

/// Splits `+7776FU,T12` (or `+7776FU,T12,'comment`) into the move text and the seconds.
///
/// # Errors
/// [`ParseError::MoveSyntax`] when the `,T` part is not a number.
pub fn split_move_time(line: &str) -> Result<(&str, Option<u32>), ParseError> {
    let mut parts = line.split(',');
    let text = parts.next().unwrap_or("");
    let mut seconds = None;
    for part in parts {
        if let Some(t) = part.strip_prefix('T') {
            // Seconds may carry a decimal part in newer servers (`T12.345`): keep whole seconds.
            let whole = t.split('.').next().unwrap_or("");
            seconds = Some(
                whole
                    .parse::<u32>()
                    .map_err(|_| ParseError::MoveSyntax(line.to_string()))?,
            );
        } else if part.starts_with('\'') {
            break;
        }
    }
    Ok((text, seconds))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(s: &str) -> Vec<String> {
        s.lines().map(str::to_string).collect()
    }

    const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

    #[test]
    fn reads_the_shogi_server_block() {
        let block = lines(
            "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\nP2 * -HI *  *  *  *  * -KA * \n\
             P3-FU-FU-FU-FU-FU-FU-FU-FU-FU\nP4 *  *  *  *  *  *  *  *  * \n\
             P5 *  *  *  *  *  *  *  *  * \nP6 *  *  *  *  *  *  *  *  * \n\
             P7+FU+FU+FU+FU+FU+FU+FU+FU+FU\nP8 * +KA *  *  *  *  * +HI * \n\
             P9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n+",
        );
        let pb = parse_position_block(&block).unwrap();
        assert_eq!(pb.initial.to_sfen(), START);
        assert!(pb.moves.is_empty());
    }

    #[test]
    fn reads_pi_empty_hands_and_played_moves() {
        let pb = parse_position_block(&lines("PI\nP+\nP-\n+\n+2726FU,T12\n-3334FU,T6")).unwrap();
        assert_eq!(pb.initial.to_sfen(), START);
        assert_eq!(pb.moves.len(), 2);
        assert_eq!(pb.moves[0].seconds, Some(12));
        assert_eq!(pb.moves[1].mv.to_usi(), "3c3d");
        assert_eq!(pb.current().side_to_move(), Color::Black);
    }

    #[test]
    fn reads_handicap_and_hands() {
        let pb = parse_position_block(&lines("PI82HI22KA\n-")).unwrap();
        assert_eq!(
            pb.initial.to_sfen(),
            "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
        );
        // A mate problem style setup: kings and hands, the rest to White's hand.
        let pb = parse_position_block(&lines("P-11OU\nP+33KI00KI00FU\nP-00AL\n+")).unwrap();
        let sfen = pb.initial.to_sfen();
        assert!(
            sfen.starts_with("8k/9/6G2/9/9/9/9/9/9 b GP2r2b2g4s4n4l17p"),
            "{sfen}"
        );
    }

    #[test]
    fn rejects_bad_lines() {
        for bad in [
            "P1-KY-KE\n+",
            "P1-KY-KE-GI-KI-XX-KI-GI-KE-KY\n+",
            "PI82KA\n+",
            "P+00OU\n+",
            "Q\n+",
            "PI",
            "PI\n+\n+5554FU",
            "PI\n+\n+7776FU,Tx",
        ] {
            assert!(parse_position_block(&lines(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn splits_time_and_comment() {
        assert_eq!(split_move_time("+7776FU,T3").unwrap(), ("+7776FU", Some(3)));
        assert_eq!(split_move_time("%TORYO").unwrap(), ("%TORYO", None));
        assert_eq!(
            split_move_time("+7776FU,'* 30 -3334FU").unwrap(),
            ("+7776FU", None)
        );
        assert_eq!(
            split_move_time("+7776FU,T2.5").unwrap(),
            ("+7776FU", Some(2))
        );
        assert!(split_move_time("+7776FU,Tq").is_err());
    }
}
