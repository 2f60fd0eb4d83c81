//! The `BEGIN Position` block of a Game_Summary (CSA record position syntax): `PI` with optional
//! removals, `P1`..`P9` rows, `P+`/`P-` piece lists (`00` = hand, `00AL` = all the rest), the
//! side-to-move line, then moves already played (`+2726FU,T12`) for resumed games. The board
//! lines are read by the shared notation ([`hayate_records::game::csa_notation`]).

use crate::csa_move::parse_csa_move;
use crate::error::ParseError;
use hayate_core::{Color, Move, Position};
use hayate_records::game::csa_notation::{BadBoardLine, BoardReader, parse_seconds};

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

/// Parses the lines between `BEGIN Position` and `END Position`.
///
/// # Errors
/// A [`ParseError`] naming the first bad line; an illegal move already played is an error too.
pub fn parse_position_block(lines: &[String]) -> Result<PositionBlock, ParseError> {
    let mut board = BoardReader::new();
    let mut initial: Option<Position> = None;
    let mut pos: Option<Position> = None;
    let mut moves = Vec::new();
    for raw in lines {
        let line = raw.trim_end_matches(['\r', '\n']);
        if line.is_empty() || line.starts_with('\'') {
            continue;
        }
        let Some(p) = pos.as_mut() else {
            let bad = || ParseError::PositionLine(line.to_string());
            if board.line(line).map_err(|BadBoardLine| bad())? {
                continue;
            }
            let side = match line {
                "+" => Color::Black,
                "-" => Color::White,
                _ => return Err(bad()),
            };
            if !board.has_lines() {
                return Err(ParseError::SummaryMissing("the board in Position"));
            }
            let start = board
                .position(side)
                .map_err(|e| ParseError::Position(e.to_string()))?;
            initial = Some(start.clone());
            pos = Some(start);
            continue;
        };
        // After the side line: moves already played, `+2726FU,T12` (a `T12` line may follow).
        if let Some(t) = line.strip_prefix('T') {
            let secs = parse_seconds(t)
                .map(|ms| ms / 1000)
                .and_then(|s| u32::try_from(s).ok())
                .ok_or_else(|| ParseError::PositionLine(line.to_string()))?;
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
    let Some(initial) = initial else {
        return Err(ParseError::SummaryMissing("side to move in Position"));
    };
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
            seconds = Some(
                parse_seconds(t)
                    .and_then(|ms| u32::try_from(ms / 1000).ok())
                    .ok_or_else(|| ParseError::MoveSyntax(line.to_string()))?,
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
